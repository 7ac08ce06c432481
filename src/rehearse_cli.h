/* rehearse_cli.h: the `opsconsole rehearse` subcommand: a failure
 * rehearsal from a checklist (docs/rehearsal.md), unattended with --auto
 * (for CI), or step by step on a terminal. */
#ifndef OC_REHEARSE_CLI_H
#define OC_REHEARSE_CLI_H

#include <stdbool.h>

#include "core/profile.h"

/* Run `opsconsole rehearse ...` (argv[0] is "rehearse"): the cluster's
 * profile, backend and writer come from session_setup.c, as for the
 * console; datadir: the installed data directory (share/opsconsole, or
 * the source tree), "" when unknown. Returns the process exit code: 0
 * every step run passed, 1 some failed (or the cluster could not be
 * reached), 2 usage or a bad checklist or progress file, 128+N when
 * stopped by signal N (the progress is saved and the step in progress
 * cleaned up first). */
int oc_rehearse_cli(int argc, char **argv, const char *datadir);

/* Run `opsconsole window --cluster NAME --nodes HOSTLIST ...` (argv[0] is
 * "window"): a change window on the nodes, the checklist change-window
 * run by the rehearsal engine (reservation, drain, wait for the jobs,
 * reboot with nextstate=RESUME, read back, end the reservation).
 * Returns the exit code as oc_rehearse_cli does. */
int oc_window_cli(int argc, char **argv, const char *datadir);

/* The checklist and the progress file the console's rehearsal view uses
 * for profile p (the same rules as the subcommand without --checklist and
 * --progress). *fallback (may be NULL): the default checklist was taken
 * because the cluster has none of its own. Returns 0, or -1 when no
 * checklist was found (checklist is then ""). */
int oc_rehearse_default_paths(const struct oc_profile *p, const char *datadir, char *checklist, size_t clen,
			      char *progress, size_t plen, bool *fallback);

/* The change window's checklist (checklists/change-window.json, found as
 * `opsconsole window` finds it). Returns 0, or -1 (path is then ""). */
int oc_window_checklist_path(const struct oc_profile *p, const char *datadir, char *path, size_t len);

/* The name of the default checklist (checklists/NAME.json). */
#define OC_REHEARSE_DEFAULT_CHECKLIST "llm-poc"

#endif
