/* test_probe.c: the source side of the failure rehearsal against the real
 * local cluster: the controller's configuration (writer's read_config and
 * the backend's snapshot, both checked against `scontrol show config`),
 * probe jobs submitted as other users (held, so they never run) and
 * refused by Slurm with its own words, cancel, per-user accounting from
 * sacct (and sacct with slurmdbd out of reach), and specs refused before
 * anything runs.
 *
 * Every job it submits is named oc-test-probe-<pid>; the teardowns cancel
 * them all by name, even after a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <slurm/slurm.h>

#include "cluster_util.h"
#include "actions/writer.h"
#include "source/collector.h"
#include "source/slurm_write.h"
#include "source/source.h"

static struct oc_writer writer;
static char job_name[64];

static int setup(void **state)
{
	if (cluster_util_setup(state) < 0)
		return -1;
	char err[256];
	if (oc_slurm_writer_init(&writer, err, sizeof(err)) < 0) {
		fprintf(stderr, "writer: %s\n", err);
		return -1;
	}
	snprintf(job_name, sizeof(job_name), "oc-test-probe-%ld", (long)getpid());
	return 0;
}

static int teardown(void **state)
{
	oc_slurm_writer_fini(&writer);
	return cluster_util_teardown(state);
}

/* Cancel every job of this run (by name, any user). */
static int jobs_teardown(void **state)
{
	(void)state;
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "scancel -n %s", job_name);
	free(cluster_util_run(cmd));
	return 0;
}

/* How many jobs of this run squeue still lists as pending or running. */
static int live_jobs(void)
{
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "squeue -h -n %s -t PD,R,CG,S -o %%i", job_name);
	char *out = cluster_util_run(cmd);
	int n = 0;
	for (const char *p = out; *p; p++)
		n += *p == '\n';
	free(out);
	return n;
}

/* ---- configuration ------------------------------------------------------ */

/* Every pair of c against the first section of `scontrol show config`:
 * same keys in the same order, same values ("(null)" for NULL). Keys
 * whose value moves on its own between two reads are compared for
 * presence only. */
static void expect_like_scontrol(const struct oc_config *c)
{
	char *out = cluster_util_run("scontrol show config");
	char *s = strchr(out, '\n'); /* "Configuration data as of ..." */
	assert_non_null(s);
	s++;
	size_t i = 0, same = 0, folded = 0;
	while (*s && *s != '\n') {
		char *end = strchr(s, '\n');
		assert_non_null(end);
		*end = '\0';
		char *eq = strstr(s, " = ");
		assert_non_null(eq);
		char *k_end = eq;
		while (k_end > s && k_end[-1] == ' ')
			k_end--;
		*k_end = '\0';
		const char *value = eq + 3;
		assert_true(i < c->n);
		/* A key the table adds for a list setting (oc_config_fold_arrays:
		 * "Prolog" before scontrol's "Prolog[0]", 24.05+). */
		size_t kl = strlen(c->keys[i]);
		if (strcmp(c->keys[i], s) != 0 && strncmp(c->keys[i], s, kl) == 0 && s[kl] == '[') {
			assert_non_null(oc_config_get(c, c->keys[i]));
			i++, folded++;
			assert_true(i < c->n);
		}
		assert_string_equal(c->keys[i], s);
		const char *mine = c->values[i] ? c->values[i] : "(null)";
		if (strcmp(s, "BOOT_TIME") != 0 && strcmp(s, "NEXT_JOB_ID") != 0) {
			if (strcmp(mine, value) != 0)
				fprintf(stderr, "%s: \"%s\" vs scontrol \"%s\"\n", s, mine, value);
			assert_string_equal(mine, value);
			same++;
		}
		i++;
		s = end + 1;
	}
	/* The sections after the first (Cgroup from 23.02 with cgroup.conf,
	 * MPI, select): the same pairs follow in the table. */
	while (*s) {
		char *end = strchr(s, '\n');
		if (end)
			*end = '\0';
		char *eq = strstr(s, " = ");
		if (eq) {
			char *k_end = eq;
			while (k_end > s && k_end[-1] == ' ')
				k_end--;
			*k_end = '\0';
			assert_true(i < c->n);
			assert_string_equal(c->keys[i], s);
			i++;
		}
		if (!end)
			break;
		s = end + 1;
	}
	assert_int_equal(i, c->n);
	printf("# %zu pairs as scontrol prints them (%zu compared by value, %zu list settings folded)\n", i, same,
	       folded);
	assert_true(i > 150);
	free(out);
}

