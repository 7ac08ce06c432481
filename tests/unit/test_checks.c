/* test_checks.c: the rehearsal engine on snapshots built by hand: every
 * check kind (pass and fail), value parsing, the session's progress file
 * (save, load, resume, refusals), the reports, and the runner with a fake
 * writer (actions, waits, timeouts, cleanup, abort). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/model.h"
#include "rehearsal/checklist.h"
#include "rehearsal/checks.h"
#include "rehearsal/report.h"
#include "rehearsal/runner.h"
#include "rehearsal/session.h"
#include "test_util.h"

/* ---- a snapshot by hand -------------------------------------------------- */

#define NNODES 6

/* Partition: name, nodes expression, flags, allow_groups, grace, first
 * node, count, total. */
struct part_def {
	const char *name, *nodes;
	uint32_t flags;
	const char *groups;
	uint32_t grace;
	uint32_t first, count, total;
};

static const struct part_def parts[] = {
	{"gpu", "n[1-6]", OC_PF_HIDDEN | OC_PF_UP, "root", 0, 0, 6, 6},
	{"debug", "n[1-2]", OC_PF_UP, NULL, 120, 0, 2, 2},
	{"normal", "n[1-4]", OC_PF_DEFAULT | OC_PF_UP, NULL, 600, 0, 4, 4},
	{"large", "n[1-6]", OC_PF_UP, NULL, 600, 0, 6, 6},
};

static void set_config(struct oc_snapshot *s, const char *const *kv, size_t n)
{
	struct oc_config *c = s->config;
	c->keys = oc_arena_alloc(&c->h.arena, n * sizeof(*c->keys));
	c->values = oc_arena_alloc(&c->h.arena, n * sizeof(*c->values));
	for (size_t i = 0; i < n; i++) {
		c->keys[i] = kv[2 * i];
		c->values[i] = kv[2 * i + 1];
	}
	c->n = n;
}

/* Nodes n1..n6: n1 alloc, n2 mix, n3 idle, n4 idle+drain ("prolog: gpu
 * count 7"), n5 idle, n6 down*; partitions as above; accounting with
 * team-a/team-b (gres/gpu=64), bench (none), root; QoS debug_qos 1/2;
 * the runbook's configuration. */
static struct oc_snapshot *snap_new(void)
{
	struct oc_snapshot *s = oc_snapshot_new();
	assert_non_null(s);
	time_t now = time(NULL);
	for (int p = 0; p < OC_PART_COUNT; p++)
		s->status[p].fetched = now;
	snprintf(s->cluster, sizeof(s->cluster), "test");

	struct oc_nodes *nt = s->nodes;
	nt->v = oc_arena_alloc(&nt->h.arena, NNODES * sizeof(*nt->v));
	static const char *const names[NNODES] = {"n1", "n2", "n3", "n4", "n5", "n6"};
	static const enum oc_node_base bases[NNODES] = {OC_NODE_ALLOCATED, OC_NODE_MIXED, OC_NODE_IDLE,
							OC_NODE_IDLE, OC_NODE_IDLE, OC_NODE_DOWN};
	for (int i = 0; i < NNODES; i++) {
		nt->v[i].name = names[i];
		nt->v[i].base = bases[i];
		nt->v[i].gpus = 8;
	}
	nt->v[3].flags = OC_NF_DRAIN;
	nt->v[3].reason = "prolog: gpu count 7";
	nt->v[5].flags = OC_NF_NOT_RESPONDING;
	nt->n = NNODES;
	nt->h.generation = 7;

	struct oc_partitions *pt = s->partitions;
	size_t np = sizeof(parts) / sizeof(parts[0]);
	pt->v = oc_arena_alloc(&pt->h.arena, np * sizeof(*pt->v));
	for (size_t i = 0; i < np; i++) {
		struct oc_partition *p = &pt->v[i];
		p->name = parts[i].name;
		p->nodes = parts[i].nodes;
		p->flags = parts[i].flags;
		p->allow_groups = parts[i].groups;
		p->allow_qos = NULL;
		p->grace_time_s = parts[i].grace;
		p->max_time_min = OC_NONE;
		p->total_nodes = parts[i].total;
		p->node_count = parts[i].count;
		p->node_idx = oc_arena_alloc(&pt->h.arena, NNODES * sizeof(uint32_t));
		for (uint32_t k = 0; k < p->node_count; k++)
			p->node_idx[k] = parts[i].first + k;
	}
	pt->n = np;
	pt->node_generation = 5;   /* older than the nodes: the indexes stay valid */

	struct oc_accounting *a = s->accounting;
	a->enabled = true;
	a->assocs = oc_arena_alloc(&a->h.arena, 5 * sizeof(*a->assocs));
	const char *accts[4] = {"root", "team-a", "team-b", "bench"};
	for (int i = 0; i < 4; i++) {
		struct oc_assoc *as = &a->assocs[i];
		as->account = accts[i];
		as->parent = i ? "root" : NULL;
		for (int k = 0; k < OC_TRES_KINDS; k++)
			as->grp[k].limit = OC_NOLIMIT;
		as->grp_jobs = as->grp_submit = as->max_jobs = as->max_submit = OC_NONE;
	}
	a->assocs[1].grp[OC_TRES_GPU].limit = 64;
	a->assocs[1].grp[OC_TRES_GPU].used = 24;
	a->assocs[1].grp_tres = "gres/gpu=64";
	a->assocs[2].grp[OC_TRES_GPU].limit = 64;
	a->assocs[2].grp_tres = "gres/gpu=64";
	/* alice's own association in team-a */
	a->assocs[4] = a->assocs[1];
	a->assocs[4].user = "alice";
	a->assocs[4].grp[OC_TRES_GPU].limit = OC_NOLIMIT;
	a->assocs[4].grp_tres = NULL;
	a->assocs[4].max_jobs = 10;
	a->nassocs = 5;
	a->qos = oc_arena_alloc(&a->h.arena, 2 * sizeof(*a->qos));
	a->qos[0].name = "debug_qos";
	a->qos[0].max_jobs_pu = 1;
	a->qos[0].max_submit_pu = 2;
	a->qos[0].priority = 1000;
	a->qos[1].name = "large_qos";
	a->qos[1].max_jobs_pu = a->qos[1].max_submit_pu = OC_NONE;
	a->qos[1].priority = 3000;
	for (int k = 0; k < OC_TRES_KINDS; k++)
		a->qos[0].grp[k].limit = a->qos[1].grp[k].limit = OC_NOLIMIT;
	a->nqos = 2;

	static const char *const kv[] = {
		"AccountingStorageEnforce", "associations,limits,qos",
		"JobRequeue", "1",
		"KillWait", "300 sec",
		"HealthCheckProgram", "/opt/ops/health/periodic-check.sh",
		"Prolog", "/opt/ops/health/prolog-gpu-quick.sh",
		"Epilog", "/fsx/ops/epilog-on-failure.sh",
		"PreemptMode", "REQUEUE",
		"MessageTimeout", "10 sec",
		"SchedulerTimeSlice", "00:00:30",
		"TaskProlog", "(null)",
	};
	set_config(s, kv, sizeof(kv) / sizeof(kv[0]) / 2);
	return s;
}

/* Jobs of the snapshot: ids, states, reasons. */
static void set_jobs(struct oc_snapshot *s, const struct oc_job *jobs, size_t n)
{
	struct oc_jobs *t = s->jobs;
	t->v = oc_arena_alloc(&t->h.arena, (n ? n : 1) * sizeof(*t->v));
	memcpy(t->v, jobs, n * sizeof(*jobs));
	t->n = n;
}

/* A check parsed from JSON (through a one-step checklist, so that the
 * loader's defaults apply). The checklist is kept in *cl. */
static const struct oc_check *parse_check(struct test_util_dir *f, const char *actions, const char *json,
					  struct oc_checklist **cl)
{
	char text[8192], path[4096], err[1024];
	snprintf(text, sizeof(text),
		 "{\"checklist\": \"t\", \"version\": 1, \"steps\": [{\"id\": \"s\", \"title\": \"T\", \"why\": \"w\", "
		 "\"do\": \"\", \"observe\": \"o\", \"actions\": [%s], \"check\": %s}]}",
		 actions ? actions : "", json);
	test_util_write_file(f, "c.json", text, path);
	*cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
	if (!*cl)
		print_error("%s\n", err);
	assert_non_null(*cl);
	return (*cl)->steps[0].check;
}

/* Evaluates json against in; asserts the verdict and that the evidence
 * contains needle (may be NULL). */
static void expect_verdict(struct test_util_dir *f, const char *actions, const char *json,
			   const struct oc_check_input *in, enum oc_verdict want, const char *needle)
{
	struct oc_checklist *cl;
	const struct oc_check *c = parse_check(f, actions, json, &cl);
	char ev[2048];
	enum oc_verdict v = oc_checks_eval(c, in, ev, sizeof(ev));
	if (v != want)
		print_error("check %s: verdict %d, want %d, evidence: %s\n", json, v, want, ev);
	assert_int_equal(v, want);
	if (needle)
		test_util_assert_contains(ev, needle);
	oc_checklist_free(&cl);
}

#define PASS OC_VERDICT_PASS
#define FAIL OC_VERDICT_FAIL
#define WAIT OC_VERDICT_WAIT

/* ---- values ------------------------------------------------------------- */

