/* help.c: the ? screen, an overlay in place of the view: every action of
 * the registry with the keys the keymap binds, then the : commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/overlay.h"
#include "ui/ui_config.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/help.h"
#include "ui/registry.h"

/* Line k of the help screen into buf: the keys (every action of the
 * registry with its keys; a : command only when a key is bound to it),
 * then the : commands with their argument and aliases. False past the
 * end. */
static bool help_line(struct oc_app *app, int k, char *buf, size_t len, bool *title)
{
	*title = false;
	int line = 0;
	if (k == line++) {
		*title = true;
		snprintf(buf, len, "Keys (keymap %s; any key closes this, arrows scroll)", oc_ui_keymap_name(app));
		return true;
	}
	for (int i = 0; i < OC_ACT_COUNT; i++) {
		char keys[128];
		oc_ui_keys_for(app, (enum oc_act)i, keys, sizeof(keys));
		if (oc_actions[i].command_only && !keys[0])
			continue;
		if (k == line++) {
			snprintf(buf, len, "  %-14s %-18s %s", keys[0] ? keys : "-", oc_actions[i].id, oc_actions[i].help);
			return true;
		}
	}
	if (k == line++) {
		buf[0] = '\0';
		return true;
	}
	if (k == line++) {
		*title = true;
		snprintf(buf, len, "Commands (: then the name; Tab completes, Enter runs)");
		return true;
	}
	for (int i = 0; i < OC_ACT_COUNT; i++) {
		const char *c = oc_actions[i].cmd;
		if (!c || k != line++)
			continue;
		int n = (int)strcspn(c, " ");
		char name[64];
		snprintf(name, sizeof(name), ":%.*s %s", n, c, oc_actions[i].arg_help ? oc_actions[i].arg_help : "");
		snprintf(buf, len, "  %-23s %s%s%s%s", name, oc_actions[i].help, c[n] ? " (also " : "", c[n] ? c + n + 1 : "",
			 c[n] ? ")" : "");
		return true;
	}
	return false;
}

static void help_draw(struct oc_app *app, void *priv, int y, int h, int width)
{
	const int *top = priv;
	int row = 0;
	char buf[512];
	bool title;
	for (int k = *top; row < h && help_line(app, k, buf, sizeof(buf), &title); k++, row++) {
		move(y + row, 0);
		attrset(title ? oc_theme_attr(OC_ROLE_TITLE) : A_NORMAL);
		oc_put_text(stdscr, buf, width, true, false);
	}
	attrset(A_NORMAL);
	for (; row < h; row++) {
		move(y + row, 0);
		clrtoeol();
	}
}

static const struct oc_overlay_ops help_ops;

/* Arrows and pages scroll; any other key closes (q quits as well). */
static void help_key(struct oc_app *app, void *priv, int ch, bool wide, int act)
{
	(void)ch;
	(void)wide;
	int *top = priv;
	if (act == OC_ACT_MOVE_DOWN || act == OC_ACT_MOVE_PGDN) {
		*top += act == OC_ACT_MOVE_DOWN ? 1 : LINES / 2;
		return;
	}
	if (act == OC_ACT_MOVE_UP || act == OC_ACT_MOVE_PGUP) {
		*top -= act == OC_ACT_MOVE_UP ? 1 : LINES / 2;
		if (*top < 0)
			*top = 0;
		return;
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
	int *top = calloc(1, sizeof(*top));
	if (!top) {
		oc_app_message(app, true, " out of memory");
		return;
	}
	oc_overlay_push(app, &help_ops, top);
}
