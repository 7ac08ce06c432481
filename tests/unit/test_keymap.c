/* test_keymap.c: keymap files and built-ins (core/keymap.h), and the data
 * file lookup they use (core/datafiles.h). Files are written into a fresh
 * mkdtemp directory; the shipped files are read from OC_SOURCE_DIR. */
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
#include "core/keymap.h"
#include "core/keys.h"
#include "test_util.h"

#ifndef OC_SOURCE_DIR
#error "OC_SOURCE_DIR must be defined (tests/unit/CMakeLists.txt)"
#endif

/* The UI's action registry, as of this writing. */
static const char *const ids[] = {
	"quit", "help", "command", "filter", "refresh", "redraw", "sort.next", "sort.reverse",
	"hidden.toggle", "tag", "tag.all", "tag.clear", "open", "back", "view.next",
	"view.prev", "view.partitions", "view.queue", "view.nodes", "view.health",
	"view.quota", "view.reservations", "move.up", "move.down", "move.pgup", "move.pgdn",
	"move.top", "move.bottom", "move.left", "move.right", "node.drain", "node.resume",
	"node.undrain", "resv.create", "resv.delete", "view.audit", "team.onboard",
	"view.rehearsal", "view.history", "view.events", "view.scheduler", "account.history", "node.probe", "job.cancel", "job.signal", "job.hold", "job.release",
	"job.requeue", "job.timelimit", "node.reboot", "open.nodes",
};
#define NIDS (sizeof(ids) / sizeof(ids[0]))

/* The action index of id. */
static int act(const char *id)
{
	for (size_t i = 0; i < NIDS; i++)
		if (strcmp(ids[i], id) == 0)
			return (int)i;
	fail_msg("no action %s", id);
	return -1;
}

static void assert_same_bindings(const struct oc_keymap *a, const struct oc_keymap *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		char n1[16], n2[16];
		if (a->b[i].key != b->b[i].key || a->b[i].action != b->b[i].action)
			print_error("binding %zu: %s=%s vs %s=%s\n", i,
				    oc_key_name(a->b[i].key, n1, sizeof(n1)), ids[a->b[i].action],
				    oc_key_name(b->b[i].key, n2, sizeof(n2)), ids[b->b[i].action]);
		assert_int_equal(a->b[i].key, b->b[i].key);
		assert_int_equal(a->b[i].action, b->b[i].action);
	}
}

/* The loader of expect_error: on -1 the keymap must be empty. */
static int load(const char *path, char *err, size_t errlen)
{
	struct oc_keymap km;
	memset(&km, 0x5a, sizeof(km));
	int rc = oc_keymap_load(path, ids, NIDS, &km, err, errlen);
	if (rc == -1) {
		assert_int_equal(km.n, 0);
		assert_string_equal(km.name, "");
	}
	return rc;
}

/* Loads root/rel (written from text) and expects -1 with a message that
 * starts with the path and contains every needle (NULL-terminated). */
#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)

/* Loads root/rel (already written) and expects -1 with a message that
 * contains every needle (NULL-terminated); the message may name another
 * file (the parent). */
static void expect_load_error(const struct test_util_dir *f, const char *rel, ...)
{
	char path[4096], err[1024];
	struct oc_keymap km;
	va_list ap;

	memset(&km, 0x5a, sizeof(km));
	assert_int_equal(oc_keymap_load(test_util_at(f, rel, path), ids, NIDS, &km, err, sizeof(err)), -1);
	assert_int_equal(km.n, 0);
	assert_non_null(strstr(err, ".json"));
	va_start(ap, rel);
	for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
		test_util_assert_contains(err, needle);
	va_end(ap);
}

/* ---- the shipped files equal the built-ins ------------------------------ */

