/* fuzz_profile.c: cluster profiles (core/profile.c). Property: the loader
 * either accepts the file (the name is the file's, the refresh interval in
 * its range) or refuses it with a message naming the file and leaves the
 * defaults. */
#include <string.h>

#include "core/profile.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_profile p, def;
	char err[1024];
	const char *path = fuzz_file("fuzz.json", data, size);

	int rc = oc_profile_load_file(path, &p, err, sizeof(err));
	if (rc == 0) {
		FUZZ_ASSERT(strcmp(p.name, "fuzz") == 0, "accepted profile has another name");
		FUZZ_ASSERT(p.refresh_s >= 0.2 && p.refresh_s <= 3600, "refresh out of range");
	} else {
		FUZZ_ASSERT(rc == -1, "rc is not 0 or -1");
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
		oc_profile_defaults(&def);
		FUZZ_ASSERT(memcmp(&p, &def, sizeof(p)) == 0, "a refused profile left values behind");
	}
	return 0;
}
