/* test_checklist.c: the rehearsal checklist loader (rehearsal/checklist.h):
 * a good file with every kind, the shipped llm-poc checklist, and the
 * errors: JSON syntax with line:col, unknown keys, check kinds and action
 * kinds named, wrong types, labels, variables, auto steps that would need
 * an operator; the tables of check kinds and action kinds (kinds.h) whole,
 * unique and documented. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/writer.h"
#include "rehearsal/checklist.h"
#include "rehearsal/kinds.h"
#include "test_util.h"

/* The loader of expect_error. */
static int load(const char *path, char *err, size_t errlen)
{
	struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, errlen);
	if (!cl)
		return -1;
	oc_checklist_free(&cl);
	return 0;
}
#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)

/* The source tree (OC_SOURCE_DIR, tests/unit/CMakeLists.txt). */
static const char *source_dir(void)
{
	return OC_SOURCE_DIR;
}

/* A minimal valid checklist with one step whose body is STEP. */
#define ONE_STEP(step)                                                                                 \
	"{\"checklist\": \"t\", \"version\": 1, \"steps\": [{\"id\": \"s1\", \"title\": \"T\", "      \
	"\"why\": \"runbook\", \"do\": \"\", \"observe\": \"o\"" step "}]}"

static const char good_text[] =
	"{\n"
	"  \"checklist\": \"demo\",\n"
	"  \"version\": 1,\n"
	"  \"title\": \"Demo rehearsal\",\n"
	"  \"vars\": {\"user\": \"alice\", \"node\": \"n1\"},\n"
	"  \"steps\": [\n"
	"    {\"id\": \"cfg-requeue\", \"section\": \"Audit\", \"title\": \"JobRequeue\", \"why\": \"8-3\",\n"
	"     \"do\": \"\", \"observe\": \"JobRequeue=1\", \"auto\": true, \"timeout\": 5,\n"
	"     \"check\": {\"kind\": \"config\", \"key\": \"JobRequeue\", \"equals\": 1}},\n"
	"    {\"id\": \"mu-probe\", \"title\": \"Probe\", \"why\": \"9-5\", \"do\": \"watch ${job:p}\",\n"
	"     \"observe\": \"pending\", \"auto\": true,\n"
	"     \"require\": {\"kind\": \"idle_nodes\", \"partition\": \"large\", \"min\": 2},\n"
	"     \"actions\": [\n"
	"       {\"kind\": \"submit_job\", \"label\": \"p\", \"user\": \"${user}\", \"partition\": \"large\",\n"
	"        \"nodes\": \"idle\", \"gpus_per_node\": 8, \"requeue\": true, \"signal\": \"B:USR1@60\",\n"
	"        \"wait_for\": {\"kind\": \"job\", \"job\": \"p\", \"state\": \"RUNNING\"}, \"wait_timeout\": 12},\n"
	"       {\"kind\": \"signal_job\", \"job\": \"p\", \"signal\": \"SIGUSR1\"},\n"
	"       {\"kind\": \"record_jobs\", \"label\": \"all\"}\n"
	"     ],\n"
	"     \"check\": {\"kind\": \"all\", \"checks\": [\n"
	"       {\"kind\": \"job\", \"job\": \"p\", \"state\": [\"PENDING\"], \"reason\": \"BeginTime\", \"requeued\": true},\n"
	"       {\"kind\": \"file\", \"path\": \"/tmp/x.${job:p}\", \"contains\": \"USR1\", \"remove\": true}\n"
	"     ]}},\n"
	"    {\"id\": \"drill\", \"title\": \"Drain\", \"why\": \"8-2\", \"do\": \"resume ${node}\", \"observe\": \"idle\",\n"
	"     \"actions\": [{\"kind\": \"drain\", \"nodes\": \"${node}\", \"undo\": true},\n"
	"                 {\"kind\": \"reservation\", \"nodes\": \"n2\", \"duration\": -1, \"after_operator\": true}],\n"
	"     \"check\": {\"kind\": \"node\", \"node\": \"${node}\", \"state\": [\"idle\", \"mixed\"], \"drain\": false}}\n"
	"  ]\n"
	"}\n";

