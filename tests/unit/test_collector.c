/* test_collector.c: how often the collector thread (source/collector.c)
 * asks for each part and pings the controllers, by focus: the parts a view
 * shows at the fast rate, those it reads (OC_MASK_SLOW) at the slow rate,
 * the others at the idle rate (OC_IDLE_FACTOR times the slow), every part at the slow
 * rate while a job's panel is open or on a view that shows no part, and
 * the pings every slow interval on a
 * cluster with one controller but every medium one with two. The backend
 * is a stand-in that notes when each part was asked for and answers "no
 * change": what is under test is the collector's schedule, on short
 * intervals (fast 0.05 s, medium 0.25 s, slow 0.5 s, idle 5 s).
 *
 * Times are checked from below (a part is never asked for sooner than its
 * interval: a busy machine only makes requests later) and, where a rate
 * must be the faster of two, by the shortest gap seen over several. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/views.h"
#include "source/cli_parse.h"
#include "source/collector.h"

#define MAX_CALLS 512
#define FAST 0.05
#define SLOW 0.5
#define IDLE (OC_IDLE_FACTOR * SLOW)
#define MEDIUM (5 * FAST)

struct stub {
	struct oc_backend base;
	const char *config;
	bool bad_config; /* the configuration did not parse (said by the test's thread) */
	double job_sleep;   /* the first job report takes this long (s) */
	int jobs_asked;
	/* When each part (and the pings, at OC_PART_COUNT) was asked for. */
	double at[OC_PART_COUNT + 1][MAX_CALLS];
	int n[OC_PART_COUNT + 1];
};

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s);

static void note(struct stub *s, int what)
{
	if (s->n[what] < MAX_CALLS)
		s->at[what][s->n[what]++] = mono();
}

static int stub_refresh(struct oc_backend *b, unsigned mask, const struct oc_snapshot *prev,
			struct oc_snapshot *next)
{
	struct stub *s = (struct stub *)b;
	(void)prev;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if (mask & OC_MASK(p)) {
			note(s, p);
			oc_part_status_ok(&next->status[p], time(NULL));
		}
	if (!next->config || !next->config->n) {
		/* The first refresh: the configuration, held from then on. */
		struct oc_config *cfg = NULL;
		char err[128];
		if (oc_cli_parse_config(s->config, strlen(s->config), NULL, &cfg, err, sizeof(err)) != 0) {
			s->bad_config = true; /* (no cmocka assertion off the test's thread) */
			return OC_PART_COUNT;
		}
		oc_config_unref(&next->config);
		next->config = cfg;
	}
	snprintf(next->cluster, sizeof(next->cluster), "stub");
	return 0;
}

static void stub_ping(struct oc_backend *b, struct oc_controllers *c)
{
	note((struct stub *)b, OC_PART_COUNT);
	for (int i = 0; i < c->n; i++)
		c->v[i].state = OC_CTLD_UP;
	c->error[0] = '\0';
}

static int stub_job(struct oc_backend *b, const char *since, const char *until, struct oc_snapshot *next)
{
	(void)since, (void)until;
	struct stub *s = (struct stub *)b;
	if (s->jobs_asked++ == 0 && s->job_sleep > 0)
		sleep_s(s->job_sleep);
	oc_part_status_ok(&next->jobinfo_status, time(NULL));
	return 0;
}

static void stub_close(struct oc_backend *b)
{
	(void)b; /* the test's own */
}

static const struct oc_backend_ops stub_ops = {
	.name = "stub",
	.refresh = stub_refresh,
	.job = stub_job,
	.ping = stub_ping,
	.close = stub_close,
};

static const char one_ctld[] = "SlurmctldHost[0] = head(127.0.0.1)\n";
static const char two_ctld[] = "SlurmctldHost[0] = oc-ctld1(127.0.0.1)\n"
			       "SlurmctldHost[1] = oc-ctld2(127.0.0.2)\n";

