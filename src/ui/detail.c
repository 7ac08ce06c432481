/* detail.c: the detail panel of one node, everything `scontrol show node`
 * tells that an admin needs, plus the jobs running on it, its node events
 * (when it went down or drained, from slurmdbd) and the jobs that ended
 * on it, drawn in an ncurses panel over the current view. */
#include <panel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/history.h"
#include "core/hostlist.h"
#include "core/pclog.h"
#include "core/reason.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/timespec.h"
#include "core/version.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/overlay.h"
#include "ui/registry.h"
#include "ui/ui.h"

/* The overlay's state: the node or the job shown, and which of the
 * history's jobs ran on that node (found again when the table or the
 * node changes: a node list is a hostlist expression). */
struct detail {
	char node[128];
	uint32_t job_id;  /* 0: the node */
	char *text;       /* a text panel's fields (oc_app_show_text), or NULL */
	char text_title[128];
	int scroll;       /* the job panel's first line shown */
	/* The node panel's jobs (running, then ended) as drawn, and the one
	 * picked with the arrows (-1: none) that Enter opens. */
	uint32_t shown[64];
	int nshown, pick;
	const struct oc_history *ended_of; /* the table ended[] indexes (not a reference: compared only) */
	uint64_t ended_gen;
	char ended_node[128];
	uint32_t *ended;  /* newest first */
	size_t nended;
};

static const struct oc_overlay_ops detail_ops;

/* The node shown, "" when the panel is not open. */
static const char *detail_node(struct oc_app *app)
{
	const struct detail *d = oc_overlay_find(app, &detail_ops);
	return d ? d->node : "";
}

void oc_detail_when(time_t t, time_t now, char *buf, size_t len)
{
	if (!t) {
		snprintf(buf, len, "-");
		return;
	}
	struct tm tm;
	char stamp[32], age[16];
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, "%s (%s ago)", stamp, oc_format_age((long long)(now - t), age, sizeof(age)));
}

int oc_detail_field(WINDOW *w, int y, int width, const char *label, const char *value, attr_t a)
{
	/* Never on a panel's bottom border (nor past a pad's end): a line
	 * that does not fit is not drawn somewhere else instead. */
	if (y >= getmaxy(w) - (is_pad(w) ? 0 : 1))
		return y + 1;
	wmove(w, y, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, label, 13, true, false);
	wattrset(w, a);
	/* A value cut by the panel's width ends with the cut mark. */
	oc_put_cell(w, value ? value : "-", width - 17, false);
	wattrset(w, A_NORMAL);
	return y + 1;
}

/* The partitions the node at idx is in (slurmctld does not send them
 * with the node). */
static void node_partitions(const struct oc_snapshot *s, long idx, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t off = 0;
	for (size_t i = 0; s->partitions && i < s->partitions->n; i++) {
		const struct oc_partition *p = &s->partitions->v[i];
		for (uint32_t k = 0; k < p->node_count; k++)
			if (p->node_idx[k] == (uint32_t)idx && off < len) {
				off += (size_t)snprintf(buf + off, len - off, "%s%s%s", off ? "," : "", p->name,
							(p->flags & OC_PF_HIDDEN) ? "(hidden)" : "");
				break;
			}
	}
}

/* The reservations that hold the node at idx, active or not. */
static void node_reservations(const struct oc_snapshot *s, long idx, time_t now, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t off = 0;
	for (size_t i = 0; s->reservations && i < s->reservations->n; i++) {
		const struct oc_reservation *r = &s->reservations->v[i];
		for (uint32_t k = 0; k < r->node_idx_count; k++)
			if (r->node_idx[k] == (uint32_t)idx && off < len) {
				bool active = r->start_time <= now && now < r->end_time;
				off += (size_t)snprintf(buf + off, len - off, "%s%s (%s%s%s)", off ? ", " : "", r->name,
							active ? "active" : "not active", r->flags ? ", " : "",
							r->flags ? r->flags : "");
			}
	}
}

