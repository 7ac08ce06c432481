/* screen.c: the console's main loop. Waits on the keyboard and on the
 * collector's wake-up pipe, never on Slurm; draws the header, the tab bar,
 * the stale banner, the current view and the status line; turns keys into
 * actions through the keymap. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <limits.h>
#include <langinfo.h>
#include <strings.h>

#include <panel.h>
#include <term.h>

#include "actions/probe.h"
#include "actions/worker.h"
#include "core/ctl.h"
#include "core/datafiles.h"
#include "core/platform.h"
#include "core/version.h"
#include "core/views.h"
#include "ui/app.h"
#include "ui/command.h"
#include "core/keymap.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/overlay.h"
#include "ui/registry.h"
#include "ui/views.h"
#include "ui/ui_config.h"

#define OC_MIN_COLS 40
#define OC_MIN_LINES 8

static const struct oc_listview_def *const view_defs[] = {
	&oc_lv_partitions, &oc_lv_queue, &oc_lv_nodes, &oc_lv_health, &oc_lv_quota, &oc_lv_reservations,
	&oc_lv_audit,        &oc_lv_rehearsal,	  &oc_lv_history,      &oc_lv_events,	    &oc_lv_sched,
};
#define NVIEWS ((int)(sizeof(view_defs) / sizeof(view_defs[0])))
_Static_assert(sizeof(view_defs) / sizeof(view_defs[0]) <= OC_MAX_VIEWS, "app.h: OC_MAX_VIEWS too small");

/* OC_LATENCY_LOG=FILE (for tests/bench/bench_ui.sh): one line per frame
 * drawn after keys, "key MS PREP" = from the first key read to the end
 * of doupdate(), to its start (the rest is output to the terminal), and
 * the UI thread's CPU time in between; and once "first_full_paint SECONDS" (CLOCK_REALTIME) when
 * the view on screen was first drawn with every part it shows loaded (and
 * its report: the history, events or scheduler view).
 * No environment may make the console write to a file that exists: the
 * log is only created (O_EXCL, no symbolic link followed), in a folder
 * that root or the user owns and nobody else can write (oc_path_trusted);
 * otherwise there is no log. */
static FILE *latency_log;
/* OC_LATENCY_FRAMES (set, not "0"; with OC_LATENCY_LOG): also the line
 * of every frame, "draw cells|whole [clock SECOND]", for the tests that
 * check how a frame was drawn. Off by default: the benchmark measures a
 * console's quiet minute, and that line's write was about 7 % of the
 * screen thread's CPU there (docs/performance.md), which no admin's
 * console spends. */
static bool latency_frames;

static FILE *latency_open(const char *path)
{
	char dir[PATH_MAX], err[PATH_MAX + 256];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (oc_path_trusted(dir, "latency log folder", err, sizeof(err)) < 0)
		return NULL;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "a");
	if (!f)
		close(fd);
	return f;
}

static double thread_cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* When the last frame started its output (doupdate), for the log. */
static double flush_started_ms;

static void flush_screen(void)
{
	if (latency_log)
		flush_started_ms = mono_ms();
	refresh();
}

/* Whether every part the view on screen shows has been loaded once. */
static bool view_loaded(const struct oc_app *app)
{
	const struct oc_listview_def *def = app->view[app->cur]->def;
	const struct oc_snapshot *s = app->snap;
	unsigned focus = OC_FOCUS_PARTS(def->focus);
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((focus & OC_MASK(p)) && !s->status[p].fetched)
			return false;
	/* A report view: its report loaded (or failed) as well. */
	switch (def->report) {
	case OC_REPORT_HISTORY:
		return s->history || s->hist_status.error[0];
	case OC_REPORT_EVENTS:
		return s->events || s->ev_status.error[0];
	case OC_REPORT_SCHED:
		return s->sched || s->sched_status.error[0];
	default:
		return s->seq > 0;
	}
}

unsigned oc_ui_view_focus(const char *name)
{
	for (int i = 0; name && i < NVIEWS; i++)
		if (strcmp(view_defs[i]->name, name) == 0)
			return view_defs[i]->focus;
	return oc_lv_partitions.focus;
}

static volatile sig_atomic_t quit_signal;
static volatile sig_atomic_t curses_active;

/* Written by the signal handlers, read by the loop's poll: a signal wakes
 * the loop whichever thread it was delivered to, and whenever it came
 * (the loop sleeps until the next second otherwise). */
static int signal_pipe[2] = {-1, -1};

static void signal_wake(void)
{
	int saved = errno;
	if (signal_pipe[1] >= 0) {
		ssize_t w = write(signal_pipe[1], "", 1); /* full pipe: a wake-up is pending */
		(void)w;
	}
	errno = saved;
}

void oc_app_wake(void)
{
	signal_wake();
}

static void on_quit_signal(int sig)
{
	quit_signal = sig;
	signal_wake();
}

/* ncurses' own SIGWINCH handler (it notes the resize for the next read);
 * ours wakes the loop, then calls it. */
static struct sigaction curses_winch;

static void on_winch(int sig, siginfo_t *info, void *uctx)
{
	signal_wake();
	if (curses_winch.sa_flags & SA_SIGINFO) {
		if (curses_winch.sa_sigaction)
			curses_winch.sa_sigaction(sig, info, uctx);
	} else if (curses_winch.sa_handler != SIG_DFL && curses_winch.sa_handler != SIG_IGN &&
		   curses_winch.sa_handler) {
		curses_winch.sa_handler(sig);
	}
}

