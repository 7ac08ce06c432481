/* audit.h: the audit log, write-ahead. Every write appends an intent line
 * (who, what, targets, equivalent command, a request id) before the first
 * request reaches Slurm, and an outcome line with the same id after; each
 * line is written with O_APPEND in one write() and fsync'd, so that a
 * console killed in the middle never leaves a torn line, and a write whose
 * intent could not be written is not made. Also sent to syslog (authpriv). */
#ifndef OC_ACTIONS_AUDIT_H
#define OC_ACTIONS_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* One audit record. Strings may be NULL (left out of the line). */
struct oc_audit_rec {
	time_t time;            /* 0 = now */
	const char *id;         /* the request id (oc_audit_new_id), same in both lines */
	const char *phase;      /* "intent" (before the write) or "outcome" (after) */
	const char *cluster;
	const char *action;     /* "node.drain", "node.resume", "resv.create", ... */
	const char *targets;    /* "gpu-st-b300-[3-5]" or a reservation name */
	const char *params;     /* a JSON object as text, e.g. {"reason":"..."}; NULL = {} */
	const char *command;    /* the equivalent command line */
	const char *result;     /* outcome: "ok", "partial", "failed", "unknown"; intent: NULL */
	const char *error;      /* Slurm's error text, or the reason it failed */
};

/* The length of a request id with its NUL. */
#define OC_AUDIT_ID_LEN 17

/* A new request id into out: 16 hex digits from getrandom(2) (time, pid
 * and a counter when it has no entropy to give). */
void oc_audit_new_id(char out[OC_AUDIT_ID_LEN]);

/* Format rec as one JSON line (with '\n') into a malloc'd string the caller
 * frees. Keys in this order: "schema": 2, "id", "phase", "time" (local, with the offset:
 * 2026-11-29T15:20:01+0100), "user", "sudo_user", "ssh_client",
 * "ssm_session", "cluster", "action", "targets", "params" (or
 * "params_raw"), "command", "result", "error"; a NULL or empty value is
 * left out. Who ran it, from what is there in practice:
 *   user         the effective uid's name (getpwuid_r), "uid:N" without one
 *   sudo_user    $SUDO_USER (set by sudo: the human behind root)
 *   ssh_client   first word of $SSH_CONNECTION, else of $SSH_CLIENT (sudo's
 *                env_reset drops both unless env_keep lists them)
 *   ssm_session  AWS SSM Session Manager sets no variable that names the
 *                session or the IAM caller; the agent runs the shell under
 *                "ssm-session-worker SESSION-ID INSTANCE-ID", and the
 *                session id starts with the caller's IAM session name
 *                (alice-0a1b2c3d4e5f67890). So: $SSM_SESSION_ID when a
 *                site sets it, else argv[1] of the nearest ancestor process
 *                named ssm-session-worker (/proc; survives sudo), else left
 *                out.
 * params must be a JSON object (NULL = {}); anything else (not JSON, not
 * an object, invalid UTF-8, a duplicate key) is kept as a string under
 * "params_raw": the audit never fails on it. Control characters are
 * escaped by JSON and invalid UTF-8 bytes become U+FFFD, so the line stays
 * one valid JSON line. NULL on ENOMEM (or a NULL rec). */
char *oc_audit_format(const struct oc_audit_rec *rec);

/* Append rec to the log at path (created 0600 with its directory 0700 when
 * missing) with one write(2) on an O_APPEND descriptor, then fsync, and
 * send a short form to syslog (LOG_AUTHPRIV | LOG_NOTICE, ident
 * "opsconsole": "ACTION TARGETS RESULT by WHO: COMMAND[; error: ...]";
 * sent even when the file cannot be written; without a syslog daemon it is
 * dropped). The log is evidence, so like ssh's StrictModes it refuses a
 * symlink (O_NOFOLLOW), anything but a regular file (a FIFO does not block:
 * O_NONBLOCK), a file writable by group or others, and one owned by
 * another user than the caller or root. A short write on a regular file
 * happens only when the disk or quota fills mid-line: the rest is written
 * in a loop (EINTR retried) and the error returned; the torn line is then
 * ended by the next append (which starts with '\n' when the file does not
 * end with one) and counted as bad by oc_audit_read. Consoles appending
 * to the same log hold an flock around that check and the write (waiting
 * at most 2 s, then appending anyway). Returns 0, or -1 with
 * a message (the action itself is not undone). */
int oc_audit_append(const char *path, const struct oc_audit_rec *rec, char *err, size_t errlen);

/* The default audit log for a cluster when the profile names none:
 * $XDG_STATE_HOME/opsconsole/CLUSTER-audit.log (default
 * ~/.local/state/opsconsole/; a relative $XDG_STATE_HOME is ignored, as
 * the XDG spec says; no $HOME: the passwd entry's home). A NULL or empty
 * cluster is "default"; '/' in it becomes '_'. Writes into out; returns
 * out, "" when no home is known or the path does not fit. */
const char *oc_audit_default_path(const char *cluster, char *out, size_t len);

struct oc_profile;

/* The audit log of profile p: its "audit_log", else the default path of
 * oc_audit_default_path. The one place the front ends (console, onboard,
 * rehearse) take it from. Returns out ("" when there is none). */
const char *oc_audit_profile_path(const struct oc_profile *p, char *out, size_t len);

/* One parsed audit line, for the console's audit view. */
struct oc_audit_entry {
	time_t time;
	char user[64];          /* "alice", or "alice as root" through sudo */
	char action[32];
	char targets[256];
	char result[16];
	char command[1024];
	char error[512];
	char id[OC_AUDIT_ID_LEN]; /* "" in lines written before schema 2 */
	bool no_outcome;        /* an intent with no outcome line after it */
};

/* Read the last max entries of the log (newest last), reading the file
 * from its end. An intent and its outcome (same id) are one entry, the
 * outcome's; an intent without an outcome is an entry with result
 * "unknown", no_outcome set and error "outcome unknown: ..." (the console
 * was killed or lost its session mid-write, or it is still applying).
 * Lines that do not parse (a torn last line, garbage, no
 * "time" or "action") are skipped and counted in *bad (may be NULL) among
 * the lines read to find those entries; empty lines are ignored. Strings
 * longer than a field are cut at a UTF-8 character boundary. Returns the
 * number of entries put in *out (malloc'd array the caller frees; NULL
 * when 0), or -1 with err (a missing file is 0 entries, not an error). */
long oc_audit_read(const char *path, size_t max, struct oc_audit_entry **out, size_t *bad, char *err,
		   size_t errlen);

#endif
