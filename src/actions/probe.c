/* probe.c: the node probe engine. A coordinator thread starts one thread
 * per node, at most `parallel` at a time, and keeps each node's deadline:
 * when it passes, the node's row says "no answer after N s" at once, and
 * what its thread brings back late is dropped. A node's slot goes to the
 * next node only when its thread has closed its connection (its calls are
 * bounded by the time left, so that is soon after the deadline): at most
 * `parallel` sessions are open at any moment, as the nodes see it. Every
 * thread holds a reference on the probe, so freeing it never waits. */
#include "actions/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct probe_node {
	struct oc_probe_node_result r;
	char addr[256];
	double started, deadline; /* monotonic seconds */
};

struct oc_probe {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	int refs;                 /* the owner + one per live thread */
	bool cancelled;
	struct oc_probe_config cfg;
	struct oc_probe_runner runner;
	size_t n, next, active, finished;
	struct probe_node *nodes;
	int pipe_rd, pipe_wr;
};

/* Engine threads alive in this process (any probe): the runner they use
 * must stay until they end, and the process must not run its libraries'
 * exit handlers under them (oc_probe_threads_wait). */
static pthread_mutex_t probe_live_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t probe_live_cv = PTHREAD_COND_INITIALIZER;
static int probe_live_threads;

static void probe_live_add(int d)
{
	pthread_mutex_lock(&probe_live_lock);
	probe_live_threads += d;
	if (probe_live_threads == 0)
		pthread_cond_broadcast(&probe_live_cv);
	pthread_mutex_unlock(&probe_live_lock);
}

struct probe_job {
	struct oc_probe *p;
	size_t i;
};

static double probe_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool probe_final(enum oc_probe_node_state s)
{
	return s != OC_PROBE_NODE_WAITING && s != OC_PROBE_NODE_RUNNING;
}

/* Tell the screen a row changed (never blocks: a full pipe already says so). */
static void probe_wake(struct oc_probe *p)
{
	char b = 1;
	ssize_t w = write(p->pipe_wr, &b, 1);
	(void)w;
}

static void probe_destroy(struct oc_probe *p)
{
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cv);
	close(p->pipe_rd);
	close(p->pipe_wr);
	free(p->nodes);
	free(p);
}

/* Drop one reference (the lock held); frees the probe with the last. */
static void probe_unref_locked(struct oc_probe *p)
{
	bool last = --p->refs == 0;
	pthread_mutex_unlock(&p->lock);
	if (last)
		probe_destroy(p);
}

/* Node i ends in state s (the lock held), unless it already has. */
static void probe_finish_locked(struct oc_probe *p, size_t i, enum oc_probe_node_state s, const char *error)
{
	struct probe_node *nd = &p->nodes[i];
	if (probe_final(nd->r.state))
		return;
	bool was_running = nd->r.state == OC_PROBE_NODE_RUNNING;
	nd->r.state = s;
	if (error)
		snprintf(nd->r.error, sizeof(nd->r.error), "%s", error);
	if (was_running)
		nd->r.seconds = probe_now() - nd->started;
	p->finished++;
	pthread_cond_signal(&p->cv);
	probe_wake(p);
}

/* Whole seconds left before node i's deadline, at least 1. */
static int probe_left(const struct probe_node *nd)
{
	double left = nd->deadline - probe_now();
	if (left < 1)
		return 1;
	int whole = (int)left;
	return whole + (left > whole); /* rounded up */
}

static void probe_no_answer_text(const struct oc_probe *p, char *buf, size_t len)
{
	snprintf(buf, len, "no answer after %d s", p->cfg.timeout_s);
}

/* Run check k on node i over conn with left seconds, then record its
 * result or the node's end (takes and drops the lock). */
