#include "source/collector.h"

#include "core/ctl.h"
#include "core/pclog.h"
#include "core/platform.h"
#include "core/timespec.h"
#include "core/views.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct oc_collector {
	struct oc_backend *backend;
	double fast_s, medium_s, slow_s, idle_s;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;     /* collector waits here */
	pthread_cond_t done_cv;  /* stop waits here for the thread to end */
	bool quit, done, now_requested, full_requested;
	unsigned now_parts; /* parts asked for now (a form opened), with their last_update */
	unsigned focus;
	/* The reports (history, events), each loaded while rep[kind].on,
	 * every rep_period_s and on request. */
	struct {
		bool on;
		char since[48], until[48];
		double due;
	} rep[OC_REPORT_COUNT];
	double rep_period_s;
	int platform;            /* enum oc_platform of the profile (UNKNOWN: detect) */
	char pclog[4096];        /* the clustermgtd log, "" = the default */

	struct oc_snapshot *current; /* under lock */
	int pipe_rd, pipe_wr;
	atomic_llong inflight_since;
	double ping_due; /* the controllers are pinged again then (collector thread only) */
	double pinged_at; /* and were last pinged then */
	atomic_ulong refreshes;
	_Atomic double cpu_s;
};

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A new snapshot holding prev's tables (the backend replaces what
 * changed), seq prev's + 1. NULL on ENOMEM. */
static struct oc_snapshot *snapshot_next(const struct oc_snapshot *prev)
{
	struct oc_snapshot *next = oc_snapshot_new();
	if (!next)
		return NULL;
	if (prev) {
		/* Start from the previous tables; the backend replaces what changed. */
		oc_nodes_unref(&next->nodes);
		oc_partitions_unref(&next->partitions);
		oc_jobs_unref(&next->jobs);
		oc_reservations_unref(&next->reservations);
		oc_accounting_unref(&next->accounting);
		oc_config_unref(&next->config);
		next->nodes = oc_nodes_ref(prev->nodes);
		next->partitions = oc_partitions_ref(prev->partitions);
		next->jobs = oc_jobs_ref(prev->jobs);
		next->reservations = oc_reservations_ref(prev->reservations);
		next->accounting = oc_accounting_ref(prev->accounting);
		next->config = oc_config_ref(prev->config);
		next->history = oc_history_ref(prev->history);
		next->hist_status = prev->hist_status;
		next->events = oc_events_ref(prev->events);
		next->ev_status = prev->ev_status;
		next->sched = oc_sched_ref(prev->sched);
		next->sched_status = prev->sched_status;
		next->jobinfo = oc_jobinfo_ref(prev->jobinfo);
		next->jobinfo_status = prev->jobinfo_status;
		memcpy(next->status, prev->status, sizeof(next->status));
		next->ctl = prev->ctl;
		memcpy(next->cluster, prev->cluster, sizeof(next->cluster));
		memcpy(next->slurm_version, prev->slurm_version, sizeof(next->slurm_version));
		memcpy(next->slurm_user, prev->slurm_user, sizeof(next->slurm_user));
		next->seq = prev->seq + 1;
	} else {
		next->seq = 1;
	}
	return next;
}

struct oc_snapshot *oc_collector_refresh_once(struct oc_backend *b, unsigned mask,
					      const struct oc_snapshot *prev)
{
	struct oc_snapshot *next = snapshot_next(prev);
	if (!next)
		return NULL;
	b->ops->refresh(b, mask, prev, next);
	next->taken = time(NULL);
	return next;
}

struct oc_snapshot *oc_collector_report_once(struct oc_backend *b, enum oc_report kind, const char *since,
					     const char *until, const struct oc_snapshot *prev)
{
	struct oc_snapshot *next = snapshot_next(prev);
	if (!next)
		return NULL;
	int (*load)(struct oc_backend *, const char *, const char *, struct oc_snapshot *) = b->ops->history;
	struct oc_part_status *st = &next->hist_status;
	const char *what = "history";
	switch (kind) {
	case OC_REPORT_EVENTS:
		load = b->ops->events, st = &next->ev_status, what = "events";
		break;
	case OC_REPORT_SCHED:
		load = b->ops->sched, st = &next->sched_status, what = "scheduler";
		break;
	case OC_REPORT_JOB:
		load = b->ops->job, st = &next->jobinfo_status, what = "job";
		break;
	default:
		break;
	}
	if (load)
		load(b, since, until, next);
	else
		oc_part_status_fail(st, time(NULL), what, "not available from this source (a recorded snapshot has none)");
	if (!prev)
		next->taken = time(NULL);
	else
		next->taken = prev->taken;
	return next;
}

