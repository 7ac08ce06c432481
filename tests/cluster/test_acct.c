/* test_acct.c: the accounting table (slurmctld's association manager) and
 * the quota rows against the real local cluster with its demo workload,
 * checked against what scontrol and sacctmgr print for the same cluster. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_util.h"
#include "core/quota.h"
#include "source/collector.h"
#include "source/source.h"

/* The controller's GrpTRES entry NAME (cpu, mem, node, gres/gpu) of an
 * account's own association: `scontrol show assoc_mgr accounts=X flags=assoc`
 * prints "GrpTRES=cpu=N(576),...,gres/gpu=64(24)" (limit 64 or N, 24 in use). */
static void scontrol_account_tres(const char *account, const char *name, uint64_t *limit,
				  uint64_t *used)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "scontrol show assoc_mgr accounts=%s flags=assoc", account);
	char *out = cluster_util_run(cmd);
	char key[64];
	snprintf(key, sizeof(key), "%s=", name);
	int found = 0;
	/* Records start with "ClusterName="; the account's own has "UserName= ". */
	for (char *rec = strstr(out, "ClusterName="); rec; rec = strstr(rec + 1, "ClusterName=")) {
		char *end = strstr(rec + 1, "ClusterName=");
		char *user = strstr(rec, "UserName=");
		if (!user || (end && user > end) || user[9] != ' ')
			continue;
		char *grp = strstr(rec, "GrpTRES=");
		assert_non_null(grp);
		assert_true(!end || grp < end);
		grp += strlen("GrpTRES=");
		/* The entry starts the list or follows a comma; the list ends at
		 * the next blank. */
		grp[strcspn(grp, " \n")] = '\0';
		char *v = NULL;
		for (char *p = grp; p && *p; p = strchr(p, ',')) {
			if (*p == ',')
				p++;
			if (strncmp(p, key, strlen(key)) == 0) {
				v = p + strlen(key);
				break;
			}
		}
		assert_non_null(v);
		if (*v == 'N') {
			*limit = OC_NOLIMIT;
			v++;
		} else {
			*limit = strtoull(v, &v, 10);
		}
		assert_int_equal(*v, '(');
		*used = strtoull(v + 1, NULL, 10);
		found++;
		break;
	}
	assert_int_equal(found, 1);
	free(out);
}

static const struct oc_assoc *find_assoc(const struct oc_accounting *t, const char *account,
					 const char *user)
{
	for (size_t i = 0; i < t->nassocs; i++) {
		const struct oc_assoc *a = &t->assocs[i];
		if (strcmp(a->account, account) != 0 || a->partition)
			continue;
		if ((!user && !a->user) || (user && a->user && strcmp(a->user, user) == 0))
			return a;
	}
	return NULL;
}

static const struct oc_qos *find_qos(const struct oc_accounting *t, const char *name)
{
	for (size_t i = 0; i < t->nqos; i++)
		if (strcmp(t->qos[i].name, name) == 0)
			return &t->qos[i];
	return NULL;
}

static const struct oc_quota_row *find_row(const struct oc_quota_row *rows, long n, const char *acct)
{
	for (long i = 0; i < n; i++)
		if (strcmp(rows[i].account, acct) == 0)
			return &rows[i];
	return NULL;
}

static uint64_t running_gpus(const struct oc_jobs *jobs, const char *account)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < jobs->n; i++)
		if (jobs->v[i].state == OC_JOB_RUNNING && jobs->v[i].account &&
		    strcmp(jobs->v[i].account, account) == 0)
			sum += jobs->v[i].gpus;
	return sum;
}

static void test_accounting_enabled(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	assert_non_null(s);
	assert_string_equal(s->status[OC_PART_ACCT].error, "");
	assert_true(s->status[OC_PART_ACCT].fetched > 0);
	assert_int_equal(s->status[OC_PART_ACCT].error_since, 0);
	const struct oc_accounting *t = s->accounting;
	assert_non_null(t);
	assert_true(t->enabled);
	assert_string_equal(t->dbd_error, ""); /* slurmdbd answers */
	assert_true(t->nassocs >= 10);
	assert_true(t->nqos >= 6);
	/* A new table per refresh, with the next generation. */
	struct oc_snapshot *s2 = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_ACCT), s);
	assert_ptr_not_equal(s2->accounting, s->accounting);
	assert_int_equal(s2->accounting->h.generation, s->accounting->h.generation + 1);
	/* Parts not asked for are shared. */
	assert_ptr_equal(s2->jobs, s->jobs);
	oc_snapshot_unref(&s2);
	oc_snapshot_unref(&s);
}

/* team-a and team-b: limit 64 GPUs, used as the controller says and as
 * their running jobs add up; CPUs, memory and nodes as the controller says
 * (not as the demo's jobs would add up: Slurm 26.05 takes one CPU, 1 GB and
 * one node off an account's use when a het job of it is submitted and never
 * gives them back, see docs/testing.md). */
