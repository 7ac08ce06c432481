/* slurm_write.h: the libslurm implementation of the actions' writer
 * vtable (actions/writer.h): node updates, reservations, read-back,
 * hostlists, and who the user is to Slurm.
 *
 * What this implementation adds to the contract of writer.h:
 * - hostlist_expand checks the expression itself before libslurm sees it
 *   (names of [A-Za-z0-9._-] with numeric "[1-3,7]" groups, no whitespace,
 *   no empty name, no text after the last ']', names of at most 255
 *   characters) and counts its names before expanding; the names come back
 *   in libslurm's host order without duplicates.
 * - hostlist_compress drops duplicates; it returns NULL (as on ENOMEM)
 *   when a name is not a plain node name (empty, brackets, commas...).
 * - node_update and resv_create check the expression the same way; errors
 *   from slurmctld are slurm_strerror's text ("Invalid user id" for a user
 *   who is not an operator). Resuming a drained node makes slurmctld mark
 *   it NOT_RESPONDING ("idle*") until the node answers a ping, usually
 *   within a second: a read-back should not treat that as a failure.
 * - resv_create takes the flag names Slurm prints ("MAINT,IGNORE_JOBS",
 *   case-insensitive); start 0 lets slurmctld start it on its own clock.
 * - read_reservations leaves node_idx empty (no node table to resolve
 *   against); read_nodes is a full load (update time 0).
 * - whoami: root and SlurmUser are ADMIN without asking accounting;
 *   others get their AdminLevel from slurmctld's association manager
 *   (Operator -> OPERATOR, Administrator -> ADMIN), NONE when accounting
 *   is off or the user is not in it.
 * The writer's only state is read_nodes' uid cache, under a lock, so its
 * functions may run on more than one thread (all of them block on
 * slurmctld: never the UI thread). */
#ifndef OC_SOURCE_SLURM_WRITE_H
#define OC_SOURCE_SLURM_WRITE_H

#include <stddef.h>

#include "actions/writer.h"

/* Fill w with the libslurm writer. slurm_init must have been called (by
 * oc_slurm_backend_open). Returns 0, or -1 with err. Release with
 * oc_slurm_writer_fini, which frees w->ctx and clears w. */
int oc_slurm_writer_init(struct oc_writer *w, char *err, size_t errlen);
void oc_slurm_writer_fini(struct oc_writer *w);

#endif
