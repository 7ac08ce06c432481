/* keymap.c: keymap files (keymaps/NAME.json) and the built-in keymaps.
 * jansson is used here only; nothing of it leaves this file. */
#include "core/keymap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "core/keys.h"

#define KEYMAP_KIND "keymaps"

/* One binding of a built-in table, as a file writes it. */
struct keymap_entry {
	const char *key;
	const char *action;
};

/* keymaps/default.json. j and k move as in less, k9s and htop's vi mode;
 * d, R, m, x, A and o are kept free for the node actions. */
static const struct keymap_entry keymap_default[] = {
	{"q", "quit"},
	{"?", "help"},
	{"F1", "help"},
	{":", "command"},
	{"/", "filter"},
	{"r", "refresh"},
	{"C-l", "redraw"},
	{"s", "sort.next"},
	{"S", "sort.reverse"},
	{"H", "hidden.toggle"},
	{"Space", "tag"},
	{"*", "tag.all"},
	{"u", "tag.clear"},
	{"Enter", "open"},
	{"Esc", "back"},
	{"Tab", "view.next"},
	{"S-Tab", "view.prev"},
	{"1", "view.partitions"},
	{"2", "view.queue"},
	{"3", "view.nodes"},
	{"4", "view.health"},
	{"5", "view.quota"},
	{"6", "view.reservations"},
	{"Up", "move.up"},
	{"Down", "move.down"},
	{"k", "move.up"},
	{"j", "move.down"},
	{"PgUp", "move.pgup"},
	{"PgDn", "move.pgdn"},
	{"Home", "move.top"},
	{"End", "move.bottom"},
	{"Left", "move.left"},
	{"Right", "move.right"},
};

/* keymaps/vim.json: extends default. */
static const struct keymap_entry keymap_vim[] = {
	{"h", "move.left"},
	{"l", "move.right"},
	{"g", "move.top"},
	{"G", "move.bottom"},
	{"C-f", "move.pgdn"},
	{"C-b", "move.pgup"},
	{"C-d", "move.pgdn"},
	{"C-u", "move.pgup"},
};

static const struct {
	const char *name;
	const char *extends;
	const struct keymap_entry *e;
	size_t n;
} keymap_builtins[] = {
	{"default", "", keymap_default, sizeof(keymap_default) / sizeof(keymap_default[0])},
	{"vim", "default", keymap_vim, sizeof(keymap_vim) / sizeof(keymap_vim[0])},
};

#define KEYMAP_NBUILTINS (sizeof(keymap_builtins) / sizeof(keymap_builtins[0]))

static const char *const keymap_builtin_list[] = {"default", "vim", NULL};

/* Formats into err when err and errlen allow. */
static void keymap_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void keymap_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Empties km. */
static void keymap_clear(struct oc_keymap *km)
{
	memset(km, 0, sizeof(*km));
}

