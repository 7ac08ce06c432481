/* local_transport.c: the transport that runs commands on this machine
 * (transport.h) with oc_exec_run: execve of an argv, no shell, stdout and
 * stderr apart. It has no state, so any thread may use it at any time. */
#include <stdio.h>
#include <stdlib.h>

#include "source/exec.h"
#include "source/transport.h"

static int local_run(struct oc_transport *t, const char *const argv[], int timeout_s, struct oc_run_result *r,
		     char *err, size_t errlen)
{
	(void)t;
	return oc_exec_run(argv, timeout_s, r, err, errlen);
}

static const char *local_describe(struct oc_transport *t)
{
	(void)t;
	return "local";
}

static void local_close(struct oc_transport *t)
{
	free(t);
}

static const struct oc_transport_ops local_ops = {
	.name = "local",
	.run = local_run,
	.describe = local_describe,
	.close = local_close,
};

struct oc_transport *oc_local_transport_open(char *err, size_t errlen)
{
	struct oc_transport *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->ops = &local_ops;
	return t;
}