static void test_load_good(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[1024] = "stale";
	test_util_write_file(f, "good.json", good_text, path);
	struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
	assert_non_null(cl);
	assert_string_equal(err, "");
	assert_string_equal(cl->name, "demo");
	assert_string_equal(cl->title, "Demo rehearsal");
	assert_string_equal(cl->path, path);
	assert_int_equal(cl->nsteps, 3);
	assert_true(cl->digest != 0);

	const struct oc_step *s = &cl->steps[0];
	assert_string_equal(s->id, "cfg-requeue");
	assert_string_equal(s->section, "Audit");
	assert_true(s->automatic);
	assert_true(s->timeout_s == 5);
	assert_true(s->cleanup);
	assert_int_equal(s->check->kind, OC_CHECK_CONFIG);
	assert_int_equal(s->check->op, OC_OP_EQUALS);
	assert_string_equal(s->check->str, "1");
	assert_false(s->needs_confirm);
	assert_false(s->has_operator_phase);

	s = &cl->steps[1];
	assert_true(s->timeout_s == 30);   /* the default */
	assert_non_null(s->require);
	assert_int_equal(s->require->kind, OC_CHECK_IDLE_NODES);
	assert_true(s->require->num == 2);
	assert_int_equal(s->nactions, 3);
	const struct oc_step_action *a = &s->actions[0];
	assert_int_equal(a->kind, OC_SA_SUBMIT_JOB);
	assert_string_equal(a->user, "alice");        /* ${user} */
	assert_string_equal(a->name, "oc-rehearsal-mu-probe");
	assert_string_equal(a->command, "sleep 600");
	assert_true(a->nodes_idle);
	assert_int_equal(a->gpus_per_node, 8);
	assert_int_equal(a->time_min, 10);
	assert_true(a->requeue);
	assert_false(a->hold);
	assert_false(a->confirm);
	assert_string_equal(a->signal_opt, "B:USR1@60");
	assert_int_equal(a->expect, OC_EXPECT_ACCEPTED);
	assert_non_null(a->wait_for);
	assert_true(a->wait_timeout_s == 12);
	assert_int_equal(s->actions[1].kind, OC_SA_SIGNAL_JOB);
	assert_int_equal(s->actions[1].signo, SIGUSR1);
	assert_string_equal(s->actions[1].signame, "USR1");
	assert_true(s->actions[1].wait_timeout_s == 30);
	assert_int_equal(s->actions[2].kind, OC_SA_RECORD_JOBS);
	assert_string_equal(s->actions[2].state_filter, "RUNNING");
	assert_int_equal(s->check->kind, OC_CHECK_ALL);
	assert_int_equal(s->check->nsub, 2);
	assert_int_equal(s->check->sub[0].requeued, 1);
	assert_int_equal(s->check->sub[0].states.n, 1);
	assert_string_equal(s->check->sub[0].reasons.v[0], "BeginTime");
	assert_string_equal(s->check->sub[1].path, "/tmp/x.${job:p}");   /* kept for the runner */
	assert_true(s->check->sub[1].remove);
	assert_string_equal(s->todo, "watch ${job:p}");

	s = &cl->steps[2];
	assert_false(s->automatic);
	assert_true(s->has_operator_phase);
	assert_true(s->needs_confirm);               /* drain asks by default */
	assert_string_equal(s->todo, "resume n1");
	assert_string_equal(s->actions[0].hostlist, "n1");
	assert_string_equal(s->actions[0].reason, "rehearsal drill");
	assert_true(s->actions[0].undo);
	assert_int_equal(s->actions[1].kind, OC_SA_RESERVATION);
	assert_true(s->actions[1].after_operator);
	assert_int_equal(s->actions[1].duration_min, -1);
	assert_string_equal(s->actions[1].resv_users, "root");
	assert_string_equal(s->actions[1].resv_flags, "MAINT,IGNORE_JOBS");
	assert_int_equal(s->check->drain, 0);
	assert_int_equal(s->check->responding, -1);
	assert_int_equal(s->check->node_states.n, 2);

	assert_int_equal(oc_checklist_find(cl, "drill"), 2);
	assert_int_equal(oc_checklist_find(cl, "nope"), -1);
	assert_string_equal(oc_check_kind_name(OC_CHECK_ACCOUNTS_GPU), "accounts_gpu_limit");
	assert_string_equal(oc_step_action_kind_name(OC_SA_RECORD_JOBS), "record_jobs");
	oc_checklist_free(&cl);
	assert_null(cl);
	oc_checklist_free(&cl);   /* twice is fine */

	/* Variables given by the caller win over the file's. */
	struct oc_checklist_var vars[] = {{"node", "gpu-st-b300-9"}};
	cl = oc_checklist_load(path, vars, 1, err, sizeof(err));
	assert_non_null(cl);
	assert_string_equal(cl->steps[2].actions[0].hostlist, "gpu-st-b300-9");
	assert_string_equal(cl->steps[2].check->names.v[0], "gpu-st-b300-9");
	assert_string_equal(cl->steps[1].actions[0].user, "alice");
	oc_checklist_free(&cl);
}

/* Whether s is printable ASCII: what every locale shows (LANG=C too). */
static bool plain_ascii(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return false;
	return true;
}

/* The lines a shipped checklist shows in any locale (title, why, do,
 * observe) are plain ASCII; the runbook's own words are apart. */
static void assert_shown_ascii(const struct oc_checklist *cl)
{
	for (size_t i = 0; i < cl->nsteps; i++) {
		const struct oc_step *st = &cl->steps[i];
		if (!plain_ascii(st->title) || !plain_ascii(st->why) || !plain_ascii(st->todo) ||
		    !plain_ascii(st->observe))
			fail_msg("step %s: a line is not plain ASCII (shown as '?' under LANG=C)", st->id);
	}
}

/* The shipped checklist covers every item of the issue. */
static void test_load_shipped(void **state)
{
	(void)state;
	char path[4200], err[1024] = "";
	assert_true(snprintf(path, sizeof(path), "%s/src/rehearsal/checklists/llm-poc.json", source_dir()) <
		    (int)sizeof(path));
	struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
	if (!cl)
		print_error("%s\n", err);
	assert_non_null(cl);
	assert_string_equal(cl->name, "llm-poc");
	static const struct {
		const char *id;
		bool automatic;
	} want[] = {
		{"cfg-default-partition", true}, {"cfg-gpu-hidden", true},	 {"cfg-gpu-root-only", true},
		{"cfg-enforce", true},		 {"cfg-job-requeue", true},	 {"cfg-killwait", true},
		{"cfg-gracetime", true},	 {"cfg-healthcheck-local", true}, {"cfg-prolog-local", true},
		{"cfg-epilog-local", true},	 {"cfg-team-gpu-limits", true},	 {"cfg-partition-nodes", true},
		{"mu-grptres-held", true},	 {"mu-max-submit", true},	 {"mu-max-jobs", true},
		{"mu-gpu-refused", true},	 {"mu-preempt-requeue", true},	 {"mu-signal-scancel", true},
		{"mu-signal-preempt", false},	 {"mu-sacct-per-user", true},	 {"drill-drain-resume", false},
		{"drill-node-down-requeue", false}, {"drill-slurmctld-restart", false},
		{"drill-slurmdbd-down", false},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		long at = oc_checklist_find(cl, want[i].id);
		if (at < 0)
			print_error("missing step %s\n", want[i].id);
		assert_true(at >= 0);
		assert_int_equal(cl->steps[at].automatic, want[i].automatic);
		assert_non_null(cl->steps[at].why);
		assert_non_null(cl->steps[at].observe);
	}
	/* Every step has a check; manual ones have instructions. */
	for (size_t i = 0; i < cl->nsteps; i++) {
		assert_non_null(cl->steps[i].check);
		if (!cl->steps[i].automatic)
			assert_true(cl->steps[i].todo[0] != '\0');
	}
	/* The audit items, as the issue words them. */
	const struct oc_step *s = &cl->steps[oc_checklist_find(cl, "cfg-gpu-hidden")];
	assert_int_equal(s->check->kind, OC_CHECK_PARTITION);
	assert_string_equal(s->check->key, "Hidden");
	assert_string_equal(s->check->str, "YES");
	s = &cl->steps[oc_checklist_find(cl, "cfg-enforce")];
	assert_int_equal(s->check->op, OC_OP_CONTAINS_ALL);
	assert_int_equal(s->check->list.n, 3);
	s = &cl->steps[oc_checklist_find(cl, "cfg-prolog-local")];
	assert_int_equal(s->check->op, OC_OP_NOT_UNDER);
	assert_string_equal(s->check->list.v[0], "/fsx");
	s = &cl->steps[oc_checklist_find(cl, "drill-drain-resume")];
	assert_true(s->needs_confirm);
	assert_string_equal(s->actions[0].hostlist, "gpu-st-b300-16");
	/* An English line for every step; the Korean runbook quoted apart. */
	assert_shown_ascii(cl);
	s = &cl->steps[oc_checklist_find(cl, "cfg-killwait")];
	assert_non_null(s->runbook);
	test_util_assert_contains(s->runbook, "\xec\xb2\xb4\xed\x81\xac\xed\x8f\xac\xec\x9d\xb8\xed\x8a\xb8"); /* 체크포인트 */
	test_util_assert_contains(s->why, "room to save a checkpoint");
	s = &cl->steps[oc_checklist_find(cl, "cfg-enforce")];
	assert_null(s->runbook); /* already English */
	oc_checklist_free(&cl);

	/* Site names through --var. */
	struct oc_checklist_var vars[] = {{"drill_node", "gpu-st-b300-125"}, {"user_a", "kim"}};
	cl = oc_checklist_load(path, vars, 2, err, sizeof(err));
	assert_non_null(cl);
	s = &cl->steps[oc_checklist_find(cl, "drill-drain-resume")];
	assert_string_equal(s->actions[0].hostlist, "gpu-st-b300-125");
	s = &cl->steps[oc_checklist_find(cl, "mu-grptres-held")];
	assert_string_equal(s->actions[0].user, "kim");
	oc_checklist_free(&cl);
}

