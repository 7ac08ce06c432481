/* test_profile.c: cluster profiles, their directories, slurm.conf's
 * ClusterName. Every file is written into a fresh mkdtemp directory. */
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

#include "core/profile.h"
#include "test_util.h"

static void assert_defaults(const struct oc_profile *p)
{
	assert_string_equal(p->name, "");
	assert_string_equal(p->path, "");
	assert_string_equal(p->slurm_conf, "");
	assert_string_equal(p->audit_log, "");
	assert_true(p->refresh_s == 2.0);
	assert_false(p->readonly);
	assert_false(p->show_hidden);
	assert_false(p->no_mouse);
}

/* The loader of expect_error: on -1 the profile must hold the defaults. */
static int load(const char *path, char *err, size_t errlen)
{
	struct oc_profile p;
	memset(&p, 0x5a, sizeof(p));
	int rc = oc_profile_load_file(path, &p, err, errlen);
	if (rc == -1)
		assert_defaults(&p);
	return rc;
}

/* Loads text as root/NAME.json and expects failure with an error that
 * starts with the path and contains every needle (NULL terminated). */
#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)

static void test_defaults(void **state)
{
	(void)state;
	struct oc_profile p;
	memset(&p, 0x5a, sizeof(p));
	oc_profile_defaults(&p);
	assert_defaults(&p);
}