static void expect_runbook_config(const struct oc_config *c)
{
	assert_non_null(c);
	assert_true(c->n > 0);
	assert_non_null(oc_config_get(c, "JobRequeue"));
	assert_non_null(oc_config_get(c, "KillWait"));
	assert_non_null(oc_config_get(c, "ClusterName"));
	assert_string_equal(oc_config_get(c, "JobRequeue"), "1");
	assert_string_equal(oc_config_get(c, "jobrequeue"), "1"); /* keys case-insensitive */
	const char *enforce = oc_config_get(c, "AccountingStorageEnforce");
	assert_non_null(enforce);
	assert_non_null(strstr(enforce, "limits"));
	assert_non_null(strstr(enforce, "qos"));
	assert_non_null(strstr(enforce, "associations"));
	assert_string_equal(oc_config_get(c, "KillWait"), "300 sec");
	assert_string_equal(oc_config_get(c, "ClusterName"), "llm-poc");
	const char *hc = oc_config_get(c, "HealthCheckProgram");
	const char *prolog = oc_config_get(c, "Prolog");
	const char *epilog = oc_config_get(c, "Epilog");
	assert_non_null(hc);
	assert_non_null(prolog);
	assert_non_null(epilog);
	assert_non_null(strstr(hc, "/ops/health/"));
	assert_non_null(strstr(prolog, "/ops/health/"));
	assert_non_null(strstr(epilog, "/ops/health/"));
	/* Unset is NULL, not "(null)". */
	assert_null(oc_config_get(c, "PrologSlurmctld"));
	assert_null(oc_config_get(c, "NoSuchKey"));
	printf("# AccountingStorageEnforce = %s, KillWait = %s, Prolog = %s\n", enforce,
	       oc_config_get(c, "KillWait"), prolog);
}

static void test_read_config(void **state)
{
	(void)state;
	struct oc_config *c = NULL;
	char err[256] = "";
	assert_int_equal(writer.ops->read_config(writer.ctx, &c, err, sizeof(err)), 0);
	expect_runbook_config(c);
	assert_int_equal(c->h.generation, 1);
	assert_true(c->h.slurm_update > 0);
	expect_like_scontrol(c);
	oc_config_unref(&c);
	assert_null(c);
}

/* The backend publishes the same table in its snapshot, and a refresh
 * shares it (the configuration is read once per connection). */
static void test_backend_config(void **state)
{
	(void)state;
	struct oc_snapshot *a = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	assert_non_null(a);
	assert_non_null(a->config);
	expect_runbook_config(a->config);
	expect_like_scontrol(a->config);
	struct oc_snapshot *b = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, a);
	assert_non_null(b);
	assert_ptr_equal(b->config, a->config);
	oc_snapshot_unref(&b);
	oc_snapshot_unref(&a);
}

/* ---- submit and cancel -------------------------------------------------- */

static void spec_init(struct oc_job_spec *spec, const char *user)
{
	memset(spec, 0, sizeof(*spec));
	snprintf(spec->user, sizeof(spec->user), "%s", user);
	snprintf(spec->name, sizeof(spec->name), "%s", job_name);
	spec->hold = true;
}

/* squeue's "%u %a %P %q %T %r %j" of job id. */
static char *squeue_line(uint32_t id)
{
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "squeue -h -t all -j %u -o '%%u %%a %%P %%q %%T %%r %%j'", (unsigned)id);
	char *out = cluster_util_run(cmd);
	out[strcspn(out, "\n")] = '\0';
	return out;
}

