/* screen.c: the console's main loop. Waits on the keyboard and on the
 * collector's wake-up pipe, never on Slurm; draws the header, the tab bar,
 * the stale banner, the current view and the status line. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/ui_int.h"

#define OC_MIN_COLS 40
#define OC_MIN_LINES 8

static const struct oc_view_ops *const views[] = {
	&oc_view_partitions,
	&oc_view_queue,
	&oc_view_nodes,
};
#define NVIEWS ((int)(sizeof(views) / sizeof(views[0])))

struct screen {
	struct oc_app app;
	void *view[NVIEWS];
	int cur;
	bool filtering;          /* the / prompt is open */
	char filter[256];
	bool help;
	char message[256];       /* one-shot message on the status line */
	uint64_t shown_seq;
};

static volatile sig_atomic_t quit_signal;
static volatile sig_atomic_t curses_active;

static void on_quit_signal(int sig)
{
	quit_signal = sig;
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
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	atexit(restore_terminal);
}

void oc_app_goto(struct oc_app *app, const char *name, const char *arg)
{
	struct screen *sc = (struct screen *)app;
	for (int i = 0; i < NVIEWS; i++) {
		if (strcmp(views[i]->name, name) != 0)
			continue;
		if (sc->cur != i || arg) {
			/* The / filter belongs to the view it was typed in. */
			sc->filter[0] = '\0';
			sc->filtering = false;
			views[i]->set_filter(sc->view[i], "");
		}
		sc->cur = i;
		if (views[i]->open)
			views[i]->open(sc->view[i], arg);
		if (app->snap)
			views[i]->update(sc->view[i], app->snap);
		app->hooks->set_focus(app->hooks->ctx, views[i]->focus);
		app->dirty = true;
		return;
	}
}

