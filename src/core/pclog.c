/* pclog.c: the clustermgtd log's lines about nodes (pclog.h). */
#include "core/pclog.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A character of a node name. */
static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

bool oc_pclog_names(const char *text, const char *node)
{
	size_t k = node ? strlen(node) : 0;
	if (!text || !k)
		return false;
	for (const char *p = strstr(text, node); p; p = strstr(p + 1, node))
		if ((p == text || !name_char(p[-1])) && !name_char(p[k]))
			return true;
	return false;
}

/* Whether [p, end) holds a ParallelCluster node name: a word with "-st-"
 * or "-dy-" and a number at its end. */
static bool has_pc_node(const char *p, const char *end)
{
	for (const char *q = p; q + 4 <= end; q++) {
		if (q[0] != '-' || (memcmp(q, "-st-", 4) != 0 && memcmp(q, "-dy-", 4) != 0) || q == p ||
		    !name_char(q[-1]))
			continue;
		const char *w = q + 4;
		while (w < end && name_char(*w))
			w++;
		if (w > q + 4 && isdigit((unsigned char)w[-1]))
			return true;
	}
	return false;
}

/* "YYYY-MM-DD HH:MM:SS,mmm" at p (local time). Returns 0 and *t. */
static int parse_stamp(const char *p, const char *end, time_t *t)
{
	if (end - p < 23)
		return -1;
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	char buf[20];
	memcpy(buf, p, 19);
	buf[19] = '\0';
	const char *rest = strptime(buf, "%Y-%m-%d %H:%M:%S", &tm);
	if (!rest || *rest || p[19] != ',' || !isdigit((unsigned char)p[20]))
		return -1;
	tm.tm_isdst = -1;
	*t = mktime(&tm);
	return *t == (time_t)-1 ? -1 : 0;
}

int oc_pclog_parse(const char *text, size_t len, time_t since, time_t until, struct oc_arena *a,
		   struct oc_pclog_line **out, size_t *n, size_t *skipped)
{
	*out = NULL;
	*n = 0;
	if (skipped)
		*skipped = 0;
	size_t cap = 0;
	const char *p = text, *end = text + len;
	/* The tail of a file: the first line may be cut. */
	if (len && parse_stamp(p, end, &(time_t){0}) < 0) {
		const char *nl = memchr(p, '\n', len);
		p = nl ? nl + 1 : end;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *next = nl ? nl + 1 : end;
		time_t when;
		/* " - [logger:function] - LEVEL - message" after the stamp */
		/* (searched within the line: a log of odd lines stays linear) */
		const char *f1 = le - p > 26 ? memmem(p + 23, (size_t)(le - (p + 23)), " - [", 4) : NULL;
		const char *f2 = f1 ? memmem(f1 + 4, (size_t)(le - (f1 + 4)), "] - ", 4) : NULL;
		const char *f3 = f2 ? memmem(f2 + 4, (size_t)(le - (f2 + 4)), " - ", 3) : NULL;
		if (p == le) {
			p = next;
			continue;
		}
		if (parse_stamp(p, le, &when) < 0 || !f3 || f3 >= le) {
			if (skipped)
				(*skipped)++;
			p = next;
			continue;
		}
		const char *msg = f3 + 3;
		if (when < since || (until && when > until) || !has_pc_node(msg, le)) {
			p = next;
			continue;
		}
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct oc_pclog_line *v = oc_arena_alloc(a, ncap * sizeof(*v));
			if (!v)
				return -1;
			if (*n)
				memcpy(v, *out, *n * sizeof(*v));
			*out = v;
			cap = ncap;
		}
		struct oc_pclog_line *l = &(*out)[(*n)++];
		l->when = when;
		l->level = oc_arena_strndup(a, f2 + 4, (size_t)(f3 - (f2 + 4)));
		l->text = oc_arena_strndup(a, msg, (size_t)(le - msg));
		if (!l->level || !l->text)
			return -1;
		p = next;
	}
	return 0;
}
