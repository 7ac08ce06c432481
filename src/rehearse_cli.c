/* rehearse_cli.c: `opsconsole rehearse --cluster NAME [--checklist FILE]
 * [--auto] [--report DIR] [--progress FILE] [--reset] ...`: a failure
 * rehearsal from a checklist. --auto runs every automatic step in order
 * (manual ones are marked skipped: they need an operator), prints one line
 * per step, saves the progress after every change, resumes from it, and
 * writes report.md and report.json. Without --auto, on a terminal, it
 * walks through the steps with the operator. The engine is
 * src/rehearsal/; this file only wires it to libslurm (the collector's
 * one-shot refresh for snapshots, the libslurm writer for actions). */
#include "rehearse_cli.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <langinfo.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/datafiles.h"
#include "core/hostlist.h"
#include "core/platform.h"
#include "core/strbuf.h"
#include "rehearsal/checklist.h"
#include "rehearsal/report.h"
#include "rehearsal/runner.h"
#include "rehearsal/session.h"
#include "rehearsal/window.h"
#include "session_setup.h"
#include "source/collector.h"
#include "source/source.h"

#define REH_MAX_VARS 64
#define REH_DEFAULT_CHECKLIST OC_REHEARSE_DEFAULT_CHECKLIST

static volatile sig_atomic_t reh_stop_sig;
/* The subcommand's name for messages: "opsconsole rehearse" or "opsconsole window". */
static const char *reh_prog = "opsconsole rehearse";

static void reh_on_signal(int sig)
{
	reh_stop_sig = sig;
}

static void reh_usage(FILE *out)
{
	fprintf(out,
		"Usage: opsconsole rehearse --cluster NAME [--checklist FILE|NAME] [--auto]\n"
		"                           [--report DIR] [--progress FILE] [--reset]\n"
		"                           [--only IDS] [--var NAME=VALUE ...] [--list]\n"
		"A failure rehearsal and runbook audit from a checklist (docs/rehearsal.md):\n"
		"configuration audit, multi-user probes as test users, fault drills. The\n"
		"progress is saved after every step; a second run resumes where the first\n"
		"stopped. A report (report.md, report.json) is written at the end.\n"
		"\n"
		"  -c, --cluster NAME     the cluster's profile (as for the console)\n"
		"      --checklist F      a checklist file, or NAME for checklists/NAME.json in\n"
		"                         ~/.config/opsconsole, /etc/opsconsole, the data dir;\n"
		"                         default: the profile's \"checklist\", else\n"
		"                         checklists/CLUSTER.json, else checklists/llm-poc.json\n"
		"      --auto             run every automatic step, skip the manual ones (CI)\n"
		"      --report DIR       where report.md and report.json go (default\n"
		"                         $XDG_STATE_HOME/opsconsole/rehearsal-CLUSTER-DATE/)\n"
		"      --progress FILE    the progress file (default\n"
		"                         $XDG_STATE_HOME/opsconsole/rehearsal-CLUSTER.progress.json)\n"
		"      --reset            start over: forget the saved progress\n"
		"      --only IDS         run only the steps whose id matches one of the\n"
		"                         comma-separated patterns (cfg-*,mu-grptres-held)\n"
		"      --var NAME=VALUE   set a checklist variable (user_a, drill_node, ...)\n"
		"      --list             check the checklist and list its steps; no cluster\n"
		"  -h, --help             this help\n"
		"\n"
		"Without --auto, on a terminal, each step is offered in turn: the operator\n"
		"runs or skips it, does what manual steps ask, and may add notes.\n"
		"\n"
		"Exit status: 0 every step that ran passed, 1 some failed or the cluster\n"
		"cannot be reached, 2 usage, bad checklist or progress file, 128+N stopped\n"
		"by signal N (the step in progress is cleaned up and the progress saved).\n");
}

/* Finds checklists/NAME.json in the user's, the site's and the data
 * directories (plus src/rehearsal/ of a source tree). Returns 0 and the
 * path, 1 when none has it (err says where it looked), -1 on a refused
 * name. */
static int reh_find_named(const char *name, const char *datadir, char *path, size_t len, char *err,
			  size_t errlen)
{
	struct oc_datafile_dirs d;
	oc_datafile_dirs(&d, datadir);
	if (datadir && *datadir) {
		char src[OC_DATAFILE_PATH_MAX];
		snprintf(src, sizeof(src), "%.4000s/src/rehearsal", datadir);
		struct stat st;
		if (stat(src, &st) == 0 && S_ISDIR(st.st_mode))
			oc_datafile_dirs_add(&d, src, false);
	}
	return oc_datafile_find("checklists", name, &d, path, len, NULL, err, errlen);
}

