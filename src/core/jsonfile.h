/* jsonfile.h: what the loaders of JSON data files (keymap.c, theme.c,
 * viewcfg.c) share. A kind of file is described once (struct
 * oc_jsonfile_kind); oc_jsonfile_load and oc_jsonfile_find then
 *   - read the file with oc_datafile_read (size limit, permission check in
 *     the strict directories of datafiles.h);
 *   - parse it with jansson: errors "path:line:col: message";
 *   - require a top-level object whose keys are all in the kind's list,
 *     each of its type ("path: unknown key ..." otherwise);
 *   - check that the kind's name key, when present, says the file's stem;
 *   - refuse a file without its required keys;
 *   - resolve "extends" one level deep: NAME.json beside the file (load)
 *     or in the search directories (find), else the kind's built-in NAME;
 *     a parent that extends again is refused ("cycle" or "only one level");
 * and hand the file's values to the kind's apply callback, after the
 * parent's. oc_jsonfile_builtin does the same with a built-in: the
 * shipped file compiled in (builtin_data.h), so that the two cannot
 * differ.
 *
 * One parsing unit: jansson objects never leave jsonfile.c and the three
 * loaders. jsonfile.c owns the document; an apply callback is handed the
 * json_t of its object and array keys (struct oc_jsonfile_val) and may
 * read them during the call only, keeping no pointer into them. This
 * header names json_t only as an incomplete type; no other header of the
 * project may mention it. */
#ifndef OC_CORE_JSONFILE_H
#define OC_CORE_JSONFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/datafiles.h"

struct json_t;   /* jansson's; see "One parsing unit" above */

#define OC_JSONFILE_MAX_KEYS 8   /* top-level keys a kind may list */

enum oc_jsonfile_type {
	OC_JSONFILE_STRING,
	OC_JSONFILE_BOOL,
	OC_JSONFILE_OBJECT,
	OC_JSONFILE_ARRAY,
};

enum oc_jsonfile_need {
	OC_JSONFILE_OPTIONAL,
	OC_JSONFILE_REQUIRED,   /* absent: "path: no \"KEY\"" */
	OC_JSONFILE_NONEMPTY,   /* absent or empty: "path: no \"KEY\" (at least one is needed)" */
};

/* One top-level key of a kind. */
struct oc_jsonfile_key {
	const char *name;
	enum oc_jsonfile_type type;
	enum oc_jsonfile_need need;
	const char *must;   /* the type error says "path: \"KEY\" must be MUST"; NULL:
			     * "a string" or "true or false" */
};

/* The value of one key of the file (val[i] for the kind's keys[i]). */
struct oc_jsonfile_val {
	bool present;
	const char *str;        /* STRING: the text, valid during apply */
	bool boolean;           /* BOOL */
	struct json_t *json;    /* OBJECT, ARRAY: for the loader's own parser */
};

/* One file as apply sees it; every pointer is valid during the call only. */
struct oc_jsonfile_doc {
	const char *path;
	const char *stem;      /* NAME of NAME.json */
	const char *extends;   /* the parent's name, "" for none */
	bool builtin;          /* a built-in: path is "built-in WHAT NAME", no file */
	const struct oc_jsonfile_val *val;
};

/* A kind of file (a plain constant of its loader). */
struct oc_jsonfile_kind {
	const char *dir;        /* "keymaps": the kind of datafiles.h */
	const char *what;       /* "keymap": "a keymap must be a JSON object" */
	const char *name_key;   /* "keymap": a key that must say the stem, or NULL */
	const struct oc_jsonfile_key *keys;   /* in the order the unknown-key
					       * message lists them; a key
					       * "extends" (a string) names
					       * the parent */
	size_t nkeys;           /* at most OC_JSONFILE_MAX_KEYS */
	/* Applies the file's values to ctx (after the parent's). Returns 0, or
	 * -1 with err set ("path: ..."). */
	int (*apply)(void *ctx, const struct oc_jsonfile_doc *doc, char *err, size_t errlen);
	/* Applies the built-in name to ctx as a parent. Returns 0; 1 when there
	 * is no built-in of that name; -1 with err set. NULL: no built-ins. */
	int (*builtin)(void *ctx, const char *name, char *err, size_t errlen);
};

/* Loads the file at path (not strict: the caller chose it); a parent is
 * looked for as NAME.json in the directory of path, then among the
 * built-ins. Returns 0, or -1 with "path[:line:col]: message" in err; what
 * apply did to ctx before a failure is the caller's to undo. Nothing to
 * free. */
int oc_jsonfile_load(const struct oc_jsonfile_kind *k, const char *path, void *ctx, char *err,
		     size_t errlen);

/* Loads k->dir/name.json from the first of dirs that has it (strict as
 * that directory is); a parent is looked for in dirs the same way, then
 * among the built-ins. Returns 0 when loaded; 1 when no directory has the
 * file (err says where it looked; apply not called); -1 when the name is
 * refused or the file or its parent is broken or refused (err says why).
 * Nothing to free. */
int oc_jsonfile_find(const struct oc_jsonfile_kind *k, const char *name,
		     const struct oc_datafile_dirs *dirs, void *ctx, char *err, size_t errlen);

/* Applies the built-in name of kind k (k->dir/name.json as shipped,
 * compiled in) to ctx the way a file is applied; its "extends" names
 * another built-in, applied first through k->builtin. Messages say
 * "built-in WHAT NAME: ..." where a file's say its path; a shipped file
 * that does not load fails the unit tests (test_keymap, test_theme,
 * test_viewcfg). Returns 0; 1 when there is no such built-in (err
 * untouched); -1 with err set. */
int oc_jsonfile_builtin(const struct oc_jsonfile_kind *k, const char *name, void *ctx,
			char *err, size_t errlen);

/* The names of k's built-ins (the files of k->dir in the source tree),
 * sorted, NULL-terminated (static). */
const char *const *oc_jsonfile_builtin_names(const struct oc_jsonfile_kind *k);

/* Writes jansson's parse error as "path:line:col: text", or "path: text"
 * when it has no line (an empty file), into err when err and errlen
 * allow. Returns nothing (profile.c uses it too). */
void oc_jsonfile_syntax_err(char *err, size_t errlen, const char *path, int line, int column,
			    const char *text);

#endif
