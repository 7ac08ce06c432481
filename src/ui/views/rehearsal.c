/* rehearsal.c: the guided failure rehearsal on screen. The steps of the
 * checklist with their status, the selected step's why/do/observe and its
 * live evidence; Enter runs a step (its actions through the same writer as
 * every other action, its check against fresh snapshots); the commands
 * :pass, :fail, :skip (with an optional note) and :note give the
 * operator's verdict. A step runs in a thread of its own so the
 * screen never waits on slurmctld or sbatch; progress is saved after every
 * change by the session (the same file `opsconsole rehearse` uses). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions/worker.h"
#include "core/platform.h"
#include "core/strbuf.h"
#include "core/views.h"
#include "rehearsal/checklist.h"
#include "rehearsal/report.h"
#include "rehearsal/runner.h"
#include "rehearsal/session.h"
#include "rehearsal/window.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

/* What the screen shows of a step: copied under the lock by whoever
 * changed the session (the run thread or the screen). */
struct rrow {
	char id[64];
	char section[64];
	char title[160];
	enum oc_step_state state;
	double took;
	bool automatic;
};

struct rpriv {
	pthread_mutex_t lock;
	bool opened;                 /* tried to open the checklist and session */
	char error[512];             /* why there is no rehearsal ("" = fine) */
	struct oc_checklist *cl;
	struct oc_session *s;        /* touched by the run thread while running */
	struct rrow *rows;
	size_t nrows;
	/* the running step */
	pthread_t thread;
	bool running, thread_joinable, operator_wait, operator_done, stop;
	size_t run_step;
	char status[256];            /* what the run does now */
	struct oc_app *app;
	char confirm_step[64];       /* a step that asked for confirmation once */
	int platform;                /* enum oc_platform, taken when a run starts */
	bool window;                 /* a change window (:window), not the cluster's rehearsal */
	struct oc_window win;        /* its nodes, names and progress file */
};

static void *priv_new(void)
{
	struct rpriv *rp = calloc(1, sizeof(*rp));
	if (rp)
		pthread_mutex_init(&rp->lock, NULL);
	return rp;
}

/* Copy the session into rows (lock held). */
static void rows_refresh(struct rpriv *rp)
{
	if (!rp->s || !rp->cl)
		return;
	if (rp->nrows != rp->cl->nsteps) {
		free(rp->rows);
		rp->rows = calloc(rp->cl->nsteps ? rp->cl->nsteps : 1, sizeof(*rp->rows));
		rp->nrows = rp->rows ? rp->cl->nsteps : 0;
	}
	for (size_t i = 0; i < rp->nrows && i < rp->s->nsteps; i++) {
		const struct oc_step *st = &rp->cl->steps[i];
		const struct oc_step_rec *r = &rp->s->steps[i];
		struct rrow *row = &rp->rows[i];
		snprintf(row->id, sizeof(row->id), "%s", st->id);
		snprintf(row->section, sizeof(row->section), "%s", st->section ? st->section : "");
		snprintf(row->title, sizeof(row->title), "%s", st->title ? st->title : "");
		row->state = r->state;
		row->took = r->ended > r->started && r->started > 0 ? r->ended - r->started : 0;
		row->automatic = st->automatic;
	}
}

static void priv_free(void *p)
{
	struct rpriv *rp = p;
	if (!rp)
		return;
	pthread_mutex_lock(&rp->lock);
	rp->stop = true;
	bool joinable = rp->thread_joinable;
	pthread_mutex_unlock(&rp->lock);
	if (joinable)
		pthread_join(rp->thread, NULL);
	oc_session_free(&rp->s);
	oc_checklist_free(&rp->cl);
	free(rp->rows);
	pthread_mutex_destroy(&rp->lock);
	free(rp);
}

/* Open the checklist and the saved progress once, when the view is first
 * shown. */
/* Load the checklist and its saved progress: the change window w, or
 * the cluster's rehearsal (w NULL). Returns 0 with *cl and *s, or -1 with
 * err; rp is not touched. */
