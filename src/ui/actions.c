/* actions.c: the one action registry. Key dispatch (through the keymap),
 * the ? help screen and keymap file validation all read this table, so
 * they cannot drift apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rehearsal/window.h"
#include "ui/app.h"
#include "ui/form.h"
#include "ui/forms.h"
#include "ui/help.h"
#include "ui/listview.h"
#include "ui/probe_panel.h"
#include "ui/registry.h"
#include "ui/views.h"

static void a_quit(struct oc_app *app)
{
	app->quit = true;
}

static void a_help(struct oc_app *app)
{
	oc_help_open(app);
}

static void a_command(struct oc_app *app)
{
	app->mode = OC_MODE_COMMAND;
	app->input[0] = '\0';
}

static void a_filter(struct oc_app *app)
{
	app->mode = OC_MODE_FILTER;
	snprintf(app->input, sizeof(app->input), "%s", app->view[app->cur]->filter);
}

static void a_refresh(struct oc_app *app)
{
	app->hooks->refresh_now(app->hooks->ctx);
	oc_app_message(app, false, " refreshing...");
}

static void a_redraw(struct oc_app *app)
{
	app->dirty = true;
	clearok(curscr, TRUE);
}

static void a_hidden(struct oc_app *app)
{
	app->show_hidden = !app->show_hidden;
	for (int i = 0; i < app->nviews; i++)
		oc_listview_update(app->view[i], app->snap);
	oc_app_message(app, false, " hidden partitions %s", app->show_hidden ? "shown" : "hidden");
}

/* Esc: the filter first, then the scope (the queue's partition, the
 * nodes of a partition or reservation) of a view without an argument
 * hook of its own (the reports keep theirs). */
static void a_back(struct oc_app *app)
{
	struct oc_listview *lv = app->view[app->cur];
	if (lv->filter[0]) {
		oc_listview_set_filter(lv, "");
		oc_listview_update(lv, app->snap);
	} else if (lv->arg[0] && !lv->def->arg) {
		oc_listview_open(lv, NULL);
		oc_listview_update(lv, app->snap);
		oc_app_message(app, false, " every %s listed", strcmp(lv->def->name, "queue") == 0 ? "partition" : "node");
	}
}

static void a_view_next(struct oc_app *app)
{
	oc_app_goto(app, app->view[(app->cur + 1) % app->nviews]->def->name, NULL);
}

static void a_view_prev(struct oc_app *app)
{
	oc_app_goto(app, app->view[(app->cur + app->nviews - 1) % app->nviews]->def->name, NULL);
}

/* Write actions: offered in the views where their targets are (nodes,
 * health; reservations), refused with the reason when writes are off. */
static bool writes_ok(struct oc_app *app)
{
	char why[512];
	if (oc_app_writes_allowed(app, why, sizeof(why)))
		return true;
	oc_app_message(app, true, "%s", why);
	return false;
}

static void a_drain(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_DRAIN);
}

static void a_resume(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_RESUME);
}

static void a_undrain(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_UNDRAIN);
}

static void a_reboot(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_REBOOT);
}

static bool a_reboot_cmd(struct oc_app *app, const char *arg)
{
	(void)arg;
	a_reboot(app);
	return true;
}

static bool a_cancel_reboot_cmd(struct oc_app *app, const char *arg)
{
	(void)arg;
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_CANCEL_REBOOT);
	return true;
}

static bool a_power_up_cmd(struct oc_app *app, const char *arg)
{
	(void)arg;
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_POWER_UP);
	return true;
}

static bool a_power_down_cmd(struct oc_app *app, const char *arg)
{
	(void)arg;
	if (writes_ok(app))
		oc_dialog_open_node(app, OC_NODE_OP_POWER_DOWN);
	return true;
}

/* :window [REASON]: a change window on the tagged or selected nodes, in
 * the rehearsal view, where Enter runs its steps one by one (each write
 * asks first); its progress is the file `opsconsole window` resumes.
 * :window off: the cluster's rehearsal again. Nothing is written here. */
