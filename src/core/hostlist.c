/* hostlist.c: hostlist expressions without libslurm (hostlist.h). An
 * expression is parsed one top-level item at a time into text pieces and
 * bracket groups; names are generated as the product of the groups. */
#include "core/hostlist.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

#define NAME_MAX_LEN 255
#define MAX_DIGITS 18
#define MAX_PARTS 16 /* text pieces and groups in one item */
#define MAX_RANGES 4096

/* Error messages (core/strbuf.h). */
#define seterr oc_seterr

struct range {
	uint64_t lo, hi;
	int width; /* digits of lo as written: zero padding */
};

struct part {
	const char *text; /* literal text (len bytes) when nranges == 0 */
	size_t len;
	struct range *ranges;
	size_t nranges;
	uint64_t count; /* names in the group */
};

struct item {
	struct part parts[MAX_PARTS];
	size_t nparts;
	struct range pool[MAX_RANGES];
	size_t npool;
};

static bool name_char_ok(unsigned char c)
{
	return c > ' ' && c != 0x7f && c != '[' && c != ']' && c != ',';
}

/* Parse "1-3,07,9]" at s (after '['), up to the closing bracket. Returns
 * the position after ']', or NULL with err. */
static const char *parse_group(const char *s, const char *end, struct item *it, struct part *p, const char *expr,
			       char *err, size_t errlen)
{
	p->ranges = &it->pool[it->npool];
	p->nranges = 0;
	p->count = 0;
	for (;;) {
		if (s >= end) {
			seterr(err, errlen, "'%s': '[' without ']'", expr);
			return NULL;
		}
		struct range r = {0};
		const char *d = s;
		while (s < end && isdigit((unsigned char)*s))
			s++;
		if (s == d) {
			seterr(err, errlen, "'%s': a range needs a number at \"%.16s\"", expr, d);
			return NULL;
		}
		if (s - d > MAX_DIGITS) {
			seterr(err, errlen, "'%s': number too long", expr);
			return NULL;
		}
		r.width = (int)(s - d);
		r.lo = strtoull(d, NULL, 10);
		r.hi = r.lo;
		if (s < end && *s == '-') {
			s++;
			const char *h = s;
			while (s < end && isdigit((unsigned char)*s))
				s++;
			if (s == h) {
				seterr(err, errlen, "'%s': a range needs an upper bound", expr);
				return NULL;
			}
			if (s - h > MAX_DIGITS) {
				seterr(err, errlen, "'%s': number too long", expr);
				return NULL;
			}
			r.hi = strtoull(h, NULL, 10);
			if (r.hi < r.lo) {
				seterr(err, errlen, "'%s': reversed range %llu-%llu", expr, (unsigned long long)r.lo,
				       (unsigned long long)r.hi);
				return NULL;
			}
		}
		if (it->npool >= MAX_RANGES) {
			seterr(err, errlen, "'%s': more than %d ranges", expr, MAX_RANGES);
			return NULL;
		}
		it->pool[it->npool++] = r;
		p->nranges++;
		p->count += r.hi - r.lo + 1;
		if (s < end && *s == ',') {
			s++;
			continue;
		}
		if (s < end && *s == ']')
			return s + 1;
		if (s >= end)
			seterr(err, errlen, "'%s': '[' without ']'", expr);
		else
			seterr(err, errlen, "'%s': unexpected '%c' in a range", expr, *s);
		return NULL;
	}
}

/* Parse one item [s, end). Returns 0, or -1 with err. */
static int parse_item(const char *s, const char *end, struct item *it, const char *expr, char *err, size_t errlen)
{
	it->nparts = 0;
	it->npool = 0;
	if (s == end) {
		seterr(err, errlen, "'%s': empty name", expr);
		return -1;
	}
	while (s < end) {
		if (it->nparts >= MAX_PARTS) {
			seterr(err, errlen, "'%s': too many bracket groups", expr);
			return -1;
		}
		struct part *p = &it->parts[it->nparts];
		memset(p, 0, sizeof(*p));
		if (*s == '[') {
			s = parse_group(s + 1, end, it, p, expr, err, errlen);
			if (!s)
				return -1;
		} else {
			const char *t = s;
			while (s < end && *s != '[') {
				if (!name_char_ok((unsigned char)*s)) {
					if (*s == ']')
						seterr(err, errlen, "'%s': ']' without '['", expr);
					else
						seterr(err, errlen, "'%s': bad character 0x%02x in a name", expr,
						       (unsigned char)*s);
					return -1;
				}
				s++;
			}
			p->text = t;
			p->len = (size_t)(s - t);
			p->count = 1;
		}
		it->nparts++;
	}
	return 0;
}

