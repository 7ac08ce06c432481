/* test_node_probe.c: the node probe engine with a runner stub (this test's
 * only: the product's runner is source/probe_ssh.c over the real SSH
 * transport, tested end to end in tests/e2e/test_probe.sh). Checked:
 * results arrive through the pipe, at most `parallel` nodes at once, a
 * node that does not answer is "no answer after N s" on time even when
 * the runner ignores its timeout, an unreachable node, a failing command,
 * cancel, freeing while a thread is still in a call, and waiting for
 * the threads left (the quit's oc_probe_threads_wait). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "actions/probe.h"

/* (the stubs run in the engine's threads: they record, the tests assert) */
static atomic_int stub_open_now, stub_open_max, stub_busy, stub_bad;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Nodes: "down" refuses connections; "hang" never answers its commands
 * (sleeping 2.5 s whatever timeout it gets); "seven" has 7 GPUs; "broken"
 * fails its command; "lost" and "mute" cannot run a command (with and
 * without a message); "late" says its command timed out; every other node
 * answers 8 after 100 ms. */
static void *stub_open(void *ctx, const char *name, const char *addr, int timeout_s, char *err, size_t errlen)
{
	(void)ctx;
	(void)timeout_s;
	if (strcmp(addr, "127.0.0.1") != 0)
		atomic_fetch_add(&stub_bad, 1);
	if (strcmp(name, "down") == 0) {
		snprintf(err, errlen, "ssh root@127.0.0.1:22: connection refused");
		return NULL;
	}
	int now = atomic_fetch_add(&stub_open_now, 1) + 1;
	int max = atomic_load(&stub_open_max);
	while (now > max && !atomic_compare_exchange_weak(&stub_open_max, &max, now))
		;
	atomic_fetch_add(&stub_busy, 1);
	return strdup(name);
}

static int stub_run(void *ctx, void *conn, const char *name, const char *command, int timeout_s,
		    struct oc_probe_output *out, char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	if (strcmp(conn, name) != 0 || timeout_s < 1)
		atomic_fetch_add(&stub_bad, 1);
	if (strcmp(name, "hang") == 0) {
		sleep_ms(2500); /* ignores timeout_s: the engine must not wait */
		out->exit_status = OC_PROBE_EXIT_TIMED_OUT;
		return 0;
	}
	if (strcmp(name, "lost") == 0 || strcmp(name, "mute") == 0) {
		if (strcmp(name, "lost") == 0)
			snprintf(err, errlen, "ssh: the session was lost");
		return -1;
	}
	if (strcmp(name, "late") == 0) {
		snprintf(out->out, sizeof(out->out), "8\n");
		out->exit_status = OC_PROBE_EXIT_TIMED_OUT;
		return 0;
	}
	sleep_ms(100);
	if (strcmp(name, "broken") == 0) {
		snprintf(out->errout, sizeof(out->errout), "sh: gpus: not found\n");
		out->exit_status = 127;
		return 0;
	}
	if (strcmp(command, "gpus") == 0)
		snprintf(out->out, sizeof(out->out), "%s\n", strcmp(name, "seven") == 0 ? "7" : "8");
	else
		snprintf(out->out, sizeof(out->out), "\n");
	out->exit_status = 0;
	return 0;
}

static void stub_close(void *ctx, void *conn)
{
	(void)ctx;
	free(conn);
	/* Closing a session takes time (an SSH disconnect is a round trip):
	 * the engine must not open the next node's session meanwhile. */
	usleep(30 * 1000);
	atomic_fetch_sub(&stub_open_now, 1);
	atomic_fetch_sub(&stub_busy, 1);
}

static const struct oc_probe_runner_ops stub_ops = {stub_open, stub_run, stub_close, NULL};
static const struct oc_probe_runner stub_runner = {&stub_ops, NULL};

static struct oc_probe_config config(int timeout_s, int parallel)
{
	struct oc_probe_config pc;
	memset(&pc, 0, sizeof(pc));
	pc.timeout_s = timeout_s;
	pc.parallel = parallel;
	pc.ncheck = 2;
	snprintf(pc.checks[0].name, sizeof(pc.checks[0].name), "gpu count");
	snprintf(pc.checks[0].command, sizeof(pc.checks[0].command), "gpus");
	snprintf(pc.checks[0].expect, sizeof(pc.checks[0].expect), "8");
	pc.checks[0].has_expect = true;
	snprintf(pc.checks[1].name, sizeof(pc.checks[1].name), "xid");
	snprintf(pc.checks[1].command, sizeof(pc.checks[1].command), "xid");
	pc.checks[1].has_expect = true;
	return pc;
}

