/* cli_json.c: `sinfo --json`, `scontrol --json show nodes` and `squeue
 * --json` into model tables (cli_parse.h). jansson objects stay in this
 * file. Field names are those of Slurm's openapi data_parser, which kept
 * them from v0.0.38 (22.05) to v0.0.44 (25.11); what changed is the shape:
 * - numbers: plain (v0.0.38) or {"set": true, "infinite": false,
 *   "number": N} (v0.0.39 and later, for the *_NO_VAL types);
 * - node state: "state": "idle" + "state_flags": ["DRAIN"] (v0.0.38) or
 *   "state": ["IDLE", "DRAIN"] (later);
 * - job state: "job_state": "RUNNING" (v0.0.38, a flag word such as
 *   "COMPLETING" instead of the base when set) or ["RUNNING", ...];
 * - "reason_set_by_user": a user name, null when none. */
#include "core/jobreason.h"
#include "source/cli_parse.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/state.h"
#include "core/tres.h"

/* A number of any of the shapes above; def when absent, null, unset or
 * infinite (*inf tells infinite apart when not NULL). */
static uint64_t jnum(const json_t *o, const char *key, uint64_t def, bool *inf)
{
	const json_t *v = json_object_get(o, key);
	if (inf)
		*inf = false;
	if (json_is_object(v)) {
		const json_t *i = json_object_get(v, "infinite");
		if (json_is_true(i)) {
			if (inf)
				*inf = true;
			return def;
		}
		const json_t *s = json_object_get(v, "set");
		if (s && !json_is_true(s))
			return def;
		v = json_object_get(v, "number");
	}
	if (json_is_integer(v))
		return json_integer_value(v) < 0 ? def : (uint64_t)json_integer_value(v);
	if (json_is_real(v))
		return json_real_value(v) < 0 ? def : (uint64_t)json_real_value(v);
	return def;
}

static const char *jstr(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A string, or an array of strings joined with ',' (partitions, features
 * in newer versions), into the arena. NULL when empty. */
static const char *jcsv(struct oc_arena *a, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	if (json_is_string(v))
		return oc_arena_strdup_nonempty(a, json_string_value(v));
	if (!json_is_array(v) || json_array_size(v) == 0)
		return NULL;
	size_t len = 1, i;
	const json_t *e;
	json_array_foreach(v, i, e)
		if (json_is_string(e))
			len += strlen(json_string_value(e)) + 1;
	char *buf = malloc(len);
	if (!buf)
		return NULL;
	buf[0] = '\0';
	json_array_foreach(v, i, e)
		if (json_is_string(e)) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, json_string_value(e));
		}
	const char *r = oc_arena_strdup_nonempty(a, buf);
	free(buf);
	return r;
}

/* The "errors" array's first message, "" when none:
 * "slurm_load_jobs: Failed while looking for jobs: Unspecified error". */
static void json_errors(const json_t *root, char *out, size_t len)
{
	out[0] = '\0';
	const json_t *errs = json_object_get(root, "errors");
	if (!json_is_array(errs) || json_array_size(errs) == 0)
		return;
	const json_t *e = json_array_get(errs, 0);
	const char *parts[] = {jstr(e, "source"), jstr(e, "description"), jstr(e, "error")};
	size_t off = 0;
	for (size_t i = 0; i < 3; i++)
		if (parts[i] && *parts[i] && off < len) {
			int w = snprintf(out + off, len - off, "%s%s", off ? ": " : "", parts[i]);
			if (w > 0)
				off += (size_t)w;
		}
	if (!out[0])
		snprintf(out, len, "error %llu", (unsigned long long)jnum(e, "error_number", 0, NULL));
}

/* Parse text and return its array key, or NULL with err. The commands
 * exit 0 when slurmctld does not answer, with an empty array and the
 * failure in "errors": any error fails the parse. *root to json_decref. */
static const json_t *load_array(const char *text, size_t len, const char *key, json_t **root, char *err,
				size_t errlen)
{
	json_error_t je;
	*root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!*root) {
		snprintf(err, errlen, "bad JSON at line %d column %d: %s", je.line, je.column, je.text);
		return NULL;
	}
	char jerr[200];
	json_errors(*root, jerr, sizeof(jerr));
	const json_t *arr = json_object_get(*root, key);
	if (jerr[0] || !json_is_array(arr)) {
		if (jerr[0])
			snprintf(err, errlen, "%s", jerr);
		else
			snprintf(err, errlen, "no \"%s\" array in the JSON", key);
		json_decref(*root);
		*root = NULL;
		return NULL;
	}
	return arr;
}

