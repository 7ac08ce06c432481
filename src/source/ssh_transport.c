/* ssh_transport.c: the SSH transport of transport.h, with libssh (0.10).
 *
 * One session per transport, guarded by a mutex (the collector and the
 * action worker share it); one channel per command. The command line is
 * oc_shquote_argv(argv): the only builder of command strings.
 *
 * - Host keys: ssh_session_is_known_server against the known_hosts file
 *   (the target's, else ~/.ssh/known_hosts). An unknown key is refused
 *   with its type and SHA256 fingerprint and how to add it, unless
 *   accept_new_host_key (then it is written with
 *   ssh_session_update_known_hosts); a changed key is always refused.
 * - Auth: the target's identity file (never a passphrase prompt), else the
 *   agent and the default keys (ssh_userauth_publickey_auto). No passwords.
 * - A lost connection (a read or write fails, the server goes away, the
 *   kernel gives up on unacknowledged data: TCP keepalive and
 *   TCP_USER_TIMEOUT, with SSH_MSG_IGNORE sent while a command is silent)
 *   makes run return -1 "ssh U@H:P: connection lost: ...". The next run
 *   reconnects with the same checks; when that fails, the runs that follow
 *   return -1 at once ("reconnecting in N s") until the backoff (1, 2, 4
 *   ... 30 s) has passed. */
#include "source/transport.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include "core/datafiles.h"
#include "core/shquote.h"
#include "source/exec.h"

#define SSH_T_BACKOFF_MAX_S 30
/* The local deadline of a command that has a timeout: this long after the
 * remote timeout(1) sent TERM (its KILL 2 s later happens on the host
 * whether or not the transport still waits). */
#define SSH_T_REMOTE_GRACE_S 1
#define SSH_T_SLICE_MS 100        /* one wait for output */
#define SSH_T_READ_CHUNK 65536
#define SSH_T_IGNORE_AFTER_S 10   /* a silent command: send SSH_MSG_IGNORE this often */
#define SSH_T_TCP_USER_TIMEOUT_MS 20000 /* unacknowledged data: the kernel drops the connection */
#define SSH_T_TCP_KEEPIDLE_S 15
#define SSH_T_TCP_KEEPINTVL_S 5
#define SSH_T_TCP_KEEPCNT 3
#define SSH_T_ERRLEN 1536        /* one reason, without the "ssh U@H:P: " prefix */

/* What one command's channel reported through the callbacks. */
struct ssh_t_exit {
	bool has_status;
	int status;
	bool has_signal;
	char signal[32];
};

struct ssh_t {
	struct oc_transport base;
	pthread_mutex_t lock;
	char host[256];
	char user[64];
	int port;
	char identity[4096];    /* expanded path, "" = agent and default keys */
	char known_hosts[4096]; /* expanded path */
	bool accept_new;
	int connect_timeout_s;
	char desc[400];         /* "ssh user@host:port" */
	char hostport[300];     /* "host" or "[host]:port", as known_hosts writes it */
	struct ssh_callbacks_struct cb;
	ssh_session session;    /* NULL while disconnected */
	/* while disconnected: */
	double retry_at;        /* monotonic seconds; the next connect not before */
	int backoff_s;          /* the wait after the next failed connect */
	char lost[SSH_T_ERRLEN]; /* why the connection was lost or the last connect failed */
	/* The data agent's channel (ssh_t_ask), NULL when none runs; it
	 * belongs to session and goes with it. */
	ssh_channel agent_ch;
	char *agent_line;       /* the command line it was started with */
	struct ssh_t_exit agent_exit;
	struct ssh_channel_callbacks_struct agent_cb;
};

/* A growing output buffer. */
struct ssh_t_buf {
	char *p;
	size_t len, cap;
};

static pthread_once_t ssh_t_once = PTHREAD_ONCE_INIT;
static int ssh_t_init_rc;

static void ssh_t_init(void)
{
	ssh_t_init_rc = ssh_init();
}

static double ssh_t_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Never ask for a passphrase (there is no terminal to ask on). */
static int ssh_t_no_prompt(const char *prompt, char *buf, size_t len, int echo, int verify, void *userdata)
{
	(void)prompt;
	(void)buf;
	(void)len;
	(void)echo;
	(void)verify;
	if (userdata)
		*(bool *)userdata = true;
	return -1;
}

/* "~/x" -> "$HOME/x" (HOME unset: the passwd entry). Returns 0, or -1 when
 * it does not fit. */
static int ssh_t_expand(const char *in, char *out, size_t outlen)
{
	if (in[0] != '~' || (in[1] != '/' && in[1] != '\0')) {
		int n = snprintf(out, outlen, "%s", in);
		return n >= 0 && (size_t)n < outlen ? 0 : -1;
	}
	const char *home = getenv("HOME");
	char pwbuf[4096];
	struct passwd pw, *res = NULL;
	if ((!home || !home[0]) && getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &res) == 0 && res)
		home = res->pw_dir;
	if (!home)
		home = "/";
	int n = snprintf(out, outlen, "%s%s", home, in + 1);
	return n >= 0 && (size_t)n < outlen ? 0 : -1;
}

