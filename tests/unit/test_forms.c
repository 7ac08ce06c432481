/* test_forms.c: the write forms without a terminal (ui/form.h): what each
 * kind accepts and refuses, the request it makes and the confirmation it
 * shows, through oc_form_plan as Enter on the form runs it, on hand-made
 * snapshots, with a writer whose hostlist functions are core/hostlist.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/hostlist.h"
#include "core/model.h"
#include "test_util.h"
#include "ui/forms.h"

#define MAXREC 16

static int expand(void *ctx, const char *expr, size_t max, char ***names, size_t *n, char *err, size_t errlen)
{
	(void)ctx;
	return oc_hostlist_expand_nodes(expr, max, names, n, err, errlen);
}

static char *compress(void *ctx, const char *const *names, size_t n)
{
	(void)ctx;
	return oc_hostlist_compress(names, n);
}

static const struct oc_writer_ops ops = {.hostlist_expand = expand, .hostlist_compress = compress};
static const struct oc_writer writer = {.ops = &ops};

/* Nodes gpu-1..gpu-4 (gpu-2 runs job 100 of alice; job 101 of bob
 * pends in normal), partitions normal and large, a reservation on gpu-3
 * from t=2000 to t=5000, every part fetched. */
static struct oc_snapshot *snap_new(void)
{
	struct oc_snapshot *s = oc_snapshot_new();
	assert_non_null(s);
	s->nodes->v = oc_arena_alloc(&s->nodes->h.arena, sizeof(*s->nodes->v) * MAXREC);
	s->jobs->v = oc_arena_alloc(&s->jobs->h.arena, sizeof(*s->jobs->v) * MAXREC);
	s->reservations->v = oc_arena_alloc(&s->reservations->h.arena, sizeof(*s->reservations->v) * MAXREC);
	assert_non_null(s->nodes->v);
	static const char *const names[] = {"gpu-1", "gpu-2", "gpu-3", "gpu-4"};
	for (size_t i = 0; i < 4; i++)
		s->nodes->v[s->nodes->n++] = (struct oc_node){.name = names[i], .gpus = 8};
	static uint32_t on_gpu2[] = {1}, on_gpu3[] = {2};
	s->jobs->v[s->jobs->n++] = (struct oc_job){.job_id = 100, .user = "alice", .state = OC_JOB_RUNNING,
						   .node_idx = on_gpu2, .node_count = 1};
	s->jobs->v[s->jobs->n++] = (struct oc_job){.job_id = 101, .user = "bob", .state = OC_JOB_PENDING,
						   .partition = "normal", .name = "train"};
	s->partitions->v = oc_arena_alloc(&s->partitions->h.arena, sizeof(*s->partitions->v) * MAXREC);
	assert_non_null(s->partitions->v);
	s->partitions->v[s->partitions->n++] = (struct oc_partition){.name = "normal", .flags = OC_PF_UP};
	s->partitions->v[s->partitions->n++] = (struct oc_partition){.name = "large", .flags = OC_PF_UP};
	s->reservations->v[s->reservations->n++] = (struct oc_reservation){
		.name = "maint_old", .nodes = "gpu-3", .start_time = 2000, .end_time = 5000,
		.node_idx = on_gpu3, .node_idx_count = 1};
	for (int p = 0; p < OC_PART_COUNT; p++)
		s->status[p].fetched = 1000;
	return s;
}

struct fixture {
	struct oc_snapshot *snap;
	struct oc_action_req req;
	char text[12000], err[512];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	f->snap = snap_new();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	oc_snapshot_unref(&f->snap);
	free(f);
	return 0;
}

/* Enter on a form of kind with values and the kind's state st. */
static int plan(struct fixture *f, const struct oc_form_kind *k, void *st, const char *const *values)
{
	bool changed[OC_FORM_MAX_FIELDS] = {false};
	struct oc_form_ctx c = {.snap = f->snap, .writer = &writer, .now = 1500, .state = st, .changed = changed};
	char *v[OC_FORM_MAX_FIELDS];
	for (int i = 0; i < k->nfields; i++)
		v[i] = (char *)values[i];
	f->err[0] = '\0';
	return oc_form_plan(k, &c, v, &f->req, f->text, sizeof(f->text), f->err, sizeof(f->err));
}

