/* dialog.c: the write actions on screen. Every write goes the same way:
 * a form (ncurses form library) → a confirmation that names the targets
 * and shows the exact equivalent command → apply by the worker thread
 * (the screen stays live) → the read-back result. Esc cancels at every
 * step before the apply with nothing changed. */
#include <form.h>
#include <menu.h>
#include <pwd.h>
#include <panel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "actions/plan.h"
#include "actions/worker.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/dialog.h"
#include "ui/draw.h"
#include "ui/overlay.h"
#include "ui/registry.h"

enum dlg_stage { DLG_FORM, DLG_PREVIEW, DLG_CONFIRM, DLG_BUSY, DLG_RESULT, DLG_QOS_MENU };

enum dlg_purpose { DLG_DRAIN, DLG_RESUME, DLG_UNDRAIN, DLG_RESV_CREATE, DLG_RESV_DELETE, DLG_ONBOARD };

#define DLG_MAX_FIELDS 10

/* Fields of the onboarding form. */
enum { ONB_ACCOUNT, ONB_DESCR, ONB_PARENT, ONB_GPU, ONB_QOS, ONB_DEFQOS, ONB_FAIRSHARE, ONB_USERS, ONB_NFIELDS };

struct oc_dialog {
	enum dlg_purpose purpose;
	enum dlg_stage stage;
	char title[128];
	const char *labels[DLG_MAX_FIELDS];
	int nfields;
	FIELD *fields[DLG_MAX_FIELDS + 1];
	FORM *form;
	WINDOW *win, *sub;
	PANEL *panel;
	int reason_field;          /* index of the reason field, -1 if none */
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
	/* onboarding: the account's users and QoS when the form opened (an
	 * edit removes what the admin deleted from the fields) */
	char initial_users[OC_ONB_MAX_USERS * OC_ONB_NAME_MAX];
	char initial_qos[OC_ONB_MAX_QOS * OC_ONB_NAME_MAX];
	char initial_account[OC_ONB_NAME_MAX];
	bool editing;
	/* the QoS multi-select menu (ncurses menu library) */
	MENU *menu;
	ITEM **items;
	char **item_names;         /* the menu's own copies: snapshots come and go */
	size_t nitems;
	WINDOW *menu_win, *menu_sub;
	PANEL *menu_panel;
};

static void free_history(struct oc_dialog *d)
{
	for (size_t i = 0; i < d->nhistory; i++)
		free(d->history[i]);
	free(d->history);
	d->history = NULL;
	d->nhistory = 0;
}

static void dialog_free_menu(struct oc_dialog *d)
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

