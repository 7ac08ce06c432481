/* script.c: one view of a snapshot as a plain table or as JSON (built
 * with jansson; the JSON objects never leave this file), for script mode.
 * The rows are those of the screen's views: views.c, health.c, quota.c,
 * and the cell texts of cells.c. */
#include "core/script.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/columns.h"
#include "core/health.h"
#include "core/history.h"
#include "core/quota.h"
#include "core/sched.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/views.h"

static const char *const script_names[OC_SCRIPT_VIEW_COUNT] = {
	"partitions", "queue", "nodes", "health", "quota", "reservations", "history", "events", "fairshare", "scheduler",
};

int oc_script_view_parse(const char *name)
{
	for (int i = 0; name && i < OC_SCRIPT_VIEW_COUNT; i++)
		if (strcmp(name, script_names[i]) == 0)
			return i;
	return -1;
}

const char *oc_script_view_name(enum oc_script_view v)
{
	return (unsigned)v < OC_SCRIPT_VIEW_COUNT ? script_names[v] : "?";
}

const char *oc_script_view_list(void)
{
	return "partitions, queue, nodes, health, quota, reservations, history, events, fairshare, scheduler";
}

unsigned oc_script_view_parts(enum oc_script_view v)
{
	switch (v) {
	case OC_SCRIPT_PARTITIONS: return OC_FOCUS_PARTS(OC_FOCUS_PARTITIONS);
	case OC_SCRIPT_QUEUE: return OC_MASK(OC_PART_JOBS) | OC_MASK(OC_PART_PARTITIONS);
	case OC_SCRIPT_NODES:
		return OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_RESV);
	case OC_SCRIPT_HEALTH: return OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_PARTITIONS); /* power per partition */
	case OC_SCRIPT_QUOTA: return OC_MASK(OC_PART_ACCT) | OC_MASK(OC_PART_JOBS);
	case OC_SCRIPT_RESERVATIONS: return OC_MASK(OC_PART_RESV) | OC_MASK(OC_PART_NODES);
	case OC_SCRIPT_FAIRSHARE: return OC_MASK(OC_PART_ACCT);
	default: return 0;
	}
}

bool oc_script_view_has_findings(enum oc_script_view v)
{
	return v == OC_SCRIPT_HEALTH || v == OC_SCRIPT_QUOTA || v == OC_SCRIPT_SCHEDULER;
}

static const char *script_part_name(int part)
{
	switch (part) {
	case OC_PART_NODES: return "nodes";
	case OC_PART_PARTITIONS: return "partitions";
	case OC_PART_JOBS: return "jobs";
	case OC_PART_RESV: return "reservations";
	default: return "associations";
	}
}

static const struct oc_partition *script_find_part(const struct oc_snapshot *s, const char *name)
{
	for (size_t i = 0; s->partitions && i < s->partitions->n; i++)
		if (strcmp(s->partitions->v[i].name, name) == 0)
			return &s->partitions->v[i];
	return NULL;
}

int oc_script_check(const struct oc_snapshot *s, const struct oc_script_opts *o, char *err, size_t errlen)
{
	unsigned parts = oc_script_view_parts(o->view);
	err[0] = '\0';
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if (!(parts & OC_MASK(p)))
			continue;
		const struct oc_part_status *st = &s->status[p];
		if (st->error[0]) {
			snprintf(err, errlen, "slurmctld: %s", st->error);
			return -1;
		}
		if (!st->fetched) {
			snprintf(err, errlen, "slurmctld: %s: not read (the controller's configuration could not be loaded)",
				 script_part_name(p));
			return -1;
		}
	}
	if (o->view == OC_SCRIPT_HISTORY || o->view == OC_SCRIPT_EVENTS) {
		bool hist = o->view == OC_SCRIPT_HISTORY;
		const struct oc_part_status *st = hist ? &s->hist_status : &s->ev_status;
		bool have = hist ? s->history != NULL : s->events != NULL;
		bool enabled = hist ? s->history && s->history->r.enabled : s->events && s->events->r.enabled;
		if (st->error[0]) {
			snprintf(err, errlen, "%s", st->error);
			return -1;
		}
		if (!have) {
			snprintf(err, errlen, "%s: not read", hist ? "history" : "events");
			return -1;
		}
		if (!enabled) {
			snprintf(err, errlen, "accounting is not configured (AccountingStorageType=none): no %s",
				 hist ? "job history" : "node events");
			return -1;
		}
	}
	if (o->partition && !script_find_part(s, o->partition)) {
		oc_appendf(err, errlen, "unknown partition '%s' (partitions:", o->partition);
		for (size_t i = 0; s->partitions && i < s->partitions->n; i++)
			if (o->show_hidden || !(s->partitions->v[i].flags & OC_PF_HIDDEN))
				oc_appendf(err, errlen, " %s", s->partitions->v[i].name);
		oc_appendf(err, errlen, ")");
		return -1;
	}
	if (o->view == OC_SCRIPT_QUOTA && s->accounting && !s->accounting->enabled) {
		snprintf(err, errlen, "accounting is not configured (AccountingStorageType=none): no GrpTRES limits to check");
		return -1;
	}
	if (o->view == OC_SCRIPT_SCHEDULER) {
		if (s->sched_status.error[0]) {
			snprintf(err, errlen, "%s", s->sched_status.error);
			return -1;
		}
		if (!s->sched) {
			snprintf(err, errlen, "slurmctld statistics: not read");
			return -1;
		}
	}
	if (o->view == OC_SCRIPT_FAIRSHARE && (!s->accounting || !s->accounting->enabled || !s->accounting->nassocs)) {
		snprintf(err, errlen, "%s", s->accounting && s->accounting->enabled
						? "no association: no fair share to show"
						: "accounting is not configured (AccountingStorageType=none): no fair share");
		return -1;
	}
	/* No data is an error, not "all fine": a view that judges needs
	 * something to judge (a wrong profile, an empty cluster). */
	if (o->view == OC_SCRIPT_HEALTH && (!s->nodes || s->nodes->n == 0)) {
		snprintf(err, errlen, "slurmctld lists no node: nothing to judge (is this the right cluster?)");
		return -1;
	}
	if (o->view == OC_SCRIPT_QUOTA && (!s->accounting || s->accounting->nassocs == 0)) {
		snprintf(err, errlen, "no association: nothing to judge (no account has been added to this cluster)");
		return -1;
	}
	return 0;
}

