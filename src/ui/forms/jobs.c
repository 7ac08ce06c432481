/* forms/jobs.c: the job actions' forms, on the tagged jobs of the queue
 * view, else the selected one: cancel, signal, hold, release, requeue,
 * requeue and hold (nothing to type but the jobs), time limit, partition,
 * QoS, nice (and the value). A form kind each (form.h); the worker applies
 * the change job by job and reads each back (actions/job_apply.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/plan.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/form.h"
#include "ui/forms.h"

enum { JF_JOBS, JF_VALUE, JF_SCOPE };

static const char *const jobs_labels[] = {"Jobs"};
static const char *const signal_labels[] = {"Jobs", "Signal", "Scope"};
static const char *const limit_labels[] = {"Jobs", "Time limit"};
static const char *const part_labels[] = {"Jobs", "Partition"};
static const char *const qos_labels[] = {"Jobs", "QoS"};
static const char *const nice_labels[] = {"Jobs", "Nice"};
static const char *const prio_labels[] = {"Jobs", "Priority"};

static enum oc_job_op op_of(const struct oc_form_ctx *c)
{
	return *(const enum oc_job_op *)c->state;
}

static const struct oc_job *find_job(const struct oc_snapshot *s, uint32_t id)
{
	for (size_t i = 0; s && s->jobs && i < s->jobs->n; i++)
		if (s->jobs->v[i].job_id == id)
			return &s->jobs->v[i];
	return NULL;
}

/* The job ids typed (commas or blanks between them), each a job of the
 * snapshot, once each, into req. Returns 0, or -1 with err. */
static int parse_jobs(const struct oc_form_ctx *c, const char *text, struct oc_action_req *req, char *err,
		      size_t errlen)
{
	req->njobs = 0;
	req->job_ids[0] = '\0';
	const char *p = text;
	while (*p) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		char *end;
		errno = 0;
		unsigned long v = strtoul(p, &end, 10);
		size_t wl = strcspn(p, ", \t");
		if (end != p + wl || *p < '0' || *p > '9' || errno || v == 0 || v >= 0xfffffffeUL) {
			snprintf(err, errlen, "Jobs: \"%.*s\" is not a job id", (int)(wl < 40 ? wl : 40), p);
			return -1;
		}
		p += wl;
		if (!find_job(c->snap, (uint32_t)v)) {
			snprintf(err, errlen, "Jobs: job %lu is not in the queue (ended, or no such job)", v);
			return -1;
		}
		bool seen = false;
		for (size_t i = 0; i < req->njobs && !seen; i++)
			seen = req->jobs[i] == (uint32_t)v;
		if (seen)
			continue;
		if (req->njobs == OC_ACTION_MAX_JOBS) {
			snprintf(err, errlen, "Jobs: at most %d jobs at a time", OC_ACTION_MAX_JOBS);
			return -1;
		}
		req->jobs[req->njobs++] = (uint32_t)v;
		oc_appendf(req->job_ids, sizeof(req->job_ids), "%s%lu", req->njobs > 1 ? "," : "", v);
	}
	if (!req->njobs) {
		snprintf(err, errlen, "Jobs: give one or more job ids (Space tags jobs in the queue view)");
		return -1;
	}
	return 0;
}

