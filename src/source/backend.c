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
