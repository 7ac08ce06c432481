/* test_script.c: script mode's pure parts (core/script.c, core/health.c,
 * core/cells.c) on snapshots built by hand: health rows and findings,
 * quota findings, part failures named, unknown partitions, plain ASCII
 * tables with hostile reasons, JSON that stays valid with bytes that are
 * not UTF-8; the columns whose cells follow the clock say so. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/columns.h"
#include "core/health.h"
#include "core/script.h"
#include "core/strbuf.h"

#define MAXREC 16

/* An empty snapshot with room for MAXREC nodes, jobs and associations,
 * every part fetched. */
static struct oc_snapshot *snap_new(void)
{
	struct oc_snapshot *s = oc_snapshot_new();
	assert_non_null(s);
	s->nodes->v = oc_arena_alloc(&s->nodes->h.arena, sizeof(*s->nodes->v) * MAXREC);
	s->jobs->v = oc_arena_alloc(&s->jobs->h.arena, sizeof(*s->jobs->v) * MAXREC);
	s->partitions->v = oc_arena_alloc(&s->partitions->h.arena, sizeof(*s->partitions->v) * MAXREC);
	s->accounting->assocs = oc_arena_alloc(&s->accounting->h.arena, sizeof(*s->accounting->assocs) * MAXREC);
	assert_non_null(s->nodes->v);
	assert_non_null(s->jobs->v);
	assert_non_null(s->partitions->v);
	assert_non_null(s->accounting->assocs);
	s->accounting->enabled = true;
	for (int p = 0; p < OC_PART_COUNT; p++)
		s->status[p].fetched = 1000;
	s->taken = 1000000;
	snprintf(s->cluster, sizeof(s->cluster), "test");
	snprintf(s->slurm_user, sizeof(s->slurm_user), "slurm");
	return s;
}

static struct oc_node *add_node(struct oc_snapshot *s, const char *name, enum oc_node_base base, uint32_t flags,
				const char *reason, const char *user)
{
	assert_true(s->nodes->n < MAXREC);
	struct oc_node *n = &s->nodes->v[s->nodes->n++];
	n->name = name;
	n->base = base;
	n->flags = flags;
	n->reason = reason;
	n->reason_user = user;
	n->reason_time = reason ? 999000 : 0;
	n->cpus = 192;
	n->gpus = 8;
	return n;
}

static struct oc_assoc *add_account(struct oc_snapshot *s, const char *account, uint64_t limit, uint64_t used)
{
	struct oc_accounting *a = s->accounting;
	assert_true(a->nassocs < MAXREC);
	struct oc_assoc *r = &a->assocs[a->nassocs++];
	r->account = account;
	r->parent = "root";
	for (int k = 0; k < OC_TRES_KINDS; k++)
		r->grp[k].limit = OC_NOLIMIT;
	r->grp[OC_TRES_GPU].limit = limit;
	r->grp[OC_TRES_GPU].used = used;
	r->grp_jobs = r->grp_submit = r->max_jobs = r->max_submit = OC_NONE;
	return r;
}

static struct oc_job *add_job(struct oc_snapshot *s, const char *account, enum oc_job_state st, uint32_t flags)
{
	assert_true(s->jobs->n < MAXREC);
	struct oc_job *j = &s->jobs->v[s->jobs->n];
	j->job_id = (uint32_t)(100 + s->jobs->n++);
	j->array_task_id = OC_NONE;
	j->account = account;
	j->user = "alice";
	j->qos = "normal";
	j->partition = "debug";
	j->state = st;
	j->flags = flags;
	j->gpus = 8;
	j->num_nodes = 1;
	return j;
}