const char *oc_script_warning(const struct oc_snapshot *s, const struct oc_script_opts *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->view == OC_SCRIPT_QUOTA && s->accounting && s->accounting->dbd_error[0])
		snprintf(buf, len, "%s; limits and use shown are slurmctld's cache", s->accounting->dbd_error);
	return buf;
}

/* ---- the table ------------------------------------------------------- */

/* A column of a table: a column of the view's catalogue (core/columns.h),
 * its cells cut to max bytes (0 = any). */
struct script_col {
	const char *id;
	unsigned max;
};

struct script_table {
	const struct oc_catalogue *cat;
	const struct script_col *cols;
	size_t ncols;
	int def[32];    /* catalogue index of each column */
	struct oc_cell_src src;  /* what the cells read */
	char **cells;   /* row after row, ncols each, malloc'd ASCII */
	size_t n, cap;  /* cells used / allocated */
	bool failed;    /* ENOMEM, or a column the catalogue does not have */
};

/* A table of cat's columns cols[0..ncols-1], its cells read from s at the
 * time the snapshot was taken. */
static struct script_table script_table_init(const struct oc_catalogue *cat, const struct script_col *cols,
					     size_t ncols, const struct oc_snapshot *s)
{
	struct script_table t = {cat, cols, ncols, {0}, {s, s->taken, NULL, NULL}, NULL, 0, 0, false};
	for (size_t i = 0; i < ncols; i++) {
		t.def[i] = i < 32 ? oc_catalogue_col(cat, cols[i].id) : -1;
		if (t.def[i] < 0)
			t.failed = true;
	}
	return t;
}

#define SCRIPT_TABLE(cat, cols, s) script_table_init(&(cat), cols, sizeof(cols) / sizeof(cols[0]), s)

/* A copy of text with every byte that is not printable ASCII as '?',
 * cut to max bytes (0 = no cut). NULL on ENOMEM. */
static char *script_ascii(const char *text, unsigned max)
{
	size_t l = strlen(text);
	if (max && l > max)
		l = max;
	char *c = malloc(l + 1);
	if (!c)
		return NULL;
	for (size_t i = 0; i < l; i++) {
		unsigned char ch = (unsigned char)text[i];
		c[i] = (ch < 0x20 || ch >= 0x7f) ? '?' : (char)ch;
	}
	c[l] = '\0';
	return c;
}

/* Add the row of the catalogue's rows. Sets t->failed on ENOMEM. */
static void script_row(struct script_table *t, uint32_t row)
{
	if (t->failed)
		return;
	if (t->n + t->ncols > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : t->ncols * 32;
		char **c = realloc(t->cells, cap * sizeof(*c));
		if (!c) {
			t->failed = true;
			return;
		}
		t->cells = c;
		t->cap = cap;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		char text[4096];
		text[0] = '\0';
		t->cat->cols[t->def[i]].cell(&t->src, row, text, sizeof(text));
		char *c = script_ascii(text, t->cols[i].max);
		if (!c) {
			t->failed = true;
			for (size_t k = 0; k < i; k++)
				free(t->cells[t->n + k]);
			return;
		}
		t->cells[t->n + i] = c;
	}
	t->n += t->ncols;
}

/* One line: cells padded to their column's width, one space between
 * columns, no trailing blanks. */
static void script_line(FILE *f, const struct script_table *t, const size_t *w, const char *const *cells)
{
	char line[4096] = "";
	for (size_t i = 0; i < t->ncols; i++) {
		const char *c = cells[i];
		int pad = (int)w[i];
		if (i)
			oc_appendf(line, sizeof(line), " ");
		if (t->cat->cols[t->def[i]].right)
			oc_appendf(line, sizeof(line), "%*s", pad, c);
		else if (i + 1 < t->ncols)
			oc_appendf(line, sizeof(line), "%-*s", pad, c);
		else
			oc_appendf(line, sizeof(line), "%s", c);
	}
	size_t l = strlen(line);
	while (l && line[l - 1] == ' ')
		line[--l] = '\0';
	fprintf(f, "%s\n", line);
}

/* Free the cells of t. */
static void script_table_free(struct script_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->n = t->cap = 0;
}

/* Print the table (header first) into f and free its cells. Returns 0,
 * or -1 when a row could not be added (ENOMEM). */
static int script_table_print(FILE *f, struct script_table *t)
{
	if (t->failed) {
		script_table_free(t);
		return -1;
	}
	size_t w[32] = {0};
	const char *titles[32];
	for (size_t i = 0; i < t->ncols && i < 32; i++) {
		titles[i] = t->cat->cols[t->def[i]].title;
		w[i] = strlen(titles[i]);
	}
	for (size_t r = 0; r < t->n; r += t->ncols)
		for (size_t i = 0; i < t->ncols; i++) {
			size_t l = strlen(t->cells[r + i]);
			if (l > w[i])
				w[i] = l;
		}
	script_line(f, t, w, titles);
	for (size_t r = 0; r < t->n; r += t->ncols)
		script_line(f, t, w, (const char *const *)&t->cells[r]);
	script_table_free(t);
	return 0;
}

/* ---- JSON helpers ---------------------------------------------------- */

/* A JSON string of text, null for NULL; text that is not UTF-8 has its
 * bytes outside printable ASCII as '?'. */
