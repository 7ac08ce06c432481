/* test_registry.c: the action registry, the built-in keymaps and the
 * shipped keymap files agree: every action has an id and a help line, ids
 * are unique, every binding names a registered action. The : commands are
 * entries of the same registry: their names, arguments and aliases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/keymap.h"
#include "core/keys.h"
#include "ui/command.h"
#include "ui/registry.h"

static void test_ids_unique_with_help(void **state)
{
	(void)state;
	const char *ids[OC_ACT_COUNT];
	oc_action_id_list(ids);
	for (int i = 0; i < OC_ACT_COUNT; i++) {
		assert_non_null(ids[i]);
		assert_non_null(oc_actions[i].help);
		assert_true(strlen(oc_actions[i].help) >= 2);
		for (int k = 0; k < i; k++)
			assert_string_not_equal(ids[i], ids[k]);
	}
}

/* Every built-in keymap loads against the registry, and every action that
 * an admin needs is reachable by a key in the default keymap. */
static void test_builtin_keymaps_use_registry(void **state)
{
	(void)state;
	const char *ids[OC_ACT_COUNT];
	oc_action_id_list(ids);
	for (const char *const *name = oc_keymap_builtin_names(); *name; name++) {
		struct oc_keymap km;
		char err[512] = "";
		assert_int_equal(oc_keymap_builtin(*name, ids, OC_ACT_COUNT, &km, err, sizeof(err)), 0);
		assert_string_equal(err, "");
	}
	struct oc_keymap km;
	assert_int_equal(oc_keymap_builtin("default", ids, OC_ACT_COUNT, &km, NULL, 0), 0);
	for (int a = 0; a < OC_ACT_COUNT; a++) {
		char keys[64];
		oc_keymap_keys_for(&km, a, keys, sizeof(keys));
		if (oc_actions[a].command_only) {
			assert_non_null(oc_actions[a].cmd);
			continue;
		}
		if (!keys[0])
			fail_msg("action %s has no key in the default keymap", ids[a]);
	}
	assert_int_equal(oc_keymap_lookup(&km, 'd'), OC_ACT_NODE_DRAIN);
	assert_int_equal(oc_keymap_lookup(&km, 'q'), OC_ACT_QUIT);
}

/* The shipped files load against the registry too. */
static void test_shipped_keymaps_use_registry(void **state)
{
	(void)state;
	const char *ids[OC_ACT_COUNT];
	oc_action_id_list(ids);
	static const char *const files[] = {"default", "vim"};
	for (size_t i = 0; i < 2; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/keymaps/%s.json", OC_SOURCE_DIR, files[i]);
		struct oc_keymap km;
		char err[512] = "";
		if (oc_keymap_load(path, ids, OC_ACT_COUNT, &km, err, sizeof(err)) != 0)
			fail_msg("%s", err);
	}
}

/* Parse a : line; returns the action (or -1) and checks the argument. */
static int parse(const char *line, const char *want_arg)
{
	char arg[256], err[160] = "";
	int a = oc_command_parse(line, arg, sizeof(arg), err, sizeof(err));
	if (a >= 0) {
		assert_string_equal(err, "");
		if (want_arg)
			assert_string_equal(arg, want_arg);
	} else {
		assert_true(err[0]);
	}
	return a;
}

static void test_command_table(void **state)
{
	(void)state;
	/* Every view's key action is a : command too, and ? can show each. */
	for (int i = 0; i < OC_ACT_COUNT; i++) {
		if (oc_actions[i].view)
			assert_non_null(oc_actions[i].cmd);
		if (oc_actions[i].cmd && oc_actions[i].args != OC_ARGS_NONE)
			assert_non_null(oc_actions[i].arg_help);
	}
	/* A name is shared only by entries that take different arguments. */
	for (int i = 0; i < OC_ACT_COUNT; i++)
		for (int k = 0; k < i; k++) {
			const char *a = oc_actions[i].cmd, *b = oc_actions[k].cmd;
			if (!a || !b || oc_actions[i].args != oc_actions[k].args)
				continue;
			for (const char *p = a; *p; p += strspn(p, " ")) {
				size_t n = strcspn(p, " ");
				for (const char *q = b; *q; q += strspn(q, " ")) {
					size_t m = strcspn(q, " ");
					if (n == m && strncmp(p, q, n) == 0)
						fail_msg("%s and %s both answer to %.*s", oc_actions[i].id, oc_actions[k].id,
							 (int)n, p);
					q += m;
				}
				p += n;
			}
		}

	assert_int_equal(parse("nodes", ""), OC_ACT_VIEW_NODES);
	assert_int_equal(parse("  sinfo  b300-1 ", "b300-1"), OC_ACT_VIEW_NODES);
	assert_int_equal(parse("Queue", ""), OC_ACT_VIEW_QUEUE);
	/* ":q" quits as in vim; with a partition it is the queue. */
	assert_int_equal(parse("q", ""), OC_ACT_QUIT);
	assert_int_equal(parse("q normal", "normal"), OC_ACT_VIEW_QUEUE);
	assert_int_equal(parse("quit", ""), OC_ACT_QUIT);
	assert_int_equal(parse("help", ""), OC_ACT_HELP);
	assert_int_equal(parse("onboard team-x", "team-x"), OC_ACT_ONBOARD);
	/* A note keeps its spaces. */
	assert_int_equal(parse("pass  checkpoint took  4 min", "checkpoint took  4 min"), OC_ACT_REHEARSAL_PASS);
	assert_int_equal(parse("note x", "x"), OC_ACT_REHEARSAL_NOTE);
	assert_int_equal(parse("report", ""), OC_ACT_REHEARSAL_REPORT);

	char arg[256], err[160];
	assert_int_equal(oc_command_parse("bogus", arg, sizeof(arg), err, sizeof(err)), -1);
	assert_string_equal(err, "unknown command 'bogus' (try :help, Tab completes)");
	assert_int_equal(oc_command_parse("queue normal debug", arg, sizeof(arg), err, sizeof(err)), -1);
	assert_string_equal(err, ":queue takes at most one argument");
	assert_int_equal(oc_command_parse("help me", arg, sizeof(arg), err, sizeof(err)), -1);
	assert_string_equal(err, ":help takes no argument");
	/* Keymap ids are not command names. */
	assert_int_equal(oc_command_parse("view.nodes", arg, sizeof(arg), err, sizeof(err)), -1);
	char longw[200];
	memset(longw, 'x', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = '\0';
	assert_int_equal(oc_command_parse(longw, arg, sizeof(arg), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown command"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_unique_with_help),
		cmocka_unit_test(test_builtin_keymaps_use_registry),
		cmocka_unit_test(test_shipped_keymaps_use_registry),
		cmocka_unit_test(test_command_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
