/* slurm_source.c: the libslurm backend. The only file that sees libslurm's
 * node, partition, job and reservation types; it converts them into the
 * core model. Every load passes the previous last_update so that an
 * unchanged cluster costs one small RPC per part. */
#include "source/source.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pwd.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurmdb.h>

#include "core/strmap.h"
#include "core/timespec.h"
#include "core/tres.h"
#include "source/slurm_acct.h"
#include "source/slurm_hist.h"
#include "source/slurm_jobinfo.h"
#include "source/slurm_compat.h"
#include "source/slurm_convert.h"
#include "core/jobreason.h"
#include "source/slurm_reason.h"

/* Seconds between whole loads of the node table (see refresh_nodes);
 * while no view on screen shows the nodes, OC_NODES_FULL_UNSEEN_S. */
#define OC_NODES_FULL_S 30
#define OC_NODES_FULL_UNSEEN_S 300

struct slurm_backend {
	struct oc_backend base;
	struct oc_slurm_uid_cache uids;
	int conf_loaded;   /* cluster name and version known */
	char cluster[64];
	char version[32];
	char slurm_user[64];
	bool accounting;   /* AccountingStorageType is not none */
	struct oc_slurm_acct *acct;
	/* Parts (OC_MASK bits) to ask for in full: set when the node layout
	 * changed under their node indexes, cleared only when a full answer
	 * came back, so a failed fetch cannot leave stale indexes behind. */
	unsigned need_full;
	time_t nodes_full_at;  /* when the node table was last loaded whole */
};

/* The memory of a job load of this many records or more, and of a history
 * or events report, is given back to the system (malloc_trim) once
 * OC_TRIM_AFTER_S seconds have passed without another such load. Until
 * then the next load reuses that memory instead of faulting it in again.
 * Measured at 10,000 jobs (docs/performance.md, "Memory kept between job
 * loads"): a load into memory just given back costs about 50 ms more CPU
 * than into memory kept, while a console keeping it spends about 0.3 ms
 * more a second in the seconds that load nothing. Keeping it pays while
 * loads come at most about 170 s apart, as on a scheduling queue, where
 * slurmctld changes the job table about once a minute even when no job
 * came or went. At 100,000 jobs a trim cost 60-90 ms by itself ("P2b at
 * 100,000 jobs"). */
#define OC_TRIM_RECORDS 5000
#define OC_TRIM_AFTER_S 180.0

/* When the last big load ended (oc_mono_now() in ms), 0: none since the
 * last trim. Process-wide, as malloc's arenas are: the collector's thread
 * loads the jobs, a report's thread the history. */
static _Atomic long long big_load_ms;

static void mark_big_load(void)
{
	atomic_store(&big_load_ms, (long long)(oc_mono_now() * 1000.0) | 1);
}

/* glibc gives freed memory back by itself: the top of a heap above
 * M_TRIM_THRESHOLD (128 KiB) at every free, and a block of
 * M_MMAP_THRESHOLD or more (dynamic, from 128 KiB) is a mapping of its
 * own, unmapped when freed. A job reply's megabytes went back that way
 * after each load whatever slurm_trim_when_settled did, and the next load
 * faulted every page in again. Here the collector decides when memory goes
 * back: no automatic trim, and only blocks of 32 MiB or more (glibc's
 * highest threshold on 64 bits) get mappings of their own. */
