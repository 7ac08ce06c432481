#include "core/sched.h"

#include "core/ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	uint32_t id;
	const char *name;
} rpc_names[] = {
	{1001, "REQUEST_NODE_REGISTRATION_STATUS"},
	{1002, "MESSAGE_NODE_REGISTRATION_STATUS"},
	{1008, "REQUEST_PING"},
	{2001, "REQUEST_BUILD_INFO"},
	{2003, "REQUEST_JOB_INFO"},
	{2007, "REQUEST_NODE_INFO"},
	{2009, "REQUEST_PARTITION_INFO"},
	{2021, "REQUEST_JOB_INFO_SINGLE"},
	{2022, "REQUEST_SHARE_INFO"},
	{2024, "REQUEST_RESERVATION_INFO"},
	{2035, "REQUEST_STATS_INFO"},
	{2039, "REQUEST_JOB_USER_INFO"},
	{2040, "REQUEST_NODE_INFO_SINGLE"},
	{2043, "REQUEST_ASSOC_MGR_INFO"},
	{2049, "REQUEST_FED_INFO"},
	{3002, "REQUEST_UPDATE_NODE"},
	{3006, "REQUEST_CREATE_RESERVATION"},
	{3008, "REQUEST_DELETE_RESERVATION"},
	{4003, "REQUEST_SUBMIT_BATCH_JOB"},
	{5018, "REQUEST_COMPLETE_BATCH_SCRIPT"},
	{5023, "REQUEST_JOB_REQUEUE"},
	{5032, "REQUEST_KILL_JOB"},
	{6012, "MESSAGE_EPILOG_COMPLETE"},
	{10003, "ACCOUNTING_REGISTER_CTLD"},
};

const char *oc_rpc_name(uint32_t id)
{
	for (size_t i = 0; i < sizeof(rpc_names) / sizeof(rpc_names[0]); i++)
		if (rpc_names[i].id == id)
			return rpc_names[i].name;
	return NULL;
}

struct rows {
	struct oc_sched_row *v;
	size_t n, cap;
	bool nomem;
};

static struct oc_sched_row *row_add(struct rows *r, const char *group, const char *item, double number)
{
	if (r->nomem)
		return NULL;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct oc_sched_row *v = realloc(r->v, cap * sizeof(*v));
		if (!v) {
			r->nomem = true;
			return NULL;
		}
		r->v = v;
		r->cap = cap;
	}
	struct oc_sched_row *x = &r->v[r->n++];
	memset(x, 0, sizeof(*x));
	x->group = group;
	snprintf(x->item, sizeof(x->item), "%s", item);
	x->number = number;
	snprintf(x->value, sizeof(x->value), "%.0f", number);
	return x;
}

