/* backend.c: what every backend shares (source.h). */
#include "source/source.h"

#include <stddef.h>

void oc_backend_close(struct oc_backend **bp)
{
	if (!bp || !*bp)
		return;
	(*bp)->ops->close(*bp);
	*bp = NULL;
}

unsigned oc_backend_refetch(unsigned need_full, unsigned mask, const struct oc_snapshot *prev)
{
	/* A part not asked for that never came back holds no indexes to go
	 * stale: it stays marked (fetched in full when asked), but is not
	 * fetched now (script mode asks for one view's parts only). */
	unsigned stale = need_full;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((stale & OC_MASK(p)) && !(mask & OC_MASK(p)) && !(prev && prev->status[p].fetched))
			stale &= ~OC_MASK(p);
	return stale;
}
