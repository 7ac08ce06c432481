/* runner.c: one step of a rehearsal from start to verdict (runner.h). */
#include "rehearsal/runner.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "actions/audit.h"
#include "actions/plan.h"
#include "core/hostlist.h"
#include "core/platform.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "rehearsal/checks.h"
#include "rehearsal/kinds.h"

#define RUN_SACCT_MAX 16384
#define RUN_LOG_MAX 4096
#define RUN_EVIDENCE_MAX 4096

enum run_phase {
	PH_REQUIRE = 0,   /* waiting for the precondition */
	PH_BEFORE,        /* actions before the operator's part */
	PH_OPERATOR,      /* the operator's part */
	PH_AFTER,         /* actions marked after_operator */
	PH_CHECK,         /* polling the check */
	PH_FINISHED,
};

struct oc_run {
	struct oc_session *s;
	const struct oc_checklist *cl;
	const struct oc_step *step;
	size_t index;
	struct oc_runner_cfg cfg;
	enum run_phase phase;
	enum oc_run_status status;
	size_t action;          /* next action (index into step->actions) */
	bool action_done;       /* the current action was performed, its wait_for is awaited */
	double deadline;        /* of what is awaited now; 0 = not started */
	char log[RUN_LOG_MAX];  /* what the actions did, for the evidence */
	char last[RUN_EVIDENCE_MAX];  /* the last evaluation's evidence */
	char status_text[RUN_EVIDENCE_MAX + 256];
	struct oc_config *config;     /* read back when the snapshot has none */
	char config_error[256];
	char *sacct;
	char sacct_error[256];
};

/* Sets r->last (what the step ends with when it fails now), cut to fit. */
__attribute__((format(printf, 2, 3))) static void run_last(struct oc_run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->last, sizeof(r->last), fmt, ap);
	va_end(ap);
}

static struct oc_step_rec *run_rec(const struct oc_run *r)
{
	return &r->s->steps[r->index];
}

/* Save the session; a failure is noted in the action log (the rehearsal
 * goes on: the verdict is still in memory and in the report). */
static void run_save(struct oc_run *r)
{
	char err[512];
	if (oc_session_save(r->s, err, sizeof(err)) < 0)
		oc_appendf(r->log, sizeof(r->log), "progress not saved: %s\n", err);
}

/* Write-ahead audit of one write of the rehearsal: the intent line before
 * the request (id gets the request id). Returns 0, or -1 with err when the
 * log cannot be written: then the write is not made. */
static int run_intent(const struct oc_runner_cfg *cfg, const char *action, const char *targets, const char *command,
		      char id[OC_AUDIT_ID_LEN], char *err, size_t errlen)
{
	oc_audit_new_id(id);
	if (!cfg->audit_log || !*cfg->audit_log) {
		snprintf(err, errlen, "refused: no audit log (no home directory and no audit_log in the profile); "
				      "nothing was changed");
		return -1;
	}
	struct oc_audit_rec rec = {
		.id = id,
		.phase = "intent",
		.cluster = cfg->cluster,
		.action = action,
		.targets = targets,
		.command = command,
	};
	char e[256];
	if (oc_audit_append(cfg->audit_log, &rec, e, sizeof(e)) < 0) {
		snprintf(err, errlen, "refused: %s; nothing was changed", e);
		return -1;
	}
	return 0;
}

/* The outcome line of the write run_intent logged as id. */
static void run_audit(const struct oc_runner_cfg *cfg, const char *id, const char *action, const char *targets,
		      const char *command, const char *result, const char *error)
{
	struct oc_audit_rec rec = {
		.id = id,
		.phase = "outcome",
		.cluster = cfg->cluster,
		.action = action,
		.targets = targets,
		.command = command,
		.result = result,
		.error = error && *error ? error : NULL,
	};
	char err[256];
	oc_audit_append(cfg->audit_log, &rec, err, sizeof(err));
}

/* The equivalent sbatch command line of a probe job (display and audit). */
static void submit_command(const struct oc_job_spec *js, char *out, size_t len)
{
	char q[600];
	out[0] = '\0';
	oc_appendf(out, len, "runuser -u %s -- sbatch -J %s", js->user, js->name);
	if (js->account[0])
		oc_appendf(out, len, " -A %s", js->account);
	if (js->partition[0])
		oc_appendf(out, len, " -p %s", js->partition);
	if (js->qos[0])
		oc_appendf(out, len, " -q %s", js->qos);
	oc_appendf(out, len, " -N %u", js->nodes ? js->nodes : 1);
	if (js->nodelist[0])
		oc_appendf(out, len, " -w %s", js->nodelist);
	if (js->gpus_per_node)
		oc_appendf(out, len, " --gres=gpu:%u", js->gpus_per_node);
	if (js->time_min)
		oc_appendf(out, len, " -t %u", js->time_min);
	if (js->signal[0])
		oc_appendf(out, len, " --signal=%s", js->signal);
	if (js->requeue)
		oc_appendf(out, len, " --requeue");
	if (js->hold)
		oc_appendf(out, len, " --hold");
	/* What the libslurm writer adds (source/slurm_write.c). */
	oc_appendf(out, len, " --mem=1G --output=/dev/null");
	oc_plan_quote(js->command[0] ? js->command : "sleep 600", q, sizeof(q));
	oc_appendf(out, len, " --wrap %s", q);
}

/* Ends the step with st and evidence (the last evaluation plus what the
 * actions did), after the cleanup. */