/* The state, reason and who set it, from line y. Returns the next line. */
static int node_state_lines(struct oc_app *app, WINDOW *w, int y, int width, const struct oc_node *n)
{
	char buf[512], a[256], b[64];
	snprintf(buf, sizeof(buf), "%s (%s)   health: %s", oc_node_state_long(n, a, sizeof(a)),
		 oc_node_state_compact(n, b, sizeof(b)), oc_health_name(oc_node_health(n)));
	enum oc_health hl = oc_node_health(n);
	y = oc_detail_field(w, y, width, "State", buf,
		  oc_theme_attr(hl == OC_HEALTH_OK ? OC_ROLE_OK : hl == OC_HEALTH_DRAINING ? OC_ROLE_WARN : OC_ROLE_BAD));
	if (!n->reason)
		return y;
	y = oc_detail_field(w, y, width, "Reason", n->reason, oc_theme_attr(OC_ROLE_WARN));
	char when[96];
	oc_detail_when(n->reason_time, app->now, when, sizeof(when));
	snprintf(buf, sizeof(buf), "%s at %s   source: %s", n->reason_user ? n->reason_user : "?", when,
		 oc_reason_source_name(oc_reason_classify(n->reason, n->reason_user, app->snap->slurm_user)));
	return oc_detail_field(w, y, width, "Set by", buf, A_NORMAL);
}

/* Partitions, resources, reservations, boot and version, from line y.
 * Returns the next line. */
static int node_resource_lines(struct oc_app *app, WINDOW *w, int y, int width, long idx)
{
	const struct oc_snapshot *s = app->snap;
	const struct oc_node *n = &s->nodes->v[idx];
	char buf[512];
	node_partitions(s, idx, buf, sizeof(buf));
	y = oc_detail_field(w, y, width, "Partitions", buf[0] ? buf : "-", A_NORMAL);
	snprintf(buf, sizeof(buf), "%u/%u allocated   load %.2f", n->alloc_cpus, n->cpus, n->cpu_load / 100.0);
	y = oc_detail_field(w, y, width, "CPUs", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%llu/%llu MB allocated", (unsigned long long)n->alloc_mem_mb,
		 (unsigned long long)n->mem_mb);
	y = oc_detail_field(w, y, width, "Memory", buf, A_NORMAL);
	snprintf(buf, sizeof(buf), "%u/%u allocated", n->alloc_gpus, n->gpus);
	y = oc_detail_field(w, y, width, "GPUs", buf, A_NORMAL);
	y = oc_detail_field(w, y, width, "CfgTRES", n->cfg_tres, A_NORMAL);
	y = oc_detail_field(w, y, width, "AllocTRES", n->alloc_tres ? n->alloc_tres : "(none)", A_NORMAL);
	node_reservations(s, idx, app->now, buf, sizeof(buf));
	if (buf[0])
		y = oc_detail_field(w, y, width, "Reservation", buf, oc_theme_attr(OC_ROLE_WARN));
	char when[96];
	oc_detail_when(n->boot_time, app->now, when, sizeof(when));
	y = oc_detail_field(w, y, width, "Boot", when, A_NORMAL);
	oc_detail_when(n->slurmd_start_time, app->now, when, sizeof(when));
	y = oc_detail_field(w, y, width, "slurmd start", when, A_NORMAL);
	bool other = oc_version_slurmd_differs(n->version, s->slurm_version);
	snprintf(buf, sizeof(buf), "%s%s%s%s   features: %s", n->version ? n->version : "-",
		 other ? " (slurmctld " : "", other ? s->slurm_version : "", other ? ": differs)" : "",
		 n->features ? n->features : "-");
	return oc_detail_field(w, y, width, "Version", buf, other ? oc_theme_attr(OC_ROLE_WARN) : A_NORMAL);
}

