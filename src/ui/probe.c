/* probe.c: the node probe results on screen. `p` (node.probe) in the nodes
 * or health view starts the engine (actions/probe.c) on the tagged nodes,
 * else the selected one, and opens an ncurses panel over the view: one row
 * per node, one column per check (the value and OK / FAIL / ERR, in the
 * theme's roles, the words themselves marking it without colour), filled
 * in as results arrive through the engine's pipe. Under the table, the
 * selected node's details. `d` drains the selected node with the reason
 * made from its failures, through the drain form (forms/nodes.c: confirmation,
 * worker, read-back, audit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/probe.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/forms.h"
#include "ui/draw.h"
#include "ui/overlay.h"
#include "ui/probe_panel.h"
#include "ui/registry.h"

#define PROBE_NODE_W 20
#define PROBE_STATE_W 13

/* The results panel is an overlay (overlay.h): its state. */
struct panel {
	struct oc_probe *probe; /* the probes on show */
	size_t sel, top;        /* the selected row, the first row shown */
};

static const struct oc_overlay_ops panel_ops;

/* The open panel; only called while it is open. */
static struct panel *panel_of(struct oc_app *app)
{
	return oc_overlay_find(app, &panel_ops);
}

static int probe_name_cmp(const void *a, const void *b)
{
	return oc_natcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names to probe: tagged nodes (natural order), else the selected
 * node of a view with node rows. Returns a malloc'd array of borrowed
 * names (*n of them), or NULL with *n = 0. */
static const char **probe_targets(struct oc_app *app, size_t *n, char *one, size_t onelen)
{
	*n = 0;
	size_t k = app->node_tags.n;
	const char **names = calloc(k ? k : 1, sizeof(*names));
	if (!names)
		return NULL;
	if (k) {
		for (size_t i = 0; i < k; i++)
			names[i] = app->node_tags.keys[i];
		qsort(names, k, sizeof(*names), probe_name_cmp);
		*n = k;
		return names;
	}
	const char *name = oc_app_selected(app, OC_SEL_NODE, one, onelen);
	if (name) {
		if (name != one) /* the panel outlives the snapshot */
			snprintf(one, onelen, "%s", name);
		names[0] = one;
		*n = 1;
		return names;
	}
	free(names);
	return NULL;
}

/* Start probing names. Returns 0, or -1 with a message shown. */
static int probe_start(struct oc_app *app, const char *const *names, size_t n)
{
	const struct oc_nodes *nodes = app->snap ? app->snap->nodes : NULL;
	struct oc_probe_target *t = calloc(n, sizeof(*t));
	if (!t) {
		oc_app_message(app, true, " out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		long idx = nodes ? oc_nodes_find(nodes, names[i]) : -1;
		t[i].name = names[i];
		t[i].addr = idx >= 0 ? nodes->v[idx].addr : NULL;
	}
	char err[300];
	struct oc_probe *p = oc_probe_start(app->cfg->probes, app->cfg->probe_runner, t, n, err, sizeof(err));
	free(t);
	if (!p) {
		oc_app_message(app, true, " probes: %s", err);
		return -1;
	}
	/* Probing again replaces the probes of the open panel. */
	struct panel *pn = panel_of(app);
	if (!pn) {
		pn = calloc(1, sizeof(*pn));
		if (!pn) {
			oc_probe_free(&p);
			oc_app_message(app, true, " out of memory");
			return -1;
		}
		if (oc_overlay_push(app, &panel_ops, pn) < 0) { /* pn freed */
			oc_probe_free(&p);
			oc_app_message(app, true, " too many panels open");
			return -1;
		}
	}
	oc_probe_free(&pn->probe);
	pn->probe = p;
	pn->sel = 0;
	pn->top = 0;
	app->dirty = true;
	return 0;
}

void oc_probe_panel_open(struct oc_app *app)
{
	if (!app->cfg->probe_runner || !app->cfg->probes) {
		oc_app_message(app, true, " probes are not available in this console (no SSH runner)");
		return;
	}
	char one[128];
	size_t n = 0;
	const char **names = probe_targets(app, &n, one, sizeof(one));
	if (!n) {
		free(names);
		oc_app_message(app, true, " probes: tag nodes (Space) or select one in the nodes (3) or health (4) view");
		return;
	}
	probe_start(app, names, n);
	free(names);
}

/* Stop the probes and free the panel (off the stack already). */
static void panel_close(struct oc_app *app, void *priv)
{
	struct panel *pn = priv;
	oc_probe_free(&pn->probe);
	free(pn);
	app->dirty = true;
}

/* Probe the same nodes again. */
static void probe_again(struct oc_app *app)
{
	struct oc_probe *p = panel_of(app)->probe;
	size_t n = oc_probe_count(p);
	char (*names)[128] = calloc(n ? n : 1, sizeof(*names));
	const char **ptr = calloc(n ? n : 1, sizeof(*ptr));
	if (names && ptr) {
		struct oc_probe_node_result *r = malloc(sizeof(*r));
		for (size_t i = 0; r && i < n; i++) {
			oc_probe_node(p, i, r);
			snprintf(names[i], sizeof(names[i]), "%s", r->name);
			ptr[i] = names[i];
		}
		if (r)
			probe_start(app, ptr, n);
		free(r);
	}
	free(names);
	free(ptr);
}

/* Drain the selected node with the reason its probe makes. */
static void probe_drain(struct oc_app *app)
{
	const struct panel *pn = panel_of(app);
	struct oc_probe_node_result *r = malloc(sizeof(*r));
	if (!r || !oc_probe_node(pn->probe, pn->sel, r)) {
		free(r);
		return;
	}
	char why[512];
	if (!oc_app_writes_allowed(app, why, sizeof(why))) {
		oc_app_message(app, true, "%s", why);
		free(r);
		return;
	}
	const struct oc_probe_config *pc = oc_probe_config(pn->probe);
	char reason[1100];
	const char *node_error = r->state == OC_PROBE_NODE_NO_ANSWER || r->state == OC_PROBE_NODE_UNREACHABLE
					 ? r->error
					 : NULL;
	if (r->state == OC_PROBE_NODE_WAITING || r->state == OC_PROBE_NODE_RUNNING) {
		oc_app_message(app, true, " %s: the probe is still running", r->name);
	} else if (!oc_probe_eval_reason(pc->checks, r->checks, r->ncheck, node_error, reason, sizeof(reason))) {
		oc_app_message(app, true, " %s: nothing failed, nothing to drain for (d in the nodes view drains anyway)",
			       r->name);
	} else {
		oc_dialog_open_drain(app, r->name, reason);
	}
	free(r);
}

static void panel_key(struct oc_app *app, void *priv, int ch, bool wide, int act)
{
	(void)ch;
	(void)wide;
	struct panel *pn = priv;
	size_t n = oc_probe_count(pn->probe);
	app->dirty = true;
	switch (act) {
	case OC_ACT_MOVE_UP:
		if (pn->sel)
			pn->sel--;
		return;
	case OC_ACT_MOVE_DOWN:
		if (pn->sel + 1 < n)
			pn->sel++;
		return;
	case OC_ACT_MOVE_PGUP:
		pn->sel = pn->sel > 10 ? pn->sel - 10 : 0;
		return;
	case OC_ACT_MOVE_PGDN:
		pn->sel = pn->sel + 10 < n ? pn->sel + 10 : (n ? n - 1 : 0);
		return;
	case OC_ACT_MOVE_TOP:
		pn->sel = 0;
		return;
	case OC_ACT_MOVE_BOTTOM:
		pn->sel = n ? n - 1 : 0;
		return;
	case OC_ACT_BACK:
	case OC_ACT_QUIT:
		/* Esc stops probes still running; once all are done it closes. */
		if (act == OC_ACT_BACK && oc_probe_finished(pn->probe) < n) {
			oc_probe_cancel(pn->probe);
			oc_app_message(app, false, " probes cancelled (Esc again closes)");
			return;
		}
		oc_overlay_remove(app, &panel_ops);
		return;
	case OC_ACT_NODE_DRAIN:
		probe_drain(app);
		return;
	case OC_ACT_NODE_PROBE:
		probe_again(app);
		return;
	default:
		oc_app_message(app, false, " probe results: d drains the selected node, p probes again, Esc closes");
		return;
	}
}

/* ---- drawing ------------------------------------------------------------- */

static enum oc_role probe_role(enum oc_probe_verdict v)
{
	switch (v) {
	case OC_PROBE_OK: return OC_ROLE_OK;
	case OC_PROBE_FAILED: return OC_ROLE_BAD;
	case OC_PROBE_ERROR: return OC_ROLE_WARN;
	default: return OC_ROLE_DIM;
	}
}

static void probe_state_text(const struct oc_probe_node_result *r, char *buf, size_t len)
{
	if (r->state == OC_PROBE_NODE_RUNNING)
		snprintf(buf, len, "running %.0fs", r->seconds);
	else if (r->state == OC_PROBE_NODE_DONE)
		snprintf(buf, len, "done %.1fs", r->seconds);
	else
		snprintf(buf, len, "%s", oc_probe_state_name(r->state));
}

static void probe_cell(WINDOW *w, const struct oc_probe_node_result *r, size_t k, int cw)
{
	const struct oc_probe_check_result *c = &r->checks[k];
	char buf[200];
	if (c->verdict == OC_PROBE_PENDING) {
		snprintf(buf, sizeof(buf), "%s", r->state == OC_PROBE_NODE_RUNNING || r->state == OC_PROBE_NODE_WAITING ? "..." : "-");
	} else {
		const char *word = oc_probe_eval_verdict_name(c->verdict);
		/* The verdict must show even when the value is long. */
		int vw = cw - (int)strlen(word) - 1;
		char value[140];
		size_t fit = vw > 0 ? oc_text_fit(c->value, strlen(c->value), vw) : 0;
		snprintf(value, sizeof(value), "%.*s", (int)fit, c->value);
		snprintf(buf, sizeof(buf), "%s%s%s", value, value[0] ? " " : "", word);
	}
	wattrset(w, oc_theme_attr(probe_role(c->verdict)));
	oc_put_text(w, buf, cw, true, false);
	wattrset(w, A_NORMAL);
}

/* The title line and the table's header. Returns the check columns'
 * width. */
static int probe_header(struct oc_probe *p, WINDOW *w, int width)
{
	const struct oc_probe_config *pc = oc_probe_config(p);
	size_t n = oc_probe_count(p), done = oc_probe_finished(p), bad = oc_probe_problems(p);
	char title[200];
	snprintf(title, sizeof(title), " Probes: %zu %s, %zu done, %zu with problems%s ", n, oc_plural(n, "node", "nodes"),
		 done, bad, done < n ? ", running..." : "");
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, title, width - 18, false, false);
	wattrset(w, A_NORMAL);
	/* Columns: node, state, then the checks sharing the rest. */
	int inner = width - 4;
	int cw = 0;
	if (pc->ncheck) {
		cw = (inner - PROBE_NODE_W - PROBE_STATE_W) / (int)pc->ncheck - 1;
		if (cw > 18)
			cw = 18;
		if (cw < 5)
			cw = 5;
	}
	wmove(w, 1, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, "  NODE", PROBE_NODE_W, true, false);
	oc_put_text(w, "STATE", PROBE_STATE_W, true, false);
	int x = 2 + PROBE_NODE_W + PROBE_STATE_W;
	for (size_t k = 0; k < pc->ncheck && x + cw <= width - 2; k++) {
		char t[80];
		snprintf(t, sizeof(t), "%s", pc->checks[k].name);
		for (char *c = t; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 'a' + 'A');
		wmove(w, 1, x);
		oc_put_text(w, t, cw, true, false);
		x += cw + 1;
	}
	wattrset(w, A_NORMAL);
	return cw;
}

/* One node's row at line y. */
static void probe_row(WINDOW *w, int y, int width, int cw, const struct oc_probe_node_result *r, bool sel)
{
	bool problem = oc_probe_node_bad(r);
	char name[160];
	/* "!" marks a node with a problem, colour or not. */
	snprintf(name, sizeof(name), "%c %s", problem ? '!' : ' ', r->name);
	wmove(w, y, 2);
	wattrset(w, sel ? oc_theme_attr(OC_ROLE_SELECTED) : oc_theme_attr(problem ? OC_ROLE_BAD : OC_ROLE_NORMAL));
	oc_put_text(w, name, PROBE_NODE_W, true, false);
	char st[64];
	probe_state_text(r, st, sizeof(st));
	wattrset(w, oc_theme_attr(r->state == OC_PROBE_NODE_DONE	       ? OC_ROLE_NORMAL
				  : r->state == OC_PROBE_NODE_RUNNING  ? OC_ROLE_BUSY
				  : r->state == OC_PROBE_NODE_WAITING  ? OC_ROLE_DIM
				  : r->state == OC_PROBE_NODE_CANCELLED ? OC_ROLE_DIM
								       : OC_ROLE_BAD));
	oc_put_text(w, st, PROBE_STATE_W, true, false);
	wattrset(w, A_NORMAL);
	int x = 2 + PROBE_NODE_W + PROBE_STATE_W;
	/* A node that did not answer: what had come in, then its own
	 * failure across the rest of the check columns. */
	bool failed = r->state == OC_PROBE_NODE_NO_ANSWER || r->state == OC_PROBE_NODE_UNREACHABLE;
	size_t k = 0;
	for (; k < r->ncheck && x + cw <= width - 2 && !(failed && r->checks[k].verdict == OC_PROBE_PENDING); k++) {
		wmove(w, y, x);
		probe_cell(w, r, k, cw);
		x += cw + 1;
	}
	if (failed && x < width - 2) {
		wmove(w, y, x);
		wattrset(w, oc_theme_attr(OC_ROLE_BAD));
		oc_put_text(w, r->error, width - 2 - x, true, false);
		wattrset(w, A_NORMAL);
	}
}

/* The selected node's details from line y: a rule, its state, a line per
 * check. */
static void probe_details(WINDOW *w, int y, int h, int width, const struct oc_probe_config *pc,
			  const struct oc_probe_node_result *r)
{
	wmove(w, y++, 1);
	whline(w, ACS_HLINE, width - 2);
	wmove(w, y++, 2);
	char line[600];
	snprintf(line, sizeof(line), "%s: %s%s%s", r->name, oc_probe_state_name(r->state), r->error[0] ? ": " : "",
		 r->error);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, line, width - 4, true, false);
	wattrset(w, A_NORMAL);
	for (size_t k = 0; k < r->ncheck && y < h - 1; k++) {
		const struct oc_probe_check_result *c = &r->checks[k];
		snprintf(line, sizeof(line), "  %-16s %-4s %s", pc->checks[k].name, oc_probe_eval_verdict_name(c->verdict),
			 c->verdict == OC_PROBE_PENDING ? "" : c->text);
		wmove(w, y++, 2);
		wattrset(w, oc_theme_attr(c->verdict == OC_PROBE_OK ? OC_ROLE_NORMAL : probe_role(c->verdict)));
		oc_put_text(w, line, width - 4, true, false);
		wattrset(w, A_NORMAL);
	}
}

