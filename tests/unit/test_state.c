/* test_state.c: node and job states, time formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/state.h"

struct node_case {
	enum oc_node_base base;
	uint32_t flags;
	const char *compact;
	const char *lng;
	enum oc_health health;
};

static const struct node_case node_cases[] = {
	/* plain base states */
	{ OC_NODE_IDLE, 0, "idle", "IDLE", OC_HEALTH_OK },
	{ OC_NODE_ALLOCATED, 0, "alloc", "ALLOCATED", OC_HEALTH_OK },
	{ OC_NODE_MIXED, 0, "mix", "MIXED", OC_HEALTH_OK },
	{ OC_NODE_DOWN, 0, "down", "DOWN", OC_HEALTH_DOWN },
	{ OC_NODE_FUTURE, 0, "futr", "FUTURE", OC_HEALTH_OK },
	{ OC_NODE_UNKNOWN, 0, "unk", "UNKNOWN", OC_HEALTH_OK },
	/* drain */
	{ OC_NODE_IDLE, OC_NF_DRAIN, "drain", "IDLE+DRAIN", OC_HEALTH_DRAINED },
	{ OC_NODE_DOWN, OC_NF_DRAIN, "drain", "DOWN+DRAIN", OC_HEALTH_DRAINED },
	{ OC_NODE_ALLOCATED, OC_NF_DRAIN, "drng", "ALLOCATED+DRAIN", OC_HEALTH_DRAINING },
	{ OC_NODE_MIXED, OC_NF_DRAIN, "drng", "MIXED+DRAIN", OC_HEALTH_DRAINING },
	{ OC_NODE_IDLE, OC_NF_DRAIN | OC_NF_COMPLETING, "drng", "IDLE+COMPLETING+DRAIN",
	  OC_HEALTH_DRAINING },
	{ OC_NODE_IDLE, OC_NF_DRAIN | OC_NF_NOT_RESPONDING, "drain*",
	  "IDLE+DRAIN+NOT_RESPONDING", OC_HEALTH_DRAINED },
	{ OC_NODE_MIXED, OC_NF_DRAIN | OC_NF_NOT_RESPONDING, "drng*",
	  "MIXED+DRAIN+NOT_RESPONDING", OC_HEALTH_DRAINING },
	{ OC_NODE_IDLE, OC_NF_DRAIN | OC_NF_POWERED_DOWN, "drain~", "IDLE+DRAIN+POWERED_DOWN",
	  OC_HEALTH_DRAINED },
	{ OC_NODE_IDLE, OC_NF_DRAIN | OC_NF_MAINT, "drain$", "IDLE+DRAIN+MAINTENANCE",
	  OC_HEALTH_DRAINED },
	{ OC_NODE_ALLOCATED, OC_NF_DRAIN | OC_NF_REBOOT_REQUESTED, "drng@",
	  "ALLOCATED+DRAIN+REBOOT_REQUESTED", OC_HEALTH_DRAINING },
	/* power saving */
	{ OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWERED_DOWN, "idle~", "IDLE+CLOUD+POWERED_DOWN",
	  OC_HEALTH_POWER },
	{ OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWERING_UP, "idle#", "IDLE+CLOUD+POWERING_UP",
	  OC_HEALTH_POWER },
	{ OC_NODE_IDLE, OC_NF_POWERING_DOWN, "idle%", "IDLE+POWERING_DOWN", OC_HEALTH_POWER },
	{ OC_NODE_IDLE, OC_NF_POWER_DOWN_PENDING, "idle!", "IDLE+POWER_DOWN", OC_HEALTH_OK },
	{ OC_NODE_DOWN, OC_NF_CLOUD | OC_NF_POWERED_DOWN, "down~", "DOWN+CLOUD+POWERED_DOWN",
	  OC_HEALTH_RESUME_FAILED }, /* a failed resume (ParallelCluster launch, ResumeTimeout) */
	/* a power state beats not responding, as in Slurm */
	{ OC_NODE_IDLE, OC_NF_POWERED_DOWN | OC_NF_NOT_RESPONDING, "idle~",
	  "IDLE+POWERED_DOWN+NOT_RESPONDING", OC_HEALTH_POWER },
	{ OC_NODE_IDLE, OC_NF_POWERING_UP | OC_NF_POWERED_DOWN, "idle#",
	  "IDLE+POWERED_DOWN+POWERING_UP", OC_HEALTH_POWER },
	/* not responding */
	{ OC_NODE_IDLE, OC_NF_NOT_RESPONDING, "idle*", "IDLE+NOT_RESPONDING",
	  OC_HEALTH_NOT_RESPONDING },
	{ OC_NODE_ALLOCATED, OC_NF_NOT_RESPONDING, "alloc*", "ALLOCATED+NOT_RESPONDING",
	  OC_HEALTH_NOT_RESPONDING },
	{ OC_NODE_DOWN, OC_NF_NOT_RESPONDING, "down*", "DOWN+NOT_RESPONDING", OC_HEALTH_DOWN },
	{ OC_NODE_UNKNOWN, OC_NF_NOT_RESPONDING, "unk*", "UNKNOWN+NOT_RESPONDING",
	  OC_HEALTH_NOT_RESPONDING },
	{ OC_NODE_FUTURE, OC_NF_NOT_RESPONDING, "futr*", "FUTURE+NOT_RESPONDING",
	  OC_HEALTH_NOT_RESPONDING },
	/* planned, reserved */
	{ OC_NODE_MIXED, OC_NF_PLANNED, "mix-", "MIXED+PLANNED", OC_HEALTH_OK },
	{ OC_NODE_MIXED, OC_NF_PLANNED | OC_NF_NOT_RESPONDING, "mix*",
	  "MIXED+NOT_RESPONDING+PLANNED", OC_HEALTH_NOT_RESPONDING },
	{ OC_NODE_IDLE, OC_NF_PLANNED, "plnd", "IDLE+PLANNED", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_RESERVED, "resv", "IDLE+RESERVED", OC_HEALTH_OK },
	/* completing */
	{ OC_NODE_IDLE, OC_NF_COMPLETING, "comp", "IDLE+COMPLETING", OC_HEALTH_OK },
	{ OC_NODE_MIXED, OC_NF_COMPLETING, "comp", "MIXED+COMPLETING", OC_HEALTH_OK },
	{ OC_NODE_ALLOCATED, OC_NF_COMPLETING, "alloc+", "ALLOCATED+COMPLETING", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_COMPLETING | OC_NF_NOT_RESPONDING, "comp*",
	  "IDLE+COMPLETING+NOT_RESPONDING", OC_HEALTH_NOT_RESPONDING },
	/* fail */
	{ OC_NODE_IDLE, OC_NF_FAIL, "fail", "IDLE+FAIL", OC_HEALTH_DOWN },
	{ OC_NODE_DOWN, OC_NF_FAIL, "fail", "DOWN+FAIL", OC_HEALTH_DOWN },
	{ OC_NODE_ALLOCATED, OC_NF_FAIL, "failg", "ALLOCATED+FAIL", OC_HEALTH_DOWN },
	{ OC_NODE_MIXED, OC_NF_FAIL, "failg", "MIXED+FAIL", OC_HEALTH_DOWN },
	{ OC_NODE_ALLOCATED, OC_NF_FAIL | OC_NF_NOT_RESPONDING, "failg*",
	  "ALLOCATED+FAIL+NOT_RESPONDING", OC_HEALTH_DOWN },
	{ OC_NODE_IDLE, OC_NF_FAIL | OC_NF_DRAIN, "drain", "IDLE+DRAIN+FAIL", OC_HEALTH_DRAINED },
	/* maintenance */
	{ OC_NODE_IDLE, OC_NF_MAINT, "maint", "IDLE+MAINTENANCE", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_MAINT | OC_NF_NOT_RESPONDING, "maint*",
	  "IDLE+MAINTENANCE+NOT_RESPONDING", OC_HEALTH_NOT_RESPONDING },
	{ OC_NODE_ALLOCATED, OC_NF_MAINT, "alloc$", "ALLOCATED+MAINTENANCE", OC_HEALTH_OK },
	{ OC_NODE_DOWN, OC_NF_MAINT | OC_NF_NOT_RESPONDING, "down$",
	  "DOWN+MAINTENANCE+NOT_RESPONDING", OC_HEALTH_DOWN },
	/* reboot */
	{ OC_NODE_IDLE, OC_NF_REBOOT_REQUESTED, "boot", "IDLE+REBOOT_REQUESTED", OC_HEALTH_OK },
	{ OC_NODE_DOWN, OC_NF_REBOOT_ISSUED, "boot^", "DOWN+REBOOT_ISSUED", OC_HEALTH_DOWN },
	{ OC_NODE_MIXED, OC_NF_REBOOT_REQUESTED, "mix@", "MIXED+REBOOT_REQUESTED", OC_HEALTH_OK },
	{ OC_NODE_ALLOCATED, OC_NF_REBOOT_ISSUED | OC_NF_REBOOT_REQUESTED, "alloc^",
	  "ALLOCATED+REBOOT_REQUESTED+REBOOT_ISSUED", OC_HEALTH_OK },
	{ OC_NODE_MIXED, OC_NF_REBOOT_REQUESTED | OC_NF_POWERING_UP, "mix@",
	  "MIXED+REBOOT_REQUESTED+POWERING_UP", OC_HEALTH_POWER },
	/* the rest */
	{ OC_NODE_IDLE, OC_NF_INVALID_REG, "inval", "IDLE+INVALID_REG", OC_HEALTH_OK },
	{ OC_NODE_FUTURE, OC_NF_CLOUD, "futr", "FUTURE+CLOUD", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_DYNAMIC, "idle", "IDLE+DYNAMIC_NORM", OC_HEALTH_OK },
	{ OC_NODE_UNKNOWN, OC_NF_PLANNED, "plnd", "UNKNOWN+PLANNED", OC_HEALTH_OK },
	/* 24.05 to 26.05: blocked by an exclusive topology block ("block"
	 * after "resv", before "plnd"); external, dynamic, power requests. */
	{ OC_NODE_IDLE, OC_NF_BLOCKED, "block", "IDLE+BLOCKED", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_BLOCKED | OC_NF_PLANNED, "block", "IDLE+BLOCKED+PLANNED", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_BLOCKED | OC_NF_RESERVED, "resv", "IDLE+BLOCKED+RESERVED", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_BLOCKED | OC_NF_NOT_RESPONDING, "idle*", "IDLE+BLOCKED+NOT_RESPONDING",
	  OC_HEALTH_NOT_RESPONDING },
	{ OC_NODE_MIXED, OC_NF_BLOCKED, "mix", "MIXED+BLOCKED", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_EXTERNAL, "idle", "IDLE+EXTERNAL", OC_HEALTH_OK },
	{ OC_NODE_FUTURE, OC_NF_DYNAMIC_FUTURE, "futr", "FUTURE+DYNAMIC_FUTURE", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_POWERED_DOWN | OC_NF_POWER_UP, "idle~", "IDLE+POWER_UP+POWERED_DOWN",
	  OC_HEALTH_POWER },
	{ OC_NODE_MIXED, OC_NF_POWER_DOWN_PENDING | OC_NF_POWER_DRAIN, "mix!", "MIXED+POWER_DOWN+POWER_DRAIN",
	  OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_REBOOT_ISSUED, "boot^", "IDLE+REBOOT_ISSUED", OC_HEALTH_OK },
	{ OC_NODE_MIXED, OC_NF_REBOOT_ISSUED, "mix^", "MIXED+REBOOT_ISSUED", OC_HEALTH_OK },
	{ OC_NODE_ALLOCATED, OC_NF_DRAIN | OC_NF_POWER_DOWN_PENDING, "drng!", "ALLOCATED+DRAIN+POWER_DOWN",
	  OC_HEALTH_DRAINING },
	{ OC_NODE_IDLE, OC_NF_DRAIN | OC_NF_POWERING_UP, "drain#", "IDLE+DRAIN+POWERING_UP", OC_HEALTH_DRAINED },
	{ OC_NODE_IDLE, OC_NF_DRAIN | OC_NF_POWERING_DOWN, "drain%", "IDLE+DRAIN+POWERING_DOWN",
	  OC_HEALTH_DRAINED },
	{ OC_NODE_IDLE, OC_NF_DYNAMIC | OC_NF_CLOUD | OC_NF_POWERED_DOWN, "idle~",
	  "IDLE+CLOUD+DYNAMIC_NORM+POWERED_DOWN", OC_HEALTH_POWER },
	{ OC_NODE_DOWN, OC_NF_INVALID_REG | OC_NF_NOT_RESPONDING, "inval", "DOWN+INVALID_REG+NOT_RESPONDING",
	  OC_HEALTH_DOWN },
	{ OC_NODE_MIXED, OC_NF_MAINT | OC_NF_RESERVED, "mix$", "MIXED+MAINTENANCE+RESERVED", OC_HEALTH_OK },
	{ OC_NODE_IDLE, OC_NF_RESUME | OC_NF_UNDRAIN | OC_NF_REBOOT_CANCEL, "idle",
	  "IDLE+RESUME+REBOOT_CANCELED+UNDRAIN", OC_HEALTH_OK },
};

