/* jsonfile.c: reading, parsing and checking a JSON data file of one kind,
 * and its "extends", for keymap.c, theme.c and viewcfg.c (jsonfile.h);
 * the built-ins are the same files compiled in (builtin_data.h).
 * jansson objects go from here only to those loaders' apply callbacks. */
#include "core/jsonfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/builtin_data.h"

/* Where a parent ("extends") is looked for: the search directories, or
 * the directory of the file that was given by path. */
struct jsonfile_src {
	const struct oc_datafile_dirs *dirs;  /* NULL: use sibling */
	const char *sibling;                  /* directory holding the file */
};

/* Writes the parse error (jsonfile.h). */
void oc_jsonfile_syntax_err(char *err, size_t errlen, const char *path, int line, int column,
			    const char *text)
{
	if (line > 0)
		oc_seterr(err, errlen, "%s:%d:%d: %s", path, line, column, text);
	else
		oc_seterr(err, errlen, "%s: %s", path, text);
}

/* Index of the key called name in k, or -1. */
static int jsonfile_key_index(const struct oc_jsonfile_kind *k, const char *name)
{
	for (size_t i = 0; name && i < k->nkeys; i++)
		if (strcmp(k->keys[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Whether k can be used: no more keys than val[] holds, an apply
 * callback, and its name key and "extends", when listed, strings. */
static bool jsonfile_kind_ok(const struct oc_jsonfile_kind *k)
{
	int ni = jsonfile_key_index(k, k->name_key);
	int xi = jsonfile_key_index(k, "extends");

	return k->nkeys <= OC_JSONFILE_MAX_KEYS && k->apply &&
	       (ni < 0 || k->keys[ni].type == OC_JSONFILE_STRING) &&
	       (xi < 0 || k->keys[xi].type == OC_JSONFILE_STRING);
}

/* Whether v has the type t. */
static bool jsonfile_is(const json_t *v, enum oc_jsonfile_type t)
{
	switch (t) {
	case OC_JSONFILE_STRING:
		return json_is_string(v);
	case OC_JSONFILE_BOOL:
		return json_is_boolean(v);
	case OC_JSONFILE_OBJECT:
		return json_is_object(v);
	case OC_JSONFILE_ARRAY:
		return json_is_array(v);
	}
	return false;
}

/* Says "path: unknown key "KEY" (a WHAT has A, B, C)" into err. */
static void jsonfile_unknown_key(const struct oc_jsonfile_kind *k, const char *path,
				 const char *key, char *err, size_t errlen)
{
	char known[256];
	size_t used = 0;

	known[0] = '\0';
	for (size_t i = 0; i < k->nkeys; i++) {
		int n = snprintf(known + used, sizeof(known) - used, "%s%s", i ? ", " : "",
				 k->keys[i].name);
		if (n < 0 || (size_t)n >= sizeof(known) - used)
			break;
		used += (size_t)n;
	}
	oc_seterr(err, errlen, "%s: unknown key \"%.60s\" (a %s has %s)", path, key, k->what,
			known);
}

/* Checks every top-level key of root against k and fills val[] (zeroed
 * here). Returns 0, or -1 with err set. */
static int jsonfile_keys(const struct oc_jsonfile_kind *k, const char *path, json_t *root,
			 struct oc_jsonfile_val *val, char *err, size_t errlen)
{
	const char *key;
	json_t *v;

	memset(val, 0, OC_JSONFILE_MAX_KEYS * sizeof(*val));
	json_object_foreach(root, key, v) {
		int i = jsonfile_key_index(k, key);
		if (i < 0) {
			jsonfile_unknown_key(k, path, key, err, errlen);
			return -1;
		}
		const struct oc_jsonfile_key *d = &k->keys[i];
		if (!jsonfile_is(v, d->type)) {
			const char *must = d->must ? d->must
					   : d->type == OC_JSONFILE_BOOL ? "true or false" : "a string";
			oc_seterr(err, errlen, "%s: \"%s\" must be %s", path, key, must);
			return -1;
		}
		val[i].present = true;
		if (d->type == OC_JSONFILE_STRING)
			val[i].str = json_string_value(v);
		else if (d->type == OC_JSONFILE_BOOL)
			val[i].boolean = json_is_true(v);
		else
			val[i].json = v;
	}
	return 0;
}

/* Checks the name key against stem and that the required keys are there.
 * Returns 0, or -1 with err set. */
static int jsonfile_check(const struct oc_jsonfile_kind *k, const char *path, const char *stem,
			  const struct oc_jsonfile_val *val, char *err, size_t errlen)
{
	int ni = jsonfile_key_index(k, k->name_key);

	if (ni >= 0 && val[ni].present && strcmp(val[ni].str, stem) != 0) {
		oc_seterr(err, errlen, "%s: \"%s\" is \"%.60s\" but the file is %s.json", path,
				k->name_key, val[ni].str, stem);
		return -1;
	}
	for (size_t i = 0; i < k->nkeys; i++) {
		const struct oc_jsonfile_key *d = &k->keys[i];
		bool missing = !val[i].present;
		if (d->need == OC_JSONFILE_NONEMPTY && val[i].json)
			missing = (json_is_array(val[i].json) ? json_array_size(val[i].json)
							      : json_object_size(val[i].json)) == 0;
		if (d->need == OC_JSONFILE_OPTIONAL || !missing)
			continue;
		oc_seterr(err, errlen, "%s: no \"%s\"%s", path, d->name,
				d->need == OC_JSONFILE_NONEMPTY ? " (at least one is needed)" : "");
		return -1;
	}
	return 0;
}

static int jsonfile_load_file(const struct oc_jsonfile_kind *k, const char *path, bool strict,
			      const struct jsonfile_src *src, const char *child, void *ctx,
			      char *err, size_t errlen);

/* Looks for the parent name of the file at path (stem stem) beside it or
 * in src->dirs. Returns 0 with its path in ppath (size len) and *strict
 * set; 1 when there is none (why says where it looked); -1 when it cannot
 * be examined (why says why). */
static int jsonfile_parent_path(const struct oc_jsonfile_kind *k, const char *name,
				const struct jsonfile_src *src, char *ppath, size_t len, bool *strict,
				char *why, size_t whylen)
{
	int n;

	why[0] = '\0';
	if (src->dirs)
		return oc_datafile_find(k->dir, name, src->dirs, ppath, len, strict, why, whylen);
	*strict = false;
	n = snprintf(ppath, len, "%s/%s.json", src->sibling, name);
	if (n < 0 || (size_t)n >= len) {
		snprintf(why, whylen, "path too long");
		return -1;
	}
	n = oc_datafile_probe(ppath, why, whylen);
	if (n == 1)
		snprintf(why, whylen, "no %s", ppath);
	return n;
}

/* Applies the parent name of the file at path (stem stem) to ctx: a file,
 * else a built-in; only a built-in for a built-in (src NULL). Returns 0,
 * or -1 with err set. */
static int jsonfile_parent(const struct oc_jsonfile_kind *k, const char *path, const char *stem,
			   const char *name, const struct jsonfile_src *src, void *ctx, char *err,
			   size_t errlen)
{
	char ppath[OC_DATAFILE_PATH_MAX];
	char why[OC_DATAFILE_PATH_MAX + 128];
	bool strict = false;
	int rc;

	if (!oc_datafile_name_ok(name)) {
		oc_seterr(err, errlen, "%s: \"extends\": invalid %s name \"%.80s\"", path, k->what,
				name);
		return -1;
	}
	if (strcmp(name, stem) == 0) {
		oc_seterr(err, errlen, "%s: \"extends\": a %s cannot extend itself (%s)", path,
				k->what, name);
		return -1;
	}
	if (!src) {
		rc = k->builtin ? k->builtin(ctx, name, err, errlen) : 1;
		if (rc == 1)
			oc_seterr(err, errlen, "%s: \"extends\": no built-in %s \"%s\"", path,
					k->what, name);
		return rc == 0 ? 0 : -1;
	}
	rc = jsonfile_parent_path(k, name, src, ppath, sizeof(ppath), &strict, why, sizeof(why));
	if (rc < 0) {
		oc_seterr(err, errlen, "%s: \"extends\": %s", path, why);
		return -1;
	}
	if (rc == 0)
		return jsonfile_load_file(k, ppath, strict, src, stem, ctx, err, errlen);
	rc = k->builtin ? k->builtin(ctx, name, err, errlen) : 1;
	if (rc == 1)
		oc_seterr(err, errlen, "%s: \"extends\": no %s \"%s\" (%s, and no built-in)", path,
				k->what, name, why);
	return rc == 0 ? 0 : -1;
}

/* Parses text (textlen bytes), the file at path or the built-in stem
 * (src NULL; path then names it for messages), and applies it to ctx.
 * child is the stem of the file that extends this one (NULL at the top):
 * then this one may not extend further. Returns 0, or -1 with err set. */
static int jsonfile_parse(const struct oc_jsonfile_kind *k, const char *path, const char *stem,
			  const char *text, size_t textlen, const struct jsonfile_src *src,
			  const char *child, void *ctx, char *err, size_t errlen)
{
	struct oc_jsonfile_val val[OC_JSONFILE_MAX_KEYS];
	struct oc_jsonfile_doc doc;
	json_error_t jerr;
	json_t *root = NULL;
	int xi = jsonfile_key_index(k, "extends");
	int rc = -1;

	root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		oc_jsonfile_syntax_err(err, errlen, path, jerr.line, jerr.column, jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		oc_seterr(err, errlen, "%s: a %s must be a JSON object ({ ... })", path, k->what);
		goto out;
	}
	if (jsonfile_keys(k, path, root, val, err, errlen) < 0 ||
	    jsonfile_check(k, path, stem, val, err, errlen) < 0)
		goto out;
	doc.path = path;
	doc.stem = stem;
	doc.extends = xi >= 0 && val[xi].present ? val[xi].str : "";
	doc.builtin = !src;
	doc.val = val;
	if (xi >= 0 && val[xi].present) {
		if (child) {
			if (strcmp(doc.extends, child) == 0)
				oc_seterr(err, errlen,
						"%s: \"extends\": cycle: %s extends %s, which extends %s",
						path, child, stem, child);
			else
				oc_seterr(err, errlen,
						"%s: \"extends\": only one level: %s extends %s, which extends %s",
						path, child, stem, doc.extends);
			goto out;
		}
		if (jsonfile_parent(k, path, stem, doc.extends, src, ctx, err, errlen) < 0)
			goto out;
	}
	if (k->apply(ctx, &doc, err, errlen) < 0)
		goto out;
	rc = 0;
out:
	json_decref(root);
	return rc;
}

/* Loads the file at path into ctx (child as jsonfile_parse). Returns 0,
 * or -1 with err set. */
static int jsonfile_load_file(const struct oc_jsonfile_kind *k, const char *path, bool strict,
			      const struct jsonfile_src *src, const char *child, void *ctx,
			      char *err, size_t errlen)
{
	char stem[OC_DATAFILE_NAME_MAX + 1];
	char *text = NULL;
	size_t textlen = 0;
	int rc;

	if (!jsonfile_kind_ok(k)) {
		oc_seterr(err, errlen, "%s: the %s loader's key list is broken", path, k->what);
		return -1;
	}
	if (strlen(path) >= OC_DATAFILE_PATH_MAX) {
		oc_seterr(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	if (oc_datafile_stem(path, stem, sizeof(stem)) < 0) {
		oc_seterr(err, errlen,
				"%s: the file name must be NAME.json, NAME of 1 to %d of A-Z a-z 0-9 . _ -",
				path, OC_DATAFILE_NAME_MAX);
		return -1;
	}
	if (oc_datafile_read(path, strict, &text, &textlen, err, errlen) < 0)
		return -1;
	rc = jsonfile_parse(k, path, stem, text, textlen, src, child, ctx, err, errlen);
	free(text);
	return rc;
}

/* Returns 0 / 1 / -1 (jsonfile.h). */
int oc_jsonfile_builtin(const struct oc_jsonfile_kind *k, const char *name, void *ctx,
			char *err, size_t errlen)
{
	char where[128];

	for (const struct oc_builtin_file *f = oc_builtin_files; name && f->kind; f++) {
		if (strcmp(f->kind, k->dir) != 0 || strcmp(f->name, name) != 0)
			continue;
		snprintf(where, sizeof(where), "built-in %s %s", k->what, f->name);
		if (!jsonfile_kind_ok(k)) {
			oc_seterr(err, errlen, "%s: the %s loader's key list is broken", where,
					k->what);
			return -1;
		}
		return jsonfile_parse(k, where, f->name, f->text, f->len, NULL, NULL, ctx, err,
				      errlen) < 0 ? -1 : 0;
	}
	return 1;
}

/* The built-in names (jsonfile.h). */
const char *const *oc_jsonfile_builtin_names(const struct oc_jsonfile_kind *k)
{
	static const char *const none[] = {NULL};

	for (const struct oc_builtin_kind *b = oc_builtin_kinds; b->kind; b++)
		if (strcmp(b->kind, k->dir) == 0)
			return b->names;
	return none;
}

/* Returns 0 or -1 (jsonfile.h). */
int oc_jsonfile_load(const struct oc_jsonfile_kind *k, const char *path, void *ctx, char *err,
		     size_t errlen)
{
	char dir[OC_DATAFILE_PATH_MAX];
	struct jsonfile_src src = {NULL, dir};
	const char *slash;

	if (!path || !*path) {
		oc_seterr(err, errlen, "no %s path", k->what);
		return -1;
	}
	if (strlen(path) >= sizeof(dir)) {
		oc_seterr(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return jsonfile_load_file(k, path, false, &src, NULL, ctx, err, errlen);
}

/* Returns 0 / 1 / -1 (jsonfile.h). */
int oc_jsonfile_find(const struct oc_jsonfile_kind *k, const char *name,
		     const struct oc_datafile_dirs *dirs, void *ctx, char *err, size_t errlen)
{
	char path[OC_DATAFILE_PATH_MAX];
	struct jsonfile_src src = {dirs, NULL};
	bool strict = false;
	int rc;

	rc = oc_datafile_find(k->dir, name, dirs, path, sizeof(path), &strict, err, errlen);
	if (rc != 0)
		return rc;
	return jsonfile_load_file(k, path, strict, &src, NULL, ctx, err, errlen) < 0 ? -1 : 0;
}