static int load_checklist(struct oc_app *app, const struct oc_window *w, struct oc_checklist **cl,
			  struct oc_session **s, char *err, size_t errlen)
{
	const struct oc_ui_config *cfg = app->cfg;
	*cl = NULL;
	*s = NULL;
	const char *path = w ? cfg->window_checklist : cfg->checklist_path;
	if (!path || !path[0]) {
		snprintf(err, errlen, "%s",
			 w ? "no checklist checklists/change-window.json (is the package's data installed?)"
			   : "no checklist (profile \"checklist\", or checklists/llm-poc.json)");
		return -1;
	}
	/* A window's variables first (they win), then the profile's. */
	struct oc_checklist_var vars[3 + 64];
	size_t nvars = 0;
	if (w)
		for (size_t i = 0; i < 3; i++)
			vars[nvars++] = w->vars[i];
	for (size_t i = 0; i < cfg->nchecklist_vars && nvars < sizeof(vars) / sizeof(vars[0]); i++)
		vars[nvars++] = cfg->checklist_vars[i];
	*cl = oc_checklist_load(path, vars, nvars, err, errlen);
	if (!*cl)
		return -1;
	if (!w)
		oc_checklist_set_notice(*cl, cfg->checklist_notice);
	const char *progress = w ? w->progress : cfg->rehearsal_progress ? cfg->rehearsal_progress : "";
	if (oc_session_open(*cl, cfg->cluster, progress, false, s, err, errlen) < 0) {
		oc_checklist_free(cl);
		return -1;
	}
	return 0;
}

/* Open the checklist and the saved progress once, when the view is first
 * shown. */
static void rehearsal_open(struct oc_listview *lv)
{
	struct rpriv *rp = lv->priv;
	if (rp->opened)
		return;
	rp->opened = true;
	char err[512] = "";
	struct oc_checklist *cl;
	struct oc_session *s;
	if (load_checklist(lv->app, rp->window ? &rp->win : NULL, &cl, &s, err, sizeof(err)) < 0) {
		snprintf(rp->error, sizeof(rp->error), "%s", err);
		return;
	}
	if (cl->notice)
		oc_app_message(lv->app, true, " note: %s", cl->notice);
	pthread_mutex_lock(&rp->lock);
	rp->error[0] = '\0';
	rp->cl = cl;
	rp->s = s;
	rows_refresh(rp);
	pthread_mutex_unlock(&rp->lock);
}

/* The progress file again, before a step runs or is marked: `opsconsole
 * window` (or rehearse) may have gone on with it meanwhile. Not while a
 * step runs (the run thread owns the session then). */
static void reload_progress(struct oc_listview *lv)
{
	struct rpriv *rp = lv->priv;
	if (!rp->cl || !rp->s)
		return;
	const struct oc_ui_config *cfg = lv->app->cfg;
	const char *progress = rp->window ? rp->win.progress : cfg->rehearsal_progress ? cfg->rehearsal_progress : "";
	if (!*progress)
		return;
	struct oc_session *fresh = NULL;
	char err[512];
	if (oc_session_open(rp->cl, cfg->cluster, progress, false, &fresh, err, sizeof(err)) < 0)
		return; /* the one in memory stays */
	pthread_mutex_lock(&rp->lock);
	struct oc_session *old = rp->s;
	rp->s = fresh;
	rows_refresh(rp);
	pthread_mutex_unlock(&rp->lock);
	oc_session_free(&old);
}

/* ---- the run thread -------------------------------------------------------- */

