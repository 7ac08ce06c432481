/* writer.h: what actions need from the cluster, as a vtable the source
 * layer implements (libslurm now; the CLI/SSH backend later). No Slurm
 * types here: actions and the screen stay free of libslurm. All functions
 * may block (they talk to slurmctld): call them from the action worker
 * thread, never from the UI thread. */
#ifndef OC_ACTIONS_WRITER_H
#define OC_ACTIONS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "actions/onboard.h"
#include "core/model.h"

enum oc_node_op {
	OC_NODE_OP_DRAIN = 0,   /* State=DRAIN Reason=... (reason required) */
	OC_NODE_OP_RESUME,      /* State=RESUME */
	OC_NODE_OP_UNDRAIN,     /* State=UNDRAIN: clear the drain flag only */
	OC_NODE_OP_REBOOT,      /* scontrol reboot (node_reboot, struct oc_reboot_spec) */
	OC_NODE_OP_CANCEL_REBOOT, /* scontrol cancel_reboot: a reboot not issued yet */
	OC_NODE_OP_POWER_UP,    /* State=POWER_UP: a powered-down CLOUD node */
	OC_NODE_OP_POWER_DOWN,  /* State=POWER_DOWN: a CLOUD node, its jobs killed */
};

/* What a node is to be after its reboot (scontrol reboot nextstate=). */
enum oc_reboot_next { OC_REBOOT_NEXT_AS_BEFORE = 0, OC_REBOOT_NEXT_RESUME, OC_REBOOT_NEXT_DOWN };

/* A reboot: `scontrol reboot [ASAP] [nextstate=RESUME|DOWN] [reason=...] NODES`. */
struct oc_reboot_spec {
	bool asap;                 /* drain, reboot once idle (else at once: idle nodes only) */
	enum oc_reboot_next next;
	char reason[1100];         /* "" = none */
};

/* A maintenance (or other) reservation to create. */
struct oc_resv_spec {
	char name[128];        /* "" = let Slurm choose */
	char nodes[4096];      /* hostlist expression, required */
	char users[256];       /* "root" by default */
	char accounts[256];    /* "" = none */
	char flags[256];       /* "MAINT,IGNORE_JOBS" */
	time_t start;          /* 0 = now */
	long duration_min;     /* minutes; -1 = infinite */
};

/* A probe job a rehearsal step submits. */
struct oc_job_spec {
	char user[64];          /* OS user to submit as (required) */
	char account[64];       /* "" = the user's default */
	char partition[64];     /* "" = the default partition */
	char qos[64];           /* "" = the association's default */
	char name[64];          /* job name, e.g. "oc-rehearsal-grptres" */
	uint32_t nodes;         /* 0 = 1 */
	char nodelist[256];     /* -w: the nodes it must run on, "" = any */
	uint32_t gpus_per_node; /* --gres=gpu:N, 0 = none */
	uint32_t time_min;      /* --time, 0 = partition default */
	char signal[32];        /* --signal, e.g. "B:USR1@60", "" = none */
	char command[256];      /* --wrap, default "sleep 600" */
	bool requeue;           /* --requeue */
	bool hold;              /* --hold */
};

/* What can be done to a job (one job id per request). */
enum oc_job_op {
	OC_JOB_OP_CANCEL = 0,    /* scancel ID */
	OC_JOB_OP_SIGNAL,        /* scancel --signal=SIG (--batch | --full) ID */
	OC_JOB_OP_HOLD,          /* scontrol hold ID: priority 0, an admin hold */
	OC_JOB_OP_RELEASE,       /* scontrol release ID */
	OC_JOB_OP_REQUEUE,       /* scontrol requeue ID */
	OC_JOB_OP_REQUEUE_HOLD,  /* scontrol requeuehold ID */
	OC_JOB_OP_TIME_LIMIT,    /* scontrol update JobId=ID TimeLimit=... */
	OC_JOB_OP_PARTITION,     /* scontrol update JobId=ID Partition=... */
	OC_JOB_OP_QOS,           /* scontrol update JobId=ID QOS=... */
	OC_JOB_OP_NICE,          /* scontrol update JobId=ID Nice=... */
	OC_JOB_OP_PRIORITY,      /* scontrol update JobId=ID Priority=... */
	OC_JOB_OP_COUNT,
};

