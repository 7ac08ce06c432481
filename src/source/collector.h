/* collector.h: the thread that owns all Slurm I/O. It refreshes the parts
 * the screen shows at the fast interval, those it reads at the slow one
 * and the others at the idle one (OC_IDLE_FACTOR times the slow), and publishes
 * immutable snapshots. The UI thread only takes references
 * to published snapshots: it never waits on Slurm. */
#ifndef OC_SOURCE_COLLECTOR_H
#define OC_SOURCE_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/model.h"
#include "source/source.h"

struct oc_collector;

/* The idle interval (the parts the view neither shows nor reads) in slow
 * intervals: 300 s by default. A view that comes on screen, a job's
 * panel and a form ask for what they need at once (collector.c), so what
 * is not on screen need not be polled; that it is at all keeps a view
 * switch from painting data older than a few minutes before its refresh
 * lands (docs/performance.md, P1q). */
#define OC_IDLE_FACTOR 10

/* The fast parts are asked for on the screen's clock: OC_FAST_LEAD_S
 * before the whole second its next step shows (screen.c steps on
 * multiples of 2 s, or of 1 s with a fast interval under 2), so that the
 * frame of that step follows the request while the CPU is still warm:
 * after two idle seconds a request costs about twice what it costs right
 * after other work, and so does a frame (docs/performance.md, "The fast
 * refresh on the screen's clock"). */
#define OC_FAST_LEAD_S 0.05

/* Seconds from realtime rt to the next fast refresh: lead before the next
 * multiple of every that is at least every / 2 away (one interval apart
 * once in step), when every is a whole number of seconds and lead under
 * half of it; else every itself. */
double oc_collector_fast_wait(double rt, double every, double lead);

struct oc_collector_config {
	struct oc_backend *backend; /* taken over by the collector */
	double fast_s;              /* interval for the parts in focus (default 2) */
	double slow_s;              /* interval for the parts read, not shown (default 10 x fast);
	                               the others at OC_IDLE_FACTOR times it */
	unsigned focus;             /* OC_MASK() bits fetched at the fast rate,
	                               OC_MASK_MEDIUM() bits at five times it,
	                               OC_MASK_SLOW() bits at the slow rate */
	int platform;               /* the profile's (enum oc_platform, UNKNOWN: detect) */
	const char *pclog;          /* ParallelCluster's clustermgtd log ("" or NULL: the default) */
};

/* On ParallelCluster (setting, else detected from next's configuration):
 * the lines of the clustermgtd log at path (NULL or "": core/pclog.h's
 * default) in next->events' window that name nodes, into next->events
 * (a table this load made: not one shared with the previous snapshot).
 * Read through the backend (the head node's file). Nothing elsewhere. */
void oc_collector_pclog(struct oc_backend *b, int setting, const char *path, struct oc_snapshot *next);

/* Start the collector thread; it refreshes everything at once. Takes over
 * cfg->backend (also on failure). Returns NULL with err set on failure.
 * Stop with oc_collector_stop(). */
struct oc_collector *oc_collector_start(const struct oc_collector_config *cfg, char *err,
					size_t errlen);

/* The newest snapshot, as a new reference the caller drops with
 * oc_snapshot_unref(). Never NULL: before the first refresh it is an empty
 * snapshot with seq 0. */
struct oc_snapshot *oc_collector_current(struct oc_collector *c);

/* Which parts the screen shows now: OC_MASK() bits fetched at the fast
 * rate, OC_MASK_MEDIUM() bits (core/views.h) at five times the fast
 * interval, OC_MASK_SLOW() bits at the slow one, the others at the idle
 * one; parts that come into focus are fetched at once. */
void oc_collector_set_focus(struct oc_collector *c, unsigned mask);

/* Load a report for [since, until] (time specs of core/timespec.h, until
 * NULL or "" = now): the history (the jobs that ended) or the node
 * events, now and then every minute (or the slow interval when longer),
 * between refreshes. Each report has its own window. since NULL: stop
 * loading that report; OC_REPORT_NONE: stop loading both (the last
 * tables stay in the snapshots). A changed window is loaded at once. */
void oc_collector_set_report(struct oc_collector *c, enum oc_report kind, const char *since, const char *until);

/* Fetch every part now (and the report, when one is loaded). */
void oc_collector_refresh_now(struct oc_collector *c);

/* Fetch the parts in mask now, each asked with its last_update as at any
 * refresh (a form opened: its choices and checks read parts the view may
 * hold at the idle rate). */
void oc_collector_refresh_parts(struct oc_collector *c, unsigned mask);

/* A file descriptor that becomes readable when a snapshot is published;
 * call oc_collector_ack() to drain it. */
int oc_collector_fd(const struct oc_collector *c);
void oc_collector_ack(struct oc_collector *c);

/* When a request to the cluster has been in flight since (wall clock), or
 * 0 when the collector is idle. */
time_t oc_collector_inflight_since(const struct oc_collector *c);

/* Statistics: refreshes done, and CPU seconds the collector thread used. */
void oc_collector_stats(const struct oc_collector *c, unsigned long *refreshes, double *cpu_s);

/* Stop the thread and free everything; clears *c. If the thread is stuck in
 * a request to a hung controller (or in a long command over SSH) it is
 * left to die with the process: returns false then, and what it uses (the
 * transport) must not be freed. true when it stopped. */
bool oc_collector_stop(struct oc_collector **c);

/* Script mode: the controllers s's configuration names, pinged over b,
 * into s->ctl (core/ctl.h); data_ok: whether the requests that made s
 * worked (1), failed (0). */
void oc_collector_ping_once(struct oc_backend *b, struct oc_snapshot *s, int data_ok);

/* One refresh without a thread, for benchmarks and script mode: builds the
 * next snapshot from prev (may be NULL) for the parts in mask. Returns a
 * new snapshot (one reference) or NULL on ENOMEM. */
struct oc_snapshot *oc_collector_refresh_once(struct oc_backend *b, unsigned mask,
					      const struct oc_snapshot *prev);

/* One report load without a thread (script mode, tests): a new snapshot
 * with prev's tables (prev may be NULL) and the history (or the events)
 * of [since, until] (next->hist_status or ev_status says how it went).
 * NULL on ENOMEM. */
struct oc_snapshot *oc_collector_report_once(struct oc_backend *b, enum oc_report kind, const char *since,
					     const char *until, const struct oc_snapshot *prev);

#endif
