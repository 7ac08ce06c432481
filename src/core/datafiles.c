/* datafiles.c: the directories keymap, theme and view files are looked up
 * in, finding one, reading one with the size and permission checks, and
 * listing the names there are. */
#include "core/datafiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DATAFILE_SYSCONFDIR_DEFAULT "/etc/opsconsole"


/* Returns 0, or -1 when there is no out (datafiles.h). */
int oc_datafile_begin(const void *out, const char *what, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		oc_seterr(err, errlen, "no %s to fill", what);
		return -1;
	}
	return 0;
}

/* Appends a + b as one directory of d. Returns 0, or -1 when it does not
 * fit or d is full. */
static int datafile_add2(struct oc_datafile_dirs *d, const char *a, const char *b, bool strict)
{
	if (d->n >= OC_DATAFILE_MAX_DIRS)
		return -1;
	int n = snprintf(d->dir[d->n], sizeof(d->dir[d->n]), "%s%s", a, b);
	if (n < 0 || (size_t)n >= sizeof(d->dir[d->n]))
		return -1;
	d->strict[d->n] = strict;
	d->n++;
	return 0;
}

/* Returns 0 or -1 (datafiles.h). */
int oc_datafile_dirs_add(struct oc_datafile_dirs *d, const char *dir, bool strict)
{
	if (!d || !dir || !*dir)
		return -1;
	return datafile_add2(d, dir, "", strict);
}

/* Fills d (datafiles.h). */
void oc_datafile_dirs(struct oc_datafile_dirs *d, const char *datadir)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	const char *sys = getenv("OPSCONSOLE_SYSCONFDIR");

	if (!d)
		return;
	memset(d, 0, sizeof(*d));
	/* XDG Base Directory spec: a relative XDG_CONFIG_HOME is invalid and
	 * must be ignored (as profile.c does). */
	if (xdg && xdg[0] == '/')
		(void)datafile_add2(d, xdg, "/opsconsole", true);
	else if (home && home[0] == '/')
		(void)datafile_add2(d, home, "/.config/opsconsole", true);
	if (!sys || !*sys)
		sys = DATAFILE_SYSCONFDIR_DEFAULT;
	(void)datafile_add2(d, sys, "", true);
	if (datadir && *datadir)
		(void)datafile_add2(d, datadir, "", false);
}

/* Returns true when name is acceptable (datafiles.h). */
bool oc_datafile_name_ok(const char *name)
{
	size_t len;

	if (!name || !*name || name[0] == '.')
		return false;
	len = strlen(name);
	if (len > OC_DATAFILE_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* Returns 0 or -1 (datafiles.h). */
int oc_datafile_stem(const char *path, char *out, size_t len)
{
	const char *base;
	size_t n;

	if (!path || !out || len == 0)
		return -1;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n <= 5 || strcmp(base + n - 5, ".json") != 0)
		return -1;
	n -= 5;
	if (n > OC_DATAFILE_NAME_MAX || n >= len)
		return -1;
	memcpy(out, base, n);
	out[n] = '\0';
	return oc_datafile_name_ok(out) ? 0 : -1;
}

/* Returns 0 / 1 / -1 (datafiles.h). */
int oc_datafile_probe(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return 0;
	if (errno == ENOENT || errno == ENOTDIR)
		return 1;
	oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
	return -1;
}

/* Returns 0 / 1 / -1 (datafiles.h). */
int oc_datafile_find(const char *kind, const char *name, const struct oc_datafile_dirs *d,
		     char *path, size_t len, bool *strict, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!kind || !*kind || strchr(kind, '/') || !path || len == 0) {
		oc_seterr(err, errlen, "invalid data file kind");
		return -1;
	}
	if (!oc_datafile_name_ok(name)) {
		oc_seterr(err, errlen,
				"invalid name \"%.80s\": 1 to %d of A-Z a-z 0-9 . _ -, not starting with '.'",
				name ? name : "", OC_DATAFILE_NAME_MAX);
		return -1;
	}
	for (size_t i = 0; d && i < d->n; i++) {
		int n = snprintf(path, len, "%s/%s/%s.json", d->dir[i], kind, name);
		if (n < 0 || (size_t)n >= len)
			continue;
		n = oc_datafile_probe(path, err, errlen);
		if (n == 1)
			continue;
		if (n < 0)
			return -1;
		if (strict)
			*strict = d->strict[i];
		return 0;
	}
	path[0] = '\0';
	if (!d || d->n == 0) {
		oc_seterr(err, errlen, "no %s/%s.json: no directories to look in", kind, name);
		return 1;
	}
	oc_seterr(err, errlen, "no %s/%s.json in", kind, name);
	for (size_t i = 0; i < d->n && err && errlen; i++) {
		size_t used = strlen(err);
		if (used + 1 < errlen)
			snprintf(err + used, errlen - used, "%s %s/%s", i ? "," : "", d->dir[i], kind);
	}
	return 1;
}

