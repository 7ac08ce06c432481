/* ui_int.h: what the screen's parts share: the app state, the shared table
 * widget, text output, colours and the view vtable. Not for other layers. */
#ifndef OC_UI_UI_INT_H
#define OC_UI_UI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "ui/ui.h"

/* Colour/attribute roles; the theme maps them to curses attributes. */
enum oc_role {
	OC_ROLE_NORMAL = 0,
	OC_ROLE_HEADER,      /* top line */
	OC_ROLE_TAB,
	OC_ROLE_TAB_ACTIVE,
	OC_ROLE_TITLE,       /* column titles */
	OC_ROLE_SELECTED,
	OC_ROLE_BANNER,      /* stale data / errors */
	OC_ROLE_STATUS,      /* bottom line */
	OC_ROLE_OK,          /* idle, running */
	OC_ROLE_BUSY,        /* alloc, mix */
	OC_ROLE_WARN,        /* draining, pending on a limit */
	OC_ROLE_BAD,         /* drained, down, not responding */
	OC_ROLE_DIM,         /* powered down, hidden */
	OC_ROLE_COUNT,
};

/* Set the attribute of every role: colours when the terminal has them and
 * NO_COLOR is not set, plain attributes otherwise. */
void oc_theme_init(void);
/* The curses attribute of a role. */
attr_t oc_theme_attr(enum oc_role r);

/* Draw text at the cursor into at most width columns: UTF-8 decoded when
 * the locale allows (else non-ASCII shows as '?'), control characters
 * shown as '?', double-width characters counted as two. Pads with spaces
 * to width when pad. Returns the columns used. */
int oc_put_text(WINDOW *w, const char *s, int width, bool pad, bool right);

/* ---- the shared table widget (one serves every list view) ------------- */

struct oc_table_col {
	const char *title;
	int width;            /* 0: takes the rest of the line */
	bool right;           /* right-aligned (numbers) */
	bool optional;        /* dropped when the flexible column gets too narrow */
};

struct oc_table {
	const struct oc_table_col *cols;
	int ncols;
	size_t nrows;
	size_t sel, top;
	/* Text of one cell into buf. */
	void (*cell)(void *ctx, size_t row, int col, char *buf, size_t len);
	/* Role of one cell (OC_ROLE_NORMAL for plain). */
	enum oc_role (*cell_role)(void *ctx, size_t row, int col);
	void *ctx;
	int page;             /* rows visible at the last draw */
};

/* Draw the title line and the visible rows in the rectangle. */
void oc_table_draw(struct oc_table *t, WINDOW *w, int y, int x, int h, int width);
/* Move the selection for navigation keys; returns true when handled. */
bool oc_table_key(struct oc_table *t, int key);
/* Keep sel within nrows after the rows changed. */
void oc_table_clamp(struct oc_table *t);

/* ---- views ------------------------------------------------------------- */

struct oc_app;

struct oc_view_ops {
	const char *name;    /* "partitions": also its :command and its JSON */
	const char *title;   /* tab label */
	unsigned focus;      /* OC_MASK() of the parts it shows */
	void *(*create)(struct oc_app *app);
	void (*destroy)(void *view);
	/* A new snapshot (or a changed filter/sort): rebuild rows. */
	void (*update)(void *view, const struct oc_snapshot *s);
	void (*draw)(void *view, WINDOW *w, int y, int h, int width);
	/* A key the app did not take; returns true when handled. */
	bool (*key)(void *view, int key);
	/* Jump into the view with an argument (partition name...). */
	void (*open)(void *view, const char *arg);
	/* One-line context for the tab bar ("partition normal", "12 jobs"). */
	void (*context)(void *view, char *buf, size_t len);
	/* Set the / filter ("" clears). */
	void (*set_filter)(void *view, const char *filter);
	/* Cycle the sort column (reverse when it is already the sort). */
	void (*next_sort)(void *view, bool reverse);
};

extern const struct oc_view_ops oc_view_partitions;
extern const struct oc_view_ops oc_view_queue;
extern const struct oc_view_ops oc_view_nodes;

/* The app state the views may use. */
struct oc_app {
	const struct oc_ui_config *cfg;
	const struct oc_ui_hooks *hooks;
	struct oc_snapshot *snap;   /* the snapshot on screen (one reference) */
	bool show_hidden;
	bool dirty;
	time_t now;
};

/* Switch to the view called name and open it with arg (may be NULL). */
void oc_app_goto(struct oc_app *app, const char *name, const char *arg);

#endif
