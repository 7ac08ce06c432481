/* actions.c: the one action registry. Key dispatch (through the keymap),
 * the ? help screen and keymap file validation all read this table, so
 * they cannot drift apart. */
#include <stdio.h>
#include <string.h>

#include "ui/app.h"
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

static void a_back(struct oc_app *app)
{
	struct oc_listview *lv = app->view[app->cur];
	if (lv->filter[0]) {
		oc_listview_set_filter(lv, "");
		oc_listview_update(lv, app->snap);
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

/* ":queue normal": the partition must exist. */
static bool c_queue(struct oc_app *app, const char *arg)
{
	if (arg && app->snap && app->snap->partitions) {
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


/* A view: its key opens it, its : command takes a filter (the queue's: a
 * partition). */
#define VIEW(vname, names, text) .help = text, .view = vname, .cmd = names, .args = OC_ARGS_WORD
/* A rehearsal verdict or note: a : command of the rehearsal view. */
#define MARK(name, arg, text)                                                                              \
	.help = text, .cmd = name, .args = OC_ARGS_REST, .arg_help = arg, .in_view = "rehearsal", .command_only = true

const struct oc_action_def oc_actions[OC_ACT_COUNT] = {
	[OC_ACT_QUIT] = {"quit", "quit the console", a_quit, .cmd = "quit q"},
	[OC_ACT_HELP] = {"help", "this help", a_help, .cmd = "help"},
	[OC_ACT_COMMAND] = {"command", "command line: :nodes, :queue normal, :quota (Tab completes)", a_command},
	[OC_ACT_FILTER] = {"filter", "filter the list on any visible text (Esc clears)", a_filter},
	[OC_ACT_REFRESH] = {"refresh", "refresh everything now", a_refresh},
	[OC_ACT_REDRAW] = {"redraw", "redraw the screen", a_redraw},
	[OC_ACT_SORT_NEXT] = {"sort.next", "sort by the next column", NULL},
	[OC_ACT_SORT_REVERSE] = {"sort.reverse", "reverse the sort order", NULL},
	[OC_ACT_HIDDEN_TOGGLE] = {"hidden.toggle", "show or hide hidden partitions (e.g. gpu)", a_hidden},
	[OC_ACT_TAG] = {"tag", "tag or untag the row (nodes, jobs)", NULL},
	[OC_ACT_TAG_ALL] = {"tag.all", "tag every row listed", NULL},
	[OC_ACT_TAG_CLEAR] = {"tag.clear", "clear the tags", NULL},
	[OC_ACT_OPEN] = {"open", "open: a partition's queue, a node's detail, expand an account", NULL},
	[OC_ACT_BACK] = {"back", "close / clear the filter", a_back},
	[OC_ACT_VIEW_NEXT] = {"view.next", "next view", a_view_next},
	[OC_ACT_VIEW_PREV] = {"view.prev", "previous view", a_view_prev},
	[OC_ACT_VIEW_PARTITIONS] = {"view.partitions", VIEW("partitions", "partitions part p", "partitions overview"),
				    .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_QUEUE] = {"view.queue", VIEW("queue", "queue q jobs squeue", "job queue"),
			       .arg_help = "[PARTITION]", .run_cmd = c_queue},
	[OC_ACT_VIEW_NODES] = {"view.nodes", VIEW("nodes", "nodes n sinfo", "nodes"), .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_HEALTH] = {"view.health", VIEW("health", "health h grid", "node health: grid and reasons"), .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_QUOTA] = {"view.quota", VIEW("quota", "quota gpu accounts", "team GPU quota against GrpTRES"), .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_RESERVATIONS] = {"view.reservations",
				      VIEW("reservations", "reservations res resv r", "reservations"), .arg_help = "[FILTER]"},
	[OC_ACT_MOVE_UP] = {"move.up", "up", NULL},
	[OC_ACT_MOVE_DOWN] = {"move.down", "down", NULL},
	[OC_ACT_MOVE_PGUP] = {"move.pgup", "page up", NULL},
	[OC_ACT_MOVE_PGDN] = {"move.pgdn", "page down", NULL},
	[OC_ACT_MOVE_TOP] = {"move.top", "first row", NULL},
	[OC_ACT_MOVE_BOTTOM] = {"move.bottom", "last row", NULL},
	[OC_ACT_MOVE_LEFT] = {"move.left", "collapse (quota)", NULL},
	[OC_ACT_MOVE_RIGHT] = {"move.right", "expand (quota)", NULL},
	[OC_ACT_NODE_DRAIN] = {"node.drain", "drain the tagged or selected nodes, with a reason", a_drain},
	[OC_ACT_NODE_RESUME] = {"node.resume", "resume the tagged or selected nodes", a_resume},
	[OC_ACT_NODE_UNDRAIN] = {"node.undrain", "undrain after repair (clear the drain flag only)", a_undrain},
	[OC_ACT_RESV_CREATE] = {"resv.create", "create a maintenance reservation (MAINT,IGNORE_JOBS)", a_resv_create},
	[OC_ACT_RESV_DELETE] = {"resv.delete", "delete the selected reservation", a_resv_delete},
	[OC_ACT_VIEW_AUDIT] = {"view.audit", VIEW("audit", "audit", "the audit log of this cluster"), .arg_help = "[FILTER]"},
	[OC_ACT_VIEW_REHEARSAL] = {"view.rehearsal",
				   VIEW("rehearsal", "rehearsal", "the failure rehearsal: steps, evidence, verdicts"), .arg_help = "[FILTER]"},
	[OC_ACT_ONBOARD] = {"team.onboard", "onboard a team or change the selected one (quota view)", a_onboard,
			    .cmd = "onboard", .args = OC_ARGS_WORD, .arg_help = "[ACCOUNT]", .run_cmd = c_onboard},
	[OC_ACT_NODE_PROBE] = {"node.probe",
			       "probe the tagged or selected nodes over SSH (GPUs, Xid, EFA, temperature, ECC); "
			       "in the results d drains a failed node",
			       a_probe},
	[OC_ACT_REHEARSAL_PASS] = {"rehearsal.pass", MARK("pass", "[NOTE]", "rehearsal: the selected step passed")},
	[OC_ACT_REHEARSAL_FAIL] = {"rehearsal.fail", MARK("fail", "[NOTE]", "rehearsal: the selected step failed")},
	[OC_ACT_REHEARSAL_SKIP] = {"rehearsal.skip",
				   MARK("skip", "[NOTE]", "rehearsal: the selected step is skipped")},
	[OC_ACT_REHEARSAL_NOTE] = {"rehearsal.note",
				   MARK("note", "TEXT", "rehearsal: a note on the selected step")},
	[OC_ACT_REHEARSAL_REPORT] = {"rehearsal.report",
				     MARK("report", "",
					  "rehearsal: write report.md and report.json beside the progress file")},
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
