/* cluster_util.h: helpers the cluster tests share (cluster_util.c, linked
 * into every cluster test by tests/cluster/CMakeLists.txt): running a
 * command for its output, and a cmocka group setup and teardown that open
 * and close the libslurm backend on $SLURM_CONF. Include it after
 * <cmocka.h> (and the headers cmocka needs). */
#ifndef OC_TESTS_CLUSTER_CLUSTER_UTIL_H
#define OC_TESTS_CLUSTER_CLUSTER_UTIL_H

struct oc_backend;

/* The backend cluster_util_setup opened (NULL before it and after
 * cluster_util_teardown). Owned by cluster_util.c. */
extern struct oc_backend *cluster_util_backend;

/* Runs cmd through popen (test code only; the test fails when it cannot
 * start or exits non-zero). Returns its output, malloc'd: the caller
 * frees. */
char *cluster_util_run(const char *cmd);

/* cmocka group setup: opens cluster_util_backend on $SLURM_CONF. Returns
 * 0, or -1 (with a line on stderr) when it cannot. */
int cluster_util_setup(void **state);

/* cmocka group teardown: closes cluster_util_backend and clears it.
 * Returns 0. */
int cluster_util_teardown(void **state);

#endif
