/* onboard.h: onboarding a team (a Slurm account) and its users with
 * sacctmgr, as the runbook does by hand, made one repeatable step:
 *   spec (from the form or a JSON file) + the cluster's current state
 *   → a plan: the exact sacctmgr command lines, in order, and a diff
 *     (new / change / already there)
 *   → apply step by step (sacctmgr -i, an argv, no shell), stop at the
 *     first failure → read back and compare.
 * Pure: no Slurm library, no curses, no process spawning here (the source
 * layer reads the state and runs the steps). */
#ifndef OC_ACTIONS_ONBOARD_H
#define OC_ACTIONS_ONBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OC_ONB_NAME_MAX 64      /* account, user and QoS names (with NUL) */
#define OC_ONB_MAX_USERS 256
#define OC_ONB_MAX_QOS 32
#define OC_ONB_NONE INT64_MIN   /* a limit that is not set */
#define OC_ONB_UNLIMITED (-1)   /* spec only: remove the limit (sacctmgr's -1) */

/* A QoS the team needs that may not exist yet. */
struct oc_onb_qos_spec {
	char name[OC_ONB_NAME_MAX];
	int64_t max_jobs_pu;        /* MaxJobsPerUser, OC_ONB_NONE = leave as is,
				     * OC_ONB_UNLIMITED = remove the limit */
	int64_t max_submit_pu;      /* MaxSubmitJobsPerUser, the same */
	int64_t priority;           /* Priority (>= 0), OC_ONB_NONE = leave as is */
};

struct oc_onb_user_spec {
	char name[OC_ONB_NAME_MAX];
	bool allow_missing_os_user; /* explicit override of the getpwnam check */
};

/* What the admin asks for. */
struct oc_onb_spec {
	char account[OC_ONB_NAME_MAX];
	char description[256];      /* "" = leave as is (new accounts: the name);
				     * sacctmgr stores it in lower case with
				     * quotes turned into backquotes, so it is
				     * compared that way */
	char parent[OC_ONB_NAME_MAX];   /* "" = root for a new account, leave as
					 * is for an existing one */
	/* The limits: OC_ONB_NONE = leave as is, OC_ONB_UNLIMITED = remove. */
	int64_t gpu_quota;          /* GrpTRES gres/gpu=N */
	int64_t cpu_quota;          /* GrpTRES cpu=N */
	int64_t mem_quota_mb;       /* GrpTRES mem=NM */
	int64_t fairshare;          /* Fairshare=N (no OC_ONB_UNLIMITED) */
	char qos[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX]; /* QoS the account may use */
	size_t nqos;
	char default_qos[OC_ONB_NAME_MAX];  /* "" = leave as is; must be in qos */
	struct oc_onb_qos_spec new_qos[OC_ONB_MAX_QOS]; /* to create or adjust */
	size_t nnew_qos;
	struct oc_onb_user_spec users[OC_ONB_MAX_USERS]; /* to add */
	size_t nusers;
	char remove_users[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX]; /* associations to delete */
	size_t nremove_users;
	char remove_qos[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX];     /* QoS to take away from the account */
	size_t nremove_qos;
};

/* What the cluster has now (read by the source layer with sacctmgr). */
struct oc_onb_qos_state {
	char name[OC_ONB_NAME_MAX];
	int64_t max_jobs_pu, max_submit_pu, priority;   /* OC_ONB_NONE = not set */
};

struct oc_onb_state {
	bool account_exists;
	char description[256];
	char parent[OC_ONB_NAME_MAX];
	int64_t gpu_quota, cpu_quota, mem_quota_mb;     /* account's GrpTRES; OC_ONB_NONE = not set */
	int64_t fairshare;
	char qos[OC_ONB_MAX_QOS][OC_ONB_NAME_MAX];      /* the account association's QoS */
	size_t nqos;
	char default_qos[OC_ONB_NAME_MAX];
	char users[OC_ONB_MAX_USERS][OC_ONB_NAME_MAX];  /* user associations under the account */
	size_t nusers;
	struct oc_onb_qos_state all_qos[128];           /* every QoS of the cluster */
	size_t nall_qos;
	char cluster[OC_ONB_NAME_MAX];
};

