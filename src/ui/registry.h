/* registry.h: the one registry of actions (actions.c): keys through the
 * keymap, the : commands, the ? screen and keymap validation all read it. */
#ifndef OC_UI_REGISTRY_H
#define OC_UI_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

struct oc_app;

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
	OC_ACT_VIEW_HISTORY,
	OC_ACT_VIEW_EVENTS,
	OC_ACT_VIEW_SCHED,
	OC_ACT_SCHED_RESET,
	OC_ACT_ACCOUNT_HISTORY,
	OC_ACT_NODE_PROBE,
	OC_ACT_REHEARSAL_PASS,
	OC_ACT_REHEARSAL_FAIL,
	OC_ACT_REHEARSAL_SKIP,
	OC_ACT_REHEARSAL_NOTE,
	OC_ACT_REHEARSAL_REPORT,
	OC_ACT_JOB_CANCEL,
	OC_ACT_JOB_SIGNAL,
	OC_ACT_JOB_HOLD,
	OC_ACT_JOB_RELEASE,
	OC_ACT_JOB_REQUEUE,
	OC_ACT_JOB_REQUEUE_HOLD,
	OC_ACT_JOB_TIME_LIMIT,
	OC_ACT_JOB_PARTITION,
	OC_ACT_JOB_QOS,
	OC_ACT_JOB_NICE,
	OC_ACT_JOB_PRIORITY,
	OC_ACT_NODE_REBOOT,
	OC_ACT_NODE_CANCEL_REBOOT,
	OC_ACT_NODE_POWER_UP,
	OC_ACT_NODE_POWER_DOWN,
	OC_ACT_NODE_WINDOW,
	OC_ACT_OPEN_NODES,
	OC_ACT_COUNT,
};

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
	/* A command of one view (its name): the view's oc_listview_def
	 * .command runs it there, and elsewhere it is refused with a
	 * message naming the view. NULL: a command of the whole screen. */
	const char *in_view;
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

#endif