static void run_finish(struct oc_run *r, enum oc_step_state st, const char *why);

/* Cancel one job of the step (errors about a job that already ended are
 * not errors). Returns 0, or -1 with err. */
static int cancel_one(const struct oc_runner_cfg *cfg, struct oc_step_job *j, char *err, size_t errlen)
{
	if (!cfg->writer || !cfg->writer->ops->cancel_job) {
		snprintf(err, errlen, "no writer to cancel job %u", j->id);
		return -1;
	}
	char e[512] = "", cmd[64], rid[OC_AUDIT_ID_LEN];
	snprintf(cmd, sizeof(cmd), "scancel %u", j->id);
	char id[16];
	snprintf(id, sizeof(id), "%u", j->id);
	if (run_intent(cfg, "rehearsal.cancel", id, cmd, rid, err, errlen) < 0)
		return -1;
	int rc = cfg->writer->ops->cancel_job(cfg->writer->ctx, j->id, 0, e, sizeof(e));
	if (rc < 0 && (strcasestr(e, "already complet") || strcasestr(e, "Invalid job id") ||
		       strcasestr(e, "already done")))
		rc = 0;
	run_audit(cfg, rid, "rehearsal.cancel", id, cmd, rc == 0 ? "ok" : "failed", e);
	if (rc < 0) {
		snprintf(err, errlen, "scancel %u: %s", j->id, e);
		return -1;
	}
	j->cancelled = true;
	return 0;
}

/* The step's jobs not yet recorded or cancelled: cancel them, the last
 * submitted first. A later job often waits for an earlier one (the second
 * job of MaxJobsPerUser pends on the first): cancelling the first before
 * it would let the scheduler start it in between, and a job cancelled
 * while slurmd launches it can leave its node completing for minutes.
 * Returns how many were cancelled; *failed is set when one could not be.
 * Appends to msg. */
static int cleanup_jobs(struct oc_step_rec *rec, const struct oc_runner_cfg *cfg, char *msg, size_t len,
			bool *failed)
{
	int n = 0;
	char err[600];
	for (size_t i = rec->njobs; i-- > 0;) {
		struct oc_step_job *j = &rec->jobs[i];
		if (j->recorded || j->cancelled)
			continue;
		if (cancel_one(cfg, j, err, sizeof(err)) < 0) {
			*failed = true;
			if (msg)
				oc_appendf(msg, len, "cleanup: %s\n", err);
		} else {
			n++;
			if (msg)
				oc_appendf(msg, len, "cleanup: cancelled job %u (%s)\n", j->id, j->label);
		}
	}
	return n;
}

/* Delete the step's reservations (one already gone counts as deleted);
 * those left stay in rec for a later try. Returns how many were deleted;
 * *failed is set when one was not. Appends to msg. */
static int cleanup_resvs(struct oc_step_rec *rec, const struct oc_runner_cfg *cfg, char *msg, size_t len,
			 bool *failed)
{
	int n = 0;
	for (size_t i = 0; i < rec->nresv; i++) {
		char e[512] = "", cmd[256], rid[OC_AUDIT_ID_LEN];
		oc_plan_resv_delete(rec->resv[i], cmd, sizeof(cmd));
		bool logged = run_intent(cfg, "resv.delete", rec->resv[i], cmd, rid, e, sizeof(e)) == 0;
		int rc = !logged ? -1
			 : cfg->writer && cfg->writer->ops->resv_delete
				 ? cfg->writer->ops->resv_delete(cfg->writer->ctx, rec->resv[i], e, sizeof(e))
				 : (snprintf(e, sizeof(e), "no writer"), -1);
		if (logged)
			run_audit(cfg, rid, "resv.delete", rec->resv[i], cmd, rc == 0 ? "ok" : "failed", e);
		if (rc < 0 && (!logged || (!strcasestr(e, "not found") && !strcasestr(e, "Invalid")))) {
			*failed = true;
			if (msg)
				oc_appendf(msg, len, "cleanup: reservation %s not deleted: %s\n", rec->resv[i], e);
			continue;
		}
		n++;
		if (msg)
			oc_appendf(msg, len, "cleanup: deleted reservation %s\n", rec->resv[i]);
		free(rec->resv[i]);
		rec->resv[i] = NULL;
	}
	size_t keep = 0;
	for (size_t i = 0; i < rec->nresv; i++)
		if (rec->resv[i])
			rec->resv[keep++] = rec->resv[i];
	rec->nresv = keep;
	return n;
}

/* Resume the nodes the step drained; those left stay in rec. Returns how
 * many were undone; *failed is set when one was not. Appends to msg. */
