/* theme.h: colour themes (themes/NAME.json, docs/files.md): for each role
 * of the screen (header, selected, bad...) a foreground, a background and
 * attributes, in the console's own codes; the UI maps them to curses
 * (colour -1 = the terminal's default, use_default_colors; 8..15 = the
 * bright colours, which the UI shows as 0..7 plus A_BOLD when the terminal
 * has fewer than 16 colours).
 *
 * Roles are not known here: the caller passes the role names (roles[i]
 * is role i, e.g. its enum oc_role order) and the theme holds one style
 * per role, in that order. Role names in the UI's list that a theme file
 * does not set take the style of the role "normal" (or plain when there is
 * no "normal").
 *
 * How the UI is meant to use it (as keymap.h):
 *	rc = oc_theme_find(name, &dirs, roles, nroles, &th, err, sizeof(err));
 *	if (rc == 1) rc = oc_theme_builtin(name, roles, nroles, &th, err, sizeof(err)) == 0 ? 0 : -1;
 *	if (rc < 0) { show(err); oc_theme_builtin("default", roles, nroles, &th, NULL, 0); }
 * and "mono" when NO_COLOR is set or the terminal has no colours.
 *
 * The UI (src/ui/draw.c) has its own oc_theme_init and oc_theme_attr; this
 * file does not use those two names. */
#ifndef OC_CORE_THEME_H
#define OC_CORE_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/datafiles.h"

/* Colours: -1 is the terminal's default; 0..7 black, red, green, yellow,
 * blue, magenta, cyan, white; 8..15 the bright ones in the same order. */
#define OC_COLOR_DEFAULT (-1)
#define OC_COLOR_BLACK 0
#define OC_COLOR_RED 1
#define OC_COLOR_GREEN 2
#define OC_COLOR_YELLOW 3
#define OC_COLOR_BLUE 4
#define OC_COLOR_MAGENTA 5
#define OC_COLOR_CYAN 6
#define OC_COLOR_WHITE 7
#define OC_COLOR_BRIGHT(c) ((c) + 8)

/* Attributes, or'ed. */
#define OC_ATTR_BOLD 0x01u
#define OC_ATTR_UNDERLINE 0x02u
#define OC_ATTR_REVERSE 0x04u
#define OC_ATTR_DIM 0x08u
#define OC_ATTR_ITALIC 0x10u
#define OC_ATTR_STANDOUT 0x20u

#define OC_THEME_MAX_ROLES 64

struct oc_theme_style {
	short fg;         /* OC_COLOR_* (-1..15) */
	short bg;
	unsigned attrs;   /* OC_ATTR_* */
};

/* A theme is a plain value (no pointers): copy it, no free needed. */
struct oc_theme_spec {
	char name[OC_DATAFILE_NAME_MAX + 1];     /* "default", "mono" */
	char path[OC_DATAFILE_PATH_MAX];         /* the file, "" when built in */
	char extends[OC_DATAFILE_NAME_MAX + 1];  /* parent theme, "" for none */
	bool uses_color;                         /* some fg or bg is not -1 */
	size_t nroles;                           /* the caller's nroles */
	struct oc_theme_style role[OC_THEME_MAX_ROLES];
};

/* Loads the theme file at path; role names are checked against
 * roles[0..nroles-1] (at most OC_THEME_MAX_ROLES). "extends": NAME is
 * looked up as NAME.json in the directory of path, else among the
 * built-ins. No permission check. Returns 0, or -1 with "path[:line:col]:
 * message" in err (*out is then plain: every role -1/-1/0). */
int oc_theme_load(const char *path, const char *const *roles, size_t nroles,
		  struct oc_theme_spec *out, char *err, size_t errlen);

/* Loads themes/NAME.json from the first directory of dirs that has it
 * (permission check for the user's and the site's directories); "extends"
 * is looked up in dirs, then among the built-ins. Returns 0 when loaded,
 * 1 when no directory has the file (err says where it looked), -1 when
 * the file or its parent is broken or refused (err says why). */
int oc_theme_find(const char *name, const struct oc_datafile_dirs *dirs,
		  const char *const *roles, size_t nroles, struct oc_theme_spec *out,
		  char *err, size_t errlen);

/* The built-in theme name ("default", "light", "high-contrast", "mono"):
 * the shipped themes/NAME.json, compiled in at build time
 * (builtin_data.h). Returns 0; 1 when there is no built-in of that name;
 * -1 when a role of the file is not in roles (err names it). */
int oc_theme_builtin(const char *name, const char *const *roles, size_t nroles,
		     struct oc_theme_spec *out, char *err, size_t errlen);

/* The names of the built-in themes (the files of themes/), sorted,
 * NULL-terminated (static). */
const char *const *oc_theme_builtin_names(void);

/* The colour called name ("red", "bright-black", "default"). Returns
 * -1..15, or -2 when the name is unknown. */
int oc_theme_color_parse(const char *name);

/* The name of colour c (-1..15), static; "?" for others. */
const char *oc_theme_color_name(int c);

/* The OC_ATTR_* bit called name ("bold"...), or 0 when unknown. */
unsigned oc_theme_attr_parse(const char *name);

#endif
