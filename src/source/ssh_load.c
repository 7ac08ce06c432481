/* ssh_load.c: oc_ssh_transport_open (transport.h) loads the SSH transport
 * (ssh_transport.c, built as the module opsconsole-ssh.so with libssh) on
 * first use. libssh brings libcrypto, Kerberos and GSSAPI, about 2.4 MB
 * of resident memory and a few milliseconds of dynamic linking at every
 * start; a console watching the local cluster never uses them (see
 * docs/performance.md). Programs that link ssh_transport.c themselves (the
 * SSH tests) use it directly.
 *
 * Where the module is looked for, first found wins: $OC_SSH_MODULE, then
 * next to the running program (the build tree), then lib/opsconsole beside
 * the program's bin/ (an install under any prefix, as the data files).
 * Whichever it is, it is loaded only when it and every directory above it
 * are root's or the user's and not writable by others (oc_path_trusted):
 * code from a path someone else could write never runs. */
#include "source/transport.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datafiles.h"

#define OC_SSH_MODULE_NAME "opsconsole-ssh.so"

typedef struct oc_transport *(*ssh_open_fn)(const struct oc_ssh_target *t, char *err, size_t errlen);

/* Defined when ssh_transport.c is linked into the program. */
extern struct oc_transport *oc_ssh_module_transport_open(const struct oc_ssh_target *t, char *err, size_t errlen)
	__attribute__((weak));

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static ssh_open_fn loaded;
static char load_err[512];

static ssh_open_fn try_module(const char *path)
{
	if (oc_path_trusted(path, "SSH module", load_err, sizeof(load_err)) < 0)
		return NULL;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(load_err, sizeof(load_err), "%s", e ? e : path);
		return NULL;
	}
	ssh_open_fn fn = (ssh_open_fn)dlsym(h, "oc_ssh_module_transport_open");
	if (!fn) {
		snprintf(load_err, sizeof(load_err), "%s: no oc_ssh_module_transport_open", path);
		dlclose(h);
	}
	return fn; /* the module stays loaded for the program's life */
}

static ssh_open_fn load_module(void)
{
	const char *env = getenv("OC_SSH_MODULE");
	if (env && *env)
		return try_module(env);
	char dir[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	char *slash = n > 0 ? (dir[n] = '\0', strrchr(dir, '/')) : NULL;
	if (!slash) {
		snprintf(load_err, sizeof(load_err), "cannot tell where the program is");
		return NULL;
	}
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, OC_SSH_MODULE_NAME);
	if (access(path, R_OK) == 0)
		return try_module(path);
	slash = strrchr(dir, '/'); /* bin/ -> the prefix */
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/lib/opsconsole/%s", dir, OC_SSH_MODULE_NAME);
	return try_module(path);
}

struct oc_transport *oc_ssh_transport_open(const struct oc_ssh_target *t, char *err, size_t errlen)
{
	if (oc_ssh_module_transport_open)
		return oc_ssh_module_transport_open(t, err, errlen);
	pthread_mutex_lock(&load_lock);
	if (!loaded)
		loaded = load_module();
	ssh_open_fn fn = loaded;
	pthread_mutex_unlock(&load_lock);
	if (!fn) {
		oc_seterr(err, errlen, "ssh: cannot load the SSH support (%s): %s", OC_SSH_MODULE_NAME, load_err);
		return NULL;
	}
	return fn(t, err, errlen);
}
