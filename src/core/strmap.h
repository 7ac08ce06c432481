/* strmap.h: an open-addressing hash from borrowed strings to indexes.
 * Used to resolve node names to table indexes without quadratic scans. */
#ifndef OC_CORE_STRMAP_H
#define OC_CORE_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct oc_strmap {
	const char **keys;   /* borrowed: must outlive the map */
	uint32_t *vals;
	size_t cap, n;
};

/* Prepare a map for about n keys. Returns 0, or -1 on ENOMEM. */
int oc_strmap_init(struct oc_strmap *m, size_t n);
/* Insert or replace key -> val. Returns 0, or -1 on ENOMEM. */
int oc_strmap_put(struct oc_strmap *m, const char *key, uint32_t val);
/* The value for key, or UINT32_MAX when absent. */
uint32_t oc_strmap_get(const struct oc_strmap *m, const char *key);
/* Free the map's arrays (not the keys) and zero it. */
void oc_strmap_free(struct oc_strmap *m);

#endif