static void on_fatal_signal(int sig)
{
	if (curses_active)
		endwin(); /* not async-signal-safe, but the terminal matters more */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void restore_terminal(void)
{
	if (curses_active) {
		curses_active = 0;
		endwin();
	}
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit_signal; /* no SA_RESTART: poll returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = (int)SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(restore_terminal);
	if (signal_pipe[0] < 0 && pipe2(signal_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
		signal_pipe[0] = signal_pipe[1] = -1; /* then signals wake the loop only when they reach it */
	/* After newterm(): ncurses has installed its handler. */
	struct sigaction winch;
	memset(&winch, 0, sizeof(winch));
	if (sigaction(SIGWINCH, NULL, &curses_winch) == 0) {
		winch.sa_sigaction = on_winch;
		winch.sa_flags = SA_SIGINFO | (curses_winch.sa_flags & SA_RESTART);
		sigemptyset(&winch.sa_mask);
		sigaction(SIGWINCH, &winch, NULL);
	}
}

bool oc_app_goto(struct oc_app *app, const char *name, const char *arg)
{
	for (int i = 0; i < app->nviews; i++) {
		struct oc_listview *lv = app->view[i];
		if (strcmp(lv->def->name, name) != 0)
			continue;
		if (arg || app->cur != i || lv->def->arg)
			oc_listview_open(lv, arg);
		app->cur = i;
		if (app->mode == OC_MODE_FILTER)
			app->mode = OC_MODE_NORMAL;
		oc_overlay_view_changed(app);
		/* No report is loaded unless the view asks for it again (a
		 * report view does in collect()). */
		if (app->hooks->set_report)
			app->hooks->set_report(app->hooks->ctx, OC_REPORT_NONE, NULL, NULL);
		if (app->snap)
			oc_listview_update(lv, app->snap);
		app->hooks->set_focus(app->hooks->ctx, lv->def->focus);
		app->dirty = true;
		return true;
	}
	return false;
}

static void fmt_clock(time_t t, char *buf, size_t len)
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* The stale banner's text, or "" when the data on screen is fresh. */
static void stale_text(struct oc_app *app, char *buf, size_t len)
{
	const struct oc_snapshot *s = app->snap;
	unsigned focus = OC_FOCUS_PARTS(app->view[app->cur]->def->focus);
	time_t now = app->now;
	buf[0] = '\0';
	time_t inflight = app->hooks->inflight_since(app->hooks->ctx);
	double limit = app->cfg->refresh_s * 2 > 5 ? app->cfg->refresh_s * 2 : 5;
	time_t oldest = 0;
	const char *error = NULL;
	time_t error_since = 0;
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if (!(focus & OC_MASK(p)))
			continue;
		const struct oc_part_status *st = &s->status[p];
		if (!oldest || (st->fetched && st->fetched < oldest))
			oldest = st->fetched;
		if (st->error[0] && (!error_since || st->error_since < error_since)) {
			error = st->error;
			error_since = st->error_since;
		}
	}
	char since[16], data[16];
	if (!error && !(inflight && (double)(now - inflight) >= limit))
		return; /* fresh: the frame of every step need not format the times */
	if (oldest)
		fmt_clock(oldest, data, sizeof(data));
	else
		snprintf(data, sizeof(data), "never");
	if (error) {
		fmt_clock(error_since, since, sizeof(since));
		/* Slurm says "Protocol authentication error" when munged is down
		 * or its key differs: slurmctld answers, our credential fails. */
		bool auth = strcasestr(error, "authentication") != NULL;
		/* The SSH transport's words ("ssh root@head:22: connection
		 * lost: ..."): the head node, not slurmctld, is what is gone. */
		bool link = strstr(error, "ssh ") && strstr(error, ": connection lost");
		snprintf(buf, len, " STALE: %s since %s (%llds): %s; data from %s ",
			 link   ? "head node unreachable"
			 : auth ? "no credential for slurmctld (is munged running?)"
				: "slurmctld unreachable",
			 since, (long long)(now - error_since), error, data);
	} else if (inflight && (double)(now - inflight) >= limit) {
		fmt_clock(inflight, since, sizeof(since));
		/* With backups, libslurm holds the request until one takes over. */
		char failover[128] = "";
		const char *timeout = oc_config_get(s->config, "SlurmctldTimeout");
		if (s->ctl.n > 1)
			snprintf(failover, sizeof(failover), "; a backup takes over after SlurmctldTimeout (%.24s)",
				 timeout ? timeout : "?");
		/* The CLI backend waits for a command or the data agent, and
		 * cannot tell why it is slow: slurmctld, or the command itself
		 * (26.05's squeue --all --json of 10,000 jobs takes 13 s,
		 * docs/ssh.md). */
		snprintf(buf, len, " STALE: %s since %s (%llds)%s; data from %s ",
			 app->cfg->libslurm_version ? "slurmctld not answering" : "refresh not done", since,
			 (long long)(now - inflight), failover, data);
	}
}

/* oc_version_majors_differ(lib, ctld), kept while ctld's version string
 * stays the same (the header asks at every step of the clock). */
static bool majors_differ(const char *lib, const char *ctld)
{
	static char seen_lib[64], seen_ctld[64];
	static bool differ;
	if (strcmp(seen_lib, lib) != 0 || strcmp(seen_ctld, ctld) != 0) {
		snprintf(seen_lib, sizeof(seen_lib), "%s", lib);
		snprintf(seen_ctld, sizeof(seen_ctld), "%s", ctld);
		differ = oc_version_majors_differ(lib, ctld);
	}
	return differ;
}

static void draw_header(struct oc_app *app, int width)
{
	const struct oc_snapshot *s = app->snap;
	char left[256], right[96], clock[32];
	unsigned focus = app->view[app->cur]->def->focus;
	if (!focus)
		focus = OC_MASK_ALL; /* a view without cluster data: show the freshest part */
	time_t newest = 0;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((focus & OC_MASK(p)) && s->status[p].fetched > newest)
			newest = s->status[p].fetched;
	const char *mode = "";
	if (app->cfg->frozen_at) {
		mode = "  [recorded snapshot]";
	} else if (app->cfg->readonly) {
		mode = "  [read-only]";
	} else if (app->worker) {
		struct oc_whoami who;
		oc_worker_whoami(app->worker, &who);
		if (who.known && who.level == OC_ADMIN_NONE)
			mode = "  [view only]";
	}
	/* A libslurm of another major than slurmctld's (an upgrade day's
	 * mistake): said right after the controller's version. */
	char mismatch[64] = "";
	if (app->cfg->libslurm_version && majors_differ(app->cfg->libslurm_version, s->slurm_version))
		snprintf(mismatch, sizeof(mismatch), " [libslurm %.16s: other major]", app->cfg->libslurm_version);
	/* The platform (core/platform.h), where the line has room for it. */
	char platform[32] = "";
	enum oc_platform pf = (enum oc_platform)app->platform;
	if (pf != OC_PLATFORM_UNKNOWN && width >= 100)
		snprintf(platform, sizeof(platform), "  %s", oc_platform_name(pf));
	snprintf(left, sizeof(left), " opsconsole  %s%s  Slurm %s%s%s", s->cluster[0] ? s->cluster : app->cfg->cluster,
		 platform, s->slurm_version[0] ? s->slurm_version : "?", mismatch, mode);
	fmt_clock(app->now, clock, sizeof(clock));
	if (app->cfg->frozen_at) {
		struct tm tm;
		localtime_r(&app->now, &tm);
		strftime(clock, sizeof(clock), "%Y-%m-%d %H:%M:%S", &tm);
		snprintf(right, sizeof(right), "recorded %s ", clock);
	} else if (newest)
		snprintf(right, sizeof(right), "updated %llds ago  %s ", (long long)(app->now - newest), clock);
	else
		snprintf(right, sizeof(right), "connecting...  %s ", clock);
	/* A narrow terminal: the cluster's name and the data's age stay
	 * whole; the program's name goes first, then the clock, then the
	 * word "updated". */
	const char *lp = left;
	if ((int)(strlen(left) + strlen(right)) >= width && strncmp(left, " opsconsole  ", 13) == 0)
		lp = left + 12;
	if ((int)(strlen(lp) + strlen(right)) >= width && newest && !app->cfg->frozen_at)
		snprintf(right, sizeof(right), "updated %llds ago ", (long long)(app->now - newest));
	if ((int)(strlen(lp) + strlen(right)) >= width && newest && !app->cfg->frozen_at)
		snprintf(right, sizeof(right), "%llds ago ", (long long)(app->now - newest));
	attrset(oc_theme_attr(OC_ROLE_HEADER));
	move(0, 0);
	int rw = (int)strlen(right);
	int lw = width - rw > 0 ? width - rw : width;
	int used = (int)strlen(lp) > lw ? oc_put_cell(stdscr, lp, lw, false) : oc_put_text(stdscr, lp, lw, false, false);
	/* The controllers: which answers, which is in control and since when
	 * (core/ctl.h), in the room left; marked when not as it should be. */
	char ctl[256];
	int bad = 0;
	if (used + 4 < lw) {
		oc_ctl_header(&s->ctl, lw - used - 3, ctl, sizeof(ctl), &bad);
		if (ctl[0]) {
			used += oc_put_text(stdscr, "  ", 2, false, false);
			if (bad)
				attrset(oc_theme_attr(bad > 1 ? OC_ROLE_BANNER : OC_ROLE_WARN));
			used += oc_put_text(stdscr, ctl, lw - used - 1, false, false);
			attrset(oc_theme_attr(OC_ROLE_HEADER));
		}
	}
	for (; used < width - rw; used++)
		addch(' ');
	if (width - used >= rw)
		oc_put_text(stdscr, right, rw, false, false);
	attrset(A_NORMAL);
}

