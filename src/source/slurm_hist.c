/* slurm_hist.c: the jobs that ended in a window, from slurmdbd
 * (slurm_hist.h). One connection per load: slurmdb_jobs_get with the
 * flags sacct -X uses (no steps, times not cut to the window), the TRES
 * and QoS tables of slurmdbd to name ids, then the records converted into
 * a struct oc_history and the list freed. */
#include "source/slurm_hist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurmdb.h>

#include "core/history.h"
#include "core/jobinfo.h"
#include "core/sched.h"
#include "core/state.h"
#include "core/timespec.h"
#include "source/slurm_compat.h"
#include "source/slurm_convert.h"

struct id_name {
	uint32_t id;
	const char *name; /* in the history's arena */
};

struct hist_ids {
	uint32_t gpu_tres;    /* id of gres/gpu, 0 when slurmdbd has none */
	uint32_t cpu_tres;    /* id of cpu */
	uint32_t node_tres;   /* id of node */
	struct id_name *qos;
	size_t nqos;
};

static int hist_ids_load(void *db, struct oc_history *h, struct hist_ids *ids)
{
	slurmdb_tres_cond_t tc;
	memset(&tc, 0, sizeof(tc));
	oc_list l = slurmdb_tres_get(db, &tc);
	if (!l)
		return -1;
	oc_list_itr it = slurm_list_iterator_create(l);
	slurmdb_tres_rec_t *t;
	while ((t = slurm_list_next(it)))
		if (t->type && t->name && strcmp(t->type, "gres") == 0 && strcmp(t->name, "gpu") == 0)
			ids->gpu_tres = t->id;
		else if (t->type && strcmp(t->type, "cpu") == 0)
			ids->cpu_tres = t->id;
		else if (t->type && strcmp(t->type, "node") == 0)
			ids->node_tres = t->id;
	slurm_list_iterator_destroy(it);
	slurm_list_destroy(l);

	slurmdb_qos_cond_t qc;
	memset(&qc, 0, sizeof(qc));
	l = slurmdb_qos_get(db, &qc);
	if (!l)
		return -1;
	int n = slurm_list_count(l);
	ids->qos = n > 0 ? oc_arena_alloc(&h->h.arena, (size_t)n * sizeof(*ids->qos)) : NULL;
	it = slurm_list_iterator_create(l);
	slurmdb_qos_rec_t *q;
	while (ids->qos && (q = slurm_list_next(it)) && ids->nqos < (size_t)n)
		if (q->name) {
			ids->qos[ids->nqos].id = q->id;
			ids->qos[ids->nqos++].name = oc_arena_strdup(&h->h.arena, q->name);
		}
	slurm_list_iterator_destroy(it);
	slurm_list_destroy(l);
	return 0;
}

/* The value of TRES id in "1=2,4=1,1001=8" (database ids), 0 when absent. */
static uint32_t tres_id_value(const char *s, uint32_t id)
{
	while (s && *s) {
		char *end;
		unsigned long k = strtoul(s, &end, 10);
		if (*end != '=')
			return 0;
		unsigned long long v = strtoull(end + 1, &end, 10);
		if (k == id)
			return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		s = strchr(end, ',');
		if (s)
			s++;
	}
	return 0;
}

static const char *qos_name(const struct hist_ids *ids, uint32_t id)
{
	for (size_t i = 0; i < ids->nqos; i++)
		if (ids->qos[i].id == id)
			return ids->qos[i].name;
	return NULL;
}

