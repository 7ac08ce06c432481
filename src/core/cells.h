/* cells.h: the text of table cells that both the screen (src/ui/views/)
 * and script mode (core/script.c) show, so that one copy decides how a
 * partition's state, a job's id or node list, a node's partitions and
 * reservation, a reservation's state and a team's quota read. No drawing. */
#ifndef OC_CORE_CELLS_H
#define OC_CORE_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/model.h"
#include "core/quota.h"

/* A partition's availability as sinfo's AVAIL: "up", "drain", "inact" or
 * "down". Static. */
const char *oc_cells_part_avail(uint32_t part_flags);

/* A job's id as squeue prints it: "123", or "120_3" for an array task.
 * Writes into buf; returns buf. */
const char *oc_cells_job_id(const struct oc_job *j, char *buf, size_t len);

/* squeue's NODELIST(REASON): the allocated nodes, or "(Reason)" for a
 * pending job or one without nodes ("(None)" without a reason). Writes
 * into buf; returns buf. */
const char *oc_cells_job_where(const struct oc_job *j, char *buf, size_t len);

/* Seconds a job has run at now: 0 when pending or not started, up to its
 * end for a job that is no longer running. */
long long oc_cells_job_run_seconds(const struct oc_job *j, time_t now);

/* When a node's reason was set, local time "MM-DD HH:MM"; "" without a
 * reason or time. Writes into buf; returns buf. */
const char *oc_cells_reason_since(const struct oc_node *n, char *buf, size_t len);

/* How long ago a node's reason was set ("5m", "2d"); "" without a reason
 * or time. Writes into buf; returns buf. */
const char *oc_cells_reason_ago(const struct oc_node *n, time_t now, char *buf, size_t len);

/* Per node of a snapshot: the partitions it is in (comma separated,
 * hidden ones only when asked) and the reservation it is in (an active one
 * wins over a future one), NULL when none. slurmctld does not send a
 * node's partitions with the node. */
struct oc_node_places {
	char (*parts)[64];    /* parts[i]: the partitions of node i, "" when none */
	const char **resv;    /* resv[i]: a name borrowed from the snapshot, or NULL */
	size_t n, cap;        /* n = nodes of the last fill */
};

/* Fill p for snapshot s at time now (p starts zeroed; refilling reuses
 * its memory). The names borrow from s: keep s while p is used. Returns
 * 0, or -1 on ENOMEM (p then has n == 0). */
int oc_node_places_fill(struct oc_node_places *p, const struct oc_snapshot *s, bool show_hidden, time_t now);

/* Free what p holds and zero it. Returns nothing. */
void oc_node_places_free(struct oc_node_places *p);

/* A reservation's state at now: "future", "ACTIVE" or "ended". Static. */
const char *oc_cells_resv_state(const struct oc_reservation *r, time_t now);

/* Whether a reservation is "infinite" (Slurm ends those about a year
 * after their start). */
bool oc_cells_resv_endless(const struct oc_reservation *r);

/* A reservation time as the view shows it: local "MM-DDTHH:MM". Writes
 * into buf; returns buf. */
const char *oc_cells_resv_time(time_t t, char *buf, size_t len);

/* A reservation's end ("infinite" for an endless one) and its duration
 * ("UNLIMITED" for an endless one). Write into buf; return buf. */
const char *oc_cells_resv_end(const struct oc_reservation *r, char *buf, size_t len);
const char *oc_cells_resv_duration(const struct oc_reservation *r, char *buf, size_t len);

/* When a reservation ends, for a sentence: "until deleted" for an endless
 * one (the runbook's duration=infinite), else "until " and its local end
 * "YYYY-MM-DD HH:MM". Writes into buf; returns buf. */
const char *oc_cells_resv_until(const struct oc_reservation *r, char *buf, size_t len);

/* t as a local "YYYY-MM-DD HH:MM", for a sentence. Writes into buf;
 * returns buf. */
const char *oc_cells_local_minute(time_t t, char *buf, size_t len);

/* An account's GPUs as "used/limit", "used/NONE" without a GPU limit.
 * Writes into buf; returns buf. */
const char *oc_cells_quota_gpus(const struct oc_quota_row *r, char *buf, size_t len);

/* The bar of used GPUs against the row's GPU limit: "[####......] 40%"
 * (10 cells); without a GPU limit "no GPU limit!" for an account row
 * (account true) and "" for a user row. buf needs 18 bytes, else it is
 * left as it is. Returns buf. */
const char *oc_cells_quota_bar(const struct oc_quota_row *r, uint64_t used, bool account, char *buf,
			       size_t len);

/* "N jobs on limit" when blocked > 0, then for an account row (r not
 * NULL) the other GrpTRES limits that are set ("cpu 576/1000; mem
 * 1125G/2000G; node 3/4"). Writes into buf; returns buf. */
const char *oc_cells_quota_blocked(uint32_t blocked, const struct oc_quota_row *r, char *buf, size_t len);

#endif
