/* slurm_acct.c: the accounting part of the libslurm backend.
 *
 * Limits and use come from slurmctld's association manager
 * (slurm_load_assoc_mgr_info with ASSOC|QOS), the same data as
 * `scontrol show assoc_mgr`. TRES are read the way scontrol reads them: by
 * *position*. The reply's tres_names[i] names position i, and every array
 * of a record (grp_tres_ctld, max_tres_pu_ctld, usage->grp_used_tres) is
 * indexed by that position, so no TRES id is needed. (The string grp_tres
 * holds database ids, "1001=64"; it is only used, through the TRES table
 * of slurmdbd, when a record comes without its arrays.)
 *
 * slurmctld keeps enforcing its cached associations while slurmdbd is
 * down, so the limits keep coming from the controller; whether slurmdbd
 * answers is checked separately, at most every OC_DBD_PERIOD seconds, by a
 * probe thread (slurmdb_connection_get + slurmdb_tres_get). The collector
 * waits for a probe at most OC_DBD_WAIT_MS; a probe without an answer after
 * OC_DBD_TIMEOUT seconds counts as "unreachable" while it keeps waiting on
 * libslurm's own timeout in its thread.
 */
#include "source/slurm_acct.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurmdb.h>

#include "source/slurm_compat.h"

#define OC_DBD_PERIOD 30     /* seconds between two slurmdbd checks */
#define OC_DBD_TIMEOUT 5     /* seconds without an answer = unreachable */
#define OC_DBD_WAIT_MS 500   /* how long a refresh waits for a check it started */

/* One TRES of slurmdbd's table: database id and "type/name". */
struct tres_id {
	uint32_t id;
	char name[64];
};

/* State shared by the collector and the probe thread, under lock. The
 * probe thread holds a reference while it runs, so the backend can be
 * closed while a probe hangs on a stopped slurmdbd. */
struct dbd_probe {
	pthread_mutex_t lock;
	pthread_cond_t done;
	int refs;
	bool running;
	time_t started;        /* start of the running or the last probe */
	bool have_result;      /* a probe finished at least once */
	bool ok;               /* result of the last finished probe */
	time_t result_started; /* when that probe started */
	char error[120];       /* its error, "" when ok */
	struct tres_id *tres;  /* TRES table of the last good probe, taken by the collector */
	size_t ntres;
	void *db_spare;        /* slurmdbd handle that failed to connect, for the next probe */
};

struct oc_slurm_acct {
	struct dbd_probe *probe;
	time_t last_start;     /* when the last probe was started */
	time_t down_since;     /* first failed check of the current outage, 0 when up */
	struct tres_id *tres;  /* slurmdbd's TRES table (for id strings), may be NULL */
	size_t ntres;
};

/* ---- the slurmdbd probe ------------------------------------------------ */

static void probe_unref(struct dbd_probe *p)
{
	pthread_mutex_lock(&p->lock);
	int left = --p->refs;
	pthread_mutex_unlock(&p->lock);
	if (left)
		return;
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->done);
	if (p->db_spare)
		slurmdb_connection_close(&p->db_spare);
	free(p->tres);
	free(p);
}

/* The TRES table of slurmdbd as a malloc'd array (*n entries), NULL on
 * ENOMEM or an empty list. */
static struct tres_id *probe_copy_tres(oc_list l, size_t *n)
{
	*n = 0;
	int count = slurm_list_count(l);
	if (count <= 0)
		return NULL;
	struct tres_id *v = calloc((size_t)count, sizeof(*v));
	if (!v)
		return NULL;
	oc_list_itr it = slurm_list_iterator_create(l);
	slurmdb_tres_rec_t *r;
	while ((r = slurm_list_next(it)) && *n < (size_t)count) {
		if (!r->type)
			continue;
		v[*n].id = r->id;
		if (r->name && *r->name)
			snprintf(v[*n].name, sizeof(v[*n].name), "%s/%s", r->type, r->name);
		else
			snprintf(v[*n].name, sizeof(v[*n].name), "%s", r->type);
		(*n)++;
	}
	slurm_list_iterator_destroy(it);
	return v;
}

/* The probe thread: one connection to slurmdbd and one small query (the
 * TRES table), which also proves that slurmdbd reaches its database. */
