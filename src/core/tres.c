/* tres.c: reading Slurm TRES strings ("cpu=192,mem=400000M,gres/gpu=8")
 * and per-node GRES requests ("gres/gpu:b300:8") without allocating. */
#include "core/tres.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One "name=value" entry of a TRES string, pointing into the string. */
struct tres_entry {
	const char *name;
	size_t name_len;
	const char *val;
	size_t val_len;
};

/* Shrinks [*s, *s + *len) so that it has no leading or trailing white
 * space. */
static void tres_trim(const char **s, size_t *len)
{
	while (*len > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

/* The next entry of a TRES string at *pp; empty entries (",,", a
 * trailing comma) are skipped. Returns 1 and fills *e (advancing *pp),
 * 0 at the end, -1 when the entry has no '=', no name or no value. */
static int tres_next(const char **pp, struct tres_entry *e)
{
	const char *p = *pp;

	while (*p == ',' || isspace((unsigned char)*p))
		p++;
	if (!*p) {
		*pp = p;
		return 0;
	}
	const char *end = strchr(p, ',');
	if (!end)
		end = p + strlen(p);
	const char *eq = memchr(p, '=', (size_t)(end - p));
	*pp = end;
	if (!eq)
		return -1;
	e->name = p;
	e->name_len = (size_t)(eq - p);
	e->val = eq + 1;
	e->val_len = (size_t)(end - eq - 1);
	tres_trim(&e->name, &e->name_len);
	tres_trim(&e->val, &e->val_len);
	if (e->name_len == 0 || e->val_len == 0)
		return -1;
	return 1;
}

/* Parses a TRES value: digits, then optionally a unit K, M, G, T or P
 * (either case) which makes it a size in MB (rounded up; any nonzero
 * size is at least 1 MB). A fraction ("1.50G") is allowed only with a
 * unit, up to 6 digits. Returns 0 and sets *out, -1 when malformed or
 * too large for 64 bits. */
static int tres_value(const char *s, size_t len, uint64_t *out)
{
	size_t i = 0;
	uint64_t whole = 0, frac = 0, frac_div = 1;

	if (len == 0 || !isdigit((unsigned char)s[0]))
		return -1;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (whole > (UINT64_MAX - d) / 10)
			return -1;
		whole = whole * 10 + d;
	}
	bool has_frac = false;
	if (i < len && s[i] == '.') {
		has_frac = true;
		i++;
		size_t start = i;
		for (; i < len && isdigit((unsigned char)s[i]); i++) {
			if (i - start >= 6)
				return -1;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
			frac_div *= 10;
		}
		if (i == start)
			return -1;
	}
	if (i == len) {
		if (has_frac)
			return -1;
		*out = whole;
		return 0;
	}
	if (i + 1 != len)
		return -1;

	unsigned shift;   /* log2 of the unit in KB */
	switch (toupper((unsigned char)s[i])) {
	case 'K': shift = 0; break;
	case 'M': shift = 10; break;
	case 'G': shift = 20; break;
	case 'T': shift = 30; break;
	case 'P': shift = 40; break;
	default: return -1;
	}
	if (shift == 0) {
		/* KB: round the fraction, then the KB, up. */
		uint64_t kb = whole;
		if (frac) {
			if (kb == UINT64_MAX)
				return -1;
			kb++;
		}
		*out = kb / 1024 + (kb % 1024 ? 1 : 0);
		return 0;
	}
	uint64_t mult = (uint64_t)1 << (shift - 10);   /* MB per unit */
	if (whole > UINT64_MAX / mult)
		return -1;
	uint64_t mb = whole * mult;
	/* frac < 10^6 and mult <= 2^30: the product fits in 64 bits. */
	uint64_t frac_mb = (frac * mult + frac_div - 1) / frac_div;
	if (mb > UINT64_MAX - frac_mb)
		return -1;
	*out = mb + frac_mb;
	return 0;
}

/* True when the entry's name is exactly name. */
static bool tres_name_is(const struct tres_entry *e, const char *name)
{
	return strlen(name) == e->name_len && memcmp(e->name, name, e->name_len) == 0;
}

/* Every entry is checked, so a malformed string fails the same way
 * whichever name is asked for. Returns 1 / 0 / -1 as tres.h says. */
int oc_tres_get(const char *tres, const char *name, uint64_t *value)
{
	struct tres_entry e;
	const char *p = tres;
	bool found = false;
	uint64_t v = 0;
	int rc;

	if (!tres || !name || !*name)
		return 0;
	while ((rc = tres_next(&p, &e)) == 1) {
		uint64_t x;
		if (tres_value(e.val, e.val_len, &x) < 0)
			return -1;
		if (!found && tres_name_is(&e, name)) {
			found = true;
			v = x;
		}
	}
	if (rc < 0)
		return -1;
	if (found && value)
		*value = v;
	return found ? 1 : 0;
}

/* The "gres/gpu" total, else the sum of "gres/gpu:TYPE" entries; 0 when
 * none, when the string is malformed or when the sum overflows. */
uint64_t oc_tres_gpus(const char *tres)
{
	static const char typed[] = "gres/gpu:";
	struct tres_entry e;
	const char *p = tres;
	uint64_t sum = 0, total = 0;
	bool has_total = false;
	int rc;

	if (!tres)
		return 0;
	while ((rc = tres_next(&p, &e)) == 1) {
		uint64_t x;
		if (tres_value(e.val, e.val_len, &x) < 0)
			return 0;
		if (tres_name_is(&e, "gres/gpu")) {
			if (!has_total)
				total = x;
			has_total = true;
		} else if (e.name_len > sizeof(typed) - 1 &&
			   memcmp(e.name, typed, sizeof(typed) - 1) == 0) {
			if (sum > UINT64_MAX - x)
				return 0;
			sum += x;
		}
	}
	if (rc < 0)
		return 0;
	return has_total ? total : sum;
}

/* The GPU count of one GRES request entry [s, s + len): 0 when the entry
 * is not a GPU request or its count is not a number. */
static uint64_t tres_gpu_entry(const char *s, size_t len)
{
	tres_trim(&s, &len);
	/* Drop a "(S:0-1)" / "(IDX:0-7)" annotation. */
	const char *paren = memchr(s, '(', len);
	if (paren)
		len = (size_t)(paren - s);
	if (len >= 5 && (memcmp(s, "gres:", 5) == 0 || memcmp(s, "gres/", 5) == 0)) {
		s += 5;
		len -= 5;
	}
	if (len < 3 || memcmp(s, "gpu", 3) != 0)
		return 0;
	s += 3;
	len -= 3;
	if (len == 0)
		return 1;                     /* "gpu" */
	if (*s != ':' && *s != '=')
		return 0;                     /* "gpus", "gpu_foo", ... */

	/* The count is after the last '=', else the last ':' field when it is
	 * all digits; a type alone ("gpu:b300") means one GPU. */
	const char *cnt = NULL;
	size_t cnt_len = 0;
	for (size_t i = len; i-- > 0;) {
		if (s[i] == '=') {
			cnt = s + i + 1;
			cnt_len = len - i - 1;
			break;
		}
	}
	if (!cnt) {
		size_t i = len;
		while (i > 0 && s[i - 1] != ':')
			i--;
		cnt = s + i;
		cnt_len = len - i;
		if (cnt_len == 0)
			return 0;
		for (size_t k = 0; k < cnt_len; k++)
			if (!isdigit((unsigned char)cnt[k]))
				return 1;
	}
	uint64_t v;
	if (cnt_len == 0)
		return 0;
	for (size_t k = 0; k < cnt_len; k++)
		if (!isdigit((unsigned char)cnt[k]))
			return 0;
	if (tres_value(cnt, cnt_len, &v) < 0)
		return 0;
	return v;
}

/* Sum over the comma separated entries (commas inside parentheses do not
 * split); 0 when none or when the sum overflows. */
uint64_t oc_tres_per_node_gpus(const char *tres_per_node)
{
	const char *p = tres_per_node;
	uint64_t sum = 0;

	if (!p)
		return 0;
	while (*p) {
		const char *start = p;
		int depth = 0;
		for (; *p; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')' && depth > 0)
				depth--;
			else if (*p == ',' && depth == 0)
				break;
		}
		uint64_t x = tres_gpu_entry(start, (size_t)(p - start));
		if (sum > UINT64_MAX - x)
			return 0;
		sum += x;
		if (*p == ',')
			p++;
	}
	return sum;
}

uint64_t oc_tres_gres_used_gpus(const char *s)
{
	uint64_t total = 0;
	while (s && *s) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		/* Commas inside "(IDX:0,2)" are skipped by only starting at "gpu:". */
		if (len >= 4 && strncmp(s, "gpu:", 4) == 0) {
			const char *paren = memchr(s, '(', len);
			const char *stop = paren ? paren : s + len;
			const char *colon = NULL;
			for (const char *p = s; p < stop; p++)
				if (*p == ':')
					colon = p;
			if (colon)
				total += strtoull(colon + 1, NULL, 10);
		}
		s = end ? end + 1 : NULL;
	}
	return total;
}
