/* listview.c: the one list widget every view uses (as tmux's mode-tree
 * serves several modes): columns chosen by views/NAME.json, filter over the
 * visible cells, sort by any column, tags, selection and paging. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/viewcfg.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/registry.h"

static void text_drop(struct oc_listview *lv);
static void job_drop(struct oc_listview *lv);
static size_t async_rows(void);

int oc_listview_reserve(struct oc_listview *lv, size_t n)
{
	if (n <= lv->cap)
		return 0;
	size_t cap = lv->cap ? lv->cap : 64;
	while (cap < n)
		cap *= 2;
	uint32_t *p = realloc(lv->items, cap * sizeof(*p));
	if (!p)
		return -1;
	lv->items = p;
	lv->cap = cap;
	return 0;
}

uint32_t oc_listview_selected(const struct oc_listview *lv)
{
	return lv->sel < lv->nitems ? lv->items[lv->sel] : UINT32_MAX;
}

/* The column def of the view's catalogue. */
static const struct oc_column *col_of(const struct oc_listview *lv, int def)
{
	return &lv->def->cat->cols[def];
}

/* The snapshot the items come from, and what the cells read. */
static void listview_set_snap(struct oc_listview *lv, const struct oc_snapshot *s)
{
	lv->snap = s;
	lv->src.s = s;
	lv->src.now = lv->app->now;
}

/* Write the cell of column def (catalogue index) of item into buf. */
static void cell_of(struct oc_listview *lv, int def, uint32_t item, char *buf, size_t len)
{
	col_of(lv, def)->cell(&lv->src, item, buf, len);
}

/* The built-in layout: every column as defined, the default sort. */
static void listview_default_layout(struct oc_listview *lv)
{
	const struct oc_listview_def *def = lv->def;
	const struct oc_catalogue *cat = def->cat;
	lv->ncols = 0;
	memset(lv->content_w, 0, sizeof(lv->content_w));
	lv->measured = false;
	for (int i = 0; i < cat->n && lv->ncols < (int)(sizeof(lv->cols) / sizeof(lv->cols[0])); i++) {
		if (cat->cols[i].hidden)
			continue;
		lv->cols[lv->ncols].def = i;
		lv->cols[lv->ncols].width = cat->cols[i].width;
		lv->cols[lv->ncols].optional = cat->cols[i].optional;
		lv->ncols++;
	}
	lv->sort = -1;
	int d = oc_catalogue_col(cat, def->default_sort);
	for (int c = 0; d >= 0 && c < lv->ncols; c++)
		if (lv->cols[c].def == d)
			lv->sort = c;
	lv->reverse = def->default_reverse;
}

struct oc_listview *oc_listview_new(struct oc_app *app, const struct oc_listview_def *def)
{
	struct oc_listview *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return NULL;
	lv->def = def;
	lv->app = app;
	if (def->priv_new) {
		lv->priv = def->priv_new();
		if (!lv->priv) {
			free(lv);
			return NULL;
		}
	}
	for (int i = 0; i < def->nui; i++) {
		int c = oc_catalogue_col(def->cat, def->ui[i].id);
		if (c >= 0 && c < (int)(sizeof(lv->colui) / sizeof(lv->colui[0])))
			lv->colui[c] = &def->ui[i];
	}
	listview_default_layout(lv);
	return lv;
}

void oc_listview_free(struct oc_listview **lvp)
{
	struct oc_listview *lv = lvp ? *lvp : NULL;
	if (!lv)
		return;
	*lvp = NULL;
	job_drop(lv);
	oc_snapshot_unref(&lv->pin);
	if (lv->def->priv_free)
		lv->def->priv_free(lv->priv);
	text_drop(lv);
	free(lv->all);
	free(lv->order);
	free(lv->items);
	free(lv->drawn.cell);
	free(lv);
}

/* ---- filter and sort --------------------------------------------------- */

static void text_drop(struct oc_listview *lv)
{
	free(lv->text);
	free(lv->text_off);
	lv->text = NULL;
	lv->text_off = NULL;
}

static char ascii_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* The filter's text of every collected item: its cells, lower-cased,
 * separated by '\x1f' so that a match cannot span two cells. Built once
 * per collection, so each key typed into the filter is one substring
 * search per item instead of formatting every cell again. Returns 0, -1
 * on ENOMEM. */
static int text_build(struct oc_listview *lv)
{
	if (lv->text)
		return 0;
	size_t cap = lv->nall * 64 + 64, len = 0;
	char *t = malloc(cap);
	size_t *off = malloc((lv->nall ? lv->nall : 1) * sizeof(*off));
	if (!t || !off) {
		free(t);
		free(off);
		return -1;
	}
	char buf[512];
	for (size_t k = 0; k < lv->nall; k++) {
		if (lv->stop && !(k & 1023) && atomic_load(lv->stop)) {
			free(t);
			free(off);
			return -1; /* a job made obsolete: its result is thrown away */
		}
		off[k] = len;
		for (int c = 0; c < lv->ncols; c++) {
			buf[0] = '\0';
			cell_of(lv, lv->cols[c].def, lv->all[k], buf, sizeof(buf));
			size_t bl = strlen(buf);
			if (len + bl + 2 > cap) {
				while (len + bl + 2 > cap)
					cap *= 2;
				char *nt = realloc(t, cap);
				if (!nt) {
					free(t);
					free(off);
					return -1;
				}
				t = nt;
			}
			for (size_t i = 0; i < bl; i++)
				t[len++] = ascii_lower(buf[i]);
			t[len++] = '\x1f';
		}
		t[len++] = '\0';
	}
	lv->text = t;
	lv->text_off = off;
	return 0;
}

/* Filter lv->all into lv->items in sort order (lv->order); returns the
 * count. Group rows stay when a member stays. */
static size_t apply_filter(struct oc_listview *lv)
{
	size_t n = 0;
	if (!lv->filter[0] || text_build(lv) < 0) {
		/* No filter (or no memory for the texts: everything is listed). */
		for (size_t i = 0; i < lv->nall; i++)
			lv->items[i] = lv->all[lv->order_ok ? lv->order[i] : i];
		return lv->nall;
	}
	char needle[sizeof(lv->filter)];
	size_t i;
	for (i = 0; lv->filter[i] && i + 1 < sizeof(needle); i++)
		needle[i] = ascii_lower(lv->filter[i]);
	needle[i] = '\0';
	for (size_t pos = 0; pos < lv->nall; pos++) {
		size_t k = lv->order_ok ? lv->order[pos] : pos;
		uint32_t item = lv->all[k];
		if ((lv->def->is_group && lv->def->is_group(lv, item)) || strstr(lv->text + lv->text_off[k], needle))
			lv->items[n++] = item;
	}
	/* Drop group headers the filter left without members. */
	if (lv->def->is_group) {
		size_t k = 0;
		for (size_t j = 0; j < n; j++) {
			bool g = lv->def->is_group(lv, lv->items[j]);
			bool next_member = j + 1 < n && !lv->def->is_group(lv, lv->items[j + 1]);
			if (!g || next_member)
				lv->items[k++] = lv->items[j];
		}
		n = k;
	}
	return n;
}

