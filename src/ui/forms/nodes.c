/* forms/nodes.c: the node actions' forms: drain (nodes and a reason),
 * resume, undrain after repair (nodes), reboot (nodes, when, the state
 * after, a reason) and cancel_reboot (nodes). A form kind each (form.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "actions/plan.h"
#include "core/strbuf.h"
#include "ui/app.h"
#include "ui/form.h"
#include "ui/forms.h"

static const char *const drain_labels[] = {"Nodes", "Reason"};
static const char *const nodes_labels[] = {"Nodes"};

static const struct oc_form_kind *kind_of(enum oc_node_op op);

/* The first line of a confirmation: the verb once, the count with its
 * noun, the nodes ("Drain 2 nodes: gpu-[1-2]"), not the form's title
 * followed by the count ("Drain nodes 2 nodes"). */
static void confirm_head(enum oc_node_op op, size_t n, const char *nodes, char *text, size_t textlen)
{
	static const struct {
		const char *verb, *after;
	} heads[] = {
		[OC_NODE_OP_DRAIN] = {"Drain", ""},
		[OC_NODE_OP_RESUME] = {"Resume", ""},
		[OC_NODE_OP_UNDRAIN] = {"Undrain", " (after repair)"},
		[OC_NODE_OP_REBOOT] = {"Reboot", ""},
		[OC_NODE_OP_CANCEL_REBOOT] = {"Cancel the reboot of", ""},
		[OC_NODE_OP_POWER_UP] = {"Power up", ""},
		[OC_NODE_OP_POWER_DOWN] = {"Power down", ""},
	};
	size_t i = (size_t)op < sizeof(heads) / sizeof(heads[0]) && heads[op].verb ? (size_t)op : OC_NODE_OP_UNDRAIN;
	oc_appendf(text, textlen, "%s %zu %s%s: %s\n", heads[i].verb, n, oc_plural(n, "node", "nodes"), heads[i].after,
		   nodes);
}

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
	confirm_head(op, n, req->nodes, text, textlen);
	if (op == OC_NODE_OP_DRAIN)
		oc_appendf(text, textlen, "Reason: %s\n", req->reason);
	oc_appendf(text, textlen, "\nEquivalent command:\n  %s\n", cmd);
	if (op == OC_NODE_OP_DRAIN)
		oc_platform_node_note(c->platform, OC_PACT_DRAIN, names, n, text, textlen);
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

/* The reason as it is edited: what was said about it goes once it is
 * fine (a reason typed or reused after "a reason is required"), and a
 * blank or too long one is said at once. The reboot's reason may be
 * empty. */
static void live_reason(const struct oc_form_ctx *c, int cur, const char *v, char *err, size_t errlen)
{
	enum oc_node_op op = op_of(c);
	int field = op == OC_NODE_OP_DRAIN ? 1 : op == OC_NODE_OP_REBOOT ? 3 : -1;
	char why[256];
	if (cur != field || (op == OC_NODE_OP_REBOOT && !v[0]))
		return;
	if (oc_plan_check_reason(v, why, sizeof(why)) < 0)
		snprintf(err, errlen, "Reason: %s", why);
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
		.reason_field = reason, .hint = hint_, .choose_field = -1, .live = live_reason,        \
		.plan = plan_nodes, .applying = applying, .applied = applied,                          \
	}
const struct oc_form_kind oc_form_drain =
	NODE_FORM("Drain nodes", drain_labels, 1, "Enter review  Tab next field  Up/Down reuse a reason  Esc cancel");
const struct oc_form_kind oc_form_resume =
	NODE_FORM("Resume nodes", nodes_labels, -1, "Enter review  Tab next field  Esc cancel");
const struct oc_form_kind oc_form_undrain =
	NODE_FORM("Undrain nodes (after repair)", nodes_labels, -1, "Enter review  Tab next field  Esc cancel");

/* ---- reboot, cancel_reboot ---------------------------------------------- */

static const char *const reboot_labels[] = {"Nodes", "When (asap/now)", "Then (resume/down/as before)", "Reason"};

/* "asap", "now" into *asap; -1 otherwise. */
static int reboot_when(const char *v, bool *asap)
{
	if (strcasecmp(v, "asap") == 0)
		*asap = true;
	else if (strcasecmp(v, "now") == 0)
		*asap = false;
	else
		return -1;
	return 0;
}

static int reboot_then(const char *v, enum oc_reboot_next *next)
{
	if (strcasecmp(v, "resume") == 0)
		*next = OC_REBOOT_NEXT_RESUME;
	else if (strcasecmp(v, "down") == 0)
		*next = OC_REBOOT_NEXT_DOWN;
	else if (!*v || strcasecmp(v, "as before") == 0 || strcmp(v, "-") == 0)
		*next = OC_REBOOT_NEXT_AS_BEFORE;
	else
		return -1;
	return 0;
}

