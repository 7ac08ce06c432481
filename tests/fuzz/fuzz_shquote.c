/* fuzz_shquote.c: oc_shquote_argv (core/shquote.c), the one builder of
 * remote command lines. The input, split at its NUL bytes, is the argv.
 * Property: the line, read back by the rules of a POSIX shell for what it
 * may contain (words separated by blanks; '...' quotes everything but a
 * quote; \' outside quotes is a quote), gives exactly the input words, and
 * holds no byte outside a quoted section that a shell would act on. (The
 * unit test unit.shquote runs the same property through /bin/sh and bash
 * themselves; a fork per input is too slow for a fuzzer.) */
#include <stdlib.h>
#include <string.h>

#include "core/shquote.h"
#include "fuzz_util.h"

#define MAX_WORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[MAX_WORDS + 1];
	char *copy = malloc(size + 1);
	FUZZ_ASSERT(copy != NULL, "ENOMEM");
	memcpy(copy, data, size);
	copy[size] = '\0';
	size_t n = 0;
	for (size_t i = 0; n < MAX_WORDS;) {
		argv[n++] = copy + i;
		const char *nul = memchr(copy + i, '\0', size + 1 - i);
		i = (size_t)(nul - copy) + 1;
		if (i > size)
			break;
	}
	argv[n] = NULL;
	char *line = oc_shquote_argv(argv);
	FUZZ_ASSERT(line != NULL, "no line for a non-empty argv");

	/* Read it back. */
	size_t len = strlen(line), w = 0;
	char *word = malloc(len + 1);
	FUZZ_ASSERT(word != NULL, "ENOMEM");
	size_t p = 0;
	while (p < len) {
		size_t o = 0;
		FUZZ_ASSERT(w < n, "more words than given");
		while (p < len && line[p] != ' ') {
			if (line[p] == '\'') {
				const char *end = strchr(line + p + 1, '\'');
				FUZZ_ASSERT(end != NULL, "an unterminated quote");
				size_t k = (size_t)(end - (line + p + 1));
				memcpy(word + o, line + p + 1, k);
				o += k;
				p += k + 2;
			} else if (line[p] == '\\' && line[p + 1] == '\'') {
				word[o++] = '\'';
				p += 2;
			} else {
				FUZZ_ASSERT(0, "a byte outside quotes");
			}
		}
		word[o] = '\0';
		FUZZ_ASSERT(strcmp(word, argv[w]) == 0, "a word changed");
		w++;
		if (p < len) {
			FUZZ_ASSERT(line[p] == ' ' && p + 1 < len && line[p + 1] != ' ', "not one blank between words");
			p++;
		}
	}
	FUZZ_ASSERT(w == n, "fewer words than given");
	free(word);
	free(line);
	free(copy);
	return 0;
}
