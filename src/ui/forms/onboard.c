/* forms/onboard.c: the onboarding form: a new team (account, its GPU
 * quota, QoS, default QoS, fairshare and users), or a team to change (its
 * users and QoS prefilled; deleting one removes it). The worker first
 * reads what the cluster has (a preview of the sacctmgr commands), then
 * applies exactly those commands. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/plan.h"
#include "core/strbuf.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/forms.h"
#include "ui/overlay.h"
#include "ui/registry.h"

/* Fields of the onboarding form. */
enum { ONB_ACCOUNT, ONB_DESCR, ONB_PARENT, ONB_GPU, ONB_QOS, ONB_DEFQOS, ONB_FAIRSHARE, ONB_USERS, ONB_NFIELDS };
static const char *const labels[ONB_NFIELDS] = {"Account", "Description", "Parent",    "GPU quota",
						"QoS",     "DefaultQOS",  "Fairshare", "Users"};

/* The account as the form opened on it: an edit removes what the admin
 * deleted from the fields. */
struct onb_state {
	bool editing;
	char initial_account[OC_ONB_NAME_MAX];
	char initial_users[OC_ONB_MAX_USERS * OC_ONB_NAME_MAX];
	char initial_qos[OC_ONB_MAX_QOS * OC_ONB_NAME_MAX];
};

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
static int onboard_spec(const struct oc_form_ctx *c, char *const *v, struct oc_onb_spec *spec, char *err,
			size_t errlen)
{
	const struct onb_state *d = c->state;
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
	    (c->changed[ONB_USERS] || c->changed[ONB_QOS])) {
		char old[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX];
		int no = split_names(d->initial_users, old, OC_ONB_MAX_USERS, "Users", err, errlen);
		for (int i = 0; i < no; i++)
			if (!oc_form_list_has(v[ONB_USERS], old[i]))
				snprintf(spec->remove_users[spec->nremove_users++], OC_ONB_NAME_MAX, "%.63s", old[i]);
		char oldq[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX];
		no = split_names(d->initial_qos, oldq, OC_ONB_MAX_QOS, "QoS", err, errlen);
		for (int i = 0; i < no; i++)
			if (!oc_form_list_has(v[ONB_QOS], oldq[i]))
				snprintf(spec->remove_qos[spec->nremove_qos++], OC_ONB_NAME_MAX, "%.63s", oldq[i]);
	}
	return oc_onb_spec_check(spec, NULL, err, errlen);
}

static int plan_onboard(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
			size_t textlen, char *err, size_t errlen)
{
	(void)text;
	(void)textlen;
	if (onboard_spec(c, v, &req->onb, err, errlen) < 0)
		return -1;
	/* The preview needs the cluster's accounting (sacctmgr). */
	req->kind = OC_ACTION_ONBOARD_PREVIEW;
	return 0;
}

/* The audit line names the commands the preview showed. */
static void previewed(struct oc_action_req *req, const struct oc_action_result *res)
{
	req->command[0] = '\0';
	const char *p = strstr(res->details, "sacctmgr commands, in order:\n");
	if (p)
		snprintf(req->command, sizeof(req->command), "%s", p + 29);
}

static void applying(struct oc_app *app, struct oc_action_req *req)
{
	(void)app;
	req->kind = OC_ACTION_ONBOARD;
	req->onb_use_preview = true; /* exactly the commands shown */
}

/* The cluster's QoS for F2/C-o. */
/* Check the field the cursor is in, as it is typed. */
static void live(const struct oc_form_ctx *c, int cur, const char *v, char *err, size_t errlen)
{
	int64_t num;
	const struct oc_accounting *acct = c->snap ? c->snap->accounting : NULL;
	switch (cur) {
	case ONB_ACCOUNT:
	case ONB_PARENT:
		if (v[0] && !oc_onb_name_ok(v, false))
			snprintf(err, errlen, "%s: not a name Slurm accepts (a-z 0-9 _ . -)",
				 cur == ONB_ACCOUNT ? "Account" : "Parent");
		break;
	case ONB_GPU:
	case ONB_FAIRSHARE:
		parse_count(v, &num, cur == ONB_GPU ? "GPU quota" : "Fairshare", err, errlen);
		break;
	case ONB_QOS:
	case ONB_DEFQOS: {
		char names[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX];
		int n = split_names(v, names, OC_ONB_MAX_QOS, "QoS", err, errlen);
		for (int i = 0; i < n && acct && acct->nqos && !err[0]; i++) {
			bool known = false;
			for (size_t q = 0; q < acct->nqos && !known; q++)
				known = strcmp(acct->qos[q].name, names[i]) == 0;
			if (!known)
				snprintf(err, errlen, "%s: no QoS %.63s on this cluster (F2 lists them)",
					 cur == ONB_QOS ? "QoS" : "DefaultQOS", names[i]);
		}
		break;
	}
	case ONB_USERS: {
		char names[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX];
		int n = split_names(v, names, OC_ONB_MAX_USERS, "Users", err, errlen);
		for (int i = 0; i < n && !err[0]; i++) {
			if (!oc_onb_name_ok(names[i], true))
				snprintf(err, errlen, "Users: %.63s is not a name Slurm accepts", names[i]);
			else if (!getpwnam(names[i]))
				snprintf(err, errlen,
					 "Users: %.63s has no OS account (getpwnam): create it first", names[i]);
		}
		/* Not an error: a user already in another team keeps it as
		 * the default account (sacctmgr does not change it). */
		const struct onb_state *st = c->state;
		for (int i = 0; i < n && !err[0] && acct; i++) {
			char other[256] = "";
			for (size_t k = 0; k < acct->nassocs; k++) {
				const struct oc_assoc *a = &acct->assocs[k];
				if (a->user && a->account && !a->partition && strcmp(a->user, names[i]) == 0 &&
				    strcmp(a->account, st->initial_account) != 0 && !oc_form_list_has(other, a->account))
					oc_appendf(other, sizeof(other), "%s%s", other[0] ? "," : "", a->account);
			}
			if (other[0])
				snprintf(err, errlen,
					 "note: %.63s is in %.120s already; added here, the default account stays as it is "
					 "(jobs go there unless submitted with -A)",
					 names[i], other);
		}
		break;
	}
	default: break;
	}
}

