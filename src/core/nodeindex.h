/* nodeindex.h: node name -> index in a node table, for resolving the node
 * lists of partitions, jobs and reservations (both backends). Built on
 * first use, so a refresh that resolves nothing builds nothing. */
#ifndef OC_CORE_NODEINDEX_H
#define OC_CORE_NODEINDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "core/model.h"
#include "core/strmap.h"

/* Initialise with {.nodes = table} (borrowed: it must outlive the index);
 * free with oc_node_index_free. */
struct oc_node_index {
	const struct oc_nodes *nodes;
	struct oc_strmap map;
	bool built;
};

/* Build the map if not built yet. Returns 0, -1 on ENOMEM. */
int oc_node_index_build(struct oc_node_index *ix);

/* The index of name (after oc_node_index_build), UINT32_MAX when it is not
 * in the table. */
uint32_t oc_node_index_get(const struct oc_node_index *ix, const char *name);

/* How a backend expands a node list: walk parses expr once, calls
 * start(ctx, number of names) (<= 0 names when malformed or empty), and
 * when start returns 0 calls fn for each name in order; a non-zero return
 * of start or fn ends the walk and is returned (-1 also when expr cannot
 * be parsed). The CLI backend passes core's own expander, the libslurm
 * backend libslurm's. */
struct oc_hostlist_ops {
	int (*walk)(const char *expr, int (*start)(void *ctx, long count), int (*fn)(void *ctx, const char *name),
		    void *ctx);
};

/* core/hostlist.c's expander as oc_hostlist_ops. */
extern const struct oc_hostlist_ops oc_core_hostlist_ops;

/* Resolve the node list expr against ix into *idx (in arena a, in list
 * order) and *count, with ops. Unknown names are skipped, and so is a
 * malformed list or one far longer than the node table (a broken recorded
 * snapshot, "n[1-99999999]": nothing is walked or allocated for it).
 * ix NULL or expr NULL/"": nothing. Returns 0, -1 on ENOMEM. */
int oc_node_index_resolve(struct oc_node_index *ix, const struct oc_hostlist_ops *ops, struct oc_arena *a,
			  const char *expr, uint32_t **idx, uint32_t *count);

/* Free the map (not the table) and mark the index unbuilt. */
void oc_node_index_free(struct oc_node_index *ix);

/* Whether two node tables list the same names in the same order, i.e.
 * whether node indexes built against one hold for the other (0 when
 * either is NULL). */
int oc_nodes_same_layout(const struct oc_nodes *x, const struct oc_nodes *y);

#endif