/* The type and SHA256 fingerprint of the server's key: "ssh-ed25519
 * SHA256:...". Returns 0, or -1 with what went wrong in out. */
static int ssh_t_server_key(ssh_session s, char *out, size_t outlen, char *type, size_t typelen)
{
	ssh_key key = NULL;
	unsigned char *hash = NULL;
	size_t hlen = 0;
	if (ssh_get_server_publickey(s, &key) != SSH_OK) {
		oc_seterr(out, outlen, "cannot read the server's host key: %s", ssh_get_error(s));
		return -1;
	}
	const char *t = ssh_key_type_to_char(ssh_key_type(key));
	oc_seterr(type, typelen, "%s", t ? t : "unknown");
	int rc = ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hlen);
	ssh_key_free(key);
	if (rc != 0) {
		oc_seterr(out, outlen, "cannot hash the server's host key");
		return -1;
	}
	char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hlen);
	ssh_clean_pubkey_hash(&hash);
	if (!fp) {
		oc_seterr(out, outlen, "cannot format the host key's fingerprint");
		return -1;
	}
	oc_seterr(out, outlen, "%s", fp);
	ssh_string_free_char(fp);
	return 0;
}

/* The host key check. Returns 0 (known, or unknown and now added), or -1
 * with the reason in err. */
static int ssh_t_check_host(struct ssh_t *st, ssh_session s, char *err, size_t errlen)
{
	char fp[256], type[64];
	if (ssh_t_server_key(s, fp, sizeof(fp), type, sizeof(type)) < 0) {
		oc_seterr(err, errlen, "%s", fp);
		return -1;
	}
	char keyscan_port[32] = "";
	if (st->port != 22)
		snprintf(keyscan_port, sizeof(keyscan_port), "-p %d ", st->port);
	enum ssh_known_hosts_e k = ssh_session_is_known_server(s);
	switch (k) {
	case SSH_KNOWN_HOSTS_OK:
		return 0;
	case SSH_KNOWN_HOSTS_CHANGED:
	case SSH_KNOWN_HOSTS_OTHER:
		oc_seterr(err, errlen,
			        "host key for %s has CHANGED (the server offers %s %s, %s holds %s): refused, "
			        "someone may be intercepting the connection (or the host was reinstalled: then "
			        "check the new fingerprint and remove the old key with ssh-keygen -R '%s' -f %s)",
			        st->hostport, type, fp, st->known_hosts,
			        k == SSH_KNOWN_HOSTS_OTHER ? "a key of another type" : "another key", st->hostport,
			        st->known_hosts);
		return -1;
	case SSH_KNOWN_HOSTS_UNKNOWN:
	case SSH_KNOWN_HOSTS_NOT_FOUND:
		if (st->accept_new) {
			if (ssh_session_update_known_hosts(s) != SSH_OK) {
				oc_seterr(err, errlen, "cannot add the host key for %s to %s: %s", st->hostport,
					        st->known_hosts, ssh_get_error(s));
				return -1;
			}
			return 0;
		}
		oc_seterr(err, errlen,
			        "host key for %s is not known (%s %s, not in %s): refused; check the fingerprint "
			        "with the host's admin, then add it (ssh-keyscan %s%s >> %s) or set "
			        "\"accept_new_host_key\": true in the profile",
			        st->hostport, type, fp, st->known_hosts, keyscan_port, st->host, st->known_hosts);
		return -1;
	case SSH_KNOWN_HOSTS_ERROR:
	default:
		oc_seterr(err, errlen, "cannot check the host key for %s against %s: %s", st->hostport,
			        st->known_hosts, ssh_get_error(s));
		return -1;
	}
}

/* Public key authentication. Returns 0, or -1 with err. */
static int ssh_t_auth(struct ssh_t *st, ssh_session s, char *err, size_t errlen)
{
	if (st->identity[0]) {
		if (access(st->identity, R_OK) != 0) {
			oc_seterr(err, errlen, "identity %s: cannot read: %s", st->identity, strerror(errno));
			return -1;
		}
		bool asked = false;
		ssh_key key = NULL;
		if (ssh_pki_import_privkey_file(st->identity, NULL, ssh_t_no_prompt, &asked, &key) != SSH_OK) {
			if (asked)
				oc_seterr(err, errlen,
					        "identity %s needs a passphrase and opsconsole never asks for one: "
					        "load it into the agent (ssh-add %s) and leave \"identity\" empty",
					        st->identity, st->identity);
			else
				oc_seterr(err, errlen, "identity %s: not a private key libssh can read",
					        st->identity);
			return -1;
		}
		int rc = ssh_userauth_publickey(s, NULL, key);
		ssh_key_free(key);
		if (rc == SSH_AUTH_SUCCESS)
			return 0;
		if (rc == SSH_AUTH_ERROR)
			oc_seterr(err, errlen, "authentication failed: %s", ssh_get_error(s));
		else
			oc_seterr(err, errlen, "the server refused the key %s for %s (publickey)", st->identity,
				        st->user);
		return -1;
	}
	int rc = ssh_userauth_publickey_auto(s, NULL, NULL);
	if (rc == SSH_AUTH_SUCCESS)
		return 0;
	if (rc == SSH_AUTH_ERROR)
		oc_seterr(err, errlen, "authentication failed: %s", ssh_get_error(s));
	else
		oc_seterr(err, errlen,
			        "no key accepted for %s: neither the agent's nor ~/.ssh/id_* (passwords are never "
			        "used; name a key with \"identity\")",
			        st->user);
	return -1;
}

