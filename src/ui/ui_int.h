/* ui_int.h: what the screen's parts share: the app state, the action
 * registry, the shared list widget, text output, colours and the view
 * vtable. Not for other layers. */
#ifndef OC_UI_UI_INT_H
#define OC_UI_UI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actions/writer.h"
#include "core/model.h"
#include "core/strmap.h"
#include "ui/overlay.h"
#include "ui/ui.h"

/* Colour/attribute roles; the theme maps them to curses attributes. The
 * names (oc_role_names) are the keys of themes/NAME.json. */
enum oc_role {
	OC_ROLE_NORMAL = 0,
	OC_ROLE_HEADER,      /* top line */
	OC_ROLE_TAB,
	OC_ROLE_TAB_ACTIVE,
	OC_ROLE_TITLE,       /* column titles */
	OC_ROLE_SELECTED,
	OC_ROLE_TAGGED,
	OC_ROLE_BANNER,      /* stale data / errors */
	OC_ROLE_STATUS,      /* bottom line */
	OC_ROLE_OK,          /* idle, running */
	OC_ROLE_BUSY,        /* alloc, mix */
	OC_ROLE_WARN,        /* draining, pending on a limit */
	OC_ROLE_BAD,         /* drained, down, not responding */
	OC_ROLE_DIM,         /* powered down, hidden */
	OC_ROLE_GROUP,       /* group header rows */
	OC_ROLE_BAR_USED,
	OC_ROLE_BAR_FREE,
	OC_ROLE_BAR_OVER,
	OC_ROLE_COUNT,
};
extern const char *const oc_role_names[OC_ROLE_COUNT];

/* Load the theme called name (user dir, then data dir) or the built-in
 * one; mono when the terminal has no colours or NO_COLOR is set. Writes a
 * message into err (and still sets a usable theme) when the file was
 * broken. */
void oc_theme_init(const char *name, const char *datadir, char *err, size_t errlen);
/* The curses attribute of a role. */
attr_t oc_theme_attr(enum oc_role r);

/* Draw text at the cursor into at most width columns: UTF-8 decoded when
 * the locale allows (else non-ASCII shows as '?'), control characters
 * shown as '?', double-width characters counted as two. Pads with spaces
 * to width when pad. Returns the columns used. */
int oc_put_text(WINDOW *w, const char *s, int width, bool pad, bool right);

/* How many bytes of s (at most len) fit in width columns, without cutting
 * a character. */
size_t oc_text_fit(const char *s, size_t len, int width);

/* Whether the locale is UTF-8 (cached). */
bool oc_utf8(void);

/* ---- actions: one registry feeds key dispatch, help and keymaps ------- */

enum oc_act {
	OC_ACT_QUIT = 0,
	OC_ACT_HELP,
	OC_ACT_COMMAND,
	OC_ACT_FILTER,
	OC_ACT_REFRESH,
	OC_ACT_REDRAW,
	OC_ACT_SORT_NEXT,
	OC_ACT_SORT_REVERSE,
	OC_ACT_HIDDEN_TOGGLE,
	OC_ACT_TAG,
	OC_ACT_TAG_ALL,
	OC_ACT_TAG_CLEAR,
	OC_ACT_OPEN,
	OC_ACT_BACK,
	OC_ACT_VIEW_NEXT,
	OC_ACT_VIEW_PREV,
	OC_ACT_VIEW_PARTITIONS,
	OC_ACT_VIEW_QUEUE,
	OC_ACT_VIEW_NODES,
	OC_ACT_VIEW_HEALTH,
	OC_ACT_VIEW_QUOTA,
	OC_ACT_VIEW_RESERVATIONS,
	OC_ACT_MOVE_UP,
	OC_ACT_MOVE_DOWN,
	OC_ACT_MOVE_PGUP,
	OC_ACT_MOVE_PGDN,
	OC_ACT_MOVE_TOP,
	OC_ACT_MOVE_BOTTOM,
	OC_ACT_MOVE_LEFT,
	OC_ACT_MOVE_RIGHT,
	OC_ACT_NODE_DRAIN,
	OC_ACT_NODE_RESUME,
	OC_ACT_NODE_UNDRAIN,
	OC_ACT_RESV_CREATE,
	OC_ACT_RESV_DELETE,
	OC_ACT_VIEW_AUDIT,
	OC_ACT_ONBOARD,
	OC_ACT_VIEW_REHEARSAL,
	OC_ACT_NODE_PROBE,
	OC_ACT_REHEARSAL_PASS,
	OC_ACT_REHEARSAL_FAIL,
	OC_ACT_REHEARSAL_SKIP,
	OC_ACT_REHEARSAL_NOTE,
	OC_ACT_REHEARSAL_REPORT,
	OC_ACT_COUNT,
};