static void slurm_keep_memory(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

const char *oc_slurm_build_version(void)
{
	static char v[16];
	if (!v[0])
		snprintf(v, sizeof(v), "%d.%02d.%d", (int)SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			 (int)SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			 (int)SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
	return v;
}

static const char *slurm_errtext(void)
{
	int e = errno;
	if (e == 0)
		return "unknown error";
	/* A slurmctld more than two releases away from this libslurm answers
	 * in a protocol it cannot read: libslurm logs "Incompatible versions
	 * of client and server code" (to the stderr log) and returns
	 * SLURM_ERROR, "Unspecified error" (a 24.11 slurmctld to libslurm
	 * 22.05), or "Insane message length" (26.05), or a protocol version
	 * error. Say what these usually mean. */
	static _Thread_local char hint[160];
	if (e == SLURM_ERROR || e == SLURM_PROTOCOL_INSANE_MSG_LENGTH || e == SLURM_PROTOCOL_VERSION_ERROR ||
	    e == SLURM_UNEXPECTED_MSG_ERROR) {
		snprintf(hint, sizeof(hint), "%s (slurmctld of another major than libslurm %s?)", slurm_strerror(e),
			 oc_slurm_build_version());
		return hint;
	}
	/* A 26.05 slurmctld closes the connection of a 22.05 client with the
	 * request's end unread, so the client meets the reset first in about
	 * one request of six ("Connection reset by peer" or "Broken pipe",
	 * counted with tests/chroot/mismatch.sh's cluster). The same errors
	 * come when slurmctld dies during a request: name both causes. */
	if (e == ECONNRESET || e == EPIPE) {
		snprintf(hint, sizeof(hint), "%s (slurmctld restarted, or of another major than libslurm %s?)",
			 slurm_strerror(e), oc_slurm_build_version());
		return hint;
	}
	return slurm_strerror(e);
}

const char *oc_slurm_uid_name(struct oc_slurm_uid_cache *c, uint32_t uid)
{
	size_t slot = uid % (sizeof(c->e) / sizeof(c->e[0]));
	struct oc_slurm_uid_entry *e = &c->e[slot];
	if (e->name[0] && e->uid == (uid_t)uid)
		return e->name;
	struct passwd pw, *res = NULL;
	char buf[1024];
	e->uid = (uid_t)uid;
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		snprintf(e->name, sizeof(e->name), "%s", pw.pw_name);
	else
		snprintf(e->name, sizeof(e->name), "%u", uid);
	return e->name;
}

/* ---- nodes ------------------------------------------------------------ */

/* NODE_STATE_* flag bits -> the model's flags; every flag bit of the
 * slurm.h built against is here (checked against 22.05, 24.05, 24.11,
 * 25.05, 25.11, 26.05), the ones that exist only in some releases behind
 * guards. A bit with oc 0 has no flag in the model: it goes to
 * other_flags under its scontrol name. */
static const struct {
	uint32_t slurm, oc;
	const char *name; /* for other_flags when oc is 0 */
} node_flag_map[] = {
	{NODE_STATE_DRAIN, OC_NF_DRAIN, NULL},
	{NODE_STATE_COMPLETING, OC_NF_COMPLETING, NULL},
	{NODE_STATE_NO_RESPOND, OC_NF_NOT_RESPONDING, NULL},
	{NODE_STATE_POWERED_DOWN, OC_NF_POWERED_DOWN, NULL},
	{NODE_STATE_POWERING_UP, OC_NF_POWERING_UP, NULL},
	{NODE_STATE_POWERING_DOWN, OC_NF_POWERING_DOWN, NULL},
	{NODE_STATE_POWER_DOWN, OC_NF_POWER_DOWN_PENDING, NULL},
	{NODE_STATE_POWER_UP, OC_NF_POWER_UP, NULL},
	{NODE_STATE_POWER_DRAIN, OC_NF_POWER_DRAIN, NULL},
	{NODE_STATE_FAIL, OC_NF_FAIL, NULL},
	{NODE_STATE_MAINT, OC_NF_MAINT, NULL},
	{NODE_STATE_RES, OC_NF_RESERVED, NULL},
	{NODE_STATE_REBOOT_REQUESTED, OC_NF_REBOOT_REQUESTED, NULL},
	{NODE_STATE_REBOOT_ISSUED, OC_NF_REBOOT_ISSUED, NULL},
	{NODE_STATE_REBOOT_CANCEL, OC_NF_REBOOT_CANCEL, NULL},
	{NODE_STATE_PLANNED, OC_NF_PLANNED, NULL},
	{NODE_STATE_CLOUD, OC_NF_CLOUD, NULL},
	{NODE_STATE_INVALID_REG, OC_NF_INVALID_REG, NULL},
	{NODE_STATE_DYNAMIC_NORM, OC_NF_DYNAMIC, NULL},
	{NODE_STATE_DYNAMIC_FUTURE, OC_NF_DYNAMIC_FUTURE, NULL},
	{NODE_RESUME, OC_NF_RESUME, NULL},
	{NODE_STATE_UNDRAIN, OC_NF_UNDRAIN, NULL},
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
	{NODE_STATE_BLOCKED, OC_NF_BLOCKED, NULL},
#else
	{NODE_STATE_NET, 0, "PERFCTRS"}, /* Cray network performance counters, gone in 24.05 */
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
	{NODE_STATE_EXTERNAL, OC_NF_EXTERNAL, NULL}, /* bit 4, NET's until 23.11 */
#endif
};

/* Appends "+word" to other (len bytes, NUL-terminated) when it fits. */
static void node_other_add(char *other, size_t len, const char *word)
{
	size_t used = strlen(other);
	if (used + strlen(word) + 2 <= len)
		snprintf(other + used, len - used, "+%s", word);
}

void oc_slurm_node_state(uint32_t s, enum oc_node_base *base, uint32_t *flags, char *other, size_t len)
{
	uint32_t f = 0, known = 0;
	other[0] = '\0';
	switch (s & NODE_STATE_BASE) {
	case NODE_STATE_DOWN: *base = OC_NODE_DOWN; break;
	case NODE_STATE_IDLE: *base = OC_NODE_IDLE; break;
	case NODE_STATE_ALLOCATED: *base = OC_NODE_ALLOCATED; break;
	case NODE_STATE_MIXED: *base = OC_NODE_MIXED; break;
	case NODE_STATE_FUTURE: *base = OC_NODE_FUTURE; break;
	case NODE_STATE_UNKNOWN: *base = OC_NODE_UNKNOWN; break;
	case NODE_STATE_ERROR:
		*base = OC_NODE_UNKNOWN;
		node_other_add(other, len, "ERROR");
		f |= OC_NF_OTHER;
		break;
	default: { /* a base this build does not know: as a number */
		char w[24];
		snprintf(w, sizeof(w), "BASE_%u", (unsigned)(s & NODE_STATE_BASE));
		*base = OC_NODE_UNKNOWN;
		node_other_add(other, len, w);
		f |= OC_NF_OTHER;
		break;
	}
	}
	for (size_t i = 0; i < sizeof(node_flag_map) / sizeof(node_flag_map[0]); i++) {
		known |= node_flag_map[i].slurm;
		if (!(s & node_flag_map[i].slurm))
			continue;
		if (node_flag_map[i].oc) {
			f |= node_flag_map[i].oc;
		} else {
			node_other_add(other, len, node_flag_map[i].name);
			f |= OC_NF_OTHER;
		}
	}
	/* Bits of a newer slurmctld than this libslurm: by number. */
	uint32_t rest = s & NODE_STATE_FLAGS & ~known;
	for (unsigned b = 0; b < 32; b++) {
		if (!(rest & (1u << b)))
			continue;
		char w[16];
		snprintf(w, sizeof(w), "0x%x", 1u << b);
		node_other_add(other, len, w);
		f |= OC_NF_OTHER;
	}
	*flags = f;
}

static void node_fill_alloc(struct oc_arena *a, const node_info_t *ni, struct oc_node *n)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
	(void)a;
	n->alloc_cpus = ni->alloc_cpus;
	n->alloc_mem_mb = ni->alloc_memory;
	n->alloc_tres = oc_arena_strdup_nonempty(a, ni->alloc_tres_fmt_str);
#else
	uint16_t alloc_cpus = 0;
	uint64_t alloc_mem = 0;
	if (ni->select_nodeinfo) {
		slurm_get_select_nodeinfo(ni->select_nodeinfo, SELECT_NODEDATA_SUBCNT,
					  NODE_STATE_ALLOCATED, &alloc_cpus);
		slurm_get_select_nodeinfo(ni->select_nodeinfo, SELECT_NODEDATA_MEM_ALLOC,
					  NODE_STATE_ALLOCATED, &alloc_mem);
	}
	n->alloc_cpus = alloc_cpus;
	n->alloc_mem_mb = alloc_mem;
	/* SELECT_NODEDATA_TRES_ALLOC_FMT_STR hands out xmalloc'd memory that
	 * only libslurm's (undeclared) xfree can release, so the allocated
	 * TRES are rebuilt from the counts instead. */
	n->alloc_tres = NULL;
#endif
	n->alloc_gpus = (uint32_t)oc_tres_gres_used_gpus(ni->gres_used);
	if (!n->alloc_tres && (n->alloc_cpus || n->alloc_mem_mb || n->alloc_gpus)) {
		char buf[128];
		if (n->alloc_gpus)
			snprintf(buf, sizeof(buf), "cpu=%u,mem=%lluM,gres/gpu=%u", n->alloc_cpus,
				 (unsigned long long)n->alloc_mem_mb, n->alloc_gpus);
		else
			snprintf(buf, sizeof(buf), "cpu=%u,mem=%lluM", n->alloc_cpus,
				 (unsigned long long)n->alloc_mem_mb);
		n->alloc_tres = oc_arena_strdup(a, buf);
	}
}

struct oc_nodes *oc_slurm_convert_nodes(struct oc_slurm_uid_cache *uids, const node_info_msg_t *msg,
					const struct oc_nodes *prev)
{
	struct oc_nodes *t = oc_nodes_new();
	if (!t)
		return NULL;
	struct oc_arena *a = &t->h.arena;
	t->h.slurm_update = msg->last_update;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->v = oc_arena_alloc(a, sizeof(*t->v) * (msg->record_count ? msg->record_count : 1));
	if (!t->v) {
		oc_nodes_unref(&t);
		return NULL;
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const node_info_t *ni = &msg->node_array[i];
		if (!ni->name)
			continue; /* hidden or empty slot */
		struct oc_node *n = &t->v[t->n++];
		n->name = oc_arena_strdup(a, ni->name);
		n->addr = oc_arena_strdup_nonempty(a, ni->node_addr);
		char other[128];
		oc_slurm_node_state(ni->node_state, &n->base, &n->flags, other, sizeof(other));
		if (other[0] && !(n->other_flags = oc_arena_strdup(a, other))) {
			oc_nodes_unref(&t);
			return NULL;
		}
		n->reason = oc_arena_strdup_nonempty(a, ni->reason);
		if (n->reason) {
			n->reason_time = ni->reason_time;
			n->reason_user = oc_arena_strdup(a, oc_slurm_uid_name(uids, ni->reason_uid));
		}
		n->cpus = ni->cpus;
		n->mem_mb = ni->real_memory;
		n->cfg_tres = oc_arena_strdup_nonempty(a, ni->tres_fmt_str);
		n->gpus = (uint32_t)oc_tres_gpus(ni->tres_fmt_str);
		/* gres/gpu not tracked (AccountingStorageTRES without it, as
		 * without accounting): the configured Gres says it. */
		if (!n->gpus)
			n->gpus = (uint32_t)oc_tres_gres_used_gpus(ni->gres);
		node_fill_alloc(a, ni, n);
		n->partitions = oc_arena_strdup_nonempty(a, ni->partitions);
		n->features = oc_arena_strdup_nonempty(a, ni->features_act ? ni->features_act : ni->features);
		n->version = oc_arena_strdup_nonempty(a, ni->version);
		n->boot_time = ni->boot_time;
		n->slurmd_start_time = ni->slurmd_start_time;
		n->cpu_load = ni->cpu_load;
		if (!n->name) {
			oc_nodes_unref(&t);
			return NULL;
		}
	}
	return t;
}

/* ---- partitions -------------------------------------------------------- */

/* Resolve a hostlist expression against the node table through libslurm's
 * hostlist functions: *idx (in the arena) and *count. Unknown names are
 * skipped. Returns 0, -1 on ENOMEM. */
/* libslurm's hostlists as oc_hostlist_ops, for oc_node_index_resolve
 * (the resolution rules, the length guard included, are core's). */
static int slurm_hl_walk(const char *expr, int (*start)(void *ctx, long count),
			 int (*fn)(void *ctx, const char *name), void *ctx)
{
	oc_hostlist hl = slurm_hostlist_create(expr);
	int rc = start(ctx, hl ? (long)slurm_hostlist_count(hl) : 0);
	char *host;
	while (!rc && hl && (host = slurm_hostlist_shift(hl))) {
		rc = fn(ctx, host);
		free(host);
	}
	if (hl)
		slurm_hostlist_destroy(hl);
	return rc;
}

static const struct oc_hostlist_ops slurm_hl_ops = {.walk = slurm_hl_walk};

static int resolve_nodes(struct oc_arena *a, const char *nodes, struct oc_node_index *ix, uint32_t **idx,
			 uint32_t *count)
{
	return oc_node_index_resolve(ix, &slurm_hl_ops, a, nodes, idx, count);
}

static struct oc_partitions *parts_convert(const partition_info_msg_t *msg,
					   struct oc_node_index *ix,
					   const struct oc_partitions *prev)
{
	struct oc_partitions *t = oc_partitions_new();
	if (!t)
		return NULL;
	struct oc_arena *a = &t->h.arena;
	t->h.slurm_update = msg->last_update;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->node_generation = ix->nodes ? ix->nodes->h.generation : 0;
	t->v = oc_arena_alloc(a, sizeof(*t->v) * (msg->record_count ? msg->record_count : 1));
	if (!t->v)
		goto fail;
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const partition_info_t *pi = &msg->partition_array[i];
		if (!pi->name)
			continue;
		struct oc_partition *p = &t->v[t->n++];
		p->name = oc_arena_strdup(a, pi->name);
		p->nodes = oc_arena_strdup_nonempty(a, pi->nodes);
		if (pi->flags & PART_FLAG_DEFAULT)
			p->flags |= OC_PF_DEFAULT;
		if (pi->flags & PART_FLAG_HIDDEN)
			p->flags |= OC_PF_HIDDEN;
		if (pi->flags & PART_FLAG_ROOT_ONLY)
			p->flags |= OC_PF_ROOT_ONLY;
		if (pi->flags & PART_FLAG_EXCLUSIVE_USER)
			p->flags |= OC_PF_EXCLUSIVE_USER;
		if (pi->state_up == PARTITION_UP)
			p->flags |= OC_PF_UP;
		else if (pi->state_up == PARTITION_DRAIN)
			p->flags |= OC_PF_DRAIN;
		else if (pi->state_up == PARTITION_INACTIVE)
			p->flags |= OC_PF_INACTIVE;
		p->allow_groups = oc_arena_strdup_nonempty(a, pi->allow_groups);
		p->allow_accounts = oc_arena_strdup_nonempty(a, pi->allow_accounts);
		p->allow_qos = oc_arena_strdup_nonempty(a, pi->allow_qos);
		p->qos = oc_arena_strdup_nonempty(a, pi->qos_char);
		p->priority_tier = pi->priority_tier;
		p->max_time_min = (pi->max_time == INFINITE || pi->max_time == NO_VAL) ? OC_NONE : pi->max_time;
		p->grace_time_s = pi->grace_time;
		p->preempt_mode = pi->preempt_mode;
		p->total_nodes = pi->total_nodes;
		p->total_cpus = pi->total_cpus;
		if (!p->name || resolve_nodes(a, pi->nodes, ix, &p->node_idx, &p->node_count) < 0)
			goto fail;
	}
	return t;
fail:
	oc_partitions_unref(&t);
	return NULL;
}