static void test_team_gpu_usage(void **state)
{
	(void)state;
	static const char *const teams[] = {"team-a", "team-b"};
	for (size_t k = 0; k < 2; k++) {
		uint64_t ctl_limit = 0, ctl_used = 0, lim = 0, ctl_cpu = 0, ctl_mem = 0, ctl_node = 0;
		scontrol_account_tres(teams[k], "gres/gpu", &ctl_limit, &ctl_used);
		scontrol_account_tres(teams[k], "cpu", &lim, &ctl_cpu);
		scontrol_account_tres(teams[k], "mem", &lim, &ctl_mem);
		scontrol_account_tres(teams[k], "node", &lim, &ctl_node);
		struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
		const struct oc_assoc *a = find_assoc(s->accounting, teams[k], NULL);
		assert_non_null(a);
		assert_string_equal(a->parent, "root");
		assert_int_equal(a->grp[OC_TRES_GPU].limit, 64);
		assert_int_equal(ctl_limit, 64);
		assert_int_equal(a->grp[OC_TRES_GPU].used, ctl_used);
		assert_int_equal(a->grp[OC_TRES_GPU].used, running_gpus(s->jobs, teams[k]));
		assert_string_equal(a->grp_tres, "gres/gpu=64");
		assert_int_equal(a->grp[OC_TRES_NODE].used, ctl_node);
		assert_int_equal(a->grp[OC_TRES_CPU].used, ctl_cpu);
		assert_int_equal(a->grp[OC_TRES_MEM].used, ctl_mem);
		/* Some use, or the comparisons above prove little. */
		assert_true(ctl_cpu > 0 && ctl_mem > 0 && ctl_node > 0);

		struct oc_quota_row *rows = NULL;
		long n = oc_quota_rows(s, &rows);
		assert_true(n >= 3);
		const struct oc_quota_row *r = find_row(rows, n, teams[k]);
		assert_non_null(r);
		assert_ptr_equal(r->assoc, a);
		assert_true(r->has_gpu_limit);
		assert_int_equal(r->gpu.limit, 64);
		assert_int_equal(r->gpu.used, ctl_used);
		assert_int_equal(r->run_gpus, ctl_used);
		oc_quota_rows_free(&rows, n);
		oc_snapshot_unref(&s);
	}
}

/* The GrpTRES names agree with slurmdbd's own rendering (sacctmgr maps the
 * TRES ids through the database's TRES table). */
static void test_grp_tres_matches_sacctmgr(void **state)
{
	(void)state;
	char *out = cluster_util_run("sacctmgr -nP show assoc where account=team-a,team-b,bench "
			"format=account,user,grptres");
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_ACCT), NULL);
	int lines = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *user = strchr(line, '|');
		assert_non_null(user);
		*user++ = '\0';
		char *grp = strchr(user, '|');
		assert_non_null(grp);
		*grp++ = '\0';
		const struct oc_assoc *a = find_assoc(s->accounting, line, *user ? user : NULL);
		assert_non_null(a);
		if (*grp)
			assert_string_equal(a->grp_tres, grp);
		else
			assert_null(a->grp_tres);
		lines++;
	}
	assert_true(lines >= 8);
	free(out);
	oc_snapshot_unref(&s);
}

static void test_qos_limits(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_ACCT), NULL);
	const struct oc_qos *q = find_qos(s->accounting, "normal_qos");
	assert_non_null(q);
	assert_int_equal(q->max_jobs_pu, 4);
	assert_int_equal(q->max_submit_pu, 8);
	assert_int_equal(q->priority, 2000);
	/* and as sacctmgr has them */
	char *out = cluster_util_run("sacctmgr -nP show qos normal_qos,debug_qos,large_qos "
			"format=name,maxjobspu,maxsubmitpu,priority");
	int lines = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		/* name|maxjobspu|maxsubmitpu|priority, empty when no limit */
		char *f1 = strchr(line, '|');
		assert_non_null(f1);
		char *f2 = strchr(f1 + 1, '|');
		assert_non_null(f2);
		char *f3 = strchr(f2 + 1, '|');
		assert_non_null(f3);
		*f1 = *f2 = *f3 = '\0';
		const struct oc_qos *r = find_qos(s->accounting, line);
		assert_non_null(r);
		assert_int_equal(r->max_jobs_pu, *(f1 + 1) ? strtoul(f1 + 1, NULL, 10) : OC_NONE);
		assert_int_equal(r->max_submit_pu, *(f2 + 1) ? strtoul(f2 + 1, NULL, 10) : OC_NONE);
		assert_int_equal(r->priority, strtoul(f3 + 1, NULL, 10));
		lines++;
	}
	assert_int_equal(lines, 3);
	free(out);
	const struct oc_qos *large = find_qos(s->accounting, "large_qos");
	assert_int_equal(large->max_jobs_pu, OC_NONE);
	assert_int_equal(large->max_submit_pu, OC_NONE);
	assert_null(large->max_tres_pu);

	/* team-a may use normal_qos (its default) and sees its limits. */
	const struct oc_assoc *a = find_assoc(s->accounting, "team-a", NULL);
	assert_non_null(a->qos);
	assert_non_null(strstr(a->qos, "normal_qos"));
	assert_string_equal(a->def_qos, "normal_qos");
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *r = find_row(rows, n, "team-a");
	int seen = 0;
	for (size_t i = 0; i < r->nqos; i++)
		if (strcmp(r->qos[i].name, "normal_qos") == 0) {
			assert_ptr_equal(r->qos[i].qos, q);
			assert_int_equal(r->qos[i].max_jobs_pu, 4);
			assert_int_equal(r->qos[i].max_submit_pu, 8);
			seen++;
		}
	assert_int_equal(seen, 1);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

