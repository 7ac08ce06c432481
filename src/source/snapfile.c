/* snapfile.c: recorded snapshots (snapfile.h). The rows are written and
 * read through one table of fields per kind (name, type, offset), so the
 * writer and the reader cannot disagree on a field. */
#include "source/snapfile.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/datafiles.h"
#include "core/nodeindex.h"
#include "core/strmap.h"
#include "source/cli_parse.h"

#define SNAP_SCHEMA "opsconsole.snapshot/1"

enum ftype { F_STR, F_U32, F_U64, F_TIME, F_ENUM, F_BOOL, F_DBL };
struct field {
	const char *key;
	enum ftype type;
	size_t off;
	int max; /* F_ENUM: the largest value the model knows; F_STR: 1 = required;
		  * F_U32: -1 = may be absent (0 then: files written before it) */
};

#define FS(T, m) {#m, F_STR, offsetof(T, m), 0}
#define FR(T, m) {#m, F_STR, offsetof(T, m), 1} /* a string every row has */
#define FU(T, m) {#m, F_U32, offsetof(T, m), 0}
#define FL(T, m) {#m, F_U64, offsetof(T, m), 0}
#define FT(T, m) {#m, F_TIME, offsetof(T, m), 0}
#define FE(T, m, max) {#m, F_ENUM, offsetof(T, m), max}
#define FO(T, m) {#m, F_U32, offsetof(T, m), -1} /* a number older files lack */
#define FB(T, m) {#m, F_BOOL, offsetof(T, m), 0}
#define FD(T, m) {#m, F_DBL, offsetof(T, m), 0}
#define FG(T, k, i) {"grp_" k "_limit", F_U64, offsetof(T, grp[i].limit), 0}, {"grp_" k "_used", F_U64, offsetof(T, grp[i].used), 0}

static const struct field node_fields[] = {
	FR(struct oc_node, name),	   FS(struct oc_node, addr),	    FE(struct oc_node, base, OC_NODE_FUTURE),
	FU(struct oc_node, flags),	   FS(struct oc_node, reason),	    FS(struct oc_node, reason_user),
	FT(struct oc_node, reason_time),   FU(struct oc_node, cpus),	    FU(struct oc_node, alloc_cpus),
	FL(struct oc_node, mem_mb),	   FL(struct oc_node, alloc_mem_mb), FU(struct oc_node, gpus),
	FU(struct oc_node, alloc_gpus),	   FS(struct oc_node, cfg_tres),    FS(struct oc_node, alloc_tres),
	FS(struct oc_node, partitions),	   FS(struct oc_node, features),    FS(struct oc_node, version),
	FT(struct oc_node, boot_time),	   FT(struct oc_node, slurmd_start_time), FU(struct oc_node, cpu_load),
	FS(struct oc_node, other_flags),
};
static const struct field part_fields[] = {
	FR(struct oc_partition, name),		FS(struct oc_partition, nodes),
	FU(struct oc_partition, flags),		FS(struct oc_partition, allow_groups),
	FS(struct oc_partition, allow_accounts), FS(struct oc_partition, allow_qos),
	FS(struct oc_partition, qos),		FU(struct oc_partition, priority_tier),
	FU(struct oc_partition, max_time_min),	FU(struct oc_partition, grace_time_s),
	FU(struct oc_partition, preempt_mode),	FU(struct oc_partition, total_nodes),
	FU(struct oc_partition, total_cpus),
};
static const struct field job_fields[] = {
	FU(struct oc_job, job_id),	   FU(struct oc_job, array_job_id), FU(struct oc_job, array_task_id),
	FS(struct oc_job, name),	   FR(struct oc_job, user),	    FS(struct oc_job, account),
	FS(struct oc_job, partition),	   FS(struct oc_job, qos),	    FE(struct oc_job, state, OC_JOB_STATE_COUNT - 1),
	FU(struct oc_job, flags),	   FS(struct oc_job, reason),	    FS(struct oc_job, nodes),
	FT(struct oc_job, submit_time),	   FT(struct oc_job, start_time),   FT(struct oc_job, end_time),
	FU(struct oc_job, time_limit_min), FU(struct oc_job, num_nodes),    FU(struct oc_job, num_cpus),
	FU(struct oc_job, gpus),	   FU(struct oc_job, priority),
	FO(struct oc_job, het_job_id),	   FO(struct oc_job, het_job_offset), FS(struct oc_job, array_tasks),
};
static const struct field resv_fields[] = {
	FR(struct oc_reservation, name),       FS(struct oc_reservation, nodes),
	FS(struct oc_reservation, users),      FS(struct oc_reservation, accounts),
	FS(struct oc_reservation, flags),      FT(struct oc_reservation, start_time),
	FT(struct oc_reservation, end_time),   FU(struct oc_reservation, node_count),
};
/* The association manager: only in the data agent's frames (a recorded
 * file has no accounting). */
static const struct field assoc_fields[] = {
	FR(struct oc_assoc, account),	   FS(struct oc_assoc, user),	     FS(struct oc_assoc, parent),
	FS(struct oc_assoc, partition),	   FG(struct oc_assoc, "gpu", OC_TRES_GPU),
	FG(struct oc_assoc, "cpu", OC_TRES_CPU), FG(struct oc_assoc, "mem", OC_TRES_MEM),
	FG(struct oc_assoc, "node", OC_TRES_NODE), FS(struct oc_assoc, grp_tres), FU(struct oc_assoc, grp_jobs),
	FU(struct oc_assoc, grp_submit),   FU(struct oc_assoc, max_jobs),    FU(struct oc_assoc, max_submit),
	FS(struct oc_assoc, qos),	   FS(struct oc_assoc, def_qos),     FU(struct oc_assoc, shares),
	FB(struct oc_assoc, have_fairshare), FD(struct oc_assoc, shares_norm), FD(struct oc_assoc, usage_raw),
	FD(struct oc_assoc, usage_norm),   FD(struct oc_assoc, usage_efctv), FD(struct oc_assoc, fs_factor),
};
static const struct field qos_fields[] = {
	FR(struct oc_qos, name),	  FU(struct oc_qos, priority),	    FU(struct oc_qos, max_jobs_pu),
	FU(struct oc_qos, max_submit_pu), FU(struct oc_qos, grp_jobs),	    FU(struct oc_qos, grp_submit),
	FG(struct oc_qos, "gpu", OC_TRES_GPU), FG(struct oc_qos, "cpu", OC_TRES_CPU),
	FG(struct oc_qos, "mem", OC_TRES_MEM), FG(struct oc_qos, "node", OC_TRES_NODE),
	FS(struct oc_qos, max_tres_pu),	  FS(struct oc_qos, preempt_mode),
};
#define NF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- writing ----------------------------------------------------------- */

