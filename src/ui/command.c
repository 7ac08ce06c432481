/* command.c: the : command line (as k9s). The commands are entries of
 * the action registry (actions.c: names, aliases, argument, handler):
 * jump to a view by name, with a filter (for the queue: a partition),
 * quit, help, onboard, the rehearsal verdicts. Tab completes command
 * names and partition names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui/app.h"
#include "ui/command.h"
#include "ui/ui_config.h"
#include "ui/listview.h"
#include "ui/registry.h"

/* Whether word is one of the space-separated names. */
static bool has_name(const char *names, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = names; p && *p;) {
		size_t n = strcspn(p, " ");
		if (n == wl && strncasecmp(p, word, n) == 0)
			return true;
		p += n;
		p += strspn(p, " ");
	}
	return false;
}

int oc_command_parse(const char *line, char *arg, size_t arg_len, char *err, size_t err_len)
{
	if (arg_len)
		arg[0] = '\0';
	line += strspn(line, " \t");
	size_t wl = strcspn(line, " \t");
	char word[64];
	if (wl == 0 || wl >= sizeof(word)) {
		snprintf(err, err_len, "unknown command '%.*s' (try :help, Tab completes)", (int)(wl > 40 ? 40 : wl),
			 line);
		return -1;
	}
	memcpy(word, line, wl);
	word[wl] = '\0';
	const char *rest = line + wl;
	rest += strspn(rest, " \t");
	size_t first = strcspn(rest, " \t");
	bool more = rest[first + strspn(rest + first, " \t")] != '\0';
	int named = -1;
	for (int i = 0; i < OC_ACT_COUNT; i++) {
		const struct oc_action_def *d = &oc_actions[i];
		if (!d->cmd || !has_name(d->cmd, word))
			continue;
		named = i;
		if ((d->args == OC_ARGS_NONE && *rest) || (d->args == OC_ARGS_WORD && more))
			continue;
		if (d->args == OC_ARGS_REST)
			snprintf(arg, arg_len, "%s", rest);
		else if (*rest)
			snprintf(arg, arg_len, "%.*s", (int)first, rest);
		return i;
	}
	if (named < 0)
		snprintf(err, err_len, "unknown command '%s' (try :help, Tab completes)", word);
	else
		snprintf(err, err_len, ":%.*s takes %s", (int)strcspn(oc_actions[named].cmd, " "),
			 oc_actions[named].cmd,
			 oc_actions[named].args == OC_ARGS_NONE ? "no argument" : "at most one argument");
	return -1;
}

/* A command of one view: run by that view when it is on screen. */
static bool view_command(struct oc_app *app, enum oc_act act, const char *arg)
{
	const struct oc_action_def *d = &oc_actions[act];
	struct oc_listview *lv = app->view[app->cur];
	if (strcmp(lv->def->name, d->in_view) == 0 && lv->def->command)
		return lv->def->command(lv, act, arg);
	/* Name the view and its key. */
	char keys[64] = "";
	for (int i = 0; i < OC_ACT_COUNT; i++)
		if (oc_actions[i].view && strcmp(oc_actions[i].view, d->in_view) == 0)
			oc_ui_keys_for(app, (enum oc_act)i, keys, sizeof(keys));
	oc_app_message(app, true, " :%.*s works in the %s view%s%s%s", (int)strcspn(d->cmd, " "), d->cmd, d->in_view,
		       keys[0] ? " (" : "", keys, keys[0] ? ")" : "");
	return false;
}

bool oc_command_run(struct oc_app *app, const char *line)
{
	if (!line[strspn(line, " \t")])
		return true; /* empty: nothing to do */
	char arg[256], err[160];
	int act = oc_command_parse(line, arg, sizeof(arg), err, sizeof(err));
	if (act < 0) {
		oc_app_message(app, true, " %s", err);
		return false;
	}
	const struct oc_action_def *d = &oc_actions[act];
	if (d->in_view)
		return view_command(app, (enum oc_act)act, arg[0] ? arg : NULL);
	if (d->run_cmd)
		return d->run_cmd(app, arg[0] ? arg : NULL);
	if (d->view) {
		/* A view's argument filters its list. */
		oc_app_goto(app, d->view, NULL);
		if (arg[0]) {
			oc_listview_set_filter(app->view[app->cur], arg);
			oc_listview_update(app->view[app->cur], app->snap);
		}
		return true;
	}
	oc_action_run(app, (enum oc_act)act);
	return true;
}

