#include "core/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OC_ARENA_BLOCK 65536

struct oc_arena_block {
	struct oc_arena_block *next;
	size_t size, off;
	alignas(max_align_t) unsigned char data[];
};

void *oc_arena_alloc(struct oc_arena *a, size_t n)
{
	const size_t al = alignof(max_align_t);
	size_t need = (n + al - 1) & ~(al - 1);
	if (need == 0)
		need = al;
	struct oc_arena_block *b = a->head;
	if (!b || b->size - b->off < need) {
		size_t size = need > OC_ARENA_BLOCK / 4 ? need : OC_ARENA_BLOCK;
		struct oc_arena_block *nb = malloc(sizeof(*nb) + size);
		if (!nb)
			return NULL;
		nb->size = size;
		nb->off = 0;
		if (b && size != OC_ARENA_BLOCK) {
			/* A big one-off block goes behind the current one so the
			 * current block keeps serving small requests. */
			nb->next = b->next;
			b->next = nb;
		} else {
			nb->next = b;
			a->head = nb;
		}
		b = nb;
	}
	void *p = b->data + b->off;
	b->off += need;
	a->used += n;
	memset(p, 0, n);
	return p;
}

const char *oc_arena_strdup(struct oc_arena *a, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = oc_arena_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

const char *oc_arena_strdup_nonempty(struct oc_arena *a, const char *s)
{
	return (s && *s) ? oc_arena_strdup(a, s) : NULL;
}

void oc_arena_release(struct oc_arena *a)
{
	struct oc_arena_block *b = a->head;
	while (b) {
		struct oc_arena_block *n = b->next;
		free(b);
		b = n;
	}
	a->head = NULL;
	a->used = 0;
}