/* The first key the keymap binds to the view's action ("7" of "7, A"),
 * "" when none. */
static void tab_key(const struct oc_app *app, const char *view, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int a = 0; a < OC_ACT_COUNT; a++)
		if (oc_actions[a].view && strcmp(oc_actions[a].view, view) == 0) {
			char keys[64];
			oc_keymap_keys_for(app->keymap, a, keys, sizeof(keys));
			snprintf(buf, len, "%.*s", (int)strcspn(keys, ","), keys);
			return;
		}
}

/* The tab bar; only_changed: not when it would show what it shows. */
static void draw_tabs(struct oc_app *app, int y, int width, bool only_changed)
{
	if (!app->tab_keys_ok) {
		for (int i = 0; i < app->nviews; i++)
			tab_key(app, app->view[i]->def->name, app->tab_keys[i], sizeof(app->tab_keys[i]));
		app->tab_keys_ok = app->keymap != NULL;
	}
	char ctx[512] = "";
	oc_listview_context(app->view[app->cur], ctx, sizeof(ctx));
	char sig[sizeof(app->tabs_drawn)];
	snprintf(sig, sizeof(sig), "%d %d %d %s", y, width, app->cur, ctx);
	if (only_changed && strcmp(sig, app->tabs_drawn) == 0)
		return;
	snprintf(app->tabs_drawn, sizeof(app->tabs_drawn), "%s", sig);
	move(y, 0);
	int used = 0;
	/* Narrow terminals get the keys and the current view's title only. */
	bool narrow = width < 140;
	app->tab_line = y;
	for (int i = 0; i < app->nviews; i++)
		app->tab_x0[i] = app->tab_x1[i] = -1;
	for (int i = 0; i < app->nviews && used < width; i++) {
		char label[64];
		const char *key = app->tab_keys[i];
		if (narrow && i != app->cur)
			snprintf(label, sizeof(label), "%s", key[0] ? key : "-");
		else
			snprintf(label, sizeof(label), "%s%s%s", key, key[0] ? " " : "", app->view[i]->def->title);
		attrset(oc_theme_attr(i == app->cur ? OC_ROLE_TAB_ACTIVE : OC_ROLE_TAB));
		if (used < width) {
			addch(' ');
			used++;
		}
		app->tab_x0[i] = used - 1;
		used += oc_put_text(stdscr, label, width - used, false, false);
		if (used < width) {
			addch(' ');
			used++;
		}
		app->tab_x1[i] = used;
		attrset(A_NORMAL);
	}
	attrset(oc_theme_attr(OC_ROLE_DIM));
	int cl = oc_text_cols(ctx);
	for (; used < width - cl - 1; used++)
		addch(' ');
	/* What does not fit ends with the cut mark (the view says it whole
	 * where it has room: the history's window, the counts). */
	if (used < width)
		used += cl > width - used ? oc_put_cell(stdscr, ctx, width - used, false)
					  : oc_put_text(stdscr, ctx, width - used, false, false);
	for (; used < width; used++)
		addch(' ');
	attrset(A_NORMAL);
}

#define OC_HINT_LINES 3

/* While a : command is typed: what Tab would complete it to, on up to
 * OC_HINT_LINES lines above the prompt at y (over the table's last rows),
 * wrapped between candidates; a list longer than that ends with "...". */
static void draw_command_hint(struct oc_app *app, int y, int width)
{
	char hint[2048];
	oc_command_hint(app, app->input, hint, sizeof(hint));
	if (!hint[0] || width < 8)
		return;
	char hl[OC_HINT_LINES][512];
	int n = 0;
	size_t cut = 0;
	const char *p = hint;
	while (*p && n < OC_HINT_LINES) {
		/* As many candidates ("  "-separated) as fit in width - 1. */
		size_t take = 0, end = 0;
		for (;;) {
			const char *sep = strstr(p + end, "  ");
			size_t next = sep ? (size_t)(sep - p) : strlen(p);
			if (take && (int)next > width - 2)
				break;
			take = next;
			if (!sep || (int)take > width - 2)
				break;
			end = next + 2;
		}
		snprintf(hl[n++], sizeof(hl[0]), " %.*s", (int)take, p);
		p += take;
		p += strspn(p, " ");
		cut = strlen(p);
	}
	if (cut && n == OC_HINT_LINES) {
		/* More than the lines hold: say so at the end of the last. */
		size_t l = strlen(hl[n - 1]);
		size_t room = (size_t)width > 5 ? (size_t)width - 5 : 0;
		snprintf(hl[n - 1] + (l < room ? l : room), sizeof(hl[0]) - (l < room ? l : room), " ...");
	}
	if (y - n < 2)
		return; /* no room above the table's title */
	attrset(oc_theme_attr(OC_ROLE_STATUS));
	for (int i = 0; i < n; i++) {
		move(y - n + i, 0);
		oc_put_cell(stdscr, hl[i], width, false);
	}
	attrset(A_NORMAL);
}

/* The status line; only_changed: not when it would show what it shows
 * (a message or the key hint; a prompt is always drawn, it places the
 * cursor). */
