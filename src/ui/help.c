/* help.c: the ? screen, an overlay in place of the view: every action of
 * the registry with the keys the keymap binds, grouped (moving, views,
 * nodes, jobs...), then the : commands; long lines wrap at the screen's
 * width, and scrolling stops at the last page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/overlay.h"
#include "ui/ui_config.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/help.h"
#include "ui/registry.h"

/* The groups of the key list, by the action id's first word ("view.nodes"
 * is a view), in this order. */
static const struct {
	const char *prefix, *title;
} help_groups[] = {
	{"", "General"},	  {"move", "Moving in a list"}, {"view", "Views"},	{"sort", "Sorting"},
	{"tag", "Tags"},	  {"hidden", "Partitions"},     {"node", "Nodes"},	{"job", "Jobs"},
	{"resv", "Reservations"}, {"team", "Accounts"},	{"account", "Accounts"}, {"scheduler", "Scheduler"},
	{"rehearsal", "Rehearsal"},
};

/* The group of action id: its index in help_groups by its first word
 * ("tag" and "tag.all" are tags), 0 (general) when none has it. */
static size_t help_group_of(const char *id)
{
	size_t n = strcspn(id, ".");
	for (size_t g = 1; g < sizeof(help_groups) / sizeof(help_groups[0]); g++)
		if (strlen(help_groups[g].prefix) == n && strncmp(help_groups[g].prefix, id, n) == 0)
			return g;
	return 0; /* "quit", "open": general */
}

/* The help's lines at a width, made again at each draw (a resize wraps
 * them anew). */
struct help_text {
	char **line;
	bool *title;
	int n, cap;
};

static void help_add(struct help_text *t, const char *text, bool title)
{
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 128;
		char **l = realloc(t->line, sizeof(*l) * (size_t)cap);
		if (l)
			t->line = l;
		bool *ti = realloc(t->title, sizeof(*ti) * (size_t)cap);
		if (ti)
			t->title = ti;
		if (!l || !ti)
			return;
		t->cap = cap;
	}
	char *dup = strdup(text);
	if (!dup)
		return;
	t->line[t->n] = dup;
	t->title[t->n++] = title;
}

/* text in lines of width columns, broken at blanks; the lines after the
 * first start at column indent (the description's column), or 4 when the
 * width leaves too little room. */
static void help_wrap(struct help_text *t, const char *text, int width, int indent)
{
	if (indent > width / 2)
		indent = 4;
	const char *p = text;
	bool first = true;
	while (*p) {
		int pad = first ? 0 : indent;
		int room = width - pad > 8 ? width - pad : 8;
		size_t len = strlen(p);
		size_t fit = oc_text_fit(p, len, room);
		if (fit < len) {
			size_t cut = fit;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut > 0)
				fit = cut;
			else if (fit == 0)
				fit = 1;
		}
		char buf[600];
		snprintf(buf, sizeof(buf), "%*s%.*s", pad, "", (int)fit, p);
		help_add(t, buf, false);
		p += fit;
		while (*p == ' ')
			p++;
		first = false;
	}
}

/* Every line: the keys by group (each action of the registry with the
 * keys the keymap binds; a : command only when a key is bound to it),
 * then the : commands with their argument and aliases. */
