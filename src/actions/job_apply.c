/* job_apply.c: a job action, job by job: read the job, apply the change,
 * read it back and say what became of it (worker.h, oc_job_apply). A job
 * that has ended, before or during the action, is "already ended": not an
 * error, nothing to do. */
#include <stdio.h>
#include <string.h>

#include "actions/plan.h"
#include "actions/worker.h"
#include "core/state.h"
#include "core/strbuf.h"

static const char *const op_names[OC_JOB_OP_COUNT] = {
	[OC_JOB_OP_CANCEL] = "job.cancel",
	[OC_JOB_OP_SIGNAL] = "job.signal",
	[OC_JOB_OP_HOLD] = "job.hold",
	[OC_JOB_OP_RELEASE] = "job.release",
	[OC_JOB_OP_REQUEUE] = "job.requeue",
	[OC_JOB_OP_REQUEUE_HOLD] = "job.requeuehold",
	[OC_JOB_OP_TIME_LIMIT] = "job.timelimit",
	[OC_JOB_OP_PARTITION] = "job.partition",
	[OC_JOB_OP_QOS] = "job.qos",
	[OC_JOB_OP_NICE] = "job.nice",
	[OC_JOB_OP_PRIORITY] = "job.priority",
};

const char *oc_job_op_name(enum oc_job_op op)
{
	return (unsigned)op < OC_JOB_OP_COUNT ? op_names[op] : "job.?";
}

/* What the change did, in the past tense, before "N jobs" (the change's
 * value follows in a detail line). */
static const char *op_past(enum oc_job_op op)
{
	static const char *const past[OC_JOB_OP_COUNT] = {
		[OC_JOB_OP_CANCEL] = "cancelled",
		[OC_JOB_OP_SIGNAL] = "signalled",
		[OC_JOB_OP_HOLD] = "held",
		[OC_JOB_OP_RELEASE] = "released",
		[OC_JOB_OP_REQUEUE] = "requeued",
		[OC_JOB_OP_REQUEUE_HOLD] = "requeued and held",
		[OC_JOB_OP_TIME_LIMIT] = "new time limit for",
		[OC_JOB_OP_PARTITION] = "moved to the partition",
		[OC_JOB_OP_QOS] = "new QoS for",
		[OC_JOB_OP_NICE] = "new nice value for",
		[OC_JOB_OP_PRIORITY] = "new priority for",
	};
	return (unsigned)op < OC_JOB_OP_COUNT ? past[op] : "changed";
}

static bool job_active(const struct oc_job_now *n)
{
	return n->found &&
	       (n->state == OC_JOB_PENDING || n->state == OC_JOB_RUNNING || n->state == OC_JOB_SUSPENDED);
}

/* Whether the read-back after shows the change (before: the job before
 * it). why gets what the read-back shows ("priority 0", "time limit
 * 02:00:00"). */
static bool job_took(const struct oc_job_change *c, const struct oc_job_now *before, const struct oc_job_now *after,
		     char *why, size_t len)
{
	char a[32];
	switch (c->op) {
	case OC_JOB_OP_CANCEL:
		snprintf(why, len, "%s", after->found ? oc_job_state_name(after->state) : "gone from the queue");
		/* A running job's cancel takes a moment (its steps are killed). */
		return !job_active(after) || after->state == OC_JOB_RUNNING;
	case OC_JOB_OP_SIGNAL:
		snprintf(why, len, "sent; the job is %s", after->found ? oc_job_state_name(after->state) : "gone");
		return true; /* nothing to read back: Slurm took it */
	case OC_JOB_OP_HOLD:
	case OC_JOB_OP_RELEASE:
		snprintf(why, len, "priority %u, reason %s", after->priority, after->reason);
		return after->found && (after->priority == 0) == (c->op == OC_JOB_OP_HOLD);
	case OC_JOB_OP_REQUEUE:
	case OC_JOB_OP_REQUEUE_HOLD:
		snprintf(why, len, "Restarts=%u (was %u), %s", after->restarts, before->restarts,
			 oc_job_state_name(after->state));
		return after->found && after->restarts > before->restarts;
	case OC_JOB_OP_TIME_LIMIT:
		snprintf(why, len, "time limit %s", oc_plan_time_limit(after->time_limit_min, a, sizeof(a)));
		return after->found && after->time_limit_min == c->minutes;
	case OC_JOB_OP_PARTITION:
		snprintf(why, len, "partition %s", after->partition);
		return after->found && strcmp(after->partition, c->name) == 0;
	case OC_JOB_OP_QOS:
		snprintf(why, len, "QoS %s", after->qos);
		return after->found && strcmp(after->qos, c->name) == 0;
	case OC_JOB_OP_PRIORITY:
		snprintf(why, len, "priority %u", after->priority);
		return after->found && after->priority == c->priority;
	default:
		snprintf(why, len, "nice %d", after->nice);
		return after->found && after->nice == c->nice;
	}
}

enum job_outcome { JOB_DONE, JOB_ENDED, JOB_NOT_CHANGED, JOB_UNKNOWN };