/* The end of the top-level item starting at s (a ',' outside brackets or
 * the NUL). */
static const char *item_end(const char *s)
{
	int depth = 0;
	for (; *s; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && depth > 0)
			depth--;
		else if (*s == ',' && depth == 0)
			break;
	}
	return s;
}

/* Walk the names of one item: parts from k on, name[0..len) built so far. */
struct walk {
	oc_hostlist_fn fn;
	void *ctx;
	char name[NAME_MAX_LEN + 1];
	const char *expr;
	char *err;
	size_t errlen;
};

static int walk_item(struct walk *w, const struct item *it, size_t k, size_t len)
{
	if (k == it->nparts) {
		w->name[len] = '\0';
		return w->fn(w->ctx, w->name);
	}
	const struct part *p = &it->parts[k];
	if (!p->ranges) {
		if (len + p->len > NAME_MAX_LEN) {
			seterr(w->err, w->errlen, "'%.64s': name longer than %d", w->expr, NAME_MAX_LEN);
			return -1;
		}
		memcpy(w->name + len, p->text, p->len);
		return walk_item(w, it, k + 1, len + p->len);
	}
	for (size_t i = 0; i < p->nranges; i++) {
		const struct range *r = &p->ranges[i];
		for (uint64_t v = r->lo;; v++) {
			char num[32];
			int nl = snprintf(num, sizeof(num), "%0*llu", r->width, (unsigned long long)v);
			if (len + (size_t)nl > NAME_MAX_LEN) {
				seterr(w->err, w->errlen, "'%.64s': name longer than %d", w->expr, NAME_MAX_LEN);
				return -1;
			}
			memcpy(w->name + len, num, (size_t)nl);
			int rc = walk_item(w, it, k + 1, len + (size_t)nl);
			if (rc)
				return rc;
			if (v == r->hi)
				break;
		}
	}
	return 0;
}

/* Count (and with fn, walk) expr. Returns the count, or -1 with err. */
static long hostlist_walk(const char *expr, size_t max, oc_hostlist_fn fn, void *ctx, int *fnrc, char *err,
			  size_t errlen)
{
	if (!expr) {
		seterr(err, errlen, "no hostlist");
		return -1;
	}
	struct item *it = malloc(sizeof(*it));
	if (!it) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	uint64_t total = 0;
	long rc = 0;
	/* Pass 0 checks and counts everything; pass 1 walks. */
	for (int pass = 0; pass < (fn ? 2 : 1) && rc == 0; pass++) {
		for (const char *s = expr; *expr;) {
			const char *e = item_end(s);
			if (parse_item(s, e, it, expr, err, errlen) < 0) {
				rc = -1;
				break;
			}
			if (pass == 0) {
				uint64_t c = 1;
				for (size_t k = 0; k < it->nparts; k++) {
					if (it->parts[k].count && c > UINT64_MAX / 2 / it->parts[k].count) {
						c = UINT64_MAX / 2;
						break;
					}
					c *= it->parts[k].count;
				}
				total += c;
				if (total > (uint64_t)max || total > (uint64_t)INT32_MAX) {
					seterr(err, errlen, "'%.64s%s': more than %zu names", expr,
					       strlen(expr) > 64 ? "..." : "", max);
					rc = -1;
					break;
				}
			} else {
				struct walk w = {.fn = fn, .ctx = ctx, .expr = expr, .err = err, .errlen = errlen};
				int r = walk_item(&w, it, 0, 0);
				if (r) {
					*fnrc = r;
					rc = r < 0 ? -1 : 0;
					break;
				}
			}
			if (!*e)
				break;
			s = e + 1;
			if (!*s) {
				seterr(err, errlen, "'%s': empty name after ','", expr);
				rc = -1;
				break;
			}
		}
	}
	free(it);
	return rc < 0 ? -1 : (long)total;
}

long oc_hostlist_count(const char *expr, char *err, size_t errlen)
{
	return hostlist_walk(expr, (size_t)INT32_MAX, NULL, NULL, NULL, err, errlen);
}