static bool c_window(struct oc_app *app, const char *arg)
{
	char err[512];
	if (arg && strcmp(arg, "off") == 0) {
		if (!oc_rehearsal_window(app, NULL, err, sizeof(err))) {
			oc_app_message(app, true, " :window off: %s", err);
			return false;
		}
		oc_app_goto(app, "rehearsal", NULL);
		oc_app_message(app, false, " the rehearsal view shows the cluster's rehearsal again");
		return true;
	}
	if (!writes_ok(app))
		return false;
	/* Room for more than a window may hold: a list cut short would be
	 * other nodes (n12 -> n1). */
	enum { TARGETS_LEN = 8 * sizeof(((struct oc_window *)0)->nodes) };
	char *targets = malloc(TARGETS_LEN);
	struct oc_window *w = malloc(sizeof(*w));
	if (!targets || !w) {
		free(targets);
		free(w);
		oc_app_message(app, true, " out of memory");
		return false;
	}
	oc_form_default_nodes(app, targets, TARGETS_LEN);
	if (!targets[0] || strlen(targets) >= TARGETS_LEN - 1) {
		oc_app_message(app, true, "%s",
			       targets[0] ? " :window: too many nodes tagged for one window (at most 4096 in a hostlist of 4095 characters)"
					  : " :window: tag the window's nodes (Space) or select one in the nodes view (3) first");
		free(targets);
		free(w);
		return false;
	}
	bool ok = oc_window_prepare(app->cfg->cluster, targets, arg && *arg ? arg : NULL, NULL, w, err, sizeof(err)) == 0;
	if (!ok)
		oc_app_message(app, true, " :window: %s", err);
	else if (!(ok = oc_rehearsal_window(app, w, err, sizeof(err))))
		oc_app_message(app, true, " :window: %s", err);
	if (ok) {
		oc_app_goto(app, "rehearsal", NULL);
		oc_app_message(app, false, " %s: Enter runs the selected step (each write asks first)", w->headline);
	}
	free(targets);
	free(w);
	return ok;
}

/* n: the nodes of the partition or reservation selected. */
static void a_open_nodes(struct oc_app *app)
{
	char buf[128];
	const char *name = oc_app_selected(app, OC_SEL_PARTITION, buf, sizeof(buf));
	if (name) {
		oc_nodes_scope(app, "partition", name);
		return;
	}
	name = oc_app_selected(app, OC_SEL_RESERVATION, buf, sizeof(buf));
	if (name) {
		oc_nodes_scope(app, "reservation", name);
		return;
	}
	oc_app_message(app, true, " open.nodes: select a partition (view 1) or a reservation (view 6) first");
}

static void a_resv_create(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_resv_create(app);
}

static void a_resv_delete(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_resv_delete(app);
}

static void a_stats_reset(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_stats_reset(app);
}

static bool a_stats_reset_cmd(struct oc_app *app, const char *arg)
{
	(void)arg;
	a_stats_reset(app);
	return true;
}

/* The history of the account selected in the quota view: the history
 * view filtered on its name. */
static void a_account_history(struct oc_app *app)
{
	char buf[128], name[128];
	const char *acct = oc_app_selected(app, OC_SEL_ACCOUNT, buf, sizeof(buf));
	if (!acct) {
		oc_app_message(app, true, " select an account in the quota view (5) first");
		return;
	}
	snprintf(name, sizeof(name), "%s", acct);
	if (oc_app_goto(app, "history", NULL)) {
		struct oc_listview *lv = app->view[app->cur];
		oc_listview_set_filter(lv, name);
		oc_listview_update(lv, app->snap);
	}
}

static void a_probe(struct oc_app *app)
{
	oc_probe_panel_open(app);
}

static void a_onboard(struct oc_app *app)
{
	if (writes_ok(app))
		oc_dialog_open_onboard(app);
}

/* ":onboard" a new team, ":onboard team-a" to change one. */
static bool c_onboard(struct oc_app *app, const char *arg)
{
	if (!writes_ok(app))
		return false;
	oc_dialog_open_onboard_named(app, arg ? arg : "");
	return true;
}

/* Job actions: on the queue view's tagged jobs, else its selected job;
 * value (a : command's argument) fills the form's value field. */
static bool job_action(struct oc_app *app, enum oc_job_op op, const char *value)
{
	if (app->view[app->cur]->def->tags != OC_TAG_JOBS) {
		oc_app_message(app, true, " job actions work in the queue view (2): select or tag jobs there");
		return false;
	}
	if (!writes_ok(app))
		return false;
	oc_dialog_open_job(app, op, value);
	return true;
}

#define JOB_ACTION(fname, op)                                       \
	static void fname(struct oc_app *app)                       \
	{                                                           \
		job_action(app, op, NULL);                          \
	}                                                           \
	static bool fname##_cmd(struct oc_app *app, const char *arg) \
	{                                                           \
		return job_action(app, op, arg);                    \
	}
