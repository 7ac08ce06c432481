/* main.c: options, and wiring the collector to the screen; the profile,
 * backend and writer come from session_setup.c. */
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

#include "actions/worker.h"
#include "core/profile.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "onboard_cli.h"
#include "agent_cli.h"
#include "once_cli.h"
#include "core/datafiles.h"
#include "rehearse_cli.h"
#include "rehearsal/checklist.h"
#include "session_setup.h"
#include "source/cli_source.h"
#include "source/collector.h"
#include "source/probe_ssh.h"
#include "source/snapfile.h"
#include "source/source.h"
#include "ui/ui.h"

#ifndef OC_VERSION
#define OC_VERSION "0"
#endif

/* Exit codes: 0 fine, 1 runtime failure, 2 usage or configuration error. */
enum { EXIT_USAGE = OC_SETUP_EXIT_USAGE };

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: opsconsole [--cluster NAME] [options]\n"
		"       opsconsole onboard --cluster NAME --file TEAM.json [--dry-run] [--yes]\n"
		"       opsconsole window --cluster NAME --nodes HOSTLIST [--reason TEXT]\n"
		"                  [--name RESERVATION] [--auto] [--reset] [--report DIR]\n"
		"                  [--progress FILE]\n"
		"       opsconsole rehearse --cluster NAME [--checklist FILE|NAME] [--auto]\n"
		"                  [--report DIR] [--progress FILE] [--reset] [--only IDS]\n"
		"                  [--var NAME=VALUE ...] [--list]\n"
		"       opsconsole --cluster NAME --once VIEW [--json] [--partition P] [--show-hidden]\n"
		"       opsconsole --cluster NAME --once history|events [--since TIME]\n"
		"                  [--until TIME] [--json]\n"
		"       opsconsole --cluster NAME --record FILE\n"
		"       opsconsole agent [--slurm-conf FILE]   (started by a remote console)\n"
		"       opsconsole --snapshot FILE [--cluster NAME] [options]\n"
		"A terminal operations console for Slurm GPU clusters. onboard, window,\n"
		"rehearse and agent explain their options with --help.\n"
		"\n"
		"  -c, --cluster NAME   open the cluster NAME: its profile\n"
		"                       ($XDG_CONFIG_HOME/opsconsole/clusters/NAME.json, then\n"
		"                       /etc/opsconsole/clusters/NAME.json), or else the\n"
		"                       default slurm.conf when its ClusterName is NAME\n"
		"      --view VIEW      start in VIEW: partitions, queue, nodes, health,\n"
		"                       quota, reservations, audit, rehearsal, history, events,\n"
		"                       scheduler\n"
		"  -p, --partition P    start in the queue of partition P\n"
		"      --show-hidden    list hidden partitions too (toggle with H)\n"
		"      --no-mouse       leave the mouse to the terminal (its text selection)\n"
		"      --readonly       offer no action that changes the cluster\n"
		"      --theme NAME     themes/NAME.json (default, light, high-contrast, mono)\n"
		"      --keymap NAME    keymaps/NAME.json (default, vim)\n"
		"      --once VIEW      print VIEW once and exit, for scripts: partitions, queue,\n"
		"                       nodes, health, quota, reservations, history, events,\n"
		"                       fairshare, scheduler (docs/script-mode.md)\n"
		"      --json           with --once: JSON (schema opsconsole.once/1)\n"
		"      --since TIME     with --once history or events: from TIME on, in sacct\n"
		"                       -S forms (now-24hours, the default; today;\n"
		"                       2026-12-01T08:00)\n"
		"      --until TIME     with --once history or events: up to TIME (default now)\n"
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
		"With --once: 0 fine, 1 findings (health, quota, scheduler), 2 error.\n");
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
static void h_refresh_parts(void *ctx, unsigned mask)
{
	oc_collector_refresh_parts(((struct hooks_ctx *)ctx)->c, mask);
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
static void h_set_report(void *ctx, enum oc_report kind, const char *since, const char *until)
{
	oc_collector_set_report(((struct hooks_ctx *)ctx)->c, kind, since, until);
}

/* Script mode (once_cli.c): no terminal, no threads. */
/* --record FILE: one full refresh through the profile's backend, written
 * to FILE.tmp and renamed, so FILE is a whole snapshot or is untouched. */
static int main_record(const char *cluster, const char *path)
{
	struct oc_setup su;
	oc_setup_init(&su, "opsconsole");
	int rc = oc_setup_profile(&su, cluster);
	if (rc)
		return rc;
	char err[512];
	if (oc_setup_open(&su, false, err, sizeof(err)) < 0)
		return 1;
	unsigned mask = OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_JOBS) |
			OC_MASK(OC_PART_RESV);
	struct oc_snapshot *s = oc_collector_refresh_once(su.backend, mask, NULL);
	oc_setup_close(&su);
	const char *name = su.profile.name;
	rc = s ? 0 : 1;
	for (int p = 0; s && p < OC_PART_COUNT; p++)
		if ((mask & OC_MASK(p)) && s->status[p].error[0]) {
			fprintf(stderr, "opsconsole: %s: nothing recorded: %s\n", name, s->status[p].error);
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
			printf("recorded %s: %zu %s, %zu %s, %zu %s, %zu %s\n", path, s->nodes->n,
			       oc_plural(s->nodes->n, "node", "nodes"), s->partitions->n,
			       oc_plural(s->partitions->n, "partition", "partitions"), s->jobs->n,
			       oc_plural(s->jobs->n, "job", "jobs"), s->reservations->n,
			       oc_plural(s->reservations->n, "reservation", "reservations"));
		} else {
			fprintf(stderr, "opsconsole: %s: %s\n", path, ok ? strerror(errno) : err);
			unlink(tmp);
			rc = 1;
		}
	}
	if (!s)
		fprintf(stderr, "opsconsole: %s: out of memory\n", name);
	oc_snapshot_unref(&s);
	return rc;
}