struct oc_app;

/* What a : command takes after its name. */
enum oc_cmd_args {
	OC_ARGS_NONE, /* nothing */
	OC_ARGS_WORD, /* at most one word */
	OC_ARGS_REST, /* the rest of the line, spaces and all (a note) */
};

/* One entry serves a key (through the keymap), the : command line (its
 * names, argument and completion) and the ? screen. */
struct oc_action_def {
	const char *id;     /* "view.nodes": what keymaps/NAME.json name */
	const char *help;   /* one line for the ? screen */
	/* Global handler; NULL when the action goes to the view on screen
	 * (or to the view named below). */
	void (*run)(struct oc_app *app);
	/* The view the action opens (its : command takes a filter, or for
	 * the queue a partition); NULL for none. */
	const char *view;
	/* The : command: its names, space separated (the first is the one
	 * shown and completed; the others are aliases); NULL for none. Two
	 * entries may share a name when they take different arguments: ":q"
	 * quits, ":q normal" is the queue of normal. */
	const char *cmd;
	enum oc_cmd_args args;
	const char *arg_help; /* the argument for ? ("[PARTITION]") */
	/* The command's handler (arg NULL when none was given); NULL runs
	 * the view's or the key's handler. False when refused (a message
	 * is set). */
	bool (*run_cmd)(struct oc_app *app, const char *arg);
	/* No key in the default keymap: the : command is the way in (a
	 * keymap may still bind it: the key opens the command line with
	 * the name typed). */
	bool command_only;
};

/* The registry, indexed by enum oc_act. */
extern const struct oc_action_def oc_actions[OC_ACT_COUNT];
/* Fill ids with the action ids in registry order (keymap validation). */
void oc_action_id_list(const char *ids[OC_ACT_COUNT]);
/* Run an action: its global handler, else the view's. */
void oc_action_run(struct oc_app *app, enum oc_act act);
/* The action a : command line names, with its argument copied into arg
 * ("" when none). -1 with a message in err when no entry has that name or
 * none of those that have it takes what follows. No terminal needed. */
int oc_command_parse(const char *line, char *arg, size_t arg_len, char *err, size_t err_len);

/* ---- the shared list widget (one serves every list view) -------------- */

struct oc_listview;

/* One column a view offers; views/NAME.json pick and order them by id. */
struct oc_col_def {
	const char *id;     /* "jobid" */
	const char *title;  /* "JOBID" */
	int width;          /* 0: takes the rest of the line */
	bool right;         /* right-aligned (numbers) */
	bool optional;      /* dropped first on narrow terminals */
	bool hidden;        /* offered to views/NAME.json, not in the built-in layout */
	/* Text of the cell of item. */
	void (*cell)(struct oc_listview *lv, uint32_t item, char *buf, size_t len);
	/* Order of two items by this column; NULL: by the cells' text. */
	int (*cmp)(struct oc_listview *lv, uint32_t a, uint32_t b);
	/* Role of the cell; NULL: normal. */
	enum oc_role (*role)(struct oc_listview *lv, uint32_t item);
};

/* A column on screen: a definition with the width the view file gave. */
struct oc_col {
	int def;            /* index in the view's oc_col_def table */
	int width;
	bool optional;
};

/* What a selected row may name, for the actions that need one. */
enum oc_sel { OC_SEL_NODE, OC_SEL_RESERVATION, OC_SEL_ACCOUNT };