static void *run_main(void *arg)
{
	struct rpriv *rp = arg;
	struct oc_app *app = rp->app;
	struct oc_runner_cfg rcfg = {
		.writer = app->worker ? oc_worker_writer(app->worker) : NULL,
		.cluster = app->cfg->cluster,
		.audit_log = app->cfg->audit_log,
	};
	pthread_mutex_lock(&rp->lock);
	rcfg.platform = rp->platform;
	pthread_mutex_unlock(&rp->lock);
	char err[512] = "";
	pthread_mutex_lock(&rp->lock);
	bool confirmed = strcmp(rp->confirm_step, rp->rows[rp->run_step].id) == 0;
	size_t step = rp->run_step;
	pthread_mutex_unlock(&rp->lock);
	/* The session is only touched here while the run lasts. */
	struct oc_run *run = oc_runner_start(rp->s, rp->cl, step, &rcfg, confirmed, err, sizeof(err));
	pthread_mutex_lock(&rp->lock);
	if (!run) {
		snprintf(rp->status, sizeof(rp->status), "cannot run: %.200s", err);
		rp->running = false;
		rows_refresh(rp);
		pthread_mutex_unlock(&rp->lock);
		return NULL;
	}
	rows_refresh(rp);
	pthread_mutex_unlock(&rp->lock);
	for (;;) {
		struct oc_snapshot *snap = app->hooks->current(app->hooks->ctx);
		enum oc_run_status st = oc_runner_poll(run, snap);
		oc_snapshot_unref(&snap);
		pthread_mutex_lock(&rp->lock);
		snprintf(rp->status, sizeof(rp->status), "%s", oc_runner_status_text(run));
		rows_refresh(rp);
		bool stop = rp->stop;
		if (st == OC_RUN_OPERATOR) {
			rp->operator_wait = true;
			if (rp->operator_done) {
				rp->operator_done = false;
				rp->operator_wait = false;
				pthread_mutex_unlock(&rp->lock);
				oc_runner_operator_done(run);
				continue;
			}
		}
		pthread_mutex_unlock(&rp->lock);
		if (stop) {
			oc_runner_abort(run, "the console was closed");
			break;
		}
		if (st == OC_RUN_DONE || st == OC_RUN_VERDICT)
			break;
		/* A fresh snapshot comes at the collector's pace; poll each second. */
		for (int i = 0; i < 10; i++) {
			usleep(100 * 1000);
			pthread_mutex_lock(&rp->lock);
			bool wake = rp->stop || rp->operator_done;
			pthread_mutex_unlock(&rp->lock);
			if (wake)
				break;
		}
	}
	oc_runner_free(&run);
	pthread_mutex_lock(&rp->lock);
	rp->running = false;
	rp->operator_wait = false;
	rows_refresh(rp);
	pthread_mutex_unlock(&rp->lock);
	app->hooks->refresh_now(app->hooks->ctx);
	return NULL;
}

static void run_step(struct oc_listview *lv, uint32_t item)
{
	struct rpriv *rp = lv->priv;
	struct oc_app *app = lv->app;
	char why[512];
	pthread_mutex_lock(&rp->lock);
	bool running = rp->running;
	bool operator_wait = rp->operator_wait;
	pthread_mutex_unlock(&rp->lock);
	if (running) {
		if (operator_wait && item == rp->run_step) {
			pthread_mutex_lock(&rp->lock);
			rp->operator_done = true;
			pthread_mutex_unlock(&rp->lock);
			oc_app_message(app, false, " done: the check runs now");
		} else {
			oc_app_message(app, true, " step %s is running; wait for it", rp->rows[rp->run_step].id);
		}
		return;
	}
	reload_progress(lv);
	const struct oc_step *st = &rp->cl->steps[item];
	if (st->nactions && !oc_app_writes_allowed(app, why, sizeof(why))) {
		oc_app_message(app, true, "%s", why);
		return;
	}
	/* A change window's steps are writes the checklist runs unasked
	 * with --auto; here each asks once. */
	if ((st->needs_confirm || (rp->window && st->nactions)) && strcmp(rp->confirm_step, st->id) != 0) {
		snprintf(rp->confirm_step, sizeof(rp->confirm_step), "%s", st->id);
		oc_app_message(app, true, " step %s changes the cluster (see its actions): Enter again to run it", st->id);
		return;
	}
	if (rp->thread_joinable) {
		pthread_join(rp->thread, NULL);
		rp->thread_joinable = false;
	}
	pthread_mutex_lock(&rp->lock);
	rp->running = true;
	rp->run_step = item;
	rp->operator_done = false;
	rp->app = app;
	char pwhy[160];
	rp->platform = (int)oc_platform_detect(app->cfg->platform, app->snap ? app->snap->config : NULL, pwhy,
					       sizeof(pwhy));
	snprintf(rp->status, sizeof(rp->status), "starting %s", st->id);
	pthread_mutex_unlock(&rp->lock);
	if (pthread_create(&rp->thread, NULL, run_main, rp) != 0) {
		pthread_mutex_lock(&rp->lock);
		rp->running = false;
		pthread_mutex_unlock(&rp->lock);
		oc_app_message(app, true, " cannot start the step (thread)");
		return;
	}
	rp->thread_joinable = true;
}

