/* viewcfg.h: view layouts (views/NAME.json, docs/files.md): which columns
 * a list view shows, in which order and width, which of them give way on
 * a narrow terminal, and the sort the view starts with.
 *
 * Column ids are not known here: the caller (the view) passes the ids it
 * can draw (cols[0..ncols-1], e.g. "jobid", "user") and the layout holds
 * indexes into that list.
 *
 * How the UI is meant to use it (as keymap.h):
 *	rc = oc_viewcfg_find("queue", &dirs, cols, ncols, &vc, err, sizeof(err));
 *	if (rc == 1) rc = oc_viewcfg_builtin("queue", cols, ncols, &vc, err, sizeof(err)) == 0 ? 0 : -1;
 *	if (rc < 0) { show(err); oc_viewcfg_builtin("queue", cols, ncols, &vc, NULL, 0); }
 */
#ifndef OC_CORE_VIEWCFG_H
#define OC_CORE_VIEWCFG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/datafiles.h"

#define OC_VIEWCFG_MAX_COLS 32
#define OC_VIEWCFG_MAX_WIDTH 200

struct oc_viewcfg_col {
	int col;         /* index into the caller's column ids */
	int width;       /* 1..OC_VIEWCFG_MAX_WIDTH, or 0: takes the rest of the line */
	bool optional;   /* dropped first when the terminal is too narrow */
};

/* A layout is a plain value (no pointers): copy it, no free needed. */
struct oc_viewcfg {
	char name[OC_DATAFILE_NAME_MAX + 1];     /* the view: "queue" */
	char path[OC_DATAFILE_PATH_MAX];         /* the file, "" when built in */
	size_t ncols;                            /* at least 1 */
	struct oc_viewcfg_col cols[OC_VIEWCFG_MAX_COLS];  /* in screen order */
	int sort;        /* column index to sort by, -1: the view's own order ("default") */
	bool reverse;    /* sort descending */
};

/* Loads the layout file at path for the view called view (the file must
 * be view.json and its "view" must say so); column ids are checked
 * against cols[0..ncols-1]. No permission check. Returns 0, or -1 with
 * "path[:line:col]: message" in err (*out is then empty: ncols 0). */
int oc_viewcfg_load(const char *path, const char *view, const char *const *cols, size_t ncols,
		    struct oc_viewcfg *out, char *err, size_t errlen);

/* Loads views/VIEW.json from the first directory of dirs that has it
 * (permission check for the user's and the site's directories). Returns 0
 * when loaded, 1 when no directory has it (err says where it looked), -1
 * when it is broken or refused (err says why). */
int oc_viewcfg_find(const char *view, const struct oc_datafile_dirs *dirs,
		    const char *const *cols, size_t ncols, struct oc_viewcfg *out,
		    char *err, size_t errlen);

/* The built-in layout of view ("partitions", "queue", "nodes", "health",
 * "quota", "reservations"): the shipped views/VIEW.json, compiled in at
 * build time (builtin_data.h). Returns 0; 1 when there is no built-in for
 * view; -1 when a column of the file is not in cols (err names it). */
int oc_viewcfg_builtin(const char *view, const char *const *cols, size_t ncols,
		       struct oc_viewcfg *out, char *err, size_t errlen);

/* The names of the views with a built-in layout (the files of views/),
 * sorted, NULL-terminated (static). */
const char *const *oc_viewcfg_builtin_names(void);

#endif