static json_t *script_jstr(const char *text)
{
	if (!text)
		return json_null();
	json_t *j = json_string(text);
	if (j)
		return j;
	char *c = script_ascii(text, 0);
	j = c ? json_string(c) : NULL;
	free(c);
	return j ? j : json_null();
}

/* UTC ISO 8601 ("2026-12-01T08:46:35Z"), null for 0. */
static json_t *script_jtime(time_t t)
{
	if (!t)
		return json_null();
	struct tm tm;
	char buf[32];
	if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(buf);
}

/* A 32-bit count, null for OC_NONE. */
static json_t *script_ju32(uint32_t v)
{
	return v == OC_NONE ? json_null() : json_integer((json_int_t)v);
}

/* A 64-bit limit, null for OC_NOLIMIT. */
static json_t *script_jlimit(uint64_t v)
{
	return v == OC_NOLIMIT ? json_null() : json_integer((json_int_t)v);
}

/* {"used": N, "limit": N|null} */
static json_t *script_juse(const struct oc_tres_use *u)
{
	return json_pack("{s:I,s:o}", "used", (json_int_t)u->used, "limit", script_jlimit(u->limit));
}

/* A comma list as an array of strings ([] for NULL or ""). */
static json_t *script_jlist(const char *list)
{
	json_t *a = json_array();
	for (const char *p = list; a && p && *p;) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);
		if (l) {
			char item[256];
			snprintf(item, sizeof(item), "%.*s", (int)(l < sizeof(item) - 1 ? l : sizeof(item) - 1), p);
			json_array_append_new(a, script_jstr(item));
		}
		p = comma ? comma + 1 : NULL;
	}
	return a;
}

/* ---- partitions ------------------------------------------------------ */

static const struct script_col part_cols[] = {
	{"partition", 0}, {"avail", 0}, {"timelimit", 0}, {"nodes", 0}, {"alloc", 0},   {"mix", 0},
	{"idle", 0},      {"drain", 0}, {"down", 0},      {"gpus", 0},  {"running", 0}, {"pending", 0},
};

static int script_partitions_out(const struct oc_snapshot *s, const struct oc_script_opts *o, FILE *f,
				 json_t *rows)
{
	struct oc_part_row *pr = NULL;
	long n = oc_part_rows(s, o->show_hidden, &pr);
	if (n < 0)
		return -1;
	struct script_table t = SCRIPT_TABLE(oc_cat_partitions, part_cols, s);
	t.src.rows = pr;
	for (long i = 0; i < n; i++) {
		const struct oc_part_row *r = &pr[i];
		const struct oc_partition *p = &s->partitions->v[r->part];
		if (rows) {
			char tl[32];
			json_array_append_new(
				rows,
				json_pack("{s:o,s:b,s:b,s:s,s:o,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}",
					  "name", script_jstr(p->name), "default", (p->flags & OC_PF_DEFAULT) != 0, "hidden",
					  (p->flags & OC_PF_HIDDEN) != 0, "avail", oc_cells_part_avail(p->flags),
					  "timelimit_min", script_ju32(p->max_time_min), "timelimit",
					  oc_format_minutes(p->max_time_min, tl, sizeof(tl)), "priority_tier",
					  (int)p->priority_tier, "nodes", (int)r->nodes, "alloc", (int)r->alloc, "mix",
					  (int)r->mix, "idle", (int)r->idle, "drain", (int)r->drain, "down", (int)r->down,
					  "power", (int)r->power, "other", (int)r->other, "gpus_total", (int)r->gpus_total,
					  "gpus_alloc", (int)r->gpus_alloc, "jobs_running", (int)r->jobs_running,
					  "jobs_pending", (int)r->jobs_pending));
			continue;
		}
		script_row(&t, (uint32_t)i);
	}
	free(pr);
	return rows ? 0 : script_table_print(f, &t);
}

#define SET(obj, key, val) json_object_set_new((obj), (key), (val))

/* ---- queue ----------------------------------------------------------- */

static const struct script_col queue_cols[] = {
	{"jobid", 0},	   {"partition", 10}, {"name", 16}, {"user", 10},  {"account", 10},
	{"state", 0},	   {"time", 0},	      {"nodes", 0}, {"gpus", 0},   {"reason", 0},
};

/* A job as a JSON row. */
static json_t *script_jjob(const struct oc_job *j, time_t now)
{
	char id[32];
	oc_cells_job_id(j, id, sizeof(id));
	long long run = oc_cells_job_run_seconds(j, now);
	json_t *r = json_object();
	SET(r, "id", json_string(id));
	SET(r, "job_id", json_integer(j->job_id));
	SET(r, "array_job_id", j->array_task_id != OC_NONE ? json_integer(j->array_job_id) : json_null());
	SET(r, "array_task_id", script_ju32(j->array_task_id));
	SET(r, "name", script_jstr(j->name));
	SET(r, "user", script_jstr(j->user));
	SET(r, "account", script_jstr(j->account));
	SET(r, "partition", script_jstr(j->partition));
	SET(r, "qos", script_jstr(j->qos));
	SET(r, "state", json_string(oc_job_state_name(j->state)));
	SET(r, "state_compact", json_string(oc_job_state_compact(j)));
	SET(r, "reason", script_jstr(j->reason));
	SET(r, "nodes", script_jstr(j->nodes));
	SET(r, "num_nodes", json_integer(j->num_nodes));
	SET(r, "num_cpus", json_integer(j->num_cpus));
	SET(r, "gpus", json_integer(j->gpus));
	SET(r, "priority", json_integer(j->priority));
	SET(r, "submit_time", script_jtime(j->submit_time));
	SET(r, "start_time", j->state == OC_JOB_PENDING ? json_null() : script_jtime(j->start_time));
	SET(r, "run_seconds", json_integer(run));
	SET(r, "time_limit_min", script_ju32(j->time_limit_min));
	SET(r, "limited", json_boolean(j->flags & OC_JF_LIMITED));
	SET(r, "held", json_boolean(j->flags & OC_JF_HELD));
	return r;
}