/* One job: its outcome, a line in res->details, Slurm's error in slurm_err. */
static enum job_outcome job_one(const struct oc_writer *w, uint32_t id, const struct oc_job_change *c,
				struct oc_action_result *res, char *slurm_err, size_t errlen)
{
	struct oc_job_now before, after;
	char err[512] = "";
	slurm_err[0] = '\0';
	if (w->ops->read_job(w->ctx, id, &before, err, sizeof(err)) < 0) {
		snprintf(slurm_err, errlen, "%s", err);
		oc_appendf(res->details, sizeof(res->details), "%u: NOT changed: cannot read it: %s\n", id, err);
		return oc_action_is_timeout(err) ? JOB_UNKNOWN : JOB_NOT_CHANGED;
	}
	if (!job_active(&before)) {
		oc_appendf(res->details, sizeof(res->details), "%u: already ended (%s): nothing to do\n", id,
			   before.found ? oc_job_state_name(before.state) : "no longer known to slurmctld");
		return JOB_ENDED;
	}
	int rc = w->ops->job_change(w->ctx, id, c, slurm_err, errlen);
	if (rc < 0 && oc_action_is_timeout(slurm_err)) {
		oc_appendf(res->details, sizeof(res->details), "%u: NO ANSWER: %s\n", id, slurm_err);
		return JOB_UNKNOWN;
	}
	if (w->ops->read_job(w->ctx, id, &after, err, sizeof(err)) < 0) {
		oc_appendf(res->details, sizeof(res->details), "%u: %s, but the read-back failed: %s\n", id,
			   rc < 0 ? slurm_err : "sent", err);
		return rc < 0 ? JOB_NOT_CHANGED : JOB_UNKNOWN;
	}
	if (rc == 1 || (rc < 0 && !job_active(&after))) {
		/* It ended between the first read and the request. */
		oc_appendf(res->details, sizeof(res->details), "%u: already ended (%s)\n", id,
			   after.found ? oc_job_state_name(after.state) : "no longer known to slurmctld");
		slurm_err[0] = '\0';
		return JOB_ENDED;
	}
	char why[160] = "";
	if (rc == 0 && job_took(c, &before, &after, why, sizeof(why))) {
		oc_appendf(res->details, sizeof(res->details), "%u: done (%s)\n", id, why);
		if (c->op == OC_JOB_OP_HOLD && after.state == OC_JOB_RUNNING)
			oc_appendf(res->details, sizeof(res->details),
				   "%u: it is running: the hold keeps it from starting again after a requeue\n", id);
		return JOB_DONE;
	}
	if (rc < 0)
		oc_appendf(res->details, sizeof(res->details), "%u: NOT changed: Slurm: %s\n", id, slurm_err);
	else
		oc_appendf(res->details, sizeof(res->details), "%u: NOT changed: the read-back shows %s\n", id, why);
	if (rc == 0)
		snprintf(slurm_err, errlen, "read-back: %s", why);
	return JOB_NOT_CHANGED;
}

void oc_job_apply(const struct oc_writer *w, const struct oc_action_req *req, struct oc_action_result *res,
		  char *error, size_t errlen)
{
	char err[512];
	if (!w->ops->job_change || !w->ops->read_job) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "refused: this backend has no job actions");
		snprintf(error, errlen, "no job actions");
		return;
	}
	if (req->njobs == 0 || req->njobs > OC_ACTION_MAX_JOBS || oc_plan_check_job_change(&req->job, err, sizeof(err)) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "refused: %.400s", req->njobs ? err : "no job");
		snprintf(error, errlen, "%s", res->summary);
		return;
	}
	size_t done = 0, ended = 0, failed = 0, unknown = 0;
	char first_err[512] = "";
	for (size_t i = 0; i < req->njobs; i++) {
		if (unknown) {
			/* slurmctld stopped answering: the rest is not tried. */
			oc_appendf(res->details, sizeof(res->details), "%u: not tried (no answer from slurmctld)\n",
				   req->jobs[i]);
			failed++;
			continue;
		}
		switch (job_one(w, req->jobs[i], &req->job, res, err, sizeof(err))) {
		case JOB_DONE: done++; break;
		case JOB_ENDED: ended++; break;
		case JOB_UNKNOWN: unknown++; break;
		default: failed++; break;
		}
		if (err[0] && !first_err[0])
			snprintf(first_err, sizeof(first_err), "%s", err);
	}
	size_t n = req->njobs;
	const char *verb = op_past(req->job.op);
	if (unknown) {
		oc_action_unknown_result(res, first_err, error, errlen);
		return;
	}
	if (!failed) {
		res->status = OC_ACTION_OK;
		if (ended == n)
			snprintf(res->summary, sizeof(res->summary), "nothing to do: %s already ended",
				 n == 1 ? "the job had" : "every job had");
		else if (ended)
			snprintf(res->summary, sizeof(res->summary), "%s %zu %s (%zu had already ended)", verb, done,
				 oc_plural(done, "job", "jobs"), ended);
		else
			snprintf(res->summary, sizeof(res->summary), "%s %zu %s: %.300s", verb, done,
				 oc_plural(done, "job", "jobs"), req->job_ids);
		return;
	}
	res->status = done || ended ? OC_ACTION_PARTIAL : OC_ACTION_FAILED;
	snprintf(res->summary, sizeof(res->summary), "%s: %s %zu of %zu %s; %.300s", done || ended ? "partial" : "failed",
		 verb, done + ended, n, oc_plural(n, "job", "jobs"), first_err);
	snprintf(error, errlen, "%s", first_err[0] ? first_err : "read-back differs");
}