/* The checklist file to use. Returns 0 and path, or 2 after printing why.
 * *fallback (may be NULL): the default checklist was taken because the
 * cluster has none of its own. */
static int reh_checklist_path(const char *given, const struct oc_profile *p, const char *datadir, char *path,
			      size_t len, bool *fallback)
{
	if (fallback)
		*fallback = false;
	char err[4400];
	if (given && (strchr(given, '/') || strstr(given, ".json"))) {
		if ((size_t)snprintf(path, len, "%s", given) >= len) {
			fprintf(stderr, "%s: --checklist: path too long\n", reh_prog);
			return 2;
		}
		return 0;
	}
	if (given) {
		int rc = reh_find_named(given, datadir, path, len, err, sizeof(err));
		if (rc == 0)
			return 0;
		fprintf(stderr, "%s: checklist \"%s\": %s\n", reh_prog, given, err);
		return 2;
	}
	if (p && p->checklist[0]) {
		int n;
		if (p->checklist[0] == '/' || !p->path[0]) {
			n = snprintf(path, len, "%s", p->checklist);
		} else {
			char dir[sizeof(p->path)];
			memcpy(dir, p->path, sizeof(dir));
			dir[sizeof(dir) - 1] = '\0';
			n = snprintf(path, len, "%s/%s", dirname(dir), p->checklist);
		}
		if (n < 0 || (size_t)n >= len) {
			fprintf(stderr, "%s: %s: \"checklist\": path too long\n", reh_prog, p->path);
			return 2;
		}
		return 0;
	}
	if (p && p->name[0] && reh_find_named(p->name, datadir, path, len, err, sizeof(err)) == 0)
		return 0;
	if (reh_find_named(REH_DEFAULT_CHECKLIST, datadir, path, len, err, sizeof(err)) == 0) {
		if (fallback)
			*fallback = true;
		return 0;
	}
	fprintf(stderr, "%s: no checklist found: %s\n(give one with --checklist FILE)\n", reh_prog, err);
	return 2;
}

/* Whether id matches one of the comma-separated patterns (NULL: all). */
static bool reh_only(const char *only, const char *id)
{
	if (!only)
		return true;
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", only);
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (*t == ' ')
			t++;
		if (*t && fnmatch(t, id, 0) == 0)
			return true;
	}
	return false;
}

/* The first line of text (up to max bytes) into out. */
static const char *reh_first_line(const char *text, char *out, size_t len)
{
	snprintf(out, len, "%s", text ? text : "");
	char *nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	return out;
}

static void reh_print_result(const struct oc_session *s, size_t i)
{
	const struct oc_step_rec *r = &s->steps[i];
	char line[1200];
	int w = s->nsteps >= 100 ? 3 : 2;
	printf("[%*zu/%zu] %-4s %s: %s\n", w, i + 1, s->nsteps, oc_step_state_tag(r->state), r->id,
	       reh_first_line(r->evidence ? r->evidence : r->notes, line, sizeof(line)));
	fflush(stdout);
}

/* Everything a run needs. */
struct reh {
	struct oc_setup su;        /* profile, backend, writer, audit log */
	struct oc_snapshot *snap;
	struct oc_runner_cfg rcfg;
	bool tty;
};

static void reh_refresh(struct reh *h)
{
	struct oc_snapshot *n = oc_collector_refresh_once(h->su.backend, OC_MASK_ALL, h->snap);
	if (n) {
		oc_snapshot_unref(&h->snap);
		h->snap = n;
	}
}

/* Sleeps about seconds; returns early on a signal. */
static void reh_sleep(double seconds)
{
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
	nanosleep(&ts, NULL);
}

/* Polls run until it needs someone or is done. Returns its status;
 * OC_RUN_DONE also after a signal (the run is aborted then). */
