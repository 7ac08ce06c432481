/* test_onboard.c: the onboarding engine (actions/onboard.h): the JSON
 * file, every check message, the sacctmgr plans (exact argv and command
 * lines, in order) and the read-back comparison. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/onboard.h"
#include "actions/worker.h"
#include "test_util.h"

/* Users the OS user database has everywhere, and one it surely lacks. */
#define U1 "root"
#define U2 "nobody"
#define NO_USER "oc_no_such_user_x"

/* ---- helpers -------------------------------------------------------------- */

static struct oc_onb_spec loaded;   /* what load() fills (40 KB: not on the stack) */

/* The loader of expect_error: on -1 the spec must be cleared. */
static int load(const char *path, char *err, size_t errlen)
{
	memset(&loaded, 0x5a, sizeof(loaded));
	int rc = oc_onb_spec_load(path, &loaded, err, errlen);
	if (rc < 0) {
		assert_string_equal(loaded.account, "");
		assert_int_equal(loaded.nusers, 0);
		assert_true(loaded.gpu_quota == OC_ONB_NONE);
	}
	return rc;
}
#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)

/* The source tree (OC_SOURCE_DIR, tests/unit/CMakeLists.txt). */
static const char *source_dir(void)
{
	return OC_SOURCE_DIR;
}

static struct oc_onb_spec *new_spec(const char *account)
{
	struct oc_onb_spec *s = malloc(sizeof(*s));
	assert_non_null(s);
	oc_onb_spec_init(s);
	snprintf(s->account, sizeof(s->account), "%s", account);
	return s;
}

static void add_name(char (*list)[OC_ONB_NAME_MAX], size_t *n, const char *name)
{
	snprintf(list[*n], OC_ONB_NAME_MAX, "%s", name);
	(*n)++;
}

static void add_user(struct oc_onb_spec *s, const char *name, bool allow_missing)
{
	snprintf(s->users[s->nusers].name, OC_ONB_NAME_MAX, "%s", name);
	s->users[s->nusers].allow_missing_os_user = allow_missing;
	s->nusers++;
}

static struct oc_onb_qos_spec *add_new_qos(struct oc_onb_spec *s, const char *name, int64_t jobs,
					   int64_t submit, int64_t prio)
{
	struct oc_onb_qos_spec *q = &s->new_qos[s->nnew_qos++];
	snprintf(q->name, sizeof(q->name), "%s", name);
	q->max_jobs_pu = jobs;
	q->max_submit_pu = submit;
	q->priority = prio;
	return q;
}

static void add_cluster_qos(struct oc_onb_state *st, const char *name, int64_t jobs, int64_t submit,
			    int64_t prio)
{
	struct oc_onb_qos_state *q = &st->all_qos[st->nall_qos++];
	snprintf(q->name, sizeof(q->name), "%s", name);
	q->max_jobs_pu = jobs;
	q->max_submit_pu = submit;
	q->priority = prio;
}

/* The test cluster's QoS (the runbook's), and no account. */
static struct oc_onb_state *cluster(void)
{
	struct oc_onb_state *st = malloc(sizeof(*st));
	assert_non_null(st);
	oc_onb_state_init(st);
	snprintf(st->cluster, sizeof(st->cluster), "llm-poc");
	add_cluster_qos(st, "normal", OC_ONB_NONE, OC_ONB_NONE, 0);
	add_cluster_qos(st, "debug_qos", 1, 2, 1000);
	add_cluster_qos(st, "normal_qos", 4, 8, 2000);
	add_cluster_qos(st, "large_qos", OC_ONB_NONE, OC_ONB_NONE, 3000);
	add_cluster_qos(st, "exclusive_qos", 1, 2, 10000);
	return st;
}

/* The example's team, with root and nobody as its users. */
static struct oc_onb_spec *team_c(void)
{
	struct oc_onb_spec *s = new_spec("team-c");
	snprintf(s->description, sizeof(s->description), "Team C");
	snprintf(s->parent, sizeof(s->parent), "root");
	s->gpu_quota = 32;
	add_name(s->qos, &s->nqos, "debug_qos");
	add_name(s->qos, &s->nqos, "normal_qos");
	snprintf(s->default_qos, sizeof(s->default_qos), "normal_qos");
	add_user(s, U1, false);
	add_user(s, U2, false);
	return s;
}

/* The state after team_c() was applied (as sacctmgr shows it: the
 * description in lower case, "normal" inherited from root). */
static struct oc_onb_state *team_c_applied(void)
{
	struct oc_onb_state *st = cluster();
	st->account_exists = true;
	snprintf(st->description, sizeof(st->description), "team c");
	snprintf(st->parent, sizeof(st->parent), "root");
	st->gpu_quota = 32;
	st->fairshare = 1;
	add_name(st->qos, &st->nqos, "debug_qos");
	add_name(st->qos, &st->nqos, "normal");
	add_name(st->qos, &st->nqos, "normal_qos");
	snprintf(st->default_qos, sizeof(st->default_qos), "normal_qos");
	add_name(st->users, &st->nusers, U1);
	add_name(st->users, &st->nusers, U2);
	return st;
}

/* Asserts the step's argv: the NULL-terminated list after step. */
static void expect_argv(const struct oc_onb_step *step, ...)
{
	va_list ap;
	size_t i = 0;
	va_start(ap, step);
	for (const char *a; (a = va_arg(ap, const char *)) != NULL; i++) {
		assert_true(i < OC_ONB_MAX_ARGS);
		assert_non_null(step->argv[i]);
		assert_string_equal(step->argv[i], a);
	}
	va_end(ap);
	assert_null(step->argv[i]);
}

/* Index of the diff entry with exactly text, or -1. */
static int diff_find(const struct oc_onb_plan *p, const char *text)
{
	for (size_t i = 0; i < p->ndiff; i++)
		if (strcmp(p->diff[i].text, text) == 0)
			return (int)i;
	return -1;
}

/* Asserts a diff entry of kind with exactly text. */
static void expect_diff(const struct oc_onb_plan *p, enum oc_onb_diff_kind kind, const char *text)
{
	int i = diff_find(p, text);
	if (i < 0) {
		for (size_t j = 0; j < p->ndiff; j++)
			print_error("  diff[%zu] %d %s\n", j, p->diff[j].kind, p->diff[j].text);
		print_error("no diff entry \"%s\"\n", text);
	}
	assert_true(i >= 0);
	assert_int_equal(p->diff[i].kind, kind);
}

/* Checks spec against state (may be NULL), expecting -1 and every needle
 * (NULL-terminated) in the message. Returns nothing. */
static void check_refuses(const struct oc_onb_spec *s, const struct oc_onb_state *st, ...)
{
	char err[4096];
	va_list ap;
	assert_int_equal(oc_onb_spec_check(s, st, err, sizeof(err)), -1);
	va_start(ap, st);
	for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
		test_util_assert_contains(err, needle);
	va_end(ap);
}

