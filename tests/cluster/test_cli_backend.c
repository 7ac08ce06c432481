/* test_cli_backend.c: the CLI backend (the Slurm commands over a
 * transport) against the libslurm backend on the real local cluster, field
 * by field, and the CLI writer: drain and resume with a hostile reason read
 * back with scontrol, a reservation created and deleted, whoami.
 *
 * The transport is a parameter: OC_CLI_TRANSPORT=local (default) runs the
 * commands on this machine; OC_CLI_TRANSPORT=ssh runs them over SSH as
 * root to 127.0.0.1:$OC_SSHD_PORT (default 2222) with $OC_SSH_KEY and
 * $OC_SSH_KNOWN_HOSTS, by default the client key and known_hosts of the
 * test sshd in $OC_SSHD_DIR (tests/ssh/sshd.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster_util.h"
#include "core/tres.h"
#include "source/cli_source.h"
#include "source/collector.h"
#include "source/source.h"

static struct oc_transport *transport;
static struct oc_backend *cli;

static int setup(void **state)
{
	if (cluster_util_setup(state) < 0)
		return -1;
	char err[512] = "";
	const char *kind = getenv("OC_CLI_TRANSPORT");
	if (!kind || !*kind || strcmp(kind, "local") == 0) {
		transport = oc_local_transport_open(err, sizeof(err));
	} else if (strcmp(kind, "ssh") == 0) {
		struct oc_ssh_target t;
		memset(&t, 0, sizeof(t));
		snprintf(t.host, sizeof(t.host), "127.0.0.1");
		t.port = getenv("OC_SSHD_PORT") ? atoi(getenv("OC_SSHD_PORT")) : 2222;
		snprintf(t.user, sizeof(t.user), "root");
		const char *dir = getenv("OC_SSHD_DIR") ? getenv("OC_SSHD_DIR") : "build/sshd";
		if (getenv("OC_SSH_KEY"))
			snprintf(t.identity, sizeof(t.identity), "%s", getenv("OC_SSH_KEY"));
		else
			snprintf(t.identity, sizeof(t.identity), "%s/client_ed25519", dir);
		if (getenv("OC_SSH_KNOWN_HOSTS"))
			snprintf(t.known_hosts, sizeof(t.known_hosts), "%s", getenv("OC_SSH_KNOWN_HOSTS"));
		else
			snprintf(t.known_hosts, sizeof(t.known_hosts), "%s/known_hosts", dir);
		t.connect_timeout_s = 10;
		transport = oc_ssh_transport_open(&t, err, sizeof(err));
	} else {
		snprintf(err, sizeof(err), "OC_CLI_TRANSPORT=%s: local or ssh", kind);
	}
	if (!transport) {
		fprintf(stderr, "transport: %s\n", err);
		return -1;
	}
	const char *bin = getenv("OC_CLI_SLURM_BIN");
	cli = oc_cli_backend_open(transport, bin ? bin : "", err, sizeof(err));
	if (!cli) {
		fprintf(stderr, "cli backend: %s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	oc_backend_close(&cli);
	oc_transport_close(&transport);
	return cluster_util_teardown(state);
}

/* The first difference of a comparison; the compare functions return
 * false when they set it. */
static char diff[512];
#define DIFF(...) (snprintf(diff, sizeof(diff), __VA_ARGS__), false)

/* Strings equal, NULL and "" alike; returns false naming what differs. */
#define SEQ(what, a, b)                                                                              \
	do {                                                                                         \
		const char *a_ = (a) ? (a) : "", *b_ = (b) ? (b) : "";                              \
		if (strcmp(a_, b_) != 0)                                                             \
			return DIFF("%s: libslurm \"%s\" != cli \"%s\"", what, a_, b_);           \
	} while (0)
#define NEQ(what, a, b)                                                                              \
	do {                                                                                         \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);       \
		if (a_ != b_)                                                                        \
			return DIFF("%s: libslurm %llu != cli %llu", what, a_, b_);                   \
	} while (0)

