/* test_cli_write.c: the CLI writer's job actions (source/cli_write.c:
 * job_change, read_job, and cancel_job's shared rule) over a stand-in
 * transport that records each argv and answers with a canned exit status,
 * stdout and stderr: the very words of the plan's line are run, and what
 * scancel and scontrol answer becomes 0, 1 or -1 with their own words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/plan.h"
#include "actions/writer.h"
#include "source/cli_parse.h"
#include "source/cli_source.h"
#include "source/exec.h"
#include "source/transport.h"

/* The stand-in: the last argv (words joined by spaces), how many runs,
 * and the answer to give. */
static struct {
	char argv[512];
	int runs;
	int status;
	const char *out, *errout;
} fake;

static int fake_run(struct oc_transport *t, const char *const argv[], int timeout_s, struct oc_run_result *r,
		    char *err, size_t errlen)
{
	(void)t;
	(void)timeout_s;
	memset(r, 0, sizeof(*r));
	fake.runs++;
	size_t o = 0;
	fake.argv[0] = '\0';
	for (size_t i = 0; argv[i]; i++)
		o += (size_t)snprintf(fake.argv + o, sizeof(fake.argv) - o, "%s%s", i ? " " : "", argv[i]);
	r->out = strdup(fake.out ? fake.out : "");
	r->errout = strdup(fake.errout ? fake.errout : "");
	assert_non_null(r->out);
	assert_non_null(r->errout);
	r->out_len = strlen(r->out);
	r->err_len = strlen(r->errout);
	r->exit_status = fake.status;
	if (fake.status == OC_EXEC_TIMED_OUT)
		snprintf(err, errlen, "timed out after 20 s");
	return 0;
}

static const char *fake_describe(struct oc_transport *t)
{
	(void)t;
	return "fake";
}

static void fake_close(struct oc_transport *t)
{
	(void)t;
}

static const struct oc_transport_ops fake_ops = {
	.name = "fake", .run = fake_run, .describe = fake_describe, .close = fake_close};
static struct oc_transport fake_transport = {.ops = &fake_ops};

static struct oc_writer writer;

static void answer(int status, const char *out, const char *errout)
{
	fake.status = status;
	fake.out = out;
	fake.errout = errout;
	fake.runs = 0;
	fake.argv[0] = '\0';
}

static int setup(void **state)
{
	(void)state;
	char err[128];
	return oc_cli_writer_init(&writer, &fake_transport, NULL, err, sizeof(err));
}

static int teardown(void **state)
{
	(void)state;
	oc_cli_writer_fini(&writer);
	return 0;
}

static int change(uint32_t id, struct oc_job_change c, char *err, size_t errlen)
{
	return writer.ops->job_change(writer.ctx, id, &c, err, errlen);
}

/* Every kind of change runs the words of its plan line, and succeeds
 * when the command does. */
