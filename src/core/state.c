/* state.c: node and job states, time limits and durations as Slurm's own
 * tools (sinfo, scontrol, squeue) print them. */
#include "core/state.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Copies s into buf (truncating, always NUL terminated when len > 0).
 * Returns buf. */
static const char *state_copy(char *buf, size_t len, const char *s)
{
	if (buf && len > 0)
		snprintf(buf, len, "%s", s);
	return buf;
}

/* True when the node is running (or finishing) jobs: the base state is
 * allocated or mixed, or the completing flag is set. */
static bool state_node_busy(const struct oc_node *n)
{
	return n->base == OC_NODE_ALLOCATED || n->base == OC_NODE_MIXED ||
	       (n->flags & OC_NF_COMPLETING);
}

/* The single suffix sinfo appends to a compact state, '\0' for none.
 *
 * Precedence as in Slurm's node_state_string_compact() (22.05 up to 26.x),
 * highest first: '$' maintenance, '^' reboot issued, '@' reboot requested,
 * '#' powering up, '%' powering down, '~' powered down, '!' power down
 * pending, '*' not responding. So a powered down cloud node that does not
 * answer prints "idle~", as sinfo shows it, not "idle*". '-' (planned) is
 * only ever printed after "mix" and is handled by the caller. */
static char state_suffix(uint32_t f)
{
	if (f & OC_NF_MAINT)
		return '$';
	if (f & OC_NF_REBOOT_ISSUED)
		return '^';
	if (f & OC_NF_REBOOT_REQUESTED)
		return '@';
	if (f & OC_NF_POWERING_UP)
		return '#';
	if (f & OC_NF_POWERING_DOWN)
		return '%';
	if (f & OC_NF_POWERED_DOWN)
		return '~';
	if (f & OC_NF_POWER_DOWN_PENDING)
		return '!';
	if (f & OC_NF_NOT_RESPONDING)
		return '*';
	return '\0';
}

/* Writes word and an optional suffix character into buf. Returns buf. */
static const char *state_word(char *buf, size_t len, const char *word, char suffix)
{
	if (!buf || len == 0)
		return buf;
	if (suffix)
		snprintf(buf, len, "%s%c", word, suffix);
	else
		snprintf(buf, len, "%s", word);
	return buf;
}

/* The compact word and suffix of a node, following the order of Slurm's
 * node_state_string_compact(): invalid registration, maintenance and
 * reboot (which replace the base word on idle/down nodes), drain, fail,
 * then the base state. */
static const char *state_compact(const struct oc_node *n, char *buf, size_t len)
{

	uint32_t f = n->flags;
	bool busy_base = n->base == OC_NODE_ALLOCATED || n->base == OC_NODE_MIXED;
	bool no_resp = f & OC_NF_NOT_RESPONDING;

	if (f & OC_NF_INVALID_REG)
		return state_copy(buf, len, "inval");
	if (n->base == OC_NODE_UNKNOWN && f == OC_NF_PLANNED)
		return state_copy(buf, len, "plnd");
	if (n->base == OC_NODE_UNKNOWN && f == OC_NF_RESERVED)
		return state_copy(buf, len, "resv");

	/* Maintenance replaces the word unless the node is drained, busy or
	 * down; then it is the '$' suffix of that word. */
	if ((f & OC_NF_MAINT) && !(f & OC_NF_DRAIN) && !busy_base && n->base != OC_NODE_DOWN)
		return state_word(buf, len, "maint", no_resp ? '*' : '\0');

	/* A reboot of a node without jobs shows as "boot"; with jobs it is
	 * the '@' / '^' suffix. */
	if ((f & (OC_NF_REBOOT_REQUESTED | OC_NF_REBOOT_ISSUED)) && !busy_base) {
		if (f & OC_NF_REBOOT_ISSUED)
			return state_word(buf, len, "boot", '^');
		return state_word(buf, len, "boot", no_resp ? '*' : '\0');
	}

	if (f & OC_NF_DRAIN)
		return state_word(buf, len, state_node_busy(n) ? "drng" : "drain", state_suffix(f));

	if (f & OC_NF_FAIL)
		return state_word(buf, len, state_node_busy(n) ? "failg" : "fail", no_resp ? '*' : '\0');

	switch (n->base) {
	case OC_NODE_DOWN:
		return state_word(buf, len, "down", state_suffix(f));
	case OC_NODE_ALLOCATED: {
		char s = state_suffix(f);
		if (!s && (f & OC_NF_COMPLETING))
			s = '+';
		return state_word(buf, len, "alloc", s);
	}
	default:
		break;
	}
	if (f & OC_NF_COMPLETING)
		return state_word(buf, len, "comp", state_suffix(f));

	switch (n->base) {
	case OC_NODE_IDLE: {
		char s = state_suffix(f);
		if (s)
			return state_word(buf, len, "idle", s);
		if (f & OC_NF_RESERVED)
			return state_copy(buf, len, "resv");
		if (f & OC_NF_BLOCKED) /* 24.05 and later */
			return state_copy(buf, len, "block");
		if (f & OC_NF_PLANNED)
			return state_copy(buf, len, "plnd");
		return state_copy(buf, len, "idle");
	}
	case OC_NODE_MIXED: {
		char s = state_suffix(f);
		if (!s && (f & OC_NF_PLANNED))
			s = '-';
		return state_word(buf, len, "mix", s);
	}
	case OC_NODE_FUTURE:
		return state_word(buf, len, "futr", state_suffix(f));
	case OC_NODE_UNKNOWN:
	default:
		return state_word(buf, len, "unk", no_resp ? '*' : '\0');
	}
}

