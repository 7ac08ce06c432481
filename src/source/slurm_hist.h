/* slurm_hist.h: the history part of the libslurm backend: the jobs that
 * ended in a window, from slurmdbd (slurmdb_jobs_get, what `sacct -a -X`
 * reads). Called from the collector thread, or from script mode.
 * Internal: include only from src/source/. */
#ifndef OC_SOURCE_SLURM_HIST_H
#define OC_SOURCE_SLURM_HIST_H

#include <stdbool.h>

#include "core/model.h"

/* Fill next->history and next->hist_status for [since, until] (time specs,
 * core/timespec.h; until "" = now) on cluster. enabled: accounting is
 * configured (when not, an empty table with enabled=false). On failure
 * next keeps the table it has and the status says why. Returns 0 or -1. */
int oc_slurm_history_load(bool enabled, const char *cluster, const char *since, const char *until,
			  struct oc_snapshot *next);

/* The same for the node events that overlap [since, until]
 * (slurmdb_events_get, what `sacctmgr show event` reads) into
 * next->events and next->ev_status. */
int oc_slurm_events_load(bool enabled, const char *cluster, const char *since, const char *until,
			 struct oc_snapshot *next);

/* slurmctld's statistics (slurm_get_statistics, what sdiag reads) into
 * next->sched and next->sched_status. */
int oc_slurm_sched_load(struct oc_snapshot *next);

/* slurmdbd's record of job t->job_id (what `sacct -j ID` reads, its steps
 * included) into t: submit_line and steps, db true; or db_err. enabled:
 * accounting is configured. */
void oc_slurm_jobinfo_db(bool enabled, const char *cluster, struct oc_jobinfo *t);

#endif
