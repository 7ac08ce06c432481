/* form.c: the one engine behind every write dialog (form.h): the form
 * (ncurses form library), the list chooser (menu library), the preview,
 * the confirmation, the worker's progress and the result, as one overlay.
 * What a form asks and how its values become a request is its kind's
 * (forms/). */
#include "ui/form.h"

#include <form.h>
#include <menu.h>
#include <panel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/shquote.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/overlay.h"

enum stage { ST_FORM, ST_PREVIEW, ST_CONFIRM, ST_BUSY, ST_RESULT, ST_CHOOSE };

struct form {
	const struct oc_form_kind *kind;
	void *state;               /* the kind's */
	enum stage stage;
	char title[128];
	FIELD *fields[OC_FORM_MAX_FIELDS + 1];
	FORM *form;
	WINDOW *win, *sub;
	PANEL *panel;
	bool live_due;             /* typed since the last live check */
	char **history;            /* reasons offered for reuse */
	size_t nhistory;
	long hist_pos;
	char error[512];           /* validation message under the form */
	char text[12000];          /* confirmation or result text */
	struct oc_action_req req;
	time_t submitted;
	int scroll;                /* first line of the text shown */
	int text_lines;            /* lines the text took at the last draw */
	int shown_lines;           /* lines the panel could show */
	int spacing;               /* lines between fields */
	bool too_small;            /* resized below what the form needs: kept, not shown */
	/* the chooser (ncurses menu library) */
	MENU *menu;
	ITEM **items;
	char **item_names;         /* the menu's own copies: snapshots come and go */
	size_t nitems;
	WINDOW *menu_win, *menu_sub;
	PANEL *menu_panel;
};

static void free_history(struct form *d)
{
	for (size_t i = 0; i < d->nhistory; i++)
		free(d->history[i]);
	free(d->history);
	d->history = NULL;
	d->nhistory = 0;
}

static void free_menu_part(struct form *d)
{
	if (d->menu) {
		unpost_menu(d->menu);
		free_menu(d->menu);
		d->menu = NULL;
	}
	for (size_t i = 0; i < d->nitems; i++) {
		free_item(d->items[i]);
		free(d->item_names[i]);
	}
	free(d->items);
	free(d->item_names);
	d->items = NULL;
	d->item_names = NULL;
	d->nitems = 0;
	if (d->menu_panel) {
		del_panel(d->menu_panel);
		d->menu_panel = NULL;
	}
	if (d->menu_sub) {
		delwin(d->menu_sub);
		d->menu_sub = NULL;
	}
	if (d->menu_win) {
		delwin(d->menu_win);
		d->menu_win = NULL;
	}
}

static void free_form_part(struct form *d)
{
	free_menu_part(d);
	if (d->form) {
		unpost_form(d->form);
		free_form(d->form);
		d->form = NULL;
	}
	for (int i = 0; i < d->kind->nfields; i++)
		if (d->fields[i]) {
			free_field(d->fields[i]);
			d->fields[i] = NULL;
		}
	if (d->panel) {
		del_panel(d->panel);
		d->panel = NULL;
	}
	if (d->sub) {
		delwin(d->sub);
		d->sub = NULL;
	}
	if (d->win) {
		delwin(d->win);
		d->win = NULL;
	}
}

/* The form is an overlay (overlay.h): these are its operations. */
static void form_key(struct oc_app *app, void *priv, int ch, bool wide, int act);
static void form_draw(struct oc_app *app, void *priv, int y, int h, int width);
static bool form_poll(struct oc_app *app, void *priv);
static void form_idle(struct oc_app *app, void *priv);

static void state_free(const struct oc_form_kind *k, void *state)
{
	if (k->state_free)
		k->state_free(state);
	else
		free(state);
}

static void form_free(struct oc_app *app, void *priv)
{
	struct form *d = priv;
	free_form_part(d);
	free_history(d);
	state_free(d->kind, d->state);
	free(d);
	app->dirty = true;
	curs_set(0);
}

static const struct oc_overlay_ops form_ops = {
	.name = "form",
	.raw_keys = true,
	.key = form_key,
	.draw = form_draw,
	.poll = form_poll,
	.idle = form_idle,
	.close = form_free,
};

static void form_close(struct oc_app *app)
{
	oc_overlay_remove(app, &form_ops);
}

/* The field's text without the padding the form library adds. Returns a
 * malloc'd string. */
static char *field_text(FIELD *f)
{
	const char *b = field_buffer(f, 0);
	char *s = strdup(b ? b : "");
	if (!s)
		return NULL;
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	return s;
}

/* What the kind's functions read. changed: room for the fields. */
static struct oc_form_ctx form_ctx(struct oc_app *app, struct form *d, bool *changed)
{
	for (int i = 0; i < d->kind->nfields; i++)
		changed[i] = d->fields[i] && field_status(d->fields[i]);
	char why[256];
	return (struct oc_form_ctx){
		.snap = app->snap,
		.writer = app->worker ? oc_worker_writer(app->worker) : NULL,
		.now = time(NULL),
		.state = d->state,
		.changed = changed,
		.platform = oc_platform_detect(app->cfg->platform, app->snap ? app->snap->config : NULL, why, sizeof(why)),
	};
}

/* ---- helpers for the kinds --------------------------------------------- */