static void probe_run_check(struct oc_probe *p, size_t i, size_t k, void *conn, struct oc_probe_output *out,
			    const char *name, int left)
{
	struct probe_node *nd = &p->nodes[i];
	const struct oc_probe_runner *rn = &p->runner;
	const struct oc_probe_check *c = &p->cfg.checks[k];
	char err[512] = "";
	memset(out, 0, sizeof(*out));
	int rc = rn->ops->run(rn->ctx, conn, name, c->command, left, out, err, sizeof(err));
	struct oc_probe_check_result res;
	if (rc == 0)
		oc_probe_eval_check(c, out->out, out->errout, out->exit_status, &res);
	pthread_mutex_lock(&p->lock);
	if (rc < 0) {
		char why[300];
		snprintf(why, sizeof(why), "%.250s", err[0] ? err : "the command could not be run");
		probe_finish_locked(p, i, OC_PROBE_NODE_UNREACHABLE, why);
	} else if (out->exit_status == OC_PROBE_EXIT_TIMED_OUT) {
		/* The check had the time left: the node's deadline passed. */
		char why[64];
		probe_no_answer_text(p, why, sizeof(why));
		if (nd->r.state == OC_PROBE_NODE_RUNNING)
			nd->r.checks[k] = res;
		probe_finish_locked(p, i, OC_PROBE_NODE_NO_ANSWER, why);
	} else if (nd->r.state == OC_PROBE_NODE_RUNNING) {
		nd->r.checks[k] = res;
		if (k + 1 == p->cfg.ncheck)
			probe_finish_locked(p, i, OC_PROBE_NODE_DONE, NULL);
		else
			probe_wake(p);
	}
	pthread_mutex_unlock(&p->lock);
}

/* The checks in turn, while node i is running and the probe not
 * cancelled. */
static void probe_run_checks(struct oc_probe *p, size_t i, void *conn, struct oc_probe_output *out,
			     const char *name)
{
	struct probe_node *nd = &p->nodes[i];
	for (size_t k = 0; k < p->cfg.ncheck; k++) {
		pthread_mutex_lock(&p->lock);
		bool still = nd->r.state == OC_PROBE_NODE_RUNNING && !p->cancelled;
		int left = probe_left(nd);
		pthread_mutex_unlock(&p->lock);
		if (!still)
			break;
		probe_run_check(p, i, k, conn, out, name, left);
	}
}

/* Node i's thread is done with its connection: give a verdict if it has
 * none, free its slot and drop its reference (takes the lock; p may be
 * gone after). */
static void probe_node_exit(struct oc_probe *p, size_t i)
{
	pthread_mutex_lock(&p->lock);
	/* A cancelled or timed-out node is already final; anything else that
	 * ended here without a verdict (cannot happen) is marked. */
	probe_finish_locked(p, i, p->cancelled ? OC_PROBE_NODE_CANCELLED : OC_PROBE_NODE_UNREACHABLE, "stopped");
	/* The slot is free only now, with the connection closed: `parallel`
	 * is the number of sessions the nodes see, also when a node ran
	 * past its deadline (its verdict is out, its command not yet). */
	p->active--;
	pthread_cond_signal(&p->cv);
	probe_wake(p);
	probe_live_add(-1);
	probe_unref_locked(p);
}

/* One node: connect, run the checks in turn, close. */
static void *probe_node_thread(void *arg)
{
	struct probe_job *job = arg;
	struct oc_probe *p = job->p;
	size_t i = job->i;
	free(job);
	struct probe_node *nd = &p->nodes[i];
	const struct oc_probe_runner *rn = &p->runner;

	pthread_mutex_lock(&p->lock);
	char name[128], addr[256];
	snprintf(name, sizeof(name), "%s", nd->r.name);
	snprintf(addr, sizeof(addr), "%s", nd->addr);
	int left = probe_left(nd);
	bool go = nd->r.state == OC_PROBE_NODE_RUNNING && !p->cancelled;
	pthread_mutex_unlock(&p->lock);

	char err[512] = "";
	void *conn = go ? rn->ops->open(rn->ctx, name, addr, left, err, sizeof(err)) : NULL;
	if (go && !conn) {
		pthread_mutex_lock(&p->lock);
		probe_finish_locked(p, i, OC_PROBE_NODE_UNREACHABLE, err[0] ? err : "cannot connect");
		pthread_mutex_unlock(&p->lock);
	}
	struct oc_probe_output *out = conn ? malloc(sizeof(*out)) : NULL;
	if (conn && !out) {
		pthread_mutex_lock(&p->lock);
		probe_finish_locked(p, i, OC_PROBE_NODE_UNREACHABLE, "out of memory");
		pthread_mutex_unlock(&p->lock);
	}
	if (out)
		probe_run_checks(p, i, conn, out, name);
	free(out);
	if (conn)
		rn->ops->close(rn->ctx, conn);
	probe_node_exit(p, i);
	return NULL;
}

/* Start node i's thread (the lock held). Returns 0, or -1 when no thread
 * could be made (the node is then marked unreachable). */