/* The cluster's nodes for the health tests: one of each kind. */
static struct oc_snapshot *health_snapshot(void)
{
	struct oc_snapshot *s = snap_new();
	add_node(s, "n1", OC_NODE_IDLE, 0, NULL, NULL);
	add_node(s, "n2", OC_NODE_IDLE, OC_NF_DRAIN, "prolog: gpu count 7", "root");
	add_node(s, "n3", OC_NODE_DOWN, 0, NULL, NULL);
	add_node(s, "n4", OC_NODE_IDLE, OC_NF_POWERED_DOWN | OC_NF_CLOUD, NULL, NULL);
	add_node(s, "n5", OC_NODE_ALLOCATED, OC_NF_DRAIN, "bad fan", "alice");
	add_node(s, "n10", OC_NODE_IDLE, OC_NF_DRAIN, "\x1b[31mred\x07 \xff", "alice");
	add_node(s, "n11", OC_NODE_IDLE, OC_NF_NOT_RESPONDING, "Not responding", "slurm");
	return s;
}

static char *render(const struct oc_snapshot *s, enum oc_script_view v, bool json, long *findings)
{
	struct oc_script_opts o = {.view = v, .json = json};
	char err[256] = "";
	char *text = oc_script_render(s, &o, findings, err, sizeof(err));
	assert_non_null(text);
	assert_string_equal(err, "");
	return text;
}

static void test_health_rows(void **state)
{
	(void)state;
	struct oc_snapshot *s = health_snapshot();
	struct oc_health_row *rows = NULL;
	uint32_t by[OC_HEALTH_COUNT];
	size_t nodes;
	long n = oc_health_rows(s, &rows, by, &nodes);
	/* health check: n2; manual: n10, n5 (by reason); slurm: n11; no reason: n3. */
	assert_int_equal(nodes, 5);
	assert_int_equal(n, 5 + 4);
	assert_true(rows[0].group);
	assert_int_equal(rows[0].source, OC_RS_HEALTH);
	assert_string_equal(s->nodes->v[rows[1].node].name, "n2");
	assert_true(rows[2].group);
	assert_int_equal(rows[2].source, OC_RS_MANUAL);
	assert_int_equal(rows[2].count, 2);
	assert_string_equal(s->nodes->v[rows[3].node].name, "n10");
	assert_string_equal(s->nodes->v[rows[4].node].name, "n5");
	assert_int_equal(rows[5].source, OC_RS_SLURM);
	assert_int_equal(rows[7].source, OC_HEALTH_NO_REASON);
	assert_string_equal(s->nodes->v[rows[8].node].name, "n3");
	assert_string_equal(oc_health_source_name(rows[7].source), "no reason");
	assert_string_equal(oc_health_reason_text(&s->nodes->v[2]), "down");
	assert_int_equal(by[OC_HEALTH_OK], 1);
	assert_int_equal(by[OC_HEALTH_DRAINED], 2);
	assert_int_equal(by[OC_HEALTH_DRAINING], 1);
	assert_int_equal(by[OC_HEALTH_DOWN], 1);
	assert_int_equal(by[OC_HEALTH_POWER], 1);
	assert_int_equal(by[OC_HEALTH_NOT_RESPONDING], 1);
	free(rows);
	oc_snapshot_unref(&s);
}

static void test_health_table_ascii(void **state)
{
	(void)state;
	struct oc_snapshot *s = health_snapshot();
	long findings = -1;
	char *t = render(s, OC_SCRIPT_HEALTH, false, &findings);
	assert_int_equal(findings, 5);
	for (const char *p = t; *p; p++)
		assert_true(*p == '\n' || (*p >= ' ' && *p <= '~'));
	assert_non_null(strstr(t, "ok 1  draining 1  drained 2  down 1  not responding 1  power saving 1\n"));
	assert_non_null(strstr(t, "\nSOURCE "));
	assert_non_null(strstr(t, "?[31mred? ?"));
	assert_non_null(strstr(t, "no reason    n3 "));
	assert_null(strstr(t, "n4 "));
	assert_null(strstr(t, " \n"));
	free(t);
	oc_snapshot_unref(&s);

	s = snap_new();
	add_node(s, "n1", OC_NODE_IDLE, 0, NULL, NULL);
	add_node(s, "n2", OC_NODE_IDLE, OC_NF_POWERED_DOWN, NULL, NULL);
	t = render(s, OC_SCRIPT_HEALTH, false, &findings);
	assert_int_equal(findings, 0);
	assert_string_equal(t, "ok 1  power saving 1\n"
			       "no node needs attention\n");
	free(t);
	oc_snapshot_unref(&s);
}

