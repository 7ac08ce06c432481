/* profile.h: cluster profiles, $XDG_CONFIG_HOME/opsconsole/clusters/NAME.json
 * then /etc/opsconsole/clusters/NAME.json. */
#ifndef OC_CORE_PROFILE_H
#define OC_CORE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#define OC_PROFILE_MAX_DIRS 4

struct oc_profile {
	char name[64];          /* cluster name */
	char path[4096];        /* file it came from, "" when synthesized */
	char slurm_conf[4096];  /* "" = libslurm's default */
	char audit_log[4096];   /* "" = not set */
	double refresh_s;       /* fast refresh interval, default 2 */
	bool readonly;
	bool show_hidden;       /* list hidden partitions */
	char theme[64];         /* themes/NAME.json, "" = default */
	char keymap[64];        /* keymaps/NAME.json, "" = default */
	char checklist[4096];   /* "checklist" given as a string: the rehearsal
				 * checklist file as written, "" = not set (a
				 * relative path is relative to the profile's
				 * directory; `opsconsole rehearse` resolves it) */
};

/* The directories searched, in order: $XDG_CONFIG_HOME/opsconsole/clusters
 * (or $HOME/.config/opsconsole/clusters), then
 * $OPSCONSOLE_SYSCONFDIR/clusters (default /etc/opsconsole/clusters).
 * Fills dirs[] with pointers into storage (each entry up to 4096 bytes).
 * Returns the number of directories. */
size_t oc_profile_dirs(char storage[OC_PROFILE_MAX_DIRS][4096], const char *dirs[OC_PROFILE_MAX_DIRS]);

/* Sets the defaults (refresh 2 s, everything else empty/false). */
void oc_profile_defaults(struct oc_profile *p);

/* Parse one profile file. Unknown keys are errors. On failure returns -1
 * and writes "path:line:col: message" (or "path: message") into err; *p
 * then holds the defaults. Returns 0 on success. */
int oc_profile_load_file(const char *path, struct oc_profile *p, char *err, size_t errlen);

/* Look NAME up in dirs (first match wins). Returns 0 and fills *p when a
 * file was found and is valid, 1 when no file of that name exists in any
 * directory, -1 when the file exists but is broken (err says why).
 * A NAME with '/' or starting with '.' is refused (-1). */
int oc_profile_find(const char *name, const char *const *dirs, size_t ndirs,
		    struct oc_profile *p, char *err, size_t errlen);

/* Names of all profiles (NAME.json files) in dirs, sorted, without
 * duplicates, as one malloc'd string "a, b, c" ("" when none). The caller
 * frees it. NULL on ENOMEM. */
char *oc_profile_list(const char *const *dirs, size_t ndirs);

/* The ClusterName= of a slurm.conf file (case-insensitive key, comments
 * and whitespace handled). Returns 0 and fills out, 1 when the file has
 * none, -1 when it cannot be read. */
int oc_slurm_conf_cluster_name(const char *conf_path, char *out, size_t outlen);

#endif
