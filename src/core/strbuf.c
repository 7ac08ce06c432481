/* strbuf.c: text built up in a fixed buffer (strbuf.h). */
#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Appends what fits (strbuf.h). */
void oc_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t off = strlen(buf);
	if (off + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}

void oc_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* English: only exactly one takes the singular ("0 nodes"). */
const char *oc_plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
