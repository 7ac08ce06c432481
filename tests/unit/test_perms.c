/* test_perms.c: the ssh-like permission check of the configuration
 * directories ($XDG_CONFIG_HOME/opsconsole and $OPSCONSOLE_SYSCONFDIR),
 * done once in oc_datafile_read for every kind of file read from there:
 * profiles, keymaps, themes, views, checklists, onboarding files. The file
 * and each directory on its way up to the configuration root must not be
 * writable by group or others; symbolic links are followed to where they
 * lead. Files elsewhere are not checked. */
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

#include "actions/onboard.h"
#include "core/datafiles.h"
#include "core/keymap.h"
#include "core/profile.h"
#include "rehearsal/checklist.h"
#include "test_util.h"

static const char *const ids[] = {"quit", "help"};

static const char profile_text[] = "{\"refresh_seconds\": 2}";
static const char keymap_text[] = "{\"bindings\": {\"q\": \"quit\"}}";

/* XDG_CONFIG_HOME = root/xdg, OPSCONSOLE_SYSCONFDIR = root/etc, both made
 * 0700 like a real ~/.config/opsconsole; returns f. */
static struct test_util_dir *setup_env(void **state)
{
	struct test_util_dir *f = *state;
	char p[4096];
	setenv("XDG_CONFIG_HOME", test_util_at(f, "xdg", p), 1);
	setenv("OPSCONSOLE_SYSCONFDIR", test_util_at(f, "etc", p), 1);
	test_util_mkdirs(f, "xdg/opsconsole/clusters");
	test_util_mkdirs(f, "xdg/opsconsole/keymaps");
	test_util_mkdirs(f, "etc/clusters");
	assert_int_equal(chmod(test_util_at(f, "xdg/opsconsole", p), 0700), 0);
	assert_int_equal(chmod(test_util_at(f, "xdg/opsconsole/clusters", p), 0700), 0);
	return f;
}

static int load_profile(const char *path, char *err, size_t errlen)
{
	struct oc_profile p;
	return oc_profile_load_file(path, &p, err, errlen);
}

/* The profile cluster.sh writes (0600 in a 0700 directory) is read; a
 * group-writable one, or one in a group-writable directory, is refused
 * with the path, the reason and the chmod that fixes it. */
static void test_profile_modes(void **state)
{
	struct test_util_dir *f = setup_env(state);
	char path[4096], dir[4096], err[1024];
	struct oc_profile p;
	const char *dirs[OC_PROFILE_MAX_DIRS];
	char storage[OC_PROFILE_MAX_DIRS][4096];
	size_t nd = oc_profile_dirs(storage, dirs);

	test_util_write_file(f, "xdg/opsconsole/clusters/llm-poc.json", profile_text, path);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(oc_profile_find("llm-poc", dirs, nd, &p, err, sizeof(err)), 0);

	assert_int_equal(chmod(path, 0620), 0);
	assert_int_equal(oc_profile_find("llm-poc", dirs, nd, &p, err, sizeof(err)), -1);
	test_util_assert_contains(err, path);
	test_util_assert_contains(err, "writable by group");
	test_util_assert_contains(err, "chmod go-w");
	assert_string_equal(p.name, ""); /* nothing kept */
	assert_int_equal(chmod(path, 0600), 0);

	test_util_at(f, "xdg/opsconsole/clusters", dir);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(load_profile(path, err, sizeof(err)), -1);
	test_util_assert_contains(err, "its directory");
	test_util_assert_contains(err, dir);
	test_util_assert_contains(err, "writable by others");
	assert_int_equal(chmod(dir, 0700), 0);

	/* the configuration root itself counts */
	test_util_at(f, "xdg/opsconsole", dir);
	assert_int_equal(chmod(dir, 0770), 0);
	assert_int_equal(load_profile(path, err, sizeof(err)), -1);
	test_util_assert_contains(err, dir);
	assert_int_equal(chmod(dir, 0700), 0);
	/* what is above the root does not (the mkdtemp folder, /tmp) */
	assert_int_equal(chmod(test_util_at(f, "xdg", dir), 0777), 0);
	assert_int_equal(load_profile(path, err, sizeof(err)), 0);
	assert_int_equal(chmod(dir, 0755), 0);

	/* the site's directory too */
	test_util_write_file(f, "etc/clusters/site.json", profile_text, path);
	assert_int_equal(oc_profile_find("site", dirs, nd, &p, err, sizeof(err)), 0);
	assert_int_equal(chmod(test_util_at(f, "etc/clusters", dir), 0775), 0);
	assert_int_equal(oc_profile_find("site", dirs, nd, &p, err, sizeof(err)), -1);
	test_util_assert_contains(err, "writable by group");
	assert_int_equal(chmod(dir, 0755), 0);
}

