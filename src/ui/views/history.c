/* history.c: the jobs that ended in a window (default the last 24 hours),
 * from slurmdbd: what `sacct -a -X` lists. The collector loads them while
 * this view is on screen (every minute, and on r), never on the UI
 * thread. `:history SINCE [UNTIL]` changes the window (sacct's time
 * forms); Enter opens the job's detail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "core/timespec.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/ui.h"
#include "ui/views.h"

struct hpriv {
	char since[48], until[48];
};

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
	{"end", c_end_cmp, NULL},	  {"start", c_start_cmp, NULL}, {"jobid", c_id_cmp, NULL},
	{"elapsed", c_elapsed_cmp, NULL}, {"gpus", c_gpus_cmp, NULL},	{"state", NULL, r_state},
	{"exit", NULL, r_exit},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	struct hpriv *p = lv->priv;
	/* While the view is on screen the collector loads this window. */
	if (lv->app->hooks->set_history)
		lv->app->hooks->set_history(lv->app->hooks->ctx, p->since, p->until);
	const struct oc_history *h = s->history;
	if (!h || strcmp(h->since_spec, p->since) != 0 || strcmp(h->until_spec, p->until) != 0)
		return 0; /* another window's rows, or none yet */
	if (oc_listview_reserve(lv, h->n) < 0)
		return 0;
	for (size_t i = 0; i < h->n; i++)
		lv->items[i] = (uint32_t)i;
	return h->n;
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
		oc_app_message(lv->app, true, "history: at most two times: SINCE [UNTIL]");
		return;
	}
	if (oc_time_window(since, until, time(NULL), &s, &u, err, sizeof(err)) < 0) {
		oc_app_message(lv->app, true, "history: %s", err);
		return;
	}
	snprintf(p->since, sizeof(p->since), "%s", since);
	snprintf(p->until, sizeof(p->until), "%s", until);
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	oc_app_show_job(lv->app, hjob(lv, item)->job_id);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct hpriv *p = lv->priv;
	const struct oc_snapshot *s = lv->snap;
	const struct oc_history *h = s ? s->history : NULL;
	bool ours = h && strcmp(h->since_spec, p->since) == 0 && strcmp(h->until_spec, p->until) == 0;
	char when[16] = "";
	if (s && s->hist_status.error[0]) {
		snprintf(buf, len, "accounting unreachable: %s%s", s->hist_status.error,
			 ours ? " (rows from the last load)" : "");
		return;
	}
	if (!ours) {
		snprintf(buf, len, "loading the jobs that ended since %s%s%s...", p->since, p->until[0] ? " until " : "",
			 p->until);
		return;
	}
	if (!h->enabled) {
		snprintf(buf, len, "accounting is not configured (AccountingStorageType=none): no job history");
		return;
	}
	struct tm tm;
	localtime_r(&s->hist_status.fetched, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(buf, len, "%zu of %zu jobs ended since %s%s%s (read %s, %.1f s)", lv->nitems, h->n, p->since,
		 p->until[0] ? " until " : "", p->until, when, h->load_s);
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
	.history = true,
};