/* Footer: the keys, and why drain is off when it is. */
static void probe_footer(struct oc_app *app, WINDOW *w, int h, int width, bool running)
{
	char why[512] = "", foot[700];
	bool can = oc_app_writes_allowed(app, why, sizeof(why));
	snprintf(foot, sizeof(foot), " Up/Down select  %s%s  p again  Esc %s ", can ? "d drain with the reason" : "d drain off:",
		 can ? "" : why, running ? "cancel" : "close");
	wmove(w, h - 1, 2);
	wattrset(w, oc_theme_attr(can ? OC_ROLE_DIM : OC_ROLE_WARN));
	oc_put_text(w, foot, width - 4, false, false);
	wattrset(w, A_NORMAL);
}

static void probe_fill(struct oc_app *app, WINDOW *w, int h, int width)
{
	struct panel *pn = panel_of(app);
	struct oc_probe *p = pn->probe;
	const struct oc_probe_config *pc = oc_probe_config(p);
	size_t n = oc_probe_count(p);
	struct oc_probe_node_result *r = malloc(sizeof(*r));
	if (!r)
		return;
	werase(w);
	box(w, 0, 0);
	int cw = probe_header(p, w, width);
	int y = 2;
	/* The table takes what the details leave (a rule, the node's line and
	 * a line per check, above the bottom border); on a short screen the
	 * table alone. */
	int detail_h = (int)pc->ncheck + 2;
	int rows = h - 1 - y - detail_h;
	bool details = rows >= 1;
	if (!details)
		rows = h - 1 - y;
	if (rows < 1)
		rows = 1;
	if (pn->sel >= n)
		pn->sel = n ? n - 1 : 0;
	if (pn->sel < pn->top)
		pn->top = pn->sel;
	if (pn->sel >= pn->top + (size_t)rows)
		pn->top = pn->sel - (size_t)rows + 1;
	for (size_t i = pn->top; i < n && y < 2 + rows && oc_probe_node(p, i, r); i++, y++)
		probe_row(w, y, width, cw, r, i == pn->sel);
	if (details && oc_probe_node(p, pn->sel, r))
		probe_details(w, h - 1 - detail_h, h, width, pc, r);
	probe_footer(app, w, h, width, oc_probe_finished(p) < n);
	free(r);
}

static void panel_draw(struct oc_app *app, void *priv, int y, int h, int width)
{
	const struct panel *pn = priv;
	/* As high as the rows and the details need, at most the screen. */
	int need = (int)oc_probe_count(pn->probe) + (int)oc_probe_config(pn->probe)->ncheck + 5;
	int ph = need < 12 ? 12 : need > h ? h : need;
	oc_app_panel_once(app, ph, width - 2, y, h, width, probe_fill);
}

static int panel_fd(void *priv)
{
	const struct panel *pn = priv;
	return oc_probe_fd(pn->probe);
}

/* A probe result came in. */
static void panel_ack(void *priv)
{
	struct panel *pn = priv;
	oc_probe_ack(pn->probe);
}

static const struct oc_overlay_ops panel_ops = {
	.name = "probe results",
	.key = panel_key,
	.draw = panel_draw,
	.fd = panel_fd,
	.ack = panel_ack,
	.close = panel_close,
};
