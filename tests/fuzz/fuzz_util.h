/* fuzz_util.h: what the fuzz targets of tests/fuzz/ share. Each target is
 * one file fuzz_NAME.c defining LLVMFuzzerTestOneInput; it is linked with
 * libFuzzer in a clang build with -DOC_FUZZ=ON, else with driver.c, which
 * feeds it every file of the directories given (the checked-in seeds and
 * tests/corpus) as a plain regression test. */
#ifndef OC_TESTS_FUZZ_UTIL_H
#define OC_TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as a malloc'd NUL-terminated string (an embedded NUL ends it, as
 * it would for any C string the program is handed). The caller frees it;
 * aborts on ENOMEM. */
char *fuzz_str(const uint8_t *data, size_t size);

/* Writes data into the file NAME (for example "fuzz.json") of a private
 * directory made once per process (mkdtemp under $TMPDIR or /tmp, mode
 * 0700, removed at exit), replacing what it held. Returns its path (static
 * storage, valid until the next call); aborts when it cannot write. */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);

/* Aborts (a crash the fuzzer reports) with what when cond is false. */
#define FUZZ_ASSERT(cond, what)                                                          \
	do {                                                                             \
		if (!(cond))                                                             \
			fuzz_fail(__FILE__, __LINE__, what);                             \
	} while (0)
void fuzz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

/* Whether err is a message a user can act on: not empty, one line, and
 * starting with prefix (a path, "path:", or NULL for no prefix). */
int fuzz_msg_ok(const char *err, const char *prefix);

#endif
