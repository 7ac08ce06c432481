/* test_arena.c: the bump allocator of the tables: strings packed without
 * padding, other allocations aligned for any type and zeroed, big ones in
 * blocks of their own, everything gone with one release. */
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/arena.h"

static void test_strings_packed(void **state)
{
	(void)state;
	struct oc_arena a = {0};
	const char *x = oc_arena_strdup(&a, "ab");
	const char *y = oc_arena_strdup(&a, "cde");
	assert_string_equal(x, "ab");
	assert_string_equal(y, "cde");
	/* No padding between strings: 3 bytes for "ab". */
	assert_ptr_equal(y, x + 3);
	assert_null(oc_arena_strdup(&a, NULL));
	assert_null(oc_arena_strdup_nonempty(&a, ""));
	assert_string_equal(oc_arena_strdup_nonempty(&a, "z"), "z");
	oc_arena_release(&a);
	assert_null(a.head);
}

static void test_alloc_aligned_zeroed(void **state)
{
	(void)state;
	struct oc_arena a = {0};
	for (int i = 0; i < 1000; i++) {
		oc_arena_strdup(&a, i % 2 ? "odd" : "x"); /* leaves the offset unaligned */
		unsigned char *p = oc_arena_alloc(&a, (size_t)(i % 40) + 1);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % alignof(max_align_t), 0);
		for (int k = 0; k < i % 40 + 1; k++)
			assert_int_equal(p[k], 0);
		memset(p, 0xff, (size_t)(i % 40) + 1); /* must not overlap what follows */
	}
	oc_arena_release(&a);
}

static void test_big_blocks(void **state)
{
	(void)state;
	struct oc_arena a = {0};
	const char *s = oc_arena_strdup(&a, "before");
	uint64_t *big = oc_arena_alloc(&a, 1 << 20);
	assert_non_null(big);
	assert_int_equal((uintptr_t)big % alignof(max_align_t), 0);
	big[(1 << 20) / 8 - 1] = 42;
	/* Small requests still come from the block before the big one. */
	const char *t = oc_arena_strdup(&a, "after");
	assert_ptr_equal(t, s + strlen("before") + 1);
	assert_string_equal(s, "before");
	oc_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings_packed),
		cmocka_unit_test(test_alloc_aligned_zeroed),
		cmocka_unit_test(test_big_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
