/* test_quota.c: quota rows (accounts, users, QoS) and bar percentages, and
 * the explanations of why a job waits (core/jobexplain.c), on snapshots
 * built by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/jobexplain.h"
#include "core/quota.h"

#define MAXREC 64

/* A snapshot with room for MAXREC associations, QoS and jobs each. */
static struct oc_snapshot *snap_new(void)
{
	struct oc_snapshot *s = oc_snapshot_new();
	assert_non_null(s);
	struct oc_accounting *a = s->accounting;
	a->enabled = true;
	a->assocs = oc_arena_alloc(&a->h.arena, sizeof(*a->assocs) * MAXREC);
	a->qos = oc_arena_alloc(&a->h.arena, sizeof(*a->qos) * MAXREC);
	s->jobs->v = oc_arena_alloc(&s->jobs->h.arena, sizeof(*s->jobs->v) * MAXREC);
	assert_non_null(a->assocs);
	assert_non_null(a->qos);
	assert_non_null(s->jobs->v);
	return s;
}

static struct oc_assoc *add_assoc(struct oc_snapshot *s, const char *account, const char *user,
				  uint64_t gpu_limit, uint64_t gpu_used, const char *qos)
{
	struct oc_accounting *a = s->accounting;
	assert_true(a->nassocs < MAXREC);
	struct oc_assoc *r = &a->assocs[a->nassocs++];
	r->account = account;
	r->user = user;
	r->parent = user ? account : (strcmp(account, "root") ? "root" : NULL);
	for (int k = 0; k < OC_TRES_KINDS; k++)
		r->grp[k].limit = OC_NOLIMIT;
	r->grp[OC_TRES_GPU].limit = gpu_limit;
	r->grp[OC_TRES_GPU].used = gpu_used;
	r->grp_jobs = r->grp_submit = r->max_jobs = r->max_submit = OC_NONE;
	r->qos = qos;
	r->shares = 1;
	return r;
}

static struct oc_qos *add_qos(struct oc_snapshot *s, const char *name, uint32_t max_jobs_pu,
			      uint32_t max_submit_pu)
{
	struct oc_accounting *a = s->accounting;
	assert_true(a->nqos < MAXREC);
	struct oc_qos *q = &a->qos[a->nqos++];
	q->name = name;
	q->max_jobs_pu = max_jobs_pu;
	q->max_submit_pu = max_submit_pu;
	q->grp_jobs = q->grp_submit = OC_NONE;
	for (int k = 0; k < OC_TRES_KINDS; k++)
		q->grp[k].limit = OC_NOLIMIT;
	return q;
}

static struct oc_job *add_job(struct oc_snapshot *s, const char *account, const char *user,
			      const char *qos, enum oc_job_state st, uint32_t gpus, uint32_t flags)
{
	struct oc_jobs *t = s->jobs;
	assert_true(t->n < MAXREC);
	struct oc_job *j = &t->v[t->n];
	j->job_id = (uint32_t)(100 + t->n);
	t->n++;
	j->account = account;
	j->user = user;
	j->qos = qos;
	j->state = st;
	j->gpus = gpus;
	j->flags = flags;
	j->num_nodes = gpus ? (gpus + 7) / 8 : 1;
	j->num_cpus = gpus ? gpus * 24 : 1;
	j->array_task_id = OC_NONE;
	return j;
}

static const struct oc_quota_row *find_row(const struct oc_quota_row *rows, long n, const char *acct)
{
	for (long i = 0; i < n; i++)
		if (strcmp(rows[i].account, acct) == 0)
			return &rows[i];
	return NULL;
}

static const struct oc_quota_user *find_user(const struct oc_quota_row *r, const char *user)
{
	for (size_t i = 0; i < r->nusers; i++)
		if (strcmp(r->users[i].user, user) == 0)
			return &r->users[i];
	return NULL;
}

static const struct oc_quota_qos *find_qos(const struct oc_quota_row *r, const char *name)
{
	for (size_t i = 0; i < r->nqos; i++)
		if (strcmp(r->qos[i].name, name) == 0)
			return &r->qos[i];
	return NULL;
}