/* Keepalive and a bound on unacknowledged data, so that a vanished
 * network ends the session instead of hanging it. Best effort. */
static void ssh_t_tcp_options(ssh_session s)
{
	socket_t fd = ssh_get_fd(s);
	if (fd < 0)
		return;
	int on = 1, idle = SSH_T_TCP_KEEPIDLE_S, intvl = SSH_T_TCP_KEEPINTVL_S, cnt = SSH_T_TCP_KEEPCNT;
	unsigned int user_timeout = SSH_T_TCP_USER_TIMEOUT_MS;
	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout, sizeof(user_timeout));
}

/* A new, checked, authenticated session into st->session. Returns 0, or
 * -1 with err (without the "ssh U@H:P: " prefix). */
static int ssh_t_connect(struct ssh_t *st, char *err, size_t errlen)
{
	ssh_session s = ssh_new();
	if (!s) {
		oc_seterr(err, errlen, "out of memory");
		return -1;
	}
	unsigned int port = (unsigned int)st->port;
	long timeout = st->connect_timeout_s;
	int no = 0, yes = 1;
	if (ssh_options_set(s, SSH_OPTIONS_HOST, st->host) < 0 || ssh_options_set(s, SSH_OPTIONS_PORT, &port) < 0 ||
	    ssh_options_set(s, SSH_OPTIONS_USER, st->user) < 0 ||
	    ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &timeout) < 0 ||
	    ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &no) < 0 ||
	    ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, st->known_hosts) < 0 ||
	    ssh_options_set(s, SSH_OPTIONS_NODELAY, &yes) < 0) {
		oc_seterr(err, errlen, "bad SSH options: %s", ssh_get_error(s));
		ssh_free(s);
		return -1;
	}
	ssh_set_callbacks(s, &st->cb);
	if (ssh_connect(s) != SSH_OK) {
		oc_seterr(err, errlen, "cannot connect: %s", ssh_get_error(s));
		ssh_free(s);
		return -1;
	}
	ssh_t_tcp_options(s);
	if (ssh_t_check_host(st, s, err, errlen) < 0 || ssh_t_auth(st, s, err, errlen) < 0) {
		ssh_disconnect(s);
		ssh_free(s);
		return -1;
	}
	st->session = s;
	st->backoff_s = 1;
	st->lost[0] = '\0';
	return 0;
}

/* Forget the session after a loss; the next run may reconnect at once. */
static void ssh_t_drop(struct ssh_t *st, const char *why)
{
	st->agent_ch = NULL; /* freed with the session */
	if (st->session) {
		ssh_disconnect(st->session);
		ssh_free(st->session);
		st->session = NULL;
	}
	snprintf(st->lost, sizeof(st->lost), "%s", why);
	st->retry_at = 0;
	if (st->backoff_s < 1)
		st->backoff_s = 1;
}

static void ssh_t_exit_status_cb(ssh_session s, ssh_channel ch, int status, void *userdata)
{
	(void)s;
	(void)ch;
	struct ssh_t_exit *x = userdata;
	x->has_status = true;
	x->status = status;
}

/* The agent's channel: what a channel reports counts only while it is
 * the agent's (a stopped one may still report its end). */
static void ssh_t_agent_status_cb(ssh_session s, ssh_channel ch, int status, void *userdata)
{
	struct ssh_t *st = userdata;
	if (ch == st->agent_ch)
		ssh_t_exit_status_cb(s, ch, status, &st->agent_exit);
}

static void ssh_t_exit_signal_cb(ssh_session s, ssh_channel ch, const char *sig, int core, const char *msg,
				 const char *lang, void *userdata)
{
	(void)s;
	(void)ch;
	(void)core;
	(void)msg;
	(void)lang;
	struct ssh_t_exit *x = userdata;
	x->has_signal = true;
	snprintf(x->signal, sizeof(x->signal), "%s", sig ? sig : "?");
}

static void ssh_t_agent_signal_cb(ssh_session s, ssh_channel ch, const char *sig, int core, const char *msg,
				  const char *lang, void *userdata)
{
	struct ssh_t *st = userdata;
	if (ch == st->agent_ch)
		ssh_t_exit_signal_cb(s, ch, sig, core, msg, lang, &st->agent_exit);
}