static json_t *row_json(const char *kind, const void *row, const struct field *f, size_t nf)
{
	json_t *o = json_object();
	if (!o || json_object_set_new(o, "t", json_string(kind)) < 0) {
		json_decref(o);
		return NULL;
	}
	for (size_t i = 0; i < nf; i++) {
		const char *p = (const char *)row + f[i].off;
		json_t *v = NULL;
		switch (f[i].type) {
		case F_STR: {
			const char *s = *(const char *const *)(const void *)p;
			if (!s)
				continue; /* absent = NULL */
			v = json_string(s);
			if (!v) {
				/* Not UTF-8 (a reason set with odd bytes): its
				 * non-ASCII bytes are recorded as '?', as the
				 * screen shows them in the C locale. */
				char *c = strdup(s);
				for (char *q = c; q && *q; q++)
					if ((unsigned char)*q >= 0x80)
						*q = '?';
				v = c ? json_string(c) : NULL;
				free(c);
			}
			break;
		}
		case F_U32: v = json_integer((json_int_t) * (const uint32_t *)(const void *)p); break;
		case F_U64: v = json_integer((json_int_t) * (const uint64_t *)(const void *)p); break;
		case F_TIME: v = json_integer((json_int_t) * (const time_t *)(const void *)p); break;
		case F_ENUM: v = json_integer((json_int_t) * (const int *)(const void *)p); break;
		case F_BOOL: v = json_boolean(*(const bool *)(const void *)p); break;
		case F_DBL: {
			double d = *(const double *)(const void *)p;
			v = json_real(isfinite(d) ? d : 0.0); /* JSON has no NaN */
			break;
		}
		}
		if (!v || json_object_set_new(o, f[i].key, v) < 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static int put_line(FILE *f, json_t *o)
{
	if (!o)
		return -1;
	int rc = json_dumpf(o, f, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	return (rc < 0 || fputc('\n', f) == EOF) ? -1 : 0;
}

int oc_snapfile_write(FILE *f, const struct oc_snapshot *s, char *err, size_t errlen)
{
	json_t *h = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I}", "schema", SNAP_SCHEMA, "cluster",
			      s->cluster, "slurm_version", s->slurm_version, "slurm_user", s->slurm_user, "taken",
			      (json_int_t)s->taken, "nodes", (json_int_t)s->nodes->n, "partitions",
			      (json_int_t)s->partitions->n, "jobs", (json_int_t)s->jobs->n, "reservations",
			      (json_int_t)s->reservations->n);
	int rc = put_line(f, h);
	for (size_t i = 0; rc == 0 && i < s->nodes->n; i++)
		rc = put_line(f, row_json("node", &s->nodes->v[i], node_fields, NF(node_fields)));
	for (size_t i = 0; rc == 0 && i < s->partitions->n; i++)
		rc = put_line(f, row_json("part", &s->partitions->v[i], part_fields, NF(part_fields)));
	for (size_t i = 0; rc == 0 && i < s->jobs->n; i++)
		rc = put_line(f, row_json("job", &s->jobs->v[i], job_fields, NF(job_fields)));
	for (size_t i = 0; rc == 0 && i < s->reservations->n; i++)
		rc = put_line(f, row_json("resv", &s->reservations->v[i], resv_fields, NF(resv_fields)));
	if (rc == 0 && fflush(f) != 0)
		rc = -1;
	if (rc < 0)
		oc_seterr(err, errlen, "writing the snapshot: %s", errno ? strerror(errno) : "out of memory");
	return rc;
}

/* ---- reading ----------------------------------------------------------- */

struct reader {
	const char *path;
	long line;
	char *err;
	size_t errlen;
	/* Interned strings of the jobs: users, accounts, partitions, QoS and
	 * reasons repeat across thousands of them (as jobs_convert does). */
	struct oc_strmap interned;
	const char **pool;
	size_t npool, cap;
};

__attribute__((format(printf, 2, 3))) static int rerr(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	oc_seterr(r->err, r->errlen, "%s:%ld: %s", r->path, r->line, msg);
	return -1;
}

static const char *intern(struct reader *r, struct oc_arena *a, const char *s)
{
	uint32_t k = oc_strmap_get(&r->interned, s);
	if (k != UINT32_MAX)
		return r->pool[k];
	if (r->npool == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 64;
		const char **np = realloc(r->pool, ncap * sizeof(*np));
		if (!np)
			return NULL;
		r->pool = np;
		r->cap = ncap;
	}
	const char *copy = oc_arena_strdup(a, s);
	if (!copy || oc_strmap_put(&r->interned, copy, (uint32_t)r->npool) < 0)
		return NULL;
	r->pool[r->npool++] = copy;
	return copy;
}

/* Fill row from o: every field present with the right type; absent
 * strings are NULL, absent numbers refused. */
static int row_fill(struct reader *r, const json_t *o, void *row, const struct field *f, size_t nf,
		    struct oc_arena *a, bool interning)
{
	for (size_t i = 0; i < nf; i++) {
		char *p = (char *)row + f[i].off;
		const json_t *v = json_object_get(o, f[i].key);
		if (f[i].type == F_STR) {
			const char **dst = (const char **)(void *)p;
			*dst = NULL;
			if (!v && f[i].max)
				return rerr(r, "\"%s\" is missing", f[i].key);
			if (!v)
				continue;
			if (!json_is_string(v))
				return rerr(r, "\"%s\" is not a string", f[i].key);
			const char *s = json_string_value(v);
			bool common = interning && strcmp(f[i].key, "name") != 0 && strcmp(f[i].key, "nodes") != 0;
			*dst = common ? intern(r, a, s) : oc_arena_strdup(a, s);
			if (!*dst)
				return rerr(r, "out of memory (%s)", f[i].key);
			continue;
		}
		if (!v && f[i].max < 0) {
			*(uint32_t *)(void *)p = 0;
			continue;
		}
		if (f[i].type == F_BOOL || f[i].type == F_DBL) {
			if (f[i].type == F_BOOL ? !json_is_boolean(v) : !json_is_number(v))
				return rerr(r, "\"%s\" is missing or not a %s", f[i].key,
					    f[i].type == F_BOOL ? "boolean" : "number");
			if (f[i].type == F_BOOL)
				*(bool *)(void *)p = json_is_true(v);
			else
				*(double *)(void *)p = json_number_value(v);
			continue;
		}
		if (!json_is_integer(v))
			return rerr(r, "\"%s\" is missing or not an integer", f[i].key);
		json_int_t n = json_integer_value(v);
		switch (f[i].type) {
		case F_U32:
			if (n < 0 || n > UINT32_MAX)
				return rerr(r, "\"%s\" is out of range", f[i].key);
			*(uint32_t *)(void *)p = (uint32_t)n;
			break;
		case F_U64:
			*(uint64_t *)(void *)p = (uint64_t)n; /* UINT64_MAX was written as -1 */
			break;
		case F_TIME: *(time_t *)(void *)p = (time_t)n; break;
		case F_ENUM:
			if (n < 0 || n > f[i].max)
				return rerr(r, "\"%s\" is out of range", f[i].key);
			*(int *)(void *)p = (int)n;
			break;
		case F_STR:
		case F_BOOL:
		case F_DBL: break;
		}
	}
	return 0;
}

static int header_count(struct reader *r, const json_t *h, const char *key, size_t *out)
{
	const json_t *v = json_object_get(h, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 100000000)
		return rerr(r, "the header's \"%s\" is missing or not a count", key);
	*out = (size_t)json_integer_value(v);
	return 0;
}

static int header_str(struct reader *r, const json_t *h, const char *key, char *dst, size_t len)
{
	const json_t *v = json_object_get(h, key);
	if (!json_is_string(v))
		return rerr(r, "the header's \"%s\" is missing or not a string", key);
	snprintf(dst, len, "%s", json_string_value(v));
	return 0;
}

/* The tables, allocated from the header's counts. */
static int make_tables(struct oc_snapshot *s, size_t nn, size_t np, size_t nj, size_t nr)
{
	s->nodes->v = oc_arena_alloc(&s->nodes->h.arena, sizeof(*s->nodes->v) * (nn ? nn : 1));
	s->partitions->v = oc_arena_alloc(&s->partitions->h.arena, sizeof(*s->partitions->v) * (np ? np : 1));
	s->jobs->v = oc_arena_alloc(&s->jobs->h.arena, sizeof(*s->jobs->v) * (nj ? nj : 1));
	s->reservations->v =
		oc_arena_alloc(&s->reservations->h.arena, sizeof(*s->reservations->v) * (nr ? nr : 1));
	return (s->nodes->v && s->partitions->v && s->jobs->v && s->reservations->v) ? 0 : -1;
}

/* Node indexes of partitions, jobs and reservations, against the nodes. */
static int resolve_all(struct oc_snapshot *s)
{
	struct oc_node_index ix = {.nodes = s->nodes};
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->partitions->n; i++) {
		struct oc_partition *p = &s->partitions->v[i];
		rc = oc_cli_resolve_nodes(&s->partitions->h.arena, p->nodes, &ix, &p->node_idx, &p->node_count);
	}
	for (size_t i = 0; rc == 0 && i < s->jobs->n; i++) {
		struct oc_job *j = &s->jobs->v[i];
		if (oc_job_holds_nodes(j))
			rc = oc_cli_resolve_nodes(&s->jobs->h.arena, j->nodes, &ix, &j->node_idx, &j->node_count);
	}
	for (size_t i = 0; rc == 0 && i < s->reservations->n; i++) {
		struct oc_reservation *v = &s->reservations->v[i];
		rc = oc_cli_resolve_nodes(&s->reservations->h.arena, v->nodes, &ix, &v->node_idx, &v->node_idx_count);
	}
	oc_node_index_free(&ix);
	s->partitions->node_generation = s->jobs->node_generation = s->reservations->node_generation =
		s->nodes->h.generation;
	return rc;
}

/* The header line o: cluster, versions, taken and the row counts into
 * want[], then the tables for them. -1 with the error set. */
static int read_header(struct reader *r, const json_t *o, struct oc_snapshot *s, FILE *f, size_t want[4])
{
	const json_t *sc = json_object_get(o, "schema");
	if (!json_is_string(sc) || strcmp(json_string_value(sc), SNAP_SCHEMA) != 0)
		return rerr(r, "%s", "not an opsconsole snapshot (no \"schema\": \"" SNAP_SCHEMA "\")");
	const json_t *tk = json_object_get(o, "taken");
	if (header_str(r, o, "cluster", s->cluster, sizeof(s->cluster)) < 0 ||
	    header_str(r, o, "slurm_version", s->slurm_version, sizeof(s->slurm_version)) < 0 ||
	    header_str(r, o, "slurm_user", s->slurm_user, sizeof(s->slurm_user)) < 0 ||
	    header_count(r, o, "nodes", &want[0]) < 0 || header_count(r, o, "partitions", &want[1]) < 0 ||
	    header_count(r, o, "jobs", &want[2]) < 0 || header_count(r, o, "reservations", &want[3]) < 0)
		return -1;
	if (!json_is_integer(tk))
		return rerr(r, "%s", "the header's \"taken\" is missing or not a time");
	s->taken = (time_t)json_integer_value(tk);
	/* Every row is a line of 8 bytes or more: a header announcing more
	 * than the file can hold is refused before anything is allocated
	 * for it. */
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && (want[0] + want[1] + want[2] + want[3]) > (size_t)st.st_size / 8)
		return rerr(r, "%s", "the header announces more rows than the file holds");
	if (make_tables(s, want[0], want[1], want[2], want[3]) < 0)
		return rerr(r, "%s", "out of memory");
	return 0;
}

