/* test_registry.c: the action registry, the built-in keymaps and the
 * shipped keymap files agree: every action has an id and a help line, ids
 * are unique, every binding names a registered action. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/keymap.h"
#include "core/keys.h"
#include "ui/ui_int.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_unique_with_help),
		cmocka_unit_test(test_builtin_keymaps_use_registry),
		cmocka_unit_test(test_shipped_keymaps_use_registry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
