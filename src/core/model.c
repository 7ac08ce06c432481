#include "core/model.h"

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
	free(s);
}

const char *oc_config_get(const struct oc_config *c, const char *key)
{
	for (size_t i = 0; c && key && i < c->n; i++)
		if (strcasecmp(c->keys[i], key) == 0)
			return c->values[i];
	return NULL;
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
