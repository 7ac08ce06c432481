/* fuzz_keys.c: key names (core/keys.c). Property: a name that parses
 * gives a code whose canonical name parses back to the same code; a name
 * refused has a reason. */
#include <stdlib.h>

#include "core/keys.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	char err[256], name[32];

	int code = oc_key_parse_err(s, err, sizeof(err));
	FUZZ_ASSERT(code == oc_key_parse(s), "parse and parse_err disagree");
	if (code >= 0) {
		oc_key_name(code, name, sizeof(name));
		FUZZ_ASSERT(oc_key_parse(name) == code, "canonical name does not parse back");
	} else {
		FUZZ_ASSERT(err[0] != '\0', "refused without a reason");
	}
	/* Any int has a name, and it fits. */
	if (size >= 4) {
		int any = (int)((unsigned)data[0] | (unsigned)data[1] << 8 | (unsigned)data[2] << 16 |
				(unsigned)data[3] << 24);
		oc_key_name(any, name, sizeof(name));
	}
	free(s);
	return 0;
}