JOB_ACTION(a_job_cancel, OC_JOB_OP_CANCEL)
JOB_ACTION(a_job_signal, OC_JOB_OP_SIGNAL)
JOB_ACTION(a_job_hold, OC_JOB_OP_HOLD)
JOB_ACTION(a_job_release, OC_JOB_OP_RELEASE)
JOB_ACTION(a_job_requeue, OC_JOB_OP_REQUEUE)
JOB_ACTION(a_job_requeue_hold, OC_JOB_OP_REQUEUE_HOLD)
JOB_ACTION(a_job_limit, OC_JOB_OP_TIME_LIMIT)
JOB_ACTION(a_job_partition, OC_JOB_OP_PARTITION)
JOB_ACTION(a_job_qos, OC_JOB_OP_QOS)
JOB_ACTION(a_job_nice, OC_JOB_OP_NICE)
JOB_ACTION(a_job_priority, OC_JOB_OP_PRIORITY)

/* :history and :events [SINCE [UNTIL]]: the view checks and takes the window. */
static bool c_history(struct oc_app *app, const char *arg)
{
	return oc_app_goto(app, "history", arg);
}

static bool c_events(struct oc_app *app, const char *arg)
{
	return oc_app_goto(app, "events", arg);
}

/* ":queue normal": the partition must exist. */
static bool c_queue(struct oc_app *app, const char *arg)
{
	/* ":queue", ":queue all" and ":queue *": every partition (unless one
	 * is named so). */
	bool every = arg && (strcmp(arg, "all") == 0 || strcmp(arg, "*") == 0);
	if (every && app->snap && app->snap->partitions)
		for (size_t i = 0; i < app->snap->partitions->n; i++)
			if (strcmp(app->snap->partitions->v[i].name, arg) == 0)
				every = false;
	if (every || !arg)
		arg = ""; /* (the key 2 keeps the partition shown) */
	if (arg && arg[0] && app->snap && app->snap->partitions) {
		bool known = false;
		for (size_t i = 0; i < app->snap->partitions->n; i++)
			if (strcmp(app->snap->partitions->v[i].name, arg) == 0)
				known = true;
		if (!known) {
			oc_app_message(app, true, " no partition '%s'", arg);
			return false;
		}
	}
	oc_app_goto(app, "queue", arg);
	return true;
}


/* ":nodes normal": the nodes of a partition; ":nodes maint_x": of a
 * reservation; ":nodes all" (or none): every node; any other text
 * filters the list (names, states, reasons...). */
static bool c_nodes(struct oc_app *app, const char *arg)
{
	const struct oc_snapshot *s = app->snap;
	for (size_t i = 0; arg && s && s->partitions && i < s->partitions->n; i++)
		if (strcmp(s->partitions->v[i].name, arg) == 0)
			return oc_nodes_scope(app, "partition", arg);
	for (size_t i = 0; arg && s && s->reservations && i < s->reservations->n; i++)
		if (strcmp(s->reservations->v[i].name, arg) == 0)
			return oc_nodes_scope(app, "reservation", arg);
	if (!oc_app_goto(app, "nodes", NULL))
		return false;
	struct oc_listview *lv = app->view[app->cur];
	bool every = !arg || strcmp(arg, "all") == 0 || strcmp(arg, "*") == 0;
	if (every)
		oc_listview_open(lv, NULL);
	oc_listview_set_filter(lv, every ? "" : arg);
	oc_listview_update(lv, app->snap);
	return true;
}

/* A view: its key opens it, its : command takes a filter (the queue's: a
 * partition). */
#define VIEW(vname, names, text) .help = text, .view = vname, .cmd = names, .args = OC_ARGS_WORD
/* A job action: a key (or none: command_only) and a : command. */
#define JOB(fname, name, arg, text)                                                                    \
	.help = text, .run = fname, .cmd = name, .args = (arg)[0] ? OC_ARGS_WORD : OC_ARGS_NONE, .arg_help = arg, \
	.run_cmd = fname##_cmd
/* A rehearsal verdict or note: a : command of the rehearsal view. */
#define MARK(name, arg, text)                                                                              \
	.help = text, .cmd = name, .args = OC_ARGS_REST, .arg_help = arg, .in_view = "rehearsal", .command_only = true

