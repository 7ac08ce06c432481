/* reason.h: where a node's drain/down reason comes from. */
#ifndef OC_CORE_REASON_H
#define OC_CORE_REASON_H

#include <stddef.h>

enum oc_reason_source {
	OC_RS_HEALTH = 0, /* a health script: "prolog: ...", "epilog: ...", "periodic: ..." */
	OC_RS_MANUAL,     /* a person (set by a user other than SlurmUser) */
	OC_RS_SLURM,      /* Slurm itself: "Not responding", "Kill task failed", ... */
	OC_RS_OTHER,      /* anything else: kept visible, never dropped */
	OC_RS_COUNT,
};

/* Classify a reason. Order: a health-script prefix (the text before the
 * first ':' is prolog, epilog, periodic, probe, startup, healthcheck or nhc,
 * any case) wins; then the texts Slurm sets itself; then a reason set by a
 * user other than slurm_user counts as manual; everything else is other.
 * reason_user and slurm_user may be NULL. A NULL or empty reason is other. */
enum oc_reason_source oc_reason_classify(const char *reason, const char *reason_user,
					 const char *slurm_user);

/* "health check", "manual", "slurm", "other". Static. */
const char *oc_reason_source_name(enum oc_reason_source s);

#endif