/* Checks what fstat says of the open file at path. Returns 0, or -1 with
 * err set. */
static int datafile_check(const char *path, const struct stat *st, bool strict, char *err,
			  size_t errlen)
{
	if (S_ISDIR(st->st_mode)) {
		oc_seterr(err, errlen, "%s: is a directory", path);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		oc_seterr(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	if (st->st_size > OC_DATAFILE_MAX_SIZE) {
		oc_seterr(err, errlen, "%s: too large (%lld bytes, at most %d)", path,
				(long long)st->st_size, OC_DATAFILE_MAX_SIZE);
		return -1;
	}
	if (!strict)
		return 0;
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		oc_seterr(err, errlen,
				"%s: refused: writable by %s (mode %04o); run chmod go-w on it",
				path, (st->st_mode & S_IWOTH) ? "others" : "group",
				(unsigned)(st->st_mode & 07777));
		return -1;
	}
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		oc_seterr(err, errlen, "%s: refused: owned by uid %u, neither you nor root", path,
				(unsigned)st->st_uid);
		return -1;
	}
	return 0;
}

/* Whether path is dir or lies below it (both absolute, without "//",
 * "." or ".." parts). */
static bool datafile_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* Checks one directory of the way to a configuration file: owned by root
 * or the user, not writable by group or others (ssh's StrictModes).
 * Returns 0, or -1 with "path: refused: ..." in err. */
static int datafile_check_dir(const char *path, const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		oc_seterr(err, errlen, "%s: refused: cannot examine its directory %s: %s", path, dir,
				strerror(errno));
		return -1;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		oc_seterr(err, errlen,
				"%s: refused: its directory %s is owned by uid %u, neither you nor root", path,
				dir, (unsigned)st.st_uid);
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		oc_seterr(err, errlen,
				"%s: refused: its directory %s is writable by %s (mode %04o); run chmod go-w %s",
				path, dir, (st.st_mode & S_IWOTH) ? "others" : "group",
				(unsigned)(st.st_mode & 07777), dir);
		return -1;
	}
	return 0;
}

/* Decides whether the file at path is a configuration file (it lies in
 * the user's or the site's directory of oc_datafile_dirs, by its own path
 * or by the one symbolic links lead to) and, when it is, checks the
 * directories on its real way: up to that directory when the real path is
 * inside it, else up to "/". Sets *strict: force, or true when it is one.
 * Returns 0, or -1 with err set. */
static int datafile_check_tree(const char *path, bool force, bool *strict, char *err,
			       size_t errlen)
{
	struct oc_datafile_dirs d;
	char real[PATH_MAX], abs[PATH_MAX + OC_DATAFILE_PATH_MAX], root[PATH_MAX];
	const char *top = NULL;
	char toproot[PATH_MAX];
	bool in = false;

	*strict = force;
	if (!realpath(path, real))
		return 0; /* open() says why */
	if (path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			cwd[0] = '\0';
		snprintf(abs, sizeof(abs), "%s/%s", cwd, path);
	}
	oc_datafile_dirs(&d, NULL);
	for (size_t i = 0; i < d.n; i++) {
		if (!d.strict[i])
			continue;
		bool in_real = realpath(d.dir[i], root) && datafile_below(real, root);
		if (in_real || datafile_below(abs, d.dir[i]))
			in = true;
		if (in_real && !top) {
			snprintf(toproot, sizeof(toproot), "%s", root);
			top = toproot;
		}
	}
	if (!in)
		return 0; /* a strict directory of the caller's own: the file alone */
	*strict = true;
	/* From the file's directory up to the root (or "/"). */
	for (;;) {
		char *slash = strrchr(real, '/');
		if (!slash)
			return 0;
		if (slash == real)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (datafile_check_dir(path, real, err, errlen) < 0)
			return -1;
		if ((top && strcmp(real, top) == 0) || strcmp(real, "/") == 0)
			return 0;
	}
}

