/* test_tres.c: TRES strings and per-node GPU requests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/tres.h"

#define UNTOUCHED 0xdeadbeefULL

/* oc_tres_get's return code; *value is checked to be untouched unless 1. */
static int get(const char *tres, const char *name, uint64_t *value)
{
	uint64_t v = UNTOUCHED;
	int rc = oc_tres_get(tres, name, &v);
	if (rc != 1)
		assert_int_equal(v, UNTOUCHED);
	*value = v;
	return rc;
}

static void test_get_basic(void **state)
{
	(void)state;
	const char *t = "cpu=192,mem=400000M,billing=192,gres/gpu=8,gres/gpu:b300=8";
	uint64_t v;

	assert_int_equal(get(t, "cpu", &v), 1);
	assert_int_equal(v, 192);
	assert_int_equal(get(t, "mem", &v), 1);
	assert_int_equal(v, 400000);
	assert_int_equal(get(t, "billing", &v), 1);
	assert_int_equal(v, 192);
	assert_int_equal(get(t, "gres/gpu", &v), 1);
	assert_int_equal(v, 8);
	assert_int_equal(get(t, "gres/gpu:b300", &v), 1);
	assert_int_equal(v, 8);
	/* exact names only */
	assert_int_equal(get(t, "node", &v), 0);
	assert_int_equal(get(t, "gres", &v), 0);
	assert_int_equal(get(t, "gres/gpu:b30", &v), 0);
	assert_int_equal(get(t, "CPU", &v), 0);
	assert_int_equal(get("gres/gpu:b300=4", "gres/gpu", &v), 0);
	/* the first of two equal names */
	assert_int_equal(get("cpu=1,cpu=2", "cpu", &v), 1);
	assert_int_equal(v, 1);
	/* value pointer may be NULL */
	assert_int_equal(oc_tres_get(t, "cpu", NULL), 1);
	assert_int_equal(oc_tres_get(t, "node", NULL), 0);
}

static void test_get_empty(void **state)
{
	(void)state;
	uint64_t v;

	assert_int_equal(get(NULL, "cpu", &v), 0);
	assert_int_equal(get("", "cpu", &v), 0);
	assert_int_equal(get(",", "cpu", &v), 0);
	assert_int_equal(get(" , ,", "cpu", &v), 0);
	assert_int_equal(get("cpu=4", NULL, &v), 0);
	assert_int_equal(get("cpu=4", "", &v), 0);
	/* trailing, leading and doubled commas are harmless */
	assert_int_equal(get("cpu=4,", "cpu", &v), 1);
	assert_int_equal(v, 4);
	assert_int_equal(get(",cpu=4,,mem=1G,", "mem", &v), 1);
	assert_int_equal(v, 1024);
	assert_int_equal(get(" cpu = 4 , mem=2 ", "cpu", &v), 1);
	assert_int_equal(v, 4);
	assert_int_equal(get("cpu=0", "cpu", &v), 1);
	assert_int_equal(v, 0);
}

static void test_get_malformed(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"cpu=",          /* no value */
		"cpu= ",
		"cpu",           /* no '=' */
		"=4",            /* no name */
		"cpu=abc",
		"cpu=-1",
		"cpu=+1",
		"cpu=4x",
		"cpu=4 4",
		"cpu=1.5",       /* a fraction needs a unit */
		"cpu=0x10",
		"mem=4GB",
		"mem=4X",
		"mem=1.G",
		"mem=.5G",
		"mem=1.1234567G", /* more than 6 fraction digits */
		"cpu=4=5",
		"cpu=4,mem=",    /* broken after the asked entry */
		"mem=,cpu=4",    /* broken before it */
		"cpu=4,node",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v;
		if (get(bad[i], "cpu", &v) != -1)
			print_error("\"%s\" was accepted\n", bad[i]);
		assert_int_equal(get(bad[i], "cpu", &v), -1);
		/* a malformed string has no GPUs */
		assert_int_equal(oc_tres_gpus(bad[i]), 0);
	}
}

static void test_get_overflow(void **state)
{
	(void)state;
	uint64_t v;

	assert_int_equal(get("cpu=18446744073709551615", "cpu", &v), 1);
	assert_true(v == UINT64_MAX);
	assert_int_equal(get("cpu=18446744073709551616", "cpu", &v), -1);
	assert_int_equal(get("cpu=99999999999999999999999999", "cpu", &v), -1);
	assert_int_equal(get("mem=18446744073709551615M", "mem", &v), 1);
	assert_true(v == UINT64_MAX);
	assert_int_equal(get("mem=18446744073709551615G", "mem", &v), -1);
	/* 2^34 P = 2^64 MB: one too many */
	assert_int_equal(get("mem=17179869184P", "mem", &v), -1);
	assert_int_equal(get("mem=17179869183P", "mem", &v), 1);
	assert_true(v == (UINT64_MAX - ((1ULL << 30) - 1)));
	assert_int_equal(get("mem=18446744073709551615K", "mem", &v), 1);
	assert_true(v == (1ULL << 54));
	assert_int_equal(get("mem=18446744073709551615.5K", "mem", &v), -1);
}