/* The nodes of names that now stand in the way of op, one line each into
 * out ("gpu-st-b300-3: runs jobs"). Returns how many. */
static size_t reboot_blocked(const struct oc_snapshot *s, char **names, size_t n, enum oc_node_op op, bool asap,
			     char *out, size_t len)
{
	size_t bad = 0;
	for (size_t i = 0; i < n && s->nodes; i++) {
		long k = oc_nodes_find(s->nodes, names[i]);
		if (k < 0)
			continue;
		const struct oc_node *nd = &s->nodes->v[k];
		const char *why = NULL;
		bool busy = nd->base == OC_NODE_ALLOCATED || nd->base == OC_NODE_MIXED || (nd->flags & OC_NF_COMPLETING);
		if ((op == OC_NODE_OP_POWER_UP || op == OC_NODE_OP_POWER_DOWN) && !(nd->flags & OC_NF_CLOUD)) {
			why = "a static node (not State=CLOUD): power saving does not apply";
		} else if (op == OC_NODE_OP_POWER_UP) {
			if (!(nd->flags & OC_NF_POWERED_DOWN) || (nd->flags & OC_NF_POWERING_UP))
				why = "not powered down (already up or powering up)";
		} else if (op == OC_NODE_OP_POWER_DOWN) {
			if (nd->flags & (OC_NF_POWERED_DOWN | OC_NF_POWERING_DOWN))
				why = "already powered down or powering down";
			else if (busy)
				why = "runs jobs: a power down would end them (drain it and wait)";
		} else if (op == OC_NODE_OP_REBOOT) {
			if (nd->flags & (OC_NF_POWERED_DOWN | OC_NF_POWERING_DOWN | OC_NF_POWERING_UP))
				why = "in power saving (powered down or powering up/down): nothing to reboot";
			else if (!asap && busy)
				why = "runs jobs: a reboot now would kill them (When asap drains it and reboots it once idle)";
			else if (nd->flags & (OC_NF_REBOOT_REQUESTED | OC_NF_REBOOT_ISSUED))
				why = "a reboot is already requested or under way";
		} else if (!(nd->flags & (OC_NF_REBOOT_REQUESTED | OC_NF_REBOOT_ISSUED))) {
			why = "no reboot requested";
		} else if (nd->flags & OC_NF_REBOOT_ISSUED) {
			why = "the reboot was already issued: it cannot be cancelled";
		}
		if (why) {
			if (bad < 8)
				oc_appendf(out, len, "%s: %s; ", names[i], why);
			bad++;
		}
	}
	if (bad > 8)
		oc_appendf(out, len, "and %zu more", bad - 8);
	return bad;
}

static int plan_reboot(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
		       size_t textlen, char *err, size_t errlen)
{
	enum oc_node_op op = op_of(c);
	char **names = NULL;
	size_t n = 0;
	if (oc_form_nodes(c, v[0], &names, &n, req->nodes, sizeof(req->nodes), err, errlen) < 0)
		return -1;
	struct oc_reboot_spec spec = {0};
	char why[256], blocked[2048] = "";
	int rc = -1;
	if (op == OC_NODE_OP_REBOOT) {
		if (reboot_when(v[1], &spec.asap) < 0) {
			snprintf(err, errlen, "When: asap (drain now, reboot once idle) or now (idle nodes only)");
			goto out;
		}
		if (reboot_then(v[2], &spec.next) < 0) {
			snprintf(err, errlen, "Then: resume, down, or as before (empty)");
			goto out;
		}
		if (v[3][0] && oc_plan_check_reason(v[3], why, sizeof(why)) < 0) {
			snprintf(err, errlen, "Reason: %s", why);
			goto out;
		}
		snprintf(spec.reason, sizeof(spec.reason), "%s", v[3]);
	}
	if (!c->snap->status[OC_PART_NODES].fetched) {
		snprintf(err, errlen, "the node states are not loaded yet: try again in a moment");
		goto out;
	}
	if (reboot_blocked(c->snap, names, n, op, spec.asap, blocked, sizeof(blocked))) {
		snprintf(err, errlen, "refused, nothing sent: %s", blocked);
		goto out;
	}
	req->kind = OC_ACTION_NODE_UPDATE;
	req->op = op;
	req->reboot = spec;
	char cmd[8192];
	if (op == OC_NODE_OP_REBOOT)
		oc_plan_node_reboot(req->nodes, &spec, cmd, sizeof(cmd));
	else
		oc_plan_node_update(req->nodes, op, NULL, cmd, sizeof(cmd));
	snprintf(req->command, sizeof(req->command), "%s", cmd);
	confirm_head(op, n, req->nodes, text, textlen);
	if (op == OC_NODE_OP_REBOOT) {
		oc_appendf(text, textlen, "When: %s\n",
			   spec.asap ? "ASAP: drained now, rebooted once its jobs end" : "now (the nodes are idle)");
		oc_appendf(text, textlen, "Then: %s\n",
			   spec.next == OC_REBOOT_NEXT_RESUME ? "RESUME (back in service)"
			   : spec.next == OC_REBOOT_NEXT_DOWN ? "DOWN (kept out of service)"
							       : "as before the reboot");
		if (spec.reason[0])
			oc_appendf(text, textlen, "Reason: %s\n", spec.reason);
		oc_appendf(text, textlen,
			   "The console follows each node: reboot requested, issued, back (%d s at most).\n", 180);
	} else if (op == OC_NODE_OP_POWER_UP) {
		oc_appendf(text, textlen, "Slurm runs its ResumeProgram for them; each is up once its slurmd registers.\n");
	} else if (op == OC_NODE_OP_POWER_DOWN) {
		oc_appendf(text, textlen, "Slurm runs its SuspendProgram for them: powered down (~) after SuspendTimeout.\n");
	} else {
		oc_appendf(text, textlen, "Only a reboot not issued yet can be cancelled.\n");
	}
	oc_appendf(text, textlen, "\nEquivalent command:\n  %s\n", cmd);
	if (op == OC_NODE_OP_REBOOT)
		oc_platform_node_note(c->platform, OC_PACT_REBOOT, names, n, text, textlen);
	char busy[2048] = "";
	if (op == OC_NODE_OP_REBOOT && oc_form_busy_nodes(c->snap, names, n, busy, sizeof(busy)))
		oc_appendf(text, textlen, "\nRunning jobs (ASAP lets them finish):\n%s", busy);
	rc = 0;
out:
	oc_writer_names_free(&names, n);
	return rc;
}