/* Wait on the probe's pipe (as the screen does) until every node has
 * finished or limit_s passed. Returns the seconds it took. */
static double wait_all(struct oc_probe *p, double limit_s)
{
	double start = now_s();
	while (oc_probe_finished(p) < oc_probe_count(p)) {
		if (now_s() - start > limit_s)
			fail_msg("probes not finished after %.1f s", limit_s);
		struct pollfd pfd = {.fd = oc_probe_fd(p), .events = POLLIN};
		poll(&pfd, 1, 200);
		oc_probe_ack(p);
	}
	return now_s() - start;
}

static void get(struct oc_probe *p, size_t i, struct oc_probe_node_result *r)
{
	assert_true(oc_probe_node(p, i, r));
}

static void test_parallel_results(void **state)
{
	(void)state;
	static const char *const names[] = {"a", "b", "seven", "c", "d", "broken", "e"};
	struct oc_probe_target t[7];
	for (int i = 0; i < 7; i++)
		t[i] = (struct oc_probe_target){names[i], "127.0.0.1"};
	struct oc_probe_config pc = config(10, 3);
	atomic_store(&stub_open_max, 0);
	char err[256] = "";
	struct oc_probe *p = oc_probe_start(&pc, &stub_runner, t, 7, err, sizeof(err));
	assert_non_null(p);
	assert_int_equal(oc_probe_count(p), 7);
	/* 7 nodes, 3 at a time, 2 checks of 100 ms each: about 0.6 s. */
	double took = wait_all(p, 5);
	assert_true(took < 3);
	assert_int_equal(atomic_load(&stub_open_max), 3);
	struct oc_probe_node_result r;
	for (int i = 0; i < 7; i++) {
		get(p, (size_t)i, &r);
		assert_string_equal(r.name, names[i]);
		assert_int_equal(r.state, OC_PROBE_NODE_DONE);
		assert_int_equal(r.ncheck, 2);
		if (i == 2) {
			assert_int_equal(r.checks[0].verdict, OC_PROBE_FAILED);
			assert_string_equal(r.checks[0].value, "7");
			assert_int_equal(r.checks[1].verdict, OC_PROBE_OK);
		} else if (i == 5) {
			assert_int_equal(r.checks[0].verdict, OC_PROBE_ERROR);
			assert_string_equal(r.checks[0].text, "exit 127: sh: gpus: not found");
		} else {
			assert_int_equal(r.checks[0].verdict, OC_PROBE_OK);
			assert_int_equal(r.checks[1].verdict, OC_PROBE_OK);
		}
	}
	assert_int_equal(oc_probe_problems(p), 2); /* seven and broken */
	oc_probe_free(&p); /* (threads may still be on their way out) */
	assert_null(p);
	assert_int_equal(atomic_load(&stub_bad), 0);
}

/* A node that never answers is "no answer after 1 s" after about 1 s,
 * although the runner keeps it 2.5 s; the others are not held up. */
static void test_no_answer(void **state)
{
	(void)state;
	struct oc_probe_target t[3] = {{"hang", "127.0.0.1"}, {"a", "127.0.0.1"}, {"down", "127.0.0.1"}};
	struct oc_probe_config pc = config(1, 16);
	char err[256] = "";
	struct oc_probe *p = oc_probe_start(&pc, &stub_runner, t, 3, err, sizeof(err));
	assert_non_null(p);
	double took = wait_all(p, 2.2);
	assert_true(took >= 0.9);
	struct oc_probe_node_result r;
	get(p, 0, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_NO_ANSWER);
	assert_string_equal(r.error, "no answer after 1 s");
	get(p, 1, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_DONE);
	get(p, 2, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_UNREACHABLE);
	assert_string_equal(r.error, "ssh root@127.0.0.1:22: connection refused");
	assert_int_equal(r.checks[0].verdict, OC_PROBE_PENDING);
	/* The hung call is still running: freeing does not wait for it. */
	double t0 = now_s();
	assert_false(oc_probe_free(&p));
	assert_true(now_s() - t0 < 0.1);
	while (atomic_load(&stub_busy) > 0)
		sleep_ms(50);
}

/* Node 0 of a probe on the "hang" node, running and in its call (2 s at
 * most). */