static void test_kinds_complete(void **state)
{
	(void)state;
	const struct oc_form_kind *const kinds[] = {
		&oc_form_drain,		 &oc_form_resume,	 &oc_form_undrain,	   &oc_form_resv_create,
		&oc_form_resv_delete,	 &oc_form_onboard,	 &oc_form_job_cancel,	   &oc_form_job_signal,
		&oc_form_job_hold,	 &oc_form_job_release,	 &oc_form_job_requeue,	   &oc_form_job_requeue_hold,
		&oc_form_job_time_limit, &oc_form_job_partition, &oc_form_job_qos,	   &oc_form_job_nice,
		&oc_form_job_priority,	 &oc_form_stats_reset,
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct oc_form_kind *k = kinds[i];
		assert_non_null(k->title);
		assert_non_null(k->plan);
		assert_non_null(k->hint);
		assert_true(k->nfields >= 1 && k->nfields <= OC_FORM_MAX_FIELDS);
		for (int f = 0; f < k->nfields; f++)
			assert_non_null(k->labels[f]);
		assert_true(k->reason_field < k->nfields);
		assert_true(k->choose_field < k->nfields);
		assert_true(k->choose_field < 0 || k->choices);
	}
}

static void test_drain(void **state)
{
	struct fixture *f = *state;
	enum oc_node_op op = OC_NODE_OP_DRAIN;
	const char *ok[] = {"gpu-[1-2]", "disk 'bad' $(x)"};
	assert_int_equal(plan(f, &oc_form_drain, &op, ok), 0);
	assert_int_equal(f->req.kind, OC_ACTION_NODE_UPDATE);
	assert_int_equal(f->req.op, OC_NODE_OP_DRAIN);
	assert_string_equal(f->req.nodes, "gpu-[1-2]");
	assert_string_equal(f->req.reason, "disk 'bad' $(x)");
	/* The verb once, the count with its noun (not "Drain nodes 2 nodes"). */
	test_util_assert_contains(f->text, "Drain 2 nodes: gpu-[1-2]\nReason: disk 'bad' $(x)\n");
	test_util_assert_contains(f->text, "Equivalent command:\n  scontrol update NodeName=");
	test_util_assert_contains(f->req.command, "State=DRAIN");
	/* gpu-2 runs alice's job: said, the drain lets it finish. */
	test_util_assert_contains(f->text, "Still running jobs");
	test_util_assert_contains(f->text, "gpu-2: 1 job (100 alice)");
	test_util_assert_contains(f->text, "[Enter] apply    [Esc] back to the form");

	const char *one[] = {"gpu-1", "fan"};
	assert_int_equal(plan(f, &oc_form_drain, &op, one), 0);
	test_util_assert_contains(f->text, "Drain 1 node: gpu-1\n");
	assert_null(strstr(f->text, "1 nodes"));

	const char *no_reason[] = {"gpu-1", ""};
	assert_int_equal(plan(f, &oc_form_drain, &op, no_reason), -1);
	assert_string_equal(f->err, "Reason: a reason is required");
	/* The live check of the reason: it says so while the reason is
	 * empty, and nothing once it is filled (a stale "a reason is
	 * required" must not stay under a filled reason). */
	assert_non_null(oc_form_drain.live);
	bool changed[OC_FORM_MAX_FIELDS] = {false};
	struct oc_form_ctx c = {.snap = f->snap, .writer = &writer, .now = 1500, .state = &op, .changed = changed};
	char live[256] = "";
	oc_form_drain.live(&c, 1, "", live, sizeof(live));
	assert_string_equal(live, "Reason: a reason is required");
	live[0] = '\0';
	oc_form_drain.live(&c, 1, "disk replaced", live, sizeof(live));
	assert_string_equal(live, "");
	oc_form_drain.live(&c, 0, "", live, sizeof(live)); /* the nodes: not its business */
	assert_string_equal(live, "");
	/* The reboot's reason may stay empty. */
	enum oc_node_op rb = OC_NODE_OP_REBOOT;
	c.state = &rb;
	oc_form_reboot.live(&c, 3, "", live, sizeof(live));
	assert_string_equal(live, "");
	oc_form_reboot.live(&c, 3, "   ", live, sizeof(live));
	assert_string_equal(live, "Reason: the reason is blank");
	const char *blank[] = {"gpu-1", "  "};
	assert_int_equal(plan(f, &oc_form_drain, &op, blank), -1);
	assert_string_equal(f->err, "Reason: the reason is blank");
	const char *unknown[] = {"gpu-[1-9]", "x"};
	assert_int_equal(plan(f, &oc_form_drain, &op, unknown), -1);
	assert_string_equal(f->err, "Nodes: gpu-5 is not a node of this cluster");
	const char *bad[] = {"gpu-[3-", "x"};
	assert_int_equal(plan(f, &oc_form_drain, &op, bad), -1);
	test_util_assert_contains(f->err, "Nodes: ");
	const char *empty[] = {"", "x"};
	assert_int_equal(plan(f, &oc_form_drain, &op, empty), -1);
	assert_string_equal(f->err, "Nodes: give a node or a hostlist such as gpu-st-b300-[3-5,9]");
	/* Bytes the terminal sent that are not UTF-8 (U+FFFD): retyped. */
	const char *fffd[] = {"gpu-1", "bad \xef\xbf\xbd here"};
	assert_int_equal(plan(f, &oc_form_drain, &op, fffd), -1);
	test_util_assert_contains(f->err, "Reason: the terminal sent bytes that are not UTF-8");
	/* No node list yet: nothing can be checked, so nothing is sent. */
	f->snap->status[OC_PART_NODES].fetched = 0;
	assert_int_equal(plan(f, &oc_form_drain, &op, ok), -1);
	test_util_assert_contains(f->err, "the node list is not loaded yet");
}

