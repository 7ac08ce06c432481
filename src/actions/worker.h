/* worker.h: the thread that applies actions, so that the screen never
 * waits on slurmctld. One action at a time: apply through the writer, read
 * the cluster back, compare with what was asked, write the audit line,
 * then hand the result to the screen. */
#ifndef OC_ACTIONS_WORKER_H
#define OC_ACTIONS_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "actions/writer.h"

enum oc_action_kind {
	OC_ACTION_NODE_UPDATE = 0,
	OC_ACTION_RESV_CREATE,
	OC_ACTION_RESV_DELETE,
	OC_ACTION_ONBOARD,
	OC_ACTION_ONBOARD_PREVIEW, /* read, check and plan only: no change, no audit */
	OC_ACTION_JOB,             /* one change to one or more jobs */
	OC_ACTION_STATS_RESET,     /* slurmctld's statistics counters to zero */
};

/* Most jobs one action takes (the tagged jobs of a queue). */
#define OC_ACTION_MAX_JOBS 1024

/* One action, as confirmed by the admin. */
struct oc_action_req {
	enum oc_action_kind kind;
	/* node update */
	enum oc_node_op op;
	char nodes[4096];          /* compressed hostlist of the targets */
	char reason[1100];         /* drain reason, verbatim */
	struct oc_reboot_spec reboot; /* OC_NODE_OP_REBOOT */
	/* reservations */
	struct oc_resv_spec resv;  /* create */
	char resv_name[128];       /* delete */
	/* onboarding: the spec (the plan is rebuilt against the state read
	 * at apply time, so a re-run completes what is missing) */
	struct oc_onb_spec onb;
	/* apply exactly the plan the last preview showed (built from the state
	 * that preview read), not a new one */
	bool onb_use_preview;
	/* job actions: the change, to each job in turn */
	struct oc_job_change job;
	uint32_t jobs[OC_ACTION_MAX_JOBS];
	size_t njobs;
	char job_ids[12 * OC_ACTION_MAX_JOBS]; /* "113,114" for the audit line */
	/* the equivalent command line shown to the admin (and audited) */
	char command[8192];
};

/* Progress of a running action with several steps (onboarding). */
struct oc_progress {
	size_t done, total;
	char what[256];
};

/* Called by oc_action_apply before and after each step; may be NULL. */
typedef void (*oc_progress_fn)(void *ctx, const struct oc_progress *p);

/* UNKNOWN: slurmctld did not answer in time. A request is one RPC, so it
 * was applied to all targets or to none; which one shows once slurmctld
 * answers again (the views show it, the next read-back tells). */
enum oc_action_status { OC_ACTION_OK = 0, OC_ACTION_PARTIAL, OC_ACTION_FAILED, OC_ACTION_UNKNOWN };

struct oc_action_result {
	enum oc_action_status status;
	char summary[512];         /* one line: "drained 3 nodes", "failed: ..." */
	char details[8192];        /* per target, one per line */
	char audit_error[256];     /* "" when the audit line was written */
};

/* What the user is to Slurm (read once by the worker at start). */
struct oc_whoami {
	bool known;                /* false until the worker has asked */
	char user[64];
	enum oc_admin_level level;
	char error[256];
};

struct oc_worker;

/* Start the worker. writer: how to reach the cluster (copied); cluster:
 * for the audit lines; audit_path: the log. The worker asks whoami at
 * once. Returns NULL with err on failure. Stop with oc_worker_stop. */
struct oc_worker *oc_worker_start(const struct oc_writer *writer, const char *cluster,
				  const char *audit_path, char *err, size_t errlen);

/* Hand an action to the worker. Returns 0, or -1 when one is still
 * running (nothing is queued: the admin sees one action at a time). */
int oc_worker_submit(struct oc_worker *w, const struct oc_action_req *req);

/* Whether an action is running, and since when (wall clock). */
bool oc_worker_busy(struct oc_worker *w, time_t *since);

/* Take the result of the last action when it is there. Returns true and
 * fills *out once per action. */
bool oc_worker_take_result(struct oc_worker *w, struct oc_action_result *out);

/* A copy of what whoami said (known=false until it has answered). */
void oc_worker_whoami(struct oc_worker *w, struct oc_whoami *out);

/* Readable when a result or the whoami answer is there; drain with
 * oc_worker_ack. */
int oc_worker_fd(const struct oc_worker *w);
void oc_worker_ack(struct oc_worker *w);

/* The writer, for the calls that do not block (hostlists). */
const struct oc_writer *oc_worker_writer(const struct oc_worker *w);

/* Stop and free; clears *w. A worker stuck in a request to a hung
 * controller is left to end with the process: then false is returned and
 * the writer it uses must not be freed. */
bool oc_worker_stop(struct oc_worker **w);

/* The progress of the running action (total 0 when it has no steps). */
void oc_worker_progress(struct oc_worker *w, struct oc_progress *out);

/* Apply one action synchronously (what the worker thread runs; also for
 * script mode): apply, read back, compare, audit. progress may be NULL. */
void oc_action_apply(const struct oc_writer *writer, const char *cluster, const char *audit_path,
		     const struct oc_action_req *req, struct oc_action_result *res, oc_progress_fn progress,
		     void *progress_ctx);

/* Job actions, the part of oc_action_apply for OC_ACTION_JOB (in
 * job_apply.c): per job, read it, apply the change, read it back and say
 * what became of it ("already ended" is not an error). error gets the
 * text for the audit line. */
void oc_job_apply(const struct oc_writer *w, const struct oc_action_req *req, struct oc_action_result *res,
		  char *error, size_t errlen);

/* For the apply files: whether Slurm's error text says the controller
 * did not answer or broke the connection during the request (it may
 * still be applied), and the result that says so. */
bool oc_action_is_timeout(const char *err);
void oc_action_unknown_result(struct oc_action_result *res, const char *slurm_err, char *error, size_t errlen);

/* The audit action name of a job change ("job.cancel"). */
const char *oc_job_op_name(enum oc_job_op op);

/* The preview of an onboarding: the diff against the cluster and the
 * sacctmgr command lines in order, into res->details (status OK, or
 * FAILED with the reasons; summary "nothing to change" when the plan is
 * empty). */
void oc_onboard_preview(const struct oc_writer *w, const struct oc_onb_spec *spec, struct oc_action_result *res,
			struct oc_onb_state *state_out);

/* Onboarding, the part of oc_action_apply for OC_ACTION_ONBOARD (in
 * onboard_apply.c): plan against planned (the state the admin's preview
 * was built from, so the commands run are exactly those shown), or when it
 * is NULL read the state and check first; run the steps and stop at the
 * first failure; read back and compare. error gets the text for the audit
 * line. */
void oc_onboard_apply(const struct oc_writer *w, const struct oc_onb_spec *spec,
		      const struct oc_onb_state *planned, struct oc_action_result *res, char *error, size_t errlen,
		      oc_progress_fn progress, void *progress_ctx);

/* Apply an onboarding planned against a given state (script mode): like
 * oc_action_apply for OC_ACTION_ONBOARD, audit line included. */
void oc_onboard_apply_planned(const struct oc_writer *writer, const char *cluster, const char *audit_path,
			      const struct oc_action_req *req, const struct oc_onb_state *planned,
			      struct oc_action_result *res, oc_progress_fn progress, void *progress_ctx);

#endif
