/* audit.c: the audit log, one JSON line per apply (see audit.h). jansson
 * objects stay in this file. */
#include "actions/audit.h"
#include "core/strbuf.h"
#include "core/profile.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#define AUDIT_SCHEMA 2
/* How long an append waits for another console's append to finish. */
#define AUDIT_LOCK_WAIT_MS 2000
/* The first read of oc_audit_read: the tail of the file, doubled until it
 * holds max entries or the whole file. */
#define AUDIT_READ_CHUNK (64 * 1024)
/* The name the kernel gives the SSM session worker (comm is cut to 15). */
#define AUDIT_SSM_WORKER_COMM "ssm-session-wor"
#define AUDIT_SSM_WORKER_NAME "ssm-session-worker"

/* ---- UTF-8 ---- */

/* The length of the valid UTF-8 sequence at s (n bytes left): 1-4, or 0
 * when the byte at s does not start one (overlong forms, surrogates and
 * code points above U+10FFFF are invalid, as jansson says). */
static size_t audit_utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], cp, min;
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3;
		cp = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* A json string of s with every byte that does not start a valid UTF-8
 * sequence replaced by U+FFFD. A new reference, NULL on ENOMEM. */
static json_t *audit_json_string(const char *s)
{
	size_t n = strlen(s), i = 0, o = 0;
	char *buf = malloc(n * 3 + 1);
	if (!buf)
		return NULL;
	const unsigned char *u = (const unsigned char *)s;
	while (i < n) {
		size_t k = audit_utf8_len(u + i, n - i);
		if (k == 0) {
			memcpy(buf + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		} else {
			memcpy(buf + o, s + i, k);
			o += k;
			i += k;
		}
	}
	json_t *j = json_stringn(buf, o);
	free(buf);
	return j;
}

/* Set key to the string value when value is set and not empty. Returns 0,
 * or -1 on ENOMEM. */
static int audit_set_str(json_t *obj, const char *key, const char *value)
{
	if (!value || !value[0])
		return 0;
	json_t *j = audit_json_string(value);
	if (!j)
		return -1;
	return json_object_set_new(obj, key, j);
}

/* ---- who ---- */

struct audit_who {
	char user[256];
	char sudo_user[256];
	char ssh_client[256];
	char ssm_session[256];
};

static void audit_copy_word(char *dst, size_t len, const char *src)
{
	size_t n = strcspn(src, " \t");
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Read a small /proc file into buf (NUL-terminated). Returns the number of
 * bytes read, or -1. */
static ssize_t audit_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < len - 1) {
		ssize_t n = read(fd, buf + off, len - 1 - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	return (ssize_t)off;
}

/* The SSM session id from the nearest ancestor named ssm-session-worker:
 * its argv[1]. Leaves out empty when there is none. */
static void audit_ssm_from_proc(char *out, size_t len)
{
	char path[64], buf[4096];
	pid_t pid = getppid();
	for (int hop = 0; hop < 64 && pid > 1; hop++) {
		snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
		if (audit_read_small(path, buf, sizeof(buf)) <= 0)
			return;
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, AUDIT_SSM_WORKER_COMM) == 0) {
			snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
			ssize_t n = audit_read_small(path, buf, sizeof(buf));
			size_t a0 = n > 0 ? strlen(buf) : 0;
			if (n > 0 && (size_t)n > a0 + 1) {
				const char *id = buf + a0 + 1;
				size_t k = strlen(id);
				if (k > 0 && k < len) {
					/* printable ASCII only: it goes to syslog too */
					for (size_t i = 0; i < k; i++)
						if (id[i] <= ' ' || id[i] > '~')
							return;
					memcpy(out, id, k + 1);
				}
			}
			return;
		}
		/* Field 4 of stat, after the ")" that closes the command name. */
		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
		if (audit_read_small(path, buf, sizeof(buf)) <= 0)
			return;
		const char *rp = strrchr(buf, ')');
		char state;
		long ppid;
		if (!rp || sscanf(rp + 1, " %c %ld", &state, &ppid) != 2)
			return;
		pid = (pid_t)ppid;
	}
}