/* What a list view provides to the shared widget. */
struct oc_listview_def {
	const char *name;             /* "queue": also its :command and views/queue.json */
	const char *title;            /* tab label */
	unsigned focus;               /* OC_MASK() of the parts it shows */
	const struct oc_col_def *cols;
	int ncols;
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
	 * reservation tables, the view's arg and show_hidden (and the clock,
	 * coarsely): when none of them changed (and the items are less than a
	 * minute old), the items are not collected again (nor filtered and
	 * sorted again when the filter and sort did not change either). */
	bool pure_collect;
};

struct oc_listview {
	const struct oc_listview_def *def;
	struct oc_app *app;
	const struct oc_snapshot *snap;  /* the app's snapshot, borrowed */
	void *priv;
	uint32_t *items;                 /* collected, then filtered and sorted */
	size_t nitems, cap;
	struct oc_col cols[32];          /* columns on screen */
	int ncols;
	int sort;                        /* index in cols[], -1 = collect order */
	bool reverse;
	char filter[256];
	size_t sel, top;
	int page;
	char arg[128];                   /* e.g. the queue's partition */
	/* What the items were last made from (pure_collect views): */
	bool made;                       /* items match the fields below */
	const void *made_tables[4];      /* nodes, partitions, jobs, reservations */
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
};

/* Make room for n items. Returns 0, -1 on ENOMEM. */
int oc_listview_reserve(struct oc_listview *lv, size_t n);
/* Cell text helpers, cheaper than snprintf for the thousands of cells a
 * filter or a sort formats: s (NULL = "") or v in decimal into buf. */
void oc_cell_str(char *buf, size_t len, const char *s);
void oc_cell_u32(char *buf, size_t len, uint32_t v);
/* The item under the cursor, or UINT32_MAX when the list is empty. */
uint32_t oc_listview_selected(const struct oc_listview *lv);

/* ---- views ------------------------------------------------------------- */

/* The list views. */
extern const struct oc_listview_def oc_lv_partitions;
extern const struct oc_listview_def oc_lv_queue;
extern const struct oc_listview_def oc_lv_nodes;
extern const struct oc_listview_def oc_lv_health;
extern const struct oc_listview_def oc_lv_quota;
extern const struct oc_listview_def oc_lv_reservations;
extern const struct oc_listview_def oc_lv_audit;
extern const struct oc_listview_def oc_lv_rehearsal;
/* The operator's verdict on the rehearsal view's selected step: verb is
 * "pass", "fail", "skip" or "note". Returns true when recorded. */
bool oc_rehearsal_mark(struct oc_app *app, const char *verb, const char *note);

/* Create a list view for def; NULL on ENOMEM. */
struct oc_listview *oc_listview_new(struct oc_app *app, const struct oc_listview_def *def);
void oc_listview_free(struct oc_listview **lv);
/* A new snapshot, filter or sort: collect, filter and sort again. */
void oc_listview_update(struct oc_listview *lv, const struct oc_snapshot *s);
void oc_listview_draw(struct oc_listview *lv, WINDOW *w, int y, int h, int width);
/* Navigation, sort, tag and open actions; returns true when handled. */
bool oc_listview_action(struct oc_listview *lv, enum oc_act act);
void oc_listview_set_filter(struct oc_listview *lv, const char *filter);
/* Jump into the view with an argument (may be NULL: clears it). */
void oc_listview_open(struct oc_listview *lv, const char *arg);
/* Tab bar text: counts, sort, filter. */
void oc_listview_context(struct oc_listview *lv, char *buf, size_t len);

/* Apply views/NAME.json (user dir, then data dir) to a list view's
 * columns and sort; on a broken file keep the built-in layout and write
 * the message into err. */
void oc_listview_configure(struct oc_listview *lv, const char *datadir, char *err, size_t errlen);

/* ---- the app ----------------------------------------------------------- */

#define OC_MAX_VIEWS 8

struct oc_tagset {
	char **keys;
	size_t n, cap;
	/* key -> index in keys, so that tagging thousands of rows is not
	 * quadratic; rebuilt on the next look-up after a removal. */
	struct oc_strmap index;
	bool index_stale;
};
/* Whether key is tagged. */
bool oc_tagset_has(const struct oc_tagset *t, const char *key);
/* Tag or untag key; returns the new state. */
bool oc_tagset_toggle(struct oc_tagset *t, const char *key);
void oc_tagset_clear(struct oc_tagset *t);

