/* test_audit.c: the audit log: the JSON line, appends from concurrent
 * processes, the refusals that keep it evidence, the default path and
 * reading the tail back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "actions/audit.h"
#include "test_util.h"

extern char **environ;

#define T0 1795965601 /* 2026-11-29T15:20:01Z */

static char tmpdir[PATH_MAX];

static void clear_env(void)
{
	unsetenv("SUDO_USER");
	unsetenv("SSH_CONNECTION");
	unsetenv("SSH_CLIENT");
	unsetenv("SSM_SESSION_ID");
	setenv("TZ", "UTC", 1);
	tzset();
}

static int setup(void **state)
{
	(void)state;
	const char *base = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/oc-audit-XXXXXX", base && base[0] ? base : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	clear_env();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 16];
	/* the test's own temporary folder, made by mkdtemp above */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_in_tmp(char *out, size_t len, const char *rel)
{
	int n = snprintf(out, len, "%s/%s", tmpdir, rel);
	assert_true(n > 0 && (size_t)n < len);
}

static const char *me(void)
{
	static char name[256];
	struct passwd *pw = getpwuid(geteuid());
	if (pw)
		snprintf(name, sizeof(name), "%s", pw->pw_name);
	else
		snprintf(name, sizeof(name), "uid:%lu", (unsigned long)geteuid());
	return name;
}

static struct oc_audit_rec sample(void)
{
	struct oc_audit_rec r = {
		.time = T0,
		.id = "0123456789abcdef",
		.phase = "outcome",
		.cluster = "llm-poc",
		.action = "node.drain",
		.targets = "gpu-st-b300-[3-5]",
		.params = "{\"reason\":\"disk, \\\"bad\\\"\",\"count\":3}",
		.command = "scontrol update NodeName='gpu-st-b300-[3-5]' State=DRAIN Reason='disk, \"bad\"'",
		.result = "ok",
		.error = NULL,
	};
	return r;
}

/* Parse a formatted line: exactly one '\n', at the end; valid JSON object. */
static json_t *parse_line(const char *line)
{
	size_t n = strlen(line);
	assert_true(n > 2);
	assert_int_equal(line[n - 1], '\n');
	assert_null(memchr(line, '\n', n - 1));
	json_error_t je;
	json_t *o = json_loadb(line, n - 1, JSON_REJECT_DUPLICATES, &je);
	if (!o)
		fail_msg("not JSON: %s: %s", je.text, line);
	assert_true(json_is_object(o));
	return o;
}

static const char *str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	assert_non_null(buf);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* ---- format ---- */

static void test_format_keys(void **state)
{
	(void)state;
	clear_env();
	struct oc_audit_rec r = sample();
	char *line = oc_audit_format(&r);
	assert_non_null(line);
	json_t *o = parse_line(line);
	assert_int_equal(json_integer_value(json_object_get(o, "schema")), 2);
	assert_string_equal(str(o, "id"), "0123456789abcdef");
	assert_string_equal(str(o, "phase"), "outcome");
	assert_true(json_is_integer(json_object_get(o, "schema")));
	assert_string_equal(str(o, "time"), "2026-11-29T15:20:01+0000");
	assert_string_equal(str(o, "user"), me());
	assert_string_equal(str(o, "cluster"), "llm-poc");
	assert_string_equal(str(o, "action"), "node.drain");
	assert_string_equal(str(o, "targets"), "gpu-st-b300-[3-5]");
	assert_string_equal(str(o, "command"), r.command);
	assert_string_equal(str(o, "result"), "ok");
	json_t *p = json_object_get(o, "params");
	assert_true(json_is_object(p));
	assert_string_equal(str(p, "reason"), "disk, \"bad\"");
	assert_int_equal(json_integer_value(json_object_get(p, "count")), 3);
	/* absent: no error, no sudo/ssh/ssm here, no params_raw */
	assert_null(json_object_get(o, "error"));
	assert_null(json_object_get(o, "sudo_user"));
	assert_null(json_object_get(o, "ssh_client"));
	assert_null(json_object_get(o, "params_raw"));
	/* ssm_session only when run under an SSM session worker: not here
	 * (unless the test itself runs in one) */
	json_decref(o);

	/* Stable key order. */
	free(line);
	setenv("SUDO_USER", "alice", 1);
	setenv("SSH_CONNECTION", "10.1.2.3 51234 10.0.0.1 22", 1);
	setenv("SSM_SESSION_ID", "alice-0a1b2c3d4e5f67890", 1);
	r.error = "Invalid node name specified";
	r.result = "failed";
	line = oc_audit_format(&r);
	assert_non_null(line);
	static const char *order[] = {"\"schema\":", "\"id\":", "\"phase\":", "\"time\":", "\"user\":", "\"sudo_user\":",
				      "\"ssh_client\":", "\"ssm_session\":", "\"cluster\":", "\"action\":",
				      "\"targets\":", "\"params\":", "\"command\":", "\"result\":",
				      "\"error\":"};
	const char *prev = line;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *at = strstr(line, order[i]);
		if (!at || at < prev)
			fail_msg("key %s missing or out of order in %s", order[i], line);
		prev = at;
	}
	assert_true(strncmp(line, "{\"schema\":2,\"id\":", 17) == 0);
	o = parse_line(line);
	assert_string_equal(str(o, "sudo_user"), "alice");
	assert_string_equal(str(o, "ssh_client"), "10.1.2.3");
	assert_string_equal(str(o, "ssm_session"), "alice-0a1b2c3d4e5f67890");
	assert_string_equal(str(o, "error"), "Invalid node name specified");
	json_decref(o);
	free(line);

	/* SSH_CLIENT when SSH_CONNECTION is not there; empty values left out. */
	unsetenv("SSH_CONNECTION");
	setenv("SSH_CLIENT", "192.168.7.9 40000 22", 1);
	setenv("SUDO_USER", "", 1);
	struct oc_audit_rec bare = {.time = T0, .action = "resv.delete", .cluster = ""};
	line = oc_audit_format(&bare);
	o = parse_line(line);
	assert_string_equal(str(o, "ssh_client"), "192.168.7.9");
	assert_null(json_object_get(o, "sudo_user"));
	assert_null(json_object_get(o, "cluster"));
	assert_null(json_object_get(o, "targets"));
	assert_null(json_object_get(o, "command"));
	assert_null(json_object_get(o, "result"));
	assert_true(json_is_object(json_object_get(o, "params")));
	assert_int_equal(json_object_size(json_object_get(o, "params")), 0);
	json_decref(o);
	free(line);
	clear_env();

	assert_null(oc_audit_format(NULL));

	/* time 0 is now; the offset follows TZ */
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	line = oc_audit_format(&r);
	o = parse_line(line);
	assert_string_equal(str(o, "time"), "2026-11-29T16:20:01+0100");
	json_decref(o);
	free(line);
	clear_env();
	bare.time = 0;
	time_t before = time(NULL);
	line = oc_audit_format(&bare);
	o = parse_line(line);
	struct tm tm;
	char want[64];
	gmtime_r(&before, &tm);
	strftime(want, sizeof(want), "%Y-%m-%dT", &tm);
	assert_true(strncmp(str(o, "time"), want, strlen(want)) == 0);
	json_decref(o);
	free(line);
}

