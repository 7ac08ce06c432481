/* test_probe_defaults.c: the default node probes themselves (core/profile.c
 * oc_probe_config_defaults), run as a node runs them (sh -c COMMAND
 * opsconsole-probe NODE), under every POSIX shell installed here (dash as
 * on Ubuntu, bash as on Amazon Linux), with stand-in nvidia-smi and
 * journalctl first on PATH: healthy, faulty, tool missing, tool failing,
 * "[N/A]" output, an empty kernel log, a tool that hangs. A check that
 * could not look must be an error, never a pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/probe_eval.h"
#include "core/profile.h"
#include "source/exec.h"
#include "test_util.h"

/* The utilities the default commands use, linked into the private bin
 * folder, so that PATH holds nothing else (a real nvidia-smi or journalctl
 * on this machine must not count). */
static const char *const utils[] = {"grep", "awk", "head", "tr", "sort", "paste", "wc", "ls", "printf", "sleep", NULL};

static void make_bin(struct test_util_dir *d, const char *nvidia_smi, const char *journalctl)
{
	/* The utilities are looked up on the PATH the test started with, not
	 * on the private folder an earlier call put there. */
	static char *orig_path;
	if (!orig_path)
		orig_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_non_null(orig_path);
	assert_int_equal(setenv("PATH", orig_path, 1), 0);
	char path[4096], real[4096], err[256];
	test_util_mkdirs(d, "bin");
	for (size_t i = 0; utils[i]; i++) {
		test_util_at(d, "bin", path);
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", utils[i]);
		unlink(path);
		if (oc_exec_find(utils[i], real, sizeof(real), err, sizeof(err)) != 0)
			fail_msg("%s: %s", utils[i], err);
		assert_int_equal(symlink(real, path), 0);
	}
	const char *tools[][2] = {{"bin/nvidia-smi", nvidia_smi}, {"bin/journalctl", journalctl}};
	for (size_t i = 0; i < 2; i++) {
		test_util_at(d, tools[i][0], path);
		unlink(path);
		if (!tools[i][1])
			continue;
		char script[4096];
		snprintf(script, sizeof(script), "#!/bin/sh\n%s\n", tools[i][1]);
		test_util_write_file(d, tools[i][0], script, path);
		assert_int_equal(chmod(path, 0755), 0);
	}
	test_util_at(d, "bin", path);
	assert_int_equal(setenv("PATH", path, 1), 0);
}

/* Runs check `name` of the defaults with shell; returns its verdict and
 * the result in *r. */
static enum oc_probe_verdict run_check(const char *shell, const char *name, struct oc_probe_check_result *r)
{
	struct oc_probe_config pc;
	oc_probe_config_defaults(&pc);
	const struct oc_probe_check *c = NULL;
	for (size_t i = 0; i < pc.ncheck; i++)
		if (strcmp(pc.checks[i].name, name) == 0)
			c = &pc.checks[i];
	assert_non_null(c);
	const char *argv[] = {shell, "-c", c->command, "opsconsole-probe", "gpu-st-b300-1", NULL};
	struct oc_run_result res;
	char err[256];
	memset(&res, 0, sizeof(res));
	int rc = oc_exec_run(argv, 2, &res, err, sizeof(err));
	assert_true(rc == 0 || res.exit_status == OC_EXEC_TIMED_OUT || res.exit_status == OC_EXEC_SIGNALED);
	enum oc_probe_verdict v = oc_probe_eval_check(c, res.out ? res.out : "", res.errout ? res.errout : "",
						      res.exit_status, r);
	oc_run_result_clear(&res);
	return v;
}

/* Runs check name with shell and fails the test unless its verdict is
 * want and (when set) its text, or its value, contains text. */
static void expect_probe(const char *shell, const char *name, enum oc_probe_verdict want, const char *text)
{
	struct oc_probe_check_result r;
	enum oc_probe_verdict v = run_check(shell, name, &r);
	if (v != want || (text && !strstr(r.value, text) && !strstr(r.text, text)))
		fail_msg("%s, %s: %s (value \"%s\", text \"%s\"), want %s with \"%s\"", shell, name,
			 oc_probe_eval_verdict_name(v), r.value, r.text, oc_probe_eval_verdict_name(want),
			 text ? text : "");
}
#define EXPECT expect_probe

#define SMI_OK                                                                                                   \
	"case \"$*\" in\n"                                                                                       \
	"-L) for i in 0 1 2 3 4 5 6 7; do echo \"GPU $i: NVIDIA B300 (UUID: GPU-$i)\"; done ;;\n"              \
	"*temperature*) for t in 41 45 44 43 47 42 40 46; do echo $t; done ;;\n"                                \
	"*ecc*) for i in 0 1 2 3 4 5 6 7; do echo 0; done ;;\n"                                                 \
	"*) exit 9 ;;\nesac"