/* ---- columns ------------------------------------------------------------------ */

static const struct rrow *row(struct oc_listview *lv, uint32_t item)
{
	return &((struct rpriv *)lv->priv)->rows[item];
}

/* The columns: this view's own catalogue (its rows are the checklist's,
 * not a snapshot's; src->rows = the view's struct rpriv). */
static const struct rrow *rrow_of(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct rpriv *)src->rows)->rows[row];
}

static void c_no(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	(void)src;
	snprintf(buf, len, "%u", row + 1);
}

static void c_id(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, rrow_of(src, row)->id);
}

static void c_state(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_step_state_tag(rrow_of(src, row)->state));
}

static void c_kind(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, rrow_of(src, row)->automatic ? "auto" : "guided");
}

static void c_took(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	double t = rrow_of(src, row)->took;
	if (t > 0)
		snprintf(buf, len, "%.0fs", t);
	else
		buf[0] = '\0';
}

static void c_title(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, rrow_of(src, row)->title);
}

static enum oc_role r_state(struct oc_listview *lv, uint32_t item)
{
	switch (row(lv, item)->state) {
	case OC_STEP_PASSED: return OC_ROLE_OK;
	case OC_STEP_FAILED: return OC_ROLE_BAD;
	case OC_STEP_RUNNING: return OC_ROLE_WARN;
	case OC_STEP_SKIPPED: return OC_ROLE_DIM;
	default: return OC_ROLE_NORMAL;
	}
}

static const struct oc_column cat_cols[] = {
	{"no", "#", 3, true, false, false, c_no, false},
	{"state", "STATE", 5, false, false, false, c_state, false},
	{"id", "STEP", 22, false, false, false, c_id, false},
	{"kind", "KIND", 6, false, true, false, c_kind, false},
	{"took", "TOOK", 5, true, true, false, c_took, false},
	{"title", "TITLE", 0, false, false, false, c_title, false},
};
static const struct oc_catalogue catalogue = {"rehearsal", cat_cols, (int)(sizeof(cat_cols) / sizeof(cat_cols[0]))};

