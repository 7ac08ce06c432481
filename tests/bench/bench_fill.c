/* bench_fill.c: fill the local cluster's queue with held jobs for the
 * benchmark, or empty it again. Jobs are submitted one RPC each through
 * libslurm (no sbatch process per job: about 30 times faster), held
 * (priority 0) so that they never run, on behalf of a user without the
 * runbook's limits (root may submit as another user).
 *
 *   bench_fill --jobs N [--user benchuser] [--account bench] [--qos bench_qos]
 *              [--partition normal]      held jobs until the user has N
 *   bench_fill --clear [--user benchuser]  cancel every job of the user
 *   bench_fill --workload mixed --jobs N [--running R]
 *                                        a cluster's queue (below) until the
 *                                        200 users bu001..bu200 have N
 *   bench_fill --workload mixed --clear  cancel every job of those users
 *
 * The mixed workload (issue 20) needs what run_bench.sh --workload mixed
 * sets up first: the users bu001..bu200 (OS and sacctmgr), ten in each of
 * the accounts bacct01..bacct20 (GrpTRES=gres/gpu=64, every QoS of the
 * runbook and bench_qos), the DOWN nodes gpu-dn-b300-[1-4] in the
 * partition "offline", and the partition "bench" (every node, normal_qos
 * and bench_qos, the tier of normal). It submits, on the first call:
 *   - R running jobs (default 48, fewer when the nodes have fewer free
 *     GPUs: it never makes slurmctld preempt or wait), one GPU each, in
 *     large with large_qos, pinned to free GPUs node by node (every node
 *     of normal with a free GPU gets one first, so that a whole node is
 *     never free there), users bu005..bu100;
 *   - four users with four running normal_qos jobs each (in partition
 *     bench: the demo's jobs fill normal) and four more pending
 *     (QOSMaxJobsPerUserLimit: normal_qos allows 4 running);
 *   - one held anchor job that the Dependency jobs wait for;
 * then, for the rest of the N records, a cycle of 100 jobs: 40 held
 * (JobHeldAdmin) in large and normal, 20 asking a whole node of normal
 * (Priority and Resources, users bu101..bu200 whose accounts run
 * nothing), 10 asking 72 GPUs (AssocGrpGRES), 10 Dependency, 10
 * BeginTime (in three days), 5 on a DOWN node (ReqNodeNotAvail), 2 job
 * arrays of 100 tasks (one record each until a task starts), 3 held in
 * debug and exclusive (one per user, their QoS allow 2 submitted). Names
 * are long for a third of them, a quarter have a comment; 1, 2, 4 or 8
 * GPUs a node on 1, 2 or 4 nodes.
 *
 * SLURM_CONF selects the cluster. Exits 0 when the queue has what was
 * asked, 1 with a message otherwise.
 *
 * A pending job array is one record in slurmctld (and one line in squeue)
 * until its tasks start, so `sbatch --array` does not make a large queue:
 * this submits separate jobs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "../../src/source/slurm_compat.h" /* oc_hostlist: hostlist_t changed in 23.11 */

/* "Queue full, try again": 26.05.2 removed ESLURM_ERROR_ON_DESC_TO_RECORD_COPY
 * (never sent) and answers MaxJobCount with ESLURM_MAX_JOB_COUNT, not EAGAIN. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 2)
#define BENCH_QUEUE_FULL ESLURM_MAX_JOB_COUNT
#else
#define BENCH_QUEUE_FULL ESLURM_ERROR_ON_DESC_TO_RECORD_COPY
#endif

/* A job's GPUs a node (tres_per_node): "gres:gpu:N" until 23.02,
 * "gres/gpu:N" from 23.11 on (what sbatch --gres sends). */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
#define BENCH_GPU_TRES "gres/gpu:"
#else
#define BENCH_GPU_TRES "gres:gpu:"
#endif