/* Reads what is there of one stream into b. Returns bytes read (0:
 * none now), -1 on a session error, -2 when out of memory. */
/* The exit status the server sent for the channel's command, -1 when it sent
 * none (or only a signal). libssh 0.11 deprecates ssh_channel_get_exit_status
 * for ssh_channel_get_exit_state. */
static int ssh_t_exit_status(ssh_channel ch)
{
#if LIBSSH_VERSION_INT >= SSH_VERSION_INT(0, 11, 0)
	uint32_t code = 0;
	char *sig = NULL;
	int core = 0;
	int rc = ssh_channel_get_exit_state(ch, &code, &sig, &core);
	bool signaled = sig != NULL;
	if (sig)
		ssh_string_free_char(sig);
	if (rc != SSH_OK || signaled || code > INT32_MAX)
		return -1;
	return (int)code;
#else
	return ssh_channel_get_exit_status(ch);
#endif
}

static long ssh_t_drain(ssh_channel ch, int is_stderr, struct ssh_t_buf *b)
{
	long total = 0;
	for (;;) {
		if (b->cap - b->len < SSH_T_READ_CHUNK + 1) {
			size_t cap = b->cap ? b->cap * 2 : 4 * SSH_T_READ_CHUNK;
			char *p = cap > b->cap ? realloc(b->p, cap) : NULL;
			if (!p)
				return -2;
			b->p = p;
			b->cap = cap;
		}
		int n = ssh_channel_read_nonblocking(ch, b->p + b->len, SSH_T_READ_CHUNK, is_stderr);
		if (n == SSH_ERROR)
			return -1;
		if (n <= 0) /* 0, or SSH_EOF */
			return total;
		b->len += (size_t)n;
		total += n;
	}
}

/* Moves b into *out and *len, NUL-terminated (an empty malloc'd string when
 * nothing came). Returns 0, or -1 on ENOMEM. */
static int ssh_t_take(struct ssh_t_buf *b, char **out, size_t *len)
{
	if (!b->p) {
		b->p = malloc(1);
		if (!b->p)
			return -1;
	}
	b->p[b->len] = '\0';
	*out = b->p;
	*len = b->len;
	b->p = NULL;
	b->len = b->cap = 0;
	return 0;
}

enum ssh_t_outcome {
	SSH_T_DONE = 0,      /* ran: *r filled */
	SSH_T_FAILED = -1,   /* not run, the session is fine (err) */
	SSH_T_LOST = -2,     /* the session broke once the command may have been sent (err) */
	SSH_T_UNSENT = -3,   /* the session broke before the command was sent: no channel (err) */
};

/* Opens a channel on s with the callbacks ccb (which must outlive it) and
 * sends line. SSH_T_DONE with *chp, else the channel is freed. */
static enum ssh_t_outcome ssh_t_start(ssh_session s, struct ssh_channel_callbacks_struct *ccb, const char *line,
				      bool eof, ssh_channel *chp, char *err, size_t errlen)
{
	ssh_channel ch = ssh_channel_new(s);
	if (!ch) {
		oc_seterr(err, errlen, "cannot make a channel: %s", ssh_get_error(s));
		return SSH_T_UNSENT;
	}
	ssh_set_channel_callbacks(ch, ccb);
	if (ssh_channel_open_session(ch) != SSH_OK) {
		oc_seterr(err, errlen, "%s", ssh_get_error(s));
		ssh_channel_free(ch);
		return SSH_T_UNSENT;
	}
	/* From here on the server may have the command: never run it twice. */
	if (ssh_channel_request_exec(ch, line) != SSH_OK) {
		oc_seterr(err, errlen, "%s", ssh_get_error(s));
		ssh_channel_free(ch);
		return SSH_T_LOST;
	}
	if (eof)
		(void)ssh_channel_send_eof(ch);
	*chp = ch;
	return SSH_T_DONE;
}

/* Reads the command's stdout and stderr until EOF or the timeout
 * (*timed_out, still SSH_T_DONE), sending keepalives while it is quiet. */