/* The last max bytes of path on this machine (read_tail without a
 * backend op). */
static int read_tail_local(const char *path, size_t max, char **buf, size_t *len, char *err, size_t errlen)
{
	*buf = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a file", path);
		close(fd);
		return -1;
	}
	off_t from = st.st_size > (off_t)max ? st.st_size - (off_t)max : 0;
	size_t want = (size_t)(st.st_size - from);
	char *b = malloc(want + 1);
	if (!b) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ssize_t got = pread(fd, b, want, from);
	close(fd);
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(b);
		return -1;
	}
	b[got] = '\0';
	*buf = b;
	*len = (size_t)got;
	return 0;
}

#define PCLOG_MAX (4u << 20) /* the log's tail read: a week of a big cluster's events */

void oc_collector_pclog(struct oc_backend *b, int setting, const char *path, struct oc_snapshot *next)
{
	struct oc_events *t = next->events;
	char why[160];
	if (!t || atomic_load(&t->h.refs) != 1 || t->pc_path ||
	    oc_platform_detect((enum oc_platform)setting, next->config, why, sizeof(why)) != OC_PLATFORM_PCLUSTER)
		return;
	if (!path || !*path)
		path = OC_PCLOG_DEFAULT;
	t->pc_path = oc_arena_strdup(&t->h.arena, path);
	char err[256] = "", *text = NULL;
	size_t len = 0;
	int rc = b->ops->read_tail ? b->ops->read_tail(b, path, PCLOG_MAX, &text, &len, err, sizeof(err))
				   : read_tail_local(path, PCLOG_MAX, &text, &len, err, sizeof(err));
	if (rc == 1) {
		t->pc_error = oc_arena_strdup(&t->h.arena, "no such file on the head node");
	} else if (rc < 0) {
		t->pc_error = oc_arena_strdup(&t->h.arena, err[0] ? err : "cannot be read");
	} else if (oc_pclog_parse(text, len, t->r.since, 0, &t->h.arena, &t->pc, &t->npc, NULL) < 0) {
		/* (No end cut: the log's times are the head node's local time,
		 * read here in this machine's; a remote head node in another
		 * zone would lose its newest lines to it.) */
		t->pc_error = oc_arena_strdup(&t->h.arena, "out of memory");
		t->npc = 0;
	}
	free(text);
}

static void collector_publish(struct oc_collector *c, struct oc_snapshot *next);

/* ---- controllers ------------------------------------------------------- */

/* The controllers s's configuration names, pinged, into *out (s->ctl's
 * states kept for comparison by the caller). false when the source cannot
 * ping or the configuration names none yet. */
static bool ctl_ping(struct oc_backend *b, const struct oc_snapshot *s, struct oc_controllers *out)
{
	if (!b->ops->ping || !s->config || !s->config->n)
		return false;
	oc_ctl_from_config(s->config, &s->ctl, out);
	if (!out->n)
		return false;
	b->ops->ping(b, out);
	out->checked = time(NULL);
	return true;
}

/* Whether the requests for mask worked in s: 1 when one of them did, 0
 * when all failed, -1 when mask asked for none. */
static int ctl_data_ok(const struct oc_snapshot *s, unsigned mask)
{
	int asked = 0;
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if (!(mask & OC_MASK(p)))
			continue;
		asked = 1;
		if (!s->status[p].error[0])
			return 1;
	}
	return asked ? 0 : -1;
}

static time_t ctl_boot(const struct oc_snapshot *s)
{
	const char *v = oc_config_get(s->config, "BOOT_TIME");
	time_t t = 0;
	char err[64];
	if (!v || oc_time_parse(v, time(NULL), &t, err, sizeof(err)) < 0)
		return 0;
	return t;
}

void oc_collector_ping_once(struct oc_backend *b, struct oc_snapshot *s, int data_ok)
{
	struct oc_controllers ctl;
	if (!ctl_ping(b, s, &ctl))
		return;
	oc_ctl_judge(&ctl, &s->ctl, data_ok, ctl_boot(s), time(NULL));
	s->ctl = ctl;
}