/* Power saving per partition: each state counted once per node and
 * partition, the failed resume apart, partitions without any left out;
 * the text line and the JSON array. */
static void test_health_power_parts(void **state)
{
	(void)state;
	struct oc_snapshot *s = snap_new();
	add_node(s, "st1", OC_NODE_IDLE, 0, NULL, NULL);
	add_node(s, "dy1", OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWERED_DOWN, NULL, NULL);
	add_node(s, "dy2", OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWERED_DOWN, NULL, NULL);
	add_node(s, "dy3", OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWERED_DOWN | OC_NF_POWERING_UP, NULL, NULL);
	add_node(s, "dy4", OC_NODE_DOWN, OC_NF_CLOUD | OC_NF_POWERED_DOWN, "ResumeTimeout reached", "slurm");
	add_node(s, "dy5", OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWERING_DOWN, NULL, NULL);
	add_node(s, "dy6", OC_NODE_IDLE, OC_NF_CLOUD | OC_NF_POWER_DOWN_PENDING, NULL, NULL);
	static uint32_t st_idx[] = {0}, dy_idx[] = {1, 2, 3, 4, 5, 6}, all_idx[] = {0, 1, 2, 3, 4, 5, 6};
	s->partitions->v[0] = (struct oc_partition){.name = "normal", .node_idx = st_idx, .node_count = 1};
	s->partitions->v[1] = (struct oc_partition){.name = "cloud", .node_idx = dy_idx, .node_count = 6};
	s->partitions->v[2] = (struct oc_partition){.name = "gpu", .node_idx = all_idx, .node_count = 7};
	s->partitions->n = 3;

	struct oc_power_part *p = NULL;
	assert_int_equal(oc_health_power_parts(s, &p), 2);
	assert_string_equal(p[0].partition, "cloud");
	assert_int_equal(p[0].powered_down, 2);
	assert_int_equal(p[0].powering_up, 1);
	assert_int_equal(p[0].powering_down, 1);
	assert_int_equal(p[0].down_pending, 1);
	assert_int_equal(p[0].resume_failed, 1);
	assert_string_equal(p[1].partition, "gpu");
	char line[160];
	oc_health_power_text(&p[0], line, sizeof(line));
	assert_string_equal(line, "cloud: 2 powered down, 1 powering up, 1 powering down, 1 power down pending, "
				  "1 failed resume");
	free(p);

	long findings;
	char *t = render(s, OC_SCRIPT_HEALTH, false, &findings);
	assert_non_null(strstr(t, "\npower cloud: 2 powered down, 1 powering up"));
	assert_non_null(strstr(t, "\npower gpu: 2 powered down,"));
	free(t);
	t = render(s, OC_SCRIPT_HEALTH, true, &findings);
	json_t *doc = json_loads(t, 0, NULL);
	assert_non_null(doc);
	json_t *pw = json_object_get(doc, "power_by_partition");
	assert_int_equal(json_array_size(pw), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(pw, 0), "partition")), "cloud");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(pw, 0), "resume_failed")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(pw, 0), "power_down_pending")), 1);
	json_decref(doc);
	free(t);
	oc_snapshot_unref(&s);

	/* No partition with power saving: nothing, and no line. */
	s = health_snapshot();
	assert_int_equal(oc_health_power_parts(s, &p), 0);
	assert_null(p);
	oc_snapshot_unref(&s);
}

