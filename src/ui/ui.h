/* ui.h: the screen. The only layer that links ncurses. It reads snapshots
 * through hooks, so it does not know where they come from. */
#ifndef OC_UI_UI_H
#define OC_UI_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/model.h"
#include "core/platform.h"

/* How the screen reaches the data side (the collector, in the program). */
struct oc_ui_hooks {
	void *ctx;
	/* Newest snapshot, a new reference (never NULL). */
	struct oc_snapshot *(*current)(void *ctx);
	/* The parts the screen shows now. */
	void (*set_focus)(void *ctx, unsigned mask);
	void (*refresh_now)(void *ctx);
	/* The parts in mask now, "no change" allowed (NULL: none). */
	void (*refresh_parts)(void *ctx, unsigned mask);
	/* Readable when a new snapshot is there; ack drains it. */
	int (*wake_fd)(void *ctx);
	void (*ack)(void *ctx);
	/* Since when a request has been in flight (0 = idle). */
	time_t (*inflight_since)(void *ctx);
	/* Load the report (history, node events) of [since, until] (time
	 * specs) from now on; OC_REPORT_NONE: stop loading it. */
	void (*set_report)(void *ctx, enum oc_report kind, const char *since, const char *until);
};

struct oc_worker;
struct oc_probe_runner;
struct oc_probe_config;

struct oc_checklist_var;

struct oc_ui_config {
	const char *cluster;      /* the name the console was opened with */
	/* The Slurm version of the libslurm the backend reads through ("22.05.8"),
	 * NULL for the CLI backend: the header marks a controller of another
	 * major. */
	const char *libslurm_version;
	const char *start_view;   /* "partitions" (default), "queue", "nodes" */
	const char *start_arg;    /* e.g. a partition for the queue view */
	double refresh_s;         /* the fast interval, for the stale rule */
	bool show_hidden;
	bool readonly;
	bool no_mouse;            /* --no-mouse or "mouse": false: no mouse events asked */
	enum oc_platform platform; /* the profile's "platform" (UNKNOWN: detect) */
	/* A recorded snapshot (--snapshot): the screen's clock is the time it
	 * was taken, so ages and elapsed times read as they did then. */
	time_t frozen_at;
	const char *keymap;       /* keymaps/NAME.json, NULL = "default" */
	const char *theme;        /* themes/NAME.json, NULL = "default" */
	const char *datadir;      /* installed data (share/opsconsole), may be NULL */
	struct oc_worker *worker; /* applies write actions; NULL = none offered */
	const char *audit_log;    /* the audit log the audit view reads */
	const char *checklist_path;     /* the rehearsal checklist, NULL/"" = none */
	const char *rehearsal_progress; /* where the rehearsal progress is saved */
	const char *checklist_notice;   /* e.g. another cluster's checklist; NULL = none */
	const char *window_checklist;   /* checklists/change-window.json for :window, NULL/"" = none */
	const struct oc_checklist_var *checklist_vars; /* the profile's "checklist_vars" */
	size_t nchecklist_vars;
	/* node probes: the profile's checks, and how nodes are reached (the
	 * SSH runner); runner NULL = probes not offered */
	const struct oc_probe_config *probes;
	const struct oc_probe_runner *probe_runner;
};

/* The parts (OC_MASK bits) the view called name shows, which the collector
 * should load first and then refresh at the fast rate; the partitions
 * view's for NULL or an unknown name. */
unsigned oc_ui_view_focus(const char *name);

/* Run the console until the user quits or a terminating signal arrives.
 * Restores the terminal on every way out. Returns 0, or -1 with a message
 * in err (terminal unusable, too small to start...). */
int oc_ui_run(const struct oc_ui_config *cfg, const struct oc_ui_hooks *hooks, char *err,
	      size_t errlen);

#endif