/* When the controllers are pinged next, after a ping that found ctl: every
 * medium interval, but on a cluster with one controller every slow
 * interval, its requests saying the rest: while they work it answers and
 * is in control; when one fails, it is pinged before every refresh
 * (collector_run). */
static void ping_done(struct oc_collector *c, const struct oc_controllers *ctl)
{
	c->pinged_at = mono_now();
	c->ping_due = c->pinged_at + (ctl->n == 1 ? c->slow_s : c->medium_s);
}

/* With c->lock held: the parts read but not shown, which follow at the
 * slow rate rather than the idle one: the focus's OC_MASK_SLOW() bits;
 * every part while a job's panel is open (it explains a wait with the
 * accounting, the partitions and the reservations) and on a view that
 * shows no part (the reports: the events open a node's panel, and the
 * header's age and the pings follow the refreshes). */
static unsigned collector_keep(const struct oc_collector *c)
{
	if (!OC_FOCUS_PARTS(c->focus) || c->rep[OC_REPORT_JOB].on)
		return OC_MASK_ALL;
	return (c->focus >> 24) & OC_MASK_ALL;
}

/* With c->lock held: the parts due now (all of them when a refresh was
 * requested), after making parts that came into focus due at once. *now
 * is the time the mask was taken at. */
static unsigned collector_due_mask(struct oc_collector *c, double due[], double every[], unsigned *sched_focus,
				   double *now)
{
	/* Parts that came into focus (the screen switched views, maybe
	 * while a refresh was running) are due now. */
	unsigned gained = OC_FOCUS_PARTS(c->focus) & ~OC_FOCUS_PARTS(*sched_focus);
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((gained & OC_MASK(p)) && due[p] > mono_now())
			due[p] = mono_now();
	*sched_focus = c->focus;
	/* Parts now read but scheduled at the idle rate (a job's panel
	 * opened) are due a slow interval after their last load. */
	unsigned keep = collector_keep(c);
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((keep & OC_MASK(p)) && every[p] > c->slow_s) {
			due[p] -= every[p] - c->slow_s;
			every[p] = c->slow_s;
		}
	*now = mono_now();
	unsigned mask = 0;
	if (c->now_requested) {
		mask = OC_MASK_ALL;
		c->now_requested = false;
	}
	mask |= c->now_parts;
	c->now_parts = 0;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if (*now >= due[p])
			mask |= OC_MASK(p);
	return mask;
}

/* With c->lock held: waits until the next part is due or c->wake. */
static void collector_sleep(struct oc_collector *c, const double due[], double now)
{
	double next_due = due[0];
	for (int p = 1; p < OC_PART_COUNT; p++)
		if (due[p] < next_due)
			next_due = due[p];
	for (int k = 1; k < OC_REPORT_COUNT; k++)
		if (c->rep[k].on && c->rep[k].due < next_due)
			next_due = c->rep[k].due;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double wait = next_due - now;
	long long ns = (long long)(wait * 1e9) + ts.tv_nsec;
	ts.tv_sec += (time_t)(ns / 1000000000LL);
	ts.tv_nsec = (long)(ns % 1000000000LL);
	pthread_cond_timedwait(&c->wake, &c->lock, &ts);
}

double oc_collector_fast_wait(double rt, double every, double lead)
{
	if (every < 1 || every != (double)(long long)every || lead < 0 || lead >= every / 2)
		return every;
	double at = (double)((long long)((rt + every / 2 + lead) / every) + 1) * every - lead;
	return at - rt;
}

/* Seconds from now to the next fast refresh (oc_collector_fast_wait). */
static double fast_wait(const struct oc_collector *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return oc_collector_fast_wait((double)ts.tv_sec + (double)ts.tv_nsec / 1e9, c->fast_s, OC_FAST_LEAD_S);
}

/* Without c->lock: refreshes the parts in mask from prev (released here),
 * counts the time it took and schedules those parts again by focus. The
 * new snapshot, or NULL. */
