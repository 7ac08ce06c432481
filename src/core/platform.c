#include "core/platform.h"

#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"

int oc_platform_parse(const char *text, enum oc_platform *out)
{
	if (!text || !*text || strcmp(text, "auto") == 0)
		*out = OC_PLATFORM_UNKNOWN;
	else if (strcmp(text, "parallelcluster") == 0)
		*out = OC_PLATFORM_PCLUSTER;
	else if (strcmp(text, "pcs") == 0)
		*out = OC_PLATFORM_PCS;
	else if (strcmp(text, "onprem") == 0)
		*out = OC_PLATFORM_ONPREM;
	else
		return -1;
	return 0;
}

const char *oc_platform_name(enum oc_platform p)
{
	switch (p) {
	case OC_PLATFORM_PCLUSTER: return "ParallelCluster";
	case OC_PLATFORM_PCS: return "AWS PCS";
	case OC_PLATFORM_ONPREM: return "on-prem";
	default: return "unknown";
	}
}

/* The first of keys whose value holds needle, NULL when none. */
static const char *config_with(const struct oc_config *cfg, const char *const *keys, size_t n, const char *needle,
			       const char **value)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = oc_config_get(cfg, keys[i]);
		if (v && strstr(v, needle)) {
			*value = v;
			return keys[i];
		}
	}
	return NULL;
}

enum oc_platform oc_platform_detect(enum oc_platform setting, const struct oc_config *cfg, char *why, size_t len)
{
	if (setting != OC_PLATFORM_UNKNOWN) {
		snprintf(why, len, "the profile's \"platform\"");
		return setting;
	}
	static const char *const pc_keys[] = {"ResumeProgram", "SuspendProgram", "ResumeFailProgram"};
	static const char *const pcs_keys[] = {"PluginDir", "ResumeProgram", "SuspendProgram", "SlurmctldPidFile"};
	const char *v = NULL, *k;
	if ((k = config_with(cfg, pc_keys, 3, "/opt/parallelcluster/", &v))) {
		snprintf(why, len, "%s %.200s", k, v);
		return OC_PLATFORM_PCLUSTER;
	}
	if ((k = config_with(cfg, pcs_keys, 4, "/opt/aws/pcs/", &v))) {
		snprintf(why, len, "%s %.200s", k, v);
		return OC_PLATFORM_PCS;
	}
	snprintf(why, len, "not detected (set \"platform\" in the profile)");
	return OC_PLATFORM_UNKNOWN;
}

bool oc_platform_static_node(const char *name)
{
	return name && strstr(name, "-st-") != NULL;
}

bool oc_platform_dynamic_node(const char *name)
{
	return name && strstr(name, "-dy-") != NULL;
}

bool oc_platform_owns_resv(enum oc_platform p, const char *name)
{
	return p == OC_PLATFORM_PCLUSTER && name && strncmp(name, "pcluster-", 9) == 0;
}

void oc_platform_node_note(enum oc_platform p, enum oc_platform_act act, char *const *names, size_t n, char *out,
			   size_t len)
{
	if (p != OC_PLATFORM_PCLUSTER)
		return;
	size_t st = 0, dy = 0;
	for (size_t i = 0; i < n; i++) {
		st += oc_platform_static_node(names[i]);
		dy += oc_platform_dynamic_node(names[i]);
	}
	char which[64];
	if (n == 1)
		snprintf(which, sizeof(which), "it is static");
	else
		snprintf(which, sizeof(which), "%zu of them %s static", st, oc_plural(st, "is", "are"));
	if (st && act == OC_PACT_DRAIN)
		oc_appendf(out, len,
			   "\nParallelCluster: clustermgtd replaces a static node that is DRAINED or DOWN with a new\n"
			   "instance (%s). To keep one for investigation, create a\n"
			   "maintenance reservation on it first (m), then drain it.\n",
			   which);
	if (st && act == OC_PACT_REBOOT)
		oc_appendf(out, len,
			   "\nParallelCluster: a static node that does not come back from the reboot (DOWN) is\n"
			   "replaced by clustermgtd with a new instance (%s).\n",
			   which);
	if (dy)
		oc_appendf(out, len,
			   "\nParallelCluster: dynamic nodes (%zu here) power down once idle (SuspendTime) and\n"
			   "come back as new instances for the next job.\n",
			   dy);
}
