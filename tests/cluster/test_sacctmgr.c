/* test_sacctmgr.c: oc_exec (source/exec.c) with real programs, and the
 * sacctmgr source layer (source/sacctmgr.c) against the real local
 * cluster's accounting: the state of team-a and of a missing account, the
 * runbook's QoS limits, plan steps that add, find "already there", and
 * fail (with sacctmgr's own words), slurmdbd unreachable and not
 * answering (a copy of slurm.conf pointing at a dead or silent port: the
 * shared slurmdbd is never touched).
 *
 * Creates and deletes only an account named oc_test_sacct_<pid> (and
 * alice's association under it; a failed add of oc_test_sacct_<pid>_b
 * creates nothing); the group teardown deletes both even after a
 * failure. Needs $SLURM_CONF (tests/cluster/cluster.sh start --demo). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "actions/onboard.h"
#include "actions/writer.h"
#include "source/exec.h"
#include "source/sacctmgr.h"
#include "source/slurm_write.h"

static char acct_name[64];
static char acct2_name[80]; /* never created: a failed add */
static char conf_dir[] = "/tmp/oc_test_sacctmgr.XXXXXX";
static bool conf_dir_made;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* No child of the test is left, reaped or not. */
static void assert_no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* Runs sacctmgr args (test cleanup and checks); returns its exit status. */
static int sacctmgr(const char *const *args, char *out, size_t outlen)
{
	const char *argv[16] = {"sacctmgr"};
	size_t n = 1;
	for (; args[n - 1] && n < 15; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	int status = -1;
	char err[256];
	if (oc_exec(argv, 60, out, outlen, &status, err, sizeof(err)) < 0)
		fprintf(stderr, "sacctmgr: %s\n", err);
	return status;
}

static void delete_acct(void)
{
	char out[4096];
	const char *del[] = {"-i", "delete", "account", acct_name, NULL};
	sacctmgr(del, out, sizeof(out));
	const char *del2[] = {"-i", "delete", "account", acct2_name, NULL};
	sacctmgr(del2, out, sizeof(out));
}

static int group_setup(void **state)
{
	(void)state;
	if (!getenv("SLURM_CONF")) {
		fprintf(stderr, "SLURM_CONF is not set (eval \"$(tests/cluster/cluster.sh env)\")\n");
		return -1;
	}
	snprintf(acct_name, sizeof(acct_name), "oc_test_sacct_%ld", (long)getpid());
	snprintf(acct2_name, sizeof(acct2_name), "%s_b", acct_name);
	delete_acct();
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	delete_acct();
	if (conf_dir_made) {
		char path[256];
		snprintf(path, sizeof(path), "%s/slurm.conf", conf_dir);
		unlink(path);
		rmdir(conf_dir);
	}
	return 0;
}

/* ---- oc_exec ------------------------------------------------------------ */

static void test_exec_true_false(void **state)
{
	(void)state;
	char out[64], err[256];
	int status = 99;
	const char *t[] = {"true", NULL}; /* PATH lookup */
	assert_int_equal(oc_exec(t, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	assert_string_equal(out, "");
	assert_string_equal(err, "");
	const char *f[] = {"/bin/false", NULL};
	assert_int_equal(oc_exec(f, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 1);
	/* stderr is captured with stdout, the exit code comes through. */
	const char *ls[] = {"ls", "/nonexistent_oc_test", NULL};
	assert_int_equal(oc_exec(ls, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 2);
	assert_non_null(strstr(out, "No such file"));
	assert_no_children();
}

static void test_exec_missing(void **state)
{
	(void)state;
	char out[64] = "x", err[256];
	int status = 99;
	const char *m[] = {"oc_no_such_binary_zz", NULL};
	assert_int_equal(oc_exec(m, 5, out, sizeof(out), &status, err, sizeof(err)), -1);
	assert_int_equal(status, -1);
	assert_string_equal(out, "");
	assert_true(strncmp(err, "oc_no_such_binary_zz: not found in PATH (", 41) == 0);
	const char *a[] = {"/nonexistent/sacctmgr", NULL};
	assert_int_equal(oc_exec(a, 5, out, sizeof(out), &status, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run /nonexistent/sacctmgr: No such file or directory");
	/* Not executable: execve fails in the child, the parent says why. */
	const char *x[] = {"/etc/passwd", NULL};
	assert_int_equal(oc_exec(x, 5, out, sizeof(out), &status, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run /etc/passwd: Permission denied");
	const char *none[] = {NULL};
	assert_int_equal(oc_exec(none, 5, out, sizeof(out), &status, err, sizeof(err)), -1);
	assert_no_children();
}

static void test_exec_timeout(void **state)
{
	(void)state;
	char out[256], err[256];
	int status = 99;
	const char *s[] = {"/bin/sleep", "30", NULL};
	double t0 = now_s();
	assert_int_equal(oc_exec(s, 1, out, sizeof(out), &status, err, sizeof(err)), 0);
	double dt = now_s() - t0;
	assert_int_equal(status, OC_EXEC_TIMED_OUT);
	assert_string_equal(err, "timed out after 1 s: killed (SIGTERM)");
	assert_true(dt >= 0.9 && dt < 3.0);
	assert_no_children();
	/* A child (and its own child) that ignore SIGTERM: SIGKILL to the
	 * whole process group after the grace period. */
	const char *stubborn[] = {"/bin/sh", "-c", "trap '' TERM; echo started; sleep 30; echo never", NULL};
	t0 = now_s();
	assert_int_equal(oc_exec(stubborn, 1, out, sizeof(out), &status, err, sizeof(err)), 0);
	dt = now_s() - t0;
	assert_int_equal(status, OC_EXEC_TIMED_OUT);
	assert_string_equal(err, "timed out after 1 s: killed (SIGKILL)");
	assert_string_equal(out, "started\n");
	assert_true(dt >= 1 + OC_EXEC_KILL_GRACE_S - 0.1 && dt < 1 + OC_EXEC_KILL_GRACE_S + 2.0);
	assert_no_children();
	/* A command that writes without a pause still meets its timeout. */
	const char *yes[] = {"yes", "oc_test", NULL};
	t0 = now_s();
	assert_int_equal(oc_exec(yes, 1, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, OC_EXEC_TIMED_OUT);
	assert_true(now_s() - t0 < 3.0);
	assert_true(strncmp(out, "oc_test\noc_test\n", 16) == 0);
	assert_no_children();
}

static void test_exec_signal_and_stdin(void **state)
{
	(void)state;
	char out[256], err[256];
	int status = 99;
	const char *k[] = {"/bin/sh", "-c", "kill -KILL $$", NULL};
	assert_int_equal(oc_exec(k, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, OC_EXEC_SIGNALED);
	assert_string_equal(err, "killed by signal 9 (Killed)");
	/* stdin is /dev/null: cat ends at once. */
	const char *c[] = {"cat", NULL};
	double t0 = now_s();
	assert_int_equal(oc_exec(c, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	assert_string_equal(out, "");
	assert_true(now_s() - t0 < 2.0);
	assert_no_children();
}

static void test_exec_big_output(void **state)
{
	(void)state;
	/* 104858 lines of 10 bytes: 1048580 bytes. */
	const char *seq[] = {"seq", "-f", "%09g", "1", "104858", NULL};
	char small[4096], err[256];
	int status = 99;
	assert_int_equal(oc_exec(seq, 10, small, sizeof(small), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0); /* read to the end: no SIGPIPE */
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_true(strncmp(small, "000000001\n000000002\n", 20) == 0);
	size_t big_len = 2 * 1024 * 1024;
	char *big = malloc(big_len);
	assert_non_null(big);
	assert_int_equal(oc_exec(seq, 10, big, big_len, &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	assert_int_equal(strlen(big), 1048580);
	assert_string_equal(big + 1048580 - 10, "000104858\n");
	free(big);
	/* No buffer at all: the output is dropped. */
	assert_int_equal(oc_exec(seq, 10, NULL, 0, &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	assert_no_children();
}

static void test_exec_verbatim(void **state)
{
	(void)state;
	static const char hostile[] = "it's \"q\"; $(rm -rf /) `uname` | & > /tmp/x \\ * ?\nline2 점검";
	const char *p[] = {"/bin/printf", "%s|", "a b", hostile, "*", "", "-n", NULL};
	char out[512], err[256], want[512];
	int status = 99;
	assert_int_equal(oc_exec(p, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	snprintf(want, sizeof(want), "a b|%s|*||-n|", hostile);
	assert_string_equal(out, want);
	assert_no_children();
}

static void test_exec_no_fd_leak(void **state)
{
	(void)state;
	int fd = open("/dev/null", O_RDONLY); /* no O_CLOEXEC on purpose */
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 57), 57);
	const char *ls[] = {"ls", "/proc/self/fd", NULL};
	char out[512], err[256];
	int status = 99;
	assert_int_equal(oc_exec(ls, 5, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	/* 0, 1, 2, and the one ls opens to read the folder. */
	assert_string_equal(out, "0\n1\n2\n3\n");
	close(57);
	close(fd);
}

/* ---- read_state ----------------------------------------------------------- */

static const struct oc_onb_qos_state *find_qos(const struct oc_onb_state *st, const char *name)
{
	for (size_t i = 0; i < st->nall_qos; i++)
		if (!strcmp(st->all_qos[i].name, name))
			return &st->all_qos[i];
	return NULL;
}

static bool has_qos(const struct oc_onb_state *st, const char *name)
{
	for (size_t i = 0; i < st->nqos; i++)
		if (!strcmp(st->qos[i], name))
			return true;
	return false;
}

static void assert_runbook_qos(const struct oc_onb_state *st)
{
	const struct oc_onb_qos_state *q = find_qos(st, "normal_qos");
	assert_non_null(q);
	assert_int_equal(q->max_jobs_pu, 4);
	assert_int_equal(q->max_submit_pu, 8);
	assert_int_equal(q->priority, 2000);
	assert_non_null(q = find_qos(st, "debug_qos"));
	assert_int_equal(q->max_jobs_pu, 1);
	assert_int_equal(q->max_submit_pu, 2);
	assert_int_equal(q->priority, 1000);
	assert_non_null(q = find_qos(st, "large_qos"));
	assert_true(q->max_jobs_pu == OC_ONB_NONE && q->max_submit_pu == OC_ONB_NONE);
	assert_int_equal(q->priority, 3000);
	assert_non_null(q = find_qos(st, "exclusive_qos"));
	assert_int_equal(q->max_jobs_pu, 1);
	assert_int_equal(q->max_submit_pu, 2);
	assert_int_equal(q->priority, 10000);
	assert_non_null(q = find_qos(st, "normal"));
	assert_non_null(find_qos(st, "bench_qos"));
}

static void test_read_team_a(void **state)
{
	(void)state;
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	char err[1024] = "";
	int rc = oc_sacctmgr_read_state(NULL, "team-a", st, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "read_state: %s\n", err);
	assert_int_equal(rc, 0);
	assert_true(st->account_exists);
	assert_string_equal(st->cluster, "llm-poc");
	assert_string_equal(st->description, "team a");
	assert_string_equal(st->parent, "root");
	assert_int_equal(st->gpu_quota, 64);
	assert_true(st->cpu_quota == OC_ONB_NONE && st->mem_quota_mb == OC_ONB_NONE);
	assert_int_equal(st->fairshare, 1);
	assert_int_equal(st->nusers, 3);
	assert_string_equal(st->users[0], "alice");
	assert_string_equal(st->users[1], "bob");
	assert_string_equal(st->users[2], "opsview");
	assert_true(has_qos(st, "normal_qos") && has_qos(st, "debug_qos") && has_qos(st, "large_qos"));
	assert_false(has_qos(st, "exclusive_qos"));
	assert_string_equal(st->default_qos, "normal_qos");
	assert_runbook_qos(st);

	/* The same through the libslurm writer's vtable entry. */
	struct oc_writer w;
	assert_int_equal(oc_slurm_writer_init(&w, err, sizeof(err)), 0);
	struct oc_onb_state *st2 = calloc(1, sizeof(*st2));
	assert_non_null(st2);
	assert_int_equal(w.ops->onb_read_state(w.ctx, "team-a", st2, err, sizeof(err)), 0);
	assert_memory_equal(st, st2, sizeof(*st));
	oc_slurm_writer_fini(&w);
	free(st2);
	free(st);
	assert_no_children();
}

static void test_read_missing_and_bad(void **state)
{
	(void)state;
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	char err[1024] = "";
	char missing[64];
	snprintf(missing, sizeof(missing), "oc_test_missing_%ld", (long)getpid());
	assert_int_equal(oc_sacctmgr_read_state(NULL, missing, st, err, sizeof(err)), 0);
	assert_false(st->account_exists);
	assert_string_equal(st->description, "");
	assert_string_equal(st->parent, "");
	assert_int_equal(st->nusers, 0);
	assert_int_equal(st->nqos, 0);
	assert_true(st->gpu_quota == OC_ONB_NONE && st->fairshare == OC_ONB_NONE);
	assert_string_equal(st->cluster, "llm-poc");
	assert_runbook_qos(st);

	/* Not one plain name: refused before sacctmgr sees a list or an option. */
	static const char *const bad[] = {"team-a,team-b", "-i", "", "team a", "x=y", "a'b"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(oc_sacctmgr_read_state(NULL, bad[i], st, err, sizeof(err)), -1);
		assert_true(strncmp(err, "not an account name", 19) == 0);
	}
	/* A bin folder without sacctmgr. */
	assert_int_equal(oc_sacctmgr_read_state("/nonexistent/bin/", "team-a", st, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run /nonexistent/bin/sacctmgr: No such file or directory");
	/* The real one through bindir. */
	assert_int_equal(oc_sacctmgr_read_state("/usr/bin", "team-a", st, err, sizeof(err)), 0);
	assert_true(st->account_exists);
	free(st);
	assert_no_children();
}

/* ---- run_step ------------------------------------------------------------- */

/* A step as the plan builds it: malloc'd argv. */
static struct oc_onb_step *step_new(bool add, const char *arg0, ...)
{
	struct oc_onb_step *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->add = add;
	va_list ap;
	va_start(ap, arg0);
	size_t n = 0;
	for (const char *a = arg0; a; a = va_arg(ap, const char *)) {
		assert_true(n < OC_ONB_MAX_ARGS);
		s->argv[n] = strdup(a);
		assert_non_null(s->argv[n]);
		n++;
	}
	va_end(ap);
	snprintf(s->what, sizeof(s->what), "%s %s", s->argv[2] ? s->argv[2] : "", s->argv[3] ? s->argv[3] : "");
	return s;
}

static void step_free(struct oc_onb_step *s)
{
	for (size_t i = 0; i < OC_ONB_MAX_ARGS && s->argv[i]; i++)
		free(s->argv[i]);
	free(s);
}

static int run(struct oc_onb_step *s, char *out, size_t outlen)
{
	int rc = oc_sacctmgr_run_step(NULL, s, out, outlen, 0);
	step_free(s);
	return rc;
}

static void test_step_add_again_fail(void **state)
{
	(void)state;
	char out[4096];
	struct oc_onb_step *s;
	s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, "Description=OC test; 'x' $(y)",
		     "Organization=oc", NULL);
	assert_int_equal(run(s, out, sizeof(out)), 0);
	assert_true(strncmp(out, "Adding Account(s)", 17) == 0);
	/* Again: already there. */
	s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, "Description=OC test; 'x' $(y)",
		     "Organization=oc", NULL);
	assert_int_equal(run(s, out, sizeof(out)), 1);
	/* 22.05: "Nothing new added."; 24.11+: "Already existing account X on
	 * cluster Y". */
	char again[256];
	snprintf(again, sizeof(again), "Already existing account %s on cluster llm-poc", acct_name);
	if (strcmp(out, "Nothing new added.") != 0)
		assert_string_equal(out, again);
	/* An existing QoS (nothing created). */
	s = step_new(true, "sacctmgr", "-i", "add", "qos", "normal_qos", NULL);
	assert_int_equal(run(s, out, sizeof(out)), 1);

	/* Limits and a user, read back through read_state. */
	s = step_new(false, "sacctmgr", "-i", "modify", "account", acct_name, "set", "GrpTRES=gres/gpu=8,cpu=100,mem=3G",
		     "Fairshare=parent", "qos+=debug_qos,normal_qos", NULL);
	assert_int_equal(run(s, out, sizeof(out)), 0);
	s = step_new(false, "sacctmgr", "-i", "modify", "account", acct_name, "set", "DefaultQOS=normal_qos", NULL);
	assert_int_equal(run(s, out, sizeof(out)), 0);
	char account_eq[128];
	snprintf(account_eq, sizeof(account_eq), "account=%s", acct_name);
	s = step_new(true, "sacctmgr", "-i", "add", "user", "alice", account_eq, NULL);
	assert_int_equal(run(s, out, sizeof(out)), 0);
	s = step_new(true, "sacctmgr", "-i", "add", "user", "alice", account_eq, NULL);
	assert_int_equal(run(s, out, sizeof(out)), 1);

	struct oc_onb_state *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	char err[1024];
	assert_int_equal(oc_sacctmgr_read_state(NULL, acct_name, st, err, sizeof(err)), 0);
	assert_true(st->account_exists);
	/* sacctmgr stores descriptions lower case, quotes turned into '`'. */
	assert_string_equal(st->description, "oc test; `x` $(y)");
	assert_string_equal(st->parent, "root");
	assert_int_equal(st->gpu_quota, 8);
	assert_int_equal(st->cpu_quota, 100);
	assert_int_equal(st->mem_quota_mb, 3072);
	assert_true(st->fairshare == OC_ONB_NONE); /* "parent" */
	assert_true(has_qos(st, "debug_qos") && has_qos(st, "normal_qos"));
	assert_string_equal(st->default_qos, "normal_qos");
	assert_int_equal(st->nusers, 1);
	assert_string_equal(st->users[0], "alice");
	free(st);

	/* A QoS that does not exist: a failure with sacctmgr's own text. */
	s = step_new(false, "sacctmgr", "-i", "modify", "account", acct_name, "set", "qos+=no_such_qos", NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	assert_non_null(strstr(out, "You gave a bad qos 'no_such_qos'"));
	/* Even marked as an add, a failure is not "already there". */
	s = step_new(true, "sacctmgr", "-i", "add", "user", "alice", "account=oc_test_no_such_acct", NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	/* 22.05: "This account ... doesn't exist."; 24.11+: "No account ... on
	 * cluster ..., skipping." before its "Nothing added." */
	if (!strstr(out, "This account 'oc_test_no_such_acct' doesn't exist."))
		assert_non_null(strstr(out, "No account oc_test_no_such_acct on cluster llm-poc, skipping."));
	s = step_new(true, "sacctmgr", "-i", "add", "account", acct2_name, "parent=oc_test_no_such_parent", NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	/* 22.05: "Parent account ... doesn't exist"; 24.11+: "No parent account
	 * ... on cluster ...". */
	if (!strstr(out, "Parent account 'oc_test_no_such_parent' doesn't exist"))
		assert_non_null(strstr(out, "No parent account 'oc_test_no_such_parent' on cluster 'llm-poc'"));
	/* An add of an existing account with a missing parent: 22.05 ignores
	 * the parent and says "already there" (changes need modify); 24.11+
	 * says the parent is missing, an error. */
	s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, "parent=oc_test_no_such_parent", NULL);
	int rc_again = run(s, out, sizeof(out));
	if (strstr(out, "No parent account"))
		assert_int_equal(rc_again, -1);
	else
		assert_int_equal(rc_again, 1);
	/* sacctmgr exits 0 but changes nothing. */
	s = step_new(false, "sacctmgr", "-i", "modify", "account", acct_name, "set", "DefaultQOS=exclusive_qos", NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	assert_non_null(strstr(out, "don't have access to their default qos"));
	/* A modify of nothing. */
	s = step_new(false, "sacctmgr", "-i", "modify", "account", "oc_test_no_such_acct", "set", "GrpTRES=cpu=4",
		     NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	/* 22.05: "Nothing modified"; 24.11 says it as an error; 26.05 after
	 * "Modified account associations...". */
	if (!strstr(out, "Nothing modified"))
		assert_string_equal(out, "sacctmgr: error: Request didn't affect anything\n Error with request: Data has "
					 "not changed since time specified");
	/* Only sacctmgr runs. */
	s = step_new(false, "/bin/echo", "hi", NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	assert_non_null(strstr(out, "not a sacctmgr step"));
	/* Through a bin folder, and a wrong one. */
	s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, NULL);
	assert_int_equal(oc_sacctmgr_run_step("/usr/bin/", s, out, sizeof(out), 10), 1);
	assert_int_equal(oc_sacctmgr_run_step("/nonexistent", s, out, sizeof(out), 10), -1);
	assert_string_equal(out, "cannot run /nonexistent/sacctmgr: No such file or directory");
	step_free(s);

	/* Through the writer's vtable entry. */
	struct oc_writer w;
	assert_int_equal(oc_slurm_writer_init(&w, err, sizeof(err)), 0);
	s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, NULL);
	assert_int_equal(w.ops->onb_run_step(w.ctx, s, out, sizeof(out)), 1);
	step_free(s);
	oc_slurm_writer_fini(&w);

	/* Delete it: gone for read_state. */
	s = step_new(false, "sacctmgr", "-i", "delete", "account", acct_name, NULL);
	assert_int_equal(run(s, out, sizeof(out)), 0);
	st = calloc(1, sizeof(*st));
	assert_non_null(st);
	assert_int_equal(oc_sacctmgr_read_state(NULL, acct_name, st, err, sizeof(err)), 0);
	assert_false(st->account_exists);
	assert_int_equal(st->nusers, 0);
	free(st);
	assert_no_children();
}

/* ---- slurmdbd away ---------------------------------------------------------- */

/* Points SLURM_CONF at a copy of slurm.conf whose AccountingStoragePort
 * is port. Returns the old value (static). */
static const char *conf_with_dbd_port(int port)
{
	static char old[512];
	snprintf(old, sizeof(old), "%s", getenv("SLURM_CONF"));
	if (!conf_dir_made) {
		assert_non_null(mkdtemp(conf_dir));
		conf_dir_made = true;
	}
	char path[256];
	snprintf(path, sizeof(path), "%s/slurm.conf", conf_dir);
	FILE *in = fopen(old, "r");
	FILE *o = fopen(path, "w");
	assert_non_null(in);
	assert_non_null(o);
	char line[8192];
	while (fgets(line, sizeof(line), in)) {
		if (!strncmp(line, "AccountingStoragePort=", 22))
			fprintf(o, "AccountingStoragePort=%d\n", port);
		else
			fputs(line, o);
	}
	fclose(in);
	assert_int_equal(fclose(o), 0);
	setenv("SLURM_CONF", path, 1);
	return old;
}

static void test_dbd_refused(void **state)
{
	(void)state;
	/* A port nobody listens on: "Connection refused", as when slurmdbd is
	 * down. */
	int sk = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(sk >= 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	assert_int_equal(bind(sk, (struct sockaddr *)&sa, sizeof(sa)), 0);
	socklen_t sl = sizeof(sa);
	assert_int_equal(getsockname(sk, (struct sockaddr *)&sa, &sl), 0);
	close(sk); /* the port is free again: nothing answers there */
	const char *old = conf_with_dbd_port(ntohs(sa.sin_port));

	struct oc_onb_state *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	char err[1024];
	assert_int_equal(oc_sacctmgr_read_state(NULL, "team-a", st, err, sizeof(err)), -1);
	fprintf(stderr, "read_state: %s\n", err);
	assert_true(strncmp(err, "slurmdbd does not answer: ", 26) == 0);
	assert_non_null(strstr(err, "Connection refused"));
	assert_false(st->account_exists);
	free(st);
	char out[2048];
	struct oc_onb_step *s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, NULL);
	assert_int_equal(run(s, out, sizeof(out)), -1);
	assert_true(strncmp(out, "slurmdbd does not answer: ", 26) == 0);
	setenv("SLURM_CONF", old, 1);
	assert_no_children();
}

static void test_dbd_silent(void **state)
{
	(void)state;
	/* A port that accepts connections (the kernel's backlog) and never
	 * answers: a hung slurmdbd. The step's timeout ends it. */
	int sk = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(sk >= 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	assert_int_equal(bind(sk, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(sk, 16), 0);
	socklen_t sl = sizeof(sa);
	assert_int_equal(getsockname(sk, (struct sockaddr *)&sa, &sl), 0);
	const char *old = conf_with_dbd_port(ntohs(sa.sin_port));

	char out[2048];
	struct oc_onb_step *s = step_new(true, "sacctmgr", "-i", "add", "account", acct_name, NULL);
	double t0 = now_s();
	assert_int_equal(oc_sacctmgr_run_step(NULL, s, out, sizeof(out), 2), -1);
	double dt = now_s() - t0;
	step_free(s);
	fprintf(stderr, "run_step: %s\n", out);
	assert_true(strncmp(out, "slurmdbd does not answer: sacctmgr gave no answer within 2 s (killed)", 69) == 0);
	assert_true(dt < 2 + OC_EXEC_KILL_GRACE_S + 1.5);
	close(sk);
	setenv("SLURM_CONF", old, 1);
	assert_no_children();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_true_false),
		cmocka_unit_test(test_exec_missing),
		cmocka_unit_test(test_exec_timeout),
		cmocka_unit_test(test_exec_signal_and_stdin),
		cmocka_unit_test(test_exec_big_output),
		cmocka_unit_test(test_exec_verbatim),
		cmocka_unit_test(test_exec_no_fd_leak),
		cmocka_unit_test(test_read_team_a),
		cmocka_unit_test(test_read_missing_and_bad),
		cmocka_unit_test(test_step_add_again_fail),
		cmocka_unit_test(test_dbd_refused),
		cmocka_unit_test(test_dbd_silent),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
