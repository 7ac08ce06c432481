/* command.c: the : command line (as k9s): jump to a view by name, with an
 * argument for the queue (a partition) and the nodes view (a filter);
 * Tab completes view names and partition names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui/ui_int.h"

/* Extra names a view answers to. */
static const struct {
	const char *alias, *view;
} aliases[] = {
	{"part", "partitions"}, {"p", "partitions"},  {"q", "queue"},   {"jobs", "queue"},
	{"squeue", "queue"},    {"n", "nodes"},       {"sinfo", "nodes"}, {"h", "health"},
	{"grid", "health"},     {"res", "reservations"}, {"resv", "reservations"},
	{"r", "reservations"},  {"gpu", "quota"},     {"accounts", "quota"},
};

static const char *view_for(struct oc_app *app, const char *word)
{
	for (int i = 0; i < app->nviews; i++)
		if (strcasecmp(app->view[i]->def->name, word) == 0)
			return app->view[i]->def->name;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcasecmp(aliases[i].alias, word) == 0)
			return aliases[i].view;
	return NULL;
}

bool oc_command_run(struct oc_app *app, const char *line)
{
	char buf[256], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", line);
	char *word = strtok_r(buf, " \t", &save);
	char *arg = strtok_r(NULL, " \t", &save);
	char *extra = strtok_r(NULL, " \t", &save);
	if (!word)
		return true; /* empty: nothing to do */
	if (strcmp(word, "q") == 0 && !arg) {
		/* ":q" quits, as in vim; ":queue" is the queue. */
		app->quit = true;
		return true;
	}
	if (strcasecmp(word, "quit") == 0) {
		app->quit = true;
		return true;
	}
	if (strcasecmp(word, "help") == 0) {
		oc_action_run(app, OC_ACT_HELP);
		return true;
	}
	if (!strcasecmp(word, "pass") || !strcasecmp(word, "fail") || !strcasecmp(word, "skip") ||
	    !strcasecmp(word, "note") || !strcasecmp(word, "report")) {
		/* The rest of the line is the note, spaces included. */
		const char *rest = line;
		while (*rest == ' ' || *rest == '\t')
			rest++;
		rest += strlen(word);
		while (*rest == ' ' || *rest == '\t')
			rest++;
		char verb[8];
		snprintf(verb, sizeof(verb), "%s", word);
		for (char *v = verb; *v; v++)
			*v = (char)(*v | 0x20);
		return oc_rehearsal_mark(app, verb, rest);
	}
	if (strcasecmp(word, "onboard") == 0) {
		/* ":onboard" a new team, ":onboard team-a" to change one. */
		char why[512];
		if (!oc_app_writes_allowed(app, why, sizeof(why))) {
			oc_app_message(app, true, "%s", why);
			return false;
		}
		oc_dialog_open_onboard_named(app, arg ? arg : "");
		return true;
	}
	const char *view = view_for(app, word);
	if (!view) {
		oc_app_message(app, true, " unknown command '%s' (try :help, Tab completes)", word);
		return false;
	}
	if (extra) {
		oc_app_message(app, true, " :%s takes at most one argument", view);
		return false;
	}
	if (strcmp(view, "queue") == 0 && arg && app->snap && app->snap->partitions) {
		bool known = false;
		for (size_t i = 0; i < app->snap->partitions->n; i++)
			if (strcmp(app->snap->partitions->v[i].name, arg) == 0)
				known = true;
		if (!known) {
			oc_app_message(app, true, " no partition '%s'", arg);
			return false;
		}
	}
	if (strcmp(view, "queue") == 0) {
		oc_app_goto(app, view, arg);
	} else {
		oc_app_goto(app, view, NULL);
		if (arg) {
			oc_listview_set_filter(app->view[app->cur], arg);
			oc_listview_update(app->view[app->cur], app->snap);
		}
	}
	return true;
}

/* Candidates for the word being typed: view names (first word) or
 * partition names (after "queue"). */
static size_t candidates(struct oc_app *app, const char *first, bool second, const char *prefix,
			 const char **out, size_t max)
{
	size_t n = 0, pl = strlen(prefix);
	if (!second) {
		for (int i = 0; i < app->nviews && n < max; i++)
			if (strncasecmp(app->view[i]->def->name, prefix, pl) == 0)
				out[n++] = app->view[i]->def->name;
		static const char *const extra[] = {"help", "quit", "onboard", "pass", "fail", "skip", "note", "report"};
		for (size_t i = 0; i < 8 && n < max; i++)
			if (strncasecmp(extra[i], prefix, pl) == 0)
				out[n++] = extra[i];
		return n;
	}
	const char *view = view_for(app, first);
	if (view && strcmp(view, "queue") == 0 && app->snap && app->snap->partitions)
		for (size_t i = 0; i < app->snap->partitions->n && n < max; i++) {
			const struct oc_partition *p = &app->snap->partitions->v[i];
			if ((p->flags & OC_PF_HIDDEN) && !app->show_hidden)
				continue;
			if (strncmp(p->name, prefix, pl) == 0)
				out[n++] = p->name;
		}
	return n;
}

void oc_command_complete(struct oc_app *app, char *line, size_t len)
{
	char first[64] = "";
	const char *space = strchr(line, ' ');
	bool second = space != NULL;
	const char *prefix = second ? space + 1 : line;
	if (second)
		snprintf(first, sizeof(first), "%.*s", (int)(space - line), line);
	const char *c[32];
	size_t n = candidates(app, first, second, prefix, c, 32);
	if (n == 0) {
		oc_app_message(app, true, " no completion for '%s'%s", prefix,
			       app->snap && app->snap->seq ? "" : " (no data from the cluster yet)");
		return;
	}
	/* Longest common prefix of the candidates. */
	size_t common = strlen(c[0]);
	for (size_t i = 1; i < n; i++) {
		size_t k = 0;
		while (k < common && c[i][k] && strncasecmp(c[i] + k, c[0] + k, 1) == 0)
			k++;
		common = k;
	}
	size_t base = (size_t)(prefix - line);
	if (base + common + 2 <= len) {
		memcpy(line + base, c[0], common);
		line[base + common] = '\0';
		if (n == 1 && !second && strcmp(c[0], "queue") == 0 && base + common + 1 < len)
			strcat(line, " ");
	}
	if (n > 1) {
		char msg[256];
		size_t off = 0;
		for (size_t i = 0; i < n && off < sizeof(msg); i++)
			off += (size_t)snprintf(msg + off, sizeof(msg) - off, " %s", c[i]);
		oc_app_message(app, false, "%s", msg);
	}
}