static void test_shipped_equal_builtin(void **state)
{
	(void)state;
	const char *const *names = oc_keymap_builtin_names();
	int count = 0;
	for (; *names; names++, count++) {
		char path[4096], err[1024];
		struct oc_keymap file, builtin;
		snprintf(path, sizeof(path), "%s/keymaps/%s.json", OC_SOURCE_DIR, *names);
		if (oc_keymap_load(path, ids, NIDS, &file, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		if (oc_keymap_builtin(*names, ids, NIDS, &builtin, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_string_equal(file.name, *names);
		assert_string_equal(builtin.name, *names);
		assert_string_equal(file.path, path);
		assert_string_equal(builtin.path, "");
		assert_string_equal(file.extends, builtin.extends);
		assert_same_bindings(&file, &builtin);
	}
	assert_int_equal(count, 2);
}

/* Through the search directories too: the source tree as the data dir. */
static void test_shipped_found(void **state)
{
	(void)state;
	struct oc_datafile_dirs d = {0};
	struct oc_keymap km, builtin;
	char err[1024];
	assert_int_equal(oc_datafile_dirs_add(&d, OC_SOURCE_DIR, false), 0);
	assert_int_equal(oc_keymap_find("vim", &d, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(oc_keymap_builtin("vim", ids, NIDS, &builtin, err, sizeof(err)), 0);
	assert_same_bindings(&km, &builtin);
	assert_string_equal(km.extends, "default");
}

/* The shipped default binds what the brief asks and leaves the node
 * action keys free. */
static void test_default_bindings(void **state)
{
	(void)state;
	struct oc_keymap km;
	char buf[128];
	assert_int_equal(oc_keymap_builtin("default", ids, NIDS, &km, NULL, 0), 0);
	assert_int_equal(oc_keymap_lookup(&km, 'q'), act("quit"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_F(1)), act("help"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_CTRL('l')), act("redraw"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_BTAB), act("view.prev"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_ENTER), act("open"));
	assert_int_equal(oc_keymap_lookup(&km, ' '), act("tag"));
	assert_int_equal(oc_keymap_lookup(&km, '6'), act("view.reservations"));
	assert_int_equal(oc_keymap_lookup(&km, 'd'), act("node.drain"));
	assert_int_equal(oc_keymap_lookup(&km, 'R'), act("node.resume"));
	assert_int_equal(oc_keymap_lookup(&km, 'm'), act("resv.create"));
	assert_int_equal(oc_keymap_lookup(&km, 'j'), act("move.down"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_END), act("move.bottom"));
	assert_int_equal(oc_keymap_lookup(&km, 'x'), act("resv.delete"));
	assert_int_equal(oc_keymap_lookup(&km, 'A'), act("view.audit"));
	assert_int_equal(oc_keymap_lookup(&km, 'o'), act("team.onboard"));
	assert_int_equal(oc_keymap_lookup(&km, 'p'), act("node.probe"));
	assert_int_equal(oc_keymap_lookup(&km, 'B'), act("node.reboot"));
	assert_int_equal(oc_keymap_lookup(&km, 'z'), -1);
	assert_int_equal(oc_keymap_lookup(&km, 'g'), -1);
	assert_int_equal(oc_keymap_lookup(NULL, 'q'), -1);
	/* every action has a key */
	for (size_t i = 0; i < NIDS; i++)
		assert_true(oc_keymap_keys_for(&km, (int)i, buf, sizeof(buf))[0] != '\0');
	assert_string_equal(oc_keymap_keys_for(&km, act("help"), buf, sizeof(buf)), "?, F1");
	assert_string_equal(oc_keymap_keys_for(&km, act("move.up"), buf, sizeof(buf)), "k, Up");
	assert_string_equal(oc_keymap_keys_for(&km, act("redraw"), buf, sizeof(buf)), "C-l");
	assert_string_equal(oc_keymap_keys_for(&km, act("view.next"), buf, sizeof(buf)), "Tab");
	assert_string_equal(oc_keymap_keys_for(&km, 999, buf, sizeof(buf)), "");
	/* truncation drops the name that does not fit */
	char small[5];
	assert_string_equal(oc_keymap_keys_for(&km, act("help"), small, sizeof(small)), "?");

	struct oc_keymap vim;
	assert_int_equal(oc_keymap_builtin("vim", ids, NIDS, &vim, NULL, 0), 0);
	assert_int_equal(oc_keymap_lookup(&vim, 'g'), act("move.top"));
	assert_int_equal(oc_keymap_lookup(&vim, 'q'), act("quit"));
	assert_string_equal(oc_keymap_keys_for(&vim, act("move.pgdn"), buf, sizeof(buf)),
			    "PgDn, C-d, C-f");
}

static void test_builtin_errors(void **state)
{
	(void)state;
	struct oc_keymap km;
	char err[256];
	assert_int_equal(oc_keymap_builtin("emacs", ids, NIDS, &km, err, sizeof(err)), 1);
	test_util_assert_contains(err, "emacs");
	/* a registry without "tag.clear": the table and registry drifted */
	const char *few[] = {"quit", "help"};
	assert_int_equal(oc_keymap_builtin("default", few, 2, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "is not in the action registry");
	assert_int_equal(km.n, 0);
	assert_int_equal(oc_keymap_builtin("default", ids, NIDS, NULL, err, sizeof(err)), -1);
}

/* ---- good files --------------------------------------------------------- */

static void test_load_minimal(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_keymap km;
	test_util_write_file(f, "mine.json",
			     "{\"bindings\": {\"x\": \"quit\", \"pgdn\": \"move.pgdn\", \"C-a\": \"move.top\", \"F12\": \"help\"}}",
			     path);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_string_equal(km.name, "mine");
	assert_string_equal(km.extends, "");
	assert_int_equal(km.n, 4);
	assert_int_equal(oc_keymap_lookup(&km, 'x'), act("quit"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_PGDN), act("move.pgdn"));
	assert_int_equal(oc_keymap_lookup(&km, 1), act("move.top"));
	assert_int_equal(oc_keymap_lookup(&km, OC_KEY_F(12)), act("help"));
	assert_int_equal(oc_keymap_lookup(&km, 'q'), -1);
	/* sorted by key */
	for (size_t i = 1; i < km.n; i++)
		assert_true(km.b[i - 1].key < km.b[i].key);
}

/* extends: the parent's bindings, the child's on top, null unbinds. */
static void test_extends(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_keymap km, def;
	test_util_write_file(f, "k/mine.json",
			     "{\"keymap\": \"mine\", \"extends\": \"default\", \"description\": \"mine\",\n"
			     " \"bindings\": {\"q\": null, \"Z\": \"quit\", \"j\": \"move.up\"}}",
			     path);
	/* no default.json beside it: the built-in default */
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(oc_keymap_builtin("default", ids, NIDS, &def, NULL, 0), 0);
	assert_string_equal(km.extends, "default");
	assert_int_equal(km.n, def.n);   /* -q +Z */
	assert_int_equal(oc_keymap_lookup(&km, 'q'), -1);
	assert_int_equal(oc_keymap_lookup(&km, 'Z'), act("quit"));
	assert_int_equal(oc_keymap_lookup(&km, 'j'), act("move.up"));
	assert_int_equal(oc_keymap_lookup(&km, '?'), act("help"));

	/* a default.json beside it is the parent */
	test_util_write_file(f, "k/default.json", "{\"bindings\": {\"z\": \"quit\"}}", path);
	test_util_at(f, "k/mine.json", path);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(km.n, 3);
	assert_int_equal(oc_keymap_lookup(&km, 'z'), act("quit"));
	assert_int_equal(oc_keymap_lookup(&km, '?'), -1);
}

/* ---- broken files ------------------------------------------------------- */

static void test_invalid_json(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "bad.json", "{\n  \"bindings\": {\n    \"q\": quit\n  }\n}\n", ":3:", NULL);
	expect_error(f, "bad.json", "{\"bindings\": {\"q\": \"quit\",}}", ":1:", NULL);
	/* truncated */
	expect_error(f, "bad.json", "{\"bindings\": {\"q\": \"quit\"", ":1:", NULL);
	expect_error(f, "bad.json", "", "", NULL);
	/* the same JSON key twice: jansson says so */
	expect_error(f, "bad.json", "{\"bindings\": {\"q\": \"quit\",\n \"q\": \"help\"}}", ":2:",
		     "duplicate", NULL);
	expect_error(f, "bad.json", "[1, 2]", "must be a JSON object", NULL);
}

static void test_invalid_json_position(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_keymap km;
	test_util_write_file(f, "pos.json", "{\n  \"bindings\": {\n    \"q\": \"quit\"\n    \"r\": \"refresh\"\n  }\n}\n",
			     path);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), -1);
	char want[4200];
	snprintf(want, sizeof(want), "%s:4:", path);
	assert_memory_equal(err, want, strlen(want));
}

static void test_wrong_types(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "t.json", "{\"bindings\": [\"q\"]}", "\"bindings\" must be an object", NULL);
	expect_error(f, "t.json", "{\"bindings\": {\"q\": 1}}", "\"q\"", "must be a string", NULL);
	expect_error(f, "t.json", "{\"bindings\": {\"q\": [\"quit\"]}}", "must be a string", NULL);
	expect_error(f, "t.json", "{\"keymap\": 1, \"bindings\": {}}", "\"keymap\" must be a string", NULL);
	expect_error(f, "t.json", "{\"extends\": true, \"bindings\": {}}", "\"extends\" must be a string", NULL);
	expect_error(f, "t.json", "{\"keymap\": \"t\"}", "no \"bindings\"", NULL);
	expect_error(f, "t.json", "{\"keymap\": \"other\", \"bindings\": {}}", "\"keymap\" is \"other\"",
		     "t.json", NULL);
}

static void test_unknown_names(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "u.json", "{\"bindings\": {}, \"bindigns\": {}}", "unknown key \"bindigns\"", NULL);
	expect_error(f, "u.json", "{\"bindings\": {\"q\": \"qiut\"}}", "unknown action \"qiut\"", NULL);
	expect_error(f, "u.json", "{\"bindings\": {\"PageDown\": \"move.pgdn\"}}",
		     "unknown key name \"PageDown\"", NULL);
	expect_error(f, "u.json", "{\"bindings\": {\"gg\": \"move.top\"}}", "\"gg\"", "unknown key name",
		     NULL);
	expect_error(f, "u.json", "{\"bindings\": {\"C-i\": \"view.next\"}}", "\"C-i\"",
		     "same key as Tab", NULL);
	expect_error(f, "u.json", "{\"bindings\": {\"C-m\": \"open\"}}", "same key as Enter", NULL);
	expect_error(f, "u.json", "{\"bindings\": {\"C-[\": \"back\"}}", "same key as Esc", NULL);
}

static void test_duplicate_binding(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "d.json", "{\"bindings\": {\"PgUp\": \"move.pgup\", \"pgup\": \"move.top\"}}",
		     "\"PgUp\" and \"pgup\" are the same key", NULL);
	expect_error(f, "d.json", "{\"bindings\": {\"c-l\": \"redraw\", \"C-l\": \"refresh\"}}",
		     "same key", NULL);
	/* one action on several keys is fine */
	char path[4096];
	struct oc_keymap km;
	test_util_write_file(f, "ok.json", "{\"bindings\": {\"q\": \"quit\", \"x\": \"quit\"}}", path);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, NULL, 0), 0);
}