/* One record into j (strings in a). Returns 0, -1 on ENOMEM. */
static int hist_fill(struct oc_arena *a, const slurmdb_job_rec_t *r, const struct hist_ids *ids, struct oc_hjob *j)
{
	memset(j, 0, sizeof(*j));
	j->job_id = r->jobid;
	j->array_job_id = r->array_job_id;
	j->array_task_id = r->array_task_id == NO_VAL ? OC_NONE : r->array_task_id;
	j->het_job_id = r->het_job_id;
	j->het_job_offset = r->het_job_offset == NO_VAL ? OC_NONE : r->het_job_offset;
	j->name = oc_arena_strdup_nonempty(a, r->jobname);
	j->user = oc_arena_strdup_nonempty(a, r->user);
	j->account = oc_arena_strdup_nonempty(a, r->account);
	j->partition = oc_arena_strdup_nonempty(a, r->partition);
	j->nodes = r->nodes && strcmp(r->nodes, "None assigned") != 0 ? oc_arena_strdup_nonempty(a, r->nodes) : NULL;
	j->work_dir = oc_arena_strdup_nonempty(a, r->work_dir);
	j->submit_line = oc_arena_strdup_nonempty(a, r->submit_line);
	if ((r->jobname && *r->jobname && !j->name) || (r->user && *r->user && !j->user))
		return -1;
	j->qos = qos_name(ids, r->qosid);
	j->state = oc_slurm_job_state(r->state);
	if (r->state & JOB_REQUEUE)
		j->flags |= OC_JF_REQUEUED;
	/* As sacct prints ExitCode: the exit status, and the signal when one
	 * ended it. */
	int ec = (int)r->exitcode;
	j->exit_code = WEXITSTATUS(ec);
	if (WIFSIGNALED(ec))
		j->signal = WTERMSIG(ec);
	j->submit_time = r->submit;
	/* A job that never started: sacct prints "None"/"Unknown". */
	j->start_time = r->start == (time_t)NO_VAL || r->start == (time_t)INFINITE || r->start == (time_t)NO_VAL64 ||
				(r->end && r->start > r->end)
				? 0
				: r->start;
	j->end_time = r->end;
	j->elapsed_s = r->elapsed;
	j->time_limit_min = r->timelimit == INFINITE || r->timelimit == NO_VAL ? OC_NONE : r->timelimit;
	/* As sacct's NNodes and NCPUS: the allocated TRES, or when there are
	 * none (a job cancelled while pending) the requested ones. */
	const char *tres = r->tres_alloc_str && *r->tres_alloc_str ? r->tres_alloc_str : r->tres_req_str;
	j->num_nodes = r->alloc_nodes;
	if (!j->num_nodes && ids->node_tres)
		j->num_nodes = tres_id_value(tres, ids->node_tres);
	j->num_cpus = ids->cpu_tres ? tres_id_value(tres, ids->cpu_tres) : 0;
	j->gpus = ids->gpu_tres ? tres_id_value(r->tres_alloc_str, ids->gpu_tres) : 0;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
	j->requeues = r->restart_cnt;
#else
	j->requeues = OC_NONE;
#endif
	return 0;
}

/* The records of one slice of the window that ended in it, grown into
 * h->v_heap. */
struct hist_acc {
	struct oc_history *h;
	const struct hist_ids *ids;
	size_t cap;
};

/* Convert the records of l that ended in [a, b) (b included for the
 * window's last slice) into acc->h, each record freed once read, so that
 * the table grows into the memory the list gives back. Returns 0, -1 on
 * ENOMEM. */
static int hist_take(struct hist_acc *acc, oc_list l, time_t a, time_t b, bool last)
{
	struct oc_history *h = acc->h;
	slurmdb_job_rec_t *r;
	int rc = 0;
	while (rc == 0 && (r = slurm_list_pop(l))) {
		/* Running or pending (no end), or ended in another slice: a
		 * long job is listed by every slice it ran in. */
		time_t end = r->end;
		if (!end || end < a || end > b || (end == b && !last)) {
			slurmdb_destroy_job_rec(r);
			continue;
		}
		if (h->n == acc->cap) {
			size_t cap = acc->cap ? acc->cap * 2 : 1024;
			struct oc_hjob *v = realloc(h->v_heap, cap * sizeof(*v));
			if (!v) {
				slurmdb_destroy_job_rec(r);
				return -1;
			}
			h->v = h->v_heap = v;
			acc->cap = cap;
		}
		rc = hist_fill(&h->h.arena, r, acc->ids, &h->v[h->n]);
		slurmdb_destroy_job_rec(r);
		if (rc == 0 && oc_hjob_ended(&h->v[h->n], a, b))
			h->n++;
	}
	return rc;
}