void oc_form_default_nodes(struct oc_app *app, char *out, size_t len)
{
	out[0] = '\0';
	if (!app->worker)
		return;
	const char *const *names = (const char *const *)app->node_tags.keys;
	size_t n = app->node_tags.n;
	char buf[128];
	const char *one = NULL;
	if (!n) {
		one = oc_app_selected(app, OC_SEL_NODE, buf, sizeof(buf));
		if (!one)
			return;
		names = &one;
		n = 1;
	}
	const struct oc_writer *w = oc_worker_writer(app->worker);
	char *expr = w->ops->hostlist_compress(w->ctx, names, n);
	if (expr) {
		snprintf(out, len, "%s", expr);
		free(expr);
	}
}

int oc_form_qos_choices(const struct oc_form_ctx *c, const char ***names, size_t *n, char *err, size_t errlen)
{
	const struct oc_accounting *acct = c->snap ? c->snap->accounting : NULL;
	if (!acct || !acct->nqos) {
		snprintf(err, errlen, "QoS: the cluster's QoS are not known (accounting not loaded)");
		return -1;
	}
	*names = calloc(acct->nqos, sizeof(**names));
	if (!*names) {
		snprintf(err, errlen, "QoS: out of memory");
		return -1;
	}
	for (size_t i = 0; i < acct->nqos; i++)
		(*names)[i] = acct->qos[i].name;
	*n = acct->nqos;
	return 0;
}

size_t oc_form_busy_nodes(const struct oc_snapshot *s, char **names, size_t n, char *out, size_t len)
{
	size_t busy = 0;
	for (size_t i = 0; i < n && s->nodes; i++) {
		long idx = oc_nodes_find(s->nodes, names[i]);
		if (idx < 0)
			continue;
		char jobs[256] = "";
		size_t cnt = 0;
		for (size_t j = 0; s->jobs && j < s->jobs->n; j++) {
			const struct oc_job *job = &s->jobs->v[j];
			for (uint32_t k = 0; k < job->node_count; k++)
				if (job->node_idx[k] == (uint32_t)idx) {
					if (cnt < 4)
						oc_appendf(jobs, sizeof(jobs), "%s%u %s", cnt ? ", " : "", job->job_id,
							   job->user ? job->user : "");
					cnt++;
					break;
				}
		}
		if (cnt) {
			busy++;
			if (busy <= 8)
				oc_appendf(out, len, "    %s: %zu %s (%s%s)\n", names[i], cnt, oc_plural(cnt, "job", "jobs"),
					   jobs, cnt > 4 ? ", ..." : "");
		}
	}
	if (busy > 8)
		oc_appendf(out, len, "    ... and %zu more %s\n", busy - 8, oc_plural(busy - 8, "node", "nodes"));
	return busy;
}

int oc_form_nodes(const struct oc_form_ctx *c, const char *expr, char ***names, size_t *n, char *compressed,
		  size_t clen, char *err, size_t errlen)
{
	const struct oc_writer *w = c->writer;
	if (!expr[0]) {
		snprintf(err, errlen, "Nodes: give a node or a hostlist such as gpu-st-b300-[3-5,9]");
		return -1;
	}
	/* Every name is checked against the node list: without it a typo
	 * could reach slurmctld, which stops at the first unknown name. */
	if (!c->snap->status[OC_PART_NODES].fetched || !c->snap->nodes || !c->snap->nodes->n) {
		snprintf(err, errlen, "Nodes: the node list is not loaded yet (slurmctld not answering?); try again");
		return -1;
	}
	char why[512];
	if (w->ops->hostlist_expand(w->ctx, expr, 65536, names, n, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "Nodes: %.400s", why);
		return -1;
	}
	/* Every node must exist: a typo must not reach Slurm half-applied. */
	for (size_t i = 0; i < *n; i++)
		if (oc_nodes_find(c->snap->nodes, (*names)[i]) < 0) {
			snprintf(err, errlen, "Nodes: %.128s is not a node of this cluster", (*names)[i]);
			oc_writer_names_free(names, *n);
			return -1;
		}
	char *cz = w->ops->hostlist_compress(w->ctx, (const char *const *)*names, *n);
	snprintf(compressed, clen, "%s", cz ? cz : expr);
	free(cz);
	return 0;
}

/* ---- opening ------------------------------------------------------------ */

/* Add r to the reasons offered, once. Returns -1 on ENOMEM. */
static int history_add(struct form *d, const char *r)
{
	for (size_t k = 0; k < d->nhistory; k++)
		if (strcmp(d->history[k], r) == 0)
			return 0;
	char **h = realloc(d->history, (d->nhistory + 1) * sizeof(*h));
	if (!h)
		return -1;
	d->history = h;
	d->history[d->nhistory] = strdup(r);
	if (!d->history[d->nhistory])
		return -1;
	d->nhistory++;
	return 0;
}

/* Reasons to offer: those set on nodes now, then those used in this
 * session, so an admin can reuse "prolog: gpu count 7" for the next node
 * with the same fault. */
static void collect_history(struct oc_app *app, struct form *d)
{
	const struct oc_nodes *t = app->snap ? app->snap->nodes : NULL;
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].reason && history_add(d, t->v[i].reason) < 0)
			return;
	for (size_t i = 0; i < app->recent_reasons.n; i++)
		if (history_add(d, app->recent_reasons.keys[i]) < 0)
			return;
	d->hist_pos = -1;
}