static void draw_status(struct oc_app *app, int y, int width, bool only_changed)
{
	if (app->mode == OC_MODE_NORMAL) {
		char sig[sizeof(app->status_drawn)];
		snprintf(sig, sizeof(sig), "%d %d %d %.500s", y, width, app->message_is_error, app->message);
		if (only_changed && strcmp(sig, app->status_drawn) == 0)
			return;
		snprintf(app->status_drawn, sizeof(app->status_drawn), "%s", sig);
	} else {
		app->status_drawn[0] = '\0';
	}
	move(y, 0);
	if (app->mode == OC_MODE_COMMAND)
		draw_command_hint(app, y, width);
	move(y, 0);
	if (app->mode == OC_MODE_FILTER || app->mode == OC_MODE_COMMAND) {
		attrset(oc_theme_attr(OC_ROLE_STATUS));
		char buf[300];
		snprintf(buf, sizeof(buf), "%c%s", app->mode == OC_MODE_FILTER ? '/' : ':', app->input);
		int x = oc_put_text(stdscr, buf, width, false, false);
		for (int i = x; i < width; i++)
			addch(' ');
		attrset(A_NORMAL);
		move(y, x < width ? x : width - 1);
		curs_set(1);
		return;
	}
	curs_set(0);
	if (app->message[0]) {
		attrset(oc_theme_attr(app->message_is_error ? OC_ROLE_BANNER : OC_ROLE_STATUS));
		oc_put_text(stdscr, app->message, width, true, false);
	} else {
		attrset(oc_theme_attr(OC_ROLE_STATUS));
		char hint[256];
		oc_ui_status_hint(app, hint, sizeof(hint));
		oc_put_text(stdscr, hint, width, true, false);
	}
	attrset(A_NORMAL);
}

/* Whether the last whole draw showed the stale banner (its line moves the
 * table down). */
static bool banner_drawn;

static void draw(struct oc_app *app)
{
	int height = LINES, width = COLS;
	for (int i = 0; i < app->nviews; i++)
		oc_listview_forget(app->view[i]);
	banner_drawn = false;
	erase();
	if (width < OC_MIN_COLS || height < OC_MIN_LINES) {
		char msg[80];
		snprintf(msg, sizeof(msg), "terminal too small (%dx%d), need %dx%d", width, height, OC_MIN_COLS,
			 OC_MIN_LINES);
		/* Wrapped over the lines there are, so that 20x6 still reads it. */
		size_t len = strlen(msg);
		for (int y = 0; y < height && width > 0 && (size_t)(y * width) < len; y++)
			mvaddnstr(y, 0, msg + (size_t)y * (size_t)width, width);
		flush_screen();
		return;
	}
	draw_header(app, width);
	struct oc_overlay *top = oc_overlay_top(app);
	if (top && top->ops->full_screen) {
		top->ops->draw(app, top->priv, 1, height - 2, width);
		draw_status(app, height - 1, width, false);
		flush_screen();
		return;
	}
	draw_tabs(app, 1, width, false);
	int y = 2;
	char banner[512];
	stale_text(app, banner, sizeof(banner));
	if (banner[0]) {
		move(y, 0);
		attrset(oc_theme_attr(OC_ROLE_BANNER));
		oc_put_text(stdscr, banner, width, true, false);
		attrset(A_NORMAL);
		y++;
		banner_drawn = true;
	}
	oc_listview_draw(app->view[app->cur], stdscr, y, height - 1 - y, width);
	draw_status(app, height - 1, width, false);
	if (top) {
		/* The top overlay only: one panel at a time is drawn. */
		wnoutrefresh(stdscr);
		top->ops->draw(app, top->priv, 1, height - 2, width);
		return;
	}
	flush_screen();
}

/* The clock moved or a new snapshot came, and no key was pressed: the
 * header, the tab bar, the banner and the status line again (each a whole
 * line), and of the table only the cells that changed (running jobs'
 * times, ages, new states); a second costs a fraction of a whole draw
 * (docs/performance.md, P1w). Returns false when the whole screen must be
 * drawn: a dialog is open, the banner came or went, or the table cannot
 * be drawn in part (rows came or went, the cursor moved). */
static bool draw_tick(struct oc_app *app)
{
	int height = LINES, width = COLS;
	/* The : prompt's hint lines lie over the table. */
	if (width < OC_MIN_COLS || height < OC_MIN_LINES || oc_overlay_top(app) || app->mode == OC_MODE_COMMAND)
		return false;
	char banner[512];
	stale_text(app, banner, sizeof(banner));
	if ((banner[0] != '\0') != banner_drawn)
		return false;
	int y = banner[0] ? 3 : 2;
	if (!oc_listview_draw_tick(app->view[app->cur], stdscr, y, height - 1 - y, width))
		return false;
	draw_header(app, width);
	draw_tabs(app, 1, width, true);
	if (banner[0]) {
		move(2, 0);
		attrset(oc_theme_attr(OC_ROLE_BANNER));
		oc_put_text(stdscr, banner, width, true, false);
		attrset(A_NORMAL);
	}
	draw_status(app, height - 1, width, true);
	flush_screen();
	return true;
}

/* The platform of the snapshot on screen, for the header: found once per
 * snapshot rather than at every frame of the clock, since it searches the
 * configuration (up to seven keys among some 250, each missing one a
 * whole pass). */
static void app_platform(struct oc_app *app)
{
	char why[160];
	app->platform = (int)oc_platform_detect(app->cfg->platform, app->snap ? app->snap->config : NULL, why,
						sizeof(why));
}

static void take_snapshot(struct oc_app *app)
{
	struct oc_snapshot *s = app->hooks->current(app->hooks->ctx);
	if (app->snap && s->seq == app->snap->seq) {
		oc_snapshot_unref(&s);
		return;
	}
	/* The view on screen moves to the new snapshot while the old one is
	 * still alive (its cursor is found again by key); the others forget
	 * theirs, which is about to be freed (but for long lists, which hold
	 * their own). */
	const struct oc_snapshot *o = app->snap;
	if (latency_log && o &&
	    (s->nodes != o->nodes || s->partitions != o->partitions || s->jobs != o->jobs ||
	     s->reservations != o->reservations || s->accounting != o->accounting)) {
		/* Which tables this snapshot loaded anew (the benchmark counts
		 * the reloads in its CPU window); none, as after a refresh
		 * slurmctld answered "no change": no line (its write was 8 % of
		 * a quiet frame's CPU). */
		fprintf(latency_log, "snapshot %llu%s%s%s%s%s\n", (unsigned long long)s->seq,
			s->nodes != o->nodes ? " nodes" : "", s->partitions != o->partitions ? " partitions" : "",
			s->jobs != o->jobs ? " jobs" : "", s->reservations != o->reservations ? " reservations" : "",
			s->accounting != o->accounting ? " accounting" : "");
	}
	oc_listview_update(app->view[app->cur], s);
	for (int i = 0; i < app->nviews; i++)
		if (i != app->cur)
			oc_listview_detach(app->view[i]);
	oc_snapshot_unref(&app->snap);
	app->snap = s;
	app_platform(app);
	app->data_changed = true;
}

/* Keys typed into the / or : prompt. ch: a curses key code, or a
 * character when wide. */