static void *probe_main(void *arg)
{
	struct dbd_probe *p = arg;
	char err[sizeof(p->error)] = "";
	struct tres_id *tres = NULL;
	size_t ntres = 0;
	uint16_t flags = 0;
	int e;

	/* A handle whose connection failed is reused: libslurm reconnects it
	 * in the query, and 22.05's slurmdb_connection_close does not free a
	 * handle that never connected, so a new one per check would leak. */
	pthread_mutex_lock(&p->lock);
	void *db = p->db_spare;
	bool reused = db != NULL;
	p->db_spare = NULL;
	pthread_mutex_unlock(&p->lock);
	if (!db) {
		errno = 0;
		db = slurmdb_connection_get(&flags);
		e = errno;
		/* libslurm returns a handle even when the connection failed;
		 * errno says whether it did (as sacctmgr checks it). */
		if (!db || e) {
			snprintf(err, sizeof(err), "%s", slurm_strerror(e ? e : SLURM_ERROR));
			goto done;
		}
	}
	slurmdb_tres_cond_t cond;
	memset(&cond, 0, sizeof(cond));
	errno = 0;
	oc_list l = slurmdb_tres_get(db, &cond);
	if (!l) {
		e = errno;
		snprintf(err, sizeof(err), "%s%s", reused ? "" : "TRES query: ",
			 slurm_strerror(e ? e : SLURM_ERROR));
		if (!reused) {
			slurmdb_connection_close(&db); /* it was connected: freed */
			db = NULL;
		}
		goto done;
	}
	tres = probe_copy_tres(l, &ntres);
	slurm_list_destroy(l);
	slurmdb_connection_close(&db);
	db = NULL;
done:
	pthread_mutex_lock(&p->lock);
	p->db_spare = db; /* NULL, or a handle to retry with */
	p->running = false;
	p->have_result = true;
	p->ok = err[0] == '\0';
	p->result_started = p->started;
	snprintf(p->error, sizeof(p->error), "%s", err);
	if (tres) {
		free(p->tres);
		p->tres = tres;
		p->ntres = ntres;
	}
	pthread_cond_broadcast(&p->done);
	pthread_mutex_unlock(&p->lock);
	probe_unref(p);
	return NULL;
}

/* Start a probe when none runs and the last one is OC_DBD_PERIOD old, and
 * wait a little for it. Called with p->lock held. */
static void probe_maybe_start(struct oc_slurm_acct *a, time_t now)
{
	struct dbd_probe *p = a->probe;
	if (p->running || (a->last_start && now - a->last_start < OC_DBD_PERIOD && now >= a->last_start))
		return;
	pthread_attr_t attr;
	pthread_t tid;
	if (pthread_attr_init(&attr) != 0)
		return;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	p->running = true;
	p->started = now;
	p->refs++;
	if (pthread_create(&tid, &attr, probe_main, p) != 0) {
		p->running = false;
		p->refs--;
		pthread_attr_destroy(&attr);
		return; /* tried again next period */
	}
	pthread_attr_destroy(&attr);
	a->last_start = now;

	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)OC_DBD_WAIT_MS % 1000 * 1000000L;
	until.tv_sec += OC_DBD_WAIT_MS / 1000 + until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	while (p->running)
		if (pthread_cond_timedwait(&p->done, &p->lock, &until) != 0)
			break;
}

