/* test_probe_eval.c: a node probe's output against its check (expect,
 * min, max, errors) and the drain reason made from the failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "actions/plan.h"
#include "actions/probe_eval.h"

static struct oc_probe_check check_expect(const char *name, const char *expect)
{
	struct oc_probe_check c;
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.command, sizeof(c.command), "true");
	snprintf(c.expect, sizeof(c.expect), "%s", expect);
	c.has_expect = true;
	return c;
}

static struct oc_probe_check check_bounds(const char *name, const double *min, const double *max)
{
	struct oc_probe_check c;
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.command, sizeof(c.command), "true");
	if (min) {
		c.min = *min;
		c.has_min = true;
	}
	if (max) {
		c.max = *max;
		c.has_max = true;
	}
	return c;
}

static void test_expect(void **state)
{
	(void)state;
	struct oc_probe_check c = check_expect("gpu count", "8");
	struct oc_probe_check_result r;
	assert_int_equal(oc_probe_eval_check(&c, "8\n", "", 0, &r), OC_PROBE_OK);
	assert_string_equal(r.value, "8");
	/* Trimmed at both ends. */
	assert_int_equal(oc_probe_eval_check(&c, "  \t8 \r\n\n", NULL, 0, &r), OC_PROBE_OK);
	assert_int_equal(oc_probe_eval_check(&c, "7\n", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.value, "7");
	assert_string_equal(r.text, "7, want 8");
	/* Exact: "08" and "8.0" are not "8". */
	assert_int_equal(oc_probe_eval_check(&c, "08", "", 0, &r), OC_PROBE_FAILED);
	assert_int_equal(oc_probe_eval_check(&c, "", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.text, "no output, want \"8\"");
	assert_int_equal(oc_probe_eval_check(&c, NULL, NULL, 0, &r), OC_PROBE_FAILED);
}

static void test_expect_empty(void **state)
{
	(void)state;
	struct oc_probe_check c = check_expect("xid", "");
	struct oc_probe_check_result r;
	assert_int_equal(oc_probe_eval_check(&c, "\n", "", 0, &r), OC_PROBE_OK);
	assert_int_equal(oc_probe_eval_check(&c, "79,48\n", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.value, "79,48");
	assert_string_equal(r.text, "79,48, want no output");
}

static void test_bounds(void **state)
{
	(void)state;
	double max = 90, min = 4, zero = 0;
	struct oc_probe_check temp = check_bounds("gpu temp", NULL, &max);
	struct oc_probe_check_result r;
	assert_int_equal(oc_probe_eval_check(&temp, "71\n", "", 0, &r), OC_PROBE_OK);
	assert_int_equal(oc_probe_eval_check(&temp, "90", "", 0, &r), OC_PROBE_OK);
	assert_int_equal(oc_probe_eval_check(&temp, "90.5", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.text, "90.5 above max 90");
	struct oc_probe_check lo = check_bounds("disks", &min, NULL);
	assert_int_equal(oc_probe_eval_check(&lo, "3", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.text, "3 below min 4");
	assert_int_equal(oc_probe_eval_check(&lo, "4", "", 0, &r), OC_PROBE_OK);
	struct oc_probe_check ecc = check_bounds("ecc", &zero, &zero);
	assert_int_equal(oc_probe_eval_check(&ecc, "0", "", 0, &r), OC_PROBE_OK);
	assert_int_equal(oc_probe_eval_check(&ecc, "-1", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.text, "-1 below min 0");
}

/* A bound set and output that is not a number: a failure that says so. */
static void test_not_a_number(void **state)
{
	(void)state;
	double max = 90;
	struct oc_probe_check temp = check_bounds("gpu temp", NULL, &max);
	struct oc_probe_check_result r;
	static const char *const bad[] = {"N/A", "71 C", "71\n72", "nan", "inf", "0x10", "1e999", "-"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (oc_probe_eval_check(&temp, bad[i], "", 0, &r) != OC_PROBE_FAILED)
			fail_msg("\"%s\" passed a numeric check", bad[i]);
		if (!strstr(r.text, "not a number"))
			fail_msg("\"%s\": text \"%s\"", bad[i], r.text);
	}
	assert_int_equal(oc_probe_eval_check(&temp, "N/A\n", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.text, "not a number: \"N/A\", want a number of at most 90");
	assert_int_equal(oc_probe_eval_check(&temp, "", "", 0, &r), OC_PROBE_FAILED);
	assert_string_equal(r.text, "no output, want a number of at most 90");
}

/* A non-zero exit, a signal or a timeout is an error, never a pass, even
 * when the output would pass. */
static void test_errors(void **state)
{
	(void)state;
	struct oc_probe_check c = check_expect("gpu count", "8");
	struct oc_probe_check_result r;
	assert_int_equal(oc_probe_eval_check(&c, "8", "cat: /x: No such file or directory\nmore\n", 1, &r),
			 OC_PROBE_ERROR);
	assert_string_equal(r.text, "exit 1: cat: /x: No such file or directory");
	assert_int_equal(oc_probe_eval_check(&c, "8", "", OC_PROBE_EXIT_TIMED_OUT, &r), OC_PROBE_ERROR);
	assert_string_equal(r.text, "timed out");
	assert_int_equal(oc_probe_eval_check(&c, "8", NULL, OC_PROBE_EXIT_SIGNALED, &r), OC_PROBE_ERROR);
	assert_int_equal(oc_probe_eval_check(&c, "", "", 127, &r), OC_PROBE_ERROR);
	assert_string_equal(r.text, "exit 127");
}

/* Values are shown on one line: control characters become one space;
 * long values are cut at a character. */
static void test_value_display(void **state)
{
	(void)state;
	struct oc_probe_check c = check_expect("x", "y");
	struct oc_probe_check_result r;
	oc_probe_eval_check(&c, "a\nb\x1b[31mc", "", 0, &r);
	assert_string_equal(r.value, "a b [31mc");
	char big[400];
	memset(big, 'x', sizeof(big));
	memcpy(big + 125, "\xc3\xa9\xc3\xa9", 4); /* é straddles byte 127 */
	big[sizeof(big) - 1] = '\0';
	oc_probe_eval_check(&c, big, "", 0, &r);
	assert_true(strlen(r.value) <= 127);
	assert_int_equal((unsigned char)r.value[strlen(r.value) - 1] & 0xc0, 0x80); /* ends on a whole é */
}

static void test_reason(void **state)
{
	(void)state;
	double max = 90;
	struct oc_probe_check checks[3] = {check_expect("gpu count", "8"), check_expect("xid", ""),
					   check_bounds("gpu temp", NULL, &max)};
	struct oc_probe_check_result r[3];
	char reason[OC_PLAN_REASON_MAX + 1];
	oc_probe_eval_check(&checks[0], "7", "", 0, &r[0]);
	oc_probe_eval_check(&checks[1], "", "", 0, &r[1]);
	oc_probe_eval_check(&checks[2], "60", "", 0, &r[2]);
	assert_int_equal(oc_probe_eval_reason(checks, r, 3, NULL, reason, sizeof(reason)), 1);
	assert_string_equal(reason, "probe: gpu count 7");
	oc_probe_eval_check(&checks[1], "79,48\n", "", 0, &r[1]);
	assert_int_equal(oc_probe_eval_reason(checks, r, 3, NULL, reason, sizeof(reason)), 2);
	assert_string_equal(reason, "probe: gpu count 7; xid 79,48");
	oc_probe_eval_check(&checks[0], "", "", 0, &r[0]);
	oc_probe_eval_reason(checks, r, 3, NULL, reason, sizeof(reason));
	assert_string_equal(reason, "probe: gpu count (no output); xid 79,48");
	/* Nothing failed: no reason. */
	for (int i = 0; i < 3; i++)
		oc_probe_eval_check(&checks[i], i == 0 ? "8" : i == 1 ? "" : "50", "", 0, &r[i]);
	assert_int_equal(oc_probe_eval_reason(checks, r, 3, NULL, reason, sizeof(reason)), 0);
	assert_string_equal(reason, "");
	/* Errors only: named as such; the node's own failure when no check ran. */
	oc_probe_eval_check(&checks[2], "", "nvidia-smi: not found", 127, &r[2]);
	oc_probe_eval_reason(checks, r, 3, NULL, reason, sizeof(reason));
	assert_string_equal(reason, "probe: gpu temp error");
	struct oc_probe_check_result none[3];
	memset(none, 0, sizeof(none));
	oc_probe_eval_reason(checks, none, 3, "no answer after 10 s", reason, sizeof(reason));
	assert_string_equal(reason, "probe: no answer after 10 s");
	/* The reason is accepted by the drain form's check. */
	char err[256];
	assert_int_equal(oc_plan_check_reason(reason, err, sizeof(err)), 0);
}

/* Many long failures: cut at a whole failure within Slurm's reason
 * length, saying how many were left out. */
static void test_reason_length(void **state)
{
	(void)state;
	struct oc_probe_check checks[OC_PROBE_MAX_CHECKS];
	struct oc_probe_check_result r[OC_PROBE_MAX_CHECKS];
	char longval[200];
	memset(longval, 'v', sizeof(longval));
	longval[sizeof(longval) - 1] = '\0';
	for (int i = 0; i < OC_PROBE_MAX_CHECKS; i++) {
		char name[64];
		snprintf(name, sizeof(name), "check number %02d with a long name", i);
		checks[i] = check_expect(name, "ok");
		oc_probe_eval_check(&checks[i], longval, "", 0, &r[i]);
	}
	char reason[2048];
	size_t named = oc_probe_eval_reason(checks, r, OC_PROBE_MAX_CHECKS, NULL, reason, sizeof(reason));
	assert_true(named > 1 && named < OC_PROBE_MAX_CHECKS);
	assert_true(strlen(reason) <= OC_PLAN_REASON_MAX);
	char tail[32];
	snprintf(tail, sizeof(tail), "; +%zu more", (size_t)OC_PROBE_MAX_CHECKS - named);
	assert_non_null(strstr(reason, tail));
	assert_string_equal(reason + strlen(reason) - strlen(tail), tail);
	char err[256];
	assert_int_equal(oc_plan_check_reason(reason, err, sizeof(err)), 0);
	/* A small buffer: cut to it, still at a whole failure. */
	char small[60];
	oc_probe_eval_reason(checks, r, OC_PROBE_MAX_CHECKS, NULL, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
	assert_true(strncmp(small, "probe: check number 00", 22) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expect),	       cmocka_unit_test(test_expect_empty),
		cmocka_unit_test(test_bounds),	       cmocka_unit_test(test_not_a_number),
		cmocka_unit_test(test_errors),	       cmocka_unit_test(test_value_display),
		cmocka_unit_test(test_reason),	       cmocka_unit_test(test_reason_length),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
