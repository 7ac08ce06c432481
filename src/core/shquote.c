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

/* ---- command lines shown to be copied ---- */

/* The last place in line where a word ends, after from and at most upto:
 * the first blank of a run of blanks outside quotes, after the line's own
 * leading blanks (lead). 0 when there is none. The quoting state is
 * followed from the line's start, so that a place inside quotes or after
 * a backslash is never taken. */
static size_t shline_last_break(const char *line, size_t len, size_t lead, size_t from, size_t upto)
{
	enum { OUT, SINGLE, DOUBLE } q = OUT;
	size_t found = 0;
	bool blank = true; /* the byte before was a blank between words */
	for (size_t i = 0; i < len && i <= upto; i++) {
		char c = line[i];
		bool was_blank = blank;
		blank = false;
		switch (q) {
		case OUT:
			if (c == '\\')
				i++;
			else if (c == '\'')
				q = SINGLE;
			else if (c == '"')
				q = DOUBLE;
			else if (c == ' ') {
				blank = true;
				if (!was_blank && i > lead && i > from)
					found = i;
			}
			break;
		case SINGLE:
			if (c == '\'')
				q = OUT;
			break;
		case DOUBLE:
			if (c == '\\')
				i++;
			else if (c == '"')
				q = OUT;
			break;
		}
	}
	return found;
}

struct shline_out {
	char *p;
	size_t left; /* bytes left, the NUL's included */
};

/* Appends n bytes of s, cut at a UTF-8 character when out is full. */
static void shline_put(struct shline_out *o, const char *s, size_t n)
{
	if (o->left == 0)
		return;
	if (n >= o->left) {
		n = o->left - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		o->left = n + 1;
	}
	memcpy(o->p, s, n);
	o->p += n;
	o->left -= n;
	*o->p = '\0';
}

enum shline_quote { SHQ_OUT, SHQ_SINGLE, SHQ_DOUBLE };

/* Whether byte i of line is inside a UTF-8 character that starts before
 * it (a cut there would split it). Bytes that are not UTF-8 are
 * characters of their own. */
static bool shline_mid_char(const char *line, size_t i)
{
	if (((unsigned char)line[i] & 0xC0) != 0x80)
		return false;
	for (size_t k = 1; k <= 3 && k <= i; k++) {
		unsigned char b = (unsigned char)line[i - k];
		if ((b & 0xC0) == 0x80)
			continue;
		size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
		return k < n;
	}
	return false;
}

/* Where a word too long for a line may be cut, as a take of at most room
 * bytes from off (0 when none): not inside a UTF-8 character, not after
 * a backslash that escapes the next byte, with room left for what the cut
 * adds: "\" (a line continuation, which bash and dash remove outside
 * single quotes) or, inside single quotes, "'\" (close them first; the
 * next line opens them again). *q: the quotes at the cut. */
static size_t shline_word_cut(const char *line, size_t off, size_t room, enum shline_quote *q)
{
	enum shline_quote st = SHQ_OUT;
	bool esc = false;
	size_t best = 0;
	for (size_t i = 0; i < off + room; i++) {
		/* here: the state before byte i */
		if (i > off && !esc && !shline_mid_char(line, i)) {
			size_t extra = st == SHQ_SINGLE ? 2 : 1;
			if (i - off + extra <= room) {
				best = i - off;
				*q = st;
			}
		}
		char c = line[i];
		if (esc) {
			esc = false;
			continue;
		}
		switch (st) {
		case SHQ_OUT:
			if (c == '\\')
				esc = true;
			else if (c == '\'')
				st = SHQ_SINGLE;
			else if (c == '"')
				st = SHQ_DOUBLE;
			break;
		case SHQ_SINGLE:
			if (c == '\'')
				st = SHQ_OUT;
			break;
		case SHQ_DOUBLE:
			if (c == '\\')
				esc = true;
			else if (c == '"')
				st = SHQ_OUT;
			break;
		}
	}
	return best;
}

int oc_shline_wrap(const char *line, size_t len, int width, char *out, size_t outlen)
{
	struct shline_out o = {out, outlen};
	if (outlen)
		out[0] = '\0';
	size_t w = width < 8 ? 8 : (size_t)width;
	size_t lead = 0;
	while (lead < len && line[lead] == ' ')
		lead++;
	int lines = 0;
	size_t off = 0, indent = 0;
	bool reopen = false; /* the line goes on inside single quotes */
	do {
		size_t room = w - indent - (reopen ? 1 : 0); /* at least w / 2 - 1 */
		size_t take = len - off;
		const char *end = "";
		size_t next_indent = lead + 4 < w / 2 ? lead + 4 : w / 2;
		bool next_reopen = false;
		if (take > room) {
			size_t b = shline_last_break(line, len, lead, off, off + room - 2);
			enum shline_quote q = SHQ_OUT;
			size_t cut;
			if (b > off) {
				take = b - off;
				end = " \\";
			} else if ((cut = shline_word_cut(line, off, room, &q)) > 0) {
				/* A word longer than the line: cut in it, the rest at
				 * the margin (blanks there would split the word). */
				take = cut;
				end = q == SHQ_SINGLE ? "'\\" : "\\";
				next_indent = 0;
				next_reopen = q == SHQ_SINGLE;
			} else {
				take = room; /* no room for anything: cut plainly */
				while (take > 1 && shline_mid_char(line, off + take))
					take--;
			}
		}
		for (size_t i = 0; i < indent; i++)
			shline_put(&o, " ", 1);
		if (reopen)
			shline_put(&o, "'", 1);
		shline_put(&o, line + off, take);
		shline_put(&o, end, strlen(end));
		shline_put(&o, "\n", 1);
		lines++;
		off += take;
		if (end[0] == ' ')
			while (off < len && line[off] == ' ')
				off++;
		indent = next_indent;
		reopen = next_reopen;
	} while (off < len);
	return lines;
}

bool oc_shline_is_command(const char *line, size_t len)
{
	static const char *const cmds[] = {"scontrol", "sacctmgr", "scancel", "sbatch", "srun",	  "salloc", "sdiag",
					   "sinfo",    "squeue",   "sacct",   "sreport", "sprio", "sshare", "strigger"};
	size_t i = 0;
	while (i < len && line[i] == ' ')
		i++;
	if (i == 0)
		return false;
	size_t start = i;
	while (i < len && line[i] != ' ')
		i++;
	if (i == len)
		return false;
	const char *word = line + start;
	size_t n = i - start;
	const char *slash = memrchr(word, '/', n);
	if (slash) {
		n -= (size_t)(slash + 1 - word);
		word = slash + 1;
	}
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (strlen(cmds[k]) == n && memcmp(cmds[k], word, n) == 0)
			return true;
	return false;
}
