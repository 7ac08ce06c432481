/* theme.c: theme files (themes/NAME.json) and the built-in themes.
 * jansson is used here only; nothing of it leaves this file. */
#include "core/theme.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#define THEME_KIND "themes"

#define D OC_COLOR_DEFAULT
#define BLK OC_COLOR_BLACK
#define RED OC_COLOR_RED
#define GRN OC_COLOR_GREEN
#define YEL OC_COLOR_YELLOW
#define BLU OC_COLOR_BLUE
#define MAG OC_COLOR_MAGENTA
#define CYN OC_COLOR_CYAN
#define WHT OC_COLOR_WHITE
#define BR(c) OC_COLOR_BRIGHT(c)
#define BOLD OC_ATTR_BOLD
#define UNDER OC_ATTR_UNDERLINE
#define REV OC_ATTR_REVERSE
#define DIM OC_ATTR_DIM

static const char *const theme_colors[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow",
	"bright-blue", "bright-magenta", "bright-cyan", "bright-white",
};

static const struct {
	const char *name;
	unsigned bit;
} theme_attrs[] = {
	{"bold", OC_ATTR_BOLD},     {"underline", OC_ATTR_UNDERLINE},
	{"reverse", OC_ATTR_REVERSE}, {"dim", OC_ATTR_DIM},
	{"italic", OC_ATTR_ITALIC}, {"standout", OC_ATTR_STANDOUT},
};

/* One role of a built-in table. */
struct theme_entry {
	const char *role;
	short fg, bg;
	unsigned attrs;
};

/* themes/default.json: the colours the screen had before themes. */
static const struct theme_entry theme_default[] = {
	{"normal", D, D, 0},
	{"header", BLK, CYN, 0},
	{"tab", D, D, 0},
	{"tab_active", BLK, YEL, BOLD},
	{"title", CYN, D, BOLD},
	{"selected", BLK, WHT, 0},
	{"tagged", MAG, D, BOLD},
	{"banner", WHT, RED, BOLD},
	{"status", BLK, CYN, 0},
	{"ok", GRN, D, 0},
	{"busy", CYN, D, 0},
	{"warn", YEL, D, BOLD},
	{"bad", RED, D, BOLD},
	{"dim", BLU, D, 0},
	{"group", D, D, BOLD | UNDER},
	{"bar_used", GRN, D, 0},
	{"bar_free", D, D, DIM},
	{"bar_over", RED, D, BOLD},
};

/* themes/light.json: for terminals with a light background (no yellow,
 * cyan or white text). */
static const struct theme_entry theme_light[] = {
	{"normal", D, D, 0},
	{"header", WHT, BLU, BOLD},
	{"tab", D, D, 0},
	{"tab_active", WHT, MAG, BOLD},
	{"title", BLU, D, BOLD},
	{"selected", BLK, CYN, 0},
	{"tagged", BLK, YEL, 0},
	{"banner", WHT, RED, BOLD},
	{"status", WHT, BLU, 0},
	{"ok", GRN, D, 0},
	{"busy", BLU, D, 0},
	{"warn", MAG, D, BOLD},
	{"bad", RED, D, BOLD},
	{"dim", BR(BLK), D, 0},
	{"group", BLK, D, BOLD | UNDER},
	{"bar_used", GRN, D, 0},
	{"bar_free", BR(BLK), D, 0},
	{"bar_over", RED, D, BOLD},
};

/* themes/high-contrast.json: bright colours on black. */
static const struct theme_entry theme_high_contrast[] = {
	{"normal", BR(WHT), BLK, 0},
	{"header", BLK, BR(CYN), BOLD},
	{"tab", BR(WHT), BLK, 0},
	{"tab_active", BLK, BR(YEL), BOLD},
	{"title", BR(CYN), BLK, BOLD | UNDER},
	{"selected", BLK, BR(WHT), BOLD},
	{"tagged", BR(MAG), BLK, BOLD},
	{"banner", BR(WHT), RED, BOLD},
	{"status", BLK, BR(CYN), 0},
	{"ok", BR(GRN), BLK, 0},
	{"busy", BR(CYN), BLK, 0},
	{"warn", BR(YEL), BLK, BOLD},
	{"bad", BR(RED), BLK, BOLD},
	{"dim", BR(BLK), BLK, 0},
	{"group", BR(WHT), BLK, BOLD | UNDER},
	{"bar_used", BR(GRN), BLK, 0},
	{"bar_free", BR(BLK), BLK, 0},
	{"bar_over", BR(RED), BLK, BOLD},
};

