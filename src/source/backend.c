/* backend.c: what every backend shares (source.h). */
#include "source/source.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/nodeindex.h"

void oc_backend_close(struct oc_backend **bp)
{
	if (!bp || !*bp)
		return;
	(*bp)->ops->close(*bp);
	*bp = NULL;
}

unsigned oc_backend_refetch(unsigned need_full, unsigned mask, const struct oc_snapshot *prev)
{
	/* A part not asked for that never came back holds no indexes to go
	 * stale: it stays marked (fetched in full when asked), but is not
	 * fetched now (script mode asks for one view's parts only). */
	unsigned stale = need_full;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((stale & OC_MASK(p)) && !(mask & OC_MASK(p)) && !(prev && prev->status[p].fetched))
			stale &= ~OC_MASK(p);
	return stale;
}

struct oc_jobs *oc_jobs_relink(struct oc_jobs *jobs, struct oc_node_index *ix, oc_resolve_nodes_fn resolve)
{
	struct oc_jobs *t = oc_jobs_new();
	if (!t)
		return NULL;
	t->h.slurm_update = jobs->h.slurm_update;
	t->h.generation = jobs->h.generation + 1;
	t->node_generation = ix->nodes ? ix->nodes->h.generation : 0;
	/* The copy's own strings (none) for the shared ones of jobs. */
	if (atomic_fetch_sub(&t->str->refs, 1) == 1)
		free(t->str);
	t->str = jobs->str;
	atomic_fetch_add(&t->str->refs, 1);
	t->v = oc_arena_alloc(&t->h.arena, sizeof(*t->v) * (jobs->n ? jobs->n : 1));
	if (!t->v) {
		oc_jobs_unref(&t);
		return NULL;
	}
	memcpy(t->v, jobs->v, sizeof(*t->v) * jobs->n);
	t->n = jobs->n;
	for (size_t i = 0; i < t->n; i++) {
		struct oc_job *j = &t->v[i];
		j->node_idx = NULL;
		j->node_count = 0;
		if (oc_job_holds_nodes(j) && resolve(&t->h.arena, j->nodes, ix, &j->node_idx, &j->node_count) < 0) {
			oc_jobs_unref(&t);
			return NULL;
		}
	}
	return t;
}

int oc_backend_relink_jobs(const struct oc_snapshot *prev, struct oc_snapshot *next, struct oc_node_index *ix,
			   oc_resolve_nodes_fn resolve)
{
	if (!prev || next->jobs != prev->jobs || !next->jobs || !next->jobs->n)
		return 0;
	struct oc_jobs *t = oc_jobs_relink(next->jobs, ix, resolve);
	if (!t)
		return -1;
	oc_jobs_unref(&next->jobs);
	next->jobs = t;
	return 0;
}
