/* fuzz_onboard.c: onboarding files (actions/onboard.c): load, check
 * (without a cluster) and plan. Property: a refused file gives a message
 * naming it and an empty spec; an accepted one gives a plan whose every
 * step runs sacctmgr. */
#include <stdlib.h>
#include <string.h>

#include "actions/onboard.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_onb_spec spec, empty;
	static char err[8192];
	const char *path = fuzz_file("fuzz.json", data, size);

	int rc = oc_onb_spec_load(path, &spec, err, sizeof(err));
	if (rc < 0) {
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
		oc_onb_spec_init(&empty);
		FUZZ_ASSERT(memcmp(&spec, &empty, sizeof(spec)) == 0, "a refused file left a spec");
		return 0;
	}
	(void)oc_onb_spec_check(&spec, NULL, err, sizeof(err));
	struct oc_onb_plan plan;
	if (oc_onb_plan_build(&spec, NULL, &plan) == 0) {
		for (size_t i = 0; i < plan.nsteps; i++)
			FUZZ_ASSERT(plan.steps[i].argv[0] && strcmp(plan.steps[i].argv[0], "sacctmgr") == 0,
				    "a step that is not sacctmgr");
		oc_onb_plan_free(&plan);
	}
	return 0;
}
