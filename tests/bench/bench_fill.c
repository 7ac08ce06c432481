/* bench_fill.c: fill the local cluster's queue with held jobs for the
 * benchmark, or empty it again. Jobs are submitted one RPC each through
 * libslurm (no sbatch process per job: about 30 times faster), held
 * (priority 0) so that they never run, on behalf of a user without the
 * runbook's limits (root may submit as another user).
 *
 *   bench_fill --jobs N [--user benchuser] [--account bench] [--qos bench_qos]
 *              [--partition normal]      held jobs until the user has N
 *   bench_fill --clear [--user benchuser]  cancel every job of the user
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

/* "Queue full, try again": 26.05.2 removed ESLURM_ERROR_ON_DESC_TO_RECORD_COPY
 * (never sent) and answers MaxJobCount with ESLURM_MAX_JOB_COUNT, not EAGAIN. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 2)
#define BENCH_QUEUE_FULL ESLURM_MAX_JOB_COUNT
#else
#define BENCH_QUEUE_FULL ESLURM_ERROR_ON_DESC_TO_RECORD_COPY
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

static int clear(const struct passwd *pw)
{
	job_info_msg_t *msg = NULL;
	if (slurm_load_job_user(&msg, (uint32_t)pw->pw_uid, SHOW_ALL) != SLURM_SUCCESS || !msg) {
		fprintf(stderr, "bench_fill: cannot list jobs: %s\n", slurm_strerror(errno));
		return 1;
	}
	long n = 0, failed = 0;
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];
		uint32_t st = j->job_state & JOB_STATE_BASE;
		if (st != JOB_PENDING && st != JOB_RUNNING)
			continue;
		if (bench_kill_job(j->job_id) == SLURM_SUCCESS)
			n++;
		else if (errno != ESLURM_ALREADY_DONE)
			failed++;
	}
	slurm_free_job_info_msg(msg);
	printf("bench_fill: %ld jobs of %s cancelled%s\n", n, pw->pw_name, failed ? " (some failed)" : "");
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	long want = -1;
	int do_clear = 0;
	const char *user = "benchuser", *account = "bench", *qos = "bench_qos", *partition = "normal";
	static const struct option opts[] = {
		{"jobs", required_argument, NULL, 'n'},	   {"clear", no_argument, NULL, 'c'},
		{"user", required_argument, NULL, 'u'},	   {"account", required_argument, NULL, 'A'},
		{"qos", required_argument, NULL, 'q'},	   {"partition", required_argument, NULL, 'p'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "n:cu:A:q:p:", opts, NULL)) != -1) {
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
		default: return 2;
		}
	}
	if ((want < 0) == !do_clear) {
		fprintf(stderr, "usage: bench_fill --jobs N | --clear [--user U] [--account A] [--qos Q] [--partition P]\n");
		return 2;
	}
	struct passwd *pw = getpwnam(user);
	if (!pw) {
		fprintf(stderr, "bench_fill: no such user: %s\n", user);
		return 2;
	}
	slurm_init(NULL);
	return do_clear ? clear(pw) : fill(want, pw, account, qos, partition);
}