static int cleanup_undrains(struct oc_step_rec *rec, const struct oc_runner_cfg *cfg, char *msg, size_t len,
			    bool *failed)
{
	int n = 0;
	size_t keep = 0;
	for (size_t i = 0; i < rec->nundrain; i++) {
		char e[512] = "", cmd[4400], rid[OC_AUDIT_ID_LEN];
		oc_plan_node_update(rec->undrain[i], OC_NODE_OP_RESUME, NULL, cmd, sizeof(cmd));
		bool logged = run_intent(cfg, "node.resume", rec->undrain[i], cmd, rid, e, sizeof(e)) == 0;
		int rc = !logged ? -1
			 : cfg->writer && cfg->writer->ops->node_update
				 ? cfg->writer->ops->node_update(cfg->writer->ctx, rec->undrain[i], OC_NODE_OP_RESUME, NULL,
							      e, sizeof(e))
				 : (snprintf(e, sizeof(e), "no writer"), -1);
		if (logged)
			run_audit(cfg, rid, "node.resume", rec->undrain[i], cmd, rc == 0 ? "ok" : "failed", e);
		/* A node that is no longer drained refuses RESUME: nothing to undo. */
		if (rc < 0 && (!logged || !strcasestr(e, "Invalid node state"))) {
			*failed = true;
			if (msg)
				oc_appendf(msg, len, "cleanup: %s not resumed: %s\n", rec->undrain[i], e);
			rec->undrain[keep++] = rec->undrain[i];
			continue;
		}
		n++;
		if (msg)
			oc_appendf(msg, len, rc == 0 ? "cleanup: resumed %s\n" : "cleanup: %s is no longer drained\n",
				   rec->undrain[i]);
		free(rec->undrain[i]);
	}
	rec->nundrain = keep;
	return n;
}

/* Marker files the step's checks asked to remove. They do not count as
 * undone and a failure is only reported. Appends to msg. */
static void cleanup_files(struct oc_step_rec *rec, const struct oc_step *step, const struct oc_runner_cfg *cfg,
			  char *msg, size_t len)
{
	const struct oc_check *c = step ? step->check : NULL;
	const struct oc_check *list = c && c->kind == OC_CHECK_ALL ? c->sub : c;
	size_t nl = !c ? 0 : c->kind == OC_CHECK_ALL ? c->nsub : 1;
	for (size_t i = 0; i < nl; i++) {
		char path[4096];
		if (list[i].kind != OC_CHECK_FILE || !list[i].remove ||
		    oc_checks_expand(list[i].path, rec, path, sizeof(path)) < 0)
			continue;
		/* On the head node: through the writer when it is remote. */
		char e[512] = "";
		bool removed = cfg->writer && cfg->writer->ops->remove_file
				       ? cfg->writer->ops->remove_file(cfg->writer->ctx, path, e, sizeof(e)) == 0
				       : unlink(path) == 0;
		if (msg && removed)
			oc_appendf(msg, len, "cleanup: removed %s\n", path);
		else if (msg && e[0])
			oc_appendf(msg, len, "cleanup: %s\n", e);
	}
}

/* Undo what a step left: its own jobs, reservations, drains to undo, and
 * files its checks asked to remove. Appends to msg. Returns the number
 * undone, -1 when something failed. */
static int cleanup_rec(struct oc_step_rec *rec, const struct oc_step *step, const struct oc_runner_cfg *cfg,
		       char *msg, size_t len)
{
	bool failed = false;
	int n = cleanup_jobs(rec, cfg, msg, len, &failed);
	n += cleanup_resvs(rec, cfg, msg, len, &failed);
	n += cleanup_undrains(rec, cfg, msg, len, &failed);
	cleanup_files(rec, step, cfg, msg, len);
	return failed ? -1 : n;
}

static void run_finish(struct oc_run *r, enum oc_step_state st, const char *why)
{
	struct oc_step_rec *rec = run_rec(r);
	if (r->step->cleanup)
		cleanup_rec(rec, r->step, &r->cfg, r->log, sizeof(r->log));
	char ev[RUN_EVIDENCE_MAX + RUN_LOG_MAX + 64];
	snprintf(ev, sizeof(ev), "%s", why && *why ? why : r->last);
	if (r->log[0]) {
		size_t n = strlen(r->log);
		oc_appendf(ev, sizeof(ev), "\n%.*s", (int)(n && r->log[n - 1] == '\n' ? n - 1 : n), r->log);
	}
	oc_step_rec_set_evidence(rec, ev);
	rec->state = st;
	rec->ended = st == OC_STEP_RUNNING || st == OC_STEP_NOT_RUN ? 0 : oc_session_now();
	snprintf(rec->by, sizeof(rec->by), "%s", st == OC_STEP_PASSED || st == OC_STEP_FAILED ? "auto" : "");
	r->phase = PH_FINISHED;
	r->status = st == OC_STEP_RUNNING ? OC_RUN_VERDICT : OC_RUN_DONE;
	run_save(r);
}

struct oc_run *oc_runner_start(struct oc_session *s, const struct oc_checklist *cl, size_t i,
			       const struct oc_runner_cfg *cfg, bool confirmed, char *err, size_t errlen)
{
	if (!s || !cl || i >= cl->nsteps || i >= s->nsteps || strcmp(s->steps[i].id, cl->steps[i].id) != 0) {
		snprintf(err, errlen, "no step %zu in this session", i);
		return NULL;
	}
	const struct oc_step *step = &cl->steps[i];
	const char *not_here = cfg ? oc_runner_not_here(step, cfg->platform) : NULL;
	if (not_here) {
		/* Not for this platform: skipped with the checklist's reason. */
		struct oc_run *r = calloc(1, sizeof(*r));
		if (!r) {
			snprintf(err, errlen, "out of memory");
			return NULL;
		}
		*r = (struct oc_run){.s = s, .cl = cl, .step = step, .index = i, .cfg = *cfg};
		struct oc_step_rec *rec = run_rec(r);
		/* What an earlier attempt left (jobs, reservations, drains) goes
		 * first, as on the normal path. */
		cleanup_rec(rec, step, &r->cfg, NULL, 0);
		oc_step_rec_clear_run(rec);
		rec->started = oc_session_now();
		char why[1024];
		snprintf(why, sizeof(why), "skipped: not on %s: %s",
			 oc_platform_name((enum oc_platform)cfg->platform), not_here);
		run_finish(r, OC_STEP_SKIPPED, why);
		return r;
	}
	if (step->needs_confirm && !confirmed) {
		snprintf(err, errlen, "step %s changes the cluster (%s): confirm it first", step->id,
			 "drain, resume or reservation");
		return NULL;
	}
	struct oc_run *r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->s = s;
	r->cl = cl;
	r->step = step;
	r->index = i;
	if (cfg)
		r->cfg = *cfg;
	struct oc_step_rec *rec = run_rec(r);
	/* Jobs of an earlier attempt that were never cancelled go first. */
	cleanup_rec(rec, step, &r->cfg, NULL, 0);
	oc_step_rec_clear_run(rec);
	rec->state = OC_STEP_RUNNING;
	rec->started = oc_session_now();
	r->phase = step->require ? PH_REQUIRE : PH_BEFORE;
	r->status = OC_RUN_BUSY;
	run_save(r);
	return r;
}

