/* quota.h: what the quota view shows, computed from a snapshot without any
 * drawing: one row per account with its group limits and use (from the
 * association manager, s->accounting), its jobs (from s->jobs), its users
 * and the per-user limits of its QoS.
 *
 * Rows borrow strings and records from the snapshot: keep a reference to
 * the snapshot while the rows are used. */
#ifndef OC_CORE_QUOTA_H
#define OC_CORE_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* A user of an account: a user association under it, or someone with
 * running or pending jobs in it (or both). Job counts are for this
 * account only. */
struct oc_quota_user {
	const char *user;
	uint32_t run_gpus, pend_gpus;
	uint32_t run_jobs, pend_jobs;
	uint32_t limited_jobs;          /* pending on an association/QoS limit */
	const struct oc_assoc *assoc;   /* NULL: jobs but no association */
};

/* A QoS the account may use, with its per-user limits and the account's
 * user closest to one of them. Slurm counts MaxJobsPU/MaxSubmitPU per user
 * over all of that user's jobs in the QoS, whatever the account, and so do
 * top_running/top_submitted. */
struct oc_quota_qos {
	const char *name;
	const struct oc_qos *qos;       /* NULL when not in the QoS table */
	uint32_t max_jobs_pu, max_submit_pu; /* OC_NONE = no limit */
	const char *top_user;           /* NULL when no user of the account has jobs in it */
	uint32_t top_running;           /* that user's running jobs in the QoS */
	uint32_t top_submitted;         /* ... running + pending */
};

struct oc_quota_row {
	const char *account;
	const struct oc_assoc *assoc;   /* the account's association; NULL when it only has jobs */
	/* GrpTRES limit and use as the controller counts them (children
	 * included). Without an association: no limit, and the use of the
	 * account's own running jobs (gpu, cpu, node; mem 0). */
	struct oc_tres_use gpu, cpu, mem, node;
	bool has_gpu_limit;
	/* The account's own running/pending jobs (not its sub-accounts'). */
	uint32_t run_gpus, pend_gpus;
	uint32_t run_jobs, pend_jobs;
	uint32_t limited_jobs;          /* pending on an association/QoS limit */
	struct oc_quota_user *users;    /* sorted by name */
	size_t nusers;
	struct oc_quota_qos *qos;       /* in the association's order */
	size_t nqos;
};

/* One line of the quota view (core/columns.h): an account row, or one of
 * its users or QoS under it when it is expanded. */
enum oc_quota_item_kind { OC_QI_ACCOUNT = 0, OC_QI_USER, OC_QI_QOS, OC_QI_JOB };
struct oc_quota_item {
	enum oc_quota_item_kind kind;
	uint32_t row;     /* the account: index in the quota rows */
	uint32_t child;   /* the user or QoS: index in the row's users or qos;
	                     a job pending on a limit: index in the jobs */
	char mark;        /* account rows: '+' collapsed, '-' expanded, ' '
	                     nothing to expand; 0: no mark (script mode) */
};

/* The quota rows of a snapshot, sorted by account name: every account
 * association (a user association's account counts too) and every account
 * with running or pending jobs. The root account is left out unless it
 * has a limit. Linear in jobs + associations. Returns the number of rows
 * and sets *rows to an array freed with oc_quota_rows_free() (NULL when
 * there are none); -1 on ENOMEM (*rows NULL). */
long oc_quota_rows(const struct oc_snapshot *s, struct oc_quota_row **rows);

/* Free rows made by oc_quota_rows() (n as it returned) and clear *rows. */
void oc_quota_rows_free(struct oc_quota_row **rows, long n);

/* used as a percentage of limit for a bar, 0..100: 0 without a limit
 * (OC_NOLIMIT); a limit of 0 is full as soon as anything is used; over
 * the limit is clamped to 100. Rounded down, so 100 means at the limit. */
unsigned oc_quota_pct(uint64_t used, uint64_t limit);

/* How many of width cells to fill for used/limit: rounded down, but at
 * least one when anything is used, and all of them only at (or over) the
 * limit, which wins when width is 1. 0 without a limit. */
unsigned oc_quota_fill(uint64_t used, uint64_t limit, unsigned width);

#endif
