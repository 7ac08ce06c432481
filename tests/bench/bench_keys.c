/* bench_keys.c: P5 seen from outside (issue 20 item 2). Runs a program on
 * a pseudo-terminal of its own, as sshd or the SSM agent would, writes
 * keys to it one at a time and times each from the write to the end of
 * the screen update it causes, read on the pty: the last byte of the
 * first burst of output after the key (a burst ends when the pty has been
 * quiet for --quiet ms; that wait is not counted).
 *
 *   bench_keys [--cols 200] [--rows 50] [--term xterm] [--ready FILE]
 *              [--quiet 15] [--out FILE] [--stop-pid PID]
 *              KEYS -- PROGRAM [ARGS...]
 *
 * KEYS is a space-separated list: a printable character stands for itself;
 * Up Down PgUp PgDn Home End are sent as the terminfo entry of --term says
 * (what a terminal in keypad mode sends), Esc as ESC, BSpace as DEL,
 * Enter as CR, Tab as TAB. --ready FILE: start once FILE has a line
 * beginning with "first_full_paint" (the console's OC_LATENCY_LOG; used
 * for that only, never for a time). Writes one line per key to --out
 * (milliseconds and the key's name) and prints p50/p99/max. --stop-pid:
 * SIGSTOP that process (slurmctld) once the program is ready, SIGCONT it
 * at the end.
 *
 * The console redraws its clock at each step of it (every 2 s, or every
 * second with refresh_seconds under 2), within 250 ms of the second's
 * turn: keys are written only between 300 and 650 ms into a second,
 * after the pty has been quiet for --quiet ms, so that a clock frame is
 * never taken for a key's. A key that draws nothing within
 * 500 ms is an error (the list must be keys that change the screen).
 *
 * Uses forkpty(3) and terminfo (tigetstr) rather than a terminal
 * emulator: the time of the last byte is what is measured, not the
 * screen's content (tests/e2e checks that).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <curses.h>
#include <term.h>
#include <time.h>
#include <unistd.h>

static double mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int master = -1;
static pid_t child = -1, stopped = -1;

/* Killed: never leave slurmctld stopped. */
static void on_signal(int sig)
{
	if (stopped > 0)
		kill(stopped, SIGCONT);
	if (child > 0)
		kill(child, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Read what the pty has within timeout ms; the time of the last byte read
 * in *last. Returns the bytes read, 0 on timeout, -1 when the program is
 * gone. */
static long drain(int timeout, double *last)
{
	long got = 0;
	char buf[65536];
	for (;;) {
		struct pollfd p = {.fd = master, .events = POLLIN};
		int r = poll(&p, 1, got ? 0 : timeout);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got;
		ssize_t n = read(master, buf, sizeof(buf));
		if (n <= 0)
			return got ? got : -1;
		got += n;
		if (last)
			*last = mono_ms();
	}
}

/* Wait until the pty has been quiet for quiet ms (at most 5 s). */
static int settle(int quiet)
{
	double end = mono_ms() + 5000;
	while (mono_ms() < end) {
		long n = drain(quiet, NULL);
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
	}
	return 0;
}

/* The bytes of a key name for this terminal. */
static const char *key_bytes(const char *name)
{
	static const struct {
		const char *name, *cap;
	} caps[] = {{"Up", "kcuu1"},	{"Down", "kcud1"}, {"PgUp", "kpp"}, {"PgDn", "knp"},
		    {"Home", "khome"}, {"End", "kend"},	   {"Left", "kcub1"}, {"Right", "kcuf1"}};
	if (!strcmp(name, "Esc"))
		return "\033";
	if (!strcmp(name, "BSpace"))
		return "\177";
	if (!strcmp(name, "Enter"))
		return "\r";
	if (!strcmp(name, "Tab"))
		return "\t";
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (!strcmp(name, caps[i].name)) {
			char *s = tigetstr(caps[i].cap);
			return s && s != (char *)-1 ? s : NULL;
		}
	return strlen(name) == 1 ? name : NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(const double *v, int n, double p)
{
	int i = (int)(n * p / 100.0 + 0.999999);
	if (i < 1)
		i = 1;
	return v[i - 1];
}

/* Whether FILE has a line starting with first_full_paint. */
static int ready(const char *file)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return 0;
	char line[256];
	int ok = 0;
	while (!ok && fgets(line, sizeof(line), f))
		ok = !strncmp(line, "first_full_paint", 16);
	fclose(f);
	return ok;
}

static void stop_child(void)
{
	if (stopped > 0)
		kill(stopped, SIGCONT);
	if (child > 0) {
		kill(child, SIGTERM);
		for (int i = 0; i < 50 && waitpid(child, NULL, WNOHANG) == 0; i++)
			usleep(100000);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = -1;
	}
}

int main(int argc, char **argv)
{
	int cols = 200, rows = 50, quiet = 15;
	const char *term = "xterm", *ready_file = NULL, *out = NULL;
	pid_t stop_pid = -1;
	static const struct option opts[] = {
		{"cols", required_argument, NULL, 'c'},	 {"rows", required_argument, NULL, 'r'},
		{"term", required_argument, NULL, 't'},	 {"ready", required_argument, NULL, 'R'},
		{"quiet", required_argument, NULL, 'q'}, {"out", required_argument, NULL, 'o'},
		{"stop-pid", required_argument, NULL, 'p'}, {NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': cols = atoi(optarg); break;
		case 'r': rows = atoi(optarg); break;
		case 't': term = optarg; break;
		case 'R': ready_file = optarg; break;
		case 'q': quiet = atoi(optarg); break;
		case 'o': out = optarg; break;
		case 'p': stop_pid = (pid_t)atol(optarg); break;
		default: return 2;
		}
	}
	if (argc - optind < 2 || cols < 20 || rows < 5 || quiet < 1) {
		fprintf(stderr, "usage: bench_keys [--cols C] [--rows R] [--term T] [--ready FILE] [--quiet MS] "
				"[--out FILE] [--stop-pid PID] KEYS -- PROGRAM [ARGS...]\n");
		return 2;
	}
	char *keys = strdup(argv[optind++]);
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (optind >= argc) {
		fprintf(stderr, "bench_keys: no program\n");
		return 2;
	}
	int err;
	if (setupterm((char *)term, -1, &err) != OK) {
		fprintf(stderr, "bench_keys: unknown terminal type %s\n", term);
		return 2;
	}
	/* The keys, checked before anything runs. */
	const char *names[4096];
	int nkeys = 0;
	for (char *sp, *k = strtok_r(keys, " ", &sp); k; k = strtok_r(NULL, " ", &sp)) {
		if (nkeys == 4096) {
			fprintf(stderr, "bench_keys: more than 4096 keys\n");
			return 2;
		}
		if (!key_bytes(k)) {
			fprintf(stderr, "bench_keys: unknown key %s (or no such key in terminfo %s)\n", k, term);
			return 2;
		}
		names[nkeys++] = k;
	}
	if (!nkeys) {
		fprintf(stderr, "bench_keys: no keys\n");
		return 2;
	}
	struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
	setenv("TERM", term, 1);
	child = forkpty(&master, NULL, NULL, &ws);
	if (child < 0) {
		perror("bench_keys: forkpty");
		return 1;
	}
	if (child == 0) {
		execvp(argv[optind], &argv[optind]);
		perror("bench_keys: exec");
		_exit(127);
	}
	/* Ready: the first full paint logged, then the output quiet. */
	double end = mono_ms() + 60000;
	while (ready_file && !ready(ready_file)) {
		if (drain(10, NULL) < 0 || mono_ms() > end) {
			fprintf(stderr, "bench_keys: the program never logged its first full paint\n");
			stop_child();
			return 1;
		}
	}
	if (settle(200) < 0) {
		fprintf(stderr, "bench_keys: the program ended\n");
		return 1;
	}
	/* Whatever ends this program (but SIGKILL) lets slurmctld go on. */
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (stop_pid > 0) {
		stopped = stop_pid; /* before the signal: a signal in between still continues it */
		if (kill(stop_pid, SIGSTOP) < 0) {
			stopped = -1;
			fprintf(stderr, "bench_keys: cannot stop %ld: %s\n", (long)stop_pid, strerror(errno));
			stop_child();
			return 1;
		}
	}
	double *ms = calloc((size_t)nkeys, sizeof(*ms));
	FILE *fo = out ? fopen(out, "w") : NULL;
	if (!ms || (out && !fo)) {
		fprintf(stderr, "bench_keys: cannot write %s\n", out ? out : "(memory)");
		stop_child();
		return 1;
	}
	int rc = 0;
	for (int i = 0; i < nkeys; i++) {
		/* Between 300 and 650 ms into a second, the pty quiet. */
		for (;;) {
			if (settle(quiet) < 0) {
				fprintf(stderr, "bench_keys: the program ended\n");
				rc = 1;
				goto done;
			}
			struct timespec now;
			clock_gettime(CLOCK_REALTIME, &now);
			long into = now.tv_nsec / 1000000;
			if (into >= 300 && into <= 650)
				break;
			long wait = into < 300 ? 300 - into : 1300 - into;
			usleep((useconds_t)wait * 1000);
		}
		const char *b = key_bytes(names[i]);
		double t0 = mono_ms(), last = 0;
		if (write(master, b, strlen(b)) != (ssize_t)strlen(b)) {
			fprintf(stderr, "bench_keys: write: %s\n", strerror(errno));
			rc = 1;
			goto done;
		}
		/* The first output within 500 ms, then until quiet. */
		long n = drain(500, &last);
		if (n <= 0) {
			fprintf(stderr, "bench_keys: key %d (%s) drew nothing within 500 ms\n", i + 1, names[i]);
			rc = 1;
			goto done;
		}
		while ((n = drain(quiet, &last)) > 0)
			;
		ms[i] = last - t0;
		if (fo)
			fprintf(fo, "%.3f %s\n", ms[i], names[i]);
	}
	if (stopped > 0) { /* before anything that could fail */
		kill(stopped, SIGCONT);
		stopped = -1;
	}
	qsort(ms, (size_t)nkeys, sizeof(*ms), cmp_double);
	printf("keys=%d p50=%.3f p99=%.3f max=%.3f\n", nkeys, pct(ms, nkeys, 50), pct(ms, nkeys, 99),
	       ms[nkeys - 1]);
done:
	if (fo)
		fclose(fo);
	free(ms);
	stop_child();
	return rc;
}