static void dialog_free_form(struct oc_dialog *d)
{
	dialog_free_menu(d);
	if (d->form) {
		unpost_form(d->form);
		free_form(d->form);
		d->form = NULL;
	}
	for (int i = 0; i < d->nfields; i++)
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

/* The dialog is an overlay (overlay.h): these are its operations. */
static void dialog_key(struct oc_app *app, void *priv, int ch, bool wide, int act);
static void dialog_draw(struct oc_app *app, void *priv, int y, int h, int width);
static bool dialog_poll(struct oc_app *app, void *priv);
static void dialog_idle(struct oc_app *app, void *priv);

static void dialog_free(struct oc_app *app, void *priv)
{
	struct oc_dialog *d = priv;
	dialog_free_form(d);
	free_history(d);
	free(d);
	app->dirty = true;
	curs_set(0);
}

static const struct oc_overlay_ops dialog_ops = {
	.name = "dialog",
	.raw_keys = true,
	.key = dialog_key,
	.draw = dialog_draw,
	.poll = dialog_poll,
	.idle = dialog_idle,
	.close = dialog_free,
};

/* The open dialog, or NULL. */
static struct oc_dialog *dialog_of(struct oc_app *app)
{
	return oc_overlay_find(app, &dialog_ops);
}

static void dialog_close(struct oc_app *app)
{
	oc_overlay_remove(app, &dialog_ops);
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

/* Nodes the action applies to: the tagged ones, else the selected node of
 * the nodes or health view; compressed with libslurm's hostlist functions. */
static void default_targets(struct oc_app *app, char *out, size_t len)
{
	out[0] = '\0';
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

/* Add r to the reasons offered, once. Returns -1 on ENOMEM. */
static int history_add(struct oc_dialog *d, const char *r)
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
static void collect_history(struct oc_app *app, struct oc_dialog *d)
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
static int dialog_build(struct oc_dialog *d, const char *const *values)
{
	int width = COLS - 4 > 96 ? 96 : COLS - 4;
	int fw = width - 16;
	if (fw < 10)
		return -1;
	/* Two lines a field when the terminal has room, else one. */
	d->spacing = LINES >= d->nfields * 2 + 8 ? 2 : 1;
	if (LINES < d->nfields + 7)
		return -1;
	for (int i = 0; i < d->nfields; i++) {
		d->fields[i] = new_field(1, fw, i * d->spacing, 0, 0, 0);
		if (!d->fields[i])
			return -1;
		set_field_back(d->fields[i], A_UNDERLINE);
		field_opts_off(d->fields[i], O_AUTOSKIP | O_STATIC | O_BLANK);
		/* Onboarding lists (users, QoS) and hostlists can be long. */
		set_max_field(d->fields[i], 0);
		set_field_buffer(d->fields[i], 0, values[i] ? values[i] : "");
		set_field_status(d->fields[i], FALSE);
	}
	d->fields[d->nfields] = NULL;
	d->form = new_form(d->fields);
	if (!d->form)
		return -1;
	int h = d->nfields * d->spacing + 6;
	d->win = newwin(h, width, (LINES - h) / 2 > 1 ? (LINES - h) / 2 : 1, (COLS - width) / 2);
	if (!d->win)
		return -1;
	keypad(d->win, TRUE);
	d->sub = derwin(d->win, d->nfields * d->spacing, fw, 2, 15);
	if (!d->sub)
		return -1;
	set_form_win(d->form, d->win);
	set_form_sub(d->form, d->sub);
	d->panel = new_panel(d->win);
	if (post_form(d->form) != E_OK)
		return -1;
	return 0;
}

static void to_confirm(struct oc_app *app);

static void dialog_open(struct oc_app *app, enum dlg_purpose purpose, const char *title,
			const char *const *labels, const char *const *values, int nfields, int reason_field)
{
	char why[512];
	if (!oc_app_writes_allowed(app, why, sizeof(why))) {
		oc_app_message(app, true, "%s", why);
		return;
	}
	if (oc_worker_busy(app->worker, NULL)) {
		oc_app_message(app, true, " an action is still running; wait for its result");
		return;
	}
	dialog_close(app);
	struct oc_dialog *d = calloc(1, sizeof(*d));
	if (!d)
		return;
	d->purpose = purpose;
	d->stage = DLG_FORM;
	snprintf(d->title, sizeof(d->title), "%s", title);
	d->nfields = nfields;
	for (int i = 0; i < nfields; i++)
		d->labels[i] = labels[i];
	d->reason_field = reason_field;
	if (oc_overlay_push(app, &dialog_ops, d) < 0)
		return;
	if (reason_field >= 0)
		collect_history(app, d);
	if (dialog_build(d, values) < 0) {
		dialog_close(app);
		oc_app_message(app, true, " the terminal is too small for this form");
		return;
	}
	app->dirty = true;
}

void oc_dialog_open_node(struct oc_app *app, enum oc_node_op op)
{
	char targets[4096] = "";
	if (app->worker)
		default_targets(app, targets, sizeof(targets));
	if (op == OC_NODE_OP_DRAIN) {
		static const char *const labels[] = {"Nodes", "Reason"};
		const char *values[] = {targets, ""};
		dialog_open(app, DLG_DRAIN, "Drain nodes", labels, values, 2, 1);
	} else {
		static const char *const labels[] = {"Nodes"};
		const char *values[] = {targets};
		dialog_open(app, op == OC_NODE_OP_RESUME ? DLG_RESUME : DLG_UNDRAIN,
			    op == OC_NODE_OP_RESUME ? "Resume nodes" : "Undrain nodes (after repair)", labels, values,
			    1, -1);
	}
	/* The cursor starts where typing is needed. */
	if (dialog_of(app) && op == OC_NODE_OP_DRAIN && targets[0])
		form_driver(dialog_of(app)->form, REQ_NEXT_FIELD);
}

void oc_dialog_open_drain(struct oc_app *app, const char *nodes, const char *reason)
{
	static const char *const labels[] = {"Nodes", "Reason"};
	const char *values[] = {nodes, reason};
	dialog_open(app, DLG_DRAIN, "Drain nodes", labels, values, 2, 1);
	if (dialog_of(app)) { /* at the end of the reason, to edit it */
		form_driver(dialog_of(app)->form, REQ_NEXT_FIELD);
		form_driver(dialog_of(app)->form, REQ_END_LINE);
	}
}

void oc_dialog_open_resv_create(struct oc_app *app)
{
	char targets[4096] = "", name[64];
	if (app->worker)
		default_targets(app, targets, sizeof(targets));
	oc_plan_propose_resv_name(time(NULL), name, sizeof(name));
	static const char *const labels[] = {"Name", "Nodes", "Start", "Duration", "Users", "Flags"};
	const char *values[] = {name, targets, "now", "infinite", "root", "MAINT,IGNORE_JOBS"};
	dialog_open(app, DLG_RESV_CREATE, "Create a maintenance reservation", labels, values, 6, -1);
}

void oc_dialog_open_resv_delete(struct oc_app *app)
{
	char buf[8];
	const char *name = oc_app_selected(app, OC_SEL_RESERVATION, buf, sizeof(buf));
	if (!name) {
		oc_app_message(app, true, " select a reservation in the reservations view (6) first");
		return;
	}
	static const char *const labels[] = {"Reservation"};
	const char *values[] = {name};
	dialog_open(app, DLG_RESV_DELETE, "Delete a reservation", labels, values, 1, -1);
	/* Nothing to type: straight to the confirmation. */
	if (dialog_of(app))
		to_confirm(app);
}

void oc_dialog_open_onboard(struct oc_app *app)
{
	/* The selected account of the quota view, else a new team. */
	char buf[8];
	const char *account = oc_app_selected(app, OC_SEL_ACCOUNT, buf, sizeof(buf));
	oc_dialog_open_onboard_named(app, account ? account : "");
}

void oc_dialog_open_onboard_named(struct oc_app *app, const char *name)
{
	char account[128];
	snprintf(account, sizeof(account), "%s", name);
	char gpu[32] = "", qos[OC_ONB_MAX_QOS * OC_ONB_NAME_MAX] = "", defqos[64] = "", fairshare[32] = "",
	     parent[64] = "root";
	static char users[OC_ONB_MAX_USERS * OC_ONB_NAME_MAX];
	users[0] = '\0';
	bool editing = false;
	const struct oc_accounting *acct = app->snap ? app->snap->accounting : NULL;
	for (size_t i = 0; acct && account[0] && i < acct->nassocs; i++) {
		const struct oc_assoc *a = &acct->assocs[i];
		if (strcmp(a->account, account) != 0 || a->partition)
			continue;
		if (!a->user) {
			editing = true;
			if (a->grp[OC_TRES_GPU].limit != OC_NOLIMIT)
				snprintf(gpu, sizeof(gpu), "%llu", (unsigned long long)a->grp[OC_TRES_GPU].limit);
			snprintf(qos, sizeof(qos), "%s", a->qos ? a->qos : "");
			snprintf(defqos, sizeof(defqos), "%s", a->def_qos ? a->def_qos : "");
			if (a->shares != OC_NONE)
				snprintf(fairshare, sizeof(fairshare), "%u", a->shares);
			snprintf(parent, sizeof(parent), "%s", a->parent ? a->parent : "root");
		} else {
			oc_appendf(users, sizeof(users), "%s%s", users[0] ? "," : "", a->user);
		}
	}
	static const char *const labels[ONB_NFIELDS] = {"Account", "Description", "Parent", "GPU quota",
							"QoS", "DefaultQOS", "Fairshare", "Users"};
	const char *values[ONB_NFIELDS] = {account, "", parent, gpu, qos, defqos, fairshare, users};
	dialog_open(app, DLG_ONBOARD, editing ? "Change a team (sacctmgr)" : "Onboard a team (sacctmgr)", labels,
		    values, ONB_NFIELDS, -1);
	if (!dialog_of(app))
		return;
	dialog_of(app)->editing = editing;
	snprintf(dialog_of(app)->initial_account, sizeof(dialog_of(app)->initial_account), "%.63s", account);
	snprintf(dialog_of(app)->initial_users, sizeof(dialog_of(app)->initial_users), "%s", users);
	snprintf(dialog_of(app)->initial_qos, sizeof(dialog_of(app)->initial_qos), "%s", qos);
	if (editing) /* the account is known: start at the quota */
		for (int i = 0; i < ONB_GPU; i++)
			form_driver(dialog_of(app)->form, REQ_NEXT_FIELD);
}

/* Whether word is one of the comma-separated names in list. */
static bool list_has(const char *list, const char *word)
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

/* Split a comma/space separated list into names; returns the count or -1
 * (with a message) when one does not fit. */
static int split_names(const char *list, char (*out)[OC_ONB_NAME_MAX], size_t max, const char *what, char *err,
		       size_t errlen)
{
	size_t n = 0;
	for (const char *p = list; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		const char *end = p;
		while (*end && *end != ',' && *end != ' ')
			end++;
		size_t len = (size_t)(end - p);
		if (n >= max) {
			snprintf(err, errlen, "%s: more than %zu names", what, max);
			return -1;
		}
		if (len >= OC_ONB_NAME_MAX) {
			snprintf(err, errlen, "%s: \"%.*s...\" is too long", what, 20, p);
			return -1;
		}
		memcpy(out[n], p, len);
		out[n][len] = '\0';
		n++;
		p = end;
	}
	return (int)n;
}

/* A number field: "" = not set; else a positive integer. */
static int parse_count(const char *text, int64_t *out, const char *what, char *err, size_t errlen)
{
	if (!text[0]) {
		*out = OC_ONB_NONE;
		return 0;
	}
	char *end = NULL;
	long long v = strtoll(text, &end, 10);
	if (*end || v < 1 || v > 1000000000LL) {
		snprintf(err, errlen, "%s: \"%.40s\" is not a whole number of 1 or more", what, text);
		return -1;
	}
	*out = v;
	return 0;
}

/* Build the onboarding spec from the form. Returns 0 or -1 with err. */
static int onboard_spec_from_form(struct oc_dialog *d, char **v, struct oc_onb_spec *spec, char *err,
				  size_t errlen)
{
	memset(spec, 0, sizeof(*spec));
	snprintf(spec->account, sizeof(spec->account), "%s", v[ONB_ACCOUNT]);
	if (!oc_onb_name_ok(spec->account, false)) {
		snprintf(err, errlen, "Account: \"%.60s\" is not a name Slurm accepts (a-z 0-9 _ . -)",
			 v[ONB_ACCOUNT]);
		return -1;
	}
	snprintf(spec->description, sizeof(spec->description), "%s", v[ONB_DESCR]);
	snprintf(spec->parent, sizeof(spec->parent), "%s", v[ONB_PARENT]);
	if (parse_count(v[ONB_GPU], &spec->gpu_quota, "GPU quota", err, errlen) < 0 ||
	    parse_count(v[ONB_FAIRSHARE], &spec->fairshare, "Fairshare", err, errlen) < 0)
		return -1;
	spec->cpu_quota = OC_ONB_NONE;
	spec->mem_quota_mb = OC_ONB_NONE;
	int n = split_names(v[ONB_QOS], spec->qos, OC_ONB_MAX_QOS, "QoS", err, errlen);
	if (n < 0)
		return -1;
	spec->nqos = (size_t)n;
	snprintf(spec->default_qos, sizeof(spec->default_qos), "%s", v[ONB_DEFQOS]);
	char users[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX];
	n = split_names(v[ONB_USERS], users, OC_ONB_MAX_USERS, "Users", err, errlen);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		snprintf(spec->users[spec->nusers++].name, OC_ONB_NAME_MAX, "%.63s", users[i]);
	/* An edit: what was there and is no longer in the fields goes (not
	 * when the admin typed another account name: that is a new team with
	 * the same settings). */
	if (d->editing && strcmp(d->initial_account, spec->account) == 0 &&
	    (field_status(d->fields[ONB_USERS]) || field_status(d->fields[ONB_QOS]))) {
		char old[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX];
		int no = split_names(d->initial_users, old, OC_ONB_MAX_USERS, "Users", err, errlen);
		for (int i = 0; i < no; i++)
			if (!list_has(v[ONB_USERS], old[i]))
				snprintf(spec->remove_users[spec->nremove_users++], OC_ONB_NAME_MAX, "%.63s", old[i]);
		char oldq[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX];
		no = split_names(d->initial_qos, oldq, OC_ONB_MAX_QOS, "QoS", err, errlen);
		for (int i = 0; i < no; i++)
			if (!list_has(v[ONB_QOS], oldq[i]))
				snprintf(spec->remove_qos[spec->nremove_qos++], OC_ONB_NAME_MAX, "%.63s", oldq[i]);
	}
	return oc_onb_spec_check(spec, NULL, err, errlen);
}

/* ---- the QoS multi-select menu ----------------------------------------- */

static void qos_menu_open(struct oc_app *app)
{
	struct oc_dialog *d = dialog_of(app);
	const struct oc_accounting *acct = app->snap ? app->snap->accounting : NULL;
	if (!acct || !acct->nqos) {
		snprintf(d->error, sizeof(d->error), "QoS: the cluster's QoS are not known (accounting not loaded)");
		return;
	}
	char *current = field_text(d->fields[ONB_QOS]);
	d->items = calloc(acct->nqos + 1, sizeof(*d->items));
	d->item_names = calloc(acct->nqos + 1, sizeof(*d->item_names));
	if (!d->items || !d->item_names) {
		free(current);
		dialog_free_menu(d);
		return;
	}
	for (size_t i = 0; i < acct->nqos; i++) {
		char *name = strdup(acct->qos[i].name);
		ITEM *it = name ? new_item(name, "") : NULL;
		if (!it) {
			free(name);
			continue;
		}
		d->item_names[d->nitems] = name;
		d->items[d->nitems++] = it;
	}
	d->menu = new_menu(d->items);
	if (!d->menu) {
		free(current);
		dialog_free_menu(d);
		return;
	}
	menu_opts_off(d->menu, O_ONEVALUE);
	set_menu_mark(d->menu, "");
	for (size_t i = 0; i < d->nitems; i++)
		set_item_value(d->items[i], list_has(current, item_name(d->items[i])));
	free(current);
	int h = (int)d->nitems + 4 < LINES - 2 ? (int)d->nitems + 4 : LINES - 2;
	int wdt = 40;
	d->menu_win = newwin(h, wdt, (LINES - h) / 2, (COLS - wdt) / 2);
	if (!d->menu_win) {
		dialog_free_menu(d);
		return;
	}
	keypad(d->menu_win, TRUE);
	d->menu_sub = derwin(d->menu_win, h - 4, wdt - 4, 2, 2);
	set_menu_win(d->menu, d->menu_win);
	set_menu_sub(d->menu, d->menu_sub);
	set_menu_format(d->menu, h - 4, 1);
	set_menu_fore(d->menu, oc_theme_attr(OC_ROLE_SELECTED));
	d->menu_panel = new_panel(d->menu_win);
	post_menu(d->menu);
	d->stage = DLG_QOS_MENU;
}

static void qos_menu_close(struct oc_app *app, bool accept)
{
	struct oc_dialog *d = dialog_of(app);
	if (accept) {
		char list[1024] = "";
		for (size_t i = 0; i < d->nitems; i++)
			if (item_value(d->items[i]))
				oc_appendf(list, sizeof(list), "%s%s", list[0] ? "," : "", item_name(d->items[i]));
		set_field_buffer(d->fields[ONB_QOS], 0, list);
		set_field_status(d->fields[ONB_QOS], TRUE); /* changed by the admin */
	}
	dialog_free_menu(d);
	d->stage = DLG_FORM;
	app->dirty = true;
}

static void qos_menu_key(struct oc_app *app, bool wide, unsigned ch)
{
	struct oc_dialog *d = dialog_of(app);
	if (wide && ch == 27) {
		qos_menu_close(app, false);
	} else if ((wide && (ch == '\r' || ch == '\n')) || (!wide && ch == KEY_ENTER)) {
		qos_menu_close(app, true);
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

static void qos_menu_draw(struct oc_dialog *d)
{
	int h, w;
	getmaxyx(d->menu_win, h, w);
	box(d->menu_win, 0, 0);
	wmove(d->menu_win, 0, 2);
	wattrset(d->menu_win, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(d->menu_win, " QoS: Space toggles, Enter takes ", w - 4, false, false);
	wattrset(d->menu_win, A_NORMAL);
	/* [x] marks, meaningful without colour. */
	int top = top_row(d->menu);
	for (int r = 0; r < h - 4 && top + r < (int)d->nitems; r++) {
		mvwaddstr(d->menu_win, 2 + r, 1, item_value(d->items[top + r]) ? "x" : " ");
	}
	touchwin(d->menu_win);
	update_panels();
	doupdate();
}

/* ---- live checks ----------------------------------------------------------- */

static void onboard_live_check(struct oc_app *app);

/* Runs the live check of what was typed since the last one: the keys
 * read so far are handled first (not after each key: a paste would make the
 * checks quadratic). */
static void dialog_idle(struct oc_app *app, void *priv)
{
	struct oc_dialog *d = priv;
	if (!d->live_due)
		return;
	d->live_due = false;
	if (d->form && d->stage == DLG_FORM)
		onboard_live_check(app);
}

/* Check the field the cursor is in, as it is typed: a message for the
 * line under the form ("" when fine). */
static void onboard_live_check(struct oc_app *app)
{
	struct oc_dialog *d = dialog_of(app);
	form_driver(d->form, REQ_VALIDATION);
	int cur = field_index(current_field(d->form));
	char *v = field_text(d->fields[cur]);
	if (!v)
		return;
	d->error[0] = '\0';
	int64_t num;
	const struct oc_accounting *acct = app->snap ? app->snap->accounting : NULL;
	switch (cur) {
	case ONB_ACCOUNT:
	case ONB_PARENT:
		if (v[0] && !oc_onb_name_ok(v, false))
			snprintf(d->error, sizeof(d->error), "%s: not a name Slurm accepts (a-z 0-9 _ . -)",
				 cur == ONB_ACCOUNT ? "Account" : "Parent");
		break;
	case ONB_GPU:
	case ONB_FAIRSHARE:
		parse_count(v, &num, cur == ONB_GPU ? "GPU quota" : "Fairshare", d->error, sizeof(d->error));
		break;
	case ONB_QOS:
	case ONB_DEFQOS: {
		char names[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX];
		int n = split_names(v, names, OC_ONB_MAX_QOS, "QoS", d->error, sizeof(d->error));
		for (int i = 0; i < n && acct && acct->nqos && !d->error[0]; i++) {
			bool known = false;
			for (size_t q = 0; q < acct->nqos && !known; q++)
				known = strcmp(acct->qos[q].name, names[i]) == 0;
			if (!known)
				snprintf(d->error, sizeof(d->error), "%s: no QoS %.63s on this cluster (F2 lists them)",
					 cur == ONB_QOS ? "QoS" : "DefaultQOS", names[i]);
		}
		break;
	}
	case ONB_USERS: {
		char names[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX];
		int n = split_names(v, names, OC_ONB_MAX_USERS, "Users", d->error, sizeof(d->error));
		for (int i = 0; i < n && !d->error[0]; i++) {
			if (!oc_onb_name_ok(names[i], true))
				snprintf(d->error, sizeof(d->error), "Users: %.63s is not a name Slurm accepts", names[i]);
			else if (!getpwnam(names[i]))
				snprintf(d->error, sizeof(d->error),
					 "Users: %.63s has no OS account (getpwnam): create it first", names[i]);
		}
		break;
	}
	default: break;
	}
	free(v);
}

/* ---- confirmation -------------------------------------------------------- */

/* Running jobs on the named nodes, for the confirmation ("drain lets
 * them finish"). Returns how many nodes run jobs. */
static size_t busy_nodes_text(struct oc_app *app, char **names, size_t n, char *out, size_t len)
{
	const struct oc_snapshot *s = app->snap;
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
				oc_appendf(out, len, "    %s: %zu job%s (%s%s)\n", names[i], cnt, cnt == 1 ? "" : "s", jobs,
					cnt > 4 ? ", ..." : "");
		}
	}
	if (busy > 8)
		oc_appendf(out, len, "    ... and %zu more nodes\n", busy - 8);
	return busy;
}

/* Reservations that overlap [start, end) on any of the nodes. */
static size_t resv_overlaps(struct oc_app *app, char **names, size_t n, time_t start, time_t end, char *out,
			    size_t len)
{
	const struct oc_snapshot *s = app->snap;
	size_t found = 0;
	for (size_t r = 0; s->reservations && r < s->reservations->n; r++) {
		const struct oc_reservation *rv = &s->reservations->v[r];
		if (rv->end_time <= start || (end && rv->start_time >= end))
			continue;
		bool shares = false;
		for (uint32_t k = 0; k < rv->node_idx_count && !shares; k++)
			for (size_t i = 0; i < n && !shares; i++)
				shares = s->nodes && rv->node_idx[k] < s->nodes->n &&
					 strcmp(s->nodes->v[rv->node_idx[k]].name, names[i]) == 0;
		if (shares) {
			found++;
			oc_appendf(out, len, "    reservation %s (%s) holds some of these nodes in that time\n", rv->name,
				rv->nodes ? rv->nodes : "");
		}
	}
	return found;
}

static int validate_nodes(struct oc_app *app, const char *expr, char ***names, size_t *n, char *compressed,
			  size_t clen, char *err, size_t errlen)
{
	const struct oc_writer *w = oc_worker_writer(app->worker);
	if (!expr[0]) {
		snprintf(err, errlen, "Nodes: give a node or a hostlist such as gpu-st-b300-[3-5,9]");
		return -1;
	}
	/* Every name is checked against the node list: without it a typo
	 * could reach slurmctld, which stops at the first unknown name. */
	if (!app->snap->status[OC_PART_NODES].fetched || !app->snap->nodes || !app->snap->nodes->n) {
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
		if (oc_nodes_find(app->snap->nodes, (*names)[i]) < 0) {
			snprintf(err, errlen, "Nodes: %.128s is not a node of this cluster", (*names)[i]);
			oc_writer_names_free(names, *n);
			return -1;
		}
	char *c = w->ops->hostlist_compress(w->ctx, (const char *const *)*names, *n);
	snprintf(compressed, clen, "%s", c ? c : expr);
	free(c);
	return 0;
}

static void to_confirm(struct oc_app *app)
{
	struct oc_dialog *d = dialog_of(app);
	char *v[DLG_MAX_FIELDS] = {0};
	for (int i = 0; i < d->nfields; i++) {
		form_driver(d->form, REQ_VALIDATION);
		v[i] = field_text(d->fields[i]);
	}
	d->error[0] = '\0';
	d->text[0] = '\0';
	memset(&d->req, 0, sizeof(d->req));
	/* U+FFFD: bytes the terminal sent that are not UTF-8 (screen.c). */
	for (int i = 0; i < d->nfields; i++)
		if (v[i] && strstr(v[i], "\xef\xbf\xbd")) {
			snprintf(d->error, sizeof(d->error),
				 "%s: the terminal sent bytes that are not UTF-8 (shown as \xef\xbf\xbd): retype it",
				 d->labels[i]);
			for (int k = 0; k < d->nfields; k++)
				free(v[k]);
			app->dirty = true;
			return;
		}
	char **names = NULL;
	size_t n = 0;
	char cmd[8192];
	switch (d->purpose) {
	case DLG_DRAIN:
	case DLG_RESUME:
	case DLG_UNDRAIN: {
		enum oc_node_op op = d->purpose == DLG_DRAIN ? OC_NODE_OP_DRAIN
				     : d->purpose == DLG_RESUME ? OC_NODE_OP_RESUME
								 : OC_NODE_OP_UNDRAIN;
		if (validate_nodes(app, v[0] ? v[0] : "", &names, &n, d->req.nodes, sizeof(d->req.nodes), d->error,
				   sizeof(d->error)) < 0)
			break;
		if (op == OC_NODE_OP_DRAIN &&
		    oc_plan_check_reason(v[1] ? v[1] : "", d->error, sizeof(d->error)) < 0)
			break;
		d->req.kind = OC_ACTION_NODE_UPDATE;
		d->req.op = op;
		if (op == OC_NODE_OP_DRAIN)
			snprintf(d->req.reason, sizeof(d->req.reason), "%s", v[1]);
		oc_plan_node_update(d->req.nodes, op, d->req.reason, cmd, sizeof(cmd));
		snprintf(d->req.command, sizeof(d->req.command), "%s", cmd);
		oc_appendf(d->text, sizeof(d->text), "%s %zu node%s: %s\n", d->title, n, n == 1 ? "" : "s", d->req.nodes);
		if (op == OC_NODE_OP_DRAIN)
			oc_appendf(d->text, sizeof(d->text), "Reason: %s\n", d->req.reason);
		oc_appendf(d->text, sizeof(d->text), "\nEquivalent command:\n  %s\n", cmd);
		if (op == OC_NODE_OP_DRAIN && !app->snap->status[OC_PART_JOBS].fetched) {
			oc_appendf(d->text, sizeof(d->text), "\nRunning jobs on these nodes: unknown (jobs not loaded).\n");
		} else if (op == OC_NODE_OP_DRAIN) {
			char busy[2048] = "";
			if (busy_nodes_text(app, names, n, busy, sizeof(busy)))
				oc_appendf(d->text, sizeof(d->text),
					"\nStill running jobs (drain lets them finish; no new job starts there):\n%s",
					busy);
		}
		break;
	}
	case DLG_RESV_CREATE: {
		struct oc_resv_spec *sp = &d->req.resv;
		if (oc_plan_check_resv_name(v[0] ? v[0] : "", d->error, sizeof(d->error)) < 0)
			break;
		if (validate_nodes(app, v[1] ? v[1] : "", &names, &n, sp->nodes, sizeof(sp->nodes), d->error,
				   sizeof(d->error)) < 0)
			break;
		char perr[256];
		if (oc_plan_parse_start(v[2] ? v[2] : "", time(NULL), &sp->start, perr, sizeof(perr)) < 0) {
			snprintf(d->error, sizeof(d->error), "Start: %s", perr);
			break;
		}
		if (oc_plan_parse_duration(v[3] ? v[3] : "", &sp->duration_min, perr, sizeof(perr)) < 0) {
			snprintf(d->error, sizeof(d->error), "Duration: %s", perr);
			break;
		}
		if (!v[4] || !v[4][0]) {
			snprintf(d->error, sizeof(d->error), "Users: give at least one user (the runbook uses root)");
			break;
		}
		snprintf(sp->name, sizeof(sp->name), "%s", v[0]);
		snprintf(sp->users, sizeof(sp->users), "%s", v[4]);
		snprintf(sp->flags, sizeof(sp->flags), "%s", v[5] ? v[5] : "");
		d->req.kind = OC_ACTION_RESV_CREATE;
		oc_plan_resv_create(sp, cmd, sizeof(cmd));
		snprintf(d->req.command, sizeof(d->req.command), "%s", cmd);
		oc_appendf(d->text, sizeof(d->text), "Create reservation %s on %zu node%s: %s\n",
			sp->name[0] ? sp->name : "(named by Slurm)", n, n == 1 ? "" : "s", sp->nodes);
		oc_appendf(d->text, sizeof(d->text), "\nEquivalent command:\n  %s\n", cmd);
		char warn[4096] = "";
		size_t busy = busy_nodes_text(app, names, n, warn, sizeof(warn));
		time_t start = sp->start ? sp->start : time(NULL);
		time_t end = sp->duration_min < 0 ? 0 : start + sp->duration_min * 60;
		char ov[2048] = "";
		size_t overlaps = resv_overlaps(app, names, n, start, end, ov, sizeof(ov));
		if (busy || overlaps)
			oc_appendf(d->text, sizeof(d->text), "\nWARNING:\n");
		if (busy)
			oc_appendf(d->text, sizeof(d->text), "  nodes still run jobs%s:\n%s",
				strstr(sp->flags, "IGNORE_JOBS") ? " (IGNORE_JOBS: the reservation starts anyway)"
								 : " (without IGNORE_JOBS Slurm refuses)",
				warn);
		if (overlaps)
			oc_appendf(d->text, sizeof(d->text), "%s", ov);
		break;
	}
	case DLG_ONBOARD:
		if (onboard_spec_from_form(d, v, &d->req.onb, d->error, sizeof(d->error)) < 0)
			break;
		/* The preview needs the cluster's accounting (sacctmgr): the
		 * worker reads it, the screen stays live. */
		d->req.kind = OC_ACTION_ONBOARD_PREVIEW;
		if (oc_worker_submit(app->worker, &d->req) < 0) {
			snprintf(d->error, sizeof(d->error), "an action is still running");
			break;
		}
		d->stage = DLG_PREVIEW;
		d->submitted = time(NULL);
		for (int i = 0; i < d->nfields; i++)
			free(v[i]);
		app->dirty = true;
		return;
	case DLG_RESV_DELETE:
		if (!v[0] || !v[0][0]) {
			snprintf(d->error, sizeof(d->error), "Reservation: give its name");
			break;
		}
		d->req.kind = OC_ACTION_RESV_DELETE;
		snprintf(d->req.resv_name, sizeof(d->req.resv_name), "%s", v[0]);
		oc_plan_resv_delete(d->req.resv_name, cmd, sizeof(cmd));
		snprintf(d->req.command, sizeof(d->req.command), "%s", cmd);
		oc_appendf(d->text, sizeof(d->text), "Delete reservation %s\n\nEquivalent command:\n  %s\n",
			d->req.resv_name, cmd);
		break;
	}
	oc_writer_names_free(&names, n);
	for (int i = 0; i < d->nfields; i++)
		free(v[i]);
	d->scroll = 0;
	if (!d->error[0]) {
		oc_appendf(d->text, sizeof(d->text), "\n[Enter] apply    [Esc] %s",
			d->purpose == DLG_RESV_DELETE ? "cancel" : "back to the form");
		d->stage = DLG_CONFIRM;
	}
	app->dirty = true;
}

static void remember_reason(struct oc_app *app, const char *reason)
{
	if (reason[0] && !oc_tagset_has(&app->recent_reasons, reason))
		oc_tagset_toggle(&app->recent_reasons, reason);
}

static void submit(struct oc_app *app)
{
	struct oc_dialog *d = dialog_of(app);
	if (d->purpose == DLG_ONBOARD) {
		d->req.kind = OC_ACTION_ONBOARD;
		d->req.onb_use_preview = true; /* exactly the commands shown */
	}
	if (oc_worker_submit(app->worker, &d->req) < 0) {
		snprintf(d->error, sizeof(d->error), "an action is still running");
		d->stage = DLG_FORM;
		return;
	}
	if (d->req.kind == OC_ACTION_NODE_UPDATE && d->req.op == OC_NODE_OP_DRAIN)
		remember_reason(app, d->req.reason);
	d->stage = DLG_BUSY;
	d->submitted = time(NULL);
	app->dirty = true;
}

static bool dialog_poll(struct oc_app *app, void *priv)
{
	struct oc_dialog *d = priv;
	struct oc_action_result res;
	if (!app->worker || !oc_worker_take_result(app->worker, &res))
		return true;
	/* Show what happened now; the tables follow at the next refresh. */
	app->hooks->refresh_now(app->hooks->ctx);
	if (d->stage == DLG_PREVIEW) {
		d->text[0] = '\0';
		d->scroll = 0;
		if (res.status != OC_ACTION_OK) {
			/* Back to the form with the reasons; nothing applied. */
			snprintf(d->error, sizeof(d->error), "%.200s%s%.280s", res.summary, res.details[0] ? ": " : "",
				 res.details);
			for (char *p = d->error; *p; p++)
				if (*p == '\n')
					*p = ' ';
			d->stage = DLG_FORM;
		} else if (strcmp(res.summary, "nothing to change") == 0) {
			oc_appendf(d->text, sizeof(d->text), "%s\nNothing to change: the cluster is already as asked.\n\n[any key] close",
				   res.details);
			d->error[0] = '\0';
			d->stage = DLG_RESULT;
		} else {
			oc_appendf(d->text, sizeof(d->text), "%s\n[Enter] apply %s    [Esc] back to the form", res.details,
				   res.summary);
			/* The audit line names the commands the preview showed. */
			d->req.command[0] = '\0';
			const char *p = strstr(res.details, "sacctmgr commands, in order:\n");
			if (p)
				snprintf(d->req.command, sizeof(d->req.command), "%s", p + 29);
			d->stage = DLG_CONFIRM;
		}
		app->dirty = true;
		return true;
	}
	d->stage = DLG_RESULT;
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
	/* Tags were the targets: clear them after a successful node action. */
	if (res.status == OC_ACTION_OK && d->req.kind == OC_ACTION_NODE_UPDATE)
		oc_tagset_clear(&app->node_tags);
	app->dirty = true;
	return true;
}

/* Keys while a dialog is open. wide: the key is a character (not a curses
 * key code). */
static void dialog_key(struct oc_app *app, void *priv, int key, bool wide, int act)
{
	(void)act; /* raw keys */
	struct oc_dialog *d = priv;
	unsigned ch = (unsigned)key;
	app->dirty = true;
	if (!wide && ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		return;
	}
	if ((d->stage == DLG_CONFIRM || d->stage == DLG_RESULT) && !wide &&
	    (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_PPAGE || ch == KEY_NPAGE)) {
		int page = d->shown_lines > 1 ? d->shown_lines - 1 : 1;
		int max = d->text_lines - d->shown_lines > 0 ? d->text_lines - d->shown_lines : 0;
		d->scroll += ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -page : page;
		if (d->scroll > max)
			d->scroll = max;
		if (d->scroll < 0)
			d->scroll = 0;
		return;
	}
	switch (d->stage) {
	case DLG_QOS_MENU:
		qos_menu_key(app, wide, ch);
		return;
	case DLG_PREVIEW:
		oc_app_message(app, false, " reading the accounting state...");
		return;
	case DLG_RESULT:
		dialog_close(app);
		return;
	case DLG_BUSY:
		oc_app_message(app, false, " applying... (the result appears here; the console stays usable)");
		return;
	case DLG_CONFIRM:
		if (wide && (ch == '\r' || ch == '\n'))
			submit(app);
		else if (wide && ch == 27 && d->purpose == DLG_RESV_DELETE) {
			dialog_close(app);
			oc_app_message(app, false, " cancelled, nothing changed");
		} else if (wide && ch == 27)
			d->stage = DLG_FORM;
		else if (!wide && ch == KEY_ENTER)
			submit(app);
		return;
	case DLG_FORM:
		break;
	}
	if (wide) {
		switch (ch) {
		case 27: /* Esc: nothing changed */
			dialog_close(app);
			oc_app_message(app, false, " cancelled, nothing changed");
			return;
		case '\r':
		case '\n':
			to_confirm(app);
			return;
		case '\t':
			form_driver(d->form, REQ_NEXT_FIELD);
			form_driver(d->form, REQ_END_LINE);
			return;
		case 127:
		case 8:
			form_driver(d->form, REQ_DEL_PREV);
			return;
		case 21: /* C-u */
			form_driver(d->form, REQ_CLR_FIELD);
			return;
		case 1: /* C-a */
			form_driver(d->form, REQ_BEG_LINE);
			return;
		case 5: /* C-e */
			form_driver(d->form, REQ_END_LINE);
			return;
		case 15: /* C-o: choose QoS from the list */
			if (d->purpose == DLG_ONBOARD)
				qos_menu_open(app);
			return;
		default:
			if (ch >= 0x20 && ch != 0x7f)
				form_driver_w(d->form, OK, (wchar_t)ch);
			d->error[0] = '\0';
			/* Checked once the typing (or a paste) pauses: a check
			 * per key of a 10 KB paste costs seconds (oc_dialog_idle). */
			d->live_due = d->purpose == DLG_ONBOARD;
			return;
		}
	}
	if (ch == (unsigned)KEY_F(2) && d->purpose == DLG_ONBOARD) {
		qos_menu_open(app);
		return;
	}
	int cur = field_index(current_field(d->form));
	switch (ch) {
	case KEY_ENTER: to_confirm(app); return;
	case KEY_BTAB: form_driver(d->form, REQ_PREV_FIELD); form_driver(d->form, REQ_END_LINE); return;
	case KEY_LEFT: form_driver(d->form, REQ_PREV_CHAR); return;
	case KEY_RIGHT: form_driver(d->form, REQ_NEXT_CHAR); return;
	case KEY_HOME: form_driver(d->form, REQ_BEG_LINE); return;
	case KEY_END: form_driver(d->form, REQ_END_LINE); return;
	case KEY_BACKSPACE: form_driver(d->form, REQ_DEL_PREV); return;
	case KEY_DC: form_driver(d->form, REQ_DEL_CHAR); return;
	case KEY_UP:
	case KEY_DOWN:
		if (cur == d->reason_field && d->nhistory) {
			/* Offer the reasons for reuse. */
			if (ch == KEY_UP)
				d->hist_pos = d->hist_pos + 1 < (long)d->nhistory ? d->hist_pos + 1 : 0;
			else
				d->hist_pos = d->hist_pos > 0 ? d->hist_pos - 1 : (long)d->nhistory - 1;
			set_field_buffer(d->fields[cur], 0, d->history[d->hist_pos]);
			form_driver(d->form, REQ_END_LINE);
			return;
		}
		form_driver(d->form, ch == KEY_UP ? REQ_PREV_FIELD : REQ_NEXT_FIELD);
		form_driver(d->form, REQ_END_LINE);
		return;
	default: return;
	}
}

/* Text over several lines of a window; long lines wrap (the rest
 * indented), so a long command line is shown whole. */
static int draw_text(WINDOW *w, int y, int x, int width, int maxy, const char *text, int skip, int *total)
{
	const char *p = text;
	int line_no = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
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

static void dialog_draw(struct oc_app *app, void *priv, int area_y, int area_h, int area_w)
{
	/* Sized on the whole screen (it was built for it). */
	(void)area_y;
	(void)area_h;
	(void)area_w;
	struct oc_dialog *d = priv;
	if (d->stage == DLG_FORM || d->stage == DLG_QOS_MENU) {
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
		for (int i = 0; i < d->nfields; i++) {
			wmove(w, 2 + i * d->spacing, 2);
			oc_put_text(w, d->labels[i], 12, true, false);
		}
		wmove(w, h - 3, 2);
		wattrset(w, oc_theme_attr(OC_ROLE_BAD));
		oc_put_text(w, d->error, wd - 4, true, false);
		wattrset(w, oc_theme_attr(OC_ROLE_DIM));
		wmove(w, h - 2, 2);
		oc_put_text(w,
			    d->reason_field >= 0	    ? "Enter review  Tab next field  Up/Down reuse a reason  Esc cancel"
			    : d->purpose == DLG_ONBOARD ? "Enter preview  Tab next field  F2/C-o choose QoS  Esc cancel"
							: "Enter review  Tab next field  Esc cancel",
			    wd - 4, true, false);
		wattrset(w, A_NORMAL);
		/* stdscr was redrawn under the form: the whole form window must
		 * go out again, not only its changed lines. */
		touchwin(w);
		if (d->stage == DLG_QOS_MENU) {
			curs_set(0);
			qos_menu_draw(d);
			return;
		}
		update_panels();
		pos_form_cursor(d->form);
		curs_set(1);
		wnoutrefresh(w);
		doupdate();
		return;
	}
	/* Confirmation, progress and result: a text panel. */
	int width = COLS - 4 > 110 ? 110 : COLS - 4;
	int height = LINES - 2 > 40 ? 40 : LINES - 2;
	if (width < 20 || height < 5)
		return;
	WINDOW *w = newwin(height, width, (LINES - height) / 2, (COLS - width) / 2);
	if (!w)
		return;
	PANEL *p = new_panel(w);
	box(w, 0, 0);
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(d->stage == DLG_RESULT && d->error[0] ? OC_ROLE_BAD : OC_ROLE_TITLE));
	char title[200];
	if (d->stage == DLG_CONFIRM)
		snprintf(title, sizeof(title), " Confirm: %s ", d->title);
	else if (d->stage == DLG_PREVIEW)
		snprintf(title, sizeof(title), " %s: reading the accounting state... ", d->title);
	else if (d->stage == DLG_BUSY)
		snprintf(title, sizeof(title), " %s: applying... %llds ", d->title,
			 (long long)(time(NULL) - d->submitted));
	else
		snprintf(title, sizeof(title), " %.100s: %.60s ", d->title, d->error[0] ? d->error : "done");
	oc_put_text(w, title, width - 4, false, false);
	wattrset(w, A_NORMAL);
	if (d->stage == DLG_PREVIEW) {
		draw_text(w, 2, 2, width - 4, height - 1, "Asking sacctmgr what the cluster has for this account.", 0,
			  NULL);
	} else if (d->stage == DLG_BUSY && d->purpose == DLG_ONBOARD) {
		/* A progress bar of the sacctmgr steps. */
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
	} else if (d->stage == DLG_BUSY) {
		char busy[400];
		snprintf(busy, sizeof(busy),
			 "Waiting for slurmctld (it gives up after its MessageTimeout).\n\n%.200s",
			 d->req.command);
		draw_text(w, 2, 2, width - 4, height - 1, busy, 0, NULL);
	} else {
		/* Confirmation and result: scrollable, with a footer saying so. */
		d->shown_lines = height - 4;
		draw_text(w, 2, 2, width - 4, height - 2, d->text, d->scroll, &d->text_lines);
		if (d->text_lines > d->shown_lines) {
			wmove(w, height - 1, 2);
			char more[96];
			snprintf(more, sizeof(more), " lines %d-%d of %d: Up/Down/PgUp/PgDn scroll ", d->scroll + 1,
				 d->scroll + d->shown_lines < d->text_lines ? d->scroll + d->shown_lines : d->text_lines,
				 d->text_lines);
			wattrset(w, oc_theme_attr(OC_ROLE_WARN));
			oc_put_text(w, more, width - 4, false, false);
			wattrset(w, A_NORMAL);
		}
	}
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