/* Build the form window for the current screen size. */
static int form_build(struct form *d, const char *const *values)
{
	int nfields = d->kind->nfields;
	int width = COLS - 4 > 96 ? 96 : COLS - 4;
	int fw = width - 16;
	if (fw < 10)
		return -1;
	/* Two lines a field when the terminal has room, else one. */
	d->spacing = LINES >= nfields * 2 + 8 ? 2 : 1;
	if (LINES < nfields + 7)
		return -1;
	for (int i = 0; i < nfields; i++) {
		d->fields[i] = new_field(1, fw, i * d->spacing, 0, 0, 0);
		if (!d->fields[i])
			return -1;
		set_field_back(d->fields[i], A_UNDERLINE);
		field_opts_off(d->fields[i], O_AUTOSKIP | O_STATIC | O_BLANK);
		/* Onboarding lists (users, QoS) and hostlists can be long. */
		set_max_field(d->fields[i], 0);
		set_field_buffer(d->fields[i], 0, values && values[i] ? values[i] : "");
		set_field_status(d->fields[i], FALSE);
	}
	d->fields[nfields] = NULL;
	d->form = new_form(d->fields);
	if (!d->form)
		return -1;
	int h = nfields * d->spacing + 6;
	d->win = newwin(h, width, (LINES - h) / 2 > 1 ? (LINES - h) / 2 : 1, (COLS - width) / 2);
	if (!d->win)
		return -1;
	keypad(d->win, TRUE);
	d->sub = derwin(d->win, nfields * d->spacing, fw, 2, 15);
	if (!d->sub)
		return -1;
	set_form_win(d->form, d->win);
	set_form_sub(d->form, d->sub);
	d->panel = new_panel(d->win);
	if (post_form(d->form) != E_OK)
		return -1;
	return 0;
}

static void to_confirm(struct oc_app *app, struct form *d);

/* Whether the screen holds the form of kind k (form_build's limits). */
static bool form_fits(const struct oc_form_kind *k)
{
	return COLS - 20 >= 10 && LINES >= k->nfields + 7;
}

/* The terminal changed size: the form is built again for it with what was
 * typed, the field the cursor was in and which fields were edited; while
 * the terminal is too small for it, it is kept and a line says so (Esc
 * still cancels). Returns false when it had to be closed (no memory). */
static bool form_relayout(struct oc_app *app, struct form *d)
{
	int n = d->kind->nfields;
	if (!form_fits(d->kind)) {
		d->too_small = true;
		if (d->panel)
			hide_panel(d->panel);
		return true;
	}
	char *values[OC_FORM_MAX_FIELDS] = {0};
	bool changed[OC_FORM_MAX_FIELDS] = {0};
	int cur = d->form ? field_index(current_field(d->form)) : 0;
	bool ok = true;
	for (int i = 0; i < n; i++) {
		values[i] = field_text(d->fields[i]);
		changed[i] = field_status(d->fields[i]);
		ok = ok && values[i];
	}
	if (ok) {
		free_form_part(d);
		ok = form_build(d, (const char *const *)values) == 0;
	}
	for (int i = 0; ok && i < n; i++)
		set_field_status(d->fields[i], changed[i]);
	for (int i = 0; i < n; i++)
		free(values[i]);
	if (!ok) {
		form_close(app);
		oc_app_message(app, true, " out of memory: the form was closed, nothing changed");
		return false;
	}
	if (d->stage == ST_CHOOSE)
		d->stage = ST_FORM; /* its list was built for the old size */
	for (int i = 0; i < cur; i++)
		form_driver(d->form, REQ_NEXT_FIELD);
	form_driver(d->form, REQ_END_LINE);
	d->too_small = false;
	return true;
}

bool oc_form_open(struct oc_app *app, const struct oc_form_kind *kind, const char *title, const char *const *values,
		  void *state, int start, bool at_end)
{
	char why[512];
	if (!oc_app_writes_allowed(app, why, sizeof(why))) {
		oc_app_message(app, true, "%s", why);
		state_free(kind, state);
		return false;
	}
	if (oc_worker_busy(app->worker, NULL)) {
		oc_app_message(app, true, " an action is still running; wait for its result");
		state_free(kind, state);
		return false;
	}
	form_close(app);
	struct form *d = calloc(1, sizeof(*d));
	if (!d) {
		state_free(kind, state);
		return false;
	}
	d->kind = kind;
	d->state = state;
	d->stage = ST_FORM;
	/* Its choices (partitions, QoS, reservations) and checks read parts
	 * the view may hold at the idle rate (five minutes): ask for those now,
	 * so that they are a refresh old when the form needs them (the
	 * parts the view shows are at most one old anyway). */
	if (app->hooks && app->hooks->refresh_parts) {
		unsigned shown = OC_FOCUS_PARTS(app->view[app->cur]->def->focus);
		if (OC_MASK_ALL & ~shown)
			app->hooks->refresh_parts(app->hooks->ctx, OC_MASK_ALL & ~shown);
	}
	snprintf(d->title, sizeof(d->title), "%s", title ? title : kind->title);
	if (oc_overlay_push(app, &form_ops, d) < 0)
		return false;
	if (kind->reason_field >= 0)
		collect_history(app, d);
	if (form_build(d, values) < 0) {
		form_close(app);
		oc_app_message(app, true, " the terminal is too small for this form");
		return false;
	}
	/* The cursor starts where typing is needed. */
	for (int i = 0; i < start; i++)
		form_driver(d->form, REQ_NEXT_FIELD);
	if (at_end)
		form_driver(d->form, REQ_END_LINE);
	app->dirty = true;
	if (kind->at_confirm)
		to_confirm(app, d);
	return true;
}

