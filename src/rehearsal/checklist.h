/* checklist.h: a failure-rehearsal checklist, loaded from JSON
 * (docs/rehearsal.md has the schema). A checklist is an ordered list of
 * steps; each step says why it matters (in English, and optionally the
 * runbook's line in its own words), what the operator does, what must be
 * observed, optionally actions the console performs (submit a probe job
 * as a test user, signal or cancel it, drain or resume nodes, create a
 * reservation, record the running jobs) and an automatic check with a
 * timeout.
 *
 * The loader validates everything: JSON syntax errors come back as
 * "path:line:col: message", unknown keys, check kinds and action kinds are
 * named, wrong types say what was expected. jansson never leaves
 * checklist.c; the loaded checklist is plain C, all of it in one arena. */
#ifndef OC_REHEARSAL_CHECKLIST_H
#define OC_REHEARSAL_CHECKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/platform.h"

#define OC_CHECKLIST_VERSION 1
#define OC_STEP_ID_MAX 48        /* characters of a step id */
#define OC_LABEL_MAX 32          /* characters of a job label */

/* ---- checks ------------------------------------------------------------ */

/* Each kind is an entry of oc_check_kinds (kinds.h): its name, keys,
 * parse and evaluate functions. */
enum oc_check_kind {
	OC_CHECK_CONFIG = 0,       /* a configuration value (scontrol show config) */
	OC_CHECK_PARTITION,        /* a property of one or more partitions */
	OC_CHECK_PARTITION_NODES,  /* every partition's nodes exist */
	OC_CHECK_ACCOUNTS_GPU,     /* every team account has a gres/gpu GrpTRES */
	OC_CHECK_ASSOC,            /* a limit of an association */
	OC_CHECK_QOS,              /* a limit of a QoS */
	OC_CHECK_NODE,             /* node state and reason */
	OC_CHECK_JOB,              /* state, pending reason, requeue of the step's jobs */
	OC_CHECK_SUBMIT,           /* whether a submission of the step was refused */
	OC_CHECK_SACCT,            /* sacct aggregates per user */
	OC_CHECK_FILE,             /* a file exists (and contains a text) */
	OC_CHECK_ACCOUNTING,       /* slurmdbd answers / is unreachable */
	OC_CHECK_IDLE_NODES,       /* at least N idle nodes in a partition */
	OC_CHECK_RESERVATION,      /* a reservation exists (on its nodes) or is gone */
	OC_CHECK_ALL,              /* every one of several checks */
	OC_CHECK_KIND_COUNT,
};

/* How a value is compared (config, partition, assoc_limit, qos_limit). */
enum oc_check_op {
	OC_OP_NONE = 0,     /* the value must merely be set */
	OC_OP_EQUALS,       /* text equal, case-insensitive ("YES", "root", "1") */
	OC_OP_CONTAINS_ALL, /* a comma list containing every item of list */
	OC_OP_MIN,          /* a number >= num ("300 sec", "00:10:00" as seconds) */
	OC_OP_MAX,          /* a number <= num */
	OC_OP_NOT_UNDER,    /* paths (comma list) none of which is under a prefix of list */
};

/* A list of strings in the checklist's arena. */
struct oc_strlist {
	const char **v;
	size_t n;
};