static void check_passes(const struct oc_onb_spec *s, const struct oc_onb_state *st)
{
	char err[4096] = "x";
	int rc = oc_onb_spec_check(s, st, err, sizeof(err));
	if (rc != 0)
		print_error("refused: %s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
}

/* ---- the file ------------------------------------------------------------- */

static void test_load_example(void **state)
{
	(void)state;
	char path[4200], err[1024] = "";
	snprintf(path, sizeof(path), "%s/docs/team-c.json", source_dir());
	int rc = load(path, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(loaded.account, "team-c");
	assert_string_equal(loaded.description, "Team C");
	assert_string_equal(loaded.parent, "root");
	assert_true(loaded.gpu_quota == 32);
	assert_true(loaded.cpu_quota == OC_ONB_NONE);
	assert_true(loaded.mem_quota_mb == OC_ONB_NONE);
	assert_true(loaded.fairshare == OC_ONB_NONE);
	assert_int_equal(loaded.nqos, 2);
	assert_string_equal(loaded.qos[0], "debug_qos");
	assert_string_equal(loaded.qos[1], "normal_qos");
	assert_string_equal(loaded.default_qos, "normal_qos");
	assert_int_equal(loaded.nusers, 2);
	assert_string_equal(loaded.users[0].name, "carol");
	assert_string_equal(loaded.users[1].name, "dave");
	assert_false(loaded.users[0].allow_missing_os_user);
	assert_int_equal(loaded.nnew_qos, 0);
	assert_int_equal(loaded.nremove_users, 0);
	assert_int_equal(loaded.nremove_qos, 0);
	/* the example passes the checks that do not need the cluster, but for
	 * its users on a machine without them */
	char cerr[4096];
	if (oc_onb_spec_check(&loaded, NULL, cerr, sizeof(cerr)) < 0) {
		for (char *line = strtok(cerr, "\n"); line; line = strtok(NULL, "\n"))
			test_util_assert_contains(line, "does not exist in the OS user database");
	}
}

static void test_load_every_key(void **state)
{
	const struct test_util_dir *d = *state;
	char path[4096], err[1024] = "";
	test_util_write_file(d, "team-d.json",
			     "{\n"
			     "  \"account\": \"team-d\",\n"
			     "  \"description\": \"Team D \\\"vision\\\" ;$()\",\n"
			     "  \"parent\": \"research\",\n"
			     "  \"gpu_quota\": null,\n"
			     "  \"cpu_quota\": 1024,\n"
			     "  \"mem_quota_mb\": 4194304,\n"
			     "  \"fairshare\": 10,\n"
			     "  \"qos\": [\"debug_qos\", \"normal_qos\", \"exclusive_qos\"],\n"
			     "  \"default_qos\": \"normal_qos\",\n"
			     "  \"new_qos\": [{\"name\": \"normal_qos\", \"max_jobs_per_user\": 4,\n"
			     "               \"max_submit_jobs_per_user\": null, \"priority\": 2000},\n"
			     "              {\"name\": \"bare_qos\"}],\n"
			     "  \"users\": [\"alice\", {\"name\": \"ldapuser\", \"allow_missing_os_user\": true},\n"
			     "            {\"name\": \"Bob.Smith\"}],\n"
			     "  \"remove_users\": [\"bob\"],\n"
			     "  \"remove_qos\": [\"large_qos\"]\n"
			     "}\n",
			     path);
	int rc = load(path, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(loaded.account, "team-d");
	assert_string_equal(loaded.description, "Team D \"vision\" ;$()");
	assert_string_equal(loaded.parent, "research");
	assert_true(loaded.gpu_quota == OC_ONB_UNLIMITED);
	assert_true(loaded.cpu_quota == 1024);
	assert_true(loaded.mem_quota_mb == 4194304);
	assert_true(loaded.fairshare == 10);
	assert_int_equal(loaded.nqos, 3);
	assert_string_equal(loaded.qos[2], "exclusive_qos");
	assert_int_equal(loaded.nnew_qos, 2);
	assert_string_equal(loaded.new_qos[0].name, "normal_qos");
	assert_true(loaded.new_qos[0].max_jobs_pu == 4);
	assert_true(loaded.new_qos[0].max_submit_pu == OC_ONB_UNLIMITED);
	assert_true(loaded.new_qos[0].priority == 2000);
	assert_string_equal(loaded.new_qos[1].name, "bare_qos");
	assert_true(loaded.new_qos[1].max_jobs_pu == OC_ONB_NONE);
	assert_true(loaded.new_qos[1].max_submit_pu == OC_ONB_NONE);
	assert_true(loaded.new_qos[1].priority == OC_ONB_NONE);
	assert_int_equal(loaded.nusers, 3);
	assert_string_equal(loaded.users[0].name, "alice");
	assert_false(loaded.users[0].allow_missing_os_user);
	assert_string_equal(loaded.users[1].name, "ldapuser");
	assert_true(loaded.users[1].allow_missing_os_user);
	assert_string_equal(loaded.users[2].name, "Bob.Smith");
	assert_int_equal(loaded.nremove_users, 1);
	assert_string_equal(loaded.remove_users[0], "bob");
	assert_int_equal(loaded.nremove_qos, 1);
	assert_string_equal(loaded.remove_qos[0], "large_qos");

	/* the least: an account */
	test_util_write_file(d, "min.json", "{\"account\": \"x\", \"parent\": \"\", \"default_qos\": \"\"}", path);
	assert_int_equal(load(path, err, sizeof(err)), 0);
	assert_string_equal(loaded.account, "x");
	assert_string_equal(loaded.parent, "");
	assert_true(loaded.gpu_quota == OC_ONB_NONE && loaded.fairshare == OC_ONB_NONE);
	assert_int_equal(loaded.nqos + loaded.nusers + loaded.nnew_qos, 0);
}

static void test_load_syntax(void **state)
{
	const struct test_util_dir *d = *state;
	char path[4096], err[1024];

	/* broken: the line and column of the error */
	test_util_write_file(d, "b.json", "{\n  \"account\": \"team-c\",\n  \"qos\": [debug_qos]\n}\n", path);
	assert_int_equal(load(path, err, sizeof(err)), -1);
	char want[4200];
	snprintf(want, sizeof(want), "%s:3:", path);
	assert_memory_equal(err, want, strlen(want));
	expect_error(d, "b.json", "{\"account\": \"team-c\",}", ":1:", NULL);
	/* truncated */
	expect_error(d, "t.json", "{\"account\": \"team-c\", \"users\": [\"carol\"", ":1:", NULL);
	expect_error(d, "t.json", "{\"account\": \"team-c\",\n \"description\": \"Team", ":2:", NULL);
	/* empty */
	expect_error(d, "e.json", "", NULL);
	/* duplicate key */
	expect_error(d, "dup.json", "{\"account\": \"a\",\n \"account\": \"b\"}", ":2:", "duplicate", NULL);
	/* not an object; no account */
	expect_error(d, "arr.json", "[\"team-c\"]", "an onboarding file must be a JSON object", NULL);
	expect_error(d, "noacct.json", "{\"gpu_quota\": 32}", ": no \"account\"", NULL);
	/* a missing file */
	assert_int_equal(oc_onb_spec_load("/nonexistent/oc_onb.json", &loaded, err, sizeof(err)), -1);
	test_util_assert_contains(err, "/nonexistent/oc_onb.json");
	assert_string_equal(loaded.account, "");
	assert_int_equal(oc_onb_spec_load(NULL, &loaded, err, sizeof(err)), -1);
}

static void test_load_unknown_key(void **state)
{
	const struct test_util_dir *d = *state;
	expect_error(d, "u.json", "{\"account\": \"team-c\", \"gpus\": 32}", ": unknown key \"gpus\"",
		     "(an onboarding file has account, description, parent, gpu_quota, cpu_quota, mem_quota_mb, "
		     "fairshare, qos, default_qos, new_qos, users, remove_users, remove_qos)",
		     NULL);
	expect_error(d, "u.json", "{\"account\": \"team-c\", \"users\": [{\"name\": \"carol\", \"admin\": true}]}",
		     "users[0]: unknown key \"admin\" (a user entry has name, allow_missing_os_user)", NULL);
	expect_error(d, "u.json", "{\"account\": \"team-c\", \"new_qos\": [{\"name\": \"q\", \"MaxJobs\": 1}]}",
		     "new_qos[0]: unknown key \"MaxJobs\" (a new_qos entry has name, max_jobs_per_user, "
		     "max_submit_jobs_per_user, priority)",
		     NULL);
}

static void test_load_wrong_type(void **state)
{
	const struct test_util_dir *d = *state;
	expect_error(d, "w.json", "{\"account\": 3}", "account: must be a string (a account name)", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"gpu_quota\": \"32\"}",
		     "gpu_quota: must be a positive whole number (or null: no limit)", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"gpu_quota\": 0}", "gpu_quota: must be a positive", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"cpu_quota\": 2.5}", "cpu_quota: must be a positive", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"mem_quota_mb\": -1}", "mem_quota_mb: must be a positive",
		     NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"fairshare\": null}",
		     "fairshare: must be a positive whole number", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"qos\": \"normal_qos\"}", "qos: must be an array", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"qos\": [\"normal_qos\", 1]}",
		     "qos[1]: must be a string (a QoS name)", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"users\": [\"carol\", 7]}",
		     "users[1]: must be a user name or an object", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"users\": [{\"allow_missing_os_user\": true}]}",
		     "users[0]: no \"name\"", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"users\": [{\"name\": \"x\", \"allow_missing_os_user\": 1}]}",
		     "users[0].allow_missing_os_user: must be true or false", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"new_qos\": [\"q\"]}", "new_qos[0]: must be an object",
		     NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"new_qos\": [{\"max_jobs_per_user\": 1}]}",
		     "new_qos[0]: no \"name\"", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"new_qos\": [{\"name\": \"q\", \"priority\": -5}]}",
		     "new_qos[0].priority: must be a whole number, 0 or more", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"new_qos\": [{\"name\": \"q\", \"priority\": null}]}",
		     "new_qos[0].priority: must be", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"new_qos\": [{\"name\": \"q\", \"max_jobs_per_user\": \"4\"}]}",
		     "new_qos[0].max_jobs_per_user: must be a whole number, 0 or more (or null: no limit)", NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"description\": 5}", "description: must be a string",
		     NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"description\": \"a\\u0000b\"}",
		     ":1:", "is not allowed", NULL);   /* jansson refuses \u0000 */
	expect_error(d, "w.json", "{\"account\": \"a\", \"remove_users\": {}}", "remove_users: must be an array",
		     NULL);
	/* bad names, named by their field */
	expect_error(d, "w.json", "{\"account\": \"a\", \"users\": [\"carol\", \"dave\", \"Bob Smith\"]}",
		     ": users[2] \"Bob Smith\": not a valid Slurm user name (spaces)", NULL);
	expect_error(d, "w.json", "{\"account\": \"Team-C\"}",
		     ": account \"Team-C\": not a valid Slurm account name (upper case)", NULL);
	expect_error(d, "w.json", "{\"account\": \"\"}", "account \"\": not a valid Slurm account name (empty)",
		     NULL);
	expect_error(d, "w.json", "{\"account\": \"a\", \"remove_qos\": [\"x;y\"]}",
		     "remove_qos[0] \"x;y\": not a valid Slurm QoS name (character ';')", NULL);
}

static void test_load_too_long(void **state)
{
	const struct test_util_dir *d = *state;
	char *text = malloc(2 * 1024 * 1024);
	assert_non_null(text);

	/* a description of 256 bytes (255 fit) */
	char desc[300];
	memset(desc, 'x', 256);
	desc[256] = '\0';
	snprintf(text, 4096, "{\"account\": \"a\", \"description\": \"%s\"}", desc);
	expect_error(d, "l.json", text, "description: longer than 255 bytes", NULL);
	desc[255] = '\0';
	char path[4096], err[1024];
	snprintf(text, 4096, "{\"account\": \"a\", \"description\": \"%s\"}", desc);
	test_util_write_file(d, "ok.json", text, path);
	assert_int_equal(load(path, err, sizeof(err)), 0);
	assert_int_equal(strlen(loaded.description), 255);

	/* a name of 64 characters (63 fit) */
	char name[80];
	memset(name, 'u', 64);
	name[64] = '\0';
	snprintf(text, 4096, "{\"account\": \"a\", \"users\": [\"%s\"]}", name);
	expect_error(d, "l.json", text, "users[0] \"", "\": not a valid Slurm user name (longer than 63 characters)",
		     NULL);
	name[63] = '\0';
	snprintf(text, 4096, "{\"account\": \"%s\"}", name);
	test_util_write_file(d, "ok.json", text, path);
	assert_int_equal(load(path, err, sizeof(err)), 0);

	/* 257 users, 33 QoS */
	size_t used = (size_t)snprintf(text, 64, "{\"account\": \"a\", \"users\": [");
	for (int i = 0; i < 257; i++)
		used += (size_t)snprintf(text + used, 64, "%s\"u%d\"", i ? ", " : "", i);
	snprintf(text + used, 8, "]}");
	expect_error(d, "l.json", text, "users: too many entries (257, at most 256)", NULL);
	used = (size_t)snprintf(text, 64, "{\"account\": \"a\", \"qos\": [");
	for (int i = 0; i < 33; i++)
		used += (size_t)snprintf(text + used, 64, "%s\"q%d\"", i ? ", " : "", i);
	snprintf(text + used, 8, "]}");
	expect_error(d, "l.json", text, "qos: too many entries (33, at most 32)", NULL);

	/* a file larger than 1 MB */
	used = (size_t)snprintf(text, 64, "{\"account\": \"a\", \"description\": \"");
	memset(text + used, ' ', 1024 * 1024);
	used += 1024 * 1024;
	snprintf(text + used, 8, "\"}");
	expect_error(d, "big.json", text, "too large", NULL);
	free(text);
}

/* ---- names and checks ----------------------------------------------------- */

static void test_name_ok(void **state)
{
	(void)state;
	assert_true(oc_onb_name_ok("team-c", false));
	assert_true(oc_onb_name_ok("normal_qos", false));
	assert_true(oc_onb_name_ok("a.b-c_9", false));
	assert_true(oc_onb_name_ok("Bob.Smith", true));
	assert_false(oc_onb_name_ok("Bob.Smith", false));
	assert_false(oc_onb_name_ok("", false));
	assert_false(oc_onb_name_ok(NULL, true));
	assert_false(oc_onb_name_ok("-i", false));
	assert_false(oc_onb_name_ok("Bob Smith", true));
	assert_false(oc_onb_name_ok("a=b", false));
	assert_false(oc_onb_name_ok("a,b", false));
	assert_false(oc_onb_name_ok("a'b", true));
	assert_false(oc_onb_name_ok("caf\xc3\xa9", true));
	char name[80];
	memset(name, 'a', 63);
	name[63] = '\0';
	assert_true(oc_onb_name_ok(name, false));
	name[63] = 'a';
	name[64] = '\0';
	assert_false(oc_onb_name_ok(name, false));
}

static void test_check_ok(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = cluster();
	check_passes(s, NULL);
	check_passes(s, st);
	/* a QoS that does not exist yet but is in new_qos */
	add_name(s->qos, &s->nqos, "team_c_qos");
	add_new_qos(s, "team_c_qos", 2, 4, 500);
	check_passes(s, st);
	/* a missing OS user, explicitly allowed */
	add_user(s, NO_USER, true);
	check_passes(s, st);
	/* no limits at all: leave as is */
	struct oc_onb_spec *bare = new_spec("team-x");
	check_passes(bare, st);
	free(bare);
	free(s);
	free(st);
}

static void test_check_names(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	add_user(s, "Bob Smith", false);
	check_refuses(s, NULL, "users[2] \"Bob Smith\": not a valid Slurm user name (spaces)", NULL);
	free(s);

	s = new_spec("Team-C");
	check_refuses(s, NULL, "account \"Team-C\": not a valid Slurm account name (upper case)", NULL);
	free(s);
	s = new_spec("");
	check_refuses(s, NULL, "account \"\": not a valid Slurm account name (empty)", NULL);
	free(s);
	s = new_spec("-team");
	check_refuses(s, NULL, "account \"-team\": not a valid Slurm account name (starts with '-')", NULL);
	free(s);
	s = new_spec("team@c");
	check_refuses(s, NULL, "account \"team@c\": not a valid Slurm account name (character '@')", NULL);
	free(s);
	s = new_spec("team\x01");
	check_refuses(s, NULL, "account \"team?\": not a valid Slurm account name (character \\x01)", NULL);
	free(s);
	s = new_spec("root");
	check_refuses(s, NULL, "account root: the root account holds every team; it is not onboarded", NULL);
	free(s);

	s = new_spec("team-c");
	snprintf(s->parent, sizeof(s->parent), "team-c");
	check_refuses(s, NULL, "parent team-c: an account cannot be its own parent", NULL);
	snprintf(s->parent, sizeof(s->parent), "Research");
	check_refuses(s, NULL, "parent \"Research\": not a valid Slurm account name (upper case)", NULL);
	free(s);

	s = new_spec("team-c");
	add_name(s->qos, &s->nqos, "normal_qos");
	add_name(s->qos, &s->nqos, "bad qos");
	add_name(s->qos, &s->nqos, "normal_qos");
	add_name(s->remove_qos, &s->nremove_qos, "Large_qos");
	add_name(s->remove_users, &s->nremove_users, "x y");
	add_new_qos(s, "New", OC_ONB_NONE, OC_ONB_NONE, OC_ONB_NONE);
	snprintf(s->default_qos, sizeof(s->default_qos), "Normal");
	check_refuses(s, NULL, "qos[1] \"bad qos\": not a valid Slurm QoS name (spaces)",
		     "qos[2] normal_qos: listed twice",
		     "remove_qos[0] \"Large_qos\": not a valid Slurm QoS name (upper case)",
		     "remove_users[0] \"x y\": not a valid Slurm user name (spaces)",
		     "new_qos[0] \"New\": not a valid Slurm QoS name (upper case)",
		     "default_qos \"Normal\": not a valid Slurm QoS name (upper case)", NULL);
	free(s);
}

static void test_check_limits(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	s->gpu_quota = 0;
	check_refuses(s, NULL, "gpu_quota: must be a positive number", NULL);
	s->gpu_quota = -2;
	check_refuses(s, NULL, "gpu_quota: must be a positive number (or no limit), not -2", NULL);
	s->gpu_quota = OC_ONB_UNLIMITED;
	check_passes(s, NULL);
	s->cpu_quota = 0;
	s->mem_quota_mb = -7;
	s->fairshare = 0;
	check_refuses(s, NULL, "cpu_quota: must be a positive number", "mem_quota_mb: must be a positive number",
		     "fairshare: must be a positive number, not 0", NULL);
	s->cpu_quota = s->mem_quota_mb = s->fairshare = OC_ONB_NONE;
	s->fairshare = OC_ONB_UNLIMITED;
	check_refuses(s, NULL, "fairshare: must be a positive number, not -1", NULL);
	s->fairshare = OC_ONB_NONE;

	add_new_qos(s, "q1", -3, OC_ONB_UNLIMITED, OC_ONB_UNLIMITED);
	check_refuses(s, NULL, "new_qos[0] q1: max_jobs_per_user must be 0 or more (or no limit), not -3",
		     "new_qos[0] q1: priority must be 0 or more, not -1", NULL);
	s->new_qos[0].max_jobs_pu = 0;
	s->new_qos[0].priority = 0;
	check_passes(s, NULL);
	add_new_qos(s, "q1", 1, 1, 1);
	check_refuses(s, NULL, "new_qos[1] q1: listed twice", NULL);
	free(s);

	/* descriptions sacctmgr would cut or that break a line */
	s = team_c();
	snprintf(s->description, sizeof(s->description), "\"Team\" C");
	check_refuses(s, NULL, "description: must not start with a quote", NULL);
	snprintf(s->description, sizeof(s->description), "Team\nC");
	check_refuses(s, NULL, "description: control characters (tabs, new lines) are not allowed", NULL);
	snprintf(s->description, sizeof(s->description), "Team \"C\" ;$() it's");
	check_passes(s, NULL);
	memset(s->description, 'x', sizeof(s->description));   /* not terminated */
	check_refuses(s, NULL, "description: longer than 255 bytes", NULL);
	free(s);

	/* counts past the arrays (a spec not from the loader): only the
	 * entries that fit are checked */
	s = team_c();
	s->nqos = OC_ONB_MAX_QOS + 1;
	s->nusers = OC_ONB_MAX_USERS + 1;
	check_refuses(s, NULL, "qos, new_qos, remove_qos: at most 32 entries each",
		     "users, remove_users: at most 256 entries each", NULL);
	free(s);
}

static void test_check_qos(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = cluster();

	snprintf(s->default_qos, sizeof(s->default_qos), "large_qos");
	check_refuses(s, NULL, "default_qos large_qos is not in qos", NULL);
	snprintf(s->default_qos, sizeof(s->default_qos), "normal_qos");

	add_name(s->qos, &s->nqos, "foo_qos");
	check_passes(s, NULL);   /* the cluster is not asked */
	check_refuses(s, st, "qos foo_qos does not exist on the cluster and is not in new_qos", NULL);
	add_new_qos(s, "foo_qos", OC_ONB_NONE, OC_ONB_NONE, OC_ONB_NONE);
	check_passes(s, st);

	add_name(s->remove_qos, &s->nremove_qos, "normal_qos");
	check_refuses(s, NULL, "qos normal_qos is both in qos and remove_qos", NULL);
	free(s);

	/* taking away the DefaultQOS without naming another */
	s = new_spec("team-a");
	add_name(s->remove_qos, &s->nremove_qos, "normal_qos");
	st->account_exists = true;
	snprintf(st->default_qos, sizeof(st->default_qos), "normal_qos");
	add_name(st->qos, &st->nqos, "normal_qos");
	check_refuses(s, st, "remove_qos normal_qos is the DefaultQOS of team-a: set default_qos to another QoS",
		     NULL);
	add_name(s->qos, &s->nqos, "debug_qos");
	snprintf(s->default_qos, sizeof(s->default_qos), "debug_qos");
	check_passes(s, st);
	free(s);
	free(st);
}

static void test_check_users(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	add_user(s, NO_USER, false);
	check_refuses(s, NULL,
		     "user " NO_USER " does not exist in the OS user database (getpwnam; create it first or "
		     "set allow_missing_os_user)",
		     NULL);
	s->users[2].allow_missing_os_user = true;
	check_passes(s, NULL);

	add_user(s, U1, false);
	check_refuses(s, NULL, "users[3] root: listed twice", NULL);
	s->nusers--;
	add_name(s->remove_users, &s->nremove_users, U2);
	check_refuses(s, NULL, "user nobody is both in users and remove_users", NULL);
	add_name(s->remove_users, &s->nremove_users, U2);
	check_refuses(s, NULL, "remove_users[1] nobody: listed twice", NULL);
	free(s);
}

static void test_check_every_problem(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = cluster();
	char err[4096];
	s->gpu_quota = 0;
	add_user(s, "Bob Smith", false);
	add_user(s, NO_USER, false);
	add_name(s->qos, &s->nqos, "foo_qos");
	snprintf(s->default_qos, sizeof(s->default_qos), "large_qos");
	assert_int_equal(oc_onb_spec_check(s, st, err, sizeof(err)), -1);
	const char *want = "gpu_quota: must be a positive number (or no limit), not 0\n"
			   "default_qos large_qos is not in qos\n"
			   "users[2] \"Bob Smith\": not a valid Slurm user name (spaces)\n"
			   "user " NO_USER " does not exist in the OS user database (getpwnam; create it first or "
			   "set allow_missing_os_user)\n"
			   "qos foo_qos does not exist on the cluster and is not in new_qos";
	assert_string_equal(err, want);
	/* a short buffer is cut, still a string; NULL is fine */
	char small[16];
	assert_int_equal(oc_onb_spec_check(s, st, small, sizeof(small)), -1);
	assert_int_equal(strlen(small), 15);
	assert_int_equal(oc_onb_spec_check(s, st, NULL, 0), -1);
	assert_int_equal(oc_onb_spec_check(NULL, st, err, sizeof(err)), -1);
	free(s);
	free(st);
}

/* ---- plans ---------------------------------------------------------------- */

static void test_plan_new_team(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = cluster();
	struct oc_onb_plan p;

	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 6);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "add", "account", "Name=team-c", "Description=Team C", "Parent=root",
		    NULL);
	assert_string_equal(p.steps[0].line, "sacctmgr -i add account Name=team-c Description='Team C' Parent=root");
	assert_string_equal(p.steps[0].what, "add account team-c");
	assert_true(p.steps[0].add);
	expect_argv(&p.steps[1], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "GrpTRES=gres/gpu=32", NULL);
	assert_string_equal(p.steps[1].line,
			    "sacctmgr -i modify account where Name=team-c set GrpTRES=gres/gpu=32");
	assert_string_equal(p.steps[1].what, "set GrpTRES gres/gpu=32");
	assert_false(p.steps[1].add);
	expect_argv(&p.steps[2], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "qos+=debug_qos,normal_qos", NULL);
	assert_string_equal(p.steps[2].line,
			    "sacctmgr -i modify account where Name=team-c set qos+=debug_qos,normal_qos");
	expect_argv(&p.steps[3], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "DefaultQOS=normal_qos", NULL);
	assert_string_equal(p.steps[3].line,
			    "sacctmgr -i modify account where Name=team-c set DefaultQOS=normal_qos");
	expect_argv(&p.steps[4], "sacctmgr", "-i", "add", "user", "Name=root", "Account=team-c", NULL);
	assert_string_equal(p.steps[4].line, "sacctmgr -i add user Name=root Account=team-c");
	assert_string_equal(p.steps[4].what, "add user root to team-c");
	assert_true(p.steps[4].add);
	expect_argv(&p.steps[5], "sacctmgr", "-i", "add", "user", "Name=nobody", "Account=team-c", NULL);
	assert_string_equal(p.steps[5].line, "sacctmgr -i add user Name=nobody Account=team-c");

	expect_diff(&p, OC_ONB_NEW, "account team-c: new, under root, description \"Team C\"");
	expect_diff(&p, OC_ONB_NEW, "GrpTRES gres/gpu=32");
	expect_diff(&p, OC_ONB_NEW, "qos debug_qos: granted to team-c");
	expect_diff(&p, OC_ONB_NEW, "qos normal_qos: granted to team-c");
	expect_diff(&p, OC_ONB_NEW, "DefaultQOS=normal_qos");
	expect_diff(&p, OC_ONB_NEW, "user root: added to team-c");
	expect_diff(&p, OC_ONB_NEW, "user nobody: added to team-c");
	assert_int_equal(p.ndiff, 7);
	oc_onb_plan_free(&p);
	assert_null(p.steps);
	assert_int_equal(p.nsteps, 0);
	oc_onb_plan_free(&p);   /* twice is fine */

	/* without a state: the same plan; without description and parent: the
	 * account's name and root */
	s->description[0] = '\0';
	s->parent[0] = '\0';
	assert_int_equal(oc_onb_plan_build(s, NULL, &p), 0);
	assert_int_equal(p.nsteps, 6);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "add", "account", "Name=team-c", "Description=team-c",
		    "Parent=root", NULL);
	oc_onb_plan_free(&p);
	free(s);
	free(st);
}

