/* runner.h: running one step of a rehearsal: its precondition, its
 * actions through the writer (submit a probe job as a test user, signal,
 * cancel, drain, resume, reservation, record the running jobs), the
 * operator's part, then its check, polled against fresh snapshots until it
 * passes or times out; then the cleanup (the step's probe jobs are
 * cancelled, its reservations deleted, drains marked "undo" resumed).
 * Every change is written to the session's progress file at once, and
 * every change to the cluster to the audit log.
 *
 * The runner does no I/O of its own to get snapshots: the caller passes a
 * fresh one to every poll (the CLI refreshes with the collector's
 * oc_collector_refresh_once; the console takes the collector's newest).
 * A poll may block on the writer (sbatch, scancel, slurmctld): call it
 * from a worker thread in the console, never from the UI thread. Nothing
 * here takes a lock: a run changes its session (s->steps[i]) and saves it,
 * so the caller serializes every use of the session and of the run (one
 * mutex around poll, mark, note and the view's reads, for instance). Two
 * processes must not share one progress file. */
#ifndef OC_REHEARSAL_RUNNER_H
#define OC_REHEARSAL_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "actions/writer.h"
#include "core/model.h"
#include "rehearsal/checklist.h"
#include "rehearsal/session.h"

struct oc_runner_cfg {
	const struct oc_writer *writer;  /* how actions reach the cluster; NULL: actions fail */
	const char *cluster;             /* for the audit lines */
	const char *audit_log;           /* NULL or "": no audit lines */
	int platform;                    /* enum oc_platform: steps "not_on" it are skipped */
};

/* Why step st cannot be done on platform (its "not_on"), or NULL. */
const char *oc_runner_not_here(const struct oc_step *st, int platform);

enum oc_run_status {
	OC_RUN_BUSY = 0,     /* poll again in about a second with a fresh snapshot */
	OC_RUN_OPERATOR,     /* waiting for the operator to do what the step says,
			      * then oc_runner_operator_done */
	OC_RUN_VERDICT,      /* done, but the step has no check: the operator gives the
			      * verdict with oc_session_mark (PASSED or FAILED) */
	OC_RUN_DONE,         /* the step passed or failed; the session has the result */
};

struct oc_run;

/* Start step i of s (from checklist cl, the one s was opened with): its
 * previous result is forgotten (notes are kept), it becomes "running" and
 * the session is saved. confirmed: the operator confirmed the actions
 * that ask for it (step->needs_confirm); without it such a step is
 * refused. Nothing is done to the cluster before the first poll. Returns
 * the run (free with oc_runner_free), or NULL with err. */
struct oc_run *oc_runner_start(struct oc_session *s, const struct oc_checklist *cl, size_t i,
			       const struct oc_runner_cfg *cfg, bool confirmed, char *err, size_t errlen);

/* One round: do the next action, or evaluate what is awaited, against
 * snap (the newest snapshot; may be NULL when none could be read).
 * Returns where the run stands. */
enum oc_run_status oc_runner_poll(struct oc_run *r, const struct oc_snapshot *snap);

/* The operator did what the step asks ("do"): go on with the actions
 * marked after_operator and the check. */
void oc_runner_operator_done(struct oc_run *r);

/* One line saying what the run does or waits for now, with the seconds
 * left ("check: job 812 (over): RUNNING [expected PENDING...] (21 s
 * left)"). Owned by the run, valid until the next call on it. */
const char *oc_runner_status_text(const struct oc_run *r);

/* The step index the run is for. */
size_t oc_runner_step(const struct oc_run *r);

/* Stop the run now: clean up (cancel its jobs...), put the step back to
 * "not run" with the note "interrupted: why", save. The run is then DONE
 * (poll returns OC_RUN_DONE); free it as usual. */
void oc_runner_abort(struct oc_run *r, const char *why);

/* Free the run and clear *r. A run that is not finished is aborted first
 * ("interrupted: closed"). */
void oc_runner_free(struct oc_run **r);

/* Clean up what steps left behind: jobs not cancelled (a session killed
 * in the middle of a step, steps with "cleanup": false), reservations not
 * deleted, drains to undo. Steps in progress in this process should not
 * be passed in (there are none between runs). Writes one line per thing
 * done into msg (may be NULL). Saves. Returns how many things it undid,
 * or -1 when some could not be (msg says what). */
int oc_runner_cleanup_all(struct oc_session *s, const struct oc_runner_cfg *cfg, char *msg, size_t len);

#endif