/* One row line o into its table, no more than want[] of each kind. -1
 * with the error set. */
static int read_row(struct reader *r, const json_t *o, struct oc_snapshot *s, const size_t want[4])
{
	static const char too_many[] = "more rows of this kind than the header announces";
	const json_t *t = json_object_get(o, "t");
	const char *kind = json_is_string(t) ? json_string_value(t) : "";
	int rc;
	if (strcmp(kind, "node") == 0) {
		if (s->nodes->n == want[0])
			return rerr(r, "%s", too_many);
		rc = row_fill(r, o, &s->nodes->v[s->nodes->n], node_fields, NF(node_fields), &s->nodes->h.arena, false);
		s->nodes->n += rc == 0;
	} else if (strcmp(kind, "part") == 0) {
		if (s->partitions->n == want[1])
			return rerr(r, "%s", too_many);
		rc = row_fill(r, o, &s->partitions->v[s->partitions->n], part_fields, NF(part_fields),
			      &s->partitions->h.arena, false);
		s->partitions->n += rc == 0;
	} else if (strcmp(kind, "job") == 0) {
		if (s->jobs->n == want[2])
			return rerr(r, "%s", too_many);
		rc = row_fill(r, o, &s->jobs->v[s->jobs->n], job_fields, NF(job_fields), &s->jobs->str->arena, true);
		s->jobs->n += rc == 0;
	} else if (strcmp(kind, "resv") == 0) {
		if (s->reservations->n == want[3])
			return rerr(r, "%s", too_many);
		rc = row_fill(r, o, &s->reservations->v[s->reservations->n], resv_fields, NF(resv_fields),
			      &s->reservations->h.arena, false);
		s->reservations->n += rc == 0;
	} else {
		rc = rerr(r, "unknown row kind \"%s\" (node, part, job, resv)", kind);
	}
	return rc;
}