static void test_plan_identical(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = team_c_applied();
	struct oc_onb_plan p;

	st->cpu_quota = 128;   /* on the cluster, not in the spec: left alone */
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 0);
	assert_null(p.steps);
	for (size_t i = 0; i < p.ndiff; i++)
		assert_int_equal(p.diff[i].kind, OC_ONB_SAME);
	expect_diff(&p, OC_ONB_SAME, "account team-c: already there");
	expect_diff(&p, OC_ONB_SAME, "GrpTRES gres/gpu=32: already there");
	expect_diff(&p, OC_ONB_SAME, "qos debug_qos: already granted to team-c");
	expect_diff(&p, OC_ONB_SAME, "qos normal_qos: already granted to team-c");
	expect_diff(&p, OC_ONB_SAME, "qos normal: granted to team-c, not in the spec, left alone");
	expect_diff(&p, OC_ONB_SAME, "DefaultQOS normal_qos: already set");
	expect_diff(&p, OC_ONB_SAME, "user root: already in team-c");
	expect_diff(&p, OC_ONB_SAME, "user nobody: already in team-c");
	assert_int_equal(p.ndiff, 8);
	oc_onb_plan_free(&p);

	/* "Team C" is stored as "team c"; quotes as backquotes */
	snprintf(s->description, sizeof(s->description), "Team \"C\" it's");
	snprintf(st->description, sizeof(st->description), "team `c` it`s");
	s->fairshare = 1;
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 0);
	expect_diff(&p, OC_ONB_SAME, "Fairshare=1: already there");
	oc_onb_plan_free(&p);
	free(s);
	free(st);
}