static void test_resume(void **state)
{
	struct fixture *f = *state;
	enum oc_node_op op = OC_NODE_OP_RESUME;
	const char *ok[] = {"gpu-4,gpu-3"};
	assert_int_equal(plan(f, &oc_form_resume, &op, ok), 0);
	assert_int_equal(f->req.op, OC_NODE_OP_RESUME);
	assert_string_equal(f->req.nodes, "gpu-[3-4]");
	test_util_assert_contains(f->text, "Resume 2 nodes: gpu-[3-4]\n");
	test_util_assert_contains(f->req.command, "State=RESUME");
	assert_null(strstr(f->text, "Still running"));
	const char *one[] = {"gpu-3"};
	assert_int_equal(plan(f, &oc_form_resume, &op, one), 0);
	test_util_assert_contains(f->text, "Resume 1 node: gpu-3\n");
	op = OC_NODE_OP_UNDRAIN;
	assert_int_equal(plan(f, &oc_form_undrain, &op, ok), 0);
	test_util_assert_contains(f->text, "Undrain 2 nodes (after repair): gpu-[3-4]\n");
}

static void test_resv_create(void **state)
{
	struct fixture *f = *state;
	const char *ok[] = {"maint_1", "gpu-[2-3]", "now", "60", "root", "MAINT,IGNORE_JOBS"};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, ok), 0);
	assert_int_equal(f->req.kind, OC_ACTION_RESV_CREATE);
	assert_string_equal(f->req.resv.name, "maint_1");
	assert_string_equal(f->req.resv.nodes, "gpu-[2-3]");
	assert_int_equal(f->req.resv.duration_min, 60);
	test_util_assert_contains(f->text, "Create reservation maint_1 on 2 nodes: gpu-[2-3]\nWhen: now, until ");
	test_util_assert_contains(f->text, " (Duration=1:00:00)\n");
	/* gpu-2 is busy, gpu-3 is in maint_old meanwhile: both said. */
	test_util_assert_contains(f->text, "WARNING:\n  nodes still run jobs (IGNORE_JOBS: the reservation starts anyway)");
	test_util_assert_contains(f->text, "reservation maint_old (gpu-3) holds some of these nodes in that time");
	/* The runbook's default: no end, said in words. */
	const char *endless[] = {"maint_1", "gpu-1", "now", "infinite", "root", "MAINT,IGNORE_JOBS"};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, endless), 0);
	test_util_assert_contains(f->text,
				  "Create reservation maint_1 on 1 node: gpu-1\nWhen: now, until deleted (Duration=UNLIMITED)\n");

	const char *no_users[] = {"maint_1", "gpu-1", "now", "60", "", ""};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, no_users), -1);
	assert_string_equal(f->err, "Users: give at least one user (the runbook uses root)");
	const char *bad_start[] = {"maint_1", "gpu-1", "yesterday-ish", "60", "root", ""};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, bad_start), -1);
	test_util_assert_contains(f->err, "Start: ");
	assert_null(strstr(f->err, "Start: start"));
	const char *bad_dur[] = {"maint_1", "gpu-1", "now", "-5", "root", ""};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, bad_dur), -1);
	assert_string_equal(f->err, "Duration: must be a positive length");
	/* The forms said once, whole within the form's 72 columns at 80. */
	const char *vague_dur[] = {"maint_1", "gpu-1", "now", "soon", "root", ""};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, vague_dur), -1);
	assert_string_equal(f->err, "Duration: 90 (minutes), 90m, 4h, 2d, 2:30:00, 1-12:00:00 or UNLIMITED");
	assert_true(strlen(f->err) <= 72);
	const char *bad_name[] = {"maint;rm", "gpu-1", "now", "60", "root", ""};
	assert_int_equal(plan(f, &oc_form_resv_create, NULL, bad_name), -1);
}

