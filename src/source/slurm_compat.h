/* slurm_compat.h: libslurm types whose spelling changed between releases,
 * behind one name each, for the files of src/source/ that use them.
 * Internal: include only from src/source/. */
#ifndef OC_SOURCE_SLURM_COMPAT_H
#define OC_SOURCE_SLURM_COMPAT_H

#include <slurm/slurm.h>

/* hostlist_t became the struct itself (used through pointers) in 23.11. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
typedef hostlist_t *oc_hostlist;
#else
typedef hostlist_t oc_hostlist;
#endif

/* List types: 22.05 has only List/ListIterator, 24.11 removed List;
 * list_t/list_itr_t exist from 23.02 on. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
typedef list_t *oc_list;
typedef list_itr_t *oc_list_itr;
#else
typedef List oc_list;
typedef ListIterator oc_list_itr;
#endif

#endif