static void test_health_json(void **state)
{
	(void)state;
	struct oc_snapshot *s = health_snapshot();
	long findings;
	char *t = render(s, OC_SCRIPT_HEALTH, true, &findings);
	json_error_t e;
	json_t *doc = json_loads(t, 0, &e);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), OC_SCRIPT_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(doc, "view")), "health");
	assert_string_equal(json_string_value(json_object_get(doc, "cluster")), "test");
	assert_string_equal(json_string_value(json_object_get(doc, "taken")), "1970-01-12T13:46:40Z");
	assert_int_equal(json_integer_value(json_object_get(doc, "findings")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "counts"), "power_saving")), 1);
	json_t *rows = json_object_get(doc, "rows");
	assert_int_equal(json_array_size(rows), 5);
	json_t *n10 = json_array_get(rows, 1);
	assert_string_equal(json_string_value(json_object_get(n10, "name")), "n10");
	/* Not UTF-8: the bytes outside printable ASCII became '?'. */
	assert_string_equal(json_string_value(json_object_get(n10, "reason")), "?[31mred? ?");
	assert_string_equal(json_string_value(json_object_get(n10, "source")), "manual");
	json_t *n3 = json_array_get(rows, 4);
	assert_true(json_is_null(json_object_get(n3, "reason")));
	assert_string_equal(json_string_value(json_object_get(n3, "source")), "no reason");
	assert_string_equal(json_string_value(json_object_get(n3, "health")), "down");
	json_decref(doc);
	free(t);
	oc_snapshot_unref(&s);

	/* Valid UTF-8 and control characters survive as JSON escapes. */
	s = snap_new();
	add_node(s, "n1", OC_NODE_IDLE, OC_NF_DRAIN, "caf\xc3\xa9 \"q\" \x1b", "bob");
	t = render(s, OC_SCRIPT_NODES, true, &findings);
	assert_int_equal(findings, 0);
	doc = json_loads(t, 0, &e);
	assert_non_null(doc);
	json_t *n1 = json_array_get(json_object_get(doc, "rows"), 0);
	assert_string_equal(json_string_value(json_object_get(n1, "reason")), "caf\xc3\xa9 \"q\" \x1b");
	assert_string_equal(json_string_value(json_object_get(n1, "reason_source")), "manual");
	assert_int_equal(json_array_size(json_object_get(n1, "partitions")), 0);
	assert_true(json_is_null(json_object_get(n1, "slurmd_version")));
	assert_false(json_is_true(json_object_get(n1, "slurmd_differs")));
	json_decref(doc);
	free(t);
	oc_snapshot_unref(&s);

	/* Mixed slurmd versions after an upgrade: the old one is marked. */
	s = snap_new();
	snprintf(s->slurm_version, sizeof(s->slurm_version), "25.11.1");
	add_node(s, "n1", OC_NODE_IDLE, 0, NULL, NULL)->version = "25.11.1";
	add_node(s, "n2", OC_NODE_IDLE, 0, NULL, NULL)->version = "25.05.3";
	t = render(s, OC_SCRIPT_NODES, true, &findings);
	doc = json_loads(t, 0, &e);
	assert_non_null(doc);
	json_t *rows2 = json_object_get(doc, "rows");
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows2, 0), "slurmd_version")), "25.11.1");
	assert_false(json_is_true(json_object_get(json_array_get(rows2, 0), "slurmd_differs")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows2, 1), "slurmd_version")), "25.05.3");
	assert_true(json_is_true(json_object_get(json_array_get(rows2, 1), "slurmd_differs")));
	json_decref(doc);
	free(t);
	oc_snapshot_unref(&s);
}