static void test_parse_number(void **state)
{
	(void)state;
	double v;
	assert_int_equal(oc_checks_parse_number("300 sec", &v), 0);
	assert_true(v == 300);
	assert_int_equal(oc_checks_parse_number("10 min", &v), 0);
	assert_true(v == 600);
	assert_int_equal(oc_checks_parse_number("2 hours", &v), 0);
	assert_true(v == 7200);
	assert_int_equal(oc_checks_parse_number("00:10:00", &v), 0);
	assert_true(v == 600);
	assert_int_equal(oc_checks_parse_number("1-00:00:30", &v), 0);
	assert_true(v == 86430);
	assert_int_equal(oc_checks_parse_number("5:30", &v), 0);
	assert_true(v == 330);
	assert_int_equal(oc_checks_parse_number(" 42 ", &v), 0);
	assert_true(v == 42);
	assert_int_equal(oc_checks_parse_number("UNLIMITED", &v), 0);
	assert_true(isinf(v));
	assert_int_equal(oc_checks_parse_number("300 furlongs", &v), -1);
	assert_int_equal(oc_checks_parse_number("", &v), -1);
	assert_int_equal(oc_checks_parse_number(NULL, &v), -1);
	assert_int_equal(oc_checks_parse_number("yes", &v), -1);

	assert_int_equal(oc_checks_hostlist_count("gpu-st-b300-[1-16]"), 16);
	assert_int_equal(oc_checks_hostlist_count("a,b[1-3,5],c"), 6);
	assert_int_equal(oc_checks_hostlist_count("r[1-2]n[1-4]"), 8);
	assert_int_equal(oc_checks_hostlist_count("single"), 1);
	assert_int_equal(oc_checks_hostlist_count("bad[3-1]"), -1);
	assert_int_equal(oc_checks_hostlist_count("bad[1-2"), -1);
	assert_int_equal(oc_checks_hostlist_count(""), -1);
}

/* ---- kinds --------------------------------------------------------------- */

static void test_check_config(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_check_input in = {.snap = s, .config = s->config};
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"JobRequeue\", \"equals\": 1}", &in, PASS, "JobRequeue=1");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"jobrequeue\", \"equals\": \"0\"}", &in, FAIL, "expected 0");
	expect_verdict(f, NULL,
		       "{\"kind\": \"config\", \"key\": \"AccountingStorageEnforce\", \"contains_all\": [\"limits\", \"qos\", \"associations\"]}",
		       &in, PASS, NULL);
	expect_verdict(f, NULL,
		       "{\"kind\": \"config\", \"key\": \"AccountingStorageEnforce\", \"contains_all\": [\"limits\", \"safe\"]}",
		       &in, FAIL, "missing safe");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"KillWait\", \"min\": 300}", &in, PASS, "KillWait=300 sec");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"KillWait\", \"min\": 600}", &in, FAIL, ">= 600");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"SchedulerTimeSlice\", \"max\": 30}", &in, PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"PreemptMode\", \"min\": 1}", &in, FAIL, "not a number");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"Prolog\", \"not_under\": [\"/fsx\", \"/lustre\"]}", &in,
		       PASS, "Prolog=/opt/ops");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"Epilog\", \"not_under\": [\"/fsx/\", \"/lustre\"]}", &in,
		       FAIL, "/fsx/ops/epilog-on-failure.sh is under /fsx/");
	/* unset values: "(null)" and absent keys */
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"TaskProlog\", \"not_under\": [\"/fsx\"]}", &in, FAIL,
		       "expected it to be set");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"HealthCheckNodeState\"}", &in, FAIL, "(not set)");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"JobRequeue\"}", &in, PASS, NULL);
	/* no configuration read: wait, saying why */
	struct oc_check_input none = {.snap = s, .config_error = "slurmctld does not answer"};
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"JobRequeue\", \"equals\": 1}", &none, WAIT,
		       "slurmctld does not answer");
	/* "/fsxa" is not under "/fsx" */
	static const char *const kv[] = {"Prolog", "/fsxa/p.sh,/opt/a.sh"};
	set_config(s, kv, 1);
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"Prolog\", \"not_under\": [\"/fsx\"]}", &in, PASS, NULL);
	static const char *const kv2[] = {"Prolog", "/opt/a.sh,/lustre/b.sh"};
	set_config(s, kv2, 1);
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"Prolog\", \"not_under\": [\"/fsx\", \"/lustre\"]}", &in,
		       FAIL, "/lustre/b.sh is under /lustre");
	/* 24.05 and later print "Prolog[0] = ...": the backends fold the
	 * indexed keys into "Prolog" (oc_config_fold_arrays), which the check
	 * reads like 22.05's single value. */
	static const char *const kv3[] = {"Prolog[0]", "/opt/a.sh", "Prolog[1]", "/lustre/b.sh", "Epilog[0]",
					  "/opt/e.sh"};
	set_config(s, kv3, 3);
	assert_int_equal(oc_config_fold_arrays(s->config), 0);
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"Prolog\", \"not_under\": [\"/fsx\", \"/lustre\"]}", &in,
		       FAIL, "/lustre/b.sh is under /lustre");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"Epilog\", \"not_under\": [\"/fsx\"]}", &in, PASS,
		       "Epilog=/opt/e.sh");
	expect_verdict(f, NULL, "{\"kind\": \"config\", \"key\": \"EpilogSlurmctld\", \"not_under\": [\"/fsx\"]}", &in,
		       FAIL, "expected it to be set");
	oc_snapshot_unref(&s);
}

static void test_check_partition(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_check_input in = {.snap = s};
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"normal\", \"property\": \"Default\", \"equals\": true}",
		       &in, PASS, "normal: Default=YES");
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"large\", \"property\": \"Default\", \"equals\": true}",
		       &in, FAIL, "large: Default=NO, expected YES");
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": true}",
		       &in, PASS, "gpu: Hidden=YES");
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"AllowGroups\", \"equals\": \"root\"}",
		       &in, PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"large\", \"property\": \"AllowGroups\", \"equals\": \"root\"}",
		       &in, FAIL, "AllowGroups=ALL");
	expect_verdict(f, NULL,
		       "{\"kind\": \"partition\", \"partition\": [\"normal\", \"large\"], \"property\": \"GraceTime\", \"min\": 600}",
		       &in, PASS, "large: GraceTime=600");
	expect_verdict(f, NULL,
		       "{\"kind\": \"partition\", \"partition\": [\"normal\", \"debug\"], \"property\": \"GraceTime\", \"min\": 600}",
		       &in, FAIL, "debug: GraceTime=120, expected >= 600");
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"gone\", \"property\": \"Hidden\", \"equals\": true}",
		       &in, FAIL, "no partition gone");
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"large\", \"property\": \"MaxTime\", \"equals\": \"UNLIMITED\"}",
		       &in, PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"large\", \"property\": \"State\", \"equals\": \"UP\"}",
		       &in, PASS, NULL);
	/* gpu made visible: the failure names Hidden */
	s->partitions->v[0].flags &= ~OC_PF_HIDDEN;
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": true}",
		       &in, FAIL, "gpu: Hidden=NO, expected YES");
	/* no partition data yet, or an error: wait */
	struct oc_snapshot *e = oc_snapshot_new();
	snprintf(e->status[OC_PART_PARTITIONS].error, sizeof(e->status[0].error), "Unable to contact slurm controller");
	struct oc_check_input ein = {.snap = e};
	expect_verdict(f, NULL, "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": true}",
		       &ein, WAIT, "Unable to contact");
	oc_snapshot_unref(&e);
	oc_snapshot_unref(&s);
}

static void test_check_partition_nodes(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_check_input in = {.snap = s};
	expect_verdict(f, NULL, "{\"kind\": \"partition_nodes\"}", &in, PASS, "gpu: 6 of 6 nodes exist");
	expect_verdict(f, NULL, "{\"kind\": \"partition_nodes\", \"partitions\": [\"debug\"]}", &in, PASS, "debug: 2 of 2");
	/* large names 8 nodes, 6 exist */
	s->partitions->v[3].nodes = "n[1-8]";
	expect_verdict(f, NULL, "{\"kind\": \"partition_nodes\"}", &in, FAIL, "large: Nodes=n[1-8] names 8");
	/* TotalNodes says more than the node table resolves */
	s->partitions->v[3].nodes = "n[1-6]";
	s->partitions->v[3].node_count = 5;
	expect_verdict(f, NULL, "{\"kind\": \"partition_nodes\", \"partitions\": \"large\"}", &in, FAIL, "5 found");
	expect_verdict(f, NULL, "{\"kind\": \"partition_nodes\", \"partitions\": \"nope\"}", &in, FAIL, "no partition nope");
	oc_snapshot_unref(&s);
}

static void test_check_accounts(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_check_input in = {.snap = s};
	expect_verdict(f, NULL, "{\"kind\": \"accounts_gpu_limit\", \"exclude\": [\"bench\"]}", &in, PASS,
		       "team-a gres/gpu=64, team-b gres/gpu=64");
	expect_verdict(f, NULL, "{\"kind\": \"accounts_gpu_limit\"}", &in, FAIL, "no GrpTRES gres/gpu on: bench");
	expect_verdict(f, NULL, "{\"kind\": \"accounts_gpu_limit\", \"tres\": \"cpu\", \"exclude\": \"bench\"}", &in, FAIL,
		       "team-a, team-b");
	s->accounting->enabled = false;
	expect_verdict(f, NULL, "{\"kind\": \"accounts_gpu_limit\"}", &in, FAIL, "accounting is off");
	s->accounting->enabled = true;

	expect_verdict(f, NULL, "{\"kind\": \"assoc_limit\", \"account\": \"team-a\", \"field\": \"GrpTRES\", \"tres\": \"gres/gpu\", \"equals\": 64}",
		       &in, PASS, "team-a: GrpTRES gres/gpu=64");
	expect_verdict(f, NULL, "{\"kind\": \"assoc_limit\", \"account\": \"team-a\", \"field\": \"GrpTRES\", \"tres\": \"gres/gpu\", \"max\": 32}",
		       &in, FAIL, "expected <= 32");
	expect_verdict(f, NULL, "{\"kind\": \"assoc_limit\", \"account\": \"bench\", \"field\": \"GrpTRES\", \"tres\": \"gres/gpu\", \"min\": 1}",
		       &in, FAIL, "expected it to be set");
	expect_verdict(f, NULL, "{\"kind\": \"assoc_limit\", \"account\": \"bench\", \"field\": \"MaxJobs\", \"equals\": \"none\"}",
		       &in, PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"assoc_limit\", \"account\": \"team-a\", \"user\": \"alice\", \"field\": \"MaxJobs\", \"equals\": 10}",
		       &in, PASS, "team-a/alice: MaxJobs=10");
	expect_verdict(f, NULL, "{\"kind\": \"assoc_limit\", \"account\": \"team-c\", \"field\": \"MaxJobs\", \"equals\": 1}",
		       &in, FAIL, "no association account=team-c");

	expect_verdict(f, NULL, "{\"kind\": \"qos_limit\", \"qos\": \"debug_qos\", \"field\": \"MaxSubmitJobsPerUser\", \"equals\": 2}",
		       &in, PASS, "debug_qos: MaxSubmitJobsPerUser=2");
	expect_verdict(f, NULL, "{\"kind\": \"qos_limit\", \"qos\": \"debug_qos\", \"field\": \"MaxJobsPerUser\", \"min\": 2}",
		       &in, FAIL, "expected >= 2");
	expect_verdict(f, NULL, "{\"kind\": \"qos_limit\", \"qos\": \"large_qos\", \"field\": \"MaxJobsPerUser\", \"max\": 4}",
		       &in, FAIL, "(not set)");
	expect_verdict(f, NULL, "{\"kind\": \"qos_limit\", \"qos\": \"large_qos\", \"field\": \"Priority\", \"min\": 3000}",
		       &in, PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"qos_limit\", \"qos\": \"x_qos\", \"field\": \"Priority\", \"min\": 1}",
		       &in, FAIL, "no QoS x_qos");
	oc_snapshot_unref(&s);
}