static int script_queue_out(const struct oc_snapshot *s, const struct oc_script_opts *o, FILE *f, json_t *rows)
{
	size_t nj = s->jobs ? s->jobs->n : 0;
	uint32_t *idx = malloc((nj ? nj : 1) * sizeof(*idx));
	if (!idx)
		return -1;
	size_t n = oc_job_rows(s, o->partition, NULL, OC_JOB_SORT_DEFAULT, false, o->show_hidden, idx, s->taken);
	struct script_table t = SCRIPT_TABLE(oc_cat_queue, queue_cols, s);
	for (size_t i = 0; i < n; i++) {
		if (rows)
			json_array_append_new(rows, script_jjob(&s->jobs->v[idx[i]], s->taken));
		else
			script_row(&t, idx[i]);
	}
	free(idx);
	return rows ? 0 : script_table_print(f, &t);
}

/* ---- nodes ----------------------------------------------------------- */

static const struct script_col node_cols[] = {
	{"node", 0}, {"state", 0}, {"cpus", 0}, {"gpus", 0},   {"reservation", 12},
	{"by", 10},  {"since", 0}, {"ago", 0},  {"reason", 0},
};

/* A node's fields that the nodes and health views share in JSON. */
static json_t *script_jnode(const struct oc_snapshot *s, const struct oc_node *n)
{
	char st[32], lst[256];
	json_t *r = json_object();
	SET(r, "name", script_jstr(n->name));
	SET(r, "state", json_string(oc_node_state_compact(n, st, sizeof(st))));
	SET(r, "state_long", json_string(oc_node_state_long(n, lst, sizeof(lst))));
	SET(r, "health", json_string(oc_health_name(oc_node_health(n))));
	SET(r, "reason", script_jstr(n->reason));
	SET(r, "reason_user", n->reason ? script_jstr(n->reason_user) : json_null());
	SET(r, "reason_time", n->reason ? script_jtime(n->reason_time) : json_null());
	SET(r, "reason_source",
	    n->reason ? json_string(oc_reason_source_name(oc_reason_classify(n->reason, n->reason_user, s->slurm_user)))
		      : json_null());
	return r;
}

static int script_nodes_out(const struct oc_snapshot *s, const struct oc_script_opts *o, FILE *f, json_t *rows)
{
	size_t nn = s->nodes ? s->nodes->n : 0;
	uint32_t *idx = malloc((nn ? nn : 1) * sizeof(*idx));
	struct oc_node_places places = {0};
	if (!idx || oc_node_places_fill(&places, s, o->show_hidden, s->taken) < 0) {
		free(idx);
		oc_node_places_free(&places);
		return -1;
	}
	size_t n = oc_node_rows(s->nodes, NULL, OC_NODE_SORT_NAME, false, idx);
	struct script_table t = SCRIPT_TABLE(oc_cat_nodes, node_cols, s);
	t.src.extra = &places;
	for (size_t i = 0; i < n; i++) {
		const struct oc_node *nd = &s->nodes->v[idx[i]];
		const char *resv = idx[i] < places.n ? places.resv[idx[i]] : NULL;
		if (rows) {
			json_t *r = script_jnode(s, nd);
			SET(r, "cpus", json_integer(nd->cpus));
			SET(r, "alloc_cpus", json_integer(nd->alloc_cpus));
			SET(r, "gpus", json_integer(nd->gpus));
			SET(r, "alloc_gpus", json_integer(nd->alloc_gpus));
			SET(r, "mem_mb", json_integer((json_int_t)nd->mem_mb));
			SET(r, "alloc_mem_mb", json_integer((json_int_t)nd->alloc_mem_mb));
			SET(r, "partitions", script_jlist(idx[i] < places.n ? places.parts[idx[i]] : NULL));
			SET(r, "reservation", script_jstr(resv));
			SET(r, "slurmd_version", script_jstr(nd->version));
			SET(r, "slurmd_differs", json_boolean(oc_version_slurmd_differs(nd->version, s->slurm_version)));
			json_array_append_new(rows, r);
			continue;
		}
		script_row(&t, idx[i]);
	}
	free(idx);
	oc_node_places_free(&places);
	return rows ? 0 : script_table_print(f, &t);
}

/* ---- health ---------------------------------------------------------- */

static const struct script_col health_cols[] = {
	{"group", 0}, {"node", 0}, {"state", 0}, {"by", 10}, {"since", 0}, {"ago", 0}, {"reason", 0},
};

/* JSON keys of the health groups ("not_responding"), in enum order. */
static const char *const health_keys[OC_HEALTH_COUNT] = {
	"ok", "draining", "drained", "down", "not_responding", "power_saving", "resume_failed",
};

