/* main.c: options, profile lookup, and wiring the collector to the screen. */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/audit.h"
#include "actions/worker.h"
#include "connect.h"
#include "core/profile.h"
#include "core/version.h"
#include "onboard_cli.h"
#include "once_cli.h"
#include "core/datafiles.h"
#include "rehearse_cli.h"
#include "rehearsal/checklist.h"
#include "source/collector.h"
#include "source/probe_ssh.h"
#include "source/snapfile.h"
#include "source/source.h"
#include "ui/ui.h"

#ifndef OC_VERSION
#define OC_VERSION "0"
#endif

/* Exit codes: 0 fine, 1 runtime failure, 2 usage or configuration error. */
enum { EXIT_USAGE = 2 };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: opsconsole [--cluster NAME] [options]\n"
		"       opsconsole onboard --cluster NAME --file TEAM.json [--dry-run] [--yes]\n"
		"       opsconsole rehearse --cluster NAME [--checklist FILE] [--auto] [--report DIR]\n"
		"       opsconsole --cluster NAME --once VIEW [--json] [--partition P] [--show-hidden]\n"
		"       opsconsole --cluster NAME --record FILE\n"
		"       opsconsole --snapshot FILE [--cluster NAME] [options]\n"
		"A terminal operations console for Slurm GPU clusters.\n"
		"\n"
		"  -c, --cluster NAME   open the cluster NAME: its profile\n"
		"                       ($XDG_CONFIG_HOME/opsconsole/clusters/NAME.json, then\n"
		"                       /etc/opsconsole/clusters/NAME.json), or else the\n"
		"                       default slurm.conf when its ClusterName is NAME\n"
		"      --view VIEW      start in VIEW: partitions, queue, nodes, health,\n"
		"                       quota, reservations, audit, rehearsal\n"
		"  -p, --partition P    start in the queue of partition P\n"
		"      --show-hidden    list hidden partitions too (toggle with H)\n"
		"      --readonly       offer no action that changes the cluster\n"
		"      --theme NAME     themes/NAME.json (default, light, high-contrast, mono)\n"
		"      --keymap NAME    keymaps/NAME.json (default, vim)\n"
		"      --once VIEW      print VIEW once and exit, for scripts: partitions, queue,\n"
		"                       nodes, health, quota, reservations (docs/script-mode.md)\n"
		"      --json           with --once: JSON (schema opsconsole.once/1)\n"
		"      --record FILE    write the cluster's nodes, partitions, jobs and\n"
		"                       reservations to FILE and exit (docs/snapshots.md)\n"
		"      --snapshot FILE  the console on a recorded FILE instead of a cluster,\n"
		"                       read-only; --cluster only picks the profile's looks\n"
		"  -h, --help           this help\n"
		"  -V, --version        version and the Slurm version it was built against; with\n"
		"                       --cluster NAME (or a ClusterName in the default\n"
		"                       slurm.conf) also the version slurmctld runs, and a\n"
		"                       warning when their majors differ\n"
		"\n"
		"Exit status: 0 normal quit, 1 runtime failure, 2 usage or profile error.\n"
		"With --once: 0 fine, 1 findings (health, quota), 2 error.\n");
}

static const char *default_slurm_conf(void)
{
	const char *env = getenv("SLURM_CONF");
	if (env && *env)
		return env;
#ifdef OC_SLURM_DEFAULT_CONF
	return OC_SLURM_DEFAULT_CONF;
#else
	return "/etc/slurm/slurm.conf";
#endif
}

