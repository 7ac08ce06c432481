/* health.c: the whole cluster at a glance. On top, node counts per health
 * group and a grid of every node coloured by state (like sview's); below,
 * the nodes that are not OK, grouped by where their reason comes from:
 * health scripts, a person, Slurm itself, other (never dropped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/health.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

/* Items index the rows of core/health.c. */
struct hpriv {
	struct oc_health_row *rows;
	size_t n;
	uint32_t by_health[OC_HEALTH_COUNT];
	struct oc_power_part *power; /* partitions with power saving nodes */
	size_t npower;
};

static void *priv_new(void)
{
	return calloc(1, sizeof(struct hpriv));
}

static void priv_free(void *p)
{
	struct hpriv *hp = p;
	if (hp) {
		free(hp->rows);
		free(hp->power);
	}
	free(hp);
}

static const struct oc_health_row *hrow(struct oc_listview *lv, uint32_t item)
{
	return &((struct hpriv *)lv->priv)->rows[item];
}

static const struct oc_node *node(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->nodes->v[hrow(lv, item)->node];
}

static enum oc_role health_role(enum oc_health h)
{
	switch (h) {
	case OC_HEALTH_OK: return OC_ROLE_OK;
	case OC_HEALTH_DRAINING: return OC_ROLE_WARN;
	case OC_HEALTH_POWER: return OC_ROLE_DIM;
	default: return OC_ROLE_BAD;
	}
}

static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	return health_role(oc_node_health(node(lv, item)));
}

