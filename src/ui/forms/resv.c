/* forms/resv.c: the reservation forms: create a maintenance reservation
 * (name, nodes, start, duration, users, flags) and delete the selected
 * one (nothing to type: it opens at the confirmation). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "actions/plan.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "ui/app.h"
#include "ui/form.h"
#include "ui/forms.h"

enum { RV_NAME, RV_NODES, RV_START, RV_DURATION, RV_USERS, RV_FLAGS, RV_NFIELDS };
static const char *const create_labels[RV_NFIELDS] = {"Name", "Nodes", "Start", "Duration", "Users", "Flags"};
static const char *const delete_labels[] = {"Reservation"};

/* Reservations that overlap [start, end) on any of the nodes. */
static size_t resv_overlaps(const struct oc_snapshot *s, char **names, size_t n, time_t start, time_t end, char *out,
			    size_t len)
{
	size_t found = 0;
	for (size_t r = 0; s->reservations && r < s->reservations->n; r++) {
		const struct oc_reservation *rv = &s->reservations->v[r];
		if (rv->end_time <= start || (end && rv->start_time >= end))
			continue;
		bool shares = false;
		for (uint32_t k = 0; k < rv->node_idx_count && !shares; k++)
			for (size_t i = 0; i < n && !shares; i++)
				shares = s->nodes && rv->node_idx[k] < s->nodes->n &&
					 strcmp(s->nodes->v[rv->node_idx[k]].name, names[i]) == 0;
		if (shares) {
			found++;
			oc_appendf(out, len, "    reservation %s (%s) holds some of these nodes in that time\n", rv->name,
				   rv->nodes ? rv->nodes : "");
		}
	}
	return found;
}

/* When the reservation holds the nodes, in words: "now, until deleted"
 * for the runbook's default (duration=infinite), else both ends. */
static void resv_when(const struct oc_resv_spec *sp, time_t now, char *out, size_t len)
{
	char from[32] = "now", until[32], dur[32];
	struct tm tm;
	if (sp->start) {
		localtime_r(&sp->start, &tm);
		strftime(from, sizeof(from), "%Y-%m-%d %H:%M", &tm);
	}
	if (sp->duration_min < 0) {
		snprintf(out, len, "%s, until deleted (Duration=UNLIMITED)", from);
		return;
	}
	time_t end = (sp->start ? sp->start : now) + (time_t)sp->duration_min * 60;
	localtime_r(&end, &tm);
	strftime(until, sizeof(until), "%Y-%m-%d %H:%M", &tm);
	snprintf(out, len, "%s, until %s (Duration=%s)", from, until,
		 oc_format_minutes((uint32_t)sp->duration_min, dur, sizeof(dur)));
}

/* The fields into the spec. Returns 0, or -1 with err. */
static int create_spec(const struct oc_form_ctx *c, char *const *v, struct oc_resv_spec *sp, char ***names, size_t *n,
		       char *err, size_t errlen)
{
	if (oc_plan_check_resv_name(v[RV_NAME], err, errlen) < 0)
		return -1;
	if (oc_form_nodes(c, v[RV_NODES], names, n, sp->nodes, sizeof(sp->nodes), err, errlen) < 0)
		return -1;
	char perr[256];
	if (oc_plan_parse_start(v[RV_START], c->now, &sp->start, perr, sizeof(perr)) < 0) {
		snprintf(err, errlen, "Start: %s", perr);
		return -1;
	}
	if (oc_plan_parse_duration(v[RV_DURATION], &sp->duration_min, perr, sizeof(perr)) < 0) {
		snprintf(err, errlen, "Duration: %s", perr);
		return -1;
	}
	if (!v[RV_USERS][0]) {
		snprintf(err, errlen, "Users: give at least one user (the runbook uses root)");
		return -1;
	}
	snprintf(sp->name, sizeof(sp->name), "%s", v[RV_NAME]);
	snprintf(sp->users, sizeof(sp->users), "%s", v[RV_USERS]);
	snprintf(sp->flags, sizeof(sp->flags), "%s", v[RV_FLAGS]);
	return 0;
}

