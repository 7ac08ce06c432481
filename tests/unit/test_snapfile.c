/* test_snapfile.c: recorded snapshots (source/snapfile.h). A snapshot made
 * from the outputs recorded on the local 22.05 cluster (the parsers of the
 * CLI backend) is written, read back and written again: the two files are
 * the same bytes, and the node indexes are resolved as the parsers resolve
 * them. Broken and truncated files are refused with FILE:LINE, and
 * nothing is kept. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/cli_parse.h"
#include "source/snapfile.h"
#include "test_util.h"

#define DATA OC_SOURCE_DIR "/tests/unit/data/cli-22.05/"

#define slurp test_util_slurp

/* Two texts byte for byte; frees both. */
static void assert_same_text(char *a, size_t la, char *b, size_t lb)
{
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

/* The demo cluster as the CLI backend parses it. */
static struct oc_snapshot *demo_snapshot(void)
{
	struct oc_snapshot *s = oc_snapshot_new();
	assert_non_null(s);
	char err[256];
	size_t len;
	char *t = slurp(DATA "sinfo.json", &len);
	oc_nodes_unref(&s->nodes);
	assert_int_equal(oc_cli_parse_nodes_json(t, len, NULL, &s->nodes, err, sizeof(err)), 0);
	free(t);
	struct oc_node_index ix = {.nodes = s->nodes};
	t = slurp(DATA "partitions.txt", &len);
	oc_partitions_unref(&s->partitions);
	assert_int_equal(oc_cli_parse_partitions(t, len, &ix, NULL, &s->partitions, err, sizeof(err)), 0);
	free(t);
	t = slurp(DATA "squeue.json", &len);
	oc_jobs_unref(&s->jobs);
	assert_int_equal(oc_cli_parse_jobs_json(t, len, &ix, NULL, &s->jobs, err, sizeof(err)), 0);
	free(t);
	t = slurp(DATA "reservations.txt", &len);
	oc_reservations_unref(&s->reservations);
	assert_int_equal(oc_cli_parse_reservations(t, len, &ix, NULL, &s->reservations, err, sizeof(err)), 0);
	free(t);
	oc_node_index_free(&ix);
	snprintf(s->cluster, sizeof(s->cluster), "llm-poc");
	snprintf(s->slurm_version, sizeof(s->slurm_version), "22.05.8");
	snprintf(s->slurm_user, sizeof(s->slurm_user), "slurm");
	s->taken = 1796000000;
	return s;
}

static void write_file(const char *path, const struct oc_snapshot *s)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	char err[256];
	assert_int_equal(oc_snapfile_write(f, s, err, sizeof(err)), 0);
	fclose(f);
}

static void test_roundtrip(void **state)
{
	(void)state;
	char dir[] = "/tmp/oc-snapfile-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char a[128], b[128];
	snprintf(a, sizeof(a), "%s/a.jsonl", dir);
	snprintf(b, sizeof(b), "%s/b.jsonl", dir);
	struct oc_snapshot *s = demo_snapshot();
	assert_int_equal(s->nodes->n, 16);
	assert_true(s->jobs->n > 5);
	assert_int_equal(s->reservations->n, 1);
	write_file(a, s);

	char err[256];
	struct oc_snapshot *r = oc_snapfile_read(a, err, sizeof(err));
	if (!r)
		fail_msg("%s", err);
	write_file(b, r);
	size_t la, lb;
	char *ta = slurp(a, &la), *tb = slurp(b, &lb);
	assert_same_text(ta, la, tb, lb);

	assert_string_equal(r->cluster, "llm-poc");
	assert_int_equal(r->taken, 1796000000);
	assert_int_equal(r->status[OC_PART_JOBS].fetched, 1796000000);
	assert_int_equal(r->status[OC_PART_ACCT].fetched, 0);
	/* Node indexes as the parsers resolved them. */
	for (size_t i = 0; i < s->jobs->n; i++) {
		const struct oc_job *x = &s->jobs->v[i], *y = &r->jobs->v[i];
		assert_int_equal(x->node_count, y->node_count);
		for (uint32_t k = 0; k < x->node_count; k++)
			assert_int_equal(x->node_idx[k], y->node_idx[k]);
	}
	for (size_t i = 0; i < s->partitions->n; i++)
		assert_int_equal(s->partitions->v[i].node_count, r->partitions->v[i].node_count);
	assert_int_equal(s->reservations->v[0].node_idx_count, r->reservations->v[0].node_idx_count);
	/* Users, accounts, partitions are interned. */
	const char *u0 = NULL;
	for (size_t i = 0; i < r->jobs->n; i++) {
		const char *u = r->jobs->v[i].user;
		if (u0 && strcmp(u, u0) == 0)
			assert_ptr_equal(u, u0);
		if (!u0)
			u0 = u;
	}

	/* The backend serves it read as it is, every time. */
	struct oc_backend *be = oc_snap_backend_open(a, err, sizeof(err));
	assert_non_null(be);
	struct oc_snapshot *n1 = oc_snapshot_new();
	assert_int_equal(be->ops->refresh(be, OC_MASK_ALL, NULL, n1), 0);
	assert_int_equal(n1->jobs->n, s->jobs->n);
	assert_string_equal(n1->status[OC_PART_JOBS].error, "");
	assert_string_equal(n1->status[OC_PART_ACCT].error, "");
	assert_int_equal(n1->accounting->nassocs, 0);
	oc_snapshot_unref(&n1);
	oc_backend_close(&be);

	oc_snapshot_unref(&r);
	oc_snapshot_unref(&s);
	unlink(a);
	unlink(b);
	rmdir(dir);
}