static void test_quota_findings(void **state)
{
	(void)state;
	struct oc_snapshot *s = snap_new();
	add_account(s, "at-limit", 64, 64);
	add_account(s, "zero", 0, 0);       /* a CPU-only team: no GPUs, not a finding */
	add_account(s, "unlimited", OC_NOLIMIT, 0);
	add_account(s, "blocked", 64, 8);
	add_account(s, "fine", 64, 8);
	add_job(s, "blocked", OC_JOB_PENDING, OC_JF_LIMITED);
	add_job(s, "fine", OC_JOB_PENDING, 0);
	add_job(s, "fine", OC_JOB_RUNNING, 0);
	long findings;
	char *t = render(s, OC_SCRIPT_QUOTA, true, &findings);
	assert_int_equal(findings, 3);
	json_error_t e;
	json_t *doc = json_loads(t, 0, &e);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_object_get(doc, "findings")), 3);
	json_t *rows = json_object_get(doc, "rows");
	const char *want[][2] = {
		{"at-limit", "at_gpu_limit"}, {"blocked", "jobs_on_limit"}, {"fine", NULL},
		{"unlimited", "no_gpu_limit"}, {"zero", NULL},
	};
	assert_int_equal(json_array_size(rows), 5);
	for (size_t i = 0; i < 5; i++) {
		json_t *r = json_array_get(rows, i);
		assert_string_equal(json_string_value(json_object_get(r, "account")), want[i][0]);
		json_t *f = json_object_get(r, "findings");
		if (want[i][1]) {
			assert_int_equal(json_array_size(f), 1);
			assert_string_equal(json_string_value(json_array_get(f, 0)), want[i][1]);
		} else {
			assert_int_equal(json_array_size(f), 0);
		}
	}
	json_t *unl = json_array_get(rows, 3);
	assert_true(json_is_null(json_object_get(unl, "gpu_limit")));
	assert_true(json_is_null(json_object_get(unl, "gpu_pct")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(rows, 0), "gpu_pct")), 100);
	json_decref(doc);
	free(t);

	t = render(s, OC_SCRIPT_QUOTA, false, &findings);
	assert_int_equal(findings, 3);
	assert_non_null(strstr(t, "at-limit   64/64 [##########]100%   0      0/0\n"));
	assert_non_null(strstr(t, "unlimited 0/NONE no GPU limit!      0      0/0\n"));
	assert_non_null(strstr(t, "8/1 1 job on limit\n"));
	free(t);
	oc_snapshot_unref(&s);
}

static void test_check(void **state)
{
	(void)state;
	char err[256];
	struct oc_snapshot *s = snap_new();
	struct oc_partition *p = &s->partitions->v[s->partitions->n++];
	p->name = "debug";
	p = &s->partitions->v[s->partitions->n++];
	p->name = "gpu";
	p->flags = OC_PF_HIDDEN;
	struct oc_script_opts o = {.view = OC_SCRIPT_QUEUE};
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), 0);
	o.partition = "gpu"; /* named: hidden ones too, as :queue gpu */
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), 0);
	o.partition = "nope";
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "unknown partition 'nope' (partitions: debug)");

	o = (struct oc_script_opts){.view = OC_SCRIPT_HEALTH};
	snprintf(s->status[OC_PART_NODES].error, sizeof(s->status[0].error), "nodes: Socket timed out");
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "slurmctld: nodes: Socket timed out");
	o.view = OC_SCRIPT_QUOTA; /* needs no nodes */
	/* but something to judge: no association is an error, not "fine" */
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "no association: nothing to judge (no account has been added to this cluster)");
	struct oc_assoc one;
	memset(&one, 0, sizeof(one));
	s->accounting->assocs = &one;
	s->accounting->nassocs = 1;
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), 0);
	s->status[OC_PART_ACCT].fetched = 0;
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "slurmctld: associations: not read"));
	s->status[OC_PART_ACCT].fetched = 1000;
	s->accounting->enabled = false;
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "accounting is not configured"));
	s->accounting->enabled = true;
	snprintf(s->accounting->dbd_error, sizeof(s->accounting->dbd_error), "slurmdbd unreachable since 10:00:00: x");
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), 0);
	char w[256];
	assert_string_equal(oc_script_warning(s, &o, w, sizeof(w)),
			    "slurmdbd unreachable since 10:00:00: x; limits and use shown are slurmctld's cache");
	o.view = OC_SCRIPT_NODES;
	assert_string_equal(oc_script_warning(s, &o, w, sizeof(w)), "");
	/* health with no node at all: an error (a wrong profile) */
	s->status[OC_PART_NODES].error[0] = '\0';
	s->status[OC_PART_NODES].fetched = 1000;
	s->nodes->n = 0;
	o.view = OC_SCRIPT_HEALTH;
	assert_int_equal(oc_script_check(s, &o, err, sizeof(err)), -1);
	assert_string_equal(err, "slurmctld lists no node: nothing to judge (is this the right cluster?)");
	s->accounting->assocs = NULL;
	s->accounting->nassocs = 0;
	oc_snapshot_unref(&s);
}