static enum oc_run_status reh_drive(struct reh *h, struct oc_run *run)
{
	char shown[600] = "";
	for (;;) {
		if (reh_stop_sig) {
			char why[64];
			snprintf(why, sizeof(why), "stopped by signal %d (%s)", (int)reh_stop_sig,
				 strsignal((int)reh_stop_sig));
			oc_runner_abort(run, why);
			return OC_RUN_DONE;
		}
		reh_refresh(h);
		enum oc_run_status st = oc_runner_poll(run, h->snap);
		if (h->tty && st == OC_RUN_BUSY) {
			char now[600];
			snprintf(now, sizeof(now), "%.150s", oc_runner_status_text(run));
			if (strcmp(now, shown) != 0) {
				printf("\r\033[K  ... %s", now);
				fflush(stdout);
				snprintf(shown, sizeof(shown), "%s", now);
			}
		}
		if (st != OC_RUN_BUSY) {
			if (h->tty && shown[0])
				printf("\r\033[K");
			return st;
		}
		reh_sleep(1.0);
	}
}

/* Reads one line from the terminal into buf (newline removed). Returns
 * false at EOF or on a signal. */
static bool reh_ask(const char *prompt, char *buf, size_t len)
{
	printf("%s", prompt);
	fflush(stdout);
	if (!fgets(buf, (int)len, stdin))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return !reh_stop_sig;
}

/* Whether the terminal's locale shows UTF-8 (what the console's oc_utf8
 * says; this program part has no curses). */
static bool reh_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static void reh_print_step(const struct oc_checklist *cl, size_t i)
{
	const struct oc_step *st = &cl->steps[i];
	printf("\n[%zu/%zu] %s: %s (%s)\n", i + 1, cl->nsteps, st->id, st->title, st->automatic ? "automatic" : "manual");
	printf("  why:     %s\n", st->why);
	/* The runbook's own words where the locale can show them. */
	if (st->runbook && reh_utf8())
		printf("  runbook: %s\n", st->runbook);
	if (st->todo[0])
		printf("  do:      %s\n", st->todo);
	printf("  observe: %s\n", st->observe);
	for (size_t k = 0; k < st->nactions; k++) {
		const struct oc_step_action *a = &st->actions[k];
		printf("  action %zu: %s", k + 1, oc_step_action_kind_name(a->kind));
		if (a->kind == OC_SA_SUBMIT_JOB)
			printf(" as %s to %s%s%s", a->user, a->partition ? a->partition : "(default)", a->qos ? "/" : "",
			       a->qos ? a->qos : "");
		else if (a->hostlist)
			printf(" %s", a->hostlist);
		else if (a->label)
			printf(" %s", a->label);
		printf("%s%s\n", a->after_operator ? " (after the operator's part)" : "",
		       a->confirm ? " [changes the cluster]" : "");
	}
}

/* Runs one step with the operator on the terminal. Returns false when the
 * operator quits. */
static bool reh_interactive_step(struct reh *h, const struct oc_checklist *cl, struct oc_session *s, size_t i)
{
	const struct oc_step *st = &cl->steps[i];
	char ans[1024], err[512];
	reh_print_step(cl, i);
	if (!reh_ask("run it? [Y]es, [s]kip, [q]uit: ", ans, sizeof(ans)) || ans[0] == 'q' || ans[0] == 'Q')
		return false;
	if (ans[0] == 's' || ans[0] == 'S') {
		reh_ask("why skip (a note, Enter for none): ", ans, sizeof(ans));
		oc_session_mark(s, i, OC_STEP_SKIPPED, ans[0] ? ans : "skipped by the operator", "operator", err,
				sizeof(err));
		reh_print_result(s, i);
		return true;
	}
	bool confirmed = !st->needs_confirm;
	if (st->needs_confirm) {
		if (!reh_ask("this step changes the cluster (see the actions above). Go ahead? [y/N]: ", ans, sizeof(ans)))
			return false;
		confirmed = ans[0] == 'y' || ans[0] == 'Y';
		if (!confirmed) {
			printf("not run\n");
			return true;
		}
	}
	struct oc_run *run = oc_runner_start(s, cl, i, &h->rcfg, confirmed, err, sizeof(err));
	if (!run) {
		fprintf(stderr, "%s: %s\n", reh_prog, err);
		return true;
	}
	for (;;) {
		enum oc_run_status rs = reh_drive(h, run);
		if (rs == OC_RUN_OPERATOR) {
			printf("  %s\n", oc_runner_status_text(run));
			if (!reh_ask("press Enter when done, or type 'a' to abort the step: ", ans, sizeof(ans)) ||
			    ans[0] == 'a' || ans[0] == 'A') {
				oc_runner_abort(run, reh_stop_sig ? "stopped by a signal" : "aborted by the operator");
				break;
			}
			oc_runner_operator_done(run);
			continue;
		}
		if (rs == OC_RUN_VERDICT) {
			bool ok = reh_ask("no automatic check: did you observe it? [p]ass / [f]ail: ", ans, sizeof(ans)) &&
				  (ans[0] == 'p' || ans[0] == 'P');
			char note[1024] = "";
			if (!reh_stop_sig)
				reh_ask("note (what you saw, Enter for none): ", note, sizeof(note));
			oc_session_mark(s, i, ok ? OC_STEP_PASSED : OC_STEP_FAILED, note, "operator", err, sizeof(err));
		}
		break;
	}
	oc_runner_free(&run);
	reh_print_result(s, i);
	if (!reh_stop_sig && s->steps[i].state != OC_STEP_NOT_RUN &&
	    reh_ask("note for the report (Enter for none): ", ans, sizeof(ans)) && ans[0])
		oc_session_note(s, i, ans, err, sizeof(err));
	return !reh_stop_sig;
}