static void audit_who_fill(struct audit_who *w)
{
	memset(w, 0, sizeof(*w));
	uid_t uid = geteuid();
	struct passwd pw, *res = NULL;
	char buf[16384];
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res && res->pw_name && res->pw_name[0])
		snprintf(w->user, sizeof(w->user), "%s", res->pw_name);
	else
		snprintf(w->user, sizeof(w->user), "uid:%lu", (unsigned long)uid);
	const char *v = getenv("SUDO_USER");
	if (v)
		snprintf(w->sudo_user, sizeof(w->sudo_user), "%s", v);
	v = getenv("SSH_CONNECTION");
	if (!v || !v[0])
		v = getenv("SSH_CLIENT");
	if (v)
		audit_copy_word(w->ssh_client, sizeof(w->ssh_client), v);
	v = getenv("SSM_SESSION_ID");
	if (v && v[0])
		snprintf(w->ssm_session, sizeof(w->ssm_session), "%s", v);
	else
		audit_ssm_from_proc(w->ssm_session, sizeof(w->ssm_session));
}

/* ---- format ---- */

static char *audit_format_who(const struct oc_audit_rec *rec, const struct audit_who *w)
{
	if (!rec)
		return NULL;
	json_t *o = json_object();
	if (!o)
		return NULL;
	char when[64] = "";
	time_t t = rec->time ? rec->time : time(NULL);
	struct tm tm;
	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", &tm);

	int rc = json_object_set_new(o, "schema", json_integer(AUDIT_SCHEMA));
	rc |= audit_set_str(o, "id", rec->id);
	rc |= audit_set_str(o, "phase", rec->phase);
	rc |= audit_set_str(o, "time", when);
	rc |= audit_set_str(o, "user", w->user);
	rc |= audit_set_str(o, "sudo_user", w->sudo_user);
	rc |= audit_set_str(o, "ssh_client", w->ssh_client);
	rc |= audit_set_str(o, "ssm_session", w->ssm_session);
	rc |= audit_set_str(o, "cluster", rec->cluster);
	rc |= audit_set_str(o, "action", rec->action);
	rc |= audit_set_str(o, "targets", rec->targets);
	if (!rec->params) {
		rc |= json_object_set_new(o, "params", json_object());
	} else {
		json_error_t je;
		json_t *p = json_loads(rec->params, JSON_REJECT_DUPLICATES, &je);
		if (p && json_is_object(p)) {
			rc |= json_object_set_new(o, "params", p);
		} else {
			json_decref(p);
			/* "" is still what was passed: keep it visible. */
			json_t *raw = audit_json_string(rec->params);
			rc |= raw ? json_object_set_new(o, "params_raw", raw) : -1;
		}
	}
	rc |= audit_set_str(o, "command", rec->command);
	rc |= audit_set_str(o, "result", rec->result);
	rc |= audit_set_str(o, "error", rec->error);
	if (rc != 0) {
		json_decref(o);
		return NULL;
	}

	const size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER;
	size_t n = json_dumpb(o, NULL, 0, flags);
	char *line = n ? malloc(n + 2) : NULL;
	if (line && json_dumpb(o, line, n, flags) == n) {
		line[n] = '\n';
		line[n + 1] = '\0';
	} else {
		free(line);
		line = NULL;
	}
	json_decref(o);
	return line;
}

char *oc_audit_format(const struct oc_audit_rec *rec)
{
	struct audit_who w;
	if (!rec)
		return NULL;
	audit_who_fill(&w);
	return audit_format_who(rec, &w);
}

/* ---- append ---- */

/* mkdir -p of the directory part of path, new directories 0700. Returns
 * 0, or -1 with err. */
static int audit_mkdirs(const char *path, char *err, size_t errlen)
{
	char *dir = strdup(path);
	if (!dir) {
		oc_seterr(err, errlen, "audit log: out of memory");
		return -1;
	}
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			struct stat st;
			int e = errno;
			if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
				oc_seterr(err, errlen, "audit log: cannot create %s: %s", dir, strerror(e));
				free(dir);
				return -1;
			}
		}
		*p = c;
		if (c == '\0')
			break;
	}
	free(dir);
	return 0;
}

/* Write all of buf (len bytes) to fd. Returns 0, or -1 with errno. */
static int audit_write_all(int fd, const char *buf, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}

