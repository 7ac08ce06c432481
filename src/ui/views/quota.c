/* quota.c: each team's GPU consumption against its GrpTRES limit, from
 * slurmctld's association manager, with a bar; pending GPUs and how many
 * jobs wait on a limit. Enter (or Right) expands an account into its users
 * (running and pending GPUs), its QoS (per-user limits, used/limit) and
 * its jobs pending on a limit; Enter on such a job opens its detail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/quota.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/registry.h"
#include "ui/views.h"

struct qpriv {
	struct oc_quota_row *rows;
	long n;
	struct oc_quota_item *items;
	size_t nitems, cap;
	struct oc_tagset expanded;  /* account names */
};

static void *priv_new(void)
{
	return calloc(1, sizeof(struct qpriv));
}

static void priv_free(void *p)
{
	struct qpriv *qp = p;
	if (!qp)
		return;
	oc_quota_rows_free(&qp->rows, qp->n);
	free(qp->items);
	oc_tagset_clear(&qp->expanded);
	free(qp);
}

static const struct oc_quota_item *qi(struct oc_listview *lv, uint32_t item)
{
	return &((struct qpriv *)lv->priv)->items[item];
}

static const struct oc_quota_row *qrow(struct oc_listview *lv, uint32_t item)
{
	return &((struct qpriv *)lv->priv)->rows[qi(lv, item)->row];
}

static const struct oc_quota_user *quser(struct oc_listview *lv, uint32_t item)
{
	return &qrow(lv, item)->users[qi(lv, item)->child];
}

/* Every row (account, user, QoS) names its account: the one onboarding
 * changes. */
static const char *selected(struct oc_listview *lv, uint32_t item, enum oc_sel what, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return what == OC_SEL_ACCOUNT ? qrow(lv, item)->account : NULL;
}

static enum oc_role r_gpus(struct oc_listview *lv, uint32_t item)
{
	const struct oc_quota_row *r = qrow(lv, item);
	if (qi(lv, item)->kind != OC_QI_ACCOUNT)
		return OC_ROLE_NORMAL;
	if (!r->has_gpu_limit)
		return OC_ROLE_WARN;
	return r->gpu.used >= r->gpu.limit ? OC_ROLE_BAR_OVER : OC_ROLE_NORMAL;
}

static enum oc_role r_bar(struct oc_listview *lv, uint32_t item)
{
	const struct oc_quota_row *r = qrow(lv, item);
	if (!r->has_gpu_limit)
		return OC_ROLE_WARN;
	uint64_t used = qi(lv, item)->kind == OC_QI_ACCOUNT ? r->gpu.used : quser(lv, item)->run_gpus;
	return used >= r->gpu.limit ? OC_ROLE_BAR_OVER : OC_ROLE_BAR_USED;
}

static enum oc_role r_blocked(struct oc_listview *lv, uint32_t item)
{
	const struct oc_quota_item *q = qi(lv, item);
	uint32_t b = q->kind == OC_QI_ACCOUNT ? qrow(lv, item)->limited_jobs : quser(lv, item)->limited_jobs;
	return b ? OC_ROLE_WARN : OC_ROLE_NORMAL;
}

/* The columns are core/columns.c's oc_cat_quota. */
static const struct oc_col_ui cols[] = {
	{"gpus", NULL, r_gpus, NULL, NULL},
	{"bar", NULL, r_bar, NULL, NULL},
	{"blocked", NULL, r_blocked, NULL, NULL},
};

static int push(struct qpriv *qp, struct oc_quota_item it)
{
	if (qp->nitems == qp->cap) {
		size_t cap = qp->cap ? qp->cap * 2 : 64;
		struct oc_quota_item *p = realloc(qp->items, cap * sizeof(*p));
		if (!p)
			return -1;
		qp->items = p;
		qp->cap = cap;
	}
	qp->items[qp->nitems++] = it;
	return 0;
}

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	struct qpriv *qp = lv->priv;
	oc_quota_rows_free(&qp->rows, qp->n);
	qp->n = oc_quota_rows(s, &qp->rows);
	lv->src.extra = qp->rows;
	if (qp->n < 0) {
		qp->n = 0;
		return 0;
	}
	qp->nitems = 0;
	for (long r = 0; r < qp->n; r++) {
		const struct oc_quota_row *row = &qp->rows[r];
		bool open = oc_tagset_has(&qp->expanded, row->account);
		char mark = (row->nusers || row->nqos || row->limited_jobs) ? (open ? '-' : '+') : ' ';
		if (push(qp, (struct oc_quota_item){OC_QI_ACCOUNT, (uint32_t)r, 0, mark}) < 0)
			break;
		if (!open)
			continue;
		for (size_t u = 0; u < row->nusers; u++)
			push(qp, (struct oc_quota_item){OC_QI_USER, (uint32_t)r, (uint32_t)u, 0});
		for (size_t k = 0; k < row->nqos; k++)
			push(qp, (struct oc_quota_item){OC_QI_QOS, (uint32_t)r, (uint32_t)k, 0});
		/* The jobs its BLOCKED column counts. */
		for (size_t j = 0; row->limited_jobs && s->jobs && j < s->jobs->n; j++) {
			const struct oc_job *jb = &s->jobs->v[j];
			if (jb->state == OC_JOB_PENDING && (jb->flags & OC_JF_LIMITED) && jb->account &&
			    strcmp(jb->account, row->account) == 0)
				push(qp, (struct oc_quota_item){OC_QI_JOB, (uint32_t)r, (uint32_t)j, 0});
		}
	}
	lv->src.rows = qp->items;
	if (oc_listview_reserve(lv, qp->nitems) < 0)
		return 0;
	for (size_t i = 0; i < qp->nitems; i++)
		lv->items[i] = (uint32_t)i;
	return qp->nitems;
}