/* After the last line: every announced row came, the node indexes are
 * resolved and the parts are marked fetched. -1 with err set. */
static int read_finish_counts(const struct oc_snapshot *s, const size_t want[4], const char *path, char *err,
			      size_t errlen)
{
	size_t got[4] = {s->nodes->n, s->partitions->n, s->jobs->n, s->reservations->n};
	static const char *const names[4] = {"nodes", "partitions", "jobs", "reservations"};
	for (int k = 0; k < 4; k++)
		if (got[k] != want[k]) {
			oc_seterr(err, errlen, "%s: truncated: %zu of the %zu %s the header announces", path, got[k],
				  want[k], names[k]);
			return -1;
		}
	return 0;
}

static int read_finish(struct oc_snapshot *s, const size_t want[4], const char *path, char *err, size_t errlen)
{
	if (read_finish_counts(s, want, path, err, errlen) < 0)
		return -1;
	s->nodes->h.generation = s->partitions->h.generation = s->jobs->h.generation = s->reservations->h.generation =
		1;
	if (resolve_all(s) < 0) {
		oc_seterr(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (int p = 0; p < OC_PART_COUNT; p++)
		if (p != OC_PART_ACCT)
			s->status[p].fetched = s->taken;
	s->seq = 1;
	return 0;
}

struct oc_snapshot *oc_snapfile_read(const char *path, char *err, size_t errlen)
{
	struct reader r = {.path = path, .err = err, .errlen = errlen};
	FILE *f = fopen(path, "r");
	if (!f) {
		oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct oc_snapshot *s = oc_snapshot_new();
	char *line = NULL;
	size_t cap = 0, want[4] = {0};
	ssize_t len;
	bool header = false;
	json_t *o = NULL;
	if (!s) {
		oc_seterr(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		r.line++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0)
			continue;
		json_error_t je;
		o = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES, &je);
		if (!json_is_object(o)) {
			if (o)
				rerr(&r, "%s", "not a JSON object");
			else
				rerr(&r, "%s", je.text);
			goto fail;
		}
		if (!header) {
			if (read_header(&r, o, s, f, want) < 0)
				goto fail;
			header = true;
		} else if (read_row(&r, o, s, want) < 0) {
			goto fail;
		}
		json_decref(o);
		o = NULL;
	}
	if (ferror(f)) {
		oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!header) {
		oc_seterr(err, errlen, "%s: empty: not an opsconsole snapshot", path);
		goto fail;
	}
	if (read_finish(s, want, path, err, errlen) < 0)
		goto fail;
	free(line);
	free(r.pool);
	oc_strmap_free(&r.interned);
	fclose(f);
	return s;
fail:
	json_decref(o);
	free(line);
	free(r.pool);
	oc_strmap_free(&r.interned);
	fclose(f);
	oc_snapshot_unref(&s);
	return NULL;
}

/* ---- frames: the data agent's answers ---------------------------------- */

static const char *const part_keys[OC_PART_COUNT] = {"nodes", "partitions", "jobs", "reservations", "accounting"};

/* The accounting's header object: {"enabled", "dbd_error", "assocs": N,
 * "qos": N}. */
static json_t *acct_header(const struct oc_accounting *t)
{
	return json_pack("{s:b, s:s, s:I, s:I}", "enabled", t->enabled, "dbd_error", t->dbd_error, "assocs",
			 (json_int_t)t->nassocs, "qos", (json_int_t)t->nqos);
}


/* ---- row deltas: rows the other side holds already --------------------- */

/* Whether rows a and b are the same in every field of f. */
static bool row_equal(const void *a, const void *b, const struct field *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		const char *pa = (const char *)a + f[i].off, *pb = (const char *)b + f[i].off;
		switch (f[i].type) {
		case F_STR: {
			const char *x = *(const char *const *)(const void *)pa, *y = *(const char *const *)(const void *)pb;
			if (x != y && (!x || !y || strcmp(x, y) != 0))
				return false;
			break;
		}
		case F_U32: if (memcmp(pa, pb, sizeof(uint32_t)) != 0) return false; break;
		case F_U64: if (memcmp(pa, pb, sizeof(uint64_t)) != 0) return false; break;
		case F_TIME: if (memcmp(pa, pb, sizeof(time_t)) != 0) return false; break;
		case F_ENUM: if (memcmp(pa, pb, sizeof(int)) != 0) return false; break;
		case F_BOOL: if (*(const bool *)(const void *)pa != *(const bool *)(const void *)pb) return false; break;
		case F_DBL: if (memcmp(pa, pb, sizeof(double)) != 0) return false; break;
		}
	}
	return true;
}

bool oc_snapfile_acct_same(const struct oc_accounting *a, const struct oc_accounting *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->enabled != b->enabled || strcmp(a->dbd_error, b->dbd_error) != 0 ||
	    a->nassocs != b->nassocs || a->nqos != b->nqos)
		return false;
	for (size_t i = 0; i < a->nassocs; i++)
		if (!row_equal(&a->assocs[i], &b->assocs[i], assoc_fields, NF(assoc_fields)))
			return false;
	for (size_t i = 0; i < a->nqos; i++)
		if (!row_equal(&a->qos[i], &b->qos[i], qos_fields, NF(qos_fields)))
			return false;
	return true;
}