/* Take an exclusive flock on fd, waiting at most AUDIT_LOCK_WAIT_MS.
 * Returns 0 when locked (released by close), -1 when not. */
static int audit_lock(int fd)
{
	for (int waited = 0;; waited += 5) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		if (waited >= AUDIT_LOCK_WAIT_MS)
			return -1;
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

static int audit_write(const char *path, const char *line, char *err, size_t errlen)
{
	if (audit_mkdirs(path, err, errlen) < 0)
		return -1;
	/* O_RDWR: to see whether a torn line must be ended first; a file we
	 * may only write (mode 0200) is appended to without that check. */
	const int flags = O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK;
	int fd = open(path, O_RDWR | flags, 0600);
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_WRONLY | flags, 0600);
	if (fd < 0) {
		if (errno == ELOOP)
			oc_seterr(err, errlen, "audit log %s is a symlink: refused", path);
		else if (errno == ENXIO)
			oc_seterr(err, errlen, "audit log %s is not a regular file: refused", path);
		else
			oc_seterr(err, errlen, "audit log %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		oc_seterr(err, errlen, "audit log %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		oc_seterr(err, errlen, "audit log %s is not a regular file: refused", path);
		close(fd);
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		oc_seterr(err, errlen, "audit log %s is writable by group or others (mode %04o): refused; chmod go-w it",
			  path, (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		oc_seterr(err, errlen, "audit log %s is owned by uid %lu, not by you or root: refused", path,
			  (unsigned long)st.st_uid);
		close(fd);
		return -1;
	}
	/* Between consoles, hold an advisory lock while looking at the end of
	 * the file and appending: a reader may see another writer's line half
	 * copied (only writers are serialized by the kernel). Not forever: after
	 * AUDIT_LOCK_WAIT_MS the append goes ahead unlocked (still one
	 * O_APPEND write; at worst an empty line, which readers skip). */
	audit_lock(fd);
	if (fstat(fd, &st) < 0)
		st.st_size = 0;
	/* A line torn by a full disk is ended before this one. */
	const char *out = line;
	char *joined = NULL;
	char last = '\n';
	if (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n') {
		size_t n = strlen(line);
		joined = malloc(n + 2);
		if (joined) {
			joined[0] = '\n';
			memcpy(joined + 1, line, n + 1);
			out = joined;
		}
	}
	int rc = 0;
	if (audit_write_all(fd, out, strlen(out)) < 0) {
		oc_seterr(err, errlen, "audit log %s: write: %s", path, strerror(errno));
		rc = -1;
	} else if (fsync(fd) < 0 && errno != EINVAL && errno != EROFS) {
		oc_seterr(err, errlen, "audit log %s: fsync: %s", path, strerror(errno));
		rc = -1;
	}
	free(joined);
	if (close(fd) < 0 && rc == 0) {
		oc_seterr(err, errlen, "audit log %s: close: %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* Copy s into dst for syslog: control characters become '?', cut at
 * len - 1 bytes. */
static void audit_syslog_field(char *dst, size_t len, const char *s)
{
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)(s ? s : "-"); *p && o + 1 < len; p++)
		dst[o++] = (*p < 0x20 || *p == 0x7f) ? '?' : (char)*p;
	dst[o] = '\0';
}

static void audit_syslog(const struct oc_audit_rec *rec, const struct audit_who *w)
{
	char action[64], targets[512], result[32], command[1024], error[512], who[600], by[1200];
	char by_safe[1200];
	audit_syslog_field(action, sizeof(action), rec->action);
	audit_syslog_field(targets, sizeof(targets), rec->targets);
	audit_syslog_field(result, sizeof(result), rec->result ? rec->result : rec->phase);
	audit_syslog_field(command, sizeof(command), rec->command);
	audit_syslog_field(error, sizeof(error), rec->error);
	if (w->sudo_user[0])
		snprintf(who, sizeof(who), "%s (sudo from %s)", w->user, w->sudo_user);
	else
		snprintf(who, sizeof(who), "%s", w->user);
	if (w->ssm_session[0])
		snprintf(by, sizeof(by), "%s ssm %s", who, w->ssm_session);
	else if (w->ssh_client[0])
		snprintf(by, sizeof(by), "%s from %s", who, w->ssh_client);
	else
		snprintf(by, sizeof(by), "%s", who);
	audit_syslog_field(by_safe, sizeof(by_safe), by);
	openlog("opsconsole", LOG_PID, LOG_AUTHPRIV);
	if (rec->error && rec->error[0])
		syslog(LOG_AUTHPRIV | LOG_NOTICE, "%s %s %s by %s: %s; error: %s", action, targets, result,
		       by_safe, command, error);
	else
		syslog(LOG_AUTHPRIV | LOG_NOTICE, "%s %s %s by %s: %s", action, targets, result, by_safe,
		       command);
	closelog();
}

int oc_audit_append(const char *path, const struct oc_audit_rec *rec, char *err, size_t errlen)
{
	if (!rec) {
		oc_seterr(err, errlen, "audit: no record");
		return -1;
	}
	struct audit_who w;
	audit_who_fill(&w);
	audit_syslog(rec, &w);
	if (!path || !path[0]) {
		oc_seterr(err, errlen, "audit log: no path");
		return -1;
	}
	char *line = audit_format_who(rec, &w);
	if (!line) {
		oc_seterr(err, errlen, "audit log: out of memory");
		return -1;
	}
	int rc = audit_write(path, line, err, errlen);
	free(line);
	return rc;
}

/* ---- request id ---- */

void oc_audit_new_id(char out[OC_AUDIT_ID_LEN])
{
	unsigned char b[8];
	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		static unsigned counter;
		uint64_t v = ((uint64_t)time(NULL) << 32) ^ ((uint64_t)getpid() << 12) ^ __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (unsigned char)(v >> (8 * i));
	}
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* ---- default path ---- */

const char *oc_audit_default_path(const char *cluster, char *out, size_t len)
{
	if (!out || len == 0)
		return out;
	out[0] = '\0';
	char name[256];
	snprintf(name, sizeof(name), "%s", cluster && cluster[0] ? cluster : "default");
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	const char *xdg = getenv("XDG_STATE_HOME");
	int n;
	if (xdg && xdg[0] == '/') {
		n = snprintf(out, len, "%s/opsconsole/%s-audit.log", xdg, name);
	} else {
		const char *home = getenv("HOME");
		struct passwd pw, *res = NULL;
		char buf[16384];
		if ((!home || home[0] != '/') &&
		    getpwuid_r(geteuid(), &pw, buf, sizeof(buf), &res) == 0 && res && res->pw_dir &&
		    res->pw_dir[0] == '/')
			home = res->pw_dir;
		if (!home || home[0] != '/')
			return out;
		n = snprintf(out, len, "%s/.local/state/opsconsole/%s-audit.log",
			     strcmp(home, "/") == 0 ? "" : home, name);
	}
	if (n < 0 || (size_t)n >= len)
		out[0] = '\0';
	return out;
}

const char *oc_audit_profile_path(const struct oc_profile *p, char *out, size_t len)
{
	if (!out || len == 0)
		return out;
	if (p->audit_log[0]) {
		if ((size_t)snprintf(out, len, "%s", p->audit_log) >= len)
			out[0] = '\0';
		return out;
	}
	return oc_audit_default_path(p->name, out, len);
}

/* ---- read ---- */

/* Copy src into dst (cap bytes), cut at a UTF-8 character boundary. */
static void audit_copy_field(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n >= cap) {
		n = cap - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static const char *audit_get_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Parse "YYYY-MM-DDTHH:MM:SS+hhmm". Returns 0 and sets *t, or -1. */
static int audit_parse_time(const char *s, time_t *t)
{
	int y, mo, d, h, mi, sec, oh, om, used = 0;
	char sign;
	if (!s || strlen(s) != 24 ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c%2d%2d%n", &y, &mo, &d, &h, &mi, &sec, &sign, &oh, &om,
		   &used) != 9 ||
	    used != 24 || (sign != '+' && sign != '-'))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || oh > 23 || om > 59)
		return -1;
	struct tm tm = {0};
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	time_t utc = timegm(&tm);
	long off = (oh * 60L + om) * 60L;
	*t = utc - (sign == '+' ? off : -off);
	return 0;
}

/* Parse one line into e. Returns 0, or -1 when it is not an entry. */
static int audit_parse_entry(const char *line, size_t len, struct oc_audit_entry *e, bool *intent)
{
	json_error_t je;
	json_t *o = json_loadb(line, len, 0, &je);
	if (!o || !json_is_object(o)) {
		json_decref(o);
		return -1;
	}
	const char *action = audit_get_str(o, "action");
	memset(e, 0, sizeof(*e));
	if (!action || audit_parse_time(audit_get_str(o, "time"), &e->time) < 0) {
		json_decref(o);
		return -1;
	}
	const char *user = audit_get_str(o, "user"), *sudo = audit_get_str(o, "sudo_user");
	if (sudo && sudo[0] && (!user || strcmp(sudo, user) != 0)) {
		char who[256];
		snprintf(who, sizeof(who), "%s as %s", sudo, user ? user : "?");
		audit_copy_field(e->user, sizeof(e->user), who);
	} else {
		audit_copy_field(e->user, sizeof(e->user), user ? user : "");
	}
	audit_copy_field(e->action, sizeof(e->action), action);
	const char *v;
	audit_copy_field(e->targets, sizeof(e->targets), (v = audit_get_str(o, "targets")) ? v : "");
	audit_copy_field(e->result, sizeof(e->result), (v = audit_get_str(o, "result")) ? v : "");
	audit_copy_field(e->command, sizeof(e->command), (v = audit_get_str(o, "command")) ? v : "");
	audit_copy_field(e->error, sizeof(e->error), (v = audit_get_str(o, "error")) ? v : "");
	audit_copy_field(e->id, sizeof(e->id), (v = audit_get_str(o, "id")) ? v : "");
	v = audit_get_str(o, "phase");
	*intent = v && strcmp(v, "intent") == 0;
	json_decref(o);
	return 0;
}

/* Outcome ids seen while reading from the end (their intents come later). */
struct audit_ids {
	char (*v)[OC_AUDIT_ID_LEN];
	size_t n, cap;
};

static bool audit_ids_has(const struct audit_ids *s, const char *id)
{
	for (size_t i = s->n; i-- > 0;)
		if (strcmp(s->v[i], id) == 0)
			return true;
	return false;
}

static int audit_ids_add(struct audit_ids *s, const char *id)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		char(*n)[OC_AUDIT_ID_LEN] = realloc(s->v, ncap * sizeof(*n));
		if (!n)
			return -1;
		s->v = n;
		s->cap = ncap;
	}
	snprintf(s->v[s->n++], OC_AUDIT_ID_LEN, "%s", id);
	return 0;
}

/* Read [start, end) of fd into a malloc'd buffer; *got is what was read
 * (less when the file shrank). Returns the buffer, or NULL with errno. */
static char *audit_pread_range(int fd, off_t start, off_t end, size_t *got)
{
	size_t want = (size_t)(end - start), off = 0;
	char *buf = malloc(want + 1);
	if (!buf)
		return NULL;
	while (off < want) {
		ssize_t n = pread(fd, buf + off, want - off, start + (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	buf[off] = '\0';
	*got = off;
	return buf;
}

/* What one pass of oc_audit_read collects: the entries so far (newest
 * first), the lines that did not parse, and the ids that have an outcome
 * line, so an intent without one is reported as unknown. */
struct audit_scan {
	struct oc_audit_entry *ents;
	size_t cap, count, nbad, max;
	struct audit_ids outcomes;
};

/* Open path for oc_audit_read. Returns 1 with *fd and *size set when there
 * is something to read, 0 when there is nothing (no file, empty, max 0),
 * -1 with err set. */
static int audit_open_log(const char *path, size_t max, int *fd, off_t *size, char *err, size_t errlen)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (*fd < 0) {
		if (errno == ENOENT)
			return 0;
		oc_seterr(err, errlen, "audit log %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		oc_seterr(err, errlen, "audit log %s: not a regular file", path);
		close(*fd);
		return -1;
	}
	if (max == 0 || st.st_size == 0) {
		close(*fd);
		return 0;
	}
	*size = st.st_size;
	return 1;
}

/* Keep the line just parsed into s->ents[s->count] when it is an outcome,
 * or an intent whose outcome was not seen (the outcome comes later in the
 * file, so it has been read already). Returns -1 when out of memory. */
static int audit_keep_entry(struct audit_scan *s, bool intent)
{
	struct oc_audit_entry *e = &s->ents[s->count];
	if (!intent) {
		if (e->id[0] && audit_ids_add(&s->outcomes, e->id) < 0)
			return -1;
		s->count++;
	} else if (!e->id[0] || !audit_ids_has(&s->outcomes, e->id)) {
		/* An intent whose outcome never came. */
		e->no_outcome = true;
		snprintf(e->result, sizeof(e->result), "unknown");
		snprintf(e->error, sizeof(e->error),
			 "outcome unknown: no outcome line (the console was killed or lost its "
			 "session while applying, or it is applying now): check the cluster");
		s->count++;
	}
	return 0;
}

/* Parse buf (got bytes read from file offset start) from its last line
 * back, starting the count afresh. Returns -1 when out of memory. */
static int audit_scan_lines(struct audit_scan *s, const char *buf, size_t got, off_t start)
{
	s->count = 0;
	s->nbad = 0;
	s->outcomes.n = 0;
	/* Lines from the end; when start > 0 the first one may be cut. */
	size_t end = got;
	while (end > 0 && s->count < s->max) {
		size_t b = end;
		while (b > 0 && buf[b - 1] != '\n')
			b--;
		if (b == 0 && start > 0)
			break;
		size_t llen = end - b;
		if (llen > 0) {
			if (s->count == s->cap) {
				size_t ncap = s->cap * 2 < s->max ? s->cap * 2 : s->max;
				struct oc_audit_entry *n = realloc(s->ents, sizeof(*s->ents) * ncap);
				if (!n)
					return -1;
				s->ents = n;
				s->cap = ncap;
			}
			bool intent = false;
			if (audit_parse_entry(buf + b, llen, &s->ents[s->count], &intent) < 0)
				s->nbad++;
			else if (audit_keep_entry(s, intent) < 0)
				return -1;
		}
		end = b > 0 ? b - 1 : 0;
	}
	return 0;
}

/* Read the tail of fd, doubling it until it holds max entries or the whole
 * file. Returns 0, or -1 with err set. */
static int audit_scan_tail(struct audit_scan *s, int fd, off_t size, const char *path, char *err,
			   size_t errlen)
{
	off_t chunk = AUDIT_READ_CHUNK;
	for (;;) {
		off_t start = size > chunk ? size - chunk : 0;
		size_t got = 0;
		char *buf = audit_pread_range(fd, start, size, &got);
		if (!buf) {
			oc_seterr(err, errlen, "audit log %s: %s", path, strerror(errno));
			return -1;
		}
		int rc = audit_scan_lines(s, buf, got, start);
		free(buf);
		if (rc < 0) {
			oc_seterr(err, errlen, "audit log: out of memory");
			return -1;
		}
		if (s->count == s->max || start == 0)
			return 0;
		chunk *= 2;
	}
}

long oc_audit_read(const char *path, size_t max, struct oc_audit_entry **out, size_t *bad, char *err,
		   size_t errlen)
{
	*out = NULL;
	if (bad)
		*bad = 0;
	if (!path || !path[0]) {
		oc_seterr(err, errlen, "audit log: no path");
		return -1;
	}
	int fd = -1;
	off_t size = 0;
	int o = audit_open_log(path, max, &fd, &size, err, errlen);
	if (o <= 0)
		return o;
	struct audit_scan s = {.cap = max < 1024 ? max : 1024, .max = max};
	s.ents = malloc(sizeof(*s.ents) * s.cap);
	if (!s.ents) {
		oc_seterr(err, errlen, "audit log: out of memory");
		close(fd);
		return -1;
	}
	int rc = audit_scan_tail(&s, fd, size, path, err, errlen);
	close(fd);
	free(s.outcomes.v);
	if (rc < 0) {
		free(s.ents);
		return -1;
	}
	size_t count = s.count;
	/* Collected newest first: reverse. */
	for (size_t i = 0; i < count / 2; i++) {
		struct oc_audit_entry tmp = s.ents[i];
		s.ents[i] = s.ents[count - 1 - i];
		s.ents[count - 1 - i] = tmp;
	}
	if (bad)
		*bad = s.nbad;
	if (count == 0) {
		free(s.ents);
		return 0;
	}
	*out = s.ents;
	return (long)count;
}
