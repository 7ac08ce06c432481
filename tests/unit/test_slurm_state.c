/* test_slurm_state.c: libslurm's node_state bits into the model's base and
 * flags (oc_slurm_node_state, slurm_source.c), with the NODE_STATE_* of the
 * slurm.h built against, and the strings sinfo and scontrol print for
 * them (core/state.c). Built only with libslurm. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/state.h"
#include "source/slurm_convert.h"

/* The compact and long strings of a node_state, and its other_flags. */
static void expect(uint32_t st, const char *compact, const char *lng, const char *other)
{
	struct oc_node n = {.name = "n1"};
	char o[128], b[160];
	oc_slurm_node_state(st, &n.base, &n.flags, o, sizeof(o));
	n.other_flags = o[0] ? o : NULL;
	if (strcmp(oc_node_state_compact(&n, b, sizeof(b)), compact) != 0)
		fail_msg("0x%x: compact \"%s\", want \"%s\"", st, b, compact);
	if (strcmp(oc_node_state_long(&n, b, sizeof(b)), lng) != 0)
		fail_msg("0x%x: long \"%s\", want \"%s\"", st, b, lng);
	assert_string_equal(o, other);
	assert_int_equal(!!(n.flags & OC_NF_OTHER), !!other[0]);
}

static void test_bases_and_flags(void **state)
{
	(void)state;
	expect(NODE_STATE_IDLE, "idle", "IDLE", "");
	expect(NODE_STATE_MIXED | NODE_STATE_PLANNED, "mix-", "MIXED+PLANNED", "");
	expect(NODE_STATE_IDLE | NODE_STATE_PLANNED, "plnd", "IDLE+PLANNED", "");
	expect(NODE_STATE_IDLE | NODE_STATE_CLOUD | NODE_STATE_POWERED_DOWN, "idle~", "IDLE+CLOUD+POWERED_DOWN", "");
	expect(NODE_STATE_IDLE | NODE_STATE_POWERING_UP, "idle#", "IDLE+POWERING_UP", "");
	expect(NODE_STATE_IDLE | NODE_STATE_POWERING_DOWN, "idle%", "IDLE+POWERING_DOWN", "");
	expect(NODE_STATE_IDLE | NODE_STATE_POWER_DOWN, "idle!", "IDLE+POWER_DOWN", "");
	expect(NODE_STATE_IDLE | NODE_STATE_POWER_DOWN | NODE_STATE_POWER_DRAIN, "idle!",
	       "IDLE+POWER_DOWN+POWER_DRAIN", "");
	expect(NODE_STATE_IDLE | NODE_STATE_POWERED_DOWN | NODE_STATE_POWER_UP, "idle~",
	       "IDLE+POWER_UP+POWERED_DOWN", "");
	expect(NODE_STATE_IDLE | NODE_STATE_DRAIN | NODE_STATE_NO_RESPOND, "drain*", "IDLE+DRAIN+NOT_RESPONDING", "");
	expect(NODE_STATE_MIXED | NODE_STATE_DRAIN, "drng", "MIXED+DRAIN", "");
	expect(NODE_STATE_ALLOCATED | NODE_STATE_FAIL, "failg", "ALLOCATED+FAIL", "");
	expect(NODE_STATE_IDLE | NODE_STATE_REBOOT_REQUESTED, "boot", "IDLE+REBOOT_REQUESTED", "");
	expect(NODE_STATE_DOWN | NODE_STATE_REBOOT_ISSUED, "boot^", "DOWN+REBOOT_ISSUED", "");
	expect(NODE_STATE_MIXED | NODE_STATE_REBOOT_ISSUED, "mix^", "MIXED+REBOOT_ISSUED", "");
	expect(NODE_STATE_IDLE | NODE_STATE_MAINT, "maint", "IDLE+MAINTENANCE", "");
	expect(NODE_STATE_ALLOCATED | NODE_STATE_MAINT, "alloc$", "ALLOCATED+MAINTENANCE", "");
	expect(NODE_STATE_IDLE | NODE_STATE_RES, "resv", "IDLE+RESERVED", "");
	expect(NODE_STATE_DOWN | NODE_STATE_INVALID_REG, "inval", "DOWN+INVALID_REG", "");
	expect(NODE_STATE_IDLE | NODE_STATE_DYNAMIC_NORM, "idle", "IDLE+DYNAMIC_NORM", "");
	expect(NODE_STATE_FUTURE | NODE_STATE_DYNAMIC_FUTURE, "futr", "FUTURE+DYNAMIC_FUTURE", "");
	expect(NODE_STATE_IDLE | NODE_STATE_COMPLETING, "comp", "IDLE+COMPLETING", "");
	expect(NODE_STATE_UNKNOWN | NODE_STATE_NO_RESPOND, "unk*", "UNKNOWN+NOT_RESPONDING", "");
	expect(NODE_STATE_IDLE | NODE_RESUME | NODE_STATE_UNDRAIN | NODE_STATE_REBOOT_CANCEL, "idle",
	       "IDLE+RESUME+REBOOT_CANCELED+UNDRAIN", "");
}

/* The flags of some releases only. */
static void test_guarded_flags(void **state)
{
	(void)state;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
	expect(NODE_STATE_IDLE | NODE_STATE_BLOCKED, "block", "IDLE+BLOCKED", "");
	expect(NODE_STATE_IDLE | NODE_STATE_BLOCKED | NODE_STATE_RES, "resv", "IDLE+BLOCKED+RESERVED", "");
#else
	expect(NODE_STATE_IDLE | NODE_STATE_NET, "idle?", "IDLE+PERFCTRS", "+PERFCTRS");
	/* BLOCKED's bit from a newer slurmctld: by number. */
	expect(NODE_STATE_IDLE | (1u << 27), "idle?", "IDLE+0x8000000", "+0x8000000");
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
	expect(NODE_STATE_IDLE | NODE_STATE_EXTERNAL, "idle", "IDLE+EXTERNAL", "");
#endif
}