/* The id of a submitted job: in a slurm_step_id_t from 26.05 on. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define BENCH_SUBMITTED_ID(resp) ((resp)->step_id.job_id)
#else
#define BENCH_SUBMITTED_ID(resp) ((resp)->job_id)
#endif

/* SIGKILL to a whole job; slurm_kill_job takes a slurm_step_id_t from 26.05 on. */
static int bench_kill_job(uint32_t job_id)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;
	id.job_id = job_id;
	return slurm_kill_job(id, SIGKILL, 0);
#else
	return slurm_kill_job(job_id, SIGKILL, 0);
#endif
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Jobs of uid that are still pending or running; -1 when slurmctld does
 * not answer. */
static long count_jobs(uid_t uid)
{
	job_info_msg_t *msg = NULL;
	if (slurm_load_job_user(&msg, (uint32_t)uid, SHOW_ALL) != SLURM_SUCCESS || !msg)
		return -1;
	long n = 0;
	for (uint32_t i = 0; i < msg->record_count; i++) {
		uint32_t st = msg->job_array[i].job_state & JOB_STATE_BASE;
		if (st == JOB_PENDING || st == JOB_RUNNING)
			n++;
	}
	slurm_free_job_info_msg(msg);
	return n;
}

static int fill(long want, const struct passwd *pw, const char *account, const char *qos,
		const char *partition)
{
	long have = count_jobs(pw->pw_uid);
	if (have < 0) {
		fprintf(stderr, "bench_fill: cannot list jobs: %s\n", slurm_strerror(errno));
		return 1;
	}
	char *env[] = {"PATH=/usr/bin:/bin", NULL};
	char script[] = "#!/bin/sh\n# opsconsole benchmark: held, never runs\ntrue\n";
	double t0 = now_s();
	long done = 0, retries = 0;
	while (have + done < want) {
		job_desc_msg_t d;
		slurm_init_job_desc_msg(&d);
		char name[32];
		snprintf(name, sizeof(name), "bench-%ld", have + done);
		d.name = name;
		d.script = script;
		d.environment = env;
		d.env_size = 1;
		d.account = (char *)account;
		d.qos = (char *)qos;
		d.partition = (char *)partition;
		d.user_id = pw->pw_uid;
		d.group_id = pw->pw_gid;
		d.work_dir = "/tmp";
		d.std_out = "/dev/null";
		d.std_err = "/dev/null";
		d.priority = 0; /* held */
		d.min_nodes = 1;
		d.pn_min_memory = 1024;
		submit_response_msg_t *resp = NULL;
		if (slurm_submit_batch_job(&d, &resp) != SLURM_SUCCESS) {
			int e = errno;
			/* A busy controller answers EAGAIN-like errors: retry a little. */
			if ((e == EAGAIN || e == ESLURM_NOT_SUPPORTED || e == SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT ||
			     e == BENCH_QUEUE_FULL) && retries++ < 100) {
				usleep(100000);
				continue;
			}
			fprintf(stderr, "bench_fill: submit %ld failed: %s\n", have + done, slurm_strerror(e));
			return 1;
		}
		slurm_free_submit_response_response_msg(resp);
		done++;
		if (done % 2000 == 0)
			fprintf(stderr, "bench_fill: %ld submitted (%.0f/s)\n", done, done / (now_s() - t0));
	}
	double dt = now_s() - t0;
	printf("bench_fill: %ld jobs submitted in %.1f s (%.0f/s); %s has %ld\n", done, dt,
	       dt > 0 ? done / dt : 0.0, pw->pw_name, count_jobs(pw->pw_uid));
	return 0;
}

static int mix_user_of(uint32_t uid);

/* Cancel the pending and running jobs of msg (freed here) that belong to
 * uid, or to the mixed workload's users when uid is -1. */