int oc_hostlist_foreach(const char *expr, size_t max, oc_hostlist_fn fn, void *ctx, char *err, size_t errlen)
{
	int fnrc = 0;
	if (hostlist_walk(expr, max, fn, ctx, &fnrc, err, errlen) < 0)
		return fnrc ? fnrc : -1;
	return fnrc;
}

struct collect {
	char **v;
	size_t n, cap;
};

static int collect_one(void *ctx, const char *name)
{
	struct collect *c = ctx;
	char *d = strdup(name);
	if (!d)
		return -2;
	c->v[c->n++] = d;
	return 0;
}

int oc_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n, char *err, size_t errlen)
{
	*names = NULL;
	*n = 0;
	long cnt = hostlist_walk(expr, max, NULL, NULL, NULL, err, errlen);
	if (cnt < 0)
		return -1;
	struct collect c = {.v = calloc((size_t)cnt + 1, sizeof(char *)), .cap = (size_t)cnt};
	if (!c.v) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	int rc = oc_hostlist_foreach(expr, max, collect_one, &c, err, errlen);
	if (rc != 0) {
		if (rc == -2)
			seterr(err, errlen, "out of memory");
		oc_hostlist_names_free(&c.v, c.n);
		return -1;
	}
	*names = c.v;
	*n = c.n;
	return 0;
}

void oc_hostlist_names_free(char ***names, size_t n)
{
	if (!names || !*names)
		return;
	for (size_t i = 0; i < n; i++)
		free((*names)[i]);
	free(*names);
	*names = NULL;
}

/* ---- compress ---------------------------------------------------------- */

struct cname {
	size_t plen;    /* prefix length (before the trailing digits) */
	int dlen;       /* digits, 0 = no number */
	int width;      /* zero-padded: dlen; else 0 */
	uint64_t num;
	size_t order;   /* index of the first name of its group */
	const char *s;
};

static int cname_cmp(const void *a, const void *b)
{
	const struct cname *x = a, *y = b;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return 0;
}

static bool same_group(const struct cname *x, const struct cname *y)
{
	if (x->plen != y->plen || memcmp(x->s, y->s, x->plen) != 0 || !x->dlen != !y->dlen)
		return false;
	if (!x->dlen)
		return strcmp(x->s, y->s) == 0;
	/* "7" and "12" share a group; "07" only joins numbers of 2 digits. */
	return x->width == y->width || (!x->width && y->width == x->dlen) || (!y->width && x->width == y->dlen);
}

struct out {
	char *b;
	size_t len, cap;
	bool oom;
};

static void out_add(struct out *o, const char *s, size_t len)
{
	if (o->oom)
		return;
	if (o->len + len + 1 > o->cap) {
		size_t nc = (o->cap ? o->cap * 2 : 256) + len;
		char *nb = realloc(o->b, nc);
		if (!nb) {
			o->oom = true;
			return;
		}
		o->b = nb;
		o->cap = nc;
	}
	memcpy(o->b + o->len, s, len);
	o->len += len;
	o->b[o->len] = '\0';
}

/* Split names[i] into v[i]: prefix, trailing number, its zero padding.
 * Returns 0, or -1 for an empty, too long or badly formed name. */
static int cname_parse(struct cname *v, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = names[i];
		size_t len = s ? strlen(s) : 0;
		if (!len || len > NAME_MAX_LEN)
			return -1;
		for (size_t k = 0; k < len; k++)
			if (!name_char_ok((unsigned char)s[k]))
				return -1;
		size_t d = len;
		while (d > 0 && isdigit((unsigned char)s[d - 1]) && len - d < MAX_DIGITS)
			d--;
		v[i].s = s;
		v[i].plen = d;
		v[i].dlen = (int)(len - d);
		v[i].width = (v[i].dlen > 1 && s[d] == '0') ? v[i].dlen : 0;
		v[i].num = v[i].dlen ? strtoull(s + d, NULL, 10) : 0;
		v[i].order = i;
	}
	return 0;
}

/* Group v[i, j) (sorted by number) as "prefix[lo-hi,n,...]", or the name
 * alone when it has no number or one distinct number. */