/* A field was edited (typed, deleted, cleared, a reason reused, a list
 * taken): the message under the form was about what was there before and
 * goes now, not at the next printable key; the kind's live check looks at
 * the new value once the typing pauses (form_idle) and says again what is
 * still wrong. */
static void field_edited(struct form *d)
{
	d->error[0] = '\0';
	d->live_due = d->kind->live != NULL;
}

/* ---- the chooser: the values of one field from a list ------------------ */

bool oc_form_list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *end = p;
		while (*end && *end != ',' && *end != ' ')
			end++;
		if ((size_t)(end - p) == wl && wl && strncmp(p, word, wl) == 0)
			return true;
		p = end;
	}
	return false;
}

/* Columns of the chooser's marks before the names: "[x] ". */
#define CHOOSE_MARK_W 4

/* The menu's items: copies of the names, marked when in current. */
static int choose_items(struct form *d, const char *const *names, size_t n, const char *current)
{
	d->items = calloc(n + 1, sizeof(*d->items));
	d->item_names = calloc(n + 1, sizeof(*d->item_names));
	if (!d->items || !d->item_names)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *name = strdup(names[i]);
		ITEM *it = name ? new_item(name, "") : NULL;
		if (!it) {
			free(name);
			continue;
		}
		d->item_names[d->nitems] = name;
		d->items[d->nitems++] = it;
	}
	d->menu = new_menu(d->items);
	if (!d->menu)
		return -1;
	menu_opts_off(d->menu, O_ONEVALUE);
	set_menu_mark(d->menu, "");
	for (size_t i = 0; i < d->nitems; i++)
		set_item_value(d->items[i], oc_form_list_has(current, item_name(d->items[i])));
	return 0;
}

static void choose_open(struct oc_app *app, struct form *d)
{
	const struct oc_form_kind *k = d->kind;
	bool changed[OC_FORM_MAX_FIELDS];
	struct oc_form_ctx c = form_ctx(app, d, changed);
	const char **names = NULL;
	size_t n = 0;
	if (k->choices(&c, &names, &n, d->error, sizeof(d->error)) < 0)
		return;
	char *current = field_text(d->fields[k->choose_field]);
	int rc = current ? choose_items(d, names, n, current) : -1;
	free(current);
	free(names);
	if (rc < 0) {
		free_menu_part(d);
		return;
	}
	int h = (int)d->nitems + 4 < LINES - 2 ? (int)d->nitems + 4 : LINES - 2;
	int wdt = 40;
	d->menu_win = newwin(h, wdt, (LINES - h) / 2, (COLS - wdt) / 2);
	if (!d->menu_win) {
		free_menu_part(d);
		return;
	}
	keypad(d->menu_win, TRUE);
	/* The names start after a column of their own for the marks
	 * (choose_draw): "[x] normal", not "xnormal". */
	d->menu_sub = derwin(d->menu_win, h - 4, wdt - 4 - CHOOSE_MARK_W, 2, 2 + CHOOSE_MARK_W);
	set_menu_win(d->menu, d->menu_win);
	set_menu_sub(d->menu, d->menu_sub);
	set_menu_format(d->menu, h - 4, 1);
	set_menu_fore(d->menu, oc_theme_attr(OC_ROLE_SELECTED));
	d->menu_panel = new_panel(d->menu_win);
	post_menu(d->menu);
	d->stage = ST_CHOOSE;
}

static void choose_close(struct oc_app *app, struct form *d, bool accept)
{
	if (accept) {
		char list[1024] = "";
		for (size_t i = 0; i < d->nitems; i++)
			if (item_value(d->items[i]))
				oc_appendf(list, sizeof(list), "%s%s", list[0] ? "," : "", item_name(d->items[i]));
		FIELD *f = d->fields[d->kind->choose_field];
		set_field_buffer(f, 0, list);
		set_field_status(f, TRUE); /* changed by the admin */
		field_edited(d);
	}
	free_menu_part(d);
	d->stage = ST_FORM;
	app->dirty = true;
}

static void choose_key(struct oc_app *app, struct form *d, bool wide, unsigned ch)
{
	if (wide && ch == 27) {
		choose_close(app, d, false);
	} else if ((wide && (ch == '\r' || ch == '\n')) || (!wide && ch == KEY_ENTER)) {
		choose_close(app, d, true);
	} else if (wide && ch == ' ') {
		menu_driver(d->menu, REQ_TOGGLE_ITEM);
	} else if (!wide && ch == KEY_UP) {
		menu_driver(d->menu, REQ_UP_ITEM);
	} else if (!wide && ch == KEY_DOWN) {
		menu_driver(d->menu, REQ_DOWN_ITEM);
	} else if (wide && (ch == 'k' || ch == 'j')) {
		menu_driver(d->menu, ch == 'k' ? REQ_UP_ITEM : REQ_DOWN_ITEM);
	}
}

static void choose_draw(struct form *d)
{
	int h, w;
	getmaxyx(d->menu_win, h, w);
	box(d->menu_win, 0, 0);
	wmove(d->menu_win, 0, 2);
	wattrset(d->menu_win, oc_theme_attr(OC_ROLE_TITLE));
	char title[96];
	snprintf(title, sizeof(title), " %s: Space toggles, Enter takes ", d->kind->labels[d->kind->choose_field]);
	oc_put_text(d->menu_win, title, w - 4, false, false);
	wattrset(d->menu_win, A_NORMAL);
	/* [x] marks, meaningful without colour, in their own column. */
	int top = top_row(d->menu);
	for (int r = 0; r < h - 4 && top + r < (int)d->nitems; r++)
		mvwaddstr(d->menu_win, 2 + r, 2, item_value(d->items[top + r]) ? "[x] " : "[ ] ");
	touchwin(d->menu_win);
	update_panels();
	doupdate();
}