const struct oc_action_def oc_actions[OC_ACT_COUNT] = {
	[OC_ACT_QUIT] = {.id = "quit", .help = "quit the console", .run = a_quit, .cmd = "quit q"},
	[OC_ACT_HELP] = {.id = "help", .help = "this help", .run = a_help, .cmd = "help"},
	[OC_ACT_COMMAND] = {.id = "command",
			    .help = "command line: :nodes, :queue normal, :quota (Tab completes)",
			    .run = a_command},
	[OC_ACT_FILTER] = {.id = "filter", .help = "filter the list on any visible text (Esc clears)", .run = a_filter},
	[OC_ACT_REFRESH] = {.id = "refresh", .help = "refresh everything now", .run = a_refresh},
	[OC_ACT_REDRAW] = {.id = "redraw", .help = "redraw the screen", .run = a_redraw},
	[OC_ACT_SORT_NEXT] = {.id = "sort.next", .help = "sort by the next column"},
	[OC_ACT_SORT_REVERSE] = {.id = "sort.reverse", .help = "reverse the sort order"},
	[OC_ACT_HIDDEN_TOGGLE] = {.id = "hidden.toggle",
				  .help = "show or hide hidden partitions (e.g. gpu)",
				  .run = a_hidden},
	[OC_ACT_TAG] = {.id = "tag", .help = "tag or untag the row, then move to the next (nodes, jobs)"},
	[OC_ACT_TAG_ALL] = {.id = "tag.all", .help = "tag every row listed"},
	[OC_ACT_TAG_CLEAR] = {.id = "tag.clear", .help = "clear the tags"},
	[OC_ACT_OPEN] = {.id = "open", .help = "open: a partition's queue, a node's detail, expand an account"},
	[OC_ACT_OPEN_NODES] = {.id = "open.nodes",
			       .help = "the nodes of the selected partition or reservation (the nodes view)",
			       .run = a_open_nodes},
	[OC_ACT_BACK] = {.id = "back", .help = "close / clear the filter, then the partition or reservation listed", .run = a_back},
	[OC_ACT_VIEW_NEXT] = {.id = "view.next", .help = "next view", .run = a_view_next},
	[OC_ACT_VIEW_PREV] = {.id = "view.prev", .help = "previous view", .run = a_view_prev},
	[OC_ACT_VIEW_PARTITIONS] = {.id = "view.partitions",
				    VIEW("partitions", "partitions part p", "partitions overview"),
				    .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_QUEUE] = {.id = "view.queue", VIEW("queue", "queue q jobs squeue", "job queue"),
			       .arg_help = "[PARTITION | all]", .run_cmd = c_queue},
	[OC_ACT_VIEW_NODES] = {.id = "view.nodes", VIEW("nodes", "nodes n sinfo", "nodes"),
			       .arg_help = "[PARTITION | RESERVATION | all | FILTER]", .run_cmd = c_nodes},
	[OC_ACT_VIEW_HEALTH] = {.id = "view.health", VIEW("health", "health h grid", "node health: grid and reasons"),
				.arg_help = "[FILTER]"},
	[OC_ACT_VIEW_QUOTA] = {.id = "view.quota", VIEW("quota", "quota gpu accounts", "team GPU quota against GrpTRES"),
			       .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_RESERVATIONS] = {.id = "view.reservations",
				      VIEW("reservations", "reservations res resv r", "reservations"),
				      .arg_help = "[FILTER]"},
	[OC_ACT_MOVE_UP] = {.id = "move.up", .help = "up"},
	[OC_ACT_MOVE_DOWN] = {.id = "move.down", .help = "down"},
	[OC_ACT_MOVE_PGUP] = {.id = "move.pgup", .help = "page up"},
	[OC_ACT_MOVE_PGDN] = {.id = "move.pgdn", .help = "page down"},
	[OC_ACT_MOVE_TOP] = {.id = "move.top", .help = "first row"},
	[OC_ACT_MOVE_BOTTOM] = {.id = "move.bottom", .help = "last row"},
	[OC_ACT_MOVE_LEFT] = {.id = "move.left", .help = "collapse (quota)"},
	[OC_ACT_MOVE_RIGHT] = {.id = "move.right", .help = "expand (quota)"},
	[OC_ACT_NODE_DRAIN] = {.id = "node.drain",
			       .help = "drain the tagged or selected nodes, with a reason",
			       .run = a_drain},
	[OC_ACT_NODE_RESUME] = {.id = "node.resume", .help = "resume the tagged or selected nodes", .run = a_resume},
	[OC_ACT_NODE_UNDRAIN] = {.id = "node.undrain",
				 .help = "undrain after repair (clear the drain flag only)",
				 .run = a_undrain},
	[OC_ACT_NODE_REBOOT] = {.id = "node.reboot",
				.help = "reboot the tagged or selected nodes (ASAP or now, then resume or down), followed until back",
				.run = a_reboot,
				.cmd = "reboot",
				.args = OC_ARGS_NONE,
				.run_cmd = a_reboot_cmd},
	[OC_ACT_NODE_CANCEL_REBOOT] = {.id = "node.cancel_reboot",
				       .help = "cancel a reboot not issued yet on the tagged or selected nodes",
				       .cmd = "cancelreboot cancel_reboot",
				       .args = OC_ARGS_NONE,
				       .run_cmd = a_cancel_reboot_cmd,
				       .command_only = true},
	[OC_ACT_NODE_POWER_UP] = {.id = "node.power_up",
				  .help = "power up the tagged or selected CLOUD nodes (ResumeProgram)",
				  .cmd = "powerup power_up",
				  .args = OC_ARGS_NONE,
				  .run_cmd = a_power_up_cmd,
				  .command_only = true},
	[OC_ACT_NODE_POWER_DOWN] = {.id = "node.power_down",
				    .help = "power down the tagged or selected idle CLOUD nodes (SuspendProgram)",
				    .cmd = "powerdown power_down",
				    .args = OC_ARGS_NONE,
				    .run_cmd = a_power_down_cmd,
				    .command_only = true},
	[OC_ACT_NODE_WINDOW] = {.id = "node.window",
				.help = "a change window on the tagged or selected nodes: reservation, drain, wait, reboot, "
					"read back, end (rehearsal view; :window off goes back)",
				.cmd = "window",
				.args = OC_ARGS_REST,
				.arg_help = "[REASON | off]",
				.run_cmd = c_window,
				.command_only = true},
	[OC_ACT_RESV_CREATE] = {.id = "resv.create",
				.help = "create a maintenance reservation (MAINT,IGNORE_JOBS)",
				.run = a_resv_create},
	[OC_ACT_RESV_DELETE] = {.id = "resv.delete", .help = "delete the selected reservation", .run = a_resv_delete},
	[OC_ACT_VIEW_AUDIT] = {.id = "view.audit", VIEW("audit", "audit", "the audit log of this cluster"),
			       .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_REHEARSAL] = {.id = "view.rehearsal",
				   VIEW("rehearsal", "rehearsal", "the failure rehearsal: steps, evidence, verdicts"),
				   .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_HISTORY] = {.id = "view.history",
				 .help = "jobs that ended (sacct -a -X), default the last 24 hours",
				 .view = "history",
				 .cmd = "history hist sacct",
				 .args = OC_ARGS_REST,
				 .arg_help = "[SINCE [UNTIL]]",
				 .run_cmd = c_history},
	[OC_ACT_VIEW_SCHED] = {.id = "view.scheduler",
			       VIEW("scheduler", "scheduler sched sdiag", "slurmctld's statistics: threads, queues, cycles, RPCs (sdiag)"),
			       .arg_help = "[FILTER]"},
	[OC_ACT_ACCOUNT_HISTORY] = {.id = "account.history",
				    .help = "the jobs of the selected account that ended (history view, filtered)",
				    .run = a_account_history},
	[OC_ACT_SCHED_RESET] = {.id = "scheduler.reset",
				.help = "reset slurmctld's statistics counters (sdiag --reset), confirmed and audited",
				.run = a_stats_reset,
				.cmd = "resetstats",
				.args = OC_ARGS_NONE,
				.run_cmd = a_stats_reset_cmd,
				.command_only = true},
	[OC_ACT_VIEW_EVENTS] = {.id = "view.events",
				.help = "when nodes went down or drained, why, by whom (sacctmgr show event)",
				.view = "events",
				.cmd = "events event",
				.args = OC_ARGS_REST,
				.arg_help = "[SINCE [UNTIL]]",
				.run_cmd = c_events},
	[OC_ACT_ONBOARD] = {.id = "team.onboard",
			    .help = "onboard a team or change the selected one (quota view)",
			    .run = a_onboard,
			    .cmd = "onboard",
			    .args = OC_ARGS_WORD,
			    .arg_help = "[ACCOUNT]",
			    .run_cmd = c_onboard},
	[OC_ACT_NODE_PROBE] = {.id = "node.probe",
			       .help = "probe the tagged or selected nodes over SSH (GPUs, Xid, EFA, temperature, ECC); "
				       "in the results d drains a failed node",
			       .run = a_probe},
	[OC_ACT_REHEARSAL_PASS] = {.id = "rehearsal.pass",
				   MARK("pass", "[NOTE]", "rehearsal: the selected step passed")},
	[OC_ACT_REHEARSAL_FAIL] = {.id = "rehearsal.fail",
				   MARK("fail", "[NOTE]", "rehearsal: the selected step failed")},
	[OC_ACT_REHEARSAL_SKIP] = {.id = "rehearsal.skip",
				   MARK("skip", "[NOTE]", "rehearsal: the selected step is skipped")},
	[OC_ACT_REHEARSAL_NOTE] = {.id = "rehearsal.note", MARK("note", "TEXT", "rehearsal: a note on the selected step")},
	[OC_ACT_REHEARSAL_REPORT] = {.id = "rehearsal.report",
				     MARK("report", "", "rehearsal: write report.md and report.json beside the progress file")},
	[OC_ACT_JOB_CANCEL] = {.id = "job.cancel", JOB(a_job_cancel, "cancel scancel", "", "cancel the tagged or selected jobs")},
	[OC_ACT_JOB_SIGNAL] = {.id = "job.signal",
			       JOB(a_job_signal, "signal", "[SIGNAL]",
				   "send a signal to the jobs' batch shell, or to every step (scancel --signal)")},
	[OC_ACT_JOB_HOLD] = {.id = "job.hold", JOB(a_job_hold, "hold", "", "hold pending jobs (scontrol hold)")},
	[OC_ACT_JOB_RELEASE] = {.id = "job.release", JOB(a_job_release, "release", "", "release held jobs")},
	[OC_ACT_JOB_REQUEUE] = {.id = "job.requeue",
				JOB(a_job_requeue, "requeue", "", "requeue running batch jobs (they start again)")},
	[OC_ACT_JOB_REQUEUE_HOLD] = {.id = "job.requeuehold",
				     JOB(a_job_requeue_hold, "requeuehold", "", "requeue running batch jobs and hold them"),
				     .command_only = true},
	[OC_ACT_JOB_TIME_LIMIT] = {.id = "job.timelimit",
				   JOB(a_job_limit, "timelimit", "[LIMIT]", "change the jobs' time limit (4h, 1-12:00:00, UNLIMITED)")},
	[OC_ACT_JOB_PARTITION] = {.id = "job.partition",
				  JOB(a_job_partition, "setpartition", "[PARTITION]", "move pending jobs to another partition"),
				  .command_only = true},
	[OC_ACT_JOB_QOS] = {.id = "job.qos", JOB(a_job_qos, "setqos", "[QOS]", "change the jobs' QoS"), .command_only = true},
	[OC_ACT_JOB_NICE] = {.id = "job.nice",
			     JOB(a_job_nice, "nice", "[N]", "change the jobs' nice value (higher: lower priority)"),
			     .command_only = true},
	[OC_ACT_JOB_PRIORITY] = {.id = "job.priority",
				 JOB(a_job_priority, "priority", "[N]", "set the jobs' priority (operators; 0 is a hold: h)"),
				 .command_only = true},
};

void oc_action_id_list(const char *ids[OC_ACT_COUNT])
{
	for (int i = 0; i < OC_ACT_COUNT; i++)
		ids[i] = oc_actions[i].id;
}

void oc_action_run(struct oc_app *app, enum oc_act act)
{
	if (act < 0 || act >= OC_ACT_COUNT)
		return;
	const struct oc_action_def *d = &oc_actions[act];
	if (d->run) {
		d->run(app);
		return;
	}
	if (d->view) {
		oc_app_goto(app, d->view, NULL);
		return;
	}
	if (d->command_only) {
		/* A key bound to a : command types its name. */
		app->mode = OC_MODE_COMMAND;
		snprintf(app->input, sizeof(app->input), "%.*s ", (int)strcspn(d->cmd, " "), d->cmd);
		return;
	}
	struct oc_listview *lv = app->view[app->cur];
	if (!oc_listview_action(lv, act))
		oc_app_message(app, false, " %s: nothing to do here", oc_actions[act].id);
}