static void compress_group(struct out *o, const struct cname *v, size_t i, size_t j)
{
	/* Distinct numbers of this group. */
	size_t distinct = 0;
	for (size_t k = i; k < j; k++)
		if (k == i || v[k].num != v[k - 1].num)
			distinct++;
	int w = 0;
	for (size_t k = i; k < j; k++)
		if (v[k].width > w)
			w = v[k].width;
	if (!v[i].dlen || distinct == 1) {
		out_add(o, v[i].s, strlen(v[i].s));
		return;
	}
	out_add(o, v[i].s, v[i].plen);
	out_add(o, "[", 1);
	bool first = true;
	for (size_t k = i; k < j;) {
		uint64_t lo = v[k].num, hi = lo;
		size_t m = k + 1;
		while (m < j && (v[m].num == hi || v[m].num == hi + 1)) {
			hi = v[m].num;
			m++;
		}
		char buf[64];
		int bl = lo == hi ? snprintf(buf, sizeof(buf), "%s%0*llu", first ? "" : ",", w, (unsigned long long)lo)
				  : snprintf(buf, sizeof(buf), "%s%0*llu-%0*llu", first ? "" : ",", w,
					     (unsigned long long)lo, w, (unsigned long long)hi);
		out_add(o, buf, (size_t)bl);
		first = false;
		k = m;
	}
	out_add(o, "]", 1);
}

char *oc_hostlist_compress(const char *const *names, size_t n)
{
	struct cname *v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return NULL;
	if (cname_parse(v, names, n) < 0) {
		free(v);
		return NULL;
	}
	/* Group order: the first name of each group (a hash would avoid the
	 * quadratic case; node lists have few distinct prefixes). */
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++)
			if (v[j].order == j && same_group(&v[j], &v[i])) {
				v[i].order = j;
				break;
			}
	}
	qsort(v, n, sizeof(*v), cname_cmp);
	struct out o = {0};
	out_add(&o, "", 0);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && v[j].order == v[i].order)
			j++;
		if (o.len)
			out_add(&o, ",", 1);
		compress_group(&o, v, i, j);
		i = j;
	}
	free(v);
	if (o.oom) {
		free(o.b);
		return NULL;
	}
	return o.b;
}

/* ---- node lists given by a person (the writers' input) ------------------ */

bool oc_node_name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_' || c == '.';
}

static uint64_t nodes_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t nodes_sat_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

/* One "[...]" group starting after '[' at s: ranges "N" or "N-M"
 * separated by commas. Sets *end to the ']' , *count to its number of
 * values and *width to the widest number it makes. Returns 0 or -1. */
static int nodes_check_brackets(const char *expr, const char *s, const char **end, uint64_t *count,
				   size_t *width, char *err, size_t errlen)
{
	*count = 0;
	*width = 0;
	for (;;) {
		const char *lo = s;
		while (*s >= '0' && *s <= '9')
			s++;
		size_t lo_len = (size_t)(s - lo);
		const char *hi = lo;
		size_t hi_len = lo_len;
		if (*s == '-') {
			hi = ++s;
			while (*s >= '0' && *s <= '9')
				s++;
			hi_len = (size_t)(s - hi);
		}
		if (!lo_len || !hi_len) {
			if (*s == '[')
				seterr(err, errlen, "nested '[' at offset %zu", (size_t)(s - expr));
			else if (*s == '\0')
				seterr(err, errlen, "unbalanced brackets: '[' is never closed");
			else
				seterr(err, errlen, "bad range in brackets at offset %zu: expected N or N-M",
				       (size_t)(s - expr));
			return -1;
		}
		if (lo_len > 18 || hi_len > 18) {
			seterr(err, errlen, "number too long in range at offset %zu", (size_t)(lo - expr));
			return -1;
		}
		unsigned long long a = strtoull(lo, NULL, 10), b = strtoull(hi, NULL, 10);
		if (a > b) {
			seterr(err, errlen, "range %llu-%llu at offset %zu goes backwards", a, b,
			       (size_t)(lo - expr));
			return -1;
		}
		*count = nodes_sat_add(*count, (uint64_t)(b - a) + 1);
		size_t w = lo_len > hi_len ? lo_len : hi_len;
		if (w > *width)
			*width = w;
		if (*s == ']') {
			*end = s;
			return 0;
		}
		if (*s != ',') {
			if (*s == '\0')
				seterr(err, errlen, "unbalanced brackets: '[' is never closed");
			else if (*s == '[')
				seterr(err, errlen, "nested '[' at offset %zu", (size_t)(s - expr));
			else if (*s > ' ' && *s < 0x7f)
				seterr(err, errlen, "unexpected '%c' in brackets at offset %zu", *s,
				       (size_t)(s - expr));
			else
				seterr(err, errlen, "unexpected byte 0x%02x in brackets at offset %zu",
				       (unsigned)(unsigned char)*s, (size_t)(s - expr));
			return -1;
		}
		s++;
	}
}