/* ---- nodes ------------------------------------------------------------ */

/* The words of openapi's NODE_STATES flags (data_parser v0.0.38 to
 * v0.0.45, i.e. 22.05 to 26.05) and the flags they stand for. */
static const struct {
	const char *name;
	uint32_t flag;
} node_flag_names[] = {
	{"DRAIN", OC_NF_DRAIN},
	{"COMPLETING", OC_NF_COMPLETING},
	{"NOT_RESPONDING", OC_NF_NOT_RESPONDING},
	{"POWERED_DOWN", OC_NF_POWERED_DOWN},
	{"POWERING_UP", OC_NF_POWERING_UP},
	{"POWERING_DOWN", OC_NF_POWERING_DOWN},
	{"POWER_DOWN", OC_NF_POWER_DOWN_PENDING},
	{"FAIL", OC_NF_FAIL},
	{"MAINTENANCE", OC_NF_MAINT},
	{"MAINT", OC_NF_MAINT},
	{"RESERVED", OC_NF_RESERVED},
	{"REBOOT_REQUESTED", OC_NF_REBOOT_REQUESTED},
	{"REBOOT_ISSUED", OC_NF_REBOOT_ISSUED},
	{"PLANNED", OC_NF_PLANNED},
	{"CLOUD", OC_NF_CLOUD},
	{"INVALID_REG", OC_NF_INVALID_REG},
	{"DYNAMIC_NORM", OC_NF_DYNAMIC},
	{"DYNAMIC_FUTURE", OC_NF_DYNAMIC_FUTURE},
	{"BLOCKED", OC_NF_BLOCKED},     /* 24.05 and later */
	{"EXTERNAL", OC_NF_EXTERNAL},   /* 25.05 and later */
	{"POWER_UP", OC_NF_POWER_UP},
	{"POWER_DRAIN", OC_NF_POWER_DRAIN},
	/* Two bits in one word, printed besides the single ones. */
	{"POWER_DOWN_ASAP", OC_NF_POWER_DOWN_PENDING | OC_NF_POWER_DRAIN},
	{"POWER_DOWN_FORCE", OC_NF_POWER_DOWN_PENDING | OC_NF_POWERED_DOWN},
	{"REBOOT_CANCELED", OC_NF_REBOOT_CANCEL},
	{"RESUME", OC_NF_RESUME},
	{"UNDRAIN", OC_NF_UNDRAIN},
};

/* Words of a node's state the tables here do not know: appended to other
 * as "+WORD" (cut at its size, never mid-word). */
struct node_other {
	char s[256];
	size_t len;
};

static void node_other_add(struct node_other *o, const char *w)
{
	size_t wl = strlen(w);
	if (!wl || o->len + wl + 2 > sizeof(o->s))
		return;
	o->s[o->len++] = '+';
	memcpy(o->s + o->len, w, wl);
	o->len += wl;
	o->s[o->len] = '\0';
}

/* One state word: a base (sets *base) or a flag (returned); a word known
 * to neither is kept in *other and returns OC_NF_OTHER. */
static uint32_t node_word(const char *w, enum oc_node_base *base, struct node_other *other)
{
	static const struct {
		const char *name;
		enum oc_node_base base;
	} bases[] = {
		{"IDLE", OC_NODE_IDLE},   {"DOWN", OC_NODE_DOWN},     {"ALLOCATED", OC_NODE_ALLOCATED},
		{"MIXED", OC_NODE_MIXED}, {"FUTURE", OC_NODE_FUTURE}, {"UNKNOWN", OC_NODE_UNKNOWN},
	};
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (strcasecmp(w, bases[i].name) == 0) {
			*base = bases[i].base;
			return 0;
		}
	for (size_t i = 0; i < sizeof(node_flag_names) / sizeof(node_flag_names[0]); i++)
		if (strcasecmp(w, node_flag_names[i].name) == 0)
			return node_flag_names[i].flag;
	/* "ERROR", "INVALID", a flag of a later release: shown, not dropped. */
	node_other_add(other, w);
	return OC_NF_OTHER;
}

