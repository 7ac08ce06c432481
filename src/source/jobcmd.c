/* jobcmd.c: the probe-job commands both writers share (jobcmd.h): checking
 * a job spec, the sbatch argv, sbatch's job id, sacct's per-user counts. */
#include "source/jobcmd.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostlist.h"
#include "core/strbuf.h"
#include "core/strmap.h"

/* Error messages (core/strbuf.h). */
#define seterr oc_seterr

/* A NUL-terminated field of a fixed array: 0, or -1 with a message. */
static int field_check(const char *field, size_t size, const char *what, char *err, size_t errlen)
{
	if (!memchr(field, '\0', size)) {
		seterr(err, errlen, "%s is not terminated", what);
		return -1;
	}
	return 0;
}

/* A name field of a job spec: NUL-terminated in its array, only
 * [A-Za-z0-9_.:@,=-], not starting with '-'; empty only when allowed.
 * Returns 0, or -1 with a message naming the field. */
static int spec_name_check(const char *field, size_t size, const char *what, bool required, char *err,
			   size_t errlen)
{
	if (field_check(field, size, what, err, errlen) < 0)
		return -1;
	if (!field[0]) {
		if (!required)
			return 0;
		seterr(err, errlen, "%s is empty", what);
		return -1;
	}
	if (field[0] == '-') {
		seterr(err, errlen, "%s \"%.64s\" starts with '-'", what, field);
		return -1;
	}
	for (const char *p = field; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!oc_node_name_char(c) && c != ':' && c != '@' && c != ',' && c != '=') {
			if (c >= ' ' && c < 0x7f)
				seterr(err, errlen, "%s: '%c' is not allowed (letters, digits and _ . : @ , = -)",
				       what, c);
			else
				seterr(err, errlen,
				       "%s: byte 0x%02x is not allowed (letters, digits and _ . : @ , = -)", what,
				       (unsigned)c);
			return -1;
		}
	}
	return 0;
}


int oc_jobcmd_check(const struct oc_job_spec *spec, char *err, size_t errlen)
{
	if (spec_name_check(spec->user, sizeof(spec->user), "user", true, err, errlen) < 0 ||
	    spec_name_check(spec->account, sizeof(spec->account), "account", false, err, errlen) < 0 ||
	    spec_name_check(spec->partition, sizeof(spec->partition), "partition", false, err, errlen) < 0 ||
	    spec_name_check(spec->qos, sizeof(spec->qos), "qos", false, err, errlen) < 0 ||
	    spec_name_check(spec->name, sizeof(spec->name), "job name", true, err, errlen) < 0 ||
	    spec_name_check(spec->signal, sizeof(spec->signal), "signal", false, err, errlen) < 0 ||
	    spec_name_check(spec->nodelist, sizeof(spec->nodelist), "node list", false, err, errlen) < 0 ||
	    field_check(spec->command, sizeof(spec->command), "command", err, errlen) < 0)
		return -1;
	for (const char *p = spec->command; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f) {
			seterr(err, errlen, "command: control character 0x%02x (one line only)",
			       (unsigned)(unsigned char)*p);
			return -1;
		}
	if (spec->nodes > 100000 || spec->gpus_per_node > 1024 || spec->time_min > 525600 * 10) {
		seterr(err, errlen, "nodes, GPUs per node or time out of range");
		return -1;
	}
	return 0;
}

void oc_jobcmd_sbatch_argv(const struct oc_job_spec *spec, const char *runuser, const char *sbatch,
			   struct oc_jobcmd_args *b, const char *argv[OC_JOBCMD_MAX_ARGV])
{
	snprintf(b->name, sizeof(b->name), "%s", spec->name);
	snprintf(b->nodes, sizeof(b->nodes), "%u", (unsigned)spec->nodes);
	snprintf(b->gres, sizeof(b->gres), "--gres=gpu:%u", (unsigned)spec->gpus_per_node);
	snprintf(b->time, sizeof(b->time), "--time=%u", (unsigned)spec->time_min);
	snprintf(b->signal, sizeof(b->signal), "--signal=%s", spec->signal);
	snprintf(b->wrap, sizeof(b->wrap), "--wrap=%s", spec->command[0] ? spec->command : "sleep 600");

	size_t n = 0;
	if (runuser) {
		argv[n++] = runuser;
		argv[n++] = "-u";
		argv[n++] = spec->user;
		argv[n++] = "--";
	}
	argv[n++] = sbatch;
	argv[n++] = "--parsable";
	argv[n++] = "-J";
	argv[n++] = b->name;
	if (spec->account[0]) {
		argv[n++] = "-A";
		argv[n++] = spec->account;
	}
	if (spec->partition[0]) {
		argv[n++] = "-p";
		argv[n++] = spec->partition;
	}
	if (spec->qos[0]) {
		argv[n++] = "--qos";
		argv[n++] = spec->qos;
	}
	if (spec->nodes) {
		argv[n++] = "-N";
		argv[n++] = b->nodes;
	}
	if (spec->nodelist[0]) {
		argv[n++] = "-w";
		argv[n++] = spec->nodelist;
	}
	if (spec->gpus_per_node)
		argv[n++] = b->gres;
	if (spec->time_min)
		argv[n++] = b->time;
	if (spec->signal[0])
		argv[n++] = b->signal;
	if (spec->requeue)
		argv[n++] = "--requeue";
	if (spec->hold)
		argv[n++] = "--hold";
	argv[n++] = "--mem=1G";
	argv[n++] = "--output=/dev/null";
	argv[n++] = b->wrap;
	argv[n] = NULL;
}