/* A change to a job: the operation and its value. */
struct oc_job_change {
	enum oc_job_op op;
	int signal;              /* SIGNAL: 1..64 */
	bool batch_only;         /* SIGNAL: the batch shell only (scancel
	                            --batch), else every step and the batch
	                            shell (scancel --full) */
	uint32_t minutes;        /* TIME_LIMIT: minutes, OC_NONE = UNLIMITED */
	int nice;                /* NICE: -2147483645 .. 2147483645 */
	uint32_t priority;       /* PRIORITY: 1 .. 4294967293 (0 would hold it) */
	char name[64];           /* PARTITION, QOS: the name */
};

/* A job as a read-back after a change sees it. */
struct oc_job_now {
	bool found;              /* false: slurmctld no longer knows the job */
	enum oc_job_state state;
	uint32_t priority;       /* 0: held */
	uint32_t time_limit_min; /* OC_NONE: UNLIMITED */
	int nice;
	uint32_t restarts;       /* times requeued */
	char partition[64], qos[64], reason[64];
};

/* What the user running the console may do in Slurm. */
enum oc_admin_level { OC_ADMIN_NONE = 0, OC_ADMIN_OPERATOR, OC_ADMIN_ADMIN };

struct oc_writer_ops {
	/* Expand a hostlist expression ("gpu-st-b300-[3-5,9]") into names with
	 * libslurm's hostlist functions. *names is a malloc'd array of malloc'd
	 * strings (free with oc_writer_names_free). Refuses (-1, err) a bad
	 * expression and one of more than max names. Returns 0. */
	int (*hostlist_expand)(void *ctx, const char *expr, size_t max, char ***names, size_t *n,
			       char *err, size_t errlen);
	/* Compress names into a ranged expression ("gpu-st-b300-[3-5,9]"),
	 * malloc'd; NULL on ENOMEM. */
	char *(*hostlist_compress)(void *ctx, const char *const *names, size_t n);
	/* One update RPC for all nodes of expr. Returns 0, or -1 with Slurm's
	 * own error text in err. */
	int (*node_update)(void *ctx, const char *expr, enum oc_node_op op, const char *reason,
			   char *err, size_t errlen);
	/* Reboot the nodes of expr (`scontrol reboot`: libslurm has no public
	 * call for it). Returns 0, or -1 with Slurm's error text in err. */
	int (*node_reboot)(void *ctx, const char *expr, const struct oc_reboot_spec *spec, char *err,
			   size_t errlen);
	/* Create a reservation; the name Slurm gave it goes to name_out.
	 * Returns 0, or -1 with Slurm's error text. */
	int (*resv_create)(void *ctx, const struct oc_resv_spec *spec, char *name_out, size_t name_len,
			   char *err, size_t errlen);
	/* Delete a reservation. Returns 0, or -1 with Slurm's error text. */
	int (*resv_delete)(void *ctx, const char *name, char *err, size_t errlen);
	/* Reset slurmctld's statistics counters (`sdiag --reset`). Returns 0,
	 * or -1 with Slurm's error text. */
	int (*stats_reset)(void *ctx, char *err, size_t errlen);
	/* Read back the current nodes / reservations (a new table, one
	 * reference, the caller unrefs). Returns 0, or -1 with err. */
	int (*read_nodes)(void *ctx, struct oc_nodes **out, char *err, size_t errlen);
	int (*read_reservations)(void *ctx, struct oc_reservations **out, char *err, size_t errlen);
	/* Who runs the console and what Slurm lets them do: root and SlurmUser
	 * are admins; others per their accounting AdminLevel. Returns 0, or -1
	 * with err (then *level is NONE). */
	int (*whoami)(void *ctx, char *user, size_t user_len, enum oc_admin_level *level, char *err,
		      size_t errlen);
	/* Onboarding (sacctmgr): read what the cluster has for account (and
	 * every QoS) into *st. Returns 0, or -1 with a clear message (slurmdbd
	 * down: "slurmdbd does not answer: ..."). */
	int (*onb_read_state)(void *ctx, const char *account, struct oc_onb_state *st, char *err,
			      size_t errlen);
	/* Run one step of an onboarding plan (its argv, no shell), with a
	 * timeout. Returns 0 when done, 1 when sacctmgr said the thing already
	 * exists ("Nothing new added." for an add step), -1 on failure with
	 * sacctmgr's own output in out. */
	int (*onb_run_step)(void *ctx, const struct oc_onb_step *step, char *out, size_t outlen);
	/* Rehearsal probes. Submit a batch job as another user (the console
	 * runs as root: runuser + sbatch, an argv, no shell). Returns 0 and
	 * the job id, 1 when Slurm refused the submission (its words in err:
	 * "sbatch: error: Batch job submission failed: Invalid account or
	 * account/partition combination specified"), -1 when it could not be
	 * tried at all. */
	int (*submit_job)(void *ctx, const struct oc_job_spec *spec, uint32_t *job_id, char *err, size_t errlen);
	/* Cancel jobs (scancel semantics; signal 0 = plain cancel, else e.g.
	 * SIGUSR1 to the batch shell only: "scancel -b -s USR1"). Returns 0,
	 * or -1 with Slurm's error text. */
	int (*cancel_job)(void *ctx, uint32_t job_id, int signal, char *err, size_t errlen);
	/* Job actions: one change to one job, as scancel/scontrol would make
	 * it. Returns 0; 1 when the job had already ended (a cancel or a
	 * signal of an ended job: nothing to do, as scancel says); -1 with
	 * Slurm's own error text in err. */
	int (*job_change)(void *ctx, uint32_t job_id, const struct oc_job_change *c, char *err, size_t errlen);
	/* Read one job back (`scontrol show job ID`). Returns 0 (out->found
	 * false when slurmctld does not know the id), or -1 with err. */
	int (*read_job)(void *ctx, uint32_t job_id, struct oc_job_now *out, char *err, size_t errlen);
	/* Per-user accounting totals since a time (what `sacct -a -X -S`
	 * aggregates): lines "user account jobs" into out. Returns the number
	 * of users, or -1 with err (slurmdbd down...). */
	int (*sacct_users)(void *ctx, time_t since, char *out, size_t outlen, char *err, size_t errlen);
	/* The controller's configuration as key/value pairs (`scontrol show
	 * config`): a new table, one reference. Returns 0, or -1 with err. */
	int (*read_config)(void *ctx, struct oc_config **out, char *err, size_t errlen);
	/* A file on the head node (a rehearsal's marker file), for a head node
	 * reached over SSH; NULL = the console's own machine is the head node
	 * (the caller reads it itself). read_file puts up to len - 1 bytes
	 * into buf and returns how many, 0 with *missing set when the file is
	 * not there, or -1 with err. remove_file: 0 (also when not there) or
	 * -1 with err. */
	long (*read_file)(void *ctx, const char *path, char *buf, size_t len, bool *missing, char *err,
			  size_t errlen);
	int (*remove_file)(void *ctx, const char *path, char *err, size_t errlen);
};

struct oc_writer {
	const struct oc_writer_ops *ops;
	void *ctx;
};

/* What the console's user is to Slurm, by the one rule both writers
 * follow: root and SlurmUser are administrators; anyone else has the
 * AdminLevel accounting gives them (admin_level asks for it the backend's
 * way), and none when there is no accounting. *level is NONE on error.
 * Returns 0, or -1 with err (admin_level's). */
int oc_whoami_level(bool is_root, bool is_slurm_user, bool accounting, const char *user,
		    int (*admin_level)(void *ctx, const char *user, enum oc_admin_level *level, char *err,
				       size_t errlen),
		    void *ctx, enum oc_admin_level *level, char *err, size_t errlen);
/* Whether user is the SlurmUser a configuration names ("slurm" or
 * "slurm(64030)", as scontrol show config prints it). */
bool oc_is_slurm_user(const char *slurm_user, const char *user);

/* Free what hostlist_expand returned and clear *names. */
void oc_writer_names_free(char ***names, size_t n);

#endif