/* Runs one automatic step to its end. */
static void reh_auto_step(struct reh *h, const struct oc_checklist *cl, struct oc_session *s, size_t i)
{
	char err[512];
	struct oc_run *run = oc_runner_start(s, cl, i, &h->rcfg, false, err, sizeof(err));
	if (!run) {
		oc_step_rec_set_evidence(&s->steps[i], err);
		oc_session_mark(s, i, OC_STEP_FAILED, NULL, "auto", err, sizeof(err));
	} else {
		enum oc_run_status rs = reh_drive(h, run);
		if (rs == OC_RUN_OPERATOR || rs == OC_RUN_VERDICT)
			oc_runner_abort(run, "needs an operator");   /* an auto step never does */
		oc_runner_free(&run);
	}
	reh_print_result(s, i);
}

static void reh_list(const struct oc_checklist *cl)
{
	if (strncmp(cl->title, cl->name, strlen(cl->name)) == 0)
		printf("%s (%s)\n", cl->title, cl->path);
	else
		printf("%s: %s (%s)\n", cl->name, cl->title, cl->path);
	const char *section = NULL;
	for (size_t i = 0; i < cl->nsteps; i++) {
		const struct oc_step *st = &cl->steps[i];
		if (st->section && (!section || strcmp(section, st->section) != 0)) {
			section = st->section;
			printf("%s\n", section);
		}
		printf("  %2zu %-6s %-26s %s\n", i + 1, st->automatic ? "auto" : "manual", st->id, st->title);
	}
}

/* What the command line asked for. */
struct reh_opts {
	const char *cluster, *checklist, *report, *progress, *only;
	int run_auto, reset, list;
	const char *prog;        /* "opsconsole rehearse" / "opsconsole window" */
	const char *state_kind;  /* the state files' name: KIND-CLUSTER[-SUFFIX]; NULL = "rehearsal" */
	char state_suffix[128];
	char state_name[256];    /* set once the cluster is known */
	char headline[1024];     /* the first line a run prints ("" = the rehearsal's) */
	struct oc_checklist_var vars[REH_MAX_VARS + OC_PROFILE_MAX_VARS]; /* --var, then the profile's */
	size_t nvars;
};

/* Parses the options into o (zeroed). Returns -1 to go on, else the exit
 * code (--help; bad options, after saying why). */
static int reh_parse(int argc, char **argv, struct reh_opts *o)
{
	enum { OPT_CHECKLIST = 256, OPT_AUTO, OPT_REPORT, OPT_PROGRESS, OPT_RESET, OPT_ONLY, OPT_VAR, OPT_LIST };
	static const struct option opts[] = {
		{"cluster", required_argument, NULL, 'c'},
		{"checklist", required_argument, NULL, OPT_CHECKLIST},
		{"auto", no_argument, NULL, OPT_AUTO},
		{"report", required_argument, NULL, OPT_REPORT},
		{"progress", required_argument, NULL, OPT_PROGRESS},
		{"reset", no_argument, NULL, OPT_RESET},
		{"only", required_argument, NULL, OPT_ONLY},
		{"var", required_argument, NULL, OPT_VAR},
		{"list", no_argument, NULL, OPT_LIST},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': o->cluster = optarg; break;
		case OPT_CHECKLIST: o->checklist = optarg; break;
		case OPT_AUTO: o->run_auto = 1; break;
		case OPT_REPORT: o->report = optarg; break;
		case OPT_PROGRESS: o->progress = optarg; break;
		case OPT_RESET: o->reset = 1; break;
		case OPT_ONLY: o->only = optarg; break;
		case OPT_LIST: o->list = 1; break;
		case OPT_VAR: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || o->nvars >= REH_MAX_VARS) {
				fprintf(stderr, "%s: --var wants NAME=VALUE (at most %d), got '%s'\n", reh_prog,
					REH_MAX_VARS, optarg);
				return 2;
			}
			*eq = '\0';
			o->vars[o->nvars].name = optarg;
			o->vars[o->nvars].value = eq + 1;
			o->nvars++;
			break;
		}
		case 'h': reh_usage(stdout); return 0;
		default: reh_usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", reh_prog, argv[optind]);
		reh_usage(stderr);
		return 2;
	}
	return -1;
}