static void prompt_key(struct oc_app *app, int ch, bool wide)
{
	size_t len = strlen(app->input);
	struct oc_listview *lv = app->view[app->cur];
	bool filter = app->mode == OC_MODE_FILTER;
	if (wide && ch == 27) { /* Esc: cancel (a filter is cleared) */
		app->mode = OC_MODE_NORMAL;
		if (filter) {
			oc_listview_set_filter(lv, "");
			oc_listview_update(lv, app->snap);
		}
		return;
	}
	if ((wide && (ch == '\r' || ch == '\n')) || (!wide && ch == KEY_ENTER)) {
		app->mode = OC_MODE_NORMAL;
		if (!filter) {
			char line[256];
			snprintf(line, sizeof(line), "%s", app->input);
			oc_command_run(app, line);
		}
		return;
	}
	if (wide && ch == '\t' && !filter) {
		oc_command_complete(app, app->input, sizeof(app->input));
		return;
	}
	if ((!wide && ch == KEY_BACKSPACE) || (wide && (ch == 127 || ch == 8))) {
		/* Remove the last character, not the last byte. */
		while (len && ((unsigned char)app->input[len - 1] & 0xc0) == 0x80)
			len--;
		if (len)
			app->input[len - 1] = '\0';
		else if (!filter)
			app->mode = OC_MODE_NORMAL;
	} else if (wide && ch == OC_CTRL_U) {
		app->input[0] = '\0';
	} else if (wide && ch >= 0x20 && ch != 0x7f) {
		char mb[MB_LEN_MAX + 1];
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		size_t n = wcrtomb(mb, (wchar_t)ch, &st);
		if (n == (size_t)-1 || len + n + 1 > sizeof(app->input))
			return;
		memcpy(app->input + len, mb, n);
		app->input[len + n] = '\0';
	} else {
		return;
	}
	if (filter) {
		/* The filter applies as it is typed. */
		oc_listview_set_filter(lv, app->input);
		oc_listview_update(lv, app->snap);
	}
}

/* One key, as get_wch would give it (OK with a character, KEY_CODE_YES
 * with a KEY_* code, ERR when none is waiting), but with the UTF-8 decoded
 * here from wgetch's bytes: ncurses' get_wch drops an invalid sequence
 * without a word, and the keys after it up to the next valid character
 * ("caf\xc3 x" arrives as "caf"), so a name or a reason would change
 * silently. An invalid sequence gives U+FFFD instead, which the forms
 * refuse (form.c). In a locale that is not UTF-8, bytes are converted
 * with btowc. */
/* What read_key returns for an escape sequence that neither the
 * terminfo entry nor define_common_keys names: dropped whole (its bytes
 * are not keys), and said on the status line. Not a key code: ncurses
 * gives codes above KEY_MAX to the entry's extended keys. */
#define READ_UNKNOWN_SEQ (-2)
static char unknown_seq[40];

/* After an Esc byte that ncurses did not match: the rest of a CSI (ESC [
 * parameters, intermediates, a final byte) or SS3 (ESC O and one byte)
 * sequence, read and dropped, its text into unknown_seq. Returns false
 * when no sequence follows (the Esc key; the byte after it, if any, is
 * the next key). No wait when nothing follows: a lone Esc is not made
 * slower. */
static bool drop_unknown_seq(int first)
{
	int n = first >= 0 ? first : getch();
	if (n == ERR)
		return false;
	if (n != '[' && n != 'O') {
		ungetch(n);
		return false;
	}
	size_t off = (size_t)snprintf(unknown_seq, sizeof(unknown_seq), "%s %c", first >= 0 ? "split: ESC," : "ESC", n);
	timeout(50); /* the rest is normally in the same read */
	for (int k = 0; k < 24; k++) {
		int f = getch();
		if (f == ERR || f >= KEY_MIN)
			break;
		if (off + 2 < sizeof(unknown_seq))
			off += (size_t)snprintf(unknown_seq + off, sizeof(unknown_seq) - off, "%c",
						f >= 0x20 && f < 0x7f ? f : '?');
		/* SS3 takes one byte; CSI ends at its final byte (0x40-0x7e),
		 * its parameters and intermediates are 0x20-0x3f. */
		if (n == 'O' || (f >= 0x40 && f <= 0x7e))
			break;
		if (f < 0x20 || f > 0x3f) {
			ungetch(f); /* not part of a sequence: the next key */
			break;
		}
	}
	nodelay(stdscr, TRUE);
	return true;
}

/* When the last Esc key was read (mono_ms), to tell a key's sequence
 * that came in two parts: the Esc byte alone past ESCDELAY, then its
 * '[' or 'O' and the rest. Over a list (split_check: no form open, no
 * prompt being typed, where '[' and 'O' are no keys), within
 * OC_SPLIT_SEQ_MS of a lone Esc those bytes are the rest of that key and
 * are dropped whole, not taken as keys ('[' 'A' would switch to the
 * audit view). Where text is typed they are text. */
#define OC_SPLIT_SEQ_MS 150.0
static double last_esc_ms = -1e9;

static int read_key(wint_t *wch, bool utf8, bool split_check)
{
	int c = getch();
	if (c == ERR)
		return ERR;
	if (c == 27) {
		if (drop_unknown_seq(-1))
			return READ_UNKNOWN_SEQ;
		last_esc_ms = mono_ms();
	} else if (split_check && (c == '[' || c == 'O') && mono_ms() - last_esc_ms < OC_SPLIT_SEQ_MS) {
		last_esc_ms = -1e9;
		drop_unknown_seq(c);
		return READ_UNKNOWN_SEQ;
	}
	if (c >= KEY_MIN || c < 0) {
		*wch = (wint_t)c;
		return KEY_CODE_YES;
	}
	if (c < 0x80) {
		*wch = (wint_t)c;
		return OK;
	}
	if (!utf8) {
		wint_t w = btowc(c);
		*wch = w == WEOF ? 0xFFFD : w;
		return OK;
	}
	int need = (c >= 0xc2 && c <= 0xdf) ? 1 : (c >= 0xe0 && c <= 0xef) ? 2 : (c >= 0xf0 && c <= 0xf4) ? 3 : 0;
	char b[4] = {(char)c};
	*wch = 0xFFFD;
	if (!need)
		return OK;
	/* The rest of the sequence is normally in the same read; wait a
	 * little for it otherwise. */
	timeout(50);
	int k = 1;
	for (; k <= need; k++) {
		int n = getch();
		if (n == ERR)
			break;
		if (n >= KEY_MIN || (n & 0xc0) != 0x80) {
			ungetch(n); /* not a continuation byte: the next key */
			break;
		}
		b[k] = (char)n;
	}
	nodelay(stdscr, TRUE);
	if (k <= need)
		return OK;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	wchar_t w;
	if (mbrtowc(&w, b, (size_t)need + 1, &st) == (size_t)need + 1)
		*wch = (wint_t)w;
	return OK;
}

/* A mouse event: the wheel moves (three rows, or the panel on top), a
 * press of the first button on a tab opens that view, on a row selects
 * it (a second press on the selected row opens it, as Enter). With a
 * dialog or panel open, a press does nothing: the keys close them. */
