/* nodes.c: one row per node with Slurm's state and suffix, CPUs and GPUs
 * in use, and the drain/down reason with who set it and when. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "core/views.h"
#include "ui/ui_int.h"

enum { C_NAME, C_STATE, C_CPUS, C_GPUS, C_BY, C_SINCE, C_AGE, C_REASON };

static const struct oc_table_col cols[] = {
	[C_NAME] = {"NODE", 15, false},   [C_STATE] = {"STATE", 7, false},
	[C_CPUS] = {"CPUS", 7, true},     [C_GPUS] = {"GPUS", 5, true},
	[C_BY] = {"BY", 8, false},        [C_SINCE] = {"SINCE", 11, false, true},
	[C_AGE] = {"AGO", 4, true},       [C_REASON] = {"REASON", 0, false},
};

static const struct {
	enum oc_node_sort sort;
	const char *name;
} sorts[] = {
	{OC_NODE_SORT_NAME, "name"},
	{OC_NODE_SORT_STATE, "state"},
	{OC_NODE_SORT_REASON, "reason"},
	{OC_NODE_SORT_GPUS, "gpus"},
};

struct nview {
	struct oc_app *app;
	struct oc_table table;
	uint32_t *rows;
	size_t cap;
	char filter[256];
	int sort;
	bool desc;
	const struct oc_snapshot *snap;
};

static const struct oc_node *row_node(struct nview *v, size_t r)
{
	return &v->snap->nodes->v[v->rows[r]];
}

static void cell(void *ctx, size_t r, int c, char *buf, size_t len)
{
	struct nview *v = ctx;
	const struct oc_node *n = row_node(v, r);
	buf[0] = '\0';
	switch (c) {
	case C_NAME: snprintf(buf, len, "%s", n->name); break;
	case C_STATE: oc_node_state_compact(n, buf, len); break;
	case C_CPUS: snprintf(buf, len, "%u/%u", n->alloc_cpus, n->cpus); break;
	case C_GPUS: snprintf(buf, len, "%u/%u", n->alloc_gpus, n->gpus); break;
	case C_BY:
		if (n->reason)
			snprintf(buf, len, "%s", n->reason_user ? n->reason_user : "?");
		break;
	case C_SINCE:
		if (n->reason && n->reason_time) {
			struct tm tm;
			localtime_r(&n->reason_time, &tm);
			strftime(buf, len, "%m-%d %H:%M", &tm);
		}
		break;
	case C_AGE:
		if (n->reason && n->reason_time)
			oc_format_age((long long)(v->app->now - n->reason_time), buf, len);
		break;
	case C_REASON: snprintf(buf, len, "%s", n->reason ? n->reason : ""); break;
	default: break;
	}
}

static enum oc_role cell_role(void *ctx, size_t r, int c)
{
	struct nview *v = ctx;
	const struct oc_node *n = row_node(v, r);
	if (c != C_STATE && c != C_REASON)
		return OC_ROLE_NORMAL;
	switch (oc_node_health(n)) {
	case OC_HEALTH_DRAINING: return OC_ROLE_WARN;
	case OC_HEALTH_DRAINED:
	case OC_HEALTH_DOWN:
	case OC_HEALTH_NOT_RESPONDING: return OC_ROLE_BAD;
	case OC_HEALTH_POWER: return OC_ROLE_DIM;
	default:
		if (c == C_REASON)
			return OC_ROLE_NORMAL;
		return n->base == OC_NODE_IDLE ? OC_ROLE_OK : OC_ROLE_BUSY;
	}
}

static void *create(struct oc_app *app)
{
	struct nview *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->app = app;
	v->table.cols = cols;
	v->table.ncols = (int)(sizeof(cols) / sizeof(cols[0]));
	v->table.cell = cell;
	v->table.cell_role = cell_role;
	v->table.ctx = v;
	return v;
}

static void destroy(void *view)
{
	struct nview *v = view;
	free(v->rows);
	free(v);
}

static void update(void *view, const struct oc_snapshot *s)
{
	struct nview *v = view;
	size_t need = s->nodes ? s->nodes->n : 0;
	if (need > v->cap) {
		uint32_t *r = realloc(v->rows, need * sizeof(*r));
		if (!r)
			return;
		v->rows = r;
		v->cap = need;
	}
	v->snap = s;
	v->table.nrows = oc_node_rows(s->nodes, v->filter, sorts[v->sort].sort, v->desc, v->rows);
	oc_table_clamp(&v->table);
}

static void draw(void *view, WINDOW *w, int y, int h, int width)
{
	struct nview *v = view;
	v->snap = v->app->snap;
	oc_table_draw(&v->table, w, y, 0, h, width);
	if (v->table.nrows == 0 && h > 1) {
		wmove(w, y + 1, 1);
		oc_put_text(w, v->snap->seq ? "no nodes" : "loading...", width - 1, false, false);
	}
}

static bool key(void *view, int ch)
{
	struct nview *v = view;
	return oc_table_key(&v->table, ch);
}

static void context(void *view, char *buf, size_t len)
{
	struct nview *v = view;
	snprintf(buf, len, "%zu nodes  sort %s%s", v->table.nrows, sorts[v->sort].name,
		 v->desc ? " (rev)" : "");
}

static void set_filter(void *view, const char *f)
{
	struct nview *v = view;
	snprintf(v->filter, sizeof(v->filter), "%s", f ? f : "");
}

static void next_sort(void *view, bool reverse)
{
	struct nview *v = view;
	if (reverse)
		v->desc = !v->desc;
	else
		v->sort = (v->sort + 1) % (int)(sizeof(sorts) / sizeof(sorts[0]));
}

const struct oc_view_ops oc_view_nodes = {
	.name = "nodes",
	.title = "Nodes",
	.focus = OC_FOCUS_NODES,
	.create = create,
	.destroy = destroy,
	.update = update,
	.draw = draw,
	.key = key,
	.open = NULL,
	.context = context,
	.set_filter = set_filter,
	.next_sort = next_sort,
};