static struct oc_snapshot *collector_run(struct oc_collector *c, unsigned mask, struct oc_snapshot *prev,
					 unsigned focus, unsigned keep, double due[], double every[])
{
	double cpu0 = thread_cpu();
	atomic_store(&c->inflight_since, (long long)time(NULL));
	/* The controllers are pinged with a refresh every medium interval
	 * (slow with one controller: ping_done), and before every refresh
	 * while requests fail or none is in control: a failover
	 * shows before the requests (which libslurm holds until the backup
	 * took over, up to 1.5 x SlurmctldTimeout) come back. */
	bool trouble = prev->ctl.n && prev->ctl.in_control < 0;
	for (int p = 0; p < OC_PART_COUNT && !trouble; p++)
		trouble = prev->status[p].error[0] != '\0';
	struct oc_controllers ctl;
	bool pinged = false;
	if (trouble || mono_now() >= c->ping_due) {
		pinged = ctl_ping(c->backend, prev, &ctl);
		if (pinged) {
			ping_done(c, &ctl);
			struct oc_controllers mid = ctl;
			oc_ctl_judge(&mid, &prev->ctl, -1, 0, time(NULL));
			struct oc_snapshot *shown = oc_ctl_changed(&mid, &prev->ctl) ? snapshot_next(prev) : NULL;
			/* The judgement after the requests starts from this one
			 * (its since times). */
			ctl = mid;
			if (shown) {
				/* Shown now; the refresh goes on from it (its seq
				 * follows). */
				shown->ctl = mid;
				shown->taken = prev->taken;
				oc_snapshot_unref(&prev);
				prev = oc_snapshot_ref(shown);
				pthread_mutex_lock(&c->lock);
				collector_publish(c, shown);
				pthread_mutex_unlock(&c->lock);
			}
		}
	}
	unsigned ask = mask;
	if (!(OC_FOCUS_PARTS(focus) & OC_MASK(OC_PART_NODES)))
		ask |= OC_MASK_NODES_UNSEEN;
	struct oc_snapshot *next = oc_collector_refresh_once(c->backend, ask, prev);
	/* The first configuration came with this refresh: ping at once. */
	if (next && !pinged && !prev->ctl.n && (pinged = ctl_ping(c->backend, next, &ctl)))
		ping_done(c, &ctl);
	if (next && pinged) {
		oc_ctl_judge(&ctl, &prev->ctl, ctl_data_ok(next, mask), ctl_boot(next), time(NULL));
		next->ctl = ctl;
	}
	atomic_store(&c->inflight_since, 0);
	oc_snapshot_unref(&prev);
	atomic_store(&c->cpu_s, atomic_load(&c->cpu_s) + (thread_cpu() - cpu0));
	atomic_fetch_add(&c->refreshes, 1);

	double after = mono_now();
	double fast = fast_wait(c);
	for (int p = 0; p < OC_PART_COUNT; p++)
		if (mask & OC_MASK(p)) {
			every[p] = (focus & OC_MASK(p))		 ? c->fast_s
				   : (focus & OC_MASK_MEDIUM(p)) ? c->medium_s
				   : (keep & OC_MASK(p))	 ? c->slow_s
								 : c->idle_s;
			due[p] = after + (every[p] == c->fast_s ? fast : every[p]);
		}
	return next;
}

/* Whether b shows what a shows: the same tables (a part that did not
 * change is the same table), the same errors and controllers; only when
 * it was taken differs. */
static bool snapshot_same_data(const struct oc_snapshot *a, const struct oc_snapshot *b)
{
	if (a->nodes != b->nodes || a->partitions != b->partitions || a->jobs != b->jobs ||
	    a->reservations != b->reservations || a->accounting != b->accounting || a->config != b->config ||
	    a->history != b->history || a->events != b->events || a->sched != b->sched || a->jobinfo != b->jobinfo)
		return false;
	if (strcmp(a->cluster, b->cluster) || strcmp(a->slurm_version, b->slurm_version) ||
	    strcmp(a->slurm_user, b->slurm_user) || oc_ctl_changed(&a->ctl, &b->ctl))
		return false;
	const struct oc_part_status *sa[] = {&a->hist_status, &a->ev_status, &a->sched_status, &a->jobinfo_status};
	const struct oc_part_status *sb[] = {&b->hist_status, &b->ev_status, &b->sched_status, &b->jobinfo_status};
	for (int p = 0; p < OC_PART_COUNT + 4; p++) {
		const struct oc_part_status *x = p < OC_PART_COUNT ? &a->status[p] : sa[p - OC_PART_COUNT];
		const struct oc_part_status *y = p < OC_PART_COUNT ? &b->status[p] : sb[p - OC_PART_COUNT];
		if (x->error_since != y->error_since || strcmp(x->error, y->error))
			return false;
	}
	return true;
}

