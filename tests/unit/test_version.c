/* test_version.c: Slurm release majors (core/version.c), as --version and
 * the header compare the libslurm built against with slurmctld's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/version.h"

static void test_major(void **state)
{
	(void)state;
	char m[16];
	static const char *const cases[][2] = {
		{"22.05.8", "22.05"},	     {"24.11.5", "24.11"},	   {"26.05.0-0rc1", "26.05"},
		{"slurm 24.11.5", "24.11"}, {"slurm-wlm 25.11.2", "25.11"}, {"25.11", "25.11"},
		{"24.5.0", "24.05"},	     {"23.02.7-1", "23.02"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(oc_version_major(cases[i][0], m, sizeof(m)), 0);
		assert_string_equal(m, cases[i][1]);
	}
	static const char *const bad[] = {"", "?", "slurm", "24", "24.", ".11", "x24.11"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(m, "junk");
		if (oc_version_major(bad[i], m, sizeof(m)) != -1)
			fail_msg("\"%s\" read as a version: %s", bad[i], m);
		assert_string_equal(m, "");
	}
	assert_int_equal(oc_version_major(NULL, m, sizeof(m)), -1);
	assert_int_equal(oc_version_major("24.11.5", NULL, 0), -1);
	char tiny[4];
	assert_int_equal(oc_version_major("24.11.5", tiny, sizeof(tiny)), -1);
	assert_string_equal(tiny, "");
	/* A number far too long is not a version. */
	assert_int_equal(oc_version_major("12345678901234567.1", m, sizeof(m)), -1);
}

static void test_differ(void **state)
{
	(void)state;
	assert_true(oc_version_majors_differ("22.05.8", "24.11.5"));
	assert_true(oc_version_majors_differ("25.11.0", "26.05.1"));
	assert_false(oc_version_majors_differ("24.11.1", "24.11.5"));
	assert_false(oc_version_majors_differ("24.05.0", "24.5.3"));
	assert_false(oc_version_majors_differ("slurm 25.11.2", "25.11.0"));
	/* Nothing to compare: not a mismatch (the header then shows "?"). */
	assert_false(oc_version_majors_differ("22.05.8", ""));
	assert_false(oc_version_majors_differ(NULL, "24.11.5"));
	assert_false(oc_version_majors_differ("?", "?"));
}

/* A node's slurmd against slurmctld: the whole release, unknown is equal. */
static void test_slurmd_differs(void **state)
{
	(void)state;
	assert_true(oc_version_slurmd_differs("25.05.3", "25.11.1"));
	assert_true(oc_version_slurmd_differs("25.11.0", "25.11.1"));
	assert_false(oc_version_slurmd_differs("25.11.1", "25.11.1"));
	assert_false(oc_version_slurmd_differs(NULL, "25.11.1"));
	assert_false(oc_version_slurmd_differs("", "25.11.1"));
	assert_false(oc_version_slurmd_differs("25.11.1", ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_major),
		cmocka_unit_test(test_differ),
		cmocka_unit_test(test_slurmd_differs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
