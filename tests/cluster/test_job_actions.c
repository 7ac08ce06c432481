/* test_job_actions.c: the writers' job actions (job_change, read_job)
 * against the real local cluster, each read back through the writer and
 * compared with squeue: a held job of alice gets a new time limit and nice
 * value, a QoS and a partition Slurm refuses (its own words, nothing
 * changed), is released, runs, gets USR1 in its batch shell (its trap
 * writes a marker), is requeued (Restarts=1), cancelled, and cancelled
 * again ("already ended"). An unknown job id and bad input are refused.
 *
 *   test_job_actions [slurm|cli]   the libslurm writer (default) or the
 *                                  CLI writer over the local transport
 *
 * Submits its jobs to partition large (one node, no GPU) as alice, and
 * cancels them at the end, also after a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster_util.h"
#include "actions/writer.h"
#include "source/cli_source.h"
#include "source/slurm_write.h"
#include "source/transport.h"

static struct oc_writer writer;
static struct oc_transport *transport;
static bool use_cli;
static uint32_t job_id;
static char marker[128], ready[140];

static int setup(void **state)
{
	if (cluster_util_setup(state) < 0)
		return -1;
	char err[256];
	if (use_cli) {
		transport = oc_local_transport_open(err, sizeof(err));
		if (!transport || oc_cli_writer_init(&writer, transport, "", err, sizeof(err)) < 0) {
			fprintf(stderr, "cli writer: %s\n", err);
			return -1;
		}
	} else if (oc_slurm_writer_init(&writer, err, sizeof(err)) < 0) {
		fprintf(stderr, "writer: %s\n", err);
		return -1;
	}
	if (!writer.ops->job_change || !writer.ops->read_job) {
		fprintf(stderr, "the %s writer has no job actions\n", use_cli ? "CLI" : "libslurm");
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	if (use_cli) {
		oc_cli_writer_fini(&writer);
		oc_transport_close(&transport);
	} else {
		oc_slurm_writer_fini(&writer);
	}
	return cluster_util_teardown(state);
}

/* The job is cancelled and its marker removed, whatever happened. */
static int job_teardown(void **state)
{
	(void)state;
	if (job_id) {
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "scancel %u 2>/dev/null; true", (unsigned)job_id);
		free(cluster_util_run(cmd));
	}
	if (marker[0])
		unlink(marker);
	if (ready[0])
		unlink(ready);
	job_id = 0;
	marker[0] = ready[0] = '\0';
	return 0;
}

/* squeue's FIELD (an -o format) of the job, without the newline. */
static char *squeue_field(uint32_t id, const char *field)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "squeue -h -j %u -o '%s' 2>/dev/null; true", (unsigned)id, field);
	char *out = cluster_util_run(cmd);
	out[strcspn(out, "\n")] = '\0';
	return out;
}

static void expect_squeue(uint32_t id, const char *field, const char *want)
{
	char *got = squeue_field(id, field);
	if (strcmp(got, want) != 0)
		fail_msg("squeue -o %s for job %u: \"%s\", want \"%s\"", field, (unsigned)id, got, want);
	free(got);
}

static struct oc_job_now read_job(uint32_t id)
{
	struct oc_job_now now;
	char err[256] = "";
	int rc = writer.ops->read_job(writer.ctx, id, &now, err, sizeof(err));
	if (rc != 0)
		fail_msg("read_job %u: %s", (unsigned)id, err);
	return now;
}

static int change(uint32_t id, struct oc_job_change c, char *err, size_t errlen)
{
	err[0] = '\0';
	return writer.ops->job_change(writer.ctx, id, &c, err, errlen);
}

static void expect_ok(uint32_t id, struct oc_job_change c)
{
	char err[256];
	int rc = change(id, c, err, sizeof(err));
	if (rc != 0)
		fail_msg("job_change op %d on %u: rc %d: %s", (int)c.op, (unsigned)id, rc, err);
}