/* --version with a slurmctld that answered: its version, and a warning
 * when the libslurm this console would use (built, NULL without) is of
 * another major. */
static void version_compare(const char *built, const char *ctld, bool via_libslurm)
{
	if (!built || !oc_version_majors_differ(built, ctld))
		return;
	char bm[16], cm[16];
	oc_version_major(built, bm, sizeof(bm));
	oc_version_major(ctld, cm, sizeof(cm));
	if (via_libslurm)
		printf("WARNING: libslurm %s and slurmctld %s are different majors: build opsconsole against "
		       "Slurm %s, or set \"backend\": \"cli\" in the profile\n",
		       bm, cm, cm);
	else
		printf("note: built against libslurm %s, slurmctld runs %s; this profile reads through the "
		       "Slurm commands, which do not use it\n",
		       bm, cm);
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
		const char *conf = oc_setup_slurm_conf();
		if (oc_slurm_conf_cluster_name(conf, name, sizeof(name)) != 0) {
			printf("slurmctld: not asked (no --cluster, and no ClusterName in %s)\n", conf);
			return 0;
		}
	}
	struct oc_setup su;
	oc_setup_init(&su, "opsconsole");
	int rc = oc_setup_profile(&su, cluster);
	if (rc)
		return rc;
	char err[512];
	if (oc_setup_backend(&su, err, sizeof(err)) < 0) {
		printf("slurmctld of %s: not asked: %s\n", su.profile.name, err);
		return 1;
	}
	bool via_libslurm = !su.conn.cli;
	/* The partitions, the smallest part: its error says why when the
	 * controller does not answer. */
	struct oc_snapshot *s = oc_collector_refresh_once(su.backend, OC_MASK(OC_PART_PARTITIONS), NULL);
	char agent[300] = "";
	if (su.conn.cli && su.profile.ssh.host[0]) {
		bool on;
		const char *a = oc_cli_backend_agent(su.backend, &on);
		snprintf(agent, sizeof(agent), "%s: %s", on ? "data agent on the head node" : "no data agent", a);
	}
	oc_setup_close(&su);
	const char *how = via_libslurm ? "libslurm" : agent[0] ? agent : "the Slurm commands";
	if (!s || !s->slurm_version[0]) {
		const char *why = !s ? "out of memory" : s->status[OC_PART_PARTITIONS].error;
		printf("slurmctld of %s: version unknown (asked through %s): %s\n", su.profile.name, how,
		       why[0] ? why : "no answer");
		oc_snapshot_unref(&s);
		return 1;
	}
	printf("slurmctld of %s: Slurm %s (asked through %s)\n", s->cluster[0] ? s->cluster : su.profile.name,
	       s->slurm_version, how);
	version_compare(built, s->slurm_version, via_libslurm);
	oc_snapshot_unref(&s);
	return 0;
}

