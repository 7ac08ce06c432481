/* test_util.h: helpers the cmocka unit tests share (test_util.c, linked
 * into every unit test by tests/unit/CMakeLists.txt): a fresh temporary
 * directory per test, paths and files in it, and checks of error
 * messages. Include it after <cmocka.h> (and the headers cmocka needs). */
#ifndef OC_TESTS_UNIT_TEST_UTIL_H
#define OC_TESTS_UNIT_TEST_UTIL_H

#include <stddef.h>

/* The test's own directory: a fresh mkdtemp directory. */
struct test_util_dir {
	char root[256];
};

/* cmocka setup: makes a fresh directory $TMPDIR/oc_unit_XXXXXX (TMPDIR
 * unset or empty: /tmp), sets the umask to 022 and puts a malloc'd
 * struct test_util_dir into *state, which test_util_teardown frees.
 * Returns 0, or -1 when it cannot. */
int test_util_setup(void **state);

/* cmocka teardown: removes the directory of *state with everything in it
 * and frees *state. Returns 0. */
int test_util_teardown(void **state);

/* d's root + "/" + rel into buf (4096 bytes; the test fails when it does
 * not fit). Returns buf. */
const char *test_util_at(const struct test_util_dir *d, const char *rel, char buf[4096]);

/* mkdir -p of d's root/rel (the test fails when it cannot). Returns
 * nothing. */
void test_util_mkdirs(const struct test_util_dir *d, const char *rel);

/* Writes text into d's root/rel, creating its directories, and makes it
 * mode 0644 (the test fails when it cannot). Returns the path, in buf
 * (4096 bytes). */
const char *test_util_write_file(const struct test_util_dir *d, const char *rel, const char *text,
				 char buf[4096]);

/* The whole file at path, NUL-terminated, its length in *len (the test
 * fails when it cannot be read). The caller frees it. */
char *test_util_slurp(const char *path, size_t *len);

/* Fails the test, printing both, when needle is not in hay. Returns
 * nothing. */
void test_util_assert_contains(const char *hay, const char *needle);

/* Runs path with argv and envp (execve, no shell in between) in the
 * folder dir (NULL: this one), stdin as inherited, and waits for it. Its
 * stdout is returned in a malloc'd buffer the caller frees, NUL-terminated
 * after *len bytes; *status is its waitpid() status. The test fails when
 * it cannot fork or read. */
char *test_util_run(const char *path, char *const argv[], char *const envp[], const char *dir, size_t *len,
		    int *status);

/* The distinct POSIX shells installed here (/bin/sh, dash, bash, zsh,
 * ksh; deduplicated by their real path), found once. Returns how many
 * there are (the test fails when none) and points *paths at their paths. */
#define TEST_UTIL_MAX_SHELLS 8
size_t test_util_shells(const char (**paths)[4096]);

/* What test_util_expect_error calls: loads the file at path into the
 * test's own output and returns what the loader returned; when that is -1
 * it also asserts that the loader left its output empty. */
typedef int (*test_util_load_fn)(const char *path, char *err, size_t errlen);

/* Writes text as d's root/rel, loads it with load and expects -1 with a
 * message that starts with "PATH:" and contains every needle of the
 * NULL-terminated list that follows load (the test fails otherwise). A
 * test file binds its loader once:
 *	#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)
 * Returns nothing. */
void test_util_expect_error(const struct test_util_dir *d, const char *rel,
			    test_util_load_fn load, const char *text, ...);

#endif
