/* slurm_acct.h: the accounting part of the libslurm backend: associations
 * and QoS with their limits and current use, read from slurmctld's
 * association manager (slurm_load_assoc_mgr_info), and whether slurmdbd
 * answers. Called from the collector thread only. */
#ifndef OC_SOURCE_SLURM_ACCT_H
#define OC_SOURCE_SLURM_ACCT_H

#include <stdbool.h>

#include "core/model.h"

struct oc_slurm_acct;

/* New accounting state (TRES id→name cache, slurmdbd check timing).
 * NULL on ENOMEM. Free with oc_slurm_acct_free(). */
struct oc_slurm_acct *oc_slurm_acct_new(void);
void oc_slurm_acct_free(struct oc_slurm_acct **a);

/* Fill next->accounting and next->status[OC_PART_ACCT]. enabled: whether
 * AccountingStorageType is not accounting_storage/none (when false, an
 * empty table with enabled=false is published and no request is made).
 * On failure the previous table stays (next already holds a reference to
 * it) and the status says why. Returns 0, or -1 when the request failed. */
int oc_slurm_acct_refresh(struct oc_slurm_acct *a, bool enabled, const struct oc_snapshot *prev,
			  struct oc_snapshot *next);

#endif
