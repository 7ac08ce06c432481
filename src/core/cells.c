/* cells.c: cell texts shared by the screen's views and script mode. */
#include "core/cells.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "core/strbuf.h"

const char *oc_cells_part_avail(uint32_t f)
{
	return (f & OC_PF_UP) ? "up" : (f & OC_PF_DRAIN) ? "drain" : (f & OC_PF_INACTIVE) ? "inact" : "down";
}

const char *oc_cells_job_id(const struct oc_job *j, char *buf, size_t len)
{
	if (j->array_task_id != OC_NONE)
		snprintf(buf, len, "%u_%u", j->array_job_id, j->array_task_id);
	else if (j->array_tasks)
		snprintf(buf, len, "%u_[%s]", j->array_job_id, j->array_tasks);
	else if (j->het_job_id)
		snprintf(buf, len, "%u+%u", j->het_job_id, j->het_job_offset);
	else
		snprintf(buf, len, "%u", j->job_id);
	return buf;
}

const char *oc_cells_job_where(const struct oc_job *j, char *buf, size_t len)
{
	if (j->state == OC_JOB_PENDING || !j->nodes)
		snprintf(buf, len, "(%s)", j->reason ? j->reason : "None");
	else
		snprintf(buf, len, "%s", j->nodes);
	return buf;
}

long long oc_cells_job_run_seconds(const struct oc_job *j, time_t now)
{
	if (j->state == OC_JOB_PENDING || !j->start_time)
		return 0;
	time_t end = (j->state == OC_JOB_RUNNING || !j->end_time) ? now : j->end_time;
	return end > j->start_time ? (long long)(end - j->start_time) : 0;
}

const char *oc_cells_reason_since(const struct oc_node *n, char *buf, size_t len)
{
	buf[0] = '\0';
	if (n->reason && n->reason_time) {
		struct tm tm;
		localtime_r(&n->reason_time, &tm);
		strftime(buf, len, "%m-%d %H:%M", &tm);
	}
	return buf;
}

const char *oc_cells_reason_ago(const struct oc_node *n, time_t now, char *buf, size_t len)
{
	buf[0] = '\0';
	if (n->reason && n->reason_time)
		oc_format_age((long long)(now - n->reason_time), buf, len);
	return buf;
}

int oc_node_places_fill(struct oc_node_places *p, const struct oc_snapshot *s, bool show_hidden, time_t now)
{
	size_t n = s->nodes ? s->nodes->n : 0;
	p->n = 0;
	if (n > p->cap) {
		const char **r = realloc(p->resv, n * sizeof(*r));
		if (!r)
			return -1;
		p->resv = r;
		char(*pp)[64] = realloc(p->parts, n * sizeof(*pp));
		if (!pp)
			return -1;
		p->parts = pp;
		p->cap = n;
	}
	if (!n)
		return 0; /* no nodes (yet) */
	memset(p->resv, 0, n * sizeof(*p->resv));
	memset(p->parts, 0, n * sizeof(*p->parts));
	for (size_t i = 0; s->partitions && i < s->partitions->n; i++) {
		const struct oc_partition *part = &s->partitions->v[i];
		if ((part->flags & OC_PF_HIDDEN) && !show_hidden)
			continue;
		for (uint32_t k = 0; k < part->node_count; k++) {
			if (part->node_idx[k] >= n)
				continue;
			char *dst = p->parts[part->node_idx[k]];
			size_t l = strlen(dst);
			snprintf(dst + l, sizeof(*p->parts) - l, "%s%s", l ? "," : "", part->name);
		}
	}
	for (int pass = 0; pass < 2 && s->reservations; pass++) {
		for (size_t i = 0; i < s->reservations->n; i++) {
			const struct oc_reservation *r = &s->reservations->v[i];
			bool active = r->start_time <= now && now < r->end_time;
			if (active != (pass == 1))
				continue; /* future ones first, active ones overwrite */
			for (uint32_t k = 0; k < r->node_idx_count; k++)
				if (r->node_idx[k] < n)
					p->resv[r->node_idx[k]] = r->name;
		}
	}
	p->n = n;
	return 0;
}

