/* test_hostlist.c: hostlist expressions without libslurm (core/hostlist.c):
 * expansion, counting, bad input, large ranges, compression. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostlist.h"
#include "test_util.h"

/* The expansion of expr joined with spaces, or "ERR: message". */
static void expand_text(const char *expr, size_t max, char *out, size_t len)
{
	char **names = NULL, err[256] = "";
	size_t n = 0;
	if (oc_hostlist_expand(expr, max, &names, &n, err, sizeof(err)) < 0) {
		assert_null(names);
		snprintf(out, len, "ERR: %s", err);
		return;
	}
	size_t off = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i ? " " : "", names[i]);
	oc_hostlist_names_free(&names, n);
	assert_null(names);
}

static void check(const char *expr, const char *want)
{
	char got[4096];
	expand_text(expr, 1000, got, sizeof(got));
	if (strcmp(got, want) != 0)
		fail_msg("'%s': got '%s', want '%s'", expr, got, want);
}

static void test_expand(void **state)
{
	(void)state;
	check("", "");
	check("login1", "login1");
	check("gpu-st-b300-[1-3]", "gpu-st-b300-1 gpu-st-b300-2 gpu-st-b300-3");
	check("gpu-st-b300-[3-5,9],login1", "gpu-st-b300-3 gpu-st-b300-4 gpu-st-b300-5 gpu-st-b300-9 login1");
	check("n[08-11]", "n08 n09 n10 n11");
	check("r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2");
	check("n[1-2]-ib", "n1-ib n2-ib");
	check("a,b,a", "a b a");
	check("gpu-dy-b300-[7]", "gpu-dy-b300-7");
}

static void check_bad(const char *expr, const char *words)
{
	char got[4096];
	expand_text(expr, 1000, got, sizeof(got));
	if (strncmp(got, "ERR: ", 5) != 0 || !strstr(got, words))
		fail_msg("'%s': got '%s', want an error with '%s'", expr, got, words);
	char err[256] = "";
	assert_int_equal(oc_hostlist_count(expr, err, sizeof(err)), -1);
	assert_true(err[0]);
}

static void test_bad(void **state)
{
	(void)state;
	check_bad("gpu-st-b300-[3-", "upper bound");
	check_bad("gpu-st-b300-[3", "without ']'");
	check_bad("gpu-st-b300-[", "without");
	check_bad("gpu-st-b300-[]", "needs a number");
	check_bad("n[5-3]", "reversed");
	check_bad("n[a-b]", "needs a number");
	check_bad("n[1-x]", "upper bound");
	check_bad("n[1-2", "without ']'");
	check_bad("n1]", "']' without '['");
	check_bad("n[[1]]", "needs a number");
	check_bad("a,,b", "empty name");
	check_bad("a,", "empty name");
	check_bad(",a", "empty name");
	check_bad("a b", "bad character");
	check_bad("a\nb", "bad character");
	check_bad("n[1234567890123456789]", "too long");
	check_bad("n[1;2]", "unexpected ';'");
}

static int count_cb(void *ctx, const char *name)
{
	size_t *n = ctx;
	(void)name;
	(*n)++;
	return 0;
}

static void test_large(void **state)
{
	(void)state;
	char err[256];
	assert_int_equal(oc_hostlist_count("gpu-dy-b300-[1-100000]", err, sizeof(err)), 100000);
	assert_int_equal(oc_hostlist_count("n[1-100000],m[1-50000]", err, sizeof(err)), 150000);
	size_t n = 0;
	assert_int_equal(oc_hostlist_foreach("gpu-dy-b300-[1-100000]", 200000, count_cb, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 100000);
	/* Over the maximum: refused before anything is expanded. */
	n = 0;
	assert_int_equal(oc_hostlist_foreach("n[1-100000]", 99999, count_cb, &n, err, sizeof(err)), -1);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err, "more than 99999 names"));
	/* A product that would overflow. */
	assert_int_equal(oc_hostlist_count("n[1-999999999999]x[1-999999999999]", err, sizeof(err)), -1);
	char **names;
	assert_int_equal(oc_hostlist_expand("n[000001-100000]", 100000, &names, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 100000);
	assert_string_equal(names[0], "n000001");
	assert_string_equal(names[99999], "n100000");
	char *c = oc_hostlist_compress((const char *const *)names, n);
	assert_string_equal(c, "n[000001-100000]");
	free(c);
	oc_hostlist_names_free(&names, n);
}