/* ---- jobs -------------------------------------------------------------- */

enum oc_job_state oc_slurm_job_state(uint32_t s)
{
	switch (s & JOB_STATE_BASE) {
	case JOB_PENDING: return OC_JOB_PENDING;
	case JOB_RUNNING: return OC_JOB_RUNNING;
	case JOB_SUSPENDED: return OC_JOB_SUSPENDED;
	case JOB_COMPLETE: return OC_JOB_COMPLETE;
	case JOB_CANCELLED: return OC_JOB_CANCELLED;
	case JOB_FAILED: return OC_JOB_FAILED;
	case JOB_TIMEOUT: return OC_JOB_TIMEOUT;
	case JOB_NODE_FAIL: return OC_JOB_NODE_FAIL;
	case JOB_PREEMPTED: return OC_JOB_PREEMPTED;
	case JOB_BOOT_FAIL: return OC_JOB_BOOT_FAIL;
	case JOB_DEADLINE: return OC_JOB_DEADLINE;
	case JOB_OOM: return OC_JOB_OOM;
	default: return OC_JOB_FAILED;
	}
}

/* GPUs of a TRES string, remembered per distinct string of one reply:
 * thousands of jobs of one queue carry the same few strings (the keys are
 * the reply's own strings, alive while it is converted). */
