/* test_keys.c: key names <-> key codes (core/keys.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/keys.h"
#include "test_util.h"

static void test_printable(void **state)
{
	(void)state;
	assert_int_equal(oc_key_parse("q"), 'q');
	assert_int_equal(oc_key_parse("/"), '/');
	assert_int_equal(oc_key_parse(":"), ':');
	assert_int_equal(oc_key_parse("?"), '?');
	assert_int_equal(oc_key_parse("1"), '1');
	assert_int_equal(oc_key_parse("Q"), 'Q');
	assert_int_equal(oc_key_parse("~"), '~');
	assert_int_equal(oc_key_parse("!"), '!');
	/* every printable character but space stands for itself */
	for (int c = '!'; c <= '~'; c++) {
		char name[2] = {(char)c, '\0'};
		char buf[16];
		assert_int_equal(oc_key_parse(name), c);
		assert_string_equal(oc_key_name(c, buf, sizeof(buf)), name);
	}
}

static void test_named(void **state)
{
	(void)state;
	assert_int_equal(oc_key_parse("Space"), ' ');
	assert_int_equal(oc_key_parse("Tab"), 9);
	assert_int_equal(oc_key_parse("Enter"), 13);
	assert_int_equal(oc_key_parse("Esc"), 27);
	assert_int_equal(oc_key_parse("S-Tab"), OC_KEY_BTAB);
	assert_int_equal(oc_key_parse("Backspace"), OC_KEY_BACKSPACE);
	assert_int_equal(oc_key_parse("Delete"), OC_KEY_DELETE);
	assert_int_equal(oc_key_parse("Insert"), OC_KEY_INSERT);
	assert_int_equal(oc_key_parse("Up"), OC_KEY_UP);
	assert_int_equal(oc_key_parse("Down"), OC_KEY_DOWN);
	assert_int_equal(oc_key_parse("Left"), OC_KEY_LEFT);
	assert_int_equal(oc_key_parse("Right"), OC_KEY_RIGHT);
	assert_int_equal(oc_key_parse("PgUp"), OC_KEY_PGUP);
	assert_int_equal(oc_key_parse("PgDn"), OC_KEY_PGDN);
	assert_int_equal(oc_key_parse("Home"), OC_KEY_HOME);
	assert_int_equal(oc_key_parse("End"), OC_KEY_END);
	assert_true(OC_KEY_UP >= 0x10000);
	assert_true(OC_KEY_NAMED_END <= OC_KEY_F0);
	/* names of more than one character ignore case */
	assert_int_equal(oc_key_parse("pgdn"), OC_KEY_PGDN);
	assert_int_equal(oc_key_parse("ENTER"), OC_KEY_ENTER);
	assert_int_equal(oc_key_parse("s-tab"), OC_KEY_BTAB);
	assert_int_equal(oc_key_parse("f5"), OC_KEY_F(5));
	assert_int_equal(oc_key_parse("c-l"), OC_KEY_CTRL('l'));
}

static void test_function_keys(void **state)
{
	(void)state;
	char name[8], buf[16];
	for (int n = 1; n <= 12; n++) {
		snprintf(name, sizeof(name), "F%d", n);
		assert_int_equal(oc_key_parse(name), OC_KEY_F(n));
		assert_string_equal(oc_key_name(OC_KEY_F(n), buf, sizeof(buf)), name);
	}
	assert_int_equal(oc_key_parse("F0"), -1);
	assert_int_equal(oc_key_parse("F13"), -1);
	assert_int_equal(oc_key_parse("F01"), -1);
	assert_int_equal(oc_key_parse("F1x"), -1);
	assert_int_equal(oc_key_parse("F100"), -1);
}

static void test_control(void **state)
{
	(void)state;
	char name[8], buf[16];
	assert_int_equal(oc_key_parse("C-a"), 1);
	assert_int_equal(oc_key_parse("C-l"), 12);
	assert_int_equal(oc_key_parse("C-z") == -1, 1);   /* refused: SIGTSTP */
	for (char c = 'a'; c <= 'z'; c++) {
		snprintf(name, sizeof(name), "C-%c", c);
		int code = oc_key_parse(name);
		if (strchr("imcszq", c)) {
			assert_int_equal(code, -1);
			continue;
		}
		assert_int_equal(code, c - 'a' + 1);
		assert_int_equal(code, OC_KEY_CTRL(c));
		assert_string_equal(oc_key_name(code, buf, sizeof(buf)), name);
	}
}

/* name is refused and the message contains needle. */
static void expect_refused(const char *name, const char *needle)
{
	char err[256];
	memset(err, 'x', sizeof(err));
	assert_int_equal(oc_key_parse_err(name, err, sizeof(err)), -1);
	test_util_assert_contains(err, needle);
	assert_int_equal(oc_key_parse(name), -1);
}

static void test_aliases_refused(void **state)
{
	(void)state;
	expect_refused("C-i", "Tab");
	expect_refused("C-m", "Enter");
	expect_refused("C-[", "Esc");
	expect_refused("C-c", "SIGINT");
	expect_refused("C-z", "SIGTSTP");
	expect_refused("C-s", "flow control");
	expect_refused("C-q", "flow control");
	expect_refused("C-L", "C-l");
}

static void test_unknown(void **state)
{
	(void)state;
	expect_refused("", "empty");
	expect_refused(" ", "Space");
	expect_refused("PageUp", "unknown key name \"PageUp\"");
	expect_refused("C-", "unknown");
	expect_refused("C-ab", "unknown");
	expect_refused("C-1", "unknown");
	expect_refused("M-x", "unknown");
	expect_refused("gg", "unknown");
	expect_refused("\t", "0x09");
	expect_refused("\xc3\xa9", "unknown");   /* é: not ASCII */
	expect_refused("\x7f", "0x7f");
	assert_int_equal(oc_key_parse(NULL), -1);
	/* a NULL err is fine */
	assert_int_equal(oc_key_parse_err("nope", NULL, 0), -1);
}

static void test_names(void **state)
{
	(void)state;
	char buf[16];
	static const char *const names[] = {
		"Space", "Tab", "S-Tab", "Enter", "Esc", "Backspace", "Delete", "Insert",
		"Up", "Down", "Left", "Right", "PgUp", "PgDn", "Home", "End",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int code = oc_key_parse(names[i]);
		assert_true(code > 0);
		assert_string_equal(oc_key_name(code, buf, sizeof(buf)), names[i]);
	}
	assert_string_equal(oc_key_name(OC_KEY_CTRL('i'), buf, sizeof(buf)), "Tab");
	assert_string_equal(oc_key_name(0x1fffff, buf, sizeof(buf)), "0x1fffff");
	assert_string_equal(oc_key_name(0, buf, sizeof(buf)), "0x0");
	assert_string_equal(oc_key_name(-5, buf, sizeof(buf)), "0xfffffffb");
	/* a short buffer is truncated, never overrun */
	char small[3];
	assert_string_equal(oc_key_name(OC_KEY_BACKSPACE, small, sizeof(small)), "Ba");
	assert_string_equal(oc_key_name('q', NULL, 0), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printable),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_function_keys),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_aliases_refused),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
