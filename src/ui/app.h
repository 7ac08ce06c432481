/* app.h: the state the whole screen shares (app.c, and oc_app_goto in
 * screen.c). Not for other layers. */
#ifndef OC_UI_APP_H
#define OC_UI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "actions/writer.h"
#include "core/model.h"
#include "core/strmap.h"
#include "ui/overlay.h"
#include "ui/registry.h"
#include "ui/ui.h"

struct oc_listview;

/* What a selected row may name, for the actions that need one. */
enum oc_sel { OC_SEL_NODE, OC_SEL_RESERVATION, OC_SEL_ACCOUNT, OC_SEL_JOB, OC_SEL_PARTITION };

#define OC_MAX_VIEWS 16

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
struct oc_worker;

struct oc_app {
	const struct oc_ui_config *cfg;
	const struct oc_ui_hooks *hooks;
	struct oc_snapshot *snap;   /* the snapshot on screen (one reference) */
	/* The platform the header names (core/platform.h), found again with
	 * each snapshot taken, not at each frame (screen.c). */
	int platform;
	bool show_hidden;
	bool dirty;
	/* A new snapshot came: the cells may have changed, not the layout
	 * (screen.c draws the changed cells only when it can). */
	bool data_changed;
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
	/* Where the tab bar drew each view's tab, for a click: columns
	 * [tab_x0[i], tab_x1[i]) of its line (tab_line). */
	int tab_line, tab_x0[OC_MAX_VIEWS], tab_x1[OC_MAX_VIEWS];
	/* Made once from the keymap (config.c, screen.c), not each second:
	 * the status line's key hint and each view's first key. */
	char status_hint[256];
	bool status_hint_ok;
	char tab_keys[OC_MAX_VIEWS][16];
	bool tab_keys_ok;
	/* What the tab bar and the status line last showed: a second that
	 * would draw the same text leaves them as they are (screen.c). */
	char tabs_drawn[600];
	char status_drawn[600];
};

/* Switch to the view called name and open it with arg (may be NULL).
 * Returns false when there is no such view. */
bool oc_app_goto(struct oc_app *app, const char *name, const char *arg);
/* Wake the UI loop from any thread (or a signal handler): it looks at
 * what is ready (a list made off the UI thread) and draws. */
void oc_app_wake(void);
/* Show a one-line message (an error in the banner colour). */
void oc_app_message(struct oc_app *app, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether writes are offered now; why not into why (for the status line). */
bool oc_app_writes_allowed(struct oc_app *app, char *why, size_t len);
/* What the selected row of the view on screen names (what): buf, or a
 * string of the snapshot on screen (whole, never cut to buf); NULL when
 * it names none (another view, a group row, an empty list). */
const char *oc_app_selected(struct oc_app *app, enum oc_sel what, char *buf, size_t len);

#endif
