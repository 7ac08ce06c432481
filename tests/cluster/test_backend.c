/* test_backend.c: the libslurm backend against the real local cluster,
 * checked against what sinfo and squeue print for the same cluster. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster_util.h"
#include "core/state.h"
#include "core/views.h"
#include "source/collector.h"
#include "source/source.h"

/* The first test of the group, on the backend as cluster_util_setup
 * opened it (the configuration not loaded yet): a first refresh with
 * OC_MASK_CONF_LATER loads the jobs and not the configuration; the next
 * one, without it, loads the configuration. */
static void test_conf_later(void **state)
{
	(void)state;
	struct oc_snapshot *a =
		oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_JOBS) | OC_MASK_CONF_LATER, NULL);
	assert_non_null(a);
	assert_string_equal(a->status[OC_PART_JOBS].error, "");
	assert_true(a->status[OC_PART_JOBS].fetched);
	assert_true(a->jobs->n > 0);
	assert_string_equal(a->slurm_version, "");
	assert_string_equal(a->cluster, "");
	assert_int_equal(a->config->n, 0);
	struct oc_snapshot *b = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_JOBS), a);
	assert_non_null(b);
	assert_string_equal(b->status[OC_PART_JOBS].error, "");
	assert_string_equal(b->cluster, "llm-poc");
	assert_true(strlen(b->slurm_version) >= 5);
	assert_true(b->config->n > 0);
	oc_snapshot_unref(&a);
	oc_snapshot_unref(&b);
}

static void test_full_refresh(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	assert_non_null(s);
	for (int p = 0; p < OC_PART_COUNT; p++)
		assert_string_equal(s->status[p].error, "");
	assert_string_equal(s->cluster, "llm-poc");
	assert_true(strlen(s->slurm_version) >= 5);

	assert_int_equal(s->nodes->n, 16);
	for (size_t i = 0; i < s->nodes->n; i++) {
		const struct oc_node *n = &s->nodes->v[i];
		assert_int_equal(strncmp(n->name, "gpu-st-b300-", 12), 0);
		assert_int_equal(n->gpus, 8);
		assert_int_equal(n->cpus, 192);
		assert_true(n->alloc_gpus <= n->gpus);
	}
	/* Partitions: gpu hidden over all 16 nodes, normal the default. */
	int seen = 0;
	for (size_t i = 0; i < s->partitions->n; i++) {
		const struct oc_partition *p = &s->partitions->v[i];
		if (strcmp(p->name, "gpu") == 0) {
			assert_true(p->flags & OC_PF_HIDDEN);
			assert_int_equal(p->node_count, 16);
			seen |= 1;
		} else if (strcmp(p->name, "normal") == 0) {
			assert_true(p->flags & OC_PF_DEFAULT);
			assert_int_equal(p->node_count, 8);
			seen |= 2;
		} else if (strcmp(p->name, "debug") == 0) {
			assert_int_equal(p->node_count, 2);
			assert_int_equal(p->max_time_min, 30);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	oc_snapshot_unref(&s);
	assert_null(s);
}

/* Node states and reasons agree with sinfo, node by node. */
static void test_nodes_match_sinfo(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	char *out = cluster_util_run("sinfo -h -N -p large -o '%N|%t|%E'");
	int lines = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char *name = line, *st = strchr(line, '|');
		assert_non_null(st);
		*st++ = '\0';
		char *reason = strchr(st, '|');
		assert_non_null(reason);
		*reason++ = '\0';
		long idx = oc_nodes_find(s->nodes, name);
		assert_true(idx >= 0);
		const struct oc_node *n = &s->nodes->v[idx];
		char buf[32];
		assert_string_equal(oc_node_state_compact(n, buf, sizeof(buf)), st);
		if (strcmp(reason, "none") == 0)
			assert_null(n->reason);
		else
			assert_string_equal(n->reason, reason);
		lines++;
	}
	assert_int_equal(lines, 16);
	free(out);
	oc_snapshot_unref(&s);
}

/* Pending and running jobs agree with squeue: ids, states, partitions. */
static void test_jobs_match_squeue(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	char *out = cluster_util_run("squeue -h -a -t PD,R -o '%A|%t|%P|%u|%a'");
	int lines = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned id;
		char st[8], part[64], user[64], acct[64];
		assert_int_equal(sscanf(line, "%u|%7[^|]|%63[^|]|%63[^|]|%63s", &id, st, part, user, acct), 5);
		const struct oc_job *found = NULL;
		for (size_t i = 0; i < s->jobs->n; i++)
			if (s->jobs->v[i].job_id == id)
				found = &s->jobs->v[i];
		assert_non_null(found);
		assert_string_equal(oc_job_state_compact(found), st);
		assert_string_equal(found->partition, part);
		assert_string_equal(found->user, user);
		assert_string_equal(found->account, acct);
		lines++;
	}
	/* The demo workload has running and pending jobs. */
	assert_true(lines >= 3);
	free(out);
	oc_snapshot_unref(&s);
}

/* A refresh in which nothing changed shares the previous tables instead of
 * building new ones (Slurm's "no change in data" path). */
