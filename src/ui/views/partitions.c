/* partitions.c: one row per partition with sinfo-style node counts, GPUs
 * allocated/total and running/pending jobs. Enter opens its queue, n its
 * nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/state.h"
#include "core/strbuf.h"
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

#define U32_CMP(fname, field)                                                  \
	static int fname(struct oc_listview *lv, uint32_t a, uint32_t b)       \
	{                                                                      \
		uint32_t x = row(lv, a)->field, y = row(lv, b)->field;         \
		return x < y ? -1 : x > y;                                     \
	}

U32_CMP(c_nodes_cmp, nodes)
U32_CMP(c_alloc_cmp, alloc)
U32_CMP(c_mix_cmp, mix)
U32_CMP(c_idle_cmp, idle)
U32_CMP(c_drain_cmp, drain)
U32_CMP(c_down_cmp, down)
U32_CMP(c_run_cmp, jobs_running)
U32_CMP(c_pend_cmp, jobs_pending)
U32_CMP(c_gpus_cmp, gpus_alloc)

static int c_time_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	uint32_t x = part(lv, a)->max_time_min, y = part(lv, b)->max_time_min;
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

/* The columns are core/columns.c's oc_cat_partitions. */
static const struct oc_col_ui cols[] = {
	{"partition", NULL, r_name, NULL, NULL},	   {"avail", NULL, r_avail, NULL, NULL},	    {"timelimit", c_time_cmp, NULL, NULL, NULL},
	{"nodes", c_nodes_cmp, NULL, NULL, NULL},	   {"alloc", c_alloc_cmp, NULL, NULL, NULL},    {"mix", c_mix_cmp, NULL, NULL, NULL},
	{"idle", c_idle_cmp, r_idle, NULL, NULL},	   {"drain", c_drain_cmp, r_drain, NULL, NULL}, {"down", c_down_cmp, r_down, NULL, NULL},
	{"gpus", c_gpus_cmp, NULL, NULL, NULL},	   {"running", c_run_cmp, NULL, NULL, NULL},    {"pending", c_pend_cmp, NULL, NULL, NULL},
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
	lv->src.rows = rows;
	for (long i = 0; i < n; i++)
		lv->items[i] = (uint32_t)i;
	return (size_t)n;
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	oc_app_goto(lv->app, "queue", part(lv, item)->name);
}

static const char *selected(struct oc_listview *lv, uint32_t item, enum oc_sel what, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return what == OC_SEL_PARTITION ? part(lv, item)->name : NULL;
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	snprintf(buf, len, "%zu %s%s", lv->nitems, oc_plural(lv->nitems, "partition", "partitions"),
		 lv->app->show_hidden ? " (incl. hidden)" : "");
}

const struct oc_listview_def oc_lv_partitions = {
	.name = "partitions",
	.title = "Partitions",
	.focus = OC_FOCUS_PARTITIONS,
	.cat = &oc_cat_partitions,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = NULL,
	.collect = collect,
	.pure_collect = true,
	.open = open_item,
	.selected = selected,
	.context = context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
