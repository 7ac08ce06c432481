/* forms/nodes.c: the node actions' forms: drain (nodes and a reason),
 * resume, undrain after repair (nodes). A form kind each (form.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/plan.h"
#include "core/strbuf.h"
#include "ui/app.h"
#include "ui/form.h"
#include "ui/forms.h"

static const char *const drain_labels[] = {"Nodes", "Reason"};
static const char *const nodes_labels[] = {"Nodes"};

static const struct oc_form_kind *kind_of(enum oc_node_op op);

/* The state of a node form: which operation. */
static enum oc_node_op op_of(const struct oc_form_ctx *c)
{
	return *(const enum oc_node_op *)c->state;
}

static int plan_nodes(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
		      size_t textlen, char *err, size_t errlen)
{
	enum oc_node_op op = op_of(c);
	char **names = NULL;
	size_t n = 0;
	if (oc_form_nodes(c, v[0], &names, &n, req->nodes, sizeof(req->nodes), err, errlen) < 0)
		return -1;
	char why[256];
	if (op == OC_NODE_OP_DRAIN && oc_plan_check_reason(v[1], why, sizeof(why)) < 0) {
		snprintf(err, errlen, "Reason: %s", why);
		oc_writer_names_free(&names, n);
		return -1;
	}
	req->kind = OC_ACTION_NODE_UPDATE;
	req->op = op;
	if (op == OC_NODE_OP_DRAIN)
		snprintf(req->reason, sizeof(req->reason), "%s", v[1]);
	char cmd[8192];
	oc_plan_node_update(req->nodes, op, req->reason, cmd, sizeof(cmd));
	snprintf(req->command, sizeof(req->command), "%s", cmd);
	oc_appendf(text, textlen, "%s %zu node%s: %s\n", kind_of(op)->title, n, n == 1 ? "" : "s", req->nodes);
	if (op == OC_NODE_OP_DRAIN)
		oc_appendf(text, textlen, "Reason: %s\n", req->reason);
	oc_appendf(text, textlen, "\nEquivalent command:\n  %s\n", cmd);
	if (op == OC_NODE_OP_DRAIN && !c->snap->status[OC_PART_JOBS].fetched) {
		oc_appendf(text, textlen, "\nRunning jobs on these nodes: unknown (jobs not loaded).\n");
	} else if (op == OC_NODE_OP_DRAIN) {
		char busy[2048] = "";
		if (oc_form_busy_nodes(c->snap, names, n, busy, sizeof(busy)))
			oc_appendf(text, textlen, "\nStill running jobs (drain lets them finish; no new job starts there):\n%s",
				   busy);
	}
	oc_writer_names_free(&names, n);
	return 0;
}

/* A drain reason is offered again in this session. */
static void applying(struct oc_app *app, struct oc_action_req *req)
{
	if (req->op == OC_NODE_OP_DRAIN && req->reason[0] && !oc_tagset_has(&app->recent_reasons, req->reason))
		oc_tagset_toggle(&app->recent_reasons, req->reason);
}

/* The tags were the targets: cleared after a successful action. */
static void applied(struct oc_app *app, const struct oc_action_req *req, const struct oc_action_result *res)
{
	(void)req;
	if (res->status == OC_ACTION_OK)
		oc_tagset_clear(&app->node_tags);
}

#define NODE_FORM(t, labels_, reason, hint_)                                                           \
	{                                                                                              \
		.title = t, .nfields = (int)(sizeof(labels_) / sizeof(labels_[0])), .labels = labels_,  \
		.reason_field = reason, .hint = hint_, .choose_field = -1, .plan = plan_nodes,         \
		.applying = applying, .applied = applied,                                              \
	}
const struct oc_form_kind oc_form_drain =
	NODE_FORM("Drain nodes", drain_labels, 1, "Enter review  Tab next field  Up/Down reuse a reason  Esc cancel");
const struct oc_form_kind oc_form_resume =
	NODE_FORM("Resume nodes", nodes_labels, -1, "Enter review  Tab next field  Esc cancel");
const struct oc_form_kind oc_form_undrain =
	NODE_FORM("Undrain nodes (after repair)", nodes_labels, -1, "Enter review  Tab next field  Esc cancel");

static const struct oc_form_kind *kind_of(enum oc_node_op op)
{
	return op == OC_NODE_OP_DRAIN ? &oc_form_drain : op == OC_NODE_OP_RESUME ? &oc_form_resume : &oc_form_undrain;
}

static bool open_op(struct oc_app *app, enum oc_node_op op, const char *nodes, const char *reason, int start,
		    bool at_end)
{
	enum oc_node_op *st = malloc(sizeof(*st));
	if (!st) {
		oc_app_message(app, true, " out of memory");
		return false;
	}
	*st = op;
	const char *values[] = {nodes, reason};
	return oc_form_open(app, kind_of(op), NULL, values, st, start, at_end);
}

void oc_dialog_open_node(struct oc_app *app, enum oc_node_op op)
{
	char targets[4096];
	oc_form_default_nodes(app, targets, sizeof(targets));
	/* The cursor starts where typing is needed. */
	open_op(app, op, targets, "", op == OC_NODE_OP_DRAIN && targets[0] ? 1 : 0, false);
}

void oc_dialog_open_drain(struct oc_app *app, const char *nodes, const char *reason)
{
	/* At the end of the reason, to edit it. */
	open_op(app, OC_NODE_OP_DRAIN, nodes, reason, 1, true);
}
