/* cli_hist.c: the history through sacct (cli_parse.h): the command line
 * and its output. Fields are separated by the ASCII unit separator (0x1f,
 * sacct --delimiter), which no name, path or command line holds; the
 * submit line comes last, so that a newline inside it (sbatch --wrap
 * with two lines) continues that field on the next line. */
#include "source/cli_parse.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/history.h"
#include "core/jobinfo.h"
#include "core/tres.h"

#define SEP '\x1f'

/* In the order of OC_CLI_HIST_FORMAT. */
enum hcol {
	H_JOBIDRAW, H_JOBID, H_NAME, H_USER, H_ACCOUNT, H_PARTITION, H_QOS, H_STATE, H_EXIT, H_ELAPSED,
	H_SUBMIT, H_START, H_END, H_LIMIT, H_NNODES, H_NCPUS, H_TRES, H_NODELIST, H_WORKDIR, H_RESTARTS,
	H_SUBMITLINE, H_COUNT
};

void oc_cli_history_argv(int version, const char *since, const char *until, const char *argv[16])
{
	int i = 0;
	argv[i++] = "sacct";
	argv[i++] = "-a";
	argv[i++] = "-X";
	argv[i++] = "-n";
	argv[i++] = "-P";
	argv[i++] = "--delimiter=\x1f";
	argv[i++] = "-S";
	argv[i++] = since;
	argv[i++] = "-E";
	argv[i++] = until;
	argv[i++] = "-o";
	/* Restarts is a sacct field from 24.11 on; before it the column is
	 * JobIDRaw again (a value that is always there) and reads as unknown. */
	argv[i++] = version >= 2411 ? "JobIDRaw,JobID,JobName,User,Account,Partition,QOS,State,ExitCode,"
				      "ElapsedRaw,Submit,Start,End,TimelimitRaw,NNodes,NCPUS,AllocTRES,NodeList,"
				      "WorkDir,Restarts,SubmitLine"
				    : "JobIDRaw,JobID,JobName,User,Account,Partition,QOS,State,ExitCode,"
				      "ElapsedRaw,Submit,Start,End,TimelimitRaw,NNodes,NCPUS,AllocTRES,NodeList,"
				      "WorkDir,JobIDRaw,SubmitLine";
	argv[i] = NULL;
}

/* "2026-12-02T20:31:25" (local) or "Unknown"/"None": 0. -1 on anything else. */
static int hist_time(const char *s, time_t *out)
{
	*out = 0;
	if (!*s || strcmp(s, "Unknown") == 0 || strcmp(s, "None") == 0)
		return 0;
	struct tm tm = {0};
	char rest;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
		   &tm.tm_sec, &rest) != 6)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	*out = mktime(&tm);
	return *out == (time_t)-1 ? -1 : 0;
}