/* Resolve NAME to a profile. Returns 0, or EXIT_USAGE after printing why. */
static int resolve_profile(const char *name, struct oc_profile *p)
{
	char storage[OC_PROFILE_MAX_DIRS][4096];
	const char *dirs[OC_PROFILE_MAX_DIRS];
	size_t ndirs = oc_profile_dirs(storage, dirs);
	char err[4400];
	oc_profile_defaults(p);
	if (name) {
		int rc = oc_profile_find(name, dirs, ndirs, p, err, sizeof(err));
		if (rc == 0)
			return 0;
		if (rc < 0) {
			fprintf(stderr, "opsconsole: %s\n", err);
			return EXIT_USAGE;
		}
	}
	/* No profile: the default slurm.conf, if its ClusterName matches. */
	const char *conf = default_slurm_conf();
	char conf_name[64] = "";
	int crc = oc_slurm_conf_cluster_name(conf, conf_name, sizeof(conf_name));
	if (!name && crc == 0) {
		snprintf(p->name, sizeof(p->name), "%s", conf_name);
		return 0;
	}
	if (name && crc == 0 && strcmp(conf_name, name) == 0) {
		snprintf(p->name, sizeof(p->name), "%s", name);
		snprintf(p->slurm_conf, sizeof(p->slurm_conf), "%s", conf);
		return 0;
	}
	char *known = oc_profile_list(dirs, ndirs);
	if (name)
		fprintf(stderr, "opsconsole: unknown cluster '%s'\n", name);
	else
		fprintf(stderr, "opsconsole: no --cluster given and no ClusterName in %s\n", conf);
	fprintf(stderr, "known clusters: %s%s%s\n", known && *known ? known : "(no profiles)",
		crc == 0 ? " ; default slurm.conf: " : "", crc == 0 ? conf_name : "");
	fprintf(stderr, "profiles are read from:");
	for (size_t i = 0; i < ndirs; i++)
		fprintf(stderr, " %s", dirs[i]);
	fprintf(stderr, "\n");
	free(known);
	return EXIT_USAGE;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where the installed views/, keymaps/, themes/ and checklists/ are:
 * $OPSCONSOLE_DATADIR, else share/opsconsole beside the program's bin/ (so
 * an install under /opt/opsconsole works as well as /usr), else, run from
 * the build folder, the source tree named in opsconsole.datadir beside the
 * program (written by CMake, not installed). The data's checklists drain
 * nodes and submit jobs: a folder is used only when it and the folders
 * above it are root's or the user's and not writable by others
 * (oc_path_trusted). Returns 0 (out "" when there is none), or -1 with err
 * when $OPSCONSOLE_DATADIR is refused. */
static int find_datadir(char *out, size_t len, char *err, size_t errlen)
{
	out[0] = '\0';
	const char *env = getenv("OPSCONSOLE_DATADIR");
	if (env && *env) {
		if (oc_path_trusted(env, "OPSCONSOLE_DATADIR", err, errlen) < 0)
			return -1;
		snprintf(out, len, "%s", env);
		return 0;
	}
	char exe[PATH_MAX], e[PATH_MAX + 256];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	char *bin = dirname(exe);                 /* .../bin */
	char marker[PATH_MAX + 32];
	snprintf(marker, sizeof(marker), "%s/opsconsole.datadir", bin);
	char *prefix = dirname(strdupa(bin));     /* ... */
	snprintf(out, len, "%s/share/opsconsole", prefix);
	if (is_dir(out) && oc_path_trusted(out, "data folder", e, sizeof(e)) == 0)
		return 0;
	out[0] = '\0';
	char *text = NULL;
	if (access(marker, F_OK) == 0 && oc_path_trusted(marker, "data folder marker", e, sizeof(e)) == 0 &&
	    oc_datafile_read(marker, true, &text, NULL, e, sizeof(e)) == 0) {
		text[strcspn(text, "\n")] = '\0';
		if (text[0] == '/' && is_dir(text) && oc_path_trusted(text, "data folder", e, sizeof(e)) == 0)
			snprintf(out, len, "%s", text);
	}
	free(text);
	return 0;
}

/* The file libslurm's messages go to while the screen is up:
 * $XDG_STATE_HOME/opsconsole/NAME.log (default ~/.local/state), made
 * private; "" when it cannot be made. */
static void find_stderr_log(const char *cluster, char *out, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char dir[PATH_MAX];
	if (state && state[0] == '/')
		snprintf(dir, sizeof(dir), "%s/opsconsole", state);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.local/state/opsconsole", home);
	else
		snprintf(dir, sizeof(dir), "/tmp/opsconsole-%u", (unsigned)getuid());
	/* mkdir -p, private. */
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
	mkdir(dir, 0700);
	if (!is_dir(dir)) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, "%s/%s.log", dir, cluster[0] ? cluster : "opsconsole");
}

/* Send stderr to path (created 0600); returns the saved descriptor to
 * restore, or -1 when stderr was left alone. */
static int redirect_stderr(const char *path)
{
	if (!path[0])
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int saved = dup(STDERR_FILENO);
	if (saved >= 0 && dup2(fd, STDERR_FILENO) < 0) {
		close(saved);
		saved = -1;
	}
	close(fd);
	return saved;
}

