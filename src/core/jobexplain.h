/* jobexplain.h: why a job waits, in words, from the live data of a
 * snapshot: the account's GrpTRES use against its limit for AssocGrpGRES,
 * the user's running jobs against the QoS's MaxJobsPerUser, the nodes of
 * the partition that are drained, down or reserved for ReqNodeNotAvail,
 * the jobs ahead for Priority, the free nodes for Resources, and what
 * holds, begin times and dependencies mean. No drawing. */
#ifndef OC_CORE_JOBEXPLAIN_H
#define OC_CORE_JOBEXPLAIN_H

#include <stddef.h>
#include <time.h>

#include "core/model.h"

/* The explanation of job j of snapshot s at now, one or more sentences
 * into out (always NUL-terminated; "" for a job that does not wait).
 * What the snapshot does not hold (associations not loaded) is said, not
 * guessed. Returns out. */
const char *oc_job_explain(const struct oc_snapshot *s, const struct oc_job *j, time_t now, char *out, size_t len);

#endif
