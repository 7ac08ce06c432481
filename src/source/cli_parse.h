/* cli_parse.h: parsers of what the Slurm commands print, for the CLI
 * backend (cli_source.c) and the CLI writer (cli_write.c). Each parser
 * takes the text (len bytes followed by a NUL, as every transport returns
 * a command's output; a NUL inside ends nothing) and builds a new
 * model table (one reference, the caller unrefs) whose generation is
 * prev's + 1; bad input gives -1 with a message and no table, never a
 * crash (they are fuzzed). No Slurm header is needed: these build without
 * libslurm.
 *
 * JSON (jansson, cli_json.c): the openapi shapes of 22.05 (v0.0.38: plain
 * numbers, "state" a word plus "state_flags") and of 23.02 and later
 * (v0.0.39 to v0.0.44: numbers as {"set","infinite","number"}, states as
 * arrays of words) are both read; the field names did not change.
 * Text (cli_text.c): `scontrol show partition|reservation|job --oneliner`,
 * `scontrol show config`, `scontrol show assoc_mgr flags=assoc,qos`,
 * `sacctmgr -P -n show assoc format=account,user,partition,qos,defaultqos,
 * fairshare`. */
#ifndef OC_SOURCE_CLI_PARSE_H
#define OC_SOURCE_CLI_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/model.h"
#include "core/nodeindex.h"

struct oc_job_now; /* actions/writer.h */

/* Node lists are resolved against a struct oc_node_index
 * (core/nodeindex.h): {.nodes = table}, freed with oc_node_index_free. */

/* Resolve a hostlist expression (core/hostlist.c) against ix into *idx
 * (in arena a) and *count; unknown names are skipped, as is a malformed
 * expression (count 0). ix NULL: nothing resolved. Returns 0, -1 on
 * ENOMEM. */
int oc_cli_resolve_nodes(struct oc_arena *a, const char *expr, struct oc_node_index *ix, uint32_t **idx,
			 uint32_t *count);

/* `sinfo --json` (22.05) or `scontrol --json show nodes` (23.02 on):
 * the "nodes" array. Returns 0 and *out, or -1 with err. */
int oc_cli_parse_nodes_json(const char *text, size_t len, const struct oc_nodes *prev, struct oc_nodes **out,
			    char *err, size_t errlen);

/* `squeue --json`: the "jobs" array; running jobs' nodes resolved against
 * ix (may be NULL). Returns 0 and *out, or -1 with err. */
int oc_cli_parse_jobs_json(const char *text, size_t len, struct oc_node_index *ix, const struct oc_jobs *prev,
			   struct oc_jobs **out, char *err, size_t errlen);

/* One job state word as scontrol and squeue print it: a base ("RUNNING",
 * "OUT_OF_MEMORY": sets *st and *have) or a flag word, which is returned
 * (an OC_JF_* bit, or 0 for flags the model has no bit for) and stands
 * for its usual base while *have is false ("COMPLETING": COMPLETED,
 * "REQUEUED": PENDING, "STOPPED": RUNNING). An unknown word changes
 * nothing and returns 0. */
uint32_t oc_cli_job_state_word(const char *w, enum oc_job_state *st, bool *have);

/* `scontrol --oneliner show job ID`: the record whose JobId is job_id (an
 * array task is its own record, JobId=124 ArrayJobId=120 ArrayTaskId=3)
 * into *out. JobState (a flag word stands for its base, as above),
 * Priority (0: held), TimeLimit (UNLIMITED, and Partition_Limit, which
 * sets none of its own: OC_NONE; "[D-]HH:MM:SS", "MM:SS", seconds
 * rounded up to a minute), Nice, Restarts, Partition, QOS, Reason.
 * scontrol's "slurm_load_jobs error: Invalid job id specified", or
 * records none of which is job_id: 0 with out->found false. Returns 0,
 * or -1 with err: a line that is not a job record, nothing at all, the
 * job's record without JobState, Priority or TimeLimit or with a state
 * word not known, or naming one of the fields read twice (a job name or
 * comment holding "Key=" words: which is Slurm's cannot be told). */
int oc_cli_parse_job_now(const char *text, size_t len, uint32_t job_id, struct oc_job_now *out, char *err,
			 size_t errlen);

/* `scontrol --oneliner show job ID` into the job panel's table t (whose
 * job_id is set): every record as a part, and for the record of t->job_id
 * (unless parts_only) live true, the paths, the command, TresPerNode,
 * Dependency, BatchHost, ArrayJobId, HetJobId. scontrol's "Invalid job id
 * specified": 0 with nothing set. Returns 0, or -1 with err (a line that
 * is not a job record, nothing at all). */
int oc_cli_parse_jobinfo_live(const char *text, size_t len, struct oc_jobinfo *t, bool parts_only, char *err,
			      size_t errlen);

/* argv of `sprio -h -j ID -o FORMAT` (id points into the caller's text). */
void oc_cli_sprio_argv(const char *id, const char *argv[8]);

/* Its output: the rows of t->job_id (one per partition) into t->prio.
 * Returns 0 (no row: nprio 0), or -1 with err on a row that does not read. */
