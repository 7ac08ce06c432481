/* fuzz_sacctmgr.c: the parsers of `sacctmgr -P -n show ...` output and of
 * a step's outcome (source/sacctmgr.c). The first byte picks the parser
 * (and the exit status for a step), the rest is sacctmgr's output.
 * Properties: 0 or -1 with a message; the state holds what fits in it;
 * a step's outcome is 0, 1 (only for an add that exited 1) or -1. */
#include <stdlib.h>
#include <string.h>

#include "actions/onboard.h"
#include "fuzz_util.h"
#include "source/exec.h"
#include "source/sacctmgr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_onb_state st;
	char err[512];
	static char out[64 * 1024];

	if (size == 0)
		return 0;
	char *s = fuzz_str(data + 1, size - 1);
	unsigned pick = data[0];
	if (pick % 5 < 4) {
		oc_onb_state_init(&st);
		int rc = oc_sacctmgr_parse((enum oc_sacctmgr_show)(pick % 5), "team-a", s, &st, err, sizeof(err));
		FUZZ_ASSERT(rc == 0 || rc == -1, "rc is not 0 or -1");
		if (rc < 0)
			FUZZ_ASSERT(err[0] != '\0', "refused without a message");
		FUZZ_ASSERT(st.nusers <= OC_ONB_MAX_USERS && st.nqos <= OC_ONB_MAX_QOS, "counts");
		FUZZ_ASSERT(memchr(st.cluster, '\0', sizeof(st.cluster)) != NULL, "cluster not terminated");
	} else {
		static const int statuses[] = {0, 1, 2, OC_EXEC_TIMED_OUT, -1};
		int status = statuses[(pick / 5) % 5];
		bool add = (pick / 25) % 2;
		int rc = oc_sacctmgr_step_outcome(s, status, add, 60, "killed by signal 9", out, sizeof(out));
		FUZZ_ASSERT(rc == 0 || rc == -1 || (rc == 1 && add && status == 1), "outcome");
		FUZZ_ASSERT(memchr(out, '\0', sizeof(out)) != NULL, "out not terminated");
		if (rc < 0)
			FUZZ_ASSERT(out[0] != '\0', "a failure without a message");
	}
	free(s);
	return 0;
}
