/* views.h: what the screens show, computed from a snapshot without any
 * drawing: partition summaries, job and node rows with filter and sort. */
#ifndef OC_CORE_VIEWS_H
#define OC_CORE_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* A part a view shows but can take less fresh: refreshed at the medium
 * rate (five times the fast interval) while the view is on screen. */
#define OC_MASK_MEDIUM(part) (1u << (16 + (part)))
/* A part a view neither shows nor refreshes at a faster rate but reads
 * (a panel it opens, a check it runs): refreshed at the slow rate. The
 * parts a view neither shows nor reads follow at the idle rate (ten times
 * the slow interval: OC_IDLE_FACTOR); a view that shows no part (the reports: a node's panel
 * opens from the events) takes them all at the slow rate. */
#define OC_MASK_SLOW(part) (1u << (24 + (part)))
/* The parts (OC_MASK bits) of a focus, fast or medium. */
#define OC_FOCUS_PARTS(f) (((f) | ((f) >> 16)) & OC_MASK_ALL)

/* The parts each view shows, refreshed at the fast rate while it is on
 * screen (the others follow at the slow or idle rate): fewer requests per
 * tick. */
#define OC_FOCUS_PARTITIONS                                                                                \
	(OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS) | OC_MASK_SLOW(OC_PART_RESV))
/* The queue shows the jobs and reads the partitions only for the hidden
 * ones: the others come at the idle rate (a job's panel takes them at
 * the slow rate while it is open: collector.c). */
#define OC_FOCUS_QUEUE (OC_MASK(OC_PART_JOBS))
/* A node's panel lists its jobs, reservations and partitions. */
#define OC_FOCUS_NODES                                                                                     \
	(OC_MASK(OC_PART_NODES) | OC_MASK_SLOW(OC_PART_JOBS) | OC_MASK_SLOW(OC_PART_RESV) |                \
	 OC_MASK_SLOW(OC_PART_PARTITIONS))
/* Quota: use against limits comes live from the association manager (a
 * small request); the jobs (pending GPUs, jobs on a limit) are a full
 * queue load whenever anything changed, so they follow at the medium rate. */
#define OC_FOCUS_QUOTA (OC_MASK(OC_PART_ACCT) | OC_MASK_MEDIUM(OC_PART_JOBS) | OC_MASK_SLOW(OC_PART_PARTITIONS))

/* One line of the partitions overview (sinfo-style counts). */
struct oc_part_row {
	uint32_t part;            /* index in the snapshot's partition table */
	uint32_t nodes;
	uint32_t alloc, mix, idle, drain, down, power, other;
	uint32_t gpus_total, gpus_alloc;
	uint32_t jobs_running, jobs_pending;
};

/* Summaries of the partitions in table order, hidden ones only when
 * show_hidden. Returns the number of rows and sets *rows to a malloc'd
 * array the caller frees (NULL when none); -1 on ENOMEM. */
long oc_part_rows(const struct oc_snapshot *s, bool show_hidden, struct oc_part_row **rows);

/* Whether a job is still in the queue as squeue lists it by default:
 * pending, running, suspended or completing. */
bool oc_job_active(const struct oc_job *j);

/* Whether job j may run in partition part (pending jobs carry a comma list). */
bool oc_job_in_partition(const struct oc_job *j, const char *part);

/* Whether a partition of that name exists and may be listed (hidden ones
 * only with show_hidden). */
bool oc_partition_visible(const struct oc_partitions *t, const char *name, bool show_hidden);

enum oc_job_sort {
	OC_JOB_SORT_DEFAULT = 0, /* running first, then pending by priority, then id */
	OC_JOB_SORT_ID,
	OC_JOB_SORT_USER,
	OC_JOB_SORT_ACCOUNT,
	OC_JOB_SORT_PARTITION,
	OC_JOB_SORT_STATE,
	OC_JOB_SORT_TIME,
	OC_JOB_SORT_GPUS,
	OC_JOB_SORT_PRIORITY,
	OC_JOB_SORT_COUNT,
};

/* Indexes of the jobs to list: active ones (oc_job_active) in partition part (NULL = all), matching
 * filter (case-insensitive substring of id, name, user, account,
 * partition, QoS, state, reason or nodes; NULL/"" = all), sorted.
 * Hidden partitions' jobs are left out unless show_hidden or part names
 * them. out must hold jobs->n entries. Returns the count. */
size_t oc_job_rows(const struct oc_snapshot *s, const char *part, const char *filter,
		   enum oc_job_sort sort, bool desc, bool show_hidden, uint32_t *out, time_t now);

enum oc_node_sort {
	OC_NODE_SORT_NAME = 0,   /* natural order: b300-2 before b300-10 */
	OC_NODE_SORT_STATE,
	OC_NODE_SORT_REASON,
	OC_NODE_SORT_GPUS,
	OC_NODE_SORT_COUNT,
};

/* Indexes of the nodes to list, filtered (name, state, reason, reason
 * user, partitions) and sorted. out must hold nodes->n entries. Returns
 * the count. */
size_t oc_node_rows(const struct oc_nodes *t, const char *filter, enum oc_node_sort sort,
		    bool desc, uint32_t *out);

/* Natural comparison: digit runs compare as numbers. */
int oc_natcmp(const char *a, const char *b);

/* Case-insensitive substring test; an empty or NULL needle matches. */
bool oc_contains_ci(const char *hay, const char *needle);

#endif
