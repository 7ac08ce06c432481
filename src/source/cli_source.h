/* cli_source.h: the CLI backend and the CLI writer: the console's data
 * and its writes through the Slurm commands (sinfo, squeue, scontrol,
 * sacctmgr, sbatch, scancel, sacct), run over a transport (transport.h):
 * locally with execve, or on a head node over SSH. Neither needs libslurm:
 * they are what a build without libslurm uses (OC_WITH_LIBSLURM=OFF).
 *
 * slurm_bin: the folder of the Slurm commands on the transport's host
 * ("/opt/aws/pcs/scheduler/slurm-25.11/bin"), or "" (or NULL) for the
 * bare names, looked up in PATH. */
#ifndef OC_SOURCE_CLI_SOURCE_H
#define OC_SOURCE_CLI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "actions/writer.h"
#include "source/source.h"
#include "source/transport.h"

/* Seconds one command may take before it is killed and its part marked
 * failed (slurmctld's MessageTimeout is 10 s by default). */
#define OC_CLI_TIMEOUT_S 20
/* For the history's sacct, which may list 100,000 jobs. */
#define OC_CLI_HIST_TIMEOUT_S 120

/* Open the CLI backend over t (borrowed: it must outlive the backend).
 * Nothing is run yet: the first refresh detects the version (`sinfo
 * --version`, again after any failure) and reads `scontrol show config`.
 * Returns NULL with err on ENOMEM or a slurm_bin too long. Free with
 * oc_backend_close(). */
struct oc_backend *oc_cli_backend_open(struct oc_transport *t, const char *slurm_bin, char *err, size_t errlen);

/* Read every part (nodes, partitions, jobs, reservations, accounting) and
 * ping the controllers through the data agent: `CMD agent` started on the
 * transport's host and kept running there (docs/ssh.md; transport.h's
 * ask); the Slurm commands for the configuration, reports and writes.
 * When CMD is not there or is no agent, or ends, the Slurm commands read
 * everything. cmd "" or a transport without ask: no agent. */
void oc_cli_backend_set_agent(struct oc_backend *b, const char *cmd);

/* How the agent of b stands: *on, and "opsconsole 0.1.0, Slurm 25.11.2";
 * else why the Slurm commands read the cluster ("opsconsole agent: not
 * installed on the head node (...)"), or "not started yet". */
const char *oc_cli_backend_agent(const struct oc_backend *b, bool *on);

/* Fill w with the CLI writer over t (borrowed). Returns 0, or -1 with err
 * (ENOMEM). Release with oc_cli_writer_fini, which frees w->ctx and
 * clears w. */
int oc_cli_writer_init(struct oc_writer *w, struct oc_transport *t, const char *slurm_bin, char *err, size_t errlen);
void oc_cli_writer_fini(struct oc_writer *w);

/* The --json option for a Slurm of version (major * 100 + minor): from
 * 24.11 to 26.05 the output is pinned to data_parser v0.0.42, which every
 * one of them has (24.11: v0.0.40-42, 25.05: 41-43, 25.11: 42-44, 26.05:
 * 42-45), so the shape CI reads on 24.11 and 26.05 is the one 25.05 and
 * 25.11 print. Older releases (22.05: openapi v0.0.38; 23.02-24.05) and
 * newer ones get their default: a plain "--json". Static string. */
const char *oc_cli_json_opt(int version);

/* The command that lists the nodes as JSON, into argv (5 slots, NULL
 * terminated): "sinfo --all --json" before 23.02, "scontrol --json show
 * nodes" from 23.02 (whose sinfo groups nodes per partition). */
void oc_cli_nodes_argv(int version, const char *argv[5]);

/* Run one Slurm command over t: argv[0] is a bare name ("scontrol"),
 * prefixed with slurm_bin when set. Returns 0 when it exited 0 (*r
 * filled), 1 when it ran and failed (err: its stderr, else its stdout,
 * trimmed to the first lines, or why it was killed), -1 when it could not
 * run (err). The caller clears r in every case. */
int oc_cli_run(struct oc_transport *t, const char *slurm_bin, const char *const argv[], int timeout_s,
	       struct oc_run_result *r, char *err, size_t errlen);

#endif
