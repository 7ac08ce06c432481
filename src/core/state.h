/* state.h: node and job states as Slurm's own tools print them. */
#ifndef OC_CORE_STATE_H
#define OC_CORE_STATE_H

#include <stddef.h>

#include "core/model.h"

/* sinfo's short state (%t): "idle", "alloc", "mix", "down", "drain",
 * "drng", "comp", "fail", "failg", "maint", "boot", "inval", "resv",
 * "block" (24.05+), "plnd", "futr", "unk", with one suffix when it
 * applies: '*' not responding, '~' powered down, '#' powering up,
 * '%' powering down, '!' power down pending, '@' reboot requested,
 * '^' reboot issued, '-' planned, '$' maintenance. Then '?' when the node
 * has a flag the console has no name for (oc_node.other_flags).
 * Writes into buf (always NUL terminated); returns buf. */
const char *oc_node_state_compact(const struct oc_node *n, char *buf, size_t len);

/* scontrol's long state: "IDLE+DRAIN+NOT_RESPONDING", "IDLE+CLOUD+POWERED_DOWN",
 * then other_flags as they came ("IDLE+FOO").
 * Writes into buf (always NUL terminated); returns buf. */
const char *oc_node_state_long(const struct oc_node *n, char *buf, size_t len);

/* Health group of a node, the order in which the console lists them. */
enum oc_health {
	OC_HEALTH_OK = 0,
	OC_HEALTH_DRAINING,
	OC_HEALTH_DRAINED,
	OC_HEALTH_DOWN,
	OC_HEALTH_NOT_RESPONDING,
	OC_HEALTH_POWER,        /* powered down / powering up or down */
	OC_HEALTH_RESUME_FAILED, /* a power-saving node whose resume failed: DOWN and
	                            powered down, or "ResumeTimeout reached" */
	OC_HEALTH_COUNT,
};
/* The health group of n. */
enum oc_health oc_node_health(const struct oc_node *n);
/* "ok", "draining", "drained", "down", "not responding", "power saving",
 * "failed resume". Static. */
const char *oc_health_name(enum oc_health h);

/* "PENDING", "RUNNING", ... (static string). */
const char *oc_job_state_name(enum oc_job_state s);
/* squeue's %t: "PD", "R", "S", "CG", "CD", "CA", "F", "TO", "NF", "PR",
 * "BF", "DL", "OOM"; "CG" whenever the completing flag is set. Static. */
const char *oc_job_state_compact(const struct oc_job *j);

/* Minutes as Slurm prints a time limit: "30:00", "1-00:00:00",
 * "UNLIMITED" for OC_NONE. Writes into buf; returns buf. */
const char *oc_format_minutes(uint32_t minutes, char *buf, size_t len);
/* Seconds as squeue prints a run time: "0:05", "1:02:03", "2-01:00:00".
 * Negative values print as "0:00". Writes into buf; returns buf. */
const char *oc_format_duration(long long seconds, char *buf, size_t len);
/* A short age: "5s", "3m", "2h", "4d". Writes into buf; returns buf. */
const char *oc_format_age(long long seconds, char *buf, size_t len);

#endif