static enum ssh_t_outcome ssh_t_read(ssh_session s, ssh_channel ch, int timeout_s, struct ssh_t_buf *out,
				     struct ssh_t_buf *errb, bool *timed_out, char *err, size_t errlen)
{
	double start = ssh_t_now(), last_io = start;
	double deadline = timeout_s > 0 ? start + timeout_s : 0;
	for (;;) {
		long a = ssh_t_drain(ch, 0, out);
		long b = a < 0 ? a : ssh_t_drain(ch, 1, errb);
		if (a < 0 || b < 0) {
			if (a == -2 || b == -2) {
				oc_seterr(err, errlen, "output too large: out of memory");
				return SSH_T_FAILED;
			}
			oc_seterr(err, errlen, "%s", ssh_get_error(s));
			return SSH_T_LOST;
		}
		double now = ssh_t_now();
		if (a + b > 0)
			last_io = now;
		if (ssh_channel_is_eof(ch))
			return SSH_T_DONE;
		if (deadline > 0 && now >= deadline) {
			*timed_out = true;
			return SSH_T_DONE;
		}
		if (now - last_io >= SSH_T_IGNORE_AFTER_S) {
			(void)ssh_send_ignore(s, "keepalive");
			last_io = now;
		}
		int slice = SSH_T_SLICE_MS;
		if (deadline > 0 && (deadline - now) * 1000 < slice)
			slice = (int)((deadline - now) * 1000) + 1;
		if (ssh_channel_poll_timeout(ch, slice, 0) == SSH_ERROR) {
			oc_seterr(err, errlen, "%s", ssh_get_error(s));
			return SSH_T_LOST;
		}
	}
}

/* After the output was read: r->exit_status and err from the exit status
 * or signal the server sent, or from the timeout. */
static enum ssh_t_outcome ssh_t_outcome_of(ssh_session s, ssh_channel ch, const struct ssh_t_exit *x,
					   bool timed_out, int timeout_s, struct oc_run_result *r, char *err,
					   size_t errlen)
{
	if (timed_out) {
		/* sshd signals the command's process group (OpenSSH >= 7.9, not in root
		 * sessions: docs/ssh.md); then close */
		(void)ssh_channel_request_send_signal(ch, "TERM");
		r->exit_status = OC_EXEC_TIMED_OUT;
		oc_seterr(err, errlen, "timed out after %d s", timeout_s);
		return SSH_T_DONE;
	}
	int status = ssh_t_exit_status(ch);
	if (x->has_status || status >= 0) {
		r->exit_status = x->has_status ? x->status : status;
		if (err && errlen)
			err[0] = '\0';
	} else if (x->has_signal) {
		r->exit_status = OC_EXEC_SIGNALED;
		oc_seterr(err, errlen, "killed by signal SIG%s", x->signal);
	} else if (!ssh_is_connected(s)) {
		oc_seterr(err, errlen, "%s", ssh_get_error(s));
		return SSH_T_LOST;
	} else {
		r->exit_status = OC_EXEC_SIGNALED;
		oc_seterr(err, errlen, "ended without an exit status");
	}
	return SSH_T_DONE;
}

/* Runs line on a new channel of st->session. */
static enum ssh_t_outcome ssh_t_exec(struct ssh_t *st, const char *line, int timeout_s, struct oc_run_result *r,
				     char *err, size_t errlen)
{
	ssh_session s = st->session;
	struct ssh_t_exit x = {0};
	struct ssh_channel_callbacks_struct ccb = {
		.userdata = &x,
		.channel_exit_status_function = ssh_t_exit_status_cb,
		.channel_exit_signal_function = ssh_t_exit_signal_cb,
	};
	ssh_callbacks_init(&ccb);
	ssh_channel ch = NULL;
	enum ssh_t_outcome rc = ssh_t_start(s, &ccb, line, true, &ch, err, errlen);
	if (rc != SSH_T_DONE)
		return rc;

	struct ssh_t_buf out = {0}, errb = {0};
	bool timed_out = false;
	rc = ssh_t_read(s, ch, timeout_s, &out, &errb, &timed_out, err, errlen);
	if (rc == SSH_T_DONE)
		rc = ssh_t_outcome_of(s, ch, &x, timed_out, timeout_s, r, err, errlen);
	if (rc == SSH_T_DONE && (ssh_t_take(&out, &r->out, &r->out_len) < 0 ||
				 ssh_t_take(&errb, &r->errout, &r->err_len) < 0)) {
		oc_seterr(err, errlen, "out of memory");
		rc = SSH_T_FAILED;
	}
	free(out.p);
	free(errb.p);
	if (rc != SSH_T_LOST)
		(void)ssh_channel_close(ch);
	ssh_channel_free(ch);
	return rc;
}

/* Reconnects when allowed. Returns 0 with a session, or -1 with err
 * (prefixed). */
static int ssh_t_ensure(struct ssh_t *st, char *err, size_t errlen)
{
	if (st->session)
		return 0;
	double now = ssh_t_now();
	if (now < st->retry_at) {
		int wait = (int)(st->retry_at - now + 0.999);
		oc_seterr(err, errlen, "%s: connection lost: %s; reconnecting in %d s", st->desc, st->lost,
			        wait < 1 ? 1 : wait);
		return -1;
	}
	char why[SSH_T_ERRLEN];
	if (ssh_t_connect(st, why, sizeof(why)) == 0)
		return 0;
	int wait = st->backoff_s < 1 ? 1 : st->backoff_s;
	st->retry_at = ssh_t_now() + wait;
	st->backoff_s = wait * 2 > SSH_T_BACKOFF_MAX_S ? SSH_T_BACKOFF_MAX_S : wait * 2;
	snprintf(st->lost, sizeof(st->lost), "%s", why);
	oc_seterr(err, errlen, "%s: connection lost: %s; reconnecting in %d s", st->desc, why, wait);
	return -1;
}

