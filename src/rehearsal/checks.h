/* checks.h: evaluating a checklist's checks against a snapshot of the
 * cluster (and what the runner read back: the configuration, sacct) and
 * the record of the step (the jobs it submitted, the submissions Slurm
 * refused). Pure functions: no I/O except the "file" check's stat/read. */
#ifndef OC_REHEARSAL_CHECKS_H
#define OC_REHEARSAL_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/model.h"
#include "rehearsal/checklist.h"
#include "rehearsal/session.h"

enum oc_verdict {
	OC_VERDICT_WAIT = 0,   /* not (yet) as expected: poll again until the timeout */
	OC_VERDICT_PASS,
	OC_VERDICT_FAIL,       /* definitely not: no use waiting */
};

/* What a check is evaluated against. Every pointer may be NULL. */
struct oc_check_input {
	const struct oc_snapshot *snap;
	const struct oc_config *config;   /* the controller's configuration */
	const char *config_error;         /* why config is NULL */
	const struct oc_step_rec *rec;    /* the step's jobs and submissions */
	const char *sacct;                /* writer sacct_users text: "user account jobs" lines */
	const char *sacct_error;          /* why sacct is NULL */
	double sacct_since_hours;         /* what the text covers, for the evidence */
	/* File checks read the head node's file through this when set (a
	 * remote head node: the writer's read_file); NULL = open it here. */
	long (*read_file)(void *ctx, const char *path, char *buf, size_t len, bool *missing, char *err,
			  size_t errlen);
	void *read_file_ctx;
};

/* Evaluate c. Writes one line (or a few, "; " separated) of evidence into
 * evidence (len bytes, always terminated): what was seen, enough for the
 * report ("gpu: Hidden=NO, expected YES"). Returns the verdict. */
enum oc_verdict oc_checks_eval(const struct oc_check *c, const struct oc_check_input *in, char *evidence,
			       size_t len);

/* What a check needs read besides the snapshot (bits, recursive). */
#define OC_CHECK_NEEDS_CONFIG 0x1u
#define OC_CHECK_NEEDS_SACCT 0x2u
unsigned oc_checks_needs(const struct oc_check *c);
/* The longest since_hours of the sacct checks in c (0 when none). */
double oc_checks_sacct_hours(const struct oc_check *c);

/* Note in rec what the snapshot shows of its jobs: the first time one is
 * seen running (start time, nodes). Returns true when rec changed. */
bool oc_checks_observe(struct oc_step_rec *rec, const struct oc_snapshot *snap);

/* text with ${job:LABEL} replaced by the id of the first job under LABEL
 * and ${nodes:LABEL} by the nodes it ran on, into out (len bytes).
 * Returns 0, or -1 when a label has no job (yet) or out is too small
 * (out then holds the text as far as it went). */
int oc_checks_expand(const char *text, const struct oc_step_rec *rec, char *out, size_t len);

/* A number as Slurm prints it: "300", "300 sec", "10 min", "2 hours",
 * "00:10:00" and "1-00:00:00" (as seconds), "UNLIMITED"/"INFINITE" (as
 * HUGE_VAL). Returns 0 and *out, -1 when s is not one. */
int oc_checks_parse_number(const char *s, double *out);

/* Idle nodes of a partition of snap: IDLE, not drained, answering, not
 * powered down, reserved, failing or rebooting. Returns the count, or -1
 * when the partition is unknown or its node indexes are stale. */
long oc_checks_idle_nodes(const struct oc_snapshot *snap, const char *partition);

/* How many names a hostlist expression names ("gpu-st-b300-[1-16]" is
 * 16, "a,b[1-3,5]" is 5). Returns the count, or -1 when it cannot tell
 * (malformed). */
long oc_checks_hostlist_count(const char *expr);

#endif