/* The change window's checklist with its variables; its kinds (reboot,
 * end_reservation, the reservation check, node hostlists and rebooted)
 * and their bad input. */
static void test_change_window(void **state)
{
	struct test_util_dir *f = *state;
	char path[4200], err[1024] = "";
	assert_true(snprintf(path, sizeof(path), "%s/src/rehearsal/checklists/change-window.json", source_dir()) <
		    (int)sizeof(path));
	struct oc_checklist_var vars[] = {{"nodes", "gpu-st-b300-[3-4]"}, {"resv_name", "maint-x"}};
	struct oc_checklist *cl = oc_checklist_load(path, vars, 2, err, sizeof(err));
	if (!cl)
		print_error("%s\n", err);
	assert_non_null(cl);
	assert_true(cl->stop_on_failure);
	assert_shown_ascii(cl);
	static const char *const ids[] = {"cw-reserve", "cw-drain", "cw-wait-jobs", "cw-reboot", "cw-end"};
	assert_int_equal(cl->nsteps, 5);
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(cl->steps[i].id, ids[i]);
		assert_true(cl->steps[i].automatic);
		assert_false(cl->steps[i].needs_confirm);
	}
	const struct oc_step *st = &cl->steps[0];
	assert_int_equal(st->actions[0].kind, OC_SA_RESERVATION);
	assert_true(st->actions[0].keep);
	assert_int_equal(st->check->kind, OC_CHECK_RESERVATION);
	assert_string_equal(st->check->names.v[0], "maint-x");
	assert_string_equal(st->check->hostlist, "gpu-st-b300-[3-4]");
	assert_int_equal(st->require->names.n, 2); /* the hostlist, expanded */
	assert_string_equal(st->require->names.v[1], "gpu-st-b300-4");
	st = &cl->steps[3];
	assert_int_equal(st->actions[0].kind, OC_SA_REBOOT);
	assert_true(st->actions[0].asap);
	assert_int_equal(st->actions[0].next_state, OC_REBOOT_NEXT_RESUME);
	assert_string_equal(st->actions[0].reason, "maintenance window");
	assert_int_equal(st->check->rebooted, 1);
	st = &cl->steps[4];
	assert_int_equal(st->actions[0].kind, OC_SA_END_RESERVATION);
	assert_string_equal(st->actions[0].resv_name, "maint-x");
	assert_false(st->check->exists);
	oc_checklist_free(&cl);
	/* Without nodes: refused at load, naming the step. */
	cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
	assert_null(cl);
	assert_non_null(strstr(err, "cw-reserve"));

	expect_error(f, "w1.json", ONE_STEP(", \"actions\": [{\"kind\": \"reboot\", \"nodes\": \"n[1-\"}]"),
		     "not a hostlist expression", NULL);
	expect_error(f, "w2.json",
		     ONE_STEP(", \"actions\": [{\"kind\": \"reboot\", \"nodes\": \"n1\", \"next_state\": \"up\"}]"),
		     "\"next_state\" is resume, down or as_before", NULL);
	expect_error(f, "w3.json", ONE_STEP(", \"check\": {\"kind\": \"node\", \"node\": \"n1\", \"rebooted\": false}"),
		     "\"rebooted\": false checks nothing", NULL);
	expect_error(f, "w4.json",
		     ONE_STEP(", \"check\": {\"kind\": \"reservation\", \"name\": \"r\", \"nodes\": \"n1\", "
			      "\"exists\": false}"),
		     "checks nothing", NULL);
	expect_error(f, "w5.json", ONE_STEP(", \"check\": {\"kind\": \"node\", \"node\": \"n[3-1]\"}"),
		     "\"node\": \"n[3-1]\" is not a node name or hostlist expression", NULL);
	expect_error(f, "w6.json", ONE_STEP(", \"actions\": [{\"kind\": \"end_reservation\"}]"), "no \"name\"", NULL);
	expect_error(f, "w7.json", "{\"checklist\": \"t\", \"version\": 1, \"stop_on_failure\": 1, \"steps\": []}",
		     "\"stop_on_failure\" must be true or false", NULL);
}

static void test_syntax_errors(void **state)
{
	struct test_util_dir *f = *state;
	/* line 3, the missing comma */
	expect_error(f, "a.json", "{\n  \"checklist\": \"t\"\n  \"version\": 1\n}\n", "a.json:3:", NULL);
	expect_error(f, "b.json", "{\"checklist\": \"t\", \"checklist\": \"u\"}", "b.json:1:", "duplicate", NULL);
	expect_error(f, "c.json", "", "c.json:", NULL);
	expect_error(f, "d.json", "[1, 2]", "must be a JSON object", NULL);
	char path[4096], err[256];
	test_util_at(f, "missing.json", path);
	assert_null(oc_checklist_load(path, NULL, 0, err, sizeof(err)));
	test_util_assert_contains(err, "missing.json");
}

