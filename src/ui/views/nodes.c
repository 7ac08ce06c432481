/* nodes.c: one row per node with Slurm's state and suffix, CPUs and GPUs
 * in use, the reservation it is in, and the drain/down reason with who set
 * it and when. Enter opens the node's detail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "core/views.h"
#include "ui/ui_int.h"

/* Per node: the reservation it is in (active first), rebuilt each update. */
struct npriv {
	const char **resv;
	char (*parts)[64];   /* partitions of each node (slurmctld does not send them) */
	size_t cap;
};

static void *priv_new(void)
{
	return calloc(1, sizeof(struct npriv));
}

static void priv_free(void *p)
{
	struct npriv *np = p;
	if (np) {
		free(np->resv);
		free(np->parts);
	}
	free(np);
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
	struct npriv *np = lv->priv;
	snprintf(buf, len, "%s", item < np->cap ? np->parts[item] : "");
}

static void c_resv(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	struct npriv *np = lv->priv;
	const char *r = item < np->cap ? np->resv[item] : NULL;
	snprintf(buf, len, "%s", r ? r : "");
}

static void c_by(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_node *n = node(lv, item);
	snprintf(buf, len, "%s", n->reason ? (n->reason_user ? n->reason_user : "?") : "");
}

static void c_since(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_node *n = node(lv, item);
	buf[0] = '\0';
	if (n->reason && n->reason_time) {
		struct tm tm;
		localtime_r(&n->reason_time, &tm);
		strftime(buf, len, "%m-%d %H:%M", &tm);
	}
}

static int c_since_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	const struct oc_node *x = node(lv, a), *y = node(lv, b);
	return cmp_u64((uint64_t)(x->reason ? x->reason_time : 0), (uint64_t)(y->reason ? y->reason_time : 0));
}

static void c_ago(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_node *n = node(lv, item);
	buf[0] = '\0';
	if (n->reason && n->reason_time)
		oc_format_age((long long)(lv->app->now - n->reason_time), buf, len);
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
	struct npriv *np = lv->priv;
	return item < np->cap && np->resv[item] ? OC_ROLE_WARN : OC_ROLE_NORMAL;
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

/* Which reservation each node is in: active ones win over future ones. */
static void map_reservations(struct oc_listview *lv, const struct oc_snapshot *s)
{
	struct npriv *np = lv->priv;
	size_t n = s->nodes ? s->nodes->n : 0;
	if (n > np->cap) {
		const char **r = realloc(np->resv, n * sizeof(*r));
		if (!r)
			return;
		np->resv = r;
		char(*pp)[64] = realloc(np->parts, n * sizeof(*pp));
		if (!pp)
			return;
		np->parts = pp;
		np->cap = n;
	}
	if (!np->cap)
		return; /* no nodes (yet) */
	memset(np->resv, 0, np->cap * sizeof(*np->resv));
	memset(np->parts, 0, np->cap * sizeof(*np->parts));
	for (size_t i = 0; s->partitions && i < s->partitions->n; i++) {
		const struct oc_partition *p = &s->partitions->v[i];
		if ((p->flags & OC_PF_HIDDEN) && !lv->app->show_hidden)
			continue;
		for (uint32_t k = 0; k < p->node_count; k++) {
			if (p->node_idx[k] >= n)
				continue;
			char *dst = np->parts[p->node_idx[k]];
			size_t l = strlen(dst);
			snprintf(dst + l, sizeof(*np->parts) - l, "%s%s", l ? "," : "", p->name);
		}
	}
	for (int pass = 0; pass < 2 && s->reservations; pass++) {
		for (size_t i = 0; i < s->reservations->n; i++) {
			const struct oc_reservation *r = &s->reservations->v[i];
			bool active = r->start_time <= lv->app->now && lv->app->now < r->end_time;
			if (active != (pass == 1))
				continue; /* future ones first, active ones overwrite */
			for (uint32_t k = 0; k < r->node_idx_count; k++)
				if (r->node_idx[k] < n)
					np->resv[r->node_idx[k]] = r->name;
		}
	}
}

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	size_t n = s->nodes ? s->nodes->n : 0;
	if (oc_listview_reserve(lv, n) < 0)
		return 0;
	map_reservations(lv, s);
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
	struct npriv *np = lv->priv;
	size_t reserved = 0;
	for (size_t i = 0; i < lv->nitems; i++)
		if (lv->items[i] < np->cap && np->resv[lv->items[i]])
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
