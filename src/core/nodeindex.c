/* nodeindex.c: node name -> index (nodeindex.h). */
#include "core/nodeindex.h"

#include <string.h>

int oc_node_index_build(struct oc_node_index *ix)
{
	if (ix->built)
		return 0;
	if (oc_strmap_init(&ix->map, ix->nodes ? ix->nodes->n : 0) < 0)
		return -1;
	for (size_t i = 0; ix->nodes && i < ix->nodes->n; i++)
		if (oc_strmap_put(&ix->map, ix->nodes->v[i].name, (uint32_t)i) < 0) {
			oc_strmap_free(&ix->map);
			return -1;
		}
	ix->built = true;
	return 0;
}

uint32_t oc_node_index_get(const struct oc_node_index *ix, const char *name)
{
	return ix->built ? oc_strmap_get(&ix->map, name) : UINT32_MAX;
}

void oc_node_index_free(struct oc_node_index *ix)
{
	if (!ix)
		return;
	if (ix->built)
		oc_strmap_free(&ix->map);
	ix->built = false;
}

int oc_nodes_same_layout(const struct oc_nodes *x, const struct oc_nodes *y)
{
	if (!x || !y || x->n != y->n)
		return 0;
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->v[i].name, y->v[i].name) != 0)
			return 0;
	return 1;
}