static void restore_stderr(int saved)
{
	if (saved < 0)
		return;
	dup2(saved, STDERR_FILENO);
	close(saved);
}

struct hooks_ctx {
	struct oc_collector *c;
};

static struct oc_snapshot *h_current(void *ctx)
{
	return oc_collector_current(((struct hooks_ctx *)ctx)->c);
}
static void h_set_focus(void *ctx, unsigned mask)
{
	oc_collector_set_focus(((struct hooks_ctx *)ctx)->c, mask);
}
static void h_refresh_now(void *ctx)
{
	oc_collector_refresh_now(((struct hooks_ctx *)ctx)->c);
}
static int h_wake_fd(void *ctx)
{
	return oc_collector_fd(((struct hooks_ctx *)ctx)->c);
}
static void h_ack(void *ctx)
{
	oc_collector_ack(((struct hooks_ctx *)ctx)->c);
}
static time_t h_inflight(void *ctx)
{
	return oc_collector_inflight_since(((struct hooks_ctx *)ctx)->c);
}

/* Script mode (once_cli.c): no terminal, no threads. */
/* --record FILE: one full refresh through the profile's backend, written
 * to FILE.tmp and renamed, so FILE is a whole snapshot or is untouched. */
static int main_record(const char *cluster, const char *path)
{
	struct oc_profile profile;
	int rc = resolve_profile(cluster, &profile);
	if (rc)
		return rc;
	char err[512];
	struct oc_connection conn;
	struct oc_backend *b = oc_connect_backend(&profile, &conn, err, sizeof(err));
	if (!b) {
		fprintf(stderr, "opsconsole: %s: %s\n", profile.name, err);
		return 1;
	}
	unsigned mask = OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_JOBS) |
			OC_MASK(OC_PART_RESV);
	struct oc_snapshot *s = oc_collector_refresh_once(b, mask, NULL);
	oc_backend_close(&b);
	oc_connect_close(&conn);
	rc = s ? 0 : 1;
	for (int p = 0; s && p < OC_PART_COUNT; p++)
		if ((mask & OC_MASK(p)) && s->status[p].error[0]) {
			fprintf(stderr, "opsconsole: %s: nothing recorded: %s\n", profile.name, s->status[p].error);
			rc = 1;
		}
	char tmp[PATH_MAX + 8];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = rc ? NULL : fopen(tmp, "w");
	if (!rc && !f) {
		fprintf(stderr, "opsconsole: %s: %s\n", tmp, strerror(errno));
		rc = 1;
	}
	if (f) {
		bool ok = oc_snapfile_write(f, s, err, sizeof(err)) == 0;
		ok = (fclose(f) == 0) && ok;
		if (ok && rename(tmp, path) == 0) {
			printf("recorded %s: %zu nodes, %zu partitions, %zu jobs, %zu reservations\n", path,
			       s->nodes->n, s->partitions->n, s->jobs->n, s->reservations->n);
		} else {
			fprintf(stderr, "opsconsole: %s: %s\n", path, ok ? strerror(errno) : err);
			unlink(tmp);
			rc = 1;
		}
	}
	if (!s)
		fprintf(stderr, "opsconsole: %s: out of memory\n", profile.name);
	oc_snapshot_unref(&s);
	return rc;
}

/* --version: the Slurm the program was built against and, for the cluster
 * named by --cluster (or, without it, the default slurm.conf's, when it
 * names one), the version its slurmctld runs, with a warning when the
 * libslurm this console would use is of another major. Returns 0, 1 when
 * the cluster could not be asked, EXIT_USAGE for an unknown cluster. */
