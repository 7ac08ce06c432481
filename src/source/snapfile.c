/* snapfile.c: recorded snapshots (snapfile.h). The rows are written and
 * read through one table of fields per kind (name, type, offset), so the
 * writer and the reader cannot disagree on a field. */
#include "source/snapfile.h"

#include <errno.h>
#include <jansson.h>
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

enum ftype { F_STR, F_U32, F_U64, F_TIME, F_ENUM };
struct field {
	const char *key;
	enum ftype type;
	size_t off;
	int max; /* F_ENUM: the largest value the model knows; F_STR: 1 = required */
};

#define FS(T, m) {#m, F_STR, offsetof(T, m), 0}
#define FR(T, m) {#m, F_STR, offsetof(T, m), 1} /* a string every row has */
#define FU(T, m) {#m, F_U32, offsetof(T, m), 0}
#define FL(T, m) {#m, F_U64, offsetof(T, m), 0}
#define FT(T, m) {#m, F_TIME, offsetof(T, m), 0}
#define FE(T, m, max) {#m, F_ENUM, offsetof(T, m), max}

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
};
static const struct field resv_fields[] = {
	FR(struct oc_reservation, name),       FS(struct oc_reservation, nodes),
	FS(struct oc_reservation, users),      FS(struct oc_reservation, accounts),
	FS(struct oc_reservation, flags),      FT(struct oc_reservation, start_time),
	FT(struct oc_reservation, end_time),   FU(struct oc_reservation, node_count),
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
		case F_STR: break;
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
static int read_finish(struct oc_snapshot *s, const size_t want[4], const char *path, char *err, size_t errlen)
{
	size_t got[4] = {s->nodes->n, s->partitions->n, s->jobs->n, s->reservations->n};
	static const char *const names[4] = {"nodes", "partitions", "jobs", "reservations"};
	for (int k = 0; k < 4; k++)
		if (got[k] != want[k]) {
			oc_seterr(err, errlen, "%s: truncated: %zu of the %zu %s the header announces", path, got[k],
					want[k], names[k]);
			return -1;
		}
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