/* The demo cluster as the console sees it: root, team-a, team-b, bench. */
static struct oc_snapshot *demo_snapshot(void)
{
	struct oc_snapshot *s = snap_new();
	add_qos(s, "normal", OC_NONE, OC_NONE);
	add_qos(s, "debug_qos", 1, 2);
	add_qos(s, "normal_qos", 4, 8);
	add_qos(s, "large_qos", OC_NONE, OC_NONE);
	add_qos(s, "bench_qos", OC_NONE, OC_NONE);
	struct oc_assoc *root = add_assoc(s, "root", NULL, OC_NOLIMIT, 56, "normal");
	root->grp[OC_TRES_CPU].used = 1344;
	add_assoc(s, "root", "root", OC_NOLIMIT, 0, "normal,debug_qos,normal_qos,large_qos");
	add_assoc(s, "team-b", NULL, 64, 32, "normal,debug_qos,normal_qos,large_qos");
	add_assoc(s, "team-b", "carol", OC_NOLIMIT, 32, "normal,debug_qos,normal_qos,large_qos");
	add_assoc(s, "team-b", "dave", OC_NOLIMIT, 0, "normal,debug_qos,normal_qos,large_qos");
	struct oc_assoc *ta = add_assoc(s, "team-a", NULL, 64, 24, "normal,debug_qos,normal_qos,large_qos");
	ta->grp[OC_TRES_CPU].used = 576;
	ta->grp[OC_TRES_MEM].used = 1152000;
	ta->grp[OC_TRES_NODE].used = 3;
	ta->grp_tres = "gres/gpu=64";
	add_assoc(s, "team-a", "alice", OC_NOLIMIT, 16, "normal,debug_qos,normal_qos,large_qos");
	add_assoc(s, "team-a", "bob", OC_NOLIMIT, 8, "normal,debug_qos,normal_qos,large_qos");
	add_assoc(s, "team-a", "opsview", OC_NOLIMIT, 0, "normal,debug_qos,normal_qos,large_qos");
	add_assoc(s, "bench", NULL, OC_NOLIMIT, 0, "normal,bench_qos");
	add_assoc(s, "bench", "benchuser", OC_NOLIMIT, 0, "normal,bench_qos");

	add_job(s, "team-a", "bob", "normal_qos", OC_JOB_RUNNING, 8, 0);
	add_job(s, "team-a", "alice", "large_qos", OC_JOB_RUNNING, 16, 0);
	add_job(s, "team-b", "carol", "large_qos", OC_JOB_RUNNING, 32, 0);
	add_job(s, "team-b", "dave", "normal_qos", OC_JOB_PENDING, 16, 0);
	add_job(s, "team-a", "alice", "large_qos", OC_JOB_PENDING, 48, OC_JF_LIMITED);
	/* Finished jobs count nowhere. */
	add_job(s, "team-a", "alice", "large_qos", OC_JOB_COMPLETE, 64, 0);
	add_job(s, "team-a", "bob", "normal_qos", OC_JOB_CANCELLED, 8, 0);
	return s;
}

