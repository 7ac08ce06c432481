/* test_listview.c: the list widget making a long queue off the UI thread
 * (ui/listview.c, OC_ASYNC_ROWS set to 100 here): every result is the
 * list the UI thread makes for the same snapshot, sort and filter; while
 * a result is being made the list keeps indexing the snapshot its items
 * came from (drawn meanwhile, and after the app has moved on and freed
 * its own); a view left and opened again finds its list; the cursor stays
 * on its job; a second that moved only the clock redraws the running
 * jobs' times as a whole draw would. Hand-made snapshots of 2,000 jobs; drawn into a curses
 * window writing to /dev/null. Run under the sanitizers in CI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <curses.h>

#include "core/arena.h"
#include "core/model.h"
#include "test_util.h"
#include "ui/app.h"
#include "ui/listview.h"
#include "ui/views.h"

static WINDOW *win;
static struct oc_listview_def sync_def; /* the queue, made on this thread */

static const char *const users[] = {"alice", "bob", "carol", "dave", "erin"};
static const char *const parts[] = {"debug", "normal", "large"};

/* n pending and running jobs from id base on, their fields spread by seed. */
static struct oc_jobs *jobs_new(size_t n, uint32_t base, unsigned seed)
{
	struct oc_jobs *t = oc_jobs_new();
	assert_non_null(t);
	t->v = oc_arena_alloc(&t->h.arena, n * sizeof(*t->v));
	assert_non_null(t->v);
	memset(t->v, 0, n * sizeof(*t->v));
	t->n = n;
	for (size_t i = 0; i < n; i++) {
		struct oc_job *j = &t->v[i];
		unsigned r = (unsigned)(i * 2654435761u + seed);
		char b[64];
		j->job_id = base + (uint32_t)i;
		j->array_task_id = OC_NONE;
		snprintf(b, sizeof(b), "train-%u-%s", r % 97, (r & 1) ? "llama" : "mistral");
		j->name = oc_arena_strdup(&t->h.arena, b);
		j->user = users[r % 5];
		j->account = (r % 5) < 2 ? "team-a" : "team-b";
		j->partition = parts[r % 3];
		j->qos = "normal";
		j->state = (r % 7) ? OC_JOB_PENDING : OC_JOB_RUNNING;
		j->start_time = j->state == OC_JOB_RUNNING ? 1000 - (time_t)(r % 500) : 0;
		j->num_nodes = 1 + r % 4;
		j->num_cpus = 8 * j->num_nodes;
		j->gpus = (r >> 3) % 9;
		j->priority = (r >> 5) % 1000;
		j->time_limit_min = 10 + (r >> 7) % 600;
	}
	return t;
}

static struct oc_snapshot *snap_new(uint64_t seq, struct oc_jobs *jobs)
{
	struct oc_snapshot *s = oc_snapshot_new();
	assert_non_null(s);
	s->seq = seq;
	oc_jobs_unref(&s->jobs);
	s->jobs = jobs;
	return s;
}

/* The same tables as s (a refresh that slurmctld answered "no change"). */
static struct oc_snapshot *snap_same(uint64_t seq, const struct oc_snapshot *s)
{
	struct oc_snapshot *n = snap_new(seq, oc_jobs_ref(s->jobs));
	oc_nodes_unref(&n->nodes);
	n->nodes = oc_nodes_ref(s->nodes);
	oc_partitions_unref(&n->partitions);
	n->partitions = oc_partitions_ref(s->partitions);
	oc_reservations_unref(&n->reservations);
	n->reservations = oc_reservations_ref(s->reservations);
	return n;
}

/* The app moves to s as take_snapshot does: the view on screen (cur, or
 * none) updated first, the others (off, or none) detached, then the
 * app's reference to its old snapshot dropped. */
static void app_move(struct oc_app *app, struct oc_listview *cur, struct oc_listview *off, struct oc_snapshot *s)
{
	if (cur)
		oc_listview_update(cur, s);
	if (off)
		oc_listview_detach(off);
	oc_snapshot_unref(&app->snap);
	app->snap = s;
}

/* Wait (10 s at most) for the result made off the UI thread. */
static void take(struct oc_listview *lv)
{
	char note[96];
	for (int i = 0; i < 10000; i++) {
		if (oc_listview_async_take(lv, note, sizeof(note)))
			return;
		usleep(1000);
	}
	fail_msg("no result off the UI thread within 10 s");
}

static uint32_t job_at(const struct oc_listview *lv, size_t i)
{
	return lv->snap->jobs->v[lv->items[i]].job_id;
}

/* lv shows what the UI thread makes (ref, same snapshot): the same jobs in
 * the same order. */
