/* tres.h: Slurm TRES strings ("cpu=192,mem=400000M,node=1,gres/gpu=8"). */
#ifndef OC_CORE_TRES_H
#define OC_CORE_TRES_H

#include <stdint.h>

/* Look up one TRES by its exact name ("cpu", "mem", "node", "gres/gpu",
 * "gres/gpu:b300"). Memory values with a unit suffix (K, M, G, T, P) are
 * returned in MB; other values as written. Returns 1 and sets *value when
 * found, 0 when absent (or tres is NULL/empty), -1 when the string is
 * malformed (*value untouched). */
int oc_tres_get(const char *tres, const char *name, uint64_t *value);

/* GPUs in a TRES string: the "gres/gpu" total, or else the sum of typed
 * "gres/gpu:TYPE" entries; 0 when none. */
uint64_t oc_tres_gpus(const char *tres);

/* GPUs in a per-node GRES/TRES request as job records carry it:
 * "gres:gpu:8", "gres/gpu:8", "gres/gpu:b300:8", "gpu:8", "gres/gpu=8",
 * "gpu" (means 1); several entries may be comma separated. 0 when none. */
uint64_t oc_tres_per_node_gpus(const char *tres_per_node);

/* GPUs in use from a node's gres_used as Slurm prints it ("gpu:8",
 * "gpu:8(IDX:0-7)", "gpu:b300:3(IDX:0-2),gpu:b200:1(IDX:4)",
 * "gpu:0(IDX:N/A)"); 0 for NULL or no GPU. */
uint64_t oc_tres_gres_used_gpus(const char *gres_used);

#endif
