/* fuzz_keymap.c: keymap files (core/keymap.c through core/jsonfile.c, key
 * names of core/keys.c). Property: accepted means bindings sorted by key,
 * unique, every action among the registry's ids (oc_ui); refused means a message naming the
 * file and an empty keymap. */
#include <string.h>

#include "core/keymap.h"
#include "fuzz_util.h"
#include "ui/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_keymap km;
	char err[1024];
	const char *path = fuzz_file("fuzz.json", data, size);
	const char *ids[OC_ACT_COUNT];
	size_t nids = OC_ACT_COUNT;

	oc_action_id_list(ids);

	int rc = oc_keymap_load(path, ids, nids, &km, err, sizeof(err));
	if (rc == 0) {
		FUZZ_ASSERT(km.n <= OC_KEYMAP_MAX, "too many bindings");
		for (size_t i = 0; i < km.n; i++) {
			FUZZ_ASSERT(km.b[i].action >= 0 && (size_t)km.b[i].action < nids, "action out of range");
			FUZZ_ASSERT(i == 0 || km.b[i - 1].key < km.b[i].key, "bindings not sorted or not unique");
			FUZZ_ASSERT(oc_keymap_lookup(&km, km.b[i].key) == km.b[i].action, "lookup disagrees");
		}
		char buf[256];
		for (size_t a = 0; a < nids; a++)
			oc_keymap_keys_for(&km, (int)a, buf, sizeof(buf));
	} else {
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
		FUZZ_ASSERT(km.n == 0, "a refused keymap left bindings");
	}
	return 0;
}