static void help_build(struct oc_app *app, struct help_text *t, int width)
{
	char buf[600];
	snprintf(buf, sizeof(buf), "Keys (keymap %s; any key closes this, arrows scroll)", oc_ui_keymap_name(app));
	help_add(t, buf, true);
	for (size_t g = 0; g < sizeof(help_groups) / sizeof(help_groups[0]); g++) {
		bool any = false;
		for (int i = 0; i < OC_ACT_COUNT; i++) {
			char keys[128];
			oc_ui_keys_for(app, (enum oc_act)i, keys, sizeof(keys));
			if ((oc_actions[i].command_only && !keys[0]) || help_group_of(oc_actions[i].id) != g)
				continue;
			/* "Accounts" is two prefixes: one title. */
			if (!any && (g == 0 || strcmp(help_groups[g].title, help_groups[g - 1].title) != 0)) {
				snprintf(buf, sizeof(buf), " %s", help_groups[g].title);
				help_add(t, buf, true);
			}
			any = true;
			snprintf(buf, sizeof(buf), "  %-14s %-18s %s", keys[0] ? keys : "-", oc_actions[i].id,
				 oc_actions[i].help);
			help_wrap(t, buf, width, 36);
		}
	}
	help_add(t, "", false);
	help_add(t, "Commands (: then the name; Tab completes, Enter runs)", true);
	for (int i = 0; i < OC_ACT_COUNT; i++) {
		const char *c = oc_actions[i].cmd;
		if (!c)
			continue;
		int n = (int)strcspn(c, " ");
		char name[64];
		snprintf(name, sizeof(name), ":%.*s %s", n, c, oc_actions[i].arg_help ? oc_actions[i].arg_help : "");
		snprintf(buf, sizeof(buf), "  %-23s %s%s%s%s", name, oc_actions[i].help, c[n] ? " (also " : "",
			 c[n] ? c + n + 1 : "", c[n] ? ")" : "");
		help_wrap(t, buf, width, 26);
	}
}

static void help_free(struct help_text *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->line[i]);
	free(t->line);
	free(t->title);
}

/* The overlay's state: the first line shown, and what the last draw
 * found (the lines at its width, the rows it had) for scrolling. */
struct help {
	int top, total, rows;
};

/* The first line to show for top: never past the last page. */
static int help_clamp(const struct help *hp, int top)
{
	int max = hp->total - hp->rows > 0 ? hp->total - hp->rows : 0;
	return top < 0 ? 0 : top > max ? max : top;
}

static void help_draw(struct oc_app *app, void *priv, int y, int h, int width)
{
	struct help *hp = priv;
	struct help_text t = {0};
	help_build(app, &t, width);
	hp->total = t.n;
	hp->rows = h;
	hp->top = help_clamp(hp, hp->top);
	int row = 0;
	for (int k = hp->top; row < h && k < t.n; k++, row++) {
		move(y + row, 0);
		attrset(t.title[k] ? oc_theme_attr(OC_ROLE_TITLE) : A_NORMAL);
		oc_put_text(stdscr, t.line[k], width, true, false);
	}
	attrset(A_NORMAL);
	for (; row < h; row++) {
		move(y + row, 0);
		clrtoeol();
	}
	help_free(&t);
}

static const struct oc_overlay_ops help_ops;

/* Arrows and pages scroll, up to the last page; any other key closes (q
 * quits as well). */
static void help_key(struct oc_app *app, void *priv, int ch, bool wide, int act)
{
	(void)ch;
	(void)wide;
	struct help *hp = priv;
	int page = hp->rows > 1 ? hp->rows - 1 : 1;
	switch (act) {
	case OC_ACT_MOVE_DOWN: hp->top = help_clamp(hp, hp->top + 1); return;
	case OC_ACT_MOVE_PGDN: hp->top = help_clamp(hp, hp->top + page); return;
	case OC_ACT_MOVE_UP: hp->top = help_clamp(hp, hp->top - 1); return;
	case OC_ACT_MOVE_PGUP: hp->top = help_clamp(hp, hp->top - page); return;
	case OC_ACT_MOVE_TOP: hp->top = 0; return;
	case OC_ACT_MOVE_BOTTOM: hp->top = help_clamp(hp, hp->total); return;
	default: break;
	}
	oc_overlay_remove(app, &help_ops);
	if (act == OC_ACT_QUIT)
		app->quit = true;
}

static void help_close(struct oc_app *app, void *priv)
{
	(void)app;
	free(priv);
}

static const struct oc_overlay_ops help_ops = {
	.name = "help",
	.full_screen = true,
	.key = help_key,
	.draw = help_draw,
	.close = help_close,
};

void oc_help_open(struct oc_app *app)
{
	if (oc_overlay_find(app, &help_ops))
		return;
	struct help *hp = calloc(1, sizeof(*hp));
	if (!hp) {
		oc_app_message(app, true, " out of memory");
		return;
	}
	oc_overlay_push(app, &help_ops, hp);
}
