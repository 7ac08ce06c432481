/* viewcfg.c: view layout files (views/VIEW.json) and the built-in layouts
 * (the shipped files compiled in, builtin_data.h). jsonfile.c reads and
 * checks a file; here its "columns" are parsed (one parsing unit with
 * jsonfile.c: no jansson object leaves the two). */
#include "core/viewcfg.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/jsonfile.h"

#define VIEWCFG_KIND "views"

/* Empties out: no columns, the view's own order. */
static void viewcfg_clear(struct oc_viewcfg *out)
{
	memset(out, 0, sizeof(*out));
	out->sort = -1;
}

/* The start of oc_viewcfg_builtin, _load and _find: clears err and out.
 * Returns 0, or -1 when there is no out. */
static int viewcfg_begin(struct oc_viewcfg *out, char *err, size_t errlen)
{
	if (oc_datafile_begin(out, "layout", err, errlen) < 0)
		return -1;
	viewcfg_clear(out);
	return 0;
}

/* The end of oc_viewcfg_load and _find: returns rc, with out emptied when
 * it is -1. */
static int viewcfg_end(int rc, struct oc_viewcfg *out)
{
	if (rc < 0)
		viewcfg_clear(out);
	return rc;
}

/* Index of column id in cols, or -1. */
static int viewcfg_col(const char *id, const char *const *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols && cols; i++)
		if (cols[i] && strcmp(cols[i], id) == 0)
			return (int)i;
	return -1;
}

/* Adds column c to out after the checks every layout passes (not twice,
 * width in range, one flexible column at most). where names the source
 * for messages. Returns 0, or -1 with err set. */
static int viewcfg_add(struct oc_viewcfg *out, const char *where, const char *id, int c,
		       long long width, bool optional, char *err, size_t errlen)
{
	if (out->ncols >= OC_VIEWCFG_MAX_COLS) {
		oc_seterr(err, errlen, "%s: too many columns (at most %d)", where,
				OC_VIEWCFG_MAX_COLS);
		return -1;
	}
	if (width < 0 || width > OC_VIEWCFG_MAX_WIDTH) {
		oc_seterr(err, errlen, "%s: column \"%s\": width %lld is not between 0 and %d", where,
				id, width, OC_VIEWCFG_MAX_WIDTH);
		return -1;
	}
	for (size_t i = 0; i < out->ncols; i++) {
		if (out->cols[i].col == c) {
			oc_seterr(err, errlen, "%s: column \"%s\" appears twice", where, id);
			return -1;
		}
		if (width == 0 && out->cols[i].width == 0) {
			oc_seterr(err, errlen,
					"%s: column \"%s\": only one column may have width 0 (the rest of the line)",
					where, id);
			return -1;
		}
	}
	out->cols[out->ncols].col = c;
	out->cols[out->ncols].width = (int)width;
	out->cols[out->ncols].optional = optional;
	out->ncols++;
	return 0;
}

/* Sets out->sort from a sort name. Returns 0, or -1 with err set. */
static int viewcfg_sort(struct oc_viewcfg *out, const char *where, const char *sort,
			const char *const *cols, size_t ncols, char *err, size_t errlen)
{
	if (strcmp(sort, "default") == 0) {
		out->sort = -1;
		return 0;
	}
	out->sort = viewcfg_col(sort, cols, ncols);
	if (out->sort < 0) {
		oc_seterr(err, errlen,
				"%s: \"sort\": unknown column \"%.60s\" (a column id or \"default\")", where,
				sort);
		return -1;
	}
	return 0;
}

/* Parses one element of "columns" (index i) of the file at path (or of
 * the built-in path names) into out. Returns 0, or -1 with err set. */
static int viewcfg_column(const char *path, bool builtin, size_t i, json_t *v,
			  const char *const *cols, size_t ncols, struct oc_viewcfg *out, char *err,
			  size_t errlen)
{
	const char *key, *id = NULL;
	json_t *x;
	long long width = -1;
	bool optional = false;
	int c;

	if (!json_is_object(v)) {
		oc_seterr(err, errlen,
				"%s: columns[%zu] must be an object {\"id\": ..., \"width\": ...}", path, i);
		return -1;
	}
	json_object_foreach(v, key, x) {
		if (strcmp(key, "id") == 0) {
			if (!json_is_string(x)) {
				oc_seterr(err, errlen, "%s: columns[%zu]: \"id\" must be a string", path, i);
				return -1;
			}
			id = json_string_value(x);
		} else if (strcmp(key, "width") == 0) {
			if (!json_is_integer(x)) {
				oc_seterr(err, errlen,
						"%s: columns[%zu]: \"width\" must be an integer (0: the rest of the line)",
						path, i);
				return -1;
			}
			width = json_integer_value(x);
		} else if (strcmp(key, "optional") == 0) {
			if (!json_is_boolean(x)) {
				oc_seterr(err, errlen,
						"%s: columns[%zu]: \"optional\" must be true or false", path, i);
				return -1;
			}
			optional = json_is_true(x);
		} else {
			oc_seterr(err, errlen,
					"%s: columns[%zu]: unknown key \"%.40s\" (a column has id, width, optional)",
					path, i, key);
			return -1;
		}
	}
	if (!id) {
		oc_seterr(err, errlen, "%s: columns[%zu]: no \"id\"", path, i);
		return -1;
	}
	if (width < 0 && !json_object_get(v, "width")) {
		oc_seterr(err, errlen, "%s: columns[%zu] (\"%.40s\"): no \"width\"", path, i, id);
		return -1;
	}
	c = viewcfg_col(id, cols, ncols);
	if (c < 0 && builtin) {
		/* The shipped file and the view's columns drifted apart. */
		oc_seterr(err, errlen, "%s: column \"%s\" is not in the view's column list", path,
				id);
		return -1;
	}
	if (c < 0) {
		oc_seterr(err, errlen, "%s: columns[%zu]: unknown column \"%.40s\"", path, i, id);
		return -1;
	}
	return viewcfg_add(out, path, id, c, width, optional, err, errlen);
}