struct oc_check {
	enum oc_check_kind kind;
	/* What is looked at; which fields a kind uses is in docs/rehearsal.md. */
	const char *key;            /* config: the key; partition: the property;
				     * assoc_limit/qos_limit: the field */
	const char *tres;           /* assoc_limit/qos_limit/accounts_gpu_limit: "gres/gpu" */
	struct oc_strlist names;    /* partition(s), node(s), account, qos, sacct users,
				     * partition_nodes' partitions (empty = all) */
	const char *user;           /* assoc_limit: the user of the association, NULL = the account's */
	const char *job;            /* job/submit: the label of the step's jobs */
	const char *path;           /* file: may hold ${job:LABEL} */
	const char *contains;       /* file: text; submit: text of Slurm's answer */
	bool remove;                /* file: delete it when the step ends */
	struct oc_strlist exclude;  /* accounts_gpu_limit: accounts left out (root always is) */
	/* The expectation. */
	enum oc_check_op op;
	const char *str;            /* EQUALS */
	struct oc_strlist list;     /* CONTAINS_ALL, NOT_UNDER */
	double num;                 /* MIN, MAX; idle_nodes: the minimum; sacct: since_hours */
	/* job */
	struct oc_strlist states;   /* "PENDING", "RUNNING", ... (any of) */
	struct oc_strlist reasons;  /* pending reason contains any of these */
	int requeued;               /* -1 don't care, 1 must have been requeued */
	/* node */
	struct oc_strlist node_states; /* "idle", "alloc", "mix", "down" (any of) */
	int drain;                  /* -1 don't care, 0 must not be drained, 1 must be */
	int responding;             /* -1 don't care, 1 must answer */
	int rebooted;               /* -1 don't care, 1 booted since the step started,
				     * no reboot pending */
	const char *reason_contains;
	/* reservation: names.v[0] is its name; hostlist its nodes (NULL:
	 * any); exists false: it must be gone */
	const char *hostlist;
	bool exists;
	/* submit */
	bool refused;               /* the submission must have been refused (else accepted) */
	bool never_runs;            /* refused, or accepted and ended without running */
	/* accounting */
	bool dbd_up;                /* slurmdbd must answer (else: must be unreachable) */
	/* all */
	struct oc_check *sub;
	size_t nsub;
};

/* ---- actions ----------------------------------------------------------- */

/* Each kind is an entry of oc_step_action_kinds (kinds.h): its name, keys,
 * parse and run functions. */
enum oc_step_action_kind {
	OC_SA_SUBMIT_JOB = 0,   /* sbatch as a test user (writer submit_job) */
	OC_SA_SIGNAL_JOB,       /* scancel -b -s SIG (writer cancel_job) */
	OC_SA_CANCEL_JOB,       /* scancel */
	OC_SA_DRAIN,            /* scontrol update State=DRAIN */
	OC_SA_RESUME,           /* scontrol update State=RESUME */
	OC_SA_RESERVATION,      /* scontrol create reservation (deleted at cleanup) */
	OC_SA_RECORD_JOBS,      /* remember the jobs that run now under a label */
	OC_SA_REBOOT,           /* scontrol reboot [ASAP] nextstate=... reason=... */
	OC_SA_END_RESERVATION,  /* scontrol delete ReservationName=... */
	OC_SA_KIND_COUNT,
};

/* What a submission may end as, for the step to go on. */
enum oc_expect_submit { OC_EXPECT_ACCEPTED = 0, OC_EXPECT_REFUSED, OC_EXPECT_ANY };

struct oc_step_action {
	enum oc_step_action_kind kind;
	const char *label;          /* submit_job/record_jobs: the label it stores jobs under;
				     * signal_job/cancel_job: the label acted on */
	/* submit_job */
	const char *user, *account, *partition, *qos, *name, *signal_opt, *command;
	uint32_t nodes;             /* 0 with nodes_idle */
	bool nodes_idle;            /* "nodes": "idle": as many as are idle in the partition */
	const char *nodes_of;       /* "on_nodes_of": a label: run on the first node of that job (-w) */
	uint32_t gpus_per_node, time_min;
	bool requeue, hold;
	enum oc_expect_submit expect;
	/* signal_job */
	int signo;                  /* SIGUSR1, ... */
	const char *signame;        /* "USR1" */
	/* drain/resume/reservation */
	const char *hostlist;
	const char *reason;         /* drain */
	bool undo;                  /* drain: resume at cleanup if still drained by the step */
	const char *resv_name, *resv_users, *resv_accounts, *resv_flags;
	long duration_min;          /* reservation; -1 = infinite */
	bool keep;                  /* reservation: do not delete at cleanup */
	/* reboot (reason above) */
	bool asap;                  /* drain first, reboot once idle (default true) */
	int next_state;             /* enum oc_reboot_next (actions/writer.h) */
	/* record_jobs filters (NULL = any) */
	const char *state_filter;   /* default "RUNNING" */
	/* every action */
	bool after_operator;        /* performed after the operator said "done" */
	bool confirm;               /* needs the operator's confirmation (default: true for
				     * drain, resume, reservation; false otherwise) */
	struct oc_check *wait_for;  /* must pass before the next action, or NULL */
	double wait_timeout_s;      /* default: the step's timeout */
};