static void handle_mouse(struct oc_app *app)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	struct oc_overlay *top = oc_overlay_top(app);
	int wheel = (ev.bstate & BUTTON4_PRESSED) ? OC_ACT_MOVE_UP : (ev.bstate & BUTTON5_PRESSED) ? OC_ACT_MOVE_DOWN : -1;
	if (top) {
		/* A form types what it reads: no wheel into it. */
		if (wheel >= 0 && !top->ops->raw_keys)
			top->ops->key(app, top->priv, -1, false, wheel);
		return;
	}
	if (app->mode != OC_MODE_NORMAL)
		return; /* typing a filter or a command: the mouse waits */
	struct oc_listview *lv = app->view[app->cur];
	if (wheel >= 0) {
		for (int i = 0; i < 3; i++)
			oc_listview_action(lv, (enum oc_act)wheel);
		return;
	}
	if (!(ev.bstate & BUTTON1_PRESSED))
		return;
	if (ev.y == app->tab_line) {
		for (int i = 0; i < app->nviews; i++)
			if (ev.x >= app->tab_x0[i] && ev.x < app->tab_x1[i]) {
				oc_app_goto(app, app->view[i]->def->name, NULL);
				return;
			}
		return;
	}
	int row = ev.y - lv->rows_y;
	if (row < 0 || row >= lv->page || lv->top + (size_t)row >= lv->nitems)
		return;
	size_t at = lv->top + (size_t)row;
	if (at == lv->sel)
		oc_listview_action(lv, OC_ACT_OPEN);
	else
		lv->sel = at;
}

static void handle_key(struct oc_app *app, int ch, bool wide)
{
	app->dirty = true;
	if (!wide && ch == KEY_MOUSE) {
		handle_mouse(app);
		return;
	}
	struct oc_overlay *top = oc_overlay_top(app);
	if (top && top->ops->raw_keys) {
		top->ops->key(app, top->priv, ch, wide, -1);
		return;
	}
	if (ch == KEY_RESIZE) {
		/* The terminal may have reflowed or cleared its content: repaint
		 * everything instead of sending differences. */
		clearok(curscr, TRUE);
		return;
	}
	if (app->mode == OC_MODE_FILTER || app->mode == OC_MODE_COMMAND) {
		prompt_key(app, ch, wide);
		return;
	}
	app->message[0] = '\0';
	/* Characters beyond ASCII are never bound. */
	int act = wide && ch >= 0x80 ? -1 : oc_ui_key_action(app, ch);
	if (top) {
		top->ops->key(app, top->priv, ch, wide, act);
		return;
	}
	if (act < 0) {
		char name[24];
		oc_ui_key_name(ch, name, sizeof(name));
		oc_app_message(app, false, " key %s is not bound (? lists the keys)", name);
		return;
	}
	oc_action_run(app, (enum oc_act)act);
}

/* The worker has a result: the overlay that asked for it takes it (the
 * dialog); with none open, it is said on the status line. */
static void worker_ready(struct oc_app *app)
{
	oc_worker_ack(app->worker);
	app->dirty = true;
	bool taken = false;
	for (int i = app->noverlays - 1; i >= 0 && !taken; i--)
		if (app->overlay[i].ops->poll)
			taken = app->overlay[i].ops->poll(app, app->overlay[i].priv);
	struct oc_action_result res;
	if (taken || !oc_worker_take_result(app->worker, &res))
		return;
	app->hooks->refresh_now(app->hooks->ctx);
	oc_app_message(app, res.status != OC_ACTION_OK, " %s", res.summary);
}

/* The main loop's state between turns. */
struct loop {
	time_t last_second;  /* of the last frame */
	bool woken;          /* the collector published new data */
	bool waiting_to_quit;
	bool tty_gone;       /* stdin hung up: quitting, not read again */
	bool utf8;
	double key_t0;       /* when the first key not drawn yet was read */
	double key_cpu0;     /* the UI thread's CPU time then */
	bool painted_full;
};

/* Whether to leave the loop now. Quitting while an action runs waits for
 * it (its audit line and read-back); a second q or signal quits at once. */
static bool loop_quits(struct oc_app *app, struct loop *l)
{
	bool busy = app->worker && oc_worker_busy(app->worker, NULL);
	if (app->quit || quit_signal) {
		if (!busy || l->waiting_to_quit)
			return true;
		l->waiting_to_quit = true;
		app->quit = false;
		quit_signal = 0;
		oc_app_message(app, true,
			       " waiting for the running action to finish before quitting (q or Ctrl-C again: quit now)");
		return false;
	}
	return l->waiting_to_quit && !busy;
}

static int clock_step(const struct oc_app *app);

/* Whether the clock reached its next step since the last frame. */
static bool clock_stepped(const struct oc_app *app, const struct loop *l)
{
	int step = clock_step(app);
	return app->now / step != l->last_second / step;
}

/* Draw when something changed or the clock moved; the latency log gets
 * the key's figures and the first full paint. */
static void loop_draw(struct oc_app *app, struct loop *l)
{
	if (!app->dirty && !app->data_changed && !clock_stepped(app, l))
		return;
	/* A frame of the clock's step, no key nor new data in it (a refresh
	 * slurmctld answered "no change" wakes nothing; its snapshot comes
	 * with the step): the log says so, with the second drawn. */
	bool clock_only = !app->dirty && !l->woken;
	bool cells = !app->dirty && draw_tick(app);
	if (!cells)
		draw(app);
	if (latency_frames && clock_only)
		fprintf(latency_log, "draw %s clock %lld\n", cells ? "cells" : "whole", (long long)app->now);
	else if (latency_frames)
		fprintf(latency_log, "draw %s\n", cells ? "cells" : "whole");
	app->dirty = false;
	app->data_changed = false;
	l->last_second = app->now;
	if (latency_log && l->key_t0) {
		double t = mono_ms();
		/* Total, and the part before the output to the terminal. */
		fprintf(latency_log, "key %.3f %.3f %.3f\n", t - l->key_t0,
			flush_started_ms > l->key_t0 ? flush_started_ms - l->key_t0 : t - l->key_t0,
			thread_cpu_ms() - l->key_cpu0);
		l->key_t0 = 0;
	}
	if (latency_log && !l->painted_full && view_loaded(app)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		fprintf(latency_log, "first_full_paint %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
		l->painted_full = true;
	}
}

/* The clock's step in seconds: the header's clock, the running jobs'
 * times and the ages move every 2 s, as often as the data is asked for
 * and as watch -n2 redraws; every second with refresh_seconds under 2
 * (docs/architecture.md, "The screen's clock"). A key, new data or a
 * resize draws at once, the clock as it is then. */
static int clock_step(const struct oc_app *app)
{
	return app->cfg->refresh_s > 0 && app->cfg->refresh_s < 2 ? 1 : 2;
}

/* Milliseconds to the next step of the clock (1 to step x 1000): the
 * next second that is a multiple of the step. */
static int ms_to_next_step(int step)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	time_t next = (ts.tv_sec / step + 1) * step;
	return (int)(next - ts.tv_sec) * 1000 - (int)(ts.tv_nsec / 1000000);
}

/* The second on the clock, by the clock the wake-up is timed by: glibc's
 * time() reads a coarse clock that can lag it by a kernel tick, so just
 * after the second turned it could still say the one before. */
