/* sacctmgr.h: onboarding through the sacctmgr binary (oc_exec, an argv,
 * no shell): read an account's accounting state, run one plan step.
 * Slurm 22.05 has no `sacctmgr --json`: the parsable output (-P -n, '|'
 * between fields) is read instead.
 *
 * bindir: the folder of the Slurm client binaries (a profile may give
 * one: AWS PCS puts them under /opt/aws/pcs/scheduler/slurm-VERSION/bin,
 * with no PATH entry); NULL or "" = "sacctmgr" from $PATH. sacctmgr reads
 * $SLURM_CONF like every Slurm client.
 *
 * What 22.05's sacctmgr does, as checked on the local cluster:
 * - `-P -n show assoc ... format=account,user,partition,parentname,
 *   grptres,fairshare,qos,defaultqos` prints one line per association:
 *   "team-a|||root|gres/gpu=64|1|debug_qos,large_qos,normal,normal_qos|
 *   normal_qos" for the account, "team-a|alice||||1|debug_qos,..." for a
 *   user (no parent). GrpTRES is "cpu=100,gres/gpu=8,mem=3G" (memory with
 *   a unit M/G/T/P when it divides exactly, names sorted), QoS are names
 *   (inherited ones included), Fairshare is a number or "parent".
 * - `show account where name=x format=account,descr`: "team-a|team a".
 *   sacctmgr stores descriptions lower case with ' and " turned into `
 *   ("Description=Team C's" reads back "team c`s").
 * - `show qos format=name,maxjobspu,maxsubmitpu,priority`: "normal_qos|4|8|
 *   2000"; an unset limit is empty; Priority is always a number.
 * - An add of something that exists: " Nothing new added." and exit 1
 *   (account, user, qos); add cluster: " This cluster X already exists.
 *   Not adding." and exit 1. 24.05 and later print " Data has not changed
 *   since time specified" (exit 1) for an existing account or user. Such
 *   an add ignores its other settings (even parent=missing): changes of
 *   an existing thing need modify.
 * - Real failures that look close: a missing QoS in qos+= is "sacctmgr:
 *   error: You gave a bad qos 'x'. Valid QOS's are ..." + " Unknown
 *   option: qos+=x", exit 1; add user to a missing account: " This
 *   account 'x' doesn't exist.", exit 1 (and the user IS added to the
 *   other accounts of the same command); modify of nothing: " Nothing
 *   modified", exit 1. Some failures exit 0: "add qos q maxjobspu=abc"
 *   prints "sacctmgr: error: Invalid value for MaxJobsPU (abc)" and adds
 *   q anyway; "set DefaultQOS=x" for a QoS the account lacks prints
 *   " These associations don't have access to their default qos." and
 *   changes nothing; without -i a change ends " Changes Discarded".
 * - slurmdbd down: "sacctmgr: error: slurm_persist_conn_open_without_init:
 *   failed to open persistent connection to host:localhost:16819:
 *   Connection refused" + "sacctmgr: error: Sending PersistInit msg:
 *   Connection refused", exit 1, nothing on stdout; slurmdbd hanging
 *   (SIGSTOP): "... No response to persist_init" after about 45 s. */
#ifndef OC_SOURCE_SACCTMGR_H
#define OC_SOURCE_SACCTMGR_H

#include <stdbool.h>
#include <stddef.h>

#include "actions/onboard.h"
#include "source/transport.h"

/* Seconds one read command (show ...) may take before it is killed and
 * slurmdbd reported as not answering. */
#define OC_SACCTMGR_READ_TIMEOUT_S 30
/* Default seconds for one plan step (timeout_s <= 0 in run_step). */
#define OC_SACCTMGR_STEP_TIMEOUT_S 60