/* A connection to slurmdbd, NULL with err. */
static void *dbd_connect(char *err, size_t errlen)
{
	uint16_t flags = 0;
	errno = 0;
	void *db = slurmdb_connection_get(&flags);
	int e = errno;
	if (!db || e) {
		snprintf(err, errlen, "slurmdbd unreachable: %s", slurm_strerror(e ? e : SLURM_ERROR));
		if (db)
			slurmdb_connection_close(&db);
		return NULL;
	}
	return db;
}

/* slurmdb_jobs_get for cond on cluster, as sacct asks (no filter on the
 * scheduling flags); NULL with err. */
static oc_list jobs_get(void *db, slurmdb_job_cond_t *cond, const char *cluster, char *err, size_t errlen)
{
	cond->db_flags = SLURMDB_JOB_FLAG_NOTSET;
	cond->cluster_list = slurm_list_create(NULL);
	if (cluster && *cluster)
		slurm_list_append(cond->cluster_list, (void *)cluster);
	errno = 0;
	oc_list l = slurmdb_jobs_get(db, cond);
	int e = errno;
	slurm_list_destroy(cond->cluster_list);
	cond->cluster_list = NULL;
	if (!l)
		snprintf(err, errlen, "slurmdbd: job query: %s", slurm_strerror(e ? e : SLURM_ERROR));
	return l;
}

/* The records of [since, until] from slurmdbd; NULL with err. The window
 * is asked in up to four slices (an hour at least each), each list freed
 * before the next is asked: the console then holds a quarter of
 * slurmdbd's answer at a time, not the whole of it as sacct does (more
 * slices cost time: each query reads every job that started before its
 * slice's end; tests/bench/bench_history.sh measures both). */
#define HIST_SLICES_MAX 4
static struct oc_history *hist_query(const char *cluster, time_t since, time_t until, char *err, size_t errlen)
{
	void *db = dbd_connect(err, errlen);
	if (!db)
		return NULL;
	struct oc_history *h = oc_history_new();
	struct hist_ids ids = {0};
	if (!h) {
		snprintf(err, errlen, "out of memory");
	} else if (hist_ids_load(db, h, &ids) < 0) {
		snprintf(err, errlen, "slurmdbd: TRES/QoS query: %s", slurm_strerror(errno ? errno : SLURM_ERROR));
		oc_history_unref(&h);
	}
	long long span = (long long)(until - since);
	long long slices = span / 3600 + 1;
	if (slices > HIST_SLICES_MAX)
		slices = HIST_SLICES_MAX;
	time_t step = (time_t)((span + slices - 1) / slices);
	if (step < 1)
		step = 1;
	struct hist_acc acc = {h, &ids, 0};
	for (time_t a = since; h;) {
		bool last = until - a <= step;
		time_t b = last ? until : a + step;
		slurmdb_job_cond_t cond;
		memset(&cond, 0, sizeof(cond));
		cond.flags = JOBCOND_FLAG_NO_STEP | JOBCOND_FLAG_NO_TRUNC;
		cond.usage_start = a;
		cond.usage_end = b;
		oc_list l = jobs_get(db, &cond, cluster, err, errlen);
		int rc = l ? hist_take(&acc, l, a, b, last) : -1;
		if (l)
			slurm_list_destroy(l);
		if (rc < 0) {
			if (l)
				snprintf(err, errlen, "out of memory");
			oc_history_unref(&h);
		}
		if (last)
			break;
		a = b;
	}
	if (h && h->n < acc.cap) {
		/* Give back what the last doubling took beyond the rows. */
		struct oc_hjob *v = h->n ? realloc(h->v_heap, h->n * sizeof(*v)) : NULL;
		if (v || !h->n) {
			if (!h->n)
				free(h->v_heap);
			h->v = h->v_heap = v;
		}
	}
	slurmdb_connection_close(&db);
	return h;
}