/* A map of job ids to row numbers (open addressing; id 0 is no job). */
struct idmap {
	uint32_t *key, *val;
	size_t mask;
};

static int idmap_init(struct idmap *m, size_t n)
{
	size_t cap = 16;
	while (cap < n * 2)
		cap *= 2;
	m->key = calloc(cap, sizeof(*m->key));
	m->val = calloc(cap, sizeof(*m->val));
	m->mask = cap - 1;
	return m->key && m->val ? 0 : -1;
}

static size_t idmap_slot(const struct idmap *m, uint32_t k)
{
	size_t i = (k * 2654435761u) & m->mask;
	while (m->key[i] && m->key[i] != k)
		i = (i + 1) & m->mask;
	return i;
}

static void idmap_free(struct idmap *m)
{
	free(m->key);
	free(m->val);
}

/* Where each row of a table came from: the row number in the previous
 * table of the row with its key, when it is the same there, else
 * UINT32_MAX. -1 on ENOMEM. */
static int delta_jobs(const struct oc_jobs *prev, const struct oc_jobs *next, uint32_t *from)
{
	struct idmap m;
	if (idmap_init(&m, prev->n) < 0) {
		idmap_free(&m);
		return -1;
	}
	for (size_t i = 0; i < prev->n; i++) {
		size_t k = idmap_slot(&m, prev->v[i].job_id);
		m.key[k] = prev->v[i].job_id;
		m.val[k] = (uint32_t)i;
	}
	for (size_t i = 0; i < next->n; i++) {
		size_t k = idmap_slot(&m, next->v[i].job_id);
		from[i] = UINT32_MAX;
		if (m.key[k] && row_equal(&prev->v[m.val[k]], &next->v[i], job_fields, NF(job_fields)))
			from[i] = m.val[k];
	}
	idmap_free(&m);
	return 0;
}

static int delta_nodes(const struct oc_nodes *prev, const struct oc_nodes *next, uint32_t *from)
{
	struct oc_strmap m = {0};
	if (oc_strmap_init(&m, prev->n) < 0)
		return -1;
	for (size_t i = 0; i < prev->n; i++)
		if (oc_strmap_put(&m, prev->v[i].name, (uint32_t)i) < 0) {
			oc_strmap_free(&m);
			return -1;
		}
	for (size_t i = 0; i < next->n; i++) {
		uint32_t k = oc_strmap_get(&m, next->v[i].name);
		from[i] = UINT32_MAX;
		if (k != UINT32_MAX && row_equal(&prev->v[k], &next->v[i], node_fields, NF(node_fields)))
			from[i] = k;
	}
	oc_strmap_free(&m);
	return 0;
}

/* The rows of one table as a delta: a run of rows the other side holds in
 * a row, {"t":"same","of":KIND,"from":K,"count":C}; any other row whole. */
static int put_delta(FILE *f, const char *kind, const void *rows, size_t size, size_t n, const uint32_t *from,
		     const struct field *fl, size_t nf)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n;) {
		if (from[i] == UINT32_MAX) {
			rc = put_line(f, row_json(kind, (const char *)rows + i * size, fl, nf));
			i++;
			continue;
		}
		size_t c = 1;
		while (i + c < n && from[i + c] == from[i] + c)
			c++;
		rc = fprintf(f, "{\"t\":\"same\",\"of\":\"%s\",\"from\":%u,\"count\":%zu}\n", kind, from[i], c) < 0 ? -1 : 0;
		i += c;
	}
	return rc;
}

int oc_snapfile_write_frame(FILE *f, const struct oc_snapshot *s, const struct oc_snapshot *prev, unsigned send,
			    char *err, size_t errlen)
{
	json_t *h = json_pack("{s:s, s:I, s:s, s:s, s:s, s:I, s:[]}", "t", "frame", "seq", (json_int_t)s->seq, "cluster",
			      s->cluster, "slurm_version", s->slurm_version, "slurm_user", s->slurm_user, "taken",
			      (json_int_t)s->taken, "status");
	const size_t counts[OC_PART_ACCT] = {s->nodes->n, s->partitions->n, s->jobs->n, s->reservations->n};
	json_t *st = h ? json_object_get(h, "status") : NULL;
	/* The nodes and jobs that prev holds already go as references. */
	uint32_t *nfrom = NULL, *jfrom = NULL;
	unsigned delta = 0;
	if (prev && (send & OC_MASK(OC_PART_NODES)) && prev->nodes->n && s->nodes->n &&
	    (nfrom = malloc(s->nodes->n * sizeof(*nfrom))) && delta_nodes(prev->nodes, s->nodes, nfrom) == 0)
		delta |= OC_MASK(OC_PART_NODES);
	if (prev && (send & OC_MASK(OC_PART_JOBS)) && prev->jobs->n && s->jobs->n &&
	    (jfrom = malloc(s->jobs->n * sizeof(*jfrom))) && delta_jobs(prev->jobs, s->jobs, jfrom) == 0)
		delta |= OC_MASK(OC_PART_JOBS);
	if (st && delta && json_object_set_new(h, "delta", json_integer(delta)) < 0)
		st = NULL;
	for (int p = 0; st && p < OC_PART_COUNT; p++) {
		const struct oc_part_status *ps = &s->status[p];
		if (json_array_append_new(st, json_pack("[I, I, s]", (json_int_t)ps->fetched,
							(json_int_t)ps->error_since, ps->error)) < 0)
			st = NULL;
		if (!st || !(send & OC_MASK(p)))
			continue;
		json_t *c = p == OC_PART_ACCT ? acct_header(s->accounting) : json_integer((json_int_t)counts[p]);
		if (json_object_set_new(h, part_keys[p], c) < 0)
			st = NULL;
	}
	if (!st) {
		json_decref(h);
		free(nfrom);
		free(jfrom);
		oc_seterr(err, errlen, "writing a frame: out of memory");
		return -1;
	}
	int rc = put_line(f, h);
	if (rc == 0 && (delta & OC_MASK(OC_PART_NODES)))
		rc = put_delta(f, "node", s->nodes->v, sizeof(*s->nodes->v), s->nodes->n, nfrom, node_fields,
			       NF(node_fields));
	for (size_t i = 0; rc == 0 && !(delta & OC_MASK(OC_PART_NODES)) && (send & OC_MASK(OC_PART_NODES)) &&
			   i < s->nodes->n;
	     i++)
		rc = put_line(f, row_json("node", &s->nodes->v[i], node_fields, NF(node_fields)));
	for (size_t i = 0; rc == 0 && (send & OC_MASK(OC_PART_PARTITIONS)) && i < s->partitions->n; i++)
		rc = put_line(f, row_json("part", &s->partitions->v[i], part_fields, NF(part_fields)));
	if (rc == 0 && (delta & OC_MASK(OC_PART_JOBS)))
		rc = put_delta(f, "job", s->jobs->v, sizeof(*s->jobs->v), s->jobs->n, jfrom, job_fields,
			       NF(job_fields));
	for (size_t i = 0; rc == 0 && !(delta & OC_MASK(OC_PART_JOBS)) && (send & OC_MASK(OC_PART_JOBS)) &&
			   i < s->jobs->n;
	     i++)
		rc = put_line(f, row_json("job", &s->jobs->v[i], job_fields, NF(job_fields)));
	free(nfrom);
	free(jfrom);
	for (size_t i = 0; rc == 0 && (send & OC_MASK(OC_PART_RESV)) && i < s->reservations->n; i++)
		rc = put_line(f, row_json("resv", &s->reservations->v[i], resv_fields, NF(resv_fields)));
	for (size_t i = 0; rc == 0 && (send & OC_MASK(OC_PART_ACCT)) && i < s->accounting->nassocs; i++)
		rc = put_line(f, row_json("assoc", &s->accounting->assocs[i], assoc_fields, NF(assoc_fields)));
	for (size_t i = 0; rc == 0 && (send & OC_MASK(OC_PART_ACCT)) && i < s->accounting->nqos; i++)
		rc = put_line(f, row_json("qos", &s->accounting->qos[i], qos_fields, NF(qos_fields)));
	if (rc == 0 && (fputs(OC_SNAPFILE_END "\n", f) == EOF || fflush(f) != 0))
		rc = -1;
	if (rc < 0)
		oc_seterr(err, errlen, "writing a frame: %s", errno ? strerror(errno) : "out of memory");
	return rc;
}

