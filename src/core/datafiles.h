/* datafiles.h: where keymap, theme and view files are looked up, and how
 * one is read safely (size limit, ssh-like permission check).
 *
 * A file of kind K ("keymaps", "themes", "views") and name N is DIR/K/N.json
 * for the first DIR of the list that has it:
 *   1. the user's directory: $XDG_CONFIG_HOME/opsconsole (or
 *      $HOME/.config/opsconsole when XDG_CONFIG_HOME is unset or relative);
 *   2. the site's directory: $OPSCONSOLE_SYSCONFDIR (default /etc/opsconsole);
 *   3. the installed data directory the program passes (share/opsconsole).
 * A file found in 1 or 2 is refused when group or others may write it or
 * when it belongs to someone else than the user or root, as ssh does; so is
 * such a file when a directory on its way, up to 1 or 2, may be written by
 * group or others or belongs to someone else (ssh's StrictModes). This
 * holds for every file oc_datafile_read reads from 1 or 2 (profiles,
 * checklists and onboarding files too), whatever way it was named. The
 * first match wins: a user file replaces the installed one of the same
 * name entirely. No JSON here: jsonfile.c parses what oc_datafile_read
 * returns for the loaders (keymap.c, theme.c, viewcfg.c). */
#ifndef OC_CORE_DATAFILES_H
#define OC_CORE_DATAFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h" /* oc_seterr: the loaders' "path: message" errors */

#define OC_DATAFILE_MAX_DIRS 4
#define OC_DATAFILE_PATH_MAX 4096
#define OC_DATAFILE_MAX_SIZE (1024 * 1024)  /* larger files are refused */
#define OC_DATAFILE_NAME_MAX 63             /* N of N.json, in characters */

/* The directories to search, in order (a plain value: copy it freely). */
struct oc_datafile_dirs {
	size_t n;
	char dir[OC_DATAFILE_MAX_DIRS][OC_DATAFILE_PATH_MAX];
	bool strict[OC_DATAFILE_MAX_DIRS];   /* permission check for its files */
};

/* Fills d with the user's directory and the site's (both strict), then
 * datadir (not strict) when it is neither NULL nor "". A directory whose
 * path would not fit is left out. Always succeeds. */
void oc_datafile_dirs(struct oc_datafile_dirs *d, const char *datadir);

/* Appends dir to d (tests, or an extra directory). Returns 0, or -1 when d
 * is full, dir is empty or too long. */
int oc_datafile_dirs_add(struct oc_datafile_dirs *d, const char *dir, bool strict);

/* Returns true when name can be N of N.json: 1 to OC_DATAFILE_NAME_MAX
 * characters among A-Z a-z 0-9 . _ -, not starting with '.'. */
bool oc_datafile_name_ok(const char *name);

/* Looks for DIR/kind/name.json in d's directories, in order. Returns 0
 * and writes the path into path (size len) and whether its directory is
 * strict into *strict (may be NULL); 1 when no directory has it (err:
 * "no themes/foo.json in A/themes, B/themes"); -1 when name is refused or
 * a path cannot be examined for another reason than not existing (err says
 * why). */
int oc_datafile_find(const char *kind, const char *name, const struct oc_datafile_dirs *d,
		     char *path, size_t len, bool *strict, char *err, size_t errlen);

/* Whether something is at path (stat). Returns 0 when there is (of any
 * type); 1 when path or a directory on its way does not exist (ENOENT,
 * ENOTDIR); -1 with "path: why" in err when stat fails otherwise. */
int oc_datafile_probe(const char *path, char *err, size_t errlen);

/* Whether code or data at path may be trusted: path (a file or a
 * directory) and every directory above it, after symbolic links
 * (realpath), up to "/", are owned by root or the user and not writable by
 * group or others. A directory that others may write is accepted only when
 * it is root's and sticky (/tmp: nobody else can rename or remove what is
 * in it). what names it in the message ("SSH module", "data folder").
 * Returns 0, or -1 with "WHAT PATH: refused: why" in err. */
int oc_path_trusted(const char *path, const char *what, char *err, size_t errlen);

/* Reads the whole file at path into a malloc'd, NUL-terminated buffer
 * *text (its length in *textlen, may be NULL) that the caller frees.
 * Refuses (returns -1 with "path: why" in err) what is not a regular file,
 * a file larger than OC_DATAFILE_MAX_SIZE, and when strict or when the
 * file lies in the user's or the site's directory (by its path or by where
 * its symbolic links lead) a file that group or others may write or that
 * is owned by another user than the caller or root, or one with such a
 * directory on its real way (up to that directory; up to "/" when the
 * links lead out of it). Returns 0 on success. */
int oc_datafile_read(const char *path, bool strict, char **text, size_t *textlen,
		     char *err, size_t errlen);

/* The N of the N.json files of kind in all of d's directories plus the
 * names in extra (the built-ins; may be NULL), sorted, without duplicates,
 * joined by ", ", as one malloc'd string the caller frees ("" when none).
 * NULL on ENOMEM. */
char *oc_datafile_list(const char *kind, const struct oc_datafile_dirs *d,
		       const char *const *extra, size_t nextra);

/* Names being collected for a list ("a, b, c"): start with one zeroed
 * ({0}), add with oc_datafile_names_add, end with oc_datafile_names_join,
 * which frees what the list holds. */
struct oc_datafile_names {
	char **v;
	size_t n, cap;
	bool oom;   /* an add failed: join returns NULL */
};

/* Adds a copy of the first len bytes of name to l. Returns 0, or -1 on
 * ENOMEM (l remembers it). */
int oc_datafile_names_add(struct oc_datafile_names *l, const char *name, size_t len);

/* The names of l sorted, without duplicates, joined by ", ", as one
 * malloc'd string the caller frees ("" when none); NULL on ENOMEM, now or
 * in an earlier add. Frees what l holds and leaves it empty, in every
 * case. */
char *oc_datafile_names_join(struct oc_datafile_names *l);

/* The start of a loader's public function (keymap.c, theme.c, viewcfg.c,
 * profile.c): clears err (when err and errlen allow). Returns 0, or -1
 * with "no WHAT to fill" in err when out is NULL. */
int oc_datafile_begin(const void *out, const char *what, char *err, size_t errlen);


/* The stem of path: its base name without ".json", into out (size len).
 * Returns 0, or -1 when the base name is not N.json with an N that
 * oc_datafile_name_ok accepts. */
int oc_datafile_stem(const char *path, char *out, size_t len);

#endif