static void test_unknown_check_kind(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "k.json", ONE_STEP(", \"check\": {\"kind\": \"partition_hidden\"}"),
		     "step \"s1\": check", "unknown check kind \"partition_hidden\"", "known: config, partition",
		     NULL);
	expect_error(f, "k2.json", ONE_STEP(", \"check\": {\"kind\": \"all\", \"checks\": [{\"kind\": \"nope\"}]}"),
		     "checks[0]", "unknown check kind \"nope\"", NULL);
	expect_error(f, "k3.json", ONE_STEP(", \"check\": {\"key\": \"JobRequeue\"}"), "no \"kind\"", NULL);
	expect_error(f, "k4.json", ONE_STEP(", \"actions\": [{\"kind\": \"power_cycle\"}]"),
		     "actions[0]", "unknown action kind \"power_cycle\"", "submit_job", "reboot", NULL);
}

static void test_unknown_keys(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "u1.json", "{\"checklist\": \"t\", \"version\": 1, \"stpes\": []}", "unknown key \"stpes\"",
		     "known: checklist, version", NULL);
	expect_error(f, "u2.json", ONE_STEP(", \"timeout_s\": 3"), "step \"s1\"", "unknown key \"timeout_s\"", NULL);
	expect_error(f, "u3.json", ONE_STEP(", \"check\": {\"kind\": \"config\", \"key\": \"K\", \"equal\": 1}"),
		     "check (config)", "unknown key \"equal\"", "equals", NULL);
	expect_error(f, "u4.json",
		     ONE_STEP(", \"actions\": [{\"kind\": \"cancel_job\", \"job\": \"x\", \"signal\": \"USR1\"}]"),
		     "actions[0] (cancel_job)", "unknown key \"signal\"", NULL);
	expect_error(f, "u5.json", ONE_STEP(", \"check\": {\"kind\": \"partition\", \"partition\": \"gpu\", "
					    "\"property\": \"Hiden\", \"equals\": true}"),
		     "unknown partition property \"Hiden\"", "Hidden", NULL);
	expect_error(f, "u6.json", ONE_STEP(", \"check\": {\"kind\": \"qos_limit\", \"qos\": \"q\", \"field\": \"MaxJobs\"}"),
		     "unknown field \"MaxJobs\"", "MaxJobsPerUser", NULL);
	expect_error(f, "u7.json", ONE_STEP(", \"check\": {\"kind\": \"node\", \"node\": \"n\", \"state\": \"drained\"}"),
		     "unknown node state \"drained\"", NULL);
	expect_error(f, "u8.json", ONE_STEP(", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"}],"
					    " \"check\": {\"kind\": \"job\", \"job\": \"a\", \"state\": \"RUN\"}"),
		     "unknown job state \"RUN\"", "RUNNING", NULL);
}

static void test_wrong_types(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "t1.json", ONE_STEP(", \"auto\": \"yes\""), "\"auto\" must be true or false", NULL);
	expect_error(f, "t2.json", ONE_STEP(", \"timeout\": \"10\""), "\"timeout\" must be a number", NULL);
	expect_error(f, "t3.json", ONE_STEP(", \"timeout\": 0"), "\"timeout\" must be between", NULL);
	expect_error(f, "t4.json", "{\"checklist\": \"t\", \"version\": 1, \"steps\": {}}", "\"steps\" must be a non-empty list",
		     NULL);
	expect_error(f, "t5.json", "{\"checklist\": \"t\", \"version\": 2, \"steps\": []}", "\"version\" must be 1", NULL);
	expect_error(f, "t6.json", "{\"checklist\": 5, \"version\": 1, \"steps\": []}", "\"checklist\" must be a string", NULL);
	expect_error(f, "t7.json",
		     "{\"checklist\": \"t\", \"version\": 1, \"steps\": [{\"id\": \"s\", \"title\": \"T\", \"why\": \"w\", "
		     "\"observe\": \"o\"}]}",
		     "step \"s\"", "no \"do\"", NULL);
	expect_error(f, "t8.json", ONE_STEP(", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", "
					    "\"nodes\": \"all\"}]"),
		     "\"nodes\" must be a whole number or \"idle\"", NULL);
	expect_error(f, "t9.json", ONE_STEP(", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u x\"}]"),
		     "\"user\" must be a name", NULL);
	expect_error(f, "t10.json", ONE_STEP(", \"check\": {\"kind\": \"config\", \"key\": \"K\", \"min\": \"300 sec\"}"),
		     "\"min\" must be a number", NULL);
	expect_error(f, "t11.json", ONE_STEP(", \"check\": {\"kind\": \"config\", \"key\": \"K\", \"min\": 1, \"equals\": 2}"),
		     "give one expectation", NULL);
	expect_error(f, "t12.json", ONE_STEP(", \"check\": {\"kind\": \"file\", \"path\": \"rel/x\"}"),
		     "\"path\" must be absolute", NULL);
	expect_error(f, "t13.json", ONE_STEP(", \"actions\": [{\"kind\": \"signal_job\", \"job\": \"a\", \"signal\": \"USR1\"}]"),
		     "no earlier action", "\"a\"", NULL);
	expect_error(f, "t14.json",
		     "{\"checklist\": \"t\", \"version\": 1, \"steps\": [{\"id\": \"Bad Id\", \"title\": \"T\"}]}",
		     "steps[0]", "\"id\" must be", NULL);
	expect_error(f, "t15.json", ONE_STEP(", \"runbook\": \"\""), "\"runbook\" must not be empty", NULL);
	expect_error(f, "t16.json", ONE_STEP(", \"runbook\": 3"), "\"runbook\" must be a string", NULL);
}

