/* jobdetail.c: what the detail panel (detail.c) shows of one job: from
 * the snapshot's queue who, where, its state and Slurm's reason explained
 * in words (core/jobexplain.c), the expected start, times, nodes and
 * GPUs; from the job's own report (s->jobinfo, loaded while the panel is
 * open: OC_REPORT_JOB) its folder, command, output paths, GPUs per node,
 * dependency, the priority factors of a pending job, the parts of its
 * array or het job, its submit line and its steps. Enter on a job in the
 * queue view opens it; the job keys (c, K, h, e, Q, T) act on it there.
 * A job that is no longer in the queue is shown from the history
 * (s->history: state, exit code and signal, elapsed, folder, submit line)
 * with its steps, as Enter in the history view opens it. The lines are
 * drawn on a pad and copied into the panel from the line scrolled to
 * (PgUp/PgDn), so a long job fits an 80x24 screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/history.h"
#include "core/jobinfo.h"
#include "core/jobexplain.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"

static const struct oc_job *find_job(const struct oc_snapshot *s, uint32_t id)
{
	for (size_t i = 0; s && s->jobs && i < s->jobs->n; i++)
		if (s->jobs->v[i].job_id == id)
			return &s->jobs->v[i];
	return NULL;
}

static enum oc_role state_role(const struct oc_job *j)
{
	if (j->state == OC_JOB_RUNNING)
		return OC_ROLE_OK;
	if (j->state == OC_JOB_PENDING)
		return (j->flags & (OC_JF_LIMITED | OC_JF_HELD)) ? OC_ROLE_WARN : OC_ROLE_NORMAL;
	return OC_ROLE_DIM;
}

/* Who, where, state and why, from line y. Returns the next line. */
static int job_head_lines(struct oc_app *app, WINDOW *w, int y, int last, int width, const struct oc_job *j)
{
	char buf[1024], id[32];
	oc_cells_job_id(j, id, sizeof(id));
	snprintf(buf, sizeof(buf), "%s  %s", id, j->name ? j->name : "");
	y = oc_detail_field(w, y, width, "Job", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%s   account %s", j->user ? j->user : "?", j->account ? j->account : "-");
	y = oc_detail_field(w, y, width, "User", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%s   QoS %s", j->partition ? j->partition : "-", j->qos ? j->qos : "-");
	y = oc_detail_field(w, y, width, "Partition", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%s%s%s", oc_job_state_name(j->state), j->reason ? "   reason " : "",
		 j->reason ? j->reason : "");
	y = oc_detail_field(w, y, width, "State", buf, oc_theme_attr(state_role(j)));
	char why[1024];
	oc_job_explain(app->snap, j, app->now, why, sizeof(why));
	if (why[0])
		y = oc_detail_wrapped(w, y, last, width, "Why", why, oc_theme_attr(state_role(j)));
	return y;
}

/* Times, size and priority, from line y. Returns the next line. */
static int job_body_lines(struct oc_app *app, WINDOW *w, int y, int width, const struct oc_job *j)
{
	char buf[512], t[96], lim[32];
	oc_detail_when(j->submit_time, app->now, t, sizeof(t));
	y = oc_detail_field(w, y, width, "Submitted", t, A_NORMAL);
	if (j->state == OC_JOB_PENDING) {
		if (j->start_time > app->now) {
			char stamp[32];
			struct tm tm;
			localtime_r(&j->start_time, &tm);
			strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
			y = oc_detail_field(w, y, width, "Expected", stamp, A_NORMAL);
		} else {
			y = oc_detail_field(w, y, width, "Expected", "no estimate from the scheduler yet", A_NORMAL);
		}
	} else {
		oc_detail_when(j->start_time, app->now, t, sizeof(t));
		y = oc_detail_field(w, y, width, "Started", t, A_NORMAL);
	}
	char run[32];
	oc_format_duration(oc_cells_job_run_seconds(j, app->now), run, sizeof(run));
	snprintf(buf, sizeof(buf), "%s of %s", run, oc_format_minutes(j->time_limit_min, lim, sizeof(lim)));
	y = oc_detail_field(w, y, width, "Time", buf, A_NORMAL);
	uint32_t per = j->num_nodes ? j->gpus / j->num_nodes : j->gpus;
	snprintf(buf, sizeof(buf), "%u %s, %u %s, %u %s (%u per node)", j->num_nodes,
		 oc_plural(j->num_nodes, "node", "nodes"), j->num_cpus, oc_plural(j->num_cpus, "CPU", "CPUs"), j->gpus,
		 oc_plural(j->gpus, "GPU", "GPUs"), per);
	y = oc_detail_field(w, y, width, "Size", buf, A_NORMAL);
	y = oc_detail_field(w, y, width, "Nodes", j->nodes ? j->nodes : "-", A_NORMAL);
	snprintf(buf, sizeof(buf), "%u%s", j->priority, j->priority == 0 ? " (held)" : "");
	y = oc_detail_field(w, y, width, "Priority", buf, A_NORMAL);
	return y;
}

static const struct oc_hjob *find_ended(const struct oc_snapshot *s, uint32_t id)
{
	for (size_t i = 0; s && s->history && i < s->history->n; i++)
		if (s->history->v[i].job_id == id)
			return &s->history->v[i];
	return NULL;
}

/* A job that ended, as slurmdbd has it (sacct's fields), from line 1. */
static int ended_lines(struct oc_app *app, WINDOW *w, int y, int last, int width, const struct oc_hjob *j)
{
	char buf[1024], id[32], t[96], el[32], lim[32];
	oc_hjob_id_text(j, id, sizeof(id));
	snprintf(buf, sizeof(buf), "%s  %s", id, j->name ? j->name : "");
	y = oc_detail_field(w, y, width, "Job", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%s   account %s", j->user ? j->user : "?", j->account ? j->account : "-");
	y = oc_detail_field(w, y, width, "User", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%s   QoS %s", j->partition ? j->partition : "-", j->qos ? j->qos : "-");
	y = oc_detail_field(w, y, width, "Partition", buf, A_NORMAL);
	bool bad = j->state != OC_JOB_COMPLETE && j->state != OC_JOB_CANCELLED;
	snprintf(buf, sizeof(buf), "%s   exit code %d, signal %d", oc_hjob_state_name(j), j->exit_code, j->signal);
	y = oc_detail_field(w, y, width, "State", buf, oc_theme_attr(bad ? OC_ROLE_BAD : OC_ROLE_DIM));
	oc_detail_when(j->submit_time, app->now, t, sizeof(t));
	y = oc_detail_field(w, y, width, "Submitted", t, A_NORMAL);
	oc_detail_when(j->start_time, app->now, t, sizeof(t));
	y = oc_detail_field(w, y, width, "Started", t, A_NORMAL);
	oc_detail_when(j->end_time, app->now, t, sizeof(t));
	y = oc_detail_field(w, y, width, "Ended", t, A_NORMAL);
	oc_elapsed_text(j->elapsed_s, el, sizeof(el));
	snprintf(buf, sizeof(buf), "%s of %s", el, oc_format_minutes(j->time_limit_min, lim, sizeof(lim)));
	y = oc_detail_field(w, y, width, "Elapsed", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%u %s, %u %s, %u %s", j->num_nodes, oc_plural(j->num_nodes, "node", "nodes"),
		 j->num_cpus, oc_plural(j->num_cpus, "CPU", "CPUs"), j->gpus, oc_plural(j->gpus, "GPU", "GPUs"));
	y = oc_detail_field(w, y, width, "Size", buf, A_NORMAL);
	y = oc_detail_field(w, y, width, "Nodes", j->nodes ? j->nodes : "-", A_NORMAL);
	if (j->requeues != OC_NONE) {
		snprintf(buf, sizeof(buf), "%u", (unsigned)j->requeues);
		y = oc_detail_field(w, y, width, "Requeued", buf, A_NORMAL);
	}
	y = oc_detail_field(w, y, width, "Folder", j->work_dir ? j->work_dir : "-", A_NORMAL);
	return oc_detail_wrapped(w, y, last, width, "Submitted as", j->submit_line ? j->submit_line : "-", A_NORMAL);
}

/* The report of job id when it is the one loaded, else NULL. */
static const struct oc_jobinfo *info_of(const struct oc_snapshot *s, uint32_t id)
{
	return s && s->jobinfo && s->jobinfo->job_id == id ? s->jobinfo : NULL;
}

static int note_line(WINDOW *w, int y, int last, int width, const char *label, const char *text)
{
	return oc_detail_wrapped(w, y, last, width, label, text, oc_theme_attr(OC_ROLE_DIM));
}

/* What slurmctld has beyond the queue's table: paths, command, GPUs per
 * node, dependency. */
static int live_lines(WINDOW *w, int y, int last, int width, const struct oc_jobinfo *t)
{
	if (t->tres_per_node)
		y = oc_detail_field(w, y, width, "Per node", t->tres_per_node, A_NORMAL);
	if (t->batch_host)
		y = oc_detail_field(w, y, width, "Batch host", t->batch_host, A_NORMAL);
	if (t->dependency)
		y = oc_detail_field(w, y, width, "Dependency", t->dependency, A_NORMAL);
	if (t->restarts != OC_NONE) {
		char n[32];
		snprintf(n, sizeof(n), "%u %s", (unsigned)t->restarts, oc_plural(t->restarts, "time", "times"));
		y = oc_detail_field(w, y, width, "Requeued", n, t->restarts ? oc_theme_attr(OC_ROLE_WARN) : A_NORMAL);
	}
	y = oc_detail_field(w, y, width, "Folder", t->work_dir ? t->work_dir : "-", A_NORMAL);
	y = oc_detail_wrapped(w, y, last, width, "Command", t->command ? t->command : "-", A_NORMAL);
	y = oc_detail_field(w, y, width, "Stdout", t->std_out ? t->std_out : "-", A_NORMAL);
	y = oc_detail_field(w, y, width, "Stderr", t->std_err ? t->std_err : "-", A_NORMAL);
	if (t->std_in && strcmp(t->std_in, "/dev/null") != 0)
		y = oc_detail_field(w, y, width, "Stdin", t->std_in, A_NORMAL);
	return y;
}

/* The priority factors of a pending job, one line per partition, as sprio
 * prints them (weighted). */
static int prio_lines(WINDOW *w, int y, int last, int width, const struct oc_jobinfo *t)
{
	char buf[512];
	if (!t->nprio)
		return note_line(w, y, last, width, "Factors", t->prio_err[0] ? t->prio_err : "-");
	for (size_t i = 0; i < t->nprio && y <= last; i++) {
		const struct oc_prio *p = &t->prio[i];
		snprintf(buf, sizeof(buf),
			 "%s: age %.0f, fairshare %.0f, jobsize %.0f, partition %.0f, qos %.0f, assoc %.0f, site %d, "
			 "nice %d%s%s",
			 p->partition ? p->partition : "-", p->age, p->fairshare, p->jobsize, p->part, p->qos, p->assoc,
			 p->site, p->nice, p->tres_text ? ", tres " : "", p->tres_text ? p->tres_text : "");
		y = oc_detail_wrapped(w, y, last, width, i ? "" : "Factors", buf, A_NORMAL);
	}
	return y;
}

/* The other records of its array or het job, one line each. */
static int part_lines(WINDOW *w, int y, int last, int width, const struct oc_jobinfo *t)
{
	if (t->nparts < 2)
		return y;
	char buf[512], id[48];
	snprintf(buf, sizeof(buf), "%zu %s", t->nparts, oc_plural(t->nparts, "record", "records"));
	y = oc_detail_field(w, y, width, t->het_job_id ? "Het job" : "Array", buf, A_NORMAL);
	/* A large array lists its first records (and always the job's own). */
	size_t shown = 0, max = 12;
	for (size_t i = 0; i < t->nparts && y <= last; i++) {
		const struct oc_jpart *p = &t->parts[i];
		if (shown >= max && p->job_id != t->job_id)
			continue;
		shown++;
		if (p->array_tasks)
			snprintf(id, sizeof(id), "%u_[%s]", (unsigned)(t->array_job_id ? t->array_job_id : p->job_id),
				 p->array_tasks);
		else if (p->array_task_id != OC_NONE)
			snprintf(id, sizeof(id), "%u_%u", (unsigned)t->array_job_id, (unsigned)p->array_task_id);
		else if (p->het_job_offset != OC_NONE)
			snprintf(id, sizeof(id), "%u+%u", (unsigned)t->het_job_id, (unsigned)p->het_job_offset);
		else
			snprintf(id, sizeof(id), "%u", (unsigned)p->job_id);
		snprintf(buf, sizeof(buf), "%c %-14s %-10s %-8s %u %s  %s", p->job_id == t->job_id ? '>' : ' ', id,
			 oc_job_state_name(p->state), p->partition ? p->partition : "-", (unsigned)p->gpus,
			 oc_plural(p->gpus, "GPU", "GPUs"), p->nodes ? p->nodes : p->reason ? p->reason : "");
		y = oc_detail_field(w, y, width, "", buf, A_NORMAL);
	}
	if (shown < t->nparts) {
		snprintf(buf, sizeof(buf), "  ... %zu more (the queue view lists them)", t->nparts - shown);
		y = oc_detail_field(w, y, width, "", buf, oc_theme_attr(OC_ROLE_DIM));
	}
	return y;
}

/* slurmdbd's steps of the job, as sacct lists them. */
static int step_lines(WINDOW *w, int y, int last, int width, const struct oc_jobinfo *t)
{
	if (!t->db)
		return note_line(w, y, last, width, "Steps", t->db_err[0] ? t->db_err : "-");
	if (!t->nsteps)
		return oc_detail_field(w, y, width, "Steps", "none recorded", oc_theme_attr(OC_ROLE_DIM));
	char buf[512], el[32];
	for (size_t i = 0; i < t->nsteps && y <= last; i++) {
		const struct oc_jstep *p = &t->steps[i];
		oc_elapsed_text(p->elapsed_s, el, sizeof(el));
		snprintf(buf, sizeof(buf), "%-11s %-10s %3d:%-3d %s  %s  %s", p->id, oc_job_state_name(p->state),
			 p->exit_code, p->signal, el, p->name ? p->name : "", p->nodes ? p->nodes : "");
		y = oc_detail_field(w, y, width, i ? "" : "Steps", buf,
				    p->state == OC_JOB_COMPLETE || p->state == OC_JOB_RUNNING ? A_NORMAL
												: oc_theme_attr(OC_ROLE_WARN));
	}
	return y;
}

/* The job report's lines (or why there are none yet), from line y. */
static int report_lines(struct oc_app *app, WINDOW *w, int y, int last, int width, uint32_t id, bool live)
{
	const struct oc_snapshot *s = app->snap;
	const struct oc_jobinfo *t = info_of(s, id);
	if (!t) {
		const char *why = s && s->jobinfo_status.error[0] ? s->jobinfo_status.error : "loading the job's record...";
		return note_line(w, y, last, width, "", why);
	}
	if (live) {
		if (t->live)
			y = live_lines(w, y, last, width, t);
		else if (t->live_err[0])
			y = note_line(w, y, last, width, "slurmctld", t->live_err);
		const struct oc_jpart *self = oc_jobinfo_self(t);
		if (self && self->state == OC_JOB_PENDING)
			y = prio_lines(w, y, last, width, t);
		if (t->db && t->submit_line)
			y = oc_detail_wrapped(w, y, last, width, "Submitted as", t->submit_line, A_NORMAL);
	}
	y = part_lines(w, y, last, width, t);
	return step_lines(w, y, last, width, t);
}

/* The lines of job id, from line 0 of pad; returns how many. */
static int job_lines(struct oc_app *app, WINDOW *pad, int last, int width, uint32_t id)
{
	const struct oc_job *j = find_job(app->snap, id);
	/* A job that ended (slurmctld keeps it MinJobAge seconds) reads
	 * better from slurmdbd's record: exit code, elapsed, submit line. */
	const struct oc_hjob *e = !j || !oc_job_active(j) ? find_ended(app->snap, id) : NULL;
	if (e) {
		int y = ended_lines(app, pad, 0, last, width, e);
		return report_lines(app, pad, y, last, width, id, false);
	}
	if (!j) {
		int y = oc_detail_field(pad, 0, width, "", "this job has left the queue (it ended; the history view, 9, lists it)",
					oc_theme_attr(OC_ROLE_DIM));
		return report_lines(app, pad, y, last, width, id, false);
	}
	int y = job_head_lines(app, pad, 0, last, width, j);
	y = job_body_lines(app, pad, y, width, j);
	y = report_lines(app, pad, y, last, width, id, true);
	return oc_detail_field(pad, y, width, "Keys", "c cancel  K signal  h hold  e release  Q requeue  T time limit",
			       oc_theme_attr(OC_ROLE_DIM));
}

#define JOB_PAD_LINES 400

void oc_job_detail_fill(struct oc_app *app, WINDOW *w, int h, int width, uint32_t id, int *scroll)
{
	werase(w);
	char title[64];
	snprintf(title, sizeof(title), " job %u ", id);
	oc_detail_frame(w, width, title);
	WINDOW *pad = newpad(JOB_PAD_LINES, width);
	if (pad) {
		oc_detail_pad_show(w, h, width, pad, job_lines(app, pad, JOB_PAD_LINES - 1, width, id), scroll);
		delwin(pad);
	}
}