/* One step of oc_path_trusted: st of p (path itself, or a directory above
 * it when dir). */
static int trusted_one(const char *what, const char *path, const char *p, const struct stat *st, bool dir,
		       char *err, size_t errlen)
{
	char who[PATH_MAX + 32];
	if (strcmp(p, path) == 0)
		snprintf(who, sizeof(who), "it");
	else
		snprintf(who, sizeof(who), "its directory %s", p);
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		oc_seterr(err, errlen, "%s %s: refused: %s is owned by uid %u, neither you nor root", what, path,
				who, (unsigned)st->st_uid);
		return -1;
	}
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	if (dir && st->st_uid == 0 && (st->st_mode & S_ISVTX))
		return 0; /* /tmp */
	oc_seterr(err, errlen, "%s %s: refused: %s is writable by %s (mode %04o); run chmod go-w %s", what, path,
			who, (st->st_mode & S_IWOTH) ? "others" : "group", (unsigned)(st->st_mode & 07777), p);
	return -1;
}

/* Checks every directory above p (absolute; modified), up to "/". */
static int trusted_parents(const char *what, const char *path, char *p, char *err, size_t errlen)
{
	struct stat st;
	while (strcmp(p, "/") != 0) {
		char *slash = strrchr(p, '/');
		if (!slash)
			return 0;
		if (slash == p)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(p, &st) < 0) {
			oc_seterr(err, errlen, "%s %s: cannot examine %s: %s", what, path, p, strerror(errno));
			return -1;
		}
		if (trusted_one(what, path, p, &st, true, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int oc_path_trusted(const char *path, const char *what, char *err, size_t errlen)
{
	char real[PATH_MAX], given[PATH_MAX + OC_DATAFILE_PATH_MAX];
	struct stat st;
	if (!path || !*path) {
		oc_seterr(err, errlen, "%s: no path", what);
		return -1;
	}
	if (!realpath(path, real) || stat(real, &st) < 0) {
		oc_seterr(err, errlen, "%s %s: %s", what, path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		oc_seterr(err, errlen, "%s %s: refused: not a regular file or a directory", what, path);
		return -1;
	}
	if (trusted_one(what, path, path, &st, S_ISDIR(st.st_mode), err, errlen) < 0)
		return -1;
	/* The folders of the path as given (whoever may write one could put
	 * another file or link there), then those of where links lead. */
	if (path[0] == '/') {
		snprintf(given, sizeof(given), "%s", path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd))) {
			oc_seterr(err, errlen, "%s %s: %s", what, path, strerror(errno));
			return -1;
		}
		snprintf(given, sizeof(given), "%s/%s", cwd, path);
	}
	size_t gl = strlen(given);
	while (gl > 1 && given[gl - 1] == '/')
		given[--gl] = '\0';
	if (trusted_parents(what, path, given, err, errlen) < 0)
		return -1;
	return trusted_parents(what, path, real, err, errlen);
}

/* Returns 0 with *text malloc'd, or -1 (datafiles.h). */
int oc_datafile_read(const char *path, bool strict, char **text, size_t *textlen,
		     char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	size_t used = 0;
	int fd = -1;
	int rc = -1;

	if (err && errlen)
		err[0] = '\0';
	if (!text) {
		oc_seterr(err, errlen, "no buffer to read into");
		return -1;
	}
	*text = NULL;
	if (textlen)
		*textlen = 0;
	if (!path || !*path) {
		oc_seterr(err, errlen, "no path");
		return -1;
	}
	/* O_NONBLOCK: a FIFO put in place of the file must not hang the open;
	 * it is then refused as not a regular file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (datafile_check_tree(path, strict, &strict, err, errlen) < 0 ||
	    datafile_check(path, &st, strict, err, errlen) < 0)
		goto out;
	/* Read at most one byte more than the limit: the file may grow between
	 * fstat and read. */
	buf = malloc((size_t)OC_DATAFILE_MAX_SIZE + 2);
	if (!buf) {
		oc_seterr(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, buf + used, (size_t)OC_DATAFILE_MAX_SIZE + 1 - used);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		used += (size_t)r;
		if (used > OC_DATAFILE_MAX_SIZE) {
			oc_seterr(err, errlen, "%s: too large (more than %d bytes)", path,
					OC_DATAFILE_MAX_SIZE);
			goto out;
		}
	}
	buf[used] = '\0';
	{
		char *small = realloc(buf, used + 1);
		if (small)
			buf = small;
	}
	*text = buf;
	buf = NULL;
	if (textlen)
		*textlen = used;
	rc = 0;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* qsort comparator for an array of char *. */
static int datafile_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns 0, -1 on ENOMEM (datafiles.h). */
int oc_datafile_names_add(struct oc_datafile_names *l, const char *name, size_t len)
{
	char *s;

	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 16;
		char **nv = realloc(l->v, ncap * sizeof(*nv));
		if (!nv) {
			l->oom = true;
			return -1;
		}
		l->v = nv;
		l->cap = ncap;
	}
	s = malloc(len + 1);
	if (!s) {
		l->oom = true;
		return -1;
	}
	memcpy(s, name, len);
	s[len] = '\0';
	l->v[l->n++] = s;
	return 0;
}

/* Returns the malloc'd list, or NULL on ENOMEM (datafiles.h). */
char *oc_datafile_names_join(struct oc_datafile_names *l)
{
	char *out = NULL;
	size_t total = 1, used = 0;

	if (l->oom)
		goto out;
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), datafile_cmp);
	for (size_t i = 0; i < l->n; i++)
		total += strlen(l->v[i]) + 2;
	out = malloc(total);
	if (!out)
		goto out;
	out[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (i > 0 && strcmp(l->v[i], l->v[i - 1]) == 0)
			continue;
		size_t len = strlen(l->v[i]);
		if (used) {
			memcpy(out + used, ", ", 2);
			used += 2;
		}
		memcpy(out + used, l->v[i], len);
		used += len;
		out[used] = '\0';
	}
out:
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
	return out;
}

