/* listview.h: the one list widget every view uses (listview.c) and the
 * vtable a view fills (struct oc_listview_def). */
#ifndef OC_UI_LISTVIEW_H
#define OC_UI_LISTVIEW_H

#include <curses.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/columns.h"
#include "core/model.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/registry.h"

struct oc_app;
struct oc_listview;

/* What the screen adds to a column of the view's catalogue
 * (core/columns.h): how it sorts and how its cells are coloured. */
struct oc_col_ui {
	const char *id;     /* a column id of the catalogue */
	/* Order of two items by this column; NULL: by the cells' text. */
	int (*cmp)(struct oc_listview *lv, uint32_t a, uint32_t b);
	/* Role of the cell; NULL: normal. */
	enum oc_role (*role)(struct oc_listview *lv, uint32_t item);
	/* The number cmp orders by, when there is one (ties go by the
	 * collected order): sorting by it is a radix sort of the numbers,
	 * not a comparison sort calling cmp. NULL: cmp. */
	uint32_t (*key)(struct oc_listview *lv, uint32_t item);
	/* The string cmp orders by (strcmp's order, NULL as ""), when it
	 * is one: sorting by it ranks the distinct strings and radix-sorts
	 * the ranks, not a comparison sort calling cmp. NULL: cmp. */
	const char *(*str)(struct oc_listview *lv, uint32_t item);
};

/* A column on screen: a definition with the width the view file gave. */
struct oc_col {
	int def;            /* index in the view's catalogue */
	int width;
	bool optional;
};

/* What a list view provides to the shared widget. */
struct oc_listview_def {
	const char *name;             /* "queue": also its :command and views/queue.json */
	const char *title;            /* tab label */
	unsigned focus;               /* OC_MASK() of the parts it shows */
	enum oc_report report;        /* the report it shows (history...), OC_REPORT_NONE: none */
	/* The view's columns (core/columns.h) and what the screen adds to
	 * some of them (by id). */
	const struct oc_catalogue *cat;
	const struct oc_col_ui *ui;
	int nui;
	const char *default_sort;     /* column id, or NULL for collect()'s order */
	bool default_reverse;
	/* Collect the items to list (before filter and sort) into lv->items
	 * (use oc_listview_reserve). Returns the count. */
	size_t (*collect)(struct oc_listview *lv, const struct oc_snapshot *s);
	/* Which tag set Space uses: the nodes' (shared by the nodes and health
	 * views, used by node actions) or the jobs'. */
	enum { OC_TAG_NONE = 0, OC_TAG_NODES, OC_TAG_JOBS } tags;
	/* The key an item is tagged under (node name, job id). */
	const char *(*tag_key)(struct oc_listview *lv, uint32_t item, char *buf, size_t len);
	/* An action for this view before the shared ones (expand/collapse...);
	 * returns true when handled. NULL: none. */
	bool (*action)(struct oc_listview *lv, enum oc_act act);
	/* Enter on an item; NULL: nothing. */
	void (*open)(struct oc_listview *lv, uint32_t item);
	/* Jump into the view with an argument (partition name...); NULL: none. */
	void (*arg)(struct oc_listview *lv, const char *arg);
	/* What the selected row names for an action (a reservation, an
	 * account) into buf, or NULL; NULL: nothing. Node rows need none:
	 * their tag key is the node's name. */
	const char *(*selected)(struct oc_listview *lv, uint32_t item, enum oc_sel what, char *buf, size_t len);
	/* A : command of this view (a registry entry whose in_view is this
	 * view's name), with its argument (NULL: none). Returns false when
	 * refused (a message is set). */
	bool (*command)(struct oc_listview *lv, enum oc_act act, const char *arg);
	/* Extra text for the tab bar; NULL: none. */
	void (*context)(struct oc_listview *lv, char *buf, size_t len);
	/* Lines drawn above the table (returns how many it used); NULL: none. */
	int (*draw_top)(struct oc_listview *lv, WINDOW *w, int y, int h, int width);
	/* Whether an item is a group header (not sortable, not taggable), and
	 * its text, drawn across the whole line. */
	bool (*is_group)(struct oc_listview *lv, uint32_t item);
	void (*group_text)(struct oc_listview *lv, uint32_t item, char *buf, size_t len);
	/* View state beyond the list: created with the view, freed with it. */
	void *(*priv_new)(void);
	void (*priv_free)(void *priv);
	/* collect() reads only the snapshot's node, partition, job and
	 * reservation tables, the table of the view's report (.report), the
	 * view's arg and show_hidden (and the clock, coarsely): when none of
	 * them changed (and the items are less than a minute old), the items
	 * are not collected again (nor filtered and sorted again when the
	 * filter and sort did not change either). */
	bool pure_collect;
	/* The tables collect() and the cells read (OC_LV_T_*; 0: all of
	 * them). A new table the view does not read (the node table, for
	 * the queue) leaves its items as they are. */
	unsigned reads;
	/* The items do not depend on the clock (the queue: a running job's
	 * time moves, but not its place among the others): they are not
	 * collected again each minute, unless a filter (which may match the
	 * text of a time) is set. */
	bool clock_free;
	/* collect(), the comparators and the cells use nothing but the
	 * snapshot, lv->items, arg and the app's clock and show_hidden (no
	 * priv, no src.rows: a copy of the list runs on another thread): a
	 * long list of this view (OC_ASYNC_ROWS, 20,000 items) is collected,
	 * sorted and filtered on a thread of its own, the UI showing the last
	 * result until the new one is ready. Needs pure_collect, no groups. */
	bool off_thread;
	/* Called on every update while the view is on screen, collected again
	 * or not (a report view asks for its report there); NULL: none. */
	void (*visible)(struct oc_listview *lv);
};