static int cancel_active(job_info_msg_t *msg, long uid, const char *who)
{
	long n = 0, failed = 0;
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];
		uint32_t st = j->job_state & JOB_STATE_BASE;
		if (st != JOB_PENDING && st != JOB_RUNNING)
			continue;
		if (uid >= 0 ? j->user_id != (uint32_t)uid : mix_user_of(j->user_id) < 0)
			continue;
		if (bench_kill_job(j->job_id) == SLURM_SUCCESS)
			n++;
		else if (errno != ESLURM_ALREADY_DONE)
			failed++;
	}
	slurm_free_job_info_msg(msg);
	printf("bench_fill: %ld jobs of %s cancelled%s\n", n, who, failed ? " (some failed)" : "");
	return failed ? 1 : 0;
}

static int clear(const struct passwd *pw)
{
	job_info_msg_t *msg = NULL;
	if (slurm_load_job_user(&msg, (uint32_t)pw->pw_uid, SHOW_ALL) != SLURM_SUCCESS || !msg) {
		fprintf(stderr, "bench_fill: cannot list jobs: %s\n", slurm_strerror(errno));
		return 1;
	}
	return cancel_active(msg, (long)pw->pw_uid, pw->pw_name);
}

/* ---------------------------------------------------------------- mixed */

#define MIX_USERS 200
#define MIX_PER_ACCOUNT 10
#define MIX_QOS_USERS 4 /* users with running normal_qos jobs at the limit */
#define MIX_QOS_RUN 4	/* normal_qos MaxJobsPerUser (runbook 7-3) */

struct mix_user {
	uid_t uid;
	gid_t gid;
	char name[16];
	char account[16];
	int debug, exclusive; /* held jobs submitted in those QoS (2 allowed) */
};

static struct mix_user mix_users[MIX_USERS];

static int mix_load_users(void)
{
	for (int i = 0; i < MIX_USERS; i++) {
		struct mix_user *u = &mix_users[i];
		snprintf(u->name, sizeof(u->name), "bu%03d", i + 1);
		snprintf(u->account, sizeof(u->account), "bacct%02d", i / MIX_PER_ACCOUNT + 1);
		struct passwd *pw = getpwnam(u->name);
		if (!pw) {
			fprintf(stderr, "bench_fill: no such user: %s (run_bench.sh --workload mixed creates them)\n",
				u->name);
			return -1;
		}
		u->uid = pw->pw_uid;
		u->gid = pw->pw_gid;
	}
	return 0;
}

static int mix_user_of(uint32_t uid)
{
	for (int i = 0; i < MIX_USERS; i++)
		if (mix_users[i].uid == uid)
			return i;
	return -1;
}

/* The GPUs of a node in use, from gres_used: "gpu:3(IDX:0-2)" or with a
 * type, "gpu:b300:3(IDX:0-2)"; 0 when it names none. */
static int gpus_in(const char *gres)
{
	const char *p = gres ? strstr(gres, "gpu:") : NULL;
	if (!p)
		return 0;
	p += 4;
	if (*p < '0' || *p > '9') {
		const char *c = strchr(p, ':');
		if (!c)
			return 0;
		p = c + 1;
	}
	return atoi(p);
}

struct mix_job {
	const struct mix_user *u;
	const char *partition, *qos, *req_nodes, *dependency, *array, *comment, *script;
	char name[96];
	int nodes, gpus; /* GPUs a node; 0: none */
	bool held;
	time_t begin;
	uint32_t time_limit; /* minutes */
};