static uint32_t node_words(const json_t *v, enum oc_node_base *base, struct node_other *other)
{
	uint32_t f = 0;
	if (json_is_string(v))
		return node_word(json_string_value(v), base, other);
	size_t i;
	const json_t *e;
	json_array_foreach(v, i, e)
		if (json_is_string(e))
			f |= node_word(json_string_value(e), base, other);
	return f;
}

static int node_fill(struct oc_arena *a, const json_t *o, struct oc_node *n)
{
	n->name = oc_arena_strdup_nonempty(a, jstr(o, "name"));
	if (!n->name)
		return -1;
	n->addr = oc_arena_strdup_nonempty(a, jstr(o, "address"));
	n->base = OC_NODE_UNKNOWN;
	struct node_other other = {.len = 0};
	other.s[0] = '\0';
	n->flags = node_words(json_object_get(o, "state"), &n->base, &other);
	n->flags |= node_words(json_object_get(o, "state_flags"), &n->base, &other);
	if (other.len) {
		n->other_flags = oc_arena_strdup(a, other.s);
		if (!n->other_flags)
			return -1;
	}
	n->reason = oc_arena_strdup_nonempty(a, jstr(o, "reason"));
	if (n->reason) {
		n->reason_time = (time_t)jnum(o, "reason_changed_at", 0, NULL);
		n->reason_user = oc_arena_strdup_nonempty(a, jstr(o, "reason_set_by_user"));
	}
	n->cpus = (uint32_t)jnum(o, "cpus", 0, NULL);
	n->alloc_cpus = (uint32_t)jnum(o, "alloc_cpus", 0, NULL);
	n->mem_mb = jnum(o, "real_memory", 0, NULL);
	n->alloc_mem_mb = jnum(o, "alloc_memory", 0, NULL);
	const char *tres = jstr(o, "tres");
	n->cfg_tres = oc_arena_strdup_nonempty(a, tres);
	n->gpus = (uint32_t)oc_tres_gpus(tres);
	if (!n->gpus) /* gres/gpu not tracked: the configured Gres */
		n->gpus = (uint32_t)oc_tres_gres_used_gpus(jstr(o, "gres"));
	n->alloc_tres = oc_arena_strdup_nonempty(a, jstr(o, "tres_used"));
	n->alloc_gpus = (uint32_t)oc_tres_gres_used_gpus(jstr(o, "gres_used"));
	n->partitions = jcsv(a, o, "partitions");
	n->features = jcsv(a, o, "active_features");
	if (!n->features)
		n->features = jcsv(a, o, "features");
	n->version = oc_arena_strdup_nonempty(a, jstr(o, "slurmd_version"));
	if (!n->version)
		n->version = oc_arena_strdup_nonempty(a, jstr(o, "version"));
	n->boot_time = (time_t)jnum(o, "boot_time", 0, NULL);
	n->slurmd_start_time = (time_t)jnum(o, "slurmd_start_time", 0, NULL);
	n->cpu_load = (uint32_t)jnum(o, "cpu_load", 0, NULL);
	return 0;
}

int oc_cli_parse_nodes_json(const char *text, size_t len, const struct oc_nodes *prev, struct oc_nodes **out,
			    char *err, size_t errlen)
{
	*out = NULL;
	json_t *root;
	const json_t *arr = load_array(text, len, "nodes", &root, err, errlen);
	if (!arr)
		return -1;
	struct oc_nodes *t = oc_nodes_new();
	if (!t)
		goto oom;
	size_t cnt = json_array_size(arr);
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->v = oc_arena_alloc(&t->h.arena, sizeof(*t->v) * (cnt ? cnt : 1));
	if (!t->v)
		goto oom;
	size_t i;
	const json_t *o;
	json_array_foreach(arr, i, o) {
		if (!json_is_object(o) || !jstr(o, "name") || !*jstr(o, "name")) {
			snprintf(err, errlen, "node %zu of the JSON has no name", i + 1);
			goto fail;
		}
		struct oc_node *n = &t->v[t->n];
		memset(n, 0, sizeof(*n));
		if (node_fill(&t->h.arena, o, n) < 0)
			goto oom;
		t->n++;
	}
	json_decref(root);
	*out = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	oc_nodes_unref(&t);
	json_decref(root);
	return -1;
}