/* ---- live checks ------------------------------------------------------ */

/* Runs the live check of what was typed since the last one: the keys
 * read so far are handled first (not after each key: a paste would make
 * the checks quadratic). */
static void form_idle(struct oc_app *app, void *priv)
{
	struct form *d = priv;
	if (!d->live_due)
		return;
	d->live_due = false;
	if (!d->form || d->stage != ST_FORM)
		return;
	form_driver(d->form, REQ_VALIDATION);
	int cur = field_index(current_field(d->form));
	char *v = field_text(d->fields[cur]);
	if (!v)
		return;
	d->error[0] = '\0';
	bool changed[OC_FORM_MAX_FIELDS];
	struct oc_form_ctx c = form_ctx(app, d, changed);
	d->kind->live(&c, cur, v, d->error, sizeof(d->error));
	free(v);
}

/* ---- confirmation, apply, result --------------------------------------- */

int oc_form_plan(const struct oc_form_kind *k, const struct oc_form_ctx *c, char *const *values,
		 struct oc_action_req *req, char *text, size_t textlen, char *err, size_t errlen)
{
	err[0] = '\0';
	text[0] = '\0';
	memset(req, 0, sizeof(*req));
	/* U+FFFD: bytes the terminal sent that are not UTF-8 (screen.c). */
	for (int i = 0; i < k->nfields; i++)
		if (values[i] && strstr(values[i], "\xef\xbf\xbd")) {
			snprintf(err, errlen,
				 "%s: the terminal sent bytes that are not UTF-8 (shown as \xef\xbf\xbd): retype it",
				 k->labels[i]);
			return -1;
		}
	if (k->plan(c, values, req, text, textlen, err, errlen) < 0) {
		if (!err[0])
			snprintf(err, errlen, "the form could not be read");
		return -1;
	}
	if (!k->preview)
		oc_appendf(text, textlen, "\n[Enter] apply    [Esc] %s", k->at_confirm ? "cancel" : "back to the form");
	return 0;
}

static void to_confirm(struct oc_app *app, struct form *d)
{
	const struct oc_form_kind *k = d->kind;
	/* The whole check below says what is wrong: a live check still due
	 * (keys typed just before Enter) must not run after it and wipe its
	 * message. */
	d->live_due = false;
	char *v[OC_FORM_MAX_FIELDS] = {0};
	for (int i = 0; i < k->nfields; i++) {
		form_driver(d->form, REQ_VALIDATION);
		v[i] = field_text(d->fields[i]);
		if (!v[i])
			v[i] = strdup("");
	}
	bool changed[OC_FORM_MAX_FIELDS];
	struct oc_form_ctx c = form_ctx(app, d, changed);
	int rc = oc_form_plan(k, &c, v, &d->req, d->text, sizeof(d->text), d->error, sizeof(d->error));
	for (int i = 0; i < k->nfields; i++)
		free(v[i]);
	d->scroll = 0;
	app->dirty = true;
	if (rc < 0)
		return;
	if (!k->preview) {
		d->stage = ST_CONFIRM;
		return;
	}
	/* The preview needs the cluster's state (sacctmgr): the worker reads
	 * it, the screen stays live. */
	if (oc_worker_submit(app->worker, &d->req) < 0) {
		snprintf(d->error, sizeof(d->error), "an action is still running");
		return;
	}
	d->stage = ST_PREVIEW;
	d->submitted = time(NULL);
}

static void submit(struct oc_app *app, struct form *d)
{
	if (d->kind->applying)
		d->kind->applying(app, &d->req);
	if (oc_worker_submit(app->worker, &d->req) < 0) {
		snprintf(d->error, sizeof(d->error), "an action is still running");
		d->stage = ST_FORM;
		return;
	}
	d->stage = ST_BUSY;
	d->submitted = time(NULL);
	app->dirty = true;
}

/* The preview's answer: back to the form with the reasons (nothing
 * applied), nothing to change, or the confirmation of what it showed. */
static void previewed(struct form *d, const struct oc_action_result *res)
{
	d->text[0] = '\0';
	d->scroll = 0;
	if (res->status != OC_ACTION_OK) {
		snprintf(d->error, sizeof(d->error), "%.200s%s%.280s", res->summary, res->details[0] ? ": " : "",
			 res->details);
		for (char *p = d->error; *p; p++)
			if (*p == '\n')
				*p = ' ';
		d->stage = ST_FORM;
		return;
	}
	if (strcmp(res->summary, "nothing to change") == 0) {
		oc_appendf(d->text, sizeof(d->text), "%s\nNothing to change: the cluster is already as asked.\n\n[any key] close",
			   res->details);
		d->error[0] = '\0';
		d->stage = ST_RESULT;
		return;
	}
	oc_appendf(d->text, sizeof(d->text), "%s\n[Enter] apply %s    [Esc] back to the form", res->details, res->summary);
	if (d->kind->previewed)
		d->kind->previewed(&d->req, res);
	d->stage = ST_CONFIRM;
}