void oc_node_places_free(struct oc_node_places *p)
{
	free(p->resv);
	free(p->parts);
	memset(p, 0, sizeof(*p));
}

const char *oc_cells_resv_state(const struct oc_reservation *r, time_t now)
{
	if (now < r->start_time)
		return "future";
	return now < r->end_time ? "ACTIVE" : "ended";
}

bool oc_cells_resv_endless(const struct oc_reservation *r)
{
	return r->end_time - r->start_time >= 365LL * 24 * 3600;
}

const char *oc_cells_resv_time(time_t t, char *buf, size_t len)
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%m-%dT%H:%M", &tm);
	return buf;
}

const char *oc_cells_resv_end(const struct oc_reservation *r, char *buf, size_t len)
{
	if (oc_cells_resv_endless(r))
		snprintf(buf, len, "infinite");
	else
		oc_cells_resv_time(r->end_time, buf, len);
	return buf;
}

const char *oc_cells_resv_duration(const struct oc_reservation *r, char *buf, size_t len)
{
	if (oc_cells_resv_endless(r))
		snprintf(buf, len, "UNLIMITED");
	else
		oc_format_duration((long long)(r->end_time - r->start_time), buf, len);
	return buf;
}

const char *oc_cells_resv_until(const struct oc_reservation *r, char *buf, size_t len)
{
	if (oc_cells_resv_endless(r)) {
		snprintf(buf, len, "until deleted");
		return buf;
	}
	char when[32];
	snprintf(buf, len, "until %s", oc_cells_local_minute(r->end_time, when, sizeof(when)));
	return buf;
}

const char *oc_cells_local_minute(time_t t, char *buf, size_t len)
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
	return buf;
}

const char *oc_cells_quota_gpus(const struct oc_quota_row *r, char *buf, size_t len)
{
	if (r->has_gpu_limit && r->gpu.limit != OC_NOLIMIT)
		snprintf(buf, len, "%llu/%llu", (unsigned long long)r->gpu.used, (unsigned long long)r->gpu.limit);
	else if (r->has_gpu_limit)
		snprintf(buf, len, "%llu/-", (unsigned long long)r->gpu.used);
	else
		snprintf(buf, len, "%llu/NONE", (unsigned long long)r->gpu.used);
	return buf;
}

const char *oc_cells_quota_bar(const struct oc_quota_row *r, uint64_t used, bool account, char *buf,
			       size_t len)
{
	const unsigned width = 10;
	if (len < width + 8)
		return buf;
	if (!r->has_gpu_limit) {
		snprintf(buf, len, "%s", account ? "no GPU limit!" : "");
		return buf;
	}
	unsigned fill = oc_quota_fill(used, r->gpu.limit, width);
	size_t o = 0;
	buf[o++] = '[';
	for (unsigned i = 0; i < width; i++)
		buf[o++] = i < fill ? '#' : '.';
	snprintf(buf + o, len - o, "]%3u%%", oc_quota_pct(used, r->gpu.limit));
	return buf;
}

const char *oc_cells_quota_blocked(uint32_t blocked, const struct oc_quota_row *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (blocked)
		oc_appendf(buf, len, "%u %s on limit", blocked, oc_plural(blocked, "job", "jobs"));
	if (!r)
		return buf;
	if (r->cpu.limit != OC_NOLIMIT)
		oc_appendf(buf, len, "%scpu %llu/%llu", buf[0] ? "; " : "", (unsigned long long)r->cpu.used,
			   (unsigned long long)r->cpu.limit);
	if (r->mem.limit != OC_NOLIMIT)
		oc_appendf(buf, len, "%smem %lluG/%lluG", buf[0] ? "; " : "", (unsigned long long)(r->mem.used / 1024),
			   (unsigned long long)(r->mem.limit / 1024));
	if (r->node.limit != OC_NOLIMIT)
		oc_appendf(buf, len, "%snode %llu/%llu", buf[0] ? "; " : "", (unsigned long long)r->node.used,
			   (unsigned long long)r->node.limit);
	return buf;
}