static void test_bench_without_gpu_limit(void **state)
{
	(void)state;
	uint64_t ctl_limit = 0, ctl_used = 0;
	scontrol_account_tres("bench", "gres/gpu", &ctl_limit, &ctl_used);
	assert_int_equal(ctl_limit, OC_NOLIMIT);
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	const struct oc_assoc *a = find_assoc(s->accounting, "bench", NULL);
	assert_non_null(a);
	assert_int_equal(a->grp[OC_TRES_GPU].limit, OC_NOLIMIT);
	assert_int_equal(a->grp[OC_TRES_GPU].used, ctl_used);
	assert_null(a->grp_tres);
	assert_string_equal(a->def_qos, "bench_qos");
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *r = find_row(rows, n, "bench");
	assert_non_null(r);
	assert_false(r->has_gpu_limit);
	assert_int_equal(oc_quota_pct(r->gpu.used, r->gpu.limit), 0);
	/* root has no limit here: not a row */
	assert_null(find_row(rows, n, "root"));
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

/* The demo's over-quota job: alice's team-a job pending on AssocGrpGRES. */
static void test_over_quota_job(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	uint32_t limited = 0, alice_limited = 0;
	for (size_t i = 0; i < s->jobs->n; i++) {
		const struct oc_job *j = &s->jobs->v[i];
		if (j->state != OC_JOB_PENDING || !(j->flags & OC_JF_LIMITED) ||
		    strcmp(j->account, "team-a") != 0)
			continue;
		limited++;
		if (strcmp(j->user, "alice") == 0 && j->reason && strcmp(j->reason, "AssocGrpGRES") == 0)
			alice_limited++;
	}
	assert_true(alice_limited >= 1);

	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *r = find_row(rows, n, "team-a");
	assert_non_null(r);
	assert_int_equal(r->limited_jobs, limited);
	assert_true(r->pend_jobs >= r->limited_jobs);
	/* 24 GPUs in use + 48 asked would pass the limit of 64. */
	assert_true(r->gpu.used + r->pend_gpus > r->gpu.limit);
	uint32_t users_limited = 0;
	int alice = 0;
	for (size_t i = 0; i < r->nusers; i++) {
		users_limited += r->users[i].limited_jobs;
		if (strcmp(r->users[i].user, "alice") == 0) {
			assert_non_null(r->users[i].assoc);
			assert_true(r->users[i].limited_jobs >= 1);
			alice = 1;
		}
	}
	assert_true(alice);
	assert_int_equal(users_limited, limited);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

/* User associations: the users of team-a, their parent, and what the
 * controller counts for them. */
static void test_user_associations(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	static const char *const users[] = {"alice", "bob", "opsview"};
	uint64_t sum = 0;
	for (size_t i = 0; i < 3; i++) {
		const struct oc_assoc *a = find_assoc(s->accounting, "team-a", users[i]);
		assert_non_null(a);
		assert_string_equal(a->parent, "team-a");
		assert_int_equal(a->grp[OC_TRES_GPU].limit, OC_NOLIMIT);
		sum += a->grp[OC_TRES_GPU].used;
	}
	const struct oc_assoc *acct = find_assoc(s->accounting, "team-a", NULL);
	assert_int_equal(sum, acct->grp[OC_TRES_GPU].used);
	const struct oc_assoc *root = find_assoc(s->accounting, "root", NULL);
	assert_non_null(root);
	assert_null(root->parent);
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *r = find_row(rows, n, "team-a");
	assert_true(r->nusers >= 3);
	for (size_t i = 1; i < r->nusers; i++)
		assert_true(strcmp(r->users[i - 1].user, r->users[i].user) < 0);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accounting_enabled),
		cmocka_unit_test(test_team_gpu_usage),
		cmocka_unit_test(test_grp_tres_matches_sacctmgr),
		cmocka_unit_test(test_qos_limits),
		cmocka_unit_test(test_bench_without_gpu_limit),
		cmocka_unit_test(test_over_quota_job),
		cmocka_unit_test(test_user_associations),
	};
	return cmocka_run_group_tests(tests, cluster_util_setup, cluster_util_teardown);
}