static void test_resv_delete(void **state)
{
	struct fixture *f = *state;
	const char *ok[] = {"maint_old"};
	assert_int_equal(plan(f, &oc_form_resv_delete, NULL, ok), 0);
	assert_int_equal(f->req.kind, OC_ACTION_RESV_DELETE);
	assert_string_equal(f->req.resv_name, "maint_old");
	test_util_assert_contains(f->text, "Delete reservation maint_old\n\nEquivalent command:\n  scontrol delete");
	/* It opens at the confirmation: Esc there cancels. */
	test_util_assert_contains(f->text, "[Enter] apply    [Esc] cancel");
	const char *empty[] = {""};
	assert_int_equal(plan(f, &oc_form_resv_delete, NULL, empty), -1);
	assert_string_equal(f->err, "Reservation: give its name");
}

static void test_stats_reset(void **state)
{
	struct fixture *f = *state;
	const char *ok[] = {"all"};
	assert_int_equal(plan(f, &oc_form_stats_reset, NULL, ok), 0);
	assert_int_equal(f->req.kind, OC_ACTION_STATS_RESET);
	assert_string_equal(f->req.command, "sdiag --reset");
	test_util_assert_contains(f->text, "start again from zero");
	test_util_assert_contains(f->text, "Equivalent command:\n  sdiag --reset\n");
	test_util_assert_contains(f->text, "[Enter] apply    [Esc] cancel");
	const char *other[] = {"rpc"};
	assert_int_equal(plan(f, &oc_form_stats_reset, NULL, other), -1);
	test_util_assert_contains(f->err, "Counters: \"all\"");
}

