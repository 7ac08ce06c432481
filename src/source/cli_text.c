/* cli_text.c: the text forms of the Slurm commands into model tables
 * (cli_parse.h), and the node-list resolution the CLI parsers share.
 *
 * `--oneliner` records are "Key=value" words separated by spaces. A value
 * may hold '=' ("TRES=cpu=384,mem=800000M") and, rarely, spaces
 * (a reservation's Comment): a space ends a value only when what follows
 * looks like a key ("[A-Za-z][A-Za-z0-9_/:]*="). */
#include "source/cli_parse.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "actions/writer.h"
#include "core/hostlist.h"
#include "core/jobinfo.h"
#include "core/tres.h"

#define MAX_PAIRS 96

/* ---- node lists -------------------------------------------------------- */

int oc_cli_resolve_nodes(struct oc_arena *a, const char *expr, struct oc_node_index *ix, uint32_t **idx,
			 uint32_t *count)
{
	return oc_node_index_resolve(ix, &oc_core_hostlist_ops, a, expr, idx, count);
}

/* ---- key=value records ------------------------------------------------- */

struct pair {
	const char *k, *v;
	size_t klen, vlen;
};

struct record {
	struct pair p[MAX_PAIRS];
	size_t n;
};

/* Whether s (up to end) starts "Key=". */
static bool key_start(const char *s, const char *end)
{
	if (s >= end || !isalpha((unsigned char)*s))
		return false;
	for (; s < end; s++) {
		if (*s == '=')
			return true;
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '/' && *s != ':')
			return false;
	}
	return false;
}

/* Split one line [s, end) into pairs. */
static void record_split(const char *s, const char *end, struct record *r)
{
	r->n = 0;
	while (s < end && *s == ' ')
		s++;
	while (s < end && r->n < MAX_PAIRS) {
		const char *eq = memchr(s, '=', (size_t)(end - s));
		if (!eq)
			break;
		struct pair *p = &r->p[r->n++];
		p->k = s;
		p->klen = (size_t)(eq - s);
		const char *v = eq + 1, *q = v;
		for (;;) {
			const char *sp = memchr(q, ' ', (size_t)(end - q));
			if (!sp) {
				q = end;
				break;
			}
			const char *nx = sp;
			while (nx < end && *nx == ' ')
				nx++;
			if (nx >= end || key_start(nx, end)) {
				q = sp;
				s = nx;
				break;
			}
			q = sp + 1;
		}
		p->v = v;
		p->vlen = (size_t)(q - v);
		if (q == end)
			s = end;
	}
}

/* The value of key as a NUL-terminated copy in buf (len bytes); NULL when
 * absent. */
static const char *rget(const struct record *r, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i < r->n; i++)
		if (r->p[i].klen == kl && strncasecmp(r->p[i].k, key, kl) == 0) {
			size_t n = r->p[i].vlen < len - 1 ? r->p[i].vlen : len - 1;
			memcpy(buf, r->p[i].v, n);
			buf[n] = '\0';
			return buf;
		}
	return NULL;
}

/* An arena copy of key's value; NULL when absent, empty, "(null)", or one
 * of the words meaning "none" given in nulls ("ALL", "N/A"...). */
static const char *rdup(struct oc_arena *a, const struct record *r, const char *key, const char *const *nulls)
{
	char buf[8192];
	const char *v = rget(r, key, buf, sizeof(buf));
	if (!v || !*v || strcmp(v, "(null)") == 0)
		return NULL;
	for (size_t i = 0; nulls && nulls[i]; i++)
		if (strcmp(v, nulls[i]) == 0)
			return NULL;
	return oc_arena_strdup(a, v);
}

/* The quoted start of a line for error messages: at most 60 bytes. */
static int line_shown(const char *ls, const char *le)
{
	return (int)(le - ls < 60 ? le - ls : 60);
}

/* Splits the line [ls, le) into r, a record of kind key ("PartitionName"),
 * called what in messages. Returns the record's name copied into a, or
 * NULL with err set when the line is not such a record or has no name. */
static const char *record_begin(struct oc_arena *a, const char *ls, const char *le, struct record *r,
				const char *key, const char *what, char *err, size_t errlen)
{
	record_split(ls, le, r);
	size_t kl = strlen(key);
	if (r->n == 0 || r->p[0].klen != kl || strncmp(r->p[0].k, key, kl) != 0) {
		snprintf(err, errlen, "not a %s record: \"%.*s\"", what, line_shown(ls, le), ls);
		return NULL;
	}
	const char *name = rdup(a, r, key, NULL);
	if (!name)
		snprintf(err, errlen, "%s without a name: \"%.*s\"", what, line_shown(ls, le), ls);
	return name;
}

static uint32_t rnum(const struct record *r, const char *key, uint32_t def)
{
	char buf[64];
	const char *v = rget(r, key, buf, sizeof(buf));
	if (!v || !isdigit((unsigned char)*v))
		return def;
	return (uint32_t)strtoul(v, NULL, 10);
}

static bool ryes(const struct record *r, const char *key)
{
	char buf[16];
	const char *v = rget(r, key, buf, sizeof(buf));
	return v && strcasecmp(v, "YES") == 0;
}

