/* nodes.c: one row per node with Slurm's state and suffix, CPUs and GPUs
 * in use, the reservation it is in, and the drain/down reason with who set
 * it and when. Enter opens the node's detail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

/* Per node: its partitions and the reservation it is in, rebuilt each
 * update (core/cells.c). */
static void *priv_new(void)
{
	return calloc(1, sizeof(struct oc_node_places));
}

static void priv_free(void *p)
{
	if (p)
		oc_node_places_free(p);
	free(p);
}

static const struct oc_node *node(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->nodes->v[item];
}

static int cmp_u64(uint64_t x, uint64_t y)
{
	return x < y ? -1 : x > y;
}

static int c_name_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return oc_natcmp(node(lv, a)->name, node(lv, b)->name);
}

static int c_state_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	int r = (int)oc_node_health(node(lv, b)) - (int)oc_node_health(node(lv, a));
	if (r)
		return r;
	char x[32], y[32];
	return strcmp(oc_node_state_compact(node(lv, a), x, sizeof(x)),
		      oc_node_state_compact(node(lv, b), y, sizeof(y)));
}

static int c_cpus_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u64(node(lv, a)->alloc_cpus, node(lv, b)->alloc_cpus);
}

static int c_gpus_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u64(node(lv, a)->alloc_gpus, node(lv, b)->alloc_gpus);
}

static int c_mem_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u64(node(lv, a)->alloc_mem_mb, node(lv, b)->alloc_mem_mb);
}

static int c_since_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	const struct oc_node *x = node(lv, a), *y = node(lv, b);
	return cmp_u64((uint64_t)(x->reason ? x->reason_time : 0), (uint64_t)(y->reason ? y->reason_time : 0));
}

static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	const struct oc_node *n = node(lv, item);
	switch (oc_node_health(n)) {
	case OC_HEALTH_DRAINING: return OC_ROLE_WARN;
	case OC_HEALTH_DRAINED:
	case OC_HEALTH_DOWN:
	case OC_HEALTH_RESUME_FAILED:
	case OC_HEALTH_NOT_RESPONDING: return OC_ROLE_BAD;
	case OC_HEALTH_POWER: return OC_ROLE_DIM;
	default: return n->base == OC_NODE_IDLE ? OC_ROLE_OK : OC_ROLE_BUSY;
	}
}

/* Nodes in a reservation are marked in their name, so that the mark stays
 * when the RESV column gives way on a narrow terminal. */
static enum oc_role r_name(struct oc_listview *lv, uint32_t item)
{
	struct oc_node_places *np = lv->priv;
	return item < np->n && np->resv[item] ? OC_ROLE_WARN : OC_ROLE_NORMAL;
}

static enum oc_role r_reason(struct oc_listview *lv, uint32_t item)
{
	enum oc_role r = r_state(lv, item);
	return (r == OC_ROLE_OK || r == OC_ROLE_BUSY) ? OC_ROLE_NORMAL : r;
}

/* A slurmd of another version than slurmctld's (a scheduler upgrade not
 * yet rolled out to the node). */
static enum oc_role r_slurmd(struct oc_listview *lv, uint32_t item)
{
	return oc_version_slurmd_differs(node(lv, item)->version, lv->snap->slurm_version) ? OC_ROLE_WARN
											     : OC_ROLE_NORMAL;
}

/* The columns are core/columns.c's oc_cat_nodes. */
static const struct oc_col_ui cols[] = {
	{"node", c_name_cmp, r_name, NULL, NULL},	  {"state", c_state_cmp, r_state, NULL, NULL}, {"cpus", c_cpus_cmp, NULL, NULL, NULL},
	{"gpus", c_gpus_cmp, NULL, NULL, NULL},	  {"mem", c_mem_cmp, NULL, NULL, NULL},	   {"since", c_since_cmp, NULL, NULL, NULL},
	{"ago", c_since_cmp, NULL, NULL, NULL},	  {"reason", NULL, r_reason, NULL, NULL},	   {"slurmd", NULL, r_slurmd, NULL, NULL},
};

/* The view's scope (lv->arg, set by oc_nodes_scope): "partition NAME" or
 * "reservation NAME", the nodes of one partition or reservation. Returns
 * whether lv->arg is one; kind and name point into it. */
