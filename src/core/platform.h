/* platform.h: what the cluster runs on (AWS ParallelCluster, AWS PCS, an
 * on-prem build), from the profile's "platform" or the controller's
 * configuration, and what that platform does next after an action, said
 * in the confirmations. Pure. */
#ifndef OC_CORE_PLATFORM_H
#define OC_CORE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

enum oc_platform { OC_PLATFORM_UNKNOWN = 0, OC_PLATFORM_PCLUSTER, OC_PLATFORM_PCS, OC_PLATFORM_ONPREM };

/* The profile's "platform" value: "auto" (or "": detect), "parallelcluster",
 * "pcs", "onprem". Returns 0 with *out (UNKNOWN for auto), -1 otherwise. */
int oc_platform_parse(const char *text, enum oc_platform *out);

/* The platform: the profile's when it names one (setting), else from cfg:
 * ParallelCluster's ResumeProgram/SuspendProgram live under
 * /opt/parallelcluster; a PCS cluster's Slurm under /opt/aws/pcs/scheduler
 * (PluginDir, the programs); else UNKNOWN (an on-prem build is only known
 * from the profile). why gets how it was told ("profile", "ResumeProgram
 * /opt/parallelcluster/..."). */
enum oc_platform oc_platform_detect(enum oc_platform setting, const struct oc_config *cfg, char *why, size_t len);

/* "ParallelCluster", "AWS PCS", "on-prem", "unknown". Static. */
const char *oc_platform_name(enum oc_platform p);

/* ParallelCluster's node names: QUEUE-st-TYPE-N (static: clustermgtd
 * replaces one that is DOWN or DRAINED) and QUEUE-dy-TYPE-N (dynamic:
 * powered up for jobs, down when idle). */
bool oc_platform_static_node(const char *name);
bool oc_platform_dynamic_node(const char *name);

/* Whether a reservation is the platform's own: ParallelCluster names the
 * reservations of its Capacity Blocks "pcluster-..." and ends them with
 * the block. */
bool oc_platform_owns_resv(enum oc_platform p, const char *name);

/* The node actions whose next step a platform takes over. */
enum oc_platform_act { OC_PACT_DRAIN = 0, OC_PACT_REBOOT };

/* What the platform does next after act on these nodes, as lines for a
 * confirmation, appended to out (nothing when it does nothing more). */
void oc_platform_node_note(enum oc_platform p, enum oc_platform_act act, char *const *names, size_t n, char *out,
			   size_t len);

#endif