const char *oc_runner_not_here(const struct oc_step *st, int platform)
{
	if (!st || platform <= OC_PLATFORM_UNKNOWN || platform > OC_PLATFORM_ONPREM)
		return NULL;
	return st->not_on[platform];
}

size_t oc_runner_step(const struct oc_run *r)
{
	return r->index;
}

/* Reads what the checks awaited now need besides the snapshot. */
static void run_inputs(struct oc_run *r, const struct oc_check *c, const struct oc_snapshot *snap,
		       struct oc_check_input *in)
{
	memset(in, 0, sizeof(*in));
	in->snap = snap;
	in->rec = run_rec(r);
	unsigned needs = oc_checks_needs(c);
	if (needs & OC_CHECK_NEEDS_CONFIG) {
		/* Read now, not the snapshot's: a console loads the configuration
		 * once per connection, and a check must judge what slurmctld has
		 * at the time it runs (after a reconfigure too). A failed read is
		 * "could not look", never the old table. The snapshot's serves
		 * only where there is no writer. */
		oc_config_unref(&r->config);
		r->config_error[0] = '\0';
		if (r->cfg.writer && r->cfg.writer->ops->read_config) {
			if (r->cfg.writer->ops->read_config(r->cfg.writer->ctx, &r->config, r->config_error,
							    sizeof(r->config_error)) < 0)
				oc_config_unref(&r->config);
			in->config = r->config;
			in->config_error = r->config_error;
		} else if (snap && snap->config && snap->config->n) {
			in->config = snap->config;
		} else {
			snprintf(r->config_error, sizeof(r->config_error), "no writer to read it");
			in->config_error = r->config_error;
		}
	}
	if (r->cfg.writer && r->cfg.writer->ops->read_file) {
		in->read_file = r->cfg.writer->ops->read_file;
		in->read_file_ctx = r->cfg.writer->ctx;
	}
	if (needs & OC_CHECK_NEEDS_SACCT) {
		double hours = oc_checks_sacct_hours(c);
		in->sacct_since_hours = hours;
		free(r->sacct);
		r->sacct = NULL;
		r->sacct_error[0] = '\0';
		if (r->cfg.writer && r->cfg.writer->ops->sacct_users) {
			r->sacct = calloc(1, RUN_SACCT_MAX);
			time_t since = time(NULL) - (time_t)(hours * 3600);
			if (r->sacct && r->cfg.writer->ops->sacct_users(r->cfg.writer->ctx, since, r->sacct, RUN_SACCT_MAX,
									 r->sacct_error, sizeof(r->sacct_error)) < 0) {
				free(r->sacct);
				r->sacct = NULL;
			}
		} else {
			snprintf(r->sacct_error, sizeof(r->sacct_error), "no writer to ask sacct");
		}
		in->sacct = r->sacct;
		in->sacct_error = r->sacct_error;
	}
}

/* Evaluates c now; a WAIT past the deadline becomes a FAIL. */
static enum oc_verdict run_eval(struct oc_run *r, const struct oc_check *c, const struct oc_snapshot *snap,
				double timeout_s, const char *what)
{
	struct oc_check_input in;
	double now = oc_session_now();
	if (!r->deadline)
		r->deadline = now + timeout_s;
	run_inputs(r, c, snap, &in);
	char ev[RUN_EVIDENCE_MAX - 64];
	enum oc_verdict v = oc_checks_eval(c, &in, ev, sizeof(ev));
	run_last(r, "%s%s", what, ev);
	if (v == OC_VERDICT_WAIT && now >= r->deadline) {
		oc_appendf(r->last, sizeof(r->last), " (timed out after %.0f s)", timeout_s);
		return OC_VERDICT_FAIL;
	}
	if (v == OC_VERDICT_WAIT)
		snprintf(r->status_text, sizeof(r->status_text), "%s (%.0f s left)", r->last,
			 ceil(r->deadline - now));
	return v;
}

/* The job entries of the step under label. */
static int for_label_jobs(struct oc_run *r, const char *label, struct oc_step_job **out, size_t max)
{
	struct oc_step_rec *rec = run_rec(r);
	size_t n = 0;
	for (size_t i = 0; i < rec->njobs && n < max; i++)
		if (strcmp(rec->jobs[i].label, label) == 0)
			out[n++] = &rec->jobs[i];
	return (int)n;
}

