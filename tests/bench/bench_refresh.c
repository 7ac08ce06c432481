/* bench_refresh.c: what one refresh of the console's collector costs,
 * against running sinfo and squeue as processes on the same cluster.
 * Prints a table; exits non-zero only when it cannot measure.
 *
 *   bench_refresh [--runs N]      (SLURM_CONF selects the cluster)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/views.h"
#include "source/cli_source.h"
#include "source/collector.h"
#include "source/source.h"

static double cpu_self(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this process and of its waited-for children. */
static double cpu_with_children(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return cpu_self() + (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* CPU seconds (user+sys) and peak RSS (KB) of one run of argv, output
 * discarded. Returns -1 when it could not run. */
static double run_cpu(char *const argv[], long *maxrss_kb)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		FILE *f = freopen("/dev/null", "w", stdout);
		(void)f;
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	if (maxrss_kb)
		*maxrss_kb = ru.ru_maxrss;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	int runs = 9;
	static const struct option opts[] = {{"runs", required_argument, NULL, 'n'}, {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
		if (ch == 'n')
			runs = atoi(optarg);
		else
			return 2;
	}
	if (runs < 1 || runs > 1000) {
		fprintf(stderr, "bench_refresh: --runs must be 1..1000\n");
		return 2;
	}
	char err[256];
	struct oc_backend *b = oc_slurm_backend_open(getenv("SLURM_CONF"), err, sizeof(err));
	if (!b) {
		fprintf(stderr, "bench_refresh: %s\n", err);
		return 1;
	}
	double *full = calloc((size_t)runs, sizeof(double));
	double *full_wall = calloc((size_t)runs, sizeof(double));
	double *same = calloc((size_t)runs, sizeof(double));
	double *same_wall = calloc((size_t)runs, sizeof(double));
	double *sinfo = calloc((size_t)runs, sizeof(double));
	double *squeue = calloc((size_t)runs, sizeof(double));

	/* Warm up: the first call pays for plugin loading and the config. */
	struct oc_snapshot *prev = oc_collector_refresh_once(b, OC_MASK_ALL, NULL);
	if (!prev || prev->status[OC_PART_NODES].error[0]) {
		fprintf(stderr, "bench_refresh: cannot reach the cluster: %s\n",
			prev ? prev->status[OC_PART_NODES].error : "out of memory");
		return 1;
	}
	unsigned unchanged_parts = 0, asked = 0;
	for (int i = 0; i < runs; i++) {
		double c0 = cpu_self(), w0 = wall();
		struct oc_snapshot *s = oc_collector_refresh_once(b, OC_MASK_ALL, NULL);
		full[i] = cpu_self() - c0;
		full_wall[i] = wall() - w0;
		oc_snapshot_unref(&s);

		c0 = cpu_self();
		w0 = wall();
		s = oc_collector_refresh_once(b, OC_MASK_ALL, prev);
		same[i] = cpu_self() - c0;
		same_wall[i] = wall() - w0;
		unchanged_parts += (s->nodes == prev->nodes) + (s->partitions == prev->partitions) +
				   (s->jobs == prev->jobs) + (s->reservations == prev->reservations);
		asked += 4;
		oc_snapshot_unref(&prev);
		prev = s;

		char *sinfo_argv[] = {"sinfo", NULL};
		char *squeue_argv[] = {"squeue", NULL};
		sinfo[i] = run_cpu(sinfo_argv, NULL);
		squeue[i] = run_cpu(squeue_argv, NULL);
		if (sinfo[i] < 0 || squeue[i] < 0) {
			fprintf(stderr, "bench_refresh: cannot run sinfo/squeue (PATH?)\n");
			return 1;
		}
	}
	struct utsname u;
	uname(&u);
	printf("opsconsole collector benchmark\n");
	printf("machine:   %s %s, %ld cpus\n", u.nodename, u.machine, sysconf(_SC_NPROCESSORS_ONLN));
	printf("slurm:     %s (built against %s), cluster %s\n", prev->slurm_version,
	       oc_slurm_build_version(), prev->cluster);
	printf("sizes:     %zu nodes, %zu partitions, %zu jobs, %zu reservations\n", prev->nodes->n,
	       prev->partitions->n, prev->jobs->n, prev->reservations->n);
	printf("runs:      %d (medians)\n\n", runs);
	double m_full = median(full, runs), m_same = median(same, runs);
	double m_sinfo = median(sinfo, runs), m_squeue = median(squeue, runs);
	double cli = m_sinfo + m_squeue;
	printf("%-38s %10s %10s\n", "measure", "cpu ms", "wall ms");
	printf("%-38s %10.3f %10.3f\n", "collector full refresh (4 parts)", m_full * 1e3, median(full_wall, runs) * 1e3);
	printf("%-38s %10.3f %10.3f\n", "collector unchanged refresh (4 parts)", m_same * 1e3, median(same_wall, runs) * 1e3);
	printf("%-38s %10.3f\n", "sinfo (process)", m_sinfo * 1e3);
	printf("%-38s %10.3f\n", "squeue (process)", m_squeue * 1e3);
	/* What one tick costs with each view on screen: only its parts are
	 * asked at the fast rate (core/views.h). */
	static const struct {
		const char *name;
		unsigned mask;
	} per_view[] = {
		{"partitions", OC_FOCUS_PARTITIONS},
		{"queue", OC_FOCUS_QUEUE},
		{"nodes", OC_FOCUS_NODES},
	};
	double view_cpu[3];
	for (int v = 0; v < 3; v++) {
		for (int i = 0; i < runs; i++) {
			double c0 = cpu_self();
			struct oc_snapshot *s = oc_collector_refresh_once(b, per_view[v].mask, prev);
			same[i] = cpu_self() - c0;
			oc_snapshot_unref(&prev);
			prev = s;
		}
		view_cpu[v] = median(same, runs);
		char label[64];
		snprintf(label, sizeof(label), "unchanged tick, %s view", per_view[v].name);
		printf("%-38s %10.3f\n", label, view_cpu[v] * 1e3);
	}
	printf("\nparts answered \"no change\" in unchanged refreshes: %u of %u\n", unchanged_parts, asked);
	printf("ratio unchanged refresh (4 parts) / (sinfo + squeue): %.4f\n", m_same / cli);
	for (int v = 0; v < 3; v++)
		printf("ratio unchanged tick, %-10s / (sinfo + squeue): %.4f  (target <= 0.05)\n",
		       per_view[v].name, view_cpu[v] / cli);
	printf("ratio full refresh / (sinfo + squeue):                 %.4f\n", m_full / cli);

	/* The CLI backend over the local transport: the commands' CPU counts
	 * (children), and an unchanged refresh keeps its tables. */
	struct oc_transport *t = oc_local_transport_open(err, sizeof(err));
	struct oc_backend *cb = t ? oc_cli_backend_open(t, "", err, sizeof(err)) : NULL;
	if (!cb) {
		fprintf(stderr, "bench_refresh: cli backend: %s\n", err);
		return 1;
	}
	struct oc_snapshot *cprev = oc_collector_refresh_once(cb, OC_MASK_ALL, NULL);
	double *cli_same = calloc((size_t)runs, sizeof(double));
	double *cli_wall = calloc((size_t)runs, sizeof(double));
	unsigned cli_kept = 0;
	for (int i = 0; cprev && cli_same && cli_wall && i < runs; i++) {
		double c0 = cpu_with_children(), w0 = wall();
		struct oc_snapshot *s2 = oc_collector_refresh_once(cb, OC_MASK_ALL, cprev);
		cli_same[i] = cpu_with_children() - c0;
		cli_wall[i] = wall() - w0;
		cli_kept += (s2->nodes == cprev->nodes) + (s2->partitions == cprev->partitions) +
			    (s2->jobs == cprev->jobs) + (s2->reservations == cprev->reservations);
		oc_snapshot_unref(&cprev);
		cprev = s2;
	}
	if (cprev && cli_same && cli_wall) {
		printf("\n%-38s %10.3f %10.3f\n", "cli backend unchanged refresh (all)", median(cli_same, runs) * 1e3,
		       median(cli_wall, runs) * 1e3);
		printf("cli parts kept in unchanged refreshes: %u of %u\n", cli_kept, 4u * (unsigned)runs);
	}
	oc_snapshot_unref(&cprev);
	oc_backend_close(&cb);
	oc_transport_close(&t);
	free(cli_same);
	free(cli_wall);
	oc_snapshot_unref(&prev);
	oc_backend_close(&b);
	free(full);
	free(full_wall);
	free(same);
	free(same_wall);
	free(sinfo);
	free(squeue);
	return 0;
}