/* The checklist --checklist or the profile names (or the default one, with
 * a note on stderr), its variables from --var and the profile. profile:
 * zeroed when have_profile is false (--list without --cluster). Returns 0
 * and *out, or 2 after saying why. */
static int reh_load_checklist(struct reh_opts *o, const struct oc_profile *profile, bool have_profile,
			      const char *datadir, struct oc_checklist **out)
{
	char clpath[PATH_MAX];
	bool fallback = false;
	int rc = reh_checklist_path(o->checklist, have_profile ? profile : NULL, datadir, clpath, sizeof(clpath),
				    &fallback);
	if (rc)
		return rc;
	/* The profile's values come after --var: the first of a name wins. */
	for (size_t i = 0; have_profile && i < profile->nchecklist_vars && o->nvars < REH_MAX_VARS; i++) {
		o->vars[o->nvars].name = profile->checklist_vars[i].name;
		o->vars[o->nvars].value = profile->checklist_vars[i].value;
		o->nvars++;
	}
	char err[8192];
	struct oc_checklist *cl = oc_checklist_load(clpath, o->vars, o->nvars, err, sizeof(err));
	if (!cl) {
		fprintf(stderr, "%s: %s\n", reh_prog, err);
		return 2;
	}
	if (fallback) {
		char note[1024];
		oc_checklist_set_notice(cl, oc_checklist_fallback_notice(profile->name, REH_DEFAULT_CHECKLIST, note,
									  sizeof(note)));
		if (cl->notice)
			fprintf(stderr, "%s: note: %s\n", reh_prog, cl->notice);
	}
	*out = cl;
	return 0;
}

/* --reset: starting over, jobs a killed run of the old progress left
 * behind are still cancelled (a broken old file is ignored). */
static void reh_cleanup_old(struct reh *h, const struct oc_checklist *cl, const char *progress_path)
{
	struct oc_session *old = NULL;
	char err[8192], msg[4096];
	if (oc_session_open(cl, h->su.profile.name, progress_path, false, &old, err, sizeof(err)) == 0 && old->resumed) {
		old->path[0] = '\0';   /* the new session owns the file now */
		if (oc_runner_cleanup_all(old, &h->rcfg, msg, sizeof(msg)) != 0 && msg[0])
			printf("%s", msg);
	}
	oc_session_free(&old);
}

/* SIGTERM, SIGINT and SIGHUP end the run between polls (reh_stop_sig):
 * the step in progress is cleaned up and the progress saved first. */
static void reh_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = reh_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* A resumed session: how far the saved progress got. */
static void reh_say_resumed(const struct oc_session *s, const struct oc_checklist *cl)
{
	if (!s->resumed)
		return;
	size_t next = oc_session_next(s);
	for (size_t i = 0; cl->stop_on_failure && i < next && i < s->nsteps; i++)
		if (s->steps[i].state == OC_STEP_FAILED)
			next = i; /* tried again first */
	size_t done = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		done += s->steps[i].state != OC_STEP_NOT_RUN && s->steps[i].state != OC_STEP_RUNNING;
	if (next < s->nsteps && s->steps[next].state == OC_STEP_FAILED)
		done--;
	if (next < s->nsteps)
		printf("resuming: %zu of %zu %s already done; next: %s\n", done, s->nsteps,
		       oc_plural(s->nsteps, "step", "steps"), s->steps[next].id);
	else
		printf("resuming: all %zu %s already done (use --reset to start over)\n", s->nsteps,
		       oc_plural(s->nsteps, "step", "steps"));
}

/* Every step not yet decided that --only takes: automatic ones run and
 * manual ones skipped with --auto, else each offered to the operator. */
