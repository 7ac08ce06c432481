/* sacctmgr.c: onboarding through the sacctmgr binary (sacctmgr.h): the
 * accounting state of an account read from `sacctmgr -P -n show ...`,
 * plan steps run and their outcome told apart (done / already there /
 * failed) from sacctmgr's exit code and its own words. */
#include "core/strbuf.h"
#include "source/sacctmgr.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "source/exec.h"

/* Room for the output of one read command (the whole QoS table, the
 * associations of one account): far above what struct oc_onb_state can
 * hold, so a cut output is an error, never a silent half state. */
#define READ_OUT_MAX (1024 * 1024)
/* Room for the output of one step. */
#define STEP_OUT_MAX (64 * 1024)
/* Most arguments of one read command. */
#define READ_MAX_ARGS 12

/* Error messages (core/strbuf.h). */
#define seterr oc_seterr

/* ---- helpers ----------------------------------------------------------- */

/* Whether name is a plain account or cluster name sacctmgr takes as one
 * name (no list, no option, no spaces). */
static bool plain_name(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n >= OC_ONB_NAME_MAX || name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '.' || c == '-'))
			return false;
	}
	return true;
}

/* The sacctmgr to run: "sacctmgr" (PATH) or bindir/sacctmgr. Returns 0,
 * -1 when the path does not fit. */
static int sacctmgr_bin(const char *bindir, char *bin, size_t len)
{
	if (!bindir || !*bindir)
		return snprintf(bin, len, "sacctmgr") < (int)len ? 0 : -1;
	size_t n = strlen(bindir);
	while (n > 1 && bindir[n - 1] == '/')
		n--;
	int w = snprintf(bin, len, "%.*s/sacctmgr", (int)n, bindir);
	return w > 0 && (size_t)w < len ? 0 : -1;
}

/* s without leading blanks, and its length without trailing ones. */
static const char *trim(const char *s, size_t len, size_t *outlen)
{
	while (len > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
		s++;
		len--;
	}
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	*outlen = len;
	return s;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t p = strlen(prefix);
	return len >= p && memcmp(s, prefix, p) == 0;
}

static bool ends(const char *s, size_t len, const char *suffix)
{
	size_t p = strlen(suffix);
	return len >= p && memcmp(s + len - p, suffix, p) == 0;
}

static bool equals(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* Calls fn on every non-blank line of text (trimmed, not NUL-terminated).
 * Stops when fn returns false. Returns false when fn did. */
static bool each_line(const char *text, bool (*fn)(const char *line, size_t len, void *arg), void *arg)
{
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t raw = nl ? (size_t)(nl - p) : strlen(p);
		size_t len;
		const char *line = trim(p, raw, &len);
		if (len > 0 && !fn(line, len, arg))
			return false;
		p += raw;
		if (*p == '\n')
			p++;
	}
	return true;
}

/* Whether one of marks[0..n-1] occurs in line (len bytes). */
static bool has_mark(const char *line, size_t len, const char *const *marks, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t m = strlen(marks[i]);
		for (size_t k = 0; k + m <= len; k++)
			if (memcmp(line + k, marks[i], m) == 0)
				return true;
	}
	return false;
}

/* The line sacctmgr prints when it cannot reach slurmdbd (22.05 to
 * 25.11: persist_conn.c, dbd_conn.c; "Problem ... database" from the
 * show functions when the connection breaks under them). */
static bool dbd_line(const char *line, size_t len)
{
	/* Only sacctmgr's own error lines, never an echoed description. */
	if (!starts(line, len, "sacctmgr: error:") && !starts(line, len, "error:") &&
	    !starts(line, len, "Problem "))
		return false;
	static const char *const marks[] = {
		"slurm_persist_conn_open", "Sending PersistInit msg", "No response to persist_init",
		"Problem talking to the database", "from database.  Contact your admin",
	};
	return has_mark(line, len, marks, sizeof(marks) / sizeof(marks[0]));
}

