#include "core/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OC_TABLE_NEW(type, prefix)                                          \
	struct type *prefix##_new(void)                                     \
	{                                                                   \
		struct type *t = calloc(1, sizeof(*t));                     \
		if (t)                                                      \
			atomic_init(&t->h.refs, 1);                         \
		return t;                                                   \
	}
#define OC_TABLE_FUNCS(type, prefix)                                        \
	struct type *prefix##_ref(struct type *t)                           \
	{                                                                   \
		if (t)                                                      \
			atomic_fetch_add(&t->h.refs, 1);                    \
		return t;                                                   \
	}                                                                   \
	void prefix##_unref(struct type **tp)                               \
	{                                                                   \
		struct type *t = tp ? *tp : NULL;                           \
		if (!t)                                                     \
			return;                                             \
		*tp = NULL;                                                 \
		if (atomic_fetch_sub(&t->h.refs, 1) == 1) {                 \
			prefix##_drop_owned(t);                             \
			oc_arena_release(&t->h.arena);                      \
			free(t);                                            \
		}                                                           \
	}

/* What a table owns besides its arena, released with it. */
#define OC_OWNS_NOTHING(type, prefix) \
	static void prefix##_drop_owned(struct type *t) { (void)t; }
OC_OWNS_NOTHING(oc_nodes, oc_nodes)
OC_OWNS_NOTHING(oc_partitions, oc_partitions)
OC_OWNS_NOTHING(oc_reservations, oc_reservations)
OC_OWNS_NOTHING(oc_accounting, oc_accounting)
OC_OWNS_NOTHING(oc_config, oc_config)
OC_OWNS_NOTHING(oc_events, oc_events)
OC_OWNS_NOTHING(oc_sched, oc_sched)
OC_OWNS_NOTHING(oc_jobinfo, oc_jobinfo)
static void oc_history_drop_owned(struct oc_history *t)
{
	free(t->v_heap);
}
static void oc_jobs_drop_owned(struct oc_jobs *t)
{
	if (t->str && atomic_fetch_sub(&t->str->refs, 1) == 1) {
		oc_arena_release(&t->str->arena);
		free(t->str);
	}
}

OC_TABLE_NEW(oc_nodes, oc_nodes)
OC_TABLE_NEW(oc_partitions, oc_partitions)
OC_TABLE_NEW(oc_reservations, oc_reservations)
OC_TABLE_NEW(oc_accounting, oc_accounting)
OC_TABLE_NEW(oc_config, oc_config)
OC_TABLE_NEW(oc_history, oc_history)
OC_TABLE_NEW(oc_events, oc_events)
OC_TABLE_NEW(oc_sched, oc_sched)
OC_TABLE_NEW(oc_jobinfo, oc_jobinfo)
struct oc_jobs *oc_jobs_new(void)
{
	struct oc_jobs *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->str = calloc(1, sizeof(*t->str));
	if (!t->str) {
		free(t);
		return NULL;
	}
	atomic_init(&t->h.refs, 1);
	atomic_init(&t->str->refs, 1);
	return t;
}
OC_TABLE_FUNCS(oc_nodes, oc_nodes)
OC_TABLE_FUNCS(oc_partitions, oc_partitions)
OC_TABLE_FUNCS(oc_jobs, oc_jobs)
OC_TABLE_FUNCS(oc_reservations, oc_reservations)
OC_TABLE_FUNCS(oc_accounting, oc_accounting)
OC_TABLE_FUNCS(oc_config, oc_config)
OC_TABLE_FUNCS(oc_history, oc_history)
OC_TABLE_FUNCS(oc_events, oc_events)
OC_TABLE_FUNCS(oc_sched, oc_sched)
OC_TABLE_FUNCS(oc_jobinfo, oc_jobinfo)

bool oc_job_holds_nodes(const struct oc_job *j)
{
	return j->nodes && (j->state == OC_JOB_RUNNING || j->state == OC_JOB_SUSPENDED ||
			    (j->flags & OC_JF_COMPLETING));
}

struct oc_snapshot *oc_snapshot_new(void)
{
	struct oc_snapshot *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	atomic_init(&s->refs, 1);
	s->ctl.in_control = -1;
	s->nodes = oc_nodes_new();
	s->partitions = oc_partitions_new();
	s->jobs = oc_jobs_new();
	s->reservations = oc_reservations_new();
	s->accounting = oc_accounting_new();
	s->config = oc_config_new();
	if (!s->nodes || !s->partitions || !s->jobs || !s->reservations || !s->accounting || !s->config)
		oc_snapshot_unref(&s);
	return s;
}

struct oc_snapshot *oc_snapshot_ref(struct oc_snapshot *s)
{
	if (s)
		atomic_fetch_add(&s->refs, 1);
	return s;
}

