/* jobexplain.c: why a job waits, in words (jobexplain.h). */
#include "core/jobexplain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cells.h"
#include "core/jobreason.h"
#include "core/state.h"
#include "core/strbuf.h"

/* Whether reason (squeue's name, maybe with ", detail" after it) starts
 * with name as a whole word. */
static bool reason_is(const char *reason, const char *name)
{
	size_t n = strlen(name);
	return reason && strncmp(reason, name, n) == 0 && (reason[n] == '\0' || reason[n] == ',');
}

static const struct oc_partition *find_partition(const struct oc_snapshot *s, const char *name)
{
	for (size_t i = 0; name && s->partitions && i < s->partitions->n; i++)
		if (strcmp(s->partitions->v[i].name, name) == 0)
			return &s->partitions->v[i];
	return NULL;
}

/* The first partition of a job's (a pending job may list several). */
static const struct oc_partition *job_partition(const struct oc_snapshot *s, const struct oc_job *j)
{
	char first[128];
	snprintf(first, sizeof(first), "%s", j->partition ? j->partition : "");
	first[strcspn(first, ",")] = '\0';
	return find_partition(s, first);
}

/* The account's own association (no user, no partition). */
static const struct oc_assoc *account_assoc(const struct oc_snapshot *s, const char *account)
{
	for (size_t i = 0; account && s->accounting && i < s->accounting->nassocs; i++) {
		const struct oc_assoc *a = &s->accounting->assocs[i];
		if (!a->user && !a->partition && strcmp(a->account, account) == 0)
			return a;
	}
	return NULL;
}

/* AssocGrpGRES and its kin: the GPU use against the GrpTRES limit of the
 * job's account, or of the first parent account that has one (Slurm
 * counts a child's jobs against its parents' limits too). */
static void explain_grp_gres(const struct oc_snapshot *s, const struct oc_job *j, char *out, size_t len)
{
	const struct oc_assoc *a = account_assoc(s, j->account);
	for (int depth = 0; a && a->grp[OC_TRES_GPU].limit == OC_NOLIMIT && a->parent && depth < 32; depth++)
		a = account_assoc(s, a->parent);
	if (!a || a->grp[OC_TRES_GPU].limit == OC_NOLIMIT) {
		oc_appendf(out, len,
			   "A GPU limit of account %s (GrpTRES gres/gpu) holds it; the association's use is not loaded "
			   "(quota view: 5).",
			   j->account ? j->account : "?");
		return;
	}
	unsigned long long used = a->grp[OC_TRES_GPU].used, limit = a->grp[OC_TRES_GPU].limit, ask = j->gpus;
	bool parent = !j->account || strcmp(a->account, j->account) != 0;
	oc_appendf(out, len, "%s%s uses %llu of %llu %s (GrpTRES gres/gpu=%llu); this job asks %llu more",
		   parent ? "its parent account " : "", a->account, used, limit, oc_plural(limit, "GPU", "GPUs"), limit,
		   ask);
	if (used + ask > limit)
		oc_appendf(out, len, ": %llu would be over the limit. It starts when %llu %s of %s's %s free.",
			   used + ask, used + ask - limit, oc_plural(used + ask - limit, "GPU", "GPUs"), a->account,
			   oc_plural(used + ask - limit, "is", "are"));
	else
		oc_appendf(out, len, ": that fits now; the scheduler takes it at its next pass.");
}

static const struct oc_qos *find_qos(const struct oc_snapshot *s, const char *name)
{
	for (size_t i = 0; name && s->accounting && i < s->accounting->nqos; i++)
		if (strcmp(s->accounting->qos[i].name, name) == 0)
			return &s->accounting->qos[i];
	return NULL;
}