static void test_onboard(void **state)
{
	struct fixture *f = *state;
	/* A new team: the worker previews first (no confirmation text yet). */
	char *st = calloc(1, 4096); /* the kind's state: nothing was there */
	assert_non_null(st);
	/* Users every system has (the unit tests run before the test
	 * cluster makes its users, and in the chroots). */
	const char *ok[] = {"team-x", "Team X", "root", "64", "normal,debug", "normal", "", "root,daemon"};
	assert_int_equal(plan(f, &oc_form_onboard, st, ok), 0);
	assert_int_equal(f->req.kind, OC_ACTION_ONBOARD_PREVIEW);
	assert_string_equal(f->req.onb.account, "team-x");
	assert_int_equal(f->req.onb.gpu_quota, 64);
	assert_int_equal(f->req.onb.nqos, 2);
	assert_string_equal(f->req.onb.qos[1], "debug");
	assert_int_equal(f->req.onb.nusers, 2);
	assert_string_equal(f->req.onb.users[1].name, "daemon");
	assert_string_equal(f->text, "");

	const char *bad_gpu[] = {"team-x", "", "root", "lots", "", "", "", ""};
	assert_int_equal(plan(f, &oc_form_onboard, st, bad_gpu), -1);
	assert_string_equal(f->err, "GPU quota: \"lots\" is not a whole number of 1 or more");
	const char *bad_account[] = {"Team X!", "", "root", "", "", "", "", ""};
	assert_int_equal(plan(f, &oc_form_onboard, st, bad_account), -1);
	test_util_assert_contains(f->err, "Account: \"Team X!\" is not a name Slurm accepts");
	const char *bad_share[] = {"team-x", "", "root", "", "", "", "0", ""};
	assert_int_equal(plan(f, &oc_form_onboard, st, bad_share), -1);
	test_util_assert_contains(f->err, "Fairshare: ");
	/* A user the OS does not know is refused before anything is sent. */
	const char *no_user[] = {"team-x", "", "root", "", "", "", "", "oc-no-such-user-x"};
	assert_int_equal(plan(f, &oc_form_onboard, st, no_user), -1);
	test_util_assert_contains(f->err, "oc-no-such-user-x");
	free(st);
}

/* A job form: its operation is its state. */
static int plan_job(struct fixture *f, const struct oc_form_kind *k, enum oc_job_op op, const char *const *values)
{
	enum oc_job_op st = op;
	return plan(f, k, &st, values);
}

static void expect_job_refused(struct fixture *f, const struct oc_form_kind *k, enum oc_job_op op,
			       const char *const *values, const char *words)
{
	assert_int_equal(plan_job(f, k, op, values), -1);
	if (!strstr(f->err, words))
		fail_msg("\"%s\" lacks \"%s\"", f->err, words);
}