/* The console's command line. */
struct main_opts {
	const char *cluster, *view, *partition, *theme, *keymap, *record, *snapshot;
	int show_hidden, readonly, version, no_mouse;
	struct oc_once_args once;
};

static int main_once(struct main_opts *o)
{
	if (!o->once.view) {
		fprintf(stderr, "opsconsole: --%s goes with --once VIEW\n",
			o->once.json ? "json" : o->once.since ? "since" : "until");
		return EXIT_USAGE;
	}
	if (o->view) {
		fprintf(stderr, "opsconsole: --view and --once do not go together\n");
		return EXIT_USAGE;
	}
	o->once.partition = o->partition;
	if (oc_once_check_args(&o->once))
		return EXIT_USAGE;
	struct oc_setup su;
	oc_setup_init(&su, "opsconsole");
	int rc = oc_setup_profile(&su, o->cluster);
	if (rc)
		return rc;
	o->once.show_hidden = o->show_hidden || su.profile.show_hidden;
	return oc_once_run(&su, &o->once);
}

/* Parses the options into o (zeroed). Returns -1 to go on, else the exit
 * code (--help; bad options, after the usage). */
static int main_parse(int argc, char **argv, struct main_opts *o)
{
	enum { OPT_VIEW = 256, OPT_SHOW_HIDDEN, OPT_NO_MOUSE, OPT_READONLY, OPT_THEME, OPT_KEYMAP, OPT_ONCE, OPT_JSON, OPT_RECORD,
	       OPT_SNAPSHOT, OPT_SINCE, OPT_UNTIL };
	static const struct option opts[] = {
		{"cluster", required_argument, NULL, 'c'},
		{"view", required_argument, NULL, OPT_VIEW},
		{"partition", required_argument, NULL, 'p'},
		{"show-hidden", no_argument, NULL, OPT_SHOW_HIDDEN},
		{"no-mouse", no_argument, NULL, OPT_NO_MOUSE},
		{"readonly", no_argument, NULL, OPT_READONLY},
		{"theme", required_argument, NULL, OPT_THEME},
		{"keymap", required_argument, NULL, OPT_KEYMAP},
		{"once", required_argument, NULL, OPT_ONCE},
		{"json", no_argument, NULL, OPT_JSON},
		{"since", required_argument, NULL, OPT_SINCE},
		{"until", required_argument, NULL, OPT_UNTIL},
		{"record", required_argument, NULL, OPT_RECORD},
		{"snapshot", required_argument, NULL, OPT_SNAPSHOT},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "c:p:hV", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': o->cluster = optarg; break;
		case 'p': o->partition = optarg; break;
		case OPT_VIEW: o->view = optarg; break;
		case OPT_SHOW_HIDDEN: o->show_hidden = 1; break;
		case OPT_NO_MOUSE: o->no_mouse = 1; break;
		case OPT_READONLY: o->readonly = 1; break;
		case OPT_THEME: o->theme = optarg; break;
		case OPT_KEYMAP: o->keymap = optarg; break;
		case OPT_ONCE: o->once.view = optarg; break;
		case OPT_JSON: o->once.json = true; break;
		case OPT_SINCE: o->once.since = optarg; break;
		case OPT_UNTIL: o->once.until = optarg; break;
		case OPT_RECORD: o->record = optarg; break;
		case OPT_SNAPSHOT: o->snapshot = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': o->version = 1; break;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "opsconsole: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	return -1;
}

/* Whether the console can start in view (NULL: its default). Returns 0,
 * or EXIT_USAGE after saying why. */
static int main_check_view(const char *view)
{
	static const char *const view_names[] = {"partitions", "queue",	   "nodes", "health",
						 "quota",      "reservations", "audit", "rehearsal", "history", "events", "scheduler"};
	if (!view)
		return 0;
	for (size_t i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++)
		if (strcmp(view, view_names[i]) == 0)
			return 0;
	fprintf(stderr,
		"opsconsole: unknown view '%s' (partitions, queue, nodes, health, quota, reservations, audit, "
		"rehearsal, history, events, scheduler)\n",
		view);
	return EXIT_USAGE;
}

/* find_datadir, saying why on stderr when it refuses $OPSCONSOLE_DATADIR.
 * Returns 0, or EXIT_USAGE. */
static int main_datadir(char *out, size_t len)
{
	char err[PATH_MAX + 512];
	if (find_datadir(out, len, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The console's run: what main_console sets up, hands the screen, and
 * tears down. */
struct console {
	struct main_opts *o;
	struct oc_setup su;   /* the backend is the collector's once it runs */
	char datadir[PATH_MAX];
	time_t frozen_at;     /* when a snapshot was taken; 0 live */
	int saved_stderr;     /* redirect_stderr's */
	struct hooks_ctx hctx;
	struct oc_worker *worker;
	struct oc_probe_runner *probe_runner;
	char checklist_path[PATH_MAX], rehearsal_progress[PATH_MAX + 128], checklist_notice[1024];
	char window_checklist[PATH_MAX];
	struct oc_checklist_var checklist_vars[OC_PROFILE_MAX_VARS];
};

/* The profile (no cluster with a snapshot: the default looks), the
 * backend, and a terminal to draw on. Returns 0, or the exit code after
 * saying why. */
static int console_open(struct console *c, char *err, size_t errlen)
{
	struct main_opts *o = c->o;
	oc_setup_init(&c->su, "opsconsole");
	if (o->snapshot && !o->cluster) {
		oc_setup_unnamed(&c->su, "snapshot");
	} else {
		int rc = oc_setup_profile(&c->su, o->cluster);
		if (rc)
			return rc;
	}
	/* The backend (libslurm, or the Slurm commands over a transport) comes
	 * from the profile: connect.c, where the transport is chosen; or a
	 * recorded snapshot, read-only and without probes. */
	c->su.snapshot = o->snapshot;
	if (oc_setup_open(&c->su, false, err, errlen) < 0)
		return 1;
	if (o->snapshot) {
		c->frozen_at = oc_snap_backend_taken(c->su.backend);
		o->readonly = 1;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "opsconsole: the console needs a terminal (opsconsole onboard and rehearse work without one)\n");
		oc_setup_close(&c->su);
		return 1;
	}
	return 0;
}

/* The collector thread, which owns the backend from here on. libslurm
 * prints its errors on stderr ("error: Sending PersistInit msg:
 * Connection refused"), which would draw over the screen: from before the
 * threads start until the screen is gone, stderr goes to
 * $XDG_STATE_HOME/opsconsole/NAME.log. Returns 0, or 1 after saying why. */
static int console_start_collector(struct console *c, char *err, size_t errlen)
{
	const struct oc_profile *p = &c->su.profile;
	char stderr_log[PATH_MAX + 80];
	find_stderr_log(p->name, stderr_log, sizeof(stderr_log));
	c->saved_stderr = redirect_stderr(stderr_log);
	struct oc_collector_config ccfg = {
		.backend = c->su.backend,
		.fast_s = p->refresh_s,
		.slow_s = p->refresh_s * 10 < 30 ? 30 : p->refresh_s * 10,
		/* The start view's parts come first: they are on screen sooner. */
		.focus = oc_ui_view_focus(c->o->view),
		.platform = (int)p->platform,
		.pclog = p->clustermgtd_log,
	};
	c->su.backend = NULL; /* the collector's, even when it does not start */
	c->hctx.c = oc_collector_start(&ccfg, err, errlen);
	if (!c->hctx.c) {
		restore_stderr(c->saved_stderr);
		fprintf(stderr, "opsconsole: %s\n", err);
		oc_setup_close(&c->su);
		return 1;
	}
	return 0;
}

/* Writes: a worker thread applies them through the writer of the backend;
 * --readonly starts none. */
static void console_start_worker(struct console *c)
{
	char err[512];
	if (c->o->readonly || c->su.profile.readonly)
		return;
	if (oc_setup_writer(&c->su, err, sizeof(err)) == 0)
		c->worker = oc_worker_start(&c->su.writer, c->su.profile.name, c->su.audit_log, err, sizeof(err));
	if (!c->worker)
		fprintf(stderr, "opsconsole: actions disabled: %s\n", err);
}

/* The rehearsal view's checklist, progress file and variables: those
 * `opsconsole rehearse` takes without --checklist and --progress. */
static void console_rehearsal(struct console *c)
{
	const struct oc_profile *p = &c->su.profile;
	bool fallback = false;
	if (oc_rehearse_default_paths(p, c->datadir, c->checklist_path, sizeof(c->checklist_path),
				      c->rehearsal_progress, sizeof(c->rehearsal_progress), &fallback) < 0)
		c->checklist_path[0] = '\0';
	if (fallback)
		oc_checklist_fallback_notice(p->name, OC_REHEARSE_DEFAULT_CHECKLIST, c->checklist_notice,
					     sizeof(c->checklist_notice));
	oc_window_checklist_path(p, c->datadir, c->window_checklist, sizeof(c->window_checklist));
	for (size_t i = 0; i < p->nchecklist_vars; i++) {
		c->checklist_vars[i].name = p->checklist_vars[i].name;
		c->checklist_vars[i].value = p->checklist_vars[i].value;
	}
}

/* Node probes: over SSH to each node, also in a read-only console (they
 * change nothing; draining from a result goes through the worker like any
 * write); none on a snapshot. */
static void console_start_probes(struct console *c)
{
	char err[512];
	if (c->o->snapshot)
		return;
	c->probe_runner = oc_probe_ssh_runner_new(&c->su.profile.probes, err, sizeof(err));
	if (!c->probe_runner)
		fprintf(stderr, "opsconsole: node probes disabled: %s\n", err);
}

/* The screen, until the operator quits. Returns oc_ui_run's. */
static int console_run_ui(struct console *c, char *err, size_t errlen)
{
	const struct main_opts *o = c->o;
	const struct oc_profile *p = &c->su.profile;
	struct oc_ui_hooks hooks = {
		.ctx = &c->hctx,
		.current = h_current,
		.set_focus = h_set_focus,
		.refresh_now = h_refresh_now,
		.refresh_parts = h_refresh_parts,
		.wake_fd = h_wake_fd,
		.ack = h_ack,
		.inflight_since = h_inflight,
		.set_report = h_set_report,
	};
	const char *libslurm_version = NULL;
#ifdef OC_WITH_LIBSLURM
	if (!o->snapshot && !c->su.conn.cli)
		libslurm_version = oc_slurm_build_version();
#endif
	struct oc_ui_config ucfg = {
		.cluster = p->name,
		.libslurm_version = libslurm_version,
		.start_view = o->view,
		.start_arg = o->partition,
		.refresh_s = p->refresh_s,
		.show_hidden = o->show_hidden || p->show_hidden,
		.no_mouse = o->no_mouse || p->no_mouse,
		.readonly = o->readonly || p->readonly,
		.platform = p->platform,
		.frozen_at = c->frozen_at,
		.theme = o->theme ? o->theme : (p->theme[0] ? p->theme : NULL),
		.keymap = o->keymap ? o->keymap : (p->keymap[0] ? p->keymap : NULL),
		.datadir = c->datadir,
		.worker = c->worker,
		.audit_log = c->su.audit_log,
		.checklist_path = c->checklist_path,
		.rehearsal_progress = c->rehearsal_progress,
		.checklist_notice = c->checklist_notice,
		.window_checklist = c->window_checklist,
		.checklist_vars = c->checklist_vars,
		.nchecklist_vars = p->nchecklist_vars,
		.probes = &p->probes,
		.probe_runner = c->probe_runner,
	};
	return oc_ui_run(&ucfg, &hooks, err, errlen);
}

/* How long the quit waits for node probe threads still closing their
 * SSH sessions (one whose command hangs is not waited for). */
#define QUIT_PROBE_WAIT_S 1.0

/* Stops what the console started, stderr back last. Returns false when a
 * thread was left running (a probe's command, a stuck write, a long
 * command over SSH): the process must then end without its exit
 * handlers (main_console). */
static bool console_stop(struct console *c)
{
	bool probes_ended = oc_probe_threads_wait(QUIT_PROBE_WAIT_S);
	oc_probe_runner_free(&c->probe_runner);
	bool writer_free = oc_worker_stop(&c->worker);
	if (writer_free)
		oc_setup_writer_close(&c->su); /* else the stuck worker still uses it */
	/* A collector left running (a long command over SSH at the quit)
	 * still uses the transport: it goes with the process. */
	bool collector_stopped = oc_collector_stop(&c->hctx.c);
	if (writer_free && collector_stopped)
		oc_setup_close(&c->su); /* the transport outlives backend and writer */
	restore_stderr(c->saved_stderr);
	return probes_ended && writer_free && collector_stopped;
}

/* The console on a terminal. Returns the exit code. */
static int main_console(struct main_opts *o)
{
	if (main_check_view(o->view))
		return EXIT_USAGE;
	if (o->partition && !o->view)
		o->view = "queue";
	struct console c;
	memset(&c, 0, sizeof(c));
	c.o = o;
	if (main_datadir(c.datadir, sizeof(c.datadir)))
		return EXIT_USAGE;
	char err[512];
	int rc = console_open(&c, err, sizeof(err));
	if (rc == 0)
		rc = console_start_collector(&c, err, sizeof(err));
	if (rc)
		return rc;
	console_start_worker(&c);
	console_rehearsal(&c);
	console_start_probes(&c);
	rc = console_run_ui(&c, err, sizeof(err));
	bool all_stopped = console_stop(&c);
	if (rc) {
		fprintf(stderr, "opsconsole: %s\n", err);
		rc = 1;
	}
	if (!all_stopped) {
		/* exit() would run libssh's destructor and libcrypto's exit
		 * handler under the thread still in them (a crash at the quit,
		 * seen after a node probe timed out): end without them. */
		fflush(NULL);
		_exit(rc);
	}
	return rc;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc > 1 && strcmp(argv[1], "onboard") == 0)
		return oc_onboard_cli(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "rehearse") == 0) {
		char datadir[PATH_MAX];
		if (main_datadir(datadir, sizeof(datadir)))
			return EXIT_USAGE;
		return oc_rehearse_cli(argc - 1, argv + 1, datadir);
	}
	if (argc > 1 && strcmp(argv[1], "agent") == 0)
		return oc_agent_cli(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "window") == 0) {
		char datadir[PATH_MAX];
		if (main_datadir(datadir, sizeof(datadir)))
			return EXIT_USAGE;
		return oc_window_cli(argc - 1, argv + 1, datadir);
	}
	struct main_opts o;
	memset(&o, 0, sizeof(o));
	int rc = main_parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.version)
		return main_version(o.cluster);
	if ((o.record || o.snapshot) && (o.once.view || o.once.json || o.once.since || o.once.until)) {
		fprintf(stderr, "opsconsole: --%s does not go with --once\n", o.record ? "record" : "snapshot");
		return EXIT_USAGE;
	}
	if (o.record && o.snapshot) {
		fprintf(stderr, "opsconsole: --record and --snapshot do not go together\n");
		return EXIT_USAGE;
	}
	if (o.record)
		return main_record(o.cluster, o.record);
	if (o.once.view || o.once.json || o.once.since || o.once.until)
		return main_once(&o);
	return main_console(&o);
}
