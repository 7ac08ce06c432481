/* reservations.c: every reservation with its nodes, times, flags, users
 * and accounts, and whether it is active. Enter lists its nodes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/platform.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

static const struct oc_reservation *resv(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->reservations->v[item];
}

static int cmp_time(time_t a, time_t b)
{
	return a < b ? -1 : a > b;
}

static int c_start_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(resv(lv, a)->start_time, resv(lv, b)->start_time);
}

static int c_end_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(resv(lv, a)->end_time, resv(lv, b)->end_time);
}

static const char *state_of(struct oc_listview *lv, const struct oc_reservation *r)
{
	return oc_cells_resv_state(r, lv->app->now);
}

static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	const char *st = state_of(lv, resv(lv, item));
	return st[0] == 'A' ? OC_ROLE_WARN : OC_ROLE_DIM;
}

/* The platform's own reservations (ParallelCluster's Capacity Blocks,
 * pcluster-...): not the admins' to end. */
static bool platform_owned(struct oc_listview *lv, uint32_t item)
{
	char why[160];
	enum oc_platform p = oc_platform_detect(lv->app->cfg->platform, lv->snap->config, why, sizeof(why));
	return oc_platform_owns_resv(p, resv(lv, item)->name);
}

static enum oc_role r_name(struct oc_listview *lv, uint32_t item)
{
	return platform_owned(lv, item) ? OC_ROLE_DIM : OC_ROLE_NORMAL;
}

static enum oc_role r_flags(struct oc_listview *lv, uint32_t item)
{
	const char *f = resv(lv, item)->flags;
	return f && strstr(f, "MAINT") ? OC_ROLE_WARN : OC_ROLE_NORMAL;
}

/* The columns are core/columns.c's oc_cat_reservations. */
static const struct oc_col_ui cols[] = {
	{"name", NULL, r_name, NULL, NULL},
	{"state", NULL, r_state, NULL, NULL},
	{"start", c_start_cmp, NULL, NULL, NULL},
	{"end", c_end_cmp, NULL, NULL, NULL},
	{"flags", NULL, r_flags, NULL, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	size_t n = s->reservations ? s->reservations->n : 0;
	if (oc_listview_reserve(lv, n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		lv->items[i] = (uint32_t)i;
	return n;
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	/* The nodes view, the reservation's nodes only. */
	char name[128];
	snprintf(name, sizeof(name), "%s", resv(lv, item)->name);
	oc_nodes_scope(lv->app, "reservation", name);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	size_t owned = 0;
	for (size_t i = 0; i < lv->nitems; i++)
		owned += platform_owned(lv, lv->items[i]);
	snprintf(buf, len, "%zu %s", lv->nitems, oc_plural(lv->nitems, "reservation", "reservations"));
	if (owned)
		oc_appendf(buf, len, ", %zu ParallelCluster %s", owned,
			   oc_plural(owned, "Capacity Block", "Capacity Blocks"));
}

static const char *selected(struct oc_listview *lv, uint32_t item, enum oc_sel what, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	const struct oc_reservations *r = lv->snap ? lv->snap->reservations : NULL;
	return what == OC_SEL_RESERVATION && r && item < r->n ? r->v[item].name : NULL;
}

const struct oc_listview_def oc_lv_reservations = {
	.name = "reservations",
	.title = "Resv",
	.focus = OC_MASK(OC_PART_RESV) | OC_MASK(OC_PART_NODES) | OC_MASK_SLOW(OC_PART_JOBS) |
		 OC_MASK_SLOW(OC_PART_PARTITIONS),
	.cat = &oc_cat_reservations,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = "start",
	.collect = collect,
	.pure_collect = true,
	.open = open_item,
	.selected = selected,
	.context = context,
};
