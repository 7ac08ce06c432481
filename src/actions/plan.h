/* plan.h: an action before it runs: what it will do, shown to the admin as
 * the exact equivalent command line. Pure (no Slurm, no curses). */
#ifndef OC_ACTIONS_PLAN_H
#define OC_ACTIONS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "actions/writer.h"

/* Quote a value for a scontrol/sacctmgr command line as an admin would type
 * it in a POSIX shell so that it arrives verbatim: values made only of
 * [A-Za-z0-9_.,:=/@%+-] stay bare (unless they start with '=', which zsh
 * expands as =cmd); anything else is single-quoted with
 * embedded single quotes written as '\'' (newlines stay inside the
 * quotes). The command line is for display and the audit log; actions
 * never run a shell. "" and NULL give ''. Returns the number of bytes the
 * full result needs (without NUL), like snprintf; writes at most len
 * bytes, NUL-terminated (out may be NULL when len is 0). */
size_t oc_plan_quote(const char *value, char *out, size_t len);

/* The equivalent command of a node update:
 *   scontrol update NodeName='gpu-st-b300-[3-5]' State=DRAIN Reason='disk, "bad"'
 *   scontrol update NodeName=gpu-st-b300-12 State=RESUME
 * expr is the compressed hostlist. Every value goes through oc_plan_quote,
 * so a ranged hostlist is quoted: [ ] are glob characters, zsh (nomatch)
 * and bash with failglob refuse an unmatched pattern, and a file named
 * like the pattern would be substituted; a single node name stays bare.
 * The reason is shown for DRAIN only (a NULL reason shows as Reason='',
 * which scontrol refuses like the apply would). Returns the length it
 * needs, like oc_plan_quote. */
size_t oc_plan_node_update(const char *expr, enum oc_node_op op, const char *reason, char *out,
			   size_t len);

/* A reboot as scontrol takes it, one word per argv entry, values
 * verbatim (no quoting: no shell runs it): "scontrol" "reboot" ["ASAP"]
 * ["nextstate=RESUME"] ["reason=..."] NODES. words holds the strings
 * argv points into. */
#define OC_PLAN_REBOOT_ARGV 8
struct oc_plan_reboot_words {
	char next[24];
	char reason[1108];
};
void oc_plan_reboot_argv(const char *expr, const struct oc_reboot_spec *spec, struct oc_plan_reboot_words *w,
			 const char *argv[OC_PLAN_REBOOT_ARGV]);

/* The same as a command line to show and audit (values quoted by
 * oc_plan_quote); the cancel is `scontrol cancel_reboot NODES`
 * (oc_plan_node_update with OC_NODE_OP_CANCEL_REBOOT). Returns the length
 * it needs. */
size_t oc_plan_node_reboot(const char *expr, const struct oc_reboot_spec *spec, char *out, size_t len);

/* The equivalent command of a reservation:
 *   scontrol create reservation ReservationName=maint_x Users=root
 *     StartTime=now Duration=UNLIMITED Flags=MAINT,IGNORE_JOBS Nodes=...
 * (one line). ReservationName, Users, Accounts and Flags only when set.
 * Times as Slurm takes them (YYYY-MM-DDTHH:MM:SS local); the duration as
 * [D-]HH:MM:SS ("02:00:00", "1-12:00:00"), the form scontrol show
 * reservation prints, or UNLIMITED when duration_min < 0. Returns the
 * length it needs (0 and "" for a NULL spec). */
size_t oc_plan_resv_create(const struct oc_resv_spec *spec, char *out, size_t len);

/* scontrol delete ReservationName=NAME. Returns the length it needs. */
size_t oc_plan_resv_delete(const char *name, char *out, size_t len);
/* The equivalent command of a statistics reset. */
#define OC_PLAN_STATS_RESET "sdiag --reset"

/* The longest drain reason accepted, in bytes (the probes' drain reasons
 * are cut to it too). */
#define OC_PLAN_REASON_MAX 1024

/* Check a drain reason: not empty or blank, at most OC_PLAN_REASON_MAX bytes, no NUL
 * (cannot happen in C strings) — control characters and newlines are
 * allowed and reach Slurm verbatim. Returns 0, or -1 with a message. */
int oc_plan_check_reason(const char *reason, char *err, size_t errlen);

