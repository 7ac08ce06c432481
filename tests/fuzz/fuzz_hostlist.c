/* fuzz_hostlist.c: hostlist input of the action forms, through the
 * libslurm writer (source/slurm_write.c: its own syntax check and count,
 * then libslurm's hostlist functions). Properties: refused with a
 * message, or expanded into at most the limit of plain names, sorted and
 * unique, that compress into an expression which expands back to the same
 * names. And one rule: core's oc_hostlist_expand_nodes (the CLI writer's,
 * no libslurm) accepts and refuses the same inputs and gives the same
 * names. */
#include <stdlib.h>
#include <string.h>

#include "actions/writer.h"
#include "core/hostlist.h"
#include "fuzz_util.h"
#include "source/slurm_write.h"

/* Most names one input may expand to here (the console's own limit is
 * 65536; a smaller one keeps each run fast and still crosses it). */
#define FUZZ_MAX_NODES 4096

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct oc_writer w;
	char err[512];

	if (!w.ops && oc_slurm_writer_init(&w, err, sizeof(err)) < 0)
		abort();
	char *s = fuzz_str(data, size);
	char **names = NULL, **again = NULL;
	size_t n = 0, n2 = 0;
	err[0] = '\0';
	int rc = w.ops->hostlist_expand(w.ctx, s, FUZZ_MAX_NODES, &names, &n, err, sizeof(err));
	char **core = NULL;
	size_t nc = 0;
	char cerr[512] = "";
	int crc = oc_hostlist_expand_nodes(s, FUZZ_MAX_NODES, &core, &nc, cerr, sizeof(cerr));
	FUZZ_ASSERT((rc < 0) == (crc < 0), "the libslurm writer and core disagree on accepting it");
	if (rc < 0) {
		FUZZ_ASSERT(err[0] != '\0', "refused without a message");
		FUZZ_ASSERT(names == NULL && n == 0, "refused but names returned");
		free(s);
		return 0;
	}
	FUZZ_ASSERT(nc == n, "the libslurm writer and core give another number of names");
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(strcmp(names[i], core[i]) == 0, "the libslurm writer and core give other names");
	oc_hostlist_names_free(&core, nc);
	FUZZ_ASSERT(n >= 1 && n <= FUZZ_MAX_NODES, "name count");
	char *expr = w.ops->hostlist_compress(w.ctx, (const char *const *)names, n);
	FUZZ_ASSERT(expr != NULL, "compress of expanded names failed");
	rc = w.ops->hostlist_expand(w.ctx, expr, FUZZ_MAX_NODES, &again, &n2, err, sizeof(err));
	FUZZ_ASSERT(rc == 0, "a compressed list does not expand");
	FUZZ_ASSERT(n2 == n, "round trip changed the count");
	qsort(names, n, sizeof(*names), cmp_names);
	qsort(again, n2, sizeof(*again), cmp_names);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(i == 0 || strcmp(names[i - 1], names[i]) != 0, "a name twice");
		FUZZ_ASSERT(strcmp(names[i], again[i]) == 0, "round trip changed a name");
	}
	free(expr);
	oc_writer_names_free(&names, n);
	oc_writer_names_free(&again, n2);
	free(s);
	return 0;
}