static void sleep_s(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Runs a collector on a new stub with focus for seconds; if
 * job_panel_after > 0, opens a job's panel (the job report) that many
 * seconds in. The stub, which the caller frees. */
static struct stub *run(const char *config, unsigned focus, double seconds, double job_panel_after)
{
	struct stub *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	st->base.ops = &stub_ops;
	st->config = config;
	struct oc_collector_config cfg = {.backend = &st->base, .fast_s = FAST, .slow_s = SLOW, .focus = focus};
	char err[256];
	struct oc_collector *c = oc_collector_start(&cfg, err, sizeof(err));
	assert_non_null(c);
	/* Focus 0 at the start means every part (main.c passes the start
	 * view's; the screen sets it when the view opens): set it so. */
	if (!focus)
		oc_collector_set_focus(c, 0);
	if (job_panel_after > 0) {
		sleep_s(job_panel_after);
		oc_collector_set_report(c, OC_REPORT_JOB, "42", NULL);
		seconds -= job_panel_after;
	}
	sleep_s(seconds);
	assert_true(oc_collector_stop(&c));
	assert_false(st->bad_config);
	return st;
}

/* The shortest gap between two requests of what, from its request from
 * on (the first ones come at once at the start); -1 when asked for fewer
 * than min_calls times. */
static double min_gap(const struct stub *st, int what, int from, int min_calls)
{
	if (st->n[what] < min_calls)
		return -1;
	double m = 1e9;
	for (int i = from + 1; i < st->n[what]; i++) {
		double g = st->at[what][i] - st->at[what][i - 1];
		if (g < m)
			m = g;
	}
	return m;
}

static void expect_rate_from(const struct stub *st, int what, const char *name, double every, int from)
{
	double gap = min_gap(st, what, from, from + 2);
	if (gap < 0)
		fail_msg("%s: asked for %d times, want at least %d", name, st->n[what], from + 2);
	/* Never sooner than its interval (1 % for the clocks' rounding)... */
	if (gap < every * 0.99)
		fail_msg("%s: asked for again after %.3f s, want every %.2f s", name, gap, every);
	/* ...and at that rate, not the next slower one (twice it). */
	if (gap > every * 1.8)
		fail_msg("%s: at best every %.3f s, want every %.2f s", name, gap, every);
}

static void expect_rate(const struct stub *st, int what, const char *name, double every)
{
	expect_rate_from(st, what, name, every, 1);
}

static const char *const part_names[] = {"nodes", "partitions", "jobs", "reservations", "accounting", "pings"};

/* The queue view: the jobs fast; the others, neither shown nor read, at
 * the idle rate; one controller: pinged every slow interval. */
static void test_queue_one_controller(void **state)
{
	(void)state;
	struct stub *st = run(one_ctld, OC_FOCUS_QUEUE, 2 * IDLE + 1.0, 0);
	assert_true(st->n[OC_PART_JOBS] >= 20);
	for (int p = 0; p < OC_PART_COUNT; p++)
		if (p != OC_PART_JOBS)
			expect_rate(st, p, part_names[p], IDLE);
	expect_rate(st, OC_PART_COUNT, "pings (one controller)", SLOW);
	free(st);
}

/* Two controllers: pinged every medium interval (which is in control
 * can change while every request works). */
static void test_two_controllers(void **state)
{
	(void)state;
	struct stub *st = run(two_ctld, OC_FOCUS_QUEUE, 4 * SLOW + 0.2, 0);
	expect_rate(st, OC_PART_COUNT, "pings (two controllers)", MEDIUM);
	free(st);
}

/* The nodes view: the nodes fast; the jobs, reservations and partitions
 * (a node's panel lists them) at the slow rate; the accounting idle. */
static void test_nodes_view_reads(void **state)
{
	(void)state;
	struct stub *st = run(one_ctld, OC_FOCUS_NODES, 2 * IDLE + 1.0, 0);
	assert_true(st->n[OC_PART_NODES] >= 20);
	expect_rate(st, OC_PART_JOBS, "jobs", SLOW);
	expect_rate(st, OC_PART_RESV, "reservations", SLOW);
	expect_rate(st, OC_PART_PARTITIONS, "partitions", SLOW);
	expect_rate(st, OC_PART_ACCT, "accounting", IDLE);
	free(st);
}

/* A view that shows no part (the events, whose rows open a node's
 * panel): every part at the slow rate, not the idle one. */
static void test_report_view(void **state)
{
	(void)state;
	struct stub *st = run(one_ctld, 0, 5 * SLOW + 0.2, 0);
	/* (The first two may both come before the focus is set.) */
	for (int p = 0; p < OC_PART_COUNT; p++)
		expect_rate_from(st, p, part_names[p], SLOW, 2);
	free(st);
}

/* A job's panel opened on the queue view: every part at the slow rate,
 * the first of them a slow interval after its last load, not an idle one. */
static void test_job_panel(void **state)
{
	(void)state;
	double opened = SLOW / 2;
	struct stub *st = run(one_ctld, OC_FOCUS_QUEUE, opened + 4 * SLOW + 0.2, opened);
	expect_rate(st, OC_PART_ACCT, "accounting (job panel open)", SLOW);
	expect_rate(st, OC_PART_RESV, "reservations (job panel open)", SLOW);
	/* The second load came a slow interval after the first. */
	assert_true(st->n[OC_PART_ACCT] >= 2);
	double second = st->at[OC_PART_ACCT][1] - st->at[OC_PART_ACCT][0];
	if (second > SLOW * 1.8)
		fail_msg("accounting: loaded again %.3f s after the first, want %.2f s", second, SLOW);
	free(st);
}

/* A form opened on the queue view asks for the parts it reads now
 * (oc_collector_refresh_parts): those come again at once, not at the idle
 * rate; the others keep their rate. Intervals of its own (slow 2 s, idle
 * 20 s) so that a busy machine has seconds of margin: in the 1.25 s
 * watched, a part at the idle rate is asked for once. */
static void test_refresh_parts(void **state)
{
	(void)state;
	const double slow = 2.0, idle = OC_IDLE_FACTOR * slow;
	struct stub *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	st->base.ops = &stub_ops;
	st->config = one_ctld;
	struct oc_collector_config cfg = {
		.backend = &st->base, .fast_s = FAST, .slow_s = slow, .focus = OC_FOCUS_QUEUE};
	char err[256];
	struct oc_collector *c = oc_collector_start(&cfg, err, sizeof(err));
	assert_non_null(c);
	sleep_s(0.25);
	double asked = mono();
	oc_collector_refresh_parts(c, OC_MASK(OC_PART_ACCT) | OC_MASK(OC_PART_RESV));
	sleep_s(1.0);
	assert_true(oc_collector_stop(&c));
	assert_false(st->bad_config);
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if (p == OC_PART_JOBS)
			continue;
		bool wanted = p == OC_PART_ACCT || p == OC_PART_RESV;
		if (st->n[p] < 1 || st->at[p][0] >= asked)
			fail_msg("%s: not asked for at the start (%d times)", part_names[p], st->n[p]);
		if (!wanted && st->n[p] != 1)
			fail_msg("%s: asked for %d times in 1.25 s, want once (idle every %.1f s)", part_names[p],
				 st->n[p], idle);
		if (wanted && st->n[p] != 2)
			fail_msg("%s: asked for %d times, want twice (at the start, then when the form asked)",
				 part_names[p], st->n[p]);
		if (wanted && st->at[p][1] < asked)
			fail_msg("%s: asked for again before the form asked", part_names[p]);
	}
	free(st);
}

