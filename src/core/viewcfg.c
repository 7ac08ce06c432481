/* viewcfg.c: view layout files (views/VIEW.json) and the built-in layouts.
 * jansson is used here only; nothing of it leaves this file. */
#include "core/viewcfg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define VIEWCFG_KIND "views"

/* One column of a built-in layout, as a file writes it. */
struct viewcfg_entry {
	const char *id;
	int width;
	bool optional;
};

/* The layouts match the column definitions of src/ui/views/ (their
 * widths, optional columns, and the columns they show by default). */
static const struct viewcfg_entry viewcfg_partitions[] = {
	{"partition", 10, false}, {"avail", 5, false},   {"timelimit", 11, false},
	{"nodes", 5, false},      {"alloc", 5, false},   {"mix", 4, false},
	{"idle", 4, false},       {"drain", 4, false},   {"down", 4, false},
	{"gpus", 9, false},       {"running", 4, false}, {"pending", 0, false},
};

static const struct viewcfg_entry viewcfg_queue[] = {
	{"jobid", 8, false}, {"partition", 9, false}, {"name", 8, false},
	{"user", 8, false},  {"account", 8, true},    {"state", 2, false},
	{"time", 10, false}, {"nodes", 5, false},     {"gpus", 4, false},
	{"reason", 0, false},
};

static const struct viewcfg_entry viewcfg_nodes[] = {
	{"node", 15, false},       {"state", 7, false}, {"cpus", 7, false},
	{"gpus", 5, false},        {"reservation", 10, true}, {"by", 8, false},
	{"since", 11, true},       {"ago", 4, false},   {"reason", 0, false},
};

/* The health view shows its groups as headings, so "group" is not a
 * column by default. */
static const struct viewcfg_entry viewcfg_health[] = {
	{"node", 15, false}, {"state", 7, false}, {"by", 8, false},
	{"since", 11, true}, {"ago", 4, false},   {"reason", 0, false},
};

static const struct viewcfg_entry viewcfg_quota[] = {
	{"account", 16, false}, {"gpus", 9, false},    {"bar", 16, false},
	{"running", 4, false},  {"pending", 8, false}, {"blocked", 0, false},
};

static const struct viewcfg_entry viewcfg_reservations[] = {
	{"name", 18, false}, {"state", 6, false},  {"nodes", 20, false},
	{"start", 11, false}, {"end", 11, true},   {"users", 10, true},
	{"flags", 0, false},
};

#define VIEWCFG_TABLE(t) t, sizeof(t) / sizeof(t[0])

static const struct {
	const char *view;
	const struct viewcfg_entry *e;
	size_t n;
	const char *sort;   /* a column id, or "default" */
	bool reverse;
} viewcfg_builtins[] = {
	{"partitions", VIEWCFG_TABLE(viewcfg_partitions), "default", false},
	{"queue", VIEWCFG_TABLE(viewcfg_queue), "default", false},
	{"nodes", VIEWCFG_TABLE(viewcfg_nodes), "default", false},
	{"health", VIEWCFG_TABLE(viewcfg_health), "default", false},
	{"quota", VIEWCFG_TABLE(viewcfg_quota), "default", false},
	{"reservations", VIEWCFG_TABLE(viewcfg_reservations), "start", false},
};

#define VIEWCFG_NBUILTINS (sizeof(viewcfg_builtins) / sizeof(viewcfg_builtins[0]))

static const char *const viewcfg_builtin_list[] = {
	"partitions", "queue", "nodes", "health", "quota", "reservations", NULL,
};

