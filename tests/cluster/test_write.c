/* test_write.c: the libslurm writer (source/slurm_write.c) against the real
 * local cluster: hostlists, drain/resume/undrain with a hostile reason read
 * back through the writer and through scontrol, a MAINT reservation
 * created, read back and deleted, Slurm's own error texts, and whoami as
 * root and as a plain user.
 *
 * Touches only nodes gpu-st-b300-[9-14] and reservations named oc_test_*,
 * and puts them back (teardowns resume and delete even after a failure). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <grp.h>
#include <pwd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster_util.h"
#include "actions/writer.h"
#include "source/slurm_write.h"
#include "source/source.h"

#define DRAIN_NODES "gpu-st-b300-[9-11]"
#define RESV_NODES "gpu-st-b300-[12-13]"
#define USER_NODE "gpu-st-b300-14"

/* Quotes, shell metacharacters, backticks, a backslash, a newline and
 * UTF-8: it must arrive and come back byte for byte. */
static const char hostile_reason[] =
	"oc_test: it's \"bad\"; $(rm -rf /) `uname` \\n a\\b\nsecond line 점검 중";

static struct oc_writer writer;
static char resv_name[64];

static int setup(void **state)
{
	if (cluster_util_setup(state) < 0)
		return -1;
	char err[256];
	if (oc_slurm_writer_init(&writer, err, sizeof(err)) < 0) {
		fprintf(stderr, "writer: %s\n", err);
		return -1;
	}
	snprintf(resv_name, sizeof(resv_name), "oc_test_write_%ld", (long)getpid());
	return 0;
}

static int teardown(void **state)
{
	oc_slurm_writer_fini(&writer);
	assert_null(writer.ctx);
	return cluster_util_teardown(state);
}

/* ---- hostlists --------------------------------------------------------- */

