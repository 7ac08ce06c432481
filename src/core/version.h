/* version.h: Slurm release numbers as the console compares them: the
 * libslurm it was built against with the slurmctld it talks to. */
#ifndef OC_CORE_VERSION_H
#define OC_CORE_VERSION_H

#include <stdbool.h>
#include <stddef.h>

/* The release major of a Slurm version string: "24.11" of "24.11.5",
 * "24.11.0-0rc1", "slurm 24.11.5" or "slurm-wlm 24.11.5" (what `sinfo
 * --version` prints). Writes it into out (always NUL-terminated when len >
 * 0). Returns 0, or -1 (out "") when v holds no "YY.MM" number. */
int oc_version_major(const char *v, char *out, size_t len);

/* Whether both a and b are versions and their majors differ ("22.05.8"
 * and "24.11.5": true; "24.11.1" and "24.11.5": false; "" or NULL: false,
 * nothing to compare). */
bool oc_version_majors_differ(const char *a, const char *b);

/* Whether a slurmd's version differs from slurmctld's: both known and not
 * the same release ("25.05.3" and "25.11.1": true; "25.11.1" twice or a
 * NULL/empty one: false). After a scheduler upgrade (AWS PCS, an on-prem
 * rolling one) nodes run the old slurmd until they are replaced. */
bool oc_version_slurmd_differs(const char *slurmd, const char *slurmctld);

#endif