static int probe_launch_locked(struct oc_probe *p, size_t i)
{
	struct probe_node *nd = &p->nodes[i];
	nd->r.state = OC_PROBE_NODE_RUNNING;
	nd->started = probe_now();
	nd->deadline = nd->started + p->cfg.timeout_s;
	p->active++;
	struct probe_job *job = malloc(sizeof(*job));
	pthread_attr_t at;
	pthread_t t;
	int rc = -1;
	if (job && pthread_attr_init(&at) == 0) {
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		job->p = p;
		job->i = i;
		p->refs++;
		probe_live_add(1);
		rc = pthread_create(&t, &at, probe_node_thread, job) == 0 ? 0 : -1;
		pthread_attr_destroy(&at);
		if (rc < 0) {
			p->refs--;
			probe_live_add(-1);
		}
	}
	if (rc < 0) {
		free(job);
		probe_finish_locked(p, i, OC_PROBE_NODE_UNREACHABLE, "cannot start a thread");
		p->active--;
	}
	probe_wake(p);
	return rc;
}

/* Starts nodes as slots free up and enforces the deadlines. */
static void *probe_coordinator(void *arg)
{
	struct oc_probe *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->cancelled && p->finished < p->n) {
		while (p->active < (size_t)p->cfg.parallel && p->next < p->n && !p->cancelled)
			probe_launch_locked(p, p->next++);
		double now = probe_now(), earliest = 0;
		for (size_t i = 0; i < p->next; i++) {
			struct probe_node *nd = &p->nodes[i];
			if (nd->r.state != OC_PROBE_NODE_RUNNING)
				continue;
			if (nd->deadline <= now) {
				char why[64];
				probe_no_answer_text(p, why, sizeof(why));
				probe_finish_locked(p, i, OC_PROBE_NODE_NO_ANSWER, why);
			} else if (!earliest || nd->deadline < earliest) {
				earliest = nd->deadline;
			}
		}
		if (p->active < (size_t)p->cfg.parallel && p->next < p->n)
			continue; /* a slot freed up */
		if (p->cancelled || p->finished >= p->n)
			break;
		if (!earliest)
			earliest = now + 1;
		struct timespec ts;
		ts.tv_sec = (time_t)earliest;
		ts.tv_nsec = (long)((earliest - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&p->cv, &p->lock, &ts);
	}
	probe_live_add(-1);
	probe_unref_locked(p);
	return NULL;
}

struct oc_probe *oc_probe_start(const struct oc_probe_config *cfg, const struct oc_probe_runner *runner,
				const struct oc_probe_target *targets, size_t n, char *err, size_t errlen)
{
	if (!cfg || !cfg->ncheck || cfg->ncheck > OC_PROBE_MAX_CHECKS) {
		snprintf(err, errlen, "the profile has no probe checks");
		return NULL;
	}
	if (!runner || !runner->ops) {
		snprintf(err, errlen, "probes are not available (no way to reach the nodes)");
		return NULL;
	}
	if (!n) {
		snprintf(err, errlen, "no node to probe: tag nodes (Space) or select one");
		return NULL;
	}
	struct oc_probe *p = calloc(1, sizeof(*p));
	if (!p || !(p->nodes = calloc(n, sizeof(*p->nodes)))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->cfg = *cfg;
	if (p->cfg.timeout_s < 1)
		p->cfg.timeout_s = 10;
	if (p->cfg.parallel < 1)
		p->cfg.parallel = 1;
	p->runner = *runner;
	p->n = n;
	for (size_t i = 0; i < n; i++) {
		struct probe_node *nd = &p->nodes[i];
		snprintf(nd->r.name, sizeof(nd->r.name), "%s", targets[i].name ? targets[i].name : "");
		snprintf(nd->addr, sizeof(nd->addr), "%s", targets[i].addr ? targets[i].addr : "");
		nd->r.ncheck = p->cfg.ncheck;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		free(p->nodes);
		free(p);
		return NULL;
	}
	p->pipe_rd = fds[0];
	p->pipe_wr = fds[1];
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&p->lock, NULL);
	p->refs = 2; /* the owner and the coordinator */
	pthread_attr_t at;
	pthread_t t;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	probe_live_add(1);
	int rc = pthread_create(&t, &at, probe_coordinator, p);
	pthread_attr_destroy(&at);
	if (rc != 0) {
		probe_live_add(-1);
		snprintf(err, errlen, "cannot start the probe thread: %s", strerror(rc));
		probe_destroy(p);
		return NULL;
	}
	return p;
}