void oc_snapshot_unref(struct oc_snapshot **sp)
{
	struct oc_snapshot *s = sp ? *sp : NULL;
	if (!s)
		return;
	*sp = NULL;
	if (atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	oc_nodes_unref(&s->nodes);
	oc_partitions_unref(&s->partitions);
	oc_jobs_unref(&s->jobs);
	oc_reservations_unref(&s->reservations);
	oc_accounting_unref(&s->accounting);
	oc_config_unref(&s->config);
	oc_history_unref(&s->history);
	oc_events_unref(&s->events);
	oc_sched_unref(&s->sched);
	oc_jobinfo_unref(&s->jobinfo);
	free(s);
}

const char *oc_config_get(const struct oc_config *c, const char *key)
{
	for (size_t i = 0; c && key && i < c->n; i++)
		if (strcasecmp(c->keys[i], key) == 0)
			return c->values[i];
	return NULL;
}

/* When key is "Base[N]" (N decimal digits), the length of Base and N in
 * *idx; else 0. */
static size_t config_array_base(const char *key, unsigned long *idx)
{
	const char *br = strchr(key, '[');
	if (!br || br == key)
		return 0;
	const char *d = br + 1;
	unsigned long v = 0;
	if (*d < '0' || *d > '9')
		return 0;
	for (; *d >= '0' && *d <= '9'; d++) {
		if (v > 100000ul)
			return 0;
		v = v * 10 + (unsigned long)(*d - '0');
	}
	if (d[0] != ']' || d[1] != '\0')
		return 0;
	*idx = v;
	return (size_t)(br - key);
}

/* Whether t holds the plain key base (blen bytes). */
static bool config_has_plain(const struct oc_config *t, const char *base, size_t blen)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->keys[i]) == blen && strncasecmp(t->keys[i], base, blen) == 0)
			return true;
	return false;
}

/* Whether entry i is the first indexed key of its base in t. */
static bool config_first_of_base(const struct oc_config *t, size_t i, size_t blen)
{
	unsigned long idx;
	for (size_t j = 0; j < i; j++)
		if (config_array_base(t->keys[j], &idx) == blen && strncasecmp(t->keys[j], t->keys[i], blen) == 0)
			return false;
	return true;
}

/* The values of base's indexed keys in index order, joined with ',', in
 * t's arena; *out NULL when none is set. Returns 0, or -1 on ENOMEM. */
static int config_join(struct oc_config *t, const char *base, size_t blen, const char **out)
{
	*out = NULL;
	size_t total = 0, cnt = 0;
	unsigned long idx;
	for (size_t i = 0; i < t->n; i++)
		if (config_array_base(t->keys[i], &idx) == blen && strncasecmp(t->keys[i], base, blen) == 0 &&
		    t->values[i]) {
			total += strlen(t->values[i]) + 1;
			cnt++;
		}
	if (!cnt)
		return 0;
	char *buf = oc_arena_alloc(&t->h.arena, total);
	if (!buf)
		return -1;
	size_t used = 0;
	/* Smallest index above the last one taken, cnt times (lists are short). */
	unsigned long last = 0;
	bool any = false;
	for (size_t k = 0; k < cnt; k++) {
		long best = -1;
		unsigned long best_idx = 0;
		for (size_t i = 0; i < t->n; i++) {
			if (config_array_base(t->keys[i], &idx) != blen || strncasecmp(t->keys[i], base, blen) != 0 ||
			    !t->values[i] || (any && idx <= last))
				continue;
			if (best < 0 || idx < best_idx) {
				best = (long)i;
				best_idx = idx;
			}
		}
		if (best < 0)
			break; /* the same index twice: the first one counts */
		size_t vl = strlen(t->values[best]);
		if (used)
			buf[used++] = ',';
		memcpy(buf + used, t->values[best], vl);
		used += vl;
		last = best_idx;
		any = true;
	}
	buf[used] = '\0';
	*out = buf;
	return 0;
}

int oc_config_fold_arrays(struct oc_config *t)
{
	if (!t)
		return 0;
	size_t add = 0;
	unsigned long idx;
	for (size_t i = 0; i < t->n; i++) {
		size_t blen = config_array_base(t->keys[i], &idx);
		if (blen && config_first_of_base(t, i, blen) && !config_has_plain(t, t->keys[i], blen))
			add++;
	}
	if (!add)
		return 0;
	const char **keys = oc_arena_alloc(&t->h.arena, (t->n + add) * sizeof(*keys));
	const char **values = oc_arena_alloc(&t->h.arena, (t->n + add) * sizeof(*values));
	if (!keys || !values)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		size_t blen = config_array_base(t->keys[i], &idx);
		if (blen && config_first_of_base(t, i, blen) && !config_has_plain(t, t->keys[i], blen)) {
			char *k = oc_arena_alloc(&t->h.arena, blen + 1);
			if (!k || config_join(t, t->keys[i], blen, &values[n]) < 0)
				return -1;
			memcpy(k, t->keys[i], blen);
			keys[n++] = k;
		}
		keys[n] = t->keys[i];
		values[n++] = t->values[i];
	}
	t->keys = keys;
	t->values = values;
	t->n = n;
	return 0;
}

long oc_nodes_find(const struct oc_nodes *t, const char *name)
{
	if (!t || !name)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].name && strcmp(t->v[i].name, name) == 0)
			return (long)i;
	return -1;
}

void oc_part_status_ok(struct oc_part_status *st, time_t now)
{
	st->fetched = now;
	st->error_since = 0;
	st->error[0] = '\0';
}

void oc_part_status_fail(struct oc_part_status *st, time_t now, const char *what, const char *why)
{
	if (!st->error_since)
		st->error_since = now;
	int w = snprintf(st->error, sizeof(st->error), "%s: ", what);
	if (w > 0 && (size_t)w < sizeof(st->error))
		snprintf(st->error + w, sizeof(st->error) - (size_t)w, "%.*s", (int)(sizeof(st->error) - (size_t)w - 1),
			 why ? why : "unknown error");
}

void oc_report_info_set(struct oc_report_info *r, bool enabled, const char *since, const char *until, time_t s,
			time_t u, double load_s)
{
	r->enabled = enabled;
	r->since = s;
	r->until = u;
	snprintf(r->since_spec, sizeof(r->since_spec), "%s", since ? since : "");
	snprintf(r->until_spec, sizeof(r->until_spec), "%s", until ? until : "");
	r->load_s = load_s;
}