/* Whether job j runs on the node at idx. */
static bool job_on(const struct oc_job *j, long idx)
{
	for (uint32_t k = 0; k < j->node_count; k++)
		if (j->node_idx[k] == (uint32_t)idx)
			return true;
	return false;
}

/* The jobs on the node at idx from line y, as many as fit. Returns the
 * next line. */
/* A job line of the node panel at y, reversed when it is the one picked;
 * remembered for Enter. Returns the next line. */
static int pick_line(WINDOW *w, int y, int width, struct detail *d, uint32_t job_id, const char *text)
{
	bool picked = d && d->pick == d->nshown;
	if (d && d->nshown < (int)(sizeof(d->shown) / sizeof(d->shown[0])))
		d->shown[d->nshown++] = job_id;
	wmove(w, y, 4);
	if (picked)
		wattrset(w, A_REVERSE);
	oc_put_text(w, text, width - 6, true, false);
	wattrset(w, A_NORMAL);
	return y + 1;
}

/* How many of total rows fit in lines [y, end): all, or one line fewer
 * than there are lines, the last one saying how many more there are
 * (more_line). */
static size_t rows_fit(int y, int end, size_t total)
{
	size_t lines = end > y ? (size_t)(end - y) : 0;
	return total <= lines ? total : lines ? lines - 1 : 0;
}

static int more_line(WINDOW *w, int y, int end, int width, size_t more, const char *where)
{
	if (!more || y >= end)
		return y;
	char buf[160];
	snprintf(buf, sizeof(buf), "... %zu more (%s)", more, where);
	wmove(w, y, 4);
	wattrset(w, oc_theme_attr(OC_ROLE_DIM));
	oc_put_text(w, buf, width - 6, true, false);
	wattrset(w, A_NORMAL);
	return y + 1;
}

/* The jobs on the node at idx from line y, in lines before end. Returns
 * the next line. */
static int node_jobs(struct oc_app *app, WINDOW *w, int y, int end, int width, long idx, struct detail *d)
{
	const struct oc_snapshot *s = app->snap;
	char buf[512];
	size_t njobs = 0;
	for (size_t i = 0; s->jobs && i < s->jobs->n; i++)
		njobs += job_on(&s->jobs->v[i], idx);
	snprintf(buf, sizeof(buf), "%zu running", njobs);
	y = oc_detail_field(w, y, width, "Jobs", buf, A_NORMAL);
	size_t fit = rows_fit(y, end, njobs), shown = 0;
	for (size_t i = 0; s->jobs && i < s->jobs->n && shown < fit; i++) {
		const struct oc_job *j = &s->jobs->v[i];
		if (!job_on(j, idx))
			continue;
		shown++;
		char t[32];
		oc_format_duration(j->start_time ? (long long)(app->now - j->start_time) : 0, t, sizeof(t));
		snprintf(buf, sizeof(buf), "%8u %-2s %-8s %-8s %-10s %3u %-4s %10s  %s", j->job_id, oc_job_state_compact(j),
			 j->user ? j->user : "", j->account ? j->account : "", j->partition ? j->partition : "", j->gpus,
			 oc_plural(j->gpus, "GPU", "GPUs"), t, j->name ? j->name : "");
		y = pick_line(w, y, width, d, j->job_id, buf);
	}
	return more_line(w, y, end, width, njobs - shown, "the queue view, 2, lists them");
}

static int name_is(void *ctx, const char *name)
{
	return strcmp(ctx, name) == 0;
}