int oc_probe_fd(const struct oc_probe *p)
{
	return p ? p->pipe_rd : -1;
}

void oc_probe_ack(struct oc_probe *p)
{
	char buf[64];
	while (p && read(p->pipe_rd, buf, sizeof(buf)) > 0)
		;
}

size_t oc_probe_count(const struct oc_probe *p)
{
	return p ? p->n : 0;
}

size_t oc_probe_finished(struct oc_probe *p)
{
	if (!p)
		return 0;
	pthread_mutex_lock(&p->lock);
	size_t f = p->finished;
	pthread_mutex_unlock(&p->lock);
	return f;
}

bool oc_probe_node_bad(const struct oc_probe_node_result *r)
{
	if (r->state == OC_PROBE_NODE_NO_ANSWER || r->state == OC_PROBE_NODE_UNREACHABLE)
		return true;
	for (size_t k = 0; k < r->ncheck; k++)
		if (r->checks[k].verdict == OC_PROBE_FAILED || r->checks[k].verdict == OC_PROBE_ERROR)
			return true;
	return false;
}

size_t oc_probe_problems(struct oc_probe *p)
{
	if (!p)
		return 0;
	size_t bad = 0;
	pthread_mutex_lock(&p->lock);
	for (size_t i = 0; i < p->n; i++)
		bad += oc_probe_node_bad(&p->nodes[i].r);
	pthread_mutex_unlock(&p->lock);
	return bad;
}

bool oc_probe_node(struct oc_probe *p, size_t i, struct oc_probe_node_result *out)
{
	if (!p || i >= p->n)
		return false;
	pthread_mutex_lock(&p->lock);
	*out = p->nodes[i].r;
	if (out->state == OC_PROBE_NODE_RUNNING)
		out->seconds = probe_now() - p->nodes[i].started;
	pthread_mutex_unlock(&p->lock);
	return true;
}

const struct oc_probe_config *oc_probe_config(const struct oc_probe *p)
{
	return p ? &p->cfg : NULL;
}

void oc_probe_cancel(struct oc_probe *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	if (!p->cancelled && p->finished < p->n) {
		p->cancelled = true;
		for (size_t i = 0; i < p->n; i++)
			probe_finish_locked(p, i, OC_PROBE_NODE_CANCELLED, "cancelled");
	}
	p->cancelled = true;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->lock);
}

bool oc_probe_free(struct oc_probe **pp)
{
	if (!pp || !*pp)
		return true;
	struct oc_probe *p = *pp;
	*pp = NULL;
	oc_probe_cancel(p);
	pthread_mutex_lock(&p->lock);
	bool alone = p->refs == 1;
	probe_unref_locked(p);
	return alone;
}

void oc_probe_runner_free(struct oc_probe_runner **r)
{
	if (!r || !*r)
		return;
	/* Threads still in a call use the runner: leave it to the process. */
	pthread_mutex_lock(&probe_live_lock);
	bool alone = probe_live_threads == 0;
	pthread_mutex_unlock(&probe_live_lock);
	if (alone) {
		if ((*r)->ops && (*r)->ops->free_ctx)
			(*r)->ops->free_ctx((*r)->ctx);
		free(*r);
	}
	*r = NULL;
}

bool oc_probe_threads_wait(double seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	double end = (double)until.tv_nsec / 1e9 + (seconds > 0 ? seconds : 0);
	until.tv_sec += (time_t)end;
	until.tv_nsec = (long)((end - (double)(time_t)end) * 1e9);
	pthread_mutex_lock(&probe_live_lock);
	int rc = 0;
	while (probe_live_threads > 0 && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&probe_live_cv, &probe_live_lock, &until);
	bool none = probe_live_threads == 0;
	pthread_mutex_unlock(&probe_live_lock);
	return none;
}

const char *oc_probe_state_name(enum oc_probe_node_state s)
{
	switch (s) {
	case OC_PROBE_NODE_WAITING: return "waiting";
	case OC_PROBE_NODE_RUNNING: return "running";
	case OC_PROBE_NODE_DONE: return "done";
	case OC_PROBE_NODE_UNREACHABLE: return "unreachable";
	case OC_PROBE_NODE_NO_ANSWER: return "no answer";
	default: return "cancelled";
	}
}