static int script_health_out(const struct oc_snapshot *s, FILE *f, json_t *doc, long *findings)
{
	struct oc_health_row *hr = NULL;
	uint32_t by[OC_HEALTH_COUNT];
	size_t nodes;
	long n = oc_health_rows(s, &hr, by, &nodes);
	if (n < 0)
		return -1;
	struct oc_power_part *power = NULL;
	long npower = oc_health_power_parts(s, &power);
	if (npower < 0) {
		free(hr);
		return -1;
	}
	*findings = (long)nodes;
	json_t *rows = doc ? json_object_get(doc, "rows") : NULL;
	if (doc) {
		json_t *counts = json_object();
		for (int g = 0; g < OC_HEALTH_COUNT; g++)
			SET(counts, health_keys[g], json_integer(by[g]));
		SET(doc, "counts", counts);
		SET(doc, "nodes_total", json_integer((json_int_t)(s->nodes ? s->nodes->n : 0)));
		json_t *pw = json_array();
		for (long i = 0; i < npower; i++) {
			json_t *o = json_object();
			SET(o, "partition", json_string(power[i].partition));
			SET(o, "powered_down", json_integer(power[i].powered_down));
			SET(o, "powering_up", json_integer(power[i].powering_up));
			SET(o, "powering_down", json_integer(power[i].powering_down));
			SET(o, "power_down_pending", json_integer(power[i].down_pending));
			SET(o, "resume_failed", json_integer(power[i].resume_failed));
			json_array_append_new(pw, o);
		}
		SET(doc, "power_by_partition", pw);
	} else {
		/* The groups with nodes (ok always): all seven do not fit 80
		 * columns; the JSON has every count. */
		char line[256] = "";
		for (int g = 0; g < OC_HEALTH_COUNT; g++)
			if (g == OC_HEALTH_OK || by[g])
				oc_appendf(line, sizeof(line), "%s%s %u", g ? "  " : "", oc_health_name((enum oc_health)g),
					   by[g]);
		fprintf(f, "%s\n", line);
		for (long i = 0; i < npower; i++) {
			oc_health_power_text(&power[i], line, sizeof(line));
			fprintf(f, "power %s\n", line);
		}
	}
	free(power);
	struct script_table t = SCRIPT_TABLE(oc_cat_health, health_cols, s);
	t.src.rows = hr;
	for (long i = 0; i < n; i++) {
		if (hr[i].group)
			continue;
		const struct oc_node *nd = &s->nodes->v[hr[i].node];
		if (rows) {
			json_t *r = script_jnode(s, nd);
			SET(r, "source", json_string(oc_health_source_name(hr[i].source)));
			json_array_append_new(rows, r);
			continue;
		}
		script_row(&t, (uint32_t)i);
	}
	free(hr);
	if (doc)
		return 0;
	if (!nodes) {
		script_table_free(&t);
		fprintf(f, "no node needs attention\n");
		return 0;
	}
	return script_table_print(f, &t);
}

/* ---- quota ----------------------------------------------------------- */

static const struct script_col quota_cols[] = {
	{"account", 0}, {"gpus", 0}, {"bar", 0}, {"running", 0}, {"pending", 0}, {"blocked", 0},
};

/* The findings of a quota row, as JSON names. */
static size_t script_quota_findings(const struct oc_quota_row *r, const char *out[3])
{
	size_t n = 0;
	if (!r->has_gpu_limit)
		out[n++] = "no_gpu_limit";
	else if (r->gpu.used >= r->gpu.limit && oc_quota_pct(r->gpu.used, r->gpu.limit) == 100)
		out[n++] = "at_gpu_limit";
	if (r->limited_jobs)
		out[n++] = "jobs_on_limit";
	return n;
}

/* The job counts an account and a user row share. */
static void script_jjobs(json_t *o, uint32_t run_gpus, uint32_t pend_gpus, uint32_t run_jobs, uint32_t pend_jobs,
			 uint32_t limited_jobs)
{
	SET(o, "run_gpus", json_integer(run_gpus));
	SET(o, "pend_gpus", json_integer(pend_gpus));
	SET(o, "run_jobs", json_integer(run_jobs));
	SET(o, "pend_jobs", json_integer(pend_jobs));
	SET(o, "limited_jobs", json_integer(limited_jobs));
}

static json_t *script_jquota(const struct oc_quota_row *r, const char *const *fnd, size_t nf)
{
	json_t *o = json_object();
	SET(o, "account", script_jstr(r->account));
	SET(o, "parent", script_jstr(r->assoc ? r->assoc->parent : NULL));
	SET(o, "has_association", json_boolean(r->assoc != NULL));
	SET(o, "has_gpu_limit", json_boolean(r->has_gpu_limit));
	SET(o, "gpu_limit", script_jlimit(r->gpu.limit));
	SET(o, "gpu_used", json_integer((json_int_t)r->gpu.used));
	SET(o, "gpu_pct", r->has_gpu_limit ? json_integer(oc_quota_pct(r->gpu.used, r->gpu.limit)) : json_null());
	SET(o, "cpu", script_juse(&r->cpu));
	SET(o, "mem_mb", script_juse(&r->mem));
	SET(o, "nodes", script_juse(&r->node));
	script_jjobs(o, r->run_gpus, r->pend_gpus, r->run_jobs, r->pend_jobs, r->limited_jobs);
	json_t *f = json_array();
	for (size_t i = 0; i < nf; i++)
		json_array_append_new(f, json_string(fnd[i]));
	SET(o, "findings", f);
	json_t *users = json_array();
	for (size_t i = 0; i < r->nusers; i++) {
		const struct oc_quota_user *u = &r->users[i];
		json_t *ju = json_object();
		SET(ju, "user", script_jstr(u->user));
		SET(ju, "has_association", json_boolean(u->assoc != NULL));
		script_jjobs(ju, u->run_gpus, u->pend_gpus, u->run_jobs, u->pend_jobs, u->limited_jobs);
		json_array_append_new(users, ju);
	}
	SET(o, "users", users);
	json_t *qos = json_array();
	for (size_t i = 0; i < r->nqos; i++) {
		const struct oc_quota_qos *q = &r->qos[i];
		json_t *jq = json_object();
		SET(jq, "name", script_jstr(q->name));
		SET(jq, "known", json_boolean(q->qos != NULL));
		SET(jq, "max_jobs_pu", script_ju32(q->max_jobs_pu));
		SET(jq, "max_submit_pu", script_ju32(q->max_submit_pu));
		SET(jq, "top_user", script_jstr(q->top_user));
		SET(jq, "top_running", json_integer(q->top_running));
		SET(jq, "top_submitted", json_integer(q->top_submitted));
		json_array_append_new(qos, jq);
	}
	SET(o, "qos", qos);
	return o;
}

