/* transport.c: what every transport shares. */
#include "source/transport.h"

#include <stdlib.h>
#include <string.h>

void oc_run_result_clear(struct oc_run_result *r)
{
	if (!r)
		return;
	free(r->out);
	free(r->errout);
	memset(r, 0, sizeof(*r));
}

void oc_transport_close(struct oc_transport **t)
{
	if (!t || !*t)
		return;
	(*t)->ops->close(*t);
	*t = NULL;
}