static bool idx_eq(const char *what, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb)
{
	NEQ(what, na, nb);
	for (uint32_t i = 0; i < na; i++)
		NEQ(what, a[i], b[i]);
	return true;
}
#define IDX_EQ(...)                                                                                  \
	do {                                                                                         \
		if (!idx_eq(__VA_ARGS__))                                                            \
			return false;                                                                \
	} while (0)

/* Both snapshots, taken one after the other, each after the backend's
 * previous one (NULL the first time): a backend reads some parts once
 * and carries them over (the CLI backend reads the configuration once
 * per connection), as the collector does. */
static void snapshots(struct oc_snapshot **ls, struct oc_snapshot **cs, const struct oc_snapshot *lprev,
		      const struct oc_snapshot *cprev)
{
	*ls = oc_collector_refresh_once(cluster_util_backend, OC_MASK_ALL, lprev);
	*cs = oc_collector_refresh_once(cli, OC_MASK_ALL, cprev);
	assert_non_null(*ls);
	assert_non_null(*cs);
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if ((*cs)->status[p].error[0])
			fail_msg("cli part %d: %s", p, (*cs)->status[p].error);
		assert_string_equal((*ls)->status[p].error, "");
	}
}

/* Both backends' snapshots, field by field: true when they agree, else
 * false with the first difference in diff. */