static int script_quota_out(const struct oc_snapshot *s, FILE *f, json_t *doc, long *findings, const char *warning)
{
	struct oc_quota_row *qr = NULL;
	long n = oc_quota_rows(s, &qr);
	if (n < 0)
		return -1;
	json_t *rows = doc ? json_object_get(doc, "rows") : NULL;
	if (doc)
		SET(doc, "accounting",
		    json_pack("{s:b,s:o}", "enabled", s->accounting && s->accounting->enabled, "dbd_error",
			      script_jstr(warning[0] ? s->accounting->dbd_error : NULL)));
	/* One account item per row, no expand mark. */
	struct oc_quota_item *items = calloc(n ? (size_t)n : 1, sizeof(*items));
	if (!items) {
		oc_quota_rows_free(&qr, n);
		return -1;
	}
	struct script_table t = SCRIPT_TABLE(oc_cat_quota, quota_cols, s);
	t.src.rows = items;
	t.src.extra = qr;
	*findings = 0;
	for (long i = 0; i < n; i++) {
		const struct oc_quota_row *r = &qr[i];
		const char *fnd[3];
		size_t nf = script_quota_findings(r, fnd);
		if (nf)
			(*findings)++;
		if (rows) {
			json_array_append_new(rows, script_jquota(r, fnd, nf));
			continue;
		}
		items[i] = (struct oc_quota_item){OC_QI_ACCOUNT, (uint32_t)i, 0, 0};
		script_row(&t, (uint32_t)i);
	}
	int rc = rows ? 0 : script_table_print(f, &t);
	script_table_free(&t);
	free(items);
	oc_quota_rows_free(&qr, n);
	return rc;
}

/* ---- reservations ---------------------------------------------------- */

static const struct script_col resv_cols[] = {
	{"name", 20}, {"state", 0}, {"nodes", 24}, {"start", 0}, {"end", 0}, {"users", 12}, {"flags", 0},
};

static int script_resv_out(const struct oc_snapshot *s, FILE *f, json_t *rows)
{
	struct script_table t = SCRIPT_TABLE(oc_cat_reservations, resv_cols, s);
	size_t n = s->reservations ? s->reservations->n : 0;
	for (size_t i = 0; i < n; i++) {
		const struct oc_reservation *r = &s->reservations->v[i];
		bool endless = oc_cells_resv_endless(r);
		if (rows) {
			json_t *o = json_object();
			SET(o, "name", script_jstr(r->name));
			SET(o, "state", json_string(oc_cells_resv_state(r, s->taken)));
			SET(o, "nodes", script_jstr(r->nodes));
			SET(o, "node_count", json_integer(r->node_count));
			SET(o, "start_time", script_jtime(r->start_time));
			SET(o, "end_time", script_jtime(r->end_time));
			SET(o, "endless", json_boolean(endless));
			SET(o, "duration_s", endless ? json_null() : json_integer((json_int_t)(r->end_time - r->start_time)));
			SET(o, "users", script_jlist(r->users));
			SET(o, "accounts", script_jlist(r->accounts));
			SET(o, "flags", script_jlist(r->flags));
			json_array_append_new(rows, o);
			continue;
		}
		script_row(&t, (uint32_t)i);
	}
	return rows ? 0 : script_table_print(f, &t);
}

/* ---- history ---------------------------------------------------------- */

/* The rows of a long report (history, events) in JSON are not kept as one
 * jansson array (100,000 jobs took 680 MB that way): each row is printed
 * into rowsf as the document prints it (four spaces in, rows separated
 * by ",\n") and freed, and oc_script_render puts the text in place of
 * the empty "rows" array. Returns 0, -1 on ENOMEM. */
static int script_row_stream(FILE *rowsf, size_t *n, json_t *row)
{
	char *dump = row ? json_dumps(row, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(row);
	if (!dump)
		return -1;
	if ((*n)++)
		fputs(",\n", rowsf);
	fputs("    ", rowsf);
	for (const char *c = dump; *c; c++) {
		fputc(*c, rowsf);
		if (*c == '\n')
			fputs("    ", rowsf);
	}
	free(dump);
	return ferror(rowsf) ? -1 : 0;
}

static const struct script_col hist_cols[] = {
	{"end", 0},   {"jobid", 0}, {"user", 10},	{"account", 10}, {"partition", 10}, {"name", 16},
	{"state", 0}, {"exit", 0},  {"elapsed", 0}, {"nodes", 0},	  {"gpus", 0},	     {"nodelist", 0},
};

static json_t *script_jhjob(const struct oc_hjob *j)
{
	char id[32], exitc[24];
	oc_hjob_id_text(j, id, sizeof(id));
	oc_hjob_exit_text(j, exitc, sizeof(exitc));
	json_t *r = json_object();
	SET(r, "id", json_string(id));
	SET(r, "job_id", json_integer(j->job_id));
	SET(r, "array_job_id", j->array_task_id != OC_NONE ? json_integer(j->array_job_id) : json_null());
	SET(r, "array_task_id", script_ju32(j->array_task_id));
	SET(r, "het_job_id", j->het_job_offset != OC_NONE ? json_integer(j->het_job_id) : json_null());
	SET(r, "het_job_offset", script_ju32(j->het_job_offset));
	SET(r, "name", script_jstr(j->name));
	SET(r, "user", script_jstr(j->user));
	SET(r, "account", script_jstr(j->account));
	SET(r, "partition", script_jstr(j->partition));
	SET(r, "qos", script_jstr(j->qos));
	SET(r, "state", json_string(oc_hjob_state_name(j)));
	SET(r, "exit_code", json_integer(j->exit_code));
	SET(r, "signal", json_integer(j->signal));
	SET(r, "exit", json_string(exitc));
	SET(r, "nodes", script_jstr(j->nodes));
	SET(r, "num_nodes", json_integer(j->num_nodes));
	SET(r, "num_cpus", json_integer(j->num_cpus));
	SET(r, "gpus", json_integer(j->gpus));
	SET(r, "submit_time", script_jtime(j->submit_time));
	SET(r, "start_time", script_jtime(j->start_time));
	SET(r, "end_time", script_jtime(j->end_time));
	SET(r, "elapsed_s", json_integer(j->elapsed_s));
	SET(r, "time_limit_min", script_ju32(j->time_limit_min));
	SET(r, "requeues", script_ju32(j->requeues));
	SET(r, "work_dir", script_jstr(j->work_dir));
	SET(r, "submit_line", script_jstr(j->submit_line));
	return r;
}

/* Newest end first, then job id. */
static int hist_cmp(const void *a, const void *b, void *ctx)
{
	const struct oc_hjob *v = ctx;
	const struct oc_hjob *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];
	if (x->end_time != y->end_time)
		return x->end_time > y->end_time ? -1 : 1;
	return x->job_id < y->job_id ? 1 : x->job_id > y->job_id ? -1 : 0;
}