static int ssh_t_run(struct oc_transport *t, const char *const argv[], int timeout_s, struct oc_run_result *r,
		     char *err, size_t errlen)
{
	struct ssh_t *st = (struct ssh_t *)t;
	memset(r, 0, sizeof(*r));
	if (err && errlen)
		err[0] = '\0';
	/* The remote side enforces the timeout too: sshd ignores signal
	 * requests in root sessions, so without this a timed-out command
	 * (a hung nvidia-smi, an scontrol waiting on a dead slurmctld)
	 * would keep running on the host. coreutils' timeout signals the
	 * command's whole process group, then KILLs it 2 s later; the
	 * local deadline, 1 s later, is the backstop for a frozen host. */
	char secs[16];
	size_t argc = 0;
	while (argv && argv[argc])
		argc++;
	const char **wrapped = NULL;
	const char *const *use = argv;
	if (timeout_s > 0 && argc > 0) {
		wrapped = calloc(argc + 5, sizeof(*wrapped));
		if (!wrapped) {
			oc_seterr(err, errlen, "%s: out of memory", st->desc);
			return -1;
		}
		snprintf(secs, sizeof(secs), "%ds", timeout_s);
		wrapped[0] = "timeout";
		wrapped[1] = "-k";
		wrapped[2] = "2";
		wrapped[3] = secs;
		memcpy(wrapped + 4, argv, argc * sizeof(*wrapped));
		use = wrapped;
	}
	char *line = oc_shquote_argv(use);
	free(wrapped);
	if (!line) {
		oc_seterr(err, errlen, "%s: %s", st->desc, argv && argv[0] ? "out of memory" : "no command");
		return -1;
	}
	pthread_mutex_lock(&st->lock);
	int ret = -1;
	for (int attempt = 0; attempt < 2; attempt++) {
		bool fresh = !st->session;
		if (ssh_t_ensure(st, err, errlen) < 0)
			break;
		char why[SSH_T_ERRLEN] = "";
		double t0 = ssh_t_now();
		enum ssh_t_outcome o =
			ssh_t_exec(st, line, timeout_s > 0 ? timeout_s + SSH_T_REMOTE_GRACE_S : 0, r, why, sizeof(why));
		if (o == SSH_T_DONE && timeout_s > 0 && (r->exit_status == 124 || r->exit_status == 137) &&
		    ssh_t_now() - t0 >= timeout_s - 0.5) {
			/* the remote timeout(1) ended it */
			r->exit_status = OC_EXEC_TIMED_OUT;
			snprintf(why, sizeof(why), "timed out after %d s", timeout_s);
		} else if (o == SSH_T_DONE && r->exit_status == OC_EXEC_TIMED_OUT) {
			snprintf(why, sizeof(why), "timed out after %d s", timeout_s);
		}
		if (o == SSH_T_DONE) {
			oc_seterr(err, errlen, "%s", why);
			ret = 0;
			break;
		}
		if (o == SSH_T_FAILED) {
			oc_seterr(err, errlen, "%s: %s", st->desc, why);
			break;
		}
		ssh_t_drop(st, why[0] ? why : "the session ended");
		oc_seterr(err, errlen, "%s: connection lost: %s", st->desc, st->lost);
		/* A session that died while idle (the server restarted): the
		 * command was not sent, so one new session may run it now. */
		if (o == SSH_T_LOST || fresh)
			break;
	}
	pthread_mutex_unlock(&st->lock);
	free(line);
	if (ret < 0)
		oc_run_result_clear(r);
	return ret;
}


/* ---- the data agent: one command kept running on its own channel ------ */

/* Stop the agent's channel (it ends the remote command with its stdin). */
static void ssh_t_agent_stop(struct ssh_t *st)
{
	if (st->agent_ch) {
		(void)ssh_channel_send_eof(st->agent_ch);
		(void)ssh_channel_close(st->agent_ch);
		ssh_channel_free(st->agent_ch);
		st->agent_ch = NULL;
	}
}

/* Whether b ends with the line end ("...\nEND\n", or "END\n" alone). */
static bool ssh_t_ends_with_line(const struct ssh_t_buf *b, const char *end)
{
	size_t n = strlen(end);
	if (b->len < n + 1 || b->p[b->len - 1] != '\n' || memcmp(b->p + b->len - 1 - n, end, n) != 0)
		return false;
	return b->len == n + 1 || b->p[b->len - n - 2] == '\n';
}