static void fmt_clock(time_t t, char *buf, size_t len)
{
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* The stale banner's text, or "" when the data on screen is fresh. */
static void stale_text(struct screen *sc, char *buf, size_t len)
{
	const struct oc_snapshot *s = sc->app.snap;
	unsigned focus = views[sc->cur]->focus;
	time_t now = sc->app.now;
	buf[0] = '\0';
	time_t inflight = sc->app.hooks->inflight_since(sc->app.hooks->ctx);
	double limit = sc->app.cfg->refresh_s * 2 > 5 ? sc->app.cfg->refresh_s * 2 : 5;
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
	if (oldest)
		fmt_clock(oldest, data, sizeof(data));
	else
		snprintf(data, sizeof(data), "never");
	if (error) {
		fmt_clock(error_since, since, sizeof(since));
		snprintf(buf, len, " STALE: slurmctld unreachable since %s (%llds): %s; data from %s ",
			 since, (long long)(now - error_since), error, data);
	} else if (inflight && (double)(now - inflight) >= limit) {
		fmt_clock(inflight, since, sizeof(since));
		snprintf(buf, len, " STALE: slurmctld not answering since %s (%llds); data from %s ",
			 since, (long long)(now - inflight), data);
	}
}

static void draw_header(struct screen *sc, int width)
{
	const struct oc_snapshot *s = sc->app.snap;
	char left[256], right[64], clock[16];
	unsigned focus = views[sc->cur]->focus;
	time_t newest = 0;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if ((focus & OC_MASK(p)) && s->status[p].fetched > newest)
			newest = s->status[p].fetched;
	snprintf(left, sizeof(left), " opsconsole  %s  Slurm %s", s->cluster[0] ? s->cluster : sc->app.cfg->cluster,
		 s->slurm_version[0] ? s->slurm_version : "?");
	fmt_clock(sc->app.now, clock, sizeof(clock));
	if (newest)
		snprintf(right, sizeof(right), "updated %llds ago  %s ", (long long)(sc->app.now - newest), clock);
	else
		snprintf(right, sizeof(right), "connecting...  %s ", clock);
	attrset(oc_theme_attr(OC_ROLE_HEADER));
	move(0, 0);
	int rw = (int)strlen(right);
	int used = oc_put_text(stdscr, left, width - rw > 0 ? width - rw : width, false, false);
	for (; used < width - rw; used++)
		addch(' ');
	if (width - used >= rw)
		oc_put_text(stdscr, right, rw, false, false);
	attrset(A_NORMAL);
}

static void draw_tabs(struct screen *sc, int y, int width)
{
	move(y, 0);
	int used = 0;
	for (int i = 0; i < NVIEWS && used < width; i++) {
		char label[64];
		snprintf(label, sizeof(label), " %d %s ", i + 1, views[i]->title);
		attrset(oc_theme_attr(i == sc->cur ? OC_ROLE_TAB_ACTIVE : OC_ROLE_TAB));
		used += oc_put_text(stdscr, label, width - used, false, false);
		attrset(A_NORMAL);
		if (used < width) {
			addch(' ');
			used++;
		}
	}
	char ctx[512] = "";
	if (views[sc->cur]->context)
		views[sc->cur]->context(sc->view[sc->cur], ctx, sizeof(ctx));
	if (sc->filter[0] && !sc->filtering) {
		size_t l = strlen(ctx);
		snprintf(ctx + l, sizeof(ctx) - l, "%sfilter \"%s\"", l ? "  " : "", sc->filter);
	}
	attrset(oc_theme_attr(OC_ROLE_DIM));
	int cl = (int)strlen(ctx);
	for (; used < width - cl - 1; used++)
		addch(' ');
	if (used < width)
		used += oc_put_text(stdscr, ctx, width - used, false, false);
	for (; used < width; used++)
		addch(' ');
	attrset(A_NORMAL);
}

static void draw_status(struct screen *sc, int y, int width)
{
	move(y, 0);
	attrset(oc_theme_attr(OC_ROLE_STATUS));
	if (sc->filtering) {
		char buf[300];
		snprintf(buf, sizeof(buf), "/%s", sc->filter);
		int used = oc_put_text(stdscr, buf, width, true, false);
		(void)used;
		attrset(A_NORMAL);
		move(y, (int)strlen(buf) < width ? (int)strlen(buf) : width - 1);
		curs_set(1);
		return;
	}
	curs_set(0);
	const char *help = sc->message[0] ? sc->message
			   : " q quit  Tab/1-3 view  Enter open  / filter  s sort  r refresh  H hidden  ? help";
	oc_put_text(stdscr, help, width, true, false);
	attrset(A_NORMAL);
}

static void draw_help(int h, int width)
{
	static const char *const lines[] = {
		"Keys",
		"",
		"  q, Ctrl-C     quit",
		"  Tab, S-Tab    next / previous view",
		"  1 2 3         partitions, queue, nodes",
		"  Enter         open (a partition's queue)",
		"  Up/Down j/k   move;  PgUp/PgDn, g/G  page, first/last",
		"  /             filter the list (Esc clears)",
		"  s, S          sort by the next column / reverse",
		"  r             refresh now",
		"  H             show hidden partitions (e.g. gpu)",
		"  ?             this help (any key closes it)",
	};
	int n = (int)(sizeof(lines) / sizeof(lines[0]));
	for (int i = 0; i < h; i++) {
		move(1 + i, 0);
		oc_put_text(stdscr, i < n ? lines[i] : "", width, true, false);
	}
}

static void draw(struct screen *sc)
{
	int height = LINES, width = COLS;
	erase();
	if (width < OC_MIN_COLS || height < OC_MIN_LINES) {
		char msg[80];
		snprintf(msg, sizeof(msg), "terminal too small (%dx%d), need %dx%d", width, height,
			 OC_MIN_COLS, OC_MIN_LINES);
		mvaddnstr(0, 0, msg, width);
		refresh();
		return;
	}
	draw_header(sc, width);
	if (sc->help) {
		draw_help(height - 2, width);
		draw_status(sc, height - 1, width);
		refresh();
		return;
	}
	draw_tabs(sc, 1, width);
	int y = 2;
	char banner[512];
	stale_text(sc, banner, sizeof(banner));
	if (banner[0]) {
		move(y, 0);
		attrset(oc_theme_attr(OC_ROLE_BANNER));
		oc_put_text(stdscr, banner, width, true, false);
		attrset(A_NORMAL);
		y++;
	}
	views[sc->cur]->draw(sc->view[sc->cur], stdscr, y, height - 1 - y, width);
	draw_status(sc, height - 1, width);
	refresh();
}

static void take_snapshot(struct screen *sc)
{
	struct oc_snapshot *s = sc->app.hooks->current(sc->app.hooks->ctx);
	if (sc->app.snap && s->seq == sc->app.snap->seq) {
		oc_snapshot_unref(&s);
		return;
	}
	oc_snapshot_unref(&sc->app.snap);
	sc->app.snap = s;
	views[sc->cur]->update(sc->view[sc->cur], s);
	sc->app.dirty = true;
}

static void filter_key(struct screen *sc, int ch)
{
	size_t len = strlen(sc->filter);
	if (ch == 27) { /* Esc: clear and close */
		sc->filter[0] = '\0';
		sc->filtering = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		sc->filtering = false;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			sc->filter[len - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(sc->filter)) {
		sc->filter[len] = (char)ch;
		sc->filter[len + 1] = '\0';
	} else {
		return;
	}
	views[sc->cur]->set_filter(sc->view[sc->cur], sc->filter);
	views[sc->cur]->update(sc->view[sc->cur], sc->app.snap);
}

/* Returns false when the console should quit. */
static bool handle_key(struct screen *sc, int ch)
{
	sc->app.dirty = true;
	sc->message[0] = '\0';
	if (ch == KEY_RESIZE)
		return true;
	if (sc->filtering) {
		filter_key(sc, ch);
		return true;
	}
	if (sc->help) {
		sc->help = false;
		return ch != 'q';
	}
	switch (ch) {
	case 'q':
		return false;
	case '\t':
		oc_app_goto(&sc->app, views[(sc->cur + 1) % NVIEWS]->name, NULL);
		break;
	case KEY_BTAB:
		oc_app_goto(&sc->app, views[(sc->cur + NVIEWS - 1) % NVIEWS]->name, NULL);
		break;
	case '1':
	case '2':
	case '3':
		oc_app_goto(&sc->app, views[ch - '1']->name, NULL);
		break;
	case 'r':
		sc->app.hooks->refresh_now(sc->app.hooks->ctx);
		snprintf(sc->message, sizeof(sc->message), " refreshing...");
		break;
	case '/':
		sc->filtering = true;
		break;
	case 27:
		if (sc->filter[0]) {
			sc->filter[0] = '\0';
			views[sc->cur]->set_filter(sc->view[sc->cur], "");
			views[sc->cur]->update(sc->view[sc->cur], sc->app.snap);
		}
		break;
	case 's':
	case 'S':
		views[sc->cur]->next_sort(sc->view[sc->cur], ch == 'S');
		views[sc->cur]->update(sc->view[sc->cur], sc->app.snap);
		break;
	case 'H':
		sc->app.show_hidden = !sc->app.show_hidden;
		for (int i = 0; i < NVIEWS; i++)
			views[i]->update(sc->view[i], sc->app.snap);
		snprintf(sc->message, sizeof(sc->message), " hidden partitions %s",
			 sc->app.show_hidden ? "shown" : "hidden");
		break;
	case '?':
		sc->help = true;
		break;
	default:
		if (!views[sc->cur]->key(sc->view[sc->cur], ch))
			sc->app.dirty = false;
	}
	return true;
}

int oc_ui_run(const struct oc_ui_config *cfg, const struct oc_ui_hooks *hooks, char *err,
	      size_t errlen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the console needs a terminal (use --once for scripts)");
		return -1;
	}
	struct screen *sc = calloc(1, sizeof(*sc));
	if (!sc) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	sc->app.cfg = cfg;
	sc->app.hooks = hooks;
	sc->app.show_hidden = cfg->show_hidden;
	sc->app.now = time(NULL);

	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	SCREEN *term = newterm(NULL, stdout, stdin);
	if (!term) {
		const char *t = getenv("TERM");
		snprintf(err, errlen, "cannot use terminal type '%s' (check TERM)", t ? t : "");
		free(sc);
		return -1;
	}
	curses_active = 1;
	install_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	oc_theme_init();

	for (int i = 0; i < NVIEWS; i++) {
		sc->view[i] = views[i]->create(&sc->app);
		if (!sc->view[i]) {
			restore_terminal();
			snprintf(err, errlen, "out of memory");
			for (int k = 0; k < i; k++)
				views[k]->destroy(sc->view[k]);
			free(sc);
			return -1;
		}
	}
	sc->app.snap = hooks->current(hooks->ctx);
	sc->cur = 0;
	oc_app_goto(&sc->app, cfg->start_view && *cfg->start_view ? cfg->start_view : "partitions",
		    cfg->start_arg);

	bool running = true;
	time_t last_second = 0;
	while (running && !quit_signal) {
		sc->app.now = time(NULL);
		take_snapshot(sc);
		if (sc->app.dirty || sc->app.now != last_second) {
			draw(sc);
			sc->app.dirty = false;
			last_second = sc->app.now;
		}
		struct pollfd pfd[2] = {
			{.fd = STDIN_FILENO, .events = POLLIN},
			{.fd = hooks->wake_fd(hooks->ctx), .events = POLLIN},
		};
		int rc = poll(pfd, 2, 250);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0 && (pfd[1].revents & POLLIN))
			hooks->ack(hooks->ctx);
		if (rc > 0 && (pfd[0].revents & (POLLHUP | POLLERR)) && !(pfd[0].revents & POLLIN))
			break; /* the terminal went away */
		int ch;
		while (running && (ch = getch()) != ERR)
			running = handle_key(sc, ch);
	}

	restore_terminal();
	for (int i = 0; i < NVIEWS; i++)
		views[i]->destroy(sc->view[i]);
	oc_snapshot_unref(&sc->app.snap);
	delscreen(term);
	free(sc);
	return 0;
}
