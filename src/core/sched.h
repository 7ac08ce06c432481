/* sched.h: slurmctld's statistics (what `sdiag` shows) as the scheduler
 * view and script mode list them, with what is unusual marked, and the
 * names of RPC message types for the libslurm backend. Pure. */
#ifndef OC_CORE_SCHED_H
#define OC_CORE_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/model.h"

/* The name sdiag prints for an RPC message type, NULL when this table
 * does not have it. libslurm does not export Slurm's own table
 * (rpc_num2string): this one holds the message types a cluster's
 * clients and daemons send most; cluster.sched checks its names against
 * sdiag's on every Slurm major CI runs. */
const char *oc_rpc_name(uint32_t id);

/* One line of the scheduler view. */
struct oc_sched_row {
	const char *group;    /* "server", "jobs", "main", "backfill", "rpc type", "rpc user", "pending rpc" */
	char item[64];        /* "agent queue", "REQUEST_JOB_INFO (2003)" */
	char value[96];       /* "3", "count 117  ave 412 us  total 48.3 ms" */
	double number;        /* the value as a number (count for RPCs) */
	bool unusual;
	char note[128];       /* why it is unusual, "" when not */
};

/* The rows of the controllers ctl (groups "slurmctld" and "slurmdbd":
 * each host, whether it answers, is in control or standby, since when;
 * NULL for none) and of s (NULL for none) into *rows (malloc'd, the
 * caller frees). Returns how many, -1 on ENOMEM. RPC types and users by
 * count, the most first. */
long oc_sched_rows(const struct oc_sched *s, const struct oc_controllers *ctl, time_t now,
		   struct oc_sched_row **rows);

#endif