static uint64_t memo_gpus(struct oc_strmap *memo, const char *tres)
{
	if (!tres || !*tres)
		return 0;
	uint32_t v = oc_strmap_get(memo, tres);
	if (v != UINT32_MAX)
		return v;
	uint64_t g = oc_tres_gpus(tres);
	if (g < UINT32_MAX)
		oc_strmap_put(memo, tres, (uint32_t)g); /* ENOMEM: parsed again next time */
	return g;
}

static uint32_t job_gpus(const slurm_job_info_t *ji, enum oc_job_state st, struct oc_strmap *memo)
{
	if (st == OC_JOB_RUNNING || st == OC_JOB_SUSPENDED) {
		uint64_t g = memo_gpus(memo, ji->tres_alloc_str);
		if (g)
			return (uint32_t)g;
	}
	uint64_t g = memo_gpus(memo, ji->tres_req_str);
	if (!g) {
		uint64_t per_node = oc_tres_per_node_gpus(ji->tres_per_node);
		g = per_node * (ji->num_nodes ? ji->num_nodes : 1) + oc_tres_per_node_gpus(ji->tres_per_job);
	}
	return (uint32_t)g;
}

/* Users, accounts, partitions and QoS repeat across thousands of jobs:
 * they are interned so each distinct string is stored once. */
struct job_intern {
	struct oc_strmap interned;
	const char **pool;
	size_t npool, cap;
};

/* *dst: the interned arena copy of src (NULL when empty). -1 on ENOMEM,
 * *dst untouched. */
static int job_str_intern(struct job_intern *in, struct oc_arena *sa, const char *src, const char **dst)
{
	if (!src || !*src) {
		*dst = NULL;
		return 0;
	}
	uint32_t k = oc_strmap_get(&in->interned, src);
	if (k != UINT32_MAX) {
		*dst = in->pool[k];
		return 0;
	}
	if (in->npool == in->cap) {
		size_t ncap = in->cap ? in->cap * 2 : 64;
		const char **np = realloc(in->pool, ncap * sizeof(*in->pool));
		if (!np)
			return -1;
		in->pool = np;
		in->cap = ncap;
	}
	in->pool[in->npool] = oc_arena_strdup(sa, src);
	if (!in->pool[in->npool] || oc_strmap_put(&in->interned, in->pool[in->npool], (uint32_t)in->npool) < 0)
		return -1;
	*dst = in->pool[in->npool++];
	return 0;
}

/* The state flags of a job from Slurm's state and priority. */
static void job_flags(struct oc_job *j, const slurm_job_info_t *ji)
{
	if (ji->job_state & JOB_COMPLETING)
		j->flags |= OC_JF_COMPLETING;
	if (ji->job_state & JOB_CONFIGURING)
		j->flags |= OC_JF_CONFIGURING;
	if (ji->job_state & (JOB_REQUEUE | JOB_REQUEUE_HOLD))
		j->flags |= OC_JF_REQUEUED;
	if (ji->job_state & JOB_RESIZING)
		j->flags |= OC_JF_RESIZING;
	if (j->state == OC_JOB_PENDING && ji->priority == 0)
		j->flags |= OC_JF_HELD;
}