static int ended_cmp(const void *a, const void *b, void *ctx)
{
	const struct oc_hjob *v = ctx;
	time_t x = v[*(const uint32_t *)a].end_time, y = v[*(const uint32_t *)b].end_time;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The history's jobs that ran on node, into d->ended (newest end first). */
static void ended_find(struct detail *d, const struct oc_history *h, const char *node)
{
	if (d->ended_of == h && h && d->ended_gen == h->h.generation && strcmp(d->ended_node, node) == 0)
		return;
	free(d->ended);
	d->ended = NULL;
	d->nended = 0;
	d->ended_of = h;
	d->ended_gen = h ? h->h.generation : 0;
	snprintf(d->ended_node, sizeof(d->ended_node), "%s", node);
	/* The name's stem (before its number) must appear in the list. */
	char stem[128];
	snprintf(stem, sizeof(stem), "%s", node);
	size_t l = strlen(stem);
	while (l > 0 && stem[l - 1] >= '0' && stem[l - 1] <= '9')
		stem[--l] = '\0';
	for (size_t i = 0; h && i < h->n; i++) {
		const char *nl = h->v[i].nodes;
		char err[8];
		if (!nl || !strstr(nl, stem) || oc_hostlist_foreach(nl, 1u << 16, name_is, (void *)node, err, sizeof(err)) != 1)
			continue;
		uint32_t *g = realloc(d->ended, (d->nended + 1) * sizeof(*g));
		if (!g)
			break;
		d->ended = g;
		d->ended[d->nended++] = (uint32_t)i;
	}
	if (d->nended)
		qsort_r(d->ended, d->nended, sizeof(*d->ended), ended_cmp, (void *)h->v);
}

/* "since now-7days, read 14:02:11", or why there is nothing. */
static void report_label(const struct oc_part_status *st, const char *since, bool have, char *buf, size_t len)
{
	char when[16] = "";
	if (st->error[0]) {
		snprintf(buf, len, "accounting unreachable: %s", st->error);
		return;
	}
	if (!have) {
		snprintf(buf, len, "loading...");
		return;
	}
	struct tm tm;
	localtime_r(&st->fetched, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(buf, len, "since %s, read %s", since, when);
}

/* The node's events (slurmdbd) from line y. Returns the next line. */
static int node_events(struct oc_app *app, WINDOW *w, int y, int end, int width, const char *node)
{
	const struct oc_snapshot *s = app->snap;
	const struct oc_events *t = s->events;
	char buf[512], label[256];
	size_t n = 0;
	for (size_t i = 0; t && i < t->n; i++)
		n += strcmp(t->v[i].node, node) == 0;
	report_label(&s->ev_status, t ? t->r.since_spec : "", t != NULL, label, sizeof(label));
	snprintf(buf, sizeof(buf), "%zu down or drained (%s)", n, label);
	y = oc_detail_field(w, y, width, "Events", buf, A_NORMAL);
	/* Newest first: the table is in slurmdbd's order (oldest first). */
	size_t fit = rows_fit(y, end, n), shown = 0;
	for (size_t k = t ? t->n : 0; k > 0 && shown < fit; k--) {
		const struct oc_event *e = &t->v[k - 1];
		if (strcmp(e->node, node) != 0)
			continue;
		shown++;
		char from[32], to[32];
		struct tm tm;
		localtime_r(&e->start, &tm);
		strftime(from, sizeof(from), "%m-%d %H:%M", &tm);
		if (e->end) {
			localtime_r(&e->end, &tm);
			strftime(to, sizeof(to), "%m-%d %H:%M", &tm);
		} else {
			snprintf(to, sizeof(to), "ongoing");
		}
		snprintf(buf, sizeof(buf), "%s to %-11s %-6s %-8s %s", from, to, e->state, e->user ? e->user : "",
			 e->reason ? e->reason : "");
		wmove(w, y++, 4);
		oc_put_text(w, buf, width - 6, true, false);
	}
	return more_line(w, y, end, width, n - shown, "the events view, 0, lists them");
}

/* What ParallelCluster's clustermgtd did to the node (its log's lines
 * that name it, read with the events) from line y. Returns the next line. */
static int node_pclog(struct oc_app *app, WINDOW *w, int y, int end, int width, const char *node)
{
	const struct oc_events *t = app->snap->events;
	char buf[1024];
	if (t->pc_error) {
		snprintf(buf, sizeof(buf), "cannot read %s: %s", t->pc_path, t->pc_error);
		return oc_detail_field(w, y, width, "clustermgtd", buf, oc_theme_attr(OC_ROLE_WARN));
	}
	size_t n = 0;
	for (size_t i = 0; i < t->npc; i++)
		n += oc_pclog_names(t->pc[i].text, node);
	snprintf(buf, sizeof(buf), "%zu %s naming it (%s, since %s)", n, oc_plural(n, "line", "lines"), t->pc_path,
		 t->r.since_spec);
	y = oc_detail_field(w, y, width, "clustermgtd", buf, A_NORMAL);
	size_t fit = rows_fit(y, end, n), shown = 0;
	for (size_t k = t->npc; k > 0 && shown < fit; k--) {
		const struct oc_pclog_line *l = &t->pc[k - 1];
		if (!oc_pclog_names(l->text, node))
			continue;
		shown++;
		char when[32];
		struct tm tm;
		localtime_r(&l->when, &tm);
		strftime(when, sizeof(when), "%m-%d %H:%M", &tm);
		snprintf(buf, sizeof(buf), "%s %-7s %s", when, l->level, l->text);
		wmove(w, y++, 4);
		oc_put_text(w, buf, width - 6, true, false);
	}
	return more_line(w, y, end, width, n - shown, "the rest is in the log");
}

/* The jobs that ended on the node (the history) from line y. */
static int node_ended(struct oc_app *app, WINDOW *w, int y, int end, int width, struct detail *d, const char *node)
{
	const struct oc_snapshot *s = app->snap;
	const struct oc_history *t = s->history;
	char buf[512], label[256];
	ended_find(d, t, node);
	report_label(&s->hist_status, t ? t->r.since_spec : "", t != NULL, label, sizeof(label));
	snprintf(buf, sizeof(buf), "%zu %s (%s)", d->nended, oc_plural(d->nended, "job", "jobs"), label);
	y = oc_detail_field(w, y, width, "Ended here", buf, A_NORMAL);
	size_t fit = rows_fit(y, end, d->nended), k;
	for (k = 0; k < fit; k++) {
		const struct oc_hjob *j = &t->v[d->ended[k]];
		char id[32], ex[24], when[32];
		struct tm tm;
		localtime_r(&j->end_time, &tm);
		strftime(when, sizeof(when), "%m-%d %H:%M", &tm);
		oc_hjob_id_text(j, id, sizeof(id));
		oc_hjob_exit_text(j, ex, sizeof(ex));
		snprintf(buf, sizeof(buf), "%s %8s %-13s %5s %-8s %-8s %s", when, id, oc_hjob_state_name(j), ex,
			 j->user ? j->user : "", j->account ? j->account : "", j->name ? j->name : "");
		y = pick_line(w, y, width, d, j->job_id, buf);
	}
	return more_line(w, y, end, width, d->nended - k, "the history view, 9, lists them");
}

int oc_detail_wrapped(WINDOW *w, int y, int last, int width, const char *label, const char *text, attr_t a)
{
	int cw = width - 17;
	if (cw < 10)
		return oc_detail_field(w, y, width, label, text, a);
	const char *p = text;
	bool first = true;
	while (*p && y <= last) {
		size_t n = strlen(p);
		if ((int)n > cw) {
			/* Break at the last blank that fits; a word longer than the
			 * line is cut. */
			n = (size_t)cw;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = (size_t)cw;
		}
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) - 1 ? n : sizeof(line) - 1), p);
		y = oc_detail_field(w, y, width, first ? label : "", line, a);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
	return y;
}