static void reh_run_steps(struct reh *h, const struct reh_opts *o, const struct oc_checklist *cl,
			  struct oc_session *s)
{
	char err[8192];
	for (size_t i = 0; i < cl->nsteps && !reh_stop_sig; i++) {
		enum oc_step_state st = s->steps[i].state;
		/* stop_on_failure: a failed step of a resumed run is tried again. */
		if (st == OC_STEP_PASSED || st == OC_STEP_SKIPPED || (st == OC_STEP_FAILED && !cl->stop_on_failure))
			continue;
		if (!reh_only(o->only, cl->steps[i].id))
			continue;
		const char *not_here = oc_runner_not_here(&cl->steps[i], h->rcfg.platform);
		if (not_here && (o->run_auto || !cl->steps[i].automatic)) {
			char why[1024];
			snprintf(why, sizeof(why), "skipped: not on %s: %s",
				 oc_platform_name((enum oc_platform)h->rcfg.platform), not_here);
			oc_step_rec_set_evidence(&s->steps[i], why);
			oc_session_mark(s, i, OC_STEP_SKIPPED, why, "auto", err, sizeof(err));
			reh_print_result(s, i);
			continue;
		}
		if (o->run_auto) {
			if (!cl->steps[i].automatic) {
				oc_step_rec_set_evidence(&s->steps[i], "skipped: needs an operator");
				oc_session_mark(s, i, OC_STEP_SKIPPED, "skipped: needs an operator (--auto)", "auto", err,
						sizeof(err));
				reh_print_result(s, i);
				continue;
			}
			reh_auto_step(h, cl, s, i);
		} else if (!reh_interactive_step(h, cl, s, i)) {
			break;
		}
		if (cl->stop_on_failure && s->steps[i].state == OC_STEP_FAILED) {
			printf("stopped at the failed step %s (the checklist stops on a failure); run again to retry it\n",
			       cl->steps[i].id);
			break;
		}
	}
}

/* The report (into --report, else the session's own folder under
 * state_dir) and the tally. Returns the exit code: 0 nothing failed, 1
 * some step failed, 128+N stopped by signal N. */
static int reh_report(const char *report, const struct oc_session *s, const struct oc_checklist *cl,
		      const char *state_dir, const char *state_name, const char *progress_path)
{
	char report_dir[PATH_MAX + 512], err[8192];
	if (report) {
		snprintf(report_dir, sizeof(report_dir), "%s", report);
	} else {
		char day[16] = "";
		time_t created = (time_t)s->created;
		struct tm tm;
		if (localtime_r(&created, &tm))
			strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		snprintf(report_dir, sizeof(report_dir), "%s/%s-%s", state_dir, state_name, day);
	}
	size_t passed = oc_session_count(s, OC_STEP_PASSED), failed = oc_session_count(s, OC_STEP_FAILED),
	       skipped = oc_session_count(s, OC_STEP_SKIPPED);
	size_t notrun = s->nsteps - passed - failed - skipped;
	if (oc_report_write(report_dir, s, cl, time(NULL), err, sizeof(err)) < 0)
		fprintf(stderr, "%s: report not written: %s\n", reh_prog, err);
	else
		printf("report: %s/report.md and report.json\n", report_dir);
	printf("%zu passed, %zu failed, %zu skipped, %zu not run (of %zu)\n", passed, failed, skipped, notrun,
	       s->nsteps);
	if (reh_stop_sig) {
		printf("stopped by signal %d: progress saved in %s; run again to resume\n", (int)reh_stop_sig,
		       progress_path);
		return 128 + (int)reh_stop_sig;
	}
	return failed ? 1 : 0;
}

/* With the backend and writer open: clean up after an earlier run, run
 * the steps, clean up, report. Returns the exit code. */