/* Read what the accounting has for account on this cluster into *st
 * (cleared first; every field filled):
 * - cluster: the local cluster: the only cluster in the accounting, or,
 *   when there are several, the one sacctmgr's own slurm.conf names (its
 *   open cluster event: `show event event=cluster`).
 * - account_exists: the account has its association on this cluster;
 *   description: the account's Description (also when only the account
 *   record exists); parent: the association's parent ("" for root).
 * - gpu_quota / cpu_quota / mem_quota_mb: GrpTRES gres/gpu, cpu, mem (in
 *   MB) of the account's association, OC_ONB_NONE when not set (typed
 *   GPUs "gres/gpu:b300=N" are not gpu_quota); fairshare: its Fairshare,
 *   OC_ONB_NONE for "parent" or none.
 * - qos / default_qos: the association's QoS names (as sacctmgr prints
 *   them, inherited ones included) and DefaultQOS ("" = none).
 * - users: the user names with an association under the account (once
 *   each, whatever their partitions), sorted as sacctmgr prints them.
 * - all_qos: every QoS of the cluster with MaxJobsPU, MaxSubmitPU
 *   (OC_ONB_NONE when unset) and Priority.
 * account must be a plain name (1..63 of [A-Za-z0-9_.-], not starting
 * with '-'). Returns 0, or -1 with err: "slurmdbd does not answer: ..."
 * when sacctmgr cannot reach slurmdbd or gives no answer within
 * OC_SACCTMGR_READ_TIMEOUT_S; "no munge credential (is munged
 * running?): ..." when sacctmgr could not get one (munged down: every
 * request then fails); "sacctmgr: not found in PATH (...)";
 * more users or QoS than struct oc_onb_state holds; sacctmgr's own text
 * for any other failure. Nothing to free. */
int oc_sacctmgr_read_state(const char *bindir, const char *account, struct oc_onb_state *st, char *err,
			   size_t errlen);

/* Run one plan step: step->argv, whose argv[0] must be "sacctmgr"
 * (replaced by bindir/sacctmgr when bindir is set), at most timeout_s
 * seconds (<= 0: OC_SACCTMGR_STEP_TIMEOUT_S). Returns
 * - 0 when sacctmgr exited 0 and printed no error (no "error:", no
 *   "Changes Discarded", no "don't have access to their default qos");
 * - 1 when step->add and sacctmgr exited 1 saying only that the thing
 *   exists (every line it printed is "Nothing new added.", "This cluster
 *   X already exists.  Not adding." or "Data has not changed since time
 *   specified");
 * - -1 otherwise, with sacctmgr's output in out (prefixed with "slurmdbd
 *   does not answer: " when it could not reach slurmdbd, "no munge
 *   credential (is munged running?): " when it had none; the timeout or
 *   signal, or "cannot run ...", when that is what happened).
 * out (outlen bytes, NUL-terminated) also holds sacctmgr's output on 0
 * and 1. Nothing to free. */
int oc_sacctmgr_run_step(const char *bindir, const struct oc_onb_step *step, char *out, size_t outlen,
			 int timeout_s);

/* The same two, with sacctmgr run over a transport (the CLI writer: on
 * this machine or on a head node over SSH); t NULL runs it locally with
 * oc_exec, as the two above do. bindir is then a folder on t's host.
 * Same returns. */
int oc_sacctmgr_read_state_on(struct oc_transport *t, const char *bindir, const char *account,
			      struct oc_onb_state *st, char *err, size_t errlen);
int oc_sacctmgr_run_step_on(struct oc_transport *t, const char *bindir, const struct oc_onb_step *step, char *out,
			    size_t outlen, int timeout_s);

/* The outcome of a step from what sacctmgr printed (text, NUL-terminated)
 * and its exit status (oc_exec's: >= 0 the exit code, OC_EXEC_TIMED_OUT
 * after timeout_s seconds, another negative value for a signal, why then
 * saying which), as oc_sacctmgr_run_step tells it: returns 0, 1 or -1 with
 * the message in out (outlen bytes) as that function says. Pure: used by
 * run_step, the tests and the fuzzer. */
int oc_sacctmgr_step_outcome(const char *text, int status, bool add, int timeout_s, const char *why, char *out,
			     size_t outlen);

/* The reads of oc_sacctmgr_read_state, each a `sacctmgr -P -n show ...`. */
enum oc_sacctmgr_show {
	OC_SACCTMGR_SHOW_CLUSTER, /* format=cluster: sets st->cluster when there is one */
	OC_SACCTMGR_SHOW_ACCOUNT, /* format=account,descr */
	OC_SACCTMGR_SHOW_ASSOC,   /* format=account,user,partition,parentname,grptres,fairshare,qos,defaultqos */
	OC_SACCTMGR_SHOW_QOS,     /* format=name,maxjobspu,maxsubmitpu,priority */
};

/* Parses text, the output of the read show for account (a plain name),
 * into *st (added to what it holds: call oc_onb_state_init first), as
 * oc_sacctmgr_read_state does. Returns 0, or -1 with "unexpected output of
 * sacctmgr ...: LINE" or a limit in err. Pure: for the tests and the
 * fuzzer. Nothing to free. */
int oc_sacctmgr_parse(enum oc_sacctmgr_show show, const char *account, const char *text, struct oc_onb_state *st,
		      char *err, size_t errlen);

#endif