/* A frame of s with the parts in send, in memory. */
static char *frame_of(const struct oc_snapshot *s, const struct oc_snapshot *prev, unsigned send, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	char err[256];
	assert_int_equal(oc_snapfile_write_frame(f, s, prev, send, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

/* The data agent's frames: a whole frame makes the same tables as the
 * file; a frame of the jobs alone replaces only them (a generation more,
 * indexes against the nodes held); a frame with nothing keeps every
 * table; a cut or inconsistent frame is refused and changes nothing. */
static void test_frames(void **state)
{
	(void)state;
	struct oc_snapshot *s = demo_snapshot();
	s->seq = 42;
	s->status[OC_PART_JOBS].error_since = 1796000001;
	snprintf(s->status[OC_PART_JOBS].error, sizeof(s->status[OC_PART_JOBS].error), "jobs: slurmctld down");
	struct oc_snapshot *c = oc_snapshot_new();
	assert_non_null(c);
	size_t len;
	/* An association manager of two associations and a QoS. */
	struct oc_accounting *acct = s->accounting;
	acct->enabled = true;
	snprintf(acct->dbd_error, sizeof(acct->dbd_error), "slurmdbd down");
	acct->assocs = oc_arena_alloc(&acct->h.arena, 2 * sizeof(*acct->assocs));
	acct->qos = oc_arena_alloc(&acct->h.arena, sizeof(*acct->qos));
	assert_non_null(acct->assocs);
	assert_non_null(acct->qos);
	memset(acct->assocs, 0, 2 * sizeof(*acct->assocs));
	memset(acct->qos, 0, sizeof(*acct->qos));
	acct->assocs[0].account = "team-a";
	acct->assocs[0].grp[OC_TRES_GPU].limit = 64;
	acct->assocs[0].grp[OC_TRES_GPU].used = 24;
	acct->assocs[0].grp[OC_TRES_CPU].limit = OC_NOLIMIT;
	acct->assocs[0].have_fairshare = true;
	acct->assocs[0].fs_factor = 0.625;
	acct->assocs[1].account = "team-a";
	acct->assocs[1].user = "alice";
	acct->assocs[1].max_jobs = OC_NONE;
	acct->qos[0].name = "normal_qos";
	acct->qos[0].max_jobs_pu = 4;
	acct->qos[0].max_tres_pu = "gres/gpu=16";
	acct->nassocs = 2;
	acct->nqos = 1;
	char *fr = frame_of(s, NULL, OC_MASK_ALL, &len);
	struct oc_frame_info fi;
	char err[256];
	if (oc_snapfile_read_frame(fr, len, c, &fi, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	free(fr);
	assert_int_equal(fi.sent, OC_MASK_ALL);
	const struct oc_accounting *ca = c->accounting;
	assert_true(ca->enabled);
	assert_string_equal(ca->dbd_error, "slurmdbd down");
	assert_int_equal(ca->nassocs, 2);
	assert_int_equal(ca->nqos, 1);
	assert_string_equal(ca->assocs[0].account, "team-a");
	assert_null(ca->assocs[0].user);
	assert_int_equal(ca->assocs[0].grp[OC_TRES_GPU].limit, 64);
	assert_int_equal(ca->assocs[0].grp[OC_TRES_GPU].used, 24);
	assert_true(ca->assocs[0].grp[OC_TRES_CPU].limit == OC_NOLIMIT);
	assert_true(ca->assocs[0].have_fairshare);
	assert_true(ca->assocs[0].fs_factor == 0.625);
	assert_string_equal(ca->assocs[1].user, "alice");
	assert_int_equal(ca->assocs[1].max_jobs, OC_NONE);
	assert_string_equal(ca->qos[0].name, "normal_qos");
	assert_int_equal(ca->qos[0].max_jobs_pu, 4);
	assert_string_equal(ca->qos[0].max_tres_pu, "gres/gpu=16");
	assert_int_equal(c->nodes->n, s->nodes->n);
	assert_int_equal(c->jobs->n, s->jobs->n);
	assert_int_equal(c->reservations->n, 1);
	assert_string_equal(c->cluster, "llm-poc");
	assert_string_equal(fi.status[OC_PART_JOBS].error, "jobs: slurmctld down");
	assert_int_equal(fi.status[OC_PART_JOBS].error_since, 1796000001);
	assert_int_equal(fi.seq, 42);
	for (size_t i = 0; i < s->jobs->n; i++) {
		assert_int_equal(c->jobs->v[i].job_id, s->jobs->v[i].job_id);
		assert_int_equal(c->jobs->v[i].node_count, s->jobs->v[i].node_count);
		for (uint32_t k = 0; k < s->jobs->v[i].node_count; k++)
			assert_int_equal(c->jobs->v[i].node_idx[k], s->jobs->v[i].node_idx[k]);
	}
	assert_int_equal(c->jobs->node_generation, c->nodes->h.generation);
	/* The table read back says what the one sent did (the agent keeps
	 * its old table then, and sends nothing); one field apart, it does
	 * not. */
	assert_true(oc_snapfile_acct_same(ca, s->accounting));
	s->accounting->assocs[1].max_jobs = 7;
	assert_false(oc_snapfile_acct_same(ca, s->accounting));
	s->accounting->assocs[1].max_jobs = OC_NONE;
	s->accounting->qos[0].max_jobs_pu = 5;
	assert_false(oc_snapfile_acct_same(ca, s->accounting));
	s->accounting->qos[0].max_jobs_pu = 4;
	snprintf(s->accounting->dbd_error, sizeof(s->accounting->dbd_error), "%s", "");
	assert_false(oc_snapfile_acct_same(ca, s->accounting));
	snprintf(s->accounting->dbd_error, sizeof(s->accounting->dbd_error), "%s", "slurmdbd down");
	assert_true(oc_snapfile_acct_same(ca, s->accounting));

	/* Only the jobs, one of them changed. */
	struct oc_nodes *nodes = c->nodes;
	struct oc_partitions *parts = c->partitions;
	uint64_t jg = c->jobs->h.generation;
	s->jobs->v[0].priority = 4242;
	fr = frame_of(s, NULL, OC_MASK(OC_PART_JOBS), &len);
	assert_int_equal(oc_snapfile_read_frame(fr, len, c, &fi, err, sizeof(err)), 0);
	free(fr);
	assert_int_equal(fi.sent, OC_MASK(OC_PART_JOBS));
	assert_ptr_equal(c->nodes, nodes);
	assert_ptr_equal(c->partitions, parts);
	assert_int_equal(c->jobs->h.generation, jg + 1);
	assert_int_equal(c->jobs->v[0].priority, 4242);
	assert_int_equal(c->jobs->v[0].node_count, s->jobs->v[0].node_count);

	assert_ptr_equal(c->accounting, ca);

	/* Nothing changed: every table kept. */
	struct oc_jobs *jobs = c->jobs;
	fr = frame_of(s, NULL, 0, &len);
	assert_int_equal(oc_snapfile_read_frame(fr, len, c, &fi, err, sizeof(err)), 0);
	free(fr);
	assert_int_equal(fi.sent, 0u);
	assert_ptr_equal(c->jobs, jobs);
	assert_ptr_equal(c->nodes, nodes);

	/* Cut before its end line: refused, nothing changed. */
	s->jobs->v[0].priority = 1;
	fr = frame_of(s, NULL, OC_MASK(OC_PART_JOBS), &len);
	assert_true(len > 20);
	assert_int_equal(oc_snapfile_read_frame(fr, len - 13, c, &fi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cut short"));
	assert_int_equal(fi.sent, 0u);
	assert_ptr_equal(c->jobs, jobs);
	assert_int_equal(c->jobs->v[0].priority, 4242);
	free(fr);

	/* A new node layout (a node less) without the jobs, partitions and
	 * reservations indexed by it: refused. */
	s->nodes->n--;
	fr = frame_of(s, NULL, OC_MASK(OC_PART_NODES), &len);
	assert_int_equal(oc_snapfile_read_frame(fr, len, c, &fi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node layout"));
	assert_ptr_equal(c->nodes, nodes);
	free(fr);

	/* A row of a part the header does not count: refused. */
	static const char stray[] = "{\"t\":\"frame\",\"cluster\":\"x\",\"slurm_version\":\"1\",\"slurm_user\":\"s\","
				    "\"taken\":1,\"status\":[[1,0,\"\"],[1,0,\"\"],[1,0,\"\"],[1,0,\"\"],[1,0,\"\"]]}\n"
				    "{\"t\":\"resv\",\"name\":\"r\"}\n" OC_SNAPFILE_END "\n";
	assert_int_equal(oc_snapfile_read_frame(stray, strlen(stray), c, &fi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "agent frame:2:"));
	assert_string_equal(c->cluster, "llm-poc");

	oc_snapshot_unref(&c);
	oc_snapshot_unref(&s);
}


/* The whole snapshot s as a file, in memory. */
static char *file_of(const struct oc_snapshot *s, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	char err[256];
	assert_int_equal(oc_snapfile_write(f, s, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Deltas: against the snapshot the other side holds, unchanged nodes and
 * jobs go as runs of row numbers, changed and new ones whole; applied,
 * the tables are the new snapshot's to the byte; a run naming rows the
 * other side does not hold is refused. */
static void test_frame_delta(void **state)
{
	(void)state;
	struct oc_snapshot *a = demo_snapshot(), *b = demo_snapshot(), *c = oc_snapshot_new();
	assert_true(a->jobs->n > 5);
	size_t len;
	char err[256];
	struct oc_frame_info fi;
	char *fr = frame_of(a, NULL, OC_MASK_ALL, &len);
	assert_int_equal(oc_snapfile_read_frame(fr, len, c, &fi, err, sizeof(err)), 0);
	free(fr);

	/* Two jobs changed, one job gone (the last), the nodes as they were. */
	b->jobs->v[1].priority = 777;
	b->jobs->v[3].reason = "Resources";
	b->jobs->n--;
	fr = frame_of(b, a, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS), &len);
	assert_non_null(strstr(fr, "\"delta\":5"));
	assert_int_equal(count_of(fr, "\"t\":\"job\""), 2);
	assert_int_equal(count_of(fr, "\"t\":\"node\""), 0);
	assert_int_equal(count_of(fr, "\"t\":\"same\",\"of\":\"node\""), 1);
	assert_int_equal(count_of(fr, "\"t\":\"same\",\"of\":\"job\""), 3); /* 0, 2, 4.. */
	struct oc_nodes *nodes = c->nodes;
	if (oc_snapfile_read_frame(fr, len, c, &fi, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	free(fr);
	assert_int_equal(fi.sent, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS));
	assert_ptr_not_equal(c->nodes, nodes);
	c->taken = b->taken;
	size_t lb, lc;
	char *tb = file_of(b, &lb), *tc = file_of(c, &lc);
	assert_same_text(tb, lb, tc, lc);
	for (size_t i = 0; i < b->jobs->n; i++) {
		assert_int_equal(c->jobs->v[i].node_count, b->jobs->v[i].node_count);
		for (uint32_t k = 0; k < b->jobs->v[i].node_count; k++)
			assert_int_equal(c->jobs->v[i].node_idx[k], b->jobs->v[i].node_idx[k]);
	}

	/* A run beyond the rows held: refused, nothing changed. */
	struct oc_jobs *jobs = c->jobs;
	char bad[512];
	snprintf(bad, sizeof(bad),
		 "{\"t\":\"frame\",\"cluster\":\"x\",\"slurm_version\":\"1\",\"slurm_user\":\"s\",\"taken\":1,"
		 "\"status\":[[1,0,\"\"],[1,0,\"\"],[1,0,\"\"],[1,0,\"\"],[1,0,\"\"]],\"jobs\":2,\"delta\":4}\n"
		 "{\"t\":\"same\",\"of\":\"job\",\"from\":%zu,\"count\":2}\n" OC_SNAPFILE_END "\n",
		 c->jobs->n - 1);
	assert_int_equal(oc_snapfile_read_frame(bad, strlen(bad), c, &fi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "agent frame:2:"));
	assert_ptr_equal(c->jobs, jobs);
	/* Nor in a frame that sends the jobs whole. */
	snprintf(bad, sizeof(bad),
		 "{\"t\":\"frame\",\"cluster\":\"x\",\"slurm_version\":\"1\",\"slurm_user\":\"s\",\"taken\":1,"
		 "\"status\":[[1,0,\"\"],[1,0,\"\"],[1,0,\"\"],[1,0,\"\"],[1,0,\"\"]],\"jobs\":1}\n"
		 "{\"t\":\"same\",\"of\":\"job\",\"from\":0,\"count\":1}\n" OC_SNAPFILE_END "\n");
	assert_int_equal(oc_snapfile_read_frame(bad, strlen(bad), c, &fi, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "whole"));
	assert_ptr_equal(c->jobs, jobs);

	oc_snapshot_unref(&a);
	oc_snapshot_unref(&b);
	oc_snapshot_unref(&c);
}

/* Each broken file: refused with the message and (when a line is at fault)
 * its line number. */
static void check_broken(const char *dir, const char *name, const char *text, const char *want)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	char err[512];
	struct oc_snapshot *r = oc_snapfile_read(path, err, sizeof(err));
	if (r)
		fail_msg("%s was read", name);
	if (!strstr(err, want))
		fail_msg("%s: '%s' lacks '%s'", name, err, want);
	unlink(path);
}

#define HDR "{\"schema\":\"opsconsole.snapshot/1\",\"cluster\":\"c\",\"slurm_version\":\"22.05.8\",\"slurm_user\":\"slurm\",\"taken\":1,"

static void test_broken(void **state)
{
	(void)state;
	char dir[] = "/tmp/oc-snapfile-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char err[256];
	assert_null(oc_snapfile_read("/nonexistent/x.jsonl", err, sizeof(err)));
	assert_non_null(strstr(err, "No such file"));
	check_broken(dir, "empty", "", "empty: not an opsconsole snapshot");
	check_broken(dir, "other", "{\"schema\":\"opsconsole.once/1\"}\n", ":1: not an opsconsole snapshot");
	check_broken(dir, "notjson", HDR "\"nodes\":0,\"partitions\":0,\"jobs\":1,\"reservations\":0}\n{\"t\":\"job\",\n",
		     ":2: ");
	check_broken(dir, "array", "[1,2]\n", ":1: not a JSON object");
	check_broken(dir, "nocount", HDR "\"nodes\":0,\"partitions\":0,\"jobs\":-1,\"reservations\":0}\n",
		     ":1: the header's \"jobs\" is missing or not a count");
	check_broken(dir, "truncated", HDR "\"nodes\":0,\"partitions\":0,\"jobs\":2,\"reservations\":0}\n", "truncated: 0 of the 2 jobs");
	check_broken(dir, "huge", HDR "\"nodes\":0,\"partitions\":0,\"jobs\":99999999,\"reservations\":0}\n",
		     ":1: the header announces more rows than the file holds");
	check_broken(dir, "extra",
		     HDR "\"nodes\":0,\"partitions\":0,\"jobs\":0,\"reservations\":0}\n{\"t\":\"job\"}\n",
		     ":2: more rows of this kind than the header announces");
	check_broken(dir, "kind",
		     HDR "\"nodes\":0,\"partitions\":0,\"jobs\":0,\"reservations\":0}\n{\"t\":\"qos\"}\n",
		     ":2: unknown row kind \"qos\"");
	check_broken(dir, "type",
		     HDR "\"nodes\":1,\"partitions\":0,\"jobs\":0,\"reservations\":0}\n{\"t\":\"node\",\"name\":7}\n",
		     ":2: \"name\" is not a string");
	check_broken(dir, "missing",
		     HDR "\"nodes\":1,\"partitions\":0,\"jobs\":0,\"reservations\":0}\n{\"t\":\"node\",\"name\":\"n1\"}\n",
		     ":2: \"base\" is missing or not an integer");
	check_broken(dir, "noname",
		     HDR "\"nodes\":1,\"partitions\":0,\"jobs\":0,\"reservations\":0}\n{\"t\":\"node\",\"nare\":\"n1\"}\n",
		     ":2: \"name\" is missing");
	check_broken(dir, "state",
		     HDR "\"nodes\":0,\"partitions\":0,\"jobs\":1,\"reservations\":0}\n"
			 "{\"t\":\"job\",\"user\":\"u\",\"job_id\":1,\"array_job_id\":0,\"array_task_id\":0,\"state\":50,\"flags\":0,"
			 "\"submit_time\":0,\"start_time\":0,\"end_time\":0,\"time_limit_min\":0,\"num_nodes\":0,"
			 "\"num_cpus\":0,\"gpus\":0,\"priority\":0}\n",
		     ":2: \"state\" is out of range");
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_frame_delta),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
