/* test_plan.c: the plans of actions: shell quoting (checked against real
 * shells), the equivalent command lines, and the form checks and parsers.
 * The product never runs a shell; this test does, to prove that what an
 * admin copy-pastes arrives verbatim. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "actions/plan.h"
#include "actions/worker.h"
#include "actions/writer.h"
#include "test_util.h"

/* ---- helpers ---- */

/* A folder with files that unquoted glob patterns of the corpus would
 * match ([a-z], gpu-st-b300-[3-5,9], ?, *): the shells run in it, so a
 * pattern left bare changes what is printed. Removed at the end. */
static char globdir[4096];

static void make_globdir(void)
{
	static const char *files[] = {"a", "z", "x", "1", "gpu-st-b300-3", "gpu-st-b300-9", "x-1",
				      "NodeName=gpu-st-b300-3", "Reason=a"};
	if (globdir[0])
		return;
	const char *base = getenv("TMPDIR");
	snprintf(globdir, sizeof(globdir), "%s/oc-plan-XXXXXX", base && base[0] ? base : "/tmp");
	assert_non_null(mkdtemp(globdir));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", globdir, files[i]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fclose(f);
	}
}

static void remove_globdir(void)
{
	if (!globdir[0])
		return;
	char cmd[8192];
	/* the folder made by mkdtemp above */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", globdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", globdir);
	globdir[0] = '\0';
}

/* Run shell -c script in globdir (bash with failglob: an unmatched
 * pattern fails too), return its stdout (malloc'd, *len bytes) and
 * assert it exited 0. */
static char *run_shell(const char *shell, const char *script_in, size_t *len)
{
	make_globdir();
	static const char prefix[] = "shopt -s failglob 2>/dev/null || :; ";
	size_t slen = sizeof(prefix) + strlen(script_in);
	char *script = malloc(slen);
	assert_non_null(script);
	snprintf(script, slen, "%s%s", prefix, script_in);
	char *const argv[] = {(char *)shell, (char *)"-c", script, NULL};
	char *const envp[] = {(char *)"PATH=/usr/bin:/bin", (char *)"LC_ALL=C.UTF-8", NULL};
	int status;
	char *buf = test_util_run(shell, argv, envp, globdir, len, &status);
	free(script);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) != 0)
		fail_msg("%s exited %d for: %s", shell, WEXITSTATUS(status), script_in);
	return buf;
}

static char *quote_alloc(const char *s)
{
	size_t need = oc_plan_quote(s, NULL, 0);
	char *q = malloc(need + 1);
	assert_non_null(q);
	assert_int_equal(oc_plan_quote(s, q, need + 1), need);
	assert_int_equal(strlen(q), need);
	return q;
}

/* sh -c 'printf %s <quoted>' prints exactly s, in every shell here. */
static void check_roundtrip(const char *s)
{
	char *q = quote_alloc(s);
	size_t slen = strlen(q) + 16;
	char *script = malloc(slen);
	assert_non_null(script);
	snprintf(script, slen, "printf %%s %s", q);
	const char(*shells)[4096];
	size_t nshells = test_util_shells(&shells);
	for (size_t i = 0; i < nshells; i++) {
		size_t n;
		char *got = run_shell(shells[i], script, &n);
		if (n != strlen(s) || memcmp(got, s, n) != 0)
			fail_msg("%s: quoted [%s] printed %zu bytes, want %zu", shells[i], q, n, strlen(s));
		free(got);
	}
	free(script);
	free(q);
}

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

/* ---- quoting ---- */