/* ---- steps and the checklist ------------------------------------------- */

struct oc_step {
	const char *id;             /* [a-z0-9._-], unique */
	const char *title;
	const char *section;        /* group heading ("Configuration audit"), may be NULL */
	const char *why;            /* why it matters, in English (any locale shows it) */
	const char *runbook;        /* "runbook": the runbook's line in its own
				     * words (UTF-8, e.g. Korean), or NULL; shown
				     * where the locale can show it */
	const char *todo;           /* "do": what the operator does ("" when nothing) */
	const char *observe;        /* what must be observed */
	bool automatic;             /* "auto": runs without an operator */
	double timeout_s;           /* for the check (default 30) */
	const struct oc_check *require; /* evaluated once before the actions, or NULL */
	struct oc_step_action *actions;
	size_t nactions;
	const struct oc_check *check;   /* NULL: the operator gives the verdict */
	bool cleanup;               /* cancel the step's jobs at the end (default true) */
	bool needs_confirm;         /* some action needs the operator's confirmation */
	bool has_operator_phase;    /* not automatic: waits for the operator's "done" */
	/* "not_on": per enum oc_platform (core/platform.h), why the step
	 * cannot be done there (NULL: it can); such a step is skipped. */
	const char *not_on[OC_PLATFORM_ONPREM + 1];
};

struct oc_checklist {
	struct oc_arena arena;      /* everything below lives here */
	const char *path;           /* the file it was loaded from */
	const char *name;           /* "checklist": "llm-poc" */
	const char *title;
	const char *description;    /* may be NULL */
	bool stop_on_failure;       /* a failed step ends the run, and a resumed
				     * run starts again at it (a change window:
				     * no drain after a failed reservation) */
	struct oc_step *steps;
	size_t nsteps;
	uint64_t digest;            /* FNV-1a of the file's bytes */
	const char *notice;         /* set by the caller (oc_checklist_set_notice),
				     * e.g. that this is another cluster's
				     * checklist; shown and in the report */
};

/* Sets cl->notice to a copy of text (NULL clears it). */
void oc_checklist_set_notice(struct oc_checklist *cl, const char *text);

/* The notice for a cluster whose checklist is the default one written for
 * another cluster (name default_name), into buf; "" when cluster is that
 * cluster. Returns buf. */
const char *oc_checklist_fallback_notice(const char *cluster, const char *default_name, char *buf, size_t len);

/* Variables given on top of the file's "vars" (the CLI's --var NAME=VALUE,
 * then the profile's "checklist_vars"; the first of a name wins): ${NAME}
 * in any string of the file is replaced by the value. A value may itself
 * use variables ("signal_dir": "/home/${user_a}") whose values use none. */
struct oc_checklist_var {
	const char *name, *value;
};

/* Load and validate the checklist at path. vars/nvars: values that win
 * over the file's "vars" (may be NULL/0). Returns a new checklist the
 * caller frees with oc_checklist_free, or NULL with err set:
 * "path:line:col: message" for JSON syntax, "path: step \"ID\": ..." (or
 * "path: steps[N]: ...") for the rest, naming unknown keys, check kinds
 * and action kinds with the known ones. */
struct oc_checklist *oc_checklist_load(const char *path, const struct oc_checklist_var *vars,
				       size_t nvars, char *err, size_t errlen);

/* Free a checklist and clear *cl. */
void oc_checklist_free(struct oc_checklist **cl);

/* Index of the step with that id, or -1. */
long oc_checklist_find(const struct oc_checklist *cl, const char *id);

/* Names as the JSON spells them: "config", "submit_job"... Static. */
const char *oc_check_kind_name(enum oc_check_kind k);
const char *oc_step_action_kind_name(enum oc_step_action_kind k);

#endif