static int mix_submit(const struct mix_job *j, uint32_t *id)
{
	char *env[] = {"PATH=/usr/bin:/bin", NULL};
	char tres[32];
	job_desc_msg_t d;
	slurm_init_job_desc_msg(&d);
	d.name = (char *)j->name;
	d.script = (char *)j->script;
	d.environment = env;
	d.env_size = 1;
	d.account = (char *)j->u->account;
	d.qos = (char *)j->qos;
	d.partition = (char *)j->partition;
	d.user_id = j->u->uid;
	d.group_id = j->u->gid;
	d.work_dir = "/tmp";
	d.std_out = "/dev/null";
	d.std_err = "/dev/null";
	if (j->held)
		d.priority = 0;
	d.min_nodes = (uint32_t)j->nodes;
	d.pn_min_memory = 4096;
	d.time_limit = j->time_limit;
	if (j->gpus) {
		snprintf(tres, sizeof(tres), BENCH_GPU_TRES "%d", j->gpus);
		d.tres_per_node = tres;
	}
	d.req_nodes = (char *)j->req_nodes;
	d.dependency = (char *)j->dependency;
	d.array_inx = (char *)j->array;
	d.comment = (char *)j->comment;
	if (j->begin)
		d.begin_time = j->begin;
	for (int retries = 0;; retries++) {
		submit_response_msg_t *resp = NULL;
		if (slurm_submit_batch_job(&d, &resp) == SLURM_SUCCESS) {
			if (id)
				*id = BENCH_SUBMITTED_ID(resp);
			slurm_free_submit_response_response_msg(resp);
			return 0;
		}
		int e = errno;
		if ((e == EAGAIN || e == ESLURM_NOT_SUPPORTED || e == SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT ||
		     e == BENCH_QUEUE_FULL) && retries < 100) {
			usleep(100000);
			continue;
		}
		fprintf(stderr, "bench_fill: submit %s (%s, %s, %s) failed: %s\n", j->name, j->u->name,
			j->partition, j->qos, slurm_strerror(e));
		return -1;
	}
}

static const char held_script[] = "#!/bin/sh\n# opsconsole benchmark\ntrue\n";
static const char run_script[] = "#!/bin/sh\n# opsconsole benchmark: runs until cancelled\nexec sleep 10000000\n";

/* The records of the mixed workload's users: pending or running, and the
 * running ones; the id of a held job (the anchor) or 0; each user's jobs
 * in debug and exclusive (added to mix_users). -1 when slurmctld does not
 * answer. */
static long mix_count(long *running, uint32_t *anchor)
{
	job_info_msg_t *msg = NULL;
	if (slurm_load_jobs(0, &msg, SHOW_ALL) != SLURM_SUCCESS || !msg)
		return -1;
	long n = 0;
	*running = 0;
	*anchor = 0;
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];
		uint32_t st = j->job_state & JOB_STATE_BASE;
		if ((st != JOB_PENDING && st != JOB_RUNNING) || mix_user_of(j->user_id) < 0)
			continue;
		n++;
		if (st == JOB_RUNNING)
			(*running)++;
		struct mix_user *u = &mix_users[mix_user_of(j->user_id)];
		if (j->partition && !strcmp(j->partition, "debug"))
			u->debug++;
		if (j->partition && !strcmp(j->partition, "exclusive"))
			u->exclusive++;
		if (j->name && !strcmp(j->name, "bench-anchor") && st == JOB_PENDING)
			*anchor = j->job_id;
	}
	slurm_free_job_info_msg(msg);
	return n;
}

struct mix_node {
	char name[64];
	int free;
	bool normal; /* in partition normal */
	bool bench;  /* in partition bench */
};

/* The nodes of partition large that can take a job now and their free
 * GPUs; -1 when slurmctld does not answer. */