static void test_extends_refused(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096];
	/* cycle */
	test_util_write_file(f, "c/b.json", "{\"extends\": \"a\", \"bindings\": {}}", path);
	test_util_write_file(f, "c/a.json", "{\"extends\": \"b\", \"bindings\": {}}", path);
	expect_load_error(f, "c/a.json", "b.json: \"extends\": cycle: a extends b, which extends a", NULL);
	/* deeper than one level */
	test_util_write_file(f, "c/y.json", "{\"extends\": \"z\", \"bindings\": {}}", path);
	test_util_write_file(f, "c/z.json", "{\"bindings\": {}}", path);
	test_util_write_file(f, "c/x.json", "{\"extends\": \"y\", \"bindings\": {}}", path);
	expect_load_error(f, "c/x.json", "y.json: \"extends\": only one level",
			  "x extends y, which extends z", NULL);
	/* itself */
	expect_error(f, "c/self.json", "{\"extends\": \"self\", \"bindings\": {}}", "itself", NULL);
	/* missing, no built-in */
	expect_error(f, "c/m.json", "{\"extends\": \"nosuch\", \"bindings\": {}}", "no keymap \"nosuch\"",
		     NULL);
	expect_error(f, "c/n.json", "{\"extends\": \"../x\", \"bindings\": {}}", "invalid keymap name",
		     NULL);
	/* a broken parent: the message names the parent */
	test_util_write_file(f, "c/broken.json", "{\"bindings\": {\"q\": \"nope\"}}", path);
	test_util_write_file(f, "c/kid.json", "{\"extends\": \"broken\", \"bindings\": {}}", path);
	expect_load_error(f, "c/kid.json", "broken.json: bindings: \"q\": unknown action \"nope\"", NULL);
}