static time_t clock_second(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

/* Wait until the next second at most for the terminal, the collector, the worker and the
 * overlays' own descriptors (probe results), and take what came. Returns
 * -1 when poll fails. */
static int loop_poll(struct oc_app *app, struct loop *l)
{
	const struct oc_ui_hooks *hooks = app->hooks;
	struct pollfd pfd[4 + OC_OVERLAY_MAX] = {
		{.fd = l->tty_gone ? -1 : STDIN_FILENO, .events = POLLIN},
		{.fd = hooks->wake_fd(hooks->ctx), .events = POLLIN},
		{.fd = app->worker ? oc_worker_fd(app->worker) : -1, .events = POLLIN},
		{.fd = signal_pipe[0], .events = POLLIN},
	};
	const struct oc_overlay *polled[OC_OVERLAY_MAX];
	int npolled = 0;
	for (int i = 0; i < app->noverlays; i++)
		if (app->overlay[i].ops->fd) {
			polled[npolled] = &app->overlay[i];
			pfd[4 + npolled++] =
				(struct pollfd){.fd = app->overlay[i].ops->fd(app->overlay[i].priv), .events = POLLIN};
		}
	/* Woken at each step of the clock, just after it turned; everything
	 * else has a descriptor (signals: signal_pipe). */
	int rc = poll(pfd, (nfds_t)(4 + npolled), ms_to_next_step(clock_step(app)) + 1);
	if (rc < 0 && errno != EINTR)
		return -1;
	if (rc > 0 && (pfd[3].revents & POLLIN)) {
		char drain[64];
		while (read(signal_pipe[0], drain, sizeof(drain)) > 0)
			;
		app->dirty = true; /* a resize, noted by ncurses for the next read */
	}
	if (rc > 0 && (pfd[1].revents & POLLIN)) {
		hooks->ack(hooks->ctx);
		l->woken = true;
	}
	if (rc > 0 && (pfd[2].revents & POLLIN))
		worker_ready(app);
	for (int i = 0; rc > 0 && i < npolled; i++)
		if (pfd[4 + i].revents & POLLIN) {
			polled[i]->ops->ack(polled[i]->priv);
			app->dirty = true;
		}
	if (rc > 0 && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
		/* The terminal went away (a dropped SSM or SSH session)
		 * without a SIGHUP reaching the console (not its controlling
		 * terminal, or not in its foreground group): quit as on
		 * SIGHUP, after a running action, and never read the dead
		 * terminal again (it stays readable, so polling it would
		 * spin). */
		l->tty_gone = true;
		quit_signal = SIGHUP;
	}
	return 0;
}

/* How long ncurses waits after an Esc byte for the rest of a key's
 * sequence before it takes the byte as the Esc key (docs/performance.md,
 * P5). Over a list 10 ms, tmux's escape-time since 3.5: a terminal sends
 * a key's sequence in one write, which sshd and the SSM agent pass on in
 * one, so Esc (leaving a filter) is drawn within 16 ms. In a form, where
 * an arrow key taken for Esc would cancel what was typed, 50 ms. The
 * environment's ESCDELAY, when set, holds everywhere. */
#define OC_ESCDELAY_LIST 10
#define OC_ESCDELAY_FORM 50
/* Returns whether keys go to a list (read_key's split_check). */
static bool set_key_wait(struct oc_app *app)
{
	static int set = -1;
	static int from_env = -1;
	struct oc_overlay *top = oc_overlay_top(app);
	bool typing = (top && top->ops->raw_keys) || app->mode != OC_MODE_NORMAL;
	if (from_env < 0)
		from_env = getenv("ESCDELAY") != NULL;
	if (from_env)
		return !typing;
	int want = top && top->ops->raw_keys ? OC_ESCDELAY_FORM : OC_ESCDELAY_LIST;
	if (want != set) {
		set_escdelay(want);
		set = want;
	}
	return !typing;
}

/* Every key waiting, then the overlays' idle work. */
static void loop_keys(struct oc_app *app, struct loop *l)
{
	wint_t wch;
	int r;
	while (!l->tty_gone && !app->quit && !quit_signal && (r = read_key(&wch, l->utf8, set_key_wait(app))) != ERR) {
		if (latency_log && !l->key_t0) {
			l->key_t0 = mono_ms();
			l->key_cpu0 = thread_cpu_ms();
		}
		if (r == READ_UNKNOWN_SEQ) {
			const char *t = getenv("TERM");
			if (!strncmp(unknown_seq, "split: ", 7))
				oc_app_message(app, false,
					       " a key came in two parts (%s after Esc): its rest ignored; "
					       "ESCDELAY=50 waits longer for it",
					       unknown_seq + 12);
			else
				oc_app_message(app, false, " key %s is not known to TERM=%s: ignored", unknown_seq,
					       t ? t : "");
			app->dirty = true;
			continue;
		}
		handle_key(app, (int)wch, r != KEY_CODE_YES);
	}
	for (int i = 0; i < app->noverlays; i++)
		if (app->overlay[i].ops->idle)
			app->overlay[i].ops->idle(app, app->overlay[i].priv);
}

static void app_free(struct oc_app *app)
{
	for (int i = 0; i < app->nviews; i++)
		oc_listview_free(&app->view[i]);
	oc_tagset_clear(&app->recent_reasons);
	oc_tagset_clear(&app->node_tags);
	oc_tagset_clear(&app->job_tags);
	oc_ui_keymap_free(app);
	oc_snapshot_unref(&app->snap);
	free(app);
}

/* The keys' escape sequences of the common terminals (xterm, VT220,
 * linux, screen, tmux, rxvt), told to ncurses (define_key) where the
 * terminfo entry of TERM names no key for them: TERM=vt100 names no
 * PgUp, PgDn, Home, End or Shift-Tab, yet a terminal emulator sends
 * them, and each would otherwise arrive as Esc and single keys. A
 * sequence the entry binds to a key is left as it is; one it binds to an
 * extended key (a code above KEY_MAX, which no keymap names: linux's
 * ESC [ Z) takes the common meaning. */
static void define_common_keys(void)
{
	static const struct {
		const char *seq;
		int key;
	} keys[] = {
		{"\033[A", KEY_UP},	   {"\033[B", KEY_DOWN},     {"\033[C", KEY_RIGHT},	 {"\033[D", KEY_LEFT},
		{"\033OA", KEY_UP},	   {"\033OB", KEY_DOWN},     {"\033OC", KEY_RIGHT},	 {"\033OD", KEY_LEFT},
		{"\033[H", KEY_HOME},	   {"\033OH", KEY_HOME},     {"\033[1~", KEY_HOME},	 {"\033[7~", KEY_HOME},
		{"\033[F", KEY_END},	   {"\033OF", KEY_END},	     {"\033[4~", KEY_END},	 {"\033[8~", KEY_END},
		{"\033[2~", KEY_IC},	   {"\033[3~", KEY_DC},	     {"\033[5~", KEY_PPAGE},	 {"\033[6~", KEY_NPAGE},
		{"\033[Z", KEY_BTAB},	   {"\033OP", KEY_F(1)},     {"\033OQ", KEY_F(2)},	 {"\033OR", KEY_F(3)},
		{"\033OS", KEY_F(4)},	   {"\033[11~", KEY_F(1)},   {"\033[12~", KEY_F(2)},	 {"\033[13~", KEY_F(3)},
		{"\033[14~", KEY_F(4)},   {"\033[15~", KEY_F(5)},   {"\033[17~", KEY_F(6)},	 {"\033[18~", KEY_F(7)},
		{"\033[19~", KEY_F(8)},   {"\033[20~", KEY_F(9)},   {"\033[21~", KEY_F(10)}, {"\033[23~", KEY_F(11)},
		{"\033[24~", KEY_F(12)},  {"\033[[A", KEY_F(1)},    {"\033[[B", KEY_F(2)},	 {"\033[[C", KEY_F(3)},
		{"\033[[D", KEY_F(4)},	   {"\033[[E", KEY_F(5)},
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int now = key_defined(keys[i].seq);
		if (now == 0 || now > KEY_MAX)
			define_key(keys[i].seq, keys[i].key);
	}
}

/* The curses screen on this terminal; NULL with err when the terminal
 * type is unknown or cannot move the cursor. */
static SCREEN *term_open(bool no_mouse, char *err, size_t errlen)
{
	if (!getenv("ESCDELAY"))
		set_escdelay(OC_ESCDELAY_LIST);
	SCREEN *term = newterm(NULL, stdout, stdin);
	const char *t = getenv("TERM");
	if (!term) {
		snprintf(err, errlen, "cannot use terminal type '%s' (check TERM)", t ? t : "");
		return NULL;
	}
	/* A terminal that cannot move the cursor (TERM=dumb, an emacs shell
	 * buffer) would show a garbled last line: refuse it plainly. */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (const char *)-1) {
		endwin();
		delscreen(term);
		snprintf(err, errlen,
			 "terminal type '%s' cannot move the cursor; the console needs one that can (xterm, screen, tmux, vt100)",
			 t ? t : "");
		return NULL;
	}
	curses_active = 1;
	install_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	define_common_keys();
	/* Clicks and the wheel, unless --no-mouse or "mouse": false leave
	 * the mouse to the terminal (selecting text to copy). No click
	 * interval: a press is acted on at once. */
	if (!no_mouse) {
		mouseinterval(0);
		mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	}
	nodelay(stdscr, TRUE);
	curs_set(0);
	/* ncurses 6.4 sends what it buffered to the terminal at every cursor
	 * motion of an update until the screen has once been left and taken
	 * again (newterm() leaves it in its "initial" state, in which
	 * _nc_mvcur flushes, for terminfo programs): a second's update of
	 * the running jobs' times was 50 write()s, not one. Leaving and
	 * taking it once, before anything is drawn, makes it "running"
	 * (docs/performance.md, P1w). */
	endwin();
	refresh();
	/* Nor does an update look for typed keys (a poll() of the terminal
	 * every few lines, a dozen a second on a 50-line screen): the keys
	 * are read right after it, and an update is a few milliseconds. */
	typeahead(-1);
	return term;
}

