/* test_theme.c: theme files and built-ins (core/theme.h). Files are
 * written into a fresh mkdtemp directory; the shipped files are read from
 * OC_SOURCE_DIR. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datafiles.h"
#include "core/theme.h"
#include "test_util.h"

#ifndef OC_SOURCE_DIR
#error "OC_SOURCE_DIR must be defined (tests/unit/CMakeLists.txt)"
#endif

/* The UI's roles, as of this writing. */
static const char *const roles[] = {
	"normal", "header", "tab", "tab_active", "title", "selected", "tagged", "banner",
	"status", "ok", "busy", "warn", "bad", "dim", "group", "bar_used", "bar_free", "bar_over",
};
#define NROLES (sizeof(roles) / sizeof(roles[0]))

static int role(const char *name)
{
	for (size_t i = 0; i < NROLES; i++)
		if (strcmp(roles[i], name) == 0)
			return (int)i;
	fail_msg("no role %s", name);
	return -1;
}

static void assert_plain(const struct oc_theme_spec *t)
{
	for (size_t i = 0; i < OC_THEME_MAX_ROLES; i++) {
		assert_int_equal(t->role[i].fg, -1);
		assert_int_equal(t->role[i].bg, -1);
		assert_int_equal(t->role[i].attrs, 0);
	}
	assert_false(t->uses_color);
	assert_string_equal(t->name, "");
}

/* The loader of expect_error: on -1 the theme must be plain. */
static int load(const char *path, char *err, size_t errlen)
{
	struct oc_theme_spec t;
	memset(&t, 0x5a, sizeof(t));
	int rc = oc_theme_load(path, roles, NROLES, &t, err, errlen);
	if (rc == -1)
		assert_plain(&t);
	return rc;
}

/* Writes text as root/rel, loads it and expects -1 with a message that
 * starts with the path and contains every needle (NULL-terminated). */
#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)

static void assert_same(const struct oc_theme_spec *a, const struct oc_theme_spec *b)
{
	assert_int_equal(a->nroles, b->nroles);
	assert_int_equal(a->uses_color, b->uses_color);
	for (size_t i = 0; i < a->nroles; i++) {
		if (a->role[i].fg != b->role[i].fg || a->role[i].bg != b->role[i].bg ||
		    a->role[i].attrs != b->role[i].attrs)
			print_error("%s: role %s differs: %d/%d/%x vs %d/%d/%x\n", a->name, roles[i],
				    a->role[i].fg, a->role[i].bg, a->role[i].attrs, b->role[i].fg,
				    b->role[i].bg, b->role[i].attrs);
		assert_int_equal(a->role[i].fg, b->role[i].fg);
		assert_int_equal(a->role[i].bg, b->role[i].bg);
		assert_int_equal(a->role[i].attrs, b->role[i].attrs);
	}
}

/* ---- shipped files ------------------------------------------------------- */