static void test_file_name(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_keymap km;
	test_util_write_file(f, "noext", "{\"bindings\": {}}", path);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "NAME.json");
	assert_int_equal(oc_keymap_load("/nonexistent/x.json", ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "/nonexistent/x.json: No such file");
	assert_int_equal(oc_keymap_load(NULL, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_mkdirs(f, "dir.json");
	assert_int_equal(oc_keymap_load(test_util_at(f, "dir.json", path), ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "is a directory");
}

static void test_too_large(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_keymap km;
	size_t n = OC_DATAFILE_MAX_SIZE + 10;
	char *text = malloc(n + 1);
	assert_non_null(text);
	memset(text, ' ', n);
	memcpy(text, "{\"bindings\": {}}", 16);
	text[n] = '\0';
	test_util_write_file(f, "big.json", text, path);
	free(text);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "too large");
	/* just under the limit is fine */
	assert_int_equal(truncate(path, OC_DATAFILE_MAX_SIZE), 0);
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), 0);
}

/* ---- the search directories --------------------------------------------- */

static void test_find_order_and_override(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[1024];
	struct oc_datafile_dirs d = {0};
	struct oc_keymap km;
	assert_int_equal(oc_datafile_dirs_add(&d, test_util_at(f, "user", path), true), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, test_util_at(f, "data", path), false), 0);

	/* nothing anywhere */
	assert_int_equal(oc_keymap_find("vim", &d, ids, NIDS, &km, err, sizeof(err)), 1);
	test_util_assert_contains(err, "no keymaps/vim.json in");
	test_util_assert_contains(err, "/user/keymaps");
	test_util_assert_contains(err, "/data/keymaps");

	test_util_write_file(f, "data/keymaps/vim.json", "{\"extends\": \"default\", \"bindings\": {\"h\": \"move.left\"}}", path);
	test_util_write_file(f, "data/keymaps/default.json", "{\"bindings\": {\"q\": \"quit\"}}", path);
	assert_int_equal(oc_keymap_find("vim", &d, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(km.n, 2);
	test_util_assert_contains(km.path, "/data/keymaps/vim.json");

	/* a user default.json replaces the installed one, for vim's parent too */
	test_util_write_file(f, "user/keymaps/default.json", "{\"bindings\": {\"x\": \"quit\"}}", path);
	assert_int_equal(oc_keymap_find("vim", &d, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(oc_keymap_lookup(&km, 'x'), act("quit"));
	assert_int_equal(oc_keymap_lookup(&km, 'q'), -1);

	/* a user vim.json replaces the installed one entirely */
	test_util_write_file(f, "user/keymaps/vim.json", "{\"bindings\": {\"y\": \"help\"}}", path);
	assert_int_equal(oc_keymap_find("vim", &d, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(km.n, 1);
	test_util_assert_contains(km.path, "/user/keymaps/vim.json");

	/* a user file extending the same name is refused, not looped */
	test_util_write_file(f, "user/keymaps/default.json", "{\"extends\": \"default\", \"bindings\": {}}", path);
	assert_int_equal(oc_keymap_find("default", &d, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "itself");

	/* bad names */
	assert_int_equal(oc_keymap_find("../etc/passwd", &d, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "invalid name");
	assert_int_equal(oc_keymap_find(".hidden", &d, ids, NIDS, &km, err, sizeof(err)), -1);
	assert_int_equal(oc_keymap_find("", &d, ids, NIDS, &km, err, sizeof(err)), -1);
}

static void test_permissions(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[1024];
	struct oc_datafile_dirs strict = {0}, loose = {0};
	struct oc_keymap km;
	assert_int_equal(oc_datafile_dirs_add(&strict, test_util_at(f, "p", path), true), 0);
	assert_int_equal(oc_datafile_dirs_add(&loose, test_util_at(f, "p", path), false), 0);
	test_util_write_file(f, "p/keymaps/gw.json", "{\"bindings\": {\"q\": \"quit\"}}", path);

	assert_int_equal(oc_keymap_find("gw", &strict, ids, NIDS, &km, err, sizeof(err)), 0);
	assert_int_equal(chmod(path, 0664), 0);
	assert_int_equal(oc_keymap_find("gw", &strict, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, path);
	test_util_assert_contains(err, "writable by group");
	test_util_assert_contains(err, "0664");
	assert_int_equal(km.n, 0);
	assert_int_equal(chmod(path, 0646), 0);
	assert_int_equal(oc_keymap_find("gw", &strict, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "writable by others");
	/* the installed data dir is not checked */
	assert_int_equal(oc_keymap_find("gw", &loose, ids, NIDS, &km, err, sizeof(err)), 0);
	/* nor a file given by its path */
	assert_int_equal(oc_keymap_load(path, ids, NIDS, &km, err, sizeof(err)), 0);

	/* a parent found in a strict directory is checked too */
	assert_int_equal(chmod(path, 0664), 0);
	test_util_write_file(f, "p/keymaps/kid.json", "{\"extends\": \"gw\", \"bindings\": {}}", path);
	assert_int_equal(oc_keymap_find("kid", &strict, ids, NIDS, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "gw.json: refused");

	/* owned by someone else (only root can set that up) */
	if (geteuid() == 0) {
		test_util_write_file(f, "p/keymaps/other.json", "{\"bindings\": {}}", path);
		assert_int_equal(chown(path, 12345, 12345), 0);
		assert_int_equal(oc_keymap_find("other", &strict, ids, NIDS, &km, err, sizeof(err)), -1);
		test_util_assert_contains(err, "owned by uid 12345");
		assert_int_equal(oc_keymap_find("other", &loose, ids, NIDS, &km, err, sizeof(err)), 0);
	}
}

static void test_datafile_dirs_env(void **state)
{
	(void)state;
	struct oc_datafile_dirs d;
	char *old_xdg = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char *old_sys = getenv("OPSCONSOLE_SYSCONFDIR") ? strdup(getenv("OPSCONSOLE_SYSCONFDIR")) : NULL;

	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	setenv("HOME", "/home/u", 1);
	unsetenv("OPSCONSOLE_SYSCONFDIR");
	oc_datafile_dirs(&d, "/usr/share/opsconsole");
	assert_int_equal(d.n, 3);
	assert_string_equal(d.dir[0], "/x/cfg/opsconsole");
	assert_true(d.strict[0]);
	assert_string_equal(d.dir[1], "/etc/opsconsole");
	assert_true(d.strict[1]);
	assert_string_equal(d.dir[2], "/usr/share/opsconsole");
	assert_false(d.strict[2]);

	setenv("XDG_CONFIG_HOME", "relative/cfg", 1);   /* ignored, per the XDG spec */
	setenv("OPSCONSOLE_SYSCONFDIR", "/site", 1);
	oc_datafile_dirs(&d, NULL);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.dir[0], "/home/u/.config/opsconsole");
	assert_string_equal(d.dir[1], "/site");

	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	oc_datafile_dirs(&d, "");
	assert_int_equal(d.n, 1);
	assert_string_equal(d.dir[0], "/site");

	/* full */
	assert_int_equal(oc_datafile_dirs_add(&d, "/a", false), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, "/b", false), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, "/c", false), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, "/d", false), -1);
	assert_int_equal(oc_datafile_dirs_add(&d, "", false), -1);

	if (old_xdg)
		setenv("XDG_CONFIG_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	if (old_sys)
		setenv("OPSCONSOLE_SYSCONFDIR", old_sys, 1);
	else
		unsetenv("OPSCONSOLE_SYSCONFDIR");
	free(old_xdg);
	free(old_home);
	free(old_sys);
}

static void test_datafile_names_and_list(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], stem[64];
	struct oc_datafile_dirs d = {0};
	assert_true(oc_datafile_name_ok("high-contrast"));
	assert_true(oc_datafile_name_ok("my_theme.2"));
	assert_false(oc_datafile_name_ok(".x"));
	assert_false(oc_datafile_name_ok("a/b"));
	assert_false(oc_datafile_name_ok("a b"));
	assert_false(oc_datafile_name_ok(""));
	assert_false(oc_datafile_name_ok(NULL));
	char longname[80];
	memset(longname, 'a', 64);
	longname[64] = '\0';
	assert_false(oc_datafile_name_ok(longname));
	longname[63] = '\0';
	assert_true(oc_datafile_name_ok(longname));

	assert_int_equal(oc_datafile_stem("/a/b/vim.json", stem, sizeof(stem)), 0);
	assert_string_equal(stem, "vim");
	assert_int_equal(oc_datafile_stem("vim.json", stem, sizeof(stem)), 0);
	assert_int_equal(oc_datafile_stem("/a/.json", stem, sizeof(stem)), -1);
	assert_int_equal(oc_datafile_stem("/a/x.txt", stem, sizeof(stem)), -1);
	assert_int_equal(oc_datafile_stem("/a/.x.json", stem, sizeof(stem)), -1);

	assert_int_equal(oc_datafile_dirs_add(&d, test_util_at(f, "l1", path), true), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, test_util_at(f, "l2", path), false), 0);
	test_util_write_file(f, "l1/themes/zebra.json", "{}", path);
	test_util_write_file(f, "l2/themes/mono.json", "{}", path);
	test_util_write_file(f, "l2/themes/notes.txt", "", path);
	test_util_write_file(f, "l2/themes/.hidden.json", "{}", path);
	test_util_mkdirs(f, "l2/themes/sub.json");
	const char *extra[] = {"default", "mono"};
	char *list = oc_datafile_list("themes", &d, extra, 2);
	assert_non_null(list);
	assert_string_equal(list, "default, mono, zebra");
	free(list);
	list = oc_datafile_list("keymaps", &d, NULL, 0);
	assert_non_null(list);
	assert_string_equal(list, "");
	free(list);
}

static void test_datafile_read(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	char *text = (char *)1;
	size_t len = 99;
	test_util_write_file(f, "r/a.json", "{\"x\": 1}", path);
	assert_int_equal(oc_datafile_read(path, true, &text, &len, err, sizeof(err)), 0);
	assert_string_equal(text, "{\"x\": 1}");
	assert_int_equal(len, 8);
	free(text);
	assert_int_equal(oc_datafile_read("/nonexistent", false, &text, &len, err, sizeof(err)), -1);
	assert_null(text);
	assert_int_equal(len, 0);
	assert_int_equal(oc_datafile_read("/dev/null", false, &text, NULL, err, sizeof(err)), -1);
	test_util_assert_contains(err, "not a regular file");
	assert_int_equal(oc_datafile_read(path, false, NULL, NULL, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_equal_builtin),
		cmocka_unit_test(test_shipped_found),
		cmocka_unit_test(test_default_bindings),
		cmocka_unit_test(test_builtin_errors),
		cmocka_unit_test_setup_teardown(test_load_minimal, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_extends, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_invalid_json, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_invalid_json_position, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_types, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_names, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_binding, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_extends_refused, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_file_name, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_too_large, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_find_order_and_override, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_permissions, test_util_setup, test_util_teardown),
		cmocka_unit_test(test_datafile_dirs_env),
		cmocka_unit_test_setup_teardown(test_datafile_names_and_list, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_datafile_read, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