/* Formats into err when err and errlen allow. */
static void viewcfg_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void viewcfg_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Empties out: no columns, the view's own order. */
static void viewcfg_clear(struct oc_viewcfg *out)
{
	memset(out, 0, sizeof(*out));
	out->sort = -1;
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
		viewcfg_err(err, errlen, "%s: too many columns (at most %d)", where,
			    OC_VIEWCFG_MAX_COLS);
		return -1;
	}
	if (width < 0 || width > OC_VIEWCFG_MAX_WIDTH) {
		viewcfg_err(err, errlen, "%s: column \"%s\": width %lld is not between 0 and %d", where,
			    id, width, OC_VIEWCFG_MAX_WIDTH);
		return -1;
	}
	for (size_t i = 0; i < out->ncols; i++) {
		if (out->cols[i].col == c) {
			viewcfg_err(err, errlen, "%s: column \"%s\" appears twice", where, id);
			return -1;
		}
		if (width == 0 && out->cols[i].width == 0) {
			viewcfg_err(err, errlen,
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
		viewcfg_err(err, errlen,
			    "%s: \"sort\": unknown column \"%.60s\" (a column id or \"default\")", where,
			    sort);
		return -1;
	}
	return 0;
}

/* Index of the built-in view, or -1. */
static int viewcfg_builtin_index(const char *view)
{
	for (size_t i = 0; view && i < VIEWCFG_NBUILTINS; i++)
		if (strcmp(viewcfg_builtins[i].view, view) == 0)
			return (int)i;
	return -1;
}

/* Returns 0 / 1 / -1 (viewcfg.h). */
int oc_viewcfg_builtin(const char *view, const char *const *cols, size_t ncols,
		       struct oc_viewcfg *out, char *err, size_t errlen)
{
	char where[96];
	int bi = viewcfg_builtin_index(view);

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		viewcfg_err(err, errlen, "no layout to fill");
		return -1;
	}
	viewcfg_clear(out);
	if (bi < 0) {
		viewcfg_err(err, errlen, "no built-in layout for view \"%.60s\"", view ? view : "");
		return 1;
	}
	snprintf(where, sizeof(where), "built-in layout %s", viewcfg_builtins[bi].view);
	for (size_t i = 0; i < viewcfg_builtins[bi].n; i++) {
		const struct viewcfg_entry *e = &viewcfg_builtins[bi].e[i];
		int c = viewcfg_col(e->id, cols, ncols);
		if (c < 0) {
			viewcfg_err(err, errlen, "%s: column \"%s\" is not in the view's column list",
				    where, e->id);
			goto fail;
		}
		if (viewcfg_add(out, where, e->id, c, e->width, e->optional, err, errlen) < 0)
			goto fail;
	}
	if (viewcfg_sort(out, where, viewcfg_builtins[bi].sort, cols, ncols, err, errlen) < 0)
		goto fail;
	out->reverse = viewcfg_builtins[bi].reverse;
	snprintf(out->name, sizeof(out->name), "%s", viewcfg_builtins[bi].view);
	return 0;
fail:
	viewcfg_clear(out);
	return -1;
}

/* The built-in names (viewcfg.h). */
const char *const *oc_viewcfg_builtin_names(void)
{
	return viewcfg_builtin_list;
}

/* Parses one element of "columns" (index i) into out. Returns 0, or -1
 * with err set. */
static int viewcfg_column(const char *path, size_t i, json_t *v, const char *const *cols,
			  size_t ncols, struct oc_viewcfg *out, char *err, size_t errlen)
{
	const char *key, *id = NULL;
	json_t *x;
	long long width = -1;
	bool optional = false;
	int c;

	if (!json_is_object(v)) {
		viewcfg_err(err, errlen,
			    "%s: columns[%zu] must be an object {\"id\": ..., \"width\": ...}", path, i);
		return -1;
	}
	json_object_foreach(v, key, x) {
		if (strcmp(key, "id") == 0) {
			if (!json_is_string(x)) {
				viewcfg_err(err, errlen, "%s: columns[%zu]: \"id\" must be a string", path, i);
				return -1;
			}
			id = json_string_value(x);
		} else if (strcmp(key, "width") == 0) {
			if (!json_is_integer(x)) {
				viewcfg_err(err, errlen,
					    "%s: columns[%zu]: \"width\" must be an integer (0: the rest of the line)",
					    path, i);
				return -1;
			}
			width = json_integer_value(x);
		} else if (strcmp(key, "optional") == 0) {
			if (!json_is_boolean(x)) {
				viewcfg_err(err, errlen,
					    "%s: columns[%zu]: \"optional\" must be true or false", path, i);
				return -1;
			}
			optional = json_is_true(x);
		} else {
			viewcfg_err(err, errlen,
				    "%s: columns[%zu]: unknown key \"%.40s\" (a column has id, width, optional)",
				    path, i, key);
			return -1;
		}
	}
	if (!id) {
		viewcfg_err(err, errlen, "%s: columns[%zu]: no \"id\"", path, i);
		return -1;
	}
	if (width < 0 && !json_object_get(v, "width")) {
		viewcfg_err(err, errlen, "%s: columns[%zu] (\"%.40s\"): no \"width\"", path, i, id);
		return -1;
	}
	c = viewcfg_col(id, cols, ncols);
	if (c < 0) {
		viewcfg_err(err, errlen, "%s: columns[%zu]: unknown column \"%.40s\"", path, i, id);
		return -1;
	}
	return viewcfg_add(out, path, id, c, width, optional, err, errlen);
}

/* Loads path (strict: the permission check) for view into out. Returns 0,
 * or -1 with err set and out empty. */