static void test_node_state_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(node_cases) / sizeof(node_cases[0]); i++) {
		const struct node_case *c = &node_cases[i];
		struct oc_node n = { .name = "gpu-st-b300-1", .base = c->base, .flags = c->flags };
		char buf[64], what[128];

		snprintf(what, sizeof(what), "case %zu (%s)", i, c->lng);
		memset(buf, 'x', sizeof(buf));
		const char *r = oc_node_state_compact(&n, buf, sizeof(buf));
		if (strcmp(buf, c->compact) != 0)
			print_error("%s: compact \"%s\" != \"%s\"\n", what, buf, c->compact);
		assert_ptr_equal(r, buf);
		assert_string_equal(buf, c->compact);

		memset(buf, 'x', sizeof(buf));
		r = oc_node_state_long(&n, buf, sizeof(buf));
		if (strcmp(buf, c->lng) != 0)
			print_error("%s: long \"%s\"\n", what, buf);
		assert_ptr_equal(r, buf);
		assert_string_equal(buf, c->lng);

		if (oc_node_health(&n) != c->health)
			print_error("%s: health %s, want %s\n", what,
				    oc_health_name(oc_node_health(&n)), oc_health_name(c->health));
		assert_int_equal(oc_node_health(&n), c->health);
	}
}