/* The fields of a text panel (oc_app_show_text) into pad; returns the
 * lines used. */
static int text_lines(WINDOW *pad, int last, int width, const char *text)
{
	int y = 0;
	char label[64] = "";
	for (const char *p = text; *p && y <= last;) {
		size_t n = strcspn(p, "\n");
		char line[2048];
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) - 1 ? n : sizeof(line) - 1), p);
		char *tab = strchr(line, '\t');
		const char *value = line;
		if (tab) {
			*tab = '\0';
			snprintf(label, sizeof(label), "%.63s", line);
			value = tab + 1;
		}
		y = oc_detail_wrapped(pad, y, last, width, label, value, A_NORMAL);
		label[0] = '\0';
		p += n;
		if (*p)
			p++;
	}
	return y;
}

#define TEXT_PAD_LINES 200

static void text_fill(WINDOW *w, int h, int width, struct detail *d)
{
	werase(w);
	char title[160];
	snprintf(title, sizeof(title), " %s ", d->text_title);
	oc_detail_frame(w, width, title);
	WINDOW *pad = newpad(TEXT_PAD_LINES, width);
	if (pad) {
		oc_detail_pad_show(w, h, width, pad, text_lines(pad, TEXT_PAD_LINES - 1, width, d->text), &d->scroll);
		delwin(pad);
	}
}