static int reh_rehearse(struct reh *h, const struct reh_opts *o, const struct oc_checklist *cl,
			struct oc_session *s, const char *state_dir, const char *progress_path)
{
	h->rcfg.writer = &h->su.writer;
	h->rcfg.cluster = h->su.profile.name;
	h->rcfg.audit_log = h->su.audit_log;
	/* The platform, for the steps that cannot be done on it ("not_on"). */
	reh_refresh(h);
	char pwhy[160];
	h->rcfg.platform = (int)oc_platform_detect(h->su.profile.platform, h->snap ? h->snap->config : NULL, pwhy,
						   sizeof(pwhy));
	if (o->headline[0])
		printf("%s of %s; %zu %s (%s); progress: %s\n", o->headline, h->su.profile.name, cl->nsteps,
		       oc_plural(cl->nsteps, "step", "steps"), cl->path, progress_path);
	else
		printf("rehearsal of %s with checklist %s (%s), %zu %s; progress: %s\n", h->su.profile.name,
		       cl->name, cl->path, cl->nsteps, oc_plural(cl->nsteps, "step", "steps"), progress_path);
	if (o->reset)
		reh_cleanup_old(h, cl, progress_path);
	reh_catch_signals();
	reh_say_resumed(s, cl);
	char msg[4096];
	if (oc_runner_cleanup_all(s, &h->rcfg, msg, sizeof(msg)) != 0 && msg[0])
		printf("%s", msg);
	fflush(stdout);
	reh_run_steps(h, o, cl, s);
	oc_runner_cleanup_all(s, &h->rcfg, msg, sizeof(msg));
	if (msg[0])
		printf("%s", msg);
	return reh_report(o->report, s, cl, state_dir, o->state_name, progress_path);
}

static int reh_main(struct reh_opts *op, const char *datadir);

int oc_rehearse_cli(int argc, char **argv, const char *datadir)
{
	struct reh_opts o;
	memset(&o, 0, sizeof(o));
	o.prog = "opsconsole rehearse";
	int rc = reh_parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	return reh_main(&o, datadir);
}

/* Everything after the options: the profile, the checklist, the session,
 * the steps, the report. Returns the exit code. */