/* The rows of a report in the order cmp gives (ctx: its rows), and its
 * window in the document. A malloc'd array of n indexes, NULL on ENOMEM. */
static uint32_t *script_report_rows(size_t n, int (*cmp)(const void *, const void *, void *), const void *ctx,
				    const struct oc_report_info *r, json_t *doc)
{
	uint32_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	if (!idx)
		return NULL;
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	if (n)
		qsort_r(idx, n, sizeof(*idx), cmp, (void *)ctx);
	if (doc) {
		SET(doc, "since", script_jtime(r ? r->since : 0));
		SET(doc, "until", script_jtime(r ? r->until : 0));
	}
	return idx;
}

static int script_hist_out(const struct oc_snapshot *s, FILE *f, json_t *doc, FILE *rowsf)
{
	const struct oc_history *h = s->history;
	size_t n = h ? h->n : 0, streamed = 0;
	uint32_t *idx = script_report_rows(n, hist_cmp, h ? h->v : NULL, h ? &h->r : NULL, doc);
	if (!idx)
		return -1;
	struct script_table t = SCRIPT_TABLE(oc_cat_history, hist_cols, s);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (rowsf)
			rc = script_row_stream(rowsf, &streamed, script_jhjob(&h->v[idx[i]]));
		else
			script_row(&t, idx[i]);
	}
	free(idx);
	return rowsf ? rc : script_table_print(f, &t);
}

/* ---- node events ------------------------------------------------------ */

static const struct script_col event_cols[] = {
	{"start", 0}, {"end", 0}, {"duration", 0}, {"node", 0}, {"state", 0}, {"user", 10}, {"reason", 0},
};

/* Newest start first, then node. */
static int event_cmp(const void *a, const void *b, void *ctx)
{
	const struct oc_event *v = ctx;
	const struct oc_event *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];
	if (x->start != y->start)
		return x->start > y->start ? -1 : 1;
	return oc_natcmp(x->node, y->node);
}

static int script_events_out(const struct oc_snapshot *s, FILE *f, json_t *doc, FILE *rowsf)
{
	const struct oc_events *t = s->events;
	size_t n = t ? t->n : 0, streamed = 0;
	uint32_t *idx = script_report_rows(n, event_cmp, t ? t->v : NULL, t ? &t->r : NULL, doc);
	if (!idx)
		return -1;
	struct script_table tb = SCRIPT_TABLE(oc_cat_events, event_cols, s);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct oc_event *e = &t->v[idx[i]];
		if (!rowsf) {
			script_row(&tb, idx[i]);
			continue;
		}
		json_t *r = json_object();
		SET(r, "node", script_jstr(e->node));
		SET(r, "state", script_jstr(e->state));
		SET(r, "start_time", script_jtime(e->start));
		SET(r, "end_time", script_jtime(e->end));
		SET(r, "ongoing", json_boolean(e->end == 0));
		time_t end = e->end ? e->end : s->taken;
		SET(r, "duration_s", json_integer(end > e->start ? (json_int_t)(end - e->start) : 0));
		SET(r, "user", script_jstr(e->user));
		SET(r, "reason", script_jstr(e->reason));
		rc = script_row_stream(rowsf, &streamed, r);
	}
	free(idx);
	return rowsf ? rc : script_table_print(f, &tb);
}

/* ---- fair share --------------------------------------------------------- */

static const struct script_col fairshare_cols[] = {
	{"account", 0}, {"user", 0}, {"rawshares", 0}, {"normshares", 0}, {"rawusage", 0}, {"effectvusage", 0},
	{"fairshare", 0},
};

/* sshare -a's order: root first, then accounts by name, each account's
 * own association before its users, users by name. */
static int fairshare_cmp(const void *a, const void *b)
{
	const struct oc_assoc *x = *(const struct oc_assoc *const *)a, *y = *(const struct oc_assoc *const *)b;
	bool xr = strcmp(x->account, "root") == 0, yr = strcmp(y->account, "root") == 0;
	if (xr != yr)
		return xr ? -1 : 1;
	int c = strcmp(x->account, y->account);
	if (c)
		return c;
	if (!x->user || !y->user)
		return x->user ? 1 : y->user ? -1 : 0;
	return strcmp(x->user, y->user);
}

static json_t *script_jdouble(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

static int script_fairshare_out(const struct oc_snapshot *s, FILE *f, json_t *rows)
{
	const struct oc_accounting *t = s->accounting;
	const struct oc_assoc **v = malloc((t->nassocs ? t->nassocs : 1) * sizeof(*v));
	if (!v)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < t->nassocs; i++)
		if (!t->assocs[i].partition) /* sshare -a lists the per-partition ones apart */
			v[n++] = &t->assocs[i];
	qsort(v, n, sizeof(*v), fairshare_cmp);
	struct script_table tb = SCRIPT_TABLE(oc_cat_fairshare, fairshare_cols, s);
	tb.src.rows = v;
	for (size_t i = 0; i < n; i++) {
		const struct oc_assoc *a = v[i];
		if (!rows) {
			script_row(&tb, (uint32_t)i);
			continue;
		}
		json_t *r = json_object();
		SET(r, "account", script_jstr(a->account));
		SET(r, "user", script_jstr(a->user));
		SET(r, "parent", script_jstr(a->parent));
		SET(r, "shares_raw", script_ju32(a->shares));
		SET(r, "shares_norm", script_jdouble(a->have_fairshare, a->shares_norm));
		SET(r, "usage_raw", script_jdouble(a->have_fairshare, a->usage_raw));
		SET(r, "usage_norm", script_jdouble(a->have_fairshare, a->usage_norm));
		SET(r, "usage_efctv", script_jdouble(a->have_fairshare, a->usage_efctv));
		SET(r, "fairshare", script_jdouble(a->have_fairshare && a->user, a->fs_factor));
		json_array_append_new(rows, r);
	}
	int rc = rows ? 0 : script_table_print(f, &tb);
	free(v);
	return rc;
}