void oc_detail_pad_show(WINDOW *w, int h, int width, WINDOW *pad, int n, int *scroll)
{
	int rows = h - 2;
	if (*scroll > n - rows)
		*scroll = n - rows;
	if (*scroll < 0)
		*scroll = 0;
	int shown = n - *scroll < rows ? n - *scroll : rows;
	if (shown > 0 && width > 2)
		copywin(pad, w, *scroll, 1, 1, 1, shown, width - 2, FALSE);
	if (n > rows) {
		char more[64];
		snprintf(more, sizeof(more), " lines %d-%d of %d  PgUp/PgDn ", *scroll + 1, *scroll + shown, n);
		wmove(w, h - 1, 2);
		oc_put_text(w, more, width - 4, false, false);
	}
}

void oc_detail_frame(WINDOW *w, int width, const char *title)
{
	wattrset(w, A_NORMAL);
	box(w, 0, 0);
	if (!title)
		return;
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, title, width - 20, false, false);
	wattrset(w, A_NORMAL);
	wmove(w, 0, width - 15 > 0 ? width - 15 : 0);
	oc_put_text(w, " Esc closes ", 12, false, false);
}

static void detail_fill(struct oc_app *app, WINDOW *w, int h, int width)
{
	struct detail *d = oc_overlay_find(app, &detail_ops);
	if (d && d->text) {
		text_fill(w, h, width, d);
		return;
	}
	if (d && d->job_id) {
		oc_job_detail_fill(app, w, h, width, d->job_id, &d->scroll);
		return;
	}
	const struct oc_snapshot *s = app->snap;
	long idx = oc_nodes_find(s->nodes, detail_node(app));
	werase(w);
	char title[200];
	snprintf(title, sizeof(title), " %s ", detail_node(app));
	if (idx < 0) {
		oc_detail_field(w, 2, width, "", "this node is no longer in the cluster", oc_theme_attr(OC_ROLE_BAD));
		oc_detail_frame(w, width, title);
		return;
	}
	if (d)
		d->nshown = 0;
	int y = node_state_lines(app, w, 1, width, &s->nodes->v[idx]);
	y = node_resource_lines(app, w, y, width, idx);
	/* The three lists share what is left: the running jobs up to half of
	 * it (two lines at least), the events up to half of what they leave,
	 * the jobs that ended here the rest; each says how many it could not
	 * show. */
	int left = h - 1 - y - 3;
	y = node_jobs(app, w, y, y + 1 + (left / 2 > 2 ? left / 2 : 2), width, idx, d);
	/* On ParallelCluster clustermgtd's lines share the events' part. */
	bool pc = s->events && s->events->pc_path;
	left = h - 1 - y - (pc ? 3 : 2);
	if (y < h - 1)
		y = node_events(app, w, y, y + 1 + (left > 1 ? left / (pc ? 3 : 2) : 1), width, detail_node(app));
	left = h - 1 - y - 2;
	if (pc && y < h - 1)
		y = node_pclog(app, w, y, y + 1 + (left > 1 ? left / 2 : 1), width, detail_node(app));
	if (y < h - 1 && d)
		node_ended(app, w, y, h - 1, width, d, detail_node(app));
	if (d && d->pick >= d->nshown)
		d->pick = d->nshown - 1;
	/* The frame last: on a small screen, what did not fit is cut at the
	 * border, not drawn over it. */
	oc_detail_frame(w, width, title);
	if (d && d->nshown) {
		wmove(w, h - 1, 2);
		oc_put_text(w, d->pick < 0 ? " Right: pick a job " : " Up/Down: pick  Enter: open the job  Left: back ", width - 4,
			    false, false);
	}
}