static void step_fill(struct oc_jobinfo *t, const slurmdb_step_rec_t *r, struct oc_jstep *p)
{
	memset(p, 0, sizeof(*p));
	oc_jstep_id_text(r->step_id.step_id, r->step_id.step_het_comp == NO_VAL ? OC_NONE : r->step_id.step_het_comp, p->id,
			 sizeof(p->id));
	p->name = oc_arena_strdup_nonempty(&t->h.arena, r->stepname);
	p->state = oc_slurm_job_state(r->state);
	int ec = (int)r->exitcode;
	p->exit_code = WEXITSTATUS(ec);
	if (WIFSIGNALED(ec))
		p->signal = WTERMSIG(ec);
	p->start_time = r->start;
	p->end_time = r->end;
	p->elapsed_s = r->elapsed;
	p->nodes = r->nodes && strcmp(r->nodes, "None assigned") != 0 ? oc_arena_strdup_nonempty(&t->h.arena, r->nodes)
									: NULL;
	p->ntasks = r->ntasks == NO_VAL ? OC_NONE : r->ntasks;
}

/* The newest record of t->job_id in l into t. */
static void jobinfo_convert(struct oc_jobinfo *t, oc_list l)
{
	slurmdb_job_rec_t *r, *rec = NULL;
	oc_list_itr it = slurm_list_iterator_create(l);
	while ((r = slurm_list_next(it)))
		if (r->jobid == t->job_id)
			rec = r;
	slurm_list_iterator_destroy(it);
	if (!rec) {
		snprintf(t->db_err, sizeof(t->db_err), "slurmdbd has no record of it yet");
		return;
	}
	t->db = true;
	t->submit_line = oc_arena_strdup_nonempty(&t->h.arena, rec->submit_line);
	int count = rec->steps ? slurm_list_count(rec->steps) : 0;
	t->steps = count > 0 ? oc_arena_alloc(&t->h.arena, (size_t)count * sizeof(*t->steps)) : NULL;
	if (!t->steps)
		return;
	slurmdb_step_rec_t *sr;
	it = slurm_list_iterator_create(rec->steps);
	while ((sr = slurm_list_next(it)) && t->nsteps < (size_t)count)
		step_fill(t, sr, &t->steps[t->nsteps++]);
	slurm_list_iterator_destroy(it);
}

void oc_slurm_jobinfo_db(bool enabled, const char *cluster, struct oc_jobinfo *t)
{
	if (!enabled) {
		snprintf(t->db_err, sizeof(t->db_err), "accounting is not configured (AccountingStorageType)");
		return;
	}
	void *db = dbd_connect(t->db_err, sizeof(t->db_err));
	if (!db)
		return;
	/* As sacct -j ID: that job (an array's or het job's own id brings
	 * its tasks too; the record of the id is kept), all time, steps. */
	slurm_selected_step_t sel;
	memset(&sel, 0, sizeof(sel));
	sel.array_task_id = NO_VAL;
	sel.het_job_offset = NO_VAL;
	sel.step_id.job_id = t->job_id;
	sel.step_id.step_id = NO_VAL;
	sel.step_id.step_het_comp = NO_VAL;
	slurmdb_job_cond_t cond;
	memset(&cond, 0, sizeof(cond));
	cond.flags = JOBCOND_FLAG_NO_TRUNC;
	cond.step_list = slurm_list_create(NULL);
	slurm_list_append(cond.step_list, &sel);
	oc_list l = jobs_get(db, &cond, cluster, t->db_err, sizeof(t->db_err));
	slurm_list_destroy(cond.step_list);
	if (l)
		jobinfo_convert(t, l);
	if (l)
		slurm_list_destroy(l);
	slurmdb_connection_close(&db);
}

