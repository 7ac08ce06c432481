/* test_platform.c: the platform from the profile or the configuration,
 * ParallelCluster's node kinds and reservations, and what the
 * confirmations say it does next. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/pclog.h"
#include "core/platform.h"
#include "source/cli_parse.h"

static struct oc_config *config_of(const char *text)
{
	struct oc_config *cfg = NULL;
	char err[128];
	assert_int_equal(oc_cli_parse_config(text, strlen(text), NULL, &cfg, err, sizeof(err)), 0);
	return cfg;
}

static void test_parse(void **state)
{
	(void)state;
	enum oc_platform p = OC_PLATFORM_ONPREM;
	assert_int_equal(oc_platform_parse("auto", &p), 0);
	assert_int_equal(p, OC_PLATFORM_UNKNOWN);
	assert_int_equal(oc_platform_parse("parallelcluster", &p), 0);
	assert_int_equal(p, OC_PLATFORM_PCLUSTER);
	assert_int_equal(oc_platform_parse("pcs", &p), 0);
	assert_int_equal(p, OC_PLATFORM_PCS);
	assert_int_equal(oc_platform_parse("onprem", &p), 0);
	assert_int_equal(p, OC_PLATFORM_ONPREM);
	assert_int_equal(oc_platform_parse("ParallelCluster", &p), -1);
	assert_int_equal(oc_platform_parse("aws", &p), -1);
}

static void test_detect(void **state)
{
	(void)state;
	char why[256];
	/* ParallelCluster 3.x: its resume and suspend programs. */
	struct oc_config *pc = config_of("ResumeProgram = /opt/parallelcluster/scripts/slurm/slurm_resume.sh\n"
					 "SuspendProgram = /opt/parallelcluster/scripts/slurm/slurm_suspend.sh\n"
					 "PluginDir = /opt/slurm/lib/slurm\n");
	assert_int_equal(oc_platform_detect(OC_PLATFORM_UNKNOWN, pc, why, sizeof(why)), OC_PLATFORM_PCLUSTER);
	assert_non_null(strstr(why, "ResumeProgram /opt/parallelcluster/"));
	/* The profile wins. */
	assert_int_equal(oc_platform_detect(OC_PLATFORM_ONPREM, pc, why, sizeof(why)), OC_PLATFORM_ONPREM);
	assert_non_null(strstr(why, "profile"));
	oc_config_unref(&pc);
	/* AWS PCS: Slurm under /opt/aws/pcs/scheduler. */
	struct oc_config *pcs = config_of("PluginDir = /opt/aws/pcs/scheduler/slurm-25.05/lib/slurm\n"
					  "ResumeProgram = (null)\n");
	assert_int_equal(oc_platform_detect(OC_PLATFORM_UNKNOWN, pcs, why, sizeof(why)), OC_PLATFORM_PCS);
	oc_config_unref(&pcs);
	/* The test cluster: nothing to tell by. */
	struct oc_config *plain = config_of("PluginDir = /usr/lib/x86_64-linux-gnu/slurm-wlm\n"
					    "RebootProgram = /tmp/ops/reboot-node.sh\n");
	assert_int_equal(oc_platform_detect(OC_PLATFORM_UNKNOWN, plain, why, sizeof(why)), OC_PLATFORM_UNKNOWN);
	assert_non_null(strstr(why, "not detected"));
	oc_config_unref(&plain);
	assert_int_equal(oc_platform_detect(OC_PLATFORM_UNKNOWN, NULL, why, sizeof(why)), OC_PLATFORM_UNKNOWN);
}