/* Returns the malloc'd list, or NULL on ENOMEM (datafiles.h). */
char *oc_datafile_list(const char *kind, const struct oc_datafile_dirs *d,
		       const char *const *extra, size_t nextra)
{
	struct oc_datafile_names l = {0};
	char stem[OC_DATAFILE_NAME_MAX + 1];
	char dir[OC_DATAFILE_PATH_MAX + 64];

	for (size_t i = 0; i < nextra && extra && !l.oom; i++) {
		if (extra[i])
			(void)oc_datafile_names_add(&l, extra[i], strlen(extra[i]));
	}
	for (size_t i = 0; d && kind && i < d->n && !l.oom; i++) {
		DIR *dh;
		struct dirent *de;
		int len = snprintf(dir, sizeof(dir), "%s/%s", d->dir[i], kind);
		if (len < 0 || (size_t)len >= sizeof(dir))
			continue;
		dh = opendir(dir);
		if (!dh)
			continue;
		while ((de = readdir(dh)) != NULL) {
			if (de->d_type == DT_DIR)
				continue;
			if (oc_datafile_stem(de->d_name, stem, sizeof(stem)) < 0)
				continue;
			if (oc_datafile_names_add(&l, stem, strlen(stem)) < 0)
				break;
		}
		closedir(dh);
	}
	return oc_datafile_names_join(&l);
}