struct sort_ctx {
	struct oc_listview *lv;
	int def;                    /* the sort column, catalogue index */
	const struct oc_col_ui *ui; /* its comparator, or NULL */
};

/* An item with its sort column's text, for columns without a comparator:
 * each cell is formatted once, not twice per comparison. */
struct sort_cell {
	uint32_t item;
	const char *text;
};

/* Positions in lv->all compared by their items. */
static int listview_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	uint32_t a = c->lv->all[*(const uint32_t *)pa], b = c->lv->all[*(const uint32_t *)pb];
	int r = c->ui->cmp(c->lv, a, b);
	if (!r)
		r = a < b ? -1 : a > b;
	return c->lv->reverse ? -r : r;
}

static int cell_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct sort_cell *a = pa, *b = pb;
	int r = oc_natcmp(a->text, b->text);
	if (!r)
		r = a->item < b->item ? -1 : a->item > b->item;
	return c->lv->reverse ? -r : r;
}

/* Sort v[0..n) (tmp: as large) by value: a radix sort, one pass per
 * byte, a byte that is the same in every value skipped. */
static void radix_u64(uint64_t *v, uint64_t *tmp, size_t n)
{
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[256] = {0};
		for (size_t i = 0; i < n; i++)
			count[(v[i] >> shift) & 0xff]++;
		if (count[(v[0] >> shift) & 0xff] == n)
			continue;
		size_t at = 0;
		for (int b = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
}

/* Sort order[0..n) by a column's key (ui->key): each position with its
 * key in one number, key high, position low (ties in collected order),
 * radix-sorted. Returns false on ENOMEM (nothing changed). */
static bool sort_by_key(struct oc_listview *lv, const struct oc_col_ui *ui, uint32_t *order, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v)), *tmp = malloc(n * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = (uint64_t)ui->key(lv, lv->all[order[i]]) << 32 | order[i];
	radix_u64(v, tmp, n);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)(lv->reverse ? v[n - 1 - i] : v[i]);
	free(v);
	free(tmp);
	return true;
}

/* The distinct strings of a column being sorted by rank. */
struct rank_set {
	uint32_t *slot;    /* hash table: distinct index + 1, 0 empty */
	size_t cap;        /* a power of two */
	const char **str;  /* distinct strings, in order of first sight */
	size_t n;
	int (*cmp)(const char *a, const char *b);
};

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The distinct index of s, added when new; UINT32_MAX on ENOMEM. */
static uint32_t rank_set_add(struct rank_set *rs, const char *s)
{
	if (2 * (rs->n + 1) > rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 1024;
		uint32_t *slot = calloc(cap, sizeof(*slot));
		const char **str = realloc(rs->str, cap / 2 * sizeof(*str));
		if (!slot || !str) {
			free(slot);
			if (str)
				rs->str = str;
			return UINT32_MAX;
		}
		rs->str = str;
		for (size_t i = 0; i < rs->n; i++) {
			size_t h = str_hash(str[i]) & (cap - 1);
			while (slot[h])
				h = (h + 1) & (cap - 1);
			slot[h] = (uint32_t)i + 1;
		}
		free(rs->slot);
		rs->slot = slot;
		rs->cap = cap;
	}
	size_t h = str_hash(s) & (rs->cap - 1);
	for (; rs->slot[h]; h = (h + 1) & (rs->cap - 1)) {
		const char *t = rs->str[rs->slot[h] - 1];
		if (t == s || strcmp(t, s) == 0)
			return rs->slot[h] - 1;
	}
	rs->str[rs->n] = s;
	rs->slot[h] = (uint32_t)++rs->n;
	return (uint32_t)rs->n - 1;
}

