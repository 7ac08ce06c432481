/* test_reason.c: the drain/down reason classifier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/reason.h"

static void test_health_prefixes(void **state)
{
	(void)state;
	assert_int_equal(oc_reason_classify("prolog: gpu count 7", "root", "slurm"), OC_RS_HEALTH);
	assert_int_equal(oc_reason_classify("epilog: dcgmi diag -r 2 failed job=12", "root", "root"), OC_RS_HEALTH);
	assert_int_equal(oc_reason_classify("periodic: temp/ecc", NULL, NULL), OC_RS_HEALTH);
	assert_int_equal(oc_reason_classify("  Prolog : xid", "alice", "slurm"), OC_RS_HEALTH);
	assert_int_equal(oc_reason_classify("probe: gpu count 7", "root", "slurm"), OC_RS_HEALTH);
	/* A prefix must be the whole word before the colon. */
	assert_int_equal(oc_reason_classify("prologue: x", "root", "root"), OC_RS_OTHER);
	assert_int_equal(oc_reason_classify("check prolog: x", "bob", "slurm"), OC_RS_MANUAL);
}

static void test_slurm_reasons(void **state)
{
	(void)state;
	assert_int_equal(oc_reason_classify("Not responding", "slurm", "slurm"), OC_RS_SLURM);
	assert_int_equal(oc_reason_classify("Kill task failed", "root", "slurm"), OC_RS_SLURM);
	assert_int_equal(oc_reason_classify("Low RealMemory (reported:1000 < 100.00% of configured:400000)", "slurm", "slurm"), OC_RS_SLURM);
	assert_int_equal(oc_reason_classify("gres/gpu count reported lower than configured (7 < 8)", "slurm", "slurm"), OC_RS_SLURM);
	assert_int_equal(oc_reason_classify("Node unexpectedly rebooted boot_time=1 last response=2", "slurm", "slurm"), OC_RS_SLURM);
	assert_int_equal(oc_reason_classify("batch job complete failure", "slurm", "slurm"), OC_RS_SLURM);
	/* Slurm's texts win even when a person's uid is recorded. */
	assert_int_equal(oc_reason_classify("not responding", "alice", "slurm"), OC_RS_SLURM);
}

static void test_manual_and_other(void **state)
{
	(void)state;
	assert_int_equal(oc_reason_classify("replace PSU, ticket 4711", "alice", "slurm"), OC_RS_MANUAL);
	assert_int_equal(oc_reason_classify("replace PSU", "root", "slurm"), OC_RS_MANUAL);
	/* Set by SlurmUser but not a text Slurm sets: kept, as other. */
	assert_int_equal(oc_reason_classify("replace PSU", "slurm", "slurm"), OC_RS_OTHER);
	assert_int_equal(oc_reason_classify("replace PSU", NULL, "slurm"), OC_RS_OTHER);
	assert_int_equal(oc_reason_classify("replace PSU", "root", NULL), OC_RS_MANUAL);
	assert_int_equal(oc_reason_classify("", "root", "slurm"), OC_RS_OTHER);
	assert_int_equal(oc_reason_classify(NULL, NULL, NULL), OC_RS_OTHER);
	assert_int_equal(oc_reason_classify(":", "root", "root"), OC_RS_OTHER);
	assert_string_equal(oc_reason_source_name(OC_RS_HEALTH), "health check");
	assert_string_equal(oc_reason_source_name(OC_RS_OTHER), "other");
	assert_string_equal(oc_reason_source_name(OC_RS_COUNT), "other");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_health_prefixes),
		cmocka_unit_test(test_slurm_reasons),
		cmocka_unit_test(test_manual_and_other),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