static void clock_text(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

/* Check slurmdbd (starting a probe when due) and write the table's
 * dbd_error: "" while it answers (or before the first answer). */
static void acct_dbd_check(struct oc_slurm_acct *a, time_t now, char *out, size_t len)
{
	struct dbd_probe *p = a->probe;
	char why[sizeof(p->error) + 32] = "";
	time_t failed_at = 0;

	out[0] = '\0';
	pthread_mutex_lock(&p->lock);
	probe_maybe_start(a, now);
	if (p->running && now - p->started >= OC_DBD_TIMEOUT) {
		failed_at = p->started;
		snprintf(why, sizeof(why), "no answer within %d s", OC_DBD_TIMEOUT);
	} else if (p->have_result && !p->ok) {
		failed_at = p->result_started;
		snprintf(why, sizeof(why), "%s", p->error);
	} else if (p->have_result) {
		a->down_since = 0;
	}
	if (p->tres) {
		free(a->tres);
		a->tres = p->tres;
		a->ntres = p->ntres;
		p->tres = NULL;
		p->ntres = 0;
	}
	pthread_mutex_unlock(&p->lock);

	if (!failed_at)
		return;
	if (!a->down_since || failed_at < a->down_since)
		a->down_since = failed_at;
	char since[16];
	clock_text(a->down_since, since, sizeof(since));
	snprintf(out, len, "slurmdbd unreachable since %s: %s", since, why);
}

struct oc_slurm_acct *oc_slurm_acct_new(void)
{
	struct oc_slurm_acct *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->probe = calloc(1, sizeof(*a->probe));
	if (!a->probe) {
		free(a);
		return NULL;
	}
	if (pthread_mutex_init(&a->probe->lock, NULL) != 0) {
		free(a->probe);
		free(a);
		return NULL;
	}
	if (pthread_cond_init(&a->probe->done, NULL) != 0) {
		pthread_mutex_destroy(&a->probe->lock);
		free(a->probe);
		free(a);
		return NULL;
	}
	a->probe->refs = 1;
	return a;
}

void oc_slurm_acct_free(struct oc_slurm_acct **ap)
{
	struct oc_slurm_acct *a = ap ? *ap : NULL;
	if (!a)
		return;
	*ap = NULL;
	probe_unref(a->probe); /* a running probe frees it when it returns */
	free(a->tres);
	free(a);
}

/* ---- conversion -------------------------------------------------------- */

static uint32_t u32_or_none(uint32_t v)
{
	return (v == INFINITE || v == NO_VAL) ? OC_NONE : v;
}

/* The conversion's view of one reply. */
struct acct_ctx {
	struct oc_arena *arena;
	const assoc_mgr_info_msg_t *msg;
	uint32_t pos[OC_TRES_KINDS];   /* position of each kind, UINT32_MAX if absent */
	const struct oc_slurm_acct *a; /* TRES id table for id strings */
	struct qos_name {
		uint32_t id;
		const char *name;
	} *qos;
	size_t nqos;
};

static const char *const kind_names[OC_TRES_KINDS] = {
	[OC_TRES_GPU] = "gres/gpu",
	[OC_TRES_CPU] = "cpu",
	[OC_TRES_MEM] = "mem",
	[OC_TRES_NODE] = "node",
};

static bool tres_value_set(uint64_t v)
{
	return v != INFINITE64 && v != NO_VAL64;
}

/* Positional TRES limits as names: "cpu=10,gres/gpu=64" in the arena, NULL
 * when none is set (or on ENOMEM, which the caller cannot tell apart: a
 * missing text only loses the display string). */
static const char *tres_array_text(const struct acct_ctx *c, const uint64_t *v, uint32_t n)
{
	char buf[512];
	size_t off = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; v && i < n; i++) {
		if (!tres_value_set(v[i]) || !c->msg->tres_names[i])
			continue;
		int w = snprintf(buf + off, sizeof(buf) - off, "%s%s=%llu", off ? "," : "",
				 c->msg->tres_names[i], (unsigned long long)v[i]);
		if (w < 0 || (size_t)w >= sizeof(buf) - off)
			break;
		off += (size_t)w;
	}
	return oc_arena_strdup_nonempty(c->arena, buf);
}

/* Name of a TRES database id: slurmdbd's table, else the fixed ids 1-8. */
static const char *tres_id_name(const struct acct_ctx *c, uint32_t id)
{
	static const char *const fixed[] = {NULL, "cpu", "mem", "energy", "node",
					    "billing", "fs/disk", "vmem", "pages"};
	for (size_t i = 0; c->a && i < c->a->ntres; i++)
		if (c->a->tres[i].id == id)
			return c->a->tres[i].name;
	if (id > 0 && id < sizeof(fixed) / sizeof(fixed[0]))
		return fixed[id];
	return NULL;
}

/* Fallback for a record without positional arrays: limits from the id
 * string ("1001=64,2=1000"). Fills the limits of *grp and returns the
 * names text (unknown ids stay as numbers). */