static void test_check_node(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_check_input in = {.snap = s};
	expect_verdict(f, NULL, "{\"kind\": \"node\", \"node\": \"n3\", \"state\": \"idle\", \"drain\": false, \"responding\": true}",
		       &in, PASS, "n3: IDLE");
	expect_verdict(f, NULL, "{\"kind\": \"node\", \"node\": \"n4\", \"state\": \"idle\", \"drain\": false}", &in, WAIT,
		       "reason \"prolog: gpu count 7\"");
	expect_verdict(f, NULL, "{\"kind\": \"node\", \"node\": \"n4\", \"drain\": true, \"reason_contains\": \"PROLOG\"}", &in,
		       PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"node\", \"node\": [\"n1\", \"n2\"], \"state\": [\"allocated\", \"mixed\"]}", &in,
		       PASS, NULL);
	expect_verdict(f, NULL, "{\"kind\": \"node\", \"node\": \"n6\", \"responding\": true}", &in, WAIT,
		       "n6: DOWN+NOT_RESPONDING (waiting for answering)");
	expect_verdict(f, NULL, "{\"kind\": \"node\", \"node\": \"n99\", \"state\": \"idle\"}", &in, FAIL, "no node n99");
	oc_snapshot_unref(&s);
}

static void test_check_idle_nodes(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_check_input in = {.snap = s};
	/* large: n3 and n5 idle (n4 drained, n6 down) */
	assert_int_equal(oc_checks_idle_nodes(s, "large"), 2);
	assert_int_equal(oc_checks_idle_nodes(s, "debug"), 0);
	assert_int_equal(oc_checks_idle_nodes(s, "nope"), -1);
	expect_verdict(f, NULL, "{\"kind\": \"idle_nodes\", \"partition\": \"large\", \"min\": 2}", &in, PASS, "2 idle nodes");
	expect_verdict(f, NULL, "{\"kind\": \"idle_nodes\", \"partition\": \"debug\"}", &in, WAIT, "0 idle nodes");
	expect_verdict(f, NULL, "{\"kind\": \"idle_nodes\", \"partition\": \"nope\"}", &in, FAIL, "no partition nope");
	/* n1 still completing a job (a cancelled one): named, not waited
	 * for; with n3 completing too, one idle node is too few */
	s->nodes->v[0].flags = OC_NF_COMPLETING;
	expect_verdict(f, NULL, "{\"kind\": \"idle_nodes\", \"partition\": \"large\", \"min\": 2}", &in, PASS,
		       "2 idle nodes (needs 2), 1 completing a job");
	s->nodes->v[2].flags = OC_NF_COMPLETING;
	expect_verdict(f, NULL, "{\"kind\": \"idle_nodes\", \"partition\": \"large\", \"min\": 2}", &in, WAIT,
		       "1 idle node (needs 2), 2 completing a job");
	s->nodes->v[2].flags = 0;
	s->nodes->v[0].flags = 0;
	expect_verdict(f, NULL, "{\"kind\": \"idle_nodes\", \"partition\": \"large\", \"min\": 2}", &in, PASS, NULL);
	oc_snapshot_unref(&s);
}

#define SUBMIT_P "{\"kind\": \"submit_job\", \"label\": \"p\", \"user\": \"alice\"}"

static void test_check_job(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_snapshot *s = snap_new();
	struct oc_step_rec rec;
	memset(&rec, 0, sizeof(rec));
	struct oc_step_job *sj = oc_step_rec_add_job(&rec, "p", 42);
	struct oc_check_input in = {.snap = s, .rec = &rec};
	struct oc_job jobs[2];
	memset(jobs, 0, sizeof(jobs));
	jobs[0].job_id = 42;
	jobs[0].state = OC_JOB_PENDING;
	jobs[0].reason = "AssocGrpGRES";
	jobs[1].job_id = 43;
	jobs[1].state = OC_JOB_RUNNING;
	set_jobs(s, jobs, 2);
	const char *want_pending = "{\"kind\": \"job\", \"job\": \"p\", \"state\": \"PENDING\", \"reason\": [\"AssocGrpGRES\", \"AssocGrpTRES\"]}";
	expect_verdict(f, SUBMIT_P, want_pending, &in, PASS, "job 42 (p): PENDING, reason AssocGrpGRES");
	/* running: not yet as expected */
	s->jobs->v[0].state = OC_JOB_RUNNING;
	s->jobs->v[0].reason = NULL;
	s->jobs->v[0].nodes = "n3";
	expect_verdict(f, SUBMIT_P, want_pending, &in, WAIT, "expected PENDING with reason AssocGrpGRES");
	/* ended: no use waiting */
	s->jobs->v[0].state = OC_JOB_CANCELLED;
	expect_verdict(f, SUBMIT_P, want_pending, &in, FAIL, "(ended)");
	/* not in the queue yet */
	s->jobs->v[0].job_id = 41;
	expect_verdict(f, SUBMIT_P, want_pending, &in, WAIT, "not in the queue");
	s->jobs->v[0].job_id = 42;

	/* requeued: seen running, now pending */
	const char *want_rq = "{\"kind\": \"job\", \"job\": \"p\", \"requeued\": true}";
	s->jobs->v[0].state = OC_JOB_RUNNING;
	s->jobs->v[0].start_time = 1000;
	assert_true(oc_checks_observe(&rec, s));
	assert_true(sj->seen_running);
	assert_int_equal(sj->first_start, 1000);
	assert_string_equal(sj->nodes, "n3");
	assert_false(oc_checks_observe(&rec, s));   /* nothing new */
	expect_verdict(f, SUBMIT_P, want_rq, &in, WAIT, "not requeued");
	s->jobs->v[0].state = OC_JOB_PENDING;
	s->jobs->v[0].reason = "BeginTime";
	expect_verdict(f, SUBMIT_P, want_rq, &in, PASS, "was running on n3, requeued");
	/* or running again, started later */
	s->jobs->v[0].state = OC_JOB_RUNNING;
	s->jobs->v[0].start_time = 2000;
	expect_verdict(f, SUBMIT_P, want_rq, &in, PASS, NULL);
	/* the flag alone */
	sj->seen_running = false;
	s->jobs->v[0].flags = OC_JF_REQUEUED;
	s->jobs->v[0].state = OC_JOB_COMPLETE;
	expect_verdict(f, SUBMIT_P, want_rq, &in, PASS, NULL);

	/* a label with several jobs (record_jobs): all must match */
	oc_step_rec_add_job(&rec, "before", 42);
	oc_step_rec_add_job(&rec, "before", 43);   /* may move rec.jobs: use indexes */
	rec.jobs[1].recorded = rec.jobs[2].recorded = true;
	s->jobs->v[0].state = OC_JOB_RUNNING;
	s->jobs->v[0].flags = 0;
	expect_verdict(f, "{\"kind\": \"record_jobs\", \"label\": \"before\"}",
		       "{\"kind\": \"job\", \"job\": \"before\", \"state\": \"RUNNING\"}", &in, PASS, "job 43 (before): RUNNING");
	s->jobs->v[1].state = OC_JOB_NODE_FAIL;
	expect_verdict(f, "{\"kind\": \"record_jobs\", \"label\": \"before\"}",
		       "{\"kind\": \"job\", \"job\": \"before\", \"state\": \"RUNNING\"}", &in, FAIL, "job 43 (before): NODE_FAIL");

	/* no job under the label: its submission was refused */
	struct oc_step_rec empty;
	memset(&empty, 0, sizeof(empty));
	struct oc_check_input ein = {.snap = s, .rec = &empty};
	expect_verdict(f, SUBMIT_P, want_pending, &ein, FAIL, "no job under the label p");
	oc_step_rec_clear_run(&rec);
	oc_snapshot_unref(&s);
}