/* ---- jobs -------------------------------------------------------------- */

uint32_t oc_cli_job_state_word(const char *w, enum oc_job_state *st, bool *have)
{
	for (int s = 0; s < OC_JOB_STATE_COUNT; s++)
		if (strcasecmp(w, oc_job_state_name((enum oc_job_state)s)) == 0) {
			*st = (enum oc_job_state)s;
			*have = true;
			return 0;
		}
	/* A flag word and the base it goes with: scontrol (every version)
	 * and 22.05's JSON print the flag instead of the base. STOPPED and
	 * SIGNALING are a running job's SIGSTOP/SIGCONT; SPECIAL_EXIT and
	 * RESV_DEL_HOLD a held pending job; STAGE_OUT an ended one's burst
	 * buffer; EXPEDITING an expedited requeue. */
	static const struct {
		const char *name;
		uint32_t flag;
		enum oc_job_state base;
	} flags[] = {
		{"COMPLETING", OC_JF_COMPLETING, OC_JOB_COMPLETE}, {"CONFIGURING", OC_JF_CONFIGURING, OC_JOB_RUNNING},
		{"RESIZING", OC_JF_RESIZING, OC_JOB_RUNNING},      {"REQUEUED", OC_JF_REQUEUED, OC_JOB_PENDING},
		{"REQUEUE_HOLD", OC_JF_REQUEUED, OC_JOB_PENDING},  {"REQUEUE_FED", OC_JF_REQUEUED, OC_JOB_PENDING},
		{"EXPEDITING", OC_JF_REQUEUED, OC_JOB_PENDING},    {"STOPPED", 0, OC_JOB_RUNNING},
		{"SIGNALING", 0, OC_JOB_RUNNING},                  {"SPECIAL_EXIT", 0, OC_JOB_PENDING},
		{"RESV_DEL_HOLD", 0, OC_JOB_PENDING},              {"STAGE_OUT", 0, OC_JOB_COMPLETE},
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strcasecmp(w, flags[i].name) == 0) {
			if (!*have)
				*st = flags[i].base;
			return flags[i].flag;
		}
	return 0;
}

static uint32_t job_gpus(const json_t *o, enum oc_job_state st, uint32_t num_nodes)
{
	if (st == OC_JOB_RUNNING || st == OC_JOB_SUSPENDED) {
		uint64_t g = oc_tres_gpus(jstr(o, "tres_alloc_str"));
		if (g)
			return (uint32_t)g;
	}
	uint64_t g = oc_tres_gpus(jstr(o, "tres_req_str"));
	if (!g)
		g = oc_tres_per_node_gpus(jstr(o, "tres_per_node")) * (num_nodes ? num_nodes : 1) +
		    oc_tres_per_node_gpus(jstr(o, "tres_per_job"));
	return (uint32_t)g;
}