void oc_app_panel_once(struct oc_app *app, int ph, int pw, int y, int h, int width,
		       void (*fill)(struct oc_app *app, WINDOW *w, int h, int width))
{
	/* The whole area when the panel does not fit in it, or when what
	 * is left of it is too small to read (a terminal of 40x10). */
	if (pw > width || ph > h || pw < 30 || ph < 5) {
		pw = width;
		ph = h;
	}
	WINDOW *w = newwin(ph, pw, y + (h - ph) / 2, (width - pw) / 2);
	if (!w)
		return;
	PANEL *p = new_panel(w);
	fill(app, w, ph, pw);
	update_panels();
	doupdate();
	if (p)
		del_panel(p);
	delwin(w);
	/* As in form.c: keep get_wch() from repainting stdscr over the panel. */
	untouchwin(stdscr);
}

static void detail_draw(struct oc_app *app, void *priv, int y, int h, int width)
{
	struct detail *d = priv;
	int pw = width - 4 > 100 ? 100 : width - 4, ph = h - 2;
	/* A text panel is as tall as its lines (and its border). */
	WINDOW *pad = d->text && pw > 0 ? newpad(TEXT_PAD_LINES, pw) : NULL;
	if (pad) {
		int n = text_lines(pad, TEXT_PAD_LINES - 1, pw, d->text);
		delwin(pad);
		if (n + 2 < ph)
			ph = n + 2;
	}
	oc_app_panel_once(app, ph, pw, y, h, width, detail_fill);
}

/* The job report stops with the job panel. */
static void job_report_stop(struct oc_app *app)
{
	if (app->hooks->set_report)
		app->hooks->set_report(app->hooks->ctx, OC_REPORT_JOB, NULL, NULL);
}

/* Esc, Enter or q close the panel; PgUp/PgDn scroll a job's panel; other
 * keys go on to the view (moving on shows the next node's or job's
 * detail). */
static void detail_key(struct oc_app *app, void *priv, int ch, bool wide, int act)
{
	struct detail *d = priv;
	(void)ch;
	(void)wide;
	/* The node panel's jobs: Right picks the first, Up/Down move, Enter
	 * opens it (the panel becomes the job's), Left or Esc leave the pick. */
	if (!d->job_id && !d->text && d->nshown > 0) {
		int pick = d->pick;
		if (act == OC_ACT_MOVE_RIGHT && pick < 0)
			pick = 0;
		else if (pick >= 0 && act == OC_ACT_MOVE_DOWN)
			pick = pick + 1 < d->nshown ? pick + 1 : pick;
		else if (pick >= 0 && act == OC_ACT_MOVE_UP)
			pick = pick > 0 ? pick - 1 : 0;
		else if (pick >= 0 && (act == OC_ACT_MOVE_LEFT || act == OC_ACT_BACK))
			pick = -1;
		else if (pick >= 0 && act == OC_ACT_OPEN && pick < d->nshown) {
			d->pick = -1;
			oc_app_show_job(app, d->shown[pick]);
			return;
		} else
			pick = -2; /* not a pick key */
		if (pick != -2) {
			d->pick = pick;
			app->dirty = true;
			return;
		}
	}
	if ((d->job_id || d->text) && (act == OC_ACT_MOVE_PGDN || act == OC_ACT_MOVE_PGUP)) {
		int page = LINES > 8 ? LINES - 8 : 1;
		d->scroll += act == OC_ACT_MOVE_PGDN ? page : -page; /* clamped when drawn */
		if (d->scroll < 0)
			d->scroll = 0;
		app->dirty = true;
		return;
	}
	oc_overlay_remove(app, &detail_ops);
	if (act == OC_ACT_BACK || act == OC_ACT_OPEN || act == OC_ACT_QUIT)
		return;
	if (act >= 0)
		oc_action_run(app, (enum oc_act)act);
	struct oc_listview *lv = app->view[app->cur];
	uint32_t item = oc_listview_selected(lv);
	if ((act == OC_ACT_MOVE_UP || act == OC_ACT_MOVE_DOWN) && item != UINT32_MAX && lv->def->open)
		lv->def->open(lv, item);
}

