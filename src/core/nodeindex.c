/* nodeindex.c: node name -> index (nodeindex.h). */
#include "core/nodeindex.h"

#include "core/hostlist.h"

#include <string.h>

int oc_node_index_build(struct oc_node_index *ix)
{
	if (ix->built)
		return 0;
	if (oc_strmap_init(&ix->map, ix->nodes ? ix->nodes->n : 0) < 0)
		return -1;
	for (size_t i = 0; ix->nodes && i < ix->nodes->n; i++)
		if (oc_strmap_put(&ix->map, ix->nodes->v[i].name, (uint32_t)i) < 0) {
			oc_strmap_free(&ix->map);
			return -1;
		}
	ix->built = true;
	return 0;
}

uint32_t oc_node_index_get(const struct oc_node_index *ix, const char *name)
{
	return ix->built ? oc_strmap_get(&ix->map, name) : UINT32_MAX;
}

void oc_node_index_free(struct oc_node_index *ix)
{
	if (!ix)
		return;
	if (ix->built)
		oc_strmap_free(&ix->map);
	ix->built = false;
}

int oc_nodes_same_layout(const struct oc_nodes *x, const struct oc_nodes *y)
{
	if (!x || !y || x->n != y->n)
		return 0;
	if (x == y) /* the table was not loaded anew: the same one */
		return 1;
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->v[i].name, y->v[i].name) != 0)
			return 0;
	return 1;
}

/* ---- resolving node lists ---------------------------------------------- */

static int core_walk(const char *expr, int (*start)(void *ctx, long count), int (*fn)(void *ctx, const char *name),
		     void *ctx)
{
	char err[160];
	long n = oc_hostlist_count(expr, err, sizeof(err));
	int rc = start(ctx, n);
	if (rc)
		return rc;
	return oc_hostlist_foreach(expr, (size_t)n, fn, ctx, err, sizeof(err));
}

const struct oc_hostlist_ops oc_core_hostlist_ops = {.walk = core_walk};

struct resolve_ctx {
	const struct oc_node_index *ix;
	struct oc_arena *a;
	uint32_t *idx;
	uint32_t n, cap;
};

/* The guard and the allocation, once the number of names is known. */
static int resolve_start(void *ctx, long n)
{
	struct resolve_ctx *c = ctx;
	if (n <= 0)
		return 1; /* malformed: nothing resolved */
	/* A list far longer than the node table names nodes it cannot hold
	 * (a broken recorded snapshot, say "n[1-99999999]"): nothing resolved,
	 * rather than walking and allocating for every name. */
	if (!c->ix->nodes || (size_t)n > c->ix->nodes->n * 4 + 64)
		return 1;
	c->cap = (uint32_t)n;
	c->idx = oc_arena_alloc(c->a, sizeof(uint32_t) * (size_t)n);
	return c->idx ? 0 : -1;
}

static int resolve_one(void *ctx, const char *name)
{
	struct resolve_ctx *c = ctx;
	uint32_t i = oc_node_index_get(c->ix, name);
	if (i != UINT32_MAX && c->n < c->cap)
		c->idx[c->n++] = i;
	return 0;
}

int oc_node_index_resolve(struct oc_node_index *ix, const struct oc_hostlist_ops *ops, struct oc_arena *a,
			  const char *expr, uint32_t **idx, uint32_t *count)
{
	*idx = NULL;
	*count = 0;
	if (!ix || !expr || !*expr)
		return 0;
	if (oc_node_index_build(ix) < 0)
		return -1;
	struct resolve_ctx c = {.ix = ix, .a = a};
	if (ops->walk(expr, resolve_start, resolve_one, &c) < 0 && !c.idx && c.cap)
		return -1; /* the allocation failed */
	*idx = c.idx;
	*count = c.n;
	return 0;
}