/* A line by which sacctmgr says it could not get a munge credential
 * (munged down, or a socket it cannot reach): then every request fails
 * with a persist_conn error too, which is not slurmdbd's fault. */
static bool munge_line(const char *line, size_t len)
{
	if (!starts(line, len, "sacctmgr: error:") && !starts(line, len, "error:"))
		return false;
	static const char *const marks[] = {"Munge encode failed", "Munge decode failed", "has authentication error"};
	return has_mark(line, len, marks, sizeof(marks) / sizeof(marks[0]));
}

struct find_arg {
	bool (*match)(const char *line, size_t len);
	const char *line;
	size_t len;
};

static bool find_cb(const char *line, size_t len, void *arg)
{
	struct find_arg *fa = arg;
	if (!fa->match(line, len))
		return true;
	fa->line = line;
	fa->len = len;
	return false;
}

/* The first line of text that match accepts, without sacctmgr's
 * "sacctmgr: error: " prefix; NULL when there is none. */
static const char *find_line(const char *text, bool (*match)(const char *, size_t), size_t *len)
{
	struct find_arg fa = {.match = match};
	if (each_line(text, find_cb, &fa))
		return NULL;
	const char *l = fa.line;
	size_t n = fa.len;
	static const char *const prefixes[] = {"sacctmgr: error: ", "error: "};
	for (size_t i = 0; i < 2; i++)
		if (starts(l, n, prefixes[i])) {
			l += strlen(prefixes[i]);
			n -= strlen(prefixes[i]);
		}
	*len = n;
	return l;
}

/* A line by which sacctmgr says that it did not do what was asked,
 * although it may exit 0. */
static bool failure_line(const char *line, size_t len)
{
	return starts(line, len, "sacctmgr: error:") || starts(line, len, "sacctmgr: fatal:") ||
	       starts(line, len, "error:") || starts(line, len, "Error ") || equals(line, len, "Changes Discarded") ||
	       starts(line, len, "These associations don't have access to their default qos");
}

/* A line by which sacctmgr says that what an add asked for exists.
 * 24.11+ answers an "add user" whose associations all exist with
 * "Request didn't affect anything" / "Nothing added." / "Make sure the
 * accounts requested here have been added ..." (user_functions.c), the
 * same words as for an account the cluster does not have: the onboarding's
 * read-back (onboard_apply.c) tells the two apart. */
static bool already_line(const char *line, size_t len)
{
	return equals(line, len, "Nothing new added.") ||
	       equals(line, len, "Data has not changed since time specified") ||
	       (starts(line, len, "This cluster ") && ends(line, len, " already exists.  Not adding.")) ||
	       starts(line, len, "Already existing account ") || equals(line, len, "Request didn't affect anything") ||
	       equals(line, len, "Nothing added.") ||
	       starts(line, len, "Make sure the accounts requested here have been added to the system/cluster.");
}

static bool not_already_cb(const char *line, size_t len, void *arg)
{
	(void)arg;
	return already_line(line, len);
}

/* Whether every non-blank line of text says "already there" (and there
 * is at least one). */
static bool only_already(const char *text)
{
	size_t len;
	trim(text, strlen(text), &len);
	return len > 0 && each_line(text, not_already_cb, NULL);
}

/* prefix and text (trimmed) into out, cut to fit. */
static void copy_text(char *out, size_t outlen, const char *prefix, const char *text)
{
	if (!out || !outlen)
		return;
	size_t len;
	const char *t = trim(text, strlen(text), &len);
	snprintf(out, outlen, "%s%.*s", prefix, (int)(len > INT_MAX ? INT_MAX : len), t);
}

struct join_arg {
	char *dst;
	size_t len;
};

static bool join_cb(const char *line, size_t len, void *arg)
{
	struct join_arg *ja = arg;
	size_t off = strlen(ja->dst);
	if (off + 1 >= ja->len)
		return false;
	snprintf(ja->dst + off, ja->len - off, "%s%.*s", off ? "; " : "", (int)(len > 4096 ? 4096 : len), line);
	return true;
}

