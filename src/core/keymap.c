/* keymap.c: keymap files (keymaps/NAME.json) and the built-in keymaps.
 * jsonfile.c reads and checks a file; here its "bindings" are parsed (one
 * parsing unit with jsonfile.c: no jansson object leaves the two). */
#include "core/keymap.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/jsonfile.h"
#include "core/keys.h"

#define KEYMAP_KIND "keymaps"

/* One binding of a built-in table, as a file writes it. */
struct keymap_entry {
	const char *key;
	const char *action;
};

/* keymaps/default.json. j and k move as in less, k9s and htop's vi mode;
 * d, R, m, x, A, o and p are kept free for the node actions. */
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
	{"7", "view.audit"},
	{"8", "view.rehearsal"},
	{"A", "view.audit"},
	{"d", "node.drain"},
	{"R", "node.resume"},
	{"U", "node.undrain"},
	{"m", "resv.create"},
	{"x", "resv.delete"},
	{"o", "team.onboard"},
	{"p", "node.probe"},
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
			oc_seterr(err, errlen, "built-in keymap %s: \"%s\": %s", name, e[i].key, why);
			return -1;
		}
		if (action < 0) {
			oc_seterr(err, errlen,
					"built-in keymap %s: action \"%s\" is not in the action registry",
					name, e[i].action);
			return -1;
		}
		if (keymap_set(out, key, action) < 0) {
			oc_seterr(err, errlen, "built-in keymap %s: too many bindings", name);
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

/* The start of oc_keymap_builtin, _load and _find: clears err and out.
 * Returns 0, or -1 when there is no out. */
static int keymap_begin(struct oc_keymap *out, char *err, size_t errlen)
{
	if (oc_datafile_begin(out, "keymap", err, errlen) < 0)
		return -1;
	keymap_clear(out);
	return 0;
}

/* The end of oc_keymap_load and _find: returns rc, with out emptied when
 * it is -1. */
static int keymap_end(int rc, struct oc_keymap *out)
{
	if (rc < 0)
		keymap_clear(out);
	return rc;
}

/* Returns 0 / 1 / -1 (keymap.h). */
int oc_keymap_builtin(const char *name, const char *const *ids, size_t nids,
		      struct oc_keymap *out, char *err, size_t errlen)
{
	int bi = keymap_builtin_index(name);

	if (keymap_begin(out, err, errlen) < 0)
		return -1;
	if (bi < 0) {
		oc_seterr(err, errlen, "no built-in keymap \"%.80s\"", name ? name : "");
		return 1;
	}
	if (keymap_builtins[bi].extends[0]) {
		int pi = keymap_builtin_index(keymap_builtins[bi].extends);
		if (pi < 0 || keymap_apply_table(keymap_builtins[pi].name, keymap_builtins[pi].e,
						 keymap_builtins[pi].n, ids, nids, out, err, errlen) < 0) {
			if (pi < 0)
				oc_seterr(err, errlen, "built-in keymap %s: no parent", name);
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

/* The top-level keys of a keymap file, in keymap_keys. */
enum { KEYMAP_KEY_NAME, KEYMAP_KEY_DESCRIPTION, KEYMAP_KEY_EXTENDS, KEYMAP_KEY_BINDINGS };

/* What a keymap file is applied to. */
struct keymap_ctx {
	const char *const *ids;
	size_t nids;
	struct oc_keymap *out;
};

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
			oc_seterr(err, errlen, "%s: bindings: \"%.40s\": %s", path, name, why);
			return -1;
		}
		for (size_t i = 0; i < nseen; i++) {
			if (seen[i].key == key) {
				oc_seterr(err, errlen,
						"%s: bindings: \"%.40s\" and \"%.40s\" are the same key, bound twice",
						path, seen[i].name, name);
				return -1;
			}
		}
		if (nseen >= OC_KEYMAP_MAX) {
			oc_seterr(err, errlen, "%s: bindings: too many (at most %d)", path,
					OC_KEYMAP_MAX);
			return -1;
		}
		seen[nseen].key = key;
		seen[nseen].name = name;
		nseen++;
		if (json_is_string(v)) {
			action = keymap_action(json_string_value(v), ids, nids);
			if (action < 0) {
				oc_seterr(err, errlen, "%s: bindings: \"%.40s\": unknown action \"%.60s\"",
						path, name, json_string_value(v));
				return -1;
			}
		} else if (!json_is_null(v)) {
			oc_seterr(err, errlen,
					"%s: bindings: \"%.40s\": the action must be a string (or null to unbind)",
					path, name);
			return -1;
		}
		if (keymap_set(out, key, action) < 0) {
			oc_seterr(err, errlen, "%s: bindings: too many (at most %d)", path,
					OC_KEYMAP_MAX);
			return -1;
		}
	}
	return 0;
}

/* The apply callback of keymap files (jsonfile.h): the bindings on top of
 * the parent's. */
static int keymap_apply_file(void *vctx, const struct oc_jsonfile_doc *doc, char *err,
			     size_t errlen)
{
	struct keymap_ctx *c = vctx;

	if (keymap_apply_json(doc->path, doc->val[KEYMAP_KEY_BINDINGS].json, c->ids, c->nids,
			      c->out, err, errlen) < 0)
		return -1;
	snprintf(c->out->name, sizeof(c->out->name), "%s", doc->stem);
	snprintf(c->out->path, sizeof(c->out->path), "%s", doc->path);
	snprintf(c->out->extends, sizeof(c->out->extends), "%s", doc->extends);
	return 0;
}

/* The builtin callback of keymap files (jsonfile.h): a built-in parent. */
static int keymap_apply_builtin(void *vctx, const char *name, char *err, size_t errlen)
{
	struct keymap_ctx *c = vctx;

	return oc_keymap_builtin(name, c->ids, c->nids, c->out, err, errlen);
}

/* The top-level keys, in the order "unknown key" lists them. */
static const struct oc_jsonfile_key keymap_keys[] = {
	[KEYMAP_KEY_NAME] = {"keymap", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[KEYMAP_KEY_DESCRIPTION] = {"description", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[KEYMAP_KEY_EXTENDS] = {"extends", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[KEYMAP_KEY_BINDINGS] = {"bindings", OC_JSONFILE_OBJECT, OC_JSONFILE_REQUIRED,
				 "an object {\"KEY\": \"ACTION\", ...}"},
};

static const struct oc_jsonfile_kind keymap_kind = {
	.dir = KEYMAP_KIND,
	.what = "keymap",
	.name_key = "keymap",
	.keys = keymap_keys,
	.nkeys = sizeof(keymap_keys) / sizeof(keymap_keys[0]),
	.apply = keymap_apply_file,
	.builtin = keymap_apply_builtin,
};

/* Returns 0 or -1 (keymap.h). */
int oc_keymap_load(const char *path, const char *const *ids, size_t nids,
		   struct oc_keymap *out, char *err, size_t errlen)
{
	struct keymap_ctx c = {ids, nids, out};

	if (keymap_begin(out, err, errlen) < 0)
		return -1;
	return keymap_end(oc_jsonfile_load(&keymap_kind, path, &c, err, errlen), out);
}

/* Returns 0 / 1 / -1 (keymap.h). */
int oc_keymap_find(const char *name, const struct oc_datafile_dirs *dirs,
		   const char *const *ids, size_t nids, struct oc_keymap *out,
		   char *err, size_t errlen)
{
	struct keymap_ctx c = {ids, nids, out};

	if (keymap_begin(out, err, errlen) < 0)
		return -1;
	return keymap_end(oc_jsonfile_find(&keymap_kind, name, dirs, &c, err, errlen), out);
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