static int mix_nodes(struct mix_node *out, int max)
{
	node_info_msg_t *nm = NULL;
	partition_info_msg_t *pm = NULL;
	if (slurm_load_node(0, &nm, SHOW_ALL) != SLURM_SUCCESS || !nm)
		return -1;
	if (slurm_load_partitions(0, &pm, SHOW_ALL) != SLURM_SUCCESS || !pm) {
		slurm_free_node_info_msg(nm);
		return -1;
	}
	oc_hostlist large = NULL, normal = NULL, bench = NULL;
	for (uint32_t i = 0; i < pm->record_count; i++) {
		const partition_info_t *p = &pm->partition_array[i];
		if (p->name && !strcmp(p->name, "large") && p->nodes)
			large = slurm_hostlist_create(p->nodes);
		if (p->name && !strcmp(p->name, "normal") && p->nodes)
			normal = slurm_hostlist_create(p->nodes);
		if (p->name && !strcmp(p->name, "bench") && p->nodes)
			bench = slurm_hostlist_create(p->nodes);
	}
	int n = 0;
	for (uint32_t i = 0; large && i < nm->record_count && n < max; i++) {
		const node_info_t *nd = &nm->node_array[i];
		if (!nd->name || slurm_hostlist_find(large, nd->name) < 0)
			continue;
		uint32_t base = nd->node_state & NODE_STATE_BASE;
		if ((base != NODE_STATE_IDLE && base != NODE_STATE_MIXED) ||
		    (nd->node_state & (NODE_STATE_DRAIN | NODE_STATE_NO_RESPOND | NODE_STATE_POWERED_DOWN |
				       NODE_STATE_REBOOT_REQUESTED | NODE_STATE_MAINT)))
			continue;
		int total = gpus_in(nd->gres), used = gpus_in(nd->gres_used);
		if (total - used <= 0)
			continue;
		snprintf(out[n].name, sizeof(out[n].name), "%s", nd->name);
		out[n].free = total - used;
		out[n].normal = normal && slurm_hostlist_find(normal, nd->name) >= 0;
		out[n].bench = bench && slurm_hostlist_find(bench, nd->name) >= 0;
		n++;
	}
	if (large)
		slurm_hostlist_destroy(large);
	if (normal)
		slurm_hostlist_destroy(normal);
	if (bench)
		slurm_hostlist_destroy(bench);
	slurm_free_partition_info_msg(pm);
	slurm_free_node_info_msg(nm);
	return n;
}

/* Wait until the jobs ids[0..n) run: 0, or -1 after 180 s. */
static int mix_wait_running(const uint32_t *ids, int n)
{
	for (int t = 0; t < 360; t++) {
		job_info_msg_t *msg = NULL;
		if (slurm_load_jobs(0, &msg, SHOW_ALL) == SLURM_SUCCESS && msg) {
			int running = 0;
			for (uint32_t i = 0; i < msg->record_count; i++)
				for (int k = 0; k < n; k++)
					if (msg->job_array[i].job_id == ids[k] &&
					    (msg->job_array[i].job_state & JOB_STATE_BASE) == JOB_RUNNING)
						running++;
			slurm_free_job_info_msg(msg);
			if (running == n)
				return 0;
		}
		usleep(500000);
	}
	return -1;
}

/* The next node with a free GPU after *rr (in partition bench when
 * bench), its GPU taken; NULL when none is left. */
static struct mix_node *mix_next(struct mix_node *nodes, int n, int *rr, bool bench)
{
	for (int t = 0; t < n; t++) {
		struct mix_node *nd = &nodes[(*rr + t) % n];
		if (nd->free > 0 && (!bench || nd->bench)) {
			*rr = (*rr + t + 1) % n;
			return nd;
		}
	}
	return NULL;
}

/* Running job number r of the R: one GPU in large on nd (its GPU is
 * taken here), users bu005..bu100. */
static int mix_run_large(struct mix_node *nd, int r, uint32_t *id)
{
	if (nd->free > 0)
		nd->free--;
	struct mix_job j = {.u = &mix_users[MIX_QOS_USERS + r % (MIX_USERS / 2 - MIX_QOS_USERS)],
			    .partition = "large", .qos = "large_qos", .script = run_script, .nodes = 1,
			    .gpus = 1, .time_limit = 1440, .req_nodes = nd->name};
	snprintf(j.name, sizeof(j.name), "bench-run-%s-large-%d", j.u->name, r);
	if (r % 4 == 0)
		j.comment = "running: the benchmark cancels it at its end";
	return mix_submit(&j, id);
}

/* The running part: R jobs of one GPU in large and the normal_qos users at
 * their limit, placed on free GPUs; how many run, -1 on failure. */