/* The non-blank lines of text, trimmed, joined with "; " into dst (len
 * bytes, cut to fit): a message on one line. */
static void join_lines(char *dst, size_t len, const char *text)
{
	if (!dst || !len)
		return;
	dst[0] = '\0';
	struct join_arg ja = {.dst = dst, .len = len};
	each_line(text, join_cb, &ja);
}

/* Runs argv locally (t NULL: oc_exec, stdout and stderr together) or over
 * t (stdout, then stderr, into out). The contract of oc_exec. */
static int sacctmgr_exec(struct oc_transport *t, const char *const argv[], int timeout_s, char *out, size_t outlen,
			 int *status, char *xerr, size_t xerrlen)
{
	if (!t)
		return oc_exec(argv, timeout_s, out, outlen, status, xerr, xerrlen);
	struct oc_run_result r;
	xerr[0] = '\0';
	*status = -1;
	out[0] = '\0';
	if (t->ops->run(t, argv, timeout_s, &r, xerr, xerrlen) < 0) {
		oc_run_result_clear(&r);
		return -1;
	}
	*status = r.exit_status;
	snprintf(out, outlen, "%s%s%s", r.out ? r.out : "", r.out_len && r.err_len && r.out[r.out_len - 1] != '\n' ? "\n" : "",
		 r.errout ? r.errout : "");
	oc_run_result_clear(&r);
	return 0;
}

/* ---- reading ----------------------------------------------------------- */

/* Runs sacctmgr args... for a read (-P -n show ...). Returns 0 with its
 * output in out (exit 0, not cut), or -1 with a message in err. */
