/* once_cli.h: script mode, `opsconsole --cluster NAME --once VIEW [--json]`. */
#ifndef OC_ONCE_CLI_H
#define OC_ONCE_CLI_H

#include <stdbool.h>

struct oc_setup; /* session_setup.h */

/* What the command line asked for. */
struct oc_once_args {
	const char *view;       /* --once VIEW */
	const char *partition;  /* --partition P (queue only), NULL = all */
	bool show_hidden;       /* --show-hidden or the profile's show_hidden */
	bool json;              /* --json */
	const char *since;      /* --since (history), NULL = now-24hours */
	const char *until;      /* --until (history), NULL = now */
};

/* Whether a's options fit together (a known view, --partition only with
 * queue, --since and --until only with history and then as times). Returns 0, or 2 after printing why on stderr. */
int oc_once_check_args(const struct oc_once_args *a);

/* Print one view of the cluster of setup's profile on stdout, from one
 * refresh without threads or terminal (the backend is opened and closed
 * here), and return the exit code: 0 fine (health, quota: no finding), 1
 * findings (health, quota), 2 error (a part the view needs did not come
 * back, named on stderr; bad partition; the cluster not reached). */
int oc_once_run(struct oc_setup *setup, const struct oc_once_args *a);

#endif