/* Index of the binding of key in km, or -(insertion point + 1). */
static long keymap_search(const struct oc_keymap *km, int key)
{
	size_t lo = 0, hi = km->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (km->b[mid].key == key)
			return (long)mid;
		if (km->b[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(long)lo - 1;
}

/* Binds key to action in km (action -1: removes the binding). Returns 0,
 * or -1 when km is full. */
static int keymap_set(struct oc_keymap *km, int key, int action)
{
	long at = keymap_search(km, key);

	if (at >= 0) {
		if (action >= 0) {
			km->b[at].action = action;
		} else {
			memmove(&km->b[at], &km->b[at + 1], (km->n - (size_t)at - 1) * sizeof(km->b[0]));
			km->n--;
		}
		return 0;
	}
	if (action < 0)
		return 0;
	if (km->n >= OC_KEYMAP_MAX)
		return -1;
	size_t ins = (size_t)(-at - 1);
	memmove(&km->b[ins + 1], &km->b[ins], (km->n - ins) * sizeof(km->b[0]));
	km->b[ins].key = key;
	km->b[ins].action = action;
	km->n++;
	return 0;
}

/* Index of action id in ids, or -1. */
static int keymap_action(const char *id, const char *const *ids, size_t nids)
{
	for (size_t i = 0; i < nids && ids; i++)
		if (ids[i] && strcmp(ids[i], id) == 0)
			return (int)i;
	return -1;
}

/* Applies one built-in table to out. Returns 0, or -1 with err set. */
static int keymap_apply_table(const char *name, const struct keymap_entry *e, size_t n,
			      const char *const *ids, size_t nids, struct oc_keymap *out,
			      char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		char why[160];
		int key = oc_key_parse_err(e[i].key, why, sizeof(why));
		int action = keymap_action(e[i].action, ids, nids);
		if (key < 0) {
			keymap_err(err, errlen, "built-in keymap %s: \"%s\": %s", name, e[i].key, why);
			return -1;
		}
		if (action < 0) {
			keymap_err(err, errlen,
				   "built-in keymap %s: action \"%s\" is not in the action registry",
				   name, e[i].action);
			return -1;
		}
		if (keymap_set(out, key, action) < 0) {
			keymap_err(err, errlen, "built-in keymap %s: too many bindings", name);
			return -1;
		}
	}
	return 0;
}

/* Index of the built-in name, or -1. */
static int keymap_builtin_index(const char *name)
{
	for (size_t i = 0; name && i < KEYMAP_NBUILTINS; i++)
		if (strcmp(keymap_builtins[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Returns 0 / 1 / -1 (keymap.h). */
int oc_keymap_builtin(const char *name, const char *const *ids, size_t nids,
		      struct oc_keymap *out, char *err, size_t errlen)
{
	int bi = keymap_builtin_index(name);

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		keymap_err(err, errlen, "no keymap to fill");
		return -1;
	}
	keymap_clear(out);
	if (bi < 0) {
		keymap_err(err, errlen, "no built-in keymap \"%.80s\"", name ? name : "");
		return 1;
	}
	if (keymap_builtins[bi].extends[0]) {
		int pi = keymap_builtin_index(keymap_builtins[bi].extends);
		if (pi < 0 || keymap_apply_table(keymap_builtins[pi].name, keymap_builtins[pi].e,
						 keymap_builtins[pi].n, ids, nids, out, err, errlen) < 0) {
			if (pi < 0)
				keymap_err(err, errlen, "built-in keymap %s: no parent", name);
			keymap_clear(out);
			return -1;
		}
	}
	if (keymap_apply_table(name, keymap_builtins[bi].e, keymap_builtins[bi].n, ids, nids, out,
			       err, errlen) < 0) {
		keymap_clear(out);
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "%s", keymap_builtins[bi].name);
	snprintf(out->extends, sizeof(out->extends), "%s", keymap_builtins[bi].extends);
	return 0;
}

/* The built-in names (keymap.h). */
const char *const *oc_keymap_builtin_names(void)
{
	return keymap_builtin_list;
}

/* Where a parent ("extends") is looked for: the search directories, or
 * the directory of the file that was given by path. */
struct keymap_src {
	const struct oc_datafile_dirs *dirs;  /* NULL: use sibling */
	const char *sibling;                  /* directory holding the file */
};

static int keymap_load_file(const char *path, bool strict, const struct keymap_src *src,
			    const char *child, const char *const *ids, size_t nids,
			    struct oc_keymap *out, char *err, size_t errlen);

/* Loads the parent keymap name of the file at path (whose stem is stem)
 * into out. Returns 0, or -1 with err set. */
static int keymap_load_parent(const char *path, const char *stem, const char *name,
			      const struct keymap_src *src, const char *const *ids, size_t nids,
			      struct oc_keymap *out, char *err, size_t errlen)
{
	char ppath[OC_DATAFILE_PATH_MAX];
	char why[OC_DATAFILE_PATH_MAX + 128];
	bool strict = false;
	int rc;

	if (!oc_datafile_name_ok(name)) {
		keymap_err(err, errlen, "%s: \"extends\": invalid keymap name \"%.80s\"", path, name);
		return -1;
	}
	if (strcmp(name, stem) == 0) {
		keymap_err(err, errlen, "%s: \"extends\": a keymap cannot extend itself (%s)", path,
			   name);
		return -1;
	}
	why[0] = '\0';
	if (src->dirs) {
		rc = oc_datafile_find(KEYMAP_KIND, name, src->dirs, ppath, sizeof(ppath), &strict,
				      why, sizeof(why));
	} else {
		struct stat st;
		int n = snprintf(ppath, sizeof(ppath), "%s/%s.json", src->sibling, name);
		rc = 1;
		if (n < 0 || (size_t)n >= sizeof(ppath)) {
			snprintf(why, sizeof(why), "path too long");
			rc = -1;
		} else if (stat(ppath, &st) == 0) {
			rc = 0;
		} else if (errno != ENOENT && errno != ENOTDIR) {
			snprintf(why, sizeof(why), "%s: %s", ppath, strerror(errno));
			rc = -1;
		} else {
			snprintf(why, sizeof(why), "no %s", ppath);
		}
	}
	if (rc < 0) {
		keymap_err(err, errlen, "%s: \"extends\": %s", path, why);
		return -1;
	}
	if (rc == 0)
		return keymap_load_file(ppath, strict, src, stem, ids, nids, out, err, errlen);
	rc = oc_keymap_builtin(name, ids, nids, out, err, errlen);
	if (rc == 1)
		keymap_err(err, errlen, "%s: \"extends\": no keymap \"%s\" (%s, and no built-in)",
			   path, name, why);
	return rc == 0 ? 0 : -1;
}

/* Applies the "bindings" object of the file at path to out. Returns 0, or
 * -1 with err set. */
static int keymap_apply_json(const char *path, json_t *bindings, const char *const *ids,
			     size_t nids, struct oc_keymap *out, char *err, size_t errlen)
{
	struct {
		int key;
		const char *name;
	} seen[OC_KEYMAP_MAX];
	size_t nseen = 0;
	const char *name;
	json_t *v;

	json_object_foreach(bindings, name, v) {
		char why[160];
		int key = oc_key_parse_err(name, why, sizeof(why));
		int action = -1;

		if (key < 0) {
			keymap_err(err, errlen, "%s: bindings: \"%.40s\": %s", path, name, why);
			return -1;
		}
		for (size_t i = 0; i < nseen; i++) {
			if (seen[i].key == key) {
				keymap_err(err, errlen,
					   "%s: bindings: \"%.40s\" and \"%.40s\" are the same key, bound twice",
					   path, seen[i].name, name);
				return -1;
			}
		}
		if (nseen >= OC_KEYMAP_MAX) {
			keymap_err(err, errlen, "%s: bindings: too many (at most %d)", path,
				   OC_KEYMAP_MAX);
			return -1;
		}
		seen[nseen].key = key;
		seen[nseen].name = name;
		nseen++;
		if (json_is_string(v)) {
			action = keymap_action(json_string_value(v), ids, nids);
			if (action < 0) {
				keymap_err(err, errlen, "%s: bindings: \"%.40s\": unknown action \"%.60s\"",
					   path, name, json_string_value(v));
				return -1;
			}
		} else if (!json_is_null(v)) {
			keymap_err(err, errlen,
				   "%s: bindings: \"%.40s\": the action must be a string (or null to unbind)",
				   path, name);
			return -1;
		}
		if (keymap_set(out, key, action) < 0) {
			keymap_err(err, errlen, "%s: bindings: too many (at most %d)", path,
				   OC_KEYMAP_MAX);
			return -1;
		}
	}
	return 0;
}

/* Loads the file at path into out. child is the stem of the file that
 * extends this one (NULL at the top): then this one may not extend
 * further. Returns 0, or -1 with err set. */
static int keymap_load_file(const char *path, bool strict, const struct keymap_src *src,
			    const char *child, const char *const *ids, size_t nids,
			    struct oc_keymap *out, char *err, size_t errlen)
{
	char stem[OC_DATAFILE_NAME_MAX + 1];
	char *text = NULL;
	size_t textlen = 0;
	json_error_t jerr;
	json_t *root = NULL, *bindings, *ext, *v;
	const char *key;
	int rc = -1;

	keymap_clear(out);
	if (strlen(path) >= sizeof(out->path)) {
		keymap_err(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	if (oc_datafile_stem(path, stem, sizeof(stem)) < 0) {
		keymap_err(err, errlen,
			   "%s: the file name must be NAME.json, NAME of 1 to %d of A-Z a-z 0-9 . _ -",
			   path, OC_DATAFILE_NAME_MAX);
		return -1;
	}
	if (oc_datafile_read(path, strict, &text, &textlen, err, errlen) < 0)
		return -1;
	root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.line > 0)
			keymap_err(err, errlen, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		else
			keymap_err(err, errlen, "%s: %s", path, jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		keymap_err(err, errlen, "%s: a keymap must be a JSON object ({ ... })", path);
		goto out;
	}
	json_object_foreach(root, key, v) {
		if (strcmp(key, "keymap") == 0 || strcmp(key, "description") == 0 ||
		    strcmp(key, "extends") == 0) {
			if (!json_is_string(v)) {
				keymap_err(err, errlen, "%s: \"%s\" must be a string", path, key);
				goto out;
			}
		} else if (strcmp(key, "bindings") == 0) {
			if (!json_is_object(v)) {
				keymap_err(err, errlen,
					   "%s: \"bindings\" must be an object {\"KEY\": \"ACTION\", ...}",
					   path);
				goto out;
			}
		} else {
			keymap_err(err, errlen,
				   "%s: unknown key \"%.60s\" (a keymap has keymap, description, extends, bindings)",
				   path, key);
			goto out;
		}
	}
	v = json_object_get(root, "keymap");
	if (v && strcmp(json_string_value(v), stem) != 0) {
		keymap_err(err, errlen, "%s: \"keymap\" is \"%.60s\" but the file is %s.json", path,
			   json_string_value(v), stem);
		goto out;
	}
	bindings = json_object_get(root, "bindings");
	if (!bindings) {
		keymap_err(err, errlen, "%s: no \"bindings\"", path);
		goto out;
	}
	ext = json_object_get(root, "extends");
	if (ext) {
		const char *pname = json_string_value(ext);
		if (child) {
			if (strcmp(pname, child) == 0)
				keymap_err(err, errlen,
					   "%s: \"extends\": cycle: %s extends %s, which extends %s",
					   path, child, stem, child);
			else
				keymap_err(err, errlen,
					   "%s: \"extends\": only one level: %s extends %s, which extends %s",
					   path, child, stem, pname);
			goto out;
		}
		if (keymap_load_parent(path, stem, pname, src, ids, nids, out, err, errlen) < 0)
			goto out;
	}
	if (keymap_apply_json(path, bindings, ids, nids, out, err, errlen) < 0)
		goto out;
	snprintf(out->name, sizeof(out->name), "%s", stem);
	snprintf(out->path, sizeof(out->path), "%s", path);
	snprintf(out->extends, sizeof(out->extends), "%s", ext ? json_string_value(ext) : "");
	rc = 0;
out:
	json_decref(root);
	free(text);
	if (rc < 0)
		keymap_clear(out);
	return rc;
}

/* Returns 0 or -1 (keymap.h). */
int oc_keymap_load(const char *path, const char *const *ids, size_t nids,
		   struct oc_keymap *out, char *err, size_t errlen)
{
	char dir[OC_DATAFILE_PATH_MAX];
	struct keymap_src src = {NULL, dir};
	const char *slash;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		keymap_err(err, errlen, "no keymap to fill");
		return -1;
	}
	keymap_clear(out);
	if (!path || !*path) {
		keymap_err(err, errlen, "no keymap path");
		return -1;
	}
	if (strlen(path) >= sizeof(dir)) {
		keymap_err(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return keymap_load_file(path, false, &src, NULL, ids, nids, out, err, errlen);
}

/* Returns 0 / 1 / -1 (keymap.h). */
int oc_keymap_find(const char *name, const struct oc_datafile_dirs *dirs,
		   const char *const *ids, size_t nids, struct oc_keymap *out,
		   char *err, size_t errlen)
{
	char path[OC_DATAFILE_PATH_MAX];
	struct keymap_src src = {dirs, NULL};
	bool strict = false;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		keymap_err(err, errlen, "no keymap to fill");
		return -1;
	}
	keymap_clear(out);
	rc = oc_datafile_find(KEYMAP_KIND, name, dirs, path, sizeof(path), &strict, err, errlen);
	if (rc != 0)
		return rc;
	return keymap_load_file(path, strict, &src, NULL, ids, nids, out, err, errlen) < 0 ? -1 : 0;
}

/* Returns the action index or -1 (keymap.h). */
int oc_keymap_lookup(const struct oc_keymap *km, int key)
{
	long at;

	if (!km)
		return -1;
	at = keymap_search(km, key);
	return at >= 0 ? km->b[at].action : -1;
}

/* Sort rank of a key on the help screen: printable, named, function keys,
 * Ctrl keys. */
static int keymap_rank(int key)
{
	if (key >= ' ' && key < 0x7f)
		return 0;
	if (key == OC_KEY_TAB || key == OC_KEY_ENTER || key == OC_KEY_ESC ||
	    (key >= OC_KEY_UP && key < OC_KEY_NAMED_END))
		return 1;
	if (key >= OC_KEY_F0 && key <= OC_KEY_F(OC_KEY_FMAX))
		return 2;
	return 3;
}

/* Returns buf (keymap.h). */
const char *oc_keymap_keys_for(const struct oc_keymap *km, int action, char *buf, size_t len)
{
	size_t used = 0;

	if (!buf || len == 0)
		return "";
	buf[0] = '\0';
	if (!km)
		return buf;
	for (int rank = 0; rank < 4; rank++) {
		for (size_t i = 0; i < km->n; i++) {
			char name[32];
			int n;
			if (km->b[i].action != action || keymap_rank(km->b[i].key) != rank)
				continue;
			oc_key_name(km->b[i].key, name, sizeof(name));
			n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
			if (n < 0 || (size_t)n >= len - used) {
				buf[used] = '\0';   /* drop the name that does not fit whole */
				return buf;
			}
			used += (size_t)n;
		}
	}
	return buf;
}