static void test_shipped_equal_builtin(void **state)
{
	(void)state;
	int count = 0;
	for (const char *const *n = oc_theme_builtin_names(); *n; n++, count++) {
		char path[4096], err[1024];
		struct oc_theme_spec file, builtin;
		snprintf(path, sizeof(path), "%s/themes/%s.json", OC_SOURCE_DIR, *n);
		if (oc_theme_load(path, roles, NROLES, &file, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		if (oc_theme_builtin(*n, roles, NROLES, &builtin, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_string_equal(file.name, *n);
		assert_string_equal(builtin.name, *n);
		assert_string_equal(builtin.path, "");
		assert_same(&file, &builtin);
	}
	assert_int_equal(count, 4);
}

/* Every shipped theme sets every role itself (none relies on "normal"). */
static void test_shipped_complete(void **state)
{
	(void)state;
	for (const char *const *n = oc_theme_builtin_names(); *n; n++) {
		char path[4096], text[8192];
		snprintf(path, sizeof(path), "%s/themes/%s.json", OC_SOURCE_DIR, *n);
		FILE *fp = fopen(path, "r");
		assert_non_null(fp);
		size_t len = fread(text, 1, sizeof(text) - 1, fp);
		fclose(fp);
		text[len] = '\0';
		for (size_t i = 0; i < NROLES; i++) {
			char quoted[64];
			snprintf(quoted, sizeof(quoted), "\"%s\":", roles[i]);
			test_util_assert_contains(text, quoted);
		}
	}
}

static void test_shipped_properties(void **state)
{
	(void)state;
	struct oc_theme_spec t;
	char err[512];

	/* mono: no colour at all */
	assert_int_equal(oc_theme_builtin("mono", roles, NROLES, &t, err, sizeof(err)), 0);
	assert_false(t.uses_color);
	for (size_t i = 0; i < NROLES; i++) {
		assert_int_equal(t.role[i].fg, OC_COLOR_DEFAULT);
		assert_int_equal(t.role[i].bg, OC_COLOR_DEFAULT);
	}
	assert_true(t.role[role("selected")].attrs & OC_ATTR_REVERSE);

	/* high-contrast: every role has a real background; text on black
	 * is bright */
	assert_int_equal(oc_theme_builtin("high-contrast", roles, NROLES, &t, err, sizeof(err)), 0);
	for (size_t i = 0; i < NROLES; i++) {
		assert_true(t.role[i].bg >= 0);
		assert_true(t.role[i].fg >= 0);
		if (t.role[i].bg == OC_COLOR_BLACK)
			assert_true(t.role[i].fg >= 8);
	}

	/* light: no yellow, cyan or white text on the terminal's background */
	assert_int_equal(oc_theme_builtin("light", roles, NROLES, &t, err, sizeof(err)), 0);
	for (size_t i = 0; i < NROLES; i++) {
		if (t.role[i].bg != OC_COLOR_DEFAULT)
			continue;
		short fg = t.role[i].fg;
		assert_true(fg != OC_COLOR_YELLOW && fg != OC_COLOR_CYAN && fg != OC_COLOR_WHITE);
		assert_true(fg < 8 || fg == OC_COLOR_BRIGHT(OC_COLOR_BLACK) || fg == -1);
	}

	/* default keeps the colours the screen had */
	assert_int_equal(oc_theme_builtin("default", roles, NROLES, &t, err, sizeof(err)), 0);
	assert_true(t.uses_color);
	assert_int_equal(t.role[role("header")].fg, OC_COLOR_BLACK);
	assert_int_equal(t.role[role("header")].bg, OC_COLOR_CYAN);
	assert_int_equal(t.role[role("bad")].fg, OC_COLOR_RED);
	assert_int_equal(t.role[role("bad")].attrs, OC_ATTR_BOLD);
}

static void test_builtin_errors(void **state)
{
	(void)state;
	struct oc_theme_spec t;
	char err[256];
	assert_int_equal(oc_theme_builtin("solarized", roles, NROLES, &t, err, sizeof(err)), 1);
	test_util_assert_contains(err, "solarized");
	const char *few[] = {"normal", "header"};
	assert_int_equal(oc_theme_builtin("default", few, 2, &t, err, sizeof(err)), -1);
	test_util_assert_contains(err, "is not in the role list");
	assert_plain(&t);
	/* a role list longer than the theme can hold */
	const char *many[OC_THEME_MAX_ROLES + 1];
	for (size_t i = 0; i <= OC_THEME_MAX_ROLES; i++)
		many[i] = "x";
	assert_int_equal(oc_theme_builtin("default", many, OC_THEME_MAX_ROLES + 1, &t, err, sizeof(err)), -1);
	test_util_assert_contains(err, "too many roles");
	/* a UI role the built-in does not know takes "normal" */
	const char *more[NROLES + 1];
	memcpy(more, roles, sizeof(roles));
	more[NROLES] = "future";
	assert_int_equal(oc_theme_builtin("high-contrast", more, NROLES + 1, &t, err, sizeof(err)), 0);
	assert_int_equal(t.role[NROLES].fg, OC_COLOR_BRIGHT(OC_COLOR_WHITE));
	assert_int_equal(t.role[NROLES].bg, OC_COLOR_BLACK);
}

static void test_colors_and_attrs(void **state)
{
	(void)state;
	assert_int_equal(oc_theme_color_parse("default"), -1);
	assert_int_equal(oc_theme_color_parse("black"), 0);
	assert_int_equal(oc_theme_color_parse("white"), 7);
	assert_int_equal(oc_theme_color_parse("bright-black"), 8);
	assert_int_equal(oc_theme_color_parse("bright-white"), 15);
	assert_int_equal(oc_theme_color_parse("Red"), -2);
	assert_int_equal(oc_theme_color_parse("orange"), -2);
	assert_int_equal(oc_theme_color_parse(NULL), -2);
	for (int c = -1; c < 16; c++)
		assert_int_equal(oc_theme_color_parse(oc_theme_color_name(c)), c);
	assert_string_equal(oc_theme_color_name(16), "?");
	assert_int_equal(oc_theme_attr_parse("bold"), OC_ATTR_BOLD);
	assert_int_equal(oc_theme_attr_parse("underline"), OC_ATTR_UNDERLINE);
	assert_int_equal(oc_theme_attr_parse("reverse"), OC_ATTR_REVERSE);
	assert_int_equal(oc_theme_attr_parse("dim"), OC_ATTR_DIM);
	assert_int_equal(oc_theme_attr_parse("italic"), OC_ATTR_ITALIC);
	assert_int_equal(oc_theme_attr_parse("standout"), OC_ATTR_STANDOUT);
	assert_int_equal(oc_theme_attr_parse("blink"), 0);
	assert_int_equal(oc_theme_attr_parse(NULL), 0);
}

/* ---- user files ----------------------------------------------------------- */

static void test_partial_and_extends(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_theme_spec t;

	/* roles left out take "normal" */
	test_util_write_file(f, "p/few.json",
			     "{\"theme\": \"few\", \"roles\": {\"normal\": {\"fg\": \"white\", \"bg\": \"blue\"},\n"
			     " \"bad\": {\"fg\": \"bright-red\", \"attrs\": [\"bold\", \"italic\"]}}}",
			     path);
	assert_int_equal(oc_theme_load(path, roles, NROLES, &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "few");
	assert_true(t.uses_color);
	assert_int_equal(t.role[role("header")].fg, OC_COLOR_WHITE);
	assert_int_equal(t.role[role("header")].bg, OC_COLOR_BLUE);
	assert_int_equal(t.role[role("bad")].fg, 9);
	assert_int_equal(t.role[role("bad")].bg, -1);
	assert_int_equal(t.role[role("bad")].attrs, OC_ATTR_BOLD | OC_ATTR_ITALIC);

	/* no "normal" either: plain */
	test_util_write_file(f, "p/bare.json", "{\"roles\": {}}", path);
	assert_int_equal(oc_theme_load(path, roles, NROLES, &t, err, sizeof(err)), 0);
	assert_false(t.uses_color);

	/* extends the built-in mono: a role replaced whole, others kept */
	test_util_write_file(f, "p/mymono.json",
			     "{\"extends\": \"mono\", \"roles\": {\"header\": {\"attrs\": [\"underline\"]}}}", path);
	assert_int_equal(oc_theme_load(path, roles, NROLES, &t, err, sizeof(err)), 0);
	assert_string_equal(t.extends, "mono");
	assert_int_equal(t.role[role("header")].attrs, OC_ATTR_UNDERLINE);
	assert_int_equal(t.role[role("status")].attrs, OC_ATTR_REVERSE);
	assert_false(t.uses_color);

	/* extends a file beside it; the child's "normal" fills what neither sets */
	test_util_write_file(f, "p/base.json", "{\"roles\": {\"ok\": {\"fg\": \"green\"}}}", path);
	test_util_write_file(f, "p/kid.json",
			     "{\"extends\": \"base\", \"roles\": {\"normal\": {\"fg\": \"yellow\"}}}", path);
	assert_int_equal(oc_theme_load(path, roles, NROLES, &t, err, sizeof(err)), 0);
	assert_int_equal(t.role[role("ok")].fg, OC_COLOR_GREEN);
	assert_int_equal(t.role[role("warn")].fg, OC_COLOR_YELLOW);
}

static void test_broken(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"fg\": \"black\"}\n", ":2:", NULL);
	expect_error(f, "b.json", "{\"roles\": {\n \"header\": {\"fg\": black}}}", ":2:", NULL);
	expect_error(f, "b.json", "{\"roles\": []}", "\"roles\" must be an object", NULL);
	expect_error(f, "b.json", "{}", "no \"roles\"", NULL);
	expect_error(f, "b.json", "{\"roles\": {}, \"colors\": {}}", "unknown key \"colors\"", NULL);
	expect_error(f, "b.json", "{\"roles\": {\"headr\": {}}}", "unknown role \"headr\"", NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": \"red\"}}", "\"header\" must be an object", NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"fg\": \"orange\"}}}",
		     "unknown colour \"orange\"", NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"bg\": 4}}}", "\"bg\" must be a colour name",
		     NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"attrs\": \"bold\"}}}",
		     "\"attrs\" must be an array", NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"attrs\": [\"bold\", \"blink\"]}}}",
		     "unknown attribute \"blink\"", NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"attrs\": [1]}}}", "attrs[0] must be a string",
		     NULL);
	expect_error(f, "b.json", "{\"roles\": {\"header\": {\"color\": \"red\"}}}",
		     "unknown key \"color\"", NULL);
	expect_error(f, "b.json", "{\"theme\": \"c\", \"roles\": {}}", "\"theme\" is \"c\"", NULL);
	expect_error(f, "b.json", "{\"extends\": \"b\", \"roles\": {}}", "itself", NULL);
	expect_error(f, "b.json", "{\"extends\": \"nosuch\", \"roles\": {}}", "no theme \"nosuch\"", NULL);
}

static void test_extends_refused(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[1024];
	struct oc_theme_spec t;
	test_util_write_file(f, "e/one.json", "{\"extends\": \"two\", \"roles\": {}}", path);
	test_util_write_file(f, "e/two.json", "{\"extends\": \"one\", \"roles\": {}}", path);
	assert_int_equal(oc_theme_load(test_util_at(f, "e/one.json", path), roles, NROLES, &t, err, sizeof(err)), -1);
	test_util_assert_contains(err, "two.json: \"extends\": cycle: one extends two, which extends one");
	assert_plain(&t);
	test_util_write_file(f, "e/three.json", "{\"extends\": \"mono\", \"roles\": {}}", path);
	test_util_write_file(f, "e/four.json", "{\"extends\": \"three\", \"roles\": {}}", path);
	assert_int_equal(oc_theme_load(path, roles, NROLES, &t, err, sizeof(err)), -1);
	test_util_assert_contains(err, "only one level: four extends three, which extends mono");
}

static void test_find_and_permissions(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[1024];
	struct oc_datafile_dirs d = {0};
	struct oc_theme_spec t;
	assert_int_equal(oc_datafile_dirs_add(&d, test_util_at(f, "user", path), true), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, OC_SOURCE_DIR, false), 0);

	/* the shipped light theme through the search */
	assert_int_equal(oc_theme_find("light", &d, roles, NROLES, &t, err, sizeof(err)), 0);
	test_util_assert_contains(t.path, "/themes/light.json");
	assert_int_equal(oc_theme_find("solarized", &d, roles, NROLES, &t, err, sizeof(err)), 1);
	test_util_assert_contains(err, "no themes/solarized.json in");

	/* a user file of the same name wins, and may extend a shipped one */
	test_util_write_file(f, "user/themes/light.json", "{\"extends\": \"mono\", \"roles\": {}}", path);
	assert_int_equal(oc_theme_find("light", &d, roles, NROLES, &t, err, sizeof(err)), 0);
	assert_false(t.uses_color);
	assert_string_equal(t.extends, "mono");
	test_util_assert_contains(t.path, "/user/themes/light.json");

	/* group-writable in the user's directory: refused */
	assert_int_equal(chmod(path, 0620), 0);
	assert_int_equal(oc_theme_find("light", &d, roles, NROLES, &t, err, sizeof(err)), -1);
	test_util_assert_contains(err, "writable by group");
	assert_plain(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_equal_builtin),
		cmocka_unit_test(test_shipped_complete),
		cmocka_unit_test(test_shipped_properties),
		cmocka_unit_test(test_builtin_errors),
		cmocka_unit_test(test_colors_and_attrs),
		cmocka_unit_test_setup_teardown(test_partial_and_extends, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_broken, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_extends_refused, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_find_and_permissions, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