static bool is_group(struct oc_listview *lv, uint32_t item)
{
	return qi(lv, item)->kind == OC_QI_QOS || qi(lv, item)->kind == OC_QI_JOB;
}

static void fmt_pu(uint32_t used, uint32_t limit, char *buf, size_t len)
{
	if (limit == OC_NONE)
		snprintf(buf, len, "%u/-", used);
	else
		snprintf(buf, len, "%u/%u", used, limit);
}

static void group_text(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	if (qi(lv, item)->kind == OC_QI_JOB) {
		const struct oc_job *j = &lv->snap->jobs->v[qi(lv, item)->child];
		char gpus[32] = "";
		if (j->gpus)
			snprintf(gpus, sizeof(gpus), ", %u %s", j->gpus, oc_plural(j->gpus, "GPU", "GPUs"));
		snprintf(buf, len, "      job %u %s (%s%s) pending: %s  (Enter opens it)", j->job_id, j->name ? j->name : "",
			 j->user ? j->user : "?", gpus, j->reason ? j->reason : "a limit");
		return;
	}
	const struct oc_quota_qos *q = &qrow(lv, item)->qos[qi(lv, item)->child];
	char jobs[32], sub[32];
	fmt_pu(q->top_running, q->max_jobs_pu, jobs, sizeof(jobs));
	fmt_pu(q->top_submitted, q->max_submit_pu, sub, sizeof(sub));
	snprintf(buf, len, "      qos %-14s MaxJobsPerUser %-6s MaxSubmitJobsPerUser %-6s%s%s%s%s", q->name, jobs,
		 sub, q->top_user ? " (" : "", q->top_user ? q->top_user : "", q->top_user ? ")" : "",
		 q->qos ? "" : "  [unknown QoS]");
}

static void toggle(struct oc_listview *lv, uint32_t item, int want /* -1 toggle, 0 close, 1 open */)
{
	struct qpriv *qp = lv->priv;
	const struct oc_quota_row *r = qrow(lv, item);
	bool open = oc_tagset_has(&qp->expanded, r->account);
	if (want < 0 || (want == 1) != open)
		oc_tagset_toggle(&qp->expanded, r->account);
	/* The cursor stays on the account row. */
	uint32_t row = qi(lv, item)->row;
	oc_listview_update(lv, lv->snap);
	for (size_t i = 0; i < lv->nitems; i++)
		if (qi(lv, lv->items[i])->kind == OC_QI_ACCOUNT && qi(lv, lv->items[i])->row == row)
			lv->sel = i;
}

static bool action(struct oc_listview *lv, enum oc_act act)
{
	uint32_t item = oc_listview_selected(lv);
	if (item == UINT32_MAX)
		return false;
	if (act == OC_ACT_OPEN && qi(lv, item)->kind == OC_QI_JOB) {
		oc_app_show_job(lv->app, lv->snap->jobs->v[qi(lv, item)->child].job_id);
		return true;
	}
	switch (act) {
	case OC_ACT_OPEN: toggle(lv, item, -1); return true;
	case OC_ACT_MOVE_RIGHT: toggle(lv, item, 1); return true;
	case OC_ACT_MOVE_LEFT: toggle(lv, item, 0); return true;
	default: return false;
	}
}

static int draw_top(struct oc_listview *lv, WINDOW *w, int y, int h, int width)
{
	const struct oc_accounting *a = lv->snap->accounting;
	char msg[256] = "";
	if (!lv->snap->seq)
		return 0;
	if (lv->app->cfg->frozen_at)
		snprintf(msg, sizeof(msg), " a recorded snapshot holds no association manager: no GrpTRES limits or use");
	else if (a && !a->enabled && lv->snap->status[OC_PART_ACCT].fetched)
		snprintf(msg, sizeof(msg), " accounting is not configured (AccountingStorageType=none): no GrpTRES limits");
	else if (a && a->dbd_error[0])
		snprintf(msg, sizeof(msg), " %s; limits and use shown are slurmctld's cache", a->dbd_error);
	if (!msg[0] || h < 3)
		return 0;
	wmove(w, y, 0);
	wattrset(w, oc_theme_attr(OC_ROLE_WARN));
	oc_put_text(w, msg, width, true, false);
	wattrset(w, A_NORMAL);
	return 1;
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct qpriv *qp = lv->priv;
	long nolimit = 0;
	for (long i = 0; i < qp->n; i++)
		if (!qp->rows[i].has_gpu_limit)
			nolimit++;
	const char *noun = oc_plural((unsigned long long)qp->n, "account", "accounts");
	if (nolimit)
		snprintf(buf, len, "%ld %s, %ld without GPU limit", qp->n, noun, nolimit);
	else
		snprintf(buf, len, "%ld %s", qp->n, noun);
}

const struct oc_listview_def oc_lv_quota = {
	.name = "quota",
	.title = "Quota",
	.focus = OC_FOCUS_QUOTA,
	.cat = &oc_cat_quota,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.collect = collect,
	.action = action,
	.selected = selected,
	.context = context,
	.draw_top = draw_top,
	.is_group = is_group,
	.group_text = group_text,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