static void test_plan_quota_change(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = team_c_applied();
	struct oc_onb_plan p;

	st->gpu_quota = 64;
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 1);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "GrpTRES=gres/gpu=32", NULL);
	expect_diff(&p, OC_ONB_CHANGE, "GrpTRES gres/gpu: 64 -> 32");
	oc_onb_plan_free(&p);

	/* cpu and mem with it, one removed, Fairshare and the description */
	s->cpu_quota = 256;
	s->mem_quota_mb = OC_ONB_UNLIMITED;
	s->fairshare = 10;
	snprintf(s->description, sizeof(s->description), "Team C (vision)");
	st->mem_quota_mb = 2048;
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 3);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "Description=Team C (vision)", NULL);
	assert_string_equal(p.steps[0].line,
			    "sacctmgr -i modify account where Name=team-c set Description='Team C (vision)'");
	expect_argv(&p.steps[1], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "GrpTRES=cpu=256,mem=-1,gres/gpu=32", NULL);
	assert_string_equal(p.steps[1].what, "set GrpTRES cpu=256,mem=-1,gres/gpu=32");
	expect_argv(&p.steps[2], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "Fairshare=10", NULL);
	expect_diff(&p, OC_ONB_CHANGE, "description: \"team c\" -> \"Team C (vision)\"");
	expect_diff(&p, OC_ONB_CHANGE, "GrpTRES cpu: no limit -> 256");
	expect_diff(&p, OC_ONB_REMOVE, "GrpTRES mem: 2048M -> no limit");
	expect_diff(&p, OC_ONB_CHANGE, "GrpTRES gres/gpu: 64 -> 32");
	expect_diff(&p, OC_ONB_CHANGE, "Fairshare: 1 -> 10");
	oc_onb_plan_free(&p);

	/* removing a limit that is not there: nothing to do */
	s->cpu_quota = OC_ONB_UNLIMITED;
	s->gpu_quota = 64;
	s->fairshare = OC_ONB_NONE;
	s->description[0] = '\0';
	st->mem_quota_mb = OC_ONB_NONE;
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 0);
	expect_diff(&p, OC_ONB_SAME, "GrpTRES cpu: no limit, as asked");
	expect_diff(&p, OC_ONB_SAME, "GrpTRES mem: no limit, as asked");
	expect_diff(&p, OC_ONB_SAME, "GrpTRES gres/gpu=64: already there");
	/* no description typed: the stored one is kept, and said */
	expect_diff(&p, OC_ONB_SAME, "description \"team c\": kept (none typed)");
	oc_onb_plan_free(&p);

	/* a new account: -1 has nothing to remove; set limits all in one */
	struct oc_onb_spec *n = new_spec("team-n");
	n->cpu_quota = 64;
	n->mem_quota_mb = 4096;
	n->gpu_quota = OC_ONB_UNLIMITED;
	n->fairshare = 5;
	assert_int_equal(oc_onb_plan_build(n, NULL, &p), 0);
	assert_int_equal(p.nsteps, 3);
	expect_argv(&p.steps[1], "sacctmgr", "-i", "modify", "account", "where", "Name=team-n", "set",
		    "GrpTRES=cpu=64,mem=4096M", NULL);
	expect_argv(&p.steps[2], "sacctmgr", "-i", "modify", "account", "where", "Name=team-n", "set",
		    "Fairshare=5", NULL);
	expect_diff(&p, OC_ONB_NEW, "GrpTRES cpu=64");
	expect_diff(&p, OC_ONB_NEW, "GrpTRES mem=4096M");
	expect_diff(&p, OC_ONB_NEW, "Fairshare=5");
	oc_onb_plan_free(&p);
	free(n);
	free(s);
	free(st);
}