static void test_change_argv(void **state)
{
	(void)state;
	static const struct {
		uint32_t id;
		struct oc_job_change c;
		const char *argv;
	} cases[] = {
		{123, {.op = OC_JOB_OP_CANCEL}, "scancel 123"},
		{123, {.op = OC_JOB_OP_SIGNAL, .signal = 10, .batch_only = true}, "scancel --signal=USR1 --batch 123"},
		{7, {.op = OC_JOB_OP_SIGNAL, .signal = 15}, "scancel --signal=TERM --full 7"},
		{7, {.op = OC_JOB_OP_SIGNAL, .signal = 40}, "scancel --signal=40 --full 7"},
		{9, {.op = OC_JOB_OP_HOLD}, "scontrol hold 9"},
		{9, {.op = OC_JOB_OP_RELEASE}, "scontrol release 9"},
		{9, {.op = OC_JOB_OP_REQUEUE}, "scontrol requeue 9"},
		{9, {.op = OC_JOB_OP_REQUEUE_HOLD}, "scontrol requeuehold 9"},
		{9, {.op = OC_JOB_OP_TIME_LIMIT, .minutes = 2160}, "scontrol update JobId=9 TimeLimit=1-12:00:00"},
		{9, {.op = OC_JOB_OP_TIME_LIMIT, .minutes = OC_NONE}, "scontrol update JobId=9 TimeLimit=UNLIMITED"},
		{9, {.op = OC_JOB_OP_PARTITION, .name = "large"}, "scontrol update JobId=9 Partition=large"},
		{9, {.op = OC_JOB_OP_QOS, .name = "normal"}, "scontrol update JobId=9 QOS=normal"},
		{9, {.op = OC_JOB_OP_NICE, .nice = -100}, "scontrol update JobId=9 Nice=-100"},
		{4294967293u, {.op = OC_JOB_OP_CANCEL}, "scancel 4294967293"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "", line[256];
		answer(0, "", "");
		assert_int_equal(change(cases[i].id, cases[i].c, err, sizeof(err)), 0);
		assert_int_equal(fake.runs, 1);
		assert_string_equal(fake.argv, cases[i].argv);
		oc_plan_job_change(cases[i].id, &cases[i].c, line, sizeof(line));
		assert_string_equal(fake.argv, line);
		assert_string_equal(err, "");
	}
}

/* Refused before anything runs: a bad change, job ids 0 and NO_VAL up. */
static void test_change_refused(void **state)
{
	(void)state;
	char err[256];
	answer(0, "", "");
	assert_int_equal(change(5, (struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 0}, err, sizeof(err)), -1);
	assert_string_equal(err, "signal: a number from 1 to 64");
	assert_int_equal(change(5, (struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "x;rm"}, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "QoS"));
	assert_int_equal(change(5, (struct oc_job_change){.op = OC_JOB_OP_COUNT}, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown job action");
	assert_int_equal(change(0, (struct oc_job_change){.op = OC_JOB_OP_CANCEL}, err, sizeof(err)), -1);
	assert_string_equal(err, "bad job id 0");
	assert_int_equal(change(0xfffffffeu, (struct oc_job_change){.op = OC_JOB_OP_HOLD}, err, sizeof(err)), -1);
	assert_int_equal(change(0xffffffffu, (struct oc_job_change){.op = OC_JOB_OP_HOLD}, err, sizeof(err)), -1);
	struct oc_job_now now;
	assert_int_equal(writer.ops->read_job(writer.ctx, 0, &now, err, sizeof(err)), -1);
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 0xfffffffeu, 0, err, sizeof(err)), -1);
	assert_int_equal(fake.runs, 0);
}

#define DONE "scancel: error: Kill job error on job id 123: Job/step already completing or completed\n"

/* An ended job: 1 for scancel whatever its exit status, an error for
 * scontrol; other failures are the command's words on one line. */
static void test_change_answers(void **state)
{
	(void)state;
	char err[256];
	struct oc_job_change cancel = {.op = OC_JOB_OP_CANCEL};
	struct oc_job_change sig = {.op = OC_JOB_OP_SIGNAL, .signal = 10, .batch_only = true};
	answer(1, "", DONE);
	assert_int_equal(change(123, cancel, err, sizeof(err)), 1);
	assert_string_equal(err, "scancel: error: Kill job error on job id 123: Job/step already completing or completed");
	answer(0, "", DONE);
	assert_int_equal(change(123, cancel, err, sizeof(err)), 1);
	answer(229, "", DONE);
	assert_int_equal(change(123, sig, err, sizeof(err)), 1);
	/* scontrol saying so is a failure: nothing was held. */
	answer(1, "", "Job/step already completing or completed for job 123\n");
	assert_int_equal(change(123, (struct oc_job_change){.op = OC_JOB_OP_HOLD}, err, sizeof(err)), -1);
	assert_string_equal(err, "Job/step already completing or completed for job 123");
	/* A signal to an ended job, as scancel 22.05-26.05 say it. */
	answer(1, "", "scancel: error: Kill job error on job id 123: Invalid job id specified\n");
	assert_int_equal(change(123, sig, err, sizeof(err)), -1);
	assert_string_equal(err, "scancel: error: Kill job error on job id 123: Invalid job id specified");
	/* A job id that does not exist, and other refusals. */
	answer(1, "", "Invalid job id specified for job 9\nslurm_update error: Invalid job id specified\n");
	assert_int_equal(
		change(9, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 60}, err, sizeof(err)), -1);
	assert_string_equal(err, "Invalid job id specified for job 9 / slurm_update error: Invalid job id specified");
	answer(1, "", "Job is no longer pending execution for job 9\n");
	assert_int_equal(change(9, (struct oc_job_change){.op = OC_JOB_OP_HOLD}, err, sizeof(err)), -1);
	assert_string_equal(err, "Job is no longer pending execution for job 9");
	/* No words at all, or a command that did not end. */
	answer(1, "", "");
	assert_int_equal(change(9, (struct oc_job_change){.op = OC_JOB_OP_RELEASE}, err, sizeof(err)), -1);
	assert_string_equal(err, "scontrol exited with status 1");
	answer(OC_EXEC_TIMED_OUT, "", "");
	assert_int_equal(change(9, cancel, err, sizeof(err)), -1);
	assert_string_equal(err, "scancel: timed out after 20 s");
}