static void expect_refused(uint32_t id, struct oc_job_change c, const char *words)
{
	char err[256];
	assert_int_equal(change(id, c, err, sizeof(err)), -1);
	if (!strstr(err, words))
		fail_msg("op %d on %u: \"%s\" lacks \"%s\"", (int)c.op, (unsigned)id, err, words);
}

/* Wait (at most 60 s) until the job's read-back satisfies done. */
static struct oc_job_now wait_job(uint32_t id, bool (*done)(const struct oc_job_now *), const char *what)
{
	struct oc_job_now now = {0};
	for (int i = 0; i < 600; i++) {
		now = read_job(id);
		if (done(&now))
			return now;
		usleep(100000);
	}
	fail_msg("job %u: not %s after 60 s (state %d, reason %s)", (unsigned)id, what, (int)now.state, now.reason);
	return now;
}

static bool is_running(const struct oc_job_now *n)
{
	return n->found && n->state == OC_JOB_RUNNING;
}

static bool was_requeued(const struct oc_job_now *n)
{
	return n->found && n->restarts >= 1;
}

static bool has_ended(const struct oc_job_now *n)
{
	return !n->found || (n->state != OC_JOB_PENDING && n->state != OC_JOB_RUNNING && n->state != OC_JOB_SUSPENDED);
}

/* Wait (at most 60 s) until path exists. */
static void wait_file(const char *path, const char *what)
{
	for (int i = 0; i < 600; i++) {
		if (access(path, F_OK) == 0)
			return;
		usleep(100000);
	}
	fail_msg("job %u: no %s (%s) after 60 s", (unsigned)job_id, path, what);
}

static uint32_t submit_held(void)
{
	struct oc_job_spec spec = {0};
	snprintf(spec.user, sizeof(spec.user), "alice");
	snprintf(spec.partition, sizeof(spec.partition), "large");
	snprintf(spec.qos, sizeof(spec.qos), "large_qos");
	snprintf(spec.name, sizeof(spec.name), "oc-test-jobact");
	spec.nodes = 1;
	spec.time_min = 10;
	spec.hold = true;
	/* The batch shell says when its trap is set (slurmctld says RUNNING
	 * before the script starts), writes a marker on USR1 and goes on. */
	snprintf(spec.command, sizeof(spec.command),
		 "trap 'echo USR1 > /tmp/oc-test-jobact.$SLURM_JOB_ID' USR1; touch /tmp/oc-test-jobact.$SLURM_JOB_ID.ready; "
		 "sleep 600 & wait; sleep 600 & wait");
	uint32_t id = 0;
	char err[512] = "";
	int rc = writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err));
	if (rc != 0)
		fail_msg("submit: %s", err);
	snprintf(marker, sizeof(marker), "/tmp/oc-test-jobact.%u", (unsigned)id);
	snprintf(ready, sizeof(ready), "%s.ready", marker);
	return id;
}

static void test_held_job(void **state)
{
	(void)state;
	job_id = submit_held();
	struct oc_job_now now = read_job(job_id);
	assert_true(now.found);
	assert_int_equal(now.state, OC_JOB_PENDING);
	assert_int_equal(now.priority, 0);
	assert_int_equal(now.time_limit_min, 10);
	assert_string_equal(now.partition, "large");
	assert_string_equal(now.qos, "large_qos");

	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 2160});
	assert_int_equal(read_job(job_id).time_limit_min, 2160);
	expect_squeue(job_id, "%l", "1-12:00:00");
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = OC_NONE});
	assert_int_equal(read_job(job_id).time_limit_min, OC_NONE);
	expect_squeue(job_id, "%l", "UNLIMITED");
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 20});
	expect_squeue(job_id, "%l", "20:00");

	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_NICE, .nice = 100});
	assert_int_equal(read_job(job_id).nice, 100);
	expect_squeue(job_id, "%y", "100");

	/* Slurm's own words; nothing changed. */
	expect_refused(job_id, (struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "oc_no_such_qos"}, "Invalid qos");
	expect_refused(job_id, (struct oc_job_change){.op = OC_JOB_OP_PARTITION, .name = "oc_no_such_part"},
		       "Invalid partition");
	now = read_job(job_id);
	assert_string_equal(now.qos, "large_qos");
	assert_string_equal(now.partition, "large");
	expect_squeue(job_id, "%P %q", "large large_qos");

	/* A QoS change Slurm takes, and back. */
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "normal_qos"});
	assert_string_equal(read_job(job_id).qos, "normal_qos");
	expect_squeue(job_id, "%q", "normal_qos");
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "large_qos"});

	/* Release: it starts on an idle node of large. */
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_RELEASE});
	assert_true(read_job(job_id).priority > 0);
	wait_job(job_id, is_running, "running");
	expect_squeue(job_id, "%T", "RUNNING");

	/* An operator's priority. */
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_PRIORITY, .priority = 5000});
	assert_int_equal(read_job(job_id).priority, 5000);
	expect_squeue(job_id, "%Q", "5000");
}