/* One job row j from ji: rows in a, strings in sa. -1 on ENOMEM. */
static int job_fill(struct slurm_backend *b, struct oc_job *j, const slurm_job_info_t *ji, struct oc_arena *a,
		    struct oc_arena *sa, struct oc_node_index *ix, struct job_intern *in, struct oc_strmap *gpu_memo)
{
	j->job_id = ji->job_id;
	j->array_job_id = ji->array_job_id;
	j->array_task_id = (ji->array_job_id && ji->array_task_id != NO_VAL) ? ji->array_task_id : OC_NONE;
	j->het_job_id = ji->het_job_offset != NO_VAL ? ji->het_job_id : 0;
	j->het_job_offset = j->het_job_id ? ji->het_job_offset : OC_NONE;
	if (ji->array_job_id && ji->array_task_id == NO_VAL)
		j->array_tasks = oc_arena_strdup_nonempty(sa, ji->array_task_str);
	j->name = oc_arena_strdup_nonempty(sa, ji->name);
	const char *user = ji->user_name ? ji->user_name : oc_slurm_uid_name(&b->uids, ji->user_id);
	if (job_str_intern(in, sa, user, &j->user) < 0 || job_str_intern(in, sa, ji->account, &j->account) < 0 ||
	    job_str_intern(in, sa, ji->partition, &j->partition) < 0 || job_str_intern(in, sa, ji->qos, &j->qos) < 0)
		return -1;
	j->state = oc_slurm_job_state(ji->job_state);
	job_flags(j, ji);
	/* squeue prints the description when there is one
	 * ("ReqNodeNotAvail, UnavailableNodes:..."), else the name. */
	if (ji->state_desc && *ji->state_desc) {
		if (job_str_intern(in, sa, ji->state_desc, &j->reason) < 0)
			return -1;
	} else if (ji->state_reason != WAIT_NO_REASON) {
		if (job_str_intern(in, sa, oc_slurm_reason_name(ji->state_reason), &j->reason) < 0)
			return -1;
	}
	if (ji->state_reason != WAIT_NO_REASON && oc_job_reason_is_limit(oc_slurm_reason_name(ji->state_reason)))
		j->flags |= OC_JF_LIMITED;
	j->nodes = oc_arena_strdup_nonempty(sa, ji->nodes);
	if (oc_job_holds_nodes(j) && resolve_nodes(a, j->nodes, ix, &j->node_idx, &j->node_count) < 0)
		return -1;
	j->submit_time = ji->submit_time;
	j->start_time = ji->start_time;
	j->end_time = ji->end_time;
	j->time_limit_min = (ji->time_limit == INFINITE || ji->time_limit == NO_VAL) ? OC_NONE : ji->time_limit;
	j->num_nodes = ji->num_nodes;
	j->num_cpus = ji->num_cpus;
	j->gpus = job_gpus(ji, j->state, gpu_memo);
	j->priority = ji->priority;
	return 0;
}

static struct oc_jobs *jobs_convert(struct slurm_backend *b, const job_info_msg_t *msg,
				    struct oc_node_index *ix, const struct oc_jobs *prev)
{
	struct oc_jobs *t = oc_jobs_new();
	if (!t)
		return NULL;
	struct oc_arena *a = &t->h.arena, *sa = &t->str->arena; /* rows, strings */
	t->h.slurm_update = msg->last_update;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->node_generation = ix->nodes ? ix->nodes->h.generation : 0;
	t->v = oc_arena_alloc(a, sizeof(*t->v) * (msg->record_count ? msg->record_count : 1));
	if (!t->v) {
		oc_jobs_unref(&t);
		return NULL;
	}
	struct job_intern in = {0};
	struct oc_strmap gpu_memo = {0};
	for (uint32_t i = 0; i < msg->record_count; i++)
		if (job_fill(b, &t->v[t->n++], &msg->job_array[i], a, sa, ix, &in, &gpu_memo) < 0)
			goto fail;
	free(in.pool);
	oc_strmap_free(&in.interned);
	oc_strmap_free(&gpu_memo);
	return t;
fail:
	free(in.pool);
	oc_strmap_free(&in.interned);
	oc_strmap_free(&gpu_memo);
	oc_jobs_unref(&t);
	return NULL;
}

/* ---- reservations ------------------------------------------------------ */

/* Reservation flags with the names Slurm prints (scontrol show res), in
 * the order of its reservation_flags_string() (26.05). The NO_* ones are
 * the update requests that clear a flag; scontrol prints them when set.
 * Not named (scontrol does not print them either): GRES_REQ (23.11+),
 * TRES_PER_NODE and SCHED_FAILED (25.05+), internal bits. */
static const struct {
	uint64_t bit;
	const char *name;
} resv_flag_names[] = {
	{RESERVE_FLAG_MAINT, "MAINT"},
	{RESERVE_FLAG_NO_MAINT, "NO_MAINT"},
	{RESERVE_FLAG_FLEX, "FLEX"},
	{RESERVE_FLAG_OVERLAP, "OVERLAP"},
	{RESERVE_FLAG_IGN_JOBS, "IGNORE_JOBS"},
	{RESERVE_FLAG_HOURLY, "HOURLY"},
	{RESERVE_FLAG_NO_HOURLY, "NO_HOURLY"},
	{RESERVE_FLAG_DAILY, "DAILY"},
	{RESERVE_FLAG_NO_DAILY, "NO_DAILY"},
	{RESERVE_FLAG_WEEKDAY, "WEEKDAY"},
	{RESERVE_FLAG_WEEKEND, "WEEKEND"},
	{RESERVE_FLAG_WEEKLY, "WEEKLY"},
	{RESERVE_FLAG_NO_WEEKLY, "NO_WEEKLY"},
	{RESERVE_FLAG_SPEC_NODES, "SPEC_NODES"},
	{RESERVE_FLAG_ALL_NODES, "ALL_NODES"},
	{RESERVE_FLAG_ANY_NODES, "ANY_NODES"},
	{RESERVE_FLAG_NO_ANY_NODES, "NO_ANY_NODES"},
	{RESERVE_FLAG_STATIC, "STATIC"},
	{RESERVE_FLAG_NO_STATIC, "NO_STATIC"},
	{RESERVE_FLAG_PART_NODES, "PART_NODES"},
	{RESERVE_FLAG_NO_PART_NODES, "NO_PART_NODES"},
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(23, 11, 0) /* gone in 23.11 */
	{RESERVE_FLAG_FIRST_CORES, "FIRST_CORES"},
#endif
	{RESERVE_FLAG_TIME_FLOAT, "TIME_FLOAT"},
	{RESERVE_FLAG_REPLACE, "REPLACE"},
	{RESERVE_FLAG_REPLACE_DOWN, "REPLACE_DOWN"},
	{RESERVE_FLAG_PURGE_COMP, "PURGE_COMP"},
	{RESERVE_FLAG_NO_HOLD_JOBS, "NO_HOLD_JOBS_AFTER_END"},
	{RESERVE_FLAG_MAGNETIC, "MAGNETIC"},
	{RESERVE_FLAG_NO_MAGNETIC, "NO_MAGNETIC"},
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
	{RESERVE_FLAG_USER_DEL, "USER_DELETE"},
	{RESERVE_FLAG_NO_USER_DEL, "NO_USER_DELETE"},
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
	{RESERVE_FLAG_FORCE_START, "FORCE_START"},
#endif
};

