/* slurm_reason.h: names for Slurm's enum job_state_reason (job_info_t
 * state_reason), spelled as squeue prints them in its REASON column.
 *
 * libslurm exports a function for this but slurm.h does not declare it, so
 * the table is ours (slurm_reason.c). It is built from the enum constants of
 * whichever slurm.h the build finds, so the numbers always match the libslurm
 * we link; reasons that exist only in some Slurm releases are compiled in
 * only for those (checked against 22.05 .. 25.11).
 *
 * squeue shows job->state_desc instead of the reason name whenever
 * state_desc is set (for example "ReqNodeNotAvail, UnavailableNodes:..."),
 * so a caller that wants squeue's exact text prefers state_desc and falls
 * back to oc_slurm_reason_name(job->state_reason).
 *
 * All functions are pure lookups: thread-safe, no allocation. */
#ifndef OC_SOURCE_SLURM_REASON_H
#define OC_SOURCE_SLURM_REASON_H

/* The squeue spelling of a reason ("None", "Priority", "Resources",
 * "AssocGrpGRES", "QOSMaxSubmitJobPerUserLimit", "JobHeldAdmin", ...).
 * Always a static string, never NULL. A value this build's slurm.h does not
 * name (unused or retired slots, or a newer controller) gives the fixed
 * string "Unknown"; squeue itself prints the number (up to 23.11) or
 * "InvalidReason" (24.05 on) there. */
const char *oc_slurm_reason_name(unsigned reason);

/* Whether a reason is a limit is one rule for both backends, by name:
 * oc_job_reason_is_limit (core/jobreason.h). */

#endif