/* Candidates for the word being typed: command names, the first of each
 * entry (first word), or partition names (after a name of the queue or
 * of the nodes view; for the nodes view, reservation names too). */
static size_t candidates(struct oc_app *app, const char *first, bool second, const char *prefix,
			 const char **out, size_t max, int *outlen)
{
	size_t n = 0, pl = strlen(prefix);
	if (!second) {
		for (int i = 0; i < OC_ACT_COUNT && n < max; i++) {
			const char *c = oc_actions[i].cmd;
			if (c && strncasecmp(c, prefix, pl) == 0 && (int)strcspn(c, " ") >= (int)pl) {
				outlen[n] = (int)strcspn(c, " ");
				out[n++] = c;
			}
		}
		return n;
	}
	bool nodes = has_name(oc_actions[OC_ACT_VIEW_NODES].cmd, first);
	if ((nodes || has_name(oc_actions[OC_ACT_VIEW_QUEUE].cmd, first)) && app->snap && app->snap->partitions)
		for (size_t i = 0; i < app->snap->partitions->n && n < max; i++) {
			const struct oc_partition *p = &app->snap->partitions->v[i];
			if ((p->flags & OC_PF_HIDDEN) && !app->show_hidden)
				continue;
			if (strncmp(p->name, prefix, pl) == 0) {
				outlen[n] = (int)strlen(p->name);
				out[n++] = p->name;
			}
		}
	/* The nodes view also takes a reservation's name. */
	if (nodes && app->snap && app->snap->reservations)
		for (size_t i = 0; i < app->snap->reservations->n && n < max; i++) {
			const char *r = app->snap->reservations->v[i].name;
			if (strncmp(r, prefix, pl) == 0) {
				outlen[n] = (int)strlen(r);
				out[n++] = r;
			}
		}
	return n;
}

/* The candidates for the last word of line (into c and clen, 32 at
 * most); *prefix: that word, in line; *second: whether it is the
 * argument. */
static size_t line_candidates(struct oc_app *app, const char *line, const char **prefix, bool *second,
			      const char **c, int *clen)
{
	char first[64] = "";
	const char *space = strchr(line, ' ');
	*second = space != NULL;
	*prefix = *second ? space + 1 : line;
	if (*second)
		snprintf(first, sizeof(first), "%.*s", (int)(space - line), line);
	return candidates(app, first, *second, *prefix, c, 32, clen);
}

size_t oc_command_hint(struct oc_app *app, const char *line, char *buf, size_t len)
{
	buf[0] = '\0';
	const char *prefix, *c[32];
	int clen[32];
	bool second;
	size_t n = line_candidates(app, line, &prefix, &second, c, clen);
	if (!line[0] || strchr(prefix, ' '))
		return 0;
	if (n == 0) {
		/* Arguments other than partitions and reservations are free. */
		if (!second)
			snprintf(buf, len, "no command starts with '%s'", prefix);
		return 0;
	}
	if (n == 1 && (size_t)clen[0] == strlen(prefix))
		return 1; /* already whole */
	size_t off = 0;
	for (size_t i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%.*s", i ? "  " : "", clen[i], c[i]);
	return n;
}

void oc_command_complete(struct oc_app *app, char *line, size_t len)
{
	const char *prefix, *c[32];
	int clen[32];
	bool second;
	size_t n = line_candidates(app, line, &prefix, &second, c, clen);
	if (n == 0) {
		oc_app_message(app, true, " no completion for '%s'%s", prefix,
			       app->snap && app->snap->seq ? "" : " (no data from the cluster yet)");
		return;
	}
	/* Longest common prefix of the candidates. */
	size_t common = (size_t)clen[0];
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < common && k < (size_t)clen[i] && strncasecmp(c[i] + k, c[0] + k, 1) == 0)
			k++;
		common = k;
	}
	size_t base = (size_t)(prefix - line);
	if (base + common + 2 <= len) {
		memcpy(line + base, c[0], common);
		line[base + common] = '\0';
		/* The queue's argument completes too: go on to it. */
		if (n == 1 && !second &&
		    (c[0] == oc_actions[OC_ACT_VIEW_QUEUE].cmd || c[0] == oc_actions[OC_ACT_VIEW_NODES].cmd) &&
		    base + common + 1 < len)
			strcat(line, " ");
	}
	/* Several: they are listed above the prompt (oc_command_hint). */
}