void oc_slurm_resv_flags_string(uint64_t f, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(resv_flag_names) / sizeof(resv_flag_names[0]); i++) {
		if (!(f & resv_flag_names[i].bit))
			continue;
		int w = snprintf(buf + off, len - off, "%s%s", off ? "," : "", resv_flag_names[i].name);
		if (w < 0 || (size_t)w >= len - off) {
			buf[off] = '\0'; /* no half name */
			break;
		}
		off += (size_t)w;
	}
}

int oc_slurm_resv_flag_bit(const char *name, size_t len, uint64_t *bit)
{
	for (size_t i = 0; i < sizeof(resv_flag_names) / sizeof(resv_flag_names[0]); i++) {
		if (strlen(resv_flag_names[i].name) == len &&
		    strncasecmp(resv_flag_names[i].name, name, len) == 0) {
			*bit = resv_flag_names[i].bit;
			return 0;
		}
	}
	return -1;
}

struct oc_reservations *oc_slurm_convert_resv(const reserve_info_msg_t *msg,
					      struct oc_node_index *ix,
					      const struct oc_reservations *prev)
{
	struct oc_reservations *t = oc_reservations_new();
	if (!t)
		return NULL;
	struct oc_arena *a = &t->h.arena;
	t->h.slurm_update = msg->last_update;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->node_generation = (ix && ix->nodes) ? ix->nodes->h.generation : 0;
	t->v = oc_arena_alloc(a, sizeof(*t->v) * (msg->record_count ? msg->record_count : 1));
	if (!t->v) {
		oc_reservations_unref(&t);
		return NULL;
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const reserve_info_t *ri = &msg->reservation_array[i];
		struct oc_reservation *r = &t->v[t->n++];
		char flags[512];
		oc_slurm_resv_flags_string(ri->flags, flags, sizeof(flags));
		r->name = oc_arena_strdup(a, ri->name ? ri->name : "");
		r->nodes = oc_arena_strdup_nonempty(a, ri->node_list);
		r->users = oc_arena_strdup_nonempty(a, ri->users);
		r->accounts = oc_arena_strdup_nonempty(a, ri->accounts);
		r->flags = oc_arena_strdup_nonempty(a, flags);
		r->start_time = ri->start_time;
		r->end_time = ri->end_time;
		r->node_count = ri->node_cnt;
		if (!r->name ||
		    (ix && resolve_nodes(a, ri->node_list, ix, &r->node_idx, &r->node_idx_count) < 0)) {
			oc_reservations_unref(&t);
			return NULL;
		}
	}
	return t;
}

/* ---- refresh ----------------------------------------------------------- */

/* Once per (re)connection: the cluster's name, version, SlurmUser and
 * whether it has accounting, and the configuration table of next (a new
 * one; on ENOMEM next keeps the one it has). */
static void backend_load_conf(struct slurm_backend *b, struct oc_snapshot *next)
{
	slurm_conf_t *conf = NULL;
	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS || !conf)
		return;
	struct oc_config *cfg = oc_slurm_convert_config(conf, next->config);
	if (cfg) {
		oc_config_unref(&next->config);
		next->config = cfg;
	}
	snprintf(b->cluster, sizeof(b->cluster), "%s", conf->cluster_name ? conf->cluster_name : "");
	snprintf(b->version, sizeof(b->version), "%s", conf->version ? conf->version : "");
	snprintf(b->slurm_user, sizeof(b->slurm_user), "%s",
		 conf->slurm_user_name ? conf->slurm_user_name : "");
	b->accounting = conf->accounting_storage_type &&
			!strstr(conf->accounting_storage_type, "/none");
	b->conf_loaded = 1;
	oc_slurm_free_conf(conf);
}

#define REPLACE_TABLE(field, unref, value)  \
	do {                                \
		unref(&next->field);        \
		next->field = (value);      \
	} while (0)

/* The status of a part after its load: ok when the reply was loaded and
 * converted or when nothing changed since. 1 when the part failed (a
 * failed conversion is reported as ENOMEM), else 0. errno is still the
 * load's when nothing was loaded. */
static int load_status(struct oc_part_status *st, const char *what, bool loaded, bool converted)
{
	if (loaded) {
		if (converted) {
			oc_part_status_ok(st, time(NULL));
			return 0;
		}
		errno = ENOMEM;
		oc_part_status_fail(st, time(NULL), what, slurm_errtext());
		return 1;
	}
	if (errno == SLURM_NO_CHANGE_IN_DATA) {
		oc_part_status_ok(st, time(NULL));
		return 0;
	}
	oc_part_status_fail(st, time(NULL), what, slurm_errtext());
	return 1;
}

/* The time a part is asked for changes since: 0 (everything) when it
 * must be fetched in full or there is no earlier reply. */
static time_t load_since(const struct slurm_backend *b, int part, time_t old_update)
{
	return (!(b->need_full & OC_MASK(part)) && old_update) ? old_update : 0;
}

/* The node table of next. 1 when it failed, else 0. */
static int refresh_nodes(struct slurm_backend *b, const struct oc_snapshot *prev, struct oc_snapshot *next,
			 uint16_t show, bool unseen)
{
	struct oc_part_status *st = &next->status[OC_PART_NODES];
	const struct oc_nodes *old = prev ? prev->nodes : NULL;
	node_info_msg_t *msg = NULL;
	/* SHOW_DETAIL: without it gres_used (GPUs in use) is not sent. */
	uint16_t nshow = show | SHOW_DETAIL;
#ifdef SHOW_MIXED
	nshow |= SHOW_MIXED;
#endif
	/* Whole every OC_NODES_FULL_S too: slurmctld leaves last_node_update
	 * as it was for some changes (a reboot request; the power-saving
	 * thread's powered down), so a load "since" would keep the old
	 * state until something else changes. Every OC_NODES_FULL_UNSEEN_S
	 * while no view shows the nodes (at 2,000 nodes a whole load costs
	 * 5-10 ms: docs/performance.md, P1w); a view that shows them asks
	 * at once, and gets them whole when the last whole load is older
	 * than OC_NODES_FULL_S. */
	if (time(NULL) - b->nodes_full_at >= (unseen ? OC_NODES_FULL_UNSEEN_S : OC_NODES_FULL_S))
		b->need_full |= OC_MASK(OC_PART_NODES);
	bool full = b->need_full & OC_MASK(OC_PART_NODES);
	time_t since = load_since(b, OC_PART_NODES, old ? old->h.slurm_update : 0);
	errno = 0;
	bool loaded = slurm_load_node(since, &msg, nshow) == SLURM_SUCCESS && msg;
	struct oc_nodes *t = NULL;
	if (loaded) {
		t = oc_slurm_convert_nodes(&b->uids, msg, old);
		slurm_free_node_info_msg(msg);
		if (t) {
			REPLACE_TABLE(nodes, oc_nodes_unref, t);
			b->need_full &= ~OC_MASK(OC_PART_NODES);
			if (full)
				b->nodes_full_at = time(NULL);
		}
	}
	return load_status(st, "nodes", loaded, t != NULL);
}