static void test_usage_arithmetic(void **state)
{
	(void)state;
	struct oc_snapshot *s = demo_snapshot();
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	assert_int_equal(n, 3); /* root has no limit */
	assert_string_equal(rows[0].account, "bench");
	assert_string_equal(rows[1].account, "team-a");
	assert_string_equal(rows[2].account, "team-b");

	const struct oc_quota_row *a = &rows[1];
	assert_non_null(a->assoc);
	assert_null(a->assoc->user);
	assert_true(a->has_gpu_limit);
	assert_int_equal(a->gpu.limit, 64);
	assert_int_equal(a->gpu.used, 24);
	assert_int_equal(a->cpu.used, 576);
	assert_int_equal(a->cpu.limit, OC_NOLIMIT);
	assert_int_equal(a->mem.used, 1152000);
	assert_int_equal(a->node.used, 3);
	assert_int_equal(a->run_gpus, 24);
	assert_int_equal(a->run_gpus, a->gpu.used); /* the controller agrees with the jobs */
	assert_int_equal(a->pend_gpus, 48);
	assert_int_equal(a->run_jobs, 2);
	assert_int_equal(a->pend_jobs, 1);
	assert_int_equal(a->limited_jobs, 1);

	/* Users: associations and job owners, sorted; opsview has no jobs. */
	assert_int_equal(a->nusers, 3);
	assert_string_equal(a->users[0].user, "alice");
	assert_string_equal(a->users[1].user, "bob");
	assert_string_equal(a->users[2].user, "opsview");
	assert_int_equal(a->users[0].run_gpus, 16);
	assert_int_equal(a->users[0].pend_gpus, 48);
	assert_int_equal(a->users[0].run_jobs, 1);
	assert_int_equal(a->users[0].pend_jobs, 1);
	assert_int_equal(a->users[0].limited_jobs, 1);
	assert_int_equal(a->users[1].run_gpus, 8);
	assert_int_equal(a->users[1].limited_jobs, 0);
	assert_non_null(a->users[2].assoc);
	assert_string_equal(a->users[2].assoc->user, "opsview");
	assert_int_equal(a->users[2].run_jobs + a->users[2].pend_jobs, 0);

	const struct oc_quota_row *b = &rows[2];
	assert_int_equal(b->gpu.used, 32);
	assert_int_equal(b->run_gpus, 32);
	assert_int_equal(b->pend_gpus, 16);
	assert_int_equal(b->limited_jobs, 0);
	assert_int_equal(b->nusers, 2);

	/* QoS in the association's order, limits from the QoS table. */
	assert_int_equal(a->nqos, 4);
	assert_string_equal(a->qos[0].name, "normal");
	assert_string_equal(a->qos[2].name, "normal_qos");
	assert_ptr_equal(a->qos[2].qos, &s->accounting->qos[2]);
	assert_int_equal(a->qos[2].max_jobs_pu, 4);
	assert_int_equal(a->qos[2].max_submit_pu, 8);
	assert_int_equal(a->qos[1].max_jobs_pu, 1);
	assert_int_equal(a->qos[0].max_jobs_pu, OC_NONE);

	oc_quota_rows_free(&rows, n);
	assert_null(rows);
	oc_snapshot_unref(&s);
}