/* With c->lock held: next (if any) becomes current and the front end is
 * woken through the pipe, unless next shows what the current one showed
 * (an unchanged refresh): the front end, which looks once a second,
 * takes it then, and an idle console draws one frame a second, not two
 * (docs/performance.md, P1w). */
static void collector_publish(struct oc_collector *c, struct oc_snapshot *next)
{
	if (next) {
		struct oc_snapshot *old = c->current;
		bool wake = !old || !snapshot_same_data(old, next);
		c->current = next;
		oc_snapshot_unref(&old);
		char one = 1;
		if (wake) {
			ssize_t w = write(c->pipe_wr, &one, 1); /* full pipe: a wake-up is pending anyway */
			(void)w;
		}
	}
}

/* With c->lock held (released meanwhile): loads the report and window
 * asked for on top of the current snapshot and publishes the result. Runs
 * when no part is due, so the views in focus are never held up by it
 * longer than one load. */
static void collector_report(struct oc_collector *c, enum oc_report kind)
{
	char since[sizeof(c->rep[0].since)], until[sizeof(c->rep[0].until)];
	memcpy(since, c->rep[kind].since, sizeof(since));
	memcpy(until, c->rep[kind].until, sizeof(until));
	struct oc_snapshot *prev = oc_snapshot_ref(c->current);
	pthread_mutex_unlock(&c->lock);
	double cpu0 = thread_cpu();
	atomic_store(&c->inflight_since, (long long)time(NULL));
	struct oc_snapshot *next = oc_collector_report_once(c->backend, kind, since, until, prev);
	if (next && kind == OC_REPORT_EVENTS)
		oc_collector_pclog(c->backend, c->platform, c->pclog, next);
	/* The scheduler view shows the controllers and slurmdbd hosts but no
	 * part, which are then due only at the slow interval: the ping goes
	 * with the view's own reload when it is due (a second early: the two
	 * share the medium interval, and a ping due just after a reload would
	 * wait for the next one). The view shows them: at the medium rate
	 * on a cluster with one controller too. */
	if (next && kind == OC_REPORT_SCHED && mono_now() + 1.0 >= c->pinged_at + c->medium_s) {
		struct oc_controllers ctl;
		if (ctl_ping(c->backend, next, &ctl)) {
			ping_done(c, &ctl);
			/* A failed sdiag says nothing of who is in control. */
			oc_ctl_judge(&ctl, &next->ctl, next->sched_status.error[0] ? -1 : 1, ctl_boot(next), time(NULL));
			next->ctl = ctl;
		}
	}
	atomic_store(&c->inflight_since, 0);
	oc_snapshot_unref(&prev);
	atomic_store(&c->cpu_s, atomic_load(&c->cpu_s) + (thread_cpu() - cpu0));
	pthread_mutex_lock(&c->lock);
	/* A report or window changed meanwhile stays due (set_report made it so). */
	if (strcmp(since, c->rep[kind].since) == 0 && strcmp(until, c->rep[kind].until) == 0)
		c->rep[kind].due = mono_now() + (kind == OC_REPORT_SCHED || kind == OC_REPORT_JOB ? c->medium_s : c->rep_period_s);
	collector_publish(c, next);
}