static void expect_expand(const char *expr, size_t want_n, const char *first, const char *last,
			  const char *compressed)
{
	char **names = NULL;
	size_t n = 0;
	char err[256] = "";
	int rc = writer.ops->hostlist_expand(writer.ctx, expr, 1000, &names, &n, err, sizeof(err));
	if (rc != 0)
		fprintf(stderr, "expand %s: %s\n", expr, err);
	assert_int_equal(rc, 0);
	assert_int_equal(n, want_n);
	assert_string_equal(names[0], first);
	assert_string_equal(names[n - 1], last);
	char *c = writer.ops->hostlist_compress(writer.ctx, (const char *const *)names, n);
	assert_non_null(c);
	assert_string_equal(c, compressed);
	/* And the compressed form expands to the same names again. */
	char **again = NULL;
	size_t n2 = 0;
	assert_int_equal(writer.ops->hostlist_expand(writer.ctx, c, 1000, &again, &n2, err, sizeof(err)), 0);
	assert_int_equal(n2, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(again[i], names[i]);
	free(c);
	oc_writer_names_free(&again, n2);
	oc_writer_names_free(&names, n);
	assert_null(names);
}

static void test_hostlist_round_trip(void **state)
{
	(void)state;
	expect_expand("gpu-st-b300-[3-5,9]", 4, "gpu-st-b300-3", "gpu-st-b300-9", "gpu-st-b300-[3-5,9]");
	expect_expand("gpu-st-b300-12", 1, "gpu-st-b300-12", "gpu-st-b300-12", "gpu-st-b300-12");
	expect_expand("gpu-st-b300-[9-14]", 6, "gpu-st-b300-9", "gpu-st-b300-14", "gpu-st-b300-[9-14]");
	/* Duplicates go, order is libslurm's host order. */
	expect_expand("gpu-st-b300-[9,3-5],gpu-st-b300-4", 4, "gpu-st-b300-3", "gpu-st-b300-9",
		      "gpu-st-b300-[3-5,9]");
	expect_expand("n[01-03]", 3, "n01", "n03", "n[01-03]");
	expect_expand("login1,gpu-st-b300-[1-2]", 3, "gpu-st-b300-1", "login1", "gpu-st-b300-[1-2],login1");

	/* Compress from scattered names. */
	const char *scattered[] = {"gpu-st-b300-14", "gpu-st-b300-9", "gpu-st-b300-10",
				   "gpu-st-b300-9", "gpu-st-b300-12"};
	char *c = writer.ops->hostlist_compress(writer.ctx, scattered, 5);
	assert_non_null(c);
	assert_string_equal(c, "gpu-st-b300-[9-10,12,14]");
	free(c);
	c = writer.ops->hostlist_compress(writer.ctx, NULL, 0);
	assert_non_null(c);
	assert_string_equal(c, "");
	free(c);
	/* Many names: the ranged string outgrows the first buffer. */
	char **many = NULL;
	size_t nmany = 0;
	char err[256] = "";
	assert_int_equal(writer.ops->hostlist_expand(writer.ctx, "node-with-a-long-prefix-[1-5000]", 5000,
						     &many, &nmany, err, sizeof(err)), 0);
	assert_int_equal(nmany, 5000);
	/* Every other name: 2500 single entries, no range. */
	const char **odd = malloc(2500 * sizeof(*odd));
	for (size_t i = 0; i < 2500; i++)
		odd[i] = many[2 * i];
	c = writer.ops->hostlist_compress(writer.ctx, odd, 2500);
	assert_non_null(c);
	assert_true(strlen(c) > 256);
	assert_int_equal(strncmp(c, "node-with-a-long-prefix-[1,3,5,", 31), 0);
	free(c);
	free(odd);
	oc_writer_names_free(&many, nmany);
	/* A name that is not a plain name cannot be compressed. */
	const char *bad[] = {"gpu-st-b300-1", "gpu-[1-2]"};
	assert_null(writer.ops->hostlist_compress(writer.ctx, bad, 2));
	const char *empty[] = {""};
	assert_null(writer.ops->hostlist_compress(writer.ctx, empty, 1));
}

static void expect_refused(const char *expr, size_t max, const char *in_msg)
{
	char **names = (char **)(uintptr_t)1; /* must come back NULL */
	size_t n = 99;
	char err[256] = "";
	int rc = writer.ops->hostlist_expand(writer.ctx, expr, max, &names, &n, err, sizeof(err));
	char shown[40];
	snprintf(shown, sizeof(shown), "%s", expr ? expr : "(null)");
	for (char *p = shown; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
	printf("# refused %-36.36s -> %s\n", shown, err);
	assert_int_equal(rc, -1);
	assert_null(names);
	assert_int_equal(n, 0);
	assert_true(err[0] != '\0');
	if (in_msg && !strstr(err, in_msg)) {
		fprintf(stderr, "expected \"%s\" in \"%s\"\n", in_msg, err);
		fail();
	}
}

static void test_hostlist_refused(void **state)
{
	(void)state;
	char longname[300];
	memset(longname, 'a', 299);
	longname[299] = '\0';
	/* 254 characters of prefix: "[1-9]" stays at 255, "[1-10]" does not. */
	char okrange[300], longrange[300];
	memset(okrange, 'b', 254);
	snprintf(okrange + 254, sizeof(okrange) - 254, "[1-9]");
	memset(longrange, 'b', 254);
	snprintf(longrange + 254, sizeof(longrange) - 254, "[1-10]");
	char **names = NULL;
	size_t n = 0;
	char err[256] = "";
	assert_int_equal(writer.ops->hostlist_expand(writer.ctx, okrange, 1000, &names, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 9);
	assert_int_equal(strlen(names[8]), 255);
	oc_writer_names_free(&names, n);

	expect_refused("gpu-st-b300-[3-", 1000, "never closed");
	expect_refused("gpu-st-b300-[3-5", 1000, "never closed");
	expect_refused("gpu-st-b300-3]", 1000, "']' without '['");
	expect_refused("gpu-]3[", 1000, "']' without '['");
	expect_refused("gpu-[[1-2]]", 1000, "nested '['");
	expect_refused("gpu-[1-[2]]", 1000, "nested '['");
	expect_refused("", 1000, "empty hostlist");
	expect_refused(NULL, 1000, "empty hostlist");
	expect_refused("a,,b", 1000, "empty node name");
	expect_refused(",a", 1000, "empty node name");
	expect_refused("a,", 1000, "empty node name");
	expect_refused("gpu-st-b300-1 gpu-st-b300-2", 1000, "whitespace");
	expect_refused("gpu-st-b300-1\tgpu-st-b300-2", 1000, "whitespace");
	expect_refused("gpu-st-b300-1\n", 1000, "whitespace");
	expect_refused("gpu-[5-3]", 1000, "backwards");
	expect_refused("gpu-[a-b]", 1000, "bad range");
	expect_refused("gpu-[]", 1000, "bad range");
	expect_refused("gpu-[1,]", 1000, "bad range");
	expect_refused("gpu-[1--2]", 1000, "bad range");
	expect_refused("gpu-[1-3]x", 1000, "text after ']'");
	expect_refused("gpu-[1 -3]", 1000, "unexpected byte 0x20");
	expect_refused("gpu-[1-3;]", 1000, "unexpected ';'");
	expect_refused("gpu-[1-99999999999999999999]", 1000, "number too long");
	expect_refused("gpu;reboot", 1000, "';'");
	expect_refused("$(reboot)", 1000, "'$'");
	expect_refused("점검", 1000, "non-ASCII");
	expect_refused("gpu-st-b300-[1-100000]", 1000, "100000 nodes, more than the limit of 1000");
	expect_refused("x[1-999999999]", 1000, "more than the limit of 1000");
	expect_refused("x[1-2][3-4]", 1000, "one \"[...]\" group per name"); /* libslurm and core differ */
	expect_refused("gpu-st-b300-[1-2]", 1, "limit of 1");
	expect_refused(longname, 1000, "longer than 255");
	expect_refused(longrange, 1000, "longer than 255");
}

/* ---- nodes ------------------------------------------------------------- */

static const struct oc_node *find_node(const struct oc_nodes *t, const char *name)
{
	long i = oc_nodes_find(t, name);
	assert_true(i >= 0);
	return &t->v[i];
}

static const char *const our_nodes[] = {"gpu-st-b300-9", "gpu-st-b300-10", "gpu-st-b300-11",
					"gpu-st-b300-14"};

/* Put our nodes back to a clean state whatever a test left, then wait
 * (up to 30 s) until slurmctld has them registered again: a resume of a
 * drained node sets NOT_RESPONDING ("idle*") until the node answers the
 * ping slurmctld sends at once, and the next test program should find the
 * cluster settled. */
static int nodes_teardown(void **state)
{
	(void)state;
	struct oc_nodes *t = NULL;
	char err[256];
	if (writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(our_nodes) / sizeof(our_nodes[0]); i++) {
		long k = oc_nodes_find(t, our_nodes[i]);
		if (k >= 0 && (t->v[k].flags & OC_NF_DRAIN))
			writer.ops->node_update(writer.ctx, our_nodes[i], OC_NODE_OP_RESUME, NULL, err,
						sizeof(err));
	}
	oc_nodes_unref(&t);
	for (int tries = 0; tries < 150; tries++) {
		if (writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)) < 0)
			return 0;
		bool settled = true;
		for (size_t i = 0; i < sizeof(our_nodes) / sizeof(our_nodes[0]); i++) {
			long k = oc_nodes_find(t, our_nodes[i]);
			if (k >= 0 && (t->v[k].flags & (OC_NF_DRAIN | OC_NF_NOT_RESPONDING)))
				settled = false;
		}
		oc_nodes_unref(&t);
		if (settled) {
			printf("# nodes settled after %d ms\n", tries * 200);
			return 0;
		}
		usleep(200 * 1000);
	}
	fprintf(stderr, "nodes still not settled after 30 s\n");
	return 0;
}

/* What `scontrol show node -o` prints for a reason of two lines: it
 * splits the reason at newlines (strtok_r: empty lines vanish), writes
 * " [user@time]" after the first line and each further line after the
 * line end (a space with -o) and 7 spaces of indent. So scontrol's text
 * is not a lossless read-back; read_nodes is. Checks that form. */
static void check_scontrol_reason(const char *node, const char *reason)
{
	const char *nl = strchr(reason, '\n');
	assert_non_null(nl);
	assert_null(strchr(nl + 1, '\n'));
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "scontrol show node -o %s", node);
	char *out = cluster_util_run(cmd);
	printf("# scontrol: %s", strstr(out, "Reason=") ? strstr(out, "Reason=") : out);
	char first[512], rest[512];
	snprintf(first, sizeof(first), " Reason=%.*s [root@", (int)(nl - reason), reason);
	snprintf(rest, sizeof(rest), "]        %s", nl + 1);
	char *p = strstr(out, first);
	assert_non_null(p);
	assert_non_null(strstr(p, rest));
	free(out);
}

