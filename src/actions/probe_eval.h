/* probe_eval.h: what a node probe's output means. Pure (no SSH, no
 * threads, no curses): a check's output against its expected value and
 * bounds, and the drain reason made from the failures. */
#ifndef OC_ACTIONS_PROBE_EVAL_H
#define OC_ACTIONS_PROBE_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/profile.h"

enum oc_probe_verdict {
	OC_PROBE_PENDING = 0, /* not run (yet) */
	OC_PROBE_OK,          /* the output is what the check wants */
	OC_PROBE_FAILED,      /* the node answered, and the answer is wrong */
	OC_PROBE_ERROR,       /* the check could not tell: exit status, signal, timeout */
};

/* Exit statuses besides 0-255 (the same values as the exec layer's). */
#define OC_PROBE_EXIT_SIGNALED (-1)
#define OC_PROBE_EXIT_TIMED_OUT (-2)

/* The result of one check on one node. */
struct oc_probe_check_result {
	enum oc_probe_verdict verdict;
	char value[128];  /* the output, trimmed; control characters (line
			   * breaks) shown as one space; cut to fit */
	char text[256];   /* "7, want 8", "95 above max 90", "exit 1: ..." */
};

/* Evaluate one check. output: what the command printed on stdout (NULL =
 * nothing); errout: its stderr (for the error text, may be NULL);
 * exit_status: 0-255 or OC_PROBE_EXIT_*. The output is trimmed of
 * leading and trailing white space, then compared exactly with expect
 * (when the check has one; an empty expect wants no output) and read as
 * a number against min/max (when set: output that is not a whole number
 * is a failure saying so). A non-zero exit, a signal or a timeout is
 * ERROR, never OK. Fills *r; returns r->verdict. */
enum oc_probe_verdict oc_probe_eval_check(const struct oc_probe_check *c, const char *output, const char *errout,
					  int exit_status, struct oc_probe_check_result *r);

/* The drain reason made from a node's results (n checks, in the order of
 * checks): "probe: " then, for each failed check, its name and value
 * ("gpu count 7", "xid 79,48"; an empty value shows as "(no output)"),
 * joined by "; ". When no check failed but some could not run, those are
 * named with "error" ("probe: ecc error"). node_error (may be NULL or ""):
 * the node's own failure ("no answer after 10 s"), used when no check
 * has a result. The reason is cut at a whole failure to fit
 * OC_PLAN_REASON_MAX bytes (and len), ending "; +N more" when some were
 * left out. Writes "" when nothing failed. Returns the number of
 * failures named. */
size_t oc_probe_eval_reason(const struct oc_probe_check *checks, const struct oc_probe_check_result *res, size_t n,
			    const char *node_error, char *out, size_t len);

/* One line naming the verdict: "OK", "FAIL", "ERR", "..." (pending). */
const char *oc_probe_eval_verdict_name(enum oc_probe_verdict v);

#endif