/* A flag the console has no name for is shown: '?' after sinfo's word,
 * its name after scontrol's. */
static void test_node_state_other(void **state)
{
	(void)state;
	char buf[64];
	struct oc_node n = { .base = OC_NODE_IDLE, .flags = OC_NF_OTHER, .other_flags = "+SHINY_NEW" };
	assert_string_equal(oc_node_state_compact(&n, buf, sizeof(buf)), "idle?");
	assert_string_equal(oc_node_state_long(&n, buf, sizeof(buf)), "IDLE+SHINY_NEW");
	n.flags |= OC_NF_DRAIN | OC_NF_NOT_RESPONDING;
	n.other_flags = "+ERROR+0x40000000";
	assert_string_equal(oc_node_state_compact(&n, buf, sizeof(buf)), "drain*?");
	assert_string_equal(oc_node_state_long(&n, buf, sizeof(buf)), "IDLE+DRAIN+NOT_RESPONDING+ERROR+0x40000000");
	assert_int_equal(oc_node_health(&n), OC_HEALTH_DRAINED);
	/* The mark is dropped, not the word, when the buffer is short. */
	n.flags = OC_NF_OTHER;
	char small[5];
	assert_string_equal(oc_node_state_compact(&n, small, sizeof(small)), "idle");
	/* OC_NF_OTHER without a string (it did not fit): still marked. */
	n.other_flags = NULL;
	assert_string_equal(oc_node_state_compact(&n, buf, sizeof(buf)), "idle?");
	assert_string_equal(oc_node_state_long(&n, buf, sizeof(buf)), "IDLE");
}