/* Every flag bit this slurm.h defines has a name; the bits it does not
 * (none up to 26.05 above bit 27) come out by number, the ERROR base as
 * "ERROR": never a plain "idle". */
static void test_unknown(void **state)
{
	(void)state;
	expect(NODE_STATE_IDLE | (1u << 28), "idle?", "IDLE+0x10000000", "+0x10000000");
	expect(NODE_STATE_IDLE | NODE_STATE_DRAIN | (1u << 31) | (1u << 29), "drain?",
	       "IDLE+DRAIN+0x20000000+0x80000000", "+0x20000000+0x80000000");
	expect(NODE_STATE_ERROR, "unk?", "UNKNOWN+ERROR", "+ERROR");
	char lng[64], other[32];
	snprintf(other, sizeof(other), "+BASE_%u", (unsigned)NODE_STATE_END + 1);
	snprintf(lng, sizeof(lng), "UNKNOWN%s", other);
	expect(NODE_STATE_END + 1, "unk?", lng, other);
	/* Every bit of NODE_STATE_FLAGS below 28 is a flag of this release
	 * with a model flag, except the ones named below. */
	for (unsigned b = 4; b < 28; b++) {
		uint32_t st = NODE_STATE_IDLE | (1u << b);
		struct oc_node n = {.name = "n"};
		char o[64];
		oc_slurm_node_state(st, &n.base, &n.flags, o, sizeof(o));
		bool named = !(n.flags & OC_NF_OTHER) || strncmp(o, "+0x", 3) != 0;
		/* Bit 4 (NET until 23.11, EXTERNAL from 25.05) is unused in
		 * 24.05/24.11; bit 8 is NODE_RESUME; bits 27 BLOCKED (24.05+). */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0) && SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(25, 5, 0)
		if (b == 4)
			continue;
#endif
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0)
		if (b == 27)
			continue;
#endif
		if (!named)
			fail_msg("bit %u has no name: %s", b, o);
	}
}

/* A short buffer for other: cut between words, always terminated. */
static void test_other_short(void **state)
{
	(void)state;
	struct oc_node n = {.name = "n"};
	char o[12];
	oc_slurm_node_state(NODE_STATE_ERROR | (1u << 28) | (1u << 29), &n.base, &n.flags, o, sizeof(o));
	assert_string_equal(o, "+ERROR");
	assert_true(n.flags & OC_NF_OTHER);
}

/* Reservation flags: the names scontrol prints, both ways, with the ones
 * of some releases only behind the same guards as slurm_source.c. */
static void test_resv_flags(void **state)
{
	(void)state;
	char b[512];
	uint64_t bit = 0;
	oc_slurm_resv_flags_string(RESERVE_FLAG_MAINT | RESERVE_FLAG_IGN_JOBS | RESERVE_FLAG_MAGNETIC |
					   RESERVE_FLAG_NO_HOLD_JOBS | RESERVE_FLAG_FLEX,
				   b, sizeof(b));
	assert_string_equal(b, "MAINT,FLEX,IGNORE_JOBS,NO_HOLD_JOBS_AFTER_END,MAGNETIC");
	oc_slurm_resv_flags_string(RESERVE_FLAG_HOURLY | RESERVE_FLAG_REPLACE_DOWN | RESERVE_FLAG_NO_MAINT, b, sizeof(b));
	assert_string_equal(b, "NO_MAINT,HOURLY,REPLACE_DOWN");
	assert_int_equal(oc_slurm_resv_flag_bit("magnetic", 8, &bit), 0);
	assert_true(bit == RESERVE_FLAG_MAGNETIC);
	assert_int_equal(oc_slurm_resv_flag_bit("NO_HOLD_JOBS_AFTER_END", 22, &bit), 0);
	assert_true(bit == RESERVE_FLAG_NO_HOLD_JOBS);
	assert_int_equal(oc_slurm_resv_flag_bit("ALLOW_JOBS", 10, &bit), -1);
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 5, 0)
	oc_slurm_resv_flags_string(RESERVE_FLAG_USER_DEL | RESERVE_FLAG_MAINT, b, sizeof(b));
	assert_string_equal(b, "MAINT,USER_DELETE");
	assert_int_equal(oc_slurm_resv_flag_bit("USER_DELETE", 11, &bit), 0);
	assert_true(bit == RESERVE_FLAG_USER_DEL);
#else
	assert_int_equal(oc_slurm_resv_flag_bit("USER_DELETE", 11, &bit), -1);
#endif
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 5, 0)
	oc_slurm_resv_flags_string(RESERVE_FLAG_FORCE_START, b, sizeof(b));
	assert_string_equal(b, "FORCE_START");
	assert_int_equal(oc_slurm_resv_flag_bit("FORCE_START", 11, &bit), 0);
#else
	assert_int_equal(oc_slurm_resv_flag_bit("FORCE_START", 11, &bit), -1);
#endif
	/* A short buffer: the names that fit, never half a name. */
	char s[12];
	oc_slurm_resv_flags_string(RESERVE_FLAG_MAINT | RESERVE_FLAG_IGN_JOBS, s, sizeof(s));
	assert_string_equal(s, "MAINT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bases_and_flags),
		cmocka_unit_test(test_guarded_flags),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_other_short),
		cmocka_unit_test(test_resv_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