static void detail_close(struct oc_app *app, void *priv)
{
	struct detail *d = priv;
	if (d && d->job_id)
		job_report_stop(app);
	if (d) {
		free(d->ended);
		free(d->text);
	}
	free(priv);
}

static const struct oc_overlay_ops detail_ops = {
	.name = "detail",
	.closes_with_view = true,
	.key = detail_key,
	.draw = detail_draw,
	.close = detail_close,
};

/* The open panel's state, or a new panel's; NULL on ENOMEM. */
static struct detail *detail_open(struct oc_app *app)
{
	struct detail *d = oc_overlay_find(app, &detail_ops);
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d) {
			oc_app_message(app, true, " out of memory");
			return NULL;
		}
		d->pick = -1;
		if (oc_overlay_push(app, &detail_ops, d) < 0)
			return NULL;
	}
	app->dirty = true;
	return d;
}

void oc_app_show_node(struct oc_app *app, const char *node)
{
	struct detail *d = detail_open(app);
	if (d) {
		if (d->job_id)
			job_report_stop(app);
		if (strcmp(d->node, node) != 0)
			d->pick = -1;
		snprintf(d->node, sizeof(d->node), "%s", node);
		d->job_id = 0;
		free(d->text);
		d->text = NULL;
	}
	/* Its events of the week and the jobs that ended on it today, unless
	 * a report view already has them loaded (with its own window). */
	const struct oc_snapshot *s = app->snap;
	if (d && app->hooks->set_report) {
		if (!s || !s->events)
			app->hooks->set_report(app->hooks->ctx, OC_REPORT_EVENTS, "now-7days", NULL);
		if (!s || !s->history)
			app->hooks->set_report(app->hooks->ctx, OC_REPORT_HISTORY, OC_HISTORY_DEFAULT_SINCE, NULL);
	}
}

void oc_app_show_job(struct oc_app *app, uint32_t job_id)
{
	struct detail *d = detail_open(app);
	if (d) {
		d->node[0] = '\0';
		free(d->text);
		d->text = NULL;
		if (d->job_id != job_id)
			d->scroll = 0;
		d->job_id = job_id;
		/* Its full record, now and every few seconds while shown. */
		char id[16];
		snprintf(id, sizeof(id), "%u", (unsigned)job_id);
		if (app->hooks->set_report)
			app->hooks->set_report(app->hooks->ctx, OC_REPORT_JOB, id, NULL);
	}
}


void oc_app_show_text(struct oc_app *app, const char *title, const char *fields)
{
	char *copy = strdup(fields ? fields : "");
	if (!copy) {
		oc_app_message(app, true, " out of memory");
		return;
	}
	struct detail *d = detail_open(app);
	if (!d) {
		free(copy);
		return;
	}
	if (d->job_id)
		job_report_stop(app);
	d->job_id = 0;
	d->node[0] = '\0';
	d->pick = -1;
	d->nshown = 0;
	if (!d->text || strcmp(d->text_title, title) != 0)
		d->scroll = 0;
	free(d->text);
	d->text = copy;
	snprintf(d->text_title, sizeof(d->text_title), "%s", title);
}
