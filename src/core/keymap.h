/* keymap.h: key bindings (key code -> action), loaded from keymap files
 * (keymaps/NAME.json, docs/files.md) or taken from the built-in tables.
 *
 * Actions are not known here: the caller passes the ids of its action
 * registry (ids[0..nids-1], e.g. "quit", "move.down") and a binding holds
 * an index into that list. Keys are the codes of keys.h.
 *
 * How the UI is meant to use it:
 *
 *	struct oc_datafile_dirs dirs;
 *	struct oc_keymap km;
 *	char err[512];
 *	oc_datafile_dirs(&dirs, datadir);
 *	int rc = oc_keymap_find(name, &dirs, ids, nids, &km, err, sizeof(err));
 *	if (rc == 1)                  // no file: a built-in of that name?
 *		rc = oc_keymap_builtin(name, ids, nids, &km, err, sizeof(err)) == 0 ? 0 : -1;
 *	if (rc < 0) {                 // broken file or unknown name: show err
 *		show(err);
 *		oc_keymap_builtin("default", ids, nids, &km, NULL, 0);
 *	}
 *	...
 *	int a = oc_keymap_lookup(&km, key);   // -1: not bound
 */
#ifndef OC_CORE_KEYMAP_H
#define OC_CORE_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/datafiles.h"

#define OC_KEYMAP_MAX 256   /* bindings in one keymap */

struct oc_keymap_binding {
	int key;      /* keys.h code */
	int action;   /* index into the caller's ids */
};

/* A keymap is a plain value (no pointers): copy it, no free needed. */
struct oc_keymap {
	char name[OC_DATAFILE_NAME_MAX + 1];     /* "default", "vim" */
	char path[OC_DATAFILE_PATH_MAX];         /* the file, "" when built in */
	char extends[OC_DATAFILE_NAME_MAX + 1];  /* the parent keymap, "" for none */
	size_t n;
	struct oc_keymap_binding b[OC_KEYMAP_MAX];  /* sorted by key, keys unique */
};

/* Loads the keymap file at path, checking every key name against keys.h
 * and every action against ids[0..nids-1]. "extends": NAME is looked up as
 * NAME.json in the directory of path, else among the built-ins. No
 * permission check (the caller chose this file). Returns 0, or -1 with
 * "path[:line:col]: message" in err; *out is then empty (n == 0). */
int oc_keymap_load(const char *path, const char *const *ids, size_t nids,
		   struct oc_keymap *out, char *err, size_t errlen);

/* Loads keymaps/NAME.json from the first directory of dirs that has it
 * (datafiles.h: files in the user's and the site's directories must pass
 * the permission check); "extends" is looked up in dirs the same way,
 * then among the built-ins. Returns 0 when loaded, 1 when no directory
 * has the file (err says where it looked; *out empty), -1 when the file
 * or its parent is broken or refused (err says why; *out empty). */
int oc_keymap_find(const char *name, const struct oc_datafile_dirs *dirs,
		   const char *const *ids, size_t nids, struct oc_keymap *out,
		   char *err, size_t errlen);

/* The built-in keymap name ("default", "vim"): the shipped file
 * keymaps/NAME.json, compiled in at build time (builtin_data.h). Returns
 * 0; 1 when there is no built-in of that name; -1 when one of its actions
 * is not in ids (err names it: the registry and the file drifted). */
int oc_keymap_builtin(const char *name, const char *const *ids, size_t nids,
		      struct oc_keymap *out, char *err, size_t errlen);

/* The names of the built-in keymaps (the files of keymaps/), sorted,
 * NULL-terminated (static). */
const char *const *oc_keymap_builtin_names(void);

/* The action index bound to key, or -1 when the key is not bound (or km
 * is NULL). */
int oc_keymap_lookup(const struct oc_keymap *km, int key);

/* The keys bound to action as "q, F1" into buf (size len; truncated to
 * fit), for the help screen: printable keys first, then named keys,
 * function keys and Ctrl keys. Returns buf ("" when none are bound). */
const char *oc_keymap_keys_for(const struct oc_keymap *km, int action, char *buf, size_t len);

#endif
