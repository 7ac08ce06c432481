/* test_exec.c: oc_exec_run (source/exec.c) and the local transport:
 * stdout and stderr apart, output of any size, timeouts, programs that
 * cannot run. (The programs are the system's own: sh, head, true.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "source/exec.h"
#include "source/transport.h"

static void test_streams_apart(void **state)
{
	(void)state;
	const char *argv[] = {"sh", "-c", "echo out1; echo err1 >&2; echo out2; exit 3", NULL};
	struct oc_run_result r;
	char err[256];
	assert_int_equal(oc_exec_run(argv, 10, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, 3);
	assert_string_equal(r.out, "out1\nout2\n");
	assert_int_equal(r.out_len, 10);
	assert_string_equal(r.errout, "err1\n");
	oc_run_result_clear(&r);
	assert_null(r.out);
}

static void test_large_output(void **state)
{
	(void)state;
	/* 5 MB on stdout and 1 MB on stderr at the same time: no pipe may
	 * block the other, nothing is cut. */
	const char *argv[] = {"sh", "-c", "head -c 1000000 /dev/zero >&2 & head -c 5000000 /dev/zero; wait", NULL};
	struct oc_run_result r;
	char err[256];
	assert_int_equal(oc_exec_run(argv, 30, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(r.out_len, 5000000);
	assert_int_equal(r.err_len, 1000000);
	assert_int_equal(r.out[r.out_len], '\0');
	oc_run_result_clear(&r);
}

static void test_timeout_and_missing(void **state)
{
	(void)state;
	const char *sleeper[] = {"sh", "-c", "echo started; sleep 30", NULL};
	struct oc_run_result r;
	char err[256];
	assert_int_equal(oc_exec_run(sleeper, 1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, OC_EXEC_TIMED_OUT);
	assert_non_null(strstr(err, "timed out after 1 s"));
	assert_string_equal(r.out, "started\n");
	oc_run_result_clear(&r);
	const char *missing[] = {"oc-no-such-program", NULL};
	assert_int_equal(oc_exec_run(missing, 1, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not found in PATH"));
	oc_run_result_clear(&r);
	const char *notexec[] = {"/etc/hostname", NULL};
	assert_int_equal(oc_exec_run(notexec, 1, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot run /etc/hostname"));
	oc_run_result_clear(&r);
}

static void test_local_transport(void **state)
{
	(void)state;
	char err[256];
	struct oc_transport *t = oc_local_transport_open(err, sizeof(err));
	assert_non_null(t);
	assert_string_equal(t->ops->describe(t), "local");
	/* An argv word reaches the program as it is: no shell in between. */
	const char *word = "a b;$(echo no) 'q' \"d\"\nline é";
	const char *argv[] = {"printf", "%s", word, NULL};
	struct oc_run_result r;
	assert_int_equal(t->ops->run(t, argv, 10, &r, err, sizeof(err)), 0);
	assert_string_equal(r.out, word);
	assert_int_equal(r.err_len, 0);
	oc_run_result_clear(&r);
	oc_transport_close(&t);
	assert_null(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams_apart),
		cmocka_unit_test(test_large_output),
		cmocka_unit_test(test_timeout_and_missing),
		cmocka_unit_test(test_local_transport),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