static int mix_running(int want)
{
	struct mix_node nodes[4096];
	int n = mix_nodes(nodes, 4096);
	if (n < 0) {
		fprintf(stderr, "bench_fill: cannot list nodes: %s\n", slurm_strerror(errno));
		return -1;
	}
	int free_total = 0, normal_nodes = 0;
	for (int i = 0; i < n; i++) {
		free_total += nodes[i].free;
		normal_nodes += nodes[i].normal;
	}
	int qos_jobs = MIX_QOS_USERS * MIX_QOS_RUN;
	if (free_total < qos_jobs + normal_nodes) {
		fprintf(stderr, "bench_fill: %d free GPUs: too few for the running jobs (%d at least)\n", free_total,
			qos_jobs + normal_nodes);
		return -1;
	}
	if (want > free_total - qos_jobs)
		want = free_total - qos_jobs;
	/* One on every node of normal with a free GPU at least, or whole nodes
	 * of normal stay free and its jobs start (and end) under the figures. */
	if (want < normal_nodes)
		want = normal_nodes;
	uint32_t *ids = calloc((size_t)(want + qos_jobs), sizeof(*ids));
	if (!ids)
		return -1;
	int k = 0, rr = 0, placed = 0;
	/* One of the R jobs on every node of normal with a free GPU, so that a
	 * job asking a whole node of normal never starts. */
	for (int i = 0; i < n && placed < want; i++)
		if (nodes[i].normal && nodes[i].free > 0) {
			if (mix_run_large(&nodes[i], placed++, &ids[k++]) < 0)
				goto fail;
		}
	/* normal_qos at its limit: users bu001..bu004, four running each, in
	 * the benchmark's partition "bench" (normal_qos and bench_qos on every
	 * node), placed on the free GPUs in turn. */
	for (int u = 0; u < MIX_QOS_USERS; u++)
		for (int r = 0; r < MIX_QOS_RUN; r++) {
			struct mix_node *nd = mix_next(nodes, n, &rr, true);
			if (!nd) {
				fprintf(stderr, "bench_fill: no free GPU in partition bench for the normal_qos jobs\n");
				goto fail;
			}
			struct mix_job j = {.u = &mix_users[u], .partition = "bench", .qos = "normal_qos",
					    .script = run_script, .nodes = 1, .gpus = 1, .time_limit = 600,
					    .req_nodes = nd->name};
			snprintf(j.name, sizeof(j.name), "bench-run-%s-normal-%d", j.u->name, r);
			if (mix_submit(&j, &ids[k++]) < 0)
				goto fail;
		}
	/* The rest of the R jobs in large, on the free GPUs node by node. */
	while (placed < want) {
		struct mix_node *nd = mix_next(nodes, n, &rr, false);
		if (!nd)
			break;
		if (mix_run_large(nd, placed++, &ids[k++]) < 0)
			goto fail;
	}
	if (mix_wait_running(ids, k) < 0) {
		fprintf(stderr, "bench_fill: the %d running jobs did not all start within 180 s\n", k);
		goto fail;
	}
	free(ids);
	return k;
fail:
	free(ids);
	return -1;
}