static void test_node_state_buffers(void **state)
{
	(void)state;
	struct oc_node n = { .base = OC_NODE_IDLE,
			     .flags = OC_NF_DRAIN | OC_NF_NOT_RESPONDING };
	char buf[32];

	/* truncated, but NUL terminated */
	memset(buf, 'x', sizeof(buf));
	oc_node_state_compact(&n, buf, 3);
	assert_string_equal(buf, "dr");
	memset(buf, 'x', sizeof(buf));
	oc_node_state_compact(&n, buf, 6);
	assert_string_equal(buf, "drain");
	memset(buf, 'x', sizeof(buf));
	oc_node_state_long(&n, buf, 12);
	assert_string_equal(buf, "IDLE+DRAIN+");
	memset(buf, 'x', sizeof(buf));
	oc_node_state_long(&n, buf, 3);
	assert_string_equal(buf, "ID");
	/* len 0: nothing written */
	buf[0] = 'q';
	assert_ptr_equal(oc_node_state_compact(&n, buf, 0), buf);
	assert_ptr_equal(oc_node_state_long(&n, buf, 0), buf);
	assert_int_equal(buf[0], 'q');
	/* NULL node */
	assert_string_equal(oc_node_state_compact(NULL, buf, sizeof(buf)), "unk");
	assert_string_equal(oc_node_state_long(NULL, buf, sizeof(buf)), "UNKNOWN");
	assert_int_equal(oc_node_health(NULL), OC_HEALTH_OK);
	/* every flag at once fits in 256 bytes and starts with the base */
	struct oc_node all = { .base = OC_NODE_MIXED, .flags = 0xffff };
	char big[256];
	oc_node_state_long(&all, big, sizeof(big));
	assert_string_equal(big,
			    "MIXED+CLOUD+COMPLETING+DRAIN+DYNAMIC_NORM+INVALID_REG+FAIL+"
			    "MAINTENANCE+POWER_DOWN+POWERED_DOWN+REBOOT_REQUESTED+"
			    "REBOOT_ISSUED+RESERVED+NOT_RESPONDING+PLANNED+POWERING_UP+"
			    "POWERING_DOWN");
}