static void test_running_job(void **state)
{
	(void)state;
	job_id = submit_held();
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_RELEASE});
	wait_job(job_id, is_running, "running");

	/* USR1 to the batch shell once its trap is set: the trap writes the
	 * marker. */
	wait_file(ready, "its trap set");
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 10, .batch_only = true});
	wait_file(marker, "the marker its USR1 trap writes");
	assert_true(is_running((const struct oc_job_now[]){read_job(job_id)}));

	/* Requeue: back to pending, Restarts=1. */
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_REQUEUE_HOLD});
	struct oc_job_now now = wait_job(job_id, was_requeued, "requeued");
	assert_int_equal(now.restarts, 1);
	assert_int_equal(now.priority, 0); /* requeuehold: held again */

	/* Cancel, then again: the second is "already ended" (1), done (0:
	 * scancel says nothing and exits 0 for an ended job) or, once
	 * slurmctld has forgotten the job, an invalid id; the job stays
	 * ended either way (the worker reads it before and after). */
	expect_ok(job_id, (struct oc_job_change){.op = OC_JOB_OP_CANCEL});
	wait_job(job_id, has_ended, "ended");
	char err[256];
	int rc = change(job_id, (struct oc_job_change){.op = OC_JOB_OP_CANCEL}, err, sizeof(err));
	if (rc == -1 && !strstr(err, "Invalid job id"))
		fail_msg("second cancel: %s", err);
	if (rc < -1 || rc > 1)
		fail_msg("second cancel: rc %d", rc);
	assert_true(has_ended((const struct oc_job_now[]){read_job(job_id)}));
}

static void test_unknown_and_bad(void **state)
{
	(void)state;
	/* An id far above the cluster's: slurmctld does not know it. */
	uint32_t none = 66000000;
	struct oc_job_now now = read_job(none);
	assert_false(now.found);
	expect_refused(none, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 5}, "Invalid job id");
	expect_refused(none, (struct oc_job_change){.op = OC_JOB_OP_HOLD}, "Invalid job id");
	/* Refused before any request. */
	expect_refused(0, (struct oc_job_change){.op = OC_JOB_OP_CANCEL}, "job id");
	expect_refused(none, (struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 0}, "signal");
	expect_refused(none, (struct oc_job_change){.op = OC_JOB_OP_PARTITION, .name = "a b"}, "partition");
	expect_refused(none, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 0}, "time limit");
}

int main(int argc, char **argv)
{
	use_cli = argc > 1 && strcmp(argv[1], "cli") == 0;
	if (argc > 1 && !use_cli && strcmp(argv[1], "slurm") != 0) {
		fprintf(stderr, "usage: test_job_actions [slurm|cli]\n");
		return 2;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_held_job, job_teardown),
		cmocka_unit_test_teardown(test_running_job, job_teardown),
		cmocka_unit_test(test_unknown_and_bad),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