static void test_quote_exact(void **state)
{
	(void)state;
	char buf[256];
	struct {
		const char *in, *out;
	} cases[] = {
		{"abc", "abc"},
		{"gpu-st-b300-12", "gpu-st-b300-12"},
		{"MAINT,IGNORE_JOBS", "MAINT,IGNORE_JOBS"},
		{"a=b:c/d@e%f+g.h_i-j", "a=b:c/d@e%f+g.h_i-j"},
		{"=x", "'=x'"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", "'it'\\''s'"},
		{"'", "''\\'''"},
		{"gpu-st-b300-[3-5]", "'gpu-st-b300-[3-5]'"},
		{"disk, \"bad\"", "'disk, \"bad\"'"},
		{"$(id)", "'$(id)'"},
		{"a\nb", "'a\nb'"},
		{"caf\xc3\xa9", "'caf\xc3\xa9'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(oc_plan_quote(cases[i].in, buf, sizeof(buf)), strlen(cases[i].out));
		assert_string_equal(buf, cases[i].out);
	}
	assert_int_equal(oc_plan_quote(NULL, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "''");
}

static void test_quote_truncation(void **state)
{
	(void)state;
	char buf[6];
	memset(buf, 'X', sizeof(buf));
	/* 'it'\''s' is 9 bytes: returns what it needs, writes 5 + NUL */
	assert_int_equal(oc_plan_quote("it's", buf, sizeof(buf)), 9);
	assert_string_equal(buf, "'it'\\");
	assert_int_equal(oc_plan_quote("it's", buf, 1), 9);
	assert_string_equal(buf, "");
	assert_int_equal(oc_plan_quote("it's", NULL, 0), 9);
}

static void test_quote_shell_corpus(void **state)
{
	(void)state;
	static const char *corpus[] = {
		"", "'", "''", "'''", "\"", "\\", "\\'", "a'b\"c", "$(id)", "`id`", "${HOME}", "$HOME",
		"$((1+1))", "; rm -rf /", "a;b&c|d", "<in >out 2>&1", "\n", "a\nb", "\n\n'\n",
		"\t", "tab\there", "\r\n", "*", "?", "[a-z]", "gpu-st-b300-[3-5,9]", "~root", "~",
		"#comment", "!!", "!$", "%s%n%x", "-n", "-e", "--", "x=y", "=x", "a b  c   ",
		" leading", "\x01\x02\x03\x1b[31mred\x1b[0m", "\x7f", "\x1f\x0b\x0c",
		"caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "\xff\xfe", "\xc3\x28", "\xe2\x82",
		"\xed\xa0\x80", "\xc0\xaf", "\x80", "\xf4\x90\x80\x80", "'\xff'", "{a,b}", "a\\\nb",
		"\"$(echo '`x`')\"", "IFS=x", "&&", "||", "(", ")", "{", "}", "^", "'\"'\"'",
	};
	for (size_t i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++)
		check_roundtrip(corpus[i]);

	/* 10 KB strings: all quotes, all hostile punctuation, random bytes. */
	enum { BIG = 10 * 1024 };
	char *big = malloc(BIG + 1);
	assert_non_null(big);
	memset(big, '\'', BIG);
	big[BIG] = '\0';
	check_roundtrip(big);
	static const char hostile[] = "'\"\\$`;&|<>(){}[]*?!#~ \t\n\r\x01\x7f\xff";
	for (size_t i = 0; i < BIG; i++)
		big[i] = hostile[i % (sizeof(hostile) - 1)];
	check_roundtrip(big);
	for (size_t i = 0; i < BIG; i++)
		big[i] = (char)(1 + rng() % 255);
	check_roundtrip(big);
	free(big);

	/* Random short strings of any byte but NUL. */
	char s[64];
	for (int k = 0; k < 150; k++) {
		size_t n = rng() % (sizeof(s) - 1);
		for (size_t i = 0; i < n; i++)
			s[i] = (char)(1 + rng() % 255);
		s[n] = '\0';
		check_roundtrip(s);
	}
}

/* The whole command line, run with a shell function standing in for
 * scontrol that prints its arguments NUL-separated: the words must be
 * exactly the intended ones. */
static void check_words(const char *cmdline, const char *const *words, size_t nwords)
{
	size_t slen = strlen(cmdline) + 128;
	char *script = malloc(slen);
	assert_non_null(script);
	snprintf(script, slen, "scontrol() { for a in \"$@\"; do printf '%%s\\0' \"$a\"; done; }; %s",
		 cmdline);
	size_t n;
	char *got = run_shell("/bin/sh", script, &n);
	size_t off = 0;
	for (size_t i = 0; i < nwords; i++) {
		size_t wl = strlen(words[i]);
		if (off + wl + 1 > n || memcmp(got + off, words[i], wl) != 0 || got[off + wl] != '\0')
			fail_msg("word %zu of [%s] is not [%s]", i, cmdline, words[i]);
		off += wl + 1;
	}
	assert_int_equal(off, n);
	free(got);
	free(script);
}

/* ---- command lines ---- */

/* scontrol reboot and cancel_reboot: the line shown and the argv run. */
static void test_reboot_lines(void **state)
{
	(void)state;
	char buf[512];
	struct oc_reboot_spec spec = {.asap = true, .next = OC_REBOOT_NEXT_RESUME};
	snprintf(spec.reason, sizeof(spec.reason), "kernel 6.8 'lts'");
	size_t n = oc_plan_node_reboot("gpu-st-b300-[3-5]", &spec, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol reboot ASAP nextstate=RESUME reason='kernel 6.8 '\\''lts'\\''' 'gpu-st-b300-[3-5]'");
	assert_int_equal(n, strlen(buf));
	struct oc_plan_reboot_words w;
	const char *argv[OC_PLAN_REBOOT_ARGV];
	oc_plan_reboot_argv("gpu-st-b300-[3-5]", &spec, &w, argv);
	assert_string_equal(argv[0], "scontrol");
	assert_string_equal(argv[1], "reboot");
	assert_string_equal(argv[2], "ASAP");
	assert_string_equal(argv[3], "nextstate=RESUME");
	assert_string_equal(argv[4], "reason=kernel 6.8 'lts'"); /* verbatim: no shell */
	assert_string_equal(argv[5], "gpu-st-b300-[3-5]");
	assert_null(argv[6]);
	/* Now, down after, no reason. */
	struct oc_reboot_spec now = {.asap = false, .next = OC_REBOOT_NEXT_DOWN};
	oc_plan_node_reboot("n1", &now, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol reboot nextstate=DOWN n1");
	oc_plan_reboot_argv("n1", &now, &w, argv);
	assert_string_equal(argv[2], "nextstate=DOWN");
	assert_string_equal(argv[3], "n1");
	assert_null(argv[4]);
	/* As before: no nextstate word. */
	struct oc_reboot_spec plain = {0};
	oc_plan_reboot_argv("n1", &plain, &w, argv);
	assert_string_equal(argv[2], "n1");
	assert_null(argv[3]);
	oc_plan_node_update("gpu-st-b300-[1,7]", OC_NODE_OP_CANCEL_REBOOT, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol cancel_reboot 'gpu-st-b300-[1,7]'");
}

static void test_node_update_lines(void **state)
{
	(void)state;
	char buf[512];
	size_t n = oc_plan_node_update("gpu-st-b300-[3-5]", OC_NODE_OP_DRAIN, "disk, \"bad\"", buf,
				       sizeof(buf));
	assert_string_equal(buf, "scontrol update NodeName='gpu-st-b300-[3-5]' State=DRAIN Reason='disk, \"bad\"'");
	assert_int_equal(n, strlen(buf));
	oc_plan_node_update("gpu-st-b300-12", OC_NODE_OP_DRAIN, "xid79", buf, sizeof(buf));
	assert_string_equal(buf, "scontrol update NodeName=gpu-st-b300-12 State=DRAIN Reason=xid79");
	oc_plan_node_update("gpu-st-b300-12", OC_NODE_OP_RESUME, "ignored", buf, sizeof(buf));
	assert_string_equal(buf, "scontrol update NodeName=gpu-st-b300-12 State=RESUME");
	oc_plan_node_update("gpu-st-b300-[1,7]", OC_NODE_OP_UNDRAIN, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol update NodeName='gpu-st-b300-[1,7]' State=UNDRAIN");
	oc_plan_node_update("n1", OC_NODE_OP_DRAIN, "it's\nbroken", buf, sizeof(buf));
	assert_string_equal(buf, "scontrol update NodeName=n1 State=DRAIN Reason='it'\\''s\nbroken'");
	oc_plan_node_update("n1", OC_NODE_OP_DRAIN, NULL, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol update NodeName=n1 State=DRAIN Reason=''");

	/* like snprintf */
	char small[16];
	size_t need = oc_plan_node_update("gpu-st-b300-12", OC_NODE_OP_RESUME, NULL, small, sizeof(small));
	assert_int_equal(need, strlen("scontrol update NodeName=gpu-st-b300-12 State=RESUME"));
	assert_string_equal(small, "scontrol update");
	assert_int_equal(oc_plan_node_update("x", OC_NODE_OP_RESUME, NULL, NULL, 0),
			 strlen("scontrol update NodeName=x State=RESUME"));

	/* The words a shell sees. */
	static const char *reasons[] = {"disk, \"bad\"", "it's; $(reboot) `x` \\", "a\nb\tc", "*",
					 "\xff\xfe bytes", "--"};
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "Reason=%s", reasons[i]);
		const char *words[] = {"update", "NodeName=gpu-st-b300-[3-5]", "State=DRAIN", want};
		oc_plan_node_update("gpu-st-b300-[3-5]", OC_NODE_OP_DRAIN, reasons[i], buf, sizeof(buf));
		check_words(buf, words, 4);
	}
}

static void set_tz(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static time_t utc(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm = {0};
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	return timegm(&tm);
}

static void test_resv_lines(void **state)
{
	(void)state;
	set_tz("UTC");
	static struct oc_resv_spec spec;
	char buf[8192];
	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "maint_20261129_1520");
	snprintf(spec.nodes, sizeof(spec.nodes), "gpu-st-b300-[3-5]");
	snprintf(spec.users, sizeof(spec.users), "root");
	snprintf(spec.flags, sizeof(spec.flags), "MAINT,IGNORE_JOBS");
	spec.start = 0;
	spec.duration_min = -1;
	size_t n = oc_plan_resv_create(&spec, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol create reservation ReservationName=maint_20261129_1520 Users=root "
				 "StartTime=now Duration=UNLIMITED Flags=MAINT,IGNORE_JOBS Nodes='gpu-st-b300-[3-5]'");
	assert_int_equal(n, strlen(buf));
	const char *words[] = {"create", "reservation", "ReservationName=maint_20261129_1520", "Users=root",
			       "StartTime=now", "Duration=UNLIMITED", "Flags=MAINT,IGNORE_JOBS",
			       "Nodes=gpu-st-b300-[3-5]"};
	check_words(buf, words, 8);

	/* No name, accounts set, a start time and durations. */
	spec.name[0] = '\0';
	snprintf(spec.accounts, sizeof(spec.accounts), "ml,infra");
	spec.start = utc(2026, 11, 29, 16, 0, 0);
	spec.duration_min = 120;
	oc_plan_resv_create(&spec, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol create reservation Users=root Accounts=ml,infra "
				 "StartTime=2026-11-29T16:00:00 Duration=02:00:00 Flags=MAINT,IGNORE_JOBS "
				 "Nodes='gpu-st-b300-[3-5]'");
	spec.duration_min = 2160;
	spec.users[0] = '\0';
	spec.flags[0] = '\0';
	snprintf(spec.nodes, sizeof(spec.nodes), "gpu-st-b300-7");
	oc_plan_resv_create(&spec, buf, sizeof(buf));
	assert_string_equal(buf, "scontrol create reservation Accounts=ml,infra StartTime=2026-11-29T16:00:00 "
				 "Duration=1-12:00:00 Nodes=gpu-st-b300-7");
	spec.duration_min = 2 * 1440 + 5;
	oc_plan_resv_create(&spec, buf, sizeof(buf));
	assert_non_null(strstr(buf, " Duration=2-00:05:00 "));
	spec.duration_min = 59;
	oc_plan_resv_create(&spec, buf, sizeof(buf));
	assert_non_null(strstr(buf, " Duration=00:59:00 "));

	/* Local time is what scontrol reads. */
	set_tz("CET-1CEST,M3.5.0,M10.5.0/3");
	oc_plan_resv_create(&spec, buf, sizeof(buf));
	assert_non_null(strstr(buf, " StartTime=2026-11-29T17:00:00 "));
	set_tz("UTC");

	assert_int_equal(oc_plan_resv_create(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");

	n = oc_plan_resv_delete("maint_x", buf, sizeof(buf));
	assert_string_equal(buf, "scontrol delete ReservationName=maint_x");
	assert_int_equal(n, strlen(buf));
	oc_plan_resv_delete("a b", buf, sizeof(buf));
	assert_string_equal(buf, "scontrol delete ReservationName='a b'");
}

/* ---- checks ---- */

static void test_check_reason(void **state)
{
	(void)state;
	char err[128];
	err[0] = '\0';
	assert_int_equal(oc_plan_check_reason(NULL, err, sizeof(err)), -1);
	assert_true(err[0] != '\0');
	assert_int_equal(oc_plan_check_reason("", err, sizeof(err)), -1);
	assert_int_equal(oc_plan_check_reason("   ", err, sizeof(err)), -1);
	assert_int_equal(oc_plan_check_reason(" \t\n\r ", err, sizeof(err)), -1);
	assert_int_equal(oc_plan_check_reason("x", err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_reason("line1\nline2", err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_reason("\x01 control", err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_reason("  padded  ", NULL, 0), 0);
	assert_int_equal(oc_plan_check_reason("", NULL, 0), -1);
	char big[1026];
	memset(big, 'a', 1024);
	big[1024] = '\0';
	assert_int_equal(oc_plan_check_reason(big, err, sizeof(err)), 0);
	big[1024] = 'a';
	big[1025] = '\0';
	err[0] = '\0';
	assert_int_equal(oc_plan_check_reason(big, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1025"));
}

static void test_check_resv_name(void **state)
{
	(void)state;
	char err[128];
	assert_int_equal(oc_plan_check_resv_name("", err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_resv_name(NULL, err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_resv_name("maint_20261129_1520", err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_resv_name("a.B-9_z", err, sizeof(err)), 0);
	assert_int_equal(oc_plan_check_resv_name("a b", err, sizeof(err)), -1);
	assert_int_equal(oc_plan_check_resv_name("x;y", err, sizeof(err)), -1);
	assert_int_equal(oc_plan_check_resv_name("caf\xc3\xa9", err, sizeof(err)), -1);
	assert_int_equal(oc_plan_check_resv_name("a/b", NULL, 0), -1);
	char name[130];
	memset(name, 'n', 127);
	name[127] = '\0';
	assert_int_equal(oc_plan_check_resv_name(name, err, sizeof(err)), 0);
	name[127] = 'n';
	name[128] = '\0';
	assert_int_equal(oc_plan_check_resv_name(name, err, sizeof(err)), -1);
}

/* ---- parsers ---- */

static void start_ok(const char *text, time_t now, time_t want)
{
	char err[128] = "";
	time_t t = 12345;
	if (oc_plan_parse_start(text, now, &t, err, sizeof(err)) != 0)
		fail_msg("start [%s] refused: %s", text, err);
	if (t != want)
		fail_msg("start [%s]: got %lld, want %lld", text, (long long)t, (long long)want);
}

static void start_bad(const char *text, time_t now)
{
	char err[128] = "";
	time_t t = 12345;
	if (oc_plan_parse_start(text, now, &t, err, sizeof(err)) != -1)
		fail_msg("start [%s] accepted", text);
	if (!err[0])
		fail_msg("start [%s]: no message", text);
	if (strncmp(err, "start", 5) == 0)
		fail_msg("start [%s]: the message names its field, the form does too: %s", text, err);
	assert_int_equal(t, 12345);
}

static void test_parse_start(void **state)
{
	(void)state;
	set_tz("UTC");
	time_t now = utc(2026, 11, 29, 15, 20, 30);
	start_ok("now", now, 0);
	start_ok(" NOW ", now, 0);
	start_ok("now+30min", now, now + 1800);
	start_ok("now+30m", now, now + 1800);
	start_ok("now + 90 minutes", now, now + 5400);
	start_ok("now+2h", now, now + 7200);
	start_ok("now+1d", now, now + 86400);
	start_ok("16:00", now, utc(2026, 11, 29, 16, 0, 0));
	start_ok("9:05", now, utc(2026, 11, 30, 9, 5, 0));
	start_ok("15:00", now, utc(2026, 11, 30, 15, 0, 0));
	start_ok("15:20", now, utc(2026, 11, 30, 15, 20, 0)); /* 30 s past: tomorrow */
	start_ok("15:21", now, utc(2026, 11, 29, 15, 21, 0));
	start_ok("2026-12-01T08:00", now, utc(2026, 12, 1, 8, 0, 0));
	start_ok("2026-12-01t08:00:30", now, utc(2026, 12, 1, 8, 0, 30));
	start_ok("2026-12-01 08:00", now, utc(2026, 12, 1, 8, 0, 0));
	start_ok("2028-02-29T00:00", utc(2027, 6, 1, 0, 0, 0), utc(2028, 2, 29, 0, 0, 0));
	/* month end rolls over for HH:MM tomorrow */
	start_ok("00:10", utc(2026, 12, 31, 23, 0, 0), utc(2027, 1, 1, 0, 10, 0));

	start_bad("", now);
	start_bad("   ", now);
	start_bad(NULL, now);
	start_bad("now+", now);
	start_bad("now+5", now); /* Slurm would read seconds */
	start_bad("now-5min", now);
	start_bad("now+abc", now);
	start_bad("now+5 fortnights", now);
	start_bad("now+400d", now);
	start_bad("nowish", now);
	start_bad("25:00", now);
	start_bad("2026-12-01T08:00:3x", now);
	start_bad("2026-12-01T08:00:30z", now);
	start_bad("12:60", now);
	start_bad("12:5", now);
	start_bad("123:00", now);
	start_bad("2026-13-01T00:00", now);
	start_bad("2026-00-01T00:00", now);
	start_bad("2026-02-30T00:00", now);
	start_bad("2027-02-29T00:00", now);
	start_bad("2026-12-01T24:00", now);
	start_bad("2026-12-01T08", now);
	start_bad("2026-12-01", now);
	start_bad("2026-12-01T08:00:00Z", now);
	start_bad("2026-11-01T00:00", now); /* past */
	start_bad("2030-01-01T00:00", now); /* more than 366 days ahead */
	start_bad("abc", now);
	start_bad("-5", now);

	/* Local time, with DST. */
	set_tz("CET-1CEST,M3.5.0,M10.5.0/3");
	time_t march = utc(2026, 3, 1, 12, 0, 0);
	start_ok("2026-12-01T08:00", now, utc(2026, 12, 1, 7, 0, 0));
	start_ok("2026-07-01T08:00", march, utc(2026, 7, 1, 6, 0, 0));
	start_ok("14:00", march, utc(2026, 3, 1, 13, 0, 0));
	start_bad("2026-03-29T02:30", march); /* skipped by the spring change */
	set_tz("UTC");
}

static void dur_ok(const char *text, long want)
{
	char err[128] = "";
	long m = 12345;
	if (oc_plan_parse_duration(text, &m, err, sizeof(err)) != 0)
		fail_msg("duration [%s] refused: %s", text, err);
	if (m != want)
		fail_msg("duration [%s]: got %ld, want %ld", text, m, want);
}

static void dur_bad(const char *text)
{
	char err[128] = "";
	long m = 12345;
	if (oc_plan_parse_duration(text, &m, err, sizeof(err)) != -1)
		fail_msg("duration [%s] accepted (%ld)", text, m);
	if (!err[0])
		fail_msg("duration [%s]: no message", text);
	if (strncmp(err, "duration", 8) == 0)
		fail_msg("duration [%s]: the message names its field, the form does too: %s", text, err);
	assert_int_equal(m, 12345);
}

static void test_parse_duration(void **state)
{
	(void)state;
	dur_ok("infinite", -1);
	dur_ok("UNLIMITED", -1);
	dur_ok(" Unlimited ", -1);
	dur_ok("90", 90);
	dur_ok("90m", 90);
	dur_ok("90min", 90);
	dur_ok("90 minutes", 90);
	dur_ok("4h", 240);
	dur_ok("4 hours", 240);
	dur_ok("2d", 2880);
	dur_ok("1-12:00:00", 2160);
	dur_ok("1-12", 2160);
	dur_ok("1-12:30", 2190);
	dur_ok("2:30:00", 150);
	dur_ok("48:00:00", 2880);
	dur_ok("0:00:30", 1);
	dur_ok("0:01:01", 2);
	dur_ok("3650d", 3650L * 1440);

	dur_bad("");
	dur_bad(NULL);
	dur_bad("abc");
	dur_bad("-5");
	dur_bad("+5");
	dur_bad("0");
	dur_bad("0m");
	dur_bad("0:00:00");
	dur_bad("25:00");
	dur_bad("2:30");
	dur_bad("1-25:00:00");
	dur_bad("1-");
	dur_bad("-1-00:00:00");
	dur_bad("2:60:00");
	dur_bad("2:30:60");
	dur_bad("1:2:3:4");
	dur_bad("5x");
	dur_bad("5 h m");
	dur_bad("3651d");
	dur_bad("99999999999999999999");
	dur_bad("1.5h");
	dur_bad("now");
}

static void test_propose_name(void **state)
{
	(void)state;
	set_tz("UTC");
	char buf[64];
	assert_ptr_equal(oc_plan_propose_resv_name(utc(2026, 11, 29, 15, 20, 30), buf, sizeof(buf)), buf);
	assert_string_equal(buf, "maint_20261129_1520");
	assert_int_equal(oc_plan_check_resv_name(buf, NULL, 0), 0);
	char small[8];
	oc_plan_propose_resv_name(utc(2026, 11, 29, 15, 20, 30), small, sizeof(small));
	assert_string_equal(small, "maint_2");
	set_tz("CET-1CEST,M3.5.0,M10.5.0/3");
	oc_plan_propose_resv_name(utc(2026, 11, 29, 23, 30, 0), buf, sizeof(buf));
	assert_string_equal(buf, "maint_20261130_0030");
	set_tz("UTC");
}

/* The AdminLevel accounting gives: operator for "op", an error for
 * "broken"; counts the questions. */
static int asked;
static int fake_level(void *ctx, const char *user, enum oc_admin_level *level, char *err, size_t errlen)
{
	(void)ctx;
	asked++;
	if (strcmp(user, "broken") == 0) {
		snprintf(err, errlen, "slurmdbd not answering");
		return -1;
	}
	*level = strcmp(user, "op") == 0 ? OC_ADMIN_OPERATOR : OC_ADMIN_NONE;
	return 0;
}

/* The one who-am-I rule both writers follow (actions/writer.c). */
static void test_whoami_rule(void **state)
{
	(void)state;
	enum oc_admin_level l;
	char err[128] = "";
	asked = 0;
	/* root and SlurmUser: administrators, accounting not asked. */
	assert_int_equal(oc_whoami_level(true, false, true, "root", fake_level, NULL, &l, err, sizeof(err)), 0);
	assert_int_equal(l, OC_ADMIN_ADMIN);
	assert_int_equal(oc_whoami_level(false, true, true, "slurm", fake_level, NULL, &l, err, sizeof(err)), 0);
	assert_int_equal(l, OC_ADMIN_ADMIN);
	assert_int_equal(asked, 0);
	/* Without accounting there is no AdminLevel: a plain user. */
	assert_int_equal(oc_whoami_level(false, false, false, "op", fake_level, NULL, &l, err, sizeof(err)), 0);
	assert_int_equal(l, OC_ADMIN_NONE);
	assert_int_equal(asked, 0);
	assert_int_equal(oc_whoami_level(false, false, true, "op", fake_level, NULL, &l, err, sizeof(err)), 0);
	assert_int_equal(l, OC_ADMIN_OPERATOR);
	assert_int_equal(oc_whoami_level(false, false, true, "alice", fake_level, NULL, &l, err, sizeof(err)), 0);
	assert_int_equal(l, OC_ADMIN_NONE);
	/* A question that fails is an error, and no rights. */
	assert_int_equal(oc_whoami_level(false, false, true, "broken", fake_level, NULL, &l, err, sizeof(err)), -1);
	assert_int_equal(l, OC_ADMIN_NONE);
	assert_string_equal(err, "slurmdbd not answering");

	assert_true(oc_is_slurm_user("slurm(64030)", "slurm"));
	assert_true(oc_is_slurm_user("slurm", "slurm"));
	assert_false(oc_is_slurm_user("slurm(64030)", "slurmx"));
	assert_false(oc_is_slurm_user("slurmx", "slurm"));
	assert_false(oc_is_slurm_user(NULL, "slurm"));
}

/* ---- job actions ---------------------------------------------------------- */

static void expect_job_line(uint32_t id, struct oc_job_change c, const char *want)
{
	char out[256];
	size_t n = oc_plan_job_change(id, &c, out, sizeof(out));
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
	char err[128];
	assert_int_equal(oc_plan_check_job_change(&c, err, sizeof(err)), 0);
}

static void test_job_lines(void **state)
{
	(void)state;
	expect_job_line(123, (struct oc_job_change){.op = OC_JOB_OP_CANCEL}, "scancel 123");
	expect_job_line(123, (struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 10, .batch_only = true},
			"scancel --signal=USR1 --batch 123");
	expect_job_line(7, (struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 15},
			"scancel --signal=TERM --full 7");
	expect_job_line(7, (struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 40},
			"scancel --signal=40 --full 7");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_HOLD}, "scontrol hold 9");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_RELEASE}, "scontrol release 9");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_REQUEUE}, "scontrol requeue 9");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_REQUEUE_HOLD}, "scontrol requeuehold 9");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 2160},
			"scontrol update JobId=9 TimeLimit=1-12:00:00");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 90},
			"scontrol update JobId=9 TimeLimit=01:30:00");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = OC_NONE},
			"scontrol update JobId=9 TimeLimit=UNLIMITED");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_PARTITION, .name = "large"},
			"scontrol update JobId=9 Partition=large");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "normal"},
			"scontrol update JobId=9 QOS=normal");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_NICE, .nice = -100},
			"scontrol update JobId=9 Nice=-100");
	expect_job_line(9, (struct oc_job_change){.op = OC_JOB_OP_PRIORITY, .priority = 5000},
			"scontrol update JobId=9 Priority=5000");
	/* Several jobs: scancel takes them apart, scontrol as a list. */
	const struct {
		struct oc_job_change c;
		const char *want;
	} many[] = {
		{{.op = OC_JOB_OP_CANCEL}, "scancel 113 114"},
		{{.op = OC_JOB_OP_SIGNAL, .signal = 12, .batch_only = true}, "scancel --signal=USR2 --batch 113 114"},
		{{.op = OC_JOB_OP_HOLD}, "scontrol hold 113,114"},
		{{.op = OC_JOB_OP_TIME_LIMIT, .minutes = 60}, "scontrol update JobId=113,114 TimeLimit=01:00:00"},
	};
	for (size_t i = 0; i < sizeof(many) / sizeof(many[0]); i++) {
		char line[128];
		assert_int_equal(oc_plan_job_change_ids("113,114", &many[i].c, line, sizeof(line)), strlen(many[i].want));
		assert_string_equal(line, many[i].want);
	}
	/* One job as an argv: the words of its line. */
	struct oc_plan_job_words w;
	const char *argv[OC_PLAN_JOB_ARGV];
	oc_plan_job_argv(9, &(struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "normal"}, &w, argv);
	assert_string_equal(argv[0], "scontrol");
	assert_string_equal(argv[1], "update");
	assert_string_equal(argv[2], "JobId=9");
	assert_string_equal(argv[3], "QOS=normal");
	assert_null(argv[4]);
	oc_plan_job_argv(7, &(struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 40}, &w, argv);
	assert_string_equal(argv[1], "--signal=40");
	assert_string_equal(argv[2], "--full");
	assert_string_equal(argv[3], "7");
	assert_null(argv[4]);
	/* Truncation counts like snprintf. */
	char small[8];
	struct oc_job_change c = {.op = OC_JOB_OP_CANCEL};
	assert_int_equal(oc_plan_job_change(4294967294u, &c, small, sizeof(small)), strlen("scancel 4294967294"));
	assert_string_equal(small, "scancel");
}