static void start_hang(struct oc_probe **pp, size_t n, const struct oc_probe_target *t)
{
	struct oc_probe_config pc = config(30, 1);
	char err[256] = "";
	*pp = oc_probe_start(&pc, &stub_runner, t, n, err, sizeof(err));
	assert_non_null(*pp);
	struct oc_probe_node_result r;
	for (double t0 = now_s(); now_s() - t0 < 2;) {
		get(*pp, 0, &r);
		if (r.state == OC_PROBE_NODE_RUNNING && atomic_load(&stub_busy) > 0)
			break;
		sleep_ms(10);
	}
	assert_int_equal(r.state, OC_PROBE_NODE_RUNNING);
}

/* Cancel: every node not finished says so at once; a slot never frees
 * up for the waiting ones. */
static void test_cancel(void **state)
{
	(void)state;
	struct oc_probe_target t[3] = {{"hang", "127.0.0.1"}, {"a", "127.0.0.1"}, {"b", "127.0.0.1"}};
	struct oc_probe *p;
	start_hang(&p, 3, t);
	struct oc_probe_node_result r;
	get(p, 1, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_WAITING);
	double t0 = now_s();
	oc_probe_cancel(p);
	assert_true(now_s() - t0 < 0.1);
	assert_int_equal(oc_probe_finished(p), 3);
	for (size_t i = 0; i < 3; i++) {
		get(p, i, &r);
		assert_int_equal(r.state, OC_PROBE_NODE_CANCELLED);
	}
	oc_probe_free(&p);
	while (atomic_load(&stub_busy) > 0)
		sleep_ms(50);
}

/* The quit waits for threads still in a call, not longer than it says:
 * a cancelled node's hung command (2.5 s) outlasts a short wait, which
 * says so; a longer one sees the thread end, and the runner can go. */
static void test_threads_wait(void **state)
{
	(void)state;
	struct oc_probe_target t[1] = {{"hang", "127.0.0.1"}};
	struct oc_probe *p;
	start_hang(&p, 1, t);
	double t0 = now_s();
	assert_false(oc_probe_free(&p));
	assert_false(oc_probe_threads_wait(0.2));
	double waited = now_s() - t0;
	assert_true(waited >= 0.19 && waited < 1.5);
	assert_true(oc_probe_threads_wait(10));
	assert_true(now_s() - t0 < 5);
	assert_int_equal(atomic_load(&stub_busy), 0); /* the session was closed first */
	assert_true(oc_probe_threads_wait(0)); /* none left: at once */
}

/* A command that cannot be run makes the node unreachable; one the
 * runner timed out is "no answer", its check result kept. */
static void test_run_errors(void **state)
{
	(void)state;
	struct oc_probe_target t[4] = {
		{"lost", "127.0.0.1"}, {"mute", "127.0.0.1"}, {"late", "127.0.0.1"}, {"a", "127.0.0.1"}};
	struct oc_probe_config pc = config(10, 4);
	char err[256] = "";
	struct oc_probe *p = oc_probe_start(&pc, &stub_runner, t, 4, err, sizeof(err));
	assert_non_null(p);
	wait_all(p, 5);
	struct oc_probe_node_result r;
	get(p, 0, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_UNREACHABLE);
	assert_string_equal(r.error, "ssh: the session was lost");
	assert_int_equal(r.checks[0].verdict, OC_PROBE_PENDING);
	get(p, 1, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_UNREACHABLE);
	assert_string_equal(r.error, "the command could not be run");
	get(p, 2, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_NO_ANSWER);
	assert_string_equal(r.error, "no answer after 10 s");
	assert_true(r.checks[0].verdict != OC_PROBE_PENDING);
	assert_int_equal(r.checks[1].verdict, OC_PROBE_PENDING);
	get(p, 3, &r);
	assert_int_equal(r.state, OC_PROBE_NODE_DONE);
	oc_probe_free(&p);
	while (atomic_load(&stub_busy) > 0)
		sleep_ms(50);
}

static void test_refusals(void **state)
{
	(void)state;
	struct oc_probe_target t[1] = {{"a", "127.0.0.1"}};
	struct oc_probe_config pc = config(10, 1);
	char err[256] = "";
	assert_null(oc_probe_start(&pc, &stub_runner, t, 0, err, sizeof(err)));
	assert_string_equal(err, "no node to probe: tag nodes (Space) or select one");
	pc.ncheck = 0;
	assert_null(oc_probe_start(&pc, &stub_runner, t, 1, err, sizeof(err)));
	assert_string_equal(err, "the profile has no probe checks");
	pc = config(10, 1);
	assert_null(oc_probe_start(&pc, NULL, t, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "not available"));
	assert_true(oc_probe_free(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parallel_results),
		cmocka_unit_test(test_no_answer),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_threads_wait),
		cmocka_unit_test(test_run_errors),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
