/* jobdetail.c: what the detail panel (detail.c) shows of one job, from
 * the snapshot: who, where, its state and Slurm's reason explained in
 * words (core/jobexplain.c), the expected start, times, nodes and GPUs.
 * Enter on a job in the queue view opens it; the job keys (c, K, h, e, Q,
 * T) act on it there. A job that is no longer in the queue is shown from
 * the history (s->history: state, exit code and signal, elapsed, folder,
 * submit line), as Enter in the history view opens it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/history.h"
#include "core/jobexplain.h"
#include "core/state.h"
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
	snprintf(buf, sizeof(buf), "%u node%s, %u CPUs, %u GPUs (%u per node)", j->num_nodes, j->num_nodes == 1 ? "" : "s",
		 j->num_cpus, j->gpus, per);
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
static void ended_lines(struct oc_app *app, WINDOW *w, int h, int width, const struct oc_hjob *j)
{
	char buf[1024], id[32], t[96], el[32], lim[32];
	oc_hjob_id_text(j, id, sizeof(id));
	snprintf(buf, sizeof(buf), "%s  %s", id, j->name ? j->name : "");
	int y = oc_detail_field(w, 1, width, "Job", buf, A_NORMAL);
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
	snprintf(buf, sizeof(buf), "%u node%s, %u CPUs, %u GPUs", j->num_nodes, j->num_nodes == 1 ? "" : "s",
		 j->num_cpus, j->gpus);
	y = oc_detail_field(w, y, width, "Size", buf, A_NORMAL);
	y = oc_detail_field(w, y, width, "Nodes", j->nodes ? j->nodes : "-", A_NORMAL);
	if (j->requeues != OC_NONE) {
		snprintf(buf, sizeof(buf), "%u", (unsigned)j->requeues);
		y = oc_detail_field(w, y, width, "Requeued", buf, A_NORMAL);
	}
	y = oc_detail_field(w, y, width, "Folder", j->work_dir ? j->work_dir : "-", A_NORMAL);
	if (y < h - 1)
		oc_detail_wrapped(w, y, h - 2, width, "Submitted as", j->submit_line ? j->submit_line : "-", A_NORMAL);
}

void oc_job_detail_fill(struct oc_app *app, WINDOW *w, int h, int width, uint32_t id)
{
	const struct oc_job *j = find_job(app->snap, id);
	werase(w);
	box(w, 0, 0);
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	char title[64];
	snprintf(title, sizeof(title), " job %u ", id);
	oc_put_text(w, title, width - 20, false, false);
	wattrset(w, A_NORMAL);
	wmove(w, 0, width - 15 > 0 ? width - 15 : 0);
	oc_put_text(w, " Esc closes ", 12, false, false);
	/* A job that ended (slurmctld keeps it MinJobAge seconds) reads
	 * better from slurmdbd's record: exit code, elapsed, submit line. */
	const struct oc_hjob *e = !j || !oc_job_active(j) ? find_ended(app->snap, id) : NULL;
	if (e) {
		ended_lines(app, w, h, width, e);
		return;
	}
	if (!j) {
		oc_detail_field(w, 2, width, "", "this job has left the queue (it ended; the history view, 9, lists it)",
				oc_theme_attr(OC_ROLE_DIM));
		return;
	}
	int y = job_head_lines(app, w, 1, h - 10, width, j);
	y = job_body_lines(app, w, y, width, j);
	if (y < h - 1)
		oc_detail_field(w, y, width, "Keys", "c cancel  K signal  h hold  e release  Q requeue  T time limit",
				oc_theme_attr(OC_ROLE_DIM));
}
