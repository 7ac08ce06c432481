/* test_window.c: the change window's checks, names and paths
 * (rehearsal/window.h), shared by `opsconsole window` and :window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rehearsal/window.h"

static void test_same_nodes_same_window(void **state)
{
	(void)state;
	static struct oc_window a, b;
	char err[512];
	setenv("XDG_STATE_HOME", "/var/tmp/oc-state", 1);
	assert_int_equal(oc_window_prepare("llm-poc", "gpu-st-b300-3,gpu-st-b300-4", NULL, NULL, &a, err, sizeof(err)), 0);
	assert_int_equal(oc_window_prepare("llm-poc", "gpu-st-b300-[3-4]", "driver 580", NULL, &b, err, sizeof(err)), 0);
	assert_string_equal(a.nodes, "gpu-st-b300-[3-4]");
	assert_int_equal(a.count, 2);
	assert_string_equal(a.reason, "maintenance window");
	assert_string_equal(a.name, b.name);
	assert_true(strncmp(a.name, "maint-", 6) == 0 && strlen(a.name) == 14);
	assert_string_equal(a.progress, b.progress);
	char want[512];
	snprintf(want, sizeof(want), "/var/tmp/oc-state/opsconsole/window-llm-poc-%s.progress.json", a.suffix);
	assert_string_equal(a.progress, want);
	assert_string_equal(a.vars[0].name, "nodes");
	assert_string_equal(a.vars[0].value, "gpu-st-b300-[3-4]");
	assert_string_equal(b.vars[1].value, "driver 580");
	assert_string_equal(b.vars[2].name, "resv_name");
	snprintf(want, sizeof(want), "change window on gpu-st-b300-[3-4] (2 nodes, reservation %s)", a.name);
	assert_string_equal(a.headline, want);
}

static void test_bad_input(void **state)
{
	(void)state;
	static struct oc_window w;
	char err[512];
	assert_int_equal(oc_window_prepare("c", "", NULL, NULL, &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nodes"));
	assert_int_equal(oc_window_prepare("c", "gpu-st-b300-[3-", NULL, NULL, &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a hostlist expression"));
	assert_int_equal(oc_window_prepare("c", "a b", NULL, NULL, &w, err, sizeof(err)), -1);
	assert_int_equal(oc_window_prepare("c", "n1", "two\nlines", NULL, &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "reason"));
	assert_int_equal(oc_window_prepare("c", "n1", "", NULL, &w, err, sizeof(err)), -1);
	assert_int_equal(oc_window_prepare("c", "n1", NULL, "a b", &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 to 64 of"));
	char longname[80];
	memset(longname, 'x', 70);
	longname[70] = '\0';
	assert_int_equal(oc_window_prepare("c", "n1", NULL, longname, &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 to 64 of"));
	assert_int_equal(oc_window_prepare("c", "n1", NULL, "pcluster-cb1", &w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ParallelCluster's"));
	assert_int_equal(oc_window_prepare("c", "n1", NULL, "my.window_1", &w, err, sizeof(err)), 0);
	assert_string_equal(w.name, "my.window_1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_nodes_same_window),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
