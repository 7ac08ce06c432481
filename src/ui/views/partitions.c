/* partitions.c: one row per partition with sinfo-style node counts, GPUs
 * allocated/total and running/pending jobs. Enter opens its queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/state.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

/* The rows of the last update; items index them. */
struct ppriv {
	struct oc_part_row *rows;
	long n;
};

static void *priv_new(void)
{
	return calloc(1, sizeof(struct ppriv));
}

static void priv_free(void *p)
{
	struct ppriv *pp = p;
	if (pp)
		free(pp->rows);
	free(pp);
}

static const struct oc_part_row *row(struct oc_listview *lv, uint32_t item)
{
	return &((struct ppriv *)lv->priv)->rows[item];
}

static const struct oc_partition *part(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->partitions->v[row(lv, item)->part];
}

#define U32_CELL(fname, field)                                                      \
	static void fname(struct oc_listview *lv, uint32_t item, char *buf, size_t len) \
	{                                                                           \
		snprintf(buf, len, "%u", row(lv, item)->field);                     \
	}                                                                           \
	static int fname##_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)      \
	{                                                                           \
		uint32_t x = row(lv, a)->field, y = row(lv, b)->field;              \
		return x < y ? -1 : x > y;                                          \
	}

U32_CELL(c_nodes, nodes)
U32_CELL(c_alloc, alloc)
U32_CELL(c_mix, mix)
U32_CELL(c_idle, idle)
U32_CELL(c_drain, drain)
U32_CELL(c_down, down)
U32_CELL(c_run, jobs_running)
U32_CELL(c_pend, jobs_pending)

static void c_name(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_partition *p = part(lv, item);
	snprintf(buf, len, "%s%s", p->name, (p->flags & OC_PF_DEFAULT) ? "*" : "");
}

static void c_avail(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%s", oc_cells_part_avail(part(lv, item)->flags));
}

static void c_time(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_format_minutes(part(lv, item)->max_time_min, buf, len);
}

static int c_time_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	uint32_t x = part(lv, a)->max_time_min, y = part(lv, b)->max_time_min;
	return x < y ? -1 : x > y;
}

static void c_gpus(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%u/%u", row(lv, item)->gpus_alloc, row(lv, item)->gpus_total);
}

static int c_gpus_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	uint32_t x = row(lv, a)->gpus_alloc, y = row(lv, b)->gpus_alloc;
	return x < y ? -1 : x > y;
}

static enum oc_role r_name(struct oc_listview *lv, uint32_t item)
{
	return (part(lv, item)->flags & OC_PF_HIDDEN) ? OC_ROLE_DIM : OC_ROLE_NORMAL;
}

static enum oc_role r_avail(struct oc_listview *lv, uint32_t item)
{
	return (part(lv, item)->flags & OC_PF_UP) ? OC_ROLE_NORMAL : OC_ROLE_BAD;
}

static enum oc_role r_drain(struct oc_listview *lv, uint32_t item)
{
	return row(lv, item)->drain ? OC_ROLE_WARN : OC_ROLE_NORMAL;
}

static enum oc_role r_down(struct oc_listview *lv, uint32_t item)
{
	return row(lv, item)->down ? OC_ROLE_BAD : OC_ROLE_NORMAL;
}

static enum oc_role r_idle(struct oc_listview *lv, uint32_t item)
{
	return row(lv, item)->idle ? OC_ROLE_OK : OC_ROLE_NORMAL;
}

static const struct oc_col_def cols[] = {
	{"partition", "PARTITION", 10, false, false, false, c_name, NULL, r_name},
	{"avail", "AVAIL", 5, false, false, false, c_avail, NULL, r_avail},
	{"timelimit", "TIMELIMIT", 11, true, false, false, c_time, c_time_cmp, NULL},
	{"nodes", "NODES", 5, true, false, false, c_nodes, c_nodes_cmp, NULL},
	{"alloc", "ALLOC", 5, true, false, false, c_alloc, c_alloc_cmp, NULL},
	{"mix", "MIX", 4, true, false, false, c_mix, c_mix_cmp, NULL},
	{"idle", "IDLE", 4, true, false, false, c_idle, c_idle_cmp, r_idle},
	{"drain", "DRN", 4, true, false, false, c_drain, c_drain_cmp, r_drain},
	{"down", "DOWN", 4, true, false, false, c_down, c_down_cmp, r_down},
	{"gpus", "GPUS A/T", 9, true, false, false, c_gpus, c_gpus_cmp, NULL},
	{"running", "RUN", 4, true, false, false, c_run, c_run_cmp, NULL},
	{"pending", "PEND", 0, true, false, false, c_pend, c_pend_cmp, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	struct ppriv *pp = lv->priv;
	struct oc_part_row *rows = NULL;
	long n = oc_part_rows(s, lv->app->show_hidden, &rows);
	if (n < 0 || oc_listview_reserve(lv, (size_t)n) < 0) {
		free(rows);
		return 0;
	}
	free(pp->rows);
	pp->rows = rows;
	pp->n = n;
	for (long i = 0; i < n; i++)
		lv->items[i] = (uint32_t)i;
	return (size_t)n;
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	oc_app_goto(lv->app, "queue", part(lv, item)->name);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	snprintf(buf, len, "%zu partitions%s", lv->nitems, lv->app->show_hidden ? " (incl. hidden)" : "");
}

const struct oc_listview_def oc_lv_partitions = {
	.name = "partitions",
	.title = "Partitions",
	.focus = OC_FOCUS_PARTITIONS,
	.cols = cols,
	.ncols = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = NULL,
	.collect = collect,
	.pure_collect = true,
	.open = open_item,
	.context = context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