/* The views with their layout files; the first file error into cfg_err.
 * Returns -1 on ENOMEM. */
static int views_new(struct oc_app *app, char *cfg_err, size_t cfg_len)
{
	for (int i = 0; i < NVIEWS; i++) {
		app->view[i] = oc_listview_new(app, view_defs[i]);
		if (!app->view[i])
			return -1;
		app->nviews = i + 1;
		char verr[600] = "";
		oc_listview_configure(app->view[i], app->cfg->datadir, verr, sizeof(verr));
		if (verr[0] && !cfg_err[0])
			snprintf(cfg_err, cfg_len, "%s", verr);
	}
	return 0;
}

/* The screen set up: terminal, theme, views, the first snapshot and view.
 * Returns the curses screen, or NULL with err (nothing left to free). */
static SCREEN *ui_start(struct oc_app *app, char *err, size_t errlen)
{
	const struct oc_ui_config *cfg = app->cfg;
	/* Files first: their errors are shown once the screen is up. */
	char cfg_err[1024] = "";
	if (oc_ui_keymap_load(app, cfg->keymap, cfg_err, sizeof(cfg_err)) < 0) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	SCREEN *term = term_open(cfg->no_mouse, err, errlen);
	if (!term)
		return NULL;
	char theme_err[600] = "";
	oc_theme_init(cfg->theme, cfg->datadir, theme_err, sizeof(theme_err));
	if (views_new(app, cfg_err, sizeof(cfg_err)) < 0) {
		restore_terminal();
		delscreen(term);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!cfg_err[0] && theme_err[0])
		snprintf(cfg_err, sizeof(cfg_err), "%s", theme_err);
	if (cfg_err[0])
		oc_app_message(app, true, " %s", cfg_err);
	app->snap = app->hooks->current(app->hooks->ctx);
	app_platform(app);
	app->cur = 0;
	const char *start = cfg->start_view && *cfg->start_view ? cfg->start_view : "partitions";
	if (!oc_app_goto(app, start, cfg->start_arg))
		oc_app_goto(app, "partitions", NULL);
	return term;
}

int oc_ui_run(const struct oc_ui_config *cfg, const struct oc_ui_hooks *hooks, char *err, size_t errlen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the console needs a terminal (use --once for scripts)");
		return -1;
	}
	struct oc_app *app = calloc(1, sizeof(*app));
	if (!app) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	app->cfg = cfg;
	app->hooks = hooks;
	app->show_hidden = cfg->show_hidden;
	app->now = app->cfg->frozen_at ? app->cfg->frozen_at : clock_second();
	app->datadir = cfg->datadir;
	app->worker = cfg->worker;
	SCREEN *term = ui_start(app, err, errlen);
	if (!term) {
		app_free(app);
		return -1;
	}
	const char *codeset = nl_langinfo(CODESET);
	struct loop l = {.utf8 = codeset && (!strcasecmp(codeset, "UTF-8") || !strcasecmp(codeset, "utf8"))};
	const char *ll = getenv("OC_LATENCY_LOG");
	latency_log = ll && *ll ? latency_open(ll) : NULL;
	if (latency_log)
		setvbuf(latency_log, NULL, _IOLBF, 0);
	const char *lf = getenv("OC_LATENCY_FRAMES");
	latency_frames = latency_log && lf && *lf && strcmp(lf, "0") != 0;
	while (!loop_quits(app, &l)) {
		app->now = app->cfg->frozen_at ? app->cfg->frozen_at : clock_second();
		/* A refresh that changed nothing does not wake the loop: its
		 * snapshot (the data's age) is taken at the clock's step. */
		if (l.woken || app->dirty || clock_stepped(app, &l))
			take_snapshot(app);
		char made[96];
		if (oc_listview_async_take(app->view[app->cur], made, sizeof(made))) {
			app->dirty = true;
			if (latency_log)
				fprintf(latency_log, "list made %s\n", made);
		}
		loop_draw(app, &l);
		l.woken = false;
		if (loop_poll(app, &l) < 0)
			break;
		loop_keys(app, &l);
	}
	oc_overlay_close_all(app);
	restore_terminal();
	if (latency_log) {
		fclose(latency_log);
		latency_log = NULL;
		latency_frames = false;
	}
	app_free(app);
	delscreen(term);
	return 0;
}
