/* fuzz_theme.c: theme files (core/theme.c through core/jsonfile.c), with
 * the screen's roles (oc_ui).
 * Property: accepted means every colour in -1..15; refused means a
 * message naming the file and a plain theme. */
#include <stdlib.h>
#include <string.h>

#include "core/theme.h"
#include "fuzz_util.h"
#include "ui/draw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_theme_spec th;
	char err[1024];
	const char *path = fuzz_file("fuzz.json", data, size);
	size_t n = OC_ROLE_COUNT;

	int rc = oc_theme_load(path, oc_role_names, n, &th, err, sizeof(err));
	if (rc != 0)
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(th.role[i].fg >= -1 && th.role[i].fg <= 15, "fg out of range");
		FUZZ_ASSERT(th.role[i].bg >= -1 && th.role[i].bg <= 15, "bg out of range");
		if (rc != 0)
			FUZZ_ASSERT(th.role[i].fg == -1 && th.role[i].bg == -1 && th.role[i].attrs == 0,
				    "a refused theme left styles");
	}
	/* The colour and attribute names themselves. */
	char *s = fuzz_str(data, size < 64 ? size : 64);
	int c = oc_theme_color_parse(s);
	if (c != -2)
		FUZZ_ASSERT(c >= -1 && c <= 15 && oc_theme_color_parse(oc_theme_color_name(c)) == c, "colour name does not parse back");
	(void)oc_theme_attr_parse(s);
	free(s);
	return 0;
}
