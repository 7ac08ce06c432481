/* test_util.c: the helpers the unit tests share (test_util.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/* nftw callback: removes one entry (the tree is walked depth first). */
static int test_util_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Returns 0 or -1 (test_util.h). */
int test_util_setup(void **state)
{
	struct test_util_dir *d = calloc(1, sizeof(*d));
	if (!d)
		return -1;
	const char *tmp = getenv("TMPDIR");
	snprintf(d->root, sizeof(d->root), "%s/oc_unit_XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(d->root)) {
		free(d);
		return -1;
	}
	umask(022);
	*state = d;
	return 0;
}

/* Returns 0 (test_util.h). */
int test_util_teardown(void **state)
{
	struct test_util_dir *d = *state;
	nftw(d->root, test_util_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(d);
	*state = NULL;
	return 0;
}

/* Returns buf (test_util.h). */
const char *test_util_at(const struct test_util_dir *d, const char *rel, char buf[4096])
{
	int n = snprintf(buf, 4096, "%s/%s", d->root, rel);
	assert_true(n > 0 && n < 4096);
	return buf;
}

/* mkdir -p (test_util.h). */
void test_util_mkdirs(const struct test_util_dir *d, const char *rel)
{
	char path[4096];
	test_util_at(d, rel, path);
	for (char *p = path + strlen(d->root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
}

/* Returns the path in buf (test_util.h). */
const char *test_util_write_file(const struct test_util_dir *d, const char *rel, const char *text,
				 char buf[4096])
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", rel);
	char *slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		test_util_mkdirs(d, dir);
	}
	test_util_at(d, rel, buf);
	FILE *fp = fopen(buf, "w");
	assert_non_null(fp);
	assert_true(fputs(text, fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(buf, 0644), 0);
	return buf;
}

/* (test_util.h) */
void test_util_assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		print_error("\"%s\" not in \"%s\"\n", needle, hay);
	assert_non_null(strstr(hay, needle));
}

/* (test_util.h) */
void test_util_expect_error(const struct test_util_dir *d, const char *rel,
			    test_util_load_fn load, const char *text, ...)
{
	char path[4096], err[1024];
	va_list ap;

	test_util_write_file(d, rel, text, path);
	int rc = load(path, err, sizeof(err));
	if (rc != -1)
		print_error("accepted: %s\n", text);
	assert_int_equal(rc, -1);
	/* the message starts with the path */
	assert_memory_equal(err, path, strlen(path));
	assert_int_equal(err[strlen(path)], ':');
	va_start(ap, text);
	for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
		test_util_assert_contains(err, needle);
	va_end(ap);
}

/* Returns the output, malloc'd (test_util.h). */
char *test_util_run(const char *path, char *const argv[], char *const envp[], const char *dir, size_t *len,
		    int *status)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		if (dir && chdir(dir) != 0)
			_exit(126);
		execve(path, argv, envp);
		_exit(127);
	}
	close(fds[1]);
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	assert_non_null(buf);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		ssize_t r = read(fds[0], buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fds[0]);
	buf[n] = '\0';
	assert_int_equal(waitpid(pid, status, 0), pid);
	*len = n;
	return buf;
}

/* Returns the number of shells (test_util.h). */
size_t test_util_shells(const char (**paths)[4096])
{
	static char found[TEST_UTIL_MAX_SHELLS][4096];
	static size_t nfound;
	static const char *cand[] = {"/bin/sh", "/bin/dash", "/bin/bash", "/bin/zsh", "/bin/ksh",
				     "/usr/bin/dash", "/usr/bin/bash", "/usr/bin/zsh", "/usr/bin/ksh"};
	for (size_t i = 0; nfound == 0 && i < sizeof(cand) / sizeof(cand[0]); i++) {
		char real[4096];
		if (access(cand[i], X_OK) != 0 || !realpath(cand[i], real))
			continue;
		bool dup = false;
		for (size_t k = 0; k < nfound; k++)
			dup = dup || strcmp(found[k], real) == 0;
		if (!dup && nfound < TEST_UTIL_MAX_SHELLS)
			snprintf(found[nfound++], sizeof(found[0]), "%s", real);
	}
	assert_true(nfound > 0);
	*paths = (const char(*)[4096])found;
	return nfound;
}

char *test_util_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return b;
}