/* QOSMaxJobsPerUserLimit: the user's running jobs in the QoS. */
static void explain_qos_jobs(const struct oc_snapshot *s, const struct oc_job *j, char *out, size_t len)
{
	const struct oc_qos *q = find_qos(s, j->qos);
	uint32_t running = 0;
	for (size_t i = 0; s->jobs && i < s->jobs->n; i++) {
		const struct oc_job *o = &s->jobs->v[i];
		if (o->state == OC_JOB_RUNNING && o->user && j->user && strcmp(o->user, j->user) == 0 && o->qos && j->qos &&
		    strcmp(o->qos, j->qos) == 0)
			running++;
	}
	if (q && q->max_jobs_pu != OC_NONE)
		oc_appendf(out, len, "%s runs %u %s in QoS %s (MaxJobsPerUser %u): it starts when %s ends.",
			   j->user ? j->user : "?", running, oc_plural(running, "job", "jobs"), j->qos, q->max_jobs_pu,
			   oc_plural(running, "that one", "one of them"));
	else
		oc_appendf(out, len, "%s runs %u %s in QoS %s, at its per-user job limit (MaxJobsPerUser; the QoS is %s).",
			   j->user ? j->user : "?", running, oc_plural(running, "job", "jobs"), j->qos ? j->qos : "?",
			   q ? "loaded without that limit" : "not loaded");
}

/* The nodes of the job's partition that cannot run it: drained, down,
 * not responding, or in a reservation that is active or starts before
 * the job could end. */
static void explain_unavail(const struct oc_snapshot *s, const struct oc_job *j, time_t now, char *out, size_t len)
{
	const struct oc_partition *p = job_partition(s, j);
	if (!p || !s->nodes) {
		oc_appendf(out, len, "Some nodes it needs are not available (partition %s not loaded).",
			   j->partition ? j->partition : "?");
		return;
	}
	uint32_t bad = 0, shown = 0;
	char list[768] = "";
	for (uint32_t k = 0; k < p->node_count; k++) {
		if (p->node_idx[k] >= s->nodes->n)
			continue;
		const struct oc_node *n = &s->nodes->v[p->node_idx[k]];
		enum oc_health h = oc_node_health(n);
		if (h == OC_HEALTH_OK || h == OC_HEALTH_POWER)
			continue;
		bad++;
		if (shown++ < 4)
			oc_appendf(list, sizeof(list), "%s%s (%s%s%s)", shown > 1 ? ", " : "", n->name, oc_health_name(h),
				   n->reason ? ": " : "", n->reason ? n->reason : "");
	}
	if (bad)
		oc_appendf(out, len, "%u of %u %s of %s cannot run jobs: %s%s.", bad, p->node_count,
			   oc_plural(p->node_count, "node", "nodes"), p->name, list, bad > shown ? ", ..." : "");
	uint64_t run_s = j->time_limit_min == OC_NONE ? 365ULL * 86400 : (uint64_t)j->time_limit_min * 60;
	for (size_t r = 0; s->reservations && r < s->reservations->n; r++) {
		const struct oc_reservation *rv = &s->reservations->v[r];
		if (rv->end_time <= now || (uint64_t)(rv->start_time > now ? rv->start_time - now : 0) >= run_s)
			continue;
		bool shares = false;
		for (uint32_t a = 0; a < rv->node_idx_count && !shares; a++)
			for (uint32_t b = 0; b < p->node_count && !shares; b++)
				shares = rv->node_idx[a] == p->node_idx[b];
		if (!shares)
			continue;
		char when[32];
		struct tm tm;
		localtime_r(&rv->start_time, &tm);
		strftime(when, sizeof(when), "%m-%d %H:%M", &tm);
		oc_appendf(out, len, "%sReservation %s (%s) holds %s %s %s.", out[0] ? " " : "", rv->name,
			   rv->flags ? rv->flags : "no flags", rv->nodes ? rv->nodes : "nodes",
			   rv->start_time <= now ? "since" : "from", when);
	}
	if (!out[0])
		oc_appendf(out, len, "Slurm says nodes it asked for are not available (none of %s's is drained, down or "
				     "reserved now: it may have asked for named nodes).",
			   p->name);
}

/* Priority: the pending jobs of its partition ahead of it. */
static void explain_priority(const struct oc_snapshot *s, const struct oc_job *j, char *out, size_t len)
{
	uint32_t ahead = 0;
	for (size_t i = 0; s->jobs && i < s->jobs->n; i++) {
		const struct oc_job *o = &s->jobs->v[i];
		if (o != j && o->state == OC_JOB_PENDING && o->priority > j->priority && o->partition && j->partition &&
		    strcmp(o->partition, j->partition) == 0)
			ahead++;
	}
	oc_appendf(out, len, "%u pending %s of %s %s a higher priority (this one: %u); %s first.", ahead,
		   oc_plural(ahead, "job", "jobs"), j->partition ? j->partition : "?", oc_plural(ahead, "has", "have"),
		   j->priority, oc_plural(ahead, "it starts", "they start"));
}