static void test_format_invalid_utf8(void **state)
{
	(void)state;
	clear_env();
	struct oc_audit_rec r = sample();
	r.targets = "gpu\xff-1";
	r.error = "bad \xc3\x28 seq \xc0\xaf end \xe2\x82";
	r.command = "a\x01" "b\nc\td\x7f\"\\ caf\xc3\xa9 \xf0\x9f\x98\x80";
	r.cluster = "\xed\xa0\x80"; /* a surrogate */
	setenv("SUDO_USER", "bo\xfe", 1);
	char *line = oc_audit_format(&r);
	assert_non_null(line);
	json_t *o = parse_line(line);
	assert_string_equal(str(o, "targets"), "gpu\xEF\xBF\xBD-1");
	assert_string_equal(str(o, "error"),
			    "bad \xEF\xBF\xBD( seq \xEF\xBF\xBD\xEF\xBF\xBD end \xEF\xBF\xBD\xEF\xBF\xBD");
	/* control characters survive, escaped in the line */
	assert_string_equal(str(o, "command"), r.command);
	assert_non_null(strstr(line, "\\u0001"));
	assert_non_null(strstr(line, "\\n"));
	assert_string_equal(str(o, "cluster"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_string_equal(str(o, "sudo_user"), "bo\xEF\xBF\xBD");
	json_decref(o);
	free(line);
	clear_env();
}

static void test_format_params(void **state)
{
	(void)state;
	clear_env();
	struct {
		const char *params;
		const char *raw; /* expected params_raw, NULL = parsed as params */
	} cases[] = {
		{"{}", NULL},
		{"{\"reason\":\"x\",\"nested\":{\"a\":[1,2]}}", NULL},
		{"not json", "not json"},
		{"[1,2]", "[1,2]"},
		{"\"str\"", "\"str\""},
		{"", ""},
		{"{\"reason\":", "{\"reason\":"},
		{"{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":2}"},
		{"{\"reason\":\"\xff\"}", "{\"reason\":\"\xEF\xBF\xBD\"}"},
		{"{\"r\":\"a\"}\n{\"b\":1}", "{\"r\":\"a\"}\n{\"b\":1}"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct oc_audit_rec r = sample();
		r.params = cases[i].params;
		char *line = oc_audit_format(&r);
		assert_non_null(line);
		json_t *o = parse_line(line);
		if (cases[i].raw) {
			assert_null(json_object_get(o, "params"));
			assert_string_equal(str(o, "params_raw"), cases[i].raw);
			/* same place in the order */
			assert_true(strstr(line, "\"targets\":") < strstr(line, "\"params_raw\":"));
			assert_true(strstr(line, "\"params_raw\":") < strstr(line, "\"command\":"));
		} else {
			assert_null(json_object_get(o, "params_raw"));
			assert_true(json_is_object(json_object_get(o, "params")));
		}
		json_decref(o);
		free(line);
	}
}

/* Run as ssm-session-worker (a symlink to this program): a child formats
 * a record and prints it. The session id comes from this process's argv. */
static int ssm_worker_main(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		clear_env();
		struct oc_audit_rec r = {.time = T0, .action = "node.resume"};
		char *line = oc_audit_format(&r);
		if (!line)
			_exit(3);
		fputs(line, stdout);
		fflush(stdout);
		free(line);
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 4;
	return WEXITSTATUS(status);
}

static void test_format_ssm_from_proc(void **state)
{
	(void)state;
	char self[PATH_MAX], link[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		skip();
	self[n] = '\0';
	path_in_tmp(link, sizeof(link), "ssm-session-worker");
	assert_int_equal(symlink(self, link), 0);
	char *const argv[] = {(char *)"ssm-session-worker", (char *)"alice-0a1b2c3d4e5f67890",
			      (char *)"i-0123456789abcdef0", NULL};
	size_t got;
	int status;
	char *buf = test_util_run(link, argv, environ, NULL, &got, &status);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	json_t *o = parse_line(buf);
	assert_string_equal(str(o, "ssm_session"), "alice-0a1b2c3d4e5f67890");
	json_decref(o);
	free(buf);
	unlink(link);
}

/* ---- append ---- */

static void test_append_creates(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], dir[PATH_MAX], err[256] = "";
	path_in_tmp(path, sizeof(path), "a/b/c/llm-poc-audit.log");
	struct oc_audit_rec r = sample();
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	r.result = "failed";
	r.error = "Invalid node state specified";
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	static const char *dirs[] = {"a", "a/b", "a/b/c"};
	for (size_t i = 0; i < 3; i++) {
		path_in_tmp(dir, sizeof(dir), dirs[i]);
		assert_int_equal(stat(dir, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
	}
	size_t len;
	char *all = read_file(path, &len);
	r.result = "ok";
	r.error = NULL;
	char *l1 = oc_audit_format(&r);
	assert_true(strncmp(all, l1, strlen(l1)) == 0);
	char *second = all + strlen(l1);
	json_t *o = parse_line(second);
	assert_string_equal(str(o, "result"), "failed");
	json_decref(o);
	free(l1);
	free(all);

	/* a relative path in the current folder works too */
	char cwd[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(tmpdir), 0);
	assert_int_equal(oc_audit_append("plain.log", &r, err, sizeof(err)), 0);
	assert_int_equal(chdir(cwd), 0);

	assert_int_equal(oc_audit_append("", &r, err, sizeof(err)), -1);
	assert_int_equal(oc_audit_append(NULL, &r, err, sizeof(err)), -1);
	assert_int_equal(oc_audit_append(path, NULL, err, sizeof(err)), -1);
}

enum { PROCS = 8, PER_PROC = 100 };

static void test_append_concurrent(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX];
	path_in_tmp(path, sizeof(path), "concurrent/audit.log");
	/* Long lines (about 6 KB): more than a pipe's atomic size. */
	static char command[6000];
	memset(command, 'c', sizeof(command) - 1);
	command[sizeof(command) - 1] = '\0';
	pid_t pids[PROCS];
	for (int p = 0; p < PROCS; p++) {
		pids[p] = fork();
		assert_true(pids[p] >= 0);
		if (pids[p] == 0) {
			char targets[64], err[256];
			for (int i = 0; i < PER_PROC; i++) {
				snprintf(targets, sizeof(targets), "p%d-%d", p, i);
				struct oc_audit_rec r = sample();
				r.targets = targets;
				r.command = command;
				if (oc_audit_append(path, &r, err, sizeof(err)) != 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int p = 0; p < PROCS; p++) {
		int status;
		assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	size_t len;
	char *all = read_file(path, &len);
	assert_int_equal(all[len - 1], '\n');
	static bool seen[PROCS][PER_PROC];
	memset(seen, 0, sizeof(seen));
	size_t lines = 0;
	for (char *s = all; *s;) {
		char *nl = strchr(s, '\n');
		assert_non_null(nl);
		json_error_t je;
		json_t *o = json_loadb(s, (size_t)(nl - s), 0, &je);
		if (!o)
			fail_msg("line %zu torn: %s", lines, je.text);
		int p, i;
		assert_int_equal(sscanf(str(o, "targets"), "p%d-%d", &p, &i), 2);
		assert_false(seen[p][i]);
		seen[p][i] = true;
		assert_int_equal(strlen(str(o, "command")), sizeof(command) - 1);
		json_decref(o);
		lines++;
		s = nl + 1;
	}
	assert_int_equal(lines, PROCS * PER_PROC);
	free(all);

	/* and read back, the last 10 */
	struct oc_audit_entry *e = NULL;
	size_t bad = 99;
	char err[256];
	assert_int_equal(oc_audit_read(path, 10, &e, &bad, err, sizeof(err)), 10);
	assert_int_equal(bad, 0);
	free(e);
}

static void test_append_refusals(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], target[PATH_MAX], err[256];
	struct oc_audit_rec r = sample();

	/* a symlink: refused, the target untouched */
	path_in_tmp(target, sizeof(target), "target.log");
	path_in_tmp(path, sizeof(path), "link.log");
	int fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(target, path), 0);
	err[0] = '\0';
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "symlink"));
	struct stat st;
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_size, 0);
	/* a dangling symlink is not created through either */
	path_in_tmp(path, sizeof(path), "dangling.log");
	path_in_tmp(target, sizeof(target), "nowhere.log");
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), -1);
	assert_int_equal(access(target, F_OK), -1);

	/* writable by group, by others */
	static const mode_t modes[] = {0620, 0602, 0666, 0660};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char rel[32];
		snprintf(rel, sizeof(rel), "mode-%o.log", (unsigned)modes[i]);
		path_in_tmp(target, sizeof(target), rel);
		fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		assert_int_equal(fchmod(fd, modes[i]), 0);
		close(fd);
		err[0] = '\0';
		assert_int_equal(oc_audit_append(target, &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "group or others"));
		assert_int_equal(stat(target, &st), 0);
		assert_int_equal(st.st_size, 0);
	}
	/* read-only for group and others is fine */
	path_in_tmp(target, sizeof(target), "mode-0644.log");
	fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, 0644), 0);
	close(fd);
	assert_int_equal(oc_audit_append(target, &r, err, sizeof(err)), 0);

	/* a file we may only write (not read) is appended to */
	if (geteuid() != 0) {
		path_in_tmp(target, sizeof(target), "mode-0200.log");
		fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0200);
		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(oc_audit_append(target, &r, err, sizeof(err)), 0);
		assert_int_equal(stat(target, &st), 0);
		assert_true(st.st_size > 0);
	}

	/* a FIFO is refused without blocking; a folder is refused */
	path_in_tmp(path, sizeof(path), "fifo.log");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), -1);
	path_in_tmp(path, sizeof(path), "dir.log");
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), -1);
	/* a file where a folder should be */
	path_in_tmp(path, sizeof(path), "target.log/sub/audit.log");
	path_in_tmp(target, sizeof(target), "target.log");
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), -1);

	/* owned by someone else (only root can set that up) */
	if (geteuid() == 0) {
		path_in_tmp(target, sizeof(target), "other.log");
		fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		assert_int_equal(fchown(fd, 65534, 65534), 0);
		close(fd);
		err[0] = '\0';
		assert_int_equal(oc_audit_append(target, &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "owned by"));
	}
}