/* Microseconds as the most readable unit. */
static void us_text(double us, char *buf, size_t len)
{
	if (us >= 1e6)
		snprintf(buf, len, "%.2f s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, len, "%.1f ms", us / 1e3);
	else
		snprintf(buf, len, "%.0f us", us);
}

static void row_us(struct rows *r, const char *group, const char *item, uint32_t us, double unusual_us,
		   const char *why)
{
	struct oc_sched_row *x = row_add(r, group, item, us);
	if (!x)
		return;
	us_text(us, x->value, sizeof(x->value));
	if (unusual_us > 0 && us >= unusual_us) {
		x->unusual = true;
		snprintf(x->note, sizeof(x->note), "%s", why);
	}
}

static int rpc_cmp(const void *a, const void *b)
{
	const struct oc_rpc_stat *x = *(const struct oc_rpc_stat *const *)a, *y = *(const struct oc_rpc_stat *const *)b;
	return x->count < y->count ? 1 : x->count > y->count ? -1 : (x->id > y->id) - (x->id < y->id);
}

/* One group of RPC rows, the most first; a user with over half of all
 * RPCs is the top talker. */
static void rpc_rows(struct rows *r, const char *group, const struct oc_rpc_stat *v, size_t n, bool users,
		     bool pending)
{
	const struct oc_rpc_stat **o = malloc((n ? n : 1) * sizeof(*o));
	if (!o) {
		r->nomem = true;
		return;
	}
	uint64_t all = 0;
	for (size_t i = 0; i < n; i++) {
		o[i] = &v[i];
		all += v[i].count;
	}
	qsort(o, n, sizeof(*o), rpc_cmp);
	for (size_t i = 0; i < n; i++) {
		char item[64], ave[32], tot[32];
		if (o[i]->name)
			snprintf(item, sizeof(item), "%s (%u)", o[i]->name, (unsigned)o[i]->id);
		else
			snprintf(item, sizeof(item), "%s %u", users ? "uid" : "RPC", (unsigned)o[i]->id);
		struct oc_sched_row *x = row_add(r, group, item, o[i]->count);
		if (!x)
			break;
		if (pending) {
			snprintf(x->value, sizeof(x->value), "%u queued", (unsigned)o[i]->count);
			x->unusual = true;
			snprintf(x->note, sizeof(x->note), "RPCs wait in slurmctld's queue");
			continue;
		}
		us_text(o[i]->count ? (double)o[i]->total_us / o[i]->count : 0, ave, sizeof(ave));
		us_text((double)o[i]->total_us, tot, sizeof(tot));
		snprintf(x->value, sizeof(x->value), "count %u  ave %s  total %s", (unsigned)o[i]->count, ave, tot);
		if (users && all >= 100 && (uint64_t)o[i]->count * 2 > all && o[i]->id != 0) {
			x->unusual = true;
			snprintf(x->note, sizeof(x->note), "top talker: %.0f%% of all RPCs", 100.0 * o[i]->count / all);
		}
	}
	free(o);
}

/* One row per controller: "oc-ctld1 (primary) 127.0.0.1", "in control
 * since 06:01:12". A backup slurmdbd listens only while it serves (it
 * watches the primary and takes over when that stops answering): in
 * standby it cannot answer a ping, which is not a fault while the primary
 * answers; a backup that answers while the primary does not serves. */
static void ctl_rows(struct rows *r, const char *group, const struct oc_controllers *c, const struct oc_ctld *v,
		     int n, bool dbd, time_t now)
{
	for (int i = 0; i < n; i++) {
		const struct oc_ctld *e = &v[i];
		char item[64], role[24], when[32];
		if (i == 0)
			snprintf(role, sizeof(role), "primary");
		else if (i == 1)
			snprintf(role, sizeof(role), "backup");
		else
			snprintf(role, sizeof(role), "backup%d", i);
		snprintf(item, sizeof(item), "%.38s (%.16s)", e->host, role);
		struct oc_sched_row *x = row_add(r, group, item, e->state == OC_CTLD_UP);
		if (!x)
			return;
		const char *what = e->state == OC_CTLD_UP ? "answers" : e->state == OC_CTLD_DOWN ? "DOWN" : "unknown";
		bool dbd_primary_up = dbd && n > 0 && v[0].state == OC_CTLD_UP;
		bool dbd_standby = dbd && i > 0 && e->state == OC_CTLD_DOWN && dbd_primary_up;
		bool dbd_serving = dbd && i > 0 && e->state == OC_CTLD_UP && n > 0 && v[0].state == OC_CTLD_DOWN;
		bool dbd_both = dbd && i > 0 && e->state == OC_CTLD_UP && dbd_primary_up;
		if (!dbd && e->in_control)
			what = "in control";
		else if (!dbd && e->state == OC_CTLD_UP && c->in_control >= 0)
			what = "standby";
		else if (dbd_standby)
			what = "not listening";
		else if (dbd_serving)
			what = "serves";
		oc_ctl_when(e->since, now, when, sizeof(when));
		if (e->state == OC_CTLD_UNKNOWN)
			snprintf(x->value, sizeof(x->value), "unknown");
		else
			snprintf(x->value, sizeof(x->value), "%s since %s%s", what, e->since_seen ? "<=" : "", when);
		if (e->addr[0]) {
			size_t l = strlen(x->value);
			snprintf(x->value + l, sizeof(x->value) - l, "  at %.40s", e->addr);
		}
		if (dbd_standby) {
			/* Slurm cannot tell a standby backup from a stopped one. */
			snprintf(x->note, sizeof(x->note),
				 "standby: a backup slurmdbd listens only once the primary fails (a stopped one looks the same)");
		} else if (dbd_both) {
			x->unusual = true;
			snprintf(x->note, sizeof(x->note), "both answer: the backup has not given control back yet");
		} else if (dbd_serving) {
			x->unusual = true;
			snprintf(x->note, sizeof(x->note), "the backup serves: the primary does not answer");
		} else if (e->state == OC_CTLD_DOWN) {
			x->unusual = true;
			bool other_up = false;
			for (int j = 0; j < n; j++)
				other_up |= j != i && v[j].state == OC_CTLD_UP;
			snprintf(x->note, sizeof(x->note), "%s",
				 dbd && i == 0 && other_up ? "does not answer; the backup serves"
				 : dbd			   ? "does not answer"
				 : i			   ? "does not answer: no backup if the one in control fails"
							   : "does not answer; the backup serves if it took over");
		} else if (e->state == OC_CTLD_UNKNOWN) {
			snprintf(x->note, sizeof(x->note), "%s",
				 dbd && c->dbd_note[0] ? c->dbd_note
				 : c->error[0]	       ? c->error
				 : dbd		       ? "this Slurm cannot ping a slurmdbd (24.11 can)"
						       : "not asked yet");
		} else if (!dbd && e->in_control && i > 0) {
			x->unusual = true;
			snprintf(x->note, sizeof(x->note), "a backup is in control");
		}
	}
	if (!dbd && n > 0 && c->in_control < 0) {
		struct oc_sched_row *x = row_add(r, group, "in control", 0);
		if (x) {
			snprintf(x->value, sizeof(x->value), "none");
			x->unusual = true;
			snprintf(x->note, sizeof(x->note), "no controller serves requests%s",
				 n > 1 ? " (a backup takes over after SlurmctldTimeout)" : "");
		}
	}
}

long oc_sched_rows(const struct oc_sched *s, const struct oc_controllers *ctl, time_t now,
		   struct oc_sched_row **out)
{
	struct rows r = {0};
	struct oc_sched_row *x;
	if (ctl) {
		ctl_rows(&r, "slurmctld", ctl, ctl->v, ctl->n, false, now);
		ctl_rows(&r, "slurmdbd", ctl, ctl->dbd, ctl->ndbd, true, now);
	}
	if (!s)
		goto done;
	row_add(&r, "server", "threads", s->server_threads);
	if ((x = row_add(&r, "server", "agent queue", s->agent_queue)) && s->agent_queue >= 100) {
		x->unusual = true;
		snprintf(x->note, sizeof(x->note), "slurmctld is behind on messages to the nodes");
	}
	row_add(&r, "server", "agents", s->agent_count);
	row_add(&r, "server", "agent threads", s->agent_threads);
	if ((x = row_add(&r, "server", "DBD agent queue", s->dbd_agent_queue)) && s->dbd_agent_queue >= 1000) {
		x->unusual = true;
		snprintf(x->note, sizeof(x->note), "records wait for slurmdbd (is it down?)");
	}
	row_add(&r, "jobs", "submitted", s->jobs_submitted);
	row_add(&r, "jobs", "started", s->jobs_started);
	row_add(&r, "jobs", "completed", s->jobs_completed);
	row_add(&r, "jobs", "canceled", s->jobs_canceled);
	row_add(&r, "jobs", "failed", s->jobs_failed);
	row_add(&r, "jobs", "pending", s->jobs_pending);
	row_add(&r, "jobs", "running", s->jobs_running);
	row_us(&r, "main", "last cycle", s->main_last_us, 1e6, "a scheduling pass took over a second");
	row_us(&r, "main", "max cycle", s->main_max_us, 0, "");
	row_us(&r, "main", "mean cycle", s->main_mean_us, 5e5, "scheduling passes take long on average");
	row_add(&r, "main", "cycles", s->main_cycles);
	row_add(&r, "main", "queue length", s->main_queue_len);
	row_add(&r, "backfill", "backfilled jobs", s->bf_backfilled);
	row_add(&r, "backfill", "since last cycle start", s->bf_backfilled_since_cycle);
	row_add(&r, "backfill", "cycles", s->bf_cycles);
	row_us(&r, "backfill", "last cycle", s->bf_last_us, 3e7, "a backfill pass took over 30 s");
	row_us(&r, "backfill", "max cycle", s->bf_max_us, 0, "");
	row_us(&r, "backfill", "mean cycle", s->bf_mean_us, 0, "");
	row_add(&r, "backfill", "last depth", s->bf_last_depth);
	row_add(&r, "backfill", "queue length", s->bf_queue_len);
	rpc_rows(&r, "rpc type", s->types, s->ntypes, false, false);
	rpc_rows(&r, "rpc user", s->users, s->nusers, true, false);
	rpc_rows(&r, "pending rpc", s->pending, s->npending, false, true);
done:
	if (r.nomem) {
		free(r.v);
		*out = NULL;
		return -1;
	}
	*out = r.v;
	return (long)r.n;
}
