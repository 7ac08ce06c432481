#include "core/views.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cells.h"
#include "core/state.h"

bool oc_contains_ci(const char *hay, const char *needle)
{
	if (!needle || !*needle)
		return true;
	if (!hay)
		return false;
	size_t nl = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, nl) == 0)
			return true;
	return false;
}

int oc_natcmp(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : (b ? -1 : 0);
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : (*b ? -1 : 0);
}

bool oc_job_active(const struct oc_job *j)
{
	return j->state == OC_JOB_PENDING || j->state == OC_JOB_RUNNING ||
	       j->state == OC_JOB_SUSPENDED || (j->flags & OC_JF_COMPLETING);
}

bool oc_job_in_partition(const struct oc_job *j, const char *part)
{
	if (!part)
		return true;
	if (!j->partition)
		return false;
	size_t pl = strlen(part);
	for (const char *p = j->partition; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == pl && strncmp(p, part, pl) == 0)
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static const struct oc_partition *part_by_name(const struct oc_partitions *t, const char *name,
					       size_t len)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (strlen(t->v[i].name) == len && strncmp(t->v[i].name, name, len) == 0)
			return &t->v[i];
	return NULL;
}

bool oc_partition_visible(const struct oc_partitions *t, const char *name, bool show_hidden)
{
	const struct oc_partition *p = name ? part_by_name(t, name, strlen(name)) : NULL;
	return p && (show_hidden || !(p->flags & OC_PF_HIDDEN));
}

/* Whether every partition a job names is hidden (then it is listed only
 * with show_hidden). Jobs in unknown partitions stay visible. */
static bool job_only_hidden(const struct oc_job *j, const struct oc_partitions *t)
{
	if (!j->partition)
		return false;
	for (const char *p = j->partition; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const struct oc_partition *part = part_by_name(t, p, len);
		if (!part || !(part->flags & OC_PF_HIDDEN))
			return false;
		p = comma ? comma + 1 : NULL;
	}
	return true;
}

long oc_part_rows(const struct oc_snapshot *s, bool show_hidden, struct oc_part_row **rows)
{
	*rows = NULL;
	const struct oc_partitions *pt = s->partitions;
	if (!pt || pt->n == 0)
		return 0;
	struct oc_part_row *r = calloc(pt->n, sizeof(*r));
	if (!r)
		return -1;
	size_t n = 0;
	/* Map partition table index -> row, for the job pass. */
	long *row_of = malloc(sizeof(long) * pt->n);
	if (!row_of) {
		free(r);
		return -1;
	}
	for (size_t i = 0; i < pt->n; i++) {
		const struct oc_partition *p = &pt->v[i];
		row_of[i] = -1;
		if ((p->flags & OC_PF_HIDDEN) && !show_hidden)
			continue;
		row_of[i] = (long)n;
		struct oc_part_row *row = &r[n++];
		row->part = (uint32_t)i;
		for (uint32_t k = 0; k < p->node_count; k++) {
			if (!s->nodes || p->node_idx[k] >= s->nodes->n)
				continue;
			const struct oc_node *nd = &s->nodes->v[p->node_idx[k]];
			row->nodes++;
			row->gpus_total += nd->gpus;
			row->gpus_alloc += nd->alloc_gpus;
			switch (oc_node_health(nd)) {
			case OC_HEALTH_DRAINING:
			case OC_HEALTH_DRAINED: row->drain++; break;
			case OC_HEALTH_DOWN:
			case OC_HEALTH_RESUME_FAILED:
			case OC_HEALTH_NOT_RESPONDING: row->down++; break;
			case OC_HEALTH_POWER: row->power++; break;
			default:
				if (nd->base == OC_NODE_ALLOCATED)
					row->alloc++;
				else if (nd->base == OC_NODE_MIXED)
					row->mix++;
				else if (nd->base == OC_NODE_IDLE)
					row->idle++;
				else
					row->other++;
			}
		}
	}
	/* One pass over the jobs; a pending job listing several partitions
	 * counts in each. */
	for (size_t j = 0; s->jobs && j < s->jobs->n; j++) {
		const struct oc_job *job = &s->jobs->v[j];
		bool run = job->state == OC_JOB_RUNNING || job->state == OC_JOB_SUSPENDED;
		bool pend = job->state == OC_JOB_PENDING;
		if ((!run && !pend) || !job->partition)
			continue;
		for (const char *p = job->partition; p && *p;) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			const struct oc_partition *part = part_by_name(pt, p, len);
			if (part) {
				long ri = row_of[part - pt->v];
				if (ri >= 0) {
					if (run)
						r[ri].jobs_running++;
					else
						r[ri].jobs_pending++;
				}
			}
			p = comma ? comma + 1 : NULL;
		}
	}
	free(row_of);
	*rows = r;
	return (long)n;
}

/* ---- jobs -------------------------------------------------------------- */

struct job_sort_ctx {
	const struct oc_job *v;
	enum oc_job_sort sort;
	int dir;
	time_t now;
};

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int job_state_rank(const struct oc_job *j)
{
	switch (j->state) {
	case OC_JOB_RUNNING: return (j->flags & OC_JF_COMPLETING) ? 1 : 0;
	case OC_JOB_SUSPENDED: return 2;
	case OC_JOB_PENDING: return 3;
	default: return 4;
	}
}

