#include "core/reason.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const health_prefixes[] = {
	"prolog", "epilog", "periodic", "probe", "startup", "healthcheck", "nhc",
};

/* Reasons slurmctld and slurmd set themselves (22.05 to 25.11), matched as
 * case-insensitive prefixes. */
static const char *const slurm_reasons[] = {
	"Not responding",
	"Kill task failed",
	"Low RealMemory",
	"Low CPUs",
	"Low socket*core*thread count",
	"Low socket*core count",
	"Low TmpDisk",
	"Node unexpectedly rebooted",
	"batch job complete failure",
	"Prolog error",
	"Prolog failed",
	"Epilog error",
	"Job credential expired",
	"Duplicate jobid",
	"SlurmdSpoolDir is full",
	"Reboot ASAP",
	"reboot requested",
	"reboot issued",
	"Reboot timed out",
	"ResumeTimeout reached",
	"Node failed to boot",
	"invalid gres",
	"gres/",            /* "gres/gpu count reported lower than configured (7 < 8)" */
	"Node configuration differs",
	"node_features",
	"Scheduler health check failed", /* ParallelCluster's clustermgtd */
	"(Code:",                        /* ParallelCluster: cloud launch errors */
	"Static node maintenance required",
};

enum oc_reason_source oc_reason_classify(const char *reason, const char *reason_user,
					 const char *slurm_user)
{
	if (!reason || !*reason)
		return OC_RS_OTHER;
	const char *p = reason;
	while (isspace((unsigned char)*p))
		p++;
	const char *colon = strchr(p, ':');
	if (colon) {
		size_t len = (size_t)(colon - p);
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		for (size_t i = 0; i < sizeof(health_prefixes) / sizeof(health_prefixes[0]); i++)
			if (strlen(health_prefixes[i]) == len && strncasecmp(p, health_prefixes[i], len) == 0)
				return OC_RS_HEALTH;
	}
	for (size_t i = 0; i < sizeof(slurm_reasons) / sizeof(slurm_reasons[0]); i++)
		if (strncasecmp(p, slurm_reasons[i], strlen(slurm_reasons[i])) == 0)
			return OC_RS_SLURM;
	if (reason_user && *reason_user && !(slurm_user && strcmp(reason_user, slurm_user) == 0))
		return OC_RS_MANUAL;
	return OC_RS_OTHER;
}

const char *oc_reason_source_name(enum oc_reason_source s)
{
	switch (s) {
	case OC_RS_HEALTH: return "health check";
	case OC_RS_MANUAL: return "manual";
	case OC_RS_SLURM: return "slurm";
	default: return "other";
	}
}
