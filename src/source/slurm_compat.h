/* slurm_compat.h: libslurm types and calls whose spelling changed between
 * releases, behind one name each, for the files of src/source/ that use them.
 * Internal: include only from src/source/ (and the benchmark tests/bench/bench_fill.c). */
#ifndef OC_SOURCE_SLURM_COMPAT_H
#define OC_SOURCE_SLURM_COMPAT_H

#include <stdlib.h>

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

/* slurm_free_ctl_conf was renamed slurm_free_conf in 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define oc_slurm_free_conf(conf) slurm_free_conf(conf)
#else
#define oc_slurm_free_conf(conf) slurm_free_ctl_conf(conf)
#endif

/* slurm_kill_job and slurm_load_job take a slurm_step_id_t instead of the
 * job id from 26.05 on (libslurm reads only its job_id): OC_SLURM_JOB(id)
 * is what they take. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
static inline slurm_step_id_t oc_slurm_step_of(uint32_t job_id)
{
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;
	id.job_id = job_id;
	return id;
}
#define OC_SLURM_JOB(job_id) oc_slurm_step_of(job_id)
#else
#define OC_SLURM_JOB(job_id) (job_id)
#endif

/* Return what slurm_kill_job / slurm_load_job return, errno as they leave it. */
static inline int oc_slurm_kill_job(uint32_t job_id, uint16_t sig, uint16_t flags)
{
	return slurm_kill_job(OC_SLURM_JOB(job_id), sig, flags);
}

static inline int oc_slurm_load_job(job_info_msg_t **resp, uint32_t job_id, uint16_t show)
{
	return slurm_load_job(resp, OC_SLURM_JOB(job_id), show);
}

/* The reservation name slurm_create_reservation returns: strdup'd up to
 * 25.11, xstrdup'd from 26.05 on (upstream 74f4b700bc, "Return xstring
 * from slurm_create_reservation()"), and free() on xmalloc'd memory aborts
 * the process. slurm.h says "caller must xfree" but declares no xfree;
 * libslurm exports slurm_xfree(void **), the function behind Slurm's own
 * xfree() macro (src/common/xmalloc.h, the same signature from 22.05 to
 * 26.05): declared here for that one use. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
extern void slurm_xfree(void **item);
static inline void oc_slurm_free_resv_name(char *name)
{
	slurm_xfree((void **)&name);
}
#else
static inline void oc_slurm_free_resv_name(char *name)
{
	free(name);
}
#endif

#endif