static void test_get_units(void **state)
{
	(void)state;
	static const struct {
		const char *val;
		uint64_t mb;
	} cases[] = {
		{ "400000M", 400000 },
		{ "400000", 400000 },  /* no unit: as written (MB) */
		{ "1G", 1024 },
		{ "1g", 1024 },
		{ "2T", 2097152 },
		{ "1P", 1073741824 },
		{ "512K", 1 },         /* nonzero rounds up to 1 MB */
		{ "1K", 1 },
		{ "0K", 0 },
		{ "0G", 0 },
		{ "1024K", 1 },
		{ "1025K", 2 },
		{ "2048k", 2 },
		{ "1.5G", 1536 },
		{ "1.50G", 1536 },
		{ "0.5M", 1 },
		{ "1.001G", 1026 },    /* 1025.024 rounds up */
		{ "0.5K", 1 },
		{ "3.25T", 3407872 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char t[64];
		uint64_t v;
		snprintf(t, sizeof(t), "cpu=1,mem=%s,node=1", cases[i].val);
		assert_int_equal(get(t, "mem", &v), 1);
		if (v != cases[i].mb)
			print_error("mem=%s gave %llu\n", cases[i].val, (unsigned long long)v);
		assert_int_equal(v, cases[i].mb);
	}
}

static void test_gpus(void **state)
{
	(void)state;
	assert_int_equal(oc_tres_gpus(NULL), 0);
	assert_int_equal(oc_tres_gpus(""), 0);
	assert_int_equal(oc_tres_gpus("cpu=4,mem=1G"), 0);
	assert_int_equal(oc_tres_gpus("cpu=192,mem=400000M,gres/gpu=8"), 8);
	assert_int_equal(oc_tres_gpus("gres/gpu:b300=4,gres/gpu:a100=2"), 6);
	assert_int_equal(oc_tres_gpus("gres/gpu:b300=4,gres/gpu=8,gres/gpu:a100=4"), 8);
	assert_int_equal(oc_tres_gpus("gres/gpu=0,gres/gpu:b300=4"), 0);
	assert_int_equal(oc_tres_gpus("gres/gpumem=100,gres/gpu:=3,gres/gpus=2"), 0);
	assert_int_equal(oc_tres_gpus("gres/shard=16,gres/gpu=2,"), 2);
	assert_int_equal(oc_tres_gpus("gres/gpu="), 0);
	assert_int_equal(oc_tres_gpus("gres/gpu:a=18446744073709551615,gres/gpu:b=1"), 0);
}

static void test_per_node_gpus(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		uint64_t n;
	} cases[] = {
		{ "gres:gpu:8", 8 },
		{ "gres/gpu:8", 8 },
		{ "gres/gpu:b300:8", 8 },
		{ "gres:gpu:b300:8", 8 },
		{ "gpu:8", 8 },
		{ "gres/gpu=8", 8 },
		{ "gres/gpu:b300=4", 4 },
		{ "gpu", 1 },
		{ "gres/gpu", 1 },
		{ "gpu:b300", 1 },
		{ "gpu:0", 0 },
		{ "gres:gpu:1g.10gb:2", 2 },
		{ "gres/gpu:b300:4,gres/gpu:a100:2", 6 },
		{ "gres/gpu:b300:8(S:0-1)", 8 },
		{ "gpu:b300:2(S:0,1),gpu:a100:1", 3 },
		{ "gres/mps:100,gres/gpu:2", 2 },
		{ " gres/gpu:2 , license:x ", 2 },
		{ "gres/shard:2", 0 },
		{ "gpus:4", 0 },
		{ "gpu_x:4", 0 },
		{ "gpu:", 0 },
		{ "gpu=", 0 },
		{ "gres/gpu=x", 0 },
		{ "gres/gpu:99999999999999999999999", 0 },
		{ "gres/gpu:18446744073709551615,gpu:1", 0 },
		{ ",,", 0 },
		{ "", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t n = oc_tres_per_node_gpus(cases[i].s);
		if (n != cases[i].n)
			print_error("\"%s\" gave %llu\n", cases[i].s, (unsigned long long)n);
		assert_int_equal(n, cases[i].n);
	}
	assert_int_equal(oc_tres_per_node_gpus(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_basic),
		cmocka_unit_test(test_get_empty),
		cmocka_unit_test(test_get_malformed),
		cmocka_unit_test(test_get_overflow),
		cmocka_unit_test(test_get_units),
		cmocka_unit_test(test_gpus),
		cmocka_unit_test(test_per_node_gpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
