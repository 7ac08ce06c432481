/* slurm_convert.h: libslurm messages -> core model tables, shared by the
 * backend (slurm_source.c, which defines these, and slurm_config.c) and the
 * writer's read-back (slurm_write.c), so that both see a node, a
 * reservation or the configuration the same way.
 * Internal: libslurm types, include only from src/source/. */
#ifndef OC_SOURCE_SLURM_CONVERT_H
#define OC_SOURCE_SLURM_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <slurm/slurm.h>

#include "core/model.h"
#include "core/nodeindex.h"
#include "core/strmap.h"

/* A small cache of uid -> user name, so that 10k jobs cost a few
 * getpwuid. Zero-initialise it; it owns no memory. Not thread safe: one
 * cache per thread (or under the owner's lock). */
struct oc_slurm_uid_entry {
	uid_t uid;
	char name[64];
};
struct oc_slurm_uid_cache {
	struct oc_slurm_uid_entry e[256];
};

/* The name of uid, from the cache or NSS; the number as text when NSS has
 * no entry. Returns a pointer into the cache, valid until the next call
 * that evicts that slot. */
const char *oc_slurm_uid_name(struct oc_slurm_uid_cache *c, uint32_t uid);

/* Node lists are resolved with struct oc_node_index (core/nodeindex.h). */

/* Convert a node message into a new table (one reference, the caller
 * unrefs); its generation is prev's + 1 (1 when prev is NULL). uids
 * resolves reason_uid. NULL on ENOMEM. */
struct oc_nodes *oc_slurm_convert_nodes(struct oc_slurm_uid_cache *uids, const node_info_msg_t *msg,
					const struct oc_nodes *prev);

/* Convert a reservation message into a new table (one reference, the
 * caller unrefs). ix: the node table to resolve node_idx against, or NULL
 * to leave node_idx empty (node_generation 0). NULL on ENOMEM. */
struct oc_reservations *oc_slurm_convert_resv(const reserve_info_msg_t *msg,
					      struct oc_node_index *ix,
					      const struct oc_reservations *prev);

/* Convert the controller's configuration into a new table (one reference,
 * the caller unrefs; conf stays the caller's): every key/value pair
 * `scontrol show config` prints, in its order and spelling
 * ("AccountingStorageEnforce" = "associations,limits,qos", "KillWait" =
 * "300 sec"; an unset value, printed "(null)", is NULL). Its generation is
 * prev's + 1 (1 when prev is NULL). Defined in slurm_config.c. NULL on
 * ENOMEM (or when conf is NULL). */
struct oc_config *oc_slurm_convert_config(slurm_conf_t *conf, const struct oc_config *prev);

/* A node's node_state (NODE_STATE_* base and flags) into the model's
 * *base and *flags; the bits and bases the model has no flag for (the
 * ERROR base, 22.05's NET, a bit of a newer Slurm) go to other as
 * "+PERFCTRS+0x40000000" (len bytes, always NUL-terminated, "" when none)
 * with OC_NF_OTHER in *flags. */
void oc_slurm_node_state(uint32_t node_state, enum oc_node_base *base, uint32_t *flags, char *other,
			 size_t len);

/* A job's job_state (JOB_* base and flags) as the model's state. */
enum oc_job_state oc_slurm_job_state(uint32_t job_state);

/* Reservation flag bits as Slurm prints them ("MAINT,IGNORE_JOBS") into
 * buf (always NUL-terminated; names that do not fit are left out). */
void oc_slurm_resv_flags_string(uint64_t flags, char *buf, size_t len);

/* The RESERVE_FLAG_* bit of one flag name as oc_slurm_resv_flags_string
 * writes it (case-insensitive, len bytes of name, not NUL-terminated).
 * Returns 0 and sets *bit, or -1 when the name is unknown to this build. */
int oc_slurm_resv_flag_bit(const char *name, size_t len, uint64_t *bit);

#endif