/* sinfo's word, then '?' when the node has a state flag the console has
 * no name for (other_flags): sinfo of the cluster's release would print
 * something this table does not know, so the state is not shown as if it
 * were plain. */
const char *oc_node_state_compact(const struct oc_node *n, char *buf, size_t len)
{
	if (!n)
		return state_copy(buf, len, "unk");
	state_compact(n, buf, len);
	if ((n->flags & OC_NF_OTHER) && buf && len > 0) {
		size_t l = strlen(buf);
		if (l + 1 < len) {
			buf[l] = '?';
			buf[l + 1] = '\0';
		}
	}
	return buf;
}

/* scontrol's flag names, in the order scontrol prints them (the order of
 * Slurm's node_state_flags[] table, 26.05), then the ones scontrol prints
 * as "?" with their openapi (JSON) names. */
static const struct {
	uint32_t flag;
	const char *name;
} state_flag_names[] = {
	{ OC_NF_BLOCKED, "BLOCKED" },
	{ OC_NF_CLOUD, "CLOUD" },
	{ OC_NF_COMPLETING, "COMPLETING" },
	{ OC_NF_DRAIN, "DRAIN" },
	{ OC_NF_DYNAMIC_FUTURE, "DYNAMIC_FUTURE" },
	{ OC_NF_DYNAMIC, "DYNAMIC_NORM" },
	{ OC_NF_EXTERNAL, "EXTERNAL" },
	{ OC_NF_INVALID_REG, "INVALID_REG" },
	{ OC_NF_FAIL, "FAIL" },
	{ OC_NF_MAINT, "MAINTENANCE" },
	{ OC_NF_POWER_DOWN_PENDING, "POWER_DOWN" },
	{ OC_NF_POWER_UP, "POWER_UP" },
	{ OC_NF_POWERED_DOWN, "POWERED_DOWN" },
	{ OC_NF_REBOOT_REQUESTED, "REBOOT_REQUESTED" },
	{ OC_NF_REBOOT_ISSUED, "REBOOT_ISSUED" },
	{ OC_NF_RESERVED, "RESERVED" },
	{ OC_NF_RESUME, "RESUME" },
	{ OC_NF_NOT_RESPONDING, "NOT_RESPONDING" },
	{ OC_NF_PLANNED, "PLANNED" },
	{ OC_NF_POWERING_UP, "POWERING_UP" },
	{ OC_NF_POWERING_DOWN, "POWERING_DOWN" },
	{ OC_NF_POWER_DRAIN, "POWER_DRAIN" },
	{ OC_NF_REBOOT_CANCEL, "REBOOT_CANCELED" },
	{ OC_NF_UNDRAIN, "UNDRAIN" },
};