static void test_semantics(void **state)
{
	struct test_util_dir *f = *state;
	/* A check on a label that no action defines. */
	expect_error(f, "l1.json", ONE_STEP(", \"check\": {\"kind\": \"job\", \"job\": \"ghost\", \"state\": \"PENDING\"}"),
		     "label \"ghost\"", NULL);
	expect_error(f, "l2.json", ONE_STEP(", \"check\": {\"kind\": \"file\", \"path\": \"/tmp/${job:ghost}\"}"),
		     "label \"ghost\"", NULL);
	/* An unknown variable. */
	expect_error(f, "v1.json", ONE_STEP(", \"check\": {\"kind\": \"node\", \"node\": \"${drill}\"}"),
		     "unknown variable \"${drill}\"", NULL);
	/* An auto step cannot drain without "confirm": false, nor wait for an operator. */
	expect_error(f, "c1.json", ONE_STEP(", \"auto\": true, \"actions\": [{\"kind\": \"drain\", \"nodes\": \"n1\"}], "
					    "\"check\": {\"kind\": \"node\", \"node\": \"n1\", \"drain\": true}"),
		     "\"confirm\": false", NULL);
	expect_error(f, "c2.json", ONE_STEP(", \"auto\": true, \"actions\": [{\"kind\": \"record_jobs\", \"label\": \"x\", "
					    "\"after_operator\": true}], \"check\": {\"kind\": \"accounting\", \"slurmdbd\": \"up\"}"),
		     "after_operator", NULL);
	expect_error(f, "c3.json", ONE_STEP(", \"auto\": true"), "needs a \"check\"", NULL);
	/* Ids are unique. */
	expect_error(f, "d1.json",
		     "{\"checklist\": \"t\", \"version\": 1, \"steps\": ["
		     "{\"id\": \"a\", \"title\": \"T\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\"},"
		     "{\"id\": \"a\", \"title\": \"T\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\"}]}",
		     "step \"a\"", "used by steps[0]", NULL);
	/* Labels are unique within a step. */
	expect_error(f, "d2.json", ONE_STEP(", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"},"
					    "{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"}]"),
		     "label \"a\" is used twice", NULL);
	/* A drain with confirm false may run unattended. */
	char path[4096], err[512];
	test_util_write_file(f, "ok.json",
			     ONE_STEP(", \"auto\": true, \"actions\": [{\"kind\": \"drain\", \"nodes\": \"n1\", \"confirm\": false}], "
				      "\"check\": {\"kind\": \"node\", \"node\": \"n1\", \"drain\": true}"),
			     path);
	struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
	assert_non_null(cl);
	assert_false(cl->steps[0].needs_confirm);
	oc_checklist_free(&cl);
}

/* The top level around the steps: "vars", the caller's variables, the
 * number of steps, the path. */
static void test_load_top(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "vars1.json",
		     "{\"checklist\": \"t\", \"version\": 1, \"vars\": [\"a\"], \"steps\": []}",
		     "\"vars\" must be an object of strings", NULL);
	expect_error(f, "vars2.json",
		     "{\"checklist\": \"t\", \"version\": 1, \"vars\": {\"a\": \"x\", \"b\": 2}, \"steps\": []}",
		     "vars", "\"b\" must be a string", NULL);
	expect_error(f, "nover.json", "{\"checklist\": \"t\", \"steps\": []}", "no \"version\"", NULL);

	/* 501 steps: one too many */
	size_t cap = 600 * 100, len = 0;
	char *big = malloc(cap);
	assert_non_null(big);
	len += (size_t)snprintf(big + len, cap - len, "{\"checklist\": \"t\", \"version\": 1, \"steps\": [");
	for (int i = 0; i < 501; i++)
		len += (size_t)snprintf(big + len, cap - len,
					"%s{\"id\": \"s%d\", \"title\": \"T\", \"why\": \"w\", \"do\": \"\", \"observe\": \"o\"}",
					i ? "," : "", i);
	snprintf(big + len, cap - len, "]}");
	expect_error(f, "many.json", big, "more than 500 steps", NULL);
	free(big);

	char path[4096], err[512];
	test_util_write_file(f, "one.json", ONE_STEP(""), path);
	const struct oc_checklist_var nameless[] = {{"drill", "x"}, {"", "y"}};
	assert_null(oc_checklist_load(path, nameless, 2, err, sizeof(err)));
	assert_non_null(strstr(err, "a variable without a name or value"));
	const struct oc_checklist_var valueless[] = {{"drill", NULL}};
	assert_null(oc_checklist_load(path, valueless, 1, err, sizeof(err)));
	assert_non_null(strstr(err, "a variable without a name or value"));
	struct oc_checklist *cl = oc_checklist_load(path, nameless, 1, err, sizeof(err));
	assert_non_null(cl);
	assert_string_equal(cl->title, "t");
	oc_checklist_free(&cl);

	assert_null(oc_checklist_load(NULL, NULL, 0, err, sizeof(err)));
	assert_string_equal(err, "no checklist path");
	assert_null(oc_checklist_load("", NULL, 0, err, sizeof(err)));
	assert_string_equal(err, "no checklist path");
}

/* Every parse path of every check kind and action kind, with the whole
 * message: the keys each kind accepts, the values it refuses, the labels it
 * needs. A step body (after "observe") and what the loader says after
 * "path: ". */