static void test_account_without_gpu_limit(void **state)
{
	(void)state;
	struct oc_snapshot *s = demo_snapshot();
	add_job(s, "bench", "benchuser", "bench_qos", OC_JOB_RUNNING, 0, 0);
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *r = find_row(rows, n, "bench");
	assert_non_null(r);
	assert_false(r->has_gpu_limit);
	assert_int_equal(r->gpu.limit, OC_NOLIMIT);
	assert_int_equal(oc_quota_pct(r->gpu.used, r->gpu.limit), 0);
	assert_int_equal(oc_quota_fill(r->gpu.used, r->gpu.limit, 20), 0);
	assert_int_equal(r->run_jobs, 1);
	assert_int_equal(r->run_gpus, 0);
	assert_int_equal(r->nqos, 2);
	assert_string_equal(r->qos[1].name, "bench_qos");
	assert_string_equal(r->qos[1].top_user, "benchuser");
	assert_int_equal(r->qos[1].top_running, 1);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

/* Jobs whose user has no association in the account, and jobs of an
 * account without any association. */
static void test_jobs_without_association(void **state)
{
	(void)state;
	struct oc_snapshot *s = demo_snapshot();
	add_job(s, "team-a", "eve", "normal_qos", OC_JOB_RUNNING, 4, 0);
	add_job(s, "ghost", "mallory", "normal", OC_JOB_RUNNING, 8, 0);
	add_job(s, "ghost", "mallory", "normal", OC_JOB_PENDING, 2, OC_JF_LIMITED);
	add_job(s, NULL, "nobody", "normal", OC_JOB_RUNNING, 1, 0); /* no account: not listed */
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	assert_int_equal(n, 4);
	assert_string_equal(rows[1].account, "ghost");

	const struct oc_quota_row *a = find_row(rows, n, "team-a");
	const struct oc_quota_user *eve = find_user(a, "eve");
	assert_non_null(eve);
	assert_null(eve->assoc);
	assert_int_equal(eve->run_gpus, 4);
	assert_int_equal(a->nusers, 4);
	assert_string_equal(a->users[2].user, "eve"); /* sorted: alice bob eve opsview */
	assert_int_equal(a->run_gpus, 28);

	const struct oc_quota_row *g = &rows[1];
	assert_null(g->assoc);
	assert_false(g->has_gpu_limit);
	assert_int_equal(g->gpu.limit, OC_NOLIMIT);
	assert_int_equal(g->gpu.used, 8);         /* its own running jobs */
	assert_int_equal(g->cpu.used, 8 * 24);
	assert_int_equal(g->node.used, 1);
	assert_int_equal(g->mem.used, 0);
	assert_int_equal(g->pend_gpus, 2);
	assert_int_equal(g->limited_jobs, 1);
	assert_int_equal(g->nusers, 1);
	assert_null(g->users[0].assoc);
	assert_int_equal(g->nqos, 0);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

static void test_qos_closest_to_limit(void **state)
{
	(void)state;
	struct oc_snapshot *s = demo_snapshot();
	/* normal_qos: MaxJobsPU 4, MaxSubmitPU 8.
	 * bob: 1 (demo) + 2 running = 3/4 running, 3/8 submitted -> 0.75
	 * alice: 1 running + 6 pending = 1/4, 7/8 -> 0.875 (closest)
	 * dave (team-b): 1 pending (demo) */
	add_job(s, "team-a", "bob", "normal_qos", OC_JOB_RUNNING, 1, 0);
	add_job(s, "team-a", "bob", "normal_qos", OC_JOB_RUNNING, 1, 0);
	add_job(s, "team-a", "alice", "normal_qos", OC_JOB_RUNNING, 1, 0);
	for (int i = 0; i < 6; i++)
		add_job(s, "team-a", "alice", "normal_qos", OC_JOB_PENDING, 1, 0);
	/* debug_qos (1/2): bob has one running there in team-b's name too:
	 * per-user limits count all of the user's jobs in the QoS. */
	add_assoc(s, "team-b", "bob", OC_NOLIMIT, 0, "normal,debug_qos,normal_qos,large_qos");
	add_job(s, "team-b", "bob", "debug_qos", OC_JOB_RUNNING, 1, 0);
	add_job(s, "team-a", "bob", "debug_qos", OC_JOB_PENDING, 1, OC_JF_LIMITED);
	/* An account allowed a QoS that the table does not know. */
	add_assoc(s, "lab", NULL, 8, 0, "ghost_qos,normal_qos");

	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *a = find_row(rows, n, "team-a");
	const struct oc_quota_qos *q = find_qos(a, "normal_qos");
	assert_non_null(q);
	assert_string_equal(q->top_user, "alice");
	assert_int_equal(q->top_running, 1);
	assert_int_equal(q->top_submitted, 7);

	q = find_qos(a, "debug_qos");
	assert_string_equal(q->top_user, "bob");
	assert_int_equal(q->top_running, 1);   /* the team-b job counts */
	assert_int_equal(q->top_submitted, 2); /* at MaxSubmitPU */

	q = find_qos(a, "large_qos"); /* no limits: the busiest user */
	assert_string_equal(q->top_user, "alice");
	assert_int_equal(q->top_running, 1);
	assert_int_equal(q->top_submitted, 2);
	assert_int_equal(q->max_jobs_pu, OC_NONE);

	q = find_qos(a, "normal"); /* nobody has jobs in it */
	assert_null(q->top_user);
	assert_int_equal(q->top_running, 0);
	assert_int_equal(q->top_submitted, 0);

	/* bob is a user of team-b too (association): his team-a jobs in
	 * normal_qos put him closer to MaxJobsPU (3/4) than dave (1/8), also
	 * in team-b, since the limit counts all his jobs in the QoS. */
	const struct oc_quota_row *b = find_row(rows, n, "team-b");
	q = find_qos(b, "normal_qos");
	assert_string_equal(q->top_user, "bob");
	assert_int_equal(q->top_running, 3);
	assert_int_equal(q->top_submitted, 3);
	assert_non_null(find_user(b, "bob"));
	assert_int_equal(find_user(b, "bob")->run_jobs, 1);   /* team-b jobs only */
	assert_int_equal(find_user(b, "bob")->limited_jobs, 0);
	q = find_qos(b, "large_qos");
	assert_string_equal(q->top_user, "carol"); /* alice is not a team-b user */

	const struct oc_quota_row *lab = find_row(rows, n, "lab");
	assert_non_null(lab);
	assert_int_equal(lab->nusers, 0);
	assert_int_equal(lab->nqos, 2);
	assert_string_equal(lab->qos[0].name, "ghost_qos");
	assert_null(lab->qos[0].qos);
	assert_int_equal(lab->qos[0].max_jobs_pu, OC_NONE);
	assert_int_equal(lab->qos[0].max_submit_pu, OC_NONE);
	assert_null(lab->qos[0].top_user);
	assert_non_null(lab->qos[1].qos);
	assert_int_equal(lab->qos[1].max_submit_pu, 8);
	assert_true(lab->has_gpu_limit);
	assert_int_equal(lab->gpu.used, 0);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

/* Ties go to the user with more jobs; a limit of 0 beats everything. */
static void test_qos_ties_and_zero_limit(void **state)
{
	(void)state;
	struct oc_snapshot *s = snap_new();
	add_qos(s, "q", 2, OC_NONE);
	add_qos(s, "zero", 0, 4);
	add_assoc(s, "acct", NULL, OC_NOLIMIT, 0, "q,zero");
	add_job(s, "acct", "u1", "q", OC_JOB_RUNNING, 0, 0);
	add_job(s, "acct", "u2", "q", OC_JOB_RUNNING, 0, 0);
	add_job(s, "acct", "u2", "q", OC_JOB_PENDING, 0, 0);
	add_job(s, "acct", "u1", "zero", OC_JOB_PENDING, 0, 0);
	add_job(s, "acct", "u1", "zero", OC_JOB_PENDING, 0, 0);
	add_job(s, "acct", "u2", "zero", OC_JOB_RUNNING, 0, 0);
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	assert_int_equal(n, 1);
	const struct oc_quota_qos *q = find_qos(&rows[0], "q");
	assert_string_equal(q->top_user, "u2"); /* 1/2 each; u2 submitted more */
	assert_int_equal(q->top_submitted, 2);
	q = find_qos(&rows[0], "zero");
	assert_string_equal(q->top_user, "u2"); /* running with MaxJobsPU 0 */
	assert_int_equal(q->top_running, 1);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

static void test_root_only_with_limit(void **state)
{
	(void)state;
	struct oc_snapshot *s = demo_snapshot();
	add_job(s, "root", "root", "normal", OC_JOB_RUNNING, 8, 0);
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	assert_null(find_row(rows, n, "root"));
	oc_quota_rows_free(&rows, n);

	/* A limit on root (GrpJobs) brings it in. */
	s->accounting->assocs[0].grp_jobs = 100;
	n = oc_quota_rows(s, &rows);
	const struct oc_quota_row *r = find_row(rows, n, "root");
	assert_non_null(r);
	assert_string_equal(rows[0].account, "bench");
	assert_string_equal(rows[1].account, "root");
	assert_false(r->has_gpu_limit);
	assert_int_equal(r->gpu.used, 56);
	assert_int_equal(r->run_gpus, 8); /* its own jobs only */
	assert_int_equal(r->nusers, 1);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

/* An account with a per-partition association and a plain one: the plain
 * one is the account's, whichever comes first. */
static void test_partition_association(void **state)
{
	(void)state;
	struct oc_snapshot *s = snap_new();
	struct oc_assoc *p = add_assoc(s, "acct", NULL, 8, 1, NULL);
	p->partition = "debug";
	struct oc_assoc *plain = add_assoc(s, "acct", NULL, 16, 2, NULL);
	struct oc_assoc *up = add_assoc(s, "acct", "u", OC_NOLIMIT, 0, NULL);
	up->partition = "debug";
	struct oc_assoc *uplain = add_assoc(s, "acct", "u", OC_NOLIMIT, 0, NULL);
	struct oc_quota_row *rows = NULL;
	long n = oc_quota_rows(s, &rows);
	assert_int_equal(n, 1);
	assert_ptr_equal(rows[0].assoc, plain);
	assert_int_equal(rows[0].gpu.limit, 16);
	assert_int_equal(rows[0].nusers, 1);
	assert_ptr_equal(rows[0].users[0].assoc, uplain);
	assert_int_equal(rows[0].nqos, 0);
	assert_null(rows[0].qos);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

static void test_empty_tables(void **state)
{
	(void)state;
	struct oc_quota_row *rows = (struct oc_quota_row *)&rows; /* must be reset */
	assert_int_equal(oc_quota_rows(NULL, &rows), 0);
	assert_null(rows);

	struct oc_snapshot *s = oc_snapshot_new();
	assert_int_equal(oc_quota_rows(s, &rows), 0);
	assert_null(rows);

	/* Accounting disabled, no tables at all. */
	s->accounting->enabled = false;
	oc_accounting_unref(&s->accounting);
	oc_jobs_unref(&s->jobs);
	assert_int_equal(oc_quota_rows(s, &rows), 0);
	assert_null(rows);
	oc_quota_rows_free(&rows, 0);
	oc_quota_rows_free(NULL, 0);
	oc_snapshot_unref(&s);

	/* Only root: left out. */
	s = snap_new();
	add_assoc(s, "root", NULL, OC_NOLIMIT, 0, "normal");
	add_assoc(s, "root", "root", OC_NOLIMIT, 0, "normal");
	assert_int_equal(oc_quota_rows(s, &rows), 0);
	assert_null(rows);
	oc_snapshot_unref(&s);

	/* Jobs but accounting off: rows from jobs alone. */
	s = snap_new();
	s->accounting->enabled = false;
	add_job(s, "x", "u", NULL, OC_JOB_RUNNING, 8, 0);
	add_job(s, "x", NULL, NULL, OC_JOB_PENDING, 8, 0);
	long n = oc_quota_rows(s, &rows);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].run_gpus, 8);
	assert_int_equal(rows[0].pend_gpus, 8);
	assert_int_equal(rows[0].nusers, 1);
	oc_quota_rows_free(&rows, n);
	oc_snapshot_unref(&s);
}

static void test_pct(void **state)
{
	(void)state;
	assert_int_equal(oc_quota_pct(0, OC_NOLIMIT), 0);
	assert_int_equal(oc_quota_pct(1000, OC_NOLIMIT), 0);
	assert_int_equal(oc_quota_pct(0, 0), 0);       /* nothing of nothing */
	assert_int_equal(oc_quota_pct(1, 0), 100);     /* over a zero limit */
	assert_int_equal(oc_quota_pct(0, 64), 0);
	assert_int_equal(oc_quota_pct(24, 64), 37);    /* 37.5 rounded down */
	assert_int_equal(oc_quota_pct(63, 64), 98);
	assert_int_equal(oc_quota_pct(64, 64), 100);
	assert_int_equal(oc_quota_pct(72, 64), 100);   /* over: clamped */
	assert_int_equal(oc_quota_pct(1, 1000), 0);
	/* No overflow near the top of uint64. */
	assert_int_equal(oc_quota_pct(UINT64_MAX / 2, UINT64_MAX - 1), 50);
	assert_int_equal(oc_quota_pct(UINT64_MAX - 2, UINT64_MAX - 1), 99);
	assert_int_equal(oc_quota_pct(UINT64_MAX - 1, UINT64_MAX - 1), 100);
}

static void test_fill(void **state)
{
	(void)state;
	assert_int_equal(oc_quota_fill(0, 64, 10), 0);
	assert_int_equal(oc_quota_fill(1, 1000, 10), 1);   /* visible */
	assert_int_equal(oc_quota_fill(24, 64, 10), 3);
	assert_int_equal(oc_quota_fill(32, 64, 10), 5);
	assert_int_equal(oc_quota_fill(999, 1000, 10), 9); /* not full below the limit */
	assert_int_equal(oc_quota_fill(64, 64, 10), 10);
	assert_int_equal(oc_quota_fill(100, 64, 10), 10);
	assert_int_equal(oc_quota_fill(5, OC_NOLIMIT, 10), 0);
	assert_int_equal(oc_quota_fill(5, 64, 0), 0);
	assert_int_equal(oc_quota_fill(0, 0, 10), 0);
	assert_int_equal(oc_quota_fill(1, 0, 10), 10);
	assert_int_equal(oc_quota_fill(1, 2, 1), 0); /* width 1: full only at the limit */
	assert_int_equal(oc_quota_fill(2, 2, 1), 1);
	assert_int_equal(oc_quota_fill(UINT64_MAX / 2, UINT64_MAX - 1, 10), 4);
	assert_int_equal(oc_quota_fill(UINT64_MAX - 2, UINT64_MAX - 1, 10), 9);
}

static void expect_explain(const struct oc_snapshot *s, const struct oc_job *j, const char *words)
{
	char out[1024];
	oc_job_explain(s, j, 1000, out, sizeof(out));
	if (!strstr(out, words))
		fail_msg("explanation \"%s\" lacks \"%s\"", out, words);
}

static void test_job_explain(void **state)
{
	(void)state;
	struct oc_snapshot *s = snap_new();
	add_assoc(s, "team-a", NULL, 64, 24, "normal");
	add_assoc(s, "team-a", "alice", OC_NOLIMIT, 0, "normal");
	add_qos(s, "normal", 2, OC_NONE);
	add_job(s, "team-a", "alice", "normal", OC_JOB_RUNNING, 16, 0)->partition = "large";
	add_job(s, "team-a", "alice", "normal", OC_JOB_RUNNING, 8, 0)->partition = "large";
	struct oc_job *over = add_job(s, "team-a", "alice", "normal", OC_JOB_PENDING, 48, OC_JF_LIMITED);
	over->reason = "AssocGrpGRES";
	over->partition = "large";
	expect_explain(s, over, "team-a uses 24 of 64 GPUs (GrpTRES gres/gpu=64); this job asks 48 more: 72 would be over");
	over->gpus = 40; /* 24 + 40 = 64: fits */
	expect_explain(s, over, "that fits now");
	struct oc_job *qj = add_job(s, "team-a", "alice", "normal", OC_JOB_PENDING, 8, OC_JF_LIMITED);
	qj->reason = "QOSMaxJobsPerUserLimit";
	expect_explain(s, qj, "alice runs 2 jobs in QoS normal (MaxJobsPerUser 2): it starts when one of them ends.");
	struct oc_job *pr = add_job(s, "team-a", "alice", "normal", OC_JOB_PENDING, 8, 0);
	pr->reason = "Priority";
	pr->partition = "large";
	pr->priority = 10;
	over->priority = 20; /* one pending job of large ahead */
	expect_explain(s, pr, "1 pending job of large has a higher priority (this one: 10); it starts first.");
	over->priority = 5;
	expect_explain(s, pr, "0 pending jobs of large have a higher priority");
	over->priority = 20;
	struct oc_job *h = add_job(s, "team-a", "alice", "normal", OC_JOB_PENDING, 8, OC_JF_HELD);
	h->reason = "JobHeldUser";
	expect_explain(s, h, "Held by its user");
	h->reason = "AssocGrpCpuLimit";
	expect_explain(s, h, "An association or QoS limit holds it (AssocGrpCpuLimit)");
	h->reason = "SomethingNew";
	expect_explain(s, h, "Slurm says SomethingNew.");
	h->reason = NULL;
	expect_explain(s, h, "No reason yet");
	h->reason = "BeginTime";
	h->start_time = 5000; /* after now (1000) */
	expect_explain(s, h, "The scheduler expects it to start at");
	/* The limit of a parent account. */
	add_assoc(s, "lab", NULL, 16, 10, NULL);
	add_assoc(s, "team-x", NULL, OC_NOLIMIT, 2, NULL)->parent = "lab";
	struct oc_job *px = add_job(s, "team-x", "carol", "normal", OC_JOB_PENDING, 8, OC_JF_LIMITED);
	px->reason = "AssocGrpGRES";
	expect_explain(s, px, "its parent account lab uses 10 of 16 GPUs (GrpTRES gres/gpu=16); this job asks 8 more: 18");
	/* An account without a loaded limit: said, not guessed. */
	struct oc_job *nb = add_job(s, "team-b", "bob", "normal", OC_JOB_PENDING, 8, OC_JF_LIMITED);
	nb->reason = "AssocGrpGRES";
	expect_explain(s, nb, "the association's use is not loaded");
	/* A running job is not explained. */
	char out[64] = "x";
	assert_string_equal(oc_job_explain(s, &s->jobs->v[0], 1000, out, sizeof(out)), "");
	oc_snapshot_unref(&s);
}

/* ReqNodeNotAvail names the drained node and the reservation; Resources
 * counts the idle nodes. */
static void test_job_explain_nodes(void **state)
{
	(void)state;
	struct oc_snapshot *s = snap_new();
	s->nodes->v = oc_arena_alloc(&s->nodes->h.arena, sizeof(*s->nodes->v) * 4);
	s->partitions->v = oc_arena_alloc(&s->partitions->h.arena, sizeof(*s->partitions->v));
	s->reservations->v = oc_arena_alloc(&s->reservations->h.arena, sizeof(*s->reservations->v));
	assert_non_null(s->nodes->v);
	static const char *const names[] = {"n1", "n2", "n3", "n4"};
	for (int i = 0; i < 4; i++)
		s->nodes->v[s->nodes->n++] = (struct oc_node){.name = names[i], .base = OC_NODE_IDLE};
	s->nodes->v[1].flags = OC_NF_DRAIN;
	s->nodes->v[1].reason = "prolog: gpu count 7";
	s->nodes->v[2].base = OC_NODE_ALLOCATED;
	static uint32_t all[] = {0, 1, 2, 3}, two[] = {3};
	s->partitions->v[s->partitions->n++] =
		(struct oc_partition){.name = "large", .flags = OC_PF_UP, .node_idx = all, .node_count = 4};
	s->reservations->v[s->reservations->n++] = (struct oc_reservation){
		.name = "maint_x", .nodes = "n4", .flags = "MAINT", .start_time = 1500, .end_time = 9000,
		.node_idx = two, .node_idx_count = 1};
	struct oc_job *j = add_job(s, "team-a", "alice", "normal", OC_JOB_PENDING, 32, 0);
	j->partition = "large";
	j->time_limit_min = 60;
	j->reason = "ReqNodeNotAvail, UnavailableNodes:n2";
	expect_explain(s, j, "1 of 4 nodes of large cannot run jobs: n2 (drained: prolog: gpu count 7).");
	expect_explain(s, j, "Reservation maint_x (MAINT) holds n4 from");
	j->reason = "Resources";
	expect_explain(s, j, "It asks 4 nodes (32 GPUs); large has 2 idle nodes now");
	oc_snapshot_unref(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_arithmetic),
		cmocka_unit_test(test_account_without_gpu_limit),
		cmocka_unit_test(test_jobs_without_association),
		cmocka_unit_test(test_qos_closest_to_limit),
		cmocka_unit_test(test_qos_ties_and_zero_limit),
		cmocka_unit_test(test_root_only_with_limit),
		cmocka_unit_test(test_partition_association),
		cmocka_unit_test(test_empty_tables),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_job_explain),
		cmocka_unit_test(test_job_explain_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