const struct oc_form_kind oc_form_reboot = {
	.title = "Reboot nodes",
	.nfields = (int)(sizeof(reboot_labels) / sizeof(reboot_labels[0])),
	.labels = reboot_labels,
	.reason_field = -1,
	.hint = "Enter review  Tab next field  Esc cancel",
	.choose_field = -1,
	.live = live_reason,
	.plan = plan_reboot,
	.applied = applied,
};
const struct oc_form_kind oc_form_cancel_reboot = {
	.title = "Cancel a reboot",
	.nfields = 1,
	.labels = nodes_labels,
	.reason_field = -1,
	.hint = "Enter review  Tab next field  Esc cancel",
	.choose_field = -1,
	.plan = plan_reboot,
	.applied = applied,
};

const struct oc_form_kind oc_form_power_up = {
	.title = "Power up nodes",
	.nfields = 1,
	.labels = nodes_labels,
	.reason_field = -1,
	.hint = "Enter review  Tab next field  Esc cancel",
	.choose_field = -1,
	.plan = plan_reboot,
	.applied = applied,
};
const struct oc_form_kind oc_form_power_down = {
	.title = "Power down nodes",
	.nfields = 1,
	.labels = nodes_labels,
	.reason_field = -1,
	.hint = "Enter review  Tab next field  Esc cancel",
	.choose_field = -1,
	.plan = plan_reboot,
	.applied = applied,
};

static const struct oc_form_kind *kind_of(enum oc_node_op op)
{
	switch (op) {
	case OC_NODE_OP_POWER_UP: return &oc_form_power_up;
	case OC_NODE_OP_POWER_DOWN: return &oc_form_power_down;
	case OC_NODE_OP_DRAIN: return &oc_form_drain;
	case OC_NODE_OP_RESUME: return &oc_form_resume;
	case OC_NODE_OP_REBOOT: return &oc_form_reboot;
	case OC_NODE_OP_CANCEL_REBOOT: return &oc_form_cancel_reboot;
	default: return &oc_form_undrain;
	}
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
	if (op == OC_NODE_OP_REBOOT) {
		enum oc_node_op *st = malloc(sizeof(*st));
		if (!st) {
			oc_app_message(app, true, " out of memory");
			return;
		}
		*st = op;
		/* The safe choice first: ASAP, back in service after. */
		const char *values[] = {targets, "asap", "resume", ""};
		oc_form_open(app, &oc_form_reboot, NULL, values, st, targets[0] ? 3 : 0, false);
		return;
	}
	/* The cursor starts where typing is needed. */
	open_op(app, op, targets, "", op == OC_NODE_OP_DRAIN && targets[0] ? 1 : 0, false);
}

void oc_dialog_open_drain(struct oc_app *app, const char *nodes, const char *reason)
{
	/* At the end of the reason, to edit it. */
	open_op(app, OC_NODE_OP_DRAIN, nodes, reason, 1, true);
}