/* Check a reservation name as Slurm would accept it: 1-127 characters of
 * [A-Za-z0-9_.-] (127: it must fit oc_resv_spec.name; "" and NULL are
 * allowed: Slurm names it). Returns 0 or -1 with a message. */
int oc_plan_check_resv_name(const char *name, char *err, size_t errlen);

/* Parse a start time as typed, in local time (TZ): "now", "now+30min",
 * "now+2h", "now+1d" (a unit is required: Slurm reads a bare now+30 as
 * seconds; at most 366 days ahead), "HH:MM" (today, or tomorrow when
 * past), "YYYY-MM-DDTHH:MM[:SS]" (also with a space for the T; refused
 * when in the past or skipped by a DST change). Case and surrounding
 * blanks are ignored. Returns 0 and sets *t (0 for "now"), or -1 with a
 * message that does not name the field: the caller does, once ("Start:
 * that time is in the past"). */
int oc_plan_parse_start(const char *text, time_t now, time_t *t, char *err, size_t errlen);

/* Parse a duration: "infinite"/"UNLIMITED" (-1), "90" (minutes), "90m",
 * "90min", "4h", "2d", "1-12:00:00" (Slurm's days-hours:minutes:seconds,
 * also "1-12" and "1-12:30"), "2:30:00". Seconds round up to a minute.
 * Refused: zero, negative, above 3650 days, hours >= 24 after a day
 * count, and "2:30" (Slurm reads two fields as minutes:seconds; write
 * 2:30:00 or 150m). Returns 0 and sets *minutes, or -1 with a message
 * that does not name the field (the caller does: "Duration: ..."). */
int oc_plan_parse_duration(const char *text, long *minutes, char *err, size_t errlen);

/* A reservation name proposed for nodes: "maint_YYYYMMDD_HHMM" from now
 * (local time). Writes into out (truncated to len); returns out. */
const char *oc_plan_propose_resv_name(time_t now, char *out, size_t len);

/* ---- job actions ---------------------------------------------------- */

/* The name of a signal as scancel takes it ("USR1", no "SIG"), NULL for a
 * number this table does not name. */
const char *oc_plan_signal_name(int sig);

/* Parse a signal as typed: a name with or without "SIG" in any case
 * ("usr1", "SIGTERM") or a number 1..64. Returns 0 and sets *sig, or -1
 * with a message that does not name the field (the caller does). */
int oc_plan_parse_signal(const char *text, int *sig, char *err, size_t errlen);

/* Check a change before it is shown or applied: a signal 1..64, a time
 * limit of at least a minute (or UNLIMITED), a nice value in Slurm's
 * range (-2147483645 .. 2147483645), a partition or QoS name of 1..63
 * characters of [A-Za-z0-9_.-]. Returns 0, or -1 with a message. */
int oc_plan_check_job_change(const struct oc_job_change *c, char *err, size_t errlen);

/* The equivalent command of a job change:
 *   scancel 123
 *   scancel --signal=USR1 --batch 123    (--full for every step)
 *   scontrol hold 123 / release / requeue / requeuehold
 *   scontrol update JobId=123 TimeLimit=1-12:00:00 (UNLIMITED)
 *   scontrol update JobId=123 Partition=large / QOS=normal / Nice=100
 * Returns the length it needs, like oc_plan_quote. */
size_t oc_plan_job_change(uint32_t job_id, const struct oc_job_change *c, char *out, size_t len);
/* The same for several jobs, ids a comma list ("113,114"): scancel gets
 * them apart ("scancel 113 114"), scontrol as the list. */
size_t oc_plan_job_change_ids(const char *ids, const struct oc_job_change *c, char *out, size_t len);

/* The command of a change to one job as words (an argv, no shell: what the
 * CLI writer runs): the very words of oc_plan_job_change's line (one
 * switch makes both), NULL-terminated, pointing into w and static
 * strings. */
#define OC_PLAN_JOB_ARGV 7
struct oc_plan_job_words {
	char opt[32], id[24], value[72], word[96];
};
void oc_plan_job_argv(uint32_t job_id, const struct oc_job_change *c, struct oc_plan_job_words *w,
		      const char *argv[OC_PLAN_JOB_ARGV]);

/* A time limit as Slurm prints it: "UNLIMITED" for OC_NONE, else
 * [D-]HH:MM:SS. Writes into out; returns out. */
const char *oc_plan_time_limit(uint32_t minutes, char *out, size_t len);

#endif