/* cancel_job keeps the libslurm writer's rule with the same code: a
 * plain cancel of an ended job is done, a signal to one an error. */
static void test_cancel_job(void **state)
{
	(void)state;
	char err[256];
	answer(0, "", "");
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 123, 0, err, sizeof(err)), 0);
	assert_string_equal(fake.argv, "scancel 123");
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 123, 10, err, sizeof(err)), 0);
	assert_string_equal(fake.argv, "scancel -b -s 10 123");
	answer(1, "", DONE);
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 123, 0, err, sizeof(err)), 0);
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 123, 10, err, sizeof(err)), -1);
	assert_string_equal(err, "scancel: error: Kill job error on job id 123: Job/step already completing or completed");
	answer(1, "", "scancel: error: Kill job error on job id 123: Access/permission denied\n");
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 123, 0, err, sizeof(err)), -1);
	assert_string_equal(err, "scancel: error: Kill job error on job id 123: Access/permission denied");
}

static void test_read_job(void **state)
{
	(void)state;
	char err[256];
	struct oc_job_now now;
	/* What the parser makes of scontrol's output, as it is. */
	const char *rec = "JobId=13 JobName=demo UserId=bob(1002) GroupId=bob(1002) MCS_label=N/A Priority=0 Nice=10 "
			  "Account=team-a QOS=normal_qos JobState=PENDING Reason=JobHeldAdmin Dependency=(null) "
			  "Requeue=1 Restarts=1 BatchFlag=1 Reboot=0 ExitCode=0:0 RunTime=00:00:00 TimeLimit=01:30:00 "
			  "TimeMin=N/A Partition=normal \n";
	struct oc_job_now want;
	assert_int_equal(oc_cli_parse_job_now(rec, strlen(rec), 13, &want, err, sizeof(err)), 0);
	assert_true(want.found);
	answer(0, rec, "");
	assert_int_equal(writer.ops->read_job(writer.ctx, 13, &now, err, sizeof(err)), 0);
	assert_string_equal(fake.argv, "scontrol --oneliner show job 13");
	assert_memory_equal(&now, &want, sizeof(now));
	/* Gone from slurmctld: not an error. */
	answer(1, "", "slurm_load_jobs error: Invalid job id specified\n");
	memset(&now, 0xff, sizeof(now));
	assert_int_equal(writer.ops->read_job(writer.ctx, 13, &now, err, sizeof(err)), 0);
	assert_false(now.found);
	/* Anything else is Slurm's error. */
	answer(1, "", "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
	assert_int_equal(writer.ops->read_job(writer.ctx, 13, &now, err, sizeof(err)), -1);
	assert_false(now.found);
	assert_string_equal(err, "slurm_load_jobs error: Unable to contact slurm controller (connect failure)");
	answer(0, "something else\n", "");
	assert_int_equal(writer.ops->read_job(writer.ctx, 13, &now, err, sizeof(err)), -1);
	assert_string_equal(err, "not a job record: \"something else\"");
	answer(OC_EXEC_TIMED_OUT, "", "");
	assert_int_equal(writer.ops->read_job(writer.ctx, 13, &now, err, sizeof(err)), -1);
	assert_string_equal(err, "scontrol: timed out after 20 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_change_argv), cmocka_unit_test(test_change_refused),
		cmocka_unit_test(test_change_answers), cmocka_unit_test(test_cancel_job),
		cmocka_unit_test(test_read_job),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
