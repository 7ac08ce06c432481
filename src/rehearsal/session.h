/* session.h: the progress of one rehearsal: per step of a checklist its
 * state (not run / running / passed / failed / skipped), start and end
 * times, evidence, the operator's notes, the jobs and reservations the
 * step created. Saved as JSON to a progress file after every change
 * (written to a temporary file, then renamed over the old one), so that a
 * rehearsal survives a closed session and resumes where it stopped. */
#ifndef OC_REHEARSAL_SESSION_H
#define OC_REHEARSAL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rehearsal/checklist.h"

enum oc_step_state {
	OC_STEP_NOT_RUN = 0,
	OC_STEP_RUNNING,
	OC_STEP_PASSED,
	OC_STEP_FAILED,
	OC_STEP_SKIPPED,
	OC_STEP_STATE_COUNT,
};

/* A job a step submitted (or recorded) under a label. */
struct oc_step_job {
	char label[OC_LABEL_MAX + 1];
	uint32_t id;
	bool recorded;           /* from record_jobs: not the step's own, never cancelled */
	bool seen_running;       /* the runner saw it RUNNING */
	long long first_start;   /* its start time when first seen running (epoch s) */
	char nodes[256];         /* where it ran when first seen running */
	bool cancelled;          /* the cleanup cancelled it */
};

/* The outcome of one submission. */
struct oc_step_submit {
	char label[OC_LABEL_MAX + 1];
	int result;              /* 0 accepted, 1 refused by Slurm, -1 could not be tried */
	uint32_t job_id;         /* when accepted */
	char text[512];          /* Slurm's words when refused, the error when -1 */
};

struct oc_step_rec {
	char id[OC_STEP_ID_MAX + 1];
	enum oc_step_state state;
	double started, ended;   /* epoch seconds; 0 = not yet */
	char by[16];             /* who gave the verdict: "auto", "operator", "" */
	char *evidence;          /* malloc'd text, NULL = none */
	char *notes;             /* malloc'd text (lines), NULL = none */
	struct oc_step_job *jobs;
	size_t njobs;
	struct oc_step_submit *submits;
	size_t nsubmits;
	char **resv;             /* reservations created, to delete at cleanup */
	size_t nresv;
	char **undrain;          /* hostlists drained with "undo", to resume at cleanup */
	size_t nundrain;
};

struct oc_session {
	char path[4096];         /* the progress file, "" = not saved */
	char cluster[64];
	char checklist_name[64];
	char checklist_path[4096];
	uint64_t checklist_digest;
	char operator_user[64];  /* the OS user who runs the rehearsal */
	char sudo_user[64];      /* $SUDO_USER, "" when none */
	double created, updated; /* epoch seconds */
	bool resumed;            /* read from an existing progress file */
	struct oc_step_rec *steps;  /* one per checklist step, in its order */
	size_t nsteps;
};

/* A new session for cl (every step not run), to be saved at path (""
 * or NULL: never saved). Sets the operator from the effective uid and
 * $SUDO_USER. Returns NULL on ENOMEM; free with oc_session_free. */
struct oc_session *oc_session_new(const struct oc_checklist *cl, const char *cluster, const char *path);

/* Open the progress at path for cl and cluster: read it when it exists
 * (and reset is false), else start a new session (not written until the
 * first save). Steps are matched by id; steps the file does not know are
 * not run; a step left "running" by a session that died becomes not run
 * again (its jobs stay listed, for oc_runner_recover to cancel). Refuses
 * (-1, err) a file for another cluster or checklist, or a broken one
 * ("path:line:col: ..."). Returns 0 and *out (free with oc_session_free). */
int oc_session_open(const struct oc_checklist *cl, const char *cluster, const char *path, bool reset,
		    struct oc_session **out, char *err, size_t errlen);

/* Write the session to its path atomically (temporary file in the same
 * directory, fsync, rename; directories made 0700, file 0600). Sets
 * s->updated. Returns 0 (also when s has no path), or -1 with err. */
int oc_session_save(struct oc_session *s, char *err, size_t errlen);

/* Write text to path atomically: PATH.tmp.PID in the same directory
 * (created with mode), fsync, rename over path; missing directories are
 * made 0700. Used for the progress file and the reports. Returns 0, or -1
 * with err. */
int oc_session_write_file(const char *path, const char *text, mode_t mode, char *err, size_t errlen);

/* The same for a JSON document's text (json_dumps leaves no final
 * newline): text and a newline. Returns 0, or -1 with err. */
int oc_session_write_json(const char *path, const char *text, mode_t mode, char *err, size_t errlen);

/* The session as the progress file's JSON text, malloc'd (caller frees);
 * NULL on ENOMEM. */
char *oc_session_to_json(const struct oc_session *s);

/* Free the session and clear *s. */
void oc_session_free(struct oc_session **s);

/* Index of the first step that is not run (or running), s->nsteps when
 * every step has a result. */
size_t oc_session_next(const struct oc_session *s);

/* How many steps are in state st. */
size_t oc_session_count(const struct oc_session *s, enum oc_step_state st);

/* Give step i a verdict or state: st (PASSED, FAILED, SKIPPED, NOT_RUN)
 * with an optional note appended to its notes and who decided ("operator",
 * "auto"); sets its end time (start too, when it never started). Saves.
 * Returns 0, or -1 with err (bad index, or the save failed: the state is
 * changed anyway). */
int oc_session_mark(struct oc_session *s, size_t i, enum oc_step_state st, const char *note,
		    const char *by, char *err, size_t errlen);

/* Append a line to step i's notes and save. Returns 0 or -1 with err. */
int oc_session_note(struct oc_session *s, size_t i, const char *note, char *err, size_t errlen);

/* Replace a step's evidence with text (copied; NULL clears). Returns 0,
 * -1 on ENOMEM. */
int oc_step_rec_set_evidence(struct oc_step_rec *r, const char *text);

/* Append a line to a step's notes (copied). Returns 0, -1 on ENOMEM. */
int oc_step_rec_add_note(struct oc_step_rec *r, const char *note);

/* Forget what a previous run of the step did (state, times, evidence,
 * jobs, submissions, reservations) but keep the notes. */
void oc_step_rec_clear_run(struct oc_step_rec *r);

/* Record a job under label. Returns the entry (owned by r), NULL on ENOMEM. */
struct oc_step_job *oc_step_rec_add_job(struct oc_step_rec *r, const char *label, uint32_t id);

/* Record a submission's outcome. Returns the entry, NULL on ENOMEM. */
struct oc_step_submit *oc_step_rec_add_submit(struct oc_step_rec *r, const char *label, int result,
					      uint32_t job_id, const char *text);

/* Add a copy of s to a string list (resv, undrain). Returns 0 or -1. */
int oc_step_rec_push(char ***list, size_t *n, const char *s);

/* The first job recorded under label, or NULL. */
const struct oc_step_job *oc_step_rec_job(const struct oc_step_rec *r, const char *label);

/* "not run", "running", "passed", "failed", "skipped" (static). */
const char *oc_step_state_name(enum oc_step_state st);
/* "PASS", "FAIL", "SKIP", "RUN", "----" (static), for one-line output. */
const char *oc_step_state_tag(enum oc_step_state st);

/* The wall clock as epoch seconds with a fraction. */
double oc_session_now(void);

#endif
