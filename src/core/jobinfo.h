/* jobinfo.h: the rules the job panel's table (struct oc_jobinfo, one job
 * in full) follows on every backend: the job id of the report, the names
 * of steps as sacct prints them, and how a load is published. Pure. */
#ifndef OC_CORE_JOBINFO_H
#define OC_CORE_JOBINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* The job id of an OC_REPORT_JOB request ("123"): 1 .. 0xfffffff0.
 * Returns 0 and *id, or -1 with a message in err. */
int oc_jobinfo_id(const char *spec, uint32_t *id, char *err, size_t errlen);

/* A step's name as sacct prints it after "JOBID.": "batch", "extern",
 * "interactive", "pending", "5", or with a het component "5+1"
 * (het_comp OC_NONE: none). */
void oc_jstep_id_text(uint32_t step_id, uint32_t het_comp, char *buf, size_t len);

/* Publish t (taken over) into next: its generation follows next's table;
 * the status is fine when slurmctld or slurmdbd answered, else it fails
 * with what slurmctld's and slurmdbd's errors say. */
void oc_jobinfo_publish(struct oc_snapshot *next, struct oc_jobinfo *t);

/* The job's own part (parts[] entry whose job id is t->job_id), or NULL. */
const struct oc_jpart *oc_jobinfo_self(const struct oc_jobinfo *t);

#endif