static bool form_poll(struct oc_app *app, void *priv)
{
	struct form *d = priv;
	struct oc_action_result res;
	if (!app->worker || !oc_worker_take_result(app->worker, &res))
		return true;
	/* Show what happened now; the tables follow at the next refresh. */
	app->hooks->refresh_now(app->hooks->ctx);
	app->dirty = true;
	if (d->stage == ST_PREVIEW) {
		previewed(d, &res);
		return true;
	}
	d->stage = ST_RESULT;
	d->scroll = 0;
	d->text[0] = '\0';
	oc_appendf(d->text, sizeof(d->text), "%s\n\n%s", res.summary, res.details);
	if (res.audit_error[0])
		oc_appendf(d->text, sizeof(d->text), "\nAUDIT LOG NOT WRITTEN: %s\n", res.audit_error);
	oc_appendf(d->text, sizeof(d->text), "\n[any key] close");
	snprintf(d->error, sizeof(d->error), "%s",
		 res.status == OC_ACTION_OK	     ? ""
		 : res.status == OC_ACTION_PARTIAL ? "PARTIAL"
		 : res.status == OC_ACTION_UNKNOWN ? "NO ANSWER"
						     : "FAILED");
	if (d->kind->applied)
		d->kind->applied(app, &d->req, &res);
	return true;
}

/* ---- keys ---------------------------------------------------------------- */

/* Up/Down in the reason field offer the reasons for reuse. */
static void reason_history(struct form *d, int cur, unsigned ch)
{
	if (ch == KEY_UP)
		d->hist_pos = d->hist_pos + 1 < (long)d->nhistory ? d->hist_pos + 1 : 0;
	else
		d->hist_pos = d->hist_pos > 0 ? d->hist_pos - 1 : (long)d->nhistory - 1;
	set_field_buffer(d->fields[cur], 0, d->history[d->hist_pos]);
	form_driver(d->form, REQ_END_LINE);
	field_edited(d);
}

/* A character typed into the form (or one of the editing keys). */
static void form_char(struct oc_app *app, struct form *d, unsigned ch)
{
	switch (ch) {
	case 27: /* Esc: nothing changed */
		form_close(app);
		oc_app_message(app, false, " cancelled, nothing changed");
		return;
	case '\r':
	case '\n': to_confirm(app, d); return;
	case '\t':
		form_driver(d->form, REQ_NEXT_FIELD);
		form_driver(d->form, REQ_END_LINE);
		return;
	case 127:
	case 8:
		form_driver(d->form, REQ_DEL_PREV);
		field_edited(d);
		return;
	case 21: /* C-u */
		form_driver(d->form, REQ_CLR_FIELD);
		field_edited(d);
		return;
	case 1: form_driver(d->form, REQ_BEG_LINE); return;   /* C-a */
	case 5: form_driver(d->form, REQ_END_LINE); return;   /* C-e */
	case 15: /* C-o: choose from the list */
		if (d->kind->choose_field >= 0)
			choose_open(app, d);
		return;
	default:
		if (ch < 0x20 || ch == 0x7f)
			return;
		form_driver_w(d->form, OK, (wchar_t)ch);
		/* Checked once the typing (or a paste) pauses: a check per key
		 * of a 10 KB paste costs seconds (form_idle). */
		field_edited(d);
		return;
	}
}

/* A curses key code in the form. */
static void form_code(struct oc_app *app, struct form *d, unsigned ch)
{
	if (ch == (unsigned)KEY_F(2) && d->kind->choose_field >= 0) {
		choose_open(app, d);
		return;
	}
	int cur = field_index(current_field(d->form));
	switch (ch) {
	case KEY_ENTER: to_confirm(app, d); return;
	case KEY_BTAB: form_driver(d->form, REQ_PREV_FIELD); form_driver(d->form, REQ_END_LINE); return;
	case KEY_LEFT: form_driver(d->form, REQ_PREV_CHAR); return;
	case KEY_RIGHT: form_driver(d->form, REQ_NEXT_CHAR); return;
	case KEY_HOME: form_driver(d->form, REQ_BEG_LINE); return;
	case KEY_END: form_driver(d->form, REQ_END_LINE); return;
	case KEY_BACKSPACE:
		form_driver(d->form, REQ_DEL_PREV);
		field_edited(d);
		return;
	case KEY_DC:
		form_driver(d->form, REQ_DEL_CHAR);
		field_edited(d);
		return;
	case KEY_UP:
	case KEY_DOWN:
		if (cur == d->kind->reason_field && d->nhistory) {
			reason_history(d, cur, ch);
			return;
		}
		form_driver(d->form, ch == KEY_UP ? REQ_PREV_FIELD : REQ_NEXT_FIELD);
		form_driver(d->form, REQ_END_LINE);
		return;
	default: return;
	}
}

/* Up/Down/PgUp/PgDn scroll the confirmation and the result. */
static void text_scroll(struct form *d, unsigned ch)
{
	int page = d->shown_lines > 1 ? d->shown_lines - 1 : 1;
	int max = d->text_lines - d->shown_lines > 0 ? d->text_lines - d->shown_lines : 0;
	d->scroll += ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -page : page;
	if (d->scroll > max)
		d->scroll = max;
	if (d->scroll < 0)
		d->scroll = 0;
}

/* Keys while the form is open. wide: the key is a character (not a curses
 * key code). */
