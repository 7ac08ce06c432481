/* keymap.c: keymap files (keymaps/NAME.json) and the built-in keymaps
 * (the shipped files compiled in, builtin_data.h). jsonfile.c reads and
 * checks a file; here its "bindings" are parsed (one parsing unit with
 * jsonfile.c: no jansson object leaves the two). */
#include "core/keymap.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/jsonfile.h"
#include "core/keys.h"

#define KEYMAP_KIND "keymaps"

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

/* The top-level keys of a keymap file, in keymap_keys. */
enum { KEYMAP_KEY_NAME, KEYMAP_KEY_DESCRIPTION, KEYMAP_KEY_EXTENDS, KEYMAP_KEY_BINDINGS };

/* What a keymap file is applied to. */
struct keymap_ctx {
	const char *const *ids;
	size_t nids;
	struct oc_keymap *out;
};

/* Applies the "bindings" object of the file at path (or of the built-in
 * path names) to out. Returns 0, or -1 with err set. */
static int keymap_apply_json(const char *path, bool builtin, json_t *bindings,
			     const char *const *ids, size_t nids, struct oc_keymap *out, char *err,
			     size_t errlen)
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
			if (action < 0 && builtin) {
				/* The shipped file and the registry drifted apart. */
				oc_seterr(err, errlen, "%s: action \"%s\" is not in the action registry",
						path, json_string_value(v));
				return -1;
			}
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

/* The apply callback of keymap files and built-ins (jsonfile.h): the
 * bindings on top of the parent's. */
static int keymap_apply_file(void *vctx, const struct oc_jsonfile_doc *doc, char *err,
			     size_t errlen)
{
	struct keymap_ctx *c = vctx;

	if (keymap_apply_json(doc->path, doc->builtin, doc->val[KEYMAP_KEY_BINDINGS].json, c->ids,
			      c->nids, c->out, err, errlen) < 0)
		return -1;
	snprintf(c->out->name, sizeof(c->out->name), "%s", doc->stem);
	snprintf(c->out->path, sizeof(c->out->path), "%s", doc->builtin ? "" : doc->path);
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

/* Returns 0 / 1 / -1 (keymap.h). */
int oc_keymap_builtin(const char *name, const char *const *ids, size_t nids,
		      struct oc_keymap *out, char *err, size_t errlen)
{
	struct keymap_ctx c = {ids, nids, out};
	int rc;

	if (keymap_begin(out, err, errlen) < 0)
		return -1;
	rc = oc_jsonfile_builtin(&keymap_kind, name, &c, err, errlen);
	if (rc == 1)
		oc_seterr(err, errlen, "no built-in keymap \"%.80s\"", name ? name : "");
	return keymap_end(rc, out);
}

/* The built-in names (keymap.h). */
const char *const *oc_keymap_builtin_names(void)
{
	return oc_jsonfile_builtin_names(&keymap_kind);
}

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