static int main_version(const char *cluster)
{
	const char *built = NULL;
#ifdef OC_WITH_LIBSLURM
	built = oc_slurm_build_version();
	printf("opsconsole %s (built against Slurm %s)\n", OC_VERSION, built);
#else
	printf("opsconsole %s (built without libslurm: reads the cluster with the Slurm commands)\n", OC_VERSION);
#endif
	fflush(stdout);
	if (!cluster) {
		char name[64];
		const char *conf = default_slurm_conf();
		if (oc_slurm_conf_cluster_name(conf, name, sizeof(name)) != 0) {
			printf("slurmctld: not asked (no --cluster, and no ClusterName in %s)\n", conf);
			return 0;
		}
	}
	struct oc_profile profile;
	int rc = resolve_profile(cluster, &profile);
	if (rc)
		return rc;
	char err[512];
	struct oc_connection conn;
	struct oc_backend *b = oc_connect_backend(&profile, &conn, err, sizeof(err));
	if (!b) {
		printf("slurmctld of %s: not asked: %s\n", profile.name, err);
		return 1;
	}
	bool via_libslurm = !conn.cli;
	/* The partitions, the smallest part: its error says why when the
	 * controller does not answer. */
	struct oc_snapshot *s = oc_collector_refresh_once(b, OC_MASK(OC_PART_PARTITIONS), NULL);
	oc_backend_close(&b);
	oc_connect_close(&conn);
	const char *how = via_libslurm ? "libslurm" : "the Slurm commands";
	if (!s || !s->slurm_version[0]) {
		const char *why = !s ? "out of memory" : s->status[OC_PART_PARTITIONS].error;
		printf("slurmctld of %s: version unknown (asked through %s): %s\n", profile.name, how,
		       why[0] ? why : "no answer");
		oc_snapshot_unref(&s);
		return 1;
	}
	printf("slurmctld of %s: Slurm %s (asked through %s)\n", s->cluster[0] ? s->cluster : profile.name,
	       s->slurm_version, how);
	if (built && oc_version_majors_differ(built, s->slurm_version)) {
		char bm[16], cm[16];
		oc_version_major(built, bm, sizeof(bm));
		oc_version_major(s->slurm_version, cm, sizeof(cm));
		if (via_libslurm)
			printf("WARNING: libslurm %s and slurmctld %s are different majors: build opsconsole against "
			       "Slurm %s, or set \"backend\": \"cli\" in the profile\n",
			       bm, cm, cm);
		else
			printf("note: built against libslurm %s, slurmctld runs %s; this profile reads through the "
			       "Slurm commands, which do not use it\n",
			       bm, cm);
	}
	oc_snapshot_unref(&s);
	return 0;
}