/* The change from the value fields. Returns 0, or -1 with err. */
static int parse_change(const struct oc_form_ctx *c, char *const *v, struct oc_job_change *ch, char *err,
			size_t errlen)
{
	memset(ch, 0, sizeof(*ch));
	ch->op = op_of(c);
	char why[256] = "";
	switch (ch->op) {
	case OC_JOB_OP_SIGNAL: {
		if (oc_plan_parse_signal(v[JF_VALUE], &ch->signal, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "Signal: %s", why);
			return -1;
		}
		const char *sc = v[JF_SCOPE];
		if (strcmp(sc, "batch") == 0 || strcmp(sc, "b") == 0)
			ch->batch_only = true;
		else if (strcmp(sc, "full") != 0 && strcmp(sc, "f") != 0) {
			snprintf(err, errlen, "Scope: batch (the batch shell only) or full (every step and the batch shell)");
			return -1;
		}
		break;
	}
	case OC_JOB_OP_TIME_LIMIT: {
		long minutes;
		if (oc_plan_parse_duration(v[JF_VALUE], &minutes, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "Time limit: %s", why);
			return -1;
		}
		ch->minutes = minutes < 0 ? OC_NONE : (uint32_t)minutes;
		break;
	}
	case OC_JOB_OP_PARTITION:
	case OC_JOB_OP_QOS: snprintf(ch->name, sizeof(ch->name), "%s", v[JF_VALUE]); break;
	case OC_JOB_OP_PRIORITY: {
		char *end;
		errno = 0;
		unsigned long p = strtoul(v[JF_VALUE], &end, 10);
		if (!v[JF_VALUE][0] || v[JF_VALUE][0] == '-' || *end || errno || p == 0 || p >= 0xfffffffeUL) {
			snprintf(err, errlen, "Priority: a whole number from 1 to 4294967293 (h holds a job)");
			return -1;
		}
		ch->priority = (uint32_t)p;
		break;
	}
	case OC_JOB_OP_NICE: {
		char *end;
		errno = 0;
		long n = strtol(v[JF_VALUE], &end, 10);
		if (!v[JF_VALUE][0] || *end || errno || n < -2147483645L || n > 2147483645L) {
			snprintf(err, errlen, "Nice: a whole number from -2147483645 to 2147483645 (higher: lower priority)");
			return -1;
		}
		ch->nice = (int)n;
		break;
	}
	default: break;
	}
	if (oc_plan_check_job_change(ch, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	if (ch->op == OC_JOB_OP_PARTITION &&
	    !oc_partition_visible(c->snap->partitions, ch->name, true)) {
		snprintf(err, errlen, "Partition: no partition %s on this cluster", ch->name);
		return -1;
	}
	return 0;
}

/* Notes on what a change does to these jobs (a hold on a running job). */
static void job_notes(const struct oc_form_ctx *c, const struct oc_action_req *req, char *text, size_t textlen)
{
	size_t shown = 0;
	for (size_t i = 0; i < req->njobs; i++) {
		const struct oc_job *j = find_job(c->snap, req->jobs[i]);
		if (!j)
			continue;
		if (shown++ < 8)
			oc_appendf(text, textlen, "  %u  %-8s %-10s %-3s %s\n", j->job_id, j->user ? j->user : "?",
				   j->partition ? j->partition : "", oc_job_state_compact(j), j->name ? j->name : "");
		if (j->state == OC_JOB_RUNNING && req->job.op == OC_JOB_OP_HOLD)
			oc_appendf(text, textlen,
				   "  job %u is running: a hold does not stop it; it keeps it from starting again after a requeue\n",
				   j->job_id);
		if (j->state == OC_JOB_PENDING && (req->job.op == OC_JOB_OP_REQUEUE || req->job.op == OC_JOB_OP_REQUEUE_HOLD))
			oc_appendf(text, textlen, "  job %u is pending: Slurm requeues running or ended batch jobs only\n",
				   j->job_id);
	}
	if (shown > 8)
		oc_appendf(text, textlen, "  ... and %zu more\n", shown - 8);
}

/* The first line of a confirmation: the verb once and the count with its
 * noun ("Hold 2 jobs"), not the form's title followed by the count. */
static void confirm_head(enum oc_job_op op, size_t n, char *text, size_t textlen)
{
	static const struct {
		const char *verb, *after;
	} heads[OC_JOB_OP_COUNT] = {
		[OC_JOB_OP_CANCEL] = {"Cancel", ""},
		[OC_JOB_OP_SIGNAL] = {"Signal", ""},
		[OC_JOB_OP_HOLD] = {"Hold", ""},
		[OC_JOB_OP_RELEASE] = {"Release", ""},
		[OC_JOB_OP_REQUEUE] = {"Requeue", ""},
		[OC_JOB_OP_REQUEUE_HOLD] = {"Requeue and hold", ""},
		[OC_JOB_OP_TIME_LIMIT] = {"Change the time limit of", ""},
		[OC_JOB_OP_PARTITION] = {"Move", " to another partition"},
		[OC_JOB_OP_QOS] = {"Change the QoS of", ""},
		[OC_JOB_OP_NICE] = {"Change the nice value of", ""},
		[OC_JOB_OP_PRIORITY] = {"Change the priority of", ""},
	};
	size_t i = (unsigned)op < OC_JOB_OP_COUNT ? (size_t)op : OC_JOB_OP_CANCEL;
	oc_appendf(text, textlen, "%s %zu %s%s\n", heads[i].verb, n, oc_plural(n, "job", "jobs"), heads[i].after);
}

static int plan_jobs(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
		     size_t textlen, char *err, size_t errlen)
{
	if (parse_jobs(c, v[JF_JOBS], req, err, errlen) < 0 || parse_change(c, v, &req->job, err, errlen) < 0)
		return -1;
	req->kind = OC_ACTION_JOB;
	char cmd[sizeof(req->command)];
	oc_plan_job_change_ids(req->job_ids, &req->job, cmd, sizeof(cmd));
	snprintf(req->command, sizeof(req->command), "%s", cmd);
	confirm_head(req->job.op, req->njobs, text, textlen);
	job_notes(c, req, text, textlen);
	oc_appendf(text, textlen, "\nEquivalent command:\n  %s\n", cmd);
	return 0;
}

/* The tags were the targets: cleared after a successful action. */
static void applied(struct oc_app *app, const struct oc_action_req *req, const struct oc_action_result *res)
{
	(void)req;
	if (res->status == OC_ACTION_OK)
		oc_tagset_clear(&app->job_tags);
}

static int part_choices(const struct oc_form_ctx *c, const char ***names, size_t *n, char *err, size_t errlen)
{
	const struct oc_partitions *t = c->snap ? c->snap->partitions : NULL;
	if (!t || !t->n) {
		snprintf(err, errlen, "Partition: the partitions are not loaded");
		return -1;
	}
	*names = calloc(t->n, sizeof(**names));
	if (!*names) {
		snprintf(err, errlen, "Partition: out of memory");
		return -1;
	}
	for (size_t i = 0; i < t->n; i++)
		(*names)[i] = t->v[i].name;
	*n = t->n;
	return 0;
}

#define HINT_JOBS "Enter review  Tab next field  Esc cancel"
#define JOB_FORM(t, labels_, choose, choices_)                                                        \
	{                                                                                             \
		.title = t, .nfields = (int)(sizeof(labels_) / sizeof(labels_[0])), .labels = labels_, \
		.reason_field = -1, .hint = HINT_JOBS, .choose_field = choose, .choices = choices_,   \
		.plan = plan_jobs, .applied = applied,                                                \
	}
const struct oc_form_kind oc_form_job_cancel = JOB_FORM("Cancel jobs", jobs_labels, -1, NULL);
const struct oc_form_kind oc_form_job_signal = JOB_FORM("Signal jobs", signal_labels, -1, NULL);
const struct oc_form_kind oc_form_job_hold = JOB_FORM("Hold jobs", jobs_labels, -1, NULL);
const struct oc_form_kind oc_form_job_release = JOB_FORM("Release jobs", jobs_labels, -1, NULL);
const struct oc_form_kind oc_form_job_requeue = JOB_FORM("Requeue jobs", jobs_labels, -1, NULL);
const struct oc_form_kind oc_form_job_requeue_hold = JOB_FORM("Requeue and hold jobs", jobs_labels, -1, NULL);
const struct oc_form_kind oc_form_job_time_limit = JOB_FORM("Change the time limit", limit_labels, -1, NULL);
const struct oc_form_kind oc_form_job_partition = JOB_FORM("Move jobs to a partition", part_labels, 1, part_choices);
const struct oc_form_kind oc_form_job_qos = JOB_FORM("Change the QoS", qos_labels, 1, oc_form_qos_choices);
const struct oc_form_kind oc_form_job_nice = JOB_FORM("Change the nice value", nice_labels, -1, NULL);
const struct oc_form_kind oc_form_job_priority = JOB_FORM("Change the priority", prio_labels, -1, NULL);

static const struct oc_form_kind *const kinds[OC_JOB_OP_COUNT] = {
	[OC_JOB_OP_CANCEL] = &oc_form_job_cancel,
	[OC_JOB_OP_SIGNAL] = &oc_form_job_signal,
	[OC_JOB_OP_HOLD] = &oc_form_job_hold,
	[OC_JOB_OP_RELEASE] = &oc_form_job_release,
	[OC_JOB_OP_REQUEUE] = &oc_form_job_requeue,
	[OC_JOB_OP_REQUEUE_HOLD] = &oc_form_job_requeue_hold,
	[OC_JOB_OP_TIME_LIMIT] = &oc_form_job_time_limit,
	[OC_JOB_OP_PARTITION] = &oc_form_job_partition,
	[OC_JOB_OP_QOS] = &oc_form_job_qos,
	[OC_JOB_OP_NICE] = &oc_form_job_nice,
	[OC_JOB_OP_PRIORITY] = &oc_form_job_priority,
};

static const struct oc_form_kind *kind_of(enum oc_job_op op)
{
	return (unsigned)op < OC_JOB_OP_COUNT ? kinds[op] : &oc_form_job_cancel;
}

/* The tagged jobs (in tag order), else the selected job: "113,114". */
static void default_jobs(struct oc_app *app, char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; i < app->job_tags.n; i++)
		oc_appendf(out, len, "%s%s", i ? "," : "", app->job_tags.keys[i]);
	char buf[32];
	const char *one = out[0] ? NULL : oc_app_selected(app, OC_SEL_JOB, buf, sizeof(buf));
	if (one)
		snprintf(out, len, "%s", one);
}

void oc_dialog_open_job(struct oc_app *app, enum oc_job_op op, const char *value)
{
	if ((unsigned)op >= OC_JOB_OP_COUNT)
		return;
	enum oc_job_op *st = malloc(sizeof(*st));
	if (!st) {
		oc_app_message(app, true, " out of memory");
		return;
	}
	*st = op;
	char jobs[12 * OC_ACTION_MAX_JOBS];
	default_jobs(app, jobs, sizeof(jobs));
	if (!jobs[0]) {
		free(st);
		oc_app_message(app, true, " no job: select or tag jobs in the queue view (2) first");
		return;
	}
	const char *v = value ? value : "";
	if (op == OC_JOB_OP_SIGNAL && !v[0])
		v = "USR1";
	const char *values[] = {jobs, v, "batch"};
	const struct oc_form_kind *k = kind_of(op);
	/* Nothing to type but the jobs: the cursor on them; else on the value. */
	oc_form_open(app, k, NULL, values, st, k->nfields > 1 ? JF_VALUE : JF_JOBS, true);
}