static void test_submit_held_cancel(void **state)
{
	(void)state;
	struct oc_job_spec spec;
	spec_init(&spec, "alice");
	snprintf(spec.partition, sizeof(spec.partition), "debug");
	snprintf(spec.qos, sizeof(spec.qos), "debug_qos");
	spec.nodes = 1;
	spec.time_min = 5;
	snprintf(spec.signal, sizeof(spec.signal), "B:USR1@60");
	spec.requeue = true;
	uint32_t id = 0;
	char err[512] = "";
	int rc = writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "submit: %s\n", err);
	assert_int_equal(rc, 0);
	assert_true(id > 0);
	printf("# submitted %u as alice\n", (unsigned)id);

	char *line = squeue_line(id);
	char want[256];
	snprintf(want, sizeof(want), "alice team-a debug debug_qos PENDING JobHeldUser %s", job_name);
	assert_string_equal(line, want);
	free(line);
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "scontrol show job %u", (unsigned)id);
	char *show = cluster_util_run(cmd);
	assert_non_null(strstr(show, "Requeue=1"));
	assert_non_null(strstr(show, "TimeLimit=00:05:00"));
	assert_non_null(strstr(show, "NumNodes=1"));
	free(show);

	/* A signal to the batch shell of a job that has none yet. */
	err[0] = '\0';
	rc = writer.ops->cancel_job(writer.ctx, id, 10 /* SIGUSR1 */, err, sizeof(err));
	printf("# USR1 to a held job: %d %s\n", rc, err);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "Job can not be altered now, try again later");
	line = squeue_line(id);
	assert_non_null(strstr(line, " PENDING "));
	free(line);

	/* Plain cancel: gone from the queue. */
	err[0] = '\0';
	assert_int_equal(writer.ops->cancel_job(writer.ctx, id, 0, err, sizeof(err)), 0);
	line = squeue_line(id);
	assert_non_null(strstr(line, " CANCELLED "));
	free(line);
	assert_int_equal(live_jobs(), 0);
	/* Again: already done, as scancel says nothing. */
	assert_int_equal(writer.ops->cancel_job(writer.ctx, id, 0, err, sizeof(err)), 0);
	/* But signalling an ended job is an error. */
	assert_int_equal(writer.ops->cancel_job(writer.ctx, id, 10, err, sizeof(err)), -1);
	printf("# USR1 to a cancelled job: %s\n", err);
	assert_string_equal(err, "Job/step already completing or completed");
	/* A job that never existed. */
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 3999999999u, 0, err, sizeof(err)), -1);
	printf("# cancel of a missing job: %s\n", err);
	assert_string_equal(err, "Invalid job id specified");
	assert_int_equal(writer.ops->cancel_job(writer.ctx, 0, 0, err, sizeof(err)), -1);
	assert_int_equal(writer.ops->cancel_job(writer.ctx, id, -1, err, sizeof(err)), -1);
}

static void test_submit_refused(void **state)
{
	(void)state;
	struct oc_job_spec spec;
	uint32_t id = 7;
	char err[512] = "";

	/* gpu is AllowGroups=root. */
	spec_init(&spec, "alice");
	snprintf(spec.partition, sizeof(spec.partition), "gpu");
	spec.gpus_per_node = 8;
	int rc = writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err));
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
	if (rc == 0) {
		/* 24.11+ with EnforcePartLimits=NO (the default): accepted, and
		 * the job never runs: pending (or ended at once, 25.11) with a
		 * reason naming the group. */
		assert_true(id > 0);
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "squeue -h -j %u -o '%%T|%%r'", id);
		char *st = cluster_util_run(cmd);
		printf("# alice to gpu: accepted as %u: %s", id, st);
		assert_non_null(strstr(st, "permitted"));
		assert_true(strncmp(st, "PENDING|", 8) == 0 || strncmp(st, "CANCELLED|", 10) == 0);
		free(st);
		writer.ops->cancel_job(writer.ctx, id, 0, err, sizeof(err));
	} else
#endif
	{
		assert_int_equal(rc, 1);
		assert_int_equal(id, 0);
		printf("# alice to gpu: %s\n", err);
		assert_string_equal(err,
				    "sbatch: error: Batch job submission failed: User's group not permitted to use this partition");
	}

	/* An account that does not exist. */
	spec_init(&spec, "benchuser");
	snprintf(spec.account, sizeof(spec.account), "oc-no-such-account");
	assert_int_equal(writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err)), 1);
	printf("# benchuser to a bad account: %s\n", err);
	assert_string_equal(err, "sbatch: error: Batch job submission failed: Invalid account or "
				 "account/partition combination specified");

	/* An account the user is not in. */
	spec_init(&spec, "benchuser");
	snprintf(spec.account, sizeof(spec.account), "team-a");
	assert_int_equal(writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err)), 1);
	printf("# benchuser to team-a: %s\n", err);
	assert_non_null(strstr(err, "Invalid account or account/partition combination specified"));

	/* A QoS the association does not have. */
	spec_init(&spec, "alice");
	snprintf(spec.qos, sizeof(spec.qos), "exclusive_qos");
	assert_int_equal(writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err)), 1);
	printf("# alice with exclusive_qos: %s\n", err);
	assert_non_null(strstr(err, "Batch job submission failed:"));

	/* A --signal sbatch cannot parse: sbatch's own refusal. */
	spec_init(&spec, "alice");
	snprintf(spec.signal, sizeof(spec.signal), "NOSUCHSIG");
	assert_int_equal(writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err)), 1);
	printf("# bad --signal: %s\n", err);
	assert_non_null(strstr(err, "sbatch: error:"));

	assert_int_equal(live_jobs(), 0);
}

