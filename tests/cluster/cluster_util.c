/* cluster_util.c: the helpers the cluster tests share (cluster_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cluster_util.h"
#include "source/source.h"

struct oc_backend *cluster_util_backend;

/* Returns the command's output, malloc'd (cluster_util.h). */
char *cluster_util_run(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 1024) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	assert_int_equal(pclose(f), 0);
	return buf;
}

/* Returns 0 or -1 (cluster_util.h). */
int cluster_util_setup(void **state)
{
	(void)state;
	char err[256];
	cluster_util_backend = oc_slurm_backend_open(getenv("SLURM_CONF"), err, sizeof(err));
	if (!cluster_util_backend) {
		fprintf(stderr, "backend: %s\n", err);
		return -1;
	}
	return 0;
}

/* Returns 0 (cluster_util.h). */
int cluster_util_teardown(void **state)
{
	(void)state;
	oc_backend_close(&cluster_util_backend);
	return 0;
}