static const struct oc_col_ui cols[] = {
	{"state", NULL, r_state, NULL, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	(void)s;
	struct rpriv *rp = lv->priv;
	lv->src.rows = rp;
	rehearsal_open(lv);
	pthread_mutex_lock(&rp->lock);
	size_t n = rp->nrows;
	pthread_mutex_unlock(&rp->lock);
	if (oc_listview_reserve(lv, n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		lv->items[i] = (uint32_t)i;
	return n;
}

/* The lines above the list for step item: its why / do / observe / evidence
 * and notes, and what the run is doing now. */
static int draw_bottom_text(struct oc_listview *lv, uint32_t item, char *out, size_t len)
{
	struct rpriv *rp = lv->priv;
	out[0] = '\0';
	if (item == UINT32_MAX || !rp->cl)
		return 0;
	const struct oc_step *st = &rp->cl->steps[item];
	pthread_mutex_lock(&rp->lock);
	bool running = rp->running;
	const struct oc_step_rec *r = running && item == rp->run_step ? NULL : &rp->s->steps[item];
	if (running)
		oc_appendf(out, len, "RUNNING %s: %s%s\n", rp->rows[rp->run_step].id, rp->status,
			   rp->operator_wait ? "  -> do it, then Enter on the step" : "");
	pthread_mutex_unlock(&rp->lock);
	if (st->why && *st->why)
		oc_appendf(out, len, "Why:     %s\n", st->why);
	/* The runbook's own words (Korean in the default checklist) only
	 * where the locale can show them, not as a line of '?'. */
	if (st->runbook && oc_utf8())
		oc_appendf(out, len, "Runbook: %s\n", st->runbook);
	if (st->todo && *st->todo)
		oc_appendf(out, len, "Do:      %s\n", st->todo);
	if (st->observe && *st->observe)
		oc_appendf(out, len, "Observe: %s\n", st->observe);
	if (r && r->evidence)
		oc_appendf(out, len, "Evidence: %s\n", r->evidence);
	if (r && r->notes)
		oc_appendf(out, len, "Notes:   %s\n", r->notes);
	return 1;
}

/* The screen lines text takes at width: each of its lines wrapped. */
static int text_rows(const char *text, int width)
{
	int rows = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p), off = 0;
		do {
			size_t fit = oc_text_fit(p + off, l - off, width);
			off += fit ? fit : 1;
			rows++;
		} while (off < l);
		p = nl ? nl + 1 : p + l;
	}
	return rows;
}

static int draw_top(struct oc_listview *lv, WINDOW *w, int y, int h, int width)
{
	struct rpriv *rp = lv->priv;
	wmove(w, y, 0);
	if (rp->error[0]) {
		wattrset(w, oc_theme_attr(OC_ROLE_BAD));
		oc_put_text(w, rp->error, width, true, false);
		wattrset(w, A_NORMAL);
		return 1;
	}
	if (!rp->s)
		return 0;
	/* The detail of the selected step, above the list: as many lines as
	 * the longest step's detail takes (so that the list does not move
	 * from step to step), at most a third of the view. */
	char text[4096];
	int lines = 1;
	for (size_t i = 0; i < lv->nitems; i++) {
		draw_bottom_text(lv, lv->items[i], text, sizeof(text));
		int need = 1 + text_rows(text, width);
		if (need > lines)
			lines = need;
	}
	int most = h / 3 > 3 ? h / 3 : 3;
	if (lines > most)
		lines = most;
	draw_bottom_text(lv, oc_listview_selected(lv), text, sizeof(text));
	int used = 0;
	char head[1400];
	snprintf(head, sizeof(head), "%s: %zu passed, %zu failed, %zu skipped, %zu not run  (Enter run; :pass :fail :skip [note], :note TEXT, :report%s)",
		 rp->window ? rp->win.headline : rp->cl->name, oc_session_count(rp->s, OC_STEP_PASSED), oc_session_count(rp->s, OC_STEP_FAILED),
		 oc_session_count(rp->s, OC_STEP_SKIPPED), oc_session_count(rp->s, OC_STEP_NOT_RUN),
		 rp->window ? ", :window off" : "");
	wattrset(w, oc_theme_attr(OC_ROLE_TITLE));
	oc_put_text(w, head, width, true, false);
	wattrset(w, A_NORMAL);
	used++;
	const char *p = text;
	while (*p && used < lines) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		size_t off = 0;
		do {
			size_t fit = oc_text_fit(p + off, l - off, width);
			if (!fit && off < l)
				fit = 1;
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)(fit < sizeof(line) - 1 ? fit : sizeof(line) - 1), p + off);
			wmove(w, y + used, 0);
			wattrset(w, strncmp(line, "RUNNING", 7) == 0 ? oc_theme_attr(OC_ROLE_WARN) : A_NORMAL);
			oc_put_text(w, line, width, true, false);
			used++;
			off += fit;
		} while (off < l && used < lines);
		p = nl ? nl + 1 : p + l;
	}
	wattrset(w, A_NORMAL);
	for (; used < lines; used++) {
		wmove(w, y + used, 0);
		wclrtoeol(w);
	}
	return used;
}

