/* config.c: keymap loading for the screen, and the mapping of curses key
 * codes to the console's own (core/keys.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/keymap.h"
#include "core/keys.h"
#include "ui/ui_config.h"

int oc_ui_keymap_load(struct oc_app *app, const char *name, char *err, size_t errlen)
{
	struct oc_keymap *km = calloc(1, sizeof(*km));
	if (!km)
		return -1;
	const char *ids[OC_ACT_COUNT];
	oc_action_id_list(ids);
	struct oc_datafile_dirs dirs;
	oc_datafile_dirs(&dirs, app->datadir);
	if (!name || !*name)
		name = "default";
	char why[1024] = "";
	int rc = oc_keymap_find(name, &dirs, ids, OC_ACT_COUNT, km, why, sizeof(why));
	if (rc == 1)
		rc = oc_keymap_builtin(name, ids, OC_ACT_COUNT, km, why, sizeof(why)) == 0 ? 0 : -1;
	if (rc < 0) {
		snprintf(err, errlen, "keymap: %s; using the default keys", why);
		oc_keymap_builtin("default", ids, OC_ACT_COUNT, km, NULL, 0);
	}
	app->keymap = km;
	app->status_hint_ok = app->tab_keys_ok = false;
	return 0;
}

void oc_ui_keymap_free(struct oc_app *app)
{
	free(app->keymap);
	app->keymap = NULL;
}

/* curses' code to the console's (keys.h). */
static int oc_key_from_curses(int ch)
{
	switch (ch) {
	case KEY_UP: return OC_KEY_UP;
	case KEY_DOWN: return OC_KEY_DOWN;
	case KEY_LEFT: return OC_KEY_LEFT;
	case KEY_RIGHT: return OC_KEY_RIGHT;
	case KEY_PPAGE: return OC_KEY_PGUP;
	case KEY_NPAGE: return OC_KEY_PGDN;
	case KEY_HOME: return OC_KEY_HOME;
	case KEY_END: return OC_KEY_END;
	case KEY_IC: return OC_KEY_INSERT;
	case KEY_DC: return OC_KEY_DELETE;
	case KEY_BACKSPACE:
	case 127: return OC_KEY_BACKSPACE;
	case KEY_BTAB: return OC_KEY_BTAB;
	case KEY_ENTER:
	case '\n': return OC_KEY_ENTER;
	default: break;
	}
	if (ch >= KEY_F(1) && ch <= KEY_F(OC_KEY_FMAX))
		return OC_KEY_F(ch - KEY_F0);
	if (ch >= 0 && ch < 0x80)
		return ch;
	return -1;
}

int oc_ui_key_action(struct oc_app *app, int ch)
{
	int key = oc_key_from_curses(ch);
	if (key < 0)
		return -1;
	return oc_keymap_lookup(app->keymap, key);
}

const char *oc_ui_keys_for(struct oc_app *app, enum oc_act act, char *buf, size_t len)
{
	return oc_keymap_keys_for(app->keymap, (int)act, buf, len);
}

const char *oc_ui_keymap_name(struct oc_app *app)
{
	return app->keymap && app->keymap->name[0] ? app->keymap->name : "default";
}

const char *oc_ui_key_name(int ch, char *buf, size_t len)
{
	int key = oc_key_from_curses(ch);
	if (key < 0) {
		snprintf(buf, len, "0x%x", (unsigned)ch);
		return buf;
	}
	return oc_key_name(key, buf, len);
}

void oc_ui_status_hint(struct oc_app *app, char *buf, size_t len)
{
	static const struct {
		enum oc_act act;
		const char *label;
	} hints[] = {
		{OC_ACT_QUIT, "quit"},	   {OC_ACT_VIEW_NEXT, "view"}, {OC_ACT_OPEN, "open"},
		{OC_ACT_COMMAND, "cmd"},   {OC_ACT_FILTER, "filter"},  {OC_ACT_SORT_NEXT, "sort"},
		{OC_ACT_TAG, "tag"},	   {OC_ACT_REFRESH, "refresh"}, {OC_ACT_HELP, "help"},
	};
	if (app->status_hint_ok) {
		snprintf(buf, len, "%s", app->status_hint);
		return;
	}
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]) && off < len; i++) {
		char keys[64];
		oc_keymap_keys_for(app->keymap, (int)hints[i].act, keys, sizeof(keys));
		if (!keys[0])
			continue;
		char *comma = strchr(keys, ',');
		if (comma)
			*comma = '\0'; /* the first key is enough here */
		off += (size_t)snprintf(buf + off, len - off, " %s %s ", keys, hints[i].label);
	}
	if (app->keymap && len >= sizeof(app->status_hint)) {
		snprintf(app->status_hint, sizeof(app->status_hint), "%s", buf);
		app->status_hint_ok = true;
	}
}