/* A time as Slurm prints it into minutes: "[days-]hh:mm:ss", "mm:ss",
 * "mm" (and "days-hh[:mm]", which Slurm also takes); seconds are rounded
 * up to a minute. OC_NONE when unlimited ("UNLIMITED", "Partition_Limit")
 * or unreadable. */
static uint32_t time_minutes(const char *v)
{
	if (!v || !isdigit((unsigned char)*v))
		return OC_NONE;
	unsigned long long d = 0, x[3] = {0, 0, 0};
	const char *s = v;
	const char *dash = strchr(v, '-');
	if (dash) {
		d = strtoull(v, NULL, 10);
		s = dash + 1;
	}
	int n = 0;
	while (n < 3) {
		char *e;
		x[n++] = strtoull(s, &e, 10);
		if (*e != ':')
			break;
		s = e + 1;
	}
	if (d > UINT32_MAX || x[0] > UINT32_MAX || x[1] > UINT32_MAX || x[2] > UINT32_MAX)
		return OC_NONE;
	unsigned long long h = 0, m = 0, sec = 0;
	if (n == 3) { /* [days-]hh:mm:ss */
		h = x[0];
		m = x[1];
		sec = x[2];
	} else if (dash) { /* days-hh[:mm] */
		h = x[0];
		m = n == 2 ? x[1] : 0;
	} else if (n == 2) { /* mm:ss */
		m = x[0];
		sec = x[1];
	} else {
		m = x[0];
	}
	unsigned long long t = d * 1440 + h * 60 + m + (sec > 0);
	return t >= OC_NONE ? OC_NONE : (uint32_t)t;
}

/* "2026-12-01T08:50:42" (local time) into a time_t; 0 when unreadable. */
static time_t iso_time(const char *v)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	if (!v || !strptime(v, "%Y-%m-%dT%H:%M:%S", &tm))
		return 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* A loop over the lines of text: [ls, le) is each line without its '\n'. */
