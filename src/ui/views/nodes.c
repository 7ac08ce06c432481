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
	{"node", c_name_cmp, r_name, NULL},	  {"state", c_state_cmp, r_state, NULL}, {"cpus", c_cpus_cmp, NULL, NULL},
	{"gpus", c_gpus_cmp, NULL, NULL},	  {"mem", c_mem_cmp, NULL, NULL},	   {"since", c_since_cmp, NULL, NULL},
	{"ago", c_since_cmp, NULL, NULL},	  {"reason", NULL, r_reason, NULL},	   {"slurmd", NULL, r_slurmd, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	size_t n = s->nodes ? s->nodes->n : 0;
	if (oc_listview_reserve(lv, n) < 0)
		return 0;
	oc_node_places_fill(lv->priv, s, lv->app->show_hidden, lv->app->now);
	lv->src.extra = lv->priv;
	return oc_node_rows(s->nodes, NULL, OC_NODE_SORT_NAME, false, lv->items);
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
	snprintf(buf, len, "%zu %s", lv->nitems, oc_plural(lv->nitems, "node", "nodes"));
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