static void test_nodes_and_reservations(void **state)
{
	(void)state;
	assert_true(oc_platform_static_node("gpu-st-b300-1"));
	assert_false(oc_platform_static_node("gpu-dy-b300-1"));
	assert_true(oc_platform_dynamic_node("gpu-dy-b300-1"));
	assert_true(oc_platform_owns_resv(OC_PLATFORM_PCLUSTER, "pcluster-cb-0123"));
	assert_false(oc_platform_owns_resv(OC_PLATFORM_PCLUSTER, "maint_20261201_2150"));
	assert_false(oc_platform_owns_resv(OC_PLATFORM_ONPREM, "pcluster-cb-0123"));
	assert_false(oc_platform_owns_resv(OC_PLATFORM_UNKNOWN, "pcluster-cb-0123"));

	char *names[] = {"gpu-st-b300-1", "gpu-st-b300-2", "gpu-dy-b300-9"};
	char out[1024] = "";
	oc_platform_node_note(OC_PLATFORM_PCLUSTER, OC_PACT_DRAIN, names, 3, out, sizeof(out));
	assert_non_null(strstr(out, "clustermgtd replaces a static node that is DRAINED or DOWN"));
	assert_non_null(strstr(out, "(2 of them are static)"));
	assert_non_null(strstr(out, "maintenance reservation on it first (m)"));
	assert_non_null(strstr(out, "dynamic nodes (1 here) power down once idle"));
	out[0] = '\0';
	oc_platform_node_note(OC_PLATFORM_PCLUSTER, OC_PACT_REBOOT, names, 2, out, sizeof(out));
	assert_non_null(strstr(out, "does not come back from the reboot"));
	assert_null(strstr(out, "dynamic"));
	/* One node, one static node: the count agrees with its noun. */
	out[0] = '\0';
	oc_platform_node_note(OC_PLATFORM_PCLUSTER, OC_PACT_DRAIN, names, 1, out, sizeof(out));
	assert_non_null(strstr(out, "(it is static)"));
	out[0] = '\0';
	char *mixed[] = {"gpu-st-b300-1", "gpu-dy-b300-9"};
	oc_platform_node_note(OC_PLATFORM_PCLUSTER, OC_PACT_DRAIN, mixed, 2, out, sizeof(out));
	assert_non_null(strstr(out, "(1 of them is static)"));
	/* Elsewhere: nothing to add. */
	out[0] = '\0';
	oc_platform_node_note(OC_PLATFORM_ONPREM, OC_PACT_DRAIN, names, 3, out, sizeof(out));
	oc_platform_node_note(OC_PLATFORM_UNKNOWN, OC_PACT_DRAIN, names, 3, out, sizeof(out));
	assert_string_equal(out, "");
}

static time_t local_time(int y, int mo, int d, int h, int mi, int sec)
{
	struct tm tm = {.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h, .tm_min = mi,
			.tm_sec = sec, .tm_isdst = -1};
	return mktime(&tm);
}

/* A recorded clustermgtd log's tail: its cut first line and a line not in
 * the format skipped, the lines naming nodes in the window kept with
 * their time and level, the heartbeat dropped; a node is named whole
 * (gpu-st-b300-12 is not in gpu-st-b300-125's line by prefix). */
static void test_pclog(void **state)
{
	(void)state;
	char path[4200];
	snprintf(path, sizeof(path), "%s/tests/unit/data/clustermgtd.log", OC_SOURCE_DIR);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char text[1 << 16];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	struct oc_arena a = {0};
	struct oc_pclog_line *v;
	size_t n, skipped;
	time_t since = local_time(2026, 11, 26, 0, 0, 0), until = local_time(2026, 12, 3, 12, 0, 0);
	assert_int_equal(oc_pclog_parse(text, len, since, until, &a, &v, &n, &skipped), 0);
	assert_int_equal(skipped, 1); /* "not a log line at all" */
	assert_int_equal(n, 4);        /* the 11-20 line is before the window */
	assert_int_equal(v[0].when, local_time(2026, 12, 1, 8, 0, 2));
	assert_string_equal(v[0].level, "INFO");
	assert_true(strncmp(v[0].text, "Found the following unhealthy static nodes: (x2)", 48) == 0);
	assert_true(strncmp(v[1].text, "Nodes are now configured with instances", 39) == 0);
	assert_string_equal(v[2].level, "WARNING");
	assert_true(oc_pclog_names(v[0].text, "gpu-st-b300-12"));
	assert_true(oc_pclog_names(v[0].text, "gpu-st-b300-125"));
	assert_true(oc_pclog_names(v[1].text, "gpu-st-b300-12"));
	assert_false(oc_pclog_names(v[1].text, "gpu-st-b300-125"));
	assert_false(oc_pclog_names(v[1].text, "gpu-st-b300-1"));
	assert_true(oc_pclog_names(v[3].text, "gpu-dy-b300-3"));
	assert_false(oc_pclog_names(v[3].text, "gpu-dy-b300"));
	oc_arena_release(&a);
	/* An empty log, and one with nothing in the window. */
	assert_int_equal(oc_pclog_parse("", 0, since, until, &a, &v, &n, NULL), 0);
	assert_int_equal(n, 0);
	assert_int_equal(oc_pclog_parse(text, len, until + 1, 0, &a, &v, &n, NULL), 0);
	assert_int_equal(n, 0);
	oc_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_nodes_and_reservations),
		cmocka_unit_test(test_pclog),
	};
	return cmocka_run_group_tests_name("platform", tests, NULL, NULL);
}
