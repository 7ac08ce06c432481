/* transport.h: how the CLI backend, the CLI writer and the node probes run a
 * command: locally (execve, no shell) or on another host over one libssh
 * session. A command is always an argv; the SSH transport turns it into one
 * remote command line with oc_shquote_argv() (core/shquote.h), the only
 * function that builds command strings.
 *
 * Every transport is safe to call from more than one thread (the collector
 * and the action worker share one): calls may be serialized inside. */
#ifndef OC_SOURCE_TRANSPORT_H
#define OC_SOURCE_TRANSPORT_H

#include <stddef.h>

#include "core/profile.h"

/* What one command printed and how it ended. */
struct oc_run_result {
	char *out;        /* stdout, malloc'd, NUL-terminated (len bytes before it) */
	size_t out_len;
	char *errout;     /* stderr, malloc'd, NUL-terminated */
	size_t err_len;
	int exit_status;  /* 0-255, or OC_EXEC_SIGNALED / OC_EXEC_TIMED_OUT (exec.h) */
};

/* Free what a run left in *r (the strings) and zero it. */
void oc_run_result_clear(struct oc_run_result *r);

struct oc_transport;

struct oc_transport_ops {
	const char *name; /* "local", "ssh" */
	/* Run argv (NULL-terminated) and wait at most timeout_s seconds
	 * (<= 0: no limit). Returns 0 when the command ran, with *r filled
	 * (the caller clears it with oc_run_result_clear, also after -1);
	 * a command that did not exit by itself has exit_status
	 * OC_EXEC_TIMED_OUT or OC_EXEC_SIGNALED and err says why. Returns -1
	 * when it could not be run at all, with err ("ssh head:22: connection
	 * lost", "sinfo: not found in PATH"). A lost SSH connection is
	 * reconnected by a later call, with backoff. */
	int (*run)(struct oc_transport *t, const char *const argv[], int timeout_s,
		   struct oc_run_result *r, char *err, size_t errlen);
	/* The data agent (docs/ssh.md): argv started once and kept running
	 * on a channel of its own; each call writes req (whole lines) to its
	 * stdin and reads its stdout up to a line equal to end, waiting at
	 * most timeout_s. Returns 0 with r->out the answer and exit_status
	 * 0; or, when the command ended instead (not installed: 127) or did
	 * not answer in time (OC_EXEC_TIMED_OUT), 0 with that exit status,
	 * what it printed and err, the command stopped (the next call starts
	 * it again); -1 when it could not be asked (err: the connection is
	 * lost). Another argv stops the one running first; argv NULL only
	 * stops it (0). NULL: this transport runs no agent. */
	int (*ask)(struct oc_transport *t, const char *const argv[], const char *req, const char *end,
		   int timeout_s, struct oc_run_result *r, char *err, size_t errlen);
	/* A one-line description for the header and messages:
	 * "local", "ssh root@head:22". Static or owned by t. */
	const char *(*describe)(struct oc_transport *t);
	/* Free the transport (closes the session). */
	void (*close)(struct oc_transport *t);
};

struct oc_transport {
	const struct oc_transport_ops *ops;
};

/* The local transport: oc_exec-like, stdout and stderr kept apart, output
 * of any size. Returns NULL with err on ENOMEM. */
struct oc_transport *oc_local_transport_open(char *err, size_t errlen);

/* An SSH transport to t->host: connects, checks the host key against
 * known_hosts (unknown or changed: refused with a clear message, unless
 * accept_new_host_key, which adds an unknown key; a changed key is always
 * refused) and authenticates with t->identity, else the agent, else the
 * default keys (no passwords). Returns NULL with err when any of this
 * fails. */
struct oc_transport *oc_ssh_transport_open(const struct oc_ssh_target *t, char *err, size_t errlen);

/* Close any transport and clear *t. */
void oc_transport_close(struct oc_transport **t);

#endif