static void *collector_main(void *arg)
{
	struct oc_collector *c = arg;
	double due[OC_PART_COUNT], every[OC_PART_COUNT];
	double start = mono_now();
	for (int p = 0; p < OC_PART_COUNT; p++) {
		due[p] = start; /* everything at once */
		every[p] = c->slow_s;
	}

	pthread_mutex_lock(&c->lock);
	/* A view that shows no part (history, events, scheduler) asks for
	 * its report as soon as it is first drawn: wait for that (200 ms at
	 * most) so that the report comes before the parts it does not show. */
	bool asked = false;
	for (int k = 1; k < OC_REPORT_COUNT; k++)
		asked |= c->rep[k].on;
	if (!OC_FOCUS_PARTS(c->focus) && !asked && !c->quit) {
		struct timespec ts; /* c->wake waits on CLOCK_MONOTONIC */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 200000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&c->wake, &c->lock, &ts);
	}
	unsigned sched_focus = c->focus;
	bool first = true;
	while (!c->quit) {
		double now;
		unsigned mask = collector_due_mask(c, due, every, &sched_focus, &now);
		/* A report due goes before the parts the screen does not show
		 * (it is what the screen shows, or the node panel's). */
		enum oc_report due_rep = OC_REPORT_NONE;
		for (int k = 1; k < OC_REPORT_COUNT && !(mask & OC_FOCUS_PARTS(c->focus)) && !due_rep; k++)
			if (c->rep[k].on && now >= c->rep[k].due)
				due_rep = (enum oc_report)k;
		if (due_rep) {
			/* The parts asked for now (r, a form) come next. */
			c->now_parts |= mask;
			collector_report(c, due_rep);
			continue;
		}
		if (!mask) {
			collector_sleep(c, due, now);
			continue;
		}
		/* The first refresh loads what the screen shows, so that it is
		 * drawn without waiting for the rest (accounting may wait for
		 * slurmdbd); the other parts are still due and follow at once.
		 * The jobs index their nodes too, but the queue view does not
		 * show that: the nodes follow in the next refresh, which relinks
		 * the jobs held instead of loading the queue again. Loading the
		 * queue first also keeps the console's peak memory low: the node
		 * table is not resident yet while libslurm unpacks the queue. */
		if (first) {
			unsigned shown = OC_FOCUS_PARTS(c->focus);
			if (shown && (mask & shown))
				mask &= shown;
			first = false;
			/* The configuration (and the controllers' ping that
			 * waits for it) comes with the next refresh too. */
			mask |= OC_MASK_CONF_LATER;
		}
		/* Nodes and partitions go together: partitions index nodes. */
		if (mask & OC_MASK(OC_PART_PARTITIONS))
			mask |= OC_MASK(OC_PART_NODES);
		struct oc_snapshot *prev = oc_snapshot_ref(c->current);
		unsigned focus = c->focus, keep = collector_keep(c);
		/* r, or a write just applied: the small tables whole (the
		 * queue's changes are always marked). */
		bool full = c->full_requested;
		c->full_requested = false;
		pthread_mutex_unlock(&c->lock);
		if (full && c->backend->ops->invalidate)
			c->backend->ops->invalidate(c->backend, OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_PARTITIONS) |
									OC_MASK(OC_PART_RESV));

		struct oc_snapshot *next = collector_run(c, mask, prev, focus, keep, due, every);

		pthread_mutex_lock(&c->lock);
		collector_publish(c, next);
	}
	c->done = true;
	pthread_cond_broadcast(&c->done_cv);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

struct oc_collector *oc_collector_start(const struct oc_collector_config *cfg, char *err,
					size_t errlen)
{
	struct oc_backend *backend = cfg->backend;
	struct oc_collector *c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "out of memory");
		oc_backend_close(&backend);
		return NULL;
	}
	c->backend = backend;
	c->fast_s = cfg->fast_s > 0 ? cfg->fast_s : 2.0;
	c->slow_s = cfg->slow_s > 0 ? cfg->slow_s : c->fast_s * 10;
	c->medium_s = c->fast_s * 5 < c->slow_s ? c->fast_s * 5 : c->slow_s;
	c->idle_s = c->slow_s * OC_IDLE_FACTOR;
	c->focus = cfg->focus ? cfg->focus : OC_MASK_ALL;
	c->platform = cfg->platform;
	snprintf(c->pclog, sizeof(c->pclog), "%s", cfg->pclog ? cfg->pclog : "");
	c->rep_period_s = c->slow_s > 60 ? c->slow_s : 60;
	c->current = oc_snapshot_new();
	int fds[2];
	if (!c->current || pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "collector: %s", strerror(errno ? errno : ENOMEM));
		oc_snapshot_unref(&c->current);
		oc_backend_close(&c->backend);
		free(c);
		return NULL;
	}
	c->pipe_rd = fds[0];
	c->pipe_wr = fds[1];
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&c->done_cv, NULL);
	pthread_mutex_init(&c->lock, NULL);
	int rc = pthread_create(&c->thread, NULL, collector_main, c);
	if (rc != 0) {
		snprintf(err, errlen, "collector thread: %s", strerror(rc));
		close(c->pipe_rd);
		close(c->pipe_wr);
		oc_snapshot_unref(&c->current);
		oc_backend_close(&c->backend);
		free(c);
		return NULL;
	}
	return c;
}