static int job_cmp(const void *pa, const void *pb, void *arg)
{
	const struct job_sort_ctx *c = arg;
	const struct oc_job *a = &c->v[*(const uint32_t *)pa];
	const struct oc_job *b = &c->v[*(const uint32_t *)pb];
	int r = 0;
	switch (c->sort) {
	case OC_JOB_SORT_DEFAULT:
		r = job_state_rank(a) - job_state_rank(b);
		if (!r)
			r = -cmp_u32(a->priority, b->priority);
		break;
	case OC_JOB_SORT_ID: break;
	case OC_JOB_SORT_USER: r = cmp_str(a->user, b->user); break;
	case OC_JOB_SORT_ACCOUNT: r = cmp_str(a->account, b->account); break;
	case OC_JOB_SORT_PARTITION: r = cmp_str(a->partition, b->partition); break;
	case OC_JOB_SORT_STATE: r = job_state_rank(a) - job_state_rank(b); break;
	case OC_JOB_SORT_TIME: {
		long long ta = oc_cells_job_run_seconds(a, c->now), tb = oc_cells_job_run_seconds(b, c->now);
		r = ta < tb ? -1 : ta > tb;
		break;
	}
	case OC_JOB_SORT_GPUS: r = cmp_u32(a->gpus, b->gpus); break;
	case OC_JOB_SORT_PRIORITY: r = cmp_u32(a->priority, b->priority); break;
	default: break;
	}
	if (!r)
		r = cmp_u32(a->job_id, b->job_id);
	if (!r)
		r = cmp_u32(a->array_task_id, b->array_task_id);
	return r * c->dir;
}

static bool job_matches(const struct oc_job *j, const char *f)
{
	if (!f || !*f)
		return true;
	char id[24];
	snprintf(id, sizeof(id), "%u", j->job_id);
	return oc_contains_ci(id, f) || oc_contains_ci(j->name, f) || oc_contains_ci(j->user, f) ||
	       oc_contains_ci(j->account, f) || oc_contains_ci(j->partition, f) ||
	       oc_contains_ci(j->qos, f) || oc_contains_ci(oc_job_state_name(j->state), f) ||
	       oc_contains_ci(j->reason, f) || oc_contains_ci(j->nodes, f);
}

size_t oc_job_rows(const struct oc_snapshot *s, const char *part, const char *filter,
		   enum oc_job_sort sort, bool desc, bool show_hidden, uint32_t *out, time_t now)
{
	const struct oc_jobs *t = s->jobs;
	size_t n = 0;
	for (size_t i = 0; t && i < t->n; i++) {
		const struct oc_job *j = &t->v[i];
		/* Like squeue: finished jobs are not in the queue. */
		if (!oc_job_active(j))
			continue;
		if (part && !oc_job_in_partition(j, part))
			continue;
		if (!part && !show_hidden && job_only_hidden(j, s->partitions))
			continue;
		if (!job_matches(j, filter))
			continue;
		out[n++] = (uint32_t)i;
	}
	struct job_sort_ctx c = {t ? t->v : NULL, sort, desc ? -1 : 1, now};
	if (n > 1)
		qsort_r(out, n, sizeof(*out), job_cmp, &c);
	return n;
}

/* ---- nodes ------------------------------------------------------------- */

struct node_sort_ctx {
	const struct oc_node *v;
	enum oc_node_sort sort;
	int dir;
};

static int node_cmp(const void *pa, const void *pb, void *arg)
{
	const struct node_sort_ctx *c = arg;
	const struct oc_node *a = &c->v[*(const uint32_t *)pa];
	const struct oc_node *b = &c->v[*(const uint32_t *)pb];
	int r = 0;
	switch (c->sort) {
	case OC_NODE_SORT_STATE: {
		char sa[32], sb[32];
		r = (int)oc_node_health(b) - (int)oc_node_health(a);
		if (!r)
			r = strcmp(oc_node_state_compact(a, sa, sizeof(sa)),
				   oc_node_state_compact(b, sb, sizeof(sb)));
		break;
	}
	case OC_NODE_SORT_REASON:
		/* Nodes with a reason first. */
		r = (a->reason ? 0 : 1) - (b->reason ? 0 : 1);
		if (!r)
			r = cmp_str(a->reason, b->reason);
		break;
	case OC_NODE_SORT_GPUS: r = cmp_u32(a->alloc_gpus, b->alloc_gpus); break;
	default: break;
	}
	if (!r)
		r = oc_natcmp(a->name, b->name);
	return r * c->dir;
}

size_t oc_node_rows(const struct oc_nodes *t, const char *filter, enum oc_node_sort sort,
		    bool desc, uint32_t *out)
{
	size_t n = 0;
	for (size_t i = 0; t && i < t->n; i++) {
		const struct oc_node *nd = &t->v[i];
		if (filter && *filter) {
			char st[32];
			oc_node_state_compact(nd, st, sizeof(st));
			if (!oc_contains_ci(nd->name, filter) && !oc_contains_ci(st, filter) &&
			    !oc_contains_ci(nd->reason, filter) && !oc_contains_ci(nd->reason_user, filter) &&
			    !oc_contains_ci(nd->partitions, filter))
				continue;
		}
		out[n++] = (uint32_t)i;
	}
	struct node_sort_ctx c = {t ? t->v : NULL, sort, desc ? -1 : 1};
	if (n > 1)
		qsort_r(out, n, sizeof(*out), node_cmp, &c);
	return n;
}
