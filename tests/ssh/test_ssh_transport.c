/* test_ssh_transport.c: the SSH transport (source/ssh_transport.c) against
 * the real test sshd of tests/ssh/sshd.sh (ctest fixture "sshd"):
 * hostile arguments arrive verbatim, exit codes, signals, stderr apart,
 * 20 MB of output, timeouts, thread safety, host keys (changed, unknown,
 * accepted), identities (wrong, passphrase, missing), and the server
 * killed mid-command then started again. With --slurm: `sinfo --json`
 * and `scontrol ping` of the private cluster over SSH (fixtures sshd and
 * cluster; the sessions get SLURM_CONF from the sshd's SetEnv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "source/cli_source.h"
#include "source/exec.h"
#include "source/transport.h"

static char sshd_dir[1024];
static int sshd_port;
static char test_user[64];
static char tmpdir[1024];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The target of the test sshd, as a profile would give it. */
static void target(struct oc_ssh_target *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->host, sizeof(t->host), "127.0.0.1");
	snprintf(t->user, sizeof(t->user), "root");
	t->port = sshd_port;
	snprintf(t->identity, sizeof(t->identity), "%s/client_ed25519", sshd_dir);
	snprintf(t->known_hosts, sizeof(t->known_hosts), "%s/known_hosts", sshd_dir);
	t->connect_timeout_s = 10;
}

static struct oc_transport *open_ok(const struct oc_ssh_target *t)
{
	char err[2048] = "";
	struct oc_transport *tr = oc_ssh_transport_open(t, err, sizeof(err));
	if (!tr)
		fail_msg("oc_ssh_transport_open: %s", err);
	return tr;
}

/* A transport to the test sshd as root. */
static struct oc_transport *open_default(void)
{
	struct oc_ssh_target t;
	target(&t);
	return open_ok(&t);
}

/* Opening must fail with every needle in the message. */
static void open_refused(const struct oc_ssh_target *t, const char *const needles[])
{
	char err[2048] = "";
	struct oc_transport *tr = oc_ssh_transport_open(t, err, sizeof(err));
	if (tr) {
		oc_transport_close(&tr);
		fail_msg("oc_ssh_transport_open succeeded, want a refusal");
	}
	for (size_t i = 0; needles[i]; i++)
		if (!strstr(err, needles[i]))
			fail_msg("\"%s\" not in: %s", needles[i], err);
	printf("refused as expected: %s\n", err);
}

/* A local command (test code: fixtures and files); must exit 0. */
static void local(const char *const argv[])
{
	char out[4096], err[512];
	int status;
	if (oc_exec(argv, 60, out, sizeof(out), &status, err, sizeof(err)) < 0 || status != 0)
		fail_msg("%s exited %d: %s %s", argv[0], status, err, out);
}

static void sshd_ctl(const char *what)
{
	local((const char *const[]){"/bin/bash", OC_SSHD_SH, what, NULL});
}

/* ---- commands ---- */

static void test_describe(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	char want[128];
	snprintf(want, sizeof(want), "ssh root@127.0.0.1:%d", sshd_port);
	assert_string_equal(tr->ops->describe(tr), want);
	assert_string_equal(tr->ops->name, "ssh");
	oc_transport_close(&tr);
	assert_null(tr);
}