static bool compare(const struct oc_snapshot *ls, const struct oc_snapshot *cs)
{
	SEQ("cluster", ls->cluster, cs->cluster);
	SEQ("version", ls->slurm_version, cs->slurm_version);
	SEQ("SlurmUser", ls->slurm_user, cs->slurm_user);

	/* Nodes. */
	NEQ("node count", ls->nodes->n, cs->nodes->n);
	int drained = 0;
	for (size_t i = 0; i < ls->nodes->n; i++) {
		const struct oc_node *a = &ls->nodes->v[i], *b = &cs->nodes->v[i];
		char w[128];
		SEQ("node name", a->name, b->name);
#define NF(f) (snprintf(w, sizeof(w), "%s %s", a->name, #f), w)
		SEQ(NF(addr), a->addr, b->addr);
		NEQ(NF(base), a->base, b->base);
		NEQ(NF(flags), a->flags, b->flags);
		SEQ(NF(reason), a->reason, b->reason);
		SEQ(NF(reason_user), a->reason_user, b->reason_user);
		NEQ(NF(reason_time), a->reason_time, b->reason_time);
		NEQ(NF(cpus), a->cpus, b->cpus);
		NEQ(NF(alloc_cpus), a->alloc_cpus, b->alloc_cpus);
		NEQ(NF(mem_mb), a->mem_mb, b->mem_mb);
		NEQ(NF(alloc_mem_mb), a->alloc_mem_mb, b->alloc_mem_mb);
		NEQ(NF(gpus), a->gpus, b->gpus);
		NEQ(NF(alloc_gpus), a->alloc_gpus, b->alloc_gpus);
		NEQ(NF(alloc_tres gpus), oc_tres_gpus(a->alloc_tres), oc_tres_gpus(b->alloc_tres));
		SEQ(NF(cfg_tres), a->cfg_tres, b->cfg_tres);
		/* 22.05's slurm_load_node sends no partitions; sinfo --json has them. */
		if (a->partitions)
			SEQ(NF(partitions), a->partitions, b->partitions);
		SEQ(NF(version), a->version, b->version);
		NEQ(NF(boot_time), a->boot_time, b->boot_time);
		NEQ(NF(slurmd_start_time), a->slurmd_start_time, b->slurmd_start_time);
		drained += (b->flags & OC_NF_DRAIN) != 0;
	}
	assert_true(drained >= 1); /* the demo drains gpu-st-b300-7 */

	/* Partitions. */
	NEQ("partition count", ls->partitions->n, cs->partitions->n);
	for (size_t i = 0; i < ls->partitions->n; i++) {
		const struct oc_partition *a = &ls->partitions->v[i], *b = &cs->partitions->v[i];
		char w[128];
		SEQ("partition name", a->name, b->name);
#undef NF
#define NF(f) (snprintf(w, sizeof(w), "%s %s", a->name, #f), w)
		SEQ(NF(nodes), a->nodes, b->nodes);
		NEQ(NF(flags), a->flags, b->flags);
		SEQ(NF(allow_groups), a->allow_groups, b->allow_groups);
		SEQ(NF(allow_accounts), a->allow_accounts, b->allow_accounts);
		SEQ(NF(allow_qos), a->allow_qos, b->allow_qos);
		SEQ(NF(qos), a->qos, b->qos);
		NEQ(NF(priority_tier), a->priority_tier, b->priority_tier);
		NEQ(NF(max_time_min), a->max_time_min, b->max_time_min);
		NEQ(NF(grace_time_s), a->grace_time_s, b->grace_time_s);
		NEQ(NF(total_nodes), a->total_nodes, b->total_nodes);
		NEQ(NF(total_cpus), a->total_cpus, b->total_cpus);
		IDX_EQ(NF(node_idx), a->node_idx, a->node_count, b->node_idx, b->node_count);
	}

	/* Jobs, by job id. */
	NEQ("job count", ls->jobs->n, cs->jobs->n);
	for (size_t i = 0; i < ls->jobs->n; i++) {
		const struct oc_job *a = &ls->jobs->v[i], *b = NULL;
		for (size_t k = 0; k < cs->jobs->n && !b; k++)
			if (cs->jobs->v[k].job_id == a->job_id)
				b = &cs->jobs->v[k];
		if (!b)
			return DIFF("job %u missing from the CLI snapshot", a->job_id);
		char w[128];
#undef NF
#define NF(f) (snprintf(w, sizeof(w), "job %u %s", a->job_id, #f), w)
		SEQ(NF(name), a->name, b->name);
		SEQ(NF(user), a->user, b->user);
		SEQ(NF(account), a->account, b->account);
		SEQ(NF(partition), a->partition, b->partition);
		SEQ(NF(qos), a->qos, b->qos);
		NEQ(NF(state), a->state, b->state);
		NEQ(NF(flags), a->flags, b->flags);
		SEQ(NF(reason), a->reason, b->reason);
		SEQ(NF(nodes), a->nodes, b->nodes);
		IDX_EQ(NF(node_idx), a->node_idx, a->node_count, b->node_idx, b->node_count);
		NEQ(NF(gpus), a->gpus, b->gpus);
		NEQ(NF(num_nodes), a->num_nodes, b->num_nodes);
		/* An ended job that never ran has "cpus": null in 22.05's JSON:
		 * the CLI counts its TRES, libslurm what slurmctld computed. */
		if (a->state <= OC_JOB_SUSPENDED)
			NEQ(NF(num_cpus), a->num_cpus, b->num_cpus);
		NEQ(NF(time_limit_min), a->time_limit_min, b->time_limit_min);
		NEQ(NF(submit_time), a->submit_time, b->submit_time);
		NEQ(NF(start_time), a->start_time, b->start_time);
		NEQ(NF(priority), a->priority, b->priority);
		NEQ(NF(array_task_id), a->array_task_id, b->array_task_id);
	}

	/* Reservations. */
	NEQ("reservation count", ls->reservations->n, cs->reservations->n);
	for (size_t i = 0; i < ls->reservations->n; i++) {
		const struct oc_reservation *a = &ls->reservations->v[i], *b = &cs->reservations->v[i];
		char w[128];
#undef NF
#define NF(f) (snprintf(w, sizeof(w), "resv %s %s", a->name, #f), w)
		SEQ(NF(name), a->name, b->name);
		SEQ(NF(nodes), a->nodes, b->nodes);
		SEQ(NF(users), a->users, b->users);
		SEQ(NF(accounts), a->accounts, b->accounts);
		SEQ(NF(flags), a->flags, b->flags);
		NEQ(NF(start_time), a->start_time, b->start_time);
		NEQ(NF(end_time), a->end_time, b->end_time);
		NEQ(NF(node_count), a->node_count, b->node_count);
		IDX_EQ(NF(node_idx), a->node_idx, a->node_idx_count, b->node_idx, b->node_idx_count);
	}

	/* Accounting: associations by (account, user, partition), QoS by name. */
	const struct oc_accounting *la = ls->accounting, *ca = cs->accounting;
	assert_true(ca->enabled);
	NEQ("association count", la->nassocs, ca->nassocs);
	long team_a_gpus = -1;
	for (size_t i = 0; i < la->nassocs; i++) {
		const struct oc_assoc *a = &la->assocs[i], *b = NULL;
		for (size_t k = 0; k < ca->nassocs && !b; k++) {
			const struct oc_assoc *x = &ca->assocs[k];
			if (!strcmp(a->account, x->account) && !strcmp(a->user ? a->user : "", x->user ? x->user : "") &&
			    !strcmp(a->partition ? a->partition : "", x->partition ? x->partition : ""))
				b = x;
		}
		if (!b)
			return DIFF("association %s/%s missing from the CLI snapshot", a->account,
				    a->user ? a->user : "");
		char w[160];
#undef NF
#define NF(f) (snprintf(w, sizeof(w), "assoc %s/%s %s", a->account, a->user ? a->user : "", #f), w)
		SEQ(NF(parent), a->parent, b->parent);
		for (int k = 0; k < OC_TRES_KINDS; k++) {
			NEQ(NF(grp limit), a->grp[k].limit, b->grp[k].limit);
			NEQ(NF(grp used), a->grp[k].used, b->grp[k].used);
		}
		SEQ(NF(grp_tres), a->grp_tres, b->grp_tres);
		NEQ(NF(grp_jobs), a->grp_jobs, b->grp_jobs);
		NEQ(NF(grp_submit), a->grp_submit, b->grp_submit);
		NEQ(NF(max_jobs), a->max_jobs, b->max_jobs);
		NEQ(NF(max_submit), a->max_submit, b->max_submit);
		SEQ(NF(def_qos), a->def_qos, b->def_qos);
		NEQ(NF(shares), a->shares, b->shares);
		if (!strcmp(a->account, "team-a") && !a->user) {
			NEQ("team-a GPU limit", b->grp[OC_TRES_GPU].limit, 64);
			team_a_gpus = (long)b->grp[OC_TRES_GPU].used;
		}
	}
	assert_int_equal(team_a_gpus, 24); /* the demo: alice 16 + bob 8 */
	NEQ("QoS count", la->nqos, ca->nqos);
	for (size_t i = 0; i < la->nqos; i++) {
		const struct oc_qos *a = &la->qos[i], *b = NULL;
		for (size_t k = 0; k < ca->nqos && !b; k++)
			if (!strcmp(a->name, ca->qos[k].name))
				b = &ca->qos[k];
		if (!b)
			return DIFF("QoS %s missing from the CLI snapshot", a->name);
		char w[128];
#undef NF
#define NF(f) (snprintf(w, sizeof(w), "qos %s %s", a->name, #f), w)
		NEQ(NF(priority), a->priority, b->priority);
		NEQ(NF(max_jobs_pu), a->max_jobs_pu, b->max_jobs_pu);
		NEQ(NF(max_submit_pu), a->max_submit_pu, b->max_submit_pu);
		NEQ(NF(grp_jobs), a->grp_jobs, b->grp_jobs);
		NEQ(NF(gpu limit), a->grp[OC_TRES_GPU].limit, b->grp[OC_TRES_GPU].limit);
		NEQ(NF(gpu used), a->grp[OC_TRES_GPU].used, b->grp[OC_TRES_GPU].used);
	}

	/* Configuration: every key libslurm has, with the same value. */
	assert_non_null(cs->config);
	assert_true(cs->config->n > 100);
	static const char *const keys[] = {"ClusterName", "AccountingStorageEnforce", "SelectType", "PriorityType",
					   "KillWait", "MessageTimeout", "JobRequeue", "SlurmctldPort"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		SEQ(keys[i], oc_config_get(ls->config, keys[i]), oc_config_get(cs->config, keys[i]));
	return true;
}

/* The cluster moves between the two snapshots: a pending job's expected
 * start time is moved by the backfill pass, a job ends. And 22.05's
 * squeue --json names a COMPLETING job's state by that flag alone, so
 * the CLI backend says COMPLETE where libslurm has CANCELLED until the
 * job is gone. So: new snapshots until the two agree, 30 s at most; a
 * difference that stays is a failure, with what differed the last time. */
static void test_compare(void **state)
{
	(void)state;
	struct oc_snapshot *lprev = NULL, *cprev = NULL;
	for (int attempt = 1;; attempt++) {
		struct oc_snapshot *ls, *cs;
		snapshots(&ls, &cs, lprev, cprev);
		oc_snapshot_unref(&lprev);
		oc_snapshot_unref(&cprev);
		bool same = compare(ls, cs);
		lprev = ls;
		cprev = cs;
		if (same)
			break;
		fprintf(stderr, "attempt %d: %s\n", attempt, diff);
		if (attempt == 60)
			fail_msg("the backends still differ after %d snapshots: %s", attempt, diff);
		usleep(500 * 1000);
	}
	oc_snapshot_unref(&lprev);
	oc_snapshot_unref(&cprev);
}

/* An unchanged refresh keeps the tables (same output, no parse); parts
 * not asked for run nothing and stay as they were. */
static void test_unchanged(void **state)
{
	(void)state;
	struct oc_snapshot *a = oc_collector_refresh_once(cli, OC_MASK_ALL, NULL);
	assert_non_null(a);
	struct oc_snapshot *b = oc_collector_refresh_once(cli, OC_MASK_ALL, a);
	assert_non_null(b);
	assert_ptr_equal(a->partitions, b->partitions);
	assert_ptr_equal(a->reservations, b->reservations);
	assert_ptr_equal(a->config, b->config);
	struct oc_snapshot *c = oc_collector_refresh_once(cli, OC_MASK(OC_PART_RESV), b);
	assert_non_null(c);
	assert_ptr_equal(b->jobs, c->jobs);
	assert_ptr_equal(b->nodes, c->nodes);
	assert_int_equal(c->status[OC_PART_JOBS].fetched, b->status[OC_PART_JOBS].fetched);
	oc_snapshot_unref(&a);
	oc_snapshot_unref(&b);
	oc_snapshot_unref(&c);
}

/* A failing command is data: the old tables stay, the error is the
 * command's words. */
static void test_failure_keeps_tables(void **state)
{
	(void)state;
	struct oc_snapshot *a = oc_collector_refresh_once(cli, OC_MASK_ALL, NULL);
	assert_non_null(a);
	char err[256];
	struct oc_backend *bad = oc_cli_backend_open(transport, "/nonexistent/bin", err, sizeof(err));
	assert_non_null(bad);
	struct oc_snapshot *b = oc_collector_refresh_once(bad, OC_MASK_ALL, a);
	assert_non_null(b);
	for (int p = 0; p < OC_PART_COUNT; p++) {
		assert_true(b->status[p].error[0]);
		assert_true(b->status[p].error_since > 0);
	}
	assert_non_null(strstr(b->status[OC_PART_NODES].error, "/nonexistent/bin/sinfo"));
	assert_ptr_equal(a->nodes, b->nodes);
	assert_ptr_equal(a->jobs, b->jobs);
	assert_ptr_equal(a->partitions, b->partitions);
	oc_backend_close(&bad);
	oc_snapshot_unref(&a);
	oc_snapshot_unref(&b);
}

/* slurmctld not answering (SIGSTOP): sinfo and squeue exit 0 with an
 * empty list and the failure in "errors". The parts must fail with it and
 * keep their tables, not turn empty. */
static void test_ctld_stopped(void **state)
{
	(void)state;
	const char *dir = getenv("OC_CLUSTER_DIR");
	assert_non_null(dir);
	char path[4096];
	snprintf(path, sizeof(path), "%s/run/slurmctld.pid", dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	int pid = 0;
	assert_int_equal(fscanf(f, "%d", &pid), 1);
	fclose(f);
	struct oc_snapshot *a = oc_collector_refresh_once(cli, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS), NULL);
	assert_non_null(a);
	assert_true(a->nodes->n > 0 && a->jobs->n > 0);
	assert_int_equal(kill(pid, SIGSTOP), 0);
	struct oc_snapshot *b = oc_collector_refresh_once(cli, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS), a);
	kill(pid, SIGCONT);
	assert_non_null(b);
	if (!strstr(b->status[OC_PART_JOBS].error, "slurm_load_jobs"))
		fail_msg("jobs error: \"%s\"", b->status[OC_PART_JOBS].error);
	assert_true(b->status[OC_PART_NODES].error[0]);
	assert_ptr_equal(a->nodes, b->nodes);
	assert_ptr_equal(a->jobs, b->jobs);
	/* Back: the data comes back by itself. */
	struct oc_snapshot *c = NULL;
	for (int i = 0; i < 30; i++) {
		oc_snapshot_unref(&c);
		c = oc_collector_refresh_once(cli, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS), b);
		if (c && !c->status[OC_PART_NODES].error[0] && !c->status[OC_PART_JOBS].error[0])
			break;
		sleep(1);
	}
	assert_non_null(c);
	assert_string_equal(c->status[OC_PART_JOBS].error, "");
	/* (the job count itself may move: ended jobs of earlier tests age out) */
	assert_true(c->jobs->n > 0);
	assert_int_equal(c->nodes->n, a->nodes->n);
	oc_snapshot_unref(&a);
	oc_snapshot_unref(&b);
	oc_snapshot_unref(&c);
}