/* themes/mono.json: attributes only, for NO_COLOR and terminals without
 * colours (what the screen did without colours before themes). */
static const struct theme_entry theme_mono[] = {
	{"normal", D, D, 0},
	{"header", D, D, REV},
	{"tab", D, D, 0},
	{"tab_active", D, D, REV | BOLD},
	{"title", D, D, BOLD | UNDER},
	{"selected", D, D, REV},
	{"tagged", D, D, BOLD},
	{"banner", D, D, REV | BOLD},
	{"status", D, D, REV},
	{"ok", D, D, 0},
	{"busy", D, D, 0},
	{"warn", D, D, BOLD},
	{"bad", D, D, BOLD | UNDER},
	{"dim", D, D, DIM},
	{"group", D, D, BOLD | UNDER},
	{"bar_used", D, D, REV},
	{"bar_free", D, D, DIM},
	{"bar_over", D, D, REV | BOLD},
};

#define THEME_TABLE(t) t, sizeof(t) / sizeof(t[0])

static const struct {
	const char *name;
	const struct theme_entry *e;
	size_t n;
} theme_builtins[] = {
	{"default", THEME_TABLE(theme_default)},
	{"light", THEME_TABLE(theme_light)},
	{"high-contrast", THEME_TABLE(theme_high_contrast)},
	{"mono", THEME_TABLE(theme_mono)},
};

#define THEME_NBUILTINS (sizeof(theme_builtins) / sizeof(theme_builtins[0]))

static const char *const theme_builtin_list[] = {"default", "light", "high-contrast", "mono", NULL};

/* Formats into err when err and errlen allow. */
static void theme_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void theme_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Returns -1..15 or -2 (theme.h). */
int oc_theme_color_parse(const char *name)
{
	if (!name)
		return -2;
	if (strcmp(name, "default") == 0)
		return OC_COLOR_DEFAULT;
	for (int i = 0; i < 16; i++)
		if (strcmp(name, theme_colors[i]) == 0)
			return i;
	return -2;
}

/* Returns a static name (theme.h). */
const char *oc_theme_color_name(int c)
{
	if (c == OC_COLOR_DEFAULT)
		return "default";
	return (c >= 0 && c < 16) ? theme_colors[c] : "?";
}

/* Returns the bit or 0 (theme.h). */
unsigned oc_theme_attr_parse(const char *name)
{
	for (size_t i = 0; name && i < sizeof(theme_attrs) / sizeof(theme_attrs[0]); i++)
		if (strcmp(name, theme_attrs[i].name) == 0)
			return theme_attrs[i].bit;
	return 0;
}

/* Makes out plain for nroles roles (capped at OC_THEME_MAX_ROLES). */
static void theme_clear(struct oc_theme_spec *out, size_t nroles)
{
	memset(out, 0, sizeof(*out));
	out->nroles = nroles > OC_THEME_MAX_ROLES ? OC_THEME_MAX_ROLES : nroles;
	for (size_t i = 0; i < OC_THEME_MAX_ROLES; i++) {
		out->role[i].fg = OC_COLOR_DEFAULT;
		out->role[i].bg = OC_COLOR_DEFAULT;
	}
}

/* Index of role name in roles, or -1. */
static int theme_role(const char *name, const char *const *roles, size_t nroles)
{
	for (size_t i = 0; i < nroles && roles; i++)
		if (roles[i] && strcmp(roles[i], name) == 0)
			return (int)i;
	return -1;
}

/* Checks the caller's role list. Returns 0, or -1 with err set. */
static int theme_check_roles(const char *const *roles, size_t nroles, char *err, size_t errlen)
{
	if (nroles > OC_THEME_MAX_ROLES) {
		theme_err(err, errlen, "too many roles (%zu, at most %d)", nroles, OC_THEME_MAX_ROLES);
		return -1;
	}
	if (nroles && !roles) {
		theme_err(err, errlen, "no role names");
		return -1;
	}
	return 0;
}

/* Gives the roles not set the style of "normal" (when it is set; plain
 * otherwise), and sets uses_color. */