/* A byte of a node name outside brackets at s (not '[' or ','): 0 when it
 * may be in a name, or -1 with a message. */
static int nodes_check_char(const char *expr, const char *s, char *err, size_t errlen)
{
	unsigned char c = (unsigned char)*s;
	if (c == ']') {
		seterr(err, errlen, "']' without '[' at offset %zu", (size_t)(s - expr));
		return -1;
	}
	if (c <= ' ' || c == 0x7f) {
		seterr(err, errlen, "whitespace or control character at offset %zu in hostlist", (size_t)(s - expr));
		return -1;
	}
	if (!oc_node_name_char(c)) {
		if (c < 0x80)
			seterr(err, errlen, "'%c' at offset %zu: node names are letters, digits, '-', '_' and '.'", c,
			       (size_t)(s - expr));
		else
			seterr(err, errlen,
			       "non-ASCII byte at offset %zu: node names are letters, digits, '-', '_' and '.'",
			       (size_t)(s - expr));
		return -1;
	}
	return 0;
}

static int nodes_empty_name(const char *expr, const char *s, char *err, size_t errlen)
{
	seterr(err, errlen, "empty node name at offset %zu (two commas, or a comma at the start or end)",
	       (size_t)(s - expr));
	return -1;
}

/* One name at *s: text and bracket groups up to ',' or the end. Moves *s
 * there and sets *n to how many names it makes. Returns 0 or -1. */
static int nodes_check_name(const char *expr, const char **sp, uint64_t *n, char *err, size_t errlen)
{
	const char *s = *sp, *start = s;
	size_t len = 0;
	bool groups = false, text_after_group = false;
	*n = 1;
	while (*s && *s != ',') {
		if (*s == '[' && groups) {
			/* libslurm and core expand several groups in other
			 * ways (found by fuzz_hostlist): node names have one
			 * number, so one group. */
			seterr(err, errlen, "a second '[' at offset %zu: one \"[...]\" group per name, at its end",
			       (size_t)(s - expr));
			return -1;
		}
		if (*s == '[') {
			const char *close;
			uint64_t k;
			size_t w;
			if (nodes_check_brackets(expr, s + 1, &close, &k, &w, err, errlen) < 0)
				return -1;
			*n = nodes_sat_mul(*n, k);
			len += w;
			groups = true;
			text_after_group = false;
			s = close + 1;
			continue;
		}
		if (nodes_check_char(expr, s, err, errlen) < 0)
			return -1;
		if (groups)
			text_after_group = true;
		len++;
		s++;
	}
	if (s == start)
		return nodes_empty_name(expr, s, err, errlen);
	if (text_after_group) {
		seterr(err, errlen, "text after ']' in \"%.*s\": libslurm's hostlists take no suffix",
		       (int)(s - start), start);
		return -1;
	}
	if (len > OC_NODE_NAME_MAX) {
		seterr(err, errlen, "node names of \"%.40s...\" are longer than %d characters", start,
		       OC_NODE_NAME_MAX);
		return -1;
	}
	*sp = s;
	return 0;
}

/* Check the syntax of a hostlist expression and count its names without
 * expanding it: comma-separated names of [A-Za-z0-9._-], each with
 * optional numeric "[1-3,7]" groups (not nested, no text after the last
 * group: libslurm refuses "a[1-2]-b"), no empty name, no whitespace, no
 * name longer than OC_NODE_NAME_MAX. Returns 0 and *count (duplicates
 * included, saturating), or -1 with a message. */
int oc_hostlist_check_nodes(const char *expr, uint64_t *count, char *err, size_t errlen)
{
	*count = 0;
	if (!expr || !*expr) {
		seterr(err, errlen, "empty hostlist");
		return -1;
	}
	const char *s = expr;
	for (;;) {
		uint64_t n;
		if (nodes_check_name(expr, &s, &n, err, errlen) < 0)
			return -1;
		*count = nodes_sat_add(*count, n);
		if (!*s)
			return 0;
		s++; /* ',' */
		if (!*s)
			return nodes_empty_name(expr, s, err, errlen);
	}
}