/* The top-level keys of a layout file, in viewcfg_keys. */
enum { VIEWCFG_KEY_VIEW, VIEWCFG_KEY_DESCRIPTION, VIEWCFG_KEY_COLUMNS, VIEWCFG_KEY_SORT,
       VIEWCFG_KEY_REVERSE };

/* What a layout file is applied to. */
struct viewcfg_ctx {
	const char *const *cols;
	size_t ncols;
	struct oc_viewcfg *out;
};

/* The apply callback of layout files and built-ins (jsonfile.h). */
static int viewcfg_apply_file(void *vctx, const struct oc_jsonfile_doc *doc, char *err,
			      size_t errlen)
{
	const struct oc_jsonfile_val *sort = &doc->val[VIEWCFG_KEY_SORT];
	struct viewcfg_ctx *c = vctx;
	size_t i;
	json_t *v;

	json_array_foreach(doc->val[VIEWCFG_KEY_COLUMNS].json, i, v) {
		if (viewcfg_column(doc->path, doc->builtin, i, v, c->cols, c->ncols, c->out, err,
				   errlen) < 0)
			return -1;
	}
	if (viewcfg_sort(c->out, doc->path, sort->present ? sort->str : "default", c->cols,
			 c->ncols, err, errlen) < 0)
		return -1;
	c->out->reverse = doc->val[VIEWCFG_KEY_REVERSE].boolean;
	snprintf(c->out->name, sizeof(c->out->name), "%s", doc->stem);
	snprintf(c->out->path, sizeof(c->out->path), "%s", doc->builtin ? "" : doc->path);
	return 0;
}

/* The top-level keys, in the order "unknown key" lists them. */
static const struct oc_jsonfile_key viewcfg_keys[] = {
	[VIEWCFG_KEY_VIEW] = {"view", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[VIEWCFG_KEY_DESCRIPTION] = {"description", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[VIEWCFG_KEY_COLUMNS] = {"columns", OC_JSONFILE_ARRAY, OC_JSONFILE_NONEMPTY,
				 "an array [{\"id\": ..., \"width\": ...}, ...]"},
	[VIEWCFG_KEY_SORT] = {"sort", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[VIEWCFG_KEY_REVERSE] = {"reverse", OC_JSONFILE_BOOL, OC_JSONFILE_OPTIONAL, NULL},
};

/* No "extends" and no built-in parents: a layout is whole. The built-ins
 * go through oc_jsonfile_builtin all the same. */
static const struct oc_jsonfile_kind viewcfg_kind = {
	.dir = VIEWCFG_KIND,
	.what = "view layout",
	.name_key = "view",
	.keys = viewcfg_keys,
	.nkeys = sizeof(viewcfg_keys) / sizeof(viewcfg_keys[0]),
	.apply = viewcfg_apply_file,
	.builtin = NULL,
};

/* Returns 0 / 1 / -1 (viewcfg.h). */
int oc_viewcfg_builtin(const char *view, const char *const *cols, size_t ncols,
		       struct oc_viewcfg *out, char *err, size_t errlen)
{
	struct viewcfg_ctx c = {cols, ncols, out};
	int rc;

	if (viewcfg_begin(out, err, errlen) < 0)
		return -1;
	rc = oc_jsonfile_builtin(&viewcfg_kind, view, &c, err, errlen);
	if (rc == 1)
		oc_seterr(err, errlen, "no built-in layout for view \"%.60s\"", view ? view : "");
	return viewcfg_end(rc, out);
}

/* The built-in names (viewcfg.h). */
const char *const *oc_viewcfg_builtin_names(void)
{
	return oc_jsonfile_builtin_names(&viewcfg_kind);
}

/* Returns 0 or -1 (viewcfg.h). */
int oc_viewcfg_load(const char *path, const char *view, const char *const *cols, size_t ncols,
		    struct oc_viewcfg *out, char *err, size_t errlen)
{
	struct viewcfg_ctx c = {cols, ncols, out};
	char stem[OC_DATAFILE_NAME_MAX + 1];

	if (viewcfg_begin(out, err, errlen) < 0)
		return -1;
	if (!path || !*path || !view || !*view) {
		oc_seterr(err, errlen, "no layout path or view");
		return -1;
	}
	if (strlen(path) >= sizeof(out->path)) {
		oc_seterr(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	/* The view's layout, not any file: checked before jsonfile reads it. */
	if (oc_datafile_stem(path, stem, sizeof(stem)) < 0 || strcmp(stem, view) != 0) {
		oc_seterr(err, errlen, "%s: the layout of view %s must be in a file %s.json",
				path, view, view);
		return -1;
	}
	return viewcfg_end(oc_jsonfile_load(&viewcfg_kind, path, &c, err, errlen), out);
}

/* Returns 0 / 1 / -1 (viewcfg.h). */
int oc_viewcfg_find(const char *view, const struct oc_datafile_dirs *dirs,
		    const char *const *cols, size_t ncols, struct oc_viewcfg *out,
		    char *err, size_t errlen)
{
	struct viewcfg_ctx c = {cols, ncols, out};

	if (viewcfg_begin(out, err, errlen) < 0)
		return -1;
	return viewcfg_end(oc_jsonfile_find(&viewcfg_kind, view, dirs, &c, err, errlen), out);
}
