/* nodes.c: one row per node with Slurm's state and suffix, CPUs and GPUs
 * in use, the reservation it is in, and the drain/down reason with who set
 * it and when. Enter opens the node's detail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/state.h"
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

static void c_name(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%s", node(lv, item)->name);
}

static int c_name_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return oc_natcmp(node(lv, a)->name, node(lv, b)->name);
}

static void c_state(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_node_state_compact(node(lv, item), buf, len);
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

static void c_cpus(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%u/%u", node(lv, item)->alloc_cpus, node(lv, item)->cpus);
}

static int c_cpus_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u64(node(lv, a)->alloc_cpus, node(lv, b)->alloc_cpus);
}

static void c_gpus(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%u/%u", node(lv, item)->alloc_gpus, node(lv, item)->gpus);
}

static int c_gpus_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u64(node(lv, a)->alloc_gpus, node(lv, b)->alloc_gpus);
}

static void c_mem(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%lluG/%lluG", (unsigned long long)(node(lv, item)->alloc_mem_mb / 1024),
		 (unsigned long long)(node(lv, item)->mem_mb / 1024));
}

static int c_mem_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u64(node(lv, a)->alloc_mem_mb, node(lv, b)->alloc_mem_mb);
}

static void c_parts(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	struct oc_node_places *np = lv->priv;
	snprintf(buf, len, "%s", item < np->n ? np->parts[item] : "");
}

static void c_resv(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	struct oc_node_places *np = lv->priv;
	const char *r = item < np->n ? np->resv[item] : NULL;
	snprintf(buf, len, "%s", r ? r : "");
}

static void c_by(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_node *n = node(lv, item);
	snprintf(buf, len, "%s", n->reason ? (n->reason_user ? n->reason_user : "?") : "");
}

static void c_since(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_cells_reason_since(node(lv, item), buf, len);
}

static int c_since_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	const struct oc_node *x = node(lv, a), *y = node(lv, b);
	return cmp_u64((uint64_t)(x->reason ? x->reason_time : 0), (uint64_t)(y->reason ? y->reason_time : 0));
}

static void c_ago(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_cells_reason_ago(node(lv, item), lv->app->now, buf, len);
}

static void c_reason(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const char *r = node(lv, item)->reason;
	snprintf(buf, len, "%s", r ? r : "");
}

static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	const struct oc_node *n = node(lv, item);
	switch (oc_node_health(n)) {
	case OC_HEALTH_DRAINING: return OC_ROLE_WARN;
	case OC_HEALTH_DRAINED:
	case OC_HEALTH_DOWN:
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

static const struct oc_col_def cols[] = {
	{"node", "NODE", 15, false, false, false, c_name, c_name_cmp, r_name},
	{"state", "STATE", 7, false, false, false, c_state, c_state_cmp, r_state},
	{"cpus", "CPUS", 7, true, false, false, c_cpus, c_cpus_cmp, NULL},
	{"gpus", "GPUS", 5, true, false, false, c_gpus, c_gpus_cmp, NULL},
	{"mem", "MEM", 11, true, true, true, c_mem, c_mem_cmp, NULL},
	{"partitions", "PARTITIONS", 16, false, true, true, c_parts, NULL, NULL},
	{"reservation", "RESV", 10, false, true, false, c_resv, NULL, NULL},
	{"by", "BY", 8, false, false, false, c_by, NULL, NULL},
	{"since", "SINCE", 11, false, true, false, c_since, c_since_cmp, NULL},
	{"ago", "AGO", 4, true, false, false, c_ago, c_since_cmp, NULL},
	{"reason", "REASON", 0, false, false, false, c_reason, NULL, r_reason},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	size_t n = s->nodes ? s->nodes->n : 0;
	if (oc_listview_reserve(lv, n) < 0)
		return 0;
	oc_node_places_fill(lv->priv, s, lv->app->show_hidden, lv->app->now);
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
	size_t reserved = 0;
	for (size_t i = 0; i < lv->nitems; i++)
		if (lv->items[i] < np->n && np->resv[lv->items[i]])
			reserved++;
	if (reserved)
		snprintf(buf, len, "%zu nodes, %zu reserved", lv->nitems, reserved);
	else
		snprintf(buf, len, "%zu nodes", lv->nitems);
}

const struct oc_listview_def oc_lv_nodes = {
	.name = "nodes",
	.title = "Nodes",
	.focus = OC_FOCUS_NODES,
	.cols = cols,
	.ncols = (int)(sizeof(cols) / sizeof(cols[0])),
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