static void test_load_valid(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512] = "stale";
	struct oc_profile p;

	test_util_write_file(f, "llm-poc.json",
			     "{\n"
			     "  \"name\": \"llm-poc\",\n"
			     "  \"slurm_conf\": \"/opt/slurm/etc/slurm.conf\",\n"
			     "  \"audit_log\": \"/var/log/opsconsole/audit.log\",\n"
			     "  \"refresh_seconds\": 0.5,\n"
			     "  \"readonly\": true,\n"
			     "  \"show_hidden\": true,\n"
			     "  \"mouse\": false,\n"
			     "  \"ssh\": {\"host\": \"head\"},\n"
			     "  \"probes\": {},\n"
			     "  \"checklist\": \"rehearsal.json\",\n"
			     "  \"theme\": \"light\",\n"
			     "  \"keymap\": \"vim\"\n"
			     "}\n",
			     path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_string_equal(p.name, "llm-poc");
	assert_string_equal(p.path, path);
	assert_string_equal(p.slurm_conf, "/opt/slurm/etc/slurm.conf");
	assert_string_equal(p.audit_log, "/var/log/opsconsole/audit.log");
	assert_true(p.refresh_s == 0.5);
	assert_true(p.readonly);
	assert_true(p.show_hidden);
	assert_true(p.no_mouse);
	assert_string_equal(p.theme, "light");
	assert_string_equal(p.keymap, "vim");
	assert_string_equal(p.checklist, "rehearsal.json");   /* as written: rehearse resolves it */

	/* an empty object: defaults, name from the file name */
	test_util_write_file(f, "onprem.json", "{}", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "onprem");
	assert_string_equal(p.path, path);
	assert_true(p.refresh_s == 2.0);
	assert_false(p.readonly);
	assert_false(p.no_mouse); /* the mouse is on unless "mouse": false */
	assert_string_equal(p.slurm_conf, "");

	/* integer numbers and the limits of refresh_seconds */
	test_util_write_file(f, "a.json", "{\"refresh_seconds\": 5, \"readonly\": false}", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_true(p.refresh_s == 5.0);
	test_util_write_file(f, "a.json", "{\"refresh_seconds\": 0.2}", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_true(p.refresh_s == 0.2);
	test_util_write_file(f, "a.json", "{\"refresh_seconds\": 3600}", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_true(p.refresh_s == 3600.0);

	/* strings that just fit */
	char big[4200];
	char name63[64];
	memset(name63, 'n', 63);
	name63[63] = '\0';
	char rel[128];
	snprintf(rel, sizeof(rel), "%s.json", name63);
	snprintf(big, sizeof(big), "{\"name\": \"%s\"}", name63);
	test_util_write_file(f, rel, big, path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, name63);
	int n = snprintf(big, sizeof(big), "{\"audit_log\": \"");
	memset(big + n, 'x', 4095);
	snprintf(big + n + 4095, sizeof(big) - (size_t)n - 4095, "\"}");
	test_util_write_file(f, "a.json", big, path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_int_equal(strlen(p.audit_log), 4095);
}

static void test_load_broken_json(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512], want[4200];
	struct oc_profile p;

	test_util_write_file(f, "broken.json",
			     "{\n"
			     "  \"name\": \"broken\",\n"
			     "  \"readonly\": tru\n"
			     "}\n",
			     path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), -1);
	assert_defaults(&p);
	/* "path:3:COL: message" */
	snprintf(want, sizeof(want), "%s:3:", path);
	if (strncmp(err, want, strlen(want)) != 0)
		print_error("err: %s\n", err);
	assert_memory_equal(err, want, strlen(want));
	const char *col = err + strlen(want);
	char *end;
	long c = strtol(col, &end, 10);
	assert_true(end > col && c > 0);
	assert_memory_equal(end, ": ", 2);
	assert_true(strlen(end) > 2);

	/* an unterminated object: line 2 */
	test_util_write_file(f, "broken.json", "{\n  \"readonly\": true,\n", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:", path);
	assert_memory_equal(err, want, strlen(want));
	assert_true(strtol(err + strlen(want), &end, 10) >= 2);
	assert_int_equal(*end, ':');

	expect_error(f, "broken.json", "", "broken.json:", NULL);
	expect_error(f, "broken.json", "{\"readonly\": true, \"readonly\": false}",
		     "duplicate", NULL);
	expect_error(f, "broken.json", "[1, 2]", "JSON object", NULL);
	expect_error(f, "broken.json", "\"llm-poc\"", "broken.json:", NULL);
}

static void test_load_wrong_types(void **state)
{
	struct test_util_dir *f = *state;

	expect_error(f, "t.json", "{\"readonly\": \"yes\"}", "\"readonly\"", "boolean", NULL);
	expect_error(f, "t.json", "{\"show_hidden\": 1}", "\"show_hidden\"", "boolean", NULL);
	expect_error(f, "t.json", "{\"mouse\": \"no\"}", "\"mouse\"", "boolean", NULL);
	expect_error(f, "t.json", "{\"name\": 5}", "\"name\"", "string", NULL);
	expect_error(f, "t.json", "{\"slurm_conf\": [\"/etc/slurm.conf\"]}", "\"slurm_conf\"",
		     "string", NULL);
	expect_error(f, "t.json", "{\"audit_log\": null}", "\"audit_log\"", "string", NULL);
	expect_error(f, "t.json", "{\"clustermgtd_log\": \"var/log/clustermgtd\"}", "\"clustermgtd_log\"",
		     "absolute path", NULL);
	expect_error(f, "t.json", "{\"clustermgtd_log\": 1}", "\"clustermgtd_log\"", "string", NULL);
	expect_error(f, "t.json", "{\"refresh_seconds\": \"2\"}", "\"refresh_seconds\"", "number",
		     NULL);
	expect_error(f, "t.json", "{\"refresh_seconds\": true}", "\"refresh_seconds\"", "number",
		     NULL);
	expect_error(f, "t.json", "{\"refresh_seconds\": 0.1}", "\"refresh_seconds\"", "0.2",
		     "3600", NULL);
	expect_error(f, "t.json", "{\"refresh_seconds\": 3601}", "\"refresh_seconds\"", NULL);
	expect_error(f, "t.json", "{\"refresh_seconds\": -1}", "\"refresh_seconds\"", NULL);
	expect_error(f, "t.json", "{\"refresh_seconds\": 0}", "\"refresh_seconds\"", NULL);
	expect_error(f, "t.json", "{\"ssh\": 22}", "\"ssh\"", "must be an object", NULL);
	expect_error(f, "t.json", "{\"probes\": [1]}", "\"probes\"", NULL);
	expect_error(f, "t.json", "{\"checklist\": false}", "\"checklist\"", NULL);
	expect_error(f, "t.json", "{\"theme\": null}", "\"theme\"", NULL);
	expect_error(f, "t.json", "{\"keymap\": 1.5}", "\"keymap\"", NULL);
	expect_error(f, "t.json", "{\"keymap\": {\"q\": \"quit\"}}", "\"keymap\"", NULL);
}

static void test_load_remote(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512] = "";
	struct oc_profile p;

	test_util_write_file(f, "pcs.json",
			     "{\"backend\": \"cli\", \"slurm_bin\": \"/opt/aws/pcs/scheduler/slurm-25.11/bin\",\n"
			     " \"ssh\": {\"host\": \"head.example\", \"user\": \"ec2-user\", \"port\": 2222,\n"
			     "         \"identity\": \"/root/.ssh/pcs\", \"known_hosts\": \"/root/.ssh/kh\",\n"
			     "         \"accept_new_host_key\": true, \"connect_timeout_seconds\": 3},\n"
			     " \"probes\": {\"timeout_seconds\": 4, \"parallel\": 3, \"connect_to\": \"name\",\n"
			     "   \"ssh\": {\"user\": \"root\", \"port\": 2200},\n"
			     "   \"checks\": [{\"name\": \"gpu count\", \"command\": \"cat /x/$1\", \"expect\": \"8\"},\n"
			     "              {\"name\": \"temp\", \"command\": \"t\", \"min\": 0, \"max\": 85.5}]}}\n",
			     path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_int_equal(p.backend, OC_BACKEND_CLI);
	assert_string_equal(p.slurm_bin, "/opt/aws/pcs/scheduler/slurm-25.11/bin");
	assert_string_equal(p.ssh.host, "head.example");
	assert_string_equal(p.ssh.user, "ec2-user");
	assert_int_equal(p.ssh.port, 2222);
	assert_string_equal(p.ssh.identity, "/root/.ssh/pcs");
	assert_string_equal(p.ssh.known_hosts, "/root/.ssh/kh");
	assert_true(p.ssh.accept_new_host_key);
	assert_int_equal(p.ssh.connect_timeout_s, 3);
	assert_int_equal(p.probes.timeout_s, 4);
	assert_int_equal(p.probes.parallel, 3);
	assert_true(p.probes.use_node_name);
	assert_string_equal(p.probes.ssh.user, "root");
	assert_int_equal(p.probes.ssh.port, 2200);
	assert_int_equal(p.probes.ncheck, 2);
	assert_string_equal(p.probes.checks[0].name, "gpu count");
	assert_true(p.probes.checks[0].has_expect);
	assert_string_equal(p.probes.checks[0].expect, "8");
	assert_true(p.probes.checks[1].has_min && p.probes.checks[1].has_max);
	assert_true(p.probes.checks[1].max == 85.5);

	/* no "probes": the runbook's five quick checks, 10 s, port 22 */
	test_util_write_file(f, "d.json", "{}", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), 0);
	assert_int_equal(p.backend, OC_BACKEND_AUTO);
	assert_string_equal(p.ssh.host, "");
	assert_int_equal(p.ssh.port, 22);
	assert_int_equal(p.probes.ncheck, 5);
	assert_string_equal(p.probes.checks[0].name, "gpu count");
	assert_string_equal(p.probes.checks[0].expect, "8");
	assert_string_equal(p.probes.checks[2].expect, "16");
	assert_int_equal(p.probes.timeout_s, 10);

	expect_error(f, "t.json", "{\"backend\": \"slurmrestd\"}", "\"backend\"", "cli", NULL);
	expect_error(f, "t.json", "{\"ssh\": {\"user\": \"x\"}}", "needs \"host\"", NULL);
	expect_error(f, "t.json", "{\"ssh\": {\"host\": \"h\", \"port\": 0}}", "\"ssh.port\"", "65535", NULL);
	expect_error(f, "t.json", "{\"ssh\": {\"host\": \"h\", \"port\": \"22\"}}", "\"ssh.port\"", NULL);
	expect_error(f, "t.json", "{\"ssh\": {\"host\": \"h\\nx\"}}", "\"ssh.host\"", "control character", NULL);
	expect_error(f, "t.json", "{\"ssh\": {\"host\": \"h\", \"password\": \"x\"}}", "unknown key \"ssh.password\"",
		     NULL);
	expect_error(f, "t.json", "{\"probes\": {\"ssh\": {\"host\": \"h\"}}}", "unknown key \"probes.ssh.host\"", NULL);
	expect_error(f, "t.json", "{\"probes\": {\"checks\": []}}", "\"probes.checks\"", NULL);
	expect_error(f, "t.json", "{\"probes\": {\"checks\": [{\"name\": \"a\", \"command\": \"b\"}]}}", "needs \"expect\"",
		     NULL);
	expect_error(f, "t.json", "{\"probes\": {\"checks\": [{\"name\": \"a\", \"expect\": \"1\"}]}}",
		     "needs \"name\" and \"command\"", NULL);
	expect_error(f, "t.json",
		     "{\"probes\": {\"checks\": [{\"name\": \"a\", \"command\": \"b\", \"min\": 5, \"max\": 1}]}}",
		     "above", NULL);
	expect_error(f, "t.json",
		     "{\"probes\": {\"checks\": [{\"name\": \"a\", \"command\": \"b\", \"expect\": \"\"},"
		     "{\"name\": \"a\", \"command\": \"c\", \"expect\": \"\"}]}}",
		     "two probe checks", NULL);
	expect_error(f, "t.json", "{\"probes\": {\"connect_to\": \"ip\"}}", "\"probes.connect_to\"", NULL);
	expect_error(f, "t.json", "{\"probes\": {\"parallel\": 0}}", "\"probes.parallel\"", NULL);
	expect_error(f, "t.json", "{\"slurm_bin\": \"\"}", "\"slurm_bin\"", "empty", NULL);
}

static void test_load_unknown_and_mismatch(void **state)
{
	struct test_util_dir *f = *state;

	expect_error(f, "u.json", "{\"readonly\": true, \"colour\": \"red\"}",
		     "unknown key \"colour\"", NULL);
	expect_error(f, "u.json", "{\"Name\": \"u\"}", "unknown key \"Name\"", NULL);
	expect_error(f, "u.json", "{\"platform\": \"aws\"}", "\"platform\" must be \"auto\", \"parallelcluster\"", NULL);
	expect_error(f, "u.json", "{\"platform\": 3}", "\"platform\"", NULL);
	expect_error(f, "u.json", "{\"ssh \": {}}", "unknown key", NULL);
	/* name must match the file name */
	expect_error(f, "llm-poc.json", "{\"name\": \"llm-prod\"}", "\"llm-prod\"",
		     "llm-poc.json", NULL);
	expect_error(f, "llm-poc.json", "{\"name\": \"\"}", "\"name\"", NULL);
	/* strings longer than the fields are errors, not truncations */
	char text[8192];
	int n = snprintf(text, sizeof(text), "{\"slurm_conf\": \"/");
	memset(text + n, 'x', 4096);
	snprintf(text + n + 4096, sizeof(text) - (size_t)n - 4096, "\"}");
	expect_error(f, "u.json", text, "\"slurm_conf\"", "too long", NULL);
	char name64[65];
	memset(name64, 'n', 64);
	name64[64] = '\0';
	snprintf(text, sizeof(text), "{\"name\": \"%s\"}", name64);
	expect_error(f, "u.json", text, "\"name\"", "too long", NULL);
}

static void test_load_missing(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_profile p;

	test_util_at(f, "nothere.json", path);
	assert_int_equal(oc_profile_load_file(path, &p, err, sizeof(err)), -1);
	assert_defaults(&p);
	assert_memory_equal(err, path, strlen(path));
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(oc_profile_load_file(NULL, &p, err, sizeof(err)), -1);
	assert_int_equal(oc_profile_load_file("", &p, err, sizeof(err)), -1);
	/* a tiny error buffer is still terminated */
	char small[8];
	assert_int_equal(oc_profile_load_file(path, &p, small, sizeof(small)), -1);
	assert_int_equal(strlen(small), 7);
	assert_int_equal(oc_profile_load_file(path, &p, NULL, 0), -1);
}

static void test_dirs(void **state)
{
	struct test_util_dir *f = *state;
	char storage[OC_PROFILE_MAX_DIRS][4096];
	const char *dirs[OC_PROFILE_MAX_DIRS];
	char want[4096];

	setenv("HOME", "/home/alice", 1);
	setenv("XDG_CONFIG_HOME", f->root, 1);
	setenv("OPSCONSOLE_SYSCONFDIR", "/srv/oc", 1);
	assert_int_equal(oc_profile_dirs(storage, dirs), 2);
	snprintf(want, sizeof(want), "%s/opsconsole/clusters", f->root);
	assert_string_equal(dirs[0], want);
	assert_string_equal(dirs[1], "/srv/oc/clusters");

	/* a relative or empty XDG_CONFIG_HOME is ignored */
	setenv("XDG_CONFIG_HOME", "relative/config", 1);
	assert_int_equal(oc_profile_dirs(storage, dirs), 2);
	assert_string_equal(dirs[0], "/home/alice/.config/opsconsole/clusters");
	setenv("XDG_CONFIG_HOME", "", 1);
	assert_int_equal(oc_profile_dirs(storage, dirs), 2);
	assert_string_equal(dirs[0], "/home/alice/.config/opsconsole/clusters");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("OPSCONSOLE_SYSCONFDIR");
	assert_int_equal(oc_profile_dirs(storage, dirs), 2);
	assert_string_equal(dirs[0], "/home/alice/.config/opsconsole/clusters");
	assert_string_equal(dirs[1], "/etc/opsconsole/clusters");

	/* no HOME either: only the system directory */
	unsetenv("HOME");
	assert_int_equal(oc_profile_dirs(storage, dirs), 1);
	assert_string_equal(dirs[0], "/etc/opsconsole/clusters");
	setenv("OPSCONSOLE_SYSCONFDIR", "", 1);
	assert_int_equal(oc_profile_dirs(storage, dirs), 1);
	assert_string_equal(dirs[0], "/etc/opsconsole/clusters");
}

static void test_find_order(void **state)
{
	struct test_util_dir *f = *state;
	char storage[OC_PROFILE_MAX_DIRS][4096];
	const char *dirs[OC_PROFILE_MAX_DIRS];
	char xdg[4096], sys[4096], path[4096], err[512];
	struct oc_profile p;

	setenv("XDG_CONFIG_HOME", test_util_at(f, "xdg", xdg), 1);
	setenv("OPSCONSOLE_SYSCONFDIR", test_util_at(f, "etc", sys), 1);
	size_t n = oc_profile_dirs(storage, dirs);
	assert_int_equal(n, 2);

	/* nothing anywhere (the directories do not even exist) */
	assert_int_equal(oc_profile_find("llm-poc", dirs, n, &p, err, sizeof(err)), 1);
	assert_defaults(&p);
	assert_non_null(strstr(err, "llm-poc"));

	test_util_write_file(f, "etc/clusters/llm-poc.json", "{\"readonly\": true}", path);
	test_util_write_file(f, "xdg/opsconsole/clusters/llm-poc.json", "{\"readonly\": false}", xdg);
	test_util_write_file(f, "etc/clusters/onprem.json", "{\"show_hidden\": true}", sys);

	/* the user's directory wins */
	assert_int_equal(oc_profile_find("llm-poc", dirs, n, &p, err, sizeof(err)), 0);
	assert_string_equal(p.path, xdg);
	assert_string_equal(p.name, "llm-poc");
	assert_false(p.readonly);
	/* found only in the system directory */
	assert_int_equal(oc_profile_find("onprem", dirs, n, &p, err, sizeof(err)), 0);
	assert_string_equal(p.path, sys);
	assert_true(p.show_hidden);
	/* after removing the user's file the system one is used */
	assert_int_equal(unlink(xdg), 0);
	assert_int_equal(oc_profile_find("llm-poc", dirs, n, &p, err, sizeof(err)), 0);
	assert_string_equal(p.path, path);
	assert_true(p.readonly);
	/* a broken file in the first directory does not fall through */
	test_util_write_file(f, "xdg/opsconsole/clusters/llm-poc.json", "{\"readonly\": 1}", xdg);
	assert_int_equal(oc_profile_find("llm-poc", dirs, n, &p, err, sizeof(err)), -1);
	assert_defaults(&p);
	assert_non_null(strstr(err, xdg));
	assert_non_null(strstr(err, "\"readonly\""));
	/* a directory called NAME.json is an error, not "missing" */
	test_util_mkdirs(f, "xdg/opsconsole/clusters/dir.json");
	assert_int_equal(oc_profile_find("dir", dirs, n, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is a directory"));
	/* NULL and empty directory entries are skipped */
	const char *odd[] = { NULL, "", sys };
	*strrchr(sys, '/') = '\0';
	assert_int_equal(oc_profile_find("onprem", odd, 3, &p, err, sizeof(err)), 0);
	assert_true(p.show_hidden);
	assert_int_equal(oc_profile_find("onprem", NULL, 0, &p, err, sizeof(err)), 1);
}

static void test_find_refuses(void **state)
{
	struct test_util_dir *f = *state;
	char dir[4096], path[4096], err[512];
	const char *dirs[] = { dir };
	struct oc_profile p;

	test_util_mkdirs(f, "c/sub");
	test_util_at(f, "c", dir);
	test_util_write_file(f, "c/.hidden.json", "{}", path);
	test_util_write_file(f, "c/sub/x.json", "{}", path);
	test_util_write_file(f, "c/ok.json", "{}", path);

	static const char *const bad[] = { "", ".hidden", "..", ".", "sub/x", "/etc/passwd",
					   "../c/ok" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(oc_profile_find(bad[i], dirs, 1, &p, err, sizeof(err)), -1);
		assert_true(strlen(err) > 0);
	}
	assert_int_equal(oc_profile_find(NULL, dirs, 1, &p, err, sizeof(err)), -1);
	char name[80];
	memset(name, 'a', 64);
	name[64] = '\0';
	assert_int_equal(oc_profile_find(name, dirs, 1, &p, err, sizeof(err)), -1);
	name[63] = '\0';
	assert_int_equal(oc_profile_find(name, dirs, 1, &p, err, sizeof(err)), 1);
	assert_int_equal(oc_profile_find("ok", dirs, 1, &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "ok");
}

static void test_list(void **state)
{
	struct test_util_dir *f = *state;
	char d1[4096], d2[4096], d3[4096], d4[4096], path[4096];

	test_util_write_file(f, "one/zeta.json", "{}", path);
	test_util_write_file(f, "one/alpha.json", "{}", path);
	test_util_write_file(f, "one/notes.txt", "", path);
	test_util_write_file(f, "one/.hidden.json", "{}", path);
	test_util_write_file(f, "one/.json", "{}", path);
	test_util_write_file(f, "one/alpha.json~", "{}", path);
	test_util_mkdirs(f, "one/sub.json");
	test_util_write_file(f, "two/alpha.json", "{}", path);
	test_util_write_file(f, "two/beta.json", "{}", path);
	test_util_write_file(f, "two/zeta.json", "{}", path);
	test_util_mkdirs(f, "empty");

	const char *dirs[] = { test_util_at(f, "one", d1), test_util_at(f, "missing", d2), test_util_at(f, "two", d3), NULL };
	char *s = oc_profile_list(dirs, 4);
	assert_non_null(s);
	assert_string_equal(s, "alpha, beta, zeta");
	free(s);

	const char *one[] = { d1 };
	s = oc_profile_list(one, 1);
	assert_non_null(s);
	assert_string_equal(s, "alpha, zeta");
	free(s);

	const char *none[] = { test_util_at(f, "empty", d4), d2 };
	s = oc_profile_list(none, 2);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	s = oc_profile_list(NULL, 0);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

static void test_slurm_conf(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], out[64];

	test_util_write_file(f, "slurm.conf",
			     "# slurm.conf of the PoC\n"
			     "# ClusterName=commented-out\n"
			     "SlurmctldHost=head-1\n"
			     "   clustername = LLM-Poc   # trailing comment\n"
			     "Include /opt/slurm/etc/pcluster/slurm_parallelcluster.conf\n"
			     "PartitionName=gpu Nodes=gpu-st-b300-[1-16] Default=YES\n",
			     path);
	memset(out, 'x', sizeof(out));
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, sizeof(out)), 0);
	assert_string_equal(out, "llm-poc");

	test_util_write_file(f, "slurm.conf", "ClusterName=llm-poc#no space before the comment\n", path);
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, sizeof(out)), 0);
	assert_string_equal(out, "llm-poc");

	/* several pairs on one line, quotes, no final newline */
	test_util_write_file(f, "slurm.conf", "SlurmctldPort=6817 ClusterName=\"onprem\" SlurmdPort=6818",
			     path);
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, sizeof(out)), 0);
	assert_string_equal(out, "onprem");

	/* the last one wins */
	test_util_write_file(f, "slurm.conf", "ClusterName=first\nClusterName=second\n", path);
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, sizeof(out)), 0);
	assert_string_equal(out, "second");

	/* none */
	test_util_write_file(f, "slurm.conf",
			     "# ClusterName=commented\n"
			     "ClusterNameX=nope\n"
			     "MyClusterName=nope\n"
			     "ClusterName\n"
			     "ClusterName=\n",
			     path);
	memset(out, 'x', sizeof(out));
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, sizeof(out)), 1);
	assert_string_equal(out, "");
	test_util_write_file(f, "slurm.conf", "", path);
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, sizeof(out)), 1);

	/* too long for out */
	test_util_write_file(f, "slurm.conf", "ClusterName=abcdefgh\n", path);
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, 8), -1);
	assert_string_equal(out, "");
	assert_int_equal(oc_slurm_conf_cluster_name(path, out, 9), 0);
	assert_string_equal(out, "abcdefgh");

	/* unreadable */
	assert_int_equal(oc_slurm_conf_cluster_name(test_util_at(f, "nope.conf", path), out, sizeof(out)), -1);
	assert_int_equal(oc_slurm_conf_cluster_name(NULL, out, sizeof(out)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test_setup_teardown(test_load_valid, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_broken_json, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_wrong_types, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_remote, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_unknown_and_mismatch, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_missing, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_dirs, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_find_order, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_find_refuses, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_list, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_slurm_conf, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