static bool scope_of(const struct oc_listview *lv, char *kind, size_t klen, const char **name)
{
	const char *sp = strchr(lv->arg, ' ');
	if (!sp || !sp[1])
		return false;
	snprintf(kind, klen, "%.*s", (int)(sp - lv->arg), lv->arg);
	*name = sp + 1;
	return true;
}

/* The node indexes of the scope's partition or reservation in s: sets
 * *idx and *n, or returns false when s has no such one (any more). */
static bool scope_nodes(const struct oc_snapshot *s, const char *kind, const char *name, const uint32_t **idx,
			uint32_t *n)
{
	if (strcmp(kind, "partition") == 0) {
		for (size_t i = 0; s->partitions && i < s->partitions->n; i++)
			if (strcmp(s->partitions->v[i].name, name) == 0) {
				*idx = s->partitions->v[i].node_idx;
				*n = s->partitions->v[i].node_count;
				return true;
			}
	} else if (strcmp(kind, "reservation") == 0) {
		for (size_t i = 0; s->reservations && i < s->reservations->n; i++)
			if (strcmp(s->reservations->v[i].name, name) == 0) {
				*idx = s->reservations->v[i].node_idx;
				*n = s->reservations->v[i].node_idx_count;
				return true;
			}
	}
	return false;
}

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	size_t n = s->nodes ? s->nodes->n : 0;
	if (oc_listview_reserve(lv, n) < 0)
		return 0;
	oc_node_places_fill(lv->priv, s, lv->app->show_hidden, lv->app->now);
	lv->src.extra = lv->priv;
	size_t k = oc_node_rows(s->nodes, NULL, OC_NODE_SORT_NAME, false, lv->items);
	char kind[16];
	const char *name;
	if (!scope_of(lv, kind, sizeof(kind), &name) || !s->seq)
		return k;
	const uint32_t *idx = NULL;
	uint32_t count = 0;
	if (!scope_nodes(s, kind, name, &idx, &count)) {
		/* Gone (deleted, ended, renamed): every node again, said. */
		oc_app_message(lv->app, true, " %s %s is gone: every node is listed", kind, name);
		lv->arg[0] = '\0';
		return k;
	}
	/* Keep the name order, members only. */
	unsigned char *in = calloc(n ? n : 1, 1);
	if (!in)
		return k;
	for (uint32_t i = 0; i < count; i++)
		if (idx[i] < n)
			in[idx[i]] = 1;
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (in[lv->items[i]])
			lv->items[m++] = lv->items[i];
	free(in);
	return m;
}

bool oc_nodes_scope(struct oc_app *app, const char *kind, const char *name)
{
	if (!oc_app_goto(app, "nodes", NULL))
		return false;
	struct oc_listview *lv = app->view[app->cur];
	char arg[sizeof(lv->arg)];
	snprintf(arg, sizeof(arg), "%s %s", kind, name);
	oc_listview_set_filter(lv, "");
	oc_listview_open(lv, arg);
	oc_listview_update(lv, app->snap);
	return true;
}

static const char *tag_key(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return node(lv, item)->name;
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	oc_app_show_node(lv->app, node(lv, item)->name);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct oc_node_places *np = lv->priv;
	size_t reserved = 0, other = 0;
	for (size_t i = 0; i < lv->nitems; i++) {
		if (lv->items[i] < np->n && np->resv[lv->items[i]])
			reserved++;
		other += oc_version_slurmd_differs(node(lv, lv->items[i])->version, lv->snap->slurm_version);
	}
	char kind[16];
	const char *name;
	buf[0] = '\0';
	if (scope_of(lv, kind, sizeof(kind), &name))
		snprintf(buf, len, "%s %s  ", kind, name);
	oc_appendf(buf, len, "%zu %s", lv->nitems, oc_plural(lv->nitems, "node", "nodes"));
	if (reserved)
		oc_appendf(buf, len, ", %zu reserved", reserved);
	/* After a scheduler upgrade: nodes still on the old slurmd. */
	if (other)
		oc_appendf(buf, len, ", %zu on another slurmd", other);
}

const struct oc_listview_def oc_lv_nodes = {
	.name = "nodes",
	.title = "Nodes",
	.focus = OC_FOCUS_NODES,
	.cat = &oc_cat_nodes,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = NULL,
	.collect = collect,
	.pure_collect = true,
	.tags = OC_TAG_NODES,
	.tag_key = tag_key,
	.open = open_item,
	.context = context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