static int fill_mixed(long want, int running)
{
	if (mix_load_users() < 0)
		return 2;
	long nrun = 0;
	uint32_t anchor = 0;
	long have = mix_count(&nrun, &anchor);
	if (have < 0) {
		fprintf(stderr, "bench_fill: cannot list jobs: %s\n", slurm_strerror(errno));
		return 1;
	}
	double t0 = now_s();
	long done = 0;
	if (nrun == 0) {
		int r = mix_running(running);
		if (r < 0)
			return 1;
		printf("bench_fill: %d running jobs (one GPU each; %d of normal_qos at its limit)\n", r,
		       MIX_QOS_USERS * MIX_QOS_RUN);
		done += r;
		/* Their users' fifth to eighth normal_qos job: QOSMaxJobsPerUserLimit. */
		for (int u = 0; u < MIX_QOS_USERS; u++)
			for (int q = 0; q < MIX_QOS_RUN; q++) {
				struct mix_job j = {.u = &mix_users[u], .partition = "normal", .qos = "normal_qos",
						    .script = held_script, .nodes = 1, .gpus = 1, .time_limit = 600};
				snprintf(j.name, sizeof(j.name), "bench-qoslimit-%s-%d", j.u->name, q);
				if (mix_submit(&j, NULL) < 0)
					return 1;
				done++;
			}
	}
	if (!anchor) {
		struct mix_job j = {.u = &mix_users[MIX_USERS - 1], .partition = "large", .qos = "large_qos",
				    .script = held_script, .nodes = 1, .gpus = 8, .held = true, .time_limit = 1440};
		snprintf(j.name, sizeof(j.name), "bench-anchor");
		if (mix_submit(&j, &anchor) < 0)
			return 1;
		done++;
	}
	char dep[32];
	snprintf(dep, sizeof(dep), "afterok:%u", anchor);
	time_t later = time(NULL) + 3 * 86400;
	static const int gpus[] = {1, 2, 4, 8}, nodes[] = {1, 1, 1, 2, 4};
	static const char *const words[] = {"pretrain", "sft", "dpo", "eval", "sweep", "ckpt-convert"};
	static const char *const models[] = {"llama3-70b", "qwen2.5-32b", "mixtral-8x22b", "gemma2-27b"};
	for (long i = have + done; have + done < want; i = have + done) {
		long c = i % 100;
		const struct mix_user *u = &mix_users[i % MIX_USERS];
		struct mix_job j = {.u = u, .partition = "large", .qos = "large_qos", .script = held_script,
				    .nodes = nodes[i % 5], .gpus = gpus[(i / 5) % 4], .time_limit = 1440};
		if (c < 40) { /* held */
			j.held = true;
			if (c % 2) {
				j.partition = "normal";
				j.qos = "bench_qos";
				j.time_limit = 600;
			}
		} else if (c < 60 || (c >= 95 && c < 97)) {
			/* Priority, Resources: a whole node of normal (users whose
			 * accounts run nothing); 95, 96: as an array of 100 tasks,
			 * 8 at a time */
			u = j.u = &mix_users[MIX_USERS / 2 + i % (MIX_USERS / 2)];
			j.partition = "normal";
			j.qos = "bench_qos";
			j.nodes = 1;
			j.gpus = 8;
			j.time_limit = 600;
			if (c >= 95)
				j.array = "0-99%8";
		} else if (c < 70) { /* AssocGrpGRES: 72 GPUs, the accounts allow 64 */
			j.nodes = 9;
			j.gpus = 8;
		} else if (c < 80) {
			j.dependency = dep;
		} else if (c < 90) {
			j.begin = later;
		} else if (c < 95) { /* ReqNodeNotAvail: a DOWN node */
			j.partition = "offline";
			j.nodes = 1;
			j.req_nodes = (i % 2) ? "gpu-dn-b300-1" : "gpu-dn-b300-2";
		} else if (c >= 97) {
			/* held in debug or exclusive: one per user and QoS (they
			 * allow two submitted), a new user every cycle */
			struct mix_user *mu = &mix_users[(i / 100) % MIX_USERS];
			u = j.u = mu;
			j.held = true;
			if (c == 97 && mu->debug < 1) {
				mu->debug++;
				j.partition = "debug";
				j.qos = "debug_qos";
				j.time_limit = 30;
			} else if (c == 98 && mu->exclusive < 1) {
				mu->exclusive++;
				j.partition = "exclusive";
				j.qos = "exclusive_qos";
			}
		}
		if (i % 3 == 0)
			snprintf(j.name, sizeof(j.name), "bench-%ld-%s-%s-tp8-pp4-seq8192-lr3e-4-warmup2000-%s", i,
				 words[i % 6], models[i % 4], u->account);
		else
			snprintf(j.name, sizeof(j.name), "bench-%ld-%s", i, words[i % 6]);
		if (i % 4 == 0)
			j.comment = "experiment tracker run 4f3a9c2e; checkpoint to /fsx/checkpoints/shared; "
				    "contact the team lead before cancelling";
		if (mix_submit(&j, NULL) < 0)
			return 1;
		done++;
		if (done % 2000 == 0)
			fprintf(stderr, "bench_fill: %ld submitted (%.0f/s)\n", done, done / (now_s() - t0));
	}
	double dt = now_s() - t0;
	long now = mix_count(&nrun, &anchor);
	printf("bench_fill: %ld jobs submitted in %.1f s (%.0f/s); the %d users have %ld (%ld running)\n", done,
	       dt, dt > 0 ? done / dt : 0.0, MIX_USERS, now, nrun);
	return 0;
}