static int rank_cmp(const void *pa, const void *pb, void *arg)
{
	const struct rank_set *rs = arg;
	return rs->cmp(rs->str[*(const uint32_t *)pa], rs->str[*(const uint32_t *)pb]);
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

/* Sort order[0..n) by the strings str[0..n) (one per position, NULL as
 * ""), in cmp's order, ties in collected order: the distinct strings
 * (a queue of 100,000 jobs has a few hundred names, users, accounts)
 * are sorted and ranked, then the positions radix-sorted by rank, so
 * the cost grows with n, not n log n string comparisons. Returns false
 * on ENOMEM (nothing changed). */
static bool sort_by_rank(struct oc_listview *lv, const char **str, uint32_t *order, size_t n,
			 int (*cmp)(const char *a, const char *b))
{
	struct rank_set rs = {.cmp = cmp};
	uint32_t *id = malloc(n * sizeof(*id));
	uint64_t *v = malloc(n * sizeof(*v)), *tmp = malloc(n * sizeof(*tmp));
	uint32_t *by = NULL, *rank = NULL;
	bool ok = id && v && tmp;
	const char *prev = NULL;
	for (size_t i = 0; ok && i < n; i++) {
		const char *s = str[i] ? str[i] : "";
		id[i] = i && s == prev ? id[i - 1] : rank_set_add(&rs, s);
		ok = id[i] != UINT32_MAX;
		prev = s;
	}
	if (ok) {
		by = malloc((rs.n + 1) * sizeof(*by));
		rank = malloc((rs.n + 1) * sizeof(*rank));
		ok = by && rank;
	}
	if (ok) {
		for (size_t k = 0; k < rs.n; k++)
			by[k] = (uint32_t)k;
		qsort_r(by, rs.n, sizeof(*by), rank_cmp, &rs);
		uint32_t r = 0;
		for (size_t k = 0; k < rs.n; k++) {
			if (k && cmp(rs.str[by[k - 1]], rs.str[by[k]]) != 0)
				r++;
			rank[by[k]] = r;
		}
		for (size_t i = 0; i < n; i++)
			v[i] = (uint64_t)rank[id[i]] << 32 | order[i];
		radix_u64(v, tmp, n);
		for (size_t i = 0; i < n; i++)
			order[i] = (uint32_t)(lv->reverse ? v[n - 1 - i] : v[i]);
	}
	free(rs.slot);
	free(rs.str);
	free(id);
	free(v);
	free(tmp);
	free(by);
	free(rank);
	return ok;
}

/* Sort the positions order[0..n) of lv->all by the sort column. */
static void sort_positions(struct oc_listview *lv, uint32_t *order, size_t n)
{
	int def = lv->cols[lv->sort].def;
	struct sort_ctx c = {lv, def, lv->colui[def]};
	if (c.ui && c.ui->key && sort_by_key(lv, c.ui, order, n))
		return;
	if (c.ui && c.ui->str && n) {
		const char **str = malloc(n * sizeof(*str));
		bool done = false;
		if (str) {
			for (size_t i = 0; i < n; i++)
				str[i] = c.ui->str(lv, lv->all[order[i]]);
			done = sort_by_rank(lv, str, order, n, str_cmp);
		}
		free(str);
		if (done)
			return;
	}
	if (c.ui && c.ui->cmp) {
		qsort_r(order, n, sizeof(*order), listview_cmp, &c);
		return;
	}
	struct sort_cell *v = malloc(n * sizeof(*v));
	char *texts = malloc(n * 64);
	const char **str = malloc(n * sizeof(*str));
	if (!v || !texts || !str) {
		free(v);
		free(texts);
		free(str);
		return; /* ENOMEM: the items stay in collect order */
	}
	for (size_t i = 0; i < n; i++) {
		char *t = texts + i * 64;
		t[0] = '\0';
		cell_of(lv, def, lv->all[order[i]], t, 64);
		v[i].item = order[i];
		v[i].text = t;
		str[i] = t;
	}
	if (!n || !sort_by_rank(lv, str, order, n, oc_natcmp)) {
		qsort_r(v, n, sizeof(*v), cell_cmp, &c);
		for (size_t i = 0; i < n; i++)
			order[i] = v[i].item;
	}
	free(v);
	free(texts);
	free(str);
}

/* lv->order for the items collected and the sort asked: collect's order
 * when the view has no sort or has group rows. On ENOMEM order_ok stays
 * false and the items keep collect's order. */
static void order_build(struct oc_listview *lv)
{
	if (lv->order_ok && lv->sort >= 0 && lv->order_sort == lv->sort && lv->order_reverse != lv->reverse &&
	    !lv->def->is_group && lv->nall >= async_rows()) {
		/* A long list, the same column the other way: every
		 * comparison breaks ties by item, so the order reversed is the
		 * new one (no sort). It keeps the order of when it was sorted
		 * where that depends on the clock (a suspended job's TIME
		 * against running ones'); shorter lists are sorted again. */
		for (size_t i = 0, j = lv->nall; i + 1 < j; i++, j--) {
			uint32_t t = lv->order[i];
			lv->order[i] = lv->order[j - 1];
			lv->order[j - 1] = t;
		}
		lv->order_reverse = lv->reverse;
		return;
	}
	lv->order_ok = false;
	if (lv->nall > lv->ordercap) {
		uint32_t *o = realloc(lv->order, lv->nall * sizeof(*o));
		if (!o)
			return;
		lv->order = o;
		lv->ordercap = lv->nall;
	}
	for (size_t k = 0; k < lv->nall; k++)
		lv->order[k] = (uint32_t)k;
	if (lv->sort >= 0 && lv->nall > 1 && !lv->def->is_group)
		sort_positions(lv, lv->order, lv->nall);
	lv->order_ok = true;
	lv->order_sort = lv->sort;
	lv->order_reverse = lv->reverse;
}

/* Whether s and the app state give the items lv already has. */
/* The table of the view's report in s (NULL when it shows none). */
static const void *report_table(const struct oc_listview *lv, const struct oc_snapshot *s)
{
	switch (lv->def->report) {
	case OC_REPORT_HISTORY:
		return s->history;
	case OC_REPORT_EVENTS:
		return s->events;
	case OC_REPORT_SCHED:
		return s->sched;
	default:
		return NULL;
	}
}

/* The tables of s the list is made from, in made_tables' order; NULL
 * for those the view does not read. */
static void tables_of(const struct oc_listview *lv, const struct oc_snapshot *s, const void *t[5])
{
	unsigned r = lv->def->reads ? lv->def->reads : ~0u;
	t[0] = (r & OC_LV_T_NODES) ? (const void *)s->nodes : NULL;
	t[1] = (r & OC_LV_T_PARTITIONS) ? (const void *)s->partitions : NULL;
	t[2] = (r & OC_LV_T_JOBS) ? (const void *)s->jobs : NULL;
	t[3] = (r & OC_LV_T_RESV) ? (const void *)s->reservations : NULL;
	t[4] = (r & OC_LV_T_REPORT) ? report_table(lv, s) : NULL;
}

static bool made_from(const struct oc_listview *lv, const struct oc_snapshot *s)
{
	/* The tables compared are alive: lv->snap (still referenced by the app
	 * while it moves to s) holds the ones the items were made from. */
	const struct oc_snapshot *o = lv->snap;
	if (!lv->def->pure_collect || !lv->made || !o)
		return false;
	const void *to[5], *ts[5];
	tables_of(lv, o, to);
	tables_of(lv, s, ts);
	bool fresh = (lv->def->clock_free && !lv->filter[0]) || lv->app->now - lv->made_at < 60;
	return fresh && memcmp(lv->made_tables, to, sizeof(to)) == 0 && memcmp(lv->made_tables, ts, sizeof(ts)) == 0 &&
	       lv->made_hidden == lv->app->show_hidden && strcmp(lv->made_arg, lv->arg) == 0;
}

/* Collect the items from new tables, and remember what they came from. */
static void collect_all(struct oc_listview *lv, const struct oc_snapshot *s)
{
	text_drop(lv);
	lv->order_ok = false;
	size_t n = lv->def->collect(lv, s);
	if (n > lv->allcap) {
		uint32_t *a = realloc(lv->all, n * sizeof(*a));
		if (!a)
			n = 0;
		else {
			lv->all = a;
			lv->allcap = n;
		}
	}
	if (n)
		memcpy(lv->all, lv->items, n * sizeof(*lv->all));
	lv->nall = n;
	tables_of(lv, s, lv->made_tables);
	lv->made_hidden = lv->app->show_hidden;
	lv->made_at = lv->app->now;
	snprintf(lv->made_arg, sizeof(lv->made_arg), "%s", lv->arg);
	lv->made = true;
}

/* Put the cursor back on the item it was on (before; key: its tag key
 * when the tables are new, "" when it has none): where it was first (the
 * common case), else by key or item. */
static void cursor_keep(struct oc_listview *lv, bool same_data, uint32_t before, const char *key)
{
	size_t n = lv->nitems;
	bool found = false;
	if (same_data && before != UINT32_MAX && lv->sel < n && lv->items[lv->sel] == before)
		found = true;
	if (!found && !same_data && key[0] && lv->sel < n &&
	    !(lv->def->is_group && lv->def->is_group(lv, lv->items[lv->sel]))) {
		/* New tables, same order: the item at the cursor's place. */
		char kb[128];
		const char *k = lv->def->tag_key(lv, lv->items[lv->sel], kb, sizeof(kb));
		found = k && strcmp(k, key) == 0;
	}
	if (!found && key[0]) {
		for (size_t i = 0; i < n; i++) {
			if (same_data ? lv->items[i] != before
				      : (lv->def->is_group && lv->def->is_group(lv, lv->items[i])))
				continue;
			char kb[128];
			const char *k = same_data ? key : lv->def->tag_key(lv, lv->items[i], kb, sizeof(kb));
			if (k && strcmp(k, key) == 0) {
				lv->sel = i;
				break;
			}
		}
	} else if (!found && before != UINT32_MAX) {
		for (size_t i = 0; i < n; i++)
			if (lv->items[i] == before) {
				lv->sel = i;
				break;
			}
	}
	if (lv->sel >= n)
		lv->sel = n ? n - 1 : 0;
}

/* oc_listview_update on this thread. */
static void update_now(struct oc_listview *lv, const struct oc_snapshot *s)
{
	bool same_data = made_from(lv, s);
	if (same_data && strcmp(lv->made_filter, lv->filter) == 0 && lv->made_sort == lv->sort &&
	    lv->made_reverse == lv->reverse) {
		listview_set_snap(lv, s); /* same tables: the items, order and cursor hold */
		return;
	}
	lv->updates++;
	uint32_t before = oc_listview_selected(lv);
	/* Keep the cursor on the same node or job (item indexes change from
	 * one snapshot to the next): remember its key. */
	char key[128] = "";
	if (before != UINT32_MAX && lv->def->tag_key && lv->snap &&
	    !(lv->def->is_group && lv->def->is_group(lv, before))) {
		char kb[128];
		const char *k = lv->def->tag_key(lv, before, kb, sizeof(kb));
		snprintf(key, sizeof(key), "%s", k ? k : "");
	}
	listview_set_snap(lv, s);
	if (!same_data)
		collect_all(lv, s);
	/* Views with group rows keep collect()'s order (groups in place). */
	if (!lv->order_ok || lv->order_sort != lv->sort || lv->order_reverse != lv->reverse)
		order_build(lv);
	size_t n = apply_filter(lv);
	lv->nitems = n;
	snprintf(lv->made_filter, sizeof(lv->made_filter), "%s", lv->filter);
	lv->made_sort = lv->sort;
	lv->made_reverse = lv->reverse;
	cursor_keep(lv, same_data, before, key);
}

/* ---- long lists: made off the UI thread ------------------------------- */

/* Lists of at least this many items are made off the UI thread
 * ($OC_ASYNC_ROWS; 0: never): sorting or filtering 100,000 jobs takes
 * longer than a frame (docs/performance.md). */
static size_t async_rows(void)
{
	static size_t rows;
	static bool known;
	if (!known) {
		const char *e = getenv("OC_ASYNC_ROWS");
		char *end = NULL;
		long v = e && *e ? strtol(e, &end, 10) : -1;
		rows = (end && !*end && v >= 0) ? (v ? (size_t)v : SIZE_MAX) : 20000;
		known = true;
	}
	return rows;
}

/* One result being made: a copy of the list (its own buffers) and of the
 * app fields collect() reads, the snapshot it reads (a reference). */
struct oc_lv_job {
	atomic_int refs;  /* the list's and the thread's */
	atomic_bool stop; /* superseded, or the list is gone */
	atomic_bool done;
	bool ok;          /* done, not stopped, no ENOMEM */
	bool collect;     /* the tables changed: collect again */
	const char *what; /* for the tab bar: "sorting"... */
	double t0, ms;    /* started (monotonic ms), and how long it took */
	struct oc_snapshot *snap;
	const void *tables[5];
	struct oc_app app;
	struct oc_listview sh;
};

static void job_put(struct oc_lv_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) != 1)
		return;
	oc_snapshot_unref(&j->snap);
	text_drop(&j->sh);
	free(j->sh.all);
	free(j->sh.order);
	free(j->sh.items);
	free(j);
}