static void test_check_submit(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_step_rec rec;
	memset(&rec, 0, sizeof(rec));
	oc_step_rec_add_submit(&rec, "p", 1, 0,
			       "sbatch: error: QOSMaxSubmitJobPerUserLimit / sbatch: error: Batch job submission failed");
	struct oc_check_input in = {.rec = &rec};
	expect_verdict(f, SUBMIT_P, "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"refused\", \"contains\": \"maxsubmitjob\"}",
		       &in, PASS, "submission p refused: sbatch: error: QOSMaxSubmitJobPerUserLimit");
	expect_verdict(f, SUBMIT_P, "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"refused\", \"contains\": \"not permitted\"}",
		       &in, FAIL, "expected Slurm's answer to contain \"not permitted\"");
	expect_verdict(f, SUBMIT_P, "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"accepted\"}", &in, FAIL,
		       "expected it to be accepted");
	oc_step_rec_clear_run(&rec);
	oc_step_rec_add_submit(&rec, "p", 0, 77, "");
	expect_verdict(f, SUBMIT_P, "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"refused\"}", &in, FAIL,
		       "accepted as job 77 (expected it to be refused)");
	oc_step_rec_clear_run(&rec);
	oc_step_rec_add_submit(&rec, "p", -1, 0, "no such user");
	expect_verdict(f, SUBMIT_P, "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"refused\"}", &in, FAIL,
		       "could not be tried: no such user");
	oc_step_rec_clear_run(&rec);
	expect_verdict(f, SUBMIT_P, "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"refused\"}", &in, FAIL,
		       "nothing was submitted");
}

/* "never_runs" (mu-gpu-refused): refused at once (22.05), or accepted and
 * ended by Slurm without running (25.11 with EnforcePartLimits=NO). */
static void test_check_submit_never_runs(void **state)
{
	struct test_util_dir *f = *state;
	const char *want = "{\"kind\": \"submit\", \"job\": \"p\", \"result\": \"never_runs\", \"contains\": \"permitted\"}";
	struct oc_snapshot *s = snap_new();
	struct oc_step_rec rec;
	memset(&rec, 0, sizeof(rec));
	struct oc_check_input in = {.snap = s, .rec = &rec};
	/* 22.05: refused */
	oc_step_rec_add_submit(&rec, "p", 1, 0, "sbatch: error: Batch job submission failed: User's group not permitted to use this partition");
	expect_verdict(f, SUBMIT_P, want, &in, PASS, "refused: sbatch: error");
	oc_step_rec_clear_run(&rec);
	oc_step_rec_add_submit(&rec, "p", 1, 0, "sbatch: error: Invalid qos specification");
	expect_verdict(f, SUBMIT_P, want, &in, FAIL, "expected Slurm's answer to contain \"permitted\"");
	oc_step_rec_clear_run(&rec);

	/* 25.11: accepted, then cancelled at once with the group reason */
	oc_step_rec_add_submit(&rec, "p", 0, 42, "");
	oc_step_rec_add_job(&rec, "p", 42);
	struct oc_job jobs[1];
	memset(jobs, 0, sizeof(jobs));
	jobs[0].job_id = 42;
	jobs[0].state = OC_JOB_CANCELLED;
	jobs[0].reason = "uid_1001_not_in_group_permitted_to_use_this_partition_(gpu)";
	set_jobs(s, jobs, 1);
	expect_verdict(f, SUBMIT_P, want, &in, PASS, "accepted as job 42, CANCELLED, reason uid_1001_not_in_group_permitted");
	/* Slurm sets the start time of a pending job it cancels: not a run */
	s->jobs->v[0].start_time = 1000;
	expect_verdict(f, SUBMIT_P, want, &in, PASS, "ended without running");
	s->jobs->v[0].start_time = 0;
	/* ended for another reason */
	s->jobs->v[0].reason = "None";
	expect_verdict(f, SUBMIT_P, want, &in, FAIL, "expected the reason to contain \"permitted\"");
	/* still pending for another reason: not yet */
	s->jobs->v[0].state = OC_JOB_PENDING;
	s->jobs->v[0].reason = "JobHeldUser";
	expect_verdict(f, SUBMIT_P, want, &in, WAIT, "expected Slurm to end it without running it");
	/* 24.11: pending with the refusal as its reason */
	s->jobs->v[0].reason = "uid 1000 not in group permitted to use this partition (gpu). groups allowed: root";
	expect_verdict(f, SUBMIT_P, want, &in, PASS, "pending, and Slurm will not start it");
	/* it ran: the runbook's intent is broken */
	s->jobs->v[0].state = OC_JOB_RUNNING;
	s->jobs->v[0].start_time = 1000;
	s->jobs->v[0].nodes = "n3";
	expect_verdict(f, SUBMIT_P, want, &in, FAIL, "and it ran on n3 (expected it never to run)");
	/* ran and ended since: still a failure */
	s->jobs->v[0].state = OC_JOB_CANCELLED;
	s->jobs->v[0].reason = "uid_1001_not_in_group_permitted_to_use_this_partition_(gpu)";
	expect_verdict(f, SUBMIT_P, want, &in, FAIL, "and it ran");
	/* gone from the queue: cannot tell */
	s->jobs->v[0].job_id = 41;
	expect_verdict(f, SUBMIT_P, want, &in, WAIT, "cannot tell whether it ran");
	oc_step_rec_clear_run(&rec);
	oc_snapshot_unref(&s);
}

static void test_check_sacct_file_accounting(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_check_input in = {.sacct = "alice team-a 3\nbob team-a 2\ncarol team-b 1\n", .sacct_since_hours = 24};
	expect_verdict(f, NULL, "{\"kind\": \"sacct\", \"users\": [\"alice\", \"bob\"]}", &in, PASS, "alice team-a 3");
	expect_verdict(f, NULL, "{\"kind\": \"sacct\", \"users\": [\"alice\", \"dave\"]}", &in, WAIT, "no line for dave");
	expect_verdict(f, NULL, "{\"kind\": \"sacct\", \"users\": \"ali\"}", &in, WAIT, "no line for ali");
	struct oc_check_input err_in = {.sacct_error = "slurmdbd does not answer"};
	expect_verdict(f, NULL, "{\"kind\": \"sacct\", \"users\": \"alice\"}", &err_in, WAIT, "slurmdbd does not answer");

	/* file, with the job id of a label in its path */
	struct oc_step_rec rec;
	memset(&rec, 0, sizeof(rec));
	oc_step_rec_add_job(&rec, "p", 4711);
	char path[4096], check[4400];
	test_util_at(f, "sig.${job:p}", path);
	snprintf(check, sizeof(check), "{\"kind\": \"file\", \"path\": \"%s\", \"contains\": \"USR1\"}", path);
	struct oc_check_input fin = {.rec = &rec};
	expect_verdict(f, SUBMIT_P, check, &fin, WAIT, "sig.4711: not there");
	test_util_write_file(f, "sig.4711", "nothing\n", path);
	expect_verdict(f, SUBMIT_P, check, &fin, WAIT, "without \"USR1\"");
	test_util_write_file(f, "sig.4711", "USR1\n", path);
	expect_verdict(f, SUBMIT_P, check, &fin, PASS, "sig.4711: there (5 bytes: \"USR1\")");
	char out[64];
	assert_int_equal(oc_checks_expand("a ${job:p} ${nodes:p} ${x}", &rec, out, sizeof(out)), -1);
	test_util_assert_contains(out, "a 4711 (job 4711 has not run yet) ${x}");
	snprintf(rec.jobs[0].nodes, sizeof(rec.jobs[0].nodes), "n[1-2]");
	assert_int_equal(oc_checks_expand("${nodes:p}/${job:p}", &rec, out, sizeof(out)), 0);
	assert_string_equal(out, "n[1-2]/4711");
	assert_int_equal(oc_checks_expand("${job:q}", &rec, out, sizeof(out)), -1);
	oc_step_rec_clear_run(&rec);

	/* accounting: slurmdbd up or down */
	struct oc_snapshot *s = snap_new();
	struct oc_check_input ain = {.snap = s};
	expect_verdict(f, NULL, "{\"kind\": \"accounting\", \"slurmdbd\": \"up\"}", &ain, PASS, "slurmdbd answers");
	expect_verdict(f, NULL, "{\"kind\": \"accounting\", \"slurmdbd\": \"down\"}", &ain, WAIT, "be unreachable");
	snprintf(s->accounting->dbd_error, sizeof(s->accounting->dbd_error), "slurmdbd unreachable since 14:02:11");
	expect_verdict(f, NULL, "{\"kind\": \"accounting\", \"slurmdbd\": \"down\"}", &ain, PASS, "unreachable since 14:02:11");

	/* all: every part, the worst verdict wins */
	expect_verdict(f, NULL,
		       "{\"kind\": \"all\", \"checks\": [{\"kind\": \"accounting\", \"slurmdbd\": \"down\"}, "
		       "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": true}]}",
		       &ain, PASS, "; gpu: Hidden=YES");
	expect_verdict(f, NULL,
		       "{\"kind\": \"all\", \"checks\": [{\"kind\": \"accounting\", \"slurmdbd\": \"up\"}, "
		       "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": true}]}",
		       &ain, WAIT, NULL);
	expect_verdict(f, NULL,
		       "{\"kind\": \"all\", \"checks\": [{\"kind\": \"accounting\", \"slurmdbd\": \"up\"}, "
		       "{\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": false}]}",
		       &ain, FAIL, NULL);
	oc_snapshot_unref(&s);
}

/* ---- session ------------------------------------------------------------- */

static struct oc_checklist *load_text(struct test_util_dir *f, const char *rel, const char *text)
{
	char path[4096], err[1024];
	test_util_write_file(f, rel, text, path);
	struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
	if (!cl)
		print_error("%s\n", err);
	assert_non_null(cl);
	return cl;
}

static const char three_steps[] =
	"{\"checklist\": \"three\", \"version\": 1, \"steps\": ["
	"{\"id\": \"a\", \"title\": \"A\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\", \"auto\": true,"
	" \"check\": {\"kind\": \"partition\", \"partition\": \"gpu\", \"property\": \"Hidden\", \"equals\": true}},"
	"{\"id\": \"b\", \"title\": \"B\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\", \"auto\": true,"
	" \"timeout\": 1,"
	" \"actions\": [{\"kind\": \"submit_job\", \"label\": \"p\", \"user\": \"alice\", \"partition\": \"large\"}],"
	" \"check\": {\"kind\": \"job\", \"job\": \"p\", \"state\": \"PENDING\", \"reason\": \"AssocGrpGRES\"}},"
	"{\"id\": \"c\", \"title\": \"C\", \"why\": \"w\", \"do\": \"stop slurmdbd\", \"observe\": \"o\","
	" \"actions\": [{\"kind\": \"drain\", \"nodes\": \"n3\", \"undo\": true}]}"
	"]}";