static const char *tres_ids_fill(const struct acct_ctx *c, const char *ids, struct oc_tres_use *grp)
{
	char buf[512];
	size_t off = 0;
	buf[0] = '\0';
	for (const char *s = ids; s && *s;) {
		char *end;
		unsigned long id = strtoul(s, &end, 10);
		if (end == s || *end != '=')
			break;
		unsigned long long v = strtoull(end + 1, &end, 10);
		const char *name = tres_id_name(c, (uint32_t)id);
		char idtext[16];
		if (!name) {
			snprintf(idtext, sizeof(idtext), "%lu", id);
			name = idtext;
		}
		for (int k = 0; k < OC_TRES_KINDS; k++)
			if (strcmp(name, kind_names[k]) == 0)
				grp[k].limit = v;
		int w = snprintf(buf + off, sizeof(buf) - off, "%s%s=%llu", off ? "," : "", name, v);
		if (w < 0 || (size_t)w >= sizeof(buf) - off)
			break;
		off += (size_t)w;
		s = *end == ',' ? end + 1 : NULL;
	}
	return oc_arena_strdup_nonempty(c->arena, buf);
}

/* grp[] from positional limits and use; n is the arrays' length. */
static void tres_fill(const struct acct_ctx *c, const uint64_t *limits, const uint64_t *used,
		      uint32_t n, struct oc_tres_use *grp)
{
	for (int k = 0; k < OC_TRES_KINDS; k++) {
		uint32_t p = c->pos[k];
		grp[k].limit = OC_NOLIMIT;
		grp[k].used = 0;
		if (p >= n)
			continue;
		if (limits && tres_value_set(limits[p]))
			grp[k].limit = limits[p];
		if (used && tres_value_set(used[p]))
			grp[k].used = used[p];
	}
}

static const char *qos_name(const struct acct_ctx *c, uint32_t id)
{
	for (size_t i = 0; i < c->nqos; i++)
		if (c->qos[i].id == id)
			return c->qos[i].name;
	return NULL;
}

/* An association's QoS list holds QoS ids as text ("1", "3"): their names,
 * comma separated, in the arena; NULL when none. */
static const char *qos_list_text(const struct acct_ctx *c, oc_list l)
{
	if (!l || slurm_list_count(l) <= 0)
		return NULL;
	char buf[1024];
	size_t off = 0;
	buf[0] = '\0';
	oc_list_itr it = slurm_list_iterator_create(l);
	const char *s;
	while ((s = slurm_list_next(it))) {
		char *end;
		unsigned long id = strtoul(s, &end, 10);
		const char *name = (end != s && *end == '\0') ? qos_name(c, (uint32_t)id) : NULL;
		int w = snprintf(buf + off, sizeof(buf) - off, "%s%s", off ? "," : "", name ? name : s);
		if (w < 0 || (size_t)w >= sizeof(buf) - off)
			break;
		off += (size_t)w;
	}
	slurm_list_iterator_destroy(it);
	return oc_arena_strdup_nonempty(c->arena, buf);
}

static const char *preempt_mode_text(struct oc_arena *arena, uint16_t mode)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} names[] = {
		{PREEMPT_MODE_SUSPEND, "SUSPEND"},
		{PREEMPT_MODE_REQUEUE, "REQUEUE"},
		{PREEMPT_MODE_CANCEL, "CANCEL"},
#ifdef PREEMPT_MODE_PRIORITY
		{PREEMPT_MODE_PRIORITY, "PRIORITY"},
#endif
#ifdef PREEMPT_MODE_WITHIN
		{PREEMPT_MODE_WITHIN, "WITHIN"},
#endif
		{PREEMPT_MODE_GANG, "GANG"},
	};
	if (mode == PREEMPT_MODE_OFF)
		return NULL; /* the cluster's PreemptMode */
	if (mode == PREEMPT_MODE_COND_OFF)
		return oc_arena_strdup(arena, "OFF");
	char buf[96];
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(mode & names[i].bit))
			continue;
		int w = snprintf(buf + off, sizeof(buf) - off, "%s%s", off ? "," : "", names[i].name);
		if (w < 0 || (size_t)w >= sizeof(buf) - off)
			break;
		off += (size_t)w;
	}
	return oc_arena_strdup_nonempty(arena, buf);
}

/* Length of a record's positional arrays: the reply's TRES count, bounded
 * by what the record's usage says was packed. */
static uint32_t tres_len(const struct acct_ctx *c, uint32_t usage_cnt)
{
	return usage_cnt < c->msg->tres_cnt ? usage_cnt : c->msg->tres_cnt;
}