static int main_once(const char *cluster, const char *view, const char *partition, int show_hidden,
		     struct oc_once_args *once)
{
	if (!once->view) {
		fprintf(stderr, "opsconsole: --json goes with --once VIEW\n");
		return EXIT_USAGE;
	}
	if (view) {
		fprintf(stderr, "opsconsole: --view and --once do not go together\n");
		return EXIT_USAGE;
	}
	once->partition = partition;
	if (oc_once_check_args(once))
		return EXIT_USAGE;
	struct oc_profile profile;
	int rc = resolve_profile(cluster, &profile);
	if (rc)
		return rc;
	once->show_hidden = show_hidden || profile.show_hidden;
	return oc_once_run(&profile, once);
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc > 1 && strcmp(argv[1], "onboard") == 0)
		return oc_onboard_cli(argc - 1, argv + 1, NULL, resolve_profile);
	if (argc > 1 && strcmp(argv[1], "rehearse") == 0) {
		char datadir[PATH_MAX];
		char derr[PATH_MAX + 512];
		if (find_datadir(datadir, sizeof(datadir), derr, sizeof(derr)) < 0) {
			fprintf(stderr, "opsconsole: %s\n", derr);
			return EXIT_USAGE;
		}
		return oc_rehearse_cli(argc - 1, argv + 1, resolve_profile, datadir);
	}
	const char *cluster = NULL, *view = NULL, *partition = NULL, *theme = NULL, *keymap = NULL;
	int show_hidden = 0, readonly = 0, version = 0;
	struct oc_once_args once = {0};
	const char *record = NULL, *snapshot = NULL;
	enum { OPT_VIEW = 256, OPT_SHOW_HIDDEN, OPT_READONLY, OPT_THEME, OPT_KEYMAP, OPT_ONCE, OPT_JSON, OPT_RECORD,
	       OPT_SNAPSHOT };
	static const struct option opts[] = {
		{"cluster", required_argument, NULL, 'c'},
		{"view", required_argument, NULL, OPT_VIEW},
		{"partition", required_argument, NULL, 'p'},
		{"show-hidden", no_argument, NULL, OPT_SHOW_HIDDEN},
		{"readonly", no_argument, NULL, OPT_READONLY},
		{"theme", required_argument, NULL, OPT_THEME},
		{"keymap", required_argument, NULL, OPT_KEYMAP},
		{"once", required_argument, NULL, OPT_ONCE},
		{"json", no_argument, NULL, OPT_JSON},
		{"record", required_argument, NULL, OPT_RECORD},
		{"snapshot", required_argument, NULL, OPT_SNAPSHOT},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "c:p:hV", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': cluster = optarg; break;
		case 'p': partition = optarg; break;
		case OPT_VIEW: view = optarg; break;
		case OPT_SHOW_HIDDEN: show_hidden = 1; break;
		case OPT_READONLY: readonly = 1; break;
		case OPT_THEME: theme = optarg; break;
		case OPT_KEYMAP: keymap = optarg; break;
		case OPT_ONCE: once.view = optarg; break;
		case OPT_JSON: once.json = true; break;
		case OPT_RECORD: record = optarg; break;
		case OPT_SNAPSHOT: snapshot = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': version = 1; break;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "opsconsole: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (version)
		return main_version(cluster);
	if ((record || snapshot) && (once.view || once.json)) {
		fprintf(stderr, "opsconsole: --%s does not go with --once\n", record ? "record" : "snapshot");
		return EXIT_USAGE;
	}
	if (record && snapshot) {
		fprintf(stderr, "opsconsole: --record and --snapshot do not go together\n");
		return EXIT_USAGE;
	}
	if (record)
		return main_record(cluster, record);
	if (once.view || once.json)
		return main_once(cluster, view, partition, show_hidden, &once);
	static const char *const view_names[] = {"partitions", "queue",	   "nodes", "health",
						 "quota",      "reservations", "audit", "rehearsal"};
	bool view_ok = !view;
	for (size_t i = 0; view && i < sizeof(view_names) / sizeof(view_names[0]); i++)
		if (strcmp(view, view_names[i]) == 0)
			view_ok = true;
	if (!view_ok) {
		fprintf(stderr,
			"opsconsole: unknown view '%s' (partitions, queue, nodes, health, quota, reservations, audit, "
			"rehearsal)\n",
			view);
		return EXIT_USAGE;
	}
	if (partition && !view)
		view = "queue";
	char datadir[PATH_MAX], derr[PATH_MAX + 512];
	if (find_datadir(datadir, sizeof(datadir), derr, sizeof(derr)) < 0) {
		fprintf(stderr, "opsconsole: %s\n", derr);
		return EXIT_USAGE;
	}

	struct oc_profile profile;
	int rc = 0;
	if (snapshot && !cluster) {
		oc_profile_defaults(&profile); /* no cluster: the default looks */
		snprintf(profile.name, sizeof(profile.name), "snapshot");
	} else {
		rc = resolve_profile(cluster, &profile);
	}
	if (rc)
		return rc;

	char err[512];
	/* The backend (libslurm, or the Slurm commands over a transport) comes
	 * from the profile: connect.c, where the transport is chosen; or a
	 * recorded snapshot, read-only and without probes. */
	struct oc_connection conn;
	memset(&conn, 0, sizeof(conn));
	struct oc_backend *backend = snapshot ? oc_snap_backend_open(snapshot, err, sizeof(err))
					      : oc_connect_backend(&profile, &conn, err, sizeof(err));
	if (!backend) {
		fprintf(stderr, "opsconsole: %s: %s\n", snapshot ? "snapshot" : profile.name, err);
		return 1;
	}
	time_t frozen_at = snapshot ? oc_snap_backend_taken(backend) : 0;
	if (snapshot)
		readonly = 1;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "opsconsole: the console needs a terminal (opsconsole onboard and rehearse work without one)\n");
		oc_backend_close(&backend);
		oc_connect_close(&conn);
		return 1;
	}
	/* libslurm prints its errors on stderr ("error: Sending PersistInit
	 * msg: Connection refused"), which would draw over the screen: from
	 * before the threads start until the screen is gone, stderr goes to
	 * $XDG_STATE_HOME/opsconsole/NAME.log. */
	char stderr_log[PATH_MAX + 80];
	find_stderr_log(profile.name, stderr_log, sizeof(stderr_log));
	int saved_stderr = redirect_stderr(stderr_log);
	struct oc_collector_config ccfg = {
		.backend = backend,
		.fast_s = profile.refresh_s,
		.slow_s = profile.refresh_s * 10 < 30 ? 30 : profile.refresh_s * 10,
		/* The start view's parts come first: they are on screen sooner. */
		.focus = oc_ui_view_focus(view),
	};
	struct hooks_ctx hctx;
	hctx.c = oc_collector_start(&ccfg, err, sizeof(err));
	if (!hctx.c) {
		restore_stderr(saved_stderr);
		fprintf(stderr, "opsconsole: %s\n", err);
		oc_connect_close(&conn);
		return 1;
	}
	struct oc_ui_hooks hooks = {
		.ctx = &hctx,
		.current = h_current,
		.set_focus = h_set_focus,
		.refresh_now = h_refresh_now,
		.wake_fd = h_wake_fd,
		.ack = h_ack,
		.inflight_since = h_inflight,
	};
	/* Writes: a worker thread applies them through the writer of the backend;
	 * --readonly starts none. */
	char audit_log[PATH_MAX];
	oc_audit_profile_path(&profile, audit_log, sizeof(audit_log));
	struct oc_writer writer = {0};
	struct oc_worker *worker = NULL;
	bool ro = readonly || profile.readonly;
	if (!ro) {
		if (oc_connect_writer(&conn, &writer, err, sizeof(err)) == 0)
			worker = oc_worker_start(&writer, profile.name, audit_log, err, sizeof(err));
		if (!worker)
			fprintf(stderr, "opsconsole: actions disabled: %s\n", err);
	}

	char checklist_path[PATH_MAX], rehearsal_progress[PATH_MAX + 128], checklist_notice[1024] = "";
	bool checklist_fallback = false;
	if (oc_rehearse_default_paths(&profile, datadir, checklist_path, sizeof(checklist_path), rehearsal_progress,
				      sizeof(rehearsal_progress), &checklist_fallback) < 0)
		checklist_path[0] = '\0';
	if (checklist_fallback)
		oc_checklist_fallback_notice(profile.name, OC_REHEARSE_DEFAULT_CHECKLIST, checklist_notice,
					     sizeof(checklist_notice));
	struct oc_checklist_var checklist_vars[OC_PROFILE_MAX_VARS];
	for (size_t i = 0; i < profile.nchecklist_vars; i++) {
		checklist_vars[i].name = profile.checklist_vars[i].name;
		checklist_vars[i].value = profile.checklist_vars[i].value;
	}
	/* Node probes: over SSH to each node, also in a read-only console
	 * (they change nothing; draining from a result goes through the
	 * worker like any write). */
	struct oc_probe_runner *probe_runner =
		snapshot ? NULL : oc_probe_ssh_runner_new(&profile.probes, err, sizeof(err));
	if (!probe_runner && !snapshot)
		fprintf(stderr, "opsconsole: node probes disabled: %s\n", err);
	const char *libslurm_version = NULL;