static void test_append_after_torn_line(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], err[256];
	path_in_tmp(path, sizeof(path), "torn.log");
	struct oc_audit_rec r = sample();
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	/* a line cut by a full disk */
	int fd = open(path, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"schema\":1,\"ti", 15), 15);
	close(fd);
	r.targets = "after";
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	struct oc_audit_entry *e = NULL;
	size_t bad = 0;
	assert_int_equal(oc_audit_read(path, 10, &e, &bad, err, sizeof(err)), 2);
	assert_int_equal(bad, 1);
	assert_string_equal(e[1].targets, "after");
	free(e);
}

/* An intent and its outcome read as one entry; an intent with no outcome
 * reads as "unknown" with "outcome unknown"; old lines without an id stay
 * as they were; new ids differ. */
static void test_read_intent_outcome(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], err[256];
	path_in_tmp(path, sizeof(path), "wal.log");
	struct oc_audit_rec r = sample();
	r.id = NULL; /* a schema 1 line, from before write-ahead */
	r.phase = NULL;
	r.targets = "old";
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	char a[OC_AUDIT_ID_LEN], b[OC_AUDIT_ID_LEN];
	oc_audit_new_id(a);
	oc_audit_new_id(b);
	assert_int_equal(strlen(a), 16);
	assert_string_not_equal(a, b);
	/* a: intent, then outcome */
	r.id = a;
	r.phase = "intent";
	r.result = NULL;
	r.targets = "done";
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	/* b: intent only (the console died) */
	r.id = b;
	r.targets = "killed";
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	r.id = a;
	r.phase = "outcome";
	r.result = "partial";
	r.targets = "done";
	assert_int_equal(oc_audit_append(path, &r, err, sizeof(err)), 0);
	struct oc_audit_entry *e = NULL;
	size_t bad = 0;
	assert_int_equal(oc_audit_read(path, 10, &e, &bad, err, sizeof(err)), 3);
	assert_int_equal(bad, 0);
	assert_string_equal(e[0].targets, "old");
	assert_string_equal(e[0].id, "");
	assert_false(e[0].no_outcome);
	assert_string_equal(e[1].targets, "killed");
	assert_true(e[1].no_outcome);
	assert_string_equal(e[1].result, "unknown");
	assert_non_null(strstr(e[1].error, "outcome unknown"));
	assert_string_equal(e[2].targets, "done");
	assert_string_equal(e[2].result, "partial");
	assert_string_equal(e[2].id, a);
	assert_false(e[2].no_outcome);
	free(e);
	/* max counts entries, not lines: the last two */
	assert_int_equal(oc_audit_read(path, 2, &e, &bad, err, sizeof(err)), 2);
	assert_string_equal(e[0].targets, "killed");
	assert_string_equal(e[1].targets, "done");
	free(e);
}