static void test_views_and_cells(void **state)
{
	(void)state;
	assert_int_equal(oc_script_view_parse("queue"), OC_SCRIPT_QUEUE);
	assert_int_equal(oc_script_view_parse("reservations"), OC_SCRIPT_RESERVATIONS);
	assert_int_equal(oc_script_view_parse("audit"), -1);
	assert_int_equal(oc_script_view_parse(NULL), -1);
	assert_true(oc_script_view_has_findings(OC_SCRIPT_HEALTH));
	assert_false(oc_script_view_has_findings(OC_SCRIPT_NODES));
	assert_true(oc_script_view_parts(OC_SCRIPT_QUOTA) & OC_MASK(OC_PART_ACCT));

	char buf[64];
	struct oc_job j = {.job_id = 7, .array_job_id = 5, .array_task_id = 2, .state = OC_JOB_PENDING};
	assert_string_equal(oc_cells_job_id(&j, buf, sizeof(buf)), "5_2");
	assert_string_equal(oc_cells_job_where(&j, buf, sizeof(buf)), "(None)");
	j.reason = "AssocGrpGRES";
	assert_string_equal(oc_cells_job_where(&j, buf, sizeof(buf)), "(AssocGrpGRES)");
	j.state = OC_JOB_RUNNING;
	j.nodes = "n[1-2]";
	j.start_time = 100;
	assert_string_equal(oc_cells_job_where(&j, buf, sizeof(buf)), "n[1-2]");
	assert_int_equal(oc_cells_job_run_seconds(&j, 160), 60);
	j.state = OC_JOB_COMPLETE;
	j.end_time = 130;
	assert_int_equal(oc_cells_job_run_seconds(&j, 160), 30);
	assert_string_equal(oc_cells_part_avail(OC_PF_UP), "up");
	assert_string_equal(oc_cells_part_avail(OC_PF_INACTIVE), "inact");
	struct oc_reservation r = {.start_time = 100, .end_time = 200};
	assert_string_equal(oc_cells_resv_state(&r, 50), "future");
	assert_string_equal(oc_cells_resv_state(&r, 150), "ACTIVE");
	assert_string_equal(oc_cells_resv_state(&r, 250), "ended");
	assert_string_equal(oc_cells_resv_duration(&r, buf, sizeof(buf)), "1:40");
	r.end_time = 100 + 366LL * 86400;
	assert_string_equal(oc_cells_resv_duration(&r, buf, sizeof(buf)), "UNLIMITED");
	assert_string_equal(oc_cells_resv_end(&r, buf, sizeof(buf)), "infinite");
}

/* A count and its noun agree: "1 job", "2 jobs", "0 jobs"; a
 * reservation's end in words: "until deleted" when it has none. */
