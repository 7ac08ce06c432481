/* fuzz_util.c: helpers of the fuzz targets (fuzz_util.h). */
#include "fuzz_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_dir[4096];
static char fuzz_path[4096 + 128];

/* Removes the files fuzz_file wrote and the directory (atexit). */
static void fuzz_cleanup(void)
{
	char cmd[4096 + 64];
	if (!fuzz_dir[0])
		return;
	/* The names are fixed by the targets: remove the known ones. */
	static const char *const names[] = {"fuzz.json", "default.json", "base.json"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s/%s", fuzz_dir, names[i]);
		unlink(cmd);
	}
	rmdir(fuzz_dir);
}

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: fuzz property failed: %s\n", file, line, what);
	abort();
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	if (!fuzz_dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/oc_fuzz_XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(fuzz_dir))
			abort();
		atexit(fuzz_cleanup);
	}
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/%s", fuzz_dir, name);
	int fd = open(fuzz_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		abort();
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0)
			abort();
		off += (size_t)w;
	}
	close(fd);
	return fuzz_path;
}

int fuzz_msg_ok(const char *err, const char *prefix)
{
	if (!err || !err[0])
		return 0;
	if (prefix && strncmp(err, prefix, strlen(prefix)) != 0)
		return 0;
	return 1;
}
