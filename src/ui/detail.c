/* detail.c: the detail panel of one node, everything `scontrol show node`
 * tells that an admin needs, plus the jobs running on it, drawn in an
 * ncurses panel over the current view. */
#include <panel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reason.h"
#include "core/state.h"
#include "ui/app.h"
#include "ui/detail.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/overlay.h"
#include "ui/registry.h"

/* The overlay's state: the node or the job shown. */
struct detail {
	char node[128];
	uint32_t job_id;  /* 0: the node */
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
	wmove(w, y, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, label, 13, true, false);
	wattrset(w, a);
	oc_put_text(w, value ? value : "-", width - 17, true, false);
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
	snprintf(buf, sizeof(buf), "%s   features: %s", n->version ? n->version : "-", n->features ? n->features : "-");
	return oc_detail_field(w, y, width, "Version", buf, A_NORMAL);
}

/* Whether job j runs on the node at idx. */
static bool job_on(const struct oc_job *j, long idx)
{
	for (uint32_t k = 0; k < j->node_count; k++)
		if (j->node_idx[k] == (uint32_t)idx)
			return true;
	return false;
}

/* The jobs on the node at idx from line y, as many as fit. */
static void node_jobs(struct oc_app *app, WINDOW *w, int y, int h, int width, long idx)
{
	const struct oc_snapshot *s = app->snap;
	char buf[512];
	size_t njobs = 0;
	for (size_t i = 0; s->jobs && i < s->jobs->n; i++)
		njobs += job_on(&s->jobs->v[i], idx);
	snprintf(buf, sizeof(buf), "%zu running", njobs);
	y = oc_detail_field(w, y, width, "Jobs", buf, A_NORMAL);
	for (size_t i = 0; s->jobs && i < s->jobs->n && y < h - 1; i++) {
		const struct oc_job *j = &s->jobs->v[i];
		if (!job_on(j, idx))
			continue;
		char t[32];
		oc_format_duration(j->start_time ? (long long)(app->now - j->start_time) : 0, t, sizeof(t));
		snprintf(buf, sizeof(buf), "%8u %-2s %-8s %-8s %-10s %3u GPUs %10s  %s", j->job_id, oc_job_state_compact(j),
			 j->user ? j->user : "", j->account ? j->account : "", j->partition ? j->partition : "", j->gpus,
			 t, j->name ? j->name : "");
		wmove(w, y++, 4);
		oc_put_text(w, buf, width - 6, true, false);
	}
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

static void detail_fill(struct oc_app *app, WINDOW *w, int h, int width)
{
	const struct detail *d = oc_overlay_find(app, &detail_ops);
	if (d && d->job_id) {
		oc_job_detail_fill(app, w, h, width, d->job_id);
		return;
	}
	const struct oc_snapshot *s = app->snap;
	long idx = oc_nodes_find(s->nodes, detail_node(app));
	werase(w);
	box(w, 0, 0);
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	char title[200];
	snprintf(title, sizeof(title), " %s ", detail_node(app));
	oc_put_text(w, title, width - 20, false, false);
	wattrset(w, A_NORMAL);
	wmove(w, 0, width - 15 > 0 ? width - 15 : 0);
	oc_put_text(w, " Esc closes ", 12, false, false);
	if (idx < 0) {
		oc_detail_field(w, 2, width, "", "this node is no longer in the cluster", oc_theme_attr(OC_ROLE_BAD));
		return;
	}
	int y = node_state_lines(app, w, 1, width, &s->nodes->v[idx]);
	y = node_resource_lines(app, w, y, width, idx);
	node_jobs(app, w, y, h, width, idx);
}

void oc_app_panel_once(struct oc_app *app, int ph, int pw, int y, int h, int width,
		       void (*fill)(struct oc_app *app, WINDOW *w, int h, int width))
{
	if (pw < 30 || ph < 8) {
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
	(void)priv;
	oc_app_panel_once(app, h - 2, width - 4 > 100 ? 100 : width - 4, y, h, width, detail_fill);
}

/* Esc, Enter or q close the panel; other keys go on to the view (moving
 * on shows the next node's detail). */
static void detail_key(struct oc_app *app, void *priv, int ch, bool wide, int act)
{
	(void)priv;
	(void)ch;
	(void)wide;
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
	(void)app;
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
		snprintf(d->node, sizeof(d->node), "%s", node);
		d->job_id = 0;
	}
}

void oc_app_show_job(struct oc_app *app, uint32_t job_id)
{
	struct detail *d = detail_open(app);
	if (d) {
		d->node[0] = '\0';
		d->job_id = job_id;
	}
}