int oc_slurm_history_load(bool enabled, const char *cluster, const char *since, const char *until,
			  struct oc_snapshot *next)
{
	time_t now = time(NULL), s, u;
	char err[200] = "";
	struct oc_part_status *st = &next->hist_status;
	if (oc_time_window(since, until, now, &s, &u, err, sizeof(err)) < 0) {
		oc_part_status_fail(st, now, "history", err);
		return -1;
	}
	double t0 = oc_mono_now();
	struct oc_history *h = enabled ? hist_query(cluster, s, u, err, sizeof(err)) : oc_history_new();
	if (!h) {
		oc_part_status_fail(st, now, "history", err[0] ? err : "out of memory");
		return -1;
	}
	oc_report_info_set(&h->r, enabled, since, until, s, u, oc_mono_now() - t0);
	h->h.generation = next->history ? next->history->h.generation + 1 : 1;
	oc_history_unref(&next->history);
	next->history = h;
	oc_part_status_ok(st, time(NULL));
	return 0;
}

/* ---- node events ------------------------------------------------------ */

/* The state as sacctmgr prints an event's (Slurm's compact node state in
 * capitals: "DOWN", "DRAIN", "DRNG", "IDLE*"). */
static void event_state(uint32_t raw, char *buf, size_t len)
{
	struct oc_node n = {0};
	char other[64];
	oc_slurm_node_state(raw, &n.base, &n.flags, other, sizeof(other));
	n.flags &= ~OC_NF_OTHER;
	oc_node_state_compact(&n, buf, len);
	for (char *p = buf; *p; p++)
		*p = (char)toupper((unsigned char)*p);
}

static struct oc_events *events_convert(oc_list l, char *err, size_t errlen)
{
	struct oc_events *t = oc_events_new();
	int count = l ? slurm_list_count(l) : 0;
	if (t && count > 0)
		t->v = oc_arena_alloc(&t->h.arena, (size_t)count * sizeof(*t->v));
	if (!t || (count > 0 && !t->v)) {
		snprintf(err, errlen, "out of memory");
		oc_events_unref(&t);
		return NULL;
	}
	struct oc_slurm_uid_cache *uids = calloc(1, sizeof(*uids));
	oc_list_itr it = count > 0 ? slurm_list_iterator_create(l) : NULL;
	slurmdb_event_rec_t *r;
	while (it && (r = slurm_list_next(it)) && t->n < (size_t)count) {
		if (r->event_type != SLURMDB_EVENT_NODE || !r->node_name)
			continue;
		struct oc_event *e = &t->v[t->n];
		char st[32];
		event_state(r->state, st, sizeof(st));
		e->node = oc_arena_strdup(&t->h.arena, r->node_name);
		e->start = r->period_start;
		e->end = r->period_end;
		e->state = oc_arena_strdup(&t->h.arena, st);
		e->reason = oc_arena_strdup_nonempty(&t->h.arena, r->reason);
		e->user = r->reason_uid == NO_VAL || !uids ? NULL
							   : oc_arena_strdup(&t->h.arena, oc_slurm_uid_name(uids, r->reason_uid));
		if (!e->node || !e->state) {
			snprintf(err, errlen, "out of memory");
			slurm_list_iterator_destroy(it);
			free(uids);
			oc_events_unref(&t);
			return NULL;
		}
		t->n++;
	}
	if (it)
		slurm_list_iterator_destroy(it);
	free(uids);
	return t;
}