static void test_plan_users_and_qos(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = team_c_applied();
	struct oc_onb_plan p;

	/* add a user and a QoS; take away a user and a QoS; move DefaultQOS */
	add_user(s, "daemon", false);
	add_name(s->qos, &s->nqos, "exclusive_qos");
	snprintf(s->default_qos, sizeof(s->default_qos), "exclusive_qos");
	add_name(s->remove_users, &s->nremove_users, "bin");
	add_name(s->remove_users, &s->nremove_users, "gone");
	add_name(s->remove_qos, &s->nremove_qos, "large_qos");
	add_name(s->remove_qos, &s->nremove_qos, "normal");
	add_name(st->qos, &st->nqos, "large_qos");
	add_name(st->users, &st->nusers, "bin");

	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 5);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "qos+=exclusive_qos", NULL);
	assert_string_equal(p.steps[0].what, "grant qos exclusive_qos to team-c");
	expect_argv(&p.steps[1], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "DefaultQOS=exclusive_qos", NULL);
	expect_argv(&p.steps[2], "sacctmgr", "-i", "add", "user", "Name=daemon", "Account=team-c", NULL);
	expect_argv(&p.steps[3], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "qos-=large_qos,normal", NULL);
	assert_string_equal(p.steps[3].line,
			    "sacctmgr -i modify account where Name=team-c set qos-=large_qos,normal");
	assert_string_equal(p.steps[3].what, "take qos large_qos,normal away from team-c");
	expect_argv(&p.steps[4], "sacctmgr", "-i", "delete", "user", "where", "Name=bin", "Account=team-c", NULL);
	assert_string_equal(p.steps[4].line, "sacctmgr -i delete user where Name=bin Account=team-c");
	assert_string_equal(p.steps[4].what, "delete user bin from team-c");
	assert_false(p.steps[4].add);

	expect_diff(&p, OC_ONB_NEW, "qos exclusive_qos: granted to team-c");
	expect_diff(&p, OC_ONB_CHANGE, "DefaultQOS: normal_qos -> exclusive_qos");
	expect_diff(&p, OC_ONB_NEW, "user daemon: added to team-c");
	expect_diff(&p, OC_ONB_SAME, "user root: already in team-c");
	expect_diff(&p, OC_ONB_REMOVE, "qos large_qos: taken away from team-c");
	expect_diff(&p, OC_ONB_REMOVE, "qos normal: taken away from team-c");
	expect_diff(&p, OC_ONB_REMOVE, "user bin: removed from team-c");
	expect_diff(&p, OC_ONB_SAME, "user gone: not in team-c, nothing to remove");
	/* "normal" is being removed: not also "left alone" */
	assert_int_equal(diff_find(&p, "qos normal: granted to team-c, not in the spec, left alone"), -1);
	oc_onb_plan_free(&p);

	/* a QoS to take away that the account lacks */
	s->nremove_qos = 0;
	add_name(s->remove_qos, &s->nremove_qos, "bench_qos");
	s->nremove_users = 0;
	st->nusers = 2;
	s->nusers = 2;
	s->nqos = 2;
	snprintf(s->default_qos, sizeof(s->default_qos), "normal_qos");
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 0);
	expect_diff(&p, OC_ONB_SAME, "qos bench_qos: not granted to team-c, nothing to take away");
	oc_onb_plan_free(&p);

	/* a new account: remove_qos still runs (it may inherit "normal"),
	 * remove_users do not (it has no users) */
	struct oc_onb_spec *n = new_spec("team-n");
	add_name(n->remove_qos, &n->nremove_qos, "normal");
	add_name(n->remove_users, &n->nremove_users, "bin");
	add_user(n, NO_USER, true);
	assert_int_equal(oc_onb_plan_build(n, NULL, &p), 0);
	assert_int_equal(p.nsteps, 3);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "add", "account", "Name=team-n", "Description=team-n",
		    "Parent=root", NULL);
	expect_argv(&p.steps[1], "sacctmgr", "-i", "add", "user", "Name=" NO_USER, "Account=team-n", NULL);
	expect_argv(&p.steps[2], "sacctmgr", "-i", "modify", "account", "where", "Name=team-n", "set",
		    "qos-=normal", NULL);
	expect_diff(&p, OC_ONB_NEW, "user " NO_USER ": added to team-n (allow_missing_os_user)");
	expect_diff(&p, OC_ONB_REMOVE, "qos normal: taken away from team-n (if inherited from the parent)");
	expect_diff(&p, OC_ONB_SAME, "user bin: not in team-n, nothing to remove");
	oc_onb_plan_free(&p);
	free(n);
	free(s);
	free(st);
}

