/* exec.c: run a local command with an argv and capture its output
 * (exec.h). fork + execve of a path found in the parent: execvp is not
 * async-signal-safe, and a lookup in the parent can say "not found in
 * PATH" before anything is forked.
 *
 * Between fork and exec the child only calls sigaction, setpgid, dup2,
 * fcntl, close, the close_range system call, sigprocmask, execve, write
 * and _exit (all async-signal-safe; close_range is a plain system call).
 * Signals are blocked in the parent around fork so that none of the
 * caller's handlers can run in the child before it resets them. */
#include "core/strbuf.h"
#include "source/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* How often the parent checks, while the pipe is quiet, whether the child
 * has exited (a grandchild may keep the pipe open after it). */
#define POLL_TICK_MS 250
/* How long output is still read once the child has exited. */
#define AFTER_EXIT_MS 1000
/* Most fds the fallback loop closes in the child (without close_range). */
#define CLOSE_MAX_FD (1 << 20)

/* Error messages (core/strbuf.h). */
#define seterr oc_seterr

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

/* Whether path is a regular file this process may execute. */
static bool is_executable(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

int oc_exec_find(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	if (!*name) {
		seterr(err, errlen, "empty program name");
		return -1;
	}
	if (strchr(name, '/')) {
		if ((size_t)snprintf(path, len, "%s", name) >= len) {
			seterr(err, errlen, "%.64s...: path too long", name);
			return -1;
		}
		return 0;
	}
	char defpath[512];
	const char *search = getenv("PATH");
	if (!search) {
		size_t n = confstr(_CS_PATH, defpath, sizeof(defpath));
		if (n == 0 || n > sizeof(defpath))
			snprintf(defpath, sizeof(defpath), "/usr/bin:/bin");
		search = defpath;
	}
	for (const char *p = search; *p;) {
		const char *end = strchr(p, ':');
		size_t dlen = end ? (size_t)(end - p) : strlen(p);
		if (dlen > 0 && p[0] == '/' &&
		    (size_t)snprintf(path, len, "%.*s/%s", (int)dlen, p, name) < len && is_executable(path))
			return 0;
		p += dlen;
		if (*p == ':')
			p++;
	}
	/* Slurm's clients are often not in PATH: sudo's secure_path lacks
	 * ParallelCluster's /opt/slurm/bin, and AWS PCS gives its clients no
	 * PATH entry at all. Try the bin/ of the Slurm the console was built
	 * against, then ParallelCluster's. */
	static const char *const slurm_bins[] = {
#ifdef OC_SLURM_BINDIR
		OC_SLURM_BINDIR,
#endif
		"/opt/slurm/bin",
	};
	for (size_t i = 0; i < sizeof(slurm_bins) / sizeof(slurm_bins[0]); i++)
		if ((size_t)snprintf(path, len, "%s/%s", slurm_bins[i], name) < len && is_executable(path))
			return 0;
	seterr(err, errlen, "%s: not found in PATH (%s) nor in %s", name, search, slurm_bins[0]);
	return -1;
}

/* fd itself when it is above 2, else a close-on-exec copy above 2 (fd is
 * closed): the child's dup2 onto 0, 1, 2 then never meets its own
 * source. Returns the fd, or -1 with errno. */
static int fd_above2(int fd)
{
	if (fd > 2)
		return fd;
	int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	int e = errno;
	close(fd);
	errno = e;
	return nfd;
}

/* What the child needs, prepared in the parent (nothing to compute after
 * fork). */
struct child_args {
	const char *path;
	char *const *argv;
	int devnull, outw, errw, expw; /* all > 2, close-on-exec: stdout,
					 * stderr (may be outw), exec error */
	int maxfd;               /* fallback bound for closing fds */
	struct sigaction dfl;    /* SIG_DFL, empty mask */
	sigset_t empty;
};

/* In the child: only async-signal-safe calls. Never returns. */
static _Noreturn void child_run(const struct child_args *a)
{
	int e;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &a->dfl, NULL); /* EINVAL for libc-reserved ones: fine */
	setpgid(0, 0);
	if (dup2(a->devnull, 0) < 0 || dup2(a->outw, 1) < 0 || dup2(a->errw, 2) < 0)
		goto fail;
	/* The exec-error pipe goes to fd 3 (close-on-exec), all above it closes. */
	if (a->expw != 3) {
		if (dup2(a->expw, 3) < 0)
			goto fail_noreport;
		if (fcntl(3, F_SETFD, FD_CLOEXEC) < 0)
			goto fail;
	}
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 4U, ~0U, 0U) != 0)
#endif
		for (int fd = 4; fd < a->maxfd; fd++)
			close(fd);
	sigprocmask(SIG_SETMASK, &a->empty, NULL);
	execve(a->path, a->argv, environ);
