/* slurm_jobinfo.c: one job in full for the job panel (OC_REPORT_JOB),
 * from libslurm: slurmctld's record and those of its array or het job
 * (slurm_load_job, what `scontrol show job` reads), the priority factors
 * of a pending job (slurm_load_job_prio, what sprio reads) and slurmdbd's
 * record with its steps (oc_slurm_jobinfo_db in slurm_hist.c, what sacct
 * reads). Each source that fails says so in the table; the others still
 * show. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "core/jobinfo.h"
#include "core/state.h"
#include "core/tres.h"
#include "source/slurm_compat.h"
#include "source/slurm_convert.h"
#include "source/slurm_hist.h"
#include "source/slurm_jobinfo.h"
#include "source/slurm_reason.h"

static const char *sdup(struct oc_jobinfo *t, const char *s)
{
	return oc_arena_strdup_nonempty(&t->h.arena, s);
}

static void part_fill(struct oc_jobinfo *t, const slurm_job_info_t *ji, struct oc_jpart *p)
{
	memset(p, 0, sizeof(*p));
	p->job_id = ji->job_id;
	p->array_task_id = ji->array_job_id && ji->array_task_id != NO_VAL ? ji->array_task_id : OC_NONE;
	p->het_job_offset = ji->het_job_id && ji->het_job_offset != NO_VAL ? ji->het_job_offset : OC_NONE;
	if (ji->array_job_id && ji->array_task_str && *ji->array_task_str)
		p->array_tasks = sdup(t, ji->array_task_str);
	p->state = oc_slurm_job_state(ji->job_state);
	p->nodes = sdup(t, ji->nodes);
	if (ji->state_desc && *ji->state_desc)
		p->reason = sdup(t, ji->state_desc);
	else if (ji->state_reason != WAIT_NO_REASON)
		p->reason = oc_slurm_reason_name(ji->state_reason);
	p->partition = sdup(t, ji->partition);
	p->num_nodes = ji->num_nodes;
	const char *tres = ji->tres_alloc_str && *ji->tres_alloc_str ? ji->tres_alloc_str : ji->tres_req_str;
	p->gpus = (uint32_t)oc_tres_gpus(tres);
}

/* The records of m as the job's parts (its array's tasks or its het
 * job's components). */
static void parts_fill(struct oc_jobinfo *t, const job_info_msg_t *m)
{
	if (!m->record_count)
		return;
	t->parts = oc_arena_alloc(&t->h.arena, m->record_count * sizeof(*t->parts));
	if (!t->parts)
		return;
	for (uint32_t i = 0; i < m->record_count; i++)
		part_fill(t, &m->job_array[i], &t->parts[t->nparts++]);
}

static void live_fill(struct oc_jobinfo *t, slurm_job_info_t *ji)
{
	char path[4096];
	t->work_dir = sdup(t, ji->work_dir);
	t->command = sdup(t, ji->command);
	/* Expanded as scontrol prints them (%j, %u, ...; the default
	 * slurm-%j.out in the working folder). */
	if (ji->batch_flag) {
		slurm_get_job_stdin(path, sizeof(path), ji);
		t->std_in = sdup(t, path);
		slurm_get_job_stdout(path, sizeof(path), ji);
		t->std_out = sdup(t, path);
		slurm_get_job_stderr(path, sizeof(path), ji);
		t->std_err = sdup(t, path);
	}
	t->tres_per_node = sdup(t, ji->tres_per_node);
	t->dependency = sdup(t, ji->dependency);
	t->batch_host = sdup(t, ji->batch_host);
	t->array_job_id = ji->array_job_id;
	t->het_job_id = ji->het_job_id;
	t->restarts = ji->restart_cnt;
}

static void live_load(struct oc_jobinfo *t)
{
	job_info_msg_t *m = NULL;
	if (oc_slurm_load_job(&m, t->job_id, SHOW_DETAIL | SHOW_ALL) != SLURM_SUCCESS) {
		int e = errno;
		if (e != ESLURM_INVALID_JOB_ID)
			snprintf(t->live_err, sizeof(t->live_err), "slurmctld: %s", slurm_strerror(e));
		return;
	}
	slurm_job_info_t *self = NULL;
	for (uint32_t i = 0; i < m->record_count; i++)
		if (m->job_array[i].job_id == t->job_id)
			self = &m->job_array[i];
	if (!self) {
		slurm_free_job_info_msg(m);
		return;
	}
	t->live = true;
	live_fill(t, self);
	/* The whole array or het job: slurmctld sends every record when
	 * asked for the array's or the het job's own id. */
	uint32_t whole = self->het_job_id ? self->het_job_id : self->array_job_id;
	job_info_msg_t *all = NULL;
	if (whole && whole != t->job_id && oc_slurm_load_job(&all, whole, SHOW_ALL) == SLURM_SUCCESS)
		parts_fill(t, all);
	else
		parts_fill(t, m);
	if (all)
		slurm_free_job_info_msg(all);
	slurm_free_job_info_msg(m);
}