/* ---- action kinds: one run function each (the table is in checklist.c) */

/* The probe job of a submit_job action into js; "nodes": "idle" counts
 * the partition's idle nodes in snap now. Returns 0, or -1 when there are
 * none to fill (r->last says why). */
static int first_name(void *ctx, const char *name)
{
	char **out = ctx;
	snprintf(out[0], (size_t)(out[1] - out[0]), "%s", name);
	return 1; /* the first is enough */
}

/* The first node of the job under a->nodes_of, from the snapshot (it
 * runs: its wait_for said so), into buf. Returns 0, -1 with the reason. */
static int run_nodes_of(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap, char *buf,
			size_t len)
{
	struct oc_step_job *jobs[1];
	const struct oc_job *j = NULL;
	if (for_label_jobs(r, a->nodes_of, jobs, 1) == 1)
		for (size_t i = 0; snap && snap->jobs && i < snap->jobs->n; i++)
			if (snap->jobs->v[i].job_id == jobs[0]->id)
				j = &snap->jobs->v[i];
	char err[64];
	char *range[2] = {buf, buf + len};
	buf[0] = '\0';
	if (!j || !j->nodes || !oc_job_holds_nodes(j) ||
	    oc_hostlist_foreach(j->nodes, 1u << 16, first_name, range, err, sizeof(err)) < 0 || !buf[0]) {
		run_last(r, "submit %s: the nodes of job %s are not known (is it running?)", a->label, a->nodes_of);
		return -1;
	}
	return 0;
}

static int run_job_spec(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap,
			struct oc_job_spec *js)
{
	memset(js, 0, sizeof(*js));
	snprintf(js->user, sizeof(js->user), "%s", a->user);
	snprintf(js->account, sizeof(js->account), "%s", a->account ? a->account : "");
	snprintf(js->partition, sizeof(js->partition), "%s", a->partition ? a->partition : "");
	snprintf(js->qos, sizeof(js->qos), "%s", a->qos ? a->qos : "");
	snprintf(js->name, sizeof(js->name), "%s", a->name);
	snprintf(js->signal, sizeof(js->signal), "%s", a->signal_opt ? a->signal_opt : "");
	snprintf(js->command, sizeof(js->command), "%s", a->command);
	js->nodes = a->nodes;
	js->gpus_per_node = a->gpus_per_node;
	js->time_min = a->time_min;
	js->requeue = a->requeue;
	js->hold = a->hold;
	if (a->nodes_idle) {
		long idle = oc_checks_idle_nodes(snap, a->partition);
		if (idle <= 0) {
			run_last(r, "submit %s: %s", a->label,
				 idle == 0 ? "no idle node in the partition to fill"
					   : "cannot count the partition's idle nodes");
			return -1;
		}
		js->nodes = (uint32_t)idle;
	}
	if (a->nodes_of && run_nodes_of(r, a, snap, js->nodelist, sizeof(js->nodelist)) < 0)
		return -1;
	return 0;
}

int oc_run_submit_job(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	const struct oc_writer *w = r->cfg.writer;
	struct oc_step_rec *rec = run_rec(r);
	char err[1024] = "";
	struct oc_job_spec js;
	if (run_job_spec(r, a, snap, &js) < 0)
		return -1;
	char cmd[1400];
	submit_command(&js, cmd, sizeof(cmd));
	uint32_t id = 0;
	char rid[OC_AUDIT_ID_LEN];
	if (run_intent(&r->cfg, "rehearsal.submit", js.user, cmd, rid, err, sizeof(err)) < 0) {
		run_last(r, "submit %s: %s", a->label, err);
		return -1;
	}
	int rc = w->ops->submit_job ? w->ops->submit_job(w->ctx, &js, &id, err, sizeof(err))
				    : (snprintf(err, sizeof(err), "the writer cannot submit jobs"), -1);
	char idtxt[16];
	snprintf(idtxt, sizeof(idtxt), "%u", id);
	run_audit(&r->cfg, rid, "rehearsal.submit", rc == 0 ? idtxt : js.user, cmd,
		  rc == 0 ? "ok" : rc == 1 ? "refused" : "failed", err);
	oc_step_rec_add_submit(rec, a->label, rc, id, err);
	if (rc == 0) {
		oc_step_rec_add_job(rec, a->label, id);
		oc_appendf(r->log, sizeof(r->log), "submitted job %u (%s): %s\n", id, a->label, cmd);
	} else {
		oc_appendf(r->log, sizeof(r->log), "%s %s (%s): %s\n", rc == 1 ? "refused" : "could not submit",
			   a->label, cmd, err);
	}
	run_save(r);
	if (rc < 0) {
		run_last(r, "could not submit %s: %s", a->label, err);
		return -1;
	}
	if (rc == 0 && a->expect == OC_EXPECT_REFUSED) {
		run_last(r, "submission %s was accepted as job %u, expected Slurm to refuse it", a->label, id);
		return -1;
	}
	if (rc == 1 && a->expect == OC_EXPECT_ACCEPTED) {
		run_last(r, "submission %s was refused: %s", a->label, err);
		return -1;
	}
	return 0;
}

/* scancel to every job of the step under a's label: signo (-b -s), or 0
 * to cancel them. what: the audit action. */
