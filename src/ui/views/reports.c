/* reports.c: the two views of what slurmdbd recorded in a window (default
 * the last 24 hours), loaded by the collector while the view is on screen
 * (every minute, and on r), never on the UI thread:
 * - history: the jobs that ended, what `sacct -a -X` lists; Enter opens
 *   the job's detail;
 * - events: when each node went down or drained, why, who set it and
 *   until when, what `sacctmgr show event` lists; Enter opens the node.
 * `:history SINCE [UNTIL]` and `:events SINCE [UNTIL]` change the window
 * (sacct's time forms). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "core/ctl.h"
#include "core/sched.h"
#include "core/strbuf.h"
#include "core/timespec.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/ui.h"
#include "ui/views.h"

struct hpriv {
	char since[48], until[48];
};

/* What a view needs of its report table, whichever it is. */
struct rep {
	bool loaded;          /* a table for this view's window is there */
	size_t n;
	bool enabled;
	double load_s;
	size_t skipped;
	const struct oc_part_status *st;
	const char *what;     /* "jobs ended", "node events" */
	const char *what1;    /* the same of one: "job ended", "node event" */
};

static struct rep rep_of(const struct oc_listview *lv, enum oc_report kind)
{
	const struct hpriv *p = lv->priv;
	const struct oc_snapshot *s = lv->snap;
	struct rep r = {0};
	r.what = kind == OC_REPORT_EVENTS ? "node events" : "jobs ended";
	r.what1 = kind == OC_REPORT_EVENTS ? "node event" : "job ended";
	if (!s)
		return r;
	const struct oc_report_info *info = NULL;
	if (kind == OC_REPORT_EVENTS) {
		r.st = &s->ev_status;
		info = s->events ? &s->events->r : NULL;
		r.n = s->events ? s->events->n : 0;
	} else {
		r.st = &s->hist_status;
		info = s->history ? &s->history->r : NULL;
		r.n = s->history ? s->history->n : 0;
	}
	if (info) {
		r.enabled = info->enabled;
		r.load_s = info->load_s;
		r.skipped = info->skipped;
	}
	r.loaded = info && strcmp(info->since_spec, p->since) == 0 && strcmp(info->until_spec, p->until) == 0;
	return r;
}

static void *priv_new(void)
{
	struct hpriv *p = calloc(1, sizeof(*p));
	if (p)
		snprintf(p->since, sizeof(p->since), "%s", OC_HISTORY_DEFAULT_SINCE);
	return p;
}

static void priv_free(void *p)
{
	free(p);
}

static const struct oc_hjob *hjob(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->history->v[item];
}

static int cmp_time(time_t a, time_t b)
{
	return a < b ? -1 : a > b;
}

static int c_end_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(hjob(lv, a)->end_time, hjob(lv, b)->end_time);
}

static int c_start_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(hjob(lv, a)->start_time, hjob(lv, b)->start_time);
}

static int c_id_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(hjob(lv, a)->job_id, hjob(lv, b)->job_id);
}

static int c_elapsed_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(hjob(lv, a)->elapsed_s, hjob(lv, b)->elapsed_s);
}

static int c_gpus_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(hjob(lv, a)->gpus, hjob(lv, b)->gpus);
}

/* Red for what an admin looks into, dim for what went as planned. */
static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	const struct oc_hjob *j = hjob(lv, item);
	if (j->flags & OC_JF_REQUEUED)
		return OC_ROLE_WARN;
	switch (j->state) {
	case OC_JOB_COMPLETE: return OC_ROLE_OK;
	case OC_JOB_CANCELLED: return OC_ROLE_DIM;
	case OC_JOB_TIMEOUT:
	case OC_JOB_PREEMPTED:
	case OC_JOB_DEADLINE: return OC_ROLE_WARN;
	default: return OC_ROLE_BAD;
	}
}

static enum oc_role r_exit(struct oc_listview *lv, uint32_t item)
{
	const struct oc_hjob *j = hjob(lv, item);
	return j->exit_code || j->signal ? OC_ROLE_BAD : OC_ROLE_NORMAL;
}

/* The columns are core/columns.c's oc_cat_history. */
static const struct oc_col_ui cols[] = {
	{"end", c_end_cmp, NULL, NULL, NULL},	  {"start", c_start_cmp, NULL, NULL, NULL}, {"jobid", c_id_cmp, NULL, NULL, NULL},
	{"elapsed", c_elapsed_cmp, NULL, NULL, NULL}, {"gpus", c_gpus_cmp, NULL, NULL, NULL},	{"state", NULL, r_state, NULL, NULL},
	{"exit", NULL, r_exit, NULL, NULL},
};