static void test_plan_new_qos(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = team_c_applied();
	struct oc_onb_plan p;

	/* a QoS to create with limits; one to adjust; one already right; one
	 * to create bare */
	add_new_qos(s, "team_c_qos", 4, 8, 2000);
	add_new_qos(s, "debug_qos", 2, OC_ONB_UNLIMITED, OC_ONB_NONE);
	add_new_qos(s, "normal_qos", 4, 8, 2000);
	add_new_qos(s, "bare_qos", OC_ONB_NONE, OC_ONB_UNLIMITED, OC_ONB_NONE);
	add_name(s->qos, &s->nqos, "team_c_qos");

	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 5);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "add", "qos", "Name=team_c_qos", NULL);
	assert_string_equal(p.steps[0].line, "sacctmgr -i add qos Name=team_c_qos");
	assert_string_equal(p.steps[0].what, "add qos team_c_qos");
	assert_true(p.steps[0].add);
	expect_argv(&p.steps[1], "sacctmgr", "-i", "modify", "qos", "where", "Name=team_c_qos", "set",
		    "MaxJobsPerUser=4", "MaxSubmitJobsPerUser=8", "Priority=2000", NULL);
	assert_string_equal(p.steps[1].line, "sacctmgr -i modify qos where Name=team_c_qos set MaxJobsPerUser=4 "
					     "MaxSubmitJobsPerUser=8 Priority=2000");
	assert_string_equal(p.steps[1].what,
			    "set limits of qos team_c_qos: MaxJobsPerUser=4 MaxSubmitJobsPerUser=8 Priority=2000");
	assert_false(p.steps[1].add);
	expect_argv(&p.steps[2], "sacctmgr", "-i", "modify", "qos", "where", "Name=debug_qos", "set",
		    "MaxJobsPerUser=2", "MaxSubmitJobsPerUser=-1", NULL);
	expect_argv(&p.steps[3], "sacctmgr", "-i", "add", "qos", "Name=bare_qos", NULL);
	/* then the account: only the new grant */
	expect_argv(&p.steps[4], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "qos+=team_c_qos", NULL);

	expect_diff(&p, OC_ONB_NEW, "qos team_c_qos: new QoS");
	expect_diff(&p, OC_ONB_NEW, "qos team_c_qos limits: MaxJobsPerUser=4 MaxSubmitJobsPerUser=8 Priority=2000");
	expect_diff(&p, OC_ONB_CHANGE, "qos debug_qos MaxJobsPerUser: 1 -> 2");
	expect_diff(&p, OC_ONB_CHANGE, "qos debug_qos MaxSubmitJobsPerUser: 2 -> no limit");
	expect_diff(&p, OC_ONB_SAME, "qos normal_qos: already there with these limits, left alone");
	expect_diff(&p, OC_ONB_NEW, "qos bare_qos: new QoS");
	expect_diff(&p, OC_ONB_NEW, "qos team_c_qos: granted to team-c");
	oc_onb_plan_free(&p);

	/* after the apply: nothing left */
	add_cluster_qos(st, "team_c_qos", 4, 8, 2000);
	add_cluster_qos(st, "bare_qos", OC_ONB_NONE, OC_ONB_NONE, 0);
	st->all_qos[1].max_jobs_pu = 2;
	st->all_qos[1].max_submit_pu = OC_ONB_NONE;
	add_name(st->qos, &st->nqos, "team_c_qos");
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 0);
	char out[1024];
	assert_int_equal(oc_onb_readback_diff(s, st, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	oc_onb_plan_free(&p);
	free(s);
	free(st);
}

static void test_plan_quoting(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_plan p;

	snprintf(s->description, sizeof(s->description), "Team \"C\" ;$(rm -rf /) it's `x` & y|z");
	assert_int_equal(oc_onb_plan_build(s, NULL, &p), 0);
	/* one argv element, verbatim */
	expect_argv(&p.steps[0], "sacctmgr", "-i", "add", "account", "Name=team-c",
		    "Description=Team \"C\" ;$(rm -rf /) it's `x` & y|z", "Parent=root", NULL);
	/* the line: the value single-quoted, ' as '\'' */
	assert_string_equal(p.steps[0].line, "sacctmgr -i add account Name=team-c "
					     "Description='Team \"C\" ;$(rm -rf /) it'\\''s `x` & y|z' Parent=root");
	expect_diff(&p, OC_ONB_NEW, "account team-c: new, under root, description \"Team \"C\" ;$(rm -rf /) it's "
				    "`x` & y|z\"");
	oc_onb_plan_free(&p);

	/* an existing account whose description differs */
	struct oc_onb_state *st = team_c_applied();
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 1);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "Description=Team \"C\" ;$(rm -rf /) it's `x` & y|z", NULL);
	assert_string_equal(p.steps[0].line, "sacctmgr -i modify account where Name=team-c set "
					     "Description='Team \"C\" ;$(rm -rf /) it'\\''s `x` & y|z'");
	oc_onb_plan_free(&p);

	/* a parent that differs moves the account */
	s->description[0] = '\0';
	snprintf(s->parent, sizeof(s->parent), "research");
	assert_int_equal(oc_onb_plan_build(s, st, &p), 0);
	assert_int_equal(p.nsteps, 1);
	expect_argv(&p.steps[0], "sacctmgr", "-i", "modify", "account", "where", "Name=team-c", "set",
		    "Parent=research", NULL);
	assert_string_equal(p.steps[0].what, "move team-c under research");
	expect_diff(&p, OC_ONB_CHANGE, "parent: root -> research");
	oc_onb_plan_free(&p);

	/* every step: argv[0] sacctmgr, -i, NULL-terminated within bounds */
	free(s);
	s = team_c();
	s->cpu_quota = 8;
	add_new_qos(s, "q9", 1, 2, 3);
	add_name(s->remove_qos, &s->nremove_qos, "large_qos");
	assert_int_equal(oc_onb_plan_build(s, NULL, &p), 0);
	for (size_t i = 0; i < p.nsteps; i++) {
		assert_string_equal(p.steps[i].argv[0], "sacctmgr");
		assert_string_equal(p.steps[i].argv[1], "-i");
		size_t n = 0;
		while (p.steps[i].argv[n])
			n++;
		assert_true(n <= OC_ONB_MAX_ARGS);
		assert_true(strncmp(p.steps[i].line, "sacctmgr -i ", 12) == 0);
		assert_true(p.steps[i].what[0] != '\0');
	}
	oc_onb_plan_free(&p);
	free(s);
	free(st);
}

