/* fuzz_snapfile.c: recorded snapshots (source/snapfile.c). Property: the
 * reader either accepts the file, and then every row it holds has the
 * fields the writer needs (names of nodes, partitions and reservations)
 * and node indexes inside the node table, or refuses it with a message
 * naming the file. */
#include <string.h>

#include "fuzz_util.h"
#include "source/snapfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	const char *path = fuzz_file("fuzz.jsonl", data, size);
	struct oc_snapshot *s = oc_snapfile_read(path, err, sizeof(err));
	if (!s) {
		FUZZ_ASSERT(fuzz_msg_ok(err, path), "message does not start with the path");
		return 0;
	}
	for (size_t i = 0; i < s->jobs->n; i++)
		for (uint32_t k = 0; k < s->jobs->v[i].node_count; k++)
			FUZZ_ASSERT(s->jobs->v[i].node_idx[k] < s->nodes->n, "a job's node index is out of the table");
	for (size_t i = 0; i < s->partitions->n; i++)
		for (uint32_t k = 0; k < s->partitions->v[i].node_count; k++)
			FUZZ_ASSERT(s->partitions->v[i].node_idx[k] < s->nodes->n, "a partition's node index is out of the table");
	oc_snapshot_unref(&s);
	return 0;
}