static int clear_mixed(void)
{
	if (mix_load_users() < 0)
		return 2;
	job_info_msg_t *msg = NULL;
	if (slurm_load_jobs(0, &msg, SHOW_ALL) != SLURM_SUCCESS || !msg) {
		fprintf(stderr, "bench_fill: cannot list jobs: %s\n", slurm_strerror(errno));
		return 1;
	}
	return cancel_active(msg, -1, "the mixed workload's users");
}

int main(int argc, char **argv)
{
	long want = -1;
	int do_clear = 0, mixed = 0, running = 48;
	const char *user = "benchuser", *account = "bench", *qos = "bench_qos", *partition = "normal";
	static const struct option opts[] = {
		{"jobs", required_argument, NULL, 'n'},	   {"clear", no_argument, NULL, 'c'},
		{"user", required_argument, NULL, 'u'},	   {"account", required_argument, NULL, 'A'},
		{"qos", required_argument, NULL, 'q'},	   {"partition", required_argument, NULL, 'p'},
		{"workload", required_argument, NULL, 'w'}, {"running", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "n:cu:A:q:p:w:r:", opts, NULL)) != -1) {
		switch (ch) {
		case 'n': {
			char *end;
			want = strtol(optarg, &end, 10);
			if (*end || want < 0 || want > 1000000) {
				fprintf(stderr, "bench_fill: --jobs needs a number 0..1000000, got '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'c': do_clear = 1; break;
		case 'u': user = optarg; break;
		case 'A': account = optarg; break;
		case 'q': qos = optarg; break;
		case 'p': partition = optarg; break;
		case 'w':
			if (strcmp(optarg, "mixed") && strcmp(optarg, "uniform")) {
				fprintf(stderr, "bench_fill: --workload is mixed or uniform, got '%s'\n", optarg);
				return 2;
			}
			mixed = !strcmp(optarg, "mixed");
			break;
		case 'r': {
			char *end;
			long r = strtol(optarg, &end, 10);
			if (*end || r < 0 || r > 10000) {
				fprintf(stderr, "bench_fill: --running needs a number 0..10000, got '%s'\n", optarg);
				return 2;
			}
			running = (int)r;
			break;
		}
		default: return 2;
		}
	}
	if ((want < 0) == !do_clear) {
		fprintf(stderr, "usage: bench_fill --jobs N | --clear [--user U] [--account A] [--qos Q] [--partition P]\n"
				"       bench_fill --workload mixed --jobs N [--running R] | --workload mixed --clear\n");
		return 2;
	}
	if (mixed) {
		slurm_init(NULL);
		return do_clear ? clear_mixed() : fill_mixed(want, running);
	}
	struct passwd *pw = getpwnam(user);
	if (!pw) {
		fprintf(stderr, "bench_fill: no such user: %s\n", user);
		return 2;
	}
	slurm_init(NULL);
	return do_clear ? clear(pw) : fill(want, pw, account, qos, partition);
}
