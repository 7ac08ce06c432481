/* The time forms of --since/--until (core/timespec.c), in a fixed zone. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/timespec.h"

/* 2026-12-02 20:30:00 UTC */
#define NOW ((time_t)1796243400)

static time_t ok(const char *spec)
{
	time_t t = 0;
	char err[200] = "";
	assert_int_equal(oc_time_parse(spec, NOW, &t, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	return t;
}

static void bad(const char *spec, const char *words)
{
	time_t t = 12345;
	char err[200] = "";
	assert_int_equal(oc_time_parse(spec, NOW, &t, err, sizeof(err)), -1);
	assert_int_equal(t, 12345);
	assert_non_null(strstr(err, words));
}

static void test_relative(void **state)
{
	(void)state;
	assert_int_equal(ok("now"), NOW);
	assert_int_equal(ok("now-24hours"), NOW - 86400);
	assert_int_equal(ok("now-24h"), NOW - 86400);
	assert_int_equal(ok("now+30minutes"), NOW + 1800);
	assert_int_equal(ok("now-30min"), NOW - 1800);
	assert_int_equal(ok("now-2days"), NOW - 2 * 86400);
	assert_int_equal(ok("now-1week"), NOW - 7 * 86400);
	assert_int_equal(ok("now-90"), NOW - 90);
	assert_int_equal(ok("NOW-5seconds"), NOW - 5);
	bad("now-", "now[+|-]COUNT");
	bad("now-3parsecs", "now[+|-]COUNT");
	bad("now*2", "now[+|-]COUNT");
}

static void test_absolute(void **state)
{
	(void)state;
	assert_int_equal(ok("2026-12-01"), 1796083200);
	assert_int_equal(ok("2026-12-01T08:00"), 1796083200 + 8 * 3600);
	assert_int_equal(ok("2026-12-01T08:00:30"), 1796083200 + 8 * 3600 + 30);
	assert_int_equal(ok("12/01"), 1796083200);
	assert_int_equal(ok("12/01/26-08:00"), 1796083200 + 8 * 3600);
	assert_int_equal(ok("today"), 1796169600);
	assert_int_equal(ok("midnight"), 1796169600);
	assert_int_equal(ok("noon"), 1796169600 + 12 * 3600);
	assert_int_equal(ok("08:15"), 1796169600 + 8 * 3600 + 15 * 60);
	assert_int_equal(ok("@1700000000"), 1700000000);
	bad("2026-02-30", "no such date");
	bad("2026-13-01", "no such date");
	bad("2026-12-01T25:00", "is not a time");
	bad("yesterday-ish", "is not a time");
	bad("", "empty");
	bad("@12x", "@SECONDS");
}

static void test_window(void **state)
{
	(void)state;
	time_t s, u;
	char err[200];
	assert_int_equal(oc_time_window("now-24hours", NULL, NOW, &s, &u, err, sizeof(err)), 0);
	assert_int_equal(s, NOW - 86400);
	assert_int_equal(u, NOW);
	assert_int_equal(oc_time_window("now-1hour", "now-2hours", NOW, &s, &u, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is after --until"));
	assert_int_equal(oc_time_window("then", "", NOW, &s, &u, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--since: 'then'"));
	assert_int_equal(oc_time_window("today", "soon", NOW, &s, &u, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--until: 'soon'"));
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_absolute),
		cmocka_unit_test(test_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