static int plan_create(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
		       size_t textlen, char *err, size_t errlen)
{
	struct oc_resv_spec *sp = &req->resv;
	char **names = NULL;
	size_t n = 0;
	if (create_spec(c, v, sp, &names, &n, err, errlen) < 0) {
		oc_writer_names_free(&names, n);
		return -1;
	}
	req->kind = OC_ACTION_RESV_CREATE;
	char cmd[8192];
	oc_plan_resv_create(sp, cmd, sizeof(cmd));
	snprintf(req->command, sizeof(req->command), "%s", cmd);
	char when[128];
	resv_when(sp, c->now, when, sizeof(when));
	oc_appendf(text, textlen, "Create reservation %s on %zu %s: %s\nWhen: %s\n",
		   sp->name[0] ? sp->name : "(named by Slurm)", n, oc_plural(n, "node", "nodes"), sp->nodes, when);
	oc_appendf(text, textlen, "\nEquivalent command:\n  %s\n", cmd);
	char warn[4096] = "";
	size_t busy = oc_form_busy_nodes(c->snap, names, n, warn, sizeof(warn));
	time_t start = sp->start ? sp->start : c->now;
	time_t end = sp->duration_min < 0 ? 0 : start + sp->duration_min * 60;
	char ov[2048] = "";
	size_t overlaps = resv_overlaps(c->snap, names, n, start, end, ov, sizeof(ov));
	oc_writer_names_free(&names, n);
	if (busy || overlaps)
		oc_appendf(text, textlen, "\nWARNING:\n");
	if (busy)
		oc_appendf(text, textlen, "  nodes still run jobs%s:\n%s",
			   strstr(sp->flags, "IGNORE_JOBS") ? " (IGNORE_JOBS: the reservation starts anyway)"
							    : " (without IGNORE_JOBS Slurm refuses)",
			   warn);
	if (overlaps)
		oc_appendf(text, textlen, "%s", ov);
	return 0;
}

static int plan_delete(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
		       size_t textlen, char *err, size_t errlen)
{
	if (!v[0][0]) {
		snprintf(err, errlen, "Reservation: give its name");
		return -1;
	}
	if (oc_platform_owns_resv(c->platform, v[0])) {
		snprintf(err, errlen,
			 "refused, nothing sent: %s is a ParallelCluster Capacity Block reservation: the platform made "
			 "it and ends it with the block",
			 v[0]);
		return -1;
	}
	req->kind = OC_ACTION_RESV_DELETE;
	snprintf(req->resv_name, sizeof(req->resv_name), "%s", v[0]);
	char cmd[8192];
	oc_plan_resv_delete(req->resv_name, cmd, sizeof(cmd));
	snprintf(req->command, sizeof(req->command), "%s", cmd);
	oc_appendf(text, textlen, "Delete reservation %s\n\nEquivalent command:\n  %s\n", req->resv_name, cmd);
	return 0;
}

const struct oc_form_kind oc_form_resv_create = {
	.title = "Create a maintenance reservation",
	.nfields = RV_NFIELDS,
	.labels = create_labels,
	.reason_field = -1,
	.hint = "Enter review  Tab next field  Esc cancel",
	.choose_field = -1,
	.plan = plan_create,
};

const struct oc_form_kind oc_form_resv_delete = {
	.title = "Delete a reservation",
	.nfields = 1,
	.labels = delete_labels,
	.reason_field = -1,
	.at_confirm = true,
	.hint = "Enter review  Tab next field  Esc cancel",
	.choose_field = -1,
	.plan = plan_delete,
};

void oc_dialog_open_resv_create(struct oc_app *app)
{
	char targets[4096], name[64];
	oc_form_default_nodes(app, targets, sizeof(targets));
	oc_plan_propose_resv_name(time(NULL), name, sizeof(name));
	const char *values[RV_NFIELDS] = {name, targets, "now", "infinite", "root", "MAINT,IGNORE_JOBS"};
	oc_form_open(app, &oc_form_resv_create, NULL, values, NULL, 0, false);
}

void oc_dialog_open_resv_delete(struct oc_app *app)
{
	char buf[8];
	const char *name = oc_app_selected(app, OC_SEL_RESERVATION, buf, sizeof(buf));
	if (!name) {
		oc_app_message(app, true, " select a reservation in the reservations view (6) first");
		return;
	}
	const char *values[] = {name};
	oc_form_open(app, &oc_form_resv_delete, NULL, values, NULL, 0, false);
}
