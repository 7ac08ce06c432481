#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t strmap_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

int oc_strmap_init(struct oc_strmap *m, size_t n)
{
	size_t cap = 16;
	while (cap < n * 2 + 1)
		cap <<= 1;
	m->keys = calloc(cap, sizeof(*m->keys));
	m->vals = calloc(cap, sizeof(*m->vals));
	m->cap = cap;
	m->n = 0;
	if (!m->keys || !m->vals) {
		oc_strmap_free(m);
		return -1;
	}
	return 0;
}

static int strmap_grow(struct oc_strmap *m)
{
	struct oc_strmap bigger;
	if (oc_strmap_init(&bigger, m->cap) < 0)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			oc_strmap_put(&bigger, m->keys[i], m->vals[i]);
	oc_strmap_free(m);
	*m = bigger;
	return 0;
}

int oc_strmap_put(struct oc_strmap *m, const char *key, uint32_t val)
{
	if (!m->cap || (m->n + 1) * 2 > m->cap) {
		if (!m->cap ? oc_strmap_init(m, 8) < 0 : strmap_grow(m) < 0)
			return -1;
	}
	size_t mask = m->cap - 1;
	for (size_t i = strmap_hash(key) & mask;; i = (i + 1) & mask) {
		if (!m->keys[i]) {
			m->keys[i] = key;
			m->vals[i] = val;
			m->n++;
			return 0;
		}
		if (strcmp(m->keys[i], key) == 0) {
			m->vals[i] = val;
			return 0;
		}
	}
}

uint32_t oc_strmap_get(const struct oc_strmap *m, const char *key)
{
	if (!m->cap || !key)
		return UINT32_MAX;
	size_t mask = m->cap - 1;
	for (size_t i = strmap_hash(key) & mask; m->keys[i]; i = (i + 1) & mask)
		if (strcmp(m->keys[i], key) == 0)
			return m->vals[i];
	return UINT32_MAX;
}

void oc_strmap_free(struct oc_strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