static void test_drain_resume_undrain(void **state)
{
	(void)state;
	char err[256] = "";
	struct oc_nodes *t = NULL;

	/* Start clean: our nodes are idle and not drained. */
	assert_int_equal(writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)), 0);
	assert_int_equal(t->n, 16);
	for (int i = 9; i <= 11; i++) {
		char name[32];
		snprintf(name, sizeof(name), "gpu-st-b300-%d", i);
		assert_false(find_node(t, name)->flags & OC_NF_DRAIN);
	}
	oc_nodes_unref(&t);

	/* A drain needs a reason. */
	assert_int_equal(writer.ops->node_update(writer.ctx, DRAIN_NODES, OC_NODE_OP_DRAIN, " \n", err,
						 sizeof(err)), -1);
	assert_string_equal(err, "a drain needs a reason");
	/* A bad expression never reaches slurmctld. */
	assert_int_equal(writer.ops->node_update(writer.ctx, "gpu-st-b300-[9-", OC_NODE_OP_DRAIN, "x", err,
						 sizeof(err)), -1);
	assert_non_null(strstr(err, "never closed"));

	/* Drain three nodes in one RPC, the hostile reason verbatim. */
	time_t before = time(NULL);
	err[0] = '\0';
	int rc = writer.ops->node_update(writer.ctx, DRAIN_NODES, OC_NODE_OP_DRAIN, hostile_reason, err,
					 sizeof(err));
	if (rc)
		fprintf(stderr, "drain: %s\n", err);
	assert_int_equal(rc, 0);
	assert_int_equal(writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)), 0);
	for (int i = 9; i <= 11; i++) {
		char name[32];
		snprintf(name, sizeof(name), "gpu-st-b300-%d", i);
		const struct oc_node *n = find_node(t, name);
		assert_true(n->flags & OC_NF_DRAIN);
		assert_non_null(n->reason);
		assert_string_equal(n->reason, hostile_reason);
		assert_string_equal(n->reason_user, "root");
		assert_true(n->reason_time >= before - 1);
	}
	/* Nodes we did not name are untouched. */
	assert_false(find_node(t, "gpu-st-b300-12")->flags & OC_NF_DRAIN);
	oc_nodes_unref(&t);

	/* scontrol shows the same text, in its own multi-line layout. */
	check_scontrol_reason("gpu-st-b300-10", hostile_reason);

	/* Resume: drain flag and reason gone. */
	assert_int_equal(writer.ops->node_update(writer.ctx, DRAIN_NODES, OC_NODE_OP_RESUME, NULL, err,
						 sizeof(err)), 0);
	assert_int_equal(writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)), 0);
	for (int i = 9; i <= 11; i++) {
		char name[32];
		snprintf(name, sizeof(name), "gpu-st-b300-%d", i);
		const struct oc_node *n = find_node(t, name);
		assert_false(n->flags & OC_NF_DRAIN);
		assert_null(n->reason);
		assert_int_equal(n->base, OC_NODE_IDLE);
	}
	oc_nodes_unref(&t);
	char *out = cluster_util_run("scontrol show node -o gpu-st-b300-9");
	assert_null(strstr(out, "DRAIN"));
	free(out);

	/* Undrain clears the drain flag only. */
	assert_int_equal(writer.ops->node_update(writer.ctx, "gpu-st-b300-9", OC_NODE_OP_DRAIN,
						 "oc_test undrain", err, sizeof(err)), 0);
	assert_int_equal(writer.ops->node_update(writer.ctx, "gpu-st-b300-9", OC_NODE_OP_UNDRAIN, NULL, err,
						 sizeof(err)), 0);
	assert_int_equal(writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)), 0);
	const struct oc_node *n = find_node(t, "gpu-st-b300-9");
	assert_false(n->flags & OC_NF_DRAIN);
	assert_int_equal(n->base, OC_NODE_IDLE);
	printf("# after undrain: reason %s\n", n->reason ? n->reason : "(none)");
	oc_nodes_unref(&t);

	/* Resuming a node that is not drained: Slurm's own answer. */
	rc = writer.ops->node_update(writer.ctx, "gpu-st-b300-9", OC_NODE_OP_RESUME, NULL, err, sizeof(err));
	printf("# resume of an idle node: rc %d %s\n", rc, rc ? err : "");
	/* A node that does not exist: Slurm's error text. */
	rc = writer.ops->node_update(writer.ctx, "gpu-st-b300-99", OC_NODE_OP_DRAIN, "oc_test", err,
				     sizeof(err));
	printf("# drain of an unknown node: %s\n", err);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "Invalid node name specified");
}