static void expect_bad_change(struct oc_job_change c, const char *words)
{
	char err[160] = "";
	assert_int_equal(oc_plan_check_job_change(&c, err, sizeof(err)), -1);
	if (!strstr(err, words))
		fail_msg("\"%s\" lacks \"%s\"", err, words);
}

static void test_job_checks(void **state)
{
	(void)state;
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 0}, "1 to 64");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_SIGNAL, .signal = 65}, "1 to 64");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 0}, "at least one minute");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_TIME_LIMIT, .minutes = 3651u * 1440}, "3650 days");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_NICE, .nice = INT_MAX}, "nice");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_NICE, .nice = INT_MIN}, "nice");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_PARTITION, .name = ""}, "partition");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_PARTITION, .name = "a b"}, "partition");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_QOS, .name = "x;rm"}, "QoS");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_PRIORITY, .priority = 0}, "priority: from 1");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_PRIORITY, .priority = 0xfffffffeU}, "priority: from 1");
	expect_bad_change((struct oc_job_change){.op = OC_JOB_OP_COUNT}, "unknown job action");
	char err[64];
	assert_int_equal(oc_plan_check_job_change(NULL, err, sizeof(err)), -1);
}

static void test_parse_signal(void **state)
{
	(void)state;
	int sig = 0;
	char err[160];
	const struct {
		const char *text;
		int sig;
	} ok[] = {{"USR1", 10}, {"usr1", 10}, {"SIGTERM", 15}, {" sigkill ", 9}, {"10", 10}, {"64", 64}, {"1", 1}};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		sig = 0;
		assert_int_equal(oc_plan_parse_signal(ok[i].text, &sig, err, sizeof(err)), 0);
		assert_int_equal(sig, ok[i].sig);
	}
	const char *bad[] = {"", "   ", "0", "65", "100", "-9", "SIG", "USR3", "9x", "TERMINATE", NULL};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sig = -1;
		assert_int_equal(oc_plan_parse_signal(bad[i], &sig, err, sizeof(err)), -1);
		assert_int_equal(sig, -1);
		/* The form names the field ("Signal: ..."), the parser does not. */
		assert_true(err[0] != '\0');
		assert_true(strncmp(err, "signal", 6) != 0);
	}
	assert_string_equal(oc_plan_signal_name(10), "USR1");
	assert_null(oc_plan_signal_name(40));
	char tl[32];
	assert_string_equal(oc_plan_time_limit(OC_NONE, tl, sizeof(tl)), "UNLIMITED");
	assert_string_equal(oc_plan_time_limit(1, tl, sizeof(tl)), "00:01:00");
	assert_string_equal(oc_plan_time_limit(1440, tl, sizeof(tl)), "1-00:00:00");
}