/* The partition table of next, indexed by ix. 1 when it failed, else 0. */
static int refresh_partitions(struct slurm_backend *b, const struct oc_snapshot *prev, struct oc_snapshot *next,
			      uint16_t show, struct oc_node_index *ix)
{
	struct oc_part_status *st = &next->status[OC_PART_PARTITIONS];
	const struct oc_partitions *old = prev ? prev->partitions : NULL;
	partition_info_msg_t *msg = NULL;
	time_t since = load_since(b, OC_PART_PARTITIONS, old ? old->h.slurm_update : 0);
	errno = 0;
	bool loaded = slurm_load_partitions(since, &msg, show) == SLURM_SUCCESS && msg;
	struct oc_partitions *t = NULL;
	if (loaded) {
		t = parts_convert(msg, ix, old);
		slurm_free_partition_info_msg(msg);
		if (t) {
			REPLACE_TABLE(partitions, oc_partitions_unref, t);
			b->need_full &= ~OC_MASK(OC_PART_PARTITIONS);
		}
	}
	return load_status(st, "partitions", loaded, t != NULL);
}

/* The job table of next, indexed by ix. 1 when it failed, else 0. */
static int refresh_jobs(struct slurm_backend *b, const struct oc_snapshot *prev, struct oc_snapshot *next,
			uint16_t show, struct oc_node_index *ix)
{
	struct oc_part_status *st = &next->status[OC_PART_JOBS];
	const struct oc_jobs *old = prev ? prev->jobs : NULL;
	job_info_msg_t *msg = NULL;
	time_t since = load_since(b, OC_PART_JOBS, old ? old->h.slurm_update : 0);
	errno = 0;
	bool loaded = slurm_load_jobs(since, &msg, show) == SLURM_SUCCESS && msg;
	struct oc_jobs *t = NULL;
	if (loaded) {
		t = jobs_convert(b, msg, ix, old);
		uint32_t records = msg->record_count;
		slurm_free_job_info_msg(msg);
		/* A big reply leaves megabytes free inside this thread's
		 * malloc arena, which glibc keeps resident: they are given
		 * back once the queue has stayed the same a while
		 * (slurm_trim_when_settled). */
		if (records >= OC_TRIM_RECORDS)
			mark_big_load();
		if (t) {
			REPLACE_TABLE(jobs, oc_jobs_unref, t);
			b->need_full &= ~OC_MASK(OC_PART_JOBS);
		}
	}
	return load_status(st, "jobs", loaded, t != NULL);
}

/* The reservation table of next, indexed by ix. 1 when it failed, else
 * 0. */
static int refresh_resv(struct slurm_backend *b, const struct oc_snapshot *prev, struct oc_snapshot *next,
			struct oc_node_index *ix)
{
	struct oc_part_status *st = &next->status[OC_PART_RESV];
	const struct oc_reservations *old = prev ? prev->reservations : NULL;
	reserve_info_msg_t *msg = NULL;
	time_t since = load_since(b, OC_PART_RESV, old ? old->h.slurm_update : 0);
	errno = 0;
	bool loaded = slurm_load_reservations(since, &msg) == SLURM_SUCCESS && msg;
	struct oc_reservations *t = NULL;
	if (loaded) {
		t = oc_slurm_convert_resv(msg, ix, old);
		slurm_free_reservation_info_msg(msg);
		if (t) {
			REPLACE_TABLE(reservations, oc_reservations_unref, t);
			b->need_full &= ~OC_MASK(OC_PART_RESV);
		}
	}
	return load_status(st, "reservations", loaded, t != NULL);
}

/* After a refresh: the memory of the last big load back to the system,
 * when OC_TRIM_AFTER_S have passed without another (the console holds only
 * its own, smaller copy of what it loaded). */
static void slurm_trim_when_settled(void)
{
	long long at = atomic_load(&big_load_ms);
	if (!at || oc_mono_now() * 1000.0 < (double)at + OC_TRIM_AFTER_S * 1000.0)
		return;
	/* A load that ended meanwhile keeps its memory for the next one. */
	if (!atomic_compare_exchange_strong(&big_load_ms, &at, 0))
		return;
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

static int slurm_refresh(struct oc_backend *base, unsigned mask, const struct oc_snapshot *prev,
			 struct oc_snapshot *next)
{
	struct slurm_backend *b = (struct slurm_backend *)base;
	int failed = 0;
	uint16_t show = SHOW_ALL;

	bool conf_later = (mask & OC_MASK_CONF_LATER) && !(mask & OC_MASK(OC_PART_ACCT));
	if (!b->conf_loaded && !conf_later)
		backend_load_conf(b, next);
	snprintf(next->cluster, sizeof(next->cluster), "%s", b->cluster);
	snprintf(next->slurm_version, sizeof(next->slurm_version), "%s", b->version);
	snprintf(next->slurm_user, sizeof(next->slurm_user), "%s", b->slurm_user);

	if (mask & OC_MASK(OC_PART_NODES))
		failed += refresh_nodes(b, prev, next, show, (mask & OC_MASK_NODES_UNSEEN) != 0);

	/* Partitions, jobs and reservations hold indexes into the node table:
	 * when its layout (names, order) changed, partitions and reservations
	 * are asked for again in full and resolved against the new table; the
	 * jobs (the queue may be 100,000 records) are relinked from the table
	 * the console holds, without asking slurmctld. */
	bool relayout = !oc_nodes_same_layout(prev ? prev->nodes : NULL, next->nodes);
	if (relayout)
		b->need_full |= OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_RESV);
	mask |= oc_backend_refetch(b->need_full, mask, prev);
	struct oc_node_index ix = {.nodes = next->nodes};

	if (mask & OC_MASK(OC_PART_PARTITIONS))
		failed += refresh_partitions(b, prev, next, show, &ix);
	if (mask & OC_MASK(OC_PART_JOBS))
		failed += refresh_jobs(b, prev, next, show, &ix);

	if (relayout && oc_backend_relink_jobs(prev, next, &ix, resolve_nodes) < 0)
		b->need_full |= OC_MASK(OC_PART_JOBS);

	if (mask & OC_MASK(OC_PART_RESV))
		failed += refresh_resv(b, prev, next, &ix);
	oc_node_index_free(&ix);
	if ((mask & OC_MASK(OC_PART_ACCT)) && b->conf_loaded &&
	    oc_slurm_acct_refresh(b->acct, b->accounting, prev, next) < 0)
		failed++;
	if (failed)
		b->conf_loaded = 0; /* the controller may come back as another version */
	slurm_trim_when_settled();
	return failed;
}