/* Forget the job in flight (its thread ends by itself). */
static void job_drop(struct oc_listview *lv)
{
	if (!lv->job)
		return;
	atomic_store(&lv->job->stop, true);
	job_put(lv->job);
	lv->job = NULL;
}

static double mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *job_run(void *arg)
{
	struct oc_lv_job *j = arg;
	struct oc_listview *sh = &j->sh;
	if (j->collect && !atomic_load(&j->stop))
		collect_all(sh, j->snap);
	if (!atomic_load(&j->stop) &&
	    (!sh->order_ok || sh->order_sort != sh->sort || sh->order_reverse != sh->reverse))
		order_build(sh);
	if (!atomic_load(&j->stop) && oc_listview_reserve(sh, sh->nall ? sh->nall : 1) == 0) {
		sh->nitems = apply_filter(sh);
		j->ok = !atomic_load(&j->stop) && (!sh->filter[0] || sh->text);
	}
	j->ms = mono_ms() - j->t0;
	atomic_store(&j->done, true);
	if (!atomic_load(&j->stop))
		oc_app_wake();
	job_put(j);
	return NULL;
}

static void *dup_mem(const void *p, size_t n)
{
	void *d = n ? malloc(n) : NULL;
	if (d)
		memcpy(d, p, n);
	return d;
}

/* Start making the list from s on a thread; false when it could not be
 * started (then nothing changed). */
static bool job_start(struct oc_listview *lv, const struct oc_snapshot *s, bool collect, const char *what)
{
	struct oc_lv_job *j = calloc(1, sizeof(*j));
	if (!j)
		return false;
	atomic_init(&j->refs, 2);
	atomic_init(&j->stop, false);
	atomic_init(&j->done, false);
	j->collect = collect;
	j->what = what;
	j->t0 = mono_ms();
	j->app = *lv->app;
	struct oc_listview *sh = &j->sh;
	*sh = *lv;
	sh->app = &j->app;
	sh->pin = NULL;
	sh->job = NULL;
	sh->stop = &j->stop;
	sh->items = NULL;
	sh->cap = 0;
	sh->nitems = 0;
	memset(&sh->drawn, 0, sizeof(sh->drawn));
	sh->all = NULL;
	sh->order = NULL;
	sh->text = NULL;
	sh->text_off = NULL;
	sh->allcap = sh->ordercap = 0;
	bool nomem = false;
	if (collect) {
		sh->nall = 0;
		sh->order_ok = false;
		sh->made = false;
	} else {
		size_t n = lv->nall;
		sh->all = dup_mem(lv->all, n * sizeof(*lv->all));
		sh->allcap = n;
		if (lv->order_ok) {
			sh->order = dup_mem(lv->order, n * sizeof(*lv->order));
			sh->ordercap = n;
		}
		if (lv->text && n) {
			const char *last = lv->text + lv->text_off[n - 1];
			sh->text = dup_mem(lv->text, (size_t)(last - lv->text) + strlen(last) + 1);
			sh->text_off = dup_mem(lv->text_off, n * sizeof(*lv->text_off));
			nomem = !sh->text || !sh->text_off;
		}
		nomem = nomem || (n && (!sh->all || (lv->order_ok && !sh->order)));
	}
	j->snap = oc_snapshot_ref((struct oc_snapshot *)s);
	sh->snap = j->snap;
	sh->src.s = j->snap;
	sh->src.now = lv->app->now;
	tables_of(lv, s, j->tables);
	pthread_t th;
	pthread_attr_t attr;
	bool started = false;
	if (!nomem && pthread_attr_init(&attr) == 0) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&th, &attr, job_run, j) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started) {
		atomic_store(&j->refs, 1);
		job_put(j);
		return false;
	}
	lv->job = j;
	return true;
}

/* Whether the job in flight makes what lv asks for from s. */
static bool job_matches(const struct oc_listview *lv, const struct oc_lv_job *j, const struct oc_snapshot *s)
{
	const void *t[5];
	tables_of(lv, s, t);
	const struct oc_listview *sh = &j->sh;
	return memcmp(t, j->tables, sizeof(t)) == 0 && sh->sort == lv->sort && sh->reverse == lv->reverse &&
	       strcmp(sh->filter, lv->filter) == 0 && strcmp(sh->arg, lv->arg) == 0 &&
	       j->app.show_hidden == lv->app->show_hidden;
}