static int hist_u32(const char *s, uint32_t *v, uint32_t empty)
{
	if (!*s) {
		*v = empty;
		return 0;
	}
	char *e;
	unsigned long long x = strtoull(s, &e, 10);
	if (!isdigit((unsigned char)*s) || *e || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static const char *hist_str(struct oc_arena *a, const char *s)
{
	return *s ? oc_arena_strdup(a, s) : NULL;
}

/* "100_3" / "200+1" / "123" / "100_[4-9]" (pending, not ended). */
static void hist_jobid(const char *s, struct oc_hjob *j)
{
	j->array_task_id = OC_NONE;
	j->het_job_offset = OC_NONE;
	const char *u = strchr(s, '_'), *p = strchr(s, '+');
	char *e;
	if (u && isdigit((unsigned char)u[1])) {
		j->array_job_id = (uint32_t)strtoul(s, NULL, 10);
		unsigned long t = strtoul(u + 1, &e, 10);
		if (!*e)
			j->array_task_id = (uint32_t)t;
	} else if (p && isdigit((unsigned char)p[1])) {
		j->het_job_id = (uint32_t)strtoul(s, NULL, 10);
		j->het_job_offset = (uint32_t)strtoul(p + 1, NULL, 10);
	}
}

/* One record's fields f[0..H_COUNT-1] into j. Returns 0, or -1 with err. */
static int hist_record(struct oc_arena *a, char **f, bool have_restarts, struct oc_hjob *j, char *err,
		       size_t errlen)
{
	memset(j, 0, sizeof(*j));
	const char *bad = NULL;
	if (hist_u32(f[H_JOBIDRAW], &j->job_id, 0) < 0 || !j->job_id)
		bad = "JobIDRaw";
	hist_jobid(f[H_JOBID], j);
	/* "CANCELLED by 0": the first word. */
	char *sp = strchr(f[H_STATE], ' ');
	if (sp)
		*sp = '\0';
	enum oc_job_state st = OC_JOB_STATE_COUNT;
	bool have = false;
	j->flags = oc_cli_job_state_word(f[H_STATE], &st, &have) & OC_JF_REQUEUED;
	if (st == OC_JOB_STATE_COUNT && !bad)
		bad = "State";
	j->state = st;
	int ec = 0, sig = 0;
	char rest;
	if (!bad && sscanf(f[H_EXIT], "%d:%d%c", &ec, &sig, &rest) != 2)
		bad = "ExitCode";
	j->exit_code = ec;
	j->signal = sig;
	if (!bad && (hist_u32(f[H_ELAPSED], &j->elapsed_s, 0) < 0))
		bad = "ElapsedRaw";
	if (!bad && (hist_time(f[H_SUBMIT], &j->submit_time) < 0 || hist_time(f[H_START], &j->start_time) < 0 ||
		     hist_time(f[H_END], &j->end_time) < 0))
		bad = "Submit/Start/End";
	if (!bad) {
		if (strcmp(f[H_LIMIT], "UNLIMITED") == 0 || strcmp(f[H_LIMIT], "Partition_Limit") == 0)
			j->time_limit_min = OC_NONE;
		else if (hist_u32(f[H_LIMIT], &j->time_limit_min, OC_NONE) < 0)
			bad = "TimelimitRaw";
	}
	if (!bad && (hist_u32(f[H_NNODES], &j->num_nodes, 0) < 0 || hist_u32(f[H_NCPUS], &j->num_cpus, 0) < 0))
		bad = "NNodes/NCPUS";
	j->requeues = OC_NONE;
	if (!bad && have_restarts && hist_u32(f[H_RESTARTS], &j->requeues, OC_NONE) < 0)
		bad = "Restarts";
	if (bad) {
		snprintf(err, errlen, "sacct: job %s: unexpected %s", f[H_JOBID], bad);
		return -1;
	}
	uint64_t g = oc_tres_gpus(f[H_TRES]);
	j->gpus = g > UINT32_MAX ? UINT32_MAX : (uint32_t)g;
	j->name = hist_str(a, f[H_NAME]);
	j->user = hist_str(a, f[H_USER]);
	j->account = hist_str(a, f[H_ACCOUNT]);
	j->partition = hist_str(a, f[H_PARTITION]);
	j->qos = hist_str(a, f[H_QOS]);
	j->nodes = strcmp(f[H_NODELIST], "None assigned") == 0 ? NULL : hist_str(a, f[H_NODELIST]);
	j->work_dir = hist_str(a, f[H_WORKDIR]);
	j->submit_line = hist_str(a, f[H_SUBMITLINE]);
	return 0;
}

/* The records of a command's output, in a copy of it. A line is a record
 * when starts(line, ctx) says so; another line continues the record
 * before it (its newline is put back: a submit line or a reason of
 * several lines) unless it comes first or cont(line, ctx) refuses it,
 * which ends the split with that line in *bad. */
struct records {
	char *buf;
	char **v;
	size_t n;
};

static int records_split(const char *text, size_t len, bool (*starts)(const char *line, const void *ctx),
			 bool (*cont)(const char *line, const void *ctx), const void *ctx, struct records *r,
			 const char **bad)
{
	memset(r, 0, sizeof(*r));
	*bad = NULL;
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	r->buf = malloc(len + 1);
	r->v = malloc(lines * sizeof(*r->v));
	if (!r->buf || !r->v)
		return -1;
	memcpy(r->buf, text, len);
	r->buf[len] = '\0';
	char *next;
	for (char *line = r->buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line && !next)
			break; /* after the last newline */
		if (*line && starts(line, ctx)) {
			r->v[r->n++] = line;
		} else if (r->n && cont(line, ctx)) {
			line[-1] = '\n'; /* a blank line too: inside a submit line or a reason */
		} else if (*line) {
			*bad = line;
			return -1;
		}
	}
	return 0;
}

static void records_free(struct records *r)
{
	free(r->buf);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

static size_t hist_seps(const char *line)
{
	size_t n = 0;
	for (; *line; line++)
		n += *line == SEP;
	return n;
}

/* A history record starts with its JobIDRaw and a separator; any other
 * line continues it (a newline in a job name, a folder or the submit
 * line, which a user chooses). A record that then has another number of
 * fields is skipped and counted. */
static bool hist_starts(const char *line, const void *ctx)
{
	(void)ctx;
	const char *p = line;
	while (isdigit((unsigned char)*p))
		p++;
	return p > line && *p == SEP;
}

static bool hist_cont(const char *line, const void *ctx)
{
	(void)line;
	(void)ctx;
	return true;
}

/* Split rec into its H_COUNT fields (the last keeps any separator). */
static void hist_split(char *rec, char *f[H_COUNT])
{
	char *p = rec;
	for (int k = 0; k < H_COUNT; k++) {
		f[k] = p;
		char *s = k < H_COUNT - 1 ? strchr(p, SEP) : NULL;
		if (s) {
			*s = '\0';
			p = s + 1;
		} else if (k < H_COUNT - 1) {
			p = p + strlen(p); /* the following fields are "" */
		}
	}
}

int oc_cli_parse_history(const char *text, size_t len, int version, time_t since, time_t until,
			 struct oc_history **out, char *err, size_t errlen)
{
	*out = NULL;
	struct records r = {0};
	const char *bad = NULL;
	struct oc_history *h = oc_history_new();
	if (!h || records_split(text, len, hist_starts, hist_cont, NULL, &r, &bad) < 0) {
		if (h && bad)
			snprintf(err, errlen, "sacct: unexpected line \"%.60s\"", bad);
		else
			snprintf(err, errlen, "out of memory");
		goto fail;
	}
	h->v = r.n ? oc_arena_alloc(&h->h.arena, r.n * sizeof(*h->v)) : NULL;
	if (r.n && !h->v) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* A record sacct printed that does not read (a field holding the
	 * separator, a state this build does not know) is skipped and
	 * counted, so that one user's job cannot hide everyone's history;
	 * none that reads is an error. */
	char first_err[256] = "";
	for (size_t i = 0; i < r.n; i++) {
		char *f[H_COUNT];
		if (hist_seps(r.v[i]) < H_COUNT - 1) {
			if (!h->r.skipped++)
				snprintf(first_err, sizeof(first_err), "sacct: a record with %zu fields, %d expected: \"%.60s\"",
					 hist_seps(r.v[i]) + 1, (int)H_COUNT, r.v[i]);
			continue;
		}
		hist_split(r.v[i], f);
		if (hist_record(&h->h.arena, f, version >= 2411, &h->v[h->n], err, errlen) < 0) {
			if (!h->r.skipped++)
				snprintf(first_err, sizeof(first_err), "%s", err);
			continue;
		}
		if (oc_hjob_ended(&h->v[h->n], since, until))
			h->n++;
	}
	if (r.n && h->r.skipped == r.n) {
		snprintf(err, errlen, "%s", first_err);
		goto fail;
	}
	records_free(&r);
	h->r.enabled = true;
	h->r.since = since;
	h->r.until = until;
	*out = h;
	return 0;
fail:
	records_free(&r);
	oc_history_unref(&h);
	return -1;
}

/* ---- one job in full: sprio and sacct -j ------------------------------- */

#define SPRIO_FORMAT "%i|%r|%S|%A|%B|%F|%J|%P|%Q|%N|%T"
enum { P_ID, P_PART, P_SITE, P_AGE, P_ASSOC, P_FS, P_JS, P_PARTF, P_QOS, P_NICE, P_TRES, P_COUNT };

void oc_cli_sprio_argv(const char *id, const char *argv[8])
{
	int i = 0;
	argv[i++] = "sprio";
	argv[i++] = "-h";
	argv[i++] = "-j";
	argv[i++] = id;
	argv[i++] = "-o";
	argv[i++] = SPRIO_FORMAT;
	argv[i] = NULL;
}

static int num_field(const char *s, double *v)
{
	char *e;
	while (*s == ' ')
		s++;
	*v = strtod(s, &e);
	while (*e == ' ')
		e++;
	/* Not a number, or one no field of sprio holds ("1e999" is inf). */
	return e == s || *e || !isfinite(*v) || fabs(*v) > 1e15 ? -1 : 0;
}

/* Split line at sep into at most n fields (the last keeps the rest). */
static size_t fields_split(char *line, char sep, char **f, size_t n)
{
	size_t k = 0;
	char *p = line;
	while (k < n) {
		f[k++] = p;
		char *s = k < n ? strchr(p, sep) : NULL;
		if (!s)
			break;
		*s = '\0';
		p = s + 1;
	}
	return k;
}

int oc_cli_parse_sprio(const char *text, size_t len, struct oc_jobinfo *t, char *err, size_t errlen)
{
	char *buf = malloc(len + 1);
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	t->prio = oc_arena_alloc(&t->h.arena, lines * sizeof(*t->prio));
	if (!buf || !t->prio) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	int rc = 0;
	char *next;
	for (char *line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *f[P_COUNT];
		if (!*line)
			continue;
		double id, v[P_COUNT];
		if (fields_split(line, '|', f, P_COUNT) != P_COUNT || num_field(f[P_ID], &id) < 0 || id < 0 ||
		    id > UINT32_MAX) {
			snprintf(err, errlen, "sprio: unexpected line \"%.60s\"", line);
			rc = -1;
			break;
		}
		bool bad = false;
		for (int k = P_SITE; k <= P_NICE; k++)
			bad |= num_field(f[k], &v[k]) < 0;
		/* Site and nice are ints. */
		bad = bad || v[P_SITE] < INT_MIN || v[P_SITE] > INT_MAX || v[P_NICE] < INT_MIN || v[P_NICE] > INT_MAX;
		if (bad) {
			snprintf(err, errlen, "sprio: job %.0f: a factor that is not a number or out of range", id);
			rc = -1;
			break;
		}
		if ((uint32_t)id != t->job_id)
			continue;
		struct oc_prio *p = &t->prio[t->nprio++];
		memset(p, 0, sizeof(*p));
		p->partition = oc_arena_strdup_nonempty(&t->h.arena, f[P_PART]);
		p->site = (int)v[P_SITE];
		p->age = v[P_AGE];
		p->assoc = v[P_ASSOC];
		p->fairshare = v[P_FS];
		p->jobsize = v[P_JS];
		p->part = v[P_PARTF];
		p->qos = v[P_QOS];
		p->nice = (int)v[P_NICE];
		char *tres = f[P_TRES];
		while (*tres == ' ')
			tres++;
		p->tres_text = oc_arena_strdup_nonempty(&t->h.arena, tres);
		/* "gres/gpu=12,cpu=3": the sum, as the libslurm backend counts. */
		for (char *q = tres; q && *q;) {
			char *eq = strchr(q, '=');
			if (!eq)
				break;
			p->tres += strtod(eq + 1, &q);
			q = q && *q == ',' ? q + 1 : NULL;
		}
	}
	if (rc < 0)
		t->nprio = 0;
	free(buf);
	return rc;
}

enum { J_RAW, J_ID, J_NAME, J_STATE, J_EXIT, J_START, J_END, J_ELAPSED, J_NODES, J_NTASKS, J_SUBMITLINE, J_COUNT };

void oc_cli_jobinfo_sacct_argv(const char *id, const char *argv[12])
{
	int i = 0;
	argv[i++] = "sacct";
	argv[i++] = "-j";
	argv[i++] = id;
	argv[i++] = "-n";
	argv[i++] = "-P";
	argv[i++] = "--delimiter=\x1f";
	argv[i++] = "-o";
	argv[i++] = "JobIDRaw,JobID,JobName,State,ExitCode,Start,End,ElapsedRaw,NodeList,NTasks,SubmitLine";
	argv[i] = NULL;
}

/* A record of sacct -j starts with its JobIDRaw ("123" or "123.batch")
 * and a separator; other lines continue it (a submit line of several). */
static bool jobinfo_starts(const char *line, const void *ctx)
{
	(void)ctx;
	const char *p = line;
	while (isdigit((unsigned char)*p))
		p++;
	if (p == line)
		return false;
	if (*p == '.')
		while (*p && *p != SEP && *p != ' ')
			p++;
	return *p == SEP;
}

static int step_record(struct oc_jobinfo *t, char **f, const char *dot, char *err, size_t errlen)
{
	struct oc_jstep *p = &t->steps[t->nsteps];
	memset(p, 0, sizeof(*p));
	snprintf(p->id, sizeof(p->id), "%s", dot + 1);
	char *sp = strchr(f[J_STATE], ' ');
	if (sp)
		*sp = '\0';
	enum oc_job_state st = OC_JOB_STATE_COUNT;
	bool have = false;
	oc_cli_job_state_word(f[J_STATE], &st, &have);
	char rest;
	if (st == OC_JOB_STATE_COUNT || sscanf(f[J_EXIT], "%d:%d%c", &p->exit_code, &p->signal, &rest) != 2 ||
	    hist_time(f[J_START], &p->start_time) < 0 || hist_time(f[J_END], &p->end_time) < 0 ||
	    hist_u32(f[J_ELAPSED], &p->elapsed_s, 0) < 0 || hist_u32(f[J_NTASKS], &p->ntasks, OC_NONE) < 0) {
		snprintf(err, errlen, "sacct: step %s: a field that does not read", f[J_RAW]);
		return -1;
	}
	p->state = st;
	p->name = hist_str(&t->h.arena, f[J_NAME]);
	p->nodes = strcmp(f[J_NODES], "None assigned") == 0 ? NULL : hist_str(&t->h.arena, f[J_NODES]);
	t->nsteps++;
	return 0;
}

int oc_cli_parse_jobinfo_sacct(const char *text, size_t len, struct oc_jobinfo *t, char *err, size_t errlen)
{
	struct records r = {0};
	const char *bad = NULL;
	if (records_split(text, len, jobinfo_starts, hist_cont, NULL, &r, &bad) < 0) {
		if (bad)
			snprintf(err, errlen, "sacct: unexpected line \"%.60s\"", bad);
		else
			snprintf(err, errlen, "out of memory");
		records_free(&r);
		return -1;
	}
	t->steps = r.n ? oc_arena_alloc(&t->h.arena, r.n * sizeof(*t->steps)) : NULL;
	if (r.n && !t->steps) {
		records_free(&r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = 0;
	t->nsteps = 0;
	for (size_t i = 0; i < r.n && rc == 0; i++) {
		char *f[J_COUNT];
		if (fields_split(r.v[i], SEP, f, J_COUNT) != J_COUNT) {
			snprintf(err, errlen, "sacct: a record with too few fields: \"%.60s\"", r.v[i]);
			rc = -1;
			break;
		}
		char *dot = strchr(f[J_RAW], '.');
		if (strtoul(f[J_RAW], NULL, 10) != t->job_id)
			continue; /* another task of the array */
		if (dot) {
			rc = step_record(t, f, dot, err, errlen);
		} else {
			t->db = true;
			t->submit_line = hist_str(&t->h.arena, f[J_SUBMITLINE]);
		}
	}
	if (rc == 0 && !t->db)
		snprintf(t->db_err, sizeof(t->db_err), "slurmdbd has no record of it yet");
	if (rc < 0) {
		t->db = false;
		t->nsteps = 0;
	}
	records_free(&r);
	return rc;
}

/* ---- node events: sacctmgr show event --------------------------------- */

void oc_cli_events_argv(const char *cluster, const char *since, const char *until, char *buf, size_t len,
			const char *argv[12])
{
	/* Reason last: it may hold '|' and newlines (sacctmgr has no
	 * delimiter option); a record starts with the cluster's name and a
	 * start time. */
	snprintf(buf, len, "Clusters=%s", cluster);
	int i = 0;
	argv[i++] = "sacctmgr";
	argv[i++] = "-n";
	argv[i++] = "-P";
	argv[i++] = "show";
	argv[i++] = "event";
	argv[i++] = "Event=Node";
	argv[i++] = buf;
	argv[i++] = since;
	argv[i++] = until;
	argv[i++] = "Format=Cluster,NodeName,TimeStart,TimeEnd,State,User,Reason";
	argv[i] = NULL;
}

/* Whether line is the start of a record of cluster: "CLUSTER|NODE|TIME|". */
static bool event_start(const char *line, const char *cluster)
{
	size_t cl = strlen(cluster);
	if (strncmp(line, cluster, cl) != 0 || line[cl] != '|')
		return false;
	const char *p = strchr(line + cl + 1, '|');
	if (!p)
		return false;
	time_t t;
	char when[32];
	size_t wl = strcspn(p + 1, "|");
	if (wl == 0 || wl >= sizeof(when) || !p[1 + wl])
		return false;
	memcpy(when, p + 1, wl);
	when[wl] = '\0';
	return hist_time(when, &t) == 0 && t > 0;
}

static bool event_cont(const char *line, const void *ctx)
{
	(void)line;
	(void)ctx;
	return true;
}

static bool event_starts(const char *line, const void *ctx)
{
	return event_start(line, ctx);
}

int oc_cli_parse_events(const char *text, size_t len, const char *cluster, struct oc_events **out, char *err,
			size_t errlen)
{
	*out = NULL;
	struct records r = {0};
	const char *bad = NULL;
	struct oc_events *t = oc_events_new();
	if (!t || records_split(text, len, event_starts, event_cont, cluster, &r, &bad) < 0) {
		if (t && bad)
			snprintf(err, errlen, "sacctmgr show event: unexpected line \"%.60s\"", bad);
		else
			snprintf(err, errlen, "out of memory");
		goto fail;
	}
	t->v = r.n ? oc_arena_alloc(&t->h.arena, r.n * sizeof(*t->v)) : NULL;
	if (r.n && !t->v) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < r.n; i++) {
		/* Cluster|Node|Start|End|State|User|Reason... */
		char *f[7];
		char *p = r.v[i];
		for (int k = 0; k < 7; k++) {
			f[k] = p;
			char *sep = k < 6 ? strchr(p, '|') : NULL;
			if (sep) {
				*sep = '\0';
				p = sep + 1;
			} else if (k < 6) {
				snprintf(err, errlen, "sacctmgr show event: a record with %d fields, 7 expected", k + 1);
				goto fail;
			}
		}
		struct oc_event *e = &t->v[t->n];
		memset(e, 0, sizeof(*e));
		if (!*f[1])
			continue; /* a cluster event */
		if (hist_time(f[2], &e->start) < 0 || hist_time(f[3], &e->end) < 0) {
			snprintf(err, errlen, "sacctmgr show event: %s: unexpected TimeStart/TimeEnd", f[1]);
			goto fail;
		}
		/* "root(0)": the name. */
		char *paren = strchr(f[5], '(');
		if (paren)
			*paren = '\0';
		e->node = oc_arena_strdup(&t->h.arena, f[1]);
		e->state = oc_arena_strdup(&t->h.arena, f[4]);
		e->user = hist_str(&t->h.arena, f[5]);
		e->reason = hist_str(&t->h.arena, f[6]);
		if (!e->node || !e->state) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		t->n++;
	}
	records_free(&r);
	t->r.enabled = true;
	*out = t;
	return 0;
fail:
	records_free(&r);
	oc_events_unref(&t);
	return -1;
}

/* ---- scheduler statistics: sdiag --------------------------------------- */

/* "Key: 123" at the start of a (tab-stripped) line into *v. */
static bool sdiag_u32(const char *line, const char *key, uint32_t *v)
{
	size_t kl = strlen(key);
	if (strncmp(line, key, kl) != 0)
		return false;
	const char *p = line + kl;
	while (*p == ' ')
		p++;
	char *e;
	unsigned long long x = strtoull(p, &e, 10);
	if (e == p)
		return false;
	*v = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
	return true;
}

/* "... (1796246421)" at the end of a line: the epoch. */
static time_t sdiag_epoch(const char *line)
{
	const char *p = strrchr(line, '(');
	return p ? (time_t)strtoll(p + 1, NULL, 10) : 0;
}

/* "\tNAME  ( 2009) count:126 ave_time:327 total_time:41233" (total_time
 * absent for pending RPCs). Returns 0, -1 when the line has another shape. */
static int sdiag_rpc(struct oc_arena *a, const char *line, struct oc_rpc_stat *o)
{
	const char *open = strchr(line, '(');
	const char *close = open ? strchr(open, ')') : NULL;
	const char *cnt = close ? strstr(close, "count:") : NULL;
	if (!cnt)
		return -1;
	size_t nl = (size_t)(open - line);
	while (nl && line[nl - 1] == ' ')
		nl--;
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)(nl < sizeof(name) ? nl : sizeof(name) - 1), line);
	memset(o, 0, sizeof(*o));
	o->id = (uint32_t)strtoul(open + 1, NULL, 10);
	o->name = nl ? oc_arena_strdup(a, name) : NULL;
	o->count = (uint32_t)strtoul(cnt + 6, NULL, 10);
	const char *tot = strstr(cnt, "total_time:");
	o->total_us = tot ? strtoull(tot + 11, NULL, 10) : 0;
	return 0;
}

int oc_cli_parse_sdiag(const char *text, size_t len, struct oc_sched **out, char *err, size_t errlen)
{
	*out = NULL;
	struct oc_sched *t = oc_sched_new();
	char *buf = malloc(len + 1);
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	/* RPC lines, at most one per line of the output, per group. */
	struct oc_rpc_stat *v = malloc(lines * sizeof(*v));
	if (!t || !buf || !v) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	enum { S_TOP, S_MAIN, S_BF, S_TYPES, S_USERS, S_PENDING, S_OTHER } sec = S_TOP;
	size_t nv = 0;
	bool seen = false;
	struct oc_rpc_stat **dst = NULL;
	size_t *dstn = NULL;
	char *next;
	for (char *line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		bool sub = *line == '\t';
		while (*line == '\t' || *line == ' ')
			line++;
		if (!sub) {
			/* A section heading ends the RPC group before it. */
			if (dst) {
				*dst = nv ? oc_arena_alloc(&t->h.arena, nv * sizeof(**dst)) : NULL;
				if (nv && !*dst) {
					snprintf(err, errlen, "out of memory");
					goto fail;
				}
				if (nv)
					memcpy(*dst, v, nv * sizeof(*v));
				*dstn = nv;
				nv = 0;
				dst = NULL;
			}
			if (strncmp(line, "sdiag output at", 15) == 0) {
				t->req_time = sdiag_epoch(line);
				seen = true;
			} else if (strncmp(line, "Data since", 10) == 0)
				t->req_time_start = sdiag_epoch(line);
			else if (strncmp(line, "Main schedule statistics", 24) == 0)
				sec = S_MAIN;
			else if (strncmp(line, "Backfilling stats", 17) == 0)
				sec = S_BF;
			else if (strncmp(line, "Remote Procedure Call statistics by message type", 48) == 0) {
				sec = S_TYPES;
				dst = &t->types;
				dstn = &t->ntypes;
			} else if (strncmp(line, "Remote Procedure Call statistics by user", 40) == 0) {
				sec = S_USERS;
				dst = &t->users;
				dstn = &t->nusers;
			} else if (strncmp(line, "Pending RPC statistics", 22) == 0) {
				sec = S_PENDING;
				dst = &t->pending;
				dstn = &t->npending;
			} else if (*line && !strchr(line, ':')) {
				/* Another section ("Pending RPCs": the queued
				 * messages one by one): its lines are not read. */
				sec = S_OTHER;
			} else
				(void)(sdiag_u32(line, "Server thread count:", &t->server_threads) ||
				 sdiag_u32(line, "Agent queue size:", &t->agent_queue) ||
				 sdiag_u32(line, "Agent count:", &t->agent_count) ||
				 sdiag_u32(line, "Agent thread count:", &t->agent_threads) ||
				 sdiag_u32(line, "DBD Agent queue size:", &t->dbd_agent_queue) ||
				 sdiag_u32(line, "Jobs submitted:", &t->jobs_submitted) ||
				 sdiag_u32(line, "Jobs started:", &t->jobs_started) ||
				 sdiag_u32(line, "Jobs completed:", &t->jobs_completed) ||
				 sdiag_u32(line, "Jobs canceled:", &t->jobs_canceled) ||
				 sdiag_u32(line, "Jobs failed:", &t->jobs_failed) ||
				 sdiag_u32(line, "Jobs pending:", &t->jobs_pending) ||
				 sdiag_u32(line, "Jobs running:", &t->jobs_running));
			continue;
		}
		switch (sec) {
		case S_MAIN:
			(void)(sdiag_u32(line, "Last cycle:", &t->main_last_us) ||
			       sdiag_u32(line, "Max cycle:", &t->main_max_us) ||
			       sdiag_u32(line, "Total cycles:", &t->main_cycles) ||
			       sdiag_u32(line, "Mean cycle:", &t->main_mean_us) ||
			       sdiag_u32(line, "Last queue length:", &t->main_queue_len));
			break;
		case S_BF:
			if (strncmp(line, "Last cycle when:", 16) == 0) {
				t->bf_last_when = sdiag_epoch(line);
				break;
			}
			(void)(sdiag_u32(line, "Total backfilled jobs (since last slurm start):", &t->bf_backfilled) ||
			       sdiag_u32(line, "Total backfilled jobs (since last stats cycle start):",
					 &t->bf_backfilled_since_cycle) ||
			       sdiag_u32(line, "Total cycles:", &t->bf_cycles) ||
			       sdiag_u32(line, "Last cycle:", &t->bf_last_us) ||
			       sdiag_u32(line, "Max cycle:", &t->bf_max_us) ||
			       sdiag_u32(line, "Mean cycle:", &t->bf_mean_us) ||
			       sdiag_u32(line, "Last depth cycle:", &t->bf_last_depth) ||
			       sdiag_u32(line, "Last queue length:", &t->bf_queue_len));
			if (strncmp(line, "Active:", 7) == 0)
				t->bf_active = strstr(line, "yes") != NULL;
			break;
		case S_TYPES:
		case S_USERS:
		case S_PENDING:
			if (strncmp(line, "No pending RPCs", 15) == 0 || !*line || !dst)
				break;
			if (sdiag_rpc(&t->h.arena, line, &v[nv]) < 0) {
				snprintf(err, errlen, "sdiag: unexpected RPC line \"%.60s\"", line);
				goto fail;
			}
			nv++;
			break;
		default:
			break;
		}
	}
	if (dst) {
		*dst = nv ? oc_arena_alloc(&t->h.arena, nv * sizeof(**dst)) : NULL;
		if (nv && *dst)
			memcpy(*dst, v, nv * sizeof(*v));
		*dstn = *dst ? nv : 0;
	}
	if (!seen) {
		snprintf(err, errlen, "sdiag: not sdiag's output (no \"sdiag output at\" line)");
		goto fail;
	}
	free(v);
	free(buf);
	*out = t;
	return 0;
fail:
	free(v);
	free(buf);
	oc_sched_unref(&t);
	return -1;
}