/* One plain node name (no brackets, no commas): 0 or -1 with a message. */
int oc_node_name_check(const char *name, char *err, size_t errlen)
{
	size_t len = name ? strlen(name) : 0;
	if (!len) {
		seterr(err, errlen, "empty node name");
		return -1;
	}
	if (len > OC_NODE_NAME_MAX) {
		seterr(err, errlen, "node name longer than %d characters", OC_NODE_NAME_MAX);
		return -1;
	}
	for (const char *p = name; *p; p++)
		if (!oc_node_name_char((unsigned char)*p)) {
			seterr(err, errlen, "node name \"%.64s\": letters, digits, '-', '_' and '.' only", name);
			return -1;
		}
	/* The number libslurm's hostlists split off the end of the name. */
	const char *d = name + len;
	while (d > name && d[-1] >= '0' && d[-1] <= '9')
		d--;
	if (name + len - d > 18) { /* as in brackets: libslurm keeps the zero padding as a width */
		seterr(err, errlen, "node name \"%.64s\": more than 18 digits at its end", name);
		return -1;
	}
	while (*d == '0' && d[1])
		d++;
	if (strlen(d) > 10 || (strlen(d) == 10 && strcmp(d, OC_NODE_NUM_MAX_STR) > 0)) {
		seterr(err, errlen, "node name \"%.64s\": the number at its end is above %s (libslurm's hostlists merge such names)",
		       name, OC_NODE_NUM_MAX_STR);
		return -1;
	}
	return 0;
}

/* Host order: the text before the number at the end of the name, then
 * that number's value, then its width ("n9" < "n10" < "n010"). Two names
 * compare equal only when they are the same string. */
int oc_host_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t xl = strlen(x), yl = strlen(y), xd = xl, yd = yl;
	while (xd > 0 && x[xd - 1] >= '0' && x[xd - 1] <= '9')
		xd--;
	while (yd > 0 && y[yd - 1] >= '0' && y[yd - 1] <= '9')
		yd--;
	int c = memcmp(x, y, xd < yd ? xd : yd);
	if (c || xd != yd)
		return c ? c : (xd < yd ? -1 : 1);
	/* Same prefix: compare the numbers without their leading zeros. */
	const char *xn = x + xd, *yn = y + yd;
	while (*xn == '0' && xn[1])
		xn++;
	while (*yn == '0' && yn[1])
		yn++;
	size_t xnl = strlen(xn), ynl = strlen(yn);
	if (xnl != ynl)
		return xnl < ynl ? -1 : 1;
	c = strcmp(xn, yn);
	if (c)
		return c;
	return xl == yl ? 0 : (xl < yl ? -1 : 1);
}

/* Sorts v[0..*n-1] (malloc'd names) into host order and frees the
 * duplicates, leaving *n unique names. */
void oc_hostlist_uniq(char **v, size_t *n)
{
	size_t k = 0;
	qsort(v, *n, sizeof(*v), oc_host_cmp);
	for (size_t i = 0; i < *n; i++) {
		if (k && strcmp(v[i], v[k - 1]) == 0)
			free(v[i]);
		else
			v[k++] = v[i];
	}
	*n = k;
}

int oc_hostlist_check_nodes_max(const char *expr, size_t max, uint64_t *count, char *err, size_t errlen)
{
	if (oc_hostlist_check_nodes(expr, count, err, errlen) < 0)
		return -1;
	if (*count <= max)
		return 0;
	if (*count == UINT64_MAX)
		seterr(err, errlen, "hostlist names too many nodes (limit %zu)", max);
	else
		seterr(err, errlen, "hostlist names %llu nodes, more than the limit of %zu", (unsigned long long)*count,
		       max);
	return -1;
}

int oc_hostlist_expand_nodes(const char *expr, size_t max, char ***names, size_t *n, char *err, size_t errlen)
{
	*names = NULL;
	*n = 0;
	uint64_t count;
	if (oc_hostlist_check_nodes_max(expr, max, &count, err, errlen) < 0)
		return -1;
	char **v;
	size_t k;
	if (oc_hostlist_expand(expr, max, &v, &k, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < k; i++)
		if (oc_node_name_check(v[i], err, errlen) < 0) {
			oc_hostlist_names_free(&v, k);
			return -1;
		}
	oc_hostlist_uniq(v, &k);
	*names = v;
	*n = k;
	return 0;
}