static void assert_same_list(const struct oc_listview *lv, const struct oc_listview *ref)
{
	assert_int_equal(lv->nitems, ref->nitems);
	for (size_t i = 0; i < lv->nitems; i++)
		if (job_at(lv, i) != job_at(ref, i))
			fail_msg("row %zu: job %u off the UI thread, %u on it", i, job_at(lv, i), job_at(ref, i));
}

/* Each row is in order with the next by the sort column's comparator
 * (radix-sorted columns too: their key orders as the comparator does). */
static void assert_sorted(struct oc_listview *lv)
{
	const struct oc_col_ui *ui = lv->colui[lv->cols[lv->sort].def];
	if (!ui || !ui->cmp)
		return;
	for (size_t i = 0; i + 1 < lv->nitems; i++) {
		int r = ui->cmp(lv, lv->items[i], lv->items[i + 1]);
		if (lv->reverse ? r < 0 : r > 0)
			fail_msg("column %s%s: rows %zu and %zu out of order", ui->id, lv->reverse ? " reversed" : "",
				 i, i + 1);
	}
}

struct fixture {
	struct oc_app *app;
	struct oc_listview *lv, *ref;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->app = calloc(1, sizeof(*f->app));
	f->app->now = 1000;
	f->lv = oc_listview_new(f->app, &oc_lv_queue);
	f->ref = oc_listview_new(f->app, &sync_def);
	assert_non_null(f->lv);
	assert_non_null(f->ref);
	f->app->snap = snap_new(1, jobs_new(2000, 1, 7));
	oc_listview_update(f->lv, f->app->snap); /* the first list: made here */
	oc_listview_update(f->ref, f->app->snap);
	assert_int_equal(f->lv->nitems, 2000);
	assert_null(f->lv->job);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	oc_listview_free(&f->lv);
	oc_listview_free(&f->ref);
	oc_snapshot_unref(&f->app->snap);
	free(f->app);
	free(f);
	return 0;
}

/* Each column as sort key, each reversed, filters typed and cleared: the
 * list made off the UI thread is the one made on it. */
static void test_sorts_and_filters(void **state)
{
	struct fixture *f = *state;
	struct oc_listview *lv = f->lv, *ref = f->ref;
	int jobs = 0;
	for (int c = 0; c < lv->ncols; c++)
		for (int rev = 0; rev < 2; rev++) {
			lv->sort = ref->sort = c;
			lv->reverse = ref->reverse = rev;
			oc_listview_update(lv, f->app->snap);
			oc_listview_update(ref, f->app->snap);
			if (lv->job) {
				jobs++;
				take(lv);
			}
			assert_null(lv->job);
			assert_same_list(lv, ref);
			assert_sorted(lv);
		}
	/* Each new column off the UI thread; its reverse is the order
	 * reversed, on it. */
	assert_int_equal(jobs, lv->ncols);
	const char *filters[] = {"t", "tr", "train-4", "llama", "bob", "zzz-none", "", "mistral"};
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		oc_listview_set_filter(lv, filters[i]);
		oc_listview_set_filter(ref, filters[i]);
		oc_listview_update(lv, f->app->snap);
		oc_listview_update(ref, f->app->snap);
		if (lv->job)
			take(lv);
		assert_same_list(lv, ref);
	}
	assert_int_equal(lv->nitems, ref->nitems);
	assert_true(lv->nitems > 0 && lv->nitems < 2000); /* "mistral": about half */
}

/* Requests that come faster than the results: only the last is put in
 * place, and it is the UI thread's list. */
static void test_superseded(void **state)
{
	struct fixture *f = *state;
	struct oc_listview *lv = f->lv, *ref = f->ref;
	for (int c = 0; c < lv->ncols; c++) {
		lv->sort = c;
		oc_listview_update(lv, f->app->snap);
	}
	oc_listview_set_filter(lv, "a");
	oc_listview_update(lv, f->app->snap);
	oc_listview_set_filter(lv, "al");
	oc_listview_update(lv, f->app->snap);
	take(lv);
	assert_null(lv->job);
	ref->sort = lv->sort;
	oc_listview_set_filter(ref, "al");
	oc_listview_update(ref, f->app->snap);
	assert_same_list(lv, ref);
}

/* A new snapshot with fewer jobs: while its list is being made, the rows
 * on screen still index the old snapshot (drawn meanwhile, after the app
 * freed its reference), then the new list comes with the cursor on the
 * same job. */