static void test_counts_and_ends(void **state)
{
	(void)state;
	assert_string_equal(oc_plural(1, "entry", "entries"), "entry");
	assert_string_equal(oc_plural(2, "entry", "entries"), "entries");
	assert_string_equal(oc_plural(0, "node", "nodes"), "nodes");
	char buf[128];
	struct oc_quota_row row = {0};
	row.cpu.limit = row.mem.limit = row.node.limit = OC_NOLIMIT;
	assert_string_equal(oc_cells_quota_blocked(1, &row, buf, sizeof(buf)), "1 job on limit");
	assert_string_equal(oc_cells_quota_blocked(2, &row, buf, sizeof(buf)), "2 jobs on limit");
	struct oc_reservation r = {.start_time = 100, .end_time = 100 + 366LL * 86400};
	assert_string_equal(oc_cells_resv_until(&r, buf, sizeof(buf)), "until deleted");
	r.end_time = 100 + 5400;
	char want[64], when[32];
	struct tm tm;
	localtime_r(&r.end_time, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	snprintf(want, sizeof(want), "until %s", when);
	assert_string_equal(oc_cells_resv_until(&r, buf, sizeof(buf)), want);
}

/* Every cell of cat for rows 0..n-1 at now and at later times: a cell
 * whose text changes must be in a column marked clock (the screen
 * compares only those on a second when only the clock moved), and at
 * least one marked column of the catalogue must change. */
static void check_clock_cols(const struct oc_catalogue *cat, struct oc_cell_src *src, uint32_t n)
{
	static const time_t later[] = {1, 59, 3600, 90000, 400 * 86400};
	time_t now = src->now;
	bool moved = false;
	for (int c = 0; c < cat->n; c++)
		for (uint32_t row = 0; row < n; row++)
			for (size_t k = 0; k < sizeof(later) / sizeof(later[0]); k++) {
				char a[512] = "", b[512] = "";
				src->now = now;
				cat->cols[c].cell(src, row, a, sizeof(a));
				src->now = now + later[k];
				cat->cols[c].cell(src, row, b, sizeof(b));
				if (strcmp(a, b) == 0)
					continue;
				if (!cat->cols[c].clock)
					fail_msg("%s.%s row %u: \"%s\", %lld s later \"%s\", but not a clock column",
						 cat->view, cat->cols[c].id, row, a, (long long)later[k], b);
				moved = true;
			}
	src->now = now;
	if (!moved)
		fail_msg("%s: no clock column changed (is the test's snapshot right?)", cat->view);
}

static void test_clock_columns(void **state)
{
	(void)state;
	struct oc_snapshot *s = health_snapshot();
	struct oc_job *j = add_job(s, "team-a", OC_JOB_RUNNING, 0);
	j->start_time = 999000;
	j->nodes = "n5";
	j->name = "train";
	j->time_limit_min = 60;
	j = add_job(s, "team-b", OC_JOB_PENDING, 0);
	j->reason = "Priority";
	j = add_job(s, "team-b", OC_JOB_COMPLETE, 0);
	j->start_time = 999000;
	j->end_time = 999500;
	struct oc_reservation rv[3] = {
		{.name = "maint", .nodes = "n[1-2]", .flags = "MAINT", .start_time = 1000500, .end_time = 1004000},
		{.name = "now", .nodes = "n3", .start_time = 990000, .end_time = 1000100},
		{.name = "old", .nodes = "n4", .start_time = 900000, .end_time = 990000},
	};
	s->reservations->v = rv;
	s->reservations->n = 3;
	struct oc_cell_src src = {.s = s, .now = 1000000};
	check_clock_cols(&oc_cat_queue, &src, (uint32_t)s->jobs->n);
	check_clock_cols(&oc_cat_reservations, &src, 3);
	struct oc_node_places places = {0};
	assert_int_equal(oc_node_places_fill(&places, s, false, src.now), 0);
	src.extra = &places;
	check_clock_cols(&oc_cat_nodes, &src, (uint32_t)s->nodes->n);
	oc_node_places_free(&places);
	s->reservations->v = NULL;
	s->reservations->n = 0;
	oc_snapshot_unref(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_health_rows),
		cmocka_unit_test(test_health_table_ascii),
		cmocka_unit_test(test_health_json),
		cmocka_unit_test(test_health_power_parts),
		cmocka_unit_test(test_quota_findings),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_views_and_cells),
		cmocka_unit_test(test_counts_and_ends),
		cmocka_unit_test(test_clock_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