/* printf '%s\0' WORDS on the remote side prints the words byte for byte. */
static void test_hostile_verbatim(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	static char big[10241];
	for (size_t i = 0; i < sizeof(big) - 1; i++)
		big[i] = "'\"$`\\;\n*"[i % 8];
	const char *words[] = {
		"Reason=it's \"bad\"", "$(touch /tmp/oc-ssh-pwned)", "`id`", "; rm -rf /tmp/x", "a\nb\n",
		"\ttab", "*", "?", "[a-z]", "~", "~root", "-n", "--", "", "$HOME", "${IFS}", "\\", "'",
		"''", "\"", "\x01\x1b[31m\x7f", "gpu-st-b300-[1-4]", "caf\xc3\xa9 \xe2\x9c\x93", "\xff\xfe\xc3",
		"a b  c", "!", "#no comment", "&", "|", ">x", "<y", big,
	};
	size_t nw = sizeof(words) / sizeof(words[0]);
	const char *argv[64] = {"printf", "%s\\0"};
	size_t want_len = 0;
	for (size_t i = 0; i < nw; i++) {
		argv[2 + i] = words[i];
		want_len += strlen(words[i]) + 1;
	}
	struct oc_run_result r;
	char err[1024];
	assert_int_equal(tr->ops->run(tr, argv, 30, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, 0);
	assert_string_equal(err, "");
	assert_int_equal(r.out_len, want_len);
	size_t off = 0;
	for (size_t i = 0; i < nw; i++) {
		size_t wl = strlen(words[i]);
		if (memcmp(r.out + off, words[i], wl) != 0 || r.out[off + wl] != '\0')
			fail_msg("word %zu did not arrive verbatim", i);
		off += wl + 1;
	}
	assert_int_equal(r.err_len, 0);
	assert_int_equal(access("/tmp/oc-ssh-pwned", F_OK), -1);
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

static void test_exit_codes_and_stderr(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	struct oc_run_result r;
	char err[1024];
	static const struct {
		const char *script;
		int status;
		const char *out, *errout;
	} cases[] = {
		{"exit 0", 0, "", ""},
		{"exit 3", 3, "", ""},
		{"exit 255", 255, "", ""},
		{"echo out; echo err >&2; exit 7", 7, "out\n", "err\n"},
		{"echo one >&2; echo two; echo three >&2", 0, "two\n", "one\nthree\n"},
		{"cat", 0, "", ""}, /* stdin is at EOF */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[] = {"sh", "-c", cases[i].script, NULL};
		assert_int_equal(tr->ops->run(tr, argv, 30, &r, err, sizeof(err)), 0);
		assert_int_equal(r.exit_status, cases[i].status);
		assert_string_equal(r.out, cases[i].out);
		assert_string_equal(r.errout, cases[i].errout);
		assert_string_equal(err, "");
		oc_run_result_clear(&r);
	}
	/* a program that does not exist: the remote shell says so, 127 */
	const char *missing[] = {"oc-no-such-program", "x", NULL};
	assert_int_equal(tr->ops->run(tr, missing, 30, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, 127);
	assert_non_null(strstr(r.errout, "oc-no-such-program"));
	oc_run_result_clear(&r);
	/* killed by a signal */
	const char *killed[] = {"sh", "-c", "kill -KILL $$", NULL};
	assert_int_equal(tr->ops->run(tr, killed, 30, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, OC_EXEC_SIGNALED);
	assert_string_equal(err, "killed by signal SIGKILL");
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

static void test_large_output(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	struct oc_run_result r;
	char err[1024];
	const size_t want = 20u * 1024 * 1024;
	const char *argv[] = {"sh", "-c", "yes 0123456789abcde | head -c 20971520; echo done >&2", NULL};
	double t0 = now_s();
	assert_int_equal(tr->ops->run(tr, argv, 120, &r, err, sizeof(err)), 0);
	double dt = now_s() - t0;
	assert_int_equal(r.exit_status, 0);
	assert_int_equal(r.out_len, want);
	for (size_t i = 0; i < want; i += 16)
		if (memcmp(r.out + i, "0123456789abcde\n", want - i < 16 ? want - i : 16) != 0)
			fail_msg("byte %zu differs", i);
	assert_int_equal(r.out[want], '\0');
	assert_string_equal(r.errout, "done\n");
	printf("20 MB over SSH in %.2f s\n", dt);
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

/* Whether a process with this exact command line runs here (the sshd is
 * local). */
static bool local_process(const char *cmdline)
{
	char out[4096], err[256];
	int status;
	const char *argv[] = {"pgrep", "-x", "-f", cmdline, NULL};
	assert_int_equal(oc_exec(argv, 10, out, sizeof(out), &status, err, sizeof(err)), 0);
	return status == 0;
}

/* sleep with timeout 2 as user: back in about 2 s, the session still
 * works, and (when want_killed) the remote sleep was killed: by the
 * remote timeout(1) the transport wraps every command with a timeout in
 * (OpenSSH refuses signal requests in root sessions). */
static void check_timeout(const char *user, const char *sleep_arg, bool want_killed)
{
	struct oc_ssh_target t;
	target(&t);
	snprintf(t.user, sizeof(t.user), "%s", user);
	struct oc_transport *tr = open_ok(&t);
	struct oc_run_result r;
	char err[1024], cmdline[64];
	const char *argv[] = {"sleep", sleep_arg, NULL};
	snprintf(cmdline, sizeof(cmdline), "sleep %s", sleep_arg);
	double t0 = now_s();
	assert_int_equal(tr->ops->run(tr, argv, 2, &r, err, sizeof(err)), 0);
	double dt = now_s() - t0;
	assert_int_equal(r.exit_status, OC_EXEC_TIMED_OUT);
	assert_string_equal(err, "timed out after 2 s");
	printf("%s: %s with timeout 2: back after %.2f s\n", user, cmdline, dt);
	assert_true(dt >= 1.9 && dt < 4.0);
	oc_run_result_clear(&r);
	if (want_killed) {
		double end = now_s() + 10;
		while (local_process(cmdline) && now_s() < end)
			usleep(100 * 1000);
		assert_false(local_process(cmdline));
	}
	const char *echo[] = {"echo", "after", NULL};
	assert_int_equal(tr->ops->run(tr, echo, 10, &r, err, sizeof(err)), 0);
	assert_string_equal(r.out, "after\n");
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

static void test_timeout(void **state)
{
	(void)state;
	check_timeout("root", "30.25", true);
}

/* The non-root login of sshd.sh. */
static void test_timeout_kills(void **state)
{
	(void)state;
	check_timeout(test_user, "30.5", true);
}

/* ---- two threads on one transport ---- */

struct worker {
	struct oc_transport *tr;
	int id;
	int ok;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	for (int i = 0; i < 15; i++) {
		char word[32], err[1024];
		snprintf(word, sizeof(word), "w%d-%d", w->id, i);
		const char *argv[] = {"printf", "%s", word, NULL};
		struct oc_run_result r;
		if (w->tr->ops->run(w->tr, argv, 30, &r, err, sizeof(err)) == 0 && r.exit_status == 0 &&
		    strcmp(r.out, word) == 0)
			w->ok++;
		oc_run_result_clear(&r);
	}
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	struct worker w[3];
	pthread_t th[3];
	for (int i = 0; i < 3; i++) {
		w[i] = (struct worker){tr, i, 0};
		assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
	}
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].ok, 15);
	}
	oc_transport_close(&tr);
}

/* ---- host keys and identities ---- */

static void keygen(const char *path, const char *passphrase)
{
	unlink(path);
	char pub[4200];
	snprintf(pub, sizeof(pub), "%s.pub", path);
	unlink(pub);
	local((const char *const[]){"ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-f", path, NULL});
}

static void test_changed_host_key(void **state)
{
	(void)state;
	char key[2048], kh[2048], line[1024];
	snprintf(key, sizeof(key), "%s/other_host_key", tmpdir);
	snprintf(kh, sizeof(kh), "%s/changed_known_hosts", tmpdir);
	keygen(key, "");
	char pub[2100];
	snprintf(pub, sizeof(pub), "%s.pub", key);
	FILE *in = fopen(pub, "r");
	assert_non_null(in);
	assert_non_null(fgets(line, sizeof(line), in));
	fclose(in);
	FILE *out = fopen(kh, "w");
	assert_non_null(out);
	fprintf(out, "[127.0.0.1]:%d %s", sshd_port, line);
	fclose(out);
	struct oc_ssh_target t;
	target(&t);
	snprintf(t.known_hosts, sizeof(t.known_hosts), "%s", kh);
	char want[128];
	snprintf(want, sizeof(want), "host key for [127.0.0.1]:%d has CHANGED", sshd_port);
	open_refused(&t, (const char *const[]){want, "SHA256:", "ssh-ed25519", "ssh-keygen -R", NULL});
	/* accepting new keys does not accept a changed one */
	t.accept_new_host_key = true;
	open_refused(&t, (const char *const[]){want, NULL});
}

static void test_unknown_host_key(void **state)
{
	(void)state;
	char kh[2048];
	snprintf(kh, sizeof(kh), "%s/sub/new_known_hosts", tmpdir);
	unlink(kh);
	struct oc_ssh_target t;
	target(&t);
	snprintf(t.known_hosts, sizeof(t.known_hosts), "%s", kh);
	char want[128];
	snprintf(want, sizeof(want), "host key for [127.0.0.1]:%d is not known", sshd_port);
	open_refused(&t, (const char *const[]){want, "ssh-ed25519 SHA256:", "accept_new_host_key", "ssh-keyscan", NULL});
	assert_int_equal(access(kh, F_OK), -1);
	/* with accept_new_host_key: connected, and the key written */
	t.accept_new_host_key = true;
	struct oc_transport *tr = open_ok(&t);
	oc_transport_close(&tr);
	FILE *f = fopen(kh, "r");
	assert_non_null(f);
	char line[1024] = "", want_line[64];
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	snprintf(want_line, sizeof(want_line), "[127.0.0.1]:%d ssh-ed25519 ", sshd_port);
	assert_memory_equal(line, want_line, strlen(want_line));
	/* now known: accepted without the option too */
	t.accept_new_host_key = false;
	tr = open_ok(&t);
	oc_transport_close(&tr);
}

static void test_identities(void **state)
{
	(void)state;
	struct oc_ssh_target t;
	target(&t);
	char key[2048];
	snprintf(key, sizeof(key), "%s/stranger_ed25519", tmpdir);
	keygen(key, "");
	snprintf(t.identity, sizeof(t.identity), "%s", key);
	open_refused(&t, (const char *const[]){"refused the key", key, "root", NULL});
	snprintf(key, sizeof(key), "%s/locked_ed25519", tmpdir);
	keygen(key, "a passphrase");
	snprintf(t.identity, sizeof(t.identity), "%s", key);
	open_refused(&t, (const char *const[]){"needs a passphrase", "ssh-add", NULL});
	snprintf(t.identity, sizeof(t.identity), "%s/no-such-key", tmpdir);
	open_refused(&t, (const char *const[]){"cannot read", "No such file", NULL});
	/* bad targets */
	target(&t);
	t.host[0] = '\0';
	open_refused(&t, (const char *const[]){"no host", NULL});
	target(&t);
	t.port = 0;
	open_refused(&t, (const char *const[]){"port 0", NULL});
	/* nothing listens there: a quick, clear refusal */
	target(&t);
	t.port = 1;
	open_refused(&t, (const char *const[]){"ssh root@127.0.0.1:1: cannot connect", NULL});
}

/* No identity: the agent's keys are tried (and the default
 * ~/.ssh/id_*, which hold no key of this sshd). */
static void test_agent(void **state)
{
	(void)state;
	struct oc_ssh_target t;
	target(&t);
	t.identity[0] = '\0';
	const char *saved = getenv("SSH_AUTH_SOCK");
	char saved_sock[1024] = "";
	if (saved)
		snprintf(saved_sock, sizeof(saved_sock), "%s", saved);
	unsetenv("SSH_AUTH_SOCK");
	open_refused(&t, (const char *const[]){"no key accepted for root", "passwords are never used", NULL});
	/* an agent holding the client key */
	char sock[1100], out[4096], err[256];
	snprintf(sock, sizeof(sock), "%s/agent.sock", tmpdir);
	int status;
	const char *agent[] = {"ssh-agent", "-s", "-a", sock, NULL};
	assert_int_equal(oc_exec(agent, 10, out, sizeof(out), &status, err, sizeof(err)), 0);
	assert_int_equal(status, 0);
	const char *p = strstr(out, "SSH_AGENT_PID=");
	assert_non_null(p);
	long agent_pid = atol(p + strlen("SSH_AGENT_PID="));
	assert_true(agent_pid > 1);
	setenv("SSH_AUTH_SOCK", sock, 1);
	char key[1100];
	snprintf(key, sizeof(key), "%s/client_ed25519", sshd_dir);
	local((const char *const[]){"ssh-add", "-q", key, NULL});
	char errbuf[2048] = "";
	struct oc_transport *tr = oc_ssh_transport_open(&t, errbuf, sizeof(errbuf));
	kill((pid_t)agent_pid, SIGTERM);
	if (saved)
		setenv("SSH_AUTH_SOCK", saved_sock, 1);
	else
		unsetenv("SSH_AUTH_SOCK");
	if (!tr)
		fail_msg("with the key in the agent: %s", errbuf);
	struct oc_run_result r;
	const char *argv[] = {"echo", "agent", NULL};
	assert_int_equal(tr->ops->run(tr, argv, 10, &r, errbuf, sizeof(errbuf)), 0);
	assert_string_equal(r.out, "agent\n");
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

/* ---- the server killed mid-command, then back ---- */

/* A run in another thread, to act on the server meanwhile. */
struct slow_run {
	struct oc_transport *tr;
	const char *argv[4];
	int timeout_s;
	int rc, exit_status;
	double started, ended;
	char err[1024];
};

static void *slow_main(void *arg)
{
	struct slow_run *s = arg;
	struct oc_run_result r;
	s->started = now_s();
	s->rc = s->tr->ops->run(s->tr, s->argv, s->timeout_s, &r, s->err, sizeof(s->err));
	s->ended = now_s();
	s->exit_status = r.exit_status;
	oc_run_result_clear(&r);
	return NULL;
}

static void test_connection_lost(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	struct slow_run s = {.tr = tr, .argv = {"sleep", "20.75", NULL}, .timeout_s = 60};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, slow_main, &s), 0);
	double end = now_s() + 20;
	while (!local_process("sleep 20.75") && now_s() < end)
		usleep(100 * 1000);
	assert_true(local_process("sleep 20.75"));
	double stopping = now_s();
	sshd_ctl("stop");
	double stopped = now_s(); /* sshd and its sessions are gone */
	pthread_join(th, NULL);
	char want[128];
	snprintf(want, sizeof(want), "ssh root@127.0.0.1:%d: connection lost: ", sshd_port);
	printf("mid-command: %s (%.2f s after sshd.sh stop began, %.2f s after it ended)\n", s.err,
	       s.ended - stopping, s.ended - stopped);
	assert_int_equal(s.rc, -1);
	assert_memory_equal(s.err, want, strlen(want));
	/* At once: not when the command would have ended (20.75 s) or timed
	 * out (60 s). Measured from the end of the stop, which takes seconds
	 * on a loaded machine (6.9 s from its start was seen under
	 * tests/soak.sh's load). */
	assert_true(s.ended - stopped < 5);
	assert_true(s.ended - s.started < 20);

	/* the server is down: the next run tries at once and fails, the ones
	 * after it wait for the backoff and return at once */
	const char *argv[] = {"echo", "back", NULL};
	struct oc_run_result r;
	char err[2048];
	assert_int_equal(tr->ops->run(tr, argv, 10, &r, err, sizeof(err)), -1);
	printf("down: %s\n", err);
	assert_memory_equal(err, want, strlen(want));
	double t0 = now_s();
	assert_int_equal(tr->ops->run(tr, argv, 10, &r, err, sizeof(err)), -1);
	assert_true(now_s() - t0 < 0.5);
	assert_non_null(strstr(err, "reconnecting in "));
	printf("waiting: %s\n", err);
	/* the wait doubles: 1 s, 2 s, then 4 s (within 1 + 2 s and a margin) */
	bool four = false;
	end = now_s() + 15;
	while (!four && now_s() < end) {
		usleep(200 * 1000);
		assert_int_equal(tr->ops->run(tr, argv, 10, &r, err, sizeof(err)), -1);
		four = strstr(err, "reconnecting in 4 s") != NULL;
	}
	printf("backoff: %s\n", err);
	assert_true(four);

	sshd_ctl("start");
	int rc = -1;
	end = now_s() + 90;
	while (now_s() < end) {
		rc = tr->ops->run(tr, argv, 10, &r, err, sizeof(err));
		if (rc == 0)
			break;
		usleep(200 * 1000);
	}
	printf("reconnected after %.1f s\n", now_s() - (end - 90));
	assert_int_equal(rc, 0);
	assert_string_equal(r.out, "back\n");
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

/* The one child of pid (pgrep -P), or -1 when none or several. */
static pid_t only_child(pid_t pid)
{
	char out[4096], err[256], ppid[32];
	int status;
	snprintf(ppid, sizeof(ppid), "%ld", (long)pid);
	const char *argv[] = {"pgrep", "-P", ppid, NULL};
	assert_int_equal(oc_exec(argv, 10, out, sizeof(out), &status, err, sizeof(err)), 0);
	if (status != 0 || strchr(out, '\n') != strrchr(out, '\n'))
		return -1;
	return (pid_t)atol(out);
}

/* The network side of the one session of our sshd (non-root login): the
 * listener's child is the privileged monitor, whose child is the
 * "sshd: USER@notty" process. Returns its pid, or -1. */
static pid_t session_pid(void)
{
	char path[1100];
	snprintf(path, sizeof(path), "%s/sshd.pid", sshd_dir);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	long listener = -1;
	assert_int_equal(fscanf(f, "%ld", &listener), 1);
	fclose(f);
	pid_t monitor = only_child((pid_t)listener);
	return monitor > 0 ? only_child(monitor) : -1;
}

/* A server that stops answering while TCP stays up (the session process
 * stopped): the next run gives up on the frozen session within the
 * connect timeout and runs on a new one; a command in flight when the
 * session freezes returns at its own deadline. */
static void test_frozen_server(void **state)
{
	(void)state;
	struct oc_ssh_target t;
	target(&t);
	snprintf(t.user, sizeof(t.user), "%s", test_user);
	t.connect_timeout_s = 2;
	struct oc_transport *tr = open_ok(&t);
	struct oc_run_result r;
	char err[2048];
	const char *echo[] = {"echo", "again", NULL};
	assert_int_equal(tr->ops->run(tr, echo, 10, &r, err, sizeof(err)), 0);
	oc_run_result_clear(&r);
	pid_t frozen = session_pid();
	assert_true(frozen > 0);
	assert_int_equal(kill(frozen, SIGSTOP), 0);
	double t0 = now_s();
	int rc = tr->ops->run(tr, echo, 10, &r, err, sizeof(err));
	double dt = now_s() - t0;
	if (rc != 0) {
		kill(frozen, SIGCONT);
		fail_msg("run on a frozen session: %s", err);
	}
	printf("frozen session given up, ran on a new one after %.2f s\n", dt);
	assert_string_equal(r.out, "again\n");
	assert_true(dt < 7);
	oc_run_result_clear(&r);
	kill(frozen, SIGCONT);

	/* frozen in flight */
	struct slow_run s = {.tr = tr, .argv = {"sleep", "6.5", NULL}, .timeout_s = 3};
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, slow_main, &s), 0);
	double end = now_s() + 10;
	while (!local_process("sleep 6.5") && now_s() < end)
		usleep(50 * 1000);
	frozen = session_pid();
	assert_true(frozen > 0);
	assert_int_equal(kill(frozen, SIGSTOP), 0);
	pthread_join(th, NULL);
	kill(frozen, SIGCONT);
	printf("frozen in flight, timeout 3: back after %.2f s: %s\n", s.ended - s.started, s.err);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.exit_status, OC_EXEC_TIMED_OUT);
	assert_true(s.ended - s.started < 5);
	oc_transport_close(&tr);
}

/* The server restarted while the transport was idle: the next run
 * reconnects and runs at once (the command had not been sent). */
static void test_idle_restart(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	sshd_ctl("stop");
	sshd_ctl("start");
	const char *argv[] = {"echo", "same", NULL};
	struct oc_run_result r;
	char err[2048];
	int rc = tr->ops->run(tr, argv, 10, &r, err, sizeof(err));
	if (rc != 0)
		fail_msg("run after an idle restart: %s", err);
	assert_string_equal(r.out, "same\n");
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

/* ---- Slurm over SSH (--slurm) ---- */

static void test_sinfo_json(void **state)
{
	(void)state;
	struct oc_transport *tr = open_default();
	struct oc_run_result r;
	char err[1024];
	const char *ping[] = {"scontrol", "ping", NULL};
	assert_int_equal(tr->ops->run(tr, ping, 30, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_status, 0);
	assert_non_null(strstr(r.out, "is UP"));
	oc_run_result_clear(&r);
	/* The node list as JSON in the form of the remote Slurm's version:
	 * sinfo --json (22.05), scontrol --json show nodes (23.02+, whose
	 * sinfo --json groups nodes per partition). */
	const char *vargv[] = {"sinfo", "--version", NULL};
	assert_int_equal(tr->ops->run(tr, vargv, 30, &r, err, sizeof(err)), 0);
	int major = 0, minor = 0;
	if (sscanf(r.out, "slurm%*[^0-9]%d.%d", &major, &minor) != 2)
		fail_msg("sinfo --version over SSH: unexpected \"%s\"", r.out);
	oc_run_result_clear(&r);
	const char *argv[5];
	oc_cli_nodes_argv(major * 100 + minor, argv);
	assert_int_equal(tr->ops->run(tr, argv, 60, &r, err, sizeof(err)), 0);
	if (r.exit_status != 0)
		fail_msg("%s %s exited %d: %s", argv[0], argv[1], r.exit_status, r.errout);
	json_error_t je;
	json_t *root = json_loadb(r.out, r.out_len, 0, &je);
	if (!root)
		fail_msg("sinfo --json over SSH: not JSON: %s", je.text);
	json_t *nodes = json_object_get(root, "nodes");
	assert_true(json_is_array(nodes));
	/* the same nodes as the local sinfo says, one a line */
	char local_nodes[65536], lerr[256];
	int status;
	const char *lsinfo[] = {"sinfo", "-h", "-N", "-o", "%N", NULL};
	assert_int_equal(oc_exec(lsinfo, 30, local_nodes, sizeof(local_nodes), &status, lerr, sizeof(lerr)), 0);
	assert_int_equal(status, 0);
	/* sinfo -N prints a node once per partition: count the distinct names */
	size_t i, n16 = 0, nlocal = 0;
	char seen[65536] = "\n";
	for (char *line = strtok(local_nodes, "\n"); line; line = strtok(NULL, "\n")) {
		char key[300];
		snprintf(key, sizeof(key), "\n%s\n", line);
		if (!strstr(seen, key)) {
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s\n", line);
			nlocal++;
		}
	}
	json_t *node;
	json_array_foreach(nodes, i, node) {
		const char *name = json_string_value(json_object_get(node, "name"));
		assert_non_null(name);
		char line[300];
		snprintf(line, sizeof(line), "\n%s\n", name);
		if (!strstr(seen, line))
			fail_msg("node %s of the remote sinfo --json is not in the local sinfo", name);
		if (strncmp(name, "gpu-st-b300-", 12) == 0)
			n16++;
	}
	printf("%s %s over SSH: %zu bytes, %zu nodes (%zu gpu-st-b300-*), local sinfo: %zu nodes\n",
	       argv[0], argv[1], r.out_len, json_array_size(nodes), n16, nlocal);
	assert_true(n16 >= 16);
	assert_int_equal(json_array_size(nodes), nlocal);
	json_decref(root);
	oc_run_result_clear(&r);
	oc_transport_close(&tr);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("OC_SSHD_DIR");
	const char *port = getenv("OC_SSHD_PORT");
	if (!dir || !dir[0]) {
		fprintf(stderr, "test_ssh_transport: OC_SSHD_DIR is not set (ctest sets it; or eval \"$(tests/ssh/sshd.sh env)\")\n");
		return 1;
	}
	snprintf(sshd_dir, sizeof(sshd_dir), "%s", dir);
	sshd_port = port && port[0] ? atoi(port) : 2222;
	const char *user = getenv("OC_SSH_USER");
	snprintf(test_user, sizeof(test_user), "%s", user && user[0] ? user : "octest");
	const char *base = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/oc-ssh-XXXXXX", base && base[0] ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	int rc;
	if (argc > 1 && strcmp(argv[1], "--slurm") == 0) {
		const struct CMUnitTest tests[] = {
			cmocka_unit_test(test_sinfo_json),
		};
		rc = cmocka_run_group_tests(tests, NULL, NULL);
	} else {
		const struct CMUnitTest tests[] = {
			cmocka_unit_test(test_describe),
			cmocka_unit_test(test_hostile_verbatim),
			cmocka_unit_test(test_exit_codes_and_stderr),
			cmocka_unit_test(test_large_output),
			cmocka_unit_test(test_timeout),
			cmocka_unit_test(test_timeout_kills),
			cmocka_unit_test(test_threads),
			cmocka_unit_test(test_changed_host_key),
			cmocka_unit_test(test_unknown_host_key),
			cmocka_unit_test(test_identities),
			cmocka_unit_test(test_agent),
			cmocka_unit_test(test_frozen_server),
			cmocka_unit_test(test_idle_restart),
			cmocka_unit_test(test_connection_lost),
		};
		rc = cmocka_run_group_tests(tests, NULL, NULL);
	}
	local((const char *const[]){"rm", "-rf", tmpdir, NULL});
	return rc;
}
