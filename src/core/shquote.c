/* shquote.c: the one function that builds a remote command line (see
 * shquote.h). Every word is put between single quotes, always (even a
 * word that needs none): inside single quotes a POSIX shell takes every
 * byte literally but the single quote itself, which is written as '\''
 * (close, an escaped quote, open again). So nothing is expanded, split
 * or globbed, a word starting with '-' or '~' stays one plain word, an
 * empty word stays a word (''), and newlines, control bytes, UTF-8 and
 * invalid UTF-8 pass through unchanged. */
#include "core/shquote.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes the quoted form of w needs (without the NUL), or 0 on overflow. */
static size_t shquote_word_len(const char *w)
{
	size_t n = 2; /* the opening and closing quote */
	for (const char *p = w; *p; p++) {
		size_t add = *p == '\'' ? 4 : 1;
		if (n > SIZE_MAX - add)
			return 0;
		n += add;
	}
	return n;
}

/* Writes the quoted form of w at out. Returns the byte after it. */
static char *shquote_word_put(char *out, const char *w)
{
	*out++ = '\'';
	for (const char *p = w; *p; p++) {
		if (*p == '\'') {
			memcpy(out, "'\\''", 4);
			out += 4;
		} else {
			*out++ = *p;
		}
	}
	*out++ = '\'';
	return out;
}

char *oc_shquote_argv(const char *const argv[])
{
	if (!argv || !argv[0]) {
		errno = EINVAL;
		return NULL;
	}
	size_t total = 1; /* the NUL */
	for (size_t i = 0; argv[i]; i++) {
		size_t n = shquote_word_len(argv[i]);
		size_t sep = i > 0 ? 1 : 0;
		if (n == 0 || total > SIZE_MAX - n - sep) {
			errno = ENOMEM;
			return NULL;
		}
		total += n + sep;
	}
	char *line = malloc(total);
	if (!line)
		return NULL;
	char *p = line;
	for (size_t i = 0; argv[i]; i++) {
		if (i > 0)
			*p++ = ' ';
		p = shquote_word_put(p, argv[i]);
	}
	*p = '\0';
	return line;
}