/* ---- default path ---- */

static void test_default_path(void **state)
{
	(void)state;
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char *xdg = getenv("XDG_STATE_HOME") ? strdup(getenv("XDG_STATE_HOME")) : NULL;
	char buf[PATH_MAX];

	setenv("XDG_STATE_HOME", "/x/state", 1);
	assert_ptr_equal(oc_audit_default_path("llm-poc", buf, sizeof(buf)), buf);
	assert_string_equal(buf, "/x/state/opsconsole/llm-poc-audit.log");
	oc_audit_default_path(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "/x/state/opsconsole/default-audit.log");
	oc_audit_default_path("", buf, sizeof(buf));
	assert_string_equal(buf, "/x/state/opsconsole/default-audit.log");
	oc_audit_default_path("../a/b", buf, sizeof(buf));
	assert_string_equal(buf, "/x/state/opsconsole/.._a_b-audit.log");

	setenv("HOME", "/home/u", 1);
	setenv("XDG_STATE_HOME", "relative/state", 1); /* ignored, as XDG says */
	oc_audit_default_path("llm-poc", buf, sizeof(buf));
	assert_string_equal(buf, "/home/u/.local/state/opsconsole/llm-poc-audit.log");
	unsetenv("XDG_STATE_HOME");
	oc_audit_default_path("llm-poc", buf, sizeof(buf));
	assert_string_equal(buf, "/home/u/.local/state/opsconsole/llm-poc-audit.log");
	setenv("XDG_STATE_HOME", "", 1);
	oc_audit_default_path("c", buf, sizeof(buf));
	assert_string_equal(buf, "/home/u/.local/state/opsconsole/c-audit.log");

	/* no HOME: the passwd entry */
	unsetenv("HOME");
	struct passwd *pw = getpwuid(geteuid());
	oc_audit_default_path("c", buf, sizeof(buf));
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/') {
		char want[PATH_MAX];
		snprintf(want, sizeof(want), "%s/.local/state/opsconsole/c-audit.log",
			 strcmp(pw->pw_dir, "/") == 0 ? "" : pw->pw_dir);
		assert_string_equal(buf, want);
	}

	/* does not fit: "" */
	setenv("XDG_STATE_HOME", "/x/state", 1);
	char small[16];
	assert_ptr_equal(oc_audit_default_path("llm-poc", small, sizeof(small)), small);
	assert_string_equal(small, "");

	if (home)
		setenv("HOME", home, 1);
	if (xdg)
		setenv("XDG_STATE_HOME", xdg, 1);
	else
		unsetenv("XDG_STATE_HOME");
	free(home);
	free(xdg);
}

