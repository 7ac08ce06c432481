/* queue.c: squeue-style rows, for one partition or all, with state and
 * the pending reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/state.h"
#include "core/views.h"
#include "ui/app.h"
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

static void c_id(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_cells_job_id(job(lv, item), buf, len);
}

static int c_id_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u32(job(lv, a)->job_id, job(lv, b)->job_id);
}

#define STR_CELL(fname, field)                                                      \
	static void fname(struct oc_listview *lv, uint32_t item, char *buf, size_t len) \
	{                                                                           \
		oc_cell_str(buf, len, job(lv, item)->field);                        \
	}                                                                           \
	static int fname##_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)      \
	{                                                                           \
		return cmp_str(job(lv, a)->field, job(lv, b)->field);               \
	}

#define U32_CELL(fname, field)                                                      \
	static void fname(struct oc_listview *lv, uint32_t item, char *buf, size_t len) \
	{                                                                           \
		oc_cell_u32(buf, len, job(lv, item)->field);                        \
	}                                                                           \
	static int fname##_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)      \
	{                                                                           \
		return cmp_u32(job(lv, a)->field, job(lv, b)->field);               \
	}

STR_CELL(c_part, partition)
STR_CELL(c_name, name)
STR_CELL(c_user, user)
STR_CELL(c_acct, account)
STR_CELL(c_qos, qos)
U32_CELL(c_nodes, num_nodes)
U32_CELL(c_cpus, num_cpus)
U32_CELL(c_gpus, gpus)
U32_CELL(c_prio, priority)

static void c_state(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_job_state_compact(job(lv, item)));
}

static long long run_time(struct oc_listview *lv, const struct oc_job *j)
{
	return oc_cells_job_run_seconds(j, lv->app->now);
}

static void c_time(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_format_duration(run_time(lv, job(lv, item)), buf, len);
}

static int c_time_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	long long x = run_time(lv, job(lv, a)), y = run_time(lv, job(lv, b));
	return x < y ? -1 : x > y;
}

static void c_limit(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_format_minutes(job(lv, item)->time_limit_min, buf, len);
}

static int c_limit_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	return cmp_u32(job(lv, a)->time_limit_min, job(lv, b)->time_limit_min);
}

static void c_where(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	oc_cells_job_where(job(lv, item), buf, len);
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

static const struct oc_col_def cols[] = {
	{"jobid", "JOBID", 8, true, false, false, c_id, c_id_cmp, NULL},
	{"partition", "PARTITION", 9, false, false, false, c_part, c_part_cmp, NULL},
	{"name", "NAME", 8, false, false, false, c_name, c_name_cmp, NULL},
	{"user", "USER", 8, false, false, false, c_user, c_user_cmp, NULL},
	{"account", "ACCOUNT", 8, false, true, false, c_acct, c_acct_cmp, NULL},
	{"qos", "QOS", 10, false, true, true, c_qos, c_qos_cmp, NULL},
	{"state", "ST", 2, false, false, false, c_state, NULL, r_state},
	{"time", "TIME", 10, true, false, false, c_time, c_time_cmp, NULL},
	{"timelimit", "TIME_LIMIT", 10, true, true, true, c_limit, c_limit_cmp, NULL},
	{"nodes", "NODES", 5, true, false, false, c_nodes, c_nodes_cmp, NULL},
	{"cpus", "CPUS", 5, true, true, true, c_cpus, c_cpus_cmp, NULL},
	{"gpus", "GPUS", 4, true, false, false, c_gpus, c_gpus_cmp, NULL},
	{"priority", "PRIORITY", 10, true, true, true, c_prio, c_prio_cmp, NULL},
	{"reason", "NODELIST(REASON)", 0, false, false, false, c_where, NULL, r_where},
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

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s  %zu jobs", lv->arg[0] ? "partition " : "all partitions", lv->arg,
		 lv->nitems);
}

const struct oc_listview_def oc_lv_queue = {
	.name = "queue",
	.title = "Queue",
	.focus = OC_FOCUS_QUEUE,
	.cols = cols,
	.ncols = (int)(sizeof(cols) / sizeof(cols[0])),
	.default_sort = NULL,
	.collect = collect,
	.pure_collect = true,
	.tags = OC_TAG_JOBS,
	.tag_key = tag_key,
	.context = context,
};
