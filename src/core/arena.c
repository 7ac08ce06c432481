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

/* n bytes of the arena aligned to al (a power of two), not cleared.
 * Strings take al = 1, so that short ones do not cost 16 bytes each. */
static void *arena_take(struct oc_arena *a, size_t n, size_t al)
{
	struct oc_arena_block *b = a->head;
	size_t pad = b ? ((al - (b->off & (al - 1))) & (al - 1)) : 0;
	size_t need = n ? n : 1;
	if (!b || b->size - b->off < need + pad) {
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
		pad = 0; /* block data is aligned for any type */
	}
	void *p = b->data + b->off + pad;
	b->off += pad + need;
	a->used += n;
	return p;
}

void *oc_arena_alloc(struct oc_arena *a, size_t n)
{
	void *p = arena_take(a, n, alignof(max_align_t));
	if (p)
		memset(p, 0, n);
	return p;
}

const char *oc_arena_strdup(struct oc_arena *a, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = arena_take(a, n, 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

const char *oc_arena_strndup(struct oc_arena *a, const char *s, size_t n)
{
	char *p = arena_take(a, n + 1, 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
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