/* ---- read ---- */

static void write_raw(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
	assert_true(fd >= 0);
	size_t n = strlen(text);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
}

static void test_read_tail(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], err[256];
	struct oc_audit_entry *e = (struct oc_audit_entry *)1;
	size_t bad = 99;

	/* missing file: nothing, no error */
	path_in_tmp(path, sizeof(path), "missing/audit.log");
	assert_int_equal(oc_audit_read(path, 10, &e, &bad, err, sizeof(err)), 0);
	assert_null(e);
	assert_int_equal(bad, 0);

	path_in_tmp(path, sizeof(path), "read.log");
	setenv("SUDO_USER", "alice", 1);
	for (int i = 0; i < 10; i++) {
		char targets[32];
		snprintf(targets, sizeof(targets), "n%d", i);
		struct oc_audit_rec r = sample();
		r.time = T0 + i;
		r.targets = targets;
		if (i == 9) {
			r.result = "failed";
			r.error = "slurm_update error: Invalid node name specified";
		}
		char *line = oc_audit_format(&r);
		write_raw(path, line);
		free(line);
		if (i == 4)
			write_raw(path, "garbage line\n\n{\"schema\":1}\n[1]\n");
	}
	clear_env();

	long n = oc_audit_read(path, 3, &e, &bad, err, sizeof(err));
	assert_int_equal(n, 3);
	assert_int_equal(bad, 0);
	assert_string_equal(e[0].targets, "n7");
	assert_string_equal(e[1].targets, "n8");
	assert_string_equal(e[2].targets, "n9");
	assert_int_equal(e[2].time, T0 + 9);
	assert_string_equal(e[2].action, "node.drain");
	assert_string_equal(e[2].result, "failed");
	assert_string_equal(e[2].error, "slurm_update error: Invalid node name specified");
	assert_string_equal(e[0].command, sample().command);
	char who[300];
	snprintf(who, sizeof(who), "alice as %s", me());
	assert_string_equal(e[0].user, who);
	free(e);

	/* all of it: the three bad lines counted, the empty one not */
	n = oc_audit_read(path, 100, &e, &bad, err, sizeof(err));
	assert_int_equal(n, 10);
	assert_int_equal(bad, 3);
	for (int i = 0; i < 10; i++)
		assert_int_equal(e[i].time, T0 + i);
	free(e);

	/* a torn last line */
	write_raw(path, "{\"schema\":1,\"time\":\"2026-11-29T15:20:0");
	n = oc_audit_read(path, 3, &e, &bad, err, sizeof(err));
	assert_int_equal(n, 3);
	assert_int_equal(bad, 1);
	assert_string_equal(e[2].targets, "n9");
	free(e);
	assert_int_equal(oc_audit_read(path, 3, &e, NULL, err, sizeof(err)), 3);
	free(e);

	assert_int_equal(oc_audit_read(path, 0, &e, &bad, err, sizeof(err)), 0);
	assert_null(e);
	assert_int_equal(oc_audit_read(tmpdir, 3, &e, &bad, err, sizeof(err)), -1);

	/* an offset other than +0000 */
	path_in_tmp(path, sizeof(path), "offset.log");
	write_raw(path, "{\"schema\":1,\"time\":\"2026-11-29T16:20:01+0100\",\"action\":\"x\"}\n"
			"{\"schema\":1,\"time\":\"2026-11-29T10:50:01-0430\",\"action\":\"y\"}\n");
	assert_int_equal(oc_audit_read(path, 5, &e, &bad, err, sizeof(err)), 2);
	assert_int_equal(e[0].time, T0);
	assert_int_equal(e[1].time, T0);
	assert_string_equal(e[1].user, "");
	free(e);

}