/* What a frame announces: the counts of the four tables, then of the
 * associations and QoS. */
struct frame_want {
	size_t n[4];
	size_t nassoc, nqos;
	unsigned delta; /* the parts sent as deltas (the nodes, the jobs) */
	uint64_t seq;   /* the frame's number */
};

/* The frame's header o: names, statuses into st[], the counts of the
 * parts sent into w and *sent, the tables for them. -1 with the error
 * set. */
static int frame_header(struct reader *r, const json_t *o, struct oc_snapshot *tmp,
			struct oc_part_status st[OC_PART_COUNT], struct frame_want *w, unsigned *sent)
{
	const json_t *t = json_object_get(o, "t"), *sa = json_object_get(o, "status");
	if (!json_is_string(t) || strcmp(json_string_value(t), "frame") != 0)
		return rerr(r, "%s", "not a frame (no \"t\": \"frame\")");
	const json_t *sq = json_object_get(o, "seq");
	if (sq && (!json_is_integer(sq) || json_integer_value(sq) < 0))
		return rerr(r, "%s", "the frame's \"seq\" is not a number");
	w->seq = sq ? (uint64_t)json_integer_value(sq) : 0;
	if (header_str(r, o, "cluster", tmp->cluster, sizeof(tmp->cluster)) < 0 ||
	    header_str(r, o, "slurm_version", tmp->slurm_version, sizeof(tmp->slurm_version)) < 0 ||
	    header_str(r, o, "slurm_user", tmp->slurm_user, sizeof(tmp->slurm_user)) < 0)
		return -1;
	if (!json_is_array(sa) || json_array_size(sa) != OC_PART_COUNT)
		return rerr(r, "the frame's \"status\" is not %d entries", OC_PART_COUNT);
	for (int p = 0; p < OC_PART_COUNT; p++) {
		json_int_t fetched, since;
		const char *e;
		if (json_unpack(json_array_get(sa, (size_t)p), "[I, I, s]", &fetched, &since, &e) < 0)
			return rerr(r, "the frame's status of %s is not [fetched, error_since, error]", part_keys[p]);
		st[p].fetched = (time_t)fetched;
		st[p].error_since = (time_t)since;
		snprintf(st[p].error, sizeof(st[p].error), "%s", e);
		if (!json_object_get(o, part_keys[p]))
			continue;
		*sent |= OC_MASK(p);
		if (p < OC_PART_ACCT && header_count(r, o, part_keys[p], &w->n[p]) < 0)
			return -1;
	}
	const json_t *d = json_object_get(o, "delta");
	if (d && (!json_is_integer(d) || (json_integer_value(d) & ~(json_int_t)(OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS))) ||
		  ((unsigned)json_integer_value(d) & ~*sent)))
		return rerr(r, "%s", "the frame's \"delta\" is not a mask of the nodes and jobs sent");
	w->delta = d ? (unsigned)json_integer_value(d) : 0;
	if (make_tables(tmp, w->n[0], w->n[1], w->n[2], w->n[3]) < 0)
		return rerr(r, "%s", "out of memory");
	if (*sent & OC_MASK(OC_PART_ACCT)) {
		const json_t *a = json_object_get(o, "accounting");
		int enabled;
		const char *dbd;
		struct oc_accounting *acct = tmp->accounting;
		if (json_unpack((json_t *)a, "{s:b, s:s}", "enabled", &enabled, "dbd_error", &dbd) < 0 ||
		    header_count(r, a, "assocs", &w->nassoc) < 0 || header_count(r, a, "qos", &w->nqos) < 0)
			return rerr(r, "%s", "the frame's \"accounting\" is not {enabled, dbd_error, assocs, qos}");
		acct->enabled = enabled;
		snprintf(acct->dbd_error, sizeof(acct->dbd_error), "%s", dbd);
		acct->assocs = oc_arena_alloc(&acct->h.arena, sizeof(*acct->assocs) * (w->nassoc ? w->nassoc : 1));
		acct->qos = oc_arena_alloc(&acct->h.arena, sizeof(*acct->qos) * (w->nqos ? w->nqos : 1));
		if (!acct->assocs || !acct->qos)
			return rerr(r, "%s", "out of memory");
	}
	return 0;
}

/* Copy the strings of row (copied from another table) into arena a:
 * the job's common ones interned, as when read. */