static void expect_bad_spec(const struct oc_job_spec *spec, const char *words)
{
	uint32_t id = 7;
	char err[512] = "";
	assert_int_equal(writer.ops->submit_job(writer.ctx, spec, &id, err, sizeof(err)), -1);
	assert_int_equal(id, 0);
	if (!strstr(err, words))
		fprintf(stderr, "want \"%s\" in \"%s\"\n", words, err);
	assert_non_null(strstr(err, words));
}

static void test_submit_bad_spec(void **state)
{
	(void)state;
	struct oc_job_spec spec;

	spec_init(&spec, "");
	expect_bad_spec(&spec, "user is empty");
	spec_init(&spec, "alice;id");
	expect_bad_spec(&spec, "user: ';' is not allowed");
	spec_init(&spec, "alice bob");
	expect_bad_spec(&spec, "user: ' ' is not allowed");
	spec_init(&spec, "oc_no_such_user");
	expect_bad_spec(&spec, "no such user \"oc_no_such_user\"");
	spec_init(&spec, "alice");
	spec.name[0] = '\0';
	expect_bad_spec(&spec, "job name is empty");
	spec_init(&spec, "alice");
	snprintf(spec.name, sizeof(spec.name), "oc-test $(id)");
	expect_bad_spec(&spec, "job name: ' ' is not allowed");
	spec_init(&spec, "alice");
	snprintf(spec.account, sizeof(spec.account), "--uid=0");
	expect_bad_spec(&spec, "account \"--uid=0\" starts with '-'");
	spec_init(&spec, "alice");
	snprintf(spec.partition, sizeof(spec.partition), "debug\n");
	expect_bad_spec(&spec, "partition: byte 0x0a is not allowed");
	spec_init(&spec, "alice");
	snprintf(spec.qos, sizeof(spec.qos), "qos/x");
	expect_bad_spec(&spec, "qos: '/' is not allowed");
	spec_init(&spec, "alice");
	snprintf(spec.signal, sizeof(spec.signal), "B:USR1@60;x");
	expect_bad_spec(&spec, "signal: ';' is not allowed");
	spec_init(&spec, "alice");
	snprintf(spec.command, sizeof(spec.command), "sleep 1\nid");
	expect_bad_spec(&spec, "command: control character 0x0a");
	spec_init(&spec, "alice");
	memset(spec.user, 'a', sizeof(spec.user));
	expect_bad_spec(&spec, "user is not terminated");

	assert_int_equal(live_jobs(), 0);
}

/* Not root: only the console's own user can submit (sbatch without
 * runuser). In a child that becomes opsview, reporting through a pipe. */
static void test_submit_not_root(void **state)
{
	(void)state;
	struct passwd *pw = getpwnam("opsview");
	assert_non_null(pw);
	uid_t uid = pw->pw_uid;
	gid_t gid = pw->pw_gid;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		FILE *f = fdopen(fds[1], "w");
		if (!f || chdir("/tmp") != 0 || setgroups(0, NULL) != 0 || setgid(gid) != 0 ||
		    setuid(uid) != 0 || getuid() != uid)
			_exit(2);
		struct oc_job_spec spec;
		spec_init(&spec, "opsview");
		uint32_t id = 0;
		char err[512] = "";
		int rc = writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err));
		fprintf(f, "self %d %u %s\n", rc, (unsigned)id, err);
		spec_init(&spec, "alice");
		err[0] = '\0';
		rc = writer.ops->submit_job(writer.ctx, &spec, &id, err, sizeof(err));
		fprintf(f, "alice %d %s\n", rc, err);
		fclose(f);
		_exit(0);
	}
	close(fds[1]);
	FILE *f = fdopen(fds[0], "r");
	assert_non_null(f);
	char lines[2][600];
	for (int i = 0; i < 2; i++) {
		if (!fgets(lines[i], sizeof(lines[i]), f))
			lines[i][0] = '\0';
		lines[i][strcspn(lines[i], "\n")] = '\0';
		printf("# as opsview: %s\n", lines[i]);
	}
	fclose(f);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	unsigned id = 0;
	assert_int_equal(sscanf(lines[0], "self 0 %u", &id), 1);
	assert_true(id > 0);
	char *line = squeue_line(id);
	char want[256];
	snprintf(want, sizeof(want), "opsview team-a normal normal_qos PENDING JobHeldUser %s", job_name);
	assert_string_equal(line, want);
	free(line);
	snprintf(want, sizeof(want), "alice -1 submitting as another user needs root (the console runs as uid %u)",
		 (unsigned)uid);
	assert_string_equal(lines[1], want);
}

