/* source.h: where snapshots come from. A backend fills the tables of a new
 * snapshot from the cluster, reusing the previous snapshot's tables for
 * parts that did not change. Backends are called from the collector thread
 * only; nothing here touches the screen. */
#ifndef OC_SOURCE_SOURCE_H
#define OC_SOURCE_SOURCE_H

#include <stddef.h>

#include "core/model.h"

struct oc_backend;

struct oc_backend_ops {
	const char *name;
	/* Fill next's tables for the parts in mask. For each part: a new table
	 * when the data changed, a new reference to prev's table when the
	 * cluster said "no change" (or when the request failed: the old data
	 * stays, marked by next->status[part].error). Parts not in mask are
	 * copied from prev by the caller beforehand. Also sets next->cluster
	 * and next->slurm_version when known. Returns the number of parts that
	 * failed. */
	int (*refresh)(struct oc_backend *b, unsigned mask,
		       const struct oc_snapshot *prev, struct oc_snapshot *next);
	/* Load the jobs that ended in [since, until] (time specs of
	 * core/timespec.h, until "" = now; what `sacct -a -X` lists) into
	 * next->history and next->hist_status. On failure next keeps the
	 * table it has (prev's) and the status says why. NULL when the
	 * backend has no history (a recorded snapshot). Returns 0 or -1. */
	int (*history)(struct oc_backend *b, const char *since, const char *until, struct oc_snapshot *next);
	/* The same for the node events that overlap [since, until] (what
	 * `sacctmgr show event` lists) into next->events and next->ev_status. */
	int (*events)(struct oc_backend *b, const char *since, const char *until, struct oc_snapshot *next);
	/* slurmctld's statistics (what `sdiag` shows) into next->sched and
	 * next->sched_status; since and until are not used. */
	int (*sched)(struct oc_backend *b, const char *since, const char *until, struct oc_snapshot *next);
	/* One job in full (the job panel) into next->jobinfo and
	 * next->jobinfo_status; since is the job id in decimal, until is
	 * not used. Each source (slurmctld, sprio, slurmdbd) that fails is
	 * said in the table; the status fails only when none answered. */
	int (*job)(struct oc_backend *b, const char *since, const char *until, struct oc_snapshot *next);
	/* Ask every controller of c (c->n slurmctld and c->ndbd slurmdbd,
	 * named by the configuration, core/ctl.h) whether it answers: each
	 * entry's state UP or DOWN, UNKNOWN where this source cannot ask (a
	 * slurmdbd before Slurm 24.11), and c->error set ("" cleared) when
	 * it could not look at all. NULL when the source has no controllers
	 * (a recorded snapshot). */
	void (*ping)(struct oc_backend *b, struct oc_controllers *c);
	/* Load the parts of mask whole at the next refresh, not as changes
	 * since the last load (after a write, and on `r`: slurmctld does not
	 * mark every change). NULL when every load is whole. */
	void (*invalidate)(struct oc_backend *b, unsigned mask);
	/* The last max bytes of a file on the head node (the clustermgtd
	 * log) into *buf (malloc'd, NUL-terminated, *len bytes). Returns 0,
	 * 1 when there is no such file, -1 with err. NULL: read it on this
	 * machine (the source runs on the head node). */
	int (*read_tail)(struct oc_backend *b, const char *path, size_t max, char **buf, size_t *len, char *err,
			 size_t errlen);
	/* Free the backend. */
	void (*close)(struct oc_backend *b);
};

struct oc_backend {
	const struct oc_backend_ops *ops;
};

/* Open the libslurm backend. slurm_conf: path of slurm.conf or NULL/"" for
 * libslurm's default (which also covers configless clusters). Must be
 * called before the screen is set up: libslurm may print and exit on a
 * broken configuration. Returns NULL with a message in err on failure.
 * Free with oc_backend_close(). */
struct oc_backend *oc_slurm_backend_open(const char *slurm_conf, char *err, size_t errlen);

/* The Slurm version the program was built against, e.g. "22.05.8". Static. */
const char *oc_slurm_build_version(void);

/* Of the parts marked for a full fetch (need_full: their node indexes may
 * be stale), those to fetch now besides mask: all, except a part neither
 * asked for nor ever fetched (it has no indexes to go stale). Shared by
 * the backends. */
unsigned oc_backend_refetch(unsigned need_full, unsigned mask, const struct oc_snapshot *prev);

struct oc_node_index;

/* How a backend resolves a hostlist against a node index (libslurm's
 * hostlist or core/hostlist.c): sets *idx (in a) and *count. 0, -1 on ENOMEM. */
typedef int (*oc_resolve_nodes_fn)(struct oc_arena *a, const char *nodes, struct oc_node_index *ix,
				   uint32_t **idx, uint32_t *count);

/* After the node layout changed: a copy of jobs whose node indexes refer
 * to the node table of ix, without asking Slurm for the queue again. The
 * copy shares the strings of jobs (and keeps them alive). NULL on ENOMEM. */
struct oc_jobs *oc_jobs_relink(struct oc_jobs *jobs, struct oc_node_index *ix, oc_resolve_nodes_fn resolve);

/* For a refresh in which the node layout changed: the jobs of next, unless
 * they were loaded in this refresh (against the new table), relinked. The
 * backends ask Slurm again for the small indexed parts (partitions,
 * reservations) but not for the queue. Returns 0, -1 on ENOMEM (next keeps
 * its jobs: the caller loads them in full next time). */
int oc_backend_relink_jobs(const struct oc_snapshot *prev, struct oc_snapshot *next, struct oc_node_index *ix,
			   oc_resolve_nodes_fn resolve);

/* Close a backend of any kind and clear *b. */
void oc_backend_close(struct oc_backend **b);

#endif