/* What oc_audit_read refuses, and a log of nothing but bad lines. */
static void test_read_refusals(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], err[256];
	struct oc_audit_entry *e = (struct oc_audit_entry *)1;
	size_t bad = 99;

	path_in_tmp(path, sizeof(path), "plain.log");
	write_raw(path, "\n");
	/* no path; a path that cannot be opened; a directory */
	assert_int_equal(oc_audit_read(NULL, 3, &e, &bad, err, sizeof(err)), -1);
	assert_string_equal(err, "audit log: no path");
	assert_int_equal(oc_audit_read("", 3, &e, &bad, err, sizeof(err)), -1);
	assert_string_equal(err, "audit log: no path");
	char below[PATH_MAX + 8];
	snprintf(below, sizeof(below), "%s/x", path);
	assert_int_equal(oc_audit_read(below, 3, &e, &bad, err, sizeof(err)), -1);
	char want[PATH_MAX + 64];
	snprintf(want, sizeof(want), "audit log %s: Not a directory", below);
	assert_string_equal(err, want);
	assert_int_equal(oc_audit_read(tmpdir, 3, &e, &bad, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "audit log %s: not a regular file", tmpdir);
	assert_string_equal(err, want);
	assert_null(e);

	/* only lines that do not parse: none read, all counted */
	path_in_tmp(path, sizeof(path), "bad.log");
	write_raw(path, "garbage\n[1]\n\n{\"schema\":1}\n");
	bad = 99;
	assert_int_equal(oc_audit_read(path, 5, &e, &bad, err, sizeof(err)), 0);
	assert_null(e);
	assert_int_equal(bad, 3);
}

