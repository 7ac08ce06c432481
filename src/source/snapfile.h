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
#include <stdint.h>
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

/* The data agent's answer to a refresh (`opsconsole agent`, docs/ssh.md)
 * is a frame in the same format: a header line {"t": "frame", "seq" (the
 * frame's number, s->seq), "cluster",
 * "slurm_version", "slurm_user", "taken", "status": [[fetched,
 * error_since, error] for nodes, partitions, jobs, reservations,
 * accounting], and the row count of each part sent: "nodes",
 * "partitions", "jobs", "reservations", and "accounting": {"enabled",
 * "dbd_error", "assocs", "qos"}}, the rows of the parts sent ("assoc"
 * and "qos" rows for the accounting, which a file does not hold), then
 * the line OC_SNAPFILE_END. A part not sent did not change. */
#define OC_SNAPFILE_END "{\"t\":\"end\"}"

/* Whether two accounting tables say the same in a frame (every field a
 * frame carries): the agent keeps the old one then, and sends nothing. */
bool oc_snapfile_acct_same(const struct oc_accounting *a, const struct oc_accounting *b);

/* Write the frame of s with the rows of the parts in send (OC_MASK bits),
 * flushed. With prev (the snapshot of the frame before, which the other
 * side holds), the nodes and jobs go as deltas ("delta": their mask in
 * the header): a run of rows unchanged since prev is one line
 * {"t":"same","of":"node"|"job","from":K,"count":C} naming their row
 * numbers in prev's table, any other row is whole. 0, or -1 with err. */
int oc_snapfile_write_frame(FILE *f, const struct oc_snapshot *s, const struct oc_snapshot *prev, unsigned send,
			    char *err, size_t errlen);

/* Apply the frame in buf (len bytes, up to and with its end line) to next,
 * which holds the tables of the previous frame (the rows a delta names
 * are taken from them): the parts sent replace them (a generation more, node indexes resolved against the newest
 * nodes), the names are the frame's; info says which parts came, the
 * frame's number and the sender's statuses of every part (next's are left
 * to the caller: their times are the sender's clock). Returns 0, or -1
 * with err ("agent frame:LINE: what is wrong"), next untouched. */
struct oc_frame_info {
	unsigned sent;                              /* the parts that came */
	uint64_t seq;                               /* the frame's number */
	struct oc_part_status status[OC_PART_COUNT]; /* as the sender had them */
};
int oc_snapfile_read_frame(const char *buf, size_t len, struct oc_snapshot *next, struct oc_frame_info *info,
			   char *err, size_t errlen);

/* A backend serving the snapshot in path: it is read once, here (so a bad
 * file is refused before the screen starts), and every refresh gives the
 * same tables. NULL with err. */
struct oc_backend *oc_snap_backend_open(const char *path, char *err, size_t errlen);

/* When the snapshot a backend of oc_snap_backend_open serves was taken. */
time_t oc_snap_backend_taken(const struct oc_backend *b);

#endif