/* The factor values of one row, wherever this release keeps them. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#define OC_PF(o) ((o)->prio_factors)
#else
#define OC_PF(o) (o)
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define OC_PF_JOB(o) ((o)->step_id.job_id)
#else
#define OC_PF_JOB(o) ((o)->job_id)
#endif

static int prio_fill(struct oc_jobinfo *t, const priority_factors_object_t *o, struct oc_prio *p)
{
	memset(p, 0, sizeof(*p));
	p->partition = sdup(t, o->partition);
	if (o->direct_prio > 0 || !OC_PF(o))
		return -1; /* a priority set by hand: no factors */
	p->age = OC_PF(o)->priority_age;
	p->assoc = OC_PF(o)->priority_assoc;
	p->fairshare = OC_PF(o)->priority_fs;
	p->jobsize = OC_PF(o)->priority_js;
	p->part = OC_PF(o)->priority_part;
	p->qos = OC_PF(o)->priority_qos;
	/* As sprio's SITE and NICE columns. */
	p->site = (int)((int64_t)OC_PF(o)->priority_site - NICE_OFFSET);
	p->nice = (int)((int64_t)OC_PF(o)->nice - NICE_OFFSET);
	/* As sprio's TRES column: "name=value" of the non-zero ones. */
	char buf[512] = "";
	size_t used = 0;
	for (uint32_t i = 0; OC_PF(o)->priority_tres && i < OC_PF(o)->tres_cnt; i++) {
		double v = OC_PF(o)->priority_tres[i];
		if (v == 0)
			continue;
		p->tres += v;
		int n = snprintf(buf + used, sizeof(buf) - used, "%s%s=%.0f", used ? "," : "",
				 OC_PF(o)->tres_names && OC_PF(o)->tres_names[i] ? OC_PF(o)->tres_names[i] : "?", v);
		if (n > 0 && (size_t)n < sizeof(buf) - used)
			used += (size_t)n;
	}
	p->tres_text = used ? sdup(t, buf) : NULL;
	return 0;
}

static void prio_load(struct oc_jobinfo *t)
{
	priority_factors_response_msg_t *r = NULL;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
	int rc = slurm_load_job_prio(&r, 0);
#else
	int rc = slurm_load_job_prio(&r, NULL, NULL, NULL, 0);
#endif
	if (rc != SLURM_SUCCESS) {
		snprintf(t->prio_err, sizeof(t->prio_err), "slurmctld: %s", slurm_strerror(errno));
		return;
	}
	int count = r && r->priority_factors_list ? slurm_list_count(r->priority_factors_list) : 0;
	t->prio = count > 0 ? oc_arena_alloc(&t->h.arena, (size_t)count * sizeof(*t->prio)) : NULL;
	bool by_hand = false;
	if (t->prio) {
		oc_list_itr it = slurm_list_iterator_create(r->priority_factors_list);
		priority_factors_object_t *o;
		while ((o = slurm_list_next(it)) && t->nprio < (size_t)count)
			if (OC_PF_JOB(o) == t->job_id) {
				if (prio_fill(t, o, &t->prio[t->nprio]) == 0)
					t->nprio++;
				else
					by_hand = true;
			}
		slurm_list_iterator_destroy(it);
	}
	if (!t->nprio)
		snprintf(t->prio_err, sizeof(t->prio_err), "%s",
			 by_hand ? "its priority was set by hand: no factors"
				 : "slurmctld gave no factors for it (sprio lists none: the priority plugin is not multifactor, or the job is not pending)");
	slurm_free_priority_factors_response_msg(r);
}

int oc_slurm_jobinfo_load(bool accounting, const char *cluster, const char *spec, struct oc_snapshot *next)
{
	struct oc_jobinfo *t = oc_jobinfo_new();
	if (!t) {
		oc_part_status_fail(&next->jobinfo_status, time(NULL), "job", "out of memory");
		return -1;
	}
	char err[128];
	if (oc_jobinfo_id(spec, &t->job_id, err, sizeof(err)) < 0) {
		oc_jobinfo_unref(&t);
		oc_part_status_fail(&next->jobinfo_status, time(NULL), "job", err);
		return -1;
	}
	live_load(t);
	const struct oc_jpart *self = oc_jobinfo_self(t);
	if (self && self->state == OC_JOB_PENDING)
		prio_load(t);
	else
		snprintf(t->prio_err, sizeof(t->prio_err), "%s", t->live ? "not pending" : "not in the queue");
	oc_slurm_jobinfo_db(accounting, cluster, t);
	oc_jobinfo_publish(next, t);
	return next->jobinfo == t ? 0 : -1;
}