#define FOR_LINES(text, len, ls, le)                                                         \
	for (const char *ls = (text), *end_##ls = (text) + (len), *le = line_end(ls, end_##ls); \
	     ls < end_##ls; ls = le < end_##ls ? le + 1 : end_##ls, le = line_end(ls, end_##ls))

static const char *line_end(const char *s, const char *end)
{
	const char *nl = s < end ? memchr(s, '\n', (size_t)(end - s)) : NULL;
	return nl ? nl : end;
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

/* ---- partitions -------------------------------------------------------- */

int oc_cli_parse_partitions(const char *text, size_t len, struct oc_node_index *ix,
			    const struct oc_partitions *prev, struct oc_partitions **out, char *err, size_t errlen)
{
	*out = NULL;
	struct oc_partitions *t = oc_partitions_new();
	struct record *r = malloc(sizeof(*r));
	if (!t || !r)
		goto oom;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->node_generation = (ix && ix->nodes) ? ix->nodes->h.generation : 0;
	struct oc_arena *a = &t->h.arena;
	t->v = oc_arena_alloc(a, sizeof(*t->v) * count_lines(text, len));
	if (!t->v)
		goto oom;
	static const char *const all[] = {"ALL", NULL};
	static const char *const na[] = {"N/A", NULL};
	FOR_LINES(text, len, ls, le) {
		if (le == ls || strncmp(ls, "No partitions", 13) == 0)
			continue;
		char buf[256];
		struct oc_partition *p = &t->v[t->n];
		memset(p, 0, sizeof(*p));
		p->name = record_begin(a, ls, le, r, "PartitionName", "partition", err, errlen);
		if (!p->name)
			goto fail;
		p->nodes = rdup(a, r, "Nodes", NULL);
		if (ryes(r, "Default"))
			p->flags |= OC_PF_DEFAULT;
		if (ryes(r, "Hidden"))
			p->flags |= OC_PF_HIDDEN;
		if (ryes(r, "RootOnly"))
			p->flags |= OC_PF_ROOT_ONLY;
		if (ryes(r, "ExclusiveUser"))
			p->flags |= OC_PF_EXCLUSIVE_USER;
		const char *st = rget(r, "State", buf, sizeof(buf));
		if (st && strcmp(st, "UP") == 0)
			p->flags |= OC_PF_UP;
		else if (st && strcmp(st, "DRAIN") == 0)
			p->flags |= OC_PF_DRAIN;
		else if (st && strcmp(st, "INACTIVE") == 0)
			p->flags |= OC_PF_INACTIVE;
		p->allow_groups = rdup(a, r, "AllowGroups", all);
		p->allow_accounts = rdup(a, r, "AllowAccounts", all);
		p->allow_qos = rdup(a, r, "AllowQos", all);
		p->qos = rdup(a, r, "QoS", na);
		p->priority_tier = rnum(r, "PriorityTier", 0);
		p->max_time_min = time_minutes(rget(r, "MaxTime", buf, sizeof(buf)));
		p->grace_time_s = rnum(r, "GraceTime", 0);
		p->total_nodes = rnum(r, "TotalNodes", 0);
		p->total_cpus = rnum(r, "TotalCPUs", 0);
		if (oc_cli_resolve_nodes(a, p->nodes, ix, &p->node_idx, &p->node_count) < 0)
			goto oom;
		t->n++;
	}
	free(r);
	*out = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	free(r);
	oc_partitions_unref(&t);
	return -1;
}

/* ---- reservations ------------------------------------------------------ */

int oc_cli_parse_reservations(const char *text, size_t len, struct oc_node_index *ix,
			      const struct oc_reservations *prev, struct oc_reservations **out, char *err,
			      size_t errlen)
{
	*out = NULL;
	struct oc_reservations *t = oc_reservations_new();
	struct record *r = malloc(sizeof(*r));
	if (!t || !r)
		goto oom;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->node_generation = (ix && ix->nodes) ? ix->nodes->h.generation : 0;
	struct oc_arena *a = &t->h.arena;
	t->v = oc_arena_alloc(a, sizeof(*t->v) * count_lines(text, len));
	if (!t->v)
		goto oom;
	FOR_LINES(text, len, ls, le) {
		if (le == ls || strncmp(ls, "No reservations", 15) == 0)
			continue;
		struct oc_reservation *v = &t->v[t->n];
		memset(v, 0, sizeof(*v));
		char buf[64];
		v->name = record_begin(a, ls, le, r, "ReservationName", "reservation", err, errlen);
		if (!v->name)
			goto fail;
		v->nodes = rdup(a, r, "Nodes", NULL);
		v->users = rdup(a, r, "Users", NULL);
		v->accounts = rdup(a, r, "Accounts", NULL);
		v->flags = rdup(a, r, "Flags", NULL);
		v->start_time = iso_time(rget(r, "StartTime", buf, sizeof(buf)));
		v->end_time = iso_time(rget(r, "EndTime", buf, sizeof(buf)));
		v->node_count = rnum(r, "NodeCnt", 0);
		if (oc_cli_resolve_nodes(a, v->nodes, ix, &v->node_idx, &v->node_idx_count) < 0)
			goto oom;
		t->n++;
	}
	free(r);
	*out = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	free(r);
	oc_reservations_unref(&t);
	return -1;
}

/* ---- one job (read_job) ----------------------------------------------- */

/* How many times key is in r. */
static size_t rcount(const struct record *r, const char *key)
{
	size_t kl = strlen(key), n = 0;
	for (size_t i = 0; i < r->n; i++)
		n += r->p[i].klen == kl && strncasecmp(r->p[i].k, key, kl) == 0;
	return n;
}

/* key's value as a whole number in [min, max] into *v: 0; 1 when absent
 * (*v untouched); -1 with err when it is something else. */
static int rwhole(const struct record *r, const char *key, long long min, long long max, long long *v,
		  uint32_t job_id, char *err, size_t errlen)
{
	char buf[64], *e;
	const char *s = rget(r, key, buf, sizeof(buf));
	if (!s)
		return 1;
	long long x = strtoll(s, &e, 10);
	if (!isdigit((unsigned char)s[s[0] == '-']) || *e || x < min || x > max) {
		snprintf(err, errlen, "job %u: %s is not a number: \"%s\"", (unsigned)job_id, key, s);
		return -1;
	}
	*v = x;
	return 0;
}

/* key's text into buf ("" when absent or "(null)"). */
static void rtext(const struct record *r, const char *key, char *buf, size_t len)
{
	if (!rget(r, key, buf, len) || strcmp(buf, "(null)") == 0)
		buf[0] = '\0';
}

/* The fields read_job takes from job job_id's record r into out. */
static int job_now_fill(const struct record *r, uint32_t job_id, struct oc_job_now *out, char *err,
			size_t errlen)
{
	/* A job name (printed before these fields) or a comment (after) may
	 * hold "Key=value" words: a field seen twice cannot be told apart. */
	static const char *const keys[] = {"JobState", "Priority", "Nice",      "Restarts",
					   "TimeLimit", "Partition", "QOS", "Reason"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (rcount(r, keys[i]) > 1) {
			snprintf(err, errlen,
				 "job %u: scontrol's record names %s more than once (a job name or comment holding "
				 "\"%s=\"?)",
				 (unsigned)job_id, keys[i], keys[i]);
			return -1;
		}
	char state[64], limit[64];
	long long priority = 0, nice = 0, restarts = 0;
	int prc = rwhole(r, "Priority", 0, UINT32_MAX, &priority, job_id, err, errlen);
	if (prc < 0 || rwhole(r, "Nice", INT_MIN, INT_MAX, &nice, job_id, err, errlen) < 0 ||
	    rwhole(r, "Restarts", 0, UINT32_MAX, &restarts, job_id, err, errlen) < 0)
		return -1;
	/* Without these the job would read as held, or unlimited. */
	const char *missing = !rget(r, "JobState", state, sizeof(state))   ? "JobState"
			      : prc > 0                                     ? "Priority"
			      : !rget(r, "TimeLimit", limit, sizeof(limit)) ? "TimeLimit"
									    : NULL;
	if (missing) {
		snprintf(err, errlen, "job %u: scontrol's record has no %s", (unsigned)job_id, missing);
		return -1;
	}
	enum oc_job_state st = OC_JOB_STATE_COUNT;
	bool have = false;
	oc_cli_job_state_word(state, &st, &have);
	if (st == OC_JOB_STATE_COUNT) {
		snprintf(err, errlen, "job %u: unknown JobState \"%s\"", (unsigned)job_id, state);
		return -1;
	}
	out->found = true;
	out->state = st;
	out->priority = (uint32_t)priority;
	out->nice = (int)nice;
	out->restarts = (uint32_t)restarts;
	out->time_limit_min = time_minutes(limit);
	rtext(r, "Partition", out->partition, sizeof(out->partition));
	rtext(r, "QOS", out->qos, sizeof(out->qos));
	rtext(r, "Reason", out->reason, sizeof(out->reason));
	return 0;
}

int oc_cli_parse_job_now(const char *text, size_t len, uint32_t job_id, struct oc_job_now *out, char *err,
			 size_t errlen)
{
	memset(out, 0, sizeof(*out));
	struct record *r = malloc(sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct oc_arena a = {0};
	bool any = false; /* a record, or scontrol's word that there is none */
	int rc = 0;
	FOR_LINES(text, len, ls, le) {
		if (le == ls)
			continue;
		if (strncmp(ls, "slurm_load_jobs error: Invalid job id specified", 47) == 0 ||
		    strncmp(ls, "No jobs in the system", 21) == 0) {
			any = true;
			continue;
		}
		const char *id = record_begin(&a, ls, le, r, "JobId", "job", err, errlen);
		char *e = NULL;
		unsigned long long v = id && isdigit((unsigned char)*id) ? strtoull(id, &e, 10) : 0;
		if (!id || !e || *e || v > UINT32_MAX) {
			if (id)
				snprintf(err, errlen, "job record with a bad JobId: \"%.*s\"", line_shown(ls, le), ls);
			rc = -1;
			break;
		}
		any = true;
		if (v == job_id && !out->found && job_now_fill(r, job_id, out, err, errlen) < 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && !any) {
		snprintf(err, errlen, "scontrol printed no job record");
		rc = -1;
	}
	if (rc < 0)
		memset(out, 0, sizeof(*out));
	oc_arena_release(&a);
	free(r);
	return rc;
}

/* ---- one job in full (the job panel) ------------------------------------ */

/* One record of `scontrol --oneliner show job` as a part of t. */
static void jobinfo_part(struct oc_jobinfo *t, const struct record *r, uint32_t id, struct oc_jpart *p)
{
	struct oc_arena *a = &t->h.arena;
	static const char *const none[] = {"None", NULL};
	char buf[256];
	memset(p, 0, sizeof(*p));
	p->job_id = id;
	p->array_task_id = OC_NONE;
	p->het_job_offset = OC_NONE;
	const char *task = rget(r, "ArrayTaskId", buf, sizeof(buf));
	if (task) {
		char *e;
		unsigned long v = isdigit((unsigned char)*task) ? strtoul(task, &e, 10) : 0;
		if (isdigit((unsigned char)*task) && !*e)
			p->array_task_id = (uint32_t)v;
		else
			p->array_tasks = rdup(a, r, "ArrayTaskId", NULL);
	}
	p->het_job_offset = rnum(r, "HetJobOffset", OC_NONE);
	enum oc_job_state st = OC_JOB_STATE_COUNT;
	bool have = false;
	if (rget(r, "JobState", buf, sizeof(buf)))
		oc_cli_job_state_word(buf, &st, &have);
	p->state = st == OC_JOB_STATE_COUNT ? OC_JOB_PENDING : st;
	p->nodes = rdup(a, r, "NodeList", NULL);
	p->reason = rdup(a, r, "Reason", none);
	p->partition = rdup(a, r, "Partition", NULL);
	p->num_nodes = rnum(r, "NumNodes", 0);
	char tres[1024];
	p->gpus = rget(r, "TRES", tres, sizeof(tres)) ? (uint32_t)oc_tres_gpus(tres) : 0;
}

int oc_cli_parse_jobinfo_live(const char *text, size_t len, struct oc_jobinfo *t, bool parts_only, char *err,
			      size_t errlen)
{
	struct record *r = malloc(sizeof(*r));
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	struct oc_jpart *parts = oc_arena_alloc(&t->h.arena, lines * sizeof(*parts));
	if (!r || !parts) {
		free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	static const char *const none[] = {"None", NULL};
	struct oc_arena scratch = {0};
	size_t nparts = 0;
	bool any = false;
	int rc = 0;
	FOR_LINES(text, len, ls, le) {
		if (le == ls)
			continue;
		if (strncmp(ls, "slurm_load_jobs error: Invalid job id specified", 47) == 0) {
			any = true;
			continue;
		}
		const char *id = record_begin(&scratch, ls, le, r, "JobId", "job", err, errlen);
		char *e = NULL;
		unsigned long long v = id && isdigit((unsigned char)*id) ? strtoull(id, &e, 10) : 0;
		if (!id || !e || *e || v == 0 || v > UINT32_MAX) {
			if (id)
				snprintf(err, errlen, "job record with a bad JobId: \"%.*s\"", line_shown(ls, le), ls);
			rc = -1;
			break;
		}
		any = true;
		jobinfo_part(t, r, (uint32_t)v, &parts[nparts++]);
		if (v != t->job_id || parts_only)
			continue;
		struct oc_arena *a = &t->h.arena;
		t->live = true;
		t->work_dir = rdup(a, r, "WorkDir", NULL);
		t->command = rdup(a, r, "Command", NULL);
		t->std_in = rdup(a, r, "StdIn", NULL);
		t->std_out = rdup(a, r, "StdOut", NULL);
		t->std_err = rdup(a, r, "StdErr", NULL);
		t->tres_per_node = rdup(a, r, "TresPerNode", NULL);
		t->dependency = rdup(a, r, "Dependency", none);
		t->batch_host = rdup(a, r, "BatchHost", NULL);
		t->array_job_id = rnum(r, "ArrayJobId", 0);
		t->het_job_id = rnum(r, "HetJobId", 0);
		t->restarts = rnum(r, "Restarts", OC_NONE);
	}
	if (rc == 0 && !any) {
		snprintf(err, errlen, "scontrol printed no job record");
		rc = -1;
	}
	if (rc == 0 && nparts) {
		t->parts = parts;
		t->nparts = nparts;
	}
	if (rc < 0 && !parts_only)
		t->live = false;
	oc_arena_release(&scratch);
	free(r);
	return rc;
}

/* ---- configuration ----------------------------------------------------- */

int oc_cli_parse_config(const char *text, size_t len, const struct oc_config *prev, struct oc_config **out,
			char *err, size_t errlen)
{
	*out = NULL;
	struct oc_config *t = oc_config_new();
	if (!t)
		goto oom;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	size_t cap = count_lines(text, len);
	t->keys = oc_arena_alloc(&t->h.arena, sizeof(*t->keys) * cap);
	t->values = oc_arena_alloc(&t->h.arena, sizeof(*t->values) * cap);
	if (!t->keys || !t->values)
		goto oom;
	FOR_LINES(text, len, ls, le) {
		/* "Key<spaces>= value": the key is one word at column 0. */
		const char *k = ls, *ke = ls;
		while (ke < le && *ke != ' ' && *ke != '=')
			ke++;
		const char *eq = ke;
		while (eq < le && *eq == ' ')
			eq++;
		if (ke == k || eq >= le || *eq != '=' || !isalpha((unsigned char)*k))
			continue;
		const char *v = eq + 1;
		if (v < le && *v == ' ')
			v++;
		size_t kl = (size_t)(ke - k), vl = (size_t)(le - v);
		while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\r'))
			vl--;
		bool dup = false;
		for (size_t i = 0; i < t->n && !dup; i++)
			dup = strlen(t->keys[i]) == kl && strncasecmp(t->keys[i], k, kl) == 0;
		if (dup)
			continue;
		char *kb = oc_arena_alloc(&t->h.arena, kl + 1);
		if (!kb)
			goto oom;
		memcpy(kb, k, kl);
		kb[kl] = '\0';
		const char *vb = NULL;
		if (!(vl == 6 && strncmp(v, "(null)", 6) == 0)) {
			char *x = oc_arena_alloc(&t->h.arena, vl + 1);
			if (!x)
				goto oom;
			memcpy(x, v, vl);
			x[vl] = '\0';
			vb = x;
		}
		t->keys[t->n] = kb;
		t->values[t->n] = vb;
		t->n++;
	}
	if (t->n == 0) {
		snprintf(err, errlen, "no \"Key = value\" line in the configuration");
		oc_config_unref(&t);
		return -1;
	}
	/* "Prolog[0] = ..." (24.05 and later) also as "Prolog". */
	if (oc_config_fold_arrays(t) < 0)
		goto oom;
	*out = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	oc_config_unref(&t);
	return -1;
}

/* ---- accounting -------------------------------------------------------- */

static const char *const kind_names[OC_TRES_KINDS] = {
	[OC_TRES_GPU] = "gres/gpu",
	[OC_TRES_CPU] = "cpu",
	[OC_TRES_MEM] = "mem",
	[OC_TRES_NODE] = "node",
};

/* "N(3)" / "64(24)" / "" into a limit (OC_NONE / OC_NOLIMIT when N or
 * empty) and a use. */
static void lim_use(const char *v, size_t len, uint64_t *limit, uint64_t *used)
{
	*limit = OC_NOLIMIT;
	if (used)
		*used = 0;
	if (!len)
		return;
	char buf[64];
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	if (isdigit((unsigned char)buf[0]))
		*limit = strtoull(buf, NULL, 10);
	const char *p = strchr(buf, '(');
	if (used && p)
		*used = strtoull(p + 1, NULL, 10);
}

static uint32_t lim32(uint64_t v)
{
	return v == OC_NOLIMIT || v > UINT32_MAX ? OC_NONE : (uint32_t)v;
}

/* grp[] with no limits and nothing used. */
static void tres_clear(struct oc_tres_use *grp)
{
	for (int k = 0; k < OC_TRES_KINDS; k++) {
		grp[k].limit = OC_NOLIMIT;
		grp[k].used = 0;
	}
}

/* "cpu=N(576),mem=N(1152000),gres/gpu=64(24)" into grp[] and the limits
 * that are set as text ("gres/gpu=64"), in the arena (NULL when none). */
static const char *tres_fill(struct oc_arena *a, const char *v, size_t len, struct oc_tres_use *grp)
{
	tres_clear(grp);
	char text[512];
	size_t off = 0;
	text[0] = '\0';
	const char *end = v + len;
	while (v < end) {
		const char *c = memchr(v, ',', (size_t)(end - v));
		if (!c)
			c = end;
		const char *eq = memchr(v, '=', (size_t)(c - v));
		if (eq) {
			size_t nl = (size_t)(eq - v);
			uint64_t lim, use;
			lim_use(eq + 1, (size_t)(c - eq - 1), &lim, &use);
			for (int k = 0; k < OC_TRES_KINDS; k++)
				if (strlen(kind_names[k]) == nl && strncmp(v, kind_names[k], nl) == 0) {
					grp[k].limit = lim;
					grp[k].used = use;
				}
			if (lim != OC_NOLIMIT) {
				int w = snprintf(text + off, sizeof(text) - off, "%s%.*s=%llu", off ? "," : "", (int)nl,
						 v, (unsigned long long)lim);
				if (w > 0 && (size_t)w < sizeof(text) - off)
					off += (size_t)w;
			}
		}
		v = c + 1;
	}
	return oc_arena_strdup_nonempty(a, text);
}

/* The value of "Key=" in line [s, end) as a pointer and length. */
static bool line_val(const char *s, const char *end, const char *key, const char **v, size_t *vl)
{
	size_t kl = strlen(key);
	for (const char *p = s; p + kl < end; p++) {
		if ((p == s || p[-1] == ' ') && strncmp(p, key, kl) == 0 && p[kl] == '=') {
			*v = p + kl + 1;
			const char *e = *v;
			while (e < end && *e != ' ')
				e++;
			*vl = (size_t)(e - *v);
			return true;
		}
	}
	return false;
}

/* An arena copy of [v, v+vl) without a trailing "(id)"; NULL when empty. */
static const char *strip_id(struct oc_arena *a, const char *v, size_t vl)
{
	const char *p = memchr(v, '(', vl);
	if (p)
		vl = (size_t)(p - v);
	if (!vl)
		return NULL;
	char *d = oc_arena_alloc(a, vl + 1);
	if (!d)
		return NULL;
	memcpy(d, v, vl);
	d[vl] = '\0';
	return d;
}

static bool field_eq(const char *f, size_t fl, const char *s)
{
	return s ? (strlen(s) == fl && strncmp(f, s, fl) == 0) : fl == 0;
}

/* Split a sacctmgr -P line into at most n fields. Returns the count. */
static size_t psplit(const char *s, const char *end, const char **f, size_t *fl, size_t n)
{
	size_t k = 0;
	while (k < n) {
		const char *bar = memchr(s, '|', (size_t)(end - s));
		const char *e = bar ? bar : end;
		f[k] = s;
		fl[k] = (size_t)(e - s);
		k++;
		if (!bar)
			break;
		s = bar + 1;
	}
	return k;
}

static const char *pdup(struct oc_arena *a, const char *f, size_t fl)
{
	if (!fl)
		return NULL;
	char *d = oc_arena_alloc(a, fl + 1);
	if (d) {
		memcpy(d, f, fl);
		d[fl] = '\0';
	}
	return d;
}

/* When line [s, end) has "Key=", its limit as a 32-bit count into *dst. */
static void line_lim32(const char *s, const char *end, const char *key, uint32_t *dst)
{
	const char *v = NULL;
	size_t vl = 0;
	uint64_t lim;
	if (line_val(s, end, key, &v, &vl)) {
		lim_use(v, vl, &lim, NULL);
		*dst = lim32(lim);
	}
}

/* A new association from its "ClusterName=... Account=..." line. -1 with
 * err set when it has no account or memory runs out. */
static int assoc_begin(struct oc_arena *a, struct oc_assoc *as, const char *ls, const char *le, char *err,
		       size_t errlen)
{
	const char *v = NULL;
	size_t vl = 0;
	memset(as, 0, sizeof(*as));
	tres_clear(as->grp);
	as->grp_jobs = as->grp_submit = as->max_jobs = as->max_submit = OC_NONE;
	as->shares = OC_NONE;
	if (!line_val(ls, le, "Account", &v, &vl) || !vl) {
		snprintf(err, errlen, "association without an account: \"%.*s\"", line_shown(ls, le), ls);
		return -1;
	}
	as->account = pdup(a, v, vl);
	if (line_val(ls, le, "UserName", &v, &vl))
		as->user = strip_id(a, v, vl);
	if (line_val(ls, le, "Partition", &v, &vl))
		as->partition = pdup(a, v, vl);
	if (!as->account) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	as->parent = as->user ? as->account : NULL;
	return 0;
}

/* A new QOS from its "QOS=name(id)" line. -1 with err set when it has no
 * name. */
static int qos_begin(struct oc_arena *a, struct oc_qos *q, const char *ls, const char *le, char *err,
		     size_t errlen)
{
	const char *v = NULL;
	size_t vl = 0;
	memset(q, 0, sizeof(*q));
	tres_clear(q->grp);
	q->max_jobs_pu = q->max_submit_pu = q->grp_jobs = q->grp_submit = OC_NONE;
	line_val(ls, le, "QOS", &v, &vl);
	q->name = strip_id(a, v, vl);
	if (!q->name) {
		snprintf(err, errlen, "QOS record without a name: \"%.*s\"", line_shown(ls, le), ls);
		return -1;
	}
	return 0;
}

/* One indented line [s, le) under an association record. */
static void assoc_line(struct oc_arena *a, struct oc_assoc *as, const char *s, const char *le)
{
	const char *v = NULL;
	size_t vl = 0;
	if (line_val(s, le, "ParentAccount", &v, &vl) && !as->user)
		as->parent = strip_id(a, v, vl);
	line_lim32(s, le, "GrpJobs", &as->grp_jobs);
	line_lim32(s, le, "GrpSubmitJobs", &as->grp_submit);
	line_lim32(s, le, "MaxJobs", &as->max_jobs);
	line_lim32(s, le, "MaxSubmitJobs", &as->max_submit);
	if (line_val(s, le, "GrpTRES", &v, &vl))
		as->grp_tres = tres_fill(a, v, vl, as->grp);
	if (line_val(s, le, "SharesRaw/Norm/Level/Factor", &v, &vl) && vl) {
		/* "1/0.25/4/0.00" ("parent/..." for a user of its account's share) */
		char buf[128];
		snprintf(buf, sizeof(buf), "%.*s", (int)(vl < sizeof(buf) ? vl : sizeof(buf) - 1), v);
		if (isdigit((unsigned char)*v))
			as->shares = (uint32_t)strtoul(v, NULL, 10);
		char *p = strchr(buf, '/');
		double norm, factor;
		unsigned level;
		if (p && sscanf(p + 1, "%lf/%u/%lf", &norm, &level, &factor) == 3) {
			as->shares_norm = norm;
			as->fs_factor = factor;
			as->have_fairshare = true;
		}
	}
	if (line_val(s, le, "UsageRaw/Norm/Efctv", &v, &vl) && vl) {
		char buf[128];
		double raw, norm, efctv;
		snprintf(buf, sizeof(buf), "%.*s", (int)(vl < sizeof(buf) ? vl : sizeof(buf) - 1), v);
		if (sscanf(buf, "%lf/%lf/%lf", &raw, &norm, &efctv) == 3) {
			as->usage_raw = raw;
			as->usage_norm = norm;
			as->usage_efctv = efctv;
		}
	}
}

/* One indented line [s, le) under a QOS record; *in_limits once its
 * per-account or per-user limits begin. */
static void qos_line(struct oc_arena *a, struct oc_qos *q, const char *s, const char *le, bool *in_limits)
{
	const char *v = NULL;
	size_t vl = 0;
	if (strncmp(s, "Account Limits", 14) == 0 || strncmp(s, "User Limits", 11) == 0) {
		*in_limits = true;
	} else if (!*in_limits) {
		line_lim32(s, le, "GrpJobs", &q->grp_jobs);
		line_lim32(s, le, "GrpSubmitJobs", &q->grp_submit);
		if (line_val(s, le, "GrpTRES", &v, &vl))
			tres_fill(a, v, vl, q->grp);
		if (line_val(s, le, "Priority", &v, &vl) && vl)
			q->priority = (uint32_t)strtoul(v, NULL, 10);
		if (line_val(s, le, "PreemptMode", &v, &vl) && vl)
			q->preempt_mode = pdup(a, v, vl);
	} else {
		/* Per-user lines: "MaxJobsPU=4(1) ... MaxSubmitJobsPU=8(1)". */
		line_lim32(s, le, "MaxJobsPU", &q->max_jobs_pu);
		line_lim32(s, le, "MaxSubmitJobsPU", &q->max_submit_pu);
	}
}

/* The association manager's records into t (sized for them). -1 with err
 * set on a malformed record or output that is not the manager's. */
static int assoc_mgr_records(struct oc_accounting *t, const char *text, size_t len, char *err, size_t errlen)
{
	struct oc_arena *a = &t->h.arena;
	struct oc_assoc *as = NULL;
	struct oc_qos *q = NULL;
	bool seen_header = false, in_limits = false;
	FOR_LINES(text, len, ls, le) {
		if (strncmp(ls, "Current Association Manager state", 33) == 0) {
			seen_header = true;
			continue;
		}
		if (le - ls >= 12 && strncmp(ls, "ClusterName=", 12) == 0) {
			as = &t->assocs[t->nassocs++];
			q = NULL;
			if (assoc_begin(a, as, ls, le, err, errlen) < 0)
				return -1;
			continue;
		}
		if (le - ls > 4 && strncmp(ls, "QOS=", 4) == 0) {
			q = &t->qos[t->nqos++];
			as = NULL;
			in_limits = false;
			if (qos_begin(a, q, ls, le, err, errlen) < 0)
				return -1;
			continue;
		}
		if (!as && !q)
			continue;
		const char *s = ls;
		while (s < le && *s == ' ')
			s++;
		if (as)
			assoc_line(a, as, s, le);
		else
			qos_line(a, q, s, le, &in_limits);
	}
	if (!seen_header && t->nassocs == 0 && t->nqos == 0) {
		/* text is len bytes, not NUL-terminated */
		int shown = text ? (int)(len < 60 ? len : 60) : 0;
		snprintf(err, errlen, "not the association manager's output: \"%.*s\"", shown, text ? text : "");
		return -1;
	}
	return 0;
}

/* sacctmgr: QoS lists and default QoS of each association. */
static void assoc_mgr_assoc_qos(struct oc_accounting *t, const char *assoc_text, size_t assoc_len)
{
	struct oc_arena *a = &t->h.arena;
	FOR_LINES(assoc_text ? assoc_text : "", assoc_text ? assoc_len : 0, ls, le) {
		const char *f[5];
		size_t fl[5];
		if (psplit(ls, le, f, fl, 5) < 5)
			continue;
		for (size_t i = 0; i < t->nassocs; i++) {
			struct oc_assoc *x = &t->assocs[i];
			if (field_eq(f[0], fl[0], x->account) && field_eq(f[1], fl[1], x->user) &&
			    field_eq(f[2], fl[2], x->partition)) {
				x->qos = pdup(a, f[3], fl[3]);
				x->def_qos = pdup(a, f[4], fl[4]);
				break;
			}
		}
	}
}

/* sacctmgr: per-user QoS limits, priority, MaxTRESPerUser. */
static void assoc_mgr_qos_limits(struct oc_accounting *t, const char *qos_text, size_t qos_len)
{
	struct oc_arena *a = &t->h.arena;
	FOR_LINES(qos_text ? qos_text : "", qos_text ? qos_len : 0, ls, le) {
		const char *f[6];
		size_t fl[6];
		size_t nf = psplit(ls, le, f, fl, 6);
		if (nf < 4)
			continue;
		for (size_t i = 0; i < t->nqos; i++) {
			struct oc_qos *x = &t->qos[i];
			if (!field_eq(f[0], fl[0], x->name))
				continue;
			x->max_jobs_pu = fl[1] ? (uint32_t)strtoul(f[1], NULL, 10) : OC_NONE;
			x->max_submit_pu = fl[2] ? (uint32_t)strtoul(f[2], NULL, 10) : OC_NONE;
			if (fl[3])
				x->priority = (uint32_t)strtoul(f[3], NULL, 10);
			if (nf > 4)
				x->max_tres_pu = pdup(a, f[4], fl[4]);
			break;
		}
	}
}

int oc_cli_parse_assoc_mgr(const char *text, size_t len, const char *assoc_text, size_t assoc_len,
			   const char *qos_text, size_t qos_len, const struct oc_accounting *prev,
			   struct oc_accounting **out, char *err, size_t errlen)
{
	*out = NULL;
	struct oc_accounting *t = oc_accounting_new();
	if (!t)
		goto oom;
	struct oc_arena *a = &t->h.arena;
	t->h.slurm_update = time(NULL);
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->enabled = true;
	size_t cap = 1;
	FOR_LINES(text, len, ls, le)
		cap += (le - ls > 12 && (strncmp(ls, "ClusterName=", 12) == 0 || strncmp(ls, "QOS=", 4) == 0));
	t->assocs = oc_arena_alloc(a, sizeof(*t->assocs) * cap);
	t->qos = oc_arena_alloc(a, sizeof(*t->qos) * cap);
	if (!t->assocs || !t->qos)
		goto oom;
	if (assoc_mgr_records(t, text, len, err, errlen) < 0)
		goto fail;
	assoc_mgr_assoc_qos(t, assoc_text, assoc_len);
	assoc_mgr_qos_limits(t, qos_text, qos_len);
	*out = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	oc_accounting_unref(&t);
	return -1;
}

/* ---- scontrol ping, sacctmgr ping --------------------------------------- */

int oc_cli_parse_ping(const char *text, size_t len, const char *prefix, struct oc_ctld *v, int n)
{
	int lines = 0;
	size_t pl = strlen(prefix);
	FOR_LINES(text, len, ls, le)
	{
		/* "Slurmctld(backup2) at host is UP" */
		if ((size_t)(le - ls) < pl + 2 || strncmp(ls, prefix, pl) != 0 || ls[pl] != '(')
			continue;
		const char *mode = ls + pl + 1;
		const char *close = memchr(mode, ')', (size_t)(le - mode));
		if (!close)
			continue;
		long idx = -1;
		size_t ml = (size_t)(close - mode);
		if (ml == 7 && strncmp(mode, "primary", 7) == 0)
			idx = 0;
		else if (ml == 6 && strncmp(mode, "backup", 6) == 0)
			idx = 1;
		else if (ml > 6 && ml < 9 && strncmp(mode, "backup", 6) == 0 && isdigit((unsigned char)mode[6]))
			idx = strtol(mode + 6, NULL, 10);
		if (idx < 0)
			continue;
		lines++;
		/* The state is the line's last word. */
		const char *w = le;
		while (w > close && w[-1] != ' ')
			w--;
		size_t wl = (size_t)(le - w);
		enum oc_ctld_state st = OC_CTLD_UNKNOWN;
		if (wl == 2 && strncmp(w, "UP", 2) == 0)
			st = OC_CTLD_UP;
		else if (wl == 4 && strncmp(w, "DOWN", 4) == 0)
			st = OC_CTLD_DOWN;
		if (idx < n)
			v[idx].state = st;
	}
	return lines ? lines : -1;
}