#ifdef OC_WITH_LIBSLURM
	if (!snapshot && !conn.cli)
		libslurm_version = oc_slurm_build_version();
#endif
	struct oc_ui_config ucfg = {
		.cluster = profile.name,
		.libslurm_version = libslurm_version,
		.start_view = view,
		.start_arg = partition,
		.refresh_s = profile.refresh_s,
		.show_hidden = show_hidden || profile.show_hidden,
		.readonly = readonly || profile.readonly,
		.frozen_at = frozen_at,
		.theme = theme ? theme : (profile.theme[0] ? profile.theme : NULL),
		.keymap = keymap ? keymap : (profile.keymap[0] ? profile.keymap : NULL),
		.datadir = datadir,
		.worker = worker,
		.audit_log = audit_log,
		.checklist_path = checklist_path,
		.rehearsal_progress = rehearsal_progress,
		.checklist_notice = checklist_notice,
		.checklist_vars = checklist_vars,
		.nchecklist_vars = profile.nchecklist_vars,
		.probes = &profile.probes,
		.probe_runner = probe_runner,
	};
	rc = oc_ui_run(&ucfg, &hooks, err, sizeof(err));
	oc_probe_runner_free(&probe_runner);
	bool writer_free = oc_worker_stop(&worker);
	if (writer_free)
		oc_connect_writer_fini(&conn, &writer); /* else the stuck worker still uses it */
	oc_collector_stop(&hctx.c);
	if (writer_free)
		oc_connect_close(&conn); /* the transport outlives backend and writer */
	restore_stderr(saved_stderr);
	if (rc) {
		fprintf(stderr, "opsconsole: %s\n", err);
		return 1;
	}
	return 0;
}