static void test_unchanged_refresh_shares(void **state)
{
	(void)state;
	struct oc_snapshot *a = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	struct oc_snapshot *b = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, a);
	assert_non_null(b);
	assert_int_equal(b->seq, a->seq + 1);
	/* Partitions and reservations do not change on their own; but a test
	 * just before may have deleted a reservation, whose nodes slurmctld
	 * updates a moment later (last_resv_update moves): in a quiet moment,
	 * a second and a few seconds at most. A table that keeps changing
	 * still fails. */
	for (int i = 0; i < 30 && (a->partitions != b->partitions || a->reservations != b->reservations); i++) {
		sleep(1);
		oc_snapshot_unref(&a);
		a = b;
		b = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, a);
		assert_non_null(b);
	}
	assert_ptr_equal(a->partitions, b->partitions);
	assert_ptr_equal(a->reservations, b->reservations);
	/* Parts not asked for are carried over untouched. */
	struct oc_snapshot *c = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_RESV), b);
	assert_ptr_equal(c->jobs, b->jobs);
	assert_ptr_equal(c->nodes, b->nodes);
	oc_snapshot_unref(&c);
	oc_snapshot_unref(&b);
	oc_snapshot_unref(&a);
}

/* Partition summaries add up: GPUs of normal = 8 nodes x 8. */
/* The console's start-up order (collector.c): the queue alone first, the
 * nodes in the next refresh. The jobs are then relinked against the node
 * table, not asked for again: same strings (the same load), node indexes
 * that name exactly the nodes of each running job. */
static void test_jobs_first_then_nodes(void **state)
{
	(void)state;
	/* When slurmctld's queue changes between the two refreshes (a job of
	 * an earlier test purged, the scheduler updating a pending job) it
	 * rightly sends the queue again. So: a, b, then the queue alone asked
	 * again from a; when that third answer is "no change", nothing
	 * changed while b was made and b must have relinked. Up to 50 tries
	 * for such a quiet moment. */
	struct oc_snapshot *a = NULL, *b = NULL;
	bool quiet = false;
	for (int tries = 0; tries < 50 && !quiet; tries++) {
		oc_snapshot_unref(&a);
		oc_snapshot_unref(&b);
		a = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_JOBS), NULL);
		assert_non_null(a);
		b = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS), a);
		assert_non_null(b);
		struct oc_snapshot *c = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_JOBS), a);
		assert_non_null(c);
		quiet = c->jobs->str == a->jobs->str;
		oc_snapshot_unref(&c);
	}
	if (!quiet) {
		print_message("slurmctld's queue changed in each of 50 tries: the relink could not be checked\n");
		oc_snapshot_unref(&a);
		oc_snapshot_unref(&b);
		skip();
	}
	assert_true(a->status[OC_PART_JOBS].fetched);
	assert_false(a->status[OC_PART_NODES].fetched);
	assert_int_equal(a->nodes->n, 0);
	size_t running = 0;
	for (size_t i = 0; i < a->jobs->n; i++) {
		running += oc_job_holds_nodes(&a->jobs->v[i]);
		assert_int_equal(a->jobs->v[i].node_count, 0);
	}
	assert_true(running > 0); /* the demo workload runs jobs */

	assert_int_equal(b->nodes->n, 16);
	assert_ptr_not_equal(b->jobs, a->jobs);
	assert_ptr_equal(b->jobs->str, a->jobs->str); /* relinked, not loaded again */
	assert_int_equal(b->jobs->node_generation, b->nodes->h.generation);
	/* Against a load resolved at once (jobs that ended in between are
	 * skipped; the demo's running jobs last for hours). */
	struct oc_snapshot *c = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS), NULL);
	assert_non_null(c);
	size_t linked = 0, compared = 0;
	for (size_t i = 0; i < b->jobs->n; i++) {
		const struct oc_job *j = &b->jobs->v[i];
		if (!oc_job_holds_nodes(j))
			continue;
		linked++;
		assert_true(j->node_count > 0);
		for (size_t m = 0; m < c->jobs->n; m++) {
			const struct oc_job *d = &c->jobs->v[m];
			if (d->job_id != j->job_id || !oc_job_holds_nodes(d))
				continue;
			assert_int_equal(j->node_count, d->node_count);
			for (uint32_t k = 0; k < j->node_count; k++)
				assert_string_equal(b->nodes->v[j->node_idx[k]].name, c->nodes->v[d->node_idx[k]].name);
			compared++;
		}
	}
	assert_int_equal(linked, running);
	assert_true(compared > 0);
	oc_snapshot_unref(&c);
	oc_snapshot_unref(&a); /* the relinked table outlives the one it came from */
	for (size_t i = 0; i < b->jobs->n; i++)
		assert_non_null(b->jobs->v[i].user);
	oc_snapshot_unref(&b);
}

static void test_partition_rows(void **state)
{
	(void)state;
	struct oc_snapshot *s = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, NULL);
	struct oc_part_row *rows = NULL;
	long n = oc_part_rows(s, false, &rows);
	assert_true(n >= 4);
	for (long i = 0; i < n; i++) {
		const struct oc_partition *p = &s->partitions->v[rows[i].part];
		assert_false(p->flags & OC_PF_HIDDEN);
		if (strcmp(p->name, "normal") == 0) {
			assert_int_equal(rows[i].gpus_total, 64);
			assert_int_equal(rows[i].nodes, 8);
			assert_int_equal(rows[i].alloc + rows[i].mix + rows[i].idle + rows[i].drain +
						 rows[i].down + rows[i].power + rows[i].other,
					 8);
		}
	}
	free(rows);
	oc_snapshot_unref(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_later), /* first: the configuration not loaded yet */
		cmocka_unit_test(test_full_refresh),
		cmocka_unit_test(test_nodes_match_sinfo),
		cmocka_unit_test(test_jobs_match_squeue),
		cmocka_unit_test(test_unchanged_refresh_shares),
		cmocka_unit_test(test_partition_rows),
		cmocka_unit_test(test_jobs_first_then_nodes),
	};
	return cmocka_run_group_tests(tests, cluster_util_setup, cluster_util_teardown);
}