/* Whether the list is made off the UI thread: a long list of a view that
 * allows it, with items on screen meanwhile (made from a live snapshot). */
static bool async_wanted(const struct oc_listview *lv)
{
	return lv->def->off_thread && lv->def->pure_collect && !lv->def->is_group && lv->made && lv->snap &&
	       lv->nall >= async_rows();
}

/* Keep the snapshot the items index alive (lv->snap, when it is the
 * app's, is freed as soon as the app moves on). */
static void pin_to(struct oc_listview *lv, const struct oc_snapshot *s)
{
	if (lv->pin != s) {
		struct oc_snapshot *r = oc_snapshot_ref((struct oc_snapshot *)s);
		oc_snapshot_unref(&lv->pin);
		lv->pin = r;
	}
	listview_set_snap(lv, lv->pin);
}

static void async_update(struct oc_listview *lv, const struct oc_snapshot *s)
{
	/* lv->snap is what the items were made from: the pin, or (the first
	 * time) the app's snapshot, alive until the app moves to s. */
	pin_to(lv, lv->pin ? lv->pin : lv->snap);
	bool same_data = made_from(lv, s);
	bool same_order = lv->order_ok && lv->order_sort == lv->sort;
	if (same_data && strcmp(lv->made_filter, lv->filter) == 0 && lv->made_sort == lv->sort &&
	    lv->made_reverse == lv->reverse) {
		job_drop(lv);
		pin_to(lv, s); /* the same tables: nothing to make */
		return;
	}
	if (same_data && same_order && !lv->filter[0]) {
		/* The order is there (or is the same reversed) and no filter:
		 * a copy of the items, quicker than a thread. */
		job_drop(lv);
		pin_to(lv, s);
		update_now(lv, s);
		return;
	}
	if (lv->job && job_matches(lv, lv->job, s))
		return; /* being made */
	job_drop(lv);
	const char *what = !same_data ? "updating"
			   : strcmp(lv->made_filter, lv->filter) != 0 ? "filtering"
								      : "sorting";
	if (!job_start(lv, s, !same_data, what)) {
		pin_to(lv, s); /* no thread: make it here */
		update_now(lv, s);
	}
}

void oc_listview_update(struct oc_listview *lv, const struct oc_snapshot *s)
{
	if (!s)
		return;
	if (lv->def->visible)
		lv->def->visible(lv);
	if (async_wanted(lv)) {
		async_update(lv, s);
		return;
	}
	job_drop(lv);
	update_now(lv, s);
	if (lv->pin && lv->snap != lv->pin)
		oc_snapshot_unref(&lv->pin);
}

bool oc_listview_async_take(struct oc_listview *lv, char *note, size_t len)
{
	struct oc_lv_job *j = lv->job;
	if (!j || !atomic_load(&j->done))
		return false;
	lv->job = NULL;
	lv->updates++;
	if (note && len)
		snprintf(note, len, "%s %zu items %.3f ms%s", j->what, j->sh.nitems, j->ms, j->ok ? "" : " failed");
	struct oc_listview *sh = &j->sh;
	if (!j->ok) {
		/* Out of memory: made here instead, from the app's snapshot. */
		job_put(j);
		pin_to(lv, lv->app->snap);
		update_now(lv, lv->app->snap);
		return true;
	}
	uint32_t before = oc_listview_selected(lv);
	char key[128] = "";
	if (before != UINT32_MAX && lv->def->tag_key && lv->snap) {
		char kb[128];
		const char *k = lv->def->tag_key(lv, before, kb, sizeof(kb));
		snprintf(key, sizeof(key), "%s", k ? k : "");
	}
	bool same_data = !j->collect;
	/* The result's buffers become the list's, the list's old ones the
	 * job's (freed with it). */
#define OC_SWAP(field)                    \
	do {                                  \
		__typeof__(lv->field) t_ = lv->field; \
		lv->field = sh->field;            \
		sh->field = t_;                   \
	} while (0)
	OC_SWAP(all);
	OC_SWAP(allcap);
	OC_SWAP(order);
	OC_SWAP(ordercap);
	OC_SWAP(items);
	OC_SWAP(cap);
	OC_SWAP(text);
	OC_SWAP(text_off);
#undef OC_SWAP
	lv->nall = sh->nall;
	lv->nitems = sh->nitems;
	lv->order_ok = sh->order_ok;
	lv->order_sort = sh->order_sort;
	lv->order_reverse = sh->order_reverse;
	lv->made = sh->made;
	memcpy(lv->made_tables, sh->made_tables, sizeof(lv->made_tables));
	lv->made_hidden = sh->made_hidden;
	lv->made_at = sh->made_at;
	memcpy(lv->made_arg, sh->made_arg, sizeof(lv->made_arg));
	memcpy(lv->made_filter, sh->filter, sizeof(lv->made_filter));
	lv->made_sort = sh->sort;
	lv->made_reverse = sh->reverse;
	pin_to(lv, j->snap);
	lv->src.now = lv->app->now;
	cursor_keep(lv, same_data, before, key);
	job_put(j);
	return true;
}

void oc_listview_detach(struct oc_listview *lv)
{
	if (lv->pin) {
		/* Its own reference: shown again at once, made again off the
		 * UI thread. */
		listview_set_snap(lv, lv->pin);
		return;
	}
	lv->snap = NULL;
	lv->src.s = NULL;
}

void oc_listview_set_filter(struct oc_listview *lv, const char *filter)
{
	/* The filter texts stay until the items are collected again: clearing
	 * and typing a new filter over the same data costs no rebuild. */
	snprintf(lv->filter, sizeof(lv->filter), "%s", filter ? filter : "");
	lv->sel = lv->top = 0;
}

void oc_listview_open(struct oc_listview *lv, const char *arg)
{
	/* Back to a view as it was left (the same argument): the cursor and
	 * the columns stay where they were, as the rehearsal's step after
	 * a look at another view. */
	bool same = strcmp(lv->arg, arg ? arg : "") == 0 && !lv->def->arg;
	if (same)
		return;
	snprintf(lv->arg, sizeof(lv->arg), "%s", arg ? arg : "");
	memset(lv->content_w, 0, sizeof(lv->content_w));
	lv->measured = false;
	if (lv->def->arg)
		lv->def->arg(lv, arg);
	lv->sel = lv->top = 0;
}

/* ---- tags -------------------------------------------------------------- */

static struct oc_tagset *listview_tags(struct oc_listview *lv)
{
	switch (lv->def->tags) {
	case OC_TAG_NODES: return lv->def->tag_key ? &lv->app->node_tags : NULL;
	case OC_TAG_JOBS: return lv->def->tag_key ? &lv->app->job_tags : NULL;
	default: return NULL;
	}
}

static bool item_tagged(struct oc_listview *lv, uint32_t item)
{
	struct oc_tagset *t = listview_tags(lv);
	if (!t || !t->n || (lv->def->is_group && lv->def->is_group(lv, item)))
		return false;
	char buf[128];
	const char *k = lv->def->tag_key(lv, item, buf, sizeof(buf));
	return k && oc_tagset_has(t, k);
}