/* Strings into sa, node indexes into a. */
static int job_fill(struct oc_arena *sa, struct oc_arena *a, const json_t *o, struct oc_node_index *ix,
		    struct oc_job *j)
{
	j->job_id = (uint32_t)jnum(o, "job_id", 0, NULL);
	j->array_job_id = (uint32_t)jnum(o, "array_job_id", 0, NULL);
	j->array_task_id = j->array_job_id ? (uint32_t)jnum(o, "array_task_id", OC_NONE, NULL) : OC_NONE;
	j->het_job_id = (uint32_t)jnum(o, "het_job_id", 0, NULL);
	j->het_job_offset = j->het_job_id ? (uint32_t)jnum(o, "het_job_offset", OC_NONE, NULL) : OC_NONE;
	if (j->het_job_offset == OC_NONE || j->het_job_offset == 0xfffffffeU)
		j->het_job_id = 0, j->het_job_offset = OC_NONE;
	if (j->array_job_id && j->array_task_id == OC_NONE)
		j->array_tasks = oc_arena_strdup_nonempty(sa, jstr(o, "array_task_string"));
	j->name = oc_arena_strdup_nonempty(sa, jstr(o, "name"));
	const char *user = jstr(o, "user_name");
	char uid[24];
	if (!user || !*user) {
		snprintf(uid, sizeof(uid), "%llu", (unsigned long long)jnum(o, "user_id", 0, NULL));
		user = uid;
	}
	j->user = oc_arena_strdup(sa, user);
	j->account = oc_arena_strdup_nonempty(sa, jstr(o, "account"));
	j->partition = oc_arena_strdup_nonempty(sa, jstr(o, "partition"));
	j->qos = oc_arena_strdup_nonempty(sa, jstr(o, "qos"));
	bool have = false;
	j->state = OC_JOB_FAILED;
	const json_t *s = json_object_get(o, "job_state");
	if (json_is_string(s)) {
		j->flags |= oc_cli_job_state_word(json_string_value(s), &j->state, &have);
	} else {
		size_t i;
		const json_t *e;
		/* Base words first: a flag then only adds its bit. */
		json_array_foreach(s, i, e)
			if (json_is_string(e))
				oc_cli_job_state_word(json_string_value(e), &j->state, &have);
		json_array_foreach(s, i, e)
			if (json_is_string(e))
				j->flags |= oc_cli_job_state_word(json_string_value(e), &j->state, &have);
	}
	j->priority = (uint32_t)jnum(o, "priority", 0, NULL);
	if (j->state == OC_JOB_PENDING && j->priority == 0)
		j->flags |= OC_JF_HELD;
	const char *desc = jstr(o, "state_description");
	const char *reason = jstr(o, "state_reason");
	if (desc && *desc)
		j->reason = oc_arena_strdup(sa, desc);
	else if (reason && *reason && strcmp(reason, "None") != 0)
		j->reason = oc_arena_strdup(sa, reason);
	if (oc_job_reason_is_limit(reason))
		j->flags |= OC_JF_LIMITED;
	j->nodes = oc_arena_strdup_nonempty(sa, jstr(o, "nodes"));
	if (oc_job_holds_nodes(j) && oc_cli_resolve_nodes(a, j->nodes, ix, &j->node_idx, &j->node_count) < 0)
		return -1;
	j->submit_time = (time_t)jnum(o, "submit_time", 0, NULL);
	j->start_time = (time_t)jnum(o, "start_time", 0, NULL);
	j->end_time = (time_t)jnum(o, "end_time", 0, NULL);
	bool inf;
	j->time_limit_min = (uint32_t)jnum(o, "time_limit", OC_NONE, &inf);
	j->num_nodes = (uint32_t)jnum(o, "node_count", 0, NULL);
	j->gpus = job_gpus(o, j->state, j->num_nodes);
	j->num_cpus = (uint32_t)jnum(o, "cpus", 0, NULL);
	if (!j->num_cpus) {
		/* 22.05 prints "cpus": null for jobs that ended before they
		 * ran: their TRES' cpu count (libslurm's num_cpus may be
		 * larger, e.g. with --cpus-per-gpu). */
		uint64_t c = 0;
		if (oc_tres_get(jstr(o, "tres_alloc_str"), "cpu", &c) != 1)
			oc_tres_get(jstr(o, "tres_req_str"), "cpu", &c);
		j->num_cpus = (uint32_t)c;
	}
	return j->user ? 0 : -1;
}

int oc_cli_parse_jobs_json(const char *text, size_t len, struct oc_node_index *ix, const struct oc_jobs *prev,
			   struct oc_jobs **out, char *err, size_t errlen)
{
	*out = NULL;
	json_t *root;
	const json_t *arr = load_array(text, len, "jobs", &root, err, errlen);
	if (!arr)
		return -1;
	struct oc_jobs *t = oc_jobs_new();
	if (!t)
		goto oom;
	size_t cnt = json_array_size(arr);
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->node_generation = (ix && ix->nodes) ? ix->nodes->h.generation : 0;
	t->v = oc_arena_alloc(&t->h.arena, sizeof(*t->v) * (cnt ? cnt : 1));
	if (!t->v)
		goto oom;
	size_t i;
	const json_t *o;
	json_array_foreach(arr, i, o) {
		if (!json_is_object(o) || !jnum(o, "job_id", 0, NULL)) {
			snprintf(err, errlen, "job %zu of the JSON has no job_id", i + 1);
			goto fail;
		}
		struct oc_job *j = &t->v[t->n];
		memset(j, 0, sizeof(*j));
		if (job_fill(&t->str->arena, &t->h.arena, o, ix, j) < 0)
			goto oom;
		t->n++;
	}
	json_decref(root);
	*out = t;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	oc_jobs_unref(&t);
	json_decref(root);
	return -1;
}
