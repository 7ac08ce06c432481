/* jobreason.h: what a pending job's reason (squeue's name, "AssocGrpGRES")
 * means, the same for both backends: the libslurm one maps slurm.h's
 * enumerators to these names (source/slurm_reason.c), the CLI one reads
 * them from squeue --json. The job's OC_JF_* flags and the warning colour
 * come from here. */
#ifndef OC_CORE_JOBREASON_H
#define OC_CORE_JOBREASON_H

#include <stdbool.h>

enum {
	OC_JR_LIMIT = 1u << 0,    /* an association or QOS limit holds it back */
	OC_JR_GRP_GRES = 1u << 1, /* GrpTRES/GrpTRESMins/GrpTRESRunMins on a GRES */
};

/* The OC_JR_* flags of a reason name; 0 for NULL, "", "None", and names
 * that are not limits (Priority, Resources, ...). */
unsigned oc_job_reason_flags(const char *name);
bool oc_job_reason_is_limit(const char *name);
bool oc_job_reason_is_grp_gres(const char *name);

#endif