/* Resources: the free nodes of its partition against what it asks. */
static void explain_resources(const struct oc_snapshot *s, const struct oc_job *j, char *out, size_t len)
{
	const struct oc_partition *p = job_partition(s, j);
	uint32_t idle = 0;
	for (uint32_t k = 0; p && s->nodes && k < p->node_count; k++)
		if (p->node_idx[k] < s->nodes->n && s->nodes->v[p->node_idx[k]].base == OC_NODE_IDLE &&
		    oc_node_health(&s->nodes->v[p->node_idx[k]]) == OC_HEALTH_OK)
			idle++;
	oc_appendf(out, len, "It asks %u %s (%u %s); %s has %u idle %s now: it is next and waits for "
			     "running jobs to end.",
		   j->num_nodes, oc_plural(j->num_nodes, "node", "nodes"), j->gpus, oc_plural(j->gpus, "GPU", "GPUs"),
		   p ? p->name : "its partition", idle, oc_plural(idle, "node", "nodes"));
}

/* The reasons that need no data beyond their name. */
static const struct {
	const char *name;
	const char *text;
} plain[] = {
	{"JobHeldUser", "Held by its user (scontrol hold, or --hold at submit): release it (e) to let it start."},
	{"JobHeldAdmin", "Held by an administrator (scontrol hold): release it (e) to let it start."},
	{"BeginTime", "It may not start before its begin time (sbatch --begin, or the wait after a requeue)."},
	{"Dependency", "It waits for other jobs to reach a state (sbatch --dependency): scontrol show job shows which."},
	{"DependencyNeverSatisfied", "A job it depends on ended in a way that can never satisfy it: it will not start; cancel it."},
	{"PartitionDown", "Its partition is down: nothing starts there until an administrator sets it UP."},
	{"PartitionInactive", "Its partition is inactive: nothing is scheduled there."},
	{"PartitionTimeLimit", "Its time limit is above the partition's MaxTime: lower it (T) or move it (:setpartition)."},
	{"PartitionNodeLimit", "It asks more nodes than the partition allows (MaxNodes/MinNodes)."},
	{"Reservation", "It waits for the reservation it asked for to start."},
	{"QOSGrpGRES", "A GRES limit of its QoS (GrpTRES) holds it: the QoS's jobs use what the limit allows."},
	{"QOSMaxGRESPerUser", "Its user is at the QoS's per-user GRES limit (MaxTRESPerUser)."},
	{"JobArrayTaskLimit", "Its array runs as many tasks at once as its %N limit allows."},
	{"launch failed requeued held", "Its launch failed and Slurm requeued and held it: look at the node, then release it."},
};

const char *oc_job_explain(const struct oc_snapshot *s, const struct oc_job *j, time_t now, char *out, size_t len)
{
	if (!len)
		return out;
	out[0] = '\0';
	if (!s || !j || j->state != OC_JOB_PENDING)
		return out;
	const char *r = j->reason;
	if (!r || !*r || strcmp(r, "None") == 0)
		oc_appendf(out, len, "No reason yet: the scheduler has not looked at it since it was submitted.");
	else if (oc_job_reason_is_grp_gres(r) && strncmp(r, "Assoc", 5) == 0)
		explain_grp_gres(s, j, out, len);
	else if (reason_is(r, "QOSMaxJobsPerUserLimit"))
		explain_qos_jobs(s, j, out, len);
	else if (reason_is(r, "ReqNodeNotAvail"))
		explain_unavail(s, j, now, out, len);
	else if (reason_is(r, "Priority"))
		explain_priority(s, j, out, len);
	else if (reason_is(r, "Resources"))
		explain_resources(s, j, out, len);
	else {
		for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]) && !out[0]; i++)
			if (reason_is(r, plain[i].name))
				oc_appendf(out, len, "%s", plain[i].text);
		if (!out[0] && oc_job_reason_is_limit(r))
			oc_appendf(out, len, "An association or QoS limit holds it (%s): the quota view (5) shows %s's use.", r,
				   j->account ? j->account : "the account");
		if (!out[0])
			oc_appendf(out, len, "Slurm says %s.", r);
	}
	if (j->start_time > now) {
		char when[32];
		oc_appendf(out, len, " The scheduler expects it to start at %s.",
			   oc_cells_local_minute(j->start_time, when, sizeof(when)));
	}
	return out;
}