static void tag_item(struct oc_listview *lv, uint32_t item, int mode /* -1 toggle, 1 set */)
{
	struct oc_tagset *t = listview_tags(lv);
	if (!t || (lv->def->is_group && lv->def->is_group(lv, item)))
		return;
	char buf[128];
	const char *k = lv->def->tag_key(lv, item, buf, sizeof(buf));
	if (!k)
		return;
	if (mode < 0 || !oc_tagset_has(t, k))
		oc_tagset_toggle(t, k);
}

/* ---- drawing ----------------------------------------------------------- */

#define OC_FLEX_MIN 24
/* A column grows to its content up to this width (a long job name or
 * comment does not take the whole line). */
#define OC_GROW_MAX 48

/* Rows that can be tagged start with a column of their own for the tag
 * mark ('+'), blank on untagged rows and on the title line: a tag moves
 * nothing. Returns its width (0 or 1). */
static int tag_gutter(const struct oc_listview *lv)
{
	return lv->def->tags != OC_TAG_NONE && lv->def->tag_key ? 1 : 0;
}

/* The title's columns: a column is never narrower than its title. */
static int title_cols(const struct oc_listview *lv, int c)
{
	return (int)strlen(col_of(lv, lv->cols[c].def)->title);
}

/* Widths for a line of width columns. Optional columns (from the right)
 * give way while the flexible column (width 0, text) would be narrower
 * than OC_FLEX_MIN. Then the columns grow, left to right, to the widest
 * text they have shown (content_w), with the room left beyond what the
 * flexible column needs; the flexible column takes the rest. A numeric
 * flexible column takes only what it needs: the line is not stretched to
 * the right edge. */
static void listview_layout(const struct oc_listview *lv, int width, int *w)
{
	width -= tag_gutter(lv);
	int flex = -1;
	for (int c = 0; c < lv->ncols; c++) {
		w[c] = lv->cols[c].width;
		if (w[c] == 0 && flex < 0)
			flex = c;
		/* Narrower when its texts and its title are. */
		int need = lv->content_w[c] > title_cols(lv, c) ? lv->content_w[c] : title_cols(lv, c);
		if (lv->measured && w[c] > need)
			w[c] = need;
	}
	const struct oc_column *fd = flex >= 0 ? col_of(lv, lv->cols[flex].def) : NULL;
	if (fd && fd->right) {
		int need = lv->content_w[flex] > title_cols(lv, flex) ? lv->content_w[flex] : title_cols(lv, flex);
		w[flex] = need > 4 ? need : 4;
		flex = -1; /* a fixed column now */
	}
	int rest;
	for (;;) {
		int fixed = 0;
		for (int c = 0; c < lv->ncols; c++)
			if (c != flex && w[c] > 0)
				fixed += w[c] + 1;
		rest = width - fixed;
		if (flex < 0 || rest >= OC_FLEX_MIN)
			break;
		int drop = -1;
		for (int c = lv->ncols - 1; c >= 0; c--)
			if (lv->cols[c].optional && w[c] > 0) {
				drop = c;
				break;
			}
		if (drop < 0)
			break;
		w[drop] = 0;
	}
	/* What the flexible column keeps before the others grow. */
	int keep = 0;
	if (flex >= 0) {
		keep = lv->content_w[flex] < OC_FLEX_MIN ? lv->content_w[flex] : OC_FLEX_MIN;
		if (keep < title_cols(lv, flex))
			keep = title_cols(lv, flex);
	}
	int room = rest - keep;
	for (int c = 0; c < lv->ncols && room > 0; c++) {
		if (c == flex || w[c] == 0)
			continue;
		int want = lv->content_w[c] < OC_GROW_MAX ? lv->content_w[c] : OC_GROW_MAX;
		int grow = want - w[c];
		if (grow <= 0)
			continue;
		if (grow > room)
			grow = room;
		w[c] += grow;
		room -= grow;
		rest -= grow;
	}
	if (flex >= 0)
		w[flex] = rest > 4 ? rest : 4;
}

/* Whether column c (on screen) follows the clock. */
static bool col_clock(const struct oc_listview *lv, int c)
{
	return col_of(lv, lv->cols[c].def)->clock;
}

/* The widest text of each column (only those that follow the clock, with
 * clock_only) in the rows [top, top + rows): kept in content_w for the
 * layout. Returns true when a column grew. */
static bool measure_rows(struct oc_listview *lv, size_t top, int rows, bool clock_only)
{
	bool grew = false;
	char buf[512];
	for (int r = 0; r < rows && top + (size_t)r < lv->nitems; r++) {
		uint32_t item = lv->items[top + (size_t)r];
		if (lv->def->is_group && lv->def->is_group(lv, item))
			continue;
		if (!lv->measured)
			grew = lv->measured = true;
		for (int c = 0; c < lv->ncols && c < 32; c++) {
			if (clock_only && !col_clock(lv, c))
				continue;
			buf[0] = '\0';
			cell_of(lv, lv->cols[c].def, item, buf, sizeof(buf));
			int tw = oc_text_cols(buf);
			if (tw > lv->content_w[c]) {
				lv->content_w[c] = tw;
				grew = true;
			}
		}
	}
	return grew;
}

/* The title line at y. The sort column's mark (^ or v) follows its title
 * without moving it: inside the column when the title leaves room, else
 * in the space after the column. */
static void draw_titles(struct oc_listview *lv, WINDOW *w, int y, int width, const int *cw)
{
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	wmove(w, y, 0);
	int used = 0;
	for (; used < tag_gutter(lv) && used < width; used++)
		waddch(w, ' ');
	for (int c = 0; c < lv->ncols && used < width; c++) {
		if (cw[c] == 0)
			continue;
		int cwid = cw[c] < width - used ? cw[c] : width - used;
		const struct oc_column *cd = col_of(lv, lv->cols[c].def);
		int start = used;
		used += oc_put_cell(w, cd->title, cwid, cd->right);
		int mark = -1;
		if (c == lv->sort) {
			int tl = oc_text_cols(cd->title);
			mark = !cd->right && tl < cwid ? start + tl : start + cwid;
		}
		if (used < width) {
			waddch(w, ' ');
			used++;
		}
		if (mark >= 0 && mark < used) {
			mvwaddch(w, y, mark, lv->reverse ? 'v' : '^');
			wmove(w, y, used);
		}
	}
	for (; used < width; used++)
		waddch(w, ' ');
}

/* FNV-1a over n bytes, from h. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}
#define OC_HASH0 0xcbf29ce484222325ULL

/* The cells of item at line y, in attribute base unless a column has a
 * role of its own (not on a selected, tagged or group row). hash[c] gets
 * a hash of cell c's text and attribute; with only_changed, a cell whose
 * hash is the one already there is not drawn again. */