/* ---- read-back ------------------------------------------------------------ */

static void test_readback(void **state)
{
	(void)state;
	struct oc_onb_spec *s = team_c();
	struct oc_onb_state *st = team_c_applied();
	char out[2048];

	assert_int_equal(oc_onb_readback_diff(s, st, out, sizeof(out)), 0);
	assert_string_equal(out, "");

	/* what was not applied */
	st->gpu_quota = 64;
	st->nusers = 1;
	snprintf(st->default_qos, sizeof(st->default_qos), "normal");
	st->nqos = 2;   /* debug_qos, normal: normal_qos missing */
	snprintf(st->description, sizeof(st->description), "team b");
	s->fairshare = 5;
	s->cpu_quota = OC_ONB_UNLIMITED;
	st->cpu_quota = 64;
	add_name(s->remove_users, &s->nremove_users, "bin");
	add_name(st->users, &st->nusers, "bin");
	add_name(s->remove_qos, &s->nremove_qos, "debug_qos");
	add_new_qos(s, "normal_qos", 4, 16, 2000);
	add_new_qos(s, "gone_qos", 1, OC_ONB_NONE, OC_ONB_NONE);
	assert_int_equal(oc_onb_readback_diff(s, st, out, sizeof(out)), 11);
	assert_string_equal(out, "description: \"team b\" (asked \"Team C\")\n"
				 "GrpTRES cpu: 64 (asked no limit)\n"
				 "GrpTRES gres/gpu: 64 (asked 32)\n"
				 "Fairshare: 1 (asked 5)\n"
				 "qos normal_qos MaxSubmitJobsPerUser: 8 (asked 16)\n"
				 "qos gone_qos: does not exist\n"
				 "qos normal_qos: not granted to team-c\n"
				 "qos debug_qos: still granted to team-c (asked to take it away)\n"
				 "DefaultQOS: normal (asked normal_qos)\n"
				 "user nobody: not in team-c\n"
				 "user bin: still in team-c (asked to remove)");
	free(st);

	/* nothing there at all */
	struct oc_onb_spec *c = team_c();
	assert_int_equal(oc_onb_readback_diff(c, NULL, out, sizeof(out)), 7);
	assert_string_equal(out, "account team-c: does not exist\n"
				 "GrpTRES gres/gpu: no limit (asked 32)\n"
				 "qos debug_qos: not granted to team-c\n"
				 "qos normal_qos: not granted to team-c\n"
				 "DefaultQOS: none (asked normal_qos)\n"
				 "user root: not in team-c\n"
				 "user nobody: not in team-c");
	/* a short buffer, and none */
	char small[10];
	assert_int_equal(oc_onb_readback_diff(c, NULL, small, sizeof(small)), 7);
	assert_int_equal(strlen(small), 9);
	assert_int_equal(oc_onb_readback_diff(c, NULL, NULL, 0), 7);
	free(c);
	free(s);
}

/* ---- oc_onboard_apply with a fake writer ----------------------------------- */

struct fake_onb {
	const struct oc_onb_state *state; /* what the first read finds */
	const struct oc_onb_state *after; /* what the read-back finds; NULL: it fails */
	bool read_fails;                  /* the first read fails */
	int fail_at, exists_at;           /* the step that fails, that is already there (-1: none) */
	int reads, runs, progress;
	char last_what[256];
};

static int fake_onb_read(void *ctx, const char *account, struct oc_onb_state *st, char *err, size_t errlen)
{
	struct fake_onb *f = ctx;
	assert_string_equal(account, "team-c");
	const struct oc_onb_state *src = f->reads++ == 0 ? f->state : f->after;
	if ((f->reads == 1 && f->read_fails) || !src) {
		snprintf(err, errlen, "slurmdbd does not answer: read %d", f->reads);
		return -1;
	}
	*st = *src;
	return 0;
}

static int fake_onb_run(void *ctx, const struct oc_onb_step *step, char *out, size_t outlen)
{
	struct fake_onb *f = ctx;
	int i = f->runs++;
	(void)step;
	if (i == f->fail_at) {
		snprintf(out, outlen, "sacctmgr: error: refused\nsecond line");
		return -1;
	}
	return i == f->exists_at ? 1 : 0;
}

