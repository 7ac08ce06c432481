/* driver.c: a main for the fuzz targets when they are not built with
 * libFuzzer (gcc, or clang without -DOC_FUZZ=ON): feeds
 * LLVMFuzzerTestOneInput every regular file named on the command line or
 * found (not recursively) in a directory named there, and says how many.
 * A crash or a failed property aborts like under the fuzzer. Exit 0, or 2
 * when a path cannot be read or no input was found. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

/* Runs the target on the file at path. Returns 0, -1 when unreadable. */
static int driver_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, len = 0;
	unsigned char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			abort();
		size_t r = fread(buf + len, 1, cap - len, f);
		len += r;
		if (len < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	size_t n = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (argv[i][0] == '-')
			continue; /* libFuzzer flags: ignored here */
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (driver_file(argv[i]) < 0) {
				fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
				return 2;
			}
			n++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *de;
		if (!d) {
			fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
			return 2;
		}
		while ((de = readdir(d))) {
			char path[8192];
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			if (driver_file(path) < 0) {
				fprintf(stderr, "%s: cannot read %s\n", argv[0], path);
				closedir(d);
				return 2;
			}
			n++;
		}
		closedir(d);
	}
	printf("%s: %zu inputs, no crash\n", argv[0], n);
	return n ? 0 : 2;
}