static int convert_qos(struct acct_ctx *c, const slurmdb_qos_rec_t *q, struct oc_qos *o)
{
	o->name = oc_arena_strdup(c->arena, q->name);
	if (!o->name)
		return -1;
	o->priority = (q->priority == INFINITE || q->priority == NO_VAL) ? 0 : q->priority;
	o->max_jobs_pu = u32_or_none(q->max_jobs_pu);
	o->max_submit_pu = u32_or_none(q->max_submit_jobs_pu);
	o->grp_jobs = u32_or_none(q->grp_jobs);
	o->grp_submit = u32_or_none(q->grp_submit_jobs);
	uint32_t n = q->usage ? tres_len(c, q->usage->tres_cnt) : 0;
	tres_fill(c, q->grp_tres_ctld, q->usage ? q->usage->grp_used_tres : NULL, n, o->grp);
	if (!q->grp_tres_ctld && q->grp_tres && *q->grp_tres)
		tres_ids_fill(c, q->grp_tres, o->grp);
	if (q->max_tres_pu_ctld && n)
		o->max_tres_pu = tres_array_text(c, q->max_tres_pu_ctld, n);
	else if (q->max_tres_pu && *q->max_tres_pu) {
		struct oc_tres_use ignored[OC_TRES_KINDS];
		o->max_tres_pu = tres_ids_fill(c, q->max_tres_pu, ignored);
	}
	o->preempt_mode = preempt_mode_text(c->arena, q->preempt_mode);
	return 0;
}

static int convert_assoc(struct acct_ctx *c, const slurmdb_assoc_rec_t *r, struct oc_assoc *o)
{
	struct oc_arena *ar = c->arena;
	o->account = oc_arena_strdup(ar, r->acct ? r->acct : "");
	o->user = oc_arena_strdup_nonempty(ar, r->user);
	/* slurmctld sends no parent name for user associations: their parent
	 * in the tree is their account. */
	o->parent = oc_arena_strdup_nonempty(ar, o->user ? r->acct : r->parent_acct);
	o->partition = oc_arena_strdup_nonempty(ar, r->partition);
	if (!o->account)
		return -1;
	uint32_t n = r->usage ? tres_len(c, r->usage->tres_cnt) : 0;
	tres_fill(c, r->grp_tres_ctld, r->usage ? r->usage->grp_used_tres : NULL, n, o->grp);
	if (r->grp_tres_ctld && n)
		o->grp_tres = tres_array_text(c, r->grp_tres_ctld, n);
	else if (r->grp_tres && *r->grp_tres)
		o->grp_tres = tres_ids_fill(c, r->grp_tres, o->grp);
	o->grp_jobs = u32_or_none(r->grp_jobs);
	o->grp_submit = u32_or_none(r->grp_submit_jobs);
	o->max_jobs = u32_or_none(r->max_jobs);
	o->max_submit = u32_or_none(r->max_submit_jobs);
	o->qos = qos_list_text(c, r->qos_list);
	o->def_qos = r->def_qos_id ? qos_name(c, r->def_qos_id) : NULL;
	o->shares = (r->shares_raw == SLURMDB_FS_USE_PARENT) ? OC_NONE : u32_or_none(r->shares_raw);
	if (r->usage) {
		o->have_fairshare = true;
		o->shares_norm = r->usage->shares_norm;
		o->usage_raw = (double)r->usage->usage_raw;
		o->usage_norm = (double)r->usage->usage_norm;
		o->usage_efctv = (double)r->usage->usage_efctv;
		o->fs_factor = r->usage->fs_factor;
	}
	return 0;
}