static void test_session(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "three.json", three_steps);
	char path[4096], err[1024];
	test_util_at(f, "state/sub/progress.json", path);
	struct oc_session *s = NULL;
	assert_int_equal(oc_session_open(cl, "llm-poc", path, false, &s, err, sizeof(err)), 0);
	assert_false(s->resumed);
	assert_int_equal(s->nsteps, 3);
	assert_int_equal(oc_session_next(s), 0);
	assert_true(s->operator_user[0] != '\0');
	/* a verdict saves at once (directories made) */
	assert_int_equal(oc_session_mark(s, 0, OC_STEP_PASSED, "looked fine", "operator", err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(oc_session_next(s), 1);
	/* step b "running" with a job, as a session that dies mid-step leaves it */
	struct oc_step_rec *b = &s->steps[1];
	b->state = OC_STEP_RUNNING;
	b->started = 100.5;
	oc_step_rec_add_job(b, "p", 812)->seen_running = true;
	oc_step_rec_add_submit(b, "p", 0, 812, "");
	oc_step_rec_set_evidence(b, "job 812 (p): RUNNING");
	oc_step_rec_push(&s->steps[2].undrain, &s->steps[2].nundrain, "n3");
	assert_int_equal(oc_session_note(s, 0, "second line", err, sizeof(err)), 0);
	oc_session_free(&s);
	assert_null(s);

	/* resume */
	assert_int_equal(oc_session_open(cl, "llm-poc", path, false, &s, err, sizeof(err)), 0);
	assert_true(s->resumed);
	assert_int_equal(s->steps[0].state, OC_STEP_PASSED);
	assert_string_equal(s->steps[0].notes, "looked fine\nsecond line");
	assert_string_equal(s->steps[0].by, "operator");
	assert_true(s->steps[0].ended >= s->steps[0].started && s->steps[0].started > 0);
	assert_int_equal(s->steps[1].state, OC_STEP_NOT_RUN);   /* was running: not run again */
	test_util_assert_contains(s->steps[1].notes, "interrupted");
	assert_int_equal(s->steps[1].njobs, 1);                  /* kept for the cleanup */
	assert_int_equal(s->steps[1].jobs[0].id, 812);
	assert_true(s->steps[1].jobs[0].seen_running);
	assert_int_equal(s->steps[1].nsubmits, 1);
	assert_string_equal(s->steps[1].evidence, "job 812 (p): RUNNING");
	assert_int_equal(s->steps[2].nundrain, 1);
	assert_int_equal(oc_session_next(s), 1);
	assert_int_equal(oc_session_count(s, OC_STEP_PASSED), 1);
	assert_int_equal(oc_session_count(s, OC_STEP_NOT_RUN), 2);
	oc_session_free(&s);

	/* reset: a new session, the file is replaced at the next save */
	assert_int_equal(oc_session_open(cl, "llm-poc", path, true, &s, err, sizeof(err)), 0);
	assert_false(s->resumed);
	assert_int_equal(s->steps[0].state, OC_STEP_NOT_RUN);
	oc_session_free(&s);

	/* refused: another cluster, another checklist, a broken file */
	assert_int_equal(oc_session_open(cl, "other", path, false, &s, err, sizeof(err)), -1);
	test_util_assert_contains(err, "progress of cluster \"llm-poc\", not \"other\"");
	assert_null(s);
	struct oc_checklist *cl2 = load_text(f, "two.json",
					     "{\"checklist\": \"two\", \"version\": 1, \"steps\": [{\"id\": \"a\", \"title\": \"A\", "
					     "\"why\": \"w\", \"do\": \"\", \"observe\": \"o\"}]}");
	assert_int_equal(oc_session_open(cl2, "llm-poc", path, false, &s, err, sizeof(err)), -1);
	test_util_assert_contains(err, "checklist \"three\", not \"two\"");
	oc_checklist_free(&cl2);
	char bad[4096];
	test_util_write_file(f, "bad.json", "{\n \"format\": \"opsconsole-rehearsal-progress\",\n x\n}\n", bad);
	assert_int_equal(oc_session_open(cl, "llm-poc", bad, false, &s, err, sizeof(err)), -1);
	test_util_assert_contains(err, "bad.json:3:");
	test_util_write_file(f, "bad2.json", "{\"format\": \"something\"}", bad);
	assert_int_equal(oc_session_open(cl, "llm-poc", bad, false, &s, err, sizeof(err)), -1);
	test_util_assert_contains(err, "not a rehearsal progress file");
	/* no path: never saved, saving works */
	s = oc_session_new(cl, "llm-poc", NULL);
	assert_int_equal(oc_session_save(s, err, sizeof(err)), 0);
	assert_int_equal(oc_session_mark(s, 9, OC_STEP_PASSED, NULL, NULL, err, sizeof(err)), -1);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* ---- reports ------------------------------------------------------------- */

/* The three steps run: a failed with a note, b passed with a cancelled
 * job, c skipped; sudo from kim. */
static struct oc_session *report_session(struct test_util_dir *f, struct oc_checklist **clp)
{
	struct oc_checklist *cl = *clp = load_text(f, "three.json", three_steps);
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	snprintf(s->sudo_user, sizeof(s->sudo_user), "kim");
	char err[512];
	s->steps[0].started = 1000;
	oc_step_rec_set_evidence(&s->steps[0], "gpu: Hidden=NO, expected YES");
	oc_session_mark(s, 0, OC_STEP_FAILED, "gpu | visible", "auto", err, sizeof(err));
	s->steps[0].ended = 1002.5;
	s->steps[1].started = 2000;
	oc_step_rec_add_job(&s->steps[1], "p", 55)->cancelled = true;
	oc_step_rec_set_evidence(&s->steps[1], "job 55 (p): PENDING, reason AssocGrpGRES\nsubmitted job 55 (p): sbatch ...");
	oc_session_mark(s, 1, OC_STEP_PASSED, NULL, "auto", err, sizeof(err));
	s->steps[1].ended = 2061;
	oc_step_rec_set_evidence(&s->steps[2], "skipped: needs an operator");
	oc_session_mark(s, 2, OC_STEP_SKIPPED, NULL, "auto", err, sizeof(err));
	return s;
}

static void test_report(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl;
	struct oc_session *s = report_session(f, &cl);
	char err[512];

	char *md = oc_report_markdown(s, cl, 5000);
	assert_non_null(md);
	test_util_assert_contains(md, "# Failure rehearsal: llm-poc");
	test_util_assert_contains(md, "| Operator | ");
	test_util_assert_contains(md, "(sudo from kim)");
	test_util_assert_contains(md, "1 passed, 1 failed, 1 skipped, 0 not run (of 3)");
	test_util_assert_contains(md, "| 1 | `a` A | FAIL | 2.5 s | gpu: Hidden=NO, expected YES |");
	test_util_assert_contains(md, "| 2 | `b` B | PASS | 1m 01s | job 55 (p): PENDING, reason AssocGrpGRES |");
	test_util_assert_contains(md, "#### 3. `c`: C: SKIP");
	test_util_assert_contains(md, "- Jobs: 55 (p, cancelled)");
	test_util_assert_contains(md, "  - gpu | visible");
	test_util_assert_contains(md, "- Do: stop slurmdbd");
	assert_null(strstr(md, "| Note |"));
	assert_null(strstr(md, "\n### "));
	free(md);

	char *js = oc_report_json(s, cl, 5000);
	assert_non_null(js);
	json_error_t jerr;
	json_t *root = json_loads(js, 0, &jerr);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "cluster")), "llm-poc");
	assert_string_equal(json_string_value(json_object_get(json_object_get(root, "operator"), "sudo_user")), "kim");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(root, "summary"), "failed")), 1);
	json_t *steps = json_object_get(root, "steps");
	assert_int_equal(json_array_size(steps), 3);
	json_t *st0 = json_array_get(steps, 0);
	assert_string_equal(json_string_value(json_object_get(st0, "id")), "a");
	assert_string_equal(json_string_value(json_object_get(st0, "result")), "failed");
	assert_true(json_real_value(json_object_get(st0, "duration_s")) == 2.5);
	assert_string_equal(json_string_value(json_object_get(st0, "evidence")), "gpu: Hidden=NO, expected YES");
	assert_string_equal(json_string_value(json_object_get(json_array_get(steps, 2), "result")), "skipped");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(json_array_get(steps, 1), "jobs"), 0), "id")), 55);
	json_decref(root);
	free(js);

	char dir[4096], p[4400];
	test_util_at(f, "out/report", dir);
	assert_int_equal(oc_report_write(dir, s, cl, 5000, err, sizeof(err)), 0);
	snprintf(p, sizeof(p), "%s/report.md", dir);
	assert_int_equal(access(p, R_OK), 0);
	snprintf(p, sizeof(p), "%s/report.json", dir);
	assert_int_equal(access(p, R_OK), 0);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* The header's checklist line and notice, section headings, and a
 * report without the checklist. */
