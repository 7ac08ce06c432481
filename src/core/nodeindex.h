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

/* Free the map (not the table) and mark the index unbuilt. */
void oc_node_index_free(struct oc_node_index *ix);

/* Whether two node tables list the same names in the same order, i.e.
 * whether node indexes built against one hold for the other (0 when
 * either is NULL). */
int oc_nodes_same_layout(const struct oc_nodes *x, const struct oc_nodes *y);

#endif