static void fake_onb_progress(void *ctx, const struct oc_progress *p)
{
	struct fake_onb *f = ctx;
	f->progress++;
	snprintf(f->last_what, sizeof(f->last_what), "%s", p->what);
}

/* Runs oc_onboard_apply of spec s against f (planned: the preview's
 * state, or NULL to read it); res and error are cleared first. */
static void fake_apply(struct fake_onb *f, const struct oc_onb_spec *s, const struct oc_onb_state *planned,
		       struct oc_action_result *res, char *error, size_t errlen)
{
	static const struct oc_writer_ops ops = {.onb_read_state = fake_onb_read, .onb_run_step = fake_onb_run};
	const struct oc_writer w = {.ops = &ops, .ctx = f};
	memset(res, 0, sizeof(*res));
	error[0] = '\0';
	oc_onboard_apply(&w, s, planned, res, error, errlen, fake_onb_progress, f);
}

/* The team, the cluster before and after, and a result (8 KB: not on
 * the stack) of the oc_onboard_apply tests. */
struct apply_fix {
	struct oc_onb_spec *spec;
	struct oc_onb_state *before, *done;
	struct oc_action_result *res;
};

static int apply_setup(void **state)
{
	struct apply_fix *x = calloc(1, sizeof(*x));
	assert_non_null(x);
	x->spec = team_c();
	x->before = cluster();
	x->done = team_c_applied();
	x->res = malloc(sizeof(*x->res));
	assert_non_null(x->res);
	*state = x;
	return 0;
}

static int apply_teardown(void **state)
{
	struct apply_fix *x = *state;
	free(x->spec);
	free(x->before);
	free(x->done);
	free(x->res);
	free(x);
	return 0;
}

/* Nothing applied: the state cannot be read, the spec does not fit, or
 * nothing is to change. */
static void test_apply_refused(void **state)
{
	struct apply_fix *x = *state;
	struct oc_onb_spec *s = x->spec;
	struct oc_onb_state *before = x->before, *done = x->done;
	struct oc_action_result *res = x->res;
	char error[1024];

	/* the state cannot be read: nothing applied */
	struct fake_onb f = {.state = before, .after = done, .read_fails = true, .fail_at = -1, .exists_at = -1};
	fake_apply(&f, s, NULL, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_FAILED);
	assert_string_equal(res->summary, "nothing applied: slurmdbd does not answer: read 1");
	assert_string_equal(error, "slurmdbd does not answer: read 1");
	assert_int_equal(f.runs, 0);
	assert_string_equal(f.last_what, "reading the accounting state");

	/* the spec does not fit the cluster (a user the OS lacks) */
	struct oc_onb_spec *bad = team_c();
	add_user(bad, NO_USER, false);
	f = (struct fake_onb){.state = before, .after = done, .fail_at = -1, .exists_at = -1};
	fake_apply(&f, bad, NULL, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_FAILED);
	assert_string_equal(res->summary, "nothing applied: the onboarding does not fit the cluster");
	assert_non_null(strstr(res->details, "user " NO_USER " does not exist in the OS user database"));
	assert_non_null(strstr(error, "user " NO_USER " does not exist"));
	assert_int_equal(f.runs, 0);
	free(bad);

	/* already as asked: nothing run, no read-back */
	f = (struct fake_onb){.state = done, .after = done, .fail_at = -1, .exists_at = -1};
	fake_apply(&f, s, NULL, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_OK);
	assert_string_equal(res->summary, "nothing to change: team-c is already as asked");
	assert_int_equal(f.reads, 1);
	assert_int_equal(f.runs, 0);
}

/* The steps: stop at the first failure, then the read-back. */
static void test_apply_steps(void **state)
{
	struct apply_fix *x = *state;
	struct oc_onb_spec *s = x->spec;
	struct oc_onb_state *before = x->before, *done = x->done;
	struct oc_action_result *res = x->res;
	char error[1024];
	struct fake_onb f;

	/* planned: no read, no check; step 1 already there, step 2 fails,
	 * the rest not run; the read-back fails */
	f = (struct fake_onb){.state = NULL, .after = NULL, .fail_at = 1, .exists_at = 0};
	fake_apply(&f, s, before, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_PARTIAL);
	assert_string_equal(res->summary,
			    "partial: 1 of 6 steps applied, stopped at the first failure; run it again to complete");
	assert_string_equal(error, "step 2 (set GrpTRES gres/gpu=32): sacctmgr: error: refused second line");
	assert_int_equal(f.runs, 2);
	assert_int_equal(f.reads, 1);
	assert_string_equal(f.last_what, "reading back");
	assert_non_null(strstr(res->details, "[1/6] already there: sacctmgr -i add account Name=team-c "
					     "Description='Team C' Parent=root\n"
					     "[2/6] FAILED: sacctmgr -i modify account where Name=team-c set "
					     "GrpTRES=gres/gpu=32\n        sacctmgr: error: refused second line\n"
					     "[3/6] NOT RUN: "));
	assert_non_null(strstr(res->details, "[6/6] NOT RUN: "));
	assert_non_null(strstr(res->details, "\nread-back failed: slurmdbd does not answer: read 1\n"));

	/* the first step fails */
	f = (struct fake_onb){.state = before, .after = before, .fail_at = 0, .exists_at = -1};
	fake_apply(&f, s, NULL, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_FAILED);
	assert_string_equal(res->summary,
			    "failed: 0 of 6 steps applied, stopped at the first failure; run it again to complete");
	assert_string_equal(error, "step 1 (add account team-c): sacctmgr: error: refused second line");
	assert_non_null(strstr(res->details, "\nStill different from what was asked:\naccount team-c: "));

	/* every step done, but the read-back differs */
	f = (struct fake_onb){.state = before, .after = before, .fail_at = -1, .exists_at = -1};
	fake_apply(&f, s, NULL, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_PARTIAL);
	assert_string_equal(res->summary, "applied 6 steps, but the read-back differs");
	assert_non_null(strstr(error, "read-back differs: "));
	assert_non_null(strstr(res->details, "[6/6] done: "));

	/* every step done and read back as asked */
	f = (struct fake_onb){.state = before, .after = done, .fail_at = -1, .exists_at = -1};
	fake_apply(&f, s, NULL, res, error, sizeof(error));
	assert_int_equal(res->status, OC_ACTION_OK);
	assert_string_equal(res->summary, "onboarded team-c: 6 steps applied");
	assert_string_equal(error, "");
	assert_non_null(strstr(res->details, "[1/6] done: sacctmgr -i add account"));
	assert_non_null(strstr(res->details, "\nRead back: associations, QoS and GrpTRES are as asked.\n"));
	assert_int_equal(f.reads, 2);
	assert_int_equal(f.progress, 8); /* reading, 6 steps, reading back */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_example),
		cmocka_unit_test_setup_teardown(test_load_every_key, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_syntax, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_unknown_key, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_wrong_type, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_load_too_long, test_util_setup, test_util_teardown),
		cmocka_unit_test(test_name_ok),
		cmocka_unit_test(test_check_ok),
		cmocka_unit_test(test_check_names),
		cmocka_unit_test(test_check_limits),
		cmocka_unit_test(test_check_qos),
		cmocka_unit_test(test_check_users),
		cmocka_unit_test(test_check_every_problem),
		cmocka_unit_test(test_plan_new_team),
		cmocka_unit_test(test_plan_identical),
		cmocka_unit_test(test_plan_quota_change),
		cmocka_unit_test(test_plan_users_and_qos),
		cmocka_unit_test(test_plan_new_qos),
		cmocka_unit_test(test_plan_quoting),
		cmocka_unit_test(test_readback),
		cmocka_unit_test_setup_teardown(test_apply_refused, apply_setup, apply_teardown),
		cmocka_unit_test_setup_teardown(test_apply_steps, apply_setup, apply_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