static void test_new_snapshot_meanwhile(void **state)
{
	struct fixture *f = *state;
	struct oc_listview *lv = f->lv, *ref = f->ref;
	struct oc_snapshot *old = f->app->snap;
	/* The cursor on a job the new table keeps (ids 1001..2000). */
	for (lv->sel = 1500; job_at(lv, lv->sel) <= 1000; lv->sel++)
		;
	uint32_t before = job_at(lv, lv->sel);
	/* The new table keeps the jobs from 1001 on (the cursor's among
	 * them) and 100 new ones. */
	struct oc_jobs *t = jobs_new(1100, 1001, 7);
	for (size_t i = 1000; i < 1100; i++)
		t->v[i].job_id = 90000 + (uint32_t)i;
	struct oc_snapshot *s2 = snap_new(2, t);
	app_move(f->app, lv, ref, s2);
	assert_non_null(lv->job); /* new tables: collected off the UI thread */
	assert_ptr_equal(lv->snap, old); /* still what the items index */
	oc_listview_draw(lv, win, 0, 50, 200);
	assert_ptr_equal(lv->snap, old);
	assert_int_equal(job_at(lv, lv->sel), before);
	take(lv);
	assert_ptr_equal(lv->snap, s2);
	oc_listview_update(ref, s2);
	assert_same_list(lv, ref);
	assert_int_equal(job_at(lv, lv->sel), before);
	oc_listview_draw(lv, win, 0, 50, 200);
}

/* A result made for a snapshot the app has left for one with the same
 * tables; then the view goes off screen while the app moves on twice,
 * and comes back: its list is there at once and made again. */
static void test_detached_and_back(void **state)
{
	struct fixture *f = *state;
	struct oc_listview *lv = f->lv, *ref = f->ref;
	struct oc_snapshot *s2 = snap_new(2, jobs_new(2000, 5000, 11));
	app_move(f->app, lv, ref, s2);
	app_move(f->app, lv, ref, snap_same(3, s2)); /* the job in flight still fits */
	take(lv);
	oc_listview_draw(lv, win, 0, 50, 200);
	/* Another view on screen (ref's place) while the app moves on. */
	oc_listview_update(ref, f->app->snap);
	app_move(f->app, ref, lv, snap_new(4, jobs_new(2000, 9000, 13)));
	app_move(f->app, ref, lv, snap_new(5, jobs_new(2000, 12000, 17)));
	assert_non_null(lv->snap); /* its own: drawn at once when back */
	oc_listview_draw(lv, win, 0, 50, 200);
	oc_listview_update(lv, f->app->snap); /* back on screen */
	take(lv);
	assert_ptr_equal(lv->snap, f->app->snap);
	oc_listview_update(ref, f->app->snap);
	assert_same_list(lv, ref);
	assert_int_equal(job_at(lv, 0), job_at(ref, 0));
}

/* The queue reads the jobs and partitions only: a new node or
 * reservation table (the slow-rate reloads of parts the queue does not
 * show), even minutes later, leaves its list as it is; a new partition
 * table makes it again, and so does a minute with a filter set (a
 * filter may match the text of a running job's time). */
static void test_tables_it_reads(void **state)
{
	struct fixture *f = *state;
	struct oc_listview *lv = f->lv;
	struct oc_snapshot *s2 = snap_same(2, f->app->snap);
	oc_nodes_unref(&s2->nodes);
	s2->nodes = oc_nodes_new();
	oc_reservations_unref(&s2->reservations);
	s2->reservations = oc_reservations_new();
	assert_non_null(s2->nodes);
	assert_non_null(s2->reservations);
	f->app->now += 300;
	app_move(f->app, lv, NULL, s2);
	assert_null(lv->job); /* nothing to make */
	assert_ptr_equal(lv->snap, s2);
	assert_int_equal(lv->nitems, 2000);
	assert_int_equal(lv->made_at, 1000);

	struct oc_snapshot *s3 = snap_same(3, s2);
	oc_partitions_unref(&s3->partitions);
	s3->partitions = oc_partitions_new();
	assert_non_null(s3->partitions);
	app_move(f->app, lv, NULL, s3);
	assert_non_null(lv->job); /* a new partition table: made again */
	take(lv);
	assert_int_equal(lv->made_at, 1300);

	oc_listview_set_filter(lv, "llama");
	oc_listview_update(lv, f->app->snap);
	take(lv);
	f->app->now += 61;
	app_move(f->app, lv, NULL, snap_same(4, s3));
	assert_non_null(lv->job); /* a filter, a minute later: made again */
	take(lv);
	assert_int_equal(lv->made_at, 1361);
}

/* Whether windows a and b (50x200) hold the same characters and attributes. */
static bool same_window(WINDOW *a, WINDOW *b)
{
	chtype la[201], lb[201];
	for (int y = 0; y < 50; y++) {
		memset(la, 0, sizeof(la));
		memset(lb, 0, sizeof(lb));
		mvwinchnstr(a, y, 0, la, 200);
		mvwinchnstr(b, y, 0, lb, 200);
		if (memcmp(la, lb, sizeof(la)) != 0)
			return false;
	}
	return true;
}

