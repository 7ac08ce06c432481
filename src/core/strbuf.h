/* strbuf.h: text built up in a fixed, NUL-terminated char buffer. */
#ifndef OC_CORE_STRBUF_H
#define OC_CORE_STRBUF_H

#include <stddef.h>

/* Appends printf-style text to the NUL-terminated string in buf (len
 * bytes in all), cut to what fits; buf stays NUL-terminated. Does nothing
 * when buf is already full. Returns nothing; nothing to free. */
void oc_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* An error message: printf-style text into err (errlen bytes, cut to
 * fit, NUL-terminated); nothing when err is NULL or errlen 0. Returns
 * nothing; nothing to free. */
void oc_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The noun that goes with a count: one when n is 1, else many, as in
 * printf("%zu %s", n, oc_plural(n, "entry", "entries")). Every count
 * shown next to a noun goes through it ("1 node", "2 nodes"). Returns
 * one or many (borrowed); nothing to free. */
const char *oc_plural(unsigned long long n, const char *one, const char *many);

#endif