/* ---- accounting --------------------------------------------------------- */

static void test_sacct_users(void **state)
{
	(void)state;
	char out[8192], err[512] = "";
	int n = writer.ops->sacct_users(writer.ctx, time(NULL) - 3600, out, sizeof(out), err, sizeof(err));
	if (n < 0)
		fprintf(stderr, "sacct_users: %s\n", err);
	assert_true(n >= 1);
	printf("# sacct_users since an hour ago (%d):\n%s", n, out);
	/* n lines "user account jobs", alice among them (the demo's jobs). */
	int lines = 0;
	bool alice = false;
	for (char *s = out; *s;) {
		char *end = strchr(s, '\n');
		assert_non_null(end);
		*end = '\0';
		char user[64], account[64];
		unsigned long jobs = 0;
		char extra;
		assert_int_equal(sscanf(s, "%63s %63s %lu %c", user, account, &jobs, &extra), 3);
		assert_true(jobs >= 1);
		if (strcmp(user, "alice") == 0 && strcmp(account, "team-a") == 0)
			alice = true;
		lines++;
		s = end + 1;
	}
	assert_int_equal(lines, n);
	assert_true(alice);

	/* The same count for alice as sacct itself. */
	char start[32], cmd[256];
	time_t since = time(NULL) - 7200;
	struct tm tm;
	localtime_r(&since, &tm);
	strftime(start, sizeof(start), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(cmd, sizeof(cmd), "sacct -a -X -n -P -S %s -o user,account,jobid -u alice | grep -c '^alice|team-a|'",
		 start);
	char *c = cluster_util_run(cmd);
	unsigned long want = strtoul(c, NULL, 10);
	free(c);
	n = writer.ops->sacct_users(writer.ctx, since, out, sizeof(out), err, sizeof(err));
	assert_true(n >= 1);
	char *a = strstr(out, "alice team-a ");
	assert_non_null(a);
	assert_true(a == out || a[-1] == '\n');
	unsigned long got = strtoul(a + strlen("alice team-a "), NULL, 10);
	assert_true(got >= want); /* other runs may add jobs in between */

	/* Too small a buffer: refused, nothing half written. */
	char tiny[8];
	assert_int_equal(writer.ops->sacct_users(writer.ctx, since, tiny, sizeof(tiny), err, sizeof(err)), -1);
	assert_string_equal(tiny, "");
	assert_non_null(strstr(err, "do not fit"));
}

/* slurmdbd out of reach: sacct's own words (a copy of slurm.conf that
 * points at a port nobody listens on; only the sacct child reads it). */
static void test_sacct_dbd_down(void **state)
{
	(void)state;
	const char *conf = getenv("SLURM_CONF");
	assert_non_null(conf);
	char saved[4096];
	snprintf(saved, sizeof(saved), "%s", conf);
	char dir[] = "/tmp/oc-test-probe-XXXXXX";
	assert_non_null(mkdtemp(dir));
	chmod(dir, 0755);
	char path[256], cmd[4096 + 512];
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	snprintf(cmd, sizeof(cmd), "sed 's/^AccountingStoragePort=.*/AccountingStoragePort=1/' '%s' > '%s'", saved,
		 path);
	free(cluster_util_run(cmd));
	setenv("SLURM_CONF", path, 1);
	char out[1024], err[512] = "";
	int n = writer.ops->sacct_users(writer.ctx, time(NULL) - 3600, out, sizeof(out), err, sizeof(err));
	setenv("SLURM_CONF", saved, 1);
	unlink(path);
	rmdir(dir);
	printf("# slurmdbd out of reach: %s\n", err);
	assert_int_equal(n, -1);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "sacct failed (exit 1): "));
	assert_non_null(strstr(err, "Connection refused"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_config),
		cmocka_unit_test(test_backend_config),
		cmocka_unit_test_teardown(test_submit_held_cancel, jobs_teardown),
		cmocka_unit_test_teardown(test_submit_refused, jobs_teardown),
		cmocka_unit_test_teardown(test_submit_bad_spec, jobs_teardown),
		cmocka_unit_test_teardown(test_submit_not_root, jobs_teardown),
		cmocka_unit_test(test_sacct_users),
		cmocka_unit_test(test_sacct_dbd_down),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
