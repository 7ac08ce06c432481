/* queue.c: squeue-style rows, for one partition or all, with state and
 * the pending reason. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

static const struct oc_job *job(struct oc_listview *lv, uint32_t item)
{
	return &lv->snap->jobs->v[item];
}

static int cmp_u32(uint32_t x, uint32_t y)
{
	return x < y ? -1 : x > y;
}

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0; /* interned: users, accounts, partitions, QoS, reasons */
	return strcmp(a ? a : "", b ? b : "");
}

static int c_id_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u32(job(lv, a)->job_id, job(lv, b)->job_id);
}

#define STR_CMP(fname, field)                                                  \
	static int fname(struct oc_listview *lv, uint32_t a, uint32_t b)       \
	{                                                                      \
		return cmp_str(job(lv, a)->field, job(lv, b)->field);          \
	}                                                                      \
	static const char *fname##_str(struct oc_listview *lv, uint32_t item) \
	{                                                                      \
		return job(lv, item)->field;                                   \
	}
#define U32_CMP(fname, field)                                                  \
	static int fname(struct oc_listview *lv, uint32_t a, uint32_t b)       \
	{                                                                      \
		return cmp_u32(job(lv, a)->field, job(lv, b)->field);          \
	}                                                                      \
	static uint32_t fname##_key(struct oc_listview *lv, uint32_t item)    \
	{                                                                      \
		return job(lv, item)->field;                                   \
	}
STR_CMP(c_part_cmp, partition)
STR_CMP(c_name_cmp, name)
STR_CMP(c_user_cmp, user)
STR_CMP(c_acct_cmp, account)
STR_CMP(c_qos_cmp, qos)
U32_CMP(c_nodes_cmp, num_nodes)
U32_CMP(c_cpus_cmp, num_cpus)
U32_CMP(c_gpus_cmp, gpus)
U32_CMP(c_prio_cmp, priority)
U32_CMP(c_limit_cmp, time_limit_min)

static long long run_time(struct oc_listview *lv, const struct oc_job *j)
{
	return oc_cells_job_run_seconds(j, lv->app->now);
}

static int c_time_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	long long x = run_time(lv, job(lv, a)), y = run_time(lv, job(lv, b));
	return x < y ? -1 : x > y;
}

static uint32_t c_time_cmp_key(struct oc_listview *lv, uint32_t item)
{
	long long t = run_time(lv, job(lv, item));
	return t < 0 ? 0 : t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

static uint32_t c_id_cmp_key(struct oc_listview *lv, uint32_t item)
{
	return job(lv, item)->job_id;
}

static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	const struct oc_job *j = job(lv, item);
	if (j->state == OC_JOB_RUNNING)
		return OC_ROLE_OK;
	if (j->state == OC_JOB_PENDING)
		return (j->flags & (OC_JF_LIMITED | OC_JF_HELD)) ? OC_ROLE_WARN : OC_ROLE_NORMAL;
	return OC_ROLE_DIM;
}

static enum oc_role r_where(struct oc_listview *lv, uint32_t item)
{
	const struct oc_job *j = job(lv, item);
	return (j->state == OC_JOB_PENDING && (j->flags & (OC_JF_LIMITED | OC_JF_HELD))) ? OC_ROLE_WARN
											  : OC_ROLE_NORMAL;
}

/* The columns are core/columns.c's oc_cat_queue. */
static const struct oc_col_ui cols[] = {
	{"jobid", c_id_cmp, NULL, c_id_cmp_key, NULL},
	{"partition", c_part_cmp, NULL, NULL, c_part_cmp_str},
	{"name", c_name_cmp, NULL, NULL, c_name_cmp_str},
	{"user", c_user_cmp, NULL, NULL, c_user_cmp_str},
	{"account", c_acct_cmp, NULL, NULL, c_acct_cmp_str},
	{"qos", c_qos_cmp, NULL, NULL, c_qos_cmp_str},
	{"state", NULL, r_state, NULL, NULL},
	{"time", c_time_cmp, NULL, c_time_cmp_key, NULL},
	{"timelimit", c_limit_cmp, NULL, c_limit_cmp_key, NULL},
	{"nodes", c_nodes_cmp, NULL, c_nodes_cmp_key, NULL},
	{"cpus", c_cpus_cmp, NULL, c_cpus_cmp_key, NULL},
	{"gpus", c_gpus_cmp, NULL, c_gpus_cmp_key, NULL},
	{"priority", c_prio_cmp, NULL, c_prio_cmp_key, NULL},
	{"reason", NULL, r_where, NULL, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	size_t need = s->jobs ? s->jobs->n : 0;
	if (oc_listview_reserve(lv, need) < 0)
		return 0;
	return oc_job_rows(s, lv->arg[0] ? lv->arg : NULL, NULL, OC_JOB_SORT_DEFAULT, false,
			   lv->app->show_hidden, lv->items, lv->app->now);
}

static const char *tag_key(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	snprintf(buf, len, "%u", job(lv, item)->job_id);
	return buf;
}

/* Enter: the job's detail panel. */
static void open_item(struct oc_listview *lv, uint32_t item)
{
	oc_app_show_job(lv->app, job(lv, item)->job_id);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s  %zu %s", lv->arg[0] ? "partition " : "all partitions", lv->arg, lv->nitems,
		 oc_plural(lv->nitems, "job", "jobs"));
}

const struct oc_listview_def oc_lv_queue = {
	.name = "queue",
	.title = "Queue",
	.focus = OC_FOCUS_QUEUE,
	.cat = &oc_cat_queue,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = NULL,
	.collect = collect,
	.pure_collect = true,
	/* Jobs; partitions for the hidden ones (oc_job_rows). */
	.reads = OC_LV_T_JOBS | OC_LV_T_PARTITIONS,
	.clock_free = true,
	.off_thread = true,
	.tags = OC_TAG_JOBS,
	.tag_key = tag_key,
	.open = open_item,
	.context = context,
};