static struct oc_events *events_query(const char *cluster, time_t since, time_t until, char *err, size_t errlen)
{
	void *db = dbd_connect(err, errlen);
	if (!db)
		return NULL;
	slurmdb_event_cond_t cond;
	memset(&cond, 0, sizeof(cond));
	cond.event_type = SLURMDB_EVENT_NODE;
	cond.period_start = since;
	cond.period_end = until;
	cond.cluster_list = slurm_list_create(NULL);
	if (cluster && *cluster)
		slurm_list_append(cond.cluster_list, (void *)cluster);
	errno = 0;
	oc_list l = slurmdb_events_get(db, &cond);
	int e = errno;
	slurm_list_destroy(cond.cluster_list);
	struct oc_events *t = NULL;
	if (!l)
		snprintf(err, errlen, "slurmdbd: event query: %s", slurm_strerror(e ? e : SLURM_ERROR));
	else
		t = events_convert(l, err, errlen);
	if (l)
		slurm_list_destroy(l);
	slurmdb_connection_close(&db);
	return t;
}

int oc_slurm_events_load(bool enabled, const char *cluster, const char *since, const char *until,
			 struct oc_snapshot *next)
{
	time_t now = time(NULL), s, u;
	char err[200] = "";
	struct oc_part_status *st = &next->ev_status;
	if (oc_time_window(since, until, now, &s, &u, err, sizeof(err)) < 0) {
		oc_part_status_fail(st, now, "events", err);
		return -1;
	}
	double t0 = oc_mono_now();
	struct oc_events *t = enabled ? events_query(cluster, s, u, err, sizeof(err)) : oc_events_new();
	if (!t) {
		oc_part_status_fail(st, now, "events", err[0] ? err : "out of memory");
		return -1;
	}
	oc_report_info_set(&t->r, enabled, since, until, s, u, oc_mono_now() - t0);
	t->h.generation = next->events ? next->events->h.generation + 1 : 1;
	oc_events_unref(&next->events);
	next->events = t;
	oc_part_status_ok(st, time(NULL));
	return 0;
}

/* ---- scheduler statistics ----------------------------------------------- */

/* Exported by libslurm (sdiag frees the reply with it) but not declared
 * in slurm.h, 22.05 to 26.05; declared as src/common/slurm_protocol_defs.h
 * does. */
extern void slurm_free_stats_response_msg(stats_info_response_msg_t *msg);

static uint32_t mean_u32(uint64_t sum, uint32_t n)
{
	return n ? (uint32_t)(sum / n) : 0;
}

