/* snapfile.h: a recorded snapshot of a cluster in a file (`opsconsole
 * --record FILE`), and the backend that serves it (`--snapshot FILE`): the
 * console on a cluster as it was, read-only, with no Slurm at all; for
 * training and onboarding sessions away from the cluster, and for the
 * benchmark's memory figure at 100,000 jobs (docs/snapshots.md).
 *
 * The file is JSON lines: a header object ({"schema":
 * "opsconsole.snapshot/1", "cluster", "slurm_version", "slurm_user",
 * "taken", and the number of rows of each kind}), then one object per
 * node, partition, job and reservation ({"t": "node" | "part" | "job" |
 * "resv", fields of core/model.h by name}). A line at a time is parsed, so
 * reading 100,000 jobs holds one line's JSON tree besides the tables.
 * The association manager and the configuration are not recorded. */
#ifndef OC_SOURCE_SNAPFILE_H
#define OC_SOURCE_SNAPFILE_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "core/model.h"
#include "source/source.h"

/* Write s (its nodes, partitions, jobs and reservations) to f. Returns 0,
 * or -1 with err (a write error). */
int oc_snapfile_write(FILE *f, const struct oc_snapshot *s, char *err, size_t errlen);

/* Read the file at path into a new snapshot (every part marked fetched at
 * the time it was taken, the accounting part empty). Returns NULL with err
 * ("PATH:LINE: what is wrong") for a file that is not a whole snapshot:
 * nothing is kept then. */
struct oc_snapshot *oc_snapfile_read(const char *path, char *err, size_t errlen);

/* A backend serving the snapshot in path: it is read once, here (so a bad
 * file is refused before the screen starts), and every refresh gives the
 * same tables. NULL with err. */
struct oc_backend *oc_snap_backend_open(const char *path, char *err, size_t errlen);

/* When the snapshot a backend of oc_snap_backend_open serves was taken. */
time_t oc_snap_backend_taken(const struct oc_backend *b);

#endif
