/* fuzz_checklist.c: rehearsal checklists (rehearsal/checklist.c).
 * Property: a checklist or a message naming the file, never both. */
#include "fuzz_util.h"
#include "rehearsal/checklist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[2048];
	const char *path = fuzz_file("fuzz.json", data, size);
	static const struct oc_checklist_var vars[] = {{"cluster", "llm-poc"}, {"node", "gpu-st-b300-1"}};

	struct oc_checklist *cl = oc_checklist_load(path, vars, 2, err, sizeof(err));
	if (cl) {
		FUZZ_ASSERT(cl->nsteps >= 1, "a checklist without steps");
		for (size_t i = 0; i < cl->nsteps; i++)
			FUZZ_ASSERT(oc_checklist_find(cl, cl->steps[i].id) >= 0, "step id not found");
		oc_checklist_free(&cl);
		FUZZ_ASSERT(cl == NULL, "free did not clear");
	} else {
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
	}
	return 0;
}