/* ---- scheduler statistics --------------------------------------------- */

static const struct script_col sched_cols[] = {
	{"group", 0}, {"item", 0}, {"value", 0}, {"note", 0},
};

static int script_sched_out(const struct oc_snapshot *s, FILE *f, json_t *doc, json_t *rows, long *findings)
{
	struct oc_sched_row *v = NULL;
	long n = oc_sched_rows(s->sched, &s->ctl, time(NULL), &v);
	if (n < 0)
		return -1;
	if (doc && s->sched) {
		SET(doc, "since", script_jtime(s->sched->req_time_start));
		SET(doc, "at", script_jtime(s->sched->req_time));
	}
	struct script_table tb = SCRIPT_TABLE(oc_cat_sched, sched_cols, s);
	tb.src.rows = v;
	for (long i = 0; i < n; i++) {
		*findings += v[i].unusual;
		if (!rows) {
			script_row(&tb, (uint32_t)i);
			continue;
		}
		json_t *r = json_object();
		SET(r, "group", json_string(v[i].group));
		SET(r, "item", script_jstr(v[i].item));
		SET(r, "value", script_jstr(v[i].value));
		SET(r, "number", json_real(v[i].number));
		SET(r, "unusual", json_boolean(v[i].unusual));
		SET(r, "note", v[i].note[0] ? script_jstr(v[i].note) : json_null());
		json_array_append_new(rows, r);
	}
	int rc = rows ? 0 : script_table_print(f, &tb);
	free(v);
	return rc;
}

/* ---- the document ---------------------------------------------------- */

char *oc_script_render(const struct oc_snapshot *s, const struct oc_script_opts *o, long *findings, char *err,
		       size_t errlen)
{
	char *text = NULL;
	size_t textlen = 0;
	*findings = 0;
	FILE *f = open_memstream(&text, &textlen);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	char warning[256];
	oc_script_warning(s, o, warning, sizeof(warning));
	json_t *doc = NULL, *rows = NULL;
	if (o->json) {
		doc = json_object();
		rows = json_array();
		SET(doc, "schema", json_string(OC_SCRIPT_SCHEMA));
		SET(doc, "view", json_string(oc_script_view_name(o->view)));
		SET(doc, "cluster", script_jstr(s->cluster));
		SET(doc, "slurm_version", script_jstr(s->slurm_version[0] ? s->slurm_version : NULL));
		SET(doc, "taken", script_jtime(s->taken));
		SET(doc, "partition", script_jstr(o->partition));
		SET(doc, "show_hidden", json_boolean(o->show_hidden));
		json_t *w = json_array();
		if (warning[0])
			json_array_append_new(w, json_string(warning));
		SET(doc, "warnings", w);
		SET(doc, "rows", rows);
	}
	/* The long reports' rows, printed one by one (script_row_stream). */
	char *rowstext = NULL;
	size_t rowslen = 0;
	FILE *rowsf = NULL;
	if (doc && (o->view == OC_SCRIPT_HISTORY || o->view == OC_SCRIPT_EVENTS) &&
	    !(rowsf = open_memstream(&rowstext, &rowslen))) {
		json_decref(doc);
		fclose(f);
		free(text);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	int rc;
	switch (o->view) {
	case OC_SCRIPT_PARTITIONS: rc = script_partitions_out(s, o, f, rows); break;
	case OC_SCRIPT_QUEUE: rc = script_queue_out(s, o, f, rows); break;
	case OC_SCRIPT_NODES: rc = script_nodes_out(s, o, f, rows); break;
	case OC_SCRIPT_HEALTH: rc = script_health_out(s, f, doc, findings); break;
	case OC_SCRIPT_QUOTA: rc = script_quota_out(s, f, doc, findings, warning); break;
	case OC_SCRIPT_RESERVATIONS: rc = script_resv_out(s, f, rows); break;
	case OC_SCRIPT_HISTORY: rc = script_hist_out(s, f, doc, rowsf); break;
	case OC_SCRIPT_EVENTS: rc = script_events_out(s, f, doc, rowsf); break;
	case OC_SCRIPT_FAIRSHARE: rc = script_fairshare_out(s, f, rows); break;
	case OC_SCRIPT_SCHEDULER: rc = script_sched_out(s, f, doc, rows, findings); break;
	default: rc = -1; break;
	}
	if (rc == 0 && doc) {
		if (oc_script_view_has_findings(o->view))
			SET(doc, "findings", json_integer(*findings));
		char *dump = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (rowsf && fclose(rowsf) != 0)
			rc = -1;
		rowsf = NULL;
		/* The streamed rows go where the empty array is. */
		char *at = dump && rowslen ? strstr(dump, "\n  \"rows\": []") : NULL;
		if (!dump || (rowslen && !at)) {
			rc = -1;
		} else if (at) {
			at += strlen("\n  \"rows\": [");
			fprintf(f, "%.*s\n%s\n  %s\n", (int)(at - dump), dump, rowstext, at);
		} else {
			fprintf(f, "%s\n", dump);
		}
		free(dump);
	}
	if (rowsf)
		fclose(rowsf);
	free(rowstext);
	json_decref(doc);
	if (fclose(f) != 0 || rc != 0) {
		free(text);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return text;
}