static void test_health_names(void **state)
{
	(void)state;
	assert_string_equal(oc_health_name(OC_HEALTH_OK), "ok");
	assert_string_equal(oc_health_name(OC_HEALTH_DRAINING), "draining");
	assert_string_equal(oc_health_name(OC_HEALTH_DRAINED), "drained");
	assert_string_equal(oc_health_name(OC_HEALTH_DOWN), "down");
	assert_string_equal(oc_health_name(OC_HEALTH_NOT_RESPONDING), "not responding");
	assert_string_equal(oc_health_name(OC_HEALTH_POWER), "power saving");
	assert_string_equal(oc_health_name(OC_HEALTH_COUNT), "?");
	assert_string_equal(oc_health_name((enum oc_health)-1), "?");
}

static void test_job_states(void **state)
{
	(void)state;
	static const struct {
		enum oc_job_state s;
		const char *name, *compact;
	} cases[] = {
		{ OC_JOB_PENDING, "PENDING", "PD" },
		{ OC_JOB_RUNNING, "RUNNING", "R" },
		{ OC_JOB_SUSPENDED, "SUSPENDED", "S" },
		{ OC_JOB_COMPLETE, "COMPLETED", "CD" },
		{ OC_JOB_CANCELLED, "CANCELLED", "CA" },
		{ OC_JOB_FAILED, "FAILED", "F" },
		{ OC_JOB_TIMEOUT, "TIMEOUT", "TO" },
		{ OC_JOB_NODE_FAIL, "NODE_FAIL", "NF" },
		{ OC_JOB_PREEMPTED, "PREEMPTED", "PR" },
		{ OC_JOB_BOOT_FAIL, "BOOT_FAIL", "BF" },
		{ OC_JOB_DEADLINE, "DEADLINE", "DL" },
		{ OC_JOB_OOM, "OUT_OF_MEMORY", "OOM" },
	};
	assert_int_equal(sizeof(cases) / sizeof(cases[0]), OC_JOB_STATE_COUNT);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct oc_job j = { .job_id = 1, .state = cases[i].s };
		assert_string_equal(oc_job_state_name(cases[i].s), cases[i].name);
		assert_string_equal(oc_job_state_compact(&j), cases[i].compact);
		/* completing wins over any base state */
		j.flags = OC_JF_COMPLETING;
		assert_string_equal(oc_job_state_compact(&j), "CG");
		j.flags = OC_JF_COMPLETING | OC_JF_CONFIGURING;
		assert_string_equal(oc_job_state_compact(&j), "CG");
		/* held is not a state of its own in squeue */
		j.flags = OC_JF_HELD;
		assert_string_equal(oc_job_state_compact(&j), cases[i].compact);
	}
	struct oc_job j = { .state = OC_JOB_RUNNING, .flags = OC_JF_CONFIGURING };
	assert_string_equal(oc_job_state_compact(&j), "CF");
	j.flags = OC_JF_RESIZING;
	assert_string_equal(oc_job_state_compact(&j), "RS");
	j.flags = OC_JF_REQUEUED;
	j.state = OC_JOB_PENDING;
	assert_string_equal(oc_job_state_compact(&j), "RQ");
	j.flags = 0;
	j.state = OC_JOB_STATE_COUNT;
	assert_string_equal(oc_job_state_compact(&j), "?");
	assert_string_equal(oc_job_state_name(OC_JOB_STATE_COUNT), "?");
	assert_string_equal(oc_job_state_name((enum oc_job_state)-1), "?");
	assert_string_equal(oc_job_state_compact(NULL), "?");
}