/* ---- the CLI writer ---------------------------------------------------- */

static struct oc_writer writer;

static int writer_setup(void **state)
{
	(void)state;
	char err[256];
	if (oc_cli_writer_init(&writer, transport, getenv("OC_CLI_SLURM_BIN") ? getenv("OC_CLI_SLURM_BIN") : "",
			       err, sizeof(err)) < 0) {
		fprintf(stderr, "cli writer: %s\n", err);
		return -1;
	}
	return 0;
}

static int writer_teardown(void **state)
{
	(void)state;
	oc_cli_writer_fini(&writer);
	return 0;
}

/* Whether `scontrol show node` prints reason for node, set by root:
 * scontrol writes the first line, then " [root@TIME]", then the other
 * lines on lines of their own. */
static bool scontrol_has_reason(const char *node, const char *reason)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "scontrol show node %s", node);
	char *out = cluster_util_run(cmd);
	bool ok = true;
	const char *nl = strchr(reason, '\n');
	char first[512];
	snprintf(first, sizeof(first), "   Reason=%.*s [root@", (int)(nl ? nl - reason : (long)strlen(reason)), reason);
	if (!strstr(out, first))
		ok = false;
	if (nl && !strstr(out, nl + 1))
		ok = false;
	if (!ok)
		fprintf(stderr, "scontrol printed:\n%s\n", out);
	free(out);
	return ok;
}