static void test_report_sections(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl;
	struct oc_session *s = report_session(f, &cl);
	char *md;

	/* a title other than the name, a notice, sections (a heading where
	 * the section changes) */
	cl->title = "Drills";
	oc_checklist_set_notice(cl, "the default checklist");
	cl->steps[0].section = "Config";
	cl->steps[1].section = "Config";
	cl->steps[2].section = "Jobs";
	md = oc_report_markdown(s, cl, 5000);
	assert_non_null(md);
	test_util_assert_contains(md, "| Checklist | three: Drills (`");
	test_util_assert_contains(md, "| Note | the default checklist |\n");
	test_util_assert_contains(md, "\n## Steps\n\n### Config\n\n#### 1. `a`: A: FAIL\n");
	test_util_assert_contains(md, "\n#### 2. `b`: B: PASS\n");
	test_util_assert_contains(md, "\n### Jobs\n\n#### 3. `c`: C: SKIP\n");
	assert_null(strstr(strstr(md, "### Config") + 1, "### Config"));
	free(md);
	/* no checklist at hand: the name alone, steps without titles */
	md = oc_report_markdown(s, NULL, 5000);
	assert_non_null(md);
	test_util_assert_contains(md, "| Checklist | three (`");
	test_util_assert_contains(md, "\n#### 1. `a`: : FAIL\n");
	assert_null(strstr(md, "- Why:"));
	free(md);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* ---- the runner, with a fake writer -------------------------------------- */

struct fake {
	uint32_t next_id;
	int submit_rc;          /* what submit_job answers */
	char refuse_text[128];
	uint32_t cancelled[16];
	int ncancelled;
	int signals[16];
	char drained[64];
	char resumed[64];
	bool resume_ok;         /* resume succeeds (else: "Invalid node state") */
	char resv_created[128], resv_deleted[128];
	long resv_minutes;
	int config_reads;
	char fail_text[64];     /* when set: reservation deletes and resumes fail with it */
};

static int fk_submit(void *ctx, const struct oc_job_spec *spec, uint32_t *job_id, char *err, size_t errlen)
{
	struct fake *fk = ctx;
	assert_string_equal(spec->user, "alice");
	if (fk->submit_rc == 1) {
		snprintf(err, errlen, "%s", fk->refuse_text);
		return 1;
	}
	*job_id = fk->next_id++;
	return 0;
}

static int fk_cancel(void *ctx, uint32_t id, int sig, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct fake *fk = ctx;
	if (fk->ncancelled < 16) {
		fk->signals[fk->ncancelled] = sig;
		fk->cancelled[fk->ncancelled++] = id;
	}
	return 0;
}

static int fk_node_update(void *ctx, const char *expr, enum oc_node_op op, const char *reason, char *err, size_t errlen)
{
	(void)reason;
	struct fake *fk = ctx;
	if (op == OC_NODE_OP_DRAIN) {
		snprintf(fk->drained, sizeof(fk->drained), "%s", expr);
	} else {
		snprintf(fk->resumed, sizeof(fk->resumed), "%s", expr);
		if (fk->fail_text[0]) {
			snprintf(err, errlen, "%s", fk->fail_text);
			return -1;
		}
		if (fk->resume_ok)
			return 0;
		snprintf(err, errlen, "Invalid node state specified");
		return -1;   /* the node is no longer drained: nothing to undo */
	}
	return 0;
}

static int fk_resv_create(void *ctx, const struct oc_resv_spec *spec, char *name_out, size_t name_len, char *err,
			  size_t errlen)
{
	(void)err;
	(void)errlen;
	struct fake *fk = ctx;
	snprintf(fk->resv_created, sizeof(fk->resv_created), "%.32s %.32s %.32s", spec->nodes, spec->users, spec->flags);
	fk->resv_minutes = spec->duration_min;
	snprintf(name_out, name_len, "%s", spec->name[0] ? spec->name : "root_1");
	return 0;
}

static int fk_resv_delete(void *ctx, const char *name, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct fake *fk = ctx;
	if (fk->fail_text[0]) {
		snprintf(err, errlen, "%s", fk->fail_text);
		return -1;
	}
	snprintf(fk->resv_deleted, sizeof(fk->resv_deleted), "%s", name);
	return 0;
}

static int fk_read_config(void *ctx, struct oc_config **out, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct fake *fk = ctx;
	fk->config_reads++;
	struct oc_config *c = oc_config_new();
	c->keys = oc_arena_alloc(&c->h.arena, sizeof(*c->keys));
	c->values = oc_arena_alloc(&c->h.arena, sizeof(*c->values));
	c->keys[0] = "JobRequeue";
	c->values[0] = "1";
	c->n = 1;
	*out = c;
	return 0;
}

/* The head node's files, as a remote writer sees them: one marker. */
static char fk_removed[256];
static char fk_remove_err[64];   /* when set: removing a file fails with it */
static long fk_read_file(void *ctx, const char *path, char *buf, size_t len, bool *missing, char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	*missing = strcmp(path, "/remote/only/marker") != 0 || fk_removed[0];
	if (*missing)
		return 0;
	snprintf(buf, len, "USR1\n");
	return 5;
}

static int fk_remove_file(void *ctx, const char *path, char *err, size_t errlen)
{
	(void)ctx;
	if (fk_remove_err[0]) {
		snprintf(err, errlen, "%s", fk_remove_err);
		return -1;
	}
	snprintf(fk_removed, sizeof(fk_removed), "%s", path);
	return 0;
}

static const struct oc_writer_ops fake_ops = {
	.read_file = fk_read_file,
	.remove_file = fk_remove_file,
	.submit_job = fk_submit,
	.cancel_job = fk_cancel,
	.node_update = fk_node_update,
	.resv_create = fk_resv_create,
	.resv_delete = fk_resv_delete,
	.read_config = fk_read_config,
};

/* A snapshot with one job in the given state. */
static struct oc_snapshot *snap_job(uint32_t id, enum oc_job_state st, const char *reason)
{
	struct oc_snapshot *s = snap_new();
	struct oc_job j;
	memset(&j, 0, sizeof(j));
	j.job_id = id;
	j.state = st;
	j.reason = reason;
	set_jobs(s, &j, 1);
	return s;
}

/* The audit log at path holds exactly npairs intent/outcome pairs, each
 * intent right before its outcome's request and the outcome after it. */
static void assert_audit_pairs(const char *path, int npairs)
{
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char line[16384];
	int intents = 0, outcomes = 0;
	char open_id[64] = "";
	while (fgets(line, sizeof(line), fp)) {
		json_error_t je;
		json_t *o = json_loads(line, 0, &je);
		assert_non_null(o);
		const char *phase = json_string_value(json_object_get(o, "phase"));
		const char *id = json_string_value(json_object_get(o, "id"));
		assert_non_null(phase);
		assert_non_null(id);
		assert_int_equal(strlen(id), 16);
		if (strcmp(phase, "intent") == 0) {
			assert_string_equal(open_id, "");   /* the runner writes one at a time */
			assert_null(json_object_get(o, "result"));
			assert_non_null(json_object_get(o, "command"));
			snprintf(open_id, sizeof(open_id), "%s", id);
			intents++;
		} else {
			assert_string_equal(phase, "outcome");
			assert_string_equal(id, open_id);
			assert_non_null(json_object_get(o, "result"));
			open_id[0] = '\0';
			outcomes++;
		}
		json_decref(o);
	}
	fclose(fp);
	assert_string_equal(open_id, "");
	assert_int_equal(intents, npairs);
	assert_int_equal(outcomes, npairs);
}

/* A step "not_on" the cluster's platform is skipped with its reason, and
 * nothing of it runs (its drain is not sent); elsewhere it runs. */
static void test_runner_not_on(void **state)
{
	struct test_util_dir *f = *state;
	static const char text[] =
		"{\"checklist\": \"t\", \"version\": 1, \"steps\": [{\"id\": \"drill\", \"title\": \"T\", "
		"\"why\": \"w\", \"do\": \"\", \"observe\": \"o\", \"auto\": true, "
		"\"not_on\": {\"pcs\": \"AWS runs slurmctld\"}, "
		"\"actions\": [{\"kind\": \"drain\", \"nodes\": \"n1\", \"confirm\": false}], "
		"\"check\": {\"kind\": \"node\", \"node\": \"n1\", \"drain\": true}}]}";
	struct oc_checklist *cl = load_text(f, "noton.json", text);
	assert_string_equal(cl->steps[0].not_on[OC_PLATFORM_PCS], "AWS runs slurmctld");
	assert_null(cl->steps[0].not_on[OC_PLATFORM_PCLUSTER]);
	char err[512];
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	struct fake fk = {.next_id = 500};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	struct oc_runner_cfg cfg = {.writer = &w, .cluster = "llm-poc", .platform = OC_PLATFORM_PCS};
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(oc_runner_poll(r, NULL), OC_RUN_DONE);
	assert_int_equal(s->steps[0].state, OC_STEP_SKIPPED);
	test_util_assert_contains(s->steps[0].evidence, "skipped: not on AWS PCS: AWS runs slurmctld");
	assert_string_equal(fk.drained, ""); /* the drain was never sent */
	oc_runner_free(&r);
	assert_string_equal(oc_runner_not_here(&cl->steps[0], OC_PLATFORM_PCS), "AWS runs slurmctld");
	assert_null(oc_runner_not_here(&cl->steps[0], OC_PLATFORM_PCLUSTER));
	assert_null(oc_runner_not_here(&cl->steps[0], OC_PLATFORM_UNKNOWN));
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

static void test_runner(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "three.json", three_steps);
	char path[4096], err[512];
	test_util_at(f, "progress.json", path);
	struct oc_session *s = oc_session_new(cl, "llm-poc", path);
	struct fake fk = {.next_id = 500};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	char audit[4096];
	test_util_at(f, "audit.log", audit);
	struct oc_runner_cfg cfg = {.writer = &w, .cluster = "llm-poc", .audit_log = audit};

	/* a: a check only, passes on the first poll */
	struct oc_snapshot *snap = snap_new();
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(s->steps[0].state, OC_STEP_RUNNING);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[0].state, OC_STEP_PASSED);
	assert_string_equal(s->steps[0].evidence, "gpu: Hidden=YES");
	assert_string_equal(s->steps[0].by, "auto");
	assert_int_equal(oc_runner_step(r), 0);
	oc_runner_free(&r);
	oc_snapshot_unref(&snap);

	/* b: submit, then the job pends on the limit: pass, the job is cancelled */
	r = oc_runner_start(s, cl, 1, &cfg, false, err, sizeof(err));
	snap = snap_new();
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_BUSY);    /* submitted job 500 */
	assert_int_equal(s->steps[1].njobs, 1);
	assert_int_equal(s->steps[1].jobs[0].id, 500);
	/* the progress file already lists it */
	struct oc_session *again = NULL;
	assert_int_equal(oc_session_open(cl, "llm-poc", path, false, &again, err, sizeof(err)), 0);
	assert_int_equal(again->steps[1].njobs, 1);
	oc_session_free(&again);
	oc_snapshot_unref(&snap);
	snap = snap_job(500, OC_JOB_RUNNING, NULL);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_BUSY);
	test_util_assert_contains(oc_runner_status_text(r), "job 500 (p): RUNNING");
	test_util_assert_contains(oc_runner_status_text(r), "s left)");
	oc_snapshot_unref(&snap);
	snap = snap_job(500, OC_JOB_PENDING, "AssocGrpGRES");
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_PASSED);
	test_util_assert_contains(s->steps[1].evidence, "job 500 (p): PENDING, reason AssocGrpGRES");
	test_util_assert_contains(s->steps[1].evidence, "submitted job 500 (p): runuser -u alice -- sbatch");
	test_util_assert_contains(s->steps[1].evidence, "cleanup: cancelled job 500 (p)");
	assert_int_equal(fk.ncancelled, 1);
	assert_int_equal(fk.cancelled[0], 500);
	assert_int_equal(fk.signals[0], 0);
	assert_true(s->steps[1].jobs[0].cancelled);
	oc_runner_free(&r);

	/* b again: the job never pends on the limit: a timeout (1 s) fails it */
	r = oc_runner_start(s, cl, 1, &cfg, false, err, sizeof(err));
	assert_int_equal(s->steps[1].state, OC_STEP_RUNNING);
	assert_int_equal(s->steps[1].njobs, 0);    /* the earlier attempt is forgotten */
	oc_snapshot_unref(&snap);
	snap = snap_job(501, OC_JOB_RUNNING, NULL);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_BUSY);
	enum oc_run_status rs;
	int polls = 0;
	while ((rs = oc_runner_poll(r, snap)) == OC_RUN_BUSY && polls++ < 40)
		usleep(100 * 1000);
	assert_int_equal(rs, OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_FAILED);
	test_util_assert_contains(s->steps[1].evidence, "timed out after 1 s");
	assert_int_equal(fk.cancelled[fk.ncancelled - 1], 501);
	oc_runner_free(&r);

	/* b refused by Slurm while it should be accepted: fails at once */
	fk.submit_rc = 1;
	snprintf(fk.refuse_text, sizeof(fk.refuse_text), "Invalid account");
	r = oc_runner_start(s, cl, 1, &cfg, false, err, sizeof(err));
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_FAILED);
	test_util_assert_contains(s->steps[1].evidence, "submission p was refused: Invalid account");
	oc_runner_free(&r);
	fk.submit_rc = 0;

	/* b interrupted: back to not run, job cancelled, note kept */
	r = oc_runner_start(s, cl, 1, &cfg, false, err, sizeof(err));
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_BUSY);
	uint32_t id = s->steps[1].jobs[0].id;
	oc_runner_abort(r, "stopped by signal 15");
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_NOT_RUN);
	test_util_assert_contains(s->steps[1].notes, "interrupted: stopped by signal 15");
	assert_int_equal(fk.cancelled[fk.ncancelled - 1], id);
	oc_runner_free(&r);

	/* c: changes the cluster: refused without confirmation */
	assert_null(oc_runner_start(s, cl, 2, &cfg, false, err, sizeof(err)));
	test_util_assert_contains(err, "confirm");
	r = oc_runner_start(s, cl, 2, &cfg, true, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_OPERATOR);
	assert_string_equal(fk.drained, "n3");
	test_util_assert_contains(oc_runner_status_text(r), "waiting for the operator: stop slurmdbd");
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_OPERATOR);   /* still */
	oc_runner_operator_done(r);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_VERDICT);     /* no check: the operator judges */
	assert_string_equal(fk.resumed, "n3");                         /* undo; "Invalid node state" is fine */
	assert_int_equal(s->steps[2].nundrain, 0);
	assert_int_equal(s->steps[2].state, OC_STEP_RUNNING);
	assert_int_equal(oc_session_mark(s, 2, OC_STEP_PASSED, "node came back", "operator", err, sizeof(err)), 0);
	oc_runner_free(&r);
	assert_int_equal(s->steps[2].state, OC_STEP_PASSED);

	/* cleanup_all cancels what a dead session left */
	oc_step_rec_add_job(&s->steps[0], "x", 900);
	assert_int_equal(oc_runner_cleanup_all(s, &cfg, err, sizeof(err)), 1);
	test_util_assert_contains(err, "cancelled job 900");
	assert_int_equal(oc_runner_cleanup_all(s, &cfg, err, sizeof(err)), 0);

	/* Every write was logged write-ahead: an intent, then an outcome with
	 * the same id, the intent before the request. */
	assert_audit_pairs(audit, 10);

	/* An audit log that cannot be written refuses the write: nothing is
	 * submitted, cancelled or drained. */
	char dir[4096];
	test_util_at(f, "audit.d", dir);   /* a directory: not writable as a log, even by root */
	assert_int_equal(mkdir(dir, 0700), 0);
	cfg.audit_log = dir;
	uint32_t next = fk.next_id;
	int ncancel = fk.ncancelled;
	r = oc_runner_start(s, cl, 1, &cfg, false, err, sizeof(err));
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_FAILED);
	test_util_assert_contains(s->steps[1].evidence, "refused: audit log");
	test_util_assert_contains(s->steps[1].evidence, "nothing was changed");
	assert_int_equal(fk.next_id, next);
	oc_runner_free(&r);
	cfg.audit_log = "";
	r = oc_runner_start(s, cl, 1, &cfg, false, err, sizeof(err));
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_FAILED);
	test_util_assert_contains(s->steps[1].evidence, "refused: no audit log");
	assert_int_equal(fk.next_id, next);
	oc_runner_free(&r);
	oc_step_rec_add_job(&s->steps[0], "x", 901);
	assert_true(oc_runner_cleanup_all(s, &cfg, err, sizeof(err)) < 0);
	test_util_assert_contains(err, "refused: no audit log");
	assert_int_equal(fk.ncancelled, ncancel);
	cfg.audit_log = audit;

	oc_snapshot_unref(&snap);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* Polls r with snap until the run is done (at most 10 polls). */
