/* slurm_jobinfo.h: the job panel's table from libslurm (slurm_jobinfo.c).
 * Internal: include only from src/source/. */
#ifndef OC_SOURCE_SLURM_JOBINFO_H
#define OC_SOURCE_SLURM_JOBINFO_H

#include <stdbool.h>

#include "core/model.h"

/* One job in full (spec: its id in decimal) into next->jobinfo and
 * next->jobinfo_status. accounting: slurmdbd is configured. Returns 0,
 * or -1 when neither slurmctld nor slurmdbd answered. */
int oc_slurm_jobinfo_load(bool accounting, const char *cluster, const char *spec, struct oc_snapshot *next);

#endif