/* On a view that shows no part a due report goes before the parts: a
 * form's request that meets one is kept for the next turn, not dropped.
 * The first job report takes 0.3 s; meanwhile the window changes (the
 * report is due again) and the form asks for the accounting, so that the
 * collector finds both at once when the report ends. */
static void test_refresh_parts_report_due(void **state)
{
	(void)state;
	const double slow = 2.0;
	struct stub *st = calloc(1, sizeof(*st));
	assert_non_null(st);
	st->base.ops = &stub_ops;
	st->config = one_ctld;
	st->job_sleep = 0.3;
	struct oc_collector_config cfg = {.backend = &st->base, .fast_s = FAST, .slow_s = slow, .focus = 0};
	char err[256];
	struct oc_collector *c = oc_collector_start(&cfg, err, sizeof(err));
	assert_non_null(c);
	oc_collector_set_focus(c, 0);
	sleep_s(0.4);
	oc_collector_set_report(c, OC_REPORT_JOB, "42", NULL);
	sleep_s(0.1);
	oc_collector_set_report(c, OC_REPORT_JOB, "43", NULL);
	double asked = mono();
	oc_collector_refresh_parts(c, OC_MASK(OC_PART_ACCT));
	sleep_s(1.0);
	assert_true(oc_collector_stop(&c));
	assert_false(st->bad_config);
	assert_true(st->jobs_asked >= 2);
	/* Every part is at the slow rate (2 s) and was loaded at the start
	 * (once or twice, as the focus was set), 0.5 s before the request:
	 * a load in the second after it is the form's. */
	int after = 0;
	for (int i = 0; i < st->n[OC_PART_ACCT]; i++)
		after += st->at[OC_PART_ACCT][i] >= asked;
	if (after != 1)
		fail_msg("accounting: asked for %d times after the form's request, want once (after the report)", after);
	free(st);
}

