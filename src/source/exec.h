/* exec.h: run a local command with an argv, no shell in between, and
 * capture what it prints.
 *
 * - argv[0] with a '/' is run as given; otherwise it is looked up in
 *   $PATH (in the parent, before fork; empty and relative PATH entries
 *   are skipped; no PATH: the system default path).
 * - stdin is /dev/null; stdout and stderr go together, in the order they
 *   were written, into one buffer.
 * - The child runs in its own process group with default signal
 *   dispositions and an empty signal mask, and with no fd of the caller
 *   but 0, 1, 2 (all others are closed between fork and exec). Only
 *   async-signal-safe calls run between fork and exec, so it is safe from
 *   a threaded program.
 * - A timeout sends SIGTERM to the child's process group, then SIGKILL
 *   after OC_EXEC_KILL_GRACE_S seconds. The child is always reaped: no
 *   zombie is left, on any path. */
#ifndef OC_SOURCE_EXEC_H
#define OC_SOURCE_EXEC_H

#include <stddef.h>

#include "source/transport.h"

/* *exit_status when the command did not exit on its own. */
#define OC_EXEC_SIGNALED (-1)  /* killed by a signal (err names it) */
#define OC_EXEC_TIMED_OUT (-2) /* killed by oc_exec after timeout_s (err says so) */

/* Seconds between SIGTERM and SIGKILL after a timeout. */
#define OC_EXEC_KILL_GRACE_S 2

/* Run argv (NULL-terminated; argv[0] the program) and wait for it, at
 * most timeout_s seconds (<= 0: no limit). Its output (stdout and stderr
 * together) goes to out: cut to outlen - 1 bytes when longer (the rest
 * is read and dropped, so the command never blocks on a full pipe), and
 * always NUL-terminated (out may be NULL when outlen is 0: output
 * dropped). A NUL byte in the output is kept as is, so strlen(out) may
 * be shorter than what was captured.
 * Returns 0 when the command ran: *exit_status is its exit code (0-255),
 * or OC_EXEC_SIGNALED / OC_EXEC_TIMED_OUT with the reason in err ("killed
 * by signal 11 (Segmentation fault)", "timed out after 5 s: killed");
 * err is "" after a normal exit. Returns -1 when it could not run, with
 * err ("sacctmgr: not found in PATH (/usr/bin:/bin)", "cannot run
 * /opt/x/sacctmgr: Permission denied", "fork: ..."); *exit_status is then
 * -1. Nothing to free. */
int oc_exec(const char *const argv[], int timeout_s, char *out, size_t outlen, int *exit_status, char *err,
	    size_t errlen);

/* Run argv like oc_exec, with stdout and stderr kept apart, each captured
 * whole into a malloc'd buffer of any size (r->out, r->errout, always
 * NUL-terminated; r is zeroed first). Returns 0 when the command ran
 * (r->exit_status as oc_exec's *exit_status, err says why a command did
 * not exit by itself), -1 when it could not run or its output did not fit
 * in memory (err). The caller frees r with oc_run_result_clear, after -1
 * too. */
int oc_exec_run(const char *const argv[], int timeout_s, struct oc_run_result *r, char *err, size_t errlen);

/* The program to execve for name: name itself when it holds a '/', else
 * the first executable <dir>/<name> of $PATH (absolute entries only; no
 * PATH: the system default path) into path. Returns 0, or -1 with err. */
int oc_exec_find(const char *name, char *path, size_t len, char *err, size_t errlen);

#endif