/* ---- reservations ------------------------------------------------------ */

static const struct oc_reservation *find_resv(const struct oc_reservations *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].name, name) == 0)
			return &t->v[i];
	return NULL;
}

static int resv_teardown(void **state)
{
	(void)state;
	char err[256];
	struct oc_reservations *t = NULL;
	if (writer.ops->read_reservations(writer.ctx, &t, err, sizeof(err)) < 0)
		return 0;
	if (find_resv(t, resv_name))
		writer.ops->resv_delete(writer.ctx, resv_name, err, sizeof(err));
	oc_reservations_unref(&t);
	return 0;
}

static void spec_init(struct oc_resv_spec *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", resv_name);
	snprintf(s->nodes, sizeof(s->nodes), "%s", RESV_NODES);
	snprintf(s->flags, sizeof(s->flags), "MAINT,IGNORE_JOBS");
	s->start = 0;
	s->duration_min = 10;
}

static void test_resv_create_delete(void **state)
{
	(void)state;
	char err[256] = "", got[128] = "";
	struct oc_resv_spec spec;
	spec_init(&spec);
	time_t before = time(NULL);
	int rc = writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err));
	if (rc)
		fprintf(stderr, "create: %s\n", err);
	assert_int_equal(rc, 0);
	assert_string_equal(got, resv_name);

	struct oc_reservations *t = NULL;
	assert_int_equal(writer.ops->read_reservations(writer.ctx, &t, err, sizeof(err)), 0);
	const struct oc_reservation *r = find_resv(t, resv_name);
	assert_non_null(r);
	printf("# %s Nodes=%s Users=%s Flags=%s\n", r->name, r->nodes, r->users, r->flags);
	assert_string_equal(r->nodes, RESV_NODES);
	assert_string_equal(r->users, "root");
	assert_null(r->accounts);
	assert_non_null(strstr(r->flags, "MAINT"));
	assert_non_null(strstr(r->flags, "IGNORE_JOBS"));
	assert_int_equal(r->node_count, 2);
	assert_true(r->start_time >= before - 2 && r->start_time <= time(NULL) + 2);
	assert_int_equal(r->end_time - r->start_time, 600);
	assert_null(r->node_idx); /* read-back resolves no indexes */
	oc_reservations_unref(&t);

	/* scontrol agrees. */
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "scontrol show reservation -o %s", resv_name);
	char *out = cluster_util_run(cmd);
	assert_non_null(strstr(out, "Nodes=" RESV_NODES " "));
	assert_non_null(strstr(out, "Flags=MAINT,IGNORE_JOBS"));
	free(out);

	/* The same name again: Slurm's error text. */
	rc = writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err));
	printf("# create twice: %s\n", err);
	assert_int_equal(rc, -1);
	assert_string_equal(err, "Duplicate reservation name");

	assert_int_equal(writer.ops->resv_delete(writer.ctx, resv_name, err, sizeof(err)), 0);
	assert_int_equal(writer.ops->read_reservations(writer.ctx, &t, err, sizeof(err)), 0);
	assert_null(find_resv(t, resv_name));
	oc_reservations_unref(&t);
}