static struct oc_sched *sched_convert(const stats_info_response_msg_t *r)
{
	struct oc_sched *t = oc_sched_new();
	if (!t)
		return NULL;
	struct oc_arena *a = &t->h.arena;
	t->req_time = r->req_time;
	t->req_time_start = r->req_time_start;
	t->server_threads = r->server_thread_count;
	t->agent_queue = r->agent_queue_size;
	t->agent_count = r->agent_count;
	t->agent_threads = r->agent_thread_count;
	t->dbd_agent_queue = r->dbd_agent_queue_size;
	t->jobs_submitted = r->jobs_submitted;
	t->jobs_started = r->jobs_started;
	t->jobs_completed = r->jobs_completed;
	t->jobs_canceled = r->jobs_canceled;
	t->jobs_failed = r->jobs_failed;
	t->jobs_pending = r->jobs_pending;
	t->jobs_running = r->jobs_running;
	t->main_last_us = r->schedule_cycle_last;
	t->main_max_us = r->schedule_cycle_max;
	t->main_mean_us = mean_u32(r->schedule_cycle_sum, r->schedule_cycle_counter);
	t->main_cycles = r->schedule_cycle_counter;
	t->main_queue_len = r->schedule_queue_len;
	t->bf_backfilled = r->bf_backfilled_jobs;
	t->bf_backfilled_since_cycle = r->bf_last_backfilled_jobs;
	t->bf_cycles = r->bf_cycle_counter;
	t->bf_last_us = r->bf_cycle_last;
	t->bf_max_us = r->bf_cycle_max;
	t->bf_mean_us = mean_u32(r->bf_cycle_sum, r->bf_cycle_counter);
	t->bf_last_depth = r->bf_last_depth;
	t->bf_queue_len = r->bf_queue_len;
	t->bf_last_when = r->bf_when_last_cycle;
	t->bf_active = r->bf_active;
	size_t nt = r->rpc_type_size, nu = r->rpc_user_size, np = r->rpc_queue_type_count;
	t->types = nt ? oc_arena_alloc(a, nt * sizeof(*t->types)) : NULL;
	t->users = nu ? oc_arena_alloc(a, nu * sizeof(*t->users)) : NULL;
	t->pending = np ? oc_arena_alloc(a, np * sizeof(*t->pending)) : NULL;
	if ((nt && !t->types) || (nu && !t->users) || (np && !t->pending)) {
		oc_sched_unref(&t);
		return NULL;
	}
	for (size_t i = 0; i < nt; i++)
		t->types[t->ntypes++] = (struct oc_rpc_stat){r->rpc_type_id[i], oc_rpc_name(r->rpc_type_id[i]),
							     r->rpc_type_cnt[i], r->rpc_type_time[i]};
	struct oc_slurm_uid_cache *uids = calloc(1, sizeof(*uids));
	for (size_t i = 0; i < nu; i++) {
		const char *name = uids ? oc_arena_strdup(a, oc_slurm_uid_name(uids, r->rpc_user_id[i])) : NULL;
		t->users[t->nusers++] = (struct oc_rpc_stat){r->rpc_user_id[i], name, r->rpc_user_cnt[i],
							     r->rpc_user_time[i]};
	}
	free(uids);
	for (size_t i = 0; i < np; i++)
		t->pending[t->npending++] = (struct oc_rpc_stat){r->rpc_queue_type_id[i],
								 oc_rpc_name(r->rpc_queue_type_id[i]), r->rpc_queue_count[i], 0};
	return t;
}

int oc_slurm_sched_load(struct oc_snapshot *next)
{
	stats_info_request_msg_t req;
	memset(&req, 0, sizeof(req));
	req.command_id = STAT_COMMAND_GET;
	stats_info_response_msg_t *r = NULL;
	errno = 0;
	if (slurm_get_statistics(&r, &req) != SLURM_SUCCESS || !r) {
		int e = errno;
		oc_part_status_fail(&next->sched_status, time(NULL), "slurmctld statistics",
				    slurm_strerror(e ? e : SLURM_ERROR));
		return -1;
	}
	struct oc_sched *t = sched_convert(r);
	slurm_free_stats_response_msg(r);
	if (!t) {
		oc_part_status_fail(&next->sched_status, time(NULL), "slurmctld statistics", "out of memory");
		return -1;
	}
	t->h.generation = next->sched ? next->sched->h.generation + 1 : 1;
	oc_sched_unref(&next->sched);
	next->sched = t;
	oc_part_status_ok(&next->sched_status, time(NULL));
	return 0;
}

/* ---- a symbol libslurm.so lacks ---------------------------------------- */

/* accounting_storage_slurmdbd.so, the plugin every slurmdb_* call goes
 * through, names the message of a request that failed mid-way (slurmdbd
 * stopped while it answered) with slurmdbd_msg_type_2_str(), which only
 * libslurmfull (sacct's, sacctmgr's) defines: libslurm.so does not export
 * it, and the dynamic linker ended the console ("symbol lookup error",
 * exit 127) the first time such a request failed. The program exports
 * this stand-in (it is linked with ENABLE_EXPORTS), which the plugin's
 * lookup finds first; it only names the message in a log line. Declared
 * as Slurm does (src/common/slurmdbd_defs.h) but with an int for the enum. */
extern char *slurmdbd_msg_type_2_str(int msg_type, int get_enum);
char *slurmdbd_msg_type_2_str(int msg_type, int get_enum)
{
	static _Thread_local char name[48];
	snprintf(name, sizeof(name), "%s %d", get_enum ? "DBD message" : "slurmdbd message", msg_type);
	return name;
}