/* Before a report (history, events): the cluster's name and whether it
 * has accounting. false with the reason in *st when not known. */
static bool report_ready(struct slurm_backend *b, struct oc_snapshot *next, struct oc_part_status *st,
			 const char *what)
{
	if (!b->conf_loaded)
		backend_load_conf(b, next);
	if (!b->conf_loaded) {
		oc_part_status_fail(st, time(NULL), what, "the controller's configuration could not be loaded");
		return false;
	}
	snprintf(next->cluster, sizeof(next->cluster), "%s", b->cluster);
	snprintf(next->slurm_version, sizeof(next->slurm_version), "%s", b->version);
	return true;
}

static int slurm_history(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	struct slurm_backend *b = (struct slurm_backend *)base;
	if (!report_ready(b, next, &next->hist_status, "history"))
		return -1;
	int rc = oc_slurm_history_load(b->accounting, b->cluster, since, until, next);
	mark_big_load();
	return rc;
}

static int slurm_events(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	struct slurm_backend *b = (struct slurm_backend *)base;
	if (!report_ready(b, next, &next->ev_status, "events"))
		return -1;
	int rc = oc_slurm_events_load(b->accounting, b->cluster, since, until, next);
	mark_big_load();
	return rc;
}

static int slurm_sched(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	(void)since;
	(void)until;
	struct slurm_backend *b = (struct slurm_backend *)base;
	if (!report_ready(b, next, &next->sched_status, "slurmctld statistics"))
		return -1;
	return oc_slurm_sched_load(next);
}

static int slurm_job(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	(void)until;
	struct slurm_backend *b = (struct slurm_backend *)base;
	if (!report_ready(b, next, &next->jobinfo_status, "job"))
		return -1;
	return oc_slurm_jobinfo_load(b->accounting, b->cluster, since, next);
}

static void slurm_close(struct oc_backend *base)
{
	struct slurm_backend *b = (struct slurm_backend *)base;
	oc_slurm_acct_free(&b->acct);
	free(b);
}

/* slurm_ping(i) asks SlurmctldHost[i] alone (a backup in standby answers
 * too); slurmdb_ping (24.11+) one slurmdbd host. */
static void slurm_ping_ctl(struct oc_backend *base, struct oc_controllers *c)
{
	(void)base;
	c->error[0] = '\0';
	c->dbd_note[0] = '\0';
	for (int i = 0; i < c->n; i++) {
		errno = 0;
		int rc = slurm_ping(i);
		if (rc == SLURM_SUCCESS) {
			c->v[i].state = OC_CTLD_UP;
			continue;
		}
		int e = rc == SLURM_ERROR ? errno : rc;
		/* No connection, or no answer on it: not answering. Anything
		 * else (a credential that could not be made, a refusal) says
		 * nothing about the controller. */
		if (e == SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR || e == SLURM_COMMUNICATIONS_CONNECTION_ERROR ||
		    e == SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR || e == SLURM_COMMUNICATIONS_RECEIVE_ERROR ||
		    e == SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT) {
			c->v[i].state = OC_CTLD_DOWN;
		} else {
			c->v[i].state = OC_CTLD_UNKNOWN;
			snprintf(c->error, sizeof(c->error), "ping %s: %s", c->v[i].host, slurm_strerror(e));
		}
	}
	for (int k = 0; k < c->ndbd; k++) {
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
		c->dbd[k].state = slurmdb_ping(c->dbd[k].host) == SLURM_SUCCESS ? OC_CTLD_UP : OC_CTLD_DOWN;
#else
		c->dbd[k].state = OC_CTLD_UNKNOWN;
#endif
	}
}

/* The next refresh loads these parts whole, not "changed since": some
 * changes do not move slurmctld's last update time (a reboot request:
 * _slurm_rpc_reboot_nodes sets REBOOT_REQUESTED and DRAIN without touching
 * last_node_update, in 22.05 as in 26.05), so a load since then says "no
 * change" until something else changes. */
static void slurm_invalidate(struct oc_backend *base, unsigned mask)
{
	/* The accounting has no last_update: it is loaded whole whenever it
	 * is asked for. Marked here it would stay marked (nothing clears it)
	 * and be loaded at every refresh of any part. */
	((struct slurm_backend *)base)->need_full |= mask & ~OC_MASK(OC_PART_ACCT);
}

static const struct oc_backend_ops slurm_backend_ops = {
	.name = "libslurm",
	.refresh = slurm_refresh,
	.history = slurm_history,
	.events = slurm_events,
	.sched = slurm_sched,
	.job = slurm_job,
	.ping = slurm_ping_ctl,
	.invalidate = slurm_invalidate,
	.close = slurm_close,
};

struct oc_backend *oc_slurm_backend_open(const char *slurm_conf, char *err, size_t errlen)
{
	if (slurm_conf && *slurm_conf) {
		if (access(slurm_conf, R_OK) != 0) {
			snprintf(err, errlen, "cannot read %s: %s", slurm_conf, strerror(errno));
			return NULL;
		}
		/* libslurm's plugins and child tools read SLURM_CONF too. */
		setenv("SLURM_CONF", slurm_conf, 1);
	}
	struct slurm_backend *b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	b->acct = oc_slurm_acct_new();
	if (!b->acct) {
		free(b);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	slurm_keep_memory();
	slurm_init((slurm_conf && *slurm_conf) ? slurm_conf : NULL);
	b->base.ops = &slurm_backend_ops;
	return &b->base;
}