static int reh_main(struct reh_opts *op, const char *datadir)
{
	struct reh_opts o = *op;
	reh_prog = o.prog;
	int rc;
	struct reh h;
	memset(&h, 0, sizeof(h));
	oc_setup_init(&h.su, o.prog);
	bool have_profile = !o.list || o.cluster;
	if (have_profile && (rc = oc_setup_profile(&h.su, o.cluster)) != 0)
		return rc;
	struct oc_checklist *cl = NULL;
	rc = reh_load_checklist(&o, &h.su.profile, have_profile, datadir, &cl);
	if (rc)
		return rc;
	if (o.list) {
		reh_list(cl);
		oc_checklist_free(&cl);
		return 0;
	}
	if (!o.run_auto && !isatty(STDIN_FILENO)) {
		fprintf(stderr, "%s: not a terminal: use --auto to run the automatic steps\n", reh_prog);
		oc_checklist_free(&cl);
		return 2;
	}
	h.tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && !o.run_auto;

	char state_dir[PATH_MAX], progress_path[PATH_MAX + 384], err[8192];
	oc_state_dir(state_dir, sizeof(state_dir));
	snprintf(o.state_name, sizeof(o.state_name), "%s-%s%s%s", o.state_kind ? o.state_kind : "rehearsal",
		 h.su.profile.name, o.state_suffix[0] ? "-" : "", o.state_suffix);
	if (o.progress)
		snprintf(progress_path, sizeof(progress_path), "%s", o.progress);
	else
		snprintf(progress_path, sizeof(progress_path), "%s/%s.progress.json", state_dir, o.state_name);
	struct oc_session *s = NULL;
	if (oc_session_open(cl, h.su.profile.name, progress_path, o.reset, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", reh_prog, err);
		oc_checklist_free(&cl);
		return 2;
	}
	rc = 1; /* the cluster cannot be reached */
	if (oc_setup_open(&h.su, true, err, sizeof(err)) == 0)
		rc = reh_rehearse(&h, &o, cl, s, state_dir, progress_path);
	fflush(stdout);
	oc_snapshot_unref(&h.snap);
	oc_setup_close(&h.su);
	oc_session_free(&s);
	oc_checklist_free(&cl);
	return rc;
}

int oc_rehearse_default_paths(const struct oc_profile *p, const char *datadir, char *checklist, size_t clen,
			      char *progress, size_t plen, bool *fallback)
{
	char state_dir[PATH_MAX];
	oc_state_dir(state_dir, sizeof(state_dir));
	snprintf(progress, plen, "%s/rehearsal-%s.progress.json", state_dir, p->name);
	checklist[0] = '\0';
	return reh_checklist_path(NULL, p, datadir, checklist, clen, fallback) == 0 ? 0 : -1;
}

/* ---- opsconsole window ----------------------------------------------- */

#define WIN_CHECKLIST "change-window"

static void win_usage(FILE *out)
{
	fprintf(out,
		"Usage: opsconsole window --cluster NAME --nodes HOSTLIST [--reason TEXT]\n"
		"                         [--name RESERVATION] [--auto] [--reset]\n"
		"                         [--report DIR] [--progress FILE]\n"
		"A change window on nodes as one flow (docs/rehearsal.md, checklist\n"
		"change-window): a maintenance reservation on them, drain, wait for their\n"
		"jobs to end, reboot with nextstate=RESUME, read back, end the reservation.\n"
		"Every change is audited; the progress is saved after every step and a\n"
		"second run with the same nodes and name resumes where the first stopped.\n"
		"A failed step ends the run; the next run tries it again.\n"
		"\n"
		"  -c, --cluster NAME     the cluster's profile (as for the console)\n"
		"  -n, --nodes HOSTLIST   the nodes (gpu-st-b300-[3-4])\n"
		"      --reason TEXT      the drain and reboot reason (default \"maintenance window\")\n"
		"      --name NAME        the reservation's name (default maint-HASH of the nodes)\n"
		"      --auto             run every step without asking (unattended)\n"
		"      --reset            start over: forget the saved progress\n"
		"      --report DIR       where report.md and report.json go (default\n"
		"                         $XDG_STATE_HOME/opsconsole/window-CLUSTER-NAME-HASH-DATE/)\n"
		"      --progress FILE    the progress file (default\n"
		"                         $XDG_STATE_HOME/opsconsole/window-CLUSTER-NAME-HASH.progress.json)\n"
		"  -h, --help             this help\n"
		"\n"
		"Exit status: 0 every step passed, 1 a step failed or the cluster cannot be\n"
		"reached, 2 usage (nothing changed), 128+N stopped by signal N (progress saved).\n");
}

int oc_window_checklist_path(const struct oc_profile *p, const char *datadir, char *path, size_t len)
{
	if (reh_checklist_path(WIN_CHECKLIST, p, datadir, path, len, NULL) == 0)
		return 0;
	path[0] = '\0';
	return -1;
}

int oc_window_cli(int argc, char **argv, const char *datadir)
{
	enum { OPT_REASON = 256, OPT_NAME, OPT_AUTO, OPT_RESET, OPT_REPORT, OPT_PROGRESS };
	static const struct option opts[] = {
		{"cluster", required_argument, NULL, 'c'},
		{"nodes", required_argument, NULL, 'n'},
		{"reason", required_argument, NULL, OPT_REASON},
		{"name", required_argument, NULL, OPT_NAME},
		{"auto", no_argument, NULL, OPT_AUTO},
		{"reset", no_argument, NULL, OPT_RESET},
		{"report", required_argument, NULL, OPT_REPORT},
		{"progress", required_argument, NULL, OPT_PROGRESS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct reh_opts o;
	memset(&o, 0, sizeof(o));
	o.prog = reh_prog = "opsconsole window";
	o.checklist = WIN_CHECKLIST;
	const char *nodes = NULL, *reason = NULL, *name = NULL;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "c:n:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': o.cluster = optarg; break;
		case 'n': nodes = optarg; break;
		case OPT_REASON: reason = optarg; break;
		case OPT_NAME: name = optarg; break;
		case OPT_AUTO: o.run_auto = 1; break;
		case OPT_RESET: o.reset = 1; break;
		case OPT_REPORT: o.report = optarg; break;
		case OPT_PROGRESS: o.progress = optarg; break;
		case 'h': win_usage(stdout); return 0;
		default: win_usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "opsconsole window: unexpected argument '%s'\n", argv[optind]);
		win_usage(stderr);
		return 2;
	}
	if (!nodes || !*nodes) {
		fprintf(stderr, "opsconsole window: --nodes HOSTLIST is required (the nodes of the window)\n");
		return 2;
	}
	/* The cluster's name comes with the profile (reh_main): the state
	 * files are window-CLUSTER-NAME-HASH, as oc_window_prepare names them. */
	static struct oc_window w;
	char err[512];
	if (oc_window_prepare("", nodes, reason, name, &w, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole window: --%s\n", err);
		return 2;
	}
	memcpy(o.vars, w.vars, sizeof(w.vars));
	o.nvars = 3;
	o.state_kind = "window";
	snprintf(o.state_suffix, sizeof(o.state_suffix), "%s", w.suffix);
	snprintf(o.headline, sizeof(o.headline), "%s", w.headline);
	return reh_main(&o, datadir);
}