struct oc_keymap;
struct oc_dialog;
struct oc_worker;
struct oc_probe;

struct oc_app {
	const struct oc_ui_config *cfg;
	const struct oc_ui_hooks *hooks;
	struct oc_snapshot *snap;   /* the snapshot on screen (one reference) */
	bool show_hidden;
	bool dirty;
	bool quit;
	time_t now;
	struct oc_listview *view[OC_MAX_VIEWS];
	int nviews, cur;
	const char *datadir;        /* installed views/, keymaps/, themes/ */
	enum { OC_MODE_NORMAL, OC_MODE_FILTER, OC_MODE_COMMAND } mode; /* the status line's prompt */
	char input[256];            /* the / or : prompt's text */
	char message[512];          /* one-shot message on the status line */
	bool message_is_error;
	struct oc_tagset node_tags; /* shared by the nodes and health views */
	struct oc_tagset job_tags;
	struct oc_keymap *keymap;
	struct oc_worker *worker;   /* applies actions; NULL: no writes */
	struct oc_tagset recent_reasons; /* drain reasons used in this session */
	/* Help, node detail, probe results, dialogs (overlay.h). */
	struct oc_overlay overlay[OC_OVERLAY_MAX];
	int noverlays;
};

/* Switch to the view called name and open it with arg (may be NULL).
 * Returns false when there is no such view. */
bool oc_app_goto(struct oc_app *app, const char *name, const char *arg);
/* Show a one-line message (an error in the banner colour). */
void oc_app_message(struct oc_app *app, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Open the detail panel of a node (or show that node in the open one). */
void oc_app_show_node(struct oc_app *app, const char *node);
/* Open the help screen. */
void oc_help_open(struct oc_app *app);
/* Draw a panel of ph x pw (the whole y..y+h, width area when that is too
 * small to hold it) centred in that area for one frame: fill draws its
 * window. Nothing to free. */
void oc_app_panel_once(struct oc_app *app, int ph, int pw, int y, int h, int width,
		       void (*fill)(struct oc_app *app, WINDOW *w, int h, int width));
/* Run a : command line ("nodes", "queue normal", "quota"...). Returns
 * true when it was understood (an error message is set otherwise). */
bool oc_command_run(struct oc_app *app, const char *line);
/* Complete the : command line in place (Tab); sets a message listing the
 * candidates when there are several. */
void oc_command_complete(struct oc_app *app, char *line, size_t len);

/* Whether writes are offered now; why not into why (for the status line). */
bool oc_app_writes_allowed(struct oc_app *app, char *why, size_t len);
/* What the selected row of the view on screen names (what): buf, or a
 * string of the snapshot on screen (whole, never cut to buf); NULL when
 * it names none (another view, a group row, an empty list). */
const char *oc_app_selected(struct oc_app *app, enum oc_sel what, char *buf, size_t len);

/* ---- write actions (dialog.c) ----------------------------------------- */
/* Open the form of a node action (drain: nodes and reason). */
void oc_dialog_open_node(struct oc_app *app, enum oc_node_op op);
void oc_dialog_open_resv_create(struct oc_app *app);
void oc_dialog_open_resv_delete(struct oc_app *app);
/* The onboarding form: a new team, or the selected account of the quota
 * view to change (its users and QoS prefilled; deleting one removes it). */
void oc_dialog_open_onboard(struct oc_app *app);
/* The same for the account called name ("" = a new team). */
void oc_dialog_open_onboard_named(struct oc_app *app, const char *name);
/* The drain form for nodes with the reason filled in (editable), the
 * cursor at the end of the reason: the drain from a failed probe. */
void oc_dialog_open_drain(struct oc_app *app, const char *nodes, const char *reason);

/* ---- node probes (probe.c) ------------------------------------------- */

/* Probe the tagged nodes, else the selected one of the nodes or health
 * view, and show the results panel (an overlay). */
void oc_probe_panel_open(struct oc_app *app);

#endif