static void test_jobs(void **state)
{
	struct fixture *f = *state;
	/* Two jobs, once each, in the order typed; the command and notes. */
	assert_int_equal(plan_job(f, &oc_form_job_hold, OC_JOB_OP_HOLD, (const char *[]){"101, 100 101"}), 0);
	assert_int_equal(f->req.kind, OC_ACTION_JOB);
	assert_int_equal(f->req.njobs, 2);
	assert_int_equal(f->req.jobs[0], 101);
	assert_int_equal(f->req.jobs[1], 100);
	assert_string_equal(f->req.job_ids, "101,100");
	assert_string_equal(f->req.command, "scontrol hold 101,100");
	assert_non_null(strstr(f->text, "Hold 2 jobs\n"));
	assert_null(strstr(f->text, "Hold jobs"));
	assert_non_null(strstr(f->text, "job 100 is running: a hold does not stop it"));
	assert_int_equal(plan_job(f, &oc_form_job_cancel, OC_JOB_OP_CANCEL, (const char *[]){"100,101"}), 0);
	assert_string_equal(f->req.command, "scancel 100 101");
	assert_int_equal(plan_job(f, &oc_form_job_requeue, OC_JOB_OP_REQUEUE, (const char *[]){"101"}), 0);
	assert_non_null(strstr(f->text, "job 101 is pending: Slurm requeues running or ended batch jobs only"));
	assert_non_null(strstr(f->text, "Requeue 1 job\n"));
	/* Values. */
	assert_int_equal(plan_job(f, &oc_form_job_signal, OC_JOB_OP_SIGNAL, (const char *[]){"100", "sigterm", "full"}), 0);
	assert_string_equal(f->req.command, "scancel --signal=TERM --full 100");
	assert_int_equal(f->req.job.signal, 15);
	assert_false(f->req.job.batch_only);
	assert_int_equal(plan_job(f, &oc_form_job_time_limit, OC_JOB_OP_TIME_LIMIT, (const char *[]){"101", "1-12:00:00"}),
			 0);
	assert_int_equal(f->req.job.minutes, 2160);
	assert_int_equal(plan_job(f, &oc_form_job_time_limit, OC_JOB_OP_TIME_LIMIT, (const char *[]){"101", "unlimited"}),
			 0);
	assert_int_equal(f->req.job.minutes, OC_NONE);
	assert_string_equal(f->req.command, "scontrol update JobId=101 TimeLimit=UNLIMITED");
	assert_int_equal(plan_job(f, &oc_form_job_partition, OC_JOB_OP_PARTITION, (const char *[]){"101", "large"}), 0);
	assert_string_equal(f->req.command, "scontrol update JobId=101 Partition=large");
	assert_int_equal(plan_job(f, &oc_form_job_nice, OC_JOB_OP_NICE, (const char *[]){"101", "-50"}), 0);
	assert_int_equal(f->req.job.nice, -50);
	assert_int_equal(plan_job(f, &oc_form_job_priority, OC_JOB_OP_PRIORITY, (const char *[]){"101", "5000"}), 0);
	assert_string_equal(f->req.command, "scontrol update JobId=101 Priority=5000");
	expect_job_refused(f, &oc_form_job_priority, OC_JOB_OP_PRIORITY, (const char *[]){"101", "0"}, "Priority:");
	expect_job_refused(f, &oc_form_job_priority, OC_JOB_OP_PRIORITY, (const char *[]){"101", "-1"}, "Priority:");
	expect_job_refused(f, &oc_form_job_priority, OC_JOB_OP_PRIORITY, (const char *[]){"101", "high"}, "Priority:");
	/* Refused in the form: nothing to send. */
	expect_job_refused(f, &oc_form_job_cancel, OC_JOB_OP_CANCEL, (const char *[]){""}, "give one or more job ids");
	expect_job_refused(f, &oc_form_job_cancel, OC_JOB_OP_CANCEL, (const char *[]){"100x"}, "\"100x\" is not a job id");
	expect_job_refused(f, &oc_form_job_cancel, OC_JOB_OP_CANCEL, (const char *[]){"-5"}, "not a job id");
	expect_job_refused(f, &oc_form_job_cancel, OC_JOB_OP_CANCEL, (const char *[]){"0"}, "not a job id");
	expect_job_refused(f, &oc_form_job_cancel, OC_JOB_OP_CANCEL, (const char *[]){"100 99999"},
			   "job 99999 is not in the queue");
	expect_job_refused(f, &oc_form_job_signal, OC_JOB_OP_SIGNAL, (const char *[]){"100", "USR3", "batch"},
			   "Signal: unknown name");
	assert_null(strstr(f->err, "Signal: signal"));
	expect_job_refused(f, &oc_form_job_signal, OC_JOB_OP_SIGNAL, (const char *[]){"100", "USR1", "steps"}, "Scope:");
	expect_job_refused(f, &oc_form_job_time_limit, OC_JOB_OP_TIME_LIMIT, (const char *[]){"101", "2:30"},
			   "Time limit: 2:30 is ambiguous");
	expect_job_refused(f, &oc_form_job_time_limit, OC_JOB_OP_TIME_LIMIT, (const char *[]){"101", "soon"},
			   "Time limit: 90 (minutes), 90m");
	assert_true(strlen(f->err) <= 72);
	expect_job_refused(f, &oc_form_job_partition, OC_JOB_OP_PARTITION, (const char *[]){"101", "gpu"},
			   "no partition gpu");
	expect_job_refused(f, &oc_form_job_partition, OC_JOB_OP_PARTITION, (const char *[]){"101", "normal,large"},
			   "partition:");
	expect_job_refused(f, &oc_form_job_qos, OC_JOB_OP_QOS, (const char *[]){"101", ""}, "QoS:");
	expect_job_refused(f, &oc_form_job_nice, OC_JOB_OP_NICE, (const char *[]){"101", "10x"}, "Nice:");
	expect_job_refused(f, &oc_form_job_nice, OC_JOB_OP_NICE, (const char *[]){"101", "2147483646"}, "Nice:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_complete),
		cmocka_unit_test_setup_teardown(test_drain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resv_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resv_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_onboard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jobs, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