/* The tables of oc_listview_def.reads. */
#define OC_LV_T_NODES 0x01u
#define OC_LV_T_PARTITIONS 0x02u
#define OC_LV_T_JOBS 0x04u
#define OC_LV_T_RESV 0x08u
#define OC_LV_T_REPORT 0x10u

struct oc_listview {
	const struct oc_listview_def *def;
	struct oc_app *app;
	const struct oc_snapshot *snap;  /* the app's snapshot, borrowed (or pin) */
	/* A list made off the UI thread keeps the snapshot its items index
	 * (a reference), which may be older than the app's while the next
	 * result is being made. NULL otherwise. */
	struct oc_snapshot *pin;
	struct oc_lv_job *job;           /* the result being made, or NULL */
	const atomic_bool *stop;         /* set in a job's copy: give up when true */
	void *priv;
	/* What the catalogue's cells read: the snapshot and the time are set
	 * by the list, rows and extra by the view's collect(). */
	struct oc_cell_src src;
	const struct oc_col_ui *colui[32];  /* by catalogue index, NULL: none */
	uint32_t *items;                 /* collected, then filtered and sorted */
	size_t nitems, cap;
	struct oc_col cols[32];          /* columns on screen */
	int ncols;
	int sort;                        /* index in cols[], -1 = collect order */
	bool reverse;
	char filter[256];
	size_t sel, top;
	int page;
	int rows_y;                      /* the screen line of the first row drawn (a click) */
	/* Per column on screen: the widest text drawn in it since the view
	 * was opened or its columns changed. A column is as wide as that (or
	 * its title) when the screen has room: narrower than its width in
	 * the layout when its texts are, wider up to OC_GROW_MAX. It never
	 * shrinks while the view is open. */
	int content_w[32];
	bool measured;                   /* content_w has seen a row */
	/* Counts the lists made (on this thread or taken from the other):
	 * a draw_tick with the same count, on the tables the last draw read,
	 * has nothing new but the clock. */
	unsigned long updates;
	char arg[128];                   /* e.g. the queue's partition */
	/* What the items were last made from (pure_collect views): */
	bool made;                       /* items match the fields below */
	const void *made_tables[5];      /* nodes, partitions, jobs, reservations, the report's */
	bool made_hidden;
	time_t made_at;                  /* collected again at least every minute:
	                                    a reservation may start meanwhile */
	char made_arg[128];
	char made_filter[256];
	int made_sort;
	bool made_reverse;
	uint32_t *all;                   /* collected items before the filter */
	size_t nall, allcap;
	/* Lower-case text of the columns of each collected item (all[k]),
	 * built when a filter first needs it, dropped when the items are
	 * collected again. */
	char *text;
	size_t *text_off;
	/* The positions in all[] in sort order, made once per collection and
	 * sort: the filter keeps that order, so typing a filter over a long
	 * list sorts nothing. */
	uint32_t *order;
	size_t ordercap;
	bool order_ok;
	int order_sort;
	bool order_reverse;
	/* What the last whole draw of the table put on screen, for
	 * oc_listview_draw_tick: where, and per row a key (item, selection,
	 * tag) and a hash of each cell's text and attribute. */
	struct {
		bool valid;
		int y, h, width, ncols, sort;
		bool reverse;
		int cw[32];
		size_t top, sel, nitems;
		uint64_t *cell; /* rows x (1 + ncols) */
		size_t cap;
		/* The tables the rows were drawn from (tables_of: those the
		 * view reads), lv->updates then; clock_ticks counts the ticks
		 * that only measured and compared the cells of clock columns
		 * (oc_column.clock). */
		const void *tables[5];
		unsigned long updates;
		unsigned long clock_ticks;
	} drawn;
};