static void test_format_minutes(void **state)
{
	(void)state;
	static const struct {
		uint32_t min;
		const char *want;
	} cases[] = {
		{ 0, "0:00" },
		{ 1, "1:00" },
		{ 30, "30:00" },
		{ 59, "59:00" },
		{ 60, "1:00:00" },
		{ 90, "1:30:00" },
		{ 1439, "23:59:00" },
		{ 1440, "1-00:00:00" },
		{ 2 * 1440 + 61, "2-01:01:00" },
		{ 14 * 1440, "14-00:00:00" },
		{ OC_NONE - 1, "2982616-04:14:00" },
		{ OC_NONE, "UNLIMITED" },
	};
	char buf[32];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(oc_format_minutes(cases[i].min, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].want);
	}
	oc_format_minutes(1440, buf, 5);
	assert_string_equal(buf, "1-00");
	oc_format_minutes(OC_NONE, buf, 4);
	assert_string_equal(buf, "UNL");
}

static void test_format_duration(void **state)
{
	(void)state;
	static const struct {
		long long s;
		const char *want;
	} cases[] = {
		{ 0, "0:00" },
		{ 5, "0:05" },
		{ 59, "0:59" },
		{ 60, "1:00" },
		{ 3599, "59:59" },
		{ 3600, "1:00:00" },
		{ 3723, "1:02:03" },
		{ 86399, "23:59:59" },
		{ 86400, "1-00:00:00" },
		{ 2 * 86400 + 3600, "2-01:00:00" },
		{ 400 * 86400 + 61, "400-00:01:01" },
		{ -5, "0:00" },
		{ -9223372036854775807LL - 1, "0:00" },
	};
	char buf[32];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(oc_format_duration(cases[i].s, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].want);
	}
}

static void test_format_age(void **state)
{
	(void)state;
	static const struct {
		long long s;
		const char *want;
	} cases[] = {
		{ 0, "0s" },  { 5, "5s" },       { 59, "59s" },   { 60, "1m" },
		{ 179, "2m" }, { 3599, "59m" },  { 3600, "1h" },  { 7200, "2h" },
		{ 86399, "23h" }, { 86400, "1d" }, { 4 * 86400 + 5, "4d" },
		{ 400 * 86400, "400d" }, { -3, "0s" },
	};
	char buf[16];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_ptr_equal(oc_format_age(cases[i].s, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].want);
	}
	buf[0] = 'q';
	oc_format_age(5, buf, 0);
	assert_int_equal(buf[0], 'q');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_state_table),
		cmocka_unit_test(test_node_state_buffers),
		cmocka_unit_test(test_node_state_other),
		cmocka_unit_test(test_health_names),
		cmocka_unit_test(test_job_states),
		cmocka_unit_test(test_format_minutes),
		cmocka_unit_test(test_format_duration),
		cmocka_unit_test(test_format_age),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