/* A link inside the root to a file outside is judged where it leads: the
 * file and every directory up to "/". */
static void test_symlink_out(void **state)
{
	struct test_util_dir *f = setup_env(state);
	char target[4096], link[4096], dir[4096], err[1024];

	test_util_write_file(f, "outside/shared/llm-poc.json", profile_text, target);
	test_util_at(f, "xdg/opsconsole/clusters/llm-poc.json", link);
	assert_int_equal(symlink(target, link), 0);
	/* the mkdtemp folder sits in /tmp (1777): refused */
	assert_int_equal(load_profile(link, err, sizeof(err)), -1);
	test_util_assert_contains(err, "refused");
	/* a group-writable target is refused whatever its directories */
	assert_int_equal(chmod(target, 0666), 0);
	assert_int_equal(load_profile(link, err, sizeof(err)), -1);
	test_util_assert_contains(err, "refused");
	/* the same file named by its own path is not a configuration file */
	assert_int_equal(chmod(test_util_at(f, "outside", dir), 0755), 0);
	assert_int_equal(load_profile(target, err, sizeof(err)), 0);
}

/* Keymaps found through the search directories and named by path. */
static void test_keymap_modes(void **state)
{
	struct test_util_dir *f = setup_env(state);
	char path[4096], dir[4096], err[1024];
	struct oc_datafile_dirs d;
	struct oc_keymap km;

	oc_datafile_dirs(&d, NULL);
	test_util_write_file(f, "xdg/opsconsole/keymaps/mine.json", keymap_text, path);
	assert_int_equal(oc_keymap_find("mine", &d, ids, 2, &km, err, sizeof(err)), 0);
	assert_int_equal(chmod(test_util_at(f, "xdg/opsconsole/keymaps", dir), 0775), 0);
	assert_int_equal(oc_keymap_find("mine", &d, ids, 2, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "its directory");
	assert_int_equal(km.n, 0);
	/* --keymap PATH into the same directory: checked the same */
	assert_int_equal(oc_keymap_load(path, ids, 2, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "writable by group");
	/* a relative path into it too */
	assert_int_equal(chdir(test_util_at(f, "xdg", dir)), 0);
	assert_int_equal(oc_keymap_load("opsconsole/keymaps/mine.json", ids, 2, &km, err, sizeof(err)), -1);
	test_util_assert_contains(err, "refused");
	assert_int_equal(chdir("/"), 0);
	assert_int_equal(chmod(test_util_at(f, "xdg/opsconsole/keymaps", dir), 0755), 0);
	assert_int_equal(oc_keymap_load(path, ids, 2, &km, err, sizeof(err)), 0);

	/* elsewhere a group-writable file is the caller's choice */
	test_util_write_file(f, "elsewhere/mine.json", keymap_text, path);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(oc_keymap_load(path, ids, 2, &km, err, sizeof(err)), 0);
}

/* Checklists and onboarding files kept in the root are checked too. */
static void test_checklist_and_onboard(void **state)
{
	struct test_util_dir *f = setup_env(state);
	char path[4096], err[2048];
	static struct oc_onb_spec spec;

	test_util_write_file(f, "xdg/opsconsole/checklists/c.json", "{\"version\": 1}", path);
	assert_int_equal(chmod(path, 0664), 0);
	assert_null(oc_checklist_load(path, NULL, 0, err, sizeof(err)));
	test_util_assert_contains(err, "writable by group");

	test_util_write_file(f, "xdg/opsconsole/team-c.json", "{\"account\": \"team-c\"}", path);
	assert_int_equal(oc_onb_spec_load(path, &spec, err, sizeof(err)), 0);
	assert_int_equal(chmod(path, 0646), 0);
	assert_int_equal(oc_onb_spec_load(path, &spec, err, sizeof(err)), -1);
	test_util_assert_contains(err, "writable by others");
	assert_string_equal(spec.account, "");
}

/* A file owned by another user than the caller or root is refused. */
static void test_owner(void **state)
{
	struct test_util_dir *f = setup_env(state);
	char path[4096], err[1024];

	if (geteuid() != 0)
		skip();
	test_util_write_file(f, "xdg/opsconsole/clusters/other.json", profile_text, path);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(load_profile(path, err, sizeof(err)), -1);
	test_util_assert_contains(err, "owned by uid 65534");
}

/* oc_path_trusted: what code and data come from (the SSH module, the data
 * folder, the profile's Slurm commands). */
static void test_path_trusted(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], dir[4096], link[4096], err[1024];
	test_util_mkdirs(f, "ok/sub");
	test_util_write_file(f, "ok/sub/mod.so", "x", path);
	/* the test folder is under /tmp (root's, sticky): accepted */
	assert_int_equal(oc_path_trusted(path, "SSH module", err, sizeof(err)), 0);
	assert_int_equal(oc_path_trusted(test_util_at(f, "ok", dir), "data folder", err, sizeof(err)), 0);
	/* the file writable by group */
	assert_int_equal(chmod(path, 0664), 0);
	assert_int_equal(oc_path_trusted(path, "SSH module", err, sizeof(err)), -1);
	test_util_assert_contains(err, "SSH module ");
	test_util_assert_contains(err, "refused: it is writable by group (mode 0664)");
	assert_int_equal(chmod(path, 0644), 0);
	/* a directory on the way writable by others, not sticky */
	assert_int_equal(chmod(test_util_at(f, "ok/sub", dir), 0777), 0);
	assert_int_equal(oc_path_trusted(path, "SSH module", err, sizeof(err)), -1);
	test_util_assert_contains(err, "refused: its directory ");
	test_util_assert_contains(err, "ok/sub is writable by others (mode 0777)");
	/* sticky but not root's (when we are not root, it is ours: refused
	 * too; as root, chown it to nobody) */
	assert_int_equal(chmod(dir, 01777), 0);
	if (geteuid() == 0) {
		assert_int_equal(oc_path_trusted(path, "x", err, sizeof(err)), 0); /* root's and sticky: /tmp */
		assert_int_equal(chown(dir, 65534, 65534), 0);
		assert_int_equal(oc_path_trusted(path, "x", err, sizeof(err)), -1);
		test_util_assert_contains(err, "owned by uid 65534");
		assert_int_equal(chown(dir, 0, 0), 0);
	} else {
		assert_int_equal(oc_path_trusted(path, "x", err, sizeof(err)), -1);
	}
	assert_int_equal(chmod(dir, 0755), 0);
	/* a symbolic link is judged by where it leads */
	test_util_mkdirs(f, "bad");
	test_util_write_file(f, "bad/mod.so", "x", link);
	assert_int_equal(chmod(test_util_at(f, "bad", dir), 0777), 0);
	assert_int_equal(symlink(link, test_util_at(f, "ok/sub/link.so", path)), 0);
	assert_int_equal(oc_path_trusted(path, "SSH module", err, sizeof(err)), -1);
	test_util_assert_contains(err, "writable by others");
	/* a link to a good file, in a folder others may write (they could
	 * replace the link) */
	test_util_write_file(f, "ok/good.so", "x", link);
	assert_int_equal(oc_path_trusted(link, "x", err, sizeof(err)), 0);
	assert_int_equal(symlink(link, test_util_at(f, "bad/link.so", path)), 0);
	assert_int_equal(oc_path_trusted(path, "Slurm command", err, sizeof(err)), -1);
	test_util_assert_contains(err, "bad is writable by others");
	/* missing, empty */
	assert_int_equal(oc_path_trusted(test_util_at(f, "none", path), "x", err, sizeof(err)), -1);
	test_util_assert_contains(err, "No such file");
	assert_int_equal(oc_path_trusted("", "x", err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_profile_modes, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_symlink_out, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_keymap_modes, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_checklist_and_onboard, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_owner, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_path_trusted, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
