/* profile.h: cluster profiles, $XDG_CONFIG_HOME/opsconsole/clusters/NAME.json
 * then /etc/opsconsole/clusters/NAME.json. */
#ifndef OC_CORE_PROFILE_H
#define OC_CORE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/platform.h"

#define OC_PROFILE_MAX_DIRS 4

/* An SSH endpoint: the remote head node ("ssh" in a profile) or, for node
 * probes, the login used on every node ("probes.ssh"; host unused). */
struct oc_ssh_target {
	char host[256];          /* "" = none (the console runs on the head node) */
	char user[64];           /* "" = the local user name */
	int port;                /* 22 by default */
	char identity[4096];     /* private key file; "" = the agent, then ~/.ssh/id_* */
	char known_hosts[4096];  /* "" = ~/.ssh/known_hosts */
	bool accept_new_host_key; /* trust on first use: an unknown host's key is
				   * added to known_hosts (a changed key is
				   * always refused); default false */
	int connect_timeout_s;   /* default 10 */
	char agent[4096];        /* "agent" (head node only): opsconsole on the
				  * head node, started there as the data agent
				  * (`opsconsole agent`, docs/ssh.md); default
				  * "opsconsole" (PATH); "" = never, the CLI */
};

/* One node probe: a shell command run on the node over SSH, and what its
 * output (trimmed) must be. The command may use "$1" for the node's name. */
#define OC_PROBE_MAX_CHECKS 16
struct oc_probe_check {
	char name[64];           /* "gpu count": also the drain reason's words */
	char command[1024];
	char expect[128];        /* exact output wanted, when has_expect */
	bool has_expect;
	double min, max;         /* numeric bounds on the output, when has_min/has_max */
	bool has_min, has_max;
};

struct oc_probe_config {
	struct oc_ssh_target ssh; /* user, port, identity, known_hosts, tofu */
	bool use_node_name;       /* connect to the node name, not its NodeAddr */
	int timeout_s;            /* per node, all checks together; default 10 */
	int parallel;             /* nodes probed at once; default 16 */
	size_t ncheck;
	struct oc_probe_check checks[OC_PROBE_MAX_CHECKS];
};

/* Which backend reads the cluster. */
enum oc_backend_kind {
	OC_BACKEND_AUTO = 0, /* libslurm when built with it and no "ssh" host, else the CLI */
	OC_BACKEND_LIBSLURM, /* libslurm in this process */
	OC_BACKEND_CLI,      /* the Slurm commands (sinfo/squeue --json, scontrol, sacctmgr),
			      * run locally (execve) or on the "ssh" host */
};

#define OC_PROFILE_MAX_VARS 32

struct oc_profile {
	char name[64];          /* cluster name */
	char path[4096];        /* file it came from, "" when synthesized */
	char slurm_conf[4096];  /* "" = libslurm's default */
	char audit_log[4096];   /* "" = not set */
	char clustermgtd_log[4096]; /* ParallelCluster's clustermgtd log on the head node, "" = the default */
	double refresh_s;       /* fast refresh interval, default 2 */
	bool readonly;
	bool show_hidden;       /* list hidden partitions */
	bool no_mouse;          /* "mouse": false: the terminal keeps the mouse (text selection) */
	char theme[64];         /* themes/NAME.json, "" = default */
	char keymap[64];        /* keymaps/NAME.json, "" = default */
	enum oc_backend_kind backend; /* "backend": "auto", "libslurm", "cli" */
	enum oc_platform platform; /* "platform": "auto" (detect), "parallelcluster", "pcs", "onprem" */
	char slurm_bin[4096];   /* "slurm_bin": the folder of the Slurm commands
				 * (local or on the ssh host), "" = PATH */
	struct oc_ssh_target ssh;     /* "ssh": a remote head node, host "" = none */
	struct oc_probe_config probes; /* "probes": node probes (defaults: the
					* runbook's p6-b300 quick checks) */
	/* "checklist_vars": {"NAME": "VALUE"}: this cluster's values of the
	 * rehearsal checklist's variables (below --var, above the file's). */
	struct {
		char name[64];
		char value[512];
	} checklist_vars[OC_PROFILE_MAX_VARS];
	size_t nchecklist_vars;
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

/* Sets the defaults (refresh 2 s, backend auto, SSH port 22 and 10 s
 * connect timeout, the default probes; everything else empty/false). */
void oc_profile_defaults(struct oc_profile *p);

/* The runbook's quick health probes for a p6-b300 node (8 GPUs, 16 EFA
 * devices): gpu count, xid, efa devices, gpu temp, ecc. Fills *pc. */
void oc_probe_config_defaults(struct oc_probe_config *pc);

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
