/* partitions.c: one row per partition with sinfo-style node counts, GPUs
 * allocated/total and running/pending jobs. Enter opens its queue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/state.h"
#include "core/views.h"
#include "ui/ui_int.h"

enum { C_NAME, C_AVAIL, C_TIME, C_NODES, C_ALLOC, C_MIX, C_IDLE, C_DRAIN, C_DOWN, C_GPUS, C_RUN, C_PEND };

static const struct oc_table_col cols[] = {
	[C_NAME] = {"PARTITION", 10, false}, [C_AVAIL] = {"AVAIL", 5, false},
	[C_TIME] = {"TIMELIMIT", 11, true},  [C_NODES] = {"NODES", 5, true},
	[C_ALLOC] = {"ALLOC", 5, true},      [C_MIX] = {"MIX", 4, true},
	[C_IDLE] = {"IDLE", 4, true},        [C_DRAIN] = {"DRN", 4, true},
	[C_DOWN] = {"DOWN", 4, true},        [C_GPUS] = {"GPUS A/T", 9, true},
	[C_RUN] = {"RUN", 4, true},          [C_PEND] = {"PEND", 0, true},
};

struct pview {
	struct oc_app *app;
	struct oc_table table;
	struct oc_part_row *rows;
	size_t nrows;
	const struct oc_snapshot *snap; /* borrowed from app for cell callbacks */
	char filter[256];
};

static const struct oc_partition *row_part(struct pview *v, size_t r)
{
	return &v->snap->partitions->v[v->rows[r].part];
}

static void cell(void *ctx, size_t r, int c, char *buf, size_t len)
{
	struct pview *v = ctx;
	const struct oc_part_row *row = &v->rows[r];
	const struct oc_partition *p = row_part(v, r);
	switch (c) {
	case C_NAME:
		snprintf(buf, len, "%s%s", p->name, (p->flags & OC_PF_DEFAULT) ? "*" : "");
		break;
	case C_AVAIL:
		snprintf(buf, len, "%s", (p->flags & OC_PF_UP) ? "up" : (p->flags & OC_PF_DRAIN) ? "drain"
					 : (p->flags & OC_PF_INACTIVE) ? "inact" : "down");
		break;
	case C_TIME: oc_format_minutes(p->max_time_min, buf, len); break;
	case C_NODES: snprintf(buf, len, "%u", row->nodes); break;
	case C_ALLOC: snprintf(buf, len, "%u", row->alloc); break;
	case C_MIX: snprintf(buf, len, "%u", row->mix); break;
	case C_IDLE: snprintf(buf, len, "%u", row->idle); break;
	case C_DRAIN: snprintf(buf, len, "%u", row->drain); break;
	case C_DOWN: snprintf(buf, len, "%u", row->down); break;
	case C_GPUS: snprintf(buf, len, "%u/%u", row->gpus_alloc, row->gpus_total); break;
	case C_RUN: snprintf(buf, len, "%u", row->jobs_running); break;
	case C_PEND: snprintf(buf, len, "%u", row->jobs_pending); break;
	default: buf[0] = '\0';
	}
}

static enum oc_role cell_role(void *ctx, size_t r, int c)
{
	struct pview *v = ctx;
	const struct oc_part_row *row = &v->rows[r];
	const struct oc_partition *p = row_part(v, r);
	if (c == C_NAME && (p->flags & OC_PF_HIDDEN))
		return OC_ROLE_DIM;
	if (c == C_AVAIL && !(p->flags & OC_PF_UP))
		return OC_ROLE_BAD;
	if (c == C_DRAIN && row->drain)
		return OC_ROLE_WARN;
	if (c == C_DOWN && row->down)
		return OC_ROLE_BAD;
	if (c == C_IDLE && row->idle)
		return OC_ROLE_OK;
	return OC_ROLE_NORMAL;
}

static void *create(struct oc_app *app)
{
	struct pview *v = calloc(1, sizeof(*v));
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
	struct pview *v = view;
	free(v->rows);
	free(v);
}

static void update(void *view, const struct oc_snapshot *s)
{
	struct pview *v = view;
	struct oc_part_row *rows = NULL;
	long n = oc_part_rows(s, v->app->show_hidden, &rows);
	if (n < 0)
		return; /* keep the old rows on ENOMEM */
	/* Filter by partition name. */
	size_t k = 0;
	for (long i = 0; i < n; i++)
		if (oc_contains_ci(s->partitions->v[rows[i].part].name, v->filter))
			rows[k++] = rows[i];
	free(v->rows);
	v->rows = rows;
	v->nrows = k;
	v->snap = s;
	v->table.nrows = k;
	oc_table_clamp(&v->table);
}

static void draw(void *view, WINDOW *w, int y, int h, int width)
{
	struct pview *v = view;
	v->snap = v->app->snap;
	if (v->nrows == 0 && !(v->snap->partitions && v->snap->partitions->n)) {
		oc_table_draw(&v->table, w, y, 0, 1, width);
		wmove(w, y + 1, 1);
		oc_put_text(w, v->snap->seq ? "no partitions" : "loading...", width - 1, false, false);
		return;
	}
	oc_table_draw(&v->table, w, y, 0, h, width);
}

static bool key(void *view, int ch)
{
	struct pview *v = view;
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		if (v->nrows)
			oc_app_goto(v->app, "queue", row_part(v, v->table.sel)->name);
		return true;
	}
	return oc_table_key(&v->table, ch);
}

static void context(void *view, char *buf, size_t len)
{
	struct pview *v = view;
	snprintf(buf, len, "%zu partitions%s", v->nrows, v->app->show_hidden ? " (incl. hidden)" : "");
}

static void set_filter(void *view, const char *f)
{
	struct pview *v = view;
	snprintf(v->filter, sizeof(v->filter), "%s", f ? f : "");
}

static void next_sort(void *view, bool reverse)
{
	(void)view;
	(void)reverse; /* partitions keep slurm.conf's order */
}

const struct oc_view_ops oc_view_partitions = {
	.name = "partitions",
	.title = "Partitions",
	.focus = OC_FOCUS_PARTITIONS,
	.create = create,
	.destroy = destroy,
	.update = update,
	.draw = draw,
	.key = key,
	.open = NULL,
	.context = context,
	.set_filter = set_filter,
	.next_sort = next_sort,
};
