/* fuzz_viewcfg.c: view layout files (core/viewcfg.c through
 * core/jsonfile.c). Property: accepted means 1.. columns, each a known
 * one, the sort column known or -1; refused means a message naming the
 * file and no columns. */
#include <string.h>

#include "core/viewcfg.h"
#include "fuzz_util.h"

static const char *const cols[] = {
	"node", "state", "cpus", "gpus", "mem", "partitions", "reservation", "by", "since",
	"ago", "reason",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_viewcfg vc;
	char err[1024];
	/* The file must be VIEW.json: the view is "fuzz". */
	const char *path = fuzz_file("fuzz.json", data, size);
	size_t n = sizeof(cols) / sizeof(cols[0]);

	int rc = oc_viewcfg_load(path, "fuzz", cols, n, &vc, err, sizeof(err));
	if (rc == 0) {
		FUZZ_ASSERT(vc.ncols >= 1 && vc.ncols <= OC_VIEWCFG_MAX_COLS, "column count");
		for (size_t i = 0; i < vc.ncols; i++) {
			FUZZ_ASSERT(vc.cols[i].col >= 0 && (size_t)vc.cols[i].col < n, "unknown column");
			FUZZ_ASSERT(vc.cols[i].width >= 0 && vc.cols[i].width <= OC_VIEWCFG_MAX_WIDTH, "width");
		}
		FUZZ_ASSERT(vc.sort >= -1 && vc.sort < (int)n, "sort column");
	} else {
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
		FUZZ_ASSERT(vc.ncols == 0, "a refused layout left columns");
	}
	return 0;
}
