/* test_shquote.c: oc_shquote_argv, the one builder of remote command
 * lines. Exact forms for a few words, then the property that matters: a
 * real shell (dash as /bin/sh, and bash), given the quoted line with -c,
 * runs `printf '%s\0' WORDS...` and prints exactly the input words, NUL
 * separated, for hostile words and for random bytes. The shells run in a
 * folder with files that an unquoted glob would match and with HOME set,
 * so that a word left open to globbing or ~ expansion shows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/shquote.h"
#include "test_util.h"

/* ---- the exact form ---- */

static void check_form(const char *const argv[], const char *want)
{
	char *got = oc_shquote_argv(argv);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_forms(void **state)
{
	(void)state;
	check_form((const char *const[]){"sinfo", NULL}, "'sinfo'");
	check_form((const char *const[]){"sinfo", "--json", NULL}, "'sinfo' '--json'");
	check_form((const char *const[]){"it's", NULL}, "'it'\\''s'");
	check_form((const char *const[]){"''", NULL}, "''\\'''\\'''");
	check_form((const char *const[]){"a", "", "b", NULL}, "'a' '' 'b'");
	check_form((const char *const[]){"$(id)", "`id`", "a;b", NULL}, "'$(id)' '`id`' 'a;b'");
	check_form((const char *const[]){"a\nb", "\\", NULL}, "'a\nb' '\\'");
}

/* Commands shown to copy: the exact lines. */
static void check_wrap(const char *line, int width, const char *want)
{
	char out[1024];
	int n = oc_shline_wrap(line, strlen(line), width, out, sizeof(out));
	assert_string_equal(out, want);
	int lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	assert_int_equal(n, lines);
}

static void test_wrap_forms(void **state)
{
	(void)state;
	const char *drain = "  scontrol update NodeName=gpu-st-b300-[4-6,8] State=DRAIN Reason='maintenance: it'\\''s the PSU'";
	/* Fits: as it is. */
	check_wrap(drain, 200, "  scontrol update NodeName=gpu-st-b300-[4-6,8] State=DRAIN "
			       "Reason='maintenance: it'\\''s the PSU'\n");
	/* Between words only, never in the quoted reason or after its '\\''. */
	check_wrap(drain, 44,
		   "  scontrol update \\\n"
		   "      NodeName=gpu-st-b300-[4-6,8] \\\n"
		   "      State=DRAIN \\\n"
		   "      Reason='maintenance: it'\\''s the PSU'\n");
	check_wrap("  scontrol create reservation ReservationName=maint_20261201_2150 StartTime=now Duration=01:00:00",
		   60,
		   "  scontrol create reservation \\\n"
		   "      ReservationName=maint_20261201_2150 StartTime=now \\\n"
		   "      Duration=01:00:00\n");
	/* A word longer than a line: cut inside, its quotes closed and opened
	 * again, the rest at the margin; a bare word and one in double
	 * quotes with a backslash alone. */
	check_wrap("  scancel 'aaaaaaaaaaaaaaaaaaaa'", 16,
		   "  scancel \\\n"
		   "      'aaaaaaa'\\\n"
		   "'aaaaaaaaaaaaa'\n");
	check_wrap("  scancel bbbbbbbbbbbbbbbbbbbb", 16, "  scancel \\\n      bbbbbbbbb\\\nbbbbbbbbbbb\n");
	check_wrap("  scancel \"cccccccccccccccccc\"", 16, "  scancel \\\n      \"cccccccc\\\ncccccccccc\"\n");
	/* A blank in double quotes or after a backslash is no break. */
	check_wrap("  sdiag \"a b\" zzzzzz", 13, "  sdiag \\\n      \"a b\" \\\n      zzzzzz\n");
	check_wrap("  sdiag x\\ y zzzzzz", 12, "  sdiag \\\n      x\\ y \\\n      zzzzzz\n");
	/* Cut output stays a string, at a character. */
	char small[8];
	oc_shline_wrap("  sinfo caf\xc3\xa9", 13, 80, small, sizeof(small));
	assert_string_equal(small, "  sinfo");
	char tiny[13];
	oc_shline_wrap("  sinfo caf\xc3\xa9", 13, 80, tiny, sizeof(tiny));
	assert_string_equal(tiny, "  sinfo caf");

	assert_true(oc_shline_is_command("  scontrol update x", 19));
	assert_true(oc_shline_is_command("  /opt/slurm/bin/sacctmgr -i add", 32));
	assert_true(oc_shline_is_command("  sdiag --reset", 15));
	assert_false(oc_shline_is_command("scontrol update x", 17));
	assert_false(oc_shline_is_command("  scontrol", 10));
	assert_false(oc_shline_is_command("  Reason: scontrol x", 20));
	assert_false(oc_shline_is_command("  scontrolx y", 13));
	assert_false(oc_shline_is_command("", 0));
}

static void test_refusals(void **state)
{
	(void)state;
	assert_null(oc_shquote_argv(NULL));
	assert_null(oc_shquote_argv((const char *const[]){NULL}));
}

/* ---- through a real shell ---- */

/* Runs `shell -c line` (execve, an argv) in dir and returns what it
 * printed (malloc'd, *len bytes); the shell must exit 0. */
static char *shell_run(const char *shell, const char *dir, const char *line, size_t *len)
{
	char *const argv[] = {(char *)shell, (char *)"-c", (char *)line, NULL};
	char *const envp[] = {(char *)"PATH=/usr/bin:/bin", (char *)"HOME=/oc-home-expanded", (char *)"IFS=x",
			      (char *)"LC_ALL=C.UTF-8", NULL};
	int status;
	char *out = test_util_run(shell, argv, envp, dir, len, &status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("%s did not exit 0 (status 0x%x)", shell, (unsigned)status);
	return out;
}

/* line as oc_shline_wrap shows it in width columns, with its first
 * line's two blanks of indent, checked: no line wider than width, every
 * line but the last ends with a backslash. Returns the lines as one
 * malloc'd text. */
static char *wrapped(const char *line, int width)
{
	size_t len = strlen(line) + 2;
	char *in = malloc(len + 1);
	size_t outlen = 12 * len + 4096; /* a line per byte at worst, and its indent */
	char *out = malloc(outlen);
	assert_non_null(in);
	assert_non_null(out);
	snprintf(in, len + 1, "  %s", line);
	int n = oc_shline_wrap(in, len, width, out, outlen);
	assert_true(n >= 1);
	int seen = 0;
	for (char *l = out, *e; (e = strchr(l, '\n')); l = e + 1) {
		size_t ll = (size_t)(e - l);
		if (ll > (size_t)width)
			fail_msg("width %d: a line of %zu bytes: %.*s", width, ll, (int)ll, l);
		if (++seen < n && (ll == 0 || e[-1] != '\\'))
			fail_msg("width %d: line %d of %d does not end with a backslash: %.*s", width, seen, n,
				 (int)ll, l);
	}
	assert_int_equal(seen, n);
	free(in);
	return out;
}

/* Every shell, given oc_shquote_argv({printf, %s\0, words...}), prints
 * the n words exactly, each followed by a NUL. */
static void check_words(const struct test_util_dir *d, const char *const *words, size_t n)
{
	const char **argv = calloc(n + 3, sizeof(*argv));
	assert_non_null(argv);
	argv[0] = "printf";
	argv[1] = "%s\\0";
	size_t want_len = 0;
	for (size_t i = 0; i < n; i++) {
		argv[2 + i] = words[i];
		want_len += strlen(words[i]) + 1;
	}
	char *line = oc_shquote_argv(argv);
	assert_non_null(line);
	/* Shown wrapped for copying (a line with a newline inside quotes is
	 * not one line), at widths from narrow to wide: the lines pasted
	 * back are the same command. */
	char *pasted[4] = {line};
	size_t npasted = 1;
	static const int widths[] = {9, 23, 80};
	for (size_t k = 0; k < 3 && !strchr(line, '\n'); k++)
		pasted[npasted++] = wrapped(line, widths[k]);
	const char(*shells)[4096];
	size_t nshells = test_util_shells(&shells);
	for (size_t s = 0; s < nshells * npasted; s++) {
		size_t got_len;
		char *got = shell_run(shells[s % nshells], d->root, pasted[s / nshells], &got_len);
		size_t off = 0;
		for (size_t i = 0; i < n; i++) {
			size_t wl = strlen(words[i]);
			if (off + wl + 1 > got_len || memcmp(got + off, words[i], wl) != 0 || got[off + wl] != '\0')
				fail_msg("%s: word %zu (%zu bytes) did not arrive verbatim; line: %.200s",
					 shells[s % nshells], i, wl, pasted[s / nshells]);
			off += wl + 1;
		}
		if (got_len != want_len)
			fail_msg("%s: printed %zu bytes, want %zu", shells[s % nshells], got_len, want_len);
		free(got);
	}
	for (size_t k = 1; k < npasted; k++)
		free(pasted[k]);
	free(line);
	free(argv);
}

/* Files that the unquoted globs of the hostile words would match. */
static void make_glob_files(const struct test_util_dir *d)
{
	static const char *files[] = {"a", "b", "ab", "x1", "gpu-st-b300-3", "-rf", "[a]", "~"};
	char path[4096];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		test_util_write_file(d, files[i], "", path);
}

static void test_hostile(void **state)
{
	const struct test_util_dir *d = *state;
	make_glob_files(d);
	static const char *words[] = {
		"it's", "'", "''", "\"", "\"$HOME\"", "'\"'\"'", ";", "a;b", "$(id)", "$((1+1))",
		"${HOME}", "$HOME", "$", "$1", "$@", "$*", "$#", "$?", "$$", "`id`", "\\", "\\\\", "a\\",
		"\\'", "\\n", "\n", "a\nb", "\n\n", "\t", "a\tb", " ", "  a  b  ", "*", "?", "[a]", "[!a]",
		"[a-z]*", "gpu-st-b300-[3-5]", "{a,b}", "~", "~root", "~/x", "a~", "-n", "-e", "-rf",
		"--", "--json", "-", "", "!", "!!", "#", "a #b", "&", "&&", "|", "||", "<", ">", ">>",
		"2>&1", "<(id)", "=cmd", "a=b", "IFS=x", "x", "axb", "%s", "%", "%%", "\\0", "\x01\x02\x03",
		"\x1b[2J\x1b[H", "\r", "\x7f", "\x1f", "caf\xc3\xa9", "\xe2\x9c\x93 ok",
		"\xf0\x9f\x9a\x80", "\xff\xfe", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\x80", "a\xffz",
	};
	check_words(d, words, sizeof(words) / sizeof(words[0]));
	/* each alone too: the first word after the format is special to no shell */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		check_words(d, &words[i], 1);
}

static void test_long_words(void **state)
{
	const struct test_util_dir *d = *state;
	make_glob_files(d);
	static const char pattern[] = "'\"$(x)`;\\\n\t*?[~-\xc3\xa9\xff ";
	size_t len = 10 * 1024;
	char *big = malloc(len + 1);
	char *quotes = malloc(len + 1);
	assert_non_null(big);
	assert_non_null(quotes);
	for (size_t i = 0; i < len; i++) {
		big[i] = pattern[i % (sizeof(pattern) - 1)];
		quotes[i] = '\'';
	}
	big[len] = quotes[len] = '\0';
	const char *words[] = {big, quotes, "end"};
	check_words(d, words, 3);
	free(big);
	free(quotes);
	/* many words: 2000 */
	const char **many = calloc(2000, sizeof(*many));
	assert_non_null(many);
	for (size_t i = 0; i < 2000; i++)
		many[i] = i % 3 == 0 ? "" : i % 3 == 1 ? "'" : "a b";
	check_words(d, many, 2000);
	free(many);
}

/* Random words of bytes 1-255 (fixed seeds, so a failure repeats). */
static void test_random(void **state)
{
	const struct test_util_dir *d = *state;
	make_glob_files(d);
	unsigned int seed = 20261201;
	for (int round = 0; round < 60; round++) {
		char *words[8];
		size_t n = 1 + (size_t)(rand_r(&seed) % 8);
		for (size_t i = 0; i < n; i++) {
			size_t wl = (size_t)(rand_r(&seed) % 40);
			words[i] = malloc(wl + 1);
			assert_non_null(words[i]);
			for (size_t k = 0; k < wl; k++) {
				/* half of the bytes from the shell's special ones */
				static const char special[] = "'\"\\$`;&|<>()[]{}*?~!#=% \t\n-";
				int r = rand_r(&seed);
				words[i][k] = r % 2 ? special[(size_t)(r >> 1) % (sizeof(special) - 1)]
						    : (char)(1 + (r >> 1) % 255);
			}
			words[i][wl] = '\0';
		}
		check_words(d, (const char *const *)words, n);
		for (size_t i = 0; i < n; i++)
			free(words[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_wrap_forms),
		cmocka_unit_test_setup_teardown(test_hostile, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_long_words, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_random, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