/* While the view is on screen the collector loads its window. */
static void visible(struct oc_listview *lv)
{
	struct hpriv *p = lv->priv;
	if (lv->app->hooks->set_report)
		lv->app->hooks->set_report(lv->app->hooks->ctx, lv->def->report, p->since, p->until);
}

/* The rows of the report table (pure: the table and the window decide). */
static size_t collect_report(struct oc_listview *lv, const struct oc_snapshot *s, enum oc_report kind)
{
	(void)s;
	struct rep r = rep_of(lv, kind);
	if (!r.loaded || oc_listview_reserve(lv, r.n) < 0)
		return 0; /* another window's rows, or none yet */
	for (size_t i = 0; i < r.n; i++)
		lv->items[i] = (uint32_t)i;
	return r.n;
}

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	return collect_report(lv, s, OC_REPORT_HISTORY);
}

/* ":history SINCE [UNTIL]": a new window, checked before it is used. */
static void arg(struct oc_listview *lv, const char *a)
{
	struct hpriv *p = lv->priv;
	if (!a || !*a)
		return;
	char since[48] = "", until[48] = "", extra[8] = "";
	int n = sscanf(a, "%47s %47s %7s", since, until, extra);
	time_t s, u;
	char err[256];
	if (n > 2) {
		oc_app_message(lv->app, true, "%s: at most two times: SINCE [UNTIL]", lv->def->name);
		return;
	}
	if (oc_time_window(since, until, time(NULL), &s, &u, err, sizeof(err)) < 0) {
		oc_app_message(lv->app, true, "%s: %s", lv->def->name, err);
		return;
	}
	snprintf(p->since, sizeof(p->since), "%s", since);
	snprintf(p->until, sizeof(p->until), "%s", until);
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	oc_app_show_job(lv->app, hjob(lv, item)->job_id);
}

static void context_report(struct oc_listview *lv, char *buf, size_t len, enum oc_report kind)
{
	struct hpriv *p = lv->priv;
	struct rep r = rep_of(lv, kind);
	const char *until = p->until[0] ? " until " : "";
	if (r.st && r.st->error[0]) {
		snprintf(buf, len, "accounting unreachable: %s%s", r.st->error, r.loaded ? " (rows from the last load)" : "");
		return;
	}
	if (!r.loaded) {
		snprintf(buf, len, "loading the %s since %s%s%s...", r.what, p->since, until, p->until);
		return;
	}
	if (!r.enabled) {
		snprintf(buf, len, "accounting is not configured (AccountingStorageType=none): no %s", r.what);
		return;
	}
	char when[16];
	struct tm tm;
	localtime_r(&r.st->fetched, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(buf, len, "%zu of %zu %s since %s%s%s (read %s, %.1f s)%s", lv->nitems, r.n,
		 oc_plural(r.n, r.what1, r.what), p->since, until, p->until, when, r.load_s,
		 r.skipped ? "; some records did not read" : "");
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	context_report(lv, buf, len, OC_REPORT_HISTORY);
}

static const char *tag_key(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%u", (unsigned)hjob(lv, item)->job_id);
	return buf;
}

const struct oc_listview_def oc_lv_history = {
	.name = "history",
	.title = "History",
	.focus = 0,
	.report = OC_REPORT_HISTORY,
	.pure_collect = true,
	.visible = visible,
	.cat = &oc_cat_history,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = "end",
	.default_reverse = true,
	.collect = collect,
	.tag_key = tag_key,
	.open = open_item,
	.arg = arg,
	.context = context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};

/* ---- events ------------------------------------------------------------ */

static const struct oc_event *event(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->events->v[item];
}

static int e_start_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_time(event(lv, a)->start, event(lv, b)->start);
}

/* An ongoing event sorts after every ended one. */
static int e_end_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	time_t x = event(lv, a)->end, y = event(lv, b)->end;
	return cmp_time(x ? x : (time_t)INT64_MAX, y ? y : (time_t)INT64_MAX);
}

static int e_node_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return oc_natcmp(event(lv, a)->node, event(lv, b)->node);
}

static enum oc_role e_state(struct oc_listview *lv, uint32_t item)
{
	const struct oc_event *e = event(lv, item);
	if (e->end)
		return OC_ROLE_DIM;
	return strstr(e->state, "DOWN") ? OC_ROLE_BAD : OC_ROLE_WARN;
}

static const struct oc_col_ui ev_cols[] = {
	{"start", e_start_cmp, NULL, NULL, NULL},
	{"end", e_end_cmp, NULL, NULL, NULL},
	{"node", e_node_cmp, NULL, NULL, NULL},
	{"state", NULL, e_state, NULL, NULL},
};

static size_t ev_collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	return collect_report(lv, s, OC_REPORT_EVENTS);
}

static void ev_context(struct oc_listview *lv, char *buf, size_t len)
{
	context_report(lv, buf, len, OC_REPORT_EVENTS);
}