static bool scontrol_no_reason(const char *node)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "scontrol show node %s", node);
	char *out = cluster_util_run(cmd);
	bool none = strstr(out, "   Reason=") == NULL;
	free(out);
	return none;
}

static void test_drain_resume_hostile(void **state)
{
	(void)state;
	const char *node = "gpu-st-b300-12";
	const char *reason = "cli \"quoted\" 'single' ;$(touch /tmp/oc-pwned) `id` \\ back\nnew line é GPU 温度";
	char err[512] = "";
	unlink("/tmp/oc-pwned");
	if (writer.ops->node_update(writer.ctx, node, OC_NODE_OP_DRAIN, reason, err, sizeof(err)) != 0)
		fail_msg("drain: %s", err);
	assert_true(scontrol_has_reason(node, reason));
	assert_int_equal(access("/tmp/oc-pwned", F_OK), -1);
	/* The writer's own read-back sees it too, with the user. */
	struct oc_nodes *t = NULL;
	assert_int_equal(writer.ops->read_nodes(writer.ctx, &t, err, sizeof(err)), 0);
	long i = oc_nodes_find(t, node);
	assert_true(i >= 0);
	assert_true(t->v[i].flags & OC_NF_DRAIN);
	assert_string_equal(t->v[i].reason, reason);
	assert_string_equal(t->v[i].reason_user, "root");
	oc_nodes_unref(&t);
	/* And libslurm reads the same bytes. */
	struct oc_snapshot *ls = oc_collector_refresh_once(cluster_util_backend, OC_MASK(OC_PART_NODES), NULL);
	assert_non_null(ls);
	i = oc_nodes_find(ls->nodes, node);
	assert_true(i >= 0);
	assert_string_equal(ls->nodes->v[i].reason, reason);
	oc_snapshot_unref(&ls);

	if (writer.ops->node_update(writer.ctx, node, OC_NODE_OP_RESUME, NULL, err, sizeof(err)) != 0)
		fail_msg("resume: %s", err);
	assert_true(scontrol_no_reason(node));

	/* Refusals: Slurm's words, or the writer's for bad input. */
	assert_int_equal(writer.ops->node_update(writer.ctx, "gpu-st-b300-[3-", OC_NODE_OP_DRAIN, "x", err, sizeof(err)),
			 -1);
	assert_int_equal(writer.ops->node_update(writer.ctx, "nosuchnode", OC_NODE_OP_DRAIN, "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "Invalid node name"));
	assert_int_equal(writer.ops->node_update(writer.ctx, node, OC_NODE_OP_DRAIN, "  ", err, sizeof(err)), -1);
}

static void test_reservation(void **state)
{
	(void)state;
	struct oc_resv_spec spec;
	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "oc_cli_test");
	snprintf(spec.nodes, sizeof(spec.nodes), "gpu-st-b300-[13-14]");
	snprintf(spec.flags, sizeof(spec.flags), "MAINT,IGNORE_JOBS");
	spec.duration_min = 30;
	char name[128], err[512];
	if (writer.ops->resv_create(writer.ctx, &spec, name, sizeof(name), err, sizeof(err)) != 0)
		fail_msg("create: %s", err);
	assert_string_equal(name, "oc_cli_test");
	char *out = cluster_util_run("scontrol --oneliner show reservation oc_cli_test");
	assert_non_null(strstr(out, "Nodes=gpu-st-b300-[13-14]"));
	assert_non_null(strstr(out, "MAINT"));
	free(out);
	struct oc_reservations *r = NULL;
	assert_int_equal(writer.ops->read_reservations(writer.ctx, &r, err, sizeof(err)), 0);
	bool found = false;
	for (size_t i = 0; i < r->n; i++)
		found |= strcmp(r->v[i].name, "oc_cli_test") == 0 && r->v[i].node_count == 2;
	assert_true(found);
	oc_reservations_unref(&r);
	/* The same name again: Slurm's refusal. */
	assert_int_equal(writer.ops->resv_create(writer.ctx, &spec, name, sizeof(name), err, sizeof(err)), -1);
	assert_true(err[0]);
	if (writer.ops->resv_delete(writer.ctx, "oc_cli_test", err, sizeof(err)) != 0)
		fail_msg("delete: %s", err);
	out = cluster_util_run("scontrol --oneliner show reservation");
	assert_null(strstr(out, "oc_cli_test"));
	free(out);
	assert_int_equal(writer.ops->resv_delete(writer.ctx, "oc_cli_test", err, sizeof(err)), -1);
	assert_true(err[0]);

	/* A long name is passed whole: deleting "P_other" (256 characters)
	 * must not delete "P" (250), whose name is its prefix. */
	char prefix[251], longer[300], cmd[600];
	memset(prefix, 'p', 250);
	prefix[250] = '\0';
	memcpy(prefix, "oc_cli_long_", 12);
	snprintf(longer, sizeof(longer), "%s_other", prefix);
	snprintf(cmd, sizeof(cmd),
		 "scontrol create reservation ReservationName=%s Nodes=gpu-st-b300-15 Users=root StartTime=now "
		 "Duration=30 Flags=MAINT,IGNORE_JOBS",
		 prefix);
	free(cluster_util_run(cmd));
	assert_int_equal(writer.ops->resv_delete(writer.ctx, longer, err, sizeof(err)), -1);
	snprintf(cmd, sizeof(cmd), "scontrol --oneliner show reservation %s", prefix);
	out = cluster_util_run(cmd);
	assert_non_null(strstr(out, prefix));
	free(out);
	assert_int_equal(writer.ops->resv_delete(writer.ctx, prefix, err, sizeof(err)), 0);
}

static void test_whoami_config(void **state)
{
	(void)state;
	char user[64], err[256];
	enum oc_admin_level lvl;
	assert_int_equal(writer.ops->whoami(writer.ctx, user, sizeof(user), &lvl, err, sizeof(err)), 0);
	assert_string_equal(user, "root");
	assert_int_equal(lvl, OC_ADMIN_ADMIN);
	struct oc_config *c = NULL;
	assert_int_equal(writer.ops->read_config(writer.ctx, &c, err, sizeof(err)), 0);
	assert_string_equal(oc_config_get(c, "ClusterName"), "llm-poc");
	oc_config_unref(&c);
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	assert_int_equal(writer.ops->onb_read_state(writer.ctx, "team-a", st, err, sizeof(err)), 0);
	assert_true(st->account_exists);
	assert_int_equal(st->gpu_quota, 64);
	free(st);
}

/* Marker files of rehearsal checks are read and removed on the head node
 * through the transport (over SSH in cluster.cli_backend_ssh). */
static void test_head_node_file(void **state)
{
	(void)state;
	char path[] = "/tmp/oc-cli-file-XXXXXX", buf[64], err[512] = "";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "USR1 marker\n", 12), 12);
	close(fd);
	bool missing = true;
	assert_int_equal(writer.ops->read_file(writer.ctx, path, buf, sizeof(buf), &missing, err, sizeof(err)), 12);
	assert_false(missing);
	assert_string_equal(buf, "USR1 marker\n");
	/* cut to the buffer */
	assert_int_equal(writer.ops->read_file(writer.ctx, path, buf, 5, &missing, err, sizeof(err)), 4);
	assert_string_equal(buf, "USR1");
	assert_int_equal(writer.ops->remove_file(writer.ctx, path, err, sizeof(err)), 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(writer.ops->read_file(writer.ctx, path, buf, sizeof(buf), &missing, err, sizeof(err)), 0);
	assert_true(missing);
	assert_int_equal(writer.ops->remove_file(writer.ctx, path, err, sizeof(err)), 0); /* gone: fine */
	/* a directory is an error, not "missing" */
	assert_int_equal(writer.ops->read_file(writer.ctx, "/tmp", buf, sizeof(buf), &missing, err, sizeof(err)), -1);
	assert_false(missing);
	assert_non_null(strstr(err, "/tmp"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_failure_keeps_tables),
		cmocka_unit_test(test_ctld_stopped),
		cmocka_unit_test_setup_teardown(test_drain_resume_hostile, writer_setup, writer_teardown),
		cmocka_unit_test_setup_teardown(test_reservation, writer_setup, writer_teardown),
		cmocka_unit_test_setup_teardown(test_whoami_config, writer_setup, writer_teardown),
		cmocka_unit_test_setup_teardown(test_head_node_file, writer_setup, writer_teardown),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