static int run_scancel(struct oc_run *r, const struct oc_step_action *a, int signo, const char *what)
{
	const struct oc_writer *w = r->cfg.writer;
	char err[1024] = "";
	struct oc_step_job *jobs[64];
	int n = for_label_jobs(r, a->label, jobs, 64);
	if (n == 0) {
		run_last(r, "%s: no job under the label %s", oc_step_action_kind_name(a->kind), a->label);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char cmd[96], idtxt[16];
		snprintf(idtxt, sizeof(idtxt), "%u", jobs[i]->id);
		if (signo)
			snprintf(cmd, sizeof(cmd), "scancel -b -s %s %u", a->signame, jobs[i]->id);
		else
			snprintf(cmd, sizeof(cmd), "scancel %u", jobs[i]->id);
		char rid[OC_AUDIT_ID_LEN];
		if (run_intent(&r->cfg, what, idtxt, cmd, rid, err, sizeof(err)) < 0) {
			run_last(r, "%s: %s", cmd, err);
			return -1;
		}
		int rc = w->ops->cancel_job ? w->ops->cancel_job(w->ctx, jobs[i]->id, signo, err, sizeof(err))
					    : (snprintf(err, sizeof(err), "the writer cannot cancel jobs"), -1);
		run_audit(&r->cfg, rid, what, idtxt, cmd, rc == 0 ? "ok" : "failed", err);
		if (rc < 0) {
			run_last(r, "%s: %s", cmd, err);
			return -1;
		}
		if (!signo && !jobs[i]->recorded)
			jobs[i]->cancelled = true;
		oc_appendf(r->log, sizeof(r->log), "%s\n", cmd);
	}
	run_save(r);
	return 0;
}

int oc_run_signal_job(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	(void)snap;
	return run_scancel(r, a, a->signo, "rehearsal.signal");
}

int oc_run_cancel_job(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	(void)snap;
	return run_scancel(r, a, 0, "rehearsal.cancel");
}

/* scontrol update State=DRAIN or RESUME of a's nodes; what: the audit
 * action. A drain with "undo" is resumed at the cleanup. */