static void form_key(struct oc_app *app, void *priv, int key, bool wide, int act)
{
	(void)act; /* raw keys */
	struct form *d = priv;
	unsigned ch = (unsigned)key;
	app->dirty = true;
	if (!wide && ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		form_relayout(app, d);
		return;
	}
	/* C-l: everything drawn again, the form laid out again. */
	if (wide && ch == 0x0c) {
		clearok(curscr, TRUE);
		form_relayout(app, d);
		return;
	}
	if (d->too_small) {
		if (wide && ch == 27) {
			form_close(app);
			oc_app_message(app, false, " cancelled, nothing changed");
		}
		return; /* typing into a form not shown: no */
	}
	if ((d->stage == ST_CONFIRM || d->stage == ST_RESULT) && !wide &&
	    (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_PPAGE || ch == KEY_NPAGE)) {
		text_scroll(d, ch);
		return;
	}
	switch (d->stage) {
	case ST_CHOOSE: choose_key(app, d, wide, ch); return;
	case ST_PREVIEW: oc_app_message(app, false, " reading the accounting state..."); return;
	case ST_RESULT: form_close(app); return;
	case ST_BUSY: oc_app_message(app, false, " applying... (the result appears here; the console stays usable)"); return;
	case ST_CONFIRM:
		if ((wide && (ch == '\r' || ch == '\n')) || (!wide && ch == KEY_ENTER)) {
			submit(app, d);
		} else if (wide && ch == 27 && d->kind->at_confirm) {
			form_close(app);
			oc_app_message(app, false, " cancelled, nothing changed");
		} else if (wide && ch == 27) {
			d->stage = ST_FORM;
		}
		return;
	case ST_FORM: break;
	}
	if (wide)
		form_char(app, d, ch);
	else
		form_code(app, d, ch);
}

/* ---- drawing ------------------------------------------------------------- */

/* Text over several lines of a window; long lines wrap (the rest
 * indented), so a long command line is shown whole. A command to copy
 * (oc_shline_is_command) wraps between its words with a trailing " \",
 * so that its lines paste into a shell as one command. */
static int draw_text(WINDOW *w, int y, int x, int width, int maxy, const char *text, int skip, int *total)
{
	const char *p = text;
	int line_no = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		/* (A command that fits in columns is drawn as it is: the wrap
		 * counts bytes.) */
		if (oc_shline_is_command(p, len) && oc_text_fit(p, len, width) < len) {
			char lines[16384];
			oc_shline_wrap(p, len, width, lines, sizeof(lines));
			for (char *l = lines, *e; *l; l = e + 1) {
				e = strchr(l, '\n');
				if (!e)
					break;
				*e = '\0';
				if (line_no++ >= skip && y < maxy) {
					wmove(w, y++, x);
					oc_put_text(w, l, width, true, false);
				}
			}
			p = nl ? nl + 1 : p + len;
			continue;
		}
		bool first = true;
		size_t off = 0;
		do {
			int indent = first ? 0 : 4;
			size_t fit = oc_text_fit(p + off, len - off, width - indent);
			if (fit == 0 && off < len)
				fit = 1;
			if (line_no >= skip && y < maxy) {
				char line[1200];
				snprintf(line, sizeof(line), "%*s%.*s", indent, "",
					 (int)(fit < sizeof(line) - 8 ? fit : sizeof(line) - 8), p + off);
				wmove(w, y++, x);
				oc_put_text(w, line, width, true, false);
			}
			line_no++;
			off += fit;
			first = false;
		} while (off < len);
		p = nl ? nl + 1 : p + len;
	}
	if (total)
		*total = line_no;
	return y;
}

/* The form itself, or the chooser over it. */
static void draw_fields(struct form *d)
{
	const struct oc_form_kind *k = d->kind;
	WINDOW *w = d->win;
	int h, wd;
	getmaxyx(w, h, wd);
	box(w, 0, 0);
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	char title[160];
	snprintf(title, sizeof(title), " %s ", d->title);
	oc_put_text(w, title, wd - 4, false, false);
	wattrset(w, A_NORMAL);
	for (int i = 0; i < k->nfields; i++) {
		wmove(w, 2 + i * d->spacing, 2);
		oc_put_text(w, k->labels[i], 12, true, false);
	}
	wmove(w, h - 3, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_BAD));
	oc_put_text(w, d->error, wd - 4, true, false);
	wattrset(w, oc_theme_attr(OC_ROLE_DIM));
	wmove(w, h - 2, 2);
	oc_put_text(w, k->hint, wd - 4, true, false);
	wattrset(w, A_NORMAL);
	/* stdscr was redrawn under the form: the whole form window must go
	 * out again, not only its changed lines. */
	touchwin(w);
	if (d->stage == ST_CHOOSE) {
		curs_set(0);
		choose_draw(d);
		return;
	}
	update_panels();
	pos_form_cursor(d->form);
	curs_set(1);
	wnoutrefresh(w);
	doupdate();
}

/* The title of the text panel for the stage. */
static void text_title(struct form *d, char *title, size_t len)
{
	if (d->stage == ST_CONFIRM)
		snprintf(title, len, " Confirm: %s ", d->title);
	else if (d->stage == ST_PREVIEW)
		snprintf(title, len, " %s: reading the accounting state... ", d->title);
	else if (d->stage == ST_BUSY)
		snprintf(title, len, " %s: applying... %llds ", d->title, (long long)(time(NULL) - d->submitted));
	else
		snprintf(title, len, " %.100s: %.60s ", d->title, d->error[0] ? d->error : "done");
}