#define JOURNAL_OK "echo 'Dec 02 04:00:00 node kernel: Linux version 6.8.0'; echo 'Dec 02 04:00:01 node kernel: nvidia: loading'"

static void test_healthy_and_faulty(void **state)
{
	struct test_util_dir *d = *state;
	const char (*shells)[4096];
	size_t ns = test_util_shells(&shells);
	char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	for (size_t i = 0; i < ns; i++) {
		const char *sh = shells[i];
		make_bin(d, SMI_OK, JOURNAL_OK);
		EXPECT(sh, "gpu count", OC_PROBE_OK, "8");
		EXPECT(sh, "xid", OC_PROBE_OK, NULL);
		EXPECT(sh, "gpu temp", OC_PROBE_OK, "47");
		EXPECT(sh, "ecc", OC_PROBE_OK, "0");
		/* faulty: 7 GPUs, 95 degrees, 2 ECC errors, Xid 79 and 48 */
		make_bin(d,
			 "case \"$*\" in\n"
			 "-L) for i in 0 1 2 3 4 5 6; do echo \"GPU $i: NVIDIA B300 (UUID: GPU-$i)\"; done ;;\n"
			 "*temperature*) printf '41\\n95\\n44\\n' ;;\n"
			 "*ecc*) printf '0\\n2\\n0\\n' ;;\nesac",
			 JOURNAL_OK "; echo 'Dec 02 04:10:00 node kernel: NVRM: Xid (PCI:0000:1b:00): 79, pid=1, GPU has fallen off the bus.';"
				    " echo 'Dec 02 04:11:00 node kernel: NVRM: Xid (PCI:0000:1c:00): 48, pid=2, DBE.'");
		EXPECT(sh, "gpu count", OC_PROBE_FAILED, "7");
		EXPECT(sh, "xid", OC_PROBE_FAILED, "48,79");
		EXPECT(sh, "gpu temp", OC_PROBE_FAILED, "95");
		EXPECT(sh, "ecc", OC_PROBE_FAILED, "2");
	}
	setenv("PATH", saved, 1);
	free(saved);
}

static void test_cannot_look(void **state)
{
	struct test_util_dir *d = *state;
	const char (*shells)[4096];
	size_t ns = test_util_shells(&shells);
	char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	for (size_t i = 0; i < ns; i++) {
		const char *sh = shells[i];
		/* tools missing */
		make_bin(d, NULL, NULL);
		EXPECT(sh, "gpu count", OC_PROBE_ERROR, "nvidia-smi not found");
		EXPECT(sh, "xid", OC_PROBE_ERROR, "journalctl not found");
		EXPECT(sh, "gpu temp", OC_PROBE_ERROR, "nvidia-smi not found");
		EXPECT(sh, "ecc", OC_PROBE_ERROR, "nvidia-smi not found");
		/* tools failing (no driver, no journal) */
		make_bin(d,
			 "echo \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"; exit 9",
			 "echo 'No journal files were found.' >&2; exit 1");
		EXPECT(sh, "gpu count", OC_PROBE_ERROR, "couldn't communicate with the NVIDIA driver");
		EXPECT(sh, "xid", OC_PROBE_ERROR, "No journal files were found");
		EXPECT(sh, "gpu temp", OC_PROBE_ERROR, "failed");
		EXPECT(sh, "ecc", OC_PROBE_ERROR, "failed");
		/* [N/A] where a number is judged; an empty kernel log */
		make_bin(d, "printf '[N/A]\\n[N/A]\\n'", ":");
		EXPECT(sh, "gpu temp", OC_PROBE_ERROR, "not a number: [N/A]");
		EXPECT(sh, "ecc", OC_PROBE_ERROR, "not a number: [N/A]");
		EXPECT(sh, "xid", OC_PROBE_ERROR, "no kernel message");
		/* one number and one [N/A]: still not a pass */
		make_bin(d, "printf '0\\n[N/A]\\n'", JOURNAL_OK);
		EXPECT(sh, "ecc", OC_PROBE_ERROR, "not a number: [N/A]");
		/* no output at all */
		make_bin(d, ":", JOURNAL_OK);
		EXPECT(sh, "gpu temp", OC_PROBE_ERROR, "no output");
		/* a tool that hangs: the timeout (2 s here) */
		make_bin(d, "sleep 30", "sleep 30");
		EXPECT(sh, "gpu count", OC_PROBE_ERROR, "timed out");
		EXPECT(sh, "xid", OC_PROBE_ERROR, "timed out");
	}
	setenv("PATH", saved, 1);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_healthy_and_faulty, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_cannot_look, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