/* A second later on the same tables, only the cells of the columns that
 * follow the clock are made again (the running jobs' TIME): the window
 * is what a whole draw at that second puts there. A new table the view
 * reads compares every cell; a time that widens its column makes the
 * caller draw the whole screen. */
static void test_clock_tick(void **state)
{
	struct fixture *f = *state;
	struct oc_listview *lv = f->ref;
	WINDOW *before = newwin(50, 200, 0, 0), *whole = newwin(50, 200, 0, 0);
	assert_non_null(before);
	assert_non_null(whole);
	werase(win);
	oc_listview_draw(lv, win, 0, 50, 200);
	for (unsigned long k = 1; k <= 3; k++) {
		overwrite(win, before);
		f->app->now += 1;
		assert_true(oc_listview_draw_tick(lv, win, 0, 50, 200));
		assert_int_equal(lv->drawn.clock_ticks, k);
		/* Running jobs are on screen: their TIME moved. */
		assert_false(same_window(win, before));
		struct oc_listview *fresh = oc_listview_new(f->app, &sync_def);
		assert_non_null(fresh);
		oc_listview_update(fresh, f->app->snap);
		werase(whole);
		oc_listview_draw(fresh, whole, 0, 50, 200);
		oc_listview_free(&fresh);
		if (!same_window(win, whole))
			fail_msg("second %lu: the clock tick's window differs from a whole draw", k);
	}
	/* A new snapshot with the same tables (slurmctld said "no change"):
	 * the clock alone. */
	app_move(f->app, lv, NULL, snap_same(2, f->app->snap));
	f->app->now += 1;
	assert_true(oc_listview_draw_tick(lv, win, 0, 50, 200));
	assert_int_equal(lv->drawn.clock_ticks, 4);
	/* A new job table (the same jobs) or a new partition table: every
	 * cell compared; then the clock alone again. */
	app_move(f->app, lv, NULL, snap_new(3, jobs_new(2000, 1, 7)));
	f->app->now += 1;
	assert_true(oc_listview_draw_tick(lv, win, 0, 50, 200));
	assert_int_equal(lv->drawn.clock_ticks, 4);
	struct oc_snapshot *s4 = snap_same(4, f->app->snap);
	oc_partitions_unref(&s4->partitions);
	s4->partitions = oc_partitions_new();
	assert_non_null(s4->partitions);
	app_move(f->app, lv, NULL, s4);
	f->app->now += 1;
	assert_true(oc_listview_draw_tick(lv, win, 0, 50, 200));
	assert_int_equal(lv->drawn.clock_ticks, 4);
	f->app->now += 1;
	assert_true(oc_listview_draw_tick(lv, win, 0, 50, 200));
	assert_int_equal(lv->drawn.clock_ticks, 5);
	/* 400 days later the TIME column is wider: not drawn in part. */
	f->app->now += 400 * 86400;
	assert_false(oc_listview_draw_tick(lv, win, 0, 50, 200));
	delwin(before);
	delwin(whole);
}

/* The list freed with a result in flight (quitting while sorting). */
static void test_freed_in_flight(void **state)
{
	struct fixture *f = *state;
	f->lv->sort = 2;
	oc_listview_update(f->lv, f->app->snap);
	oc_listview_set_filter(f->lv, "llama");
	oc_listview_update(f->lv, f->app->snap);
	oc_listview_free(&f->lv); /* the thread ends by itself, freeing its copy */
	assert_null(f->lv);
}

/* The status line's count agrees with its noun: "2000 jobs", "1 job". */
static void test_context_count(void **state)
{
	struct fixture *f = *state;
	char buf[128];
	f->ref->def->context(f->ref, buf, sizeof(buf));
	assert_string_equal(buf, "all partitions  2000 jobs");
	struct oc_snapshot *one = snap_new(2, jobs_new(1, 1, 7));
	oc_listview_update(f->ref, one);
	assert_int_equal(f->ref->nitems, 1);
	f->ref->def->context(f->ref, buf, sizeof(buf));
	assert_string_equal(buf, "all partitions  1 job");
	oc_listview_update(f->ref, f->app->snap);
	oc_snapshot_unref(&one);
}

int main(void)
{
	setenv("OC_ASYNC_ROWS", "100", 1);
	setenv("TERM", "xterm", 1);
	FILE *null = fopen("/dev/null", "w");
	FILE *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm", null, in);
	if (!scr) {
		fprintf(stderr, "test_listview: no terminfo entry for xterm\n");
		return 1;
	}
	set_term(scr);
	win = newwin(50, 200, 0, 0);
	sync_def = oc_lv_queue;
	sync_def.off_thread = false;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sorts_and_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_superseded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_snapshot_meanwhile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detached_and_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tables_it_reads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freed_in_flight, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_context_count, setup, teardown),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	delwin(win);
	endwin();
	delscreen(scr);
	fclose(null);
	fclose(in);
	return rc;
}