struct oc_snapshot *oc_collector_current(struct oc_collector *c)
{
	pthread_mutex_lock(&c->lock);
	struct oc_snapshot *s = oc_snapshot_ref(c->current);
	pthread_mutex_unlock(&c->lock);
	return s;
}

void oc_collector_set_focus(struct oc_collector *c, unsigned mask)
{
	pthread_mutex_lock(&c->lock);
	if (c->focus != mask) {
		c->focus = mask;
		pthread_cond_signal(&c->wake);
	}
	pthread_mutex_unlock(&c->lock);
}

void oc_collector_set_report(struct oc_collector *c, enum oc_report kind, const char *since, const char *until)
{
	if (kind <= OC_REPORT_NONE || kind >= OC_REPORT_COUNT) {
		for (int k = 1; k < OC_REPORT_COUNT; k++)
			oc_collector_set_report(c, (enum oc_report)k, NULL, NULL);
		return;
	}
	pthread_mutex_lock(&c->lock);
	if (!until)
		until = "";
	bool on = since != NULL;
	if (on && (!c->rep[kind].on || strcmp(since, c->rep[kind].since) != 0 || strcmp(until, c->rep[kind].until) != 0)) {
		snprintf(c->rep[kind].since, sizeof(c->rep[kind].since), "%s", since);
		snprintf(c->rep[kind].until, sizeof(c->rep[kind].until), "%s", until);
		c->rep[kind].due = 0; /* now */
		pthread_cond_signal(&c->wake);
	}
	c->rep[kind].on = on;
	pthread_mutex_unlock(&c->lock);
}

void oc_collector_refresh_now(struct oc_collector *c)
{
	pthread_mutex_lock(&c->lock);
	for (int k = 1; k < OC_REPORT_COUNT; k++)
		c->rep[k].due = 0;
	c->now_requested = true;
	c->full_requested = true;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
}

void oc_collector_refresh_parts(struct oc_collector *c, unsigned mask)
{
	pthread_mutex_lock(&c->lock);
	c->now_parts |= mask & OC_MASK_ALL;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
}

int oc_collector_fd(const struct oc_collector *c)
{
	return c->pipe_rd;
}

void oc_collector_ack(struct oc_collector *c)
{
	char buf[64];
	while (read(c->pipe_rd, buf, sizeof(buf)) > 0)
		;
}

time_t oc_collector_inflight_since(const struct oc_collector *c)
{
	return (time_t)atomic_load(&((struct oc_collector *)c)->inflight_since);
}

void oc_collector_stats(const struct oc_collector *c, unsigned long *refreshes, double *cpu_s)
{
	struct oc_collector *m = (struct oc_collector *)c;
	if (refreshes)
		*refreshes = atomic_load(&m->refreshes);
	if (cpu_s)
		*cpu_s = atomic_load(&m->cpu_s);
}

bool oc_collector_stop(struct oc_collector **cp)
{
	struct oc_collector *c = cp ? *cp : NULL;
	if (!c)
		return true;
	*cp = NULL;
	pthread_mutex_lock(&c->lock);
	c->quit = true;
	pthread_cond_signal(&c->wake);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 500 * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (!c->done)
		if (pthread_cond_timedwait(&c->done_cv, &c->lock, &ts) == ETIMEDOUT)
			break;
	bool done = c->done;
	pthread_mutex_unlock(&c->lock);
	if (!done) {
		/* Stuck in a request to a hung controller: the process is about to
		 * exit, so leave the thread and its memory to it. */
		pthread_detach(c->thread);
		return false;
	}
	pthread_join(c->thread, NULL);
	close(c->pipe_rd);
	close(c->pipe_wr);
	oc_snapshot_unref(&c->current);
	oc_backend_close(&c->backend);
	pthread_cond_destroy(&c->wake);
	pthread_cond_destroy(&c->done_cv);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return true;
}