/* Lines of text joined by " / ", trailing blanks dropped, into buf. */
void oc_jobcmd_join(char *buf, size_t len, const char *text)
{
	size_t k = 0;
	if (!len)
		return;
	buf[0] = '\0';
	const char *s = text;
	while (*s) {
		const char *end = strchr(s, '\n');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
			n--;
		if (n) {
			int w = snprintf(buf + k, len - k, "%s%.*s", k ? " / " : "", (int)n, s);
			if (w < 0 || (size_t)w >= len - k) {
				k = len - 1;
				break;
			}
			k += (size_t)w;
		}
		if (!end)
			break;
		s = end + 1;
	}
	buf[k] = '\0';
}

/* The job id of sbatch --parsable: a line "123" or "123;cluster" (other
 * lines, such as warnings, are skipped). Returns 0, or -1 when none. */
int oc_jobcmd_job_id(const char *out, uint32_t *id)
{
	for (const char *s = out; *s;) {
		const char *end = strchr(s, '\n');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		size_t d = 0;
		while (d < n && s[d] >= '0' && s[d] <= '9')
			d++;
		if (d > 0 && d <= 10 && (d == n || s[d] == ';' || s[d] == '\r')) {
			unsigned long long v = strtoull(s, NULL, 10);
			if (v > 0 && v < UINT32_MAX) {
				*id = (uint32_t)v;
				return 0;
			}
		}
		if (!end)
			break;
		s = end + 1;
	}
	return -1;
}

/* One (user, account) pair of sacct_users: key points into sacct's
 * output. */
struct sacct_pair {
	const char *user, *account;
	char *user_end; /* the '|' after user, cut once the map is freed */
	unsigned long jobs;
};

static int sacct_pair_cmp(const void *a, const void *b)
{
	const struct sacct_pair *x = a, *y = b;
	int c = strcmp(x->user, y->user);
	return c ? c : strcmp(x->account, y->account);
}

int oc_jobcmd_sacct_count(char *buf, char *out, size_t outlen, char *err, size_t errlen)
{
	/* Count lines per "user|account" (the second '|' becomes the key's
	 * end), with a hash from key to pair. */
	size_t lines = 1;
	for (const char *p = buf; *p; p++)
		lines += *p == '\n';
	struct sacct_pair *pairs = calloc(lines, sizeof(*pairs));
	struct oc_strmap map;
	if (!pairs || oc_strmap_init(&map, lines) < 0) {
		free(pairs);
		seterr(err, errlen, "out of memory");
		return -1;
	}
	size_t np = 0;
	int rc = 0;
	for (char *s = buf; *s && rc == 0;) {
		char *end = strchr(s, '\n');
		if (end)
			*end = '\0';
		char *bar1 = strchr(s, '|');
		char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		if (*s && (!bar2 || strchr(bar2 + 1, '|'))) {
			seterr(err, errlen, "unexpected sacct line \"%.80s\"", s);
			rc = -1;
			break;
		}
		if (*s) {
			*bar2 = '\0';
			uint32_t k = oc_strmap_get(&map, s);
			if (k == UINT32_MAX) {
				k = (uint32_t)np;
				if (oc_strmap_put(&map, s, k) < 0) {
					seterr(err, errlen, "out of memory");
					rc = -1;
					break;
				}
				pairs[np].user = s;
				pairs[np].account = bar1 + 1;
				pairs[np].user_end = bar1;
				np++;
			}
			pairs[k].jobs++;
		}
		if (!end)
			break;
		s = end + 1;
	}
	oc_strmap_free(&map);
	if (rc == 0) {
		/* Now split the keys into user and account. */
		for (size_t i = 0; i < np; i++)
			*pairs[i].user_end = '\0';
		qsort(pairs, np, sizeof(*pairs), sacct_pair_cmp);
		size_t k = 0;
		for (size_t i = 0; i < np && rc == 0; i++) {
			int w = snprintf(out + k, outlen - k, "%s %s %lu\n", pairs[i].user[0] ? pairs[i].user : "-",
					 pairs[i].account[0] ? pairs[i].account : "-", pairs[i].jobs);
			if (w < 0 || (size_t)w >= outlen - k) {
				out[k] = '\0';
				seterr(err, errlen, "%zu user/account pairs do not fit in %zu bytes", np, outlen);
				rc = -1;
			} else {
				k += (size_t)w;
			}
		}
	}
	free(pairs);
	if (rc < 0) {
		out[0] = '\0';
		return -1;
	}
	return np > INT_MAX ? INT_MAX : (int)np;
}