/* A new accounting table from one reply (one reference), NULL on ENOMEM. */
static struct oc_accounting *acct_convert(const struct oc_slurm_acct *a,
					  const assoc_mgr_info_msg_t *msg,
					  const struct oc_accounting *prev, const char *dbd_error)
{
	struct oc_accounting *t = oc_accounting_new();
	if (!t)
		return NULL;
	struct acct_ctx c = {.arena = &t->h.arena, .msg = msg, .a = a};
	t->h.slurm_update = time(NULL); /* the association manager has no last_update */
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	t->enabled = true;
	snprintf(t->dbd_error, sizeof(t->dbd_error), "%s", dbd_error);
	for (int k = 0; k < OC_TRES_KINDS; k++) {
		c.pos[k] = UINT32_MAX;
		for (uint32_t i = 0; msg->tres_names && i < msg->tres_cnt; i++)
			if (msg->tres_names[i] && strcmp(msg->tres_names[i], kind_names[k]) == 0) {
				c.pos[k] = i;
				break;
			}
	}

	int nq = msg->qos_list ? slurm_list_count(msg->qos_list) : 0;
	if (nq > 0) {
		t->qos = oc_arena_alloc(c.arena, sizeof(*t->qos) * (size_t)nq);
		c.qos = oc_arena_alloc(c.arena, sizeof(*c.qos) * (size_t)nq);
		if (!t->qos || !c.qos)
			goto fail;
		oc_list_itr it = slurm_list_iterator_create(msg->qos_list);
		const slurmdb_qos_rec_t *q;
		/* Names first: associations refer to QoS by id. */
		while ((q = slurm_list_next(it)) && t->nqos < (size_t)nq) {
			if (!q->name)
				continue;
			struct oc_qos *o = &t->qos[t->nqos++];
			if (convert_qos(&c, q, o) < 0) {
				slurm_list_iterator_destroy(it);
				goto fail;
			}
			c.qos[c.nqos].id = q->id;
			c.qos[c.nqos++].name = o->name;
		}
		slurm_list_iterator_destroy(it);
	}

	int na = msg->assoc_list ? slurm_list_count(msg->assoc_list) : 0;
	if (na > 0) {
		t->assocs = oc_arena_alloc(c.arena, sizeof(*t->assocs) * (size_t)na);
		if (!t->assocs)
			goto fail;
		oc_list_itr it = slurm_list_iterator_create(msg->assoc_list);
		const slurmdb_assoc_rec_t *r;
		while ((r = slurm_list_next(it)) && t->nassocs < (size_t)na) {
			if (convert_assoc(&c, r, &t->assocs[t->nassocs++]) < 0) {
				slurm_list_iterator_destroy(it);
				goto fail;
			}
		}
		slurm_list_iterator_destroy(it);
	}
	return t;
fail:
	oc_accounting_unref(&t);
	return NULL;
}

/* ---- refresh ----------------------------------------------------------- */

int oc_slurm_acct_refresh(struct oc_slurm_acct *a, bool enabled, const struct oc_snapshot *prev,
			  struct oc_snapshot *next)
{
	struct oc_part_status *st = &next->status[OC_PART_ACCT];
	const struct oc_accounting *old = next->accounting;
	(void)prev; /* next already holds prev's table */

	if (!enabled) {
		/* No accounting: an empty table says so; no request is made. */
		if (!old || old->enabled || old->nassocs || old->nqos) {
			struct oc_accounting *t = oc_accounting_new();
			if (!t) {
				oc_part_status_fail(st, time(NULL), "accounting", slurm_strerror(ENOMEM));
				return -1;
			}
			t->h.generation = (old ? old->h.generation : 0) + 1;
			t->enabled = false;
			oc_accounting_unref(&next->accounting);
			next->accounting = t;
		}
		oc_part_status_ok(st, time(NULL));
		return 0;
	}

	char dbd_error[sizeof(next->accounting->dbd_error)];
	acct_dbd_check(a, time(NULL), dbd_error, sizeof(dbd_error));

	assoc_mgr_info_request_msg_t req;
	memset(&req, 0, sizeof(req));
	req.flags = ASSOC_MGR_INFO_FLAG_ASSOC | ASSOC_MGR_INFO_FLAG_QOS;
	assoc_mgr_info_msg_t *msg = NULL;
	errno = 0;
	if (slurm_load_assoc_mgr_info(&req, &msg) != SLURM_SUCCESS || !msg) {
		int e = errno;
		if (msg)
			slurm_free_assoc_mgr_info_msg(msg);
		oc_part_status_fail(st, time(NULL), "associations", e ? slurm_strerror(e) : NULL);
		return -1;
	}
	struct oc_accounting *t = acct_convert(a, msg, old, dbd_error);
	slurm_free_assoc_mgr_info_msg(msg);
	if (!t) {
		oc_part_status_fail(st, time(NULL), "associations", slurm_strerror(ENOMEM));
		return -1;
	}
	oc_accounting_unref(&next->accounting);
	next->accounting = t;
	oc_part_status_ok(st, time(NULL));
	return 0;
}