static void theme_finish(struct oc_theme_spec *out, const char *const *roles, const bool *set)
{
	int normal = theme_role("normal", roles, out->nroles);
	struct oc_theme_style plain = {OC_COLOR_DEFAULT, OC_COLOR_DEFAULT, 0};
	struct oc_theme_style base = (normal >= 0 && set[normal]) ? out->role[normal] : plain;

	out->uses_color = false;
	for (size_t i = 0; i < out->nroles; i++) {
		if (!set[i])
			out->role[i] = base;
		if (out->role[i].fg != OC_COLOR_DEFAULT || out->role[i].bg != OC_COLOR_DEFAULT)
			out->uses_color = true;
	}
}

/* Index of the built-in name, or -1. */
static int theme_builtin_index(const char *name)
{
	for (size_t i = 0; name && i < THEME_NBUILTINS; i++)
		if (strcmp(theme_builtins[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Fills out and set[] from the built-in bi, unfinished. Returns 0, or -1
 * with err set. */
static int theme_apply_builtin(int bi, const char *const *roles, size_t nroles,
			       struct oc_theme_spec *out, bool *set, char *err, size_t errlen)
{
	for (size_t i = 0; i < theme_builtins[bi].n; i++) {
		const struct theme_entry *e = &theme_builtins[bi].e[i];
		int r = theme_role(e->role, roles, nroles);
		if (r < 0) {
			theme_err(err, errlen, "built-in theme %s: role \"%s\" is not in the role list",
				  theme_builtins[bi].name, e->role);
			return -1;
		}
		out->role[r].fg = e->fg;
		out->role[r].bg = e->bg;
		out->role[r].attrs = e->attrs;
		set[r] = true;
	}
	snprintf(out->name, sizeof(out->name), "%s", theme_builtins[bi].name);
	return 0;
}

/* Returns 0 / 1 / -1 (theme.h). */
int oc_theme_builtin(const char *name, const char *const *roles, size_t nroles,
		     struct oc_theme_spec *out, char *err, size_t errlen)
{
	bool set[OC_THEME_MAX_ROLES] = {false};
	int bi = theme_builtin_index(name);

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		theme_err(err, errlen, "no theme to fill");
		return -1;
	}
	theme_clear(out, nroles);
	if (theme_check_roles(roles, nroles, err, errlen) < 0)
		return -1;
	if (bi < 0) {
		theme_err(err, errlen, "no built-in theme \"%.80s\"", name ? name : "");
		return 1;
	}
	if (theme_apply_builtin(bi, roles, nroles, out, set, err, errlen) < 0) {
		theme_clear(out, nroles);
		return -1;
	}
	theme_finish(out, roles, set);
	return 0;
}

/* The built-in names (theme.h). */
const char *const *oc_theme_builtin_names(void)
{
	return theme_builtin_list;
}

/* Where a parent ("extends") is looked for: the search directories, or
 * the directory of the file that was given by path. */
struct theme_src {
	const struct oc_datafile_dirs *dirs;  /* NULL: use sibling */
	const char *sibling;
};

static int theme_load_file(const char *path, bool strict, const struct theme_src *src,
			   const char *child, const char *const *roles, size_t nroles,
			   struct oc_theme_spec *out, bool *set, char *err, size_t errlen);

/* Loads the parent theme name of the file at path (stem stem) into out and
 * set[], unfinished. Returns 0, or -1 with err set. */
static int theme_load_parent(const char *path, const char *stem, const char *name,
			     const struct theme_src *src, const char *const *roles, size_t nroles,
			     struct oc_theme_spec *out, bool *set, char *err, size_t errlen)
{
	char ppath[OC_DATAFILE_PATH_MAX];
	char why[OC_DATAFILE_PATH_MAX + 128];
	bool strict = false;
	int rc, bi;

	if (!oc_datafile_name_ok(name)) {
		theme_err(err, errlen, "%s: \"extends\": invalid theme name \"%.80s\"", path, name);
		return -1;
	}
	if (strcmp(name, stem) == 0) {
		theme_err(err, errlen, "%s: \"extends\": a theme cannot extend itself (%s)", path,
			  name);
		return -1;
	}
	why[0] = '\0';
	if (src->dirs) {
		rc = oc_datafile_find(THEME_KIND, name, src->dirs, ppath, sizeof(ppath), &strict,
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
		theme_err(err, errlen, "%s: \"extends\": %s", path, why);
		return -1;
	}
	if (rc == 0)
		return theme_load_file(ppath, strict, src, stem, roles, nroles, out, set, err, errlen);
	bi = theme_builtin_index(name);
	if (bi < 0) {
		theme_err(err, errlen, "%s: \"extends\": no theme \"%s\" (%s, and no built-in)", path,
			  name, why);
		return -1;
	}
	return theme_apply_builtin(bi, roles, nroles, out, set, err, errlen);
}

/* Parses the style object v of role into *st. Returns 0, or -1 with err
 * set. */
static int theme_style(const char *path, const char *role, json_t *v, struct oc_theme_style *st,
		       char *err, size_t errlen)
{
	const char *key;
	json_t *x;

	if (!json_is_object(v)) {
		theme_err(err, errlen,
			  "%s: roles: \"%.40s\" must be an object {\"fg\": ..., \"bg\": ..., \"attrs\": [...]}",
			  path, role);
		return -1;
	}
	st->fg = OC_COLOR_DEFAULT;
	st->bg = OC_COLOR_DEFAULT;
	st->attrs = 0;
	json_object_foreach(v, key, x) {
		if (strcmp(key, "fg") == 0 || strcmp(key, "bg") == 0) {
			int c = json_is_string(x) ? oc_theme_color_parse(json_string_value(x)) : -2;
			if (!json_is_string(x)) {
				theme_err(err, errlen, "%s: roles: \"%.40s\": \"%s\" must be a colour name (a string)",
					  path, role, key);
				return -1;
			}
			if (c < -1) {
				theme_err(err, errlen,
					  "%s: roles: \"%.40s\": \"%s\": unknown colour \"%.40s\" (default, black, red, green, yellow, blue, magenta, cyan, white, bright-black..bright-white)",
					  path, role, key, json_string_value(x));
				return -1;
			}
			if (key[0] == 'f')
				st->fg = (short)c;
			else
				st->bg = (short)c;
		} else if (strcmp(key, "attrs") == 0) {
			size_t i;
			json_t *a;
			if (!json_is_array(x)) {
				theme_err(err, errlen,
					  "%s: roles: \"%.40s\": \"attrs\" must be an array of names ([\"bold\", ...])",
					  path, role);
				return -1;
			}
			json_array_foreach(x, i, a) {
				unsigned bit = json_is_string(a) ? oc_theme_attr_parse(json_string_value(a)) : 0;
				if (!json_is_string(a)) {
					theme_err(err, errlen, "%s: roles: \"%.40s\": attrs[%zu] must be a string",
						  path, role, i);
					return -1;
				}
				if (!bit) {
					theme_err(err, errlen,
						  "%s: roles: \"%.40s\": unknown attribute \"%.40s\" (bold, underline, reverse, dim, italic, standout)",
						  path, role, json_string_value(a));
					return -1;
				}
				st->attrs |= bit;
			}
		} else {
			theme_err(err, errlen,
				  "%s: roles: \"%.40s\": unknown key \"%.40s\" (a role has fg, bg, attrs)",
				  path, role, key);
			return -1;
		}
	}
	return 0;
}

/* Loads the file at path into out and set[], unfinished. child is the stem
 * of the file that extends this one (NULL at the top). Returns 0, or -1
 * with err set. */
static int theme_load_file(const char *path, bool strict, const struct theme_src *src,
			   const char *child, const char *const *roles, size_t nroles,
			   struct oc_theme_spec *out, bool *set, char *err, size_t errlen)
{
	char stem[OC_DATAFILE_NAME_MAX + 1];
	char *text = NULL;
	size_t textlen = 0;
	json_error_t jerr;
	json_t *root = NULL, *jroles, *ext, *v;
	const char *key;
	int rc = -1;

	if (strlen(path) >= sizeof(out->path)) {
		theme_err(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	if (oc_datafile_stem(path, stem, sizeof(stem)) < 0) {
		theme_err(err, errlen,
			  "%s: the file name must be NAME.json, NAME of 1 to %d of A-Z a-z 0-9 . _ -",
			  path, OC_DATAFILE_NAME_MAX);
		return -1;
	}
	if (oc_datafile_read(path, strict, &text, &textlen, err, errlen) < 0)
		return -1;
	root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.line > 0)
			theme_err(err, errlen, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		else
			theme_err(err, errlen, "%s: %s", path, jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		theme_err(err, errlen, "%s: a theme must be a JSON object ({ ... })", path);
		goto out;
	}
	json_object_foreach(root, key, v) {
		if (strcmp(key, "theme") == 0 || strcmp(key, "description") == 0 ||
		    strcmp(key, "extends") == 0) {
			if (!json_is_string(v)) {
				theme_err(err, errlen, "%s: \"%s\" must be a string", path, key);
				goto out;
			}
		} else if (strcmp(key, "roles") == 0) {
			if (!json_is_object(v)) {
				theme_err(err, errlen,
					  "%s: \"roles\" must be an object {\"ROLE\": {...}, ...}", path);
				goto out;
			}
		} else {
			theme_err(err, errlen,
				  "%s: unknown key \"%.60s\" (a theme has theme, description, extends, roles)",
				  path, key);
			goto out;
		}
	}
	v = json_object_get(root, "theme");
	if (v && strcmp(json_string_value(v), stem) != 0) {
		theme_err(err, errlen, "%s: \"theme\" is \"%.60s\" but the file is %s.json", path,
			  json_string_value(v), stem);
		goto out;
	}
	jroles = json_object_get(root, "roles");
	if (!jroles) {
		theme_err(err, errlen, "%s: no \"roles\"", path);
		goto out;
	}
	ext = json_object_get(root, "extends");
	if (ext) {
		const char *pname = json_string_value(ext);
		if (child) {
			if (strcmp(pname, child) == 0)
				theme_err(err, errlen,
					  "%s: \"extends\": cycle: %s extends %s, which extends %s", path,
					  child, stem, child);
			else
				theme_err(err, errlen,
					  "%s: \"extends\": only one level: %s extends %s, which extends %s",
					  path, child, stem, pname);
			goto out;
		}
		if (theme_load_parent(path, stem, pname, src, roles, nroles, out, set, err, errlen) < 0)
			goto out;
	}
	json_object_foreach(jroles, key, v) {
		int r = theme_role(key, roles, nroles);
		if (r < 0) {
			theme_err(err, errlen, "%s: roles: unknown role \"%.60s\"", path, key);
			goto out;
		}
		if (theme_style(path, key, v, &out->role[r], err, errlen) < 0)
			goto out;
		set[r] = true;
	}
	snprintf(out->name, sizeof(out->name), "%s", stem);
	snprintf(out->path, sizeof(out->path), "%s", path);
	snprintf(out->extends, sizeof(out->extends), "%s", ext ? json_string_value(ext) : "");
	rc = 0;
out:
	json_decref(root);
	free(text);
	return rc;
}

/* The common end of oc_theme_load and oc_theme_find. */
static int theme_load_top(const char *path, bool strict, const struct theme_src *src,
			  const char *const *roles, size_t nroles, struct oc_theme_spec *out,
			  char *err, size_t errlen)
{
	bool set[OC_THEME_MAX_ROLES] = {false};

	if (theme_load_file(path, strict, src, NULL, roles, nroles, out, set, err, errlen) < 0) {
		theme_clear(out, nroles);
		return -1;
	}
	theme_finish(out, roles, set);
	return 0;
}

/* Returns 0 or -1 (theme.h). */
int oc_theme_load(const char *path, const char *const *roles, size_t nroles,
		  struct oc_theme_spec *out, char *err, size_t errlen)
{
	char dir[OC_DATAFILE_PATH_MAX];
	struct theme_src src = {NULL, dir};
	const char *slash;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		theme_err(err, errlen, "no theme to fill");
		return -1;
	}
	theme_clear(out, nroles);
	if (theme_check_roles(roles, nroles, err, errlen) < 0)
		return -1;
	if (!path || !*path) {
		theme_err(err, errlen, "no theme path");
		return -1;
	}
	if (strlen(path) >= sizeof(dir)) {
		theme_err(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return theme_load_top(path, false, &src, roles, nroles, out, err, errlen);
}

/* Returns 0 / 1 / -1 (theme.h). */
int oc_theme_find(const char *name, const struct oc_datafile_dirs *dirs,
		  const char *const *roles, size_t nroles, struct oc_theme_spec *out,
		  char *err, size_t errlen)
{
	char path[OC_DATAFILE_PATH_MAX];
	struct theme_src src = {dirs, NULL};
	bool strict = false;
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		theme_err(err, errlen, "no theme to fill");
		return -1;
	}
	theme_clear(out, nroles);
	if (theme_check_roles(roles, nroles, err, errlen) < 0)
		return -1;
	rc = oc_datafile_find(THEME_KIND, name, dirs, path, sizeof(path), &strict, err, errlen);
	if (rc != 0)
		return rc;
	return theme_load_top(path, strict, &src, roles, nroles, out, err, errlen);
}
