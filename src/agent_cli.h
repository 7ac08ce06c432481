/* agent_cli.h: `opsconsole agent`, the data agent a remote console starts
 * on the head node over its SSH session (docs/ssh.md). It keeps the
 * libslurm backend and its last_update loop there and answers requests
 * read from stdin, one per line, with frames on stdout
 * (source/snapfile.h):
 *   hello                      {"t":"hello","schema":"opsconsole.agent/1",
 *                              "version":..., "slurm":...} and the end line
 *   refresh MASK INVAL BASE    invalidate the parts of INVAL, refresh the
 *                              parts of MASK (OC_MASK bits of nodes,
 *                              partitions, jobs, reservations,
 *                              accounting), and answer a frame ("seq": its
 *                              number) with the rows of every part whose
 *                              table changed, nodes and jobs as deltas;
 *                              when BASE (the last frame the console
 *                              applied, 0 none) is not the last frame
 *                              sent, every part refreshed and sent whole
 *   ping {"ctld": [HOST...], "dbd": [HOST...]}
 *                              ping the controllers (slurm_ping by their
 *                              index, slurmdb_ping from 24.11):
 *                              {"t":"ping","ctld":[STATE...],"dbd":[...],
 *                              "error":..., "note":...} (enum
 *                              oc_ctld_state)
 * Anything else is answered {"t":"error","error":...} and the end line.
 * It exits 0 at the end of stdin, 1 when libslurm cannot be opened (the
 * reason on stderr), 3 when a Slurm request did not return in 50 s. */
#ifndef OC_AGENT_CLI_H
#define OC_AGENT_CLI_H

/* Run `opsconsole agent [--slurm-conf FILE]` (argv[0] is "agent").
 * Returns the exit code. */
int oc_agent_cli(int argc, char **argv);

#endif
