/* jobcmd.h: the rehearsal's probe-job commands, shared by the libslurm
 * writer (slurm_write.c) and the CLI writer (cli_write.c) so that both
 * submit the same sbatch argv and read sbatch and sacct the same way. No
 * Slurm header. */
#ifndef OC_SOURCE_JOBCMD_H
#define OC_SOURCE_JOBCMD_H

#include <stddef.h>
#include <stdint.h>

#include "actions/writer.h"

#define OC_JOBCMD_MAX_ARGV 40

/* The texts argv points into. */
struct oc_jobcmd_args {
	char name[96], nodes[32], gres[48], time[48], signal[64], wrap[300];
};

/* Check a job spec: names of [A-Za-z0-9_.:@,=-] not starting with '-'
 * (user and job name required), a one-line command, sizes in range.
 * Returns 0, or -1 with a message naming the field. */
int oc_jobcmd_check(const struct oc_job_spec *spec, char *err, size_t errlen);

/* argv of `[runuser -u USER --] sbatch --parsable -J NAME [-A ...] [-p ...]
 * [--qos ...] [-N n] [-w NODES] [--gres=gpu:n] [--time=n] [--signal=...] [--requeue]
 * [--hold] --mem=1G --output=/dev/null --wrap=COMMAND`, NULL-terminated,
 * pointing into spec, b and the two program names (runuser NULL: no
 * runuser). Nothing to free. */
void oc_jobcmd_sbatch_argv(const struct oc_job_spec *spec, const char *runuser, const char *sbatch,
			   struct oc_jobcmd_args *b, const char *argv[OC_JOBCMD_MAX_ARGV]);

/* Lines of text joined by " / ", trailing blanks dropped, into buf. */
void oc_jobcmd_join(char *buf, size_t len, const char *text);

/* The job id sbatch --parsable printed ("123" or "123;cluster", other
 * lines skipped). Returns 0, or -1 when none. */
int oc_jobcmd_job_id(const char *out, uint32_t *id);

/* Count the lines of `sacct -a -X -n -P -o user,account,jobid` (buf, which
 * is modified) per (user, account) into out as sorted lines "alice team-a
 * 3" ("-" for an empty field). Returns the number of pairs, or -1 with
 * err (a line of another shape, out too small, ENOMEM). */
int oc_jobcmd_sacct_count(char *buf, char *out, size_t outlen, char *err, size_t errlen);

#endif