/* scontrol's base state word. Static string. */
static const char *state_base_long(enum oc_node_base b)
{
	switch (b) {
	case OC_NODE_DOWN:
		return "DOWN";
	case OC_NODE_IDLE:
		return "IDLE";
	case OC_NODE_ALLOCATED:
		return "ALLOCATED";
	case OC_NODE_MIXED:
		return "MIXED";
	case OC_NODE_FUTURE:
		return "FUTURE";
	case OC_NODE_UNKNOWN:
	default:
		return "UNKNOWN";
	}
}

/* The base word, then "+FLAG" for every flag set, like scontrol's State=.
 * Returns buf. */
const char *oc_node_state_long(const struct oc_node *n, char *buf, size_t len)
{
	if (!buf || len == 0)
		return buf;
	if (!n)
		return state_copy(buf, len, "UNKNOWN");

	size_t used = 0;
	int w = snprintf(buf, len, "%s", state_base_long(n->base));
	used = (w > 0) ? (size_t)w : 0;
	for (size_t i = 0; i < sizeof(state_flag_names) / sizeof(state_flag_names[0]); i++) {
		if (!(n->flags & state_flag_names[i].flag))
			continue;
		if (used >= len)
			break;
		w = snprintf(buf + used, len - used, "+%s", state_flag_names[i].name);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if ((n->flags & OC_NF_OTHER) && n->other_flags && used < len)
		snprintf(buf + used, len - used, "%s", n->other_flags);
	return buf;
}

/* Health precedence, first match wins:
 *   1. DRAIN and busy (allocated, mixed or completing) -> DRAINING
 *   2. DRAIN otherwise                                  -> DRAINED
 *      (an admin's drain says more than the power state)
 *   3. base DOWN, or the FAIL flag                      -> DOWN
 *      (also when powered down: ParallelCluster's failed launches)
 *   4. powered down, powering up or powering down      -> POWER
 *   5. NOT_RESPONDING (base not DOWN)                   -> NOT_RESPONDING
 *   6. anything else                                    -> OK
 * A pending power down ('!') is still a working node: OK. */
enum oc_health oc_node_health(const struct oc_node *n)
{
	if (!n)
		return OC_HEALTH_OK;
	if (n->flags & OC_NF_DRAIN)
		return state_node_busy(n) ? OC_HEALTH_DRAINING : OC_HEALTH_DRAINED;
	/* A down node that is also powered down (or powering up) is a resume
	 * that failed: ParallelCluster's failed launch
	 * (InsufficientInstanceCapacity...), Slurm's "ResumeTimeout reached". */
	if (n->base == OC_NODE_DOWN || (n->flags & OC_NF_FAIL)) {
		if ((n->flags & (OC_NF_POWERED_DOWN | OC_NF_POWERING_UP)) ||
		    (n->reason && strstr(n->reason, "ResumeTimeout")))
			return OC_HEALTH_RESUME_FAILED;
		return OC_HEALTH_DOWN;
	}
	if (n->flags & (OC_NF_POWERED_DOWN | OC_NF_POWERING_UP | OC_NF_POWERING_DOWN))
		return OC_HEALTH_POWER;
	if (n->flags & OC_NF_NOT_RESPONDING)
		return OC_HEALTH_NOT_RESPONDING;
	return OC_HEALTH_OK;
}

/* The group's display name; "?" when h is out of range. Static. */
const char *oc_health_name(enum oc_health h)
{
	switch (h) {
	case OC_HEALTH_OK:
		return "ok";
	case OC_HEALTH_DRAINING:
		return "draining";
	case OC_HEALTH_DRAINED:
		return "drained";
	case OC_HEALTH_DOWN:
		return "down";
	case OC_HEALTH_NOT_RESPONDING:
		return "not responding";
	case OC_HEALTH_POWER:
		return "power saving";
	case OC_HEALTH_RESUME_FAILED:
		return "failed resume";
	case OC_HEALTH_COUNT:
	default:
		return "?";
	}
}

static const struct {
	const char *name;    /* scontrol's JobState= */
	const char *compact; /* squeue's %t */
} state_jobs[OC_JOB_STATE_COUNT] = {
	[OC_JOB_PENDING] = { "PENDING", "PD" },
	[OC_JOB_RUNNING] = { "RUNNING", "R" },
	[OC_JOB_SUSPENDED] = { "SUSPENDED", "S" },
	[OC_JOB_COMPLETE] = { "COMPLETED", "CD" },
	[OC_JOB_CANCELLED] = { "CANCELLED", "CA" },
	[OC_JOB_FAILED] = { "FAILED", "F" },
	[OC_JOB_TIMEOUT] = { "TIMEOUT", "TO" },
	[OC_JOB_NODE_FAIL] = { "NODE_FAIL", "NF" },
	[OC_JOB_PREEMPTED] = { "PREEMPTED", "PR" },
	[OC_JOB_BOOT_FAIL] = { "BOOT_FAIL", "BF" },
	[OC_JOB_DEADLINE] = { "DEADLINE", "DL" },
	[OC_JOB_OOM] = { "OUT_OF_MEMORY", "OOM" },
};

/* scontrol's name of the base state ("COMPLETED", "OUT_OF_MEMORY");
 * "?" when s is out of range. Static. */
const char *oc_job_state_name(enum oc_job_state s)
{
	if ((unsigned)s >= OC_JOB_STATE_COUNT)
		return "?";
	return state_jobs[s].name;
}

/* squeue's %t. Like squeue, the flags come first: completing "CG",
 * configuring "CF", resizing "RS", requeued "RQ"; then the base state.
 * "?" for NULL or an out of range state. Static. */
const char *oc_job_state_compact(const struct oc_job *j)
{
	if (!j)
		return "?";
	if (j->flags & OC_JF_COMPLETING)
		return "CG";
	if (j->flags & OC_JF_CONFIGURING)
		return "CF";
	if (j->flags & OC_JF_RESIZING)
		return "RS";
	if (j->flags & OC_JF_REQUEUED)
		return "RQ";
	if ((unsigned)j->state >= OC_JOB_STATE_COUNT)
		return "?";
	return state_jobs[j->state].compact;
}

/* Slurm's secs2time_str(): "M:SS", "H:MM:SS" or "D-HH:MM:SS".
 * Returns buf. */
static const char *state_secs(unsigned long long secs, char *buf, size_t len)
{
	unsigned long long days = secs / 86400;
	unsigned long long hours = (secs / 3600) % 24;
	unsigned long long mins = (secs / 60) % 60;
	unsigned long long s = secs % 60;

	if (!buf || len == 0)
		return buf;
	if (days)
		snprintf(buf, len, "%llu-%02llu:%02llu:%02llu", days, hours, mins, s);
	else if (hours)
		snprintf(buf, len, "%llu:%02llu:%02llu", hours, mins, s);
	else
		snprintf(buf, len, "%llu:%02llu", mins, s);
	return buf;
}

/* A time limit like Slurm's mins2time_str(). Returns buf. */
const char *oc_format_minutes(uint32_t minutes, char *buf, size_t len)
{
	if (minutes == OC_NONE)
		return state_copy(buf, len, "UNLIMITED");
	return state_secs((unsigned long long)minutes * 60u, buf, len);
}

/* A run time like squeue's %M. Returns buf. */
const char *oc_format_duration(long long seconds, char *buf, size_t len)
{
	if (seconds < 0)
		seconds = 0;
	return state_secs((unsigned long long)seconds, buf, len);
}

/* The largest whole unit: seconds under a minute, minutes under an hour,
 * hours under a day, then days. Negative ages print as "0s". Returns buf. */
const char *oc_format_age(long long seconds, char *buf, size_t len)
{
	if (!buf || len == 0)
		return buf;
	if (seconds < 0)
		seconds = 0;
	if (seconds < 60)
		snprintf(buf, len, "%llds", seconds);
	else if (seconds < 3600)
		snprintf(buf, len, "%lldm", seconds / 60);
	else if (seconds < 86400)
		snprintf(buf, len, "%lldh", seconds / 3600);
	else
		snprintf(buf, len, "%lldd", seconds / 86400);
	return buf;
}