fail:
	e = errno;
	if (write(3, &e, sizeof(e)) < 0) {
		/* nothing more to do */
	}
fail_noreport:
	_exit(127);
}

/* Whether the child has exited (without reaping it: its pid, which is its
 * process group, stays reserved until waitpid). */
static bool child_gone(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR; /* ECHILD: reaped behind our back (SIGCHLD ignored) */
	return si.si_pid == pid;
}

/* Reap pid. Returns waitpid's status, or -1 when it is lost (ECHILD). */
static int reap(pid_t pid)
{
	int st;
	for (;;) {
		pid_t r = waitpid(pid, &st, 0);
		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

/* Where one pipe's bytes go: a fixed buffer (cut at len - 1, the rest
 * read and dropped) or, with grow, a malloc'd buffer of any size. Always
 * NUL-terminated once it holds anything. */
struct sink {
	char *buf;
	size_t len;  /* fixed: size of buf; grow: allocated size */
	size_t used;
	bool grow;
	bool oom;    /* grow failed: the rest was dropped */
};

/* Room for at least one more read in a growing sink; false when full. */
static bool sink_room(struct sink *s)
{
	if (!s->grow)
		return s->buf && s->len > 0 && s->used < s->len - 1;
	if (s->oom)
		return false;
	if (s->len - s->used >= 4096)
		return true;
	size_t ncap = s->len ? s->len * 2 : 16384;
	char *nb = realloc(s->buf, ncap);
	if (!nb) {
		s->oom = true;
		return false;
	}
	s->buf = nb;
	s->len = ncap;
	return true;
}

/* Reads what is there on fd into the sink (what does not fit into a
 * scratch buffer that is dropped). Returns 1 while open, 0 at EOF (or on
 * an error: treated as EOF). */
static int drain(int fd, struct sink *s)
{
	char scratch[16384];
	/* Bounded, so that a command writing without pause still lets the
	 * caller look at its clock. */
	for (int i = 0; i < 64; i++) {
		char *dst = scratch;
		size_t room = sizeof(scratch);
		if (sink_room(s)) {
			dst = s->buf + s->used;
			room = s->len - 1 - s->used;
		}
		ssize_t n = read(fd, dst, room);
		if (n > 0) {
			if (dst != scratch) {
				s->used += (size_t)n;
				s->buf[s->used] = '\0';
			}
			continue;
		}
		if (n == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 1;
		return 0;
	}
	return 1;
}

/* Reads the exec-error pipe: sets *exec_errno when the child could not
 * exec. Returns 1 while open, 0 at EOF. */
static int read_exec_error(int fd, int *exec_errno)
{
	for (;;) {
		int e;
		ssize_t n = read(fd, &e, sizeof(e));
		if (n == (ssize_t)sizeof(e)) {
			*exec_errno = e ? e : EIO;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		return 0;
	}
}

/* The parent's ends and the child's ends of the pipes, -1 when closed. */
struct exec_fds {
	int devnull, outp[2], sep[2], errp[2];
};

/* Closes every fd that is still open (all paths that give up). */
static void exec_fds_close(struct exec_fds *f)
{
	close_fd(&f->devnull);
	close_fd(&f->outp[0]);
	close_fd(&f->outp[1]);
	close_fd(&f->sep[0]);
	close_fd(&f->sep[1]);
	close_fd(&f->errp[0]);
	close_fd(&f->errp[1]);
}

/* Opens /dev/null and the pipes, all above fd 2 and close-on-exec, the
 * parent's ends non-blocking; a separate stderr pipe only when sep. On
 * failure -1 with errno set and *what naming the step; the caller closes
 * what was opened. */
static int exec_fds_open(struct exec_fds *f, bool sep, const char **what)
{
	*what = "/dev/null";
	f->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (f->devnull < 0 || (f->devnull = fd_above2(f->devnull)) < 0)
		return -1;
	*what = "pipe";
	if (pipe2(f->outp, O_CLOEXEC) < 0)
		return -1;
	if ((f->outp[0] = fd_above2(f->outp[0])) < 0 || (f->outp[1] = fd_above2(f->outp[1])) < 0)
		return -1;
	if (sep) {
		if (pipe2(f->sep, O_CLOEXEC) < 0)
			return -1;
		if ((f->sep[0] = fd_above2(f->sep[0])) < 0 || (f->sep[1] = fd_above2(f->sep[1])) < 0)
			return -1;
		if (fcntl(f->sep[0], F_SETFL, O_NONBLOCK) < 0)
			return -1;
	}
	if (pipe2(f->errp, O_CLOEXEC) < 0)
		return -1;
	if ((f->errp[0] = fd_above2(f->errp[0])) < 0 || (f->errp[1] = fd_above2(f->errp[1])) < 0)
		return -1;
	if (fcntl(f->outp[0], F_SETFL, O_NONBLOCK) < 0 || fcntl(f->errp[0], F_SETFL, O_NONBLOCK) < 0)
		return -1;
	return 0;
}

/* Forks the child with all signals blocked around fork, then closes the
 * child's ends in the parent. The child's pid, or -1 with errno from
 * fork. */
static pid_t exec_spawn(const char *path, const char *const argv[], struct exec_fds *f, bool sep)
{
	struct child_args ca = {
		.path = path,
		.argv = (char *const *)argv,
		.devnull = f->devnull,
		.outw = f->outp[1],
		.errw = sep ? f->sep[1] : f->outp[1],
		.expw = f->errp[1],
		.maxfd = CLOSE_MAX_FD,
	};
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < CLOSE_MAX_FD)
		ca.maxfd = (int)rl.rlim_cur;
	memset(&ca.dfl, 0, sizeof(ca.dfl));
	ca.dfl.sa_handler = SIG_DFL;
	sigemptyset(&ca.dfl.sa_mask);
	sigemptyset(&ca.empty);

	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t pid = fork();
	if (pid == 0)
		child_run(&ca);
	int fork_errno = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close_fd(&f->devnull);
	close_fd(&f->outp[1]);
	close_fd(&f->sep[1]);
	close_fd(&f->errp[1]);
	errno = fork_errno;
	return pid;
}

/* How the read loop ended. */
struct exec_wait {
	int exec_errno;
	bool timed_out, killed;
};

/* One poll over the parent's open ends, draining what is ready. Whether
 * the loop goes on; false when poll failed (the group is then killed). */
static bool exec_poll_once(pid_t pid, struct exec_fds *f, struct sink *out, struct sink *errs, int wait_ms,
			   bool *exited, int64_t *exited_at, struct exec_wait *w)
{
	struct pollfd fds[3];
	nfds_t nfds = 0;
	if (f->outp[0] >= 0)
		fds[nfds++] = (struct pollfd){.fd = f->outp[0], .events = POLLIN};
	if (f->sep[0] >= 0)
		fds[nfds++] = (struct pollfd){.fd = f->sep[0], .events = POLLIN};
	if (f->errp[0] >= 0)
		fds[nfds++] = (struct pollfd){.fd = f->errp[0], .events = POLLIN};
	int r = poll(fds, nfds, wait_ms);
	if (r < 0) {
		if (errno == EINTR)
			return true;
		kill(-pid, SIGKILL);
		w->killed = true;
		return false;
	}
	if (r == 0) {
		if (!*exited && child_gone(pid)) {
			*exited = true;
			*exited_at = now_ms();
		}
		return true;
	}
	for (nfds_t i = 0; i < nfds; i++) {
		if (!fds[i].revents)
			continue;
		if (fds[i].fd == f->outp[0]) {
			if (!drain(f->outp[0], out))
				close_fd(&f->outp[0]);
		} else if (fds[i].fd == f->sep[0]) {
			if (!drain(f->sep[0], errs))
				close_fd(&f->sep[0]);
		} else if (!read_exec_error(f->errp[0], &w->exec_errno)) {
			close_fd(&f->errp[0]);
		}
	}
	return true;
}

/* Reads the child's output until all pipes close, the timeout (SIGTERM,
 * then SIGKILL after the grace) or a while after the child exited. Closes
 * the parent's ends. */
static void exec_wait_output(pid_t pid, int timeout_s, struct exec_fds *f, struct sink *out, struct sink *errs,
			     struct exec_wait *w)
{
	bool exited = false;
	int64_t deadline = timeout_s > 0 ? now_ms() + (int64_t)timeout_s * 1000 : -1;
	int64_t exited_at = 0;
	while (f->outp[0] >= 0 || f->sep[0] >= 0 || f->errp[0] >= 0) {
		int64_t now = now_ms();
		int wait_ms = POLL_TICK_MS;
		if (deadline >= 0) {
			if (now >= deadline) {
				if (!w->timed_out) {
					w->timed_out = true;
					kill(-pid, SIGTERM);
					deadline = now + OC_EXEC_KILL_GRACE_S * 1000;
					continue;
				}
				kill(-pid, SIGKILL);
				w->killed = true;
				break;
			}
			if (deadline - now < wait_ms)
				wait_ms = (int)(deadline - now);
		}
		if (exited && now - exited_at >= AFTER_EXIT_MS)
			break; /* a grandchild keeps the pipe open: stop reading */
		if (!exec_poll_once(pid, f, out, errs, wait_ms, &exited, &exited_at, w))
			break;
	}
	close_fd(&f->outp[0]);
	close_fd(&f->sep[0]);
	close_fd(&f->errp[0]);
}

/* *exit_status and err from the wait status st (reap()) and how the wait
 * ended. */
static void exec_report(int st, const struct exec_wait *w, int timeout_s, int *exit_status, char *err,
			size_t errlen)
{
	if (w->timed_out) {
		*exit_status = OC_EXEC_TIMED_OUT;
		seterr(err, errlen, "timed out after %d s: killed (%s)", timeout_s,
		       w->killed ? "SIGKILL" : "SIGTERM");
	} else if (st == -1) {
		*exit_status = OC_EXEC_SIGNALED;
		seterr(err, errlen, "exit status lost (SIGCHLD ignored?)");
	} else if (WIFEXITED(st)) {
		*exit_status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		*exit_status = OC_EXEC_SIGNALED;
		seterr(err, errlen, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	} else {
		*exit_status = OC_EXEC_SIGNALED;
		seterr(err, errlen, "ended with wait status %#x", (unsigned)st);
	}
}

/* Runs argv with its stdout into out and its stderr into errs (NULL:
 * into out too, in the order written). The contract of oc_exec. */
static int exec_core(const char *const argv[], int timeout_s, struct sink *out, struct sink *errs,
		     int *exit_status, char *err, size_t errlen)
{
	*exit_status = -1;
	if (err && errlen)
		err[0] = '\0';
	if (!argv || !argv[0]) {
		seterr(err, errlen, "no command to run");
		return -1;
	}
	char path[PATH_MAX];
	if (oc_exec_find(argv[0], path, sizeof(path), err, errlen) < 0)
		return -1;

	struct exec_fds f = {-1, {-1, -1}, {-1, -1}, {-1, -1}};
	const char *what = "/dev/null";
	if (exec_fds_open(&f, errs != NULL, &what) < 0)
		goto sys_fail;
	pid_t pid = exec_spawn(path, argv, &f, errs != NULL);
	if (pid < 0) {
		what = "fork";
		goto sys_fail;
	}
	setpgid(pid, pid); /* also done by the child: whichever runs first */

	struct exec_wait w = {0};
	exec_wait_output(pid, timeout_s, &f, out, errs, &w);
	/* After a timeout, what is left of the group goes too (the child is
	 * not reaped yet, so its process group id cannot have been reused). */
	if (w.timed_out && !w.killed)
		kill(-pid, SIGKILL);
	int st = reap(pid);

	if (w.exec_errno) {
		seterr(err, errlen, "cannot run %s: %s", path, strerror(w.exec_errno));
		return -1;
	}
	exec_report(st, &w, timeout_s, exit_status, err, errlen);
	return 0;

sys_fail:;
	int e = errno;
	exec_fds_close(&f);
	seterr(err, errlen, "%s: %s", what, strerror(e));
	return -1;
}

/* Runs argv and captures its output (exec.h). */
int oc_exec(const char *const argv[], int timeout_s, char *out, size_t outlen, int *exit_status, char *err,
	    size_t errlen)
{
	int status_dummy;
	if (!exit_status)
		exit_status = &status_dummy;
	if (out && outlen)
		out[0] = '\0';
	struct sink s = {.buf = out, .len = out ? outlen : 0};
	return exec_core(argv, timeout_s, &s, NULL, exit_status, err, errlen);
}

/* A growing sink's buffer as a NUL-terminated malloc'd string ("" when
 * nothing came). NULL on ENOMEM. */
static char *sink_take(struct sink *s, size_t *len)
{
	if (!s->buf) {
		*len = 0;
		return calloc(1, 1);
	}
	*len = s->used;
	s->buf[s->used] = '\0';
	char *b = s->buf;
	s->buf = NULL;
	return b;
}

int oc_exec_run(const char *const argv[], int timeout_s, struct oc_run_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	struct sink so = {.grow = true}, se = {.grow = true};
	int rc = exec_core(argv, timeout_s, &so, &se, &r->exit_status, err, errlen);
	bool oom = so.oom || se.oom;
	r->out = sink_take(&so, &r->out_len);
	r->errout = sink_take(&se, &r->err_len);
	if (!r->out || !r->errout || oom) {
		seterr(err, errlen, "%s: out of memory for its output", argv && argv[0] ? argv[0] : "command");
		return -1;
	}
	return rc;
}