#define X64 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
static const struct {
	const char *step, *want;
} kind_errors[] = {
	{", \"check\": {\"kind\": \"config\"}",
	 "step \"s1\": check (config): no \"key\" (a string is required)"},
	{", \"check\": {\"kind\": \"config\", \"key\": \"K\", \"zz\": 1}",
	 "step \"s1\": check (config): unknown key \"zz\" (known: kind, key, equals, contains_all, min, max, not_under)"},
	{", \"check\": {\"kind\": \"partition\", \"property\": \"Hidden\", \"zz\": 1}",
	 "step \"s1\": check (partition): unknown key \"zz\" (known: kind, partition, property, equals, contains_all, min, max)"},
	{", \"check\": {\"kind\": \"partition_nodes\", \"partitions\": 5}",
	 "step \"s1\": check (partition_nodes): \"partitions\" must be a string or a list of strings"},
	{", \"check\": {\"kind\": \"partition_nodes\", \"zz\": 1}",
	 "step \"s1\": check (partition_nodes): unknown key \"zz\" (known: kind, partitions)"},
	{", \"check\": {\"kind\": \"accounts_gpu_limit\", \"exclude\": []}",
	 "step \"s1\": check (accounts_gpu_limit): \"exclude\" must not be an empty list"},
	{", \"check\": {\"kind\": \"accounts_gpu_limit\", \"zz\": 1}",
	 "step \"s1\": check (accounts_gpu_limit): unknown key \"zz\" (known: kind, tres, exclude)"},
	{", \"check\": {\"kind\": \"assoc_limit\", \"account\": [\"a\", \"b\"], \"field\": \"GrpJobs\"}",
	 "step \"s1\": check (assoc_limit): \"account\" must name one"},
	{", \"check\": {\"kind\": \"assoc_limit\", \"account\": \"a\", \"field\": \"GrpTRES\"}",
	 "step \"s1\": check (assoc_limit): \"field\": \"GrpTRES\" needs \"tres\" (e.g. \"gres/gpu\")"},
	{", \"check\": {\"kind\": \"assoc_limit\", \"account\": \"a\", \"field\": \"GrpJobs\", \"contains_all\": [\"x\"]}",
	 "step \"s1\": check (assoc_limit): unknown key \"contains_all\" (known: kind, account, user, field, tres, equals, min, max)"},
	{", \"check\": {\"kind\": \"assoc_limit\", \"account\": \"a\", \"field\": \"GrpJobs\", \"equals\": \"many\"}",
	 "step \"s1\": check (assoc_limit): \"equals\" must be a number or \"none\""},
	{", \"check\": {\"kind\": \"assoc_limit\", \"account\": \"a\", \"user\": \"\", \"field\": \"GrpJobs\"}",
	 "step \"s1\": check (assoc_limit): \"user\" must not be empty"},
	{", \"check\": {\"kind\": \"assoc_limit\", \"account\": \"a\", \"field\": \"MaxJobsPerUser\"}",
	 "step \"s1\": check (assoc_limit): unknown field \"MaxJobsPerUser\" (known: GrpTRES, GrpJobs, GrpSubmitJobs, MaxJobs, MaxSubmitJobs)"},
	{", \"check\": {\"kind\": \"assoc_limit\", \"zz\": 1}",
	 "step \"s1\": check (assoc_limit): unknown key \"zz\" (known: kind, account, user, field, tres, equals, min, max)"},
	{", \"check\": {\"kind\": \"qos_limit\", \"qos\": \"q\", \"user\": \"u\", \"field\": \"GrpJobs\"}",
	 "step \"s1\": check (qos_limit): unknown key \"user\" (known: kind, qos, field, tres, equals, min, max)"},
	{", \"check\": {\"kind\": \"qos_limit\", \"qos\": [\"q\", \"r\"], \"field\": \"GrpJobs\"}",
	 "step \"s1\": check (qos_limit): \"qos\" must name one"},
	{", \"check\": {\"kind\": \"qos_limit\", \"field\": \"GrpJobs\"}",
	 "step \"s1\": check (qos_limit): no \"qos\" (a string or a list of strings is required)"},
	{", \"check\": {\"kind\": \"node\", \"node\": \"n1\", \"drain\": \"yes\"}",
	 "step \"s1\": check (node): \"drain\" must be true or false"},
	{", \"check\": {\"kind\": \"node\", \"zz\": 1}",
	 "step \"s1\": check (node): unknown key \"zz\" (known: kind, node, state, drain, responding, rebooted, reason_contains)"},
	{", \"check\": {\"kind\": \"job\", \"zz\": 1}",
	 "step \"s1\": check (job): unknown key \"zz\" (known: kind, job, state, reason, requeued)"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"}], \"check\": {\"kind\": \"job\", \"job\": \"a\", \"requeued\": false}",
	 "step \"s1\": check (job): \"requeued\": false checks nothing: leave it out"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"}], \"check\": {\"kind\": \"submit\", \"job\": \"a\", \"result\": \"maybe\"}",
	 "step \"s1\": check (submit): \"result\" must be \"refused\", \"accepted\" or \"never_runs\" (got \"maybe\")"},
	{", \"check\": {\"kind\": \"submit\", \"job\": \"ghost\", \"result\": \"refused\"}",
	 "step \"s1\": check (submit): no earlier action of this step stores jobs under the label \"ghost\" (a submit_job or record_jobs action with \"label\": \"ghost\")"},
	{", \"check\": {\"kind\": \"submit\", \"zz\": 1}",
	 "step \"s1\": check (submit): unknown key \"zz\" (known: kind, job, result, contains)"},
	{", \"check\": {\"kind\": \"sacct\", \"users\": \"u\", \"since_hours\": 0}",
	 "step \"s1\": check (sacct): \"since_hours\" must be between 0.01 and 8784 (got 0)"},
	{", \"check\": {\"kind\": \"sacct\", \"since_hours\": 1}",
	 "step \"s1\": check (sacct): no \"users\" (a string or a list of strings is required)"},
	{", \"check\": {\"kind\": \"sacct\", \"zz\": 1}",
	 "step \"s1\": check (sacct): unknown key \"zz\" (known: kind, users, since_hours)"},
	{", \"check\": {\"kind\": \"file\", \"zz\": 1}",
	 "step \"s1\": check (file): unknown key \"zz\" (known: kind, path, contains, remove)"},
	{", \"check\": {\"kind\": \"accounting\", \"slurmdbd\": \"sideways\"}",
	 "step \"s1\": check (accounting): \"slurmdbd\" must be \"up\" or \"down\" (got \"sideways\")"},
	{", \"check\": {\"kind\": \"accounting\", \"zz\": 1}",
	 "step \"s1\": check (accounting): unknown key \"zz\" (known: kind, slurmdbd)"},
	{", \"check\": {\"kind\": \"idle_nodes\", \"partition\": [\"a\", \"b\"]}",
	 "step \"s1\": check (idle_nodes): \"partition\" must name one partition"},
	{", \"check\": {\"kind\": \"idle_nodes\", \"partition\": \"a\", \"min\": 0}",
	 "step \"s1\": check (idle_nodes): \"min\" must be a whole number from 1 to 100000"},
	{", \"check\": {\"kind\": \"idle_nodes\", \"zz\": 1}",
	 "step \"s1\": check (idle_nodes): unknown key \"zz\" (known: kind, partition, min)"},
	{", \"check\": {\"kind\": \"all\", \"checks\": []}",
	 "step \"s1\": check (all): \"checks\" must be a non-empty list of checks"},
	{", \"check\": {\"kind\": \"all\", \"zz\": 1}",
	 "step \"s1\": check (all): unknown key \"zz\" (known: kind, checks)"},
	{", \"check\": {\"kind\": \"all\", \"checks\": [{\"kind\": \"all\", \"checks\": [{\"kind\": \"all\", \"checks\": [{\"kind\": \"all\", \"checks\": [{\"kind\": \"all\", \"checks\": [{\"kind\": \"all\", \"checks\": [{\"kind\": \"accounting\", \"slurmdbd\": \"up\"}]}]}]}]}]}]}",
	 "step \"s1\": check (all): checks[0] (all): checks[0] (all): checks[0] (all): checks[0] (all): checks[0]: checks nested more than 4 deep"},
	{", \"check\": {\"kind\": 5}",
	 "step \"s1\": check: \"kind\" must be a string"},
	{", \"check\": []",
	 "step \"s1\": check: a check must be an object with a \"kind\""},
	{", \"require\": {\"kind\": \"job\", \"job\": \"x\"}",
	 "step \"s1\": require (job): no earlier action of this step stores jobs under the label \"x\" (a submit_job or record_jobs action with \"label\": \"x\")"},
	{", \"actions\": {}",
	 "step \"s1\": \"actions\" must be a list of actions"},
	{", \"actions\": [5]",
	 "step \"s1\": actions[0]: an action must be an object with a \"kind\""},
	{", \"actions\": [{\"kind\": [\"submit_job\"]}]",
	 "step \"s1\": actions[0]: \"kind\" must be a string"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (submit_job): unknown key \"zz\" (known: kind, label, user, account, partition, qos, name, nodes, on_nodes_of, gpus_per_node, time, signal, command, requeue, hold, expect, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"expect\": \"maybe\"}]",
	 "step \"s1\": actions[0] (submit_job): \"expect\" must be \"accepted\", \"refused\" or \"any\" (got \"maybe\")"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"nodes\": \"idle\"}]",
	 "step \"s1\": actions[0] (submit_job): \"nodes\": \"idle\" needs a \"partition\""},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"nodes\": 0}]",
	 "step \"s1\": actions[0] (submit_job): \"nodes\" must be a whole number from 1 to 100000"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"time\": 0}]",
	 "step \"s1\": actions[0] (submit_job): \"time\" must be a whole number from 1 to 525600"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"command\": \"" X64 X64 X64 X64 "\"}]",
	 "step \"s1\": actions[0] (submit_job): \"command\" must be shorter than 256 characters"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"user\": \"u\"}]",
	 "step \"s1\": actions[0] (submit_job): no \"label\" (a string is required)"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"wait_timeout\": 0}]",
	 "step \"s1\": actions[0] (submit_job): \"wait_timeout\" must be between 1 and 86400 (got 0)"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"confirm\": \"no\"}]",
	 "step \"s1\": actions[0] (submit_job): \"confirm\" must be true or false"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"wait_for\": {\"kind\": \"job\", \"job\": \"b\"}}]",
	 "step \"s1\": actions[0] (submit_job): wait_for (job): no earlier action of this step stores jobs under the label \"b\" (a submit_job or record_jobs action with \"label\": \"b\")"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\", \"on_nodes_of\": \"a\"}]",
	 "step \"s1\": actions[0] (submit_job): no earlier action of this step stores jobs under the label \"a\" (a submit_job or record_jobs action with \"label\": \"a\")"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"}, {\"kind\": \"signal_job\", \"job\": \"a\", \"signal\": \"WINCH\"}]",
	 "step \"s1\": actions[1] (signal_job): unknown signal \"WINCH\" (known: USR1, USR2, TERM, INT, HUP, KILL, CONT, STOP)"},
	{", \"actions\": [{\"kind\": \"submit_job\", \"label\": \"a\", \"user\": \"u\"}, {\"kind\": \"signal_job\", \"job\": \"a\"}]",
	 "step \"s1\": actions[1] (signal_job): no \"signal\" (a string is required)"},
	{", \"actions\": [{\"kind\": \"signal_job\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (signal_job): unknown key \"zz\" (known: kind, job, signal, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"cancel_job\", \"job\": \"b\"}]",
	 "step \"s1\": actions[0] (cancel_job): no earlier action of this step stores jobs under the label \"b\" (a submit_job or record_jobs action with \"label\": \"b\")"},
	{", \"actions\": [{\"kind\": \"cancel_job\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (cancel_job): unknown key \"zz\" (known: kind, job, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"drain\", \"nodes\": \"n1\", \"undo\": 1}]",
	 "step \"s1\": actions[0] (drain): \"undo\" must be true or false"},
	{", \"actions\": [{\"kind\": \"drain\", \"reason\": \"r\"}]",
	 "step \"s1\": actions[0] (drain): no \"nodes\" (a string is required)"},
	{", \"actions\": [{\"kind\": \"drain\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (drain): unknown key \"zz\" (known: kind, nodes, reason, undo, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"resume\", \"nodes\": \"n 1\"}]",
	 "step \"s1\": actions[0] (resume): \"nodes\" must be a name without spaces or quotes, shorter than 4096 characters"},
	{", \"actions\": [{\"kind\": \"resume\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (resume): unknown key \"zz\" (known: kind, nodes, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"reservation\", \"nodes\": \"n1\", \"duration\": 0}]",
	 "step \"s1\": actions[0] (reservation): \"duration\" is minutes (1 or more), or -1 for infinite"},
	{", \"actions\": [{\"kind\": \"reservation\", \"nodes\": \"n1\", \"duration\": 0.5}]",
	 "step \"s1\": actions[0] (reservation): \"duration\" is minutes (1 or more), or -1 for infinite"},
	{", \"actions\": [{\"kind\": \"reservation\", \"nodes\": \"n1\", \"name\": \"a b\"}]",
	 "step \"s1\": actions[0] (reservation): \"name\" must be a name without spaces or quotes, shorter than 128 characters"},
	{", \"actions\": [{\"kind\": \"reservation\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (reservation): unknown key \"zz\" (known: kind, name, nodes, users, accounts, flags, duration, keep, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"record_jobs\", \"label\": \"a\", \"state\": \"RUN\"}]",
	 "step \"s1\": actions[0] (record_jobs): unknown job state \"RUN\""},
	{", \"actions\": [{\"kind\": \"record_jobs\", \"label\": \"a\"}, {\"kind\": \"record_jobs\", \"label\": \"a\"}]",
	 "step \"s1\": actions[1] (record_jobs): label \"a\" is used twice in this step"},
	{", \"actions\": [{\"kind\": \"record_jobs\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (record_jobs): unknown key \"zz\" (known: kind, label, state, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"record_jobs\", \"label\": \"a\", \"after_operator\": true}, {\"kind\": \"record_jobs\", \"label\": \"b\"}]",
	 "step \"s1\": actions[1]: comes after an \"after_operator\" action: it must be one too"},
	{", \"auto\": true, \"actions\": [{\"kind\": \"reservation\", \"nodes\": \"n1\"}], \"check\": {\"kind\": \"accounting\", \"slurmdbd\": \"up\"}",
	 "step \"s1\": actions[0]: an \"auto\" step runs unattended, but this reservation action asks for confirmation: set \"confirm\": false on it, or make the step manual"},
	{", \"check\": {\"kind\": \"nope\"}",
	 "step \"s1\": check: unknown check kind \"nope\" (known: config, partition, partition_nodes, accounts_gpu_limit, assoc_limit, qos_limit, node, job, submit, sacct, file, accounting, idle_nodes, reservation, all)"},
	{", \"actions\": [{\"kind\": \"power_cycle\"}]",
	 "step \"s1\": actions[0]: unknown action kind \"power_cycle\" (known: submit_job, signal_job, cancel_job, drain, resume, reservation, record_jobs, reboot, end_reservation)"},
	{", \"actions\": [{\"kind\": \"reboot\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (reboot): unknown key \"zz\" (known: kind, nodes, asap, next_state, reason, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"actions\": [{\"kind\": \"end_reservation\", \"zz\": 1}]",
	 "step \"s1\": actions[0] (end_reservation): unknown key \"zz\" (known: kind, name, after_operator, confirm, wait_for, wait_timeout)"},
	{", \"check\": {\"kind\": \"reservation\", \"zz\": 1}",
	 "step \"s1\": check (reservation): unknown key \"zz\" (known: kind, name, nodes, exists)"},
};