static int run_node_update(struct oc_run *r, const struct oc_step_action *a, enum oc_node_op op, const char *what)
{
	const struct oc_writer *w = r->cfg.writer;
	struct oc_step_rec *rec = run_rec(r);
	char err[1024] = "", cmd[4400], rid[OC_AUDIT_ID_LEN];
	oc_plan_node_update(a->hostlist, op, a->reason, cmd, sizeof(cmd));
	if (run_intent(&r->cfg, what, a->hostlist, cmd, rid, err, sizeof(err)) < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	int rc = w->ops->node_update ? w->ops->node_update(w->ctx, a->hostlist, op, a->reason, err, sizeof(err))
				     : (snprintf(err, sizeof(err), "the writer cannot update nodes"), -1);
	run_audit(&r->cfg, rid, what, a->hostlist, cmd, rc == 0 ? "ok" : "failed", err);
	if (rc < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	if (op == OC_NODE_OP_DRAIN && a->undo)
		oc_step_rec_push(&rec->undrain, &rec->nundrain, a->hostlist);
	oc_appendf(r->log, sizeof(r->log), "%s\n", cmd);
	run_save(r);
	return 0;
}

int oc_run_drain(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	(void)snap;
	return run_node_update(r, a, OC_NODE_OP_DRAIN, "node.drain");
}

int oc_run_resume(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	(void)snap;
	return run_node_update(r, a, OC_NODE_OP_RESUME, "node.resume");
}

int oc_run_reservation(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	const struct oc_writer *w = r->cfg.writer;
	struct oc_step_rec *rec = run_rec(r);
	char err[1024] = "";
	/* A kept reservation of that name already there: made by this step in
	 * a run that was stopped before its verdict (a resumed change
	 * window); its check says whether it is on the right nodes. */
	for (size_t i = 0; a->keep && a->resv_name && snap && snap->reservations && i < snap->reservations->n; i++) {
		if (snap->reservations->v[i].name && strcmp(snap->reservations->v[i].name, a->resv_name) == 0) {
			oc_appendf(r->log, sizeof(r->log), "reservation %s is already there\n", a->resv_name);
			return 0;
		}
	}
	struct oc_resv_spec rs;
	memset(&rs, 0, sizeof(rs));
	snprintf(rs.name, sizeof(rs.name), "%s", a->resv_name ? a->resv_name : "");
	snprintf(rs.nodes, sizeof(rs.nodes), "%s", a->hostlist);
	snprintf(rs.users, sizeof(rs.users), "%s", a->resv_users ? a->resv_users : "");
	snprintf(rs.accounts, sizeof(rs.accounts), "%s", a->resv_accounts ? a->resv_accounts : "");
	snprintf(rs.flags, sizeof(rs.flags), "%s", a->resv_flags ? a->resv_flags : "");
	rs.duration_min = a->duration_min;
	char cmd[5000], name[128] = "";
	oc_plan_resv_create(&rs, cmd, sizeof(cmd));
	char rid[OC_AUDIT_ID_LEN];
	if (run_intent(&r->cfg, "resv.create", rs.nodes, cmd, rid, err, sizeof(err)) < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	int rc = w->ops->resv_create ? w->ops->resv_create(w->ctx, &rs, name, sizeof(name), err, sizeof(err))
				     : (snprintf(err, sizeof(err), "the writer cannot create reservations"), -1);
	run_audit(&r->cfg, rid, "resv.create", rc == 0 ? name : rs.nodes, cmd, rc == 0 ? "ok" : "failed", err);
	if (rc < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	if (!a->keep)
		oc_step_rec_push(&rec->resv, &rec->nresv, name);
	oc_appendf(r->log, sizeof(r->log), "created reservation %s: %s\n", name, cmd);
	run_save(r);
	return 0;
}

int oc_run_reboot(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	(void)snap;
	const struct oc_writer *w = r->cfg.writer;
	char err[1024] = "", cmd[4400], rid[OC_AUDIT_ID_LEN];
	struct oc_reboot_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.asap = a->asap;
	spec.next = (enum oc_reboot_next)a->next_state;
	snprintf(spec.reason, sizeof(spec.reason), "%s", a->reason ? a->reason : "");
	oc_plan_node_reboot(a->hostlist, &spec, cmd, sizeof(cmd));
	if (run_intent(&r->cfg, "node.reboot", a->hostlist, cmd, rid, err, sizeof(err)) < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	int rc = w->ops->node_reboot ? w->ops->node_reboot(w->ctx, a->hostlist, &spec, err, sizeof(err))
				     : (snprintf(err, sizeof(err), "the writer cannot reboot nodes"), -1);
	run_audit(&r->cfg, rid, "node.reboot", a->hostlist, cmd, rc == 0 ? "ok" : "failed", err);
	if (rc < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	oc_appendf(r->log, sizeof(r->log), "%s\n", cmd);
	run_save(r);
	return 0;
}

int oc_run_end_reservation(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	const struct oc_writer *w = r->cfg.writer;
	char err[1024] = "", cmd[512], rid[OC_AUDIT_ID_LEN];
	oc_plan_resv_delete(a->resv_name, cmd, sizeof(cmd));
	/* Gone already (ended by its duration, deleted by hand): nothing to do. */
	bool known = snap && snap->reservations && snap->status[OC_PART_RESV].fetched &&
		     !snap->status[OC_PART_RESV].error[0];
	bool there = false;
	for (size_t i = 0; known && i < snap->reservations->n; i++)
		there |= snap->reservations->v[i].name && strcmp(snap->reservations->v[i].name, a->resv_name) == 0;
	if (known && !there) {
		oc_appendf(r->log, sizeof(r->log), "reservation %s: already gone\n", a->resv_name);
		return 0;
	}
	if (run_intent(&r->cfg, "resv.delete", a->resv_name, cmd, rid, err, sizeof(err)) < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	int rc = w->ops->resv_delete ? w->ops->resv_delete(w->ctx, a->resv_name, err, sizeof(err))
				     : (snprintf(err, sizeof(err), "the writer cannot delete reservations"), -1);
	run_audit(&r->cfg, rid, "resv.delete", a->resv_name, cmd, rc == 0 ? "ok" : "failed", err);
	if (rc < 0) {
		run_last(r, "%s: %s", cmd, err);
		return -1;
	}
	oc_appendf(r->log, sizeof(r->log), "%s\n", cmd);
	run_save(r);
	return 0;
}

int oc_run_record_jobs(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	struct oc_step_rec *rec = run_rec(r);
	if (!snap || !snap->jobs || snap->status[OC_PART_JOBS].error[0]) {
		run_last(r, "record_jobs: cannot read the jobs%s%s",
			 snap && snap->status[OC_PART_JOBS].error[0] ? ": " : "",
			 snap ? snap->status[OC_PART_JOBS].error : "");
		return -1;
	}
	size_t n = 0;
	for (size_t i = 0; i < snap->jobs->n; i++) {
		const struct oc_job *j = &snap->jobs->v[i];
		if (strcasecmp(oc_job_state_name(j->state), a->state_filter) != 0)
			continue;
		struct oc_step_job *sj = oc_step_rec_add_job(rec, a->label, j->job_id);
		if (!sj)
			break;
		sj->recorded = true;
		n++;
	}
	oc_appendf(r->log, sizeof(r->log), "recorded %zu %s %s as %s\n", n, a->state_filter, oc_plural(n, "job", "jobs"),
		   a->label);
	run_save(r);
	return 0;
}

/* Performs action a with its kind's run function. Returns 0 when done
 * (the step goes on), -1 when the step fails (r->last says why). */
static int run_action(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap)
{
	if ((unsigned)a->kind >= OC_SA_KIND_COUNT) {
		run_last(r, "unknown action");
		return -1;
	}
	const struct oc_step_action_kind_def *d = &oc_step_action_kinds[a->kind];
	if (!r->cfg.writer && d->writes) {
		run_last(r, "%s: no writer: the console cannot change the cluster (read-only?)", d->name);
		return -1;
	}
	return d->run(r, a, snap);
}

/* Works through the actions of the current phase. Returns true when the
 * phase is over (all its actions done), false when waiting or failed
 * (r->phase is PH_FINISHED then). */
static bool run_actions(struct oc_run *r, const struct oc_snapshot *snap, bool after)
{
	while (r->action < r->step->nactions) {
		const struct oc_step_action *a = &r->step->actions[r->action];
		if (a->after_operator != after)
			return true;
		if (!r->action_done) {
			snprintf(r->status_text, sizeof(r->status_text), "action %zu/%zu: %s", r->action + 1,
				 r->step->nactions, oc_step_action_kind_name(a->kind));
			if (run_action(r, a, snap) < 0) {
				run_finish(r, OC_STEP_FAILED, NULL);
				return false;
			}
			r->action_done = true;
			r->deadline = 0;
			if (a->wait_for)
				return false;   /* evaluate against the next, fresher snapshot */
		}
		if (a->wait_for) {
			char what[64];
			snprintf(what, sizeof(what), "action %zu (%s) waits: ", r->action + 1,
				 oc_step_action_kind_name(a->kind));
			oc_checks_observe(run_rec(r), snap);
			enum oc_verdict v = run_eval(r, a->wait_for, snap, a->wait_timeout_s, what);
			if (v == OC_VERDICT_FAIL) {
				run_finish(r, OC_STEP_FAILED, NULL);
				return false;
			}
			if (v == OC_VERDICT_WAIT)
				return false;
		}
		r->action++;
		r->action_done = false;
		r->deadline = 0;
	}
	return true;
}

enum oc_run_status oc_runner_poll(struct oc_run *r, const struct oc_snapshot *snap)
{
	if (!r)
		return OC_RUN_DONE;
	if (r->phase == PH_FINISHED)
		return r->status;
	if (oc_checks_observe(run_rec(r), snap))
		run_save(r);
	if (r->phase == PH_REQUIRE) {
		enum oc_verdict v = run_eval(r, r->step->require, snap, r->step->timeout_s, "precondition: ");
		if (v == OC_VERDICT_FAIL) {
			run_finish(r, OC_STEP_FAILED, NULL);
			return r->status;
		}
		if (v == OC_VERDICT_WAIT)
			return OC_RUN_BUSY;
		r->phase = PH_BEFORE;
		r->deadline = 0;
	}
	if (r->phase == PH_BEFORE) {
		if (!run_actions(r, snap, false))
			return r->phase == PH_FINISHED ? r->status : OC_RUN_BUSY;
		r->phase = r->step->has_operator_phase ? PH_OPERATOR : PH_AFTER;
	}
	if (r->phase == PH_OPERATOR) {
		char todo[2048];
		oc_checks_expand(r->step->todo, run_rec(r), todo, sizeof(todo));
		snprintf(r->status_text, sizeof(r->status_text), "waiting for the operator: %s",
			 todo[0] ? todo : "(nothing to do)");
		return OC_RUN_OPERATOR;
	}
	if (r->phase == PH_AFTER) {
		if (!run_actions(r, snap, true))
			return r->phase == PH_FINISHED ? r->status : OC_RUN_BUSY;
		r->phase = PH_CHECK;
		r->deadline = 0;
		if (!r->step->check) {
			run_last(r, "no automatic check: the operator judges what was observed");
			run_finish(r, OC_STEP_RUNNING, NULL);
			return r->status;
		}
		/* The newest snapshot may predate the last action: look at the
		 * next one (a check that needs no snapshot change passes then). */
		if (r->step->nactions)
			return OC_RUN_BUSY;
	}
	enum oc_verdict v = run_eval(r, r->step->check, snap, r->step->timeout_s, "");
	if (v == OC_VERDICT_WAIT)
		return OC_RUN_BUSY;
	run_finish(r, v == OC_VERDICT_PASS ? OC_STEP_PASSED : OC_STEP_FAILED, NULL);
	return r->status;
}

void oc_runner_operator_done(struct oc_run *r)
{
	if (r && r->phase == PH_OPERATOR) {
		r->phase = PH_AFTER;
		r->deadline = 0;
	}
}

const char *oc_runner_status_text(const struct oc_run *r)
{
	if (!r)
		return "";
	if (r->phase == PH_FINISHED)
		return r->last;
	return r->status_text[0] ? r->status_text : "starting";
}

void oc_runner_abort(struct oc_run *r, const char *why)
{
	if (!r || r->phase == PH_FINISHED)
		return;
	char note[512];
	snprintf(note, sizeof(note), "interrupted: %s", why && *why ? why : "stopped");
	run_last(r, "%s", note);
	struct oc_step_rec *rec = run_rec(r);
	cleanup_rec(rec, r->step, &r->cfg, r->log, sizeof(r->log));
	oc_step_rec_add_note(rec, note);
	run_finish(r, OC_STEP_NOT_RUN, note);
}

void oc_runner_free(struct oc_run **r)
{
	if (!r || !*r)
		return;
	if ((*r)->phase != PH_FINISHED)
		oc_runner_abort(*r, "closed");
	oc_config_unref(&(*r)->config);
	free((*r)->sacct);
	free(*r);
	*r = NULL;
}

int oc_runner_cleanup_all(struct oc_session *s, const struct oc_runner_cfg *cfg, char *msg, size_t len)
{
	int total = 0;
	bool failed = false;
	if (msg && len)
		msg[0] = '\0';
	for (size_t i = 0; i < s->nsteps; i++) {
		struct oc_step_rec *rec = &s->steps[i];
		bool pending = rec->nresv || rec->nundrain;
		for (size_t k = 0; k < rec->njobs && !pending; k++)
			pending = !rec->jobs[k].recorded && !rec->jobs[k].cancelled;
		if (!pending)
			continue;
		/* Step definitions are not needed: files are only removed by a
		 * run's own cleanup. */
		int n = cleanup_rec(rec, NULL, cfg, msg, len);
		if (n < 0)
			failed = true;
		else
			total += n;
	}
	char err[512];
	if (oc_session_save(s, err, sizeof(err)) < 0 && msg)
		oc_appendf(msg, len, "progress not saved: %s\n", err);
	return failed ? -1 : total;
}