const struct oc_form_kind oc_form_onboard = {
	.title = "Onboard a team (sacctmgr)",
	.nfields = ONB_NFIELDS,
	.labels = labels,
	.reason_field = -1,
	.hint = "Enter preview  Tab next field  F2/C-o choose QoS  Esc cancel",
	.choose_field = ONB_QOS,
	.choices = oc_form_qos_choices,
	.live = live,
	.plan = plan_onboard,
	.preview = true,
	.previewed = previewed,
	.progress = true,
	.applying = applying,
};

/* o on an account of the quota view: a new team, or a change of that
 * one? Asked, not guessed (a small overlay: n, c, or the arrows and
 * Enter; Esc cancels). */
struct onb_choice {
	char account[128];
	int pick; /* 0: a new team, 1: change the account */
};

static const struct oc_overlay_ops choice_ops;

static void choice_fill(struct oc_app *app, WINDOW *w, int h, int width)
{
	(void)h;
	const struct onb_choice *ch = oc_overlay_find(app, &choice_ops);
	if (!ch)
		return;
	werase(w);
	box(w, 0, 0);
	wmove(w, 0, 2);
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, " Onboarding (sacctmgr) ", width - 4, false, false);
	char line[2][200];
	snprintf(line[0], sizeof(line[0]), "%c n  onboard a new team", ch->pick == 0 ? '>' : ' ');
	snprintf(line[1], sizeof(line[1]), "%c c  change team %s", ch->pick == 1 ? '>' : ' ', ch->account);
	for (int i = 0; i < 2; i++) {
		wmove(w, 2 + i, 2);
		wattrset(w, i == ch->pick ? oc_theme_attr(OC_ROLE_SELECTED) : A_NORMAL);
		oc_put_cell(w, line[i], width - 4, false);
	}
	wattrset(w, oc_theme_attr(OC_ROLE_DIM));
	wmove(w, 5, 2);
	oc_put_text(w, "n or c, or Up/Down and Enter; Esc cancels", width - 4, false, false);
	wattrset(w, A_NORMAL);
}

static void choice_draw(struct oc_app *app, void *priv, int y, int h, int width)
{
	const struct onb_choice *ch = priv;
	int w = (int)strlen(ch->account) + 24;
	if (w < 48)
		w = 48;
	oc_app_panel_once(app, 7, w < width - 4 ? w : width - 4, y, h, width, choice_fill);
}

static void choice_key(struct oc_app *app, void *priv, int ch, bool wide, int act)
{
	struct onb_choice *c = priv;
	int pick = -1;
	if (wide && (ch == 'n' || ch == 'N'))
		pick = 0;
	else if (wide && (ch == 'c' || ch == 'C'))
		pick = 1;
	else if (act == OC_ACT_MOVE_UP || act == OC_ACT_MOVE_DOWN) {
		c->pick = act == OC_ACT_MOVE_UP ? 0 : 1;
		app->dirty = true;
		return;
	} else if (act == OC_ACT_OPEN)
		pick = c->pick;
	else if (act != OC_ACT_BACK && act != OC_ACT_QUIT)
		return; /* other keys do nothing here */
	char account[128];
	snprintf(account, sizeof(account), "%s", c->account);
	oc_overlay_remove(app, &choice_ops); /* frees c */
	if (pick >= 0)
		oc_dialog_open_onboard_named(app, pick ? account : "");
}

static void choice_close(struct oc_app *app, void *priv)
{
	(void)app;
	free(priv);
}

static const struct oc_overlay_ops choice_ops = {
	.name = "onboard-choice",
	.key = choice_key,
	.draw = choice_draw,
	.close = choice_close,
};

void oc_dialog_open_onboard(struct oc_app *app)
{
	/* On an account of the quota view: ask whether to change it or to
	 * onboard a new team; elsewhere a new team. */
	char buf[8];
	const char *account = oc_app_selected(app, OC_SEL_ACCOUNT, buf, sizeof(buf));
	if (!account) {
		oc_dialog_open_onboard_named(app, "");
		return;
	}
	struct onb_choice *c = calloc(1, sizeof(*c));
	if (!c) {
		oc_app_message(app, true, " out of memory");
		return;
	}
	snprintf(c->account, sizeof(c->account), "%s", account);
	c->pick = 1;
	oc_overlay_push(app, &choice_ops, c);
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
	const char *values[ONB_NFIELDS] = {account, "", parent, gpu, qos, defqos, fairshare, users};
	struct onb_state *st = calloc(1, sizeof(*st));
	if (!st) {
		oc_app_message(app, true, " out of memory");
		return;
	}
	st->editing = editing;
	snprintf(st->initial_account, sizeof(st->initial_account), "%.63s", account);
	snprintf(st->initial_users, sizeof(st->initial_users), "%s", users);
	snprintf(st->initial_qos, sizeof(st->initial_qos), "%s", qos);
	/* An account that is known starts at the quota. */
	oc_form_open(app, &oc_form_onboard, editing ? "Change a team (sacctmgr)" : "Onboard a team (sacctmgr)", values,
		     st, editing ? ONB_GPU : 0, false);
}