static void open_item(struct oc_listview *lv, uint32_t item)
{
	struct rpriv *rp = lv->priv;
	if (!rp->s)
		return;
	run_step(lv, item);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct rpriv *rp = lv->priv;
	if (!rp->s) {
		snprintf(buf, len, "no rehearsal");
		return;
	}
	snprintf(buf, len, "%zu %s%s%s%s", rp->nrows, oc_plural(rp->nrows, "step", "steps"),
		 rp->running ? ", one running" : "", rp->window ? "; change window" : "",
		 rp->cl && rp->cl->notice ? "; NOT this cluster's checklist (default)" : "");
}

/* Mark the selected step (the view's : commands pass, fail, skip, note),
 * or write the report. */
static bool mark(struct oc_listview *lv, const char *verb, const char *note)
{
	struct oc_app *app = lv->app;
	struct rpriv *rp = lv->priv;
	uint32_t item = oc_listview_selected(lv);
	if (!rp->s || item == UINT32_MAX)
		return false;
	pthread_mutex_lock(&rp->lock);
	bool busy = rp->running && rp->run_step == item;
	pthread_mutex_unlock(&rp->lock);
	if (busy) {
		oc_app_message(app, true, " the step is running; wait for it to end");
		return false;
	}
	if (strcmp(verb, "report") != 0)
		reload_progress(lv);
	char err[512] = "";
	int rc;
	if (strcmp(verb, "report") == 0) {
		/* Markdown and JSON next to the progress file. */
		char dir[PATH_MAX + 512];
		snprintf(dir, sizeof(dir), "%s",
			 rp->window ? rp->win.progress : app->cfg->rehearsal_progress ? app->cfg->rehearsal_progress : "");
		char *slash = strrchr(dir, '/');
		if (!slash) {
			oc_app_message(app, true, " no place for the report (no progress file)");
			return false;
		}
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		char stamp[32];
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		if (rp->window)
			snprintf(slash, sizeof(dir) - (size_t)(slash - dir), "/%s-%s", rp->win.state_name, stamp);
		else
			snprintf(slash, sizeof(dir) - (size_t)(slash - dir), "/rehearsal-%.60s-%s", app->cfg->cluster,
				 stamp);
		pthread_mutex_lock(&rp->lock);
		rc = oc_report_write(dir, rp->s, rp->cl, now, err, sizeof(err));
		pthread_mutex_unlock(&rp->lock);
		if (rc < 0) {
			oc_app_message(app, true, " report: %s", err);
			return false;
		}
		oc_app_message(app, false, " report written: %s/report.md and report.json", dir);
		return true;
	}
	if (strcmp(verb, "note") == 0) {
		if (!note || !*note) {
			oc_app_message(app, true, " :note needs a text, e.g. :note checkpoint took 4 min");
			return false;
		}
		rc = oc_session_note(rp->s, item, note, err, sizeof(err));
	} else {
		enum oc_step_state st = strcmp(verb, "pass") == 0 ? OC_STEP_PASSED
					: strcmp(verb, "fail") == 0 ? OC_STEP_FAILED
								    : OC_STEP_SKIPPED;
		rc = oc_session_mark(rp->s, item, st, note && *note ? note : NULL, "operator", err, sizeof(err));
	}
	pthread_mutex_lock(&rp->lock);
	rows_refresh(rp);
	pthread_mutex_unlock(&rp->lock);
	if (rc < 0) {
		oc_app_message(app, true, " %s", err);
		return false;
	}
	oc_app_message(app, false, " step %s: %s (progress saved)", rp->rows[item].id, verb);
	return true;
}

