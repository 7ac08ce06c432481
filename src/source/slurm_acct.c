/* slurm_acct.c: placeholder until the association manager is read. */
#include "source/slurm_acct.h"

#include <stdlib.h>
#include <string.h>

struct oc_slurm_acct {
	int unused;
};

struct oc_slurm_acct *oc_slurm_acct_new(void)
{
	return calloc(1, sizeof(struct oc_slurm_acct));
}

void oc_slurm_acct_free(struct oc_slurm_acct **a)
{
	if (a) {
		free(*a);
		*a = NULL;
	}
}

int oc_slurm_acct_refresh(struct oc_slurm_acct *a, bool enabled, const struct oc_snapshot *prev,
			  struct oc_snapshot *next)
{
	(void)a;
	(void)prev;
	(void)enabled;
	next->status[OC_PART_ACCT].fetched = time(NULL);
	return 0;
}