static int row_restring(struct reader *r, void *row, const struct field *f, size_t nf, struct oc_arena *a,
			bool interning)
{
	for (size_t i = 0; i < nf; i++) {
		if (f[i].type != F_STR)
			continue;
		const char **p = (const char **)(void *)((char *)row + f[i].off);
		if (!*p)
			continue;
		bool common = interning && strcmp(f[i].key, "name") != 0 && strcmp(f[i].key, "nodes") != 0;
		*p = common ? intern(r, a, *p) : oc_arena_strdup(a, *p);
		if (!*p)
			return rerr(r, "out of memory (%s)", f[i].key);
	}
	return 0;
}

/* {"t":"same","of":"node"|"job","from":K,"count":C}: rows K.. of the
 * table next holds, again (delta says the part came as a delta). */
static int frame_same(struct reader *r, const json_t *o, struct oc_snapshot *tmp, const struct oc_snapshot *next,
		      unsigned delta, const struct frame_want *w)
{
	const char *of;
	json_int_t from, count;
	if (json_unpack((json_t *)o, "{s:s, s:I, s:I}", "of", &of, "from", &from, "count", &count) < 0)
		return rerr(r, "%s", "\"same\" wants \"of\", \"from\" and \"count\"");
	bool job = strcmp(of, "job") == 0;
	if (!job && strcmp(of, "node") != 0)
		return rerr(r, "\"same\" of \"%s\" (node, job)", of);
	if (!(delta & OC_MASK(job ? OC_PART_JOBS : OC_PART_NODES)))
		return rerr(r, "\"same\" %s rows in a frame that sends them whole", of);
	size_t held = job ? next->jobs->n : next->nodes->n, have = job ? tmp->jobs->n : tmp->nodes->n;
	size_t want = w->n[job ? OC_PART_JOBS : OC_PART_NODES];
	if (from < 0 || count < 1 || (size_t)from > held || (size_t)count > held - (size_t)from)
		return rerr(r, "\"same\" rows %lld..%lld of the %zu held", (long long)from, (long long)(from + count),
			    held);
	if ((size_t)count > want - have)
		return rerr(r, "%s", "more rows of this kind than the header announces");
	for (json_int_t i = 0; i < count; i++) {
		int rc;
		if (job) {
			struct oc_job *d = &tmp->jobs->v[tmp->jobs->n];
			*d = next->jobs->v[from + i];
			d->node_idx = NULL;
			d->node_count = 0;
			rc = row_restring(r, d, job_fields, NF(job_fields), &tmp->jobs->str->arena, true);
			tmp->jobs->n += rc == 0;
		} else {
			struct oc_node *d = &tmp->nodes->v[tmp->nodes->n];
			*d = next->nodes->v[from + i];
			rc = row_restring(r, d, node_fields, NF(node_fields), &tmp->nodes->h.arena, false);
			tmp->nodes->n += rc == 0;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* One row of a frame: the four tables as in a file, rows held already,
 * and associations and QoS. */
static int frame_row(struct reader *r, const json_t *o, struct oc_snapshot *tmp, const struct oc_snapshot *next,
		     struct frame_want *w)
{
	const json_t *t = json_object_get(o, "t");
	const char *kind = json_is_string(t) ? json_string_value(t) : "";
	struct oc_accounting *a = tmp->accounting;
	if (strcmp(kind, "same") == 0)
		return frame_same(r, o, tmp, next, w->delta, w);
	if (strcmp(kind, "assoc") == 0 || strcmp(kind, "qos") == 0) {
		bool assoc = kind[0] == 'a';
		if (assoc ? a->nassocs == w->nassoc : a->nqos == w->nqos)
			return rerr(r, "%s", "more rows of this kind than the header announces");
		int rc = assoc ? row_fill(r, o, &a->assocs[a->nassocs], assoc_fields, NF(assoc_fields), &a->h.arena, false)
			       : row_fill(r, o, &a->qos[a->nqos], qos_fields, NF(qos_fields), &a->h.arena, false);
		if (rc == 0) {
			if (assoc)
				a->nassocs++;
			else
				a->nqos++;
		}
		return rc;
	}
	return read_row(r, o, tmp, w->n);
}

/* Node indexes of the parts in mask of s against nodes. */
static int resolve_parts(struct oc_snapshot *s, unsigned mask, struct oc_nodes *nodes)
{
	struct oc_node_index ix = {.nodes = nodes};
	int rc = 0;
	for (size_t i = 0; rc == 0 && (mask & OC_MASK(OC_PART_PARTITIONS)) && i < s->partitions->n; i++) {
		struct oc_partition *p = &s->partitions->v[i];
		rc = oc_cli_resolve_nodes(&s->partitions->h.arena, p->nodes, &ix, &p->node_idx, &p->node_count);
	}
	for (size_t i = 0; rc == 0 && (mask & OC_MASK(OC_PART_JOBS)) && i < s->jobs->n; i++) {
		struct oc_job *j = &s->jobs->v[i];
		if (oc_job_holds_nodes(j))
			rc = oc_cli_resolve_nodes(&s->jobs->h.arena, j->nodes, &ix, &j->node_idx, &j->node_count);
	}
	for (size_t i = 0; rc == 0 && (mask & OC_MASK(OC_PART_RESV)) && i < s->reservations->n; i++) {
		struct oc_reservation *v = &s->reservations->v[i];
		rc = oc_cli_resolve_nodes(&s->reservations->h.arena, v->nodes, &ix, &v->node_idx, &v->node_idx_count);
	}
	oc_node_index_free(&ix);
	return rc;
}

int oc_snapfile_read_frame(const char *buf, size_t len, struct oc_snapshot *next, struct oc_frame_info *info,
			   char *err, size_t errlen)
{
	unsigned *sent = &info->sent;
	struct reader r = {.path = "agent frame", .err = err, .errlen = errlen};
	struct oc_snapshot *tmp = oc_snapshot_new();
	struct oc_part_status st[OC_PART_COUNT];
	struct frame_want w;
	memset(&w, 0, sizeof(w));
	bool header = false, ended = false;
	*sent = 0;
	if (!tmp) {
		oc_seterr(err, errlen, "agent frame: out of memory");
		return -1;
	}
	for (const char *p = buf, *end = buf + len; p < end && !ended;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		r.line++;
		if (n == strlen(OC_SNAPFILE_END) && memcmp(p, OC_SNAPFILE_END, n) == 0) {
			ended = true;
			break;
		}
		json_error_t je;
		json_t *o = n ? json_loadb(p, n, JSON_REJECT_DUPLICATES, &je) : NULL;
		p += n + (nl != NULL);
		int rc;
		if (!json_is_object(o))
			rc = o ? rerr(&r, "%s", "not a JSON object") : rerr(&r, "%s", n ? je.text : "an empty line");
		else if (!header)
			rc = frame_header(&r, o, tmp, st, &w, sent);
		else
			rc = frame_row(&r, o, tmp, next, &w);
		header = true;
		json_decref(o);
		if (rc < 0)
			goto fail;
	}
	if (!ended || !header) {
		oc_seterr(err, errlen, "agent frame: cut short (no end line)");
		goto fail;
	}
	if (read_finish_counts(tmp, w.n, "agent frame", err, errlen) < 0)
		goto fail;
	if (tmp->accounting->nassocs != w.nassoc || tmp->accounting->nqos != w.nqos) {
		oc_seterr(err, errlen, "agent frame: truncated: %zu of %zu associations, %zu of %zu QoS",
			  tmp->accounting->nassocs, w.nassoc, tmp->accounting->nqos, w.nqos);
		goto fail;
	}
	/* A new node layout invalidates the indexes of every table that
	 * was not sent again: the agent sends them all then. */
	struct oc_nodes *nodes = (*sent & OC_MASK(OC_PART_NODES)) ? tmp->nodes : next->nodes;
	if (!oc_nodes_same_layout(next->nodes, nodes) &&
	    ((!(*sent & OC_MASK(OC_PART_PARTITIONS)) && next->partitions->n) ||
	     (!(*sent & OC_MASK(OC_PART_JOBS)) && next->jobs->n) ||
	     (!(*sent & OC_MASK(OC_PART_RESV)) && next->reservations->n))) {
		oc_seterr(err, errlen, "agent frame: a new node layout without the tables indexed by it");
		goto fail;
	}
	if (resolve_parts(tmp, *sent, nodes) < 0) {
		oc_seterr(err, errlen, "agent frame: out of memory");
		goto fail;
	}
#define TAKE(part, field, unref)                                                       \
	do {                                                                           \
		if (*sent & OC_MASK(part)) {                                           \
			tmp->field->h.generation = next->field->h.generation + 1;      \
			unref(&next->field);                                           \
			next->field = tmp->field;                                      \
			tmp->field = NULL;                                             \
		}                                                                      \
	} while (0)
	TAKE(OC_PART_NODES, nodes, oc_nodes_unref);
	TAKE(OC_PART_PARTITIONS, partitions, oc_partitions_unref);
	TAKE(OC_PART_JOBS, jobs, oc_jobs_unref);
	TAKE(OC_PART_RESV, reservations, oc_reservations_unref);
	TAKE(OC_PART_ACCT, accounting, oc_accounting_unref);
#undef TAKE
	uint64_t g = next->nodes->h.generation;
	if (*sent & OC_MASK(OC_PART_PARTITIONS))
		next->partitions->node_generation = g;
	if (*sent & OC_MASK(OC_PART_JOBS))
		next->jobs->node_generation = g;
	if (*sent & OC_MASK(OC_PART_RESV))
		next->reservations->node_generation = g;
	memcpy(info->status, st, sizeof(st));
	info->seq = w.seq;
	memcpy(next->cluster, tmp->cluster, sizeof(next->cluster));
	memcpy(next->slurm_version, tmp->slurm_version, sizeof(next->slurm_version));
	memcpy(next->slurm_user, tmp->slurm_user, sizeof(next->slurm_user));
	free(r.pool);
	oc_strmap_free(&r.interned);
	oc_snapshot_unref(&tmp);
	return 0;
fail:
	*sent = 0;
	free(r.pool);
	oc_strmap_free(&r.interned);
	oc_snapshot_unref(&tmp);
	return -1;
}

/* ---- the backend ------------------------------------------------------- */

struct snap_backend {
	struct oc_backend base;
	struct oc_snapshot *snap;
};

static int snap_refresh(struct oc_backend *base, unsigned mask, const struct oc_snapshot *prev,
			struct oc_snapshot *next)
{
	struct snap_backend *b = (struct snap_backend *)base;
	(void)prev;
	const struct oc_snapshot *s = b->snap;
	memcpy(next->cluster, s->cluster, sizeof(next->cluster));
	memcpy(next->slurm_version, s->slurm_version, sizeof(next->slurm_version));
	memcpy(next->slurm_user, s->slurm_user, sizeof(next->slurm_user));
#define SHARE(field, ref, unref)                     \
	do {                                         \
		unref(&next->field);                 \
		next->field = ref(s->field);         \
	} while (0)
	SHARE(nodes, oc_nodes_ref, oc_nodes_unref);
	SHARE(partitions, oc_partitions_ref, oc_partitions_unref);
	SHARE(jobs, oc_jobs_ref, oc_jobs_unref);
	SHARE(reservations, oc_reservations_ref, oc_reservations_unref);
#undef SHARE
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if (!(mask & OC_MASK(p)))
			continue;
		/* The association manager is not recorded: the quota view
		 * says so (its table stays empty), no STALE banner. */
		next->status[p].fetched = s->taken;
		next->status[p].error_since = 0;
		next->status[p].error[0] = '\0';
	}
	return 0;
}

static void snap_close(struct oc_backend *base)
{
	struct snap_backend *b = (struct snap_backend *)base;
	oc_snapshot_unref(&b->snap);
	free(b);
}

static const struct oc_backend_ops snap_ops = {
	.name = "snapshot",
	.refresh = snap_refresh,
	.close = snap_close,
};

struct oc_backend *oc_snap_backend_open(const char *path, char *err, size_t errlen)
{
	struct snap_backend *b = calloc(1, sizeof(*b));
	if (!b) {
		oc_seterr(err, errlen, "out of memory");
		return NULL;
	}
	b->snap = oc_snapfile_read(path, err, errlen);
	if (!b->snap) {
		free(b);
		return NULL;
	}
	b->base.ops = &snap_ops;
	return &b->base;
}

time_t oc_snap_backend_taken(const struct oc_backend *b)
{
	return b && b->ops == &snap_ops ? ((const struct snap_backend *)b)->snap->taken : 0;
}