static void poll_until_done(struct oc_run *r, struct oc_snapshot *snap)
{
	enum oc_run_status rs;
	int polls = 0;
	while ((rs = oc_runner_poll(r, snap)) == OC_RUN_BUSY && polls++ < 10)
		;
	if (rs != OC_RUN_DONE)
		fail_msg("still %d: %s", rs, oc_runner_status_text(r));
}

/* A file check reads the head node's file through the writer (a remote
 * head node), not the console's machine, and removes it there. */
static void test_runner_remote_file(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "file.json",
					    "{\"checklist\": \"c\", \"version\": 1, \"steps\": [{\"id\": \"f\", \"title\": \"F\", "
					    "\"why\": \"w\", \"do\": \"\", \"observe\": \"o\", \"auto\": true, \"timeout\": 5, "
					    "\"check\": {\"kind\": \"file\", \"path\": \"/remote/only/marker\", \"contains\": \"USR1\", "
					    "\"remove\": true}}]}");
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	struct fake fk = {.next_id = 1};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	char audit[4096];
	test_util_at(f, "audit-file.log", audit);
	struct oc_runner_cfg cfg = {.writer = &w, .audit_log = audit};
	struct oc_snapshot *snap = oc_snapshot_new();
	char err[256];
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	/* the start removed a stale marker; now the job writes one */
	assert_string_equal(fk_removed, "/remote/only/marker");
	fk_removed[0] = '\0';
	poll_until_done(r, snap);
	test_util_assert_contains(s->steps[0].evidence, "/remote/only/marker: there (5 bytes");
	assert_int_equal(s->steps[0].state, OC_STEP_PASSED);
	assert_string_equal(fk_removed, "/remote/only/marker");
	oc_runner_free(&r);
	oc_snapshot_unref(&snap);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* Config checks read the configuration through the writer at the time
 * they run, whatever the snapshot holds. */
static void test_runner_config(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "cfg.json",
					    "{\"checklist\": \"c\", \"version\": 1, \"steps\": [{\"id\": \"r\", \"title\": \"R\", "
					    "\"why\": \"w\", \"do\": \"\", \"observe\": \"o\", \"auto\": true, "
					    "\"check\": {\"kind\": \"config\", \"key\": \"JobRequeue\", \"equals\": \"1\"}}]}");
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	struct fake fk = {.next_id = 1};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	struct oc_runner_cfg cfg = {.writer = &w};
	struct oc_snapshot *snap = oc_snapshot_new();   /* empty config */
	char err[256];
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(fk.config_reads, 1);
	assert_int_equal(s->steps[0].state, OC_STEP_PASSED);
	oc_runner_free(&r);
	/* A snapshot whose configuration is stale (loaded when the console
	 * connected: JobRequeue=0 then) is not what is judged: the fresh
	 * read (JobRequeue=1 now, after a reconfigure) is. */
	struct oc_config *old = snap->config;
	old->keys = oc_arena_alloc(&old->h.arena, sizeof(*old->keys));
	old->values = oc_arena_alloc(&old->h.arena, sizeof(*old->values));
	old->keys[0] = "JobRequeue";
	old->values[0] = "0";
	old->n = 1;
	r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(fk.config_reads, 2);
	assert_int_equal(s->steps[0].state, OC_STEP_PASSED);
	oc_runner_free(&r);
	old->n = 0;
	/* without a writer an action cannot run */
	struct oc_runner_cfg none = {0};
	r = oc_runner_start(s, cl, 0, &none, false, err, sizeof(err));
	int polls = 0;
	enum oc_run_status rs;
	while ((rs = oc_runner_poll(r, snap)) == OC_RUN_BUSY && polls++ < 5)
		;
	assert_int_equal(rs, OC_RUN_BUSY);   /* waits for a configuration it cannot read */
	test_util_assert_contains(oc_runner_status_text(r), "no writer");
	oc_runner_free(&r);                  /* aborted: not run again */
	assert_int_equal(s->steps[0].state, OC_STEP_NOT_RUN);
	oc_snapshot_unref(&snap);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* The cleanup cancels the step's jobs the last submitted first: the
 * second job, pending on the first's limit, goes before the first can
 * end and let it start. */