/* Doubles within eps (cmocka's assert_float_equal compares floats, and
 * casts before it subtracts). */
#define assert_near(a, b, eps) assert_true((a) - (b) < (eps) && (b) - (a) < (eps))

/* The fast refresh on the screen's clock: lead before a multiple of the
 * interval, at least half an interval away, one interval apart once in
 * step; an interval that is not whole seconds (or a lead of half of it or
 * more) is waited as it is. */
static void test_fast_wait(void **state)
{
	(void)state;
	assert_near(oc_collector_fast_wait(100.30, 2, 0.05), 1.65, 1e-9);   /* to 101.95 */
	assert_near(oc_collector_fast_wait(101.00, 2, 0.05), 2.95, 1e-9);   /* 101.95 is too near */
	assert_near(oc_collector_fast_wait(10.20, 1, 0.05), 0.75, 1e-9);    /* to 10.95 */
	assert_near(oc_collector_fast_wait(7.0, 0.05, 0.01), 0.05, 1e-12);  /* the unit tests' FAST */
	assert_near(oc_collector_fast_wait(7.0, 2.5, 0.05), 2.5, 1e-12);
	assert_near(oc_collector_fast_wait(7.0, 2, 1.0), 2, 1e-12);
	assert_near(oc_collector_fast_wait(7.0, 2, -0.1), 2, 1e-12);
	/* In step: each refresh (taking 3 ms) is followed by one a whole
	 * interval after it started, at 0.05 before an even second. */
	double rt = 1796518000.37;
	rt += oc_collector_fast_wait(rt, 2, 0.05);
	for (int i = 0; i < 50; i++) {
		double at = rt;
		double wait = oc_collector_fast_wait(at + 0.003, 2, 0.05);
		rt = at + 0.003 + wait;
		assert_near(rt - at, 2.0, 1e-6);
		double frac = rt / 2 - (double)(long long)(rt / 2);
		assert_near(frac, 1 - 0.025, 1e-6);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_wait),
		cmocka_unit_test(test_queue_one_controller),
		cmocka_unit_test(test_two_controllers),
		cmocka_unit_test(test_nodes_view_reads),
		cmocka_unit_test(test_report_view),
		cmocka_unit_test(test_job_panel),
		cmocka_unit_test(test_refresh_parts),
		cmocka_unit_test(test_refresh_parts_report_due),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