static void test_resv_refused(void **state)
{
	(void)state;
	char err[256] = "", got[128] = "x";
	struct oc_resv_spec spec;

	spec_init(&spec);
	snprintf(spec.flags, sizeof(spec.flags), "MAINT,BOGUS_FLAG");
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err)), -1);
	assert_string_equal(err, "unknown reservation flag \"BOGUS_FLAG\"");
	assert_string_equal(got, "");

	spec_init(&spec);
	snprintf(spec.flags, sizeof(spec.flags), "MAINT,");
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty reservation flag"));

	spec_init(&spec);
	spec.nodes[0] = '\0';
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err)), -1);
	assert_string_equal(err, "empty hostlist");

	spec_init(&spec);
	spec.duration_min = 0;
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "duration"));

	spec_init(&spec);
	snprintf(spec.name, sizeof(spec.name), "oc_test; rm");
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "reservation name"));

	/* Nothing was created by any of these. */
	struct oc_reservations *t = NULL;
	assert_int_equal(writer.ops->read_reservations(writer.ctx, &t, err, sizeof(err)), 0);
	assert_null(find_resv(t, resv_name));
	oc_reservations_unref(&t);

	/* A user Slurm does not know: Slurm's error text. */
	spec_init(&spec);
	snprintf(spec.users, sizeof(spec.users), "oc_no_such_user");
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err)), -1);
	printf("# unknown user: %s\n", err);
	/* 26.05 answers with SLURM_ERROR (scontrol says "Unspecified error"
	 * too); earlier releases with ESLURM_USER_ID_MISSING. */
	if (strcmp(err, "Unspecified error") != 0)
		assert_string_equal(err, "Invalid user id");

	/* Deleting what does not exist. */
	char missing[64];
	snprintf(missing, sizeof(missing), "oc_test_missing_%ld", (long)getpid());
	assert_int_equal(writer.ops->resv_delete(writer.ctx, missing, err, sizeof(err)), -1);
	printf("# delete missing: %s\n", err);
	assert_string_equal(err, "Requested reservation is invalid");
	assert_int_equal(writer.ops->resv_delete(writer.ctx, "", err, sizeof(err)), -1);
}

