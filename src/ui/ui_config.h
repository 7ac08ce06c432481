/* ui_config.h: the keymap as the screen uses it: curses keys to the
 * console's key codes (core/keys.h), codes to actions of the registry. */
#ifndef OC_UI_UI_CONFIG_H
#define OC_UI_UI_CONFIG_H

#include <stddef.h>

#include "ui/app.h"
#include "ui/registry.h"

#define OC_CTRL_U 21

/* Load keymaps/NAME.json (user, site, data dir) or the built-in of that
 * name into app; on a broken or unknown file the default keymap is used
 * and err says why. Returns 0, -1 on ENOMEM. */
int oc_ui_keymap_load(struct oc_app *app, const char *name, char *err, size_t errlen);
void oc_ui_keymap_free(struct oc_app *app);
/* The action for a key getch() returned, or -1 when it is not bound. */
int oc_ui_key_action(struct oc_app *app, int ch);
/* The keys bound to an action ("q, F1"). Returns buf. */
const char *oc_ui_keys_for(struct oc_app *app, enum oc_act act, char *buf, size_t len);
/* The keymap's name. Static or app-owned. */
const char *oc_ui_keymap_name(struct oc_app *app);
/* The name of a getch() key ("C-x", "F5", "q"). Returns buf. */
const char *oc_ui_key_name(int ch, char *buf, size_t len);
/* The status line's hint: the main keys of this keymap. */
void oc_ui_status_hint(struct oc_app *app, char *buf, size_t len);

#endif
