/* health.h: what the health view lists, computed from a snapshot without
 * any drawing: node counts per health group, and the nodes that need
 * attention grouped by where their reason comes from (core/reason.h). */
#ifndef OC_CORE_HEALTH_H
#define OC_CORE_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "core/reason.h"
#include "core/state.h"

/* The source of a listed node without a reason (a node down or draining
 * with no reason text): after the sources of core/reason.h. */
#define OC_HEALTH_NO_REASON OC_RS_COUNT

/* A row of the list: a group header (a source and how many nodes it has)
 * or one node of the group above it. */
struct oc_health_row {
	bool group;
	int source;        /* enum oc_reason_source, or OC_HEALTH_NO_REASON */
	uint32_t node;     /* index in the snapshot's node table (node rows) */
	uint32_t count;    /* nodes of the group (group rows) */
};

/* The rows of snapshot s: every node that is not OK (draining, drained,
 * down, not responding) or that has a reason, grouped by source in the
 * order health check, manual, slurm, other, no reason; in a group by
 * reason, then by name in natural order. Power saving without a reason is
 * normal for dynamic nodes: counted, not listed. Counts every node per
 * health group in by_health. Sets *rows to a malloc'd array the caller
 * frees with free() (NULL when none) and *nodes to the number of node rows
 * (the findings). Returns the number of rows, or -1 on ENOMEM. */
long oc_health_rows(const struct oc_snapshot *s, struct oc_health_row **rows,
		    uint32_t by_health[OC_HEALTH_COUNT], size_t *nodes);

/* Power saving in one partition: its nodes per power state, as sinfo's
 * suffixes show them ('~' powered down, '#' powering up, '%' powering
 * down, '!' power down pending) and its failed resumes. */
struct oc_power_part {
	const char *partition; /* borrowed from the snapshot */
	uint32_t powered_down, powering_up, powering_down, down_pending, resume_failed;
};

/* The partitions of snapshot s that have a node in one of those states,
 * in the partition table's order (a node counts in each of its
 * partitions). Sets *out to a malloc'd array the caller frees with free()
 * (NULL when none). Returns the count, or -1 on ENOMEM. */
long oc_health_power_parts(const struct oc_snapshot *s, struct oc_power_part **out);

/* One partition's line: "cloud: 2 powered down, 1 failed resume". */
void oc_health_power_text(const struct oc_power_part *p, char *buf, size_t len);

/* A source's name as a column shows it: "health check", "manual",
 * "slurm", "other", "no reason". Static. */
const char *oc_health_source_name(int source);

/* A listed node's reason, or its health group's name when it has none
 * ("drained"). Static or borrowed from the node. */
const char *oc_health_reason_text(const struct oc_node *n);

#endif