/* Writes req to the agent and reads its answer up to the line end. */
static enum ssh_t_outcome ssh_t_agent_talk(struct ssh_t *st, const char *req, const char *end, int timeout_s,
					   struct oc_run_result *r, char *err, size_t errlen)
{
	ssh_session s = st->session;
	ssh_channel ch = st->agent_ch;
	size_t len = strlen(req);
	bool timed_out = false, ended = false;
	if (ssh_channel_write(ch, req, (uint32_t)len) != (int)len) {
		if (!ssh_is_connected(s)) {
			oc_seterr(err, errlen, "%s", ssh_get_error(s));
			return SSH_T_LOST;
		}
		/* The command ended already (its channel closed while idle,
		 * or at once: not installed): its exit below. */
		ended = true;
	}
	struct ssh_t_buf out = {0}, errb = {0};
	double deadline = ssh_t_now() + (timeout_s > 0 ? timeout_s : 3600);
	enum ssh_t_outcome rc = SSH_T_DONE;
	while (!ended) {
		long a = ssh_t_drain(ch, 0, &out);
		long b = a < 0 ? a : ssh_t_drain(ch, 1, &errb);
		if (a < 0 || b < 0) {
			oc_seterr(err, errlen, "%s", (a == -2 || b == -2) ? "output too large: out of memory" : ssh_get_error(s));
			rc = (a == -2 || b == -2) ? SSH_T_FAILED : SSH_T_LOST;
			break;
		}
		if (ssh_t_ends_with_line(&out, end))
			break;
		if (ssh_channel_is_eof(ch)) {
			ended = true;
			break;
		}
		double now = ssh_t_now();
		if (now >= deadline) {
			timed_out = true;
			break;
		}
		int slice = SSH_T_SLICE_MS;
		if ((deadline - now) * 1000 < slice)
			slice = (int)((deadline - now) * 1000) + 1;
		if (ssh_channel_poll_timeout(ch, slice, 0) == SSH_ERROR) {
			oc_seterr(err, errlen, "%s", ssh_get_error(s));
			rc = SSH_T_LOST;
			break;
		}
	}
	if (rc == SSH_T_DONE && (ended || timed_out)) {
		/* It ended (not installed: 127) or hangs: its exit as a run's. */
		if (ended) /* what it printed before it ended */
			if (ssh_t_drain(ch, 0, &out) == -2 || ssh_t_drain(ch, 1, &errb) == -2)
				rc = SSH_T_FAILED;
		rc = rc != SSH_T_DONE ? rc : ssh_t_outcome_of(s, ch, &st->agent_exit, timed_out, timeout_s, r, err, errlen);
		if (rc != SSH_T_LOST)
			ssh_t_agent_stop(st);
	} else if (rc == SSH_T_DONE) {
		r->exit_status = 0;
	}
	if (rc == SSH_T_DONE &&
	    (ssh_t_take(&out, &r->out, &r->out_len) < 0 || ssh_t_take(&errb, &r->errout, &r->err_len) < 0)) {
		oc_seterr(err, errlen, "out of memory");
		rc = SSH_T_FAILED;
	}
	free(out.p);
	free(errb.p);
	return rc;
}

static int ssh_t_ask(struct oc_transport *t, const char *const argv[], const char *req, const char *end,
		     int timeout_s, struct oc_run_result *r, char *err, size_t errlen)
{
	struct ssh_t *st = (struct ssh_t *)t;
	memset(r, 0, sizeof(*r));
	if (err && errlen)
		err[0] = '\0';
	if (!argv) { /* stop the agent */
		pthread_mutex_lock(&st->lock);
		ssh_t_agent_stop(st);
		pthread_mutex_unlock(&st->lock);
		return 0;
	}
	char *line = oc_shquote_argv(argv);
	if (!line) {
		oc_seterr(err, errlen, "%s: %s", st->desc, argv[0] ? "out of memory" : "no command");
		return -1;
	}
	pthread_mutex_lock(&st->lock);
	int ret = -1;
	/* Requests only read: one that met a session dead since the last
	 * one (the server restarted) is asked again on a new session. */
	for (int attempt = 0; attempt < 2 && ret < 0; attempt++) {
		bool fresh = !st->session;
		if (ssh_t_ensure(st, err, errlen) < 0)
			break;
		char why[SSH_T_ERRLEN] = "";
		enum ssh_t_outcome o = SSH_T_DONE;
		if (st->agent_ch && (!st->agent_line || strcmp(st->agent_line, line) != 0))
			ssh_t_agent_stop(st);
		if (!st->agent_ch) {
			free(st->agent_line);
			st->agent_line = strdup(line);
			memset(&st->agent_exit, 0, sizeof(st->agent_exit));
			o = st->agent_line ? ssh_t_start(st->session, &st->agent_cb, line, false, &st->agent_ch, why,
							 sizeof(why))
					   : SSH_T_FAILED;
			if (!st->agent_line)
				snprintf(why, sizeof(why), "out of memory");
		}
		if (o == SSH_T_DONE)
			o = ssh_t_agent_talk(st, req, end, timeout_s, r, why, sizeof(why));
		if (o == SSH_T_DONE) {
			oc_seterr(err, errlen, "%s", why);
			ret = 0;
		} else if (o == SSH_T_FAILED) {
			ssh_t_agent_stop(st);
			oc_seterr(err, errlen, "%s: %s", st->desc, why);
			break;
		} else {
			oc_run_result_clear(r);
			ssh_t_drop(st, why[0] ? why : "the session ended");
			oc_seterr(err, errlen, "%s: connection lost: %s", st->desc, st->lost);
			if (fresh)
				break;
		}
	}
	pthread_mutex_unlock(&st->lock);
	free(line);
	if (ret < 0)
		oc_run_result_clear(r);
	return ret;
}