static bool command(struct oc_listview *lv, enum oc_act act, const char *arg)
{
	switch (act) {
	case OC_ACT_REHEARSAL_PASS: return mark(lv, "pass", arg);
	case OC_ACT_REHEARSAL_FAIL: return mark(lv, "fail", arg);
	case OC_ACT_REHEARSAL_SKIP: return mark(lv, "skip", arg);
	case OC_ACT_REHEARSAL_NOTE: return mark(lv, "note", arg);
	case OC_ACT_REHEARSAL_REPORT: return mark(lv, "report", arg);
	default: return false;
	}
}

/* :window: the view shows the change window w (NULL: the cluster's
 * rehearsal again). Refused while a step runs; when the new checklist or
 * progress cannot be opened, the view keeps what it showed. */
bool oc_rehearsal_window(struct oc_app *app, const struct oc_window *w, char *err, size_t errlen)
{
	struct oc_listview *lv = NULL;
	for (int i = 0; i < app->nviews; i++)
		if (app->view[i]->def == &oc_lv_rehearsal)
			lv = app->view[i];
	if (!lv || !lv->priv) {
		snprintf(err, errlen, "no rehearsal view");
		return false;
	}
	struct rpriv *rp = lv->priv;
	pthread_mutex_lock(&rp->lock);
	bool busy = rp->running;
	pthread_mutex_unlock(&rp->lock);
	if (busy) {
		snprintf(err, errlen, "a step of the %s runs: wait for it to end", rp->window ? "change window" : "rehearsal");
		return false;
	}
	if (rp->thread_joinable) {
		pthread_join(rp->thread, NULL);
		rp->thread_joinable = false;
	}
	/* The window's copy the new checklist's variables will point into. */
	struct oc_window *nw = NULL;
	if (w) {
		nw = malloc(sizeof(*nw));
		if (!nw) {
			snprintf(err, errlen, "out of memory");
			return false;
		}
		*nw = *w;
		nw->vars[0].value = nw->nodes;
		nw->vars[1].value = nw->reason;
		nw->vars[2].value = nw->name;
	}
	struct oc_checklist *cl;
	struct oc_session *s;
	if (load_checklist(app, nw, &cl, &s, err, errlen) < 0) {
		free(nw);
		return false;
	}
	pthread_mutex_lock(&rp->lock);
	struct oc_checklist *old_cl = rp->cl;
	struct oc_session *old_s = rp->s;
	rp->cl = cl;
	rp->s = s;
	rp->window = nw != NULL;
	if (nw)
		rp->win = *nw;
	/* The checklist took the values at load; rp's copy points at itself. */
	rp->win.vars[0].value = rp->win.nodes;
	rp->win.vars[1].value = rp->win.reason;
	rp->win.vars[2].value = rp->win.name;
	rp->opened = true;
	rp->error[0] = '\0';
	rp->confirm_step[0] = '\0';
	rp->status[0] = '\0';
	rows_refresh(rp);
	pthread_mutex_unlock(&rp->lock);
	oc_session_free(&old_s);
	oc_checklist_free(&old_cl);
	free(nw);
	oc_listview_update(lv, app->snap);
	return true;
}

const struct oc_listview_def oc_lv_rehearsal = {
	.name = "rehearsal",
	.title = "Rehearsal",
	/* The parts the steps' checks read most: a change window's read the
	 * reservations too; the others read the partitions and the
	 * accounting (slurmdbd's state). */
	.focus = OC_MASK(OC_PART_NODES) | OC_MASK(OC_PART_JOBS) | OC_MASK(OC_PART_RESV) |
		 OC_MASK_SLOW(OC_PART_PARTITIONS) | OC_MASK_SLOW(OC_PART_ACCT),
	.cat = &catalogue,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.collect = collect,
	.open = open_item,
	.command = command,
	.context = context,
	.draw_top = draw_top,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