static int stop_cb(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "n3") == 0 ? 7 : 0;
}

static void test_foreach_stop(void **state)
{
	(void)state;
	char err[64];
	assert_int_equal(oc_hostlist_foreach("n[1-5]", 10, stop_cb, NULL, err, sizeof(err)), 7);
}

static void check_compress(const char *const *names, size_t n, const char *want)
{
	char *c = oc_hostlist_compress(names, n);
	if (!want) {
		assert_null(c);
		return;
	}
	assert_non_null(c);
	assert_string_equal(c, want);
	free(c);
}

static void test_compress(void **state)
{
	(void)state;
	const char *a[] = {"gpu-st-b300-9", "gpu-st-b300-3", "gpu-st-b300-4", "gpu-st-b300-5", "login1"};
	check_compress(a, 5, "gpu-st-b300-[3-5,9],login1");
	const char *b[] = {"n1", "n1", "n2"};
	check_compress(b, 3, "n[1-2]");
	const char *c[] = {"head", "n07", "n7"};
	check_compress(c, 3, "head,n07,n7");
	const char *d[] = {"n[1]"};
	check_compress(d, 1, NULL);
	const char *e[] = {""};
	check_compress(e, 1, NULL);
	const char *f[] = {"a,b"};
	check_compress(f, 1, NULL);
	check_compress(NULL, 0, "");
	/* Round trip. */
	char **names;
	size_t n;
	char err[64];
	assert_int_equal(oc_hostlist_expand("gpu-st-b300-[1-3,7,10-12]", 100, &names, &n, err, sizeof(err)), 0);
	check_compress((const char *const *)names, n, "gpu-st-b300-[1-3,7,10-12]");
	oc_hostlist_names_free(&names, n);
}

/* The writers' rule for node lists a person typed (both writers and the
 * forms use it): node-name characters, no text after a group, host order
 * without duplicates, the limit checked before expanding. */
static void test_nodes_rule(void **state)
{
	(void)state;
	char err[256];
	char **v = NULL;
	size_t n = 0;
	uint64_t count = 0;
	assert_int_equal(oc_hostlist_expand_nodes("n[10,9],n9,n010,m1", 100, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "m1");
	assert_string_equal(v[1], "n9");
	assert_string_equal(v[2], "n10");
	assert_string_equal(v[3], "n010");
	oc_hostlist_names_free(&v, n);
	static const struct {
		const char *expr, *msg;
	} bad[] = {
		{"", "empty hostlist"},
		{"gpu-[1-3]x", "text after ']'"},
		{"r[1-2]n[1-4]", "one \"[...]\" group per name"},
		{"a b", "whitespace or control"},
		{"n$1", "'$' at offset 1"},
		{"n1,,n2", "empty node name"},
		{"n[3-1]", "goes backwards"},
		{"n[1-3", "never closed"},
		{"n4831010000", "above 2147483647"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (oc_hostlist_expand_nodes(bad[i].expr, 100, &v, &n, err, sizeof(err)) != -1 || !strstr(err, bad[i].msg))
			fail_msg("%s: got \"%s\", want \"%s\"", bad[i].expr, err, bad[i].msg);
		assert_null(v);
	}
	assert_int_equal(oc_hostlist_check_nodes_max("n[1-100000]", 65536, &count, err, sizeof(err)), -1);
	test_util_assert_contains(err, "100000 nodes, more than the limit of 65536");
	assert_int_equal(oc_hostlist_check_nodes("n[1-3],n[2-4]", &count, err, sizeof(err)), 0);
	assert_int_equal(count, 6); /* duplicates counted */
	assert_true(oc_node_name_char('.') && oc_node_name_char('_') && !oc_node_name_char(','));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),   cmocka_unit_test(test_bad),      cmocka_unit_test(test_large),
		cmocka_unit_test(test_foreach_stop), cmocka_unit_test(test_compress), cmocka_unit_test(test_nodes_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