static const char *ssh_t_describe(struct oc_transport *t)
{
	return ((struct ssh_t *)t)->desc;
}

static void ssh_t_close(struct oc_transport *t)
{
	struct ssh_t *st = (struct ssh_t *)t;
	ssh_t_agent_stop(st);
	if (st->session) {
		ssh_disconnect(st->session);
		ssh_free(st->session);
	}
	free(st->agent_line);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

static const struct oc_transport_ops ssh_t_ops = {
	.name = "ssh",
	.run = ssh_t_run,
	.ask = ssh_t_ask,
	.describe = ssh_t_describe,
	.close = ssh_t_close,
};

/* oc_ssh_transport_open (transport.h) as the module exports it
 * (ssh_load.c): a transport the caller closes with oc_transport_close, or
 * NULL with err. */
__attribute__((visibility("default"))) struct oc_transport *
oc_ssh_module_transport_open(const struct oc_ssh_target *t, char *err, size_t errlen)
{
	if (!t || !t->host[0]) {
		oc_seterr(err, errlen, "ssh: no host given");
		return NULL;
	}
	if (t->port < 1 || t->port > 65535) {
		oc_seterr(err, errlen, "ssh %s: port %d is not between 1 and 65535", t->host, t->port);
		return NULL;
	}
	pthread_once(&ssh_t_once, ssh_t_init);
	if (ssh_t_init_rc != SSH_OK) {
		oc_seterr(err, errlen, "ssh %s: libssh failed to initialise", t->host);
		return NULL;
	}
	struct ssh_t *st = calloc(1, sizeof(*st));
	if (!st) {
		oc_seterr(err, errlen, "ssh %s: out of memory", t->host);
		return NULL;
	}
	st->base.ops = &ssh_t_ops;
	snprintf(st->host, sizeof(st->host), "%s", t->host);
	st->port = t->port;
	st->accept_new = t->accept_new_host_key;
	st->connect_timeout_s = t->connect_timeout_s > 0 ? t->connect_timeout_s : 10;
	st->backoff_s = 1;
	if (t->user[0]) {
		snprintf(st->user, sizeof(st->user), "%s", t->user);
	} else {
		char pwbuf[4096];
		struct passwd pw, *res = NULL;
		if (getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &res) != 0 || !res || !res->pw_name[0]) {
			oc_seterr(err, errlen, "ssh %s: no \"user\" given and uid %u has no name", t->host,
				        (unsigned)geteuid());
			free(st);
			return NULL;
		}
		snprintf(st->user, sizeof(st->user), "%s", res->pw_name);
	}
	bool v6 = strchr(st->host, ':') != NULL;
	snprintf(st->desc, sizeof(st->desc), v6 ? "ssh %s@[%s]:%d" : "ssh %s@%s:%d", st->user, st->host, st->port);
	if (st->port == 22)
		snprintf(st->hostport, sizeof(st->hostport), "%s", st->host);
	else
		snprintf(st->hostport, sizeof(st->hostport), "[%s]:%d", st->host, st->port);
	if (ssh_t_expand(t->identity, st->identity, sizeof(st->identity)) < 0 ||
	    ssh_t_expand(t->known_hosts[0] ? t->known_hosts : "~/.ssh/known_hosts", st->known_hosts,
			 sizeof(st->known_hosts)) < 0) {
		oc_seterr(err, errlen, "%s: identity or known_hosts path too long", st->desc);
		free(st);
		return NULL;
	}
	st->cb.userdata = NULL;
	st->cb.auth_function = ssh_t_no_prompt;
	ssh_callbacks_init(&st->cb);
	st->agent_cb.userdata = st;
	st->agent_cb.channel_exit_status_function = ssh_t_agent_status_cb;
	st->agent_cb.channel_exit_signal_function = ssh_t_agent_signal_cb;
	ssh_callbacks_init(&st->agent_cb);
	if (pthread_mutex_init(&st->lock, NULL) != 0) {
		oc_seterr(err, errlen, "%s: cannot make a mutex", st->desc);
		free(st);
		return NULL;
	}
	char why[SSH_T_ERRLEN];
	if (ssh_t_connect(st, why, sizeof(why)) < 0) {
		oc_seterr(err, errlen, "%s: %s", st->desc, why);
		pthread_mutex_destroy(&st->lock);
		free(st);
		return NULL;
	}
	return &st->base;
}