/* One sacctmgr invocation of the plan. */
#define OC_ONB_MAX_ARGS 16
struct oc_onb_step {
	char *argv[OC_ONB_MAX_ARGS + 1]; /* {"sacctmgr", "-i", "add", ...}, NULL-terminated, malloc'd */
	char line[2048];                 /* the same as a shell-quoted command line (display, audit) */
	char what[256];                  /* "add account team-c", "set GrpTRES gres/gpu=32" */
	/* An "add" of something that may already exist: sacctmgr's "Nothing
	 * new added." (exit 1) then means "already there", not a failure. */
	bool add;
};

enum oc_onb_diff_kind { OC_ONB_NEW = 0, OC_ONB_CHANGE, OC_ONB_SAME, OC_ONB_REMOVE };

struct oc_onb_diff {
	enum oc_onb_diff_kind kind;
	char text[300];   /* "GrpTRES gres/gpu: 64 -> 32", "user alice: already there" */
};

struct oc_onb_plan {
	struct oc_onb_step *steps;
	size_t nsteps;
	struct oc_onb_diff *diff;
	size_t ndiff;
};

/* An empty spec: every limit OC_ONB_NONE, every name "", no lists.
 * Returns nothing. */
void oc_onb_spec_init(struct oc_onb_spec *spec);

/* An empty state (account_exists false, limits OC_ONB_NONE, fairshare
 * OC_ONB_NONE, no QoS, no users), for the source layer to fill. Returns
 * nothing. */
void oc_onb_state_init(struct oc_onb_state *st);

/* Parse an onboarding file (documented in docs/onboarding.md). Unknown
 * keys, wrong types, bad names are errors with "path:line:col: message" (or
 * "path: message"). Returns 0, or -1 with err; *spec is then cleared
 * (oc_onb_spec_init). */
int oc_onb_spec_load(const char *path, struct oc_onb_spec *spec, char *err, size_t errlen);

/* Check a spec on its own and against the cluster's QoS list (state may
 * be NULL to skip the cluster checks): names Slurm would refuse, quotas not
 * positive numbers, a DefaultQOS not in the QoS list, QoS that neither
 * exist nor are in new_qos, a user both added and removed, users missing
 * from the OS user database (getpwnam, which covers LDAP/SSSD) unless
 * allowed. Returns 0, or -1 with every problem, one per line, in err. */
int oc_onb_spec_check(const struct oc_onb_spec *spec, const struct oc_onb_state *state, char *err,
		      size_t errlen);

/* Whether name is a name sacctmgr accepts for an account, user or QoS:
 * 1..63 characters of [a-z0-9_.-] (and upper case for users), not starting
 * with '-'. */
bool oc_onb_name_ok(const char *name, bool user);

/* Build the plan: only what differs from state, in an order that works
 * (QoS first, then the account, its limits and QoS, then users, then
 * removals: docs/onboarding.md lists the commands). An empty plan
 * (nsteps == 0) means "nothing to change". state NULL: nothing exists.
 * *plan is overwritten (not freed first). Returns 0, -1 on ENOMEM (then
 * *plan is empty). The caller frees it with oc_onb_plan_free. */
int oc_onb_plan_build(const struct oc_onb_spec *spec, const struct oc_onb_state *state,
		      struct oc_onb_plan *plan);
/* Frees the steps (their argv strings), the diff, and zeroes *plan (a
 * zeroed plan is fine). Returns nothing. */
void oc_onb_plan_free(struct oc_onb_plan *plan);

/* Compare the state read back after an apply with the spec: what is still
 * different, one per line, into out (empty when the cluster is as asked).
 * Returns the number of differences. */
size_t oc_onb_readback_diff(const struct oc_onb_spec *spec, const struct oc_onb_state *state, char *out,
			    size_t len);

#endif