int oc_cli_parse_sprio(const char *text, size_t len, struct oc_jobinfo *t, char *err, size_t errlen);

/* argv of `sacct -j ID -n -P` with steps, for the job panel. */
void oc_cli_jobinfo_sacct_argv(const char *id, const char *argv[12]);

/* Its output: the record of t->job_id (db true, submit_line) and its
 * steps into t; no record of the job: db false with db_err. Returns 0,
 * or -1 with err (a line that does not read). */
int oc_cli_parse_jobinfo_sacct(const char *text, size_t len, struct oc_jobinfo *t, char *err, size_t errlen);

/* `scontrol show partition --oneliner`. Returns 0 and *out, or -1. */
int oc_cli_parse_partitions(const char *text, size_t len, struct oc_node_index *ix,
			    const struct oc_partitions *prev, struct oc_partitions **out, char *err, size_t errlen);

/* `scontrol show reservation --oneliner` ("No reservations in the system"
 * is an empty table). ix NULL leaves node_idx empty. Returns 0 and *out,
 * or -1. */
int oc_cli_parse_reservations(const char *text, size_t len, struct oc_node_index *ix,
			      const struct oc_reservations *prev, struct oc_reservations **out, char *err,
			      size_t errlen);

/* `scontrol show config`: every "Key = value" line in order (a key seen
 * again in a later section is left out; "(null)" is NULL). Returns 0 and
 * *out, or -1. */
int oc_cli_parse_config(const char *text, size_t len, const struct oc_config *prev, struct oc_config **out,
			char *err, size_t errlen);

/* `scontrol show assoc_mgr flags=assoc,qos` (the live limits and use),
 * completed by what only slurmdbd prints (either may be NULL: those
 * fields stay empty):
 * - assoc_text: `sacctmgr -P -n show assoc format=account,user,partition,
 *   qos,defaultqos` (the QoS lists and default QoS);
 * - qos_text: `sacctmgr -P -n show qos format=name,maxjobspu,maxsubmitpu,
 *   priority,maxtrespu,preempt` (per-user limits, which the association
 *   manager prints only for users with a usage record).
 * Returns 0 and *out (enabled true, dbd_error ""), or -1. */
int oc_cli_parse_assoc_mgr(const char *text, size_t len, const char *assoc_text, size_t assoc_len,
			   const char *qos_text, size_t qos_len, const struct oc_accounting *prev,
			   struct oc_accounting **out, char *err, size_t errlen);

/* The argv of the history load: `sacct -a -X -n -P --delimiter=<0x1f>
 * -S since -E until -o <fields>` (since and until as sacct takes them;
 * the fields of this Slurm version). argv[0] is the bare "sacct". */
void oc_cli_history_argv(int version, const char *since, const char *until, const char *argv[16]);

/* What that command printed: the jobs that ended in [since, until]
 * (oc_hjob_ended) into *out (enabled, since and until set). Times are
 * read as local time. Returns 0, or -1 with err: a line of another
 * shape, a field that does not read (named). */
int oc_cli_parse_history(const char *text, size_t len, int version, time_t since, time_t until,
			 struct oc_history **out, char *err, size_t errlen);

/* The argv of the node events' load: `sacctmgr -n -P show event
 * Event=Node Clusters=CLUSTER SINCE UNTIL Format=Cluster,NodeName,
 * TimeStart,TimeEnd,State,User,Reason`; since and until are "Start=..."
 * and "End=..." words; buf holds the Clusters= word. */
void oc_cli_events_argv(const char *cluster, const char *since, const char *until, char *buf, size_t len,
			const char *argv[12]);

/* What that command printed: the node events into *out (enabled set; the
 * cluster's own events left out). A reason may hold '|' and newlines: a
 * record is a line that starts "CLUSTER|NODE|TIME|", any other line
 * continues the reason before it. User "root(0)" is "root". Returns 0, or
 * -1 with err. */
int oc_cli_parse_events(const char *text, size_t len, const char *cluster, struct oc_events **out, char *err,
			size_t errlen);

/* What `scontrol ping` ("Slurmctld(primary) at oc-ctld1 is UP", one
 * line per SlurmctldHost: primary, backup, backup2...) or `sacctmgr ping`
 * (24.11+: "slurmdbd(backup) at db2 is DOWN") prints into v[0..n-1]'s
 * state, by the mode in parentheses (primary 0, backup 1, backupN N).
 * prefix: "Slurmctld" or "slurmdbd". Entries without a line keep their
 * state. Returns how many lines were read, -1 when the text has none. */
int oc_cli_parse_ping(const char *text, size_t len, const char *prefix, struct oc_ctld *v, int n);

/* `sdiag`'s text into *out: the counters, the main and backfill cycles,
 * the RPCs by message type and by user with the names sdiag prints, the
 * pending RPCs. Returns 0, or -1 with err (not sdiag's output, an RPC
 * line of another shape). */
int oc_cli_parse_sdiag(const char *text, size_t len, struct oc_sched **out, char *err, size_t errlen);

#endif