static void draw_cells(struct oc_listview *lv, WINDOW *w, int y, int width, const int *cw, uint32_t item,
		       attr_t base, bool plain, bool tagged, uint64_t *hash, bool only_changed, bool clock_only)
{
	int used = 0;
	wmove(w, y, 0);
	if (tag_gutter(lv) && width > 0) {
		if (!only_changed) {
			wattrset(w, base);
			waddch(w, tagged ? '+' : ' ');
		}
		used = 1;
	}
	for (int c = 0; c < lv->ncols && used < width; c++) {
		if (cw[c] == 0)
			continue;
		int cwid = cw[c] < width - used ? cw[c] : width - used;
		int def = lv->cols[c].def;
		const struct oc_col_ui *ui = lv->colui[def];
		char buf[512];
		buf[0] = '\0';
		bool same;
		attr_t a = base;
		if (only_changed && clock_only && !col_clock(lv, c)) {
			same = true; /* drawn from the same rows a second ago */
		} else {
			cell_of(lv, def, item, buf, sizeof(buf));
			a = plain && ui && ui->role ? oc_theme_attr(ui->role(lv, item)) : base;
			uint64_t h = hash_bytes(hash_bytes(OC_HASH0, &a, sizeof(a)), buf, strlen(buf));
			same = only_changed && hash[c] == h;
			hash[c] = h;
		}
		if (same) {
			/* As drawn: the cell's width, then a space. */
			used += cwid;
			if (used < width)
				used++;
			continue;
		}
		wmove(w, y, used);
		wattrset(w, a);
		used += oc_put_cell(w, buf, cwid, col_of(lv, def)->right);
		if (used < width) {
			wattrset(w, base);
			waddch(w, ' ');
			used++;
		}
	}
	wattrset(w, base);
	if (only_changed)
		return;
	for (; used < width; used++)
		waddch(w, ' ');
}

/* Row number row of the list (past the end: blank) at line y; hash gets
 * the row's key and its cells' hashes (1 + ncols), and with only_changed
 * a row of the same key draws its changed cells only (with clock_only,
 * of the columns that follow the clock). Returns false when clock_only
 * found a row that is not the one drawn there (the caller draws the
 * whole screen). */
static bool draw_row(struct oc_listview *lv, WINDOW *w, int y, int width, const int *cw, size_t row, uint64_t *hash,
		     bool only_changed, bool clock_only)
{
	if (row >= lv->nitems) {
		if (only_changed && hash[0] == 0)
			return true;
		hash[0] = 0;
		wmove(w, y, 0);
		wattrset(w, A_NORMAL);
		for (int i = 0; i < width; i++)
			waddch(w, ' ');
		return !clock_only;
	}
	uint32_t item = lv->items[row];
	bool selected = row == lv->sel;
	bool tagged = item_tagged(lv, item);
	bool group = lv->def->is_group && lv->def->is_group(lv, item);
	attr_t base = selected ? oc_theme_attr(OC_ROLE_SELECTED)
		      : tagged ? oc_theme_attr(OC_ROLE_TAGGED)
		      : group  ? oc_theme_attr(OC_ROLE_GROUP)
			       : A_NORMAL;
	char text[512];
	text[0] = '\0';
	if (group && lv->def->group_text)
		lv->def->group_text(lv, item, text, sizeof(text));
	/* Never 0 (the blank row's key). */
	unsigned flags = 1u | (selected ? 2u : 0) | (tagged ? 4u : 0) | (group ? 8u : 0);
	uint64_t key = hash_bytes(hash_bytes(hash_bytes(OC_HASH0, &item, sizeof(item)), &flags, sizeof(flags)), &base,
				  sizeof(base));
	if (group && lv->def->group_text)
		key = hash_bytes(key, text, strlen(text));
	bool same_row = only_changed && hash[0] == key;
	if (clock_only && !same_row)
		return false;
	hash[0] = key;
	if (group && lv->def->group_text) {
		if (same_row)
			return true;
		wmove(w, y, 0);
		wattrset(w, base);
		oc_put_text(w, text, width, true, false);
		return true;
	}
	draw_cells(lv, w, y, width, cw, item, base, !selected && !tagged && !group, tagged, hash + 1, same_row,
		   clock_only);
	return true;
}

void oc_listview_forget(struct oc_listview *lv)
{
	lv->drawn.valid = false;
}

/* Room for the hashes of rows lines; false on ENOMEM. */
static bool drawn_reserve(struct oc_listview *lv, int rows)
{
	size_t need = (size_t)(rows > 0 ? rows : 0) * (size_t)(1 + lv->ncols);
	if (need <= lv->drawn.cap)
		return true;
	uint64_t *p = realloc(lv->drawn.cell, need * sizeof(*p));
	if (!p)
		return false;
	lv->drawn.cell = p;
	lv->drawn.cap = need;
	return true;
}

/* What the rows on screen were drawn from: the tables the view reads,
 * and the list as made then. */
static void drawn_from(struct oc_listview *lv)
{
	memset(lv->drawn.tables, 0, sizeof(lv->drawn.tables));
	if (lv->snap)
		tables_of(lv, lv->snap, lv->drawn.tables);
	lv->drawn.updates = lv->updates;
}

void oc_listview_draw(struct oc_listview *lv, WINDOW *w, int y, int h, int width)
{
	lv->drawn.valid = false;
	if (h <= 0 || width <= 0)
		return;
	listview_set_snap(lv, lv->pin ? lv->pin : lv->app->snap); /* what the items index */
	bool top_lines = lv->def->draw_top != NULL;
	if (lv->def->draw_top) {
		int used = lv->def->draw_top(lv, w, y, h, width);
		y += used;
		h -= used;
		if (h <= 0)
			return;
	}
	int rows = h - 1;
	lv->page = rows > 0 ? rows : 1;
	lv->rows_y = y + 1;
	if (lv->sel >= lv->nitems)
		lv->sel = lv->nitems ? lv->nitems - 1 : 0;
	if (lv->top > lv->sel)
		lv->top = lv->sel;
	if (lv->sel >= lv->top + (size_t)lv->page)
		lv->top = lv->sel - (size_t)lv->page + 1;
	measure_rows(lv, lv->top, rows, false);
	int cw[32] = {0};
	listview_layout(lv, width, cw);
	draw_titles(lv, w, y, width, cw);
	/* Without room for the hashes, the rows are drawn all the same
	 * into a scratch line (the next tick draws everything again). */
	bool keep = !top_lines && lv->nitems > 0 && drawn_reserve(lv, rows);
	uint64_t scratch[33];
	for (int r = 0; r < rows; r++)
		draw_row(lv, w, y + 1 + r, width, cw, lv->top + (size_t)r,
			 keep ? lv->drawn.cell + (size_t)r * (size_t)(1 + lv->ncols) : scratch, false, false);
	wattrset(w, A_NORMAL);
	if (lv->nitems == 0 && rows > 0) {
		wmove(w, y + 1, 1);
		const char *msg = !lv->snap || !lv->snap->seq ? "loading..."
				  : lv->filter[0]		    ? "nothing matches the filter"
								    : "nothing to show";
		oc_put_text(w, msg, width - 1, false, false);
	}
	if (!keep)
		return;
	lv->drawn.valid = true;
	lv->drawn.y = y;
	lv->drawn.h = h;
	lv->drawn.width = width;
	lv->drawn.ncols = lv->ncols;
	lv->drawn.sort = lv->sort;
	lv->drawn.reverse = lv->reverse;
	memcpy(lv->drawn.cw, cw, sizeof(cw));
	lv->drawn.top = lv->top;
	lv->drawn.sel = lv->sel;
	lv->drawn.nitems = lv->nitems;
	drawn_from(lv);
}