static void ev_open(struct oc_listview *lv, uint32_t item)
{
	oc_app_show_node(lv->app, event(lv, item)->node);
}

static const char *ev_tag_key(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return event(lv, item)->node;
}

const struct oc_listview_def oc_lv_events = {
	.name = "events",
	.title = "Events",
	.focus = 0,
	.report = OC_REPORT_EVENTS,
	.pure_collect = true,
	.visible = visible,
	.cat = &oc_cat_events,
	.ui = ev_cols,
	.nui = (int)(sizeof(ev_cols) / sizeof(ev_cols[0])),
	.default_sort = "start",
	.default_reverse = true,
	.collect = ev_collect,
	.tags = OC_TAG_NODES,
	.tag_key = ev_tag_key,
	.open = ev_open,
	.arg = arg,
	.context = ev_context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};

/* ---- scheduler ----------------------------------------------------------- */

/* The view's rows (core/sched.c), made again from each new table. */
struct spriv {
	struct hpriv h;           /* first: arg() and the report helpers read it */
	struct oc_sched_row *rows;
	long n;
	const struct oc_sched *of;
	uint64_t of_gen;
	struct oc_controllers ctl_of; /* the controllers the rows show */
	size_t unusual;
};

static void *sched_priv_new(void)
{
	struct spriv *p = calloc(1, sizeof(*p));
	if (p)
		snprintf(p->h.since, sizeof(p->h.since), "now");
	return p;
}

static void sched_priv_free(void *v)
{
	struct spriv *p = v;
	if (p)
		free(p->rows);
	free(p);
}

static size_t sched_collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	struct spriv *p = lv->priv;
	if (lv->app->hooks->set_report)
		lv->app->hooks->set_report(lv->app->hooks->ctx, OC_REPORT_SCHED, "now", NULL);
	if (s->sched != p->of || (s->sched && s->sched->h.generation != p->of_gen) ||
	    oc_ctl_changed(&s->ctl, &p->ctl_of) || !p->rows) {
		free(p->rows);
		p->rows = NULL;
		p->n = 0;
		p->unusual = 0;
		p->of = s->sched;
		p->of_gen = s->sched ? s->sched->h.generation : 0;
		p->ctl_of = s->ctl;
		if ((p->n = oc_sched_rows(s->sched, &s->ctl, lv->app->now, &p->rows)) < 0)
			p->n = 0;
		for (long i = 0; i < p->n; i++)
			p->unusual += p->rows[i].unusual;
	}
	lv->src.rows = p->rows;
	if (p->n <= 0 || oc_listview_reserve(lv, (size_t)p->n) < 0)
		return 0;
	for (long i = 0; i < p->n; i++)
		lv->items[i] = (uint32_t)i;
	return (size_t)p->n;
}

static enum oc_role sched_role(struct oc_listview *lv, uint32_t item)
{
	const struct spriv *p = lv->priv;
	return (long)item < p->n && p->rows[item].unusual ? OC_ROLE_BAD : OC_ROLE_NORMAL;
}

static int sched_num_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	const struct spriv *p = lv->priv;
	double x = p->rows[a].number, y = p->rows[b].number;
	return x < y ? -1 : x > y;
}

static const struct oc_col_ui sched_cols_ui[] = {
	{"value", sched_num_cmp, sched_role, NULL, NULL},
	{"note", NULL, sched_role, NULL, NULL},
};

static void sched_context(struct oc_listview *lv, char *buf, size_t len)
{
	const struct spriv *p = lv->priv;
	const struct oc_snapshot *s = lv->snap;
	if (s && s->sched_status.error[0]) {
		snprintf(buf, len, "slurmctld statistics: %s", s->sched_status.error);
		return;
	}
	if (!s || !s->sched) {
		snprintf(buf, len, "asking slurmctld for its statistics (sdiag)...");
		return;
	}
	char since[32], when[16];
	struct tm tm;
	localtime_r(&s->sched->req_time_start, &tm);
	strftime(since, sizeof(since), "%m-%d %H:%M", &tm);
	localtime_r(&s->sched_status.fetched, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(buf, len, "counters since %s, read %s; %zu unusual", since, when, p->unusual);
}

const struct oc_listview_def oc_lv_sched = {
	.name = "scheduler",
	.title = "Scheduler",
	.focus = 0,
	.report = OC_REPORT_SCHED,
	.cat = &oc_cat_sched,
	.ui = sched_cols_ui,
	.nui = (int)(sizeof(sched_cols_ui) / sizeof(sched_cols_ui[0])),
	.collect = sched_collect,
	.context = sched_context,
	.priv_new = sched_priv_new,
	.priv_free = sched_priv_free,
};