static void test_kind_errors(void **state)
{
	struct test_util_dir *f = *state;
	for (size_t i = 0; i < sizeof(kind_errors) / sizeof(kind_errors[0]); i++) {
		char text[4096], path[4096], err[1024] = "";
		snprintf(text, sizeof(text), ONE_STEP("%s"), kind_errors[i].step);
		test_util_write_file(f, "kinds.json", text, path);
		struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, sizeof(err));
		if (cl)
			fail_msg("accepted: %s", kind_errors[i].step);
		size_t n = strlen(path);
		assert_memory_equal(err, path, n);
		if (strcmp(err + n, "") == 0 || strcmp(err + n + 2, kind_errors[i].want) != 0)
			fail_msg("%s\n  got:  %s\n  want: %s", kind_errors[i].step, err + n, kind_errors[i].want);
	}
}

/* One entry of a kind table: named as its kind's name function says,
 * with its functions (fns), and by a name none of the n before it has
 * (seen, where it is added). */
static void check_entry(const char *name, const char *by_fn, bool fns, const char **seen, int n)
{
	assert_non_null(name);
	assert_string_equal(by_fn, name);
	assert_true(fns);
	for (int k = 0; k < n; k++)
		assert_string_not_equal(seen[k], name);
	seen[n] = name;
}