bool oc_listview_draw_tick(struct oc_listview *lv, WINDOW *w, int y, int h, int width)
{
	if (!lv->drawn.valid || lv->def->draw_top || lv->drawn.y != y || lv->drawn.h != h ||
	    lv->drawn.width != width || lv->drawn.ncols != lv->ncols || lv->drawn.sort != lv->sort ||
	    lv->drawn.reverse != lv->reverse || lv->drawn.top != lv->top || lv->drawn.sel != lv->sel ||
	    lv->drawn.nitems != lv->nitems || lv->nitems == 0)
		return false;
	/* A new snapshot keeps the layout unless a column grew: every cell
	 * is compared anyway. The same snapshot a second later: only the
	 * cells that follow the clock can have changed. */
	listview_set_snap(lv, lv->pin ? lv->pin : lv->app->snap); /* what the items index */
	const void *t[5] = {0};
	if (lv->snap)
		tables_of(lv, lv->snap, t);
	bool clock_only = lv->def->pure_collect && lv->snap && memcmp(t, lv->drawn.tables, sizeof(t)) == 0 &&
			  lv->updates == lv->drawn.updates;
	measure_rows(lv, lv->top, h - 1, clock_only);
	int cw[32] = {0};
	listview_layout(lv, width, cw);
	if (memcmp(cw, lv->drawn.cw, sizeof(cw)) != 0)
		return false;
	for (int r = 0; r < h - 1; r++)
		if (!draw_row(lv, w, y + 1 + r, width, cw, lv->top + (size_t)r,
			      lv->drawn.cell + (size_t)r * (size_t)(1 + lv->ncols), true, clock_only)) {
			lv->drawn.valid = false;
			return false;
		}
	wattrset(w, A_NORMAL);
	drawn_from(lv);
	if (clock_only)
		lv->drawn.clock_ticks++;
	return true;
}

/* ---- actions ----------------------------------------------------------- */

bool oc_listview_action(struct oc_listview *lv, enum oc_act act)
{
	if (lv->def->action && lv->def->action(lv, act))
		return true;
	size_t page = lv->page > 1 ? (size_t)lv->page : 1;
	uint32_t item = oc_listview_selected(lv);
	switch (act) {
	case OC_ACT_MOVE_UP:
		if (lv->sel > 0)
			lv->sel--;
		return true;
	case OC_ACT_MOVE_DOWN:
		if (lv->sel + 1 < lv->nitems)
			lv->sel++;
		return true;
	case OC_ACT_MOVE_PGUP:
		lv->sel = lv->sel > page ? lv->sel - page : 0;
		return true;
	case OC_ACT_MOVE_PGDN:
		lv->sel = lv->sel + page < lv->nitems ? lv->sel + page : (lv->nitems ? lv->nitems - 1 : 0);
		return true;
	case OC_ACT_MOVE_TOP:
		lv->sel = 0;
		return true;
	case OC_ACT_MOVE_BOTTOM:
		lv->sel = lv->nitems ? lv->nitems - 1 : 0;
		return true;
	case OC_ACT_SORT_NEXT:
	case OC_ACT_SORT_REVERSE:
		if (lv->def->is_group) {
			oc_app_message(lv->app, false, " this view keeps its grouping; use / to filter");
			return true;
		}
		if (act == OC_ACT_SORT_REVERSE) {
			if (lv->sort < 0)
				lv->sort = 0;
			lv->reverse = !lv->reverse;
		} else {
			lv->sort = lv->sort + 1 < lv->ncols ? lv->sort + 1 : 0;
			lv->reverse = false;
		}
		oc_listview_update(lv, lv->snap);
		oc_app_message(lv->app, false, " sorted by %s%s",
			       col_of(lv, lv->cols[lv->sort].def)->title, lv->reverse ? " (reversed)" : "");
		return true;
	case OC_ACT_TAG:
		if (!listview_tags(lv)) {
			oc_app_message(lv->app, false, " rows of this view cannot be tagged");
			return true;
		}
		if (item != UINT32_MAX) {
			tag_item(lv, item, -1);
			if (lv->sel + 1 < lv->nitems)
				lv->sel++;
		}
		return true;
	case OC_ACT_TAG_ALL:
		if (listview_tags(lv))
			for (size_t i = 0; i < lv->nitems; i++)
				tag_item(lv, lv->items[i], 1);
		return true;
	case OC_ACT_TAG_CLEAR: {
		struct oc_tagset *t = listview_tags(lv);
		if (t)
			oc_tagset_clear(t);
		return true;
	}
	case OC_ACT_OPEN:
		if (item != UINT32_MAX && lv->def->open)
			lv->def->open(lv, item);
		return true;
	default:
		return false;
	}
}

void oc_listview_context(struct oc_listview *lv, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	if (lv->def->context) {
		lv->def->context(lv, buf, len);
		off = strlen(buf);
	}
	struct oc_tagset *t = listview_tags(lv);
	if (t && t->n && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%s%zu tagged", off ? "  " : "", t->n);
	if (lv->filter[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%sfilter \"%s\"", off ? "  " : "", lv->filter);
	if (lv->job && off < len)
		snprintf(buf + off, len - off, "%s(%s...)", off ? "  " : "", lv->job->what);
}

/* ---- layout files ------------------------------------------------------ */

void oc_listview_configure(struct oc_listview *lv, const char *datadir, char *err, size_t errlen)
{
	const struct oc_listview_def *def = lv->def;
	const char *ids[64];
	size_t nids = oc_catalogue_ids(def->cat, ids, 64);
	struct oc_datafile_dirs dirs;
	oc_datafile_dirs(&dirs, datadir);
	struct oc_viewcfg *vc = calloc(1, sizeof(*vc));
	if (!vc)
		return;
	char why[1024] = "";
	int rc = oc_viewcfg_find(def->name, &dirs, ids, nids, vc, why, sizeof(why));
	if (rc == 1)
		rc = oc_viewcfg_builtin(def->name, ids, nids, vc, why, sizeof(why)) == 0 ? 0 : 1;
	if (rc < 0)
		snprintf(err, errlen, "view %s: %s; using the built-in layout", def->name, why);
	if (rc != 0) {
		free(vc);
		return; /* keep the definition's own layout */
	}
	lv->ncols = 0;
	memset(lv->content_w, 0, sizeof(lv->content_w));
	lv->measured = false;
	for (size_t i = 0; i < vc->ncols && lv->ncols < (int)(sizeof(lv->cols) / sizeof(lv->cols[0])); i++) {
		lv->cols[lv->ncols].def = vc->cols[i].col;
		lv->cols[lv->ncols].width = vc->cols[i].width;
		lv->cols[lv->ncols].optional = vc->cols[i].optional;
		lv->ncols++;
	}
	lv->sort = -1;
	for (int c = 0; vc->sort >= 0 && c < lv->ncols; c++)
		if (lv->cols[c].def == vc->sort)
			lv->sort = c;
	lv->reverse = vc->reverse;
	free(vc);
}