static int run_read(struct oc_transport *t, const char *bindir, const char *const *args, char *out, size_t outlen, char *err,
		    size_t errlen)
{
	char bin[PATH_MAX];
	if (sacctmgr_bin(bindir, bin, sizeof(bin)) < 0) {
		seterr(err, errlen, "Slurm bin folder too long: %.64s...", bindir);
		return -1;
	}
	const char *argv[READ_MAX_ARGS + 2];
	size_t n = 0;
	argv[n++] = bin;
	for (; args[n - 1] && n <= READ_MAX_ARGS; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	/* "show assoc" for messages. */
	char what[64];
	snprintf(what, sizeof(what), "%s %s", args[2] ? args[2] : "", args[2] && args[3] ? args[3] : "");

	int status;
	char xerr[512];
	if (sacctmgr_exec(t, argv, OC_SACCTMGR_READ_TIMEOUT_S, out, outlen, &status, xerr, sizeof(xerr)) < 0) {
		seterr(err, errlen, "%s", xerr);
		return -1;
	}
	size_t len;
	const char *line;
	if (status == OC_EXEC_TIMED_OUT) {
		seterr(err, errlen, "slurmdbd does not answer: sacctmgr %s gave no answer within %d s (killed)", what,
		       OC_SACCTMGR_READ_TIMEOUT_S);
		return -1;
	}
	if ((line = find_line(out, munge_line, &len))) {
		seterr(err, errlen, "no munge credential (is munged running?): %.*s", (int)len, line);
		return -1;
	}
	if ((line = find_line(out, dbd_line, &len))) {
		seterr(err, errlen, "slurmdbd does not answer: %.*s", (int)len, line);
		return -1;
	}
	if (status != 0) {
		char text[1024];
		join_lines(text, sizeof(text), out);
		if (status > 0)
			seterr(err, errlen, "sacctmgr %s failed (exit %d): %s", what, status, text);
		else
			seterr(err, errlen, "sacctmgr %s %s: %s", what, xerr, text);
		return -1;
	}
	if (strlen(out) >= outlen - 1) {
		seterr(err, errlen, "sacctmgr %s printed more than %zu bytes", what, outlen - 1);
		return -1;
	}
	return 0;
}

/* Splits line (len bytes) at '|' into exactly nf fields, NUL-terminated
 * copies in buf; with last_rest, the last field takes the rest of the line
 * ('|' included). Returns 0, -1 when the line has another shape. */
static int split_fields(const char *line, size_t len, char *buf, size_t buflen, const char **f, size_t nf,
			bool last_rest)
{
	if (len + 1 > buflen)
		return -1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	size_t k = 0;
	char *p = buf;
	f[k++] = p;
	while (k < nf) {
		char *bar = strchr(p, '|');
		if (!bar)
			return -1;
		*bar = '\0';
		p = bar + 1;
		f[k++] = p;
	}
	if (!last_rest && strchr(p, '|'))
		return -1;
	return 0;
}

/* Copies a name field into dst (OC_ONB_NAME_MAX). Returns 0, -1 when it
 * does not fit. */
static int copy_name(char *dst, const char *src)
{
	size_t n = strlen(src);
	if (n >= OC_ONB_NAME_MAX)
		return -1;
	memcpy(dst, src, n + 1);
	return 0;
}

/* A limit field: "" = OC_ONB_NONE, else a non-negative integer. Returns
 * 0, -1 when it is something else. */
static int parse_limit(const char *s, int64_t *v)
{
	if (!*s) {
		*v = OC_ONB_NONE;
		return 0;
	}
	int64_t x = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || x > (INT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (*p - '0');
	}
	*v = x;
	return 0;
}

/* A TRES memory value in MB: "2000M", "3G", "1T", a bare number is MB
 * (sacctmgr prints a unit only when the value divides exactly). Returns 0,
 * -1 when it is not one. */
static int parse_mem_mb(const char *s, int64_t *v)
{
	char num[32];
	size_t n = strlen(s);
	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	int64_t mul = 1;
	bool kilo = false;
	switch (num[n - 1]) {
	case 'K': kilo = true; num[--n] = '\0'; break;
	case 'M': num[--n] = '\0'; break;
	case 'G': mul = 1024; num[--n] = '\0'; break;
	case 'T': mul = 1024 * 1024; num[--n] = '\0'; break;
	case 'P': mul = (int64_t)1024 * 1024 * 1024; num[--n] = '\0'; break;
	default: break;
	}
	int64_t x;
	if (n == 0 || parse_limit(num, &x) < 0 || x == OC_ONB_NONE || x > INT64_MAX / mul)
		return -1;
	*v = kilo ? (x + 1023) / 1024 : x * mul;
	return 0;
}

/* GrpTRES "cpu=100,gres/gpu=8,mem=3G" into the state's quotas (other TRES
 * are left out). Returns 0, -1 with err. */
static int parse_grptres(const char *s, struct oc_onb_state *st, char *err, size_t errlen)
{
	char buf[1024];
	if (strlen(s) >= sizeof(buf)) {
		seterr(err, errlen, "GrpTRES too long: %.64s...", s);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	char *save = NULL;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq) {
			seterr(err, errlen, "unexpected GrpTRES from sacctmgr: %s", s);
			return -1;
		}
		*eq = '\0';
		const char *val = eq + 1;
		int rc = 0;
		if (!strcmp(item, "gres/gpu"))
			rc = parse_limit(val, &st->gpu_quota);
		else if (!strcmp(item, "cpu"))
			rc = parse_limit(val, &st->cpu_quota);
		else if (!strcmp(item, "mem"))
			rc = parse_mem_mb(val, &st->mem_quota_mb);
		if (rc < 0) {
			seterr(err, errlen, "unexpected GrpTRES value from sacctmgr: %s=%s", item, val);
			return -1;
		}
	}
	return 0;
}