static void test_read_big_and_long(void **state)
{
	(void)state;
	clear_env();
	char path[PATH_MAX], err[256];
	path_in_tmp(path, sizeof(path), "big.log");
	/* 3000 lines of about 700 bytes: 2 MB, many times the first chunk */
	static char command[600];
	memset(command, 'x', sizeof(command) - 1);
	command[sizeof(command) - 1] = '\0';
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 3000; i++) {
		char targets[32];
		snprintf(targets, sizeof(targets), "n%d", i);
		struct oc_audit_rec r = sample();
		r.time = T0 + i;
		r.targets = targets;
		r.command = command;
		char *line = oc_audit_format(&r);
		fputs(line, f);
		free(line);
	}
	fclose(f);
	struct oc_audit_entry *e = NULL;
	size_t bad = 99;
	long n = oc_audit_read(path, 2000, &e, &bad, err, sizeof(err));
	assert_int_equal(n, 2000);
	assert_int_equal(bad, 0);
	for (int i = 0; i < 2000; i++) {
		char want[32];
		snprintf(want, sizeof(want), "n%d", 1000 + i);
		assert_string_equal(e[i].targets, want);
	}
	free(e);
	n = oc_audit_read(path, 5000, &e, &bad, err, sizeof(err));
	assert_int_equal(n, 3000);
	assert_string_equal(e[0].targets, "n0");
	free(e);

	/* strings longer than the fields: cut at a character boundary */
	path_in_tmp(path, sizeof(path), "long.log");
	static char longcmd[3001], longerr[2000];
	for (int i = 0; i < 1500; i++)
		memcpy(longcmd + 2 * i, "\xc3\xa9", 2);
	longcmd[3000] = '\0';
	memset(longerr, 'e', sizeof(longerr) - 1);
	longerr[sizeof(longerr) - 1] = '\0';
	struct oc_audit_rec r = sample();
	r.command = longcmd;
	r.error = longerr;
	char *line = oc_audit_format(&r);
	write_raw(path, line);
	free(line);
	assert_int_equal(oc_audit_read(path, 1, &e, &bad, err, sizeof(err)), 1);
	assert_int_equal(strlen(e[0].command), 1022); /* 511 × 2 bytes */
	json_t *js = json_string(e[0].command); /* NULL when not valid UTF-8 */
	assert_non_null(js);
	json_decref(js);
	assert_int_equal(strlen(e[0].error), sizeof(e[0].error) - 1);
	free(e);
}

int main(int argc, char **argv)
{
	(void)argc;
	const char *base = strrchr(argv[0], '/');
	if (strcmp(base ? base + 1 : argv[0], "ssm-session-worker") == 0)
		return ssm_worker_main();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_keys),
		cmocka_unit_test(test_format_invalid_utf8),
		cmocka_unit_test(test_format_params),
		cmocka_unit_test(test_format_ssm_from_proc),
		cmocka_unit_test(test_append_creates),
		cmocka_unit_test(test_append_concurrent),
		cmocka_unit_test(test_append_refusals),
		cmocka_unit_test(test_append_after_torn_line),
		cmocka_unit_test(test_read_intent_outcome),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_read_tail),
		cmocka_unit_test(test_read_refusals),
		cmocka_unit_test(test_read_big_and_long),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