/* The columns are core/columns.c's oc_cat_health. */
static const struct oc_col_ui cols[] = {
	{"state", NULL, r_state, NULL, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	struct hpriv *hp = lv->priv;
	free(hp->rows);
	hp->rows = NULL;
	hp->n = 0;
	free(hp->power);
	hp->power = NULL;
	long np = oc_health_power_parts(s, &hp->power);
	hp->npower = np > 0 ? (size_t)np : 0;
	size_t findings;
	long n = oc_health_rows(s, &hp->rows, hp->by_health, &findings);
	lv->src.rows = hp->rows;
	if (n < 0 || oc_listview_reserve(lv, (size_t)n) < 0)
		return 0;
	hp->n = (size_t)n;
	for (size_t i = 0; i < hp->n; i++)
		lv->items[i] = (uint32_t)i;
	return hp->n;
}

static bool is_group(struct oc_listview *lv, uint32_t item)
{
	return hrow(lv, item)->group;
}

static void group_text(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_health_row *r = hrow(lv, item);
	const char *name = r->source == OC_HEALTH_NO_REASON ? "not OK, no reason" : oc_health_source_name(r->source);
	snprintf(buf, len, "-- %s: %u %s", name, r->count, oc_plural(r->count, "node", "nodes"));
}

static const char *tag_key(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return node(lv, item)->name;
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	if (!hrow(lv, item)->group)
		oc_app_show_node(lv->app, node(lv, item)->name);
}

/* The grid glyph of a node: meaningful without colour too. */
static char grid_glyph(const struct oc_node *n)
{
	switch (oc_node_health(n)) {
	case OC_HEALTH_DRAINING: return 'd';
	case OC_HEALTH_DRAINED: return 'D';
	case OC_HEALTH_DOWN: return 'X';
	case OC_HEALTH_NOT_RESPONDING: return '*';
	case OC_HEALTH_POWER: return '~';
	case OC_HEALTH_RESUME_FAILED: return '!';
	default:
		if (n->base == OC_NODE_ALLOCATED)
			return '#';
		if (n->base == OC_NODE_MIXED)
			return '+';
		return '.';
	}
}

/* The counts per health group on line y. */
static void draw_counts(const struct hpriv *hp, WINDOW *w, int y, int width)
{
	wmove(w, y, 0);
	int x = 0;
	/* Where every group does not fit, the empty ones (but ok) go. */
	int all = 0;
	for (int g = 0; g < OC_HEALTH_COUNT; g++)
		all += (int)strlen(oc_health_name((enum oc_health)g)) + 3 + (hp->by_health[g] > 9) + (hp->by_health[g] > 99);
	bool skip_empty = all > width;
	for (int g = 0; g < OC_HEALTH_COUNT && x < width; g++) {
		if (skip_empty && g != OC_HEALTH_OK && !hp->by_health[g])
			continue;
		char part[48];
		snprintf(part, sizeof(part), "%s %u  ", oc_health_name((enum oc_health)g), hp->by_health[g]);
		wattrset(w, hp->by_health[g] && g != OC_HEALTH_OK ? oc_theme_attr(health_role((enum oc_health)g))
								   : A_NORMAL);
		x += oc_put_text(w, part, width - x, false, false);
	}
	wattrset(w, A_NORMAL);
	for (; x < width; x++)
		waddch(w, ' ');
}

/* The power saving nodes per partition on line y, one line for all:
 * "power  cloud: 2 powered down, 1 failed resume   gpu: ...". */
static void draw_power(const struct hpriv *hp, WINDOW *w, int y, int width)
{
	char line[512] = "power ";
	for (size_t i = 0; i < hp->npower; i++) {
		char part[160];
		oc_health_power_text(&hp->power[i], part, sizeof(part));
		oc_appendf(line, sizeof(line), "  %s", part);
	}
	wmove(w, y, 0);
	bool failed = false;
	for (size_t i = 0; i < hp->npower; i++)
		failed |= hp->power[i].resume_failed > 0;
	wattrset(w, oc_theme_attr(failed ? OC_ROLE_BAD : OC_ROLE_DIM));
	oc_put_cell(w, line, width, false);
	wattrset(w, A_NORMAL);
}

/* A node's cell of the grid: its state's role, the selection, the tag. */
static attr_t grid_attr(struct oc_listview *lv, const struct oc_node *n, bool selected)
{
	if (selected)
		return oc_theme_attr(OC_ROLE_SELECTED);
	if (oc_tagset_has(&lv->app->node_tags, n->name))
		return oc_theme_attr(OC_ROLE_TAGGED);
	if (oc_node_health(n) == OC_HEALTH_OK && n->base != OC_NODE_IDLE)
		return oc_theme_attr(OC_ROLE_BUSY);
	return oc_theme_attr(health_role(oc_node_health(n)));
}

/* Grid row r of per_row nodes (cell columns each) at the cursor. */
static void draw_grid_row(struct oc_listview *lv, WINDOW *w, int width, const uint32_t *order, size_t k, int r,
			  int per_row, int cell, uint32_t sel_node)
{
	const struct oc_nodes *nodes = lv->snap->nodes;
	int cx = 0;
	for (int c = 0; c < per_row; c++) {
		size_t i = (size_t)r * (size_t)per_row + (size_t)c;
		if (i >= k)
			break;
		const struct oc_node *n = &nodes->v[order[i]];
		wattrset(w, grid_attr(lv, n, order[i] == sel_node));
		waddch(w, (chtype)(unsigned char)grid_glyph(n));
		if (cell == 2) {
			wattrset(w, A_NORMAL);
			waddch(w, ' ');
		}
		cx += cell;
	}
	wattrset(w, A_NORMAL);
	for (; cx < width; cx++)
		waddch(w, ' ');
}

/* The grid from line y, at most h lines: two columns a node when it fits
 * in a third of the view's height, else one. Returns the lines used. */
static int draw_grid(struct oc_listview *lv, WINDOW *w, int y, int h, int max_rows, int width)
{
	const struct oc_nodes *nodes = lv->snap->nodes;
	size_t nn = nodes ? nodes->n : 0;
	int cell = 2;
	int per_row = width / cell;
	if (per_row < 1)
		return 0;
	if ((int)((nn + (size_t)per_row - 1) / (size_t)per_row) > max_rows) {
		cell = 1;
		per_row = width;
	}
	int grid_rows = (int)((nn + (size_t)per_row - 1) / (size_t)per_row);
	if (grid_rows > max_rows)
		grid_rows = max_rows; /* the rest is in the list below */
	uint32_t sel_node = UINT32_MAX;
	uint32_t item = oc_listview_selected(lv);
	if (item != UINT32_MAX && !hrow(lv, item)->group)
		sel_node = hrow(lv, item)->node;
	/* Natural name order for the grid. */
	uint32_t *order = malloc((nn ? nn : 1) * sizeof(*order));
	if (!order)
		return -1;
	size_t k = oc_node_rows(nodes, NULL, OC_NODE_SORT_NAME, false, order);
	int used = 0;
	for (int r = 0; r < grid_rows && used < h; r++, used++) {
		wmove(w, y + used, 0);
		draw_grid_row(lv, w, width, order, k, r, per_row, cell, sel_node);
	}
	free(order);
	return used;
}

static int draw_top(struct oc_listview *lv, WINDOW *w, int y, int h, int width)
{
	struct hpriv *hp = lv->priv;
	draw_counts(hp, w, y, width);
	int used = 1;
	if (hp->npower && used < h)
		draw_power(hp, w, y + used++, width);
	int grid = draw_grid(lv, w, y + used, h - used, h / 3 > 2 ? h / 3 : 2, width);
	if (grid < 0 || width < 2)
		return used; /* no grid (no memory, no room): no legend */
	used += grid;
	if (used < h) {
		wmove(w, y + used, 0);
		wattrset(w, oc_theme_attr(OC_ROLE_DIM));
		oc_put_cell(w, ". idle  # alloc  + mix  d draining  D drained  X down  * not responding  ~ power save  ! failed resume",
			    width, false);
		wattrset(w, A_NORMAL);
		used++;
	}
	return used;
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct hpriv *hp = lv->priv;
	uint32_t bad = 0;
	for (int g = 1; g < OC_HEALTH_COUNT; g++)
		if (g != OC_HEALTH_POWER)
			bad += hp->by_health[g];
	size_t total = lv->snap && lv->snap->nodes ? lv->snap->nodes->n : 0;
	snprintf(buf, len, "%u of %zu %s not OK", bad, total, oc_plural(total, "node", "nodes"));
}

const struct oc_listview_def oc_lv_health = {
	.name = "health",
	.title = "Health",
	.focus = OC_FOCUS_NODES,
	.cat = &oc_cat_health,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.collect = collect,
	.pure_collect = true,
	.tags = OC_TAG_NODES,
	.tag_key = tag_key,
	.open = open_item,
	.context = context,
	.draw_top = draw_top,
	.is_group = is_group,
	.group_text = group_text,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