static int viewcfg_load_file(const char *path, bool strict, const char *view,
			     const char *const *cols, size_t ncols, struct oc_viewcfg *out,
			     char *err, size_t errlen)
{
	char stem[OC_DATAFILE_NAME_MAX + 1];
	char *text = NULL;
	size_t textlen = 0;
	json_error_t jerr;
	json_t *root = NULL, *v, *jcols;
	const char *key;
	int rc = -1;

	if (strlen(path) >= sizeof(out->path)) {
		viewcfg_err(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	if (oc_datafile_stem(path, stem, sizeof(stem)) < 0 || strcmp(stem, view) != 0) {
		viewcfg_err(err, errlen, "%s: the layout of view %s must be in a file %s.json", path,
			    view, view);
		return -1;
	}
	if (oc_datafile_read(path, strict, &text, &textlen, err, errlen) < 0)
		return -1;
	root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.line > 0)
			viewcfg_err(err, errlen, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		else
			viewcfg_err(err, errlen, "%s: %s", path, jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		viewcfg_err(err, errlen, "%s: a view layout must be a JSON object ({ ... })", path);
		goto out;
	}
	json_object_foreach(root, key, v) {
		if (strcmp(key, "view") == 0 || strcmp(key, "description") == 0 ||
		    strcmp(key, "sort") == 0) {
			if (!json_is_string(v)) {
				viewcfg_err(err, errlen, "%s: \"%s\" must be a string", path, key);
				goto out;
			}
		} else if (strcmp(key, "reverse") == 0) {
			if (!json_is_boolean(v)) {
				viewcfg_err(err, errlen, "%s: \"reverse\" must be true or false", path);
				goto out;
			}
		} else if (strcmp(key, "columns") == 0) {
			if (!json_is_array(v)) {
				viewcfg_err(err, errlen,
					    "%s: \"columns\" must be an array [{\"id\": ..., \"width\": ...}, ...]",
					    path);
				goto out;
			}
		} else {
			viewcfg_err(err, errlen,
				    "%s: unknown key \"%.60s\" (a view layout has view, description, columns, sort, reverse)",
				    path, key);
			goto out;
		}
	}
	v = json_object_get(root, "view");
	if (v && strcmp(json_string_value(v), view) != 0) {
		viewcfg_err(err, errlen, "%s: \"view\" is \"%.60s\" but the file is %s.json", path,
			    json_string_value(v), view);
		goto out;
	}
	jcols = json_object_get(root, "columns");
	if (!jcols || json_array_size(jcols) == 0) {
		viewcfg_err(err, errlen, "%s: no \"columns\" (at least one is needed)", path);
		goto out;
	}
	{
		size_t i;
		json_t *c;
		json_array_foreach(jcols, i, c) {
			if (viewcfg_column(path, i, c, cols, ncols, out, err, errlen) < 0)
				goto out;
		}
	}
	v = json_object_get(root, "sort");
	if (viewcfg_sort(out, path, v ? json_string_value(v) : "default", cols, ncols, err,
			 errlen) < 0)
		goto out;
	out->reverse = json_is_true(json_object_get(root, "reverse"));
	snprintf(out->name, sizeof(out->name), "%s", view);
	snprintf(out->path, sizeof(out->path), "%s", path);
	rc = 0;
out:
	json_decref(root);
	free(text);
	if (rc < 0)
		viewcfg_clear(out);
	return rc;
}

/* Returns 0 or -1 (viewcfg.h). */
int oc_viewcfg_load(const char *path, const char *view, const char *const *cols, size_t ncols,
		    struct oc_viewcfg *out, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		viewcfg_err(err, errlen, "no layout to fill");
		return -1;
	}
	viewcfg_clear(out);
	if (!path || !*path || !view || !*view) {
		viewcfg_err(err, errlen, "no layout path or view");
		return -1;
	}
	return viewcfg_load_file(path, false, view, cols, ncols, out, err, errlen);
}

/* Returns 0 / 1 / -1 (viewcfg.h). */
int oc_viewcfg_find(const char *view, const struct oc_datafile_dirs *dirs,
		    const char *const *cols, size_t ncols, struct oc_viewcfg *out,
		    char *err, size_t errlen)
{
	char path[OC_DATAFILE_PATH_MAX];
	bool strict = false;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		viewcfg_err(err, errlen, "no layout to fill");
		return -1;
	}
	viewcfg_clear(out);
	rc = oc_datafile_find(VIEWCFG_KIND, view, dirs, path, sizeof(path), &strict, err, errlen);
	if (rc != 0)
		return rc;
	return viewcfg_load_file(path, strict, view, cols, ncols, out, err, errlen) < 0 ? -1 : 0;
}
