/* theme.c: theme files (themes/NAME.json) and the built-in themes (the
 * shipped files compiled in, builtin_data.h). jsonfile.c reads and checks
 * a file; here its "roles" are parsed (one parsing unit with jsonfile.c:
 * no jansson object leaves the two). */
#include "core/theme.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/jsonfile.h"

#define THEME_KIND "themes"

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

/* The start of oc_theme_builtin, _load and _find: clears err and out
 * (plain for nroles roles), checks the caller's role list. Returns 0, or
 * -1 with err set. */
static int theme_begin(const char *const *roles, size_t nroles, struct oc_theme_spec *out,
		       char *err, size_t errlen)
{
	if (oc_datafile_begin(out, "theme", err, errlen) < 0)
		return -1;
	theme_clear(out, nroles);
	if (nroles > OC_THEME_MAX_ROLES) {
		oc_seterr(err, errlen, "too many roles (%zu, at most %d)", nroles,
				OC_THEME_MAX_ROLES);
		return -1;
	}
	if (nroles && !roles) {
		oc_seterr(err, errlen, "no role names");
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

/* What a theme is applied to: out and which of its roles are set (set[],
 * for theme_finish). */
struct theme_ctx {
	const char *const *roles;
	size_t nroles;
	struct oc_theme_spec *out;
	bool set[OC_THEME_MAX_ROLES];
};

/* The end of oc_theme_builtin, _load and _find: returns rc, with out
 * finished when rc is 0 and made plain when it is -1. */
static int theme_end(int rc, struct theme_ctx *c)
{
	if (rc < 0)
		theme_clear(c->out, c->nroles);
	else if (rc == 0)
		theme_finish(c->out, c->roles, c->set);
	return rc;
}

/* The top-level keys of a theme file, in theme_keys. */
enum { THEME_KEY_NAME, THEME_KEY_DESCRIPTION, THEME_KEY_EXTENDS, THEME_KEY_ROLES };

/* Parses the style object v of role into *st. Returns 0, or -1 with err
 * set. */
static int theme_style(const char *path, const char *role, json_t *v, struct oc_theme_style *st,
		       char *err, size_t errlen)
{
	const char *key;
	json_t *x;

	if (!json_is_object(v)) {
		oc_seterr(err, errlen,
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
				oc_seterr(err, errlen, "%s: roles: \"%.40s\": \"%s\" must be a colour name (a string)",
						path, role, key);
				return -1;
			}
			if (c < -1) {
				oc_seterr(err, errlen,
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
				oc_seterr(err, errlen,
						"%s: roles: \"%.40s\": \"attrs\" must be an array of names ([\"bold\", ...])",
						path, role);
				return -1;
			}
			json_array_foreach(x, i, a) {
				unsigned bit = json_is_string(a) ? oc_theme_attr_parse(json_string_value(a)) : 0;
				if (!json_is_string(a)) {
					oc_seterr(err, errlen, "%s: roles: \"%.40s\": attrs[%zu] must be a string",
							path, role, i);
					return -1;
				}
				if (!bit) {
					oc_seterr(err, errlen,
							"%s: roles: \"%.40s\": unknown attribute \"%.40s\" (bold, underline, reverse, dim, italic, standout)",
							path, role, json_string_value(a));
					return -1;
				}
				st->attrs |= bit;
			}
		} else {
			oc_seterr(err, errlen,
					"%s: roles: \"%.40s\": unknown key \"%.40s\" (a role has fg, bg, attrs)",
					path, role, key);
			return -1;
		}
	}
	return 0;
}

/* The apply callback of theme files and built-ins (jsonfile.h): the
 * roles on top of the parent's, unfinished. */
static int theme_apply_file(void *vctx, const struct oc_jsonfile_doc *doc, char *err,
			    size_t errlen)
{
	struct theme_ctx *c = vctx;
	const char *key;
	json_t *v;

	json_object_foreach(doc->val[THEME_KEY_ROLES].json, key, v) {
		int r = theme_role(key, c->roles, c->nroles);
		if (r < 0 && doc->builtin) {
			/* The shipped file and the UI's roles drifted apart. */
			oc_seterr(err, errlen, "%s: role \"%s\" is not in the role list", doc->path,
					key);
			return -1;
		}
		if (r < 0) {
			oc_seterr(err, errlen, "%s: roles: unknown role \"%.60s\"", doc->path, key);
			return -1;
		}
		if (theme_style(doc->path, key, v, &c->out->role[r], err, errlen) < 0)
			return -1;
		c->set[r] = true;
	}
	snprintf(c->out->name, sizeof(c->out->name), "%s", doc->stem);
	snprintf(c->out->path, sizeof(c->out->path), "%s", doc->builtin ? "" : doc->path);
	snprintf(c->out->extends, sizeof(c->out->extends), "%s", doc->extends);
	return 0;
}

static int theme_apply_builtin(void *vctx, const char *name, char *err, size_t errlen);

/* The top-level keys, in the order "unknown key" lists them. */
static const struct oc_jsonfile_key theme_keys[] = {
	[THEME_KEY_NAME] = {"theme", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[THEME_KEY_DESCRIPTION] = {"description", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[THEME_KEY_EXTENDS] = {"extends", OC_JSONFILE_STRING, OC_JSONFILE_OPTIONAL, NULL},
	[THEME_KEY_ROLES] = {"roles", OC_JSONFILE_OBJECT, OC_JSONFILE_REQUIRED,
			     "an object {\"ROLE\": {...}, ...}"},
};

static const struct oc_jsonfile_kind theme_kind = {
	.dir = THEME_KIND,
	.what = "theme",
	.name_key = "theme",
	.keys = theme_keys,
	.nkeys = sizeof(theme_keys) / sizeof(theme_keys[0]),
	.apply = theme_apply_file,
	.builtin = theme_apply_builtin,
};

/* Applies the built-in theme name to the theme_ctx vctx, unfinished (the
 * builtin callback of jsonfile.h too). Returns 0; 1 when there is no such
 * built-in; -1 with err set. */
static int theme_apply_builtin(void *vctx, const char *name, char *err, size_t errlen)
{
	return oc_jsonfile_builtin(&theme_kind, name, vctx, err, errlen);
}

/* Returns 0 / 1 / -1 (theme.h). */
int oc_theme_builtin(const char *name, const char *const *roles, size_t nroles,
		     struct oc_theme_spec *out, char *err, size_t errlen)
{
	struct theme_ctx c = {roles, nroles, out, {false}};
	int rc;

	if (theme_begin(roles, nroles, out, err, errlen) < 0)
		return -1;
	rc = theme_end(theme_apply_builtin(&c, name, err, errlen), &c);
	if (rc == 1)
		oc_seterr(err, errlen, "no built-in theme \"%.80s\"", name ? name : "");
	return rc;
}

/* The built-in names (theme.h). */
const char *const *oc_theme_builtin_names(void)
{
	return oc_jsonfile_builtin_names(&theme_kind);
}

/* Returns 0 or -1 (theme.h). */
int oc_theme_load(const char *path, const char *const *roles, size_t nroles,
		  struct oc_theme_spec *out, char *err, size_t errlen)
{
	struct theme_ctx c = {roles, nroles, out, {false}};

	if (theme_begin(roles, nroles, out, err, errlen) < 0)
		return -1;
	return theme_end(oc_jsonfile_load(&theme_kind, path, &c, err, errlen), &c);
}

/* Returns 0 / 1 / -1 (theme.h). */
int oc_theme_find(const char *name, const struct oc_datafile_dirs *dirs,
		  const char *const *roles, size_t nroles, struct oc_theme_spec *out,
		  char *err, size_t errlen)
{
	struct theme_ctx c = {roles, nroles, out, {false}};

	if (theme_begin(roles, nroles, out, err, errlen) < 0)
		return -1;
	return theme_end(oc_jsonfile_find(&theme_kind, name, dirs, &c, err, errlen), &c);
}
