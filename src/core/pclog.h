/* pclog.h: ParallelCluster's clustermgtd log, read for what the platform
 * did to nodes. clustermgtd (on the head node, as root) writes
 * /var/log/parallelcluster/clustermgtd in Python's logging format:
 *
 *   2026-12-01 08:15:02,481 - [slurm_plugin.clustermgtd:_handle_unhealthy_static_nodes] - INFO - \
 *     Found the following unhealthy static nodes: (x1) ['queue1-st-b300-12(10.0.1.12)']
 *
 * Lines that name a node (QUEUE-st-TYPE-N or QUEUE-dy-TYPE-N) are kept;
 * the rest (its loop's heartbeat) is not. Pure. */
#ifndef OC_CORE_PCLOG_H
#define OC_CORE_PCLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/arena.h"
#include "core/model.h"

/* Where clustermgtd writes on a ParallelCluster head node. */
#define OC_PCLOG_DEFAULT "/var/log/parallelcluster/clustermgtd"

/* The lines of text (len bytes, the log's tail: a first partial line is
 * skipped) logged in [since, until] (local time, as the log writes it)
 * that name a ParallelCluster node, in the log's order, into *out (n
 * entries, strings in a). Lines not in the format are skipped and
 * counted in *skipped (may be NULL). Returns 0, -1 on ENOMEM. */
int oc_pclog_parse(const char *text, size_t len, time_t since, time_t until, struct oc_arena *a,
		   struct oc_pclog_line **out, size_t *n, size_t *skipped);

/* Whether line text names node as a whole name (not a prefix of
 * "gpu-st-b300-12" in "gpu-st-b300-125"). */
bool oc_pclog_names(const char *text, const char *node);

#endif