/* What the text panel shows while the worker applies. */
static void busy_text(struct oc_app *app, struct form *d, WINDOW *w, int width, int height)
{
	if (d->kind->progress) {
		/* A progress bar of the worker's steps. */
		struct oc_progress pr;
		oc_worker_progress(app->worker, &pr);
		char bar[512] = "";
		int bw = width - 16 > 40 ? 40 : width - 16;
		size_t total = pr.total ? pr.total : 1;
		int fill = (int)((size_t)bw * (pr.done > total ? total : pr.done) / total);
		oc_appendf(bar, sizeof(bar), "[");
		for (int i = 0; i < bw; i++)
			oc_appendf(bar, sizeof(bar), "%c", i < fill ? '#' : '.');
		oc_appendf(bar, sizeof(bar), "] %zu/%zu\n\n%s", pr.done, pr.total, pr.what);
		draw_text(w, 2, 2, width - 4, height - 1, bar, 0, NULL);
		return;
	}
	char busy[400];
	snprintf(busy, sizeof(busy), "Waiting for slurmctld (it gives up after its MessageTimeout).\n\n%.200s",
		 d->req.command);
	draw_text(w, 2, 2, width - 4, height - 1, busy, 0, NULL);
}

/* Confirmation and result: scrollable, with a footer saying so. */
static void scroll_text(struct form *d, WINDOW *w, int width, int height)
{
	d->shown_lines = height - 4;
	draw_text(w, 2, 2, width - 4, height - 2, d->text, d->scroll, &d->text_lines);
	if (d->text_lines <= d->shown_lines)
		return;
	wmove(w, height - 1, 2);
	char more[96];
	snprintf(more, sizeof(more), " lines %d-%d of %d: Up/Down/PgUp/PgDn scroll ", d->scroll + 1,
		 d->scroll + d->shown_lines < d->text_lines ? d->scroll + d->shown_lines : d->text_lines, d->text_lines);
	wattrset(w, oc_theme_attr(OC_ROLE_WARN));
	oc_put_text(w, more, width - 4, false, false);
	wattrset(w, A_NORMAL);
}

static void form_draw(struct oc_app *app, void *priv, int area_y, int area_h, int area_w)
{
	/* Sized on the whole screen (it was built for it). */
	(void)area_y;
	(void)area_h;
	(void)area_w;
	struct form *d = priv;
	if (d->too_small && (d->stage == ST_FORM || d->stage == ST_CHOOSE)) {
		/* The form is kept with what was typed; it comes back at a
		 * size that holds it. */
		char msg[160];
		snprintf(msg, sizeof(msg), "%.60s: the terminal is too small for it (it needs 30x%d): enlarge it to go on; "
			 "Esc cancels", d->title, d->kind->nfields + 7);
		attrset(oc_theme_attr(OC_ROLE_BANNER));
		for (int y = 1, off = 0; y < LINES - 1 && off < (int)strlen(msg); y++, off += COLS) {
			move(y, 0);
			oc_put_text(stdscr, msg + off, COLS, true, false);
		}
		attrset(A_NORMAL);
		curs_set(0);
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	if (d->stage == ST_FORM || d->stage == ST_CHOOSE) {
		draw_fields(d);
		return;
	}
	/* Preview, confirmation, progress and result: a text panel, as
	 * large as its text (at most 110x40 and the screen). */
	int width = COLS - 4 > 110 ? 110 : COLS - 4;
	int height = LINES - 2 > 40 ? 40 : LINES - 2;
	if (d->stage == ST_CONFIRM || d->stage == ST_RESULT) {
		int longest = 0;
		for (const char *p = d->text; *p;) {
			size_t l = strcspn(p, "\n");
			char line[1200];
			snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) - 1 ? l : sizeof(line) - 1), p);
			int c = oc_text_cols(line);
			longest = c > longest ? c : longest;
			p += l;
			p += *p == '\n';
		}
		int title_w = (int)strlen(d->title) + 24;
		int want = (longest > title_w ? longest : title_w) + 4;
		if (want < 60)
			want = 60;
		if (want < width)
			width = want;
		int total = 0;
		draw_text(stdscr, 0, 0, width - 4, 0, d->text, 0, &total); /* counts, draws nothing */
		if (total + 4 < height)
			height = total + 4 > 7 ? total + 4 : 7;
	} else if (height > 9) {
		height = 9; /* a line or two: the preview's question, the progress */
	}
	if (width < 20 || height < 5)
		return;
	WINDOW *w = newwin(height, width, (LINES - height) / 2, (COLS - width) / 2);
	if (!w)
		return;
	PANEL *p = new_panel(w);
	box(w, 0, 0);
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(d->stage == ST_RESULT && d->error[0] ? OC_ROLE_BAD : OC_ROLE_TITLE));
	char title[200];
	text_title(d, title, sizeof(title));
	oc_put_text(w, title, width - 4, false, false);
	wattrset(w, A_NORMAL);
	if (d->stage == ST_PREVIEW)
		draw_text(w, 2, 2, width - 4, height - 1, "Asking sacctmgr what the cluster has for this account.", 0,
			  NULL);
	else if (d->stage == ST_BUSY)
		busy_text(app, d, w, width, height);
	else
		scroll_text(d, w, width, height);
	curs_set(0);
	update_panels();
	doupdate();
	del_panel(p);
	delwin(w);
	/* del_panel touches what was under the panel (stdscr); the next
	 * get_wch() would then repaint stdscr over the panel on screen. The
	 * next frame redraws everything anyway. */
	untouchwin(stdscr);
}
