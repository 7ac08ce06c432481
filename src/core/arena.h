/* arena.h: a bump allocator for the strings and arrays of one table.
 * Everything allocated from an arena is freed at once with it. */
#ifndef OC_CORE_ARENA_H
#define OC_CORE_ARENA_H

#include <stddef.h>

struct oc_arena_block;

struct oc_arena {
	struct oc_arena_block *head;
	size_t used;   /* bytes handed out, for statistics */
};

/* Zeroed memory of n bytes aligned for any type, owned by the arena.
 * Returns NULL on ENOMEM. */
void *oc_arena_alloc(struct oc_arena *a, size_t n);
/* A copy of s in the arena; NULL when s is NULL or on ENOMEM. */
const char *oc_arena_strdup(struct oc_arena *a, const char *s);
/* A copy of the n bytes at s, NUL-terminated; NULL on ENOMEM. */
const char *oc_arena_strndup(struct oc_arena *a, const char *s, size_t n);
/* Like oc_arena_strdup but returns NULL for "" too. */
const char *oc_arena_strdup_nonempty(struct oc_arena *a, const char *s);
/* Free every block; the arena is empty and reusable afterwards. */
void oc_arena_release(struct oc_arena *a);

#endif
