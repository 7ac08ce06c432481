/* columns.h: the column catalogue of each view: every column's id (what
 * views/NAME.json names), title, width, alignment and the function that
 * writes its cell. The screen's list views (src/ui/views/), script mode's
 * tables (core/script.c) and the check of views/NAME.json files (the
 * screen passes the catalogue's ids to core/viewcfg.c) all read these
 * tables, so that a column is described once. No drawing: how a cell is
 * coloured and how a column sorts stay with the screen.
 *
 * A cell function gets the row's index and a struct oc_cell_src: the
 * snapshot, the time the cells are shown at, and the rows each catalogue
 * reads besides the snapshot (its comment says which). */
#ifndef OC_CORE_COLUMNS_H
#define OC_CORE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/model.h"

/* What the cells of a catalogue read. */
struct oc_cell_src {
	const struct oc_snapshot *s;
	time_t now;           /* run times, reservation states, "AGO" */
	const void *rows;     /* the catalogue's own rows, when not the snapshot's */
	const void *extra;    /* a second table, when the catalogue says so */
};

/* Writes the text of row's cell into buf (len > 0). */
typedef void (*oc_cell_fn)(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len);

struct oc_column {
	const char *id;       /* "jobid" */
	const char *title;    /* "JOBID" */
	int width;            /* on screen; 0: takes the rest of the line */
	bool right;           /* right-aligned (numbers) */
	bool optional;        /* dropped first on narrow terminals */
	bool hidden;          /* offered to views/NAME.json, not in the built-in layout */
	oc_cell_fn cell;
	/* The text (or its colour on screen) follows src->now, not only the
	 * rows: the screen measures and compares these cells alone on a
	 * second when only the clock moved. */
	bool clock;
};

struct oc_catalogue {
	const char *view;     /* "queue" */
	const struct oc_column *cols;
	int n;
};

/* The catalogues of the views that show a snapshot. Their rows:
 * partitions:   rows = struct oc_part_row[] (core/views.h), row indexes it;
 * queue:        row indexes s->jobs;
 * nodes:        row indexes s->nodes; extra = struct oc_node_places (cells.h);
 * health:       rows = struct oc_health_row[] (core/health.h), node rows only;
 * quota:        rows = struct oc_quota_item[], extra = struct oc_quota_row[]
 *               (core/quota.h);
 * reservations: row indexes s->reservations;
 * history:      row indexes s->history (never NULL when it is read);
 * events:       row indexes s->events (the same);
 * fairshare:    rows = const struct oc_assoc *[] (script mode's order);
 * scheduler:    rows = struct oc_sched_row[] (core/sched.h). */
extern const struct oc_catalogue oc_cat_partitions;
extern const struct oc_catalogue oc_cat_queue;
extern const struct oc_catalogue oc_cat_nodes;
extern const struct oc_catalogue oc_cat_health;
extern const struct oc_catalogue oc_cat_quota;
extern const struct oc_catalogue oc_cat_reservations;
extern const struct oc_catalogue oc_cat_history;
extern const struct oc_catalogue oc_cat_events;
extern const struct oc_catalogue oc_cat_fairshare;
extern const struct oc_catalogue oc_cat_sched;

/* The catalogue of the view called view, NULL when none of the above. */
const struct oc_catalogue *oc_catalogue_find(const char *view);

/* Index of the column id in cat, -1 when it has none. */
int oc_catalogue_col(const struct oc_catalogue *cat, const char *id);

/* The column ids of cat into ids (at most max). Returns how many. */
size_t oc_catalogue_ids(const struct oc_catalogue *cat, const char **ids, size_t max);

/* Defines a cell function fname that writes the field of the row that
 * get(src, row) returns with put(buf, len, value): oc_cell_str or
 * oc_cell_u32. */
#define OC_CELL_FIELD(fname, get, field, put)                                                \
	static void fname(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len) \
	{                                                                                    \
		put(buf, len, get(src, row)->field);                                        \
	}

/* Cell text helpers, cheaper than snprintf for the thousands of cells a
 * filter or a sort formats: s (NULL = "") or v in decimal into buf. */
void oc_cell_str(char *buf, size_t len, const char *s);
void oc_cell_u32(char *buf, size_t len, uint32_t v);
/* Text of several lines (NULL = "") as one cell line: the lines without
 * their surrounding blanks, empty ones dropped, joined with "; " (an
 * onboarding's sacctmgr commands), where a newline would show as '?'. */
void oc_cell_lines(char *buf, size_t len, const char *s);

#endif