/* Make room for n items. Returns 0, -1 on ENOMEM. */
int oc_listview_reserve(struct oc_listview *lv, size_t n);
/* The item under the cursor, or UINT32_MAX when the list is empty. */
uint32_t oc_listview_selected(const struct oc_listview *lv);

/* Create a list view for def; NULL on ENOMEM. */
struct oc_listview *oc_listview_new(struct oc_app *app, const struct oc_listview_def *def);
void oc_listview_free(struct oc_listview **lv);
/* A new snapshot, filter or sort: collect, filter and sort again (off
 * the UI thread for a long list of an off_thread view: then the items
 * change later, in oc_listview_async_take). */
void oc_listview_update(struct oc_listview *lv, const struct oc_snapshot *s);
/* Put in place the result made off the UI thread, if it is ready (the
 * cursor stays on its item). Returns true when the list changed, with
 * note (may be NULL) saying what was made and how long it took from the
 * key or snapshot that asked ("sorting 100005 items 61.2 ms"). */
bool oc_listview_async_take(struct oc_listview *lv, char *note, size_t len);
/* The view is off screen and the app's snapshot it reads is about to be
 * freed: forget it (the next update makes the list again, on this
 * thread). A list made off the UI thread keeps its own snapshot instead,
 * so that coming back to it is not a wait: it is made again off the UI
 * thread meanwhile. */
void oc_listview_detach(struct oc_listview *lv);
void oc_listview_draw(struct oc_listview *lv, WINDOW *w, int y, int h, int width);
/* The clock moved or a new snapshot came, and the layout did not change:
 * draw again only the cells whose text or attribute changed since the
 * last draw (running jobs' times, ages, states), at the same place. When
 * only the clock moved (the tables the view reads are those of the last
 * draw, the list was not made again since, and the view's cells read
 * nothing else: pure_collect), only the cells of the columns that follow
 * the clock (oc_column.clock) are made and compared.
 * Returns false, having drawn nothing that a whole draw would not draw
 * again, when that is not possible (no earlier draw of this layout, rows
 * came or went, the cursor moved, a view with lines above its table);
 * the caller then draws the whole screen. */
bool oc_listview_draw_tick(struct oc_listview *lv, WINDOW *w, int y, int h, int width);
/* Forget the last draw (the screen was erased or drawn over). */
void oc_listview_forget(struct oc_listview *lv);
/* Navigation, sort, tag and open actions; returns true when handled. */
bool oc_listview_action(struct oc_listview *lv, enum oc_act act);
void oc_listview_set_filter(struct oc_listview *lv, const char *filter);
/* Jump into the view with an argument (may be NULL: clears it). The
 * same argument as the view has (and no arg hook) changes nothing: the
 * cursor stays. */
void oc_listview_open(struct oc_listview *lv, const char *arg);
/* Tab bar text: counts, sort, filter. */
void oc_listview_context(struct oc_listview *lv, char *buf, size_t len);

/* Apply views/NAME.json (user dir, then data dir) to a list view's
 * columns and sort; on a broken file keep the built-in layout and write
 * the message into err. */
void oc_listview_configure(struct oc_listview *lv, const char *datadir, char *err, size_t errlen);

#endif