/* The QoS list "a,b,c" into st->qos. Returns 0, -1 with err. */
static int parse_qos_list(const char *s, struct oc_onb_state *st, char *err, size_t errlen)
{
	st->nqos = 0;
	for (const char *p = s; *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n > 0) {
			if (st->nqos >= OC_ONB_MAX_QOS) {
				seterr(err, errlen, "the account has more than %d QoS", OC_ONB_MAX_QOS);
				return -1;
			}
			if (n >= OC_ONB_NAME_MAX) {
				seterr(err, errlen, "QoS name too long: %.64s...", p);
				return -1;
			}
			memcpy(st->qos[st->nqos], p, n);
			st->qos[st->nqos][n] = '\0';
			st->nqos++;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

struct parse_ctx {
	struct oc_onb_state *st;
	const char *account;
	char *err;
	size_t errlen;
	int rc;
	/* clusters */
	char (*names)[OC_ONB_NAME_MAX];
	size_t nnames, maxnames;
};

static bool parse_fail(struct parse_ctx *pc, const char *what, const char *line, size_t len)
{
	seterr(pc->err, pc->errlen, "unexpected output of sacctmgr %s: %.*s", what, (int)(len > 200 ? 200 : len),
	       line);
	pc->rc = -1;
	return false;
}

/* show cluster / show event: one name per line. */
static bool cluster_cb(const char *line, size_t len, void *arg)
{
	struct parse_ctx *pc = arg;
	if (len >= OC_ONB_NAME_MAX || memchr(line, '|', len))
		return parse_fail(pc, "show cluster", line, len);
	for (size_t i = 0; i < pc->nnames; i++)
		if (equals(line, len, pc->names[i]))
			return true;
	if (pc->nnames < pc->maxnames) {
		memcpy(pc->names[pc->nnames], line, len);
		pc->names[pc->nnames][len] = '\0';
		pc->nnames++;
	}
	return true;
}

/* show account: account|description. */
static bool account_cb(const char *line, size_t len, void *arg)
{
	struct parse_ctx *pc = arg;
	char buf[1024];
	const char *f[2];
	if (split_fields(line, len, buf, sizeof(buf), f, 2, true) < 0)
		return parse_fail(pc, "show account", line, len);
	if (!strcasecmp(f[0], pc->account))
		snprintf(pc->st->description, sizeof(pc->st->description), "%s", f[1]);
	return true;
}

/* show assoc: account|user|partition|parentname|grptres|fairshare|qos|defaultqos. */
static bool assoc_cb(const char *line, size_t len, void *arg)
{
	struct parse_ctx *pc = arg;
	struct oc_onb_state *st = pc->st;
	char buf[4096];
	const char *f[8];
	if (split_fields(line, len, buf, sizeof(buf), f, 8, false) < 0)
		return parse_fail(pc, "show assoc", line, len);
	if (strcasecmp(f[0], pc->account) != 0)
		return true;
	if (f[1][0]) { /* a user association (one per partition) */
		for (size_t i = 0; i < st->nusers; i++)
			if (!strcmp(st->users[i], f[1]))
				return true;
		if (st->nusers >= OC_ONB_MAX_USERS) {
			seterr(pc->err, pc->errlen, "account %s has more than %d users", pc->account,
			       OC_ONB_MAX_USERS);
			pc->rc = -1;
			return false;
		}
		if (copy_name(st->users[st->nusers], f[1]) < 0)
			return parse_fail(pc, "show assoc", line, len);
		st->nusers++;
		return true;
	}
	st->account_exists = true;
	if (copy_name(st->parent, f[3]) < 0 || copy_name(st->default_qos, f[7]) < 0)
		return parse_fail(pc, "show assoc", line, len);
	if (parse_grptres(f[4], st, pc->err, pc->errlen) < 0 || parse_qos_list(f[6], st, pc->err, pc->errlen) < 0) {
		pc->rc = -1;
		return false;
	}
	if (!strcasecmp(f[5], "parent"))
		st->fairshare = OC_ONB_NONE;
	else if (parse_limit(f[5], &st->fairshare) < 0)
		return parse_fail(pc, "show assoc", line, len);
	return true;
}

/* show qos: name|maxjobspu|maxsubmitpu|priority. */
static bool qos_cb(const char *line, size_t len, void *arg)
{
	struct parse_ctx *pc = arg;
	struct oc_onb_state *st = pc->st;
	char buf[1024];
	const char *f[4];
	if (split_fields(line, len, buf, sizeof(buf), f, 4, false) < 0)
		return parse_fail(pc, "show qos", line, len);
	size_t cap = sizeof(st->all_qos) / sizeof(st->all_qos[0]);
	if (st->nall_qos >= cap) {
		seterr(pc->err, pc->errlen, "the cluster has more than %zu QoS", cap);
		pc->rc = -1;
		return false;
	}
	struct oc_onb_qos_state *q = &st->all_qos[st->nall_qos];
	if (copy_name(q->name, f[0]) < 0 || parse_limit(f[1], &q->max_jobs_pu) < 0 ||
	    parse_limit(f[2], &q->max_submit_pu) < 0 || parse_limit(f[3], &q->priority) < 0)
		return parse_fail(pc, "show qos", line, len);
	st->nall_qos++;
	return true;
}

/* The local cluster's name into st->cluster. Returns 0, -1 with err. */
static int read_cluster(struct oc_transport *t, const char *bindir, char *out, struct parse_ctx *pc)
{
	char names[16][OC_ONB_NAME_MAX];
	pc->names = names;
	pc->nnames = 0;
	pc->maxnames = 16;
	const char *show_cluster[] = {"-P", "-n", "show", "cluster", "format=cluster", NULL};
	if (run_read(t, bindir, show_cluster, out, READ_OUT_MAX, pc->err, pc->errlen) < 0)
		return -1;
	each_line(out, cluster_cb, pc);
	if (pc->rc < 0)
		return -1;
	size_t nall = pc->nnames;
	if (nall == 0) {
		seterr(pc->err, pc->errlen, "no cluster in the accounting (sacctmgr show cluster is empty)");
		return -1;
	}
	if (nall == 1) {
		snprintf(pc->st->cluster, sizeof(pc->st->cluster), "%s", names[0]);
		return 0;
	}
	/* Several clusters share this slurmdbd: the local one is the one with
	 * an open cluster event (sacctmgr filters events by its own
	 * ClusterName). */
	char all[512] = "";
	for (size_t i = 0, len = 0; i < nall; i++) {
		int w = snprintf(all + len, sizeof(all) - len, "%s%s", i ? ", " : "", names[i]);
		if (w < 0 || (size_t)w >= sizeof(all) - len)
			break; /* only for the message below: cut there */
		len += (size_t)w;
	}
	const char *show_event[] = {"-P", "-n", "show", "event", "event=cluster", "format=cluster", NULL};
	if (run_read(t, bindir, show_event, out, READ_OUT_MAX, pc->err, pc->errlen) < 0)
		return -1;
	char local[1][OC_ONB_NAME_MAX];
	pc->names = local;
	pc->nnames = 0;
	pc->maxnames = 1;
	each_line(out, cluster_cb, pc);
	if (pc->rc < 0)
		return -1;
	for (size_t i = 0; pc->nnames && i < nall; i++)
		if (!strcmp(names[i], local[0])) {
			snprintf(pc->st->cluster, sizeof(pc->st->cluster), "%s", local[0]);
			return 0;
		}
	seterr(pc->err, pc->errlen, "the accounting has several clusters (%s) and sacctmgr names none as this one",
	       all);
	return -1;
}

/* Reads the accounting state of account (sacctmgr.h). */
int oc_sacctmgr_read_state_on(struct oc_transport *t, const char *bindir, const char *account, struct oc_onb_state *st, char *err,
			   size_t errlen)
{
	memset(st, 0, sizeof(*st));
	st->gpu_quota = st->cpu_quota = st->mem_quota_mb = st->fairshare = OC_ONB_NONE;
	if (!account || !plain_name(account)) {
		seterr(err, errlen, "not an account name: \"%.64s\"", account ? account : "");
		return -1;
	}
	char *out = malloc(READ_OUT_MAX);
	if (!out) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	struct parse_ctx pc = {.st = st, .account = account, .err = err, .errlen = errlen};
	int rc = -1;
	if (read_cluster(t, bindir, out, &pc) < 0)
		goto out;
	if (!plain_name(st->cluster)) {
		seterr(err, errlen, "unexpected cluster name from sacctmgr: \"%s\"", st->cluster);
		goto out;
	}

	char where_name[OC_ONB_NAME_MAX + 8], where_acct[OC_ONB_NAME_MAX + 16], where_cluster[OC_ONB_NAME_MAX + 16];
	snprintf(where_name, sizeof(where_name), "name=%s", account);
	snprintf(where_acct, sizeof(where_acct), "account=%s", account);
	snprintf(where_cluster, sizeof(where_cluster), "cluster=%s", st->cluster);

	/* Description last: it is the one field that may hold a '|'. */
	const char *show_account[] = {"-P", "-n", "show", "account", "where", where_name, "format=account,descr", NULL};
	if (run_read(t, bindir, show_account, out, READ_OUT_MAX, err, errlen) < 0)
		goto out;
	each_line(out, account_cb, &pc);
	if (pc.rc < 0)
		goto out;

	const char *show_assoc[] = {"-P", "-n", "show", "assoc", "where", where_acct, where_cluster,
				    "format=account,user,partition,parentname,grptres,fairshare,qos,defaultqos", NULL};
	if (run_read(t, bindir, show_assoc, out, READ_OUT_MAX, err, errlen) < 0)
		goto out;
	each_line(out, assoc_cb, &pc);
	if (pc.rc < 0)
		goto out;

	const char *show_qos[] = {"-P", "-n", "show", "qos", "format=name,maxjobspu,maxsubmitpu,priority", NULL};
	if (run_read(t, bindir, show_qos, out, READ_OUT_MAX, err, errlen) < 0)
		goto out;
	each_line(out, qos_cb, &pc);
	if (pc.rc < 0)
		goto out;
	rc = 0;
out:
	free(out);
	if (rc < 0) {
		char cluster[OC_ONB_NAME_MAX];
		memcpy(cluster, st->cluster, sizeof(cluster));
		memset(st, 0, sizeof(*st));
		st->gpu_quota = st->cpu_quota = st->mem_quota_mb = st->fairshare = OC_ONB_NONE;
		memcpy(st->cluster, cluster, sizeof(cluster));
	}
	return rc;
}

/* ---- steps ------------------------------------------------------------- */

/* Runs one plan step (sacctmgr.h). */
int oc_sacctmgr_run_step_on(struct oc_transport *t, const char *bindir, const struct oc_onb_step *step, char *out, size_t outlen,
			 int timeout_s)
{
	if (out && outlen)
		out[0] = '\0';
	if (!step || !step->argv[0] || strcmp(step->argv[0], "sacctmgr") != 0) {
		copy_text(out, outlen, "", "not a sacctmgr step (argv[0] must be \"sacctmgr\")");
		return -1;
	}
	char bin[PATH_MAX];
	if (sacctmgr_bin(bindir, bin, sizeof(bin)) < 0) {
		copy_text(out, outlen, "Slurm bin folder too long: ", bindir);
		return -1;
	}
	const char *argv[OC_ONB_MAX_ARGS + 1];
	argv[0] = bin;
	size_t n = 1;
	for (; n < OC_ONB_MAX_ARGS && step->argv[n]; n++)
		argv[n] = step->argv[n];
	argv[n] = NULL;
	if (timeout_s <= 0)
		timeout_s = OC_SACCTMGR_STEP_TIMEOUT_S;

	char *buf = malloc(STEP_OUT_MAX);
	if (!buf) {
		copy_text(out, outlen, "", "out of memory");
		return -1;
	}
	int status;
	char xerr[512];
	int rc = -1;
	if (sacctmgr_exec(t, argv, timeout_s, buf, STEP_OUT_MAX, &status, xerr, sizeof(xerr)) < 0)
		copy_text(out, outlen, "", xerr);
	else
		rc = oc_sacctmgr_step_outcome(buf, status, step->add, timeout_s, xerr, out, outlen);
	free(buf);
	return rc;
}

/* Tells a step's outcome from what sacctmgr printed (sacctmgr.h). */
int oc_sacctmgr_step_outcome(const char *text, int status, bool add, int timeout_s, const char *why, char *out,
			     size_t outlen)
{
	size_t len;
	const char *line;
	int rc = -1;

	if (out && outlen)
		out[0] = '\0';
	if (!text)
		text = "";
	if (!why)
		why = "";
	if ((line = find_line(text, munge_line, &len))) {
		char msg[600];
		snprintf(msg, sizeof(msg), "%.*s", (int)(len > 500 ? 500 : len), line);
		copy_text(out, outlen, "no munge credential (is munged running?): ", msg);
	} else if ((line = find_line(text, dbd_line, &len))) {
		char msg[600];
		snprintf(msg, sizeof(msg), "%.*s", (int)(len > 500 ? 500 : len), line);
		copy_text(out, outlen, "slurmdbd does not answer: ", msg);
	} else if (status == OC_EXEC_TIMED_OUT) {
		char msg[700];
		snprintf(msg, sizeof(msg), "slurmdbd does not answer: sacctmgr gave no answer within %d s (killed)%s",
			 timeout_s, text[0] ? "; it printed: " : "");
		copy_text(out, outlen, msg, text);
	} else if (status < 0) {
		char msg[700];
		snprintf(msg, sizeof(msg), "sacctmgr %.500s%s", why, text[0] ? "; it printed: " : "");
		copy_text(out, outlen, msg, text);
	} else if (status == 0) {
		copy_text(out, outlen, "", text);
		rc = find_line(text, failure_line, &len) ? -1 : 0;
	} else if (status == 1 && add && only_already(text)) {
		copy_text(out, outlen, "", text);
		rc = 1;
	} else {
		trim(text, strlen(text), &len);
		if (len == 0) {
			char msg[80];
			snprintf(msg, sizeof(msg), "sacctmgr exited with status %d and printed nothing", status);
			copy_text(out, outlen, "", msg);
		} else {
			copy_text(out, outlen, "", text);
		}
	}
	return rc;
}

int oc_sacctmgr_read_state(const char *bindir, const char *account, struct oc_onb_state *st, char *err,
			   size_t errlen)
{
	return oc_sacctmgr_read_state_on(NULL, bindir, account, st, err, errlen);
}

int oc_sacctmgr_run_step(const char *bindir, const struct oc_onb_step *step, char *out, size_t outlen,
			 int timeout_s)
{
	return oc_sacctmgr_run_step_on(NULL, bindir, step, out, outlen, timeout_s);
}

/* Parses the output of one read of oc_sacctmgr_read_state (sacctmgr.h). */
int oc_sacctmgr_parse(enum oc_sacctmgr_show show, const char *account, const char *text, struct oc_onb_state *st,
		      char *err, size_t errlen)
{
	char names[16][OC_ONB_NAME_MAX];
	struct parse_ctx pc = {.st = st, .account = account, .err = err, .errlen = errlen};

	if (err && errlen)
		err[0] = '\0';
	if (!st || !text || !account || !plain_name(account)) {
		seterr(err, errlen, "nothing to parse or not an account name");
		return -1;
	}
	switch (show) {
	case OC_SACCTMGR_SHOW_CLUSTER:
		pc.names = names;
		pc.maxnames = 16;
		each_line(text, cluster_cb, &pc);
		if (pc.rc == 0 && pc.nnames == 1)
			snprintf(st->cluster, sizeof(st->cluster), "%s", names[0]);
		break;
	case OC_SACCTMGR_SHOW_ACCOUNT:
		each_line(text, account_cb, &pc);
		break;
	case OC_SACCTMGR_SHOW_ASSOC:
		each_line(text, assoc_cb, &pc);
		break;
	case OC_SACCTMGR_SHOW_QOS:
		each_line(text, qos_cb, &pc);
		break;
	default:
		seterr(err, errlen, "unknown sacctmgr output kind %d", (int)show);
		return -1;
	}
	return pc.rc < 0 ? -1 : 0;
}