static void test_runner_cleanup_order(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "order.json",
		"{\"checklist\": \"c\", \"version\": 1, \"steps\": ["
		"{\"id\": \"two\", \"title\": \"T\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\", "
		"\"auto\": true, \"timeout\": 5, \"actions\": ["
		"{\"kind\": \"submit_job\", \"label\": \"first\", \"user\": \"alice\"},"
		"{\"kind\": \"submit_job\", \"label\": \"second\", \"user\": \"alice\"},"
		"{\"kind\": \"submit_job\", \"label\": \"third\", \"user\": \"alice\"}],"
		"\"check\": {\"kind\": \"job\", \"job\": \"second\", \"state\": \"PENDING\"}}]}");
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	struct fake fk = {.next_id = 600};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	char audit[4096], err[256];
	test_util_at(f, "audit-order.log", audit);
	struct oc_runner_cfg cfg = {.writer = &w, .cluster = "llm-poc", .audit_log = audit};
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_non_null(r);
	struct oc_snapshot *snap = snap_job(601, OC_JOB_PENDING, "QOSMaxJobsPerUserLimit");
	for (int i = 0; i < 5 && oc_runner_poll(r, snap) == OC_RUN_BUSY; i++)
		;
	const struct oc_step_rec *rec = &s->steps[0];
	if (rec->state != OC_STEP_PASSED)
		fail_msg("%s", rec->evidence);
	assert_int_equal(fk.ncancelled, 3);
	assert_int_equal(fk.cancelled[0], 602);
	assert_int_equal(fk.cancelled[1], 601);
	assert_int_equal(fk.cancelled[2], 600);
	test_util_assert_contains(rec->evidence, "cleanup: cancelled job 602 (third)\n"
						 "cleanup: cancelled job 601 (second)\n"
						 "cleanup: cancelled job 600 (first)");
	oc_runner_free(&r);
	oc_snapshot_unref(&snap);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* Every action kind runs through the writer (record_jobs alone needs
 * none): what each asked for, what it logged, what the cleanup undid. */
static void test_runner_actions(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "acts.json",
		"{\"checklist\": \"c\", \"version\": 1, \"steps\": ["
		"{\"id\": \"acts\", \"title\": \"A\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\", "
		"\"auto\": true, \"timeout\": 5, \"actions\": ["
		"{\"kind\": \"submit_job\", \"label\": \"p\", \"user\": \"alice\"},"
		"{\"kind\": \"signal_job\", \"job\": \"p\", \"signal\": \"USR2\"},"
		"{\"kind\": \"cancel_job\", \"job\": \"p\"},"
		"{\"kind\": \"drain\", \"nodes\": \"n3\", \"reason\": \"drill\", \"confirm\": false},"
		"{\"kind\": \"resume\", \"nodes\": \"n1\", \"confirm\": false},"
		"{\"kind\": \"reservation\", \"nodes\": \"n2\", \"name\": \"maint\", \"duration\": 30, "
		"\"confirm\": false},"
		"{\"kind\": \"record_jobs\", \"label\": \"seen\"}],"
		"\"check\": {\"kind\": \"job\", \"job\": \"seen\", \"state\": \"RUNNING\"}},"
		"{\"id\": \"ro\", \"title\": \"R\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\", "
		"\"auto\": true, \"actions\": ["
		"{\"kind\": \"record_jobs\", \"label\": \"seen\"},"
		"{\"kind\": \"signal_job\", \"job\": \"seen\", \"signal\": \"TERM\"}],"
		"\"check\": {\"kind\": \"job\", \"job\": \"seen\", \"state\": \"RUNNING\"}}]}");
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	struct fake fk = {.next_id = 500, .resume_ok = true};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	char audit[4096], err[256];
	test_util_at(f, "audit-acts.log", audit);
	struct oc_runner_cfg cfg = {.writer = &w, .cluster = "llm-poc", .audit_log = audit};
	struct oc_snapshot *snap = snap_job(77, OC_JOB_RUNNING, NULL);
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_BUSY);    /* every action, then a fresh snapshot */
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	const struct oc_step_rec *rec = &s->steps[0];
	if (rec->state != OC_STEP_PASSED)
		fail_msg("%s", rec->evidence);
	assert_int_equal(fk.ncancelled, 2);
	assert_int_equal(fk.cancelled[0], 500);
	assert_int_equal(fk.signals[0], SIGUSR2);
	assert_int_equal(fk.cancelled[1], 500);
	assert_int_equal(fk.signals[1], 0);
	assert_string_equal(fk.drained, "n3");
	assert_string_equal(fk.resumed, "n1");
	assert_string_equal(fk.resv_created, "n2 root MAINT,IGNORE_JOBS");
	assert_int_equal(fk.resv_minutes, 30);
	assert_string_equal(fk.resv_deleted, "maint");             /* not "keep": deleted at cleanup */
	test_util_assert_contains(rec->evidence, "job 77 (seen): RUNNING\nsubmitted job 500 (p): runuser -u alice");
	test_util_assert_contains(rec->evidence, "\nscancel -b -s USR2 500\nscancel 500\n");
	test_util_assert_contains(rec->evidence, "\nscontrol update NodeName=n3 State=DRAIN Reason=drill\n");
	test_util_assert_contains(rec->evidence, "\nscontrol update NodeName=n1 State=RESUME\n");
	test_util_assert_contains(rec->evidence, "\ncreated reservation maint: scontrol create reservation");
	test_util_assert_contains(rec->evidence, "\nrecorded 1 RUNNING job as seen\ncleanup: deleted reservation maint");
	assert_null(strstr(rec->evidence, "cleanup: cancelled"));   /* cancelled already; recorded jobs stay */
	assert_audit_pairs(audit, 7);
	oc_runner_free(&r);

	/* Without a writer: record_jobs runs, the signal cannot. */
	struct oc_runner_cfg none = {0};
	r = oc_runner_start(s, cl, 1, &none, false, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(oc_runner_poll(r, snap), OC_RUN_DONE);
	assert_int_equal(s->steps[1].state, OC_STEP_FAILED);
	assert_string_equal(s->steps[1].evidence,
			    "signal_job: no writer: the console cannot change the cluster (read-only?)\n"
			    "recorded 1 RUNNING job as seen");
	oc_runner_free(&r);
	oc_snapshot_unref(&snap);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

/* A cleanup that cannot undo: the reservation and the drain stay on the
 * record for a later oc_runner_cleanup_all, a file left is reported. */
static void test_runner_cleanup_fails(void **state)
{
	struct test_util_dir *f = *state;
	struct oc_checklist *cl = load_text(f, "cf.json",
		"{\"checklist\": \"c\", \"version\": 1, \"steps\": ["
		"{\"id\": \"cf\", \"title\": \"C\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\", "
		"\"auto\": true, \"timeout\": 5, \"actions\": ["
		"{\"kind\": \"drain\", \"nodes\": \"n3\", \"undo\": true, \"confirm\": false},"
		"{\"kind\": \"reservation\", \"nodes\": \"n2\", \"name\": \"maint\", \"duration\": 30, "
		"\"confirm\": false}],"
		"\"check\": {\"kind\": \"file\", \"path\": \"/remote/only/marker\", \"contains\": \"USR1\", "
		"\"remove\": true}}]}");
	struct oc_session *s = oc_session_new(cl, "llm-poc", NULL);
	struct fake fk = {.next_id = 1, .fail_text = "Access/permission denied"};
	struct oc_writer w = {.ops = &fake_ops, .ctx = &fk};
	char audit[4096], err[256];
	test_util_at(f, "audit-cf.log", audit);
	struct oc_runner_cfg cfg = {.writer = &w, .cluster = "llm-poc", .audit_log = audit};
	struct oc_snapshot *snap = oc_snapshot_new();
	fk_removed[0] = '\0';
	snprintf(fk_remove_err, sizeof(fk_remove_err), "rm: Read-only file system");
	struct oc_run *r = oc_runner_start(s, cl, 0, &cfg, false, err, sizeof(err));
	assert_non_null(r);
	poll_until_done(r, snap);
	const struct oc_step_rec *rec = &s->steps[0];
	test_util_assert_contains(rec->evidence, "cleanup: reservation maint not deleted: Access/permission denied\n"
						 "cleanup: n3 not resumed: Access/permission denied\n"
						 "cleanup: rm: Read-only file system");
	assert_int_equal(rec->nresv, 1);
	assert_int_equal(rec->nundrain, 1);
	oc_runner_free(&r);

	/* later, when the cluster lets it: both undone, the record emptied */
	fk.fail_text[0] = '\0';
	fk.resume_ok = true;
	char msg[1024];
	assert_int_equal(oc_runner_cleanup_all(s, &cfg, msg, sizeof(msg)), 2);
	assert_string_equal(msg, "cleanup: deleted reservation maint\ncleanup: resumed n3\n");
	assert_int_equal(rec->nresv, 0);
	assert_int_equal(rec->nundrain, 0);
	fk_remove_err[0] = '\0';
	fk_removed[0] = '\0';
	oc_snapshot_unref(&snap);
	oc_session_free(&s);
	oc_checklist_free(&cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_number),
		cmocka_unit_test_setup_teardown(test_check_config, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_partition, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_partition_nodes, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_accounts, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_node, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_idle_nodes, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_job, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_submit, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_submit_never_runs, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_check_sacct_file_accounting, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_session, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_report, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_report_sections, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner_not_on, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner_remote_file, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner_config, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner_actions, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner_cleanup_order, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_runner_cleanup_fails, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
