/* probe.h: the node probe engine. Probes a list of nodes in parallel
 * (`parallel` at once), per node one connection that runs every check of
 * the profile in turn, with one deadline per node (`timeout_s`) covering
 * the connection and all checks: a node that does not answer in time is
 * a result ("no answer after 10 s"), never a hang. Results arrive
 * asynchronously: the engine writes a byte to a pipe (oc_probe_fd) each
 * time a node's row changes, as the action worker does, so the screen
 * polls it with the keyboard and never waits. No SSH here: a connection
 * comes through struct oc_probe_runner, which the source layer
 * implements (source/probe_ssh.c); no curses. */
#ifndef OC_ACTIONS_PROBE_H
#define OC_ACTIONS_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "actions/probe_eval.h"
#include "core/profile.h"

/* What one command run on a node printed and how it ended. */
struct oc_probe_output {
	char out[4096];     /* stdout, cut to fit, NUL-terminated */
	char errout[512];   /* stderr, cut to fit */
	int exit_status;    /* 0-255, or OC_PROBE_EXIT_SIGNALED / _TIMED_OUT */
};

/* How the engine reaches a node. Every function may block up to the
 * timeout it is given; they are called from the engine's threads, several
 * at once (one connection per thread). */
struct oc_probe_runner_ops {
	/* Open one connection to the node called name, at addr (its NodeAddr,
	 * or "" when unknown), within timeout_s seconds. Returns a connection,
	 * or NULL with err ("ssh root@10.0.0.5:22: connection refused"). */
	void *(*open)(void *ctx, const char *name, const char *addr, int timeout_s, char *err, size_t errlen);
	/* Run command on the connection with the node's name as "$1", waiting
	 * at most timeout_s seconds. Returns 0 with *out filled (a command
	 * that ran too long has exit_status OC_PROBE_EXIT_TIMED_OUT), or -1
	 * with err when it could not be run at all (connection lost). */
	int (*run)(void *ctx, void *conn, const char *name, const char *command, int timeout_s,
		   struct oc_probe_output *out, char *err, size_t errlen);
	/* Close a connection open returned. */
	void (*close)(void *ctx, void *conn);
	/* Free ctx (may be NULL). Called by oc_probe_runner_free. */
	void (*free_ctx)(void *ctx);
};

struct oc_probe_runner {
	const struct oc_probe_runner_ops *ops;
	void *ctx;
};

/* Free a runner made by the source layer and clear *r (left to the
 * process while an engine thread still runs). */
void oc_probe_runner_free(struct oc_probe_runner **r);

/* Wait up to seconds for every engine thread of every probe to end (a
 * cancelled or timed-out node's thread ends when its command returns).
 * Returns true when none is left. A program that quits while one is left
 * must not run its exit handlers: libssh's and libcrypto's tear down what
 * the thread still uses (main.c ends with _exit then). */
bool oc_probe_threads_wait(double seconds);

/* Where a node is. */
enum oc_probe_node_state {
	OC_PROBE_NODE_WAITING = 0, /* not started: waiting for a free slot */
	OC_PROBE_NODE_RUNNING,     /* connecting or running checks */
	OC_PROBE_NODE_DONE,        /* every check has a verdict */
	OC_PROBE_NODE_UNREACHABLE, /* the connection failed (error says why) */
	OC_PROBE_NODE_NO_ANSWER,   /* the deadline passed: "no answer after N s" */
	OC_PROBE_NODE_CANCELLED,
};

/* One node's row, as the screen shows it. */
struct oc_probe_node_result {
	char name[128];
	enum oc_probe_node_state state;
	char error[256];           /* unreachable / no answer: why */
	double seconds;            /* how long it took, once finished */
	size_t ncheck;
	struct oc_probe_check_result checks[OC_PROBE_MAX_CHECKS];
};

/* One node to probe. */
struct oc_probe_target {
	const char *name;
	const char *addr;  /* NodeAddr; NULL or "" = unknown */
};

struct oc_probe;

/* Start probing n targets with the checks, timeout and parallelism of
 * *cfg (copied) through runner (borrowed: it must outlive the probe and
 * the threads it starts, i.e. the process, or be freed only after
 * oc_probe_free returned true). Returns the running probe, or NULL with
 * err (ENOMEM, no checks, a thread that would not start). Free with
 * oc_probe_free. */
struct oc_probe *oc_probe_start(const struct oc_probe_config *cfg, const struct oc_probe_runner *runner,
				const struct oc_probe_target *targets, size_t n, char *err, size_t errlen);

/* Readable when a row changed; drain it with oc_probe_ack. */
int oc_probe_fd(const struct oc_probe *p);
void oc_probe_ack(struct oc_probe *p);

/* The number of nodes, and how many have finished (any final state). */
size_t oc_probe_count(const struct oc_probe *p);
size_t oc_probe_finished(struct oc_probe *p);

/* How many finished nodes have a problem: a check failed or in error,
 * unreachable, no answer. */
size_t oc_probe_problems(struct oc_probe *p);

/* Whether a node's row shows a problem (as oc_probe_problems counts). */
bool oc_probe_node_bad(const struct oc_probe_node_result *r);

/* A copy of node i's row (in the order of the targets). Returns false
 * when i is out of range. */
bool oc_probe_node(struct oc_probe *p, size_t i, struct oc_probe_node_result *out);

/* The checks being run (the copy the probe made). */
const struct oc_probe_config *oc_probe_config(const struct oc_probe *p);

/* Stop: nodes not finished become CANCELLED at once; running commands
 * end within their timeout and their results are dropped. */
void oc_probe_cancel(struct oc_probe *p);

/* Cancel and free; clears *p. Never waits for a node: threads still in a
 * call hold their own reference and end by themselves. Returns true when
 * no thread was left running (the runner may be freed now). */
bool oc_probe_free(struct oc_probe **p);

/* A one-word name of a node state: "waiting", "running", "done",
 * "unreachable", "no answer", "cancelled". */
const char *oc_probe_state_name(enum oc_probe_node_state s);

#endif