/* A kind's NULL-terminated key list: not empty, no "kind", no key twice;
 * docs/rehearsal.md has a row for the kind (`name` first) that names each
 * key but those of skip. */
static void check_doc(const char *doc, const char *name, const char *const *keys, const char *const *skip)
{
	char head[96];
	snprintf(head, sizeof(head), "\n| `%s` |", name);
	const char *row = strstr(doc, head);
	if (!row)
		fail_msg("docs/rehearsal.md has no row for the kind %s", name);
	size_t rowlen = strcspn(row + 1, "\n");
	assert_non_null(keys);
	assert_non_null(keys[0]);
	for (size_t i = 0; keys[i]; i++) {
		assert_string_not_equal(keys[i], "kind");
		for (size_t k = 0; k < i; k++)
			if (strcmp(keys[i], keys[k]) == 0)
				fail_msg("%s takes \"%s\" twice", name, keys[i]);
		bool common = false;
		for (size_t k = 0; skip && skip[k]; k++)
			common |= strcmp(skip[k], keys[i]) == 0;
		char quoted[64];
		snprintf(quoted, sizeof(quoted), "`%s`", keys[i]);
		const char *at = strstr(row + 1, quoted);
		if (!common && (!at || at > row + 1 + rowlen))
			fail_msg("docs/rehearsal.md: the row of %s does not name its key %s", name, quoted);
	}
}

/* Every kind is one whole entry: a name no other kind has, keys, its
 * functions; and docs/rehearsal.md has a row for it naming its keys. */
static void test_kind_tables(void **state)
{
	(void)state;
	char path[4200];
	size_t doclen;
	assert_true(snprintf(path, sizeof(path), "%s/docs/rehearsal.md", source_dir()) < (int)sizeof(path));
	char *doc = test_util_slurp(path, &doclen);
	const char *seen[OC_CHECK_KIND_COUNT + OC_SA_KIND_COUNT];
	/* Each table in its section: a check and an action kind may share a
	 * name (reservation). */
	const char *actions_doc = strstr(doc, "\n### Actions\n"), *checks_doc = strstr(doc, "\n### Checks\n");
	assert_non_null(actions_doc);
	assert_non_null(checks_doc);
	for (int i = 0; i < OC_CHECK_KIND_COUNT; i++) {
		const struct oc_check_kind_def *d = &oc_check_kinds[i];
		check_entry(d->name, oc_check_kind_name((enum oc_check_kind)i), d->parse && d->eval, seen, i);
		check_doc(checks_doc, d->name, d->keys, NULL);
	}
	/* The keys every action takes: in each list, documented once above
	 * the kinds. */
	static const char *const common[] = {"after_operator", "confirm", "wait_for", "wait_timeout", NULL};
	for (int i = 0; i < OC_SA_KIND_COUNT; i++) {
		const struct oc_step_action_kind_def *d = &oc_step_action_kinds[i];
		/* Unique among the action kinds: a check kind may have its name. */
		check_entry(d->name, oc_step_action_kind_name((enum oc_step_action_kind)i), d->parse && d->run,
			    seen + OC_CHECK_KIND_COUNT, i);
		check_doc(actions_doc, d->name, d->keys, common);
		for (size_t k = 0; common[k]; k++) {
			bool has = false;
			for (size_t j = 0; d->keys[j]; j++)
				has |= strcmp(d->keys[j], common[k]) == 0;
			if (!has)
				fail_msg("action kind %s does not take \"%s\"", d->name, common[k]);
		}
	}
	assert_string_equal(oc_check_kind_name(OC_CHECK_KIND_COUNT), "?");
	assert_string_equal(oc_step_action_kind_name(OC_SA_KIND_COUNT), "?");
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_load_good, test_util_setup, test_util_teardown),
		cmocka_unit_test(test_load_shipped),
		cmocka_unit_test_setup_teardown(test_change_window, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_syntax_errors, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_check_kind, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_keys, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_wrong_types, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_semantics, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_top, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_kind_errors, test_util_setup, test_util_teardown),
		cmocka_unit_test(test_kind_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
