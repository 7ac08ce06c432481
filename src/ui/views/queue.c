/* queue.c: squeue-style rows, for one partition or all, with state and
 * the pending reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "core/views.h"
#include "ui/ui_int.h"

enum { C_ID, C_PART, C_NAME, C_USER, C_ACCT, C_ST, C_TIME, C_NODES, C_GPUS, C_WHERE };

static const struct oc_table_col cols[] = {
	[C_ID] = {"JOBID", 8, true},     [C_PART] = {"PARTITION", 9, false},
	[C_NAME] = {"NAME", 8, false},   [C_USER] = {"USER", 8, false},
	[C_ACCT] = {"ACCOUNT", 8, false, true}, [C_ST] = {"ST", 2, false},
	[C_TIME] = {"TIME", 10, true},    [C_NODES] = {"NODES", 5, true},
	[C_GPUS] = {"GPUS", 4, true},    [C_WHERE] = {"NODELIST(REASON)", 0, false},
};

static const struct {
	enum oc_job_sort sort;
	const char *name;
} sorts[] = {
	{OC_JOB_SORT_DEFAULT, "state,priority"}, {OC_JOB_SORT_ID, "jobid"},
	{OC_JOB_SORT_USER, "user"},             {OC_JOB_SORT_ACCOUNT, "account"},
	{OC_JOB_SORT_PARTITION, "partition"},   {OC_JOB_SORT_TIME, "time"},
	{OC_JOB_SORT_GPUS, "gpus"},             {OC_JOB_SORT_PRIORITY, "priority"},
};

struct qview {
	struct oc_app *app;
	struct oc_table table;
	uint32_t *rows;
	size_t cap;
	char partition[128];      /* "" = all */
	char filter[256];
	int sort;                 /* index in sorts[] */
	bool desc;
	const struct oc_snapshot *snap;
};

static const struct oc_job *row_job(struct qview *v, size_t r)
{
	return &v->snap->jobs->v[v->rows[r]];
}

static void cell(void *ctx, size_t r, int c, char *buf, size_t len)
{
	struct qview *v = ctx;
	const struct oc_job *j = row_job(v, r);
	switch (c) {
	case C_ID:
		if (j->array_task_id != OC_NONE)
			snprintf(buf, len, "%u_%u", j->array_job_id, j->array_task_id);
		else
			snprintf(buf, len, "%u", j->job_id);
		break;
	case C_PART: snprintf(buf, len, "%s", j->partition ? j->partition : ""); break;
	case C_NAME: snprintf(buf, len, "%s", j->name ? j->name : ""); break;
	case C_USER: snprintf(buf, len, "%s", j->user ? j->user : ""); break;
	case C_ACCT: snprintf(buf, len, "%s", j->account ? j->account : ""); break;
	case C_ST: snprintf(buf, len, "%s", oc_job_state_compact(j)); break;
	case C_TIME:
		if (j->state == OC_JOB_PENDING || !j->start_time)
			oc_format_duration(0, buf, len);
		else
			oc_format_duration((long long)(v->app->now - j->start_time), buf, len);
		break;
	case C_NODES: snprintf(buf, len, "%u", j->num_nodes); break;
	case C_GPUS: snprintf(buf, len, "%u", j->gpus); break;
	case C_WHERE:
		if (j->state == OC_JOB_PENDING || !j->nodes)
			snprintf(buf, len, "(%s)", j->reason ? j->reason : "None");
		else
			snprintf(buf, len, "%s", j->nodes);
		break;
	default: buf[0] = '\0';
	}
}

static enum oc_role cell_role(void *ctx, size_t r, int c)
{
	struct qview *v = ctx;
	const struct oc_job *j = row_job(v, r);
	if (c != C_ST && c != C_WHERE)
		return OC_ROLE_NORMAL;
	if (j->state == OC_JOB_RUNNING)
		return c == C_ST ? OC_ROLE_OK : OC_ROLE_NORMAL;
	if (j->state == OC_JOB_PENDING)
		return (j->flags & (OC_JF_LIMITED | OC_JF_HELD)) ? OC_ROLE_WARN : OC_ROLE_NORMAL;
	return OC_ROLE_DIM;
}

static void *create(struct oc_app *app)
{
	struct qview *v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	v->app = app;
	v->table.cols = cols;
	v->table.ncols = (int)(sizeof(cols) / sizeof(cols[0]));
	v->table.cell = cell;
	v->table.cell_role = cell_role;
	v->table.ctx = v;
	return v;
}

static void destroy(void *view)
{
	struct qview *v = view;
	free(v->rows);
	free(v);
}

static void update(void *view, const struct oc_snapshot *s)
{
	struct qview *v = view;
	size_t need = s->jobs ? s->jobs->n : 0;
	if (need > v->cap) {
		uint32_t *r = realloc(v->rows, need * sizeof(*r));
		if (!r)
			return;
		v->rows = r;
		v->cap = need;
	}
	v->snap = s;
	v->table.nrows = oc_job_rows(s, v->partition[0] ? v->partition : NULL, v->filter,
				     sorts[v->sort].sort, v->desc, v->app->show_hidden, v->rows,
				     time(NULL));
	oc_table_clamp(&v->table);
}

static void draw(void *view, WINDOW *w, int y, int h, int width)
{
	struct qview *v = view;
	v->snap = v->app->snap;
	oc_table_draw(&v->table, w, y, 0, h, width);
	if (v->table.nrows == 0 && h > 1) {
		wmove(w, y + 1, 1);
		oc_put_text(w, v->snap->seq ? "no jobs" : "loading...", width - 1, false, false);
	}
}

static bool key(void *view, int ch)
{
	struct qview *v = view;
	return oc_table_key(&v->table, ch);
}

static void open_view(void *view, const char *arg)
{
	struct qview *v = view;
	snprintf(v->partition, sizeof(v->partition), "%s", arg ? arg : "");
	v->table.sel = v->table.top = 0;
}

static void context(void *view, char *buf, size_t len)
{
	struct qview *v = view;
	snprintf(buf, len, "%s%s  %zu jobs  sort %s%s", v->partition[0] ? "partition " : "all partitions",
		 v->partition, v->table.nrows, sorts[v->sort].name, v->desc ? " (rev)" : "");
}

static void set_filter(void *view, const char *f)
{
	struct qview *v = view;
	snprintf(v->filter, sizeof(v->filter), "%s", f ? f : "");
}

static void next_sort(void *view, bool reverse)
{
	struct qview *v = view;
	if (reverse)
		v->desc = !v->desc;
	else
		v->sort = (v->sort + 1) % (int)(sizeof(sorts) / sizeof(sorts[0]));
}

const struct oc_view_ops oc_view_queue = {
	.name = "queue",
	.title = "Queue",
	.focus = OC_FOCUS_QUEUE,
	.create = create,
	.destroy = destroy,
	.update = update,
	.draw = draw,
	.key = key,
	.open = open_view,
	.context = context,
	.set_filter = set_filter,
	.next_sort = next_sort,
};