/* A broken connection to slurmctld means "no answer" (the request may be
 * applied when slurmctld recovers); a connection that never opened or a
 * refusal means "failed". The errno texts come from strerror itself. */
static void test_action_is_timeout(void **state)
{
	(void)state;
	const int broke[] = {ECONNRESET, EPIPE, ENOTCONN, ETIMEDOUT};
	for (size_t i = 0; i < sizeof(broke) / sizeof(broke[0]); i++)
		assert_true(oc_action_is_timeout(strerror(broke[i])));
	assert_true(oc_action_is_timeout("Socket timed out on send/recv operation"));
	assert_true(oc_action_is_timeout("Zero Bytes were transmitted or received"));
	assert_true(oc_action_is_timeout("Unexpected missing socket error"));
	assert_false(oc_action_is_timeout(strerror(ECONNREFUSED)));
	assert_false(oc_action_is_timeout("Unable to contact slurm controller (connect failure)"));
	assert_false(oc_action_is_timeout("Invalid node name specified"));
	assert_false(oc_action_is_timeout("Access/permission denied"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whoami_rule),
		cmocka_unit_test(test_quote_exact),
		cmocka_unit_test(test_quote_truncation),
		cmocka_unit_test(test_quote_shell_corpus),
		cmocka_unit_test(test_node_update_lines),
		cmocka_unit_test(test_reboot_lines),
		cmocka_unit_test(test_resv_lines),
		cmocka_unit_test(test_check_reason),
		cmocka_unit_test(test_check_resv_name),
		cmocka_unit_test(test_parse_start),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_propose_name),
		cmocka_unit_test(test_job_lines),
		cmocka_unit_test(test_job_checks),
		cmocka_unit_test(test_parse_signal),
		cmocka_unit_test(test_action_is_timeout),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	remove_globdir();
	return rc;
}
