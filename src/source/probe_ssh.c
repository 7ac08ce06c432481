/* probe_ssh.c: node probes over SSH. Per node one connection (one libssh
 * session); per check one command on it, as the argv
 *   sh -c COMMAND opsconsole-probe NODE
 * (the check's command with the node name as "$1"), which the transport
 * quotes into one remote command line with oc_shquote_argv. One command
 * per check rather than one script for all: each check gets its own exit
 * status and its own stdout, so no framing of outputs is needed that a
 * check's output could break, and a check that hangs is told apart from
 * the ones that answered; the cost is one channel per check on a session
 * already open. */
#include "source/probe_ssh.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/exec.h"
#include "source/transport.h"

struct probe_ssh_ctx {
	struct oc_ssh_target ssh;
	bool use_node_name;
};

static void *probe_ssh_open(void *ctx, const char *name, const char *addr, int timeout_s, char *err, size_t errlen)
{
	const struct probe_ssh_ctx *c = ctx;
	struct oc_ssh_target t = c->ssh;
	const char *host = c->use_node_name || !addr || !addr[0] ? name : addr;
	if (strlen(host) >= sizeof(t.host)) {
		snprintf(err, errlen, "%.100s: address too long", name);
		return NULL;
	}
	snprintf(t.host, sizeof(t.host), "%s", host);
	/* The connection counts against the node's deadline too. */
	if (t.connect_timeout_s <= 0 || t.connect_timeout_s > timeout_s)
		t.connect_timeout_s = timeout_s;
	return oc_ssh_transport_open(&t, err, errlen);
}

/* Copy what the command printed into a fixed buffer, cut to fit. */
static void probe_ssh_copy(char *dst, size_t len, const char *src, size_t n)
{
	if (!src)
		n = 0;
	if (n > len - 1)
		n = len - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

static int probe_ssh_run(void *ctx, void *conn, const char *name, const char *command, int timeout_s,
			 struct oc_probe_output *out, char *err, size_t errlen)
{
	(void)ctx;
	struct oc_transport *t = conn;
	const char *const argv[] = {"sh", "-c", command, "opsconsole-probe", name, NULL};
	struct oc_run_result r;
	memset(&r, 0, sizeof(r));
	int rc = t->ops->run(t, argv, timeout_s, &r, err, errlen);
	if (rc == 0) {
		probe_ssh_copy(out->out, sizeof(out->out), r.out, r.out_len);
		probe_ssh_copy(out->errout, sizeof(out->errout), r.errout, r.err_len);
		if (r.exit_status == OC_EXEC_TIMED_OUT)
			out->exit_status = OC_PROBE_EXIT_TIMED_OUT;
		else if (r.exit_status == OC_EXEC_SIGNALED)
			out->exit_status = OC_PROBE_EXIT_SIGNALED;
		else
			out->exit_status = r.exit_status;
	}
	oc_run_result_clear(&r);
	return rc;
}

static void probe_ssh_close(void *ctx, void *conn)
{
	(void)ctx;
	struct oc_transport *t = conn;
	oc_transport_close(&t);
}

static const struct oc_probe_runner_ops probe_ssh_ops = {
	.open = probe_ssh_open,
	.run = probe_ssh_run,
	.close = probe_ssh_close,
	.free_ctx = free,
};

struct oc_probe_runner *oc_probe_ssh_runner_new(const struct oc_probe_config *pc, char *err, size_t errlen)
{
	struct oc_probe_runner *r = calloc(1, sizeof(*r));
	struct probe_ssh_ctx *c = calloc(1, sizeof(*c));
	if (!r || !c) {
		free(r);
		free(c);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->ssh = pc->ssh;
	c->use_node_name = pc->use_node_name;
	r->ops = &probe_ssh_ops;
	r->ctx = c;
	return r;
}