/* ---- whoami ------------------------------------------------------------ */

static void test_whoami_root(void **state)
{
	(void)state;
	char user[64] = "", err[256] = "";
	enum oc_admin_level level = OC_ADMIN_NONE;
	assert_int_equal(getuid(), 0);
	assert_int_equal(writer.ops->whoami(writer.ctx, user, sizeof(user), &level, err, sizeof(err)), 0);
	assert_string_equal(user, "root");
	assert_int_equal(level, OC_ADMIN_ADMIN);
}

/* In a child that becomes the plain user opsview: whoami says NONE and
 * slurmctld refuses a drain and a reservation with its own words. The
 * child reports through a pipe, one line per check. */
static void test_plain_user(void **state)
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
		if (!f || setgroups(0, NULL) != 0 || setgid(gid) != 0 || setuid(uid) != 0 || getuid() != uid)
			_exit(2);
		char user[64] = "", err[256] = "";
		enum oc_admin_level level = OC_ADMIN_ADMIN;
		int rc = writer.ops->whoami(writer.ctx, user, sizeof(user), &level, err, sizeof(err));
		fprintf(f, "whoami %d %s %d %s\n", rc, user, (int)level, err);
		err[0] = '\0';
		rc = writer.ops->node_update(writer.ctx, USER_NODE, OC_NODE_OP_DRAIN, "oc_test by opsview", err,
					     sizeof(err));
		fprintf(f, "drain %d %s\n", rc, err);
		struct oc_resv_spec spec;
		spec_init(&spec);
		snprintf(spec.nodes, sizeof(spec.nodes), "%s", USER_NODE);
		err[0] = '\0';
		char got[128];
		rc = writer.ops->resv_create(writer.ctx, &spec, got, sizeof(got), err, sizeof(err));
		fprintf(f, "resv %d %s\n", rc, err);
		struct oc_nodes *t = NULL;
		rc = writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err));
		fprintf(f, "read %d %zu\n", rc, t ? t->n : 0);
		oc_nodes_unref(&t);
		fclose(f);
		_exit(0);
	}
	close(fds[1]);
	FILE *f = fdopen(fds[0], "r");
	assert_non_null(f);
	char lines[4][512];
	for (int i = 0; i < 4; i++) {
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
	char want[128];
	snprintf(want, sizeof(want), "whoami 0 opsview %d ", (int)OC_ADMIN_NONE);
	assert_string_equal(lines[0], want);
	assert_string_equal(lines[1], "drain -1 Invalid user id");
	assert_string_equal(lines[2], "resv -1 Invalid user id");
	assert_string_equal(lines[3], "read 0 16");

	/* And the node is not drained. */
	struct oc_nodes *t = NULL;
	char err[256];
	assert_int_equal(writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)), 0);
	assert_false(find_node(t, USER_NODE)->flags & OC_NF_DRAIN);
	oc_nodes_unref(&t);
}

static int plain_user_teardown(void **state)
{
	nodes_teardown(state);
	return resv_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostlist_round_trip),
		cmocka_unit_test(test_hostlist_refused),
		cmocka_unit_test_teardown(test_drain_resume_undrain, nodes_teardown),
		cmocka_unit_test_teardown(test_resv_create_delete, resv_teardown),
		cmocka_unit_test_teardown(test_resv_refused, resv_teardown),
		cmocka_unit_test(test_whoami_root),
		cmocka_unit_test_teardown(test_plain_user, plain_user_teardown),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
