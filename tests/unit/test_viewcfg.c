/* test_viewcfg.c: view layout files and built-ins (core/viewcfg.h). Files
 * are written into a fresh mkdtemp directory; the shipped files are read
 * from OC_SOURCE_DIR. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/columns.h"
#include "core/datafiles.h"
#include "core/viewcfg.h"
#include "test_util.h"

#ifndef OC_SOURCE_DIR
#error "OC_SOURCE_DIR must be defined (tests/unit/CMakeLists.txt)"
#endif

/* The column ids each view can draw, as of this writing: users' views/
 * files name them, so the catalogues (core/columns.c) must keep them
 * (test_catalogue_ids). */
static const char *const partitions_cols[] = {
	"partition", "avail", "timelimit", "nodes", "alloc", "mix", "idle", "drain", "down",
	"gpus", "running", "pending",
};
static const char *const queue_cols[] = {
	"jobid", "partition", "name", "user", "account", "qos", "state", "time", "timelimit",
	"nodes", "cpus", "gpus", "priority", "reason",
};
static const char *const nodes_cols[] = {
	"node", "state", "cpus", "gpus", "mem", "partitions", "reservation", "slurmd", "by", "since",
	"ago", "reason",
};
static const char *const health_cols[] = {
	"group", "node", "state", "by", "since", "ago", "reason",
};
static const char *const quota_cols[] = {
	"account", "gpus", "bar", "running", "pending", "share", "usage", "fairshare", "blocked", "cpu", "mem", "nodes",
};
static const char *const reservations_cols[] = {
	"name", "nodes", "start", "end", "duration", "flags", "users", "accounts", "state",
};

#define VIEW(v) {#v, v##_cols, sizeof(v##_cols) / sizeof(v##_cols[0])}
static const struct {
	const char *view;
	const char *const *cols;
	size_t ncols;
} views[] = {
	VIEW(partitions), VIEW(queue), VIEW(nodes), VIEW(health), VIEW(quota), VIEW(reservations),
};
#define NVIEWS (sizeof(views) / sizeof(views[0]))
#define QUEUE queue_cols, sizeof(queue_cols) / sizeof(queue_cols[0])

static int qcol(const char *id)
{
	for (size_t i = 0; i < sizeof(queue_cols) / sizeof(queue_cols[0]); i++)
		if (strcmp(queue_cols[i], id) == 0)
			return (int)i;
	fail_msg("no column %s", id);
	return -1;
}

/* The loader of expect_error (the queue view): on -1 the layout must be
 * empty. */
static int load(const char *path, char *err, size_t errlen)
{
	struct oc_viewcfg vc;
	memset(&vc, 0x5a, sizeof(vc));
	int rc = oc_viewcfg_load(path, "queue", QUEUE, &vc, err, errlen);
	if (rc == -1) {
		assert_int_equal(vc.ncols, 0);
		assert_int_equal(vc.sort, -1);
		assert_false(vc.reverse);
		assert_string_equal(vc.name, "");
	}
	return rc;
}

/* Writes text as root/queue.json (or rel), loads it for the queue view and
 * expects -1 with a message that starts with the path and contains every
 * needle (NULL-terminated). */
#define expect_error(f, rel, ...) test_util_expect_error(f, rel, load, __VA_ARGS__)

static void assert_same(const struct oc_viewcfg *a, const struct oc_viewcfg *b)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->ncols, b->ncols);
	for (size_t i = 0; i < a->ncols; i++) {
		assert_int_equal(a->cols[i].col, b->cols[i].col);
		assert_int_equal(a->cols[i].width, b->cols[i].width);
		assert_int_equal(a->cols[i].optional, b->cols[i].optional);
	}
	assert_int_equal(a->sort, b->sort);
	assert_int_equal(a->reverse, b->reverse);
}

/* ---- the column catalogues (core/columns.h) ------------------------------- */

/* Each view's catalogue has exactly the ids above (the built-in layouts
 * and users' files name them), and every column is
 * complete: a title, a cell, a width in range, one flexible column at
 * most, no id twice. */
static void test_catalogue_ids(void **state)
{
	(void)state;
	for (size_t v = 0; v < NVIEWS; v++) {
		const struct oc_catalogue *cat = oc_catalogue_find(views[v].view);
		assert_non_null(cat);
		assert_string_equal(cat->view, views[v].view);
		assert_int_equal(cat->n, (int)views[v].ncols);
		const char *ids[64];
		assert_int_equal(oc_catalogue_ids(cat, ids, 64), views[v].ncols);
		int flexible = 0;
		for (int i = 0; i < cat->n; i++) {
			const struct oc_column *c = &cat->cols[i];
			assert_true(oc_catalogue_col(cat, views[v].cols[i]) >= 0);
			assert_string_equal(ids[i], c->id);
			assert_int_equal(oc_catalogue_col(cat, c->id), i);
			assert_true(c->title && c->title[0]);
			assert_non_null(c->cell);
			assert_true(c->width >= 0 && c->width <= OC_VIEWCFG_MAX_WIDTH);
			flexible += c->width == 0;
		}
		assert_true(flexible <= 1);
	}
	assert_null(oc_catalogue_find("audit")); /* screen-only views keep theirs */
	assert_null(oc_catalogue_find(NULL));
	assert_int_equal(oc_catalogue_col(&oc_cat_queue, "nosuch"), -1);
	assert_int_equal(oc_catalogue_col(&oc_cat_queue, NULL), -1);
}

/* The cell helpers: NULL is "", numbers in decimal, cut to the buffer. */
static void test_cell_helpers(void **state)
{
	(void)state;
	char buf[8];
	oc_cell_str(buf, sizeof(buf), NULL);
	assert_string_equal(buf, "");
	oc_cell_str(buf, sizeof(buf), "gpu-st-b300-125");
	assert_string_equal(buf, "gpu-st-");
	oc_cell_u32(buf, sizeof(buf), 0);
	assert_string_equal(buf, "0");
	oc_cell_u32(buf, sizeof(buf), 4294967295u);
	assert_string_equal(buf, "4294967");
	char big[16];
	oc_cell_u32(big, sizeof(big), 4294967295u);
	assert_string_equal(big, "4294967295");
	/* Lines as one cell line (an onboarding's commands in the audit
	 * view): joined with "; ", never a newline shown as '?'. */
	char line[128];
	oc_cell_lines(line, sizeof(line), "  sacctmgr -i add account team-c\n\n  sacctmgr -i add user carol \n");
	assert_string_equal(line, "sacctmgr -i add account team-c; sacctmgr -i add user carol");
	oc_cell_lines(line, sizeof(line), "one line");
	assert_string_equal(line, "one line");
	oc_cell_lines(line, sizeof(line), NULL);
	assert_string_equal(line, "");
	oc_cell_lines(buf, sizeof(buf), "abc\r\ndefgh");
	assert_string_equal(buf, "abc; de");
}

/* ---- shipped files -------------------------------------------------------- */

static void test_shipped_equal_builtin(void **state)
{
	(void)state;
	size_t count = 0;
	for (const char *const *n = oc_viewcfg_builtin_names(); *n; n++, count++) {
		size_t v;
		for (v = 0; v < NVIEWS && strcmp(views[v].view, *n) != 0; v++)
			;
		assert_true(v < NVIEWS);
		char path[4096], err[1024];
		struct oc_viewcfg file, builtin;
		snprintf(path, sizeof(path), "%s/views/%s.json", OC_SOURCE_DIR, *n);
		if (oc_viewcfg_load(path, *n, views[v].cols, views[v].ncols, &file, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		if (oc_viewcfg_builtin(*n, views[v].cols, views[v].ncols, &builtin, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_string_equal(file.path, path);
		assert_string_equal(builtin.path, "");
		assert_same(&file, &builtin);
		assert_true(builtin.ncols > 0);
	}
	assert_int_equal(count, NVIEWS);

	/* and through the search directories */
	struct oc_datafile_dirs d = {0};
	struct oc_viewcfg vc, builtin;
	char err[512];
	assert_int_equal(oc_datafile_dirs_add(&d, OC_SOURCE_DIR, false), 0);
	assert_int_equal(oc_viewcfg_find("queue", &d, QUEUE, &vc, err, sizeof(err)), 0);
	assert_int_equal(oc_viewcfg_builtin("queue", QUEUE, &builtin, err, sizeof(err)), 0);
	assert_same(&vc, &builtin);
}

static void test_builtin(void **state)
{
	(void)state;
	struct oc_viewcfg vc;
	char err[256];
	assert_int_equal(oc_viewcfg_builtin("queue", QUEUE, &vc, err, sizeof(err)), 0);
	assert_string_equal(vc.name, "queue");
	assert_int_equal(vc.cols[0].col, qcol("jobid"));
	assert_int_equal(vc.cols[vc.ncols - 1].col, qcol("reason"));
	assert_int_equal(vc.cols[vc.ncols - 1].width, 0);
	assert_int_equal(vc.sort, -1);
	assert_int_equal(oc_viewcfg_builtin("jobs", QUEUE, &vc, err, sizeof(err)), 1);
	test_util_assert_contains(err, "jobs");
	/* the view lost a column the table uses */
	const char *few[] = {"jobid", "user"};
	assert_int_equal(oc_viewcfg_builtin("queue", few, 2, &vc, err, sizeof(err)), -1);
	test_util_assert_contains(err, "column \"partition\" is not in the view's column list");
	assert_int_equal(vc.ncols, 0);
}

/* ---- user files -------------------------------------------------------------- */

static void test_load(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512];
	struct oc_viewcfg vc;
	test_util_write_file(f, "u/queue.json",
			     "{\"view\": \"queue\", \"columns\": [\n"
			     "  {\"id\": \"jobid\", \"width\": 10},\n"
			     "  {\"id\": \"qos\", \"width\": 6, \"optional\": true},\n"
			     "  {\"id\": \"priority\", \"width\": 8, \"optional\": false},\n"
			     "  {\"id\": \"reason\", \"width\": 0}\n"
			     "], \"sort\": \"priority\", \"reverse\": true}\n",
			     path);
	assert_int_equal(oc_viewcfg_load(path, "queue", QUEUE, &vc, err, sizeof(err)), 0);
	assert_string_equal(vc.name, "queue");
	assert_int_equal(vc.ncols, 4);
	assert_int_equal(vc.cols[1].col, qcol("qos"));
	assert_int_equal(vc.cols[1].width, 6);
	assert_true(vc.cols[1].optional);
	assert_false(vc.cols[2].optional);
	assert_int_equal(vc.sort, qcol("priority"));
	assert_true(vc.reverse);

	/* sort and reverse may be left out; no flexible column is fine; the
	 * sort column need not be shown */
	test_util_write_file(f, "v/queue.json",
			     "{\"columns\": [{\"id\": \"user\", \"width\": 200}], \"sort\": \"gpus\"}", path);
	assert_int_equal(oc_viewcfg_load(path, "queue", QUEUE, &vc, err, sizeof(err)), 0);
	assert_int_equal(vc.ncols, 1);
	assert_int_equal(vc.sort, qcol("gpus"));
	assert_false(vc.reverse);
	test_util_write_file(f, "w/queue.json", "{\"columns\": [{\"id\": \"user\", \"width\": 8}]}", path);
	assert_int_equal(oc_viewcfg_load(path, "queue", QUEUE, &vc, err, sizeof(err)), 0);
	assert_int_equal(vc.sort, -1);
}

static void test_broken(void **state)
{
	struct test_util_dir *f = *state;
	expect_error(f, "queue.json", "{\"columns\": [\n{\"id\": \"jobid\", \"width\": 8}\n", ":3:", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\" \"width\": 8}]}", ":1:", NULL);
	expect_error(f, "queue.json", "{\"columns\": {}}", "\"columns\" must be an array", NULL);
	expect_error(f, "queue.json", "{\"columns\": []}", "no \"columns\"", NULL);
	expect_error(f, "queue.json", "{\"sort\": \"user\"}", "no \"columns\"", NULL);
	expect_error(f, "queue.json", "{\"columns\": [\"jobid\"]}", "columns[0] must be an object", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": \"8\"}]}",
		     "columns[0]: \"width\" must be an integer", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8.5}]}",
		     "must be an integer", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": 3, \"width\": 8}]}",
		     "\"id\" must be a string", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8, \"optional\": 1}]}",
		     "\"optional\" must be true or false", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"width\": 8}]}", "columns[0]: no \"id\"", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\"}]}", "no \"width\"", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": -1}]}",
		     "width -1 is not between 0 and 200", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 201}]}",
		     "width 201", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"nodelist\", \"width\": 8}]}",
		     "columns[0]: unknown column \"nodelist\"", NULL);
	expect_error(f, "queue.json",
		     "{\"columns\": [{\"id\": \"jobid\", \"width\": 8}, {\"id\": \"jobid\", \"width\": 9}]}",
		     "column \"jobid\" appears twice", NULL);
	expect_error(f, "queue.json",
		     "{\"columns\": [{\"id\": \"name\", \"width\": 0}, {\"id\": \"reason\", \"width\": 0}]}",
		     "only one column may have width 0", NULL);
	expect_error(f, "queue.json",
		     "{\"columns\": [{\"id\": \"jobid\", \"width\": 8, \"title\": \"ID\"}]}",
		     "unknown key \"title\"", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8}], \"sort\": \"size\"}",
		     "\"sort\": unknown column \"size\"", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8}], \"sort\": 1}",
		     "\"sort\" must be a string", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8}], \"reverse\": \"yes\"}",
		     "\"reverse\" must be true or false", NULL);
	expect_error(f, "queue.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8}], \"group\": \"user\"}",
		     "unknown key \"group\"", NULL);
	expect_error(f, "queue.json", "{\"view\": \"nodes\", \"columns\": [{\"id\": \"jobid\", \"width\": 8}]}",
		     "\"view\" is \"nodes\"", NULL);
	/* the layout of the queue must be queue.json */
	expect_error(f, "jobs.json", "{\"columns\": [{\"id\": \"jobid\", \"width\": 8}]}",
		     "must be in a file queue.json", NULL);
}

static void test_too_many_columns(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[512], text[8192];
	static char ids[40][8];
	const char *cols[40];
	struct oc_viewcfg vc;
	size_t used = (size_t)snprintf(text, sizeof(text), "{\"columns\": [");
	for (int i = 0; i < 40; i++) {
		snprintf(ids[i], sizeof(ids[i]), "c%d", i);
		cols[i] = ids[i];
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s{\"id\": \"c%d\", \"width\": 1}",
					 i ? ", " : "", i);
	}
	snprintf(text + used, sizeof(text) - used, "]}");
	test_util_write_file(f, "wide.json", text, path);
	assert_int_equal(oc_viewcfg_load(path, "wide", cols, 40, &vc, err, sizeof(err)), -1);
	test_util_assert_contains(err, "too many columns (at most 32)");
}

static void test_find_and_permissions(void **state)
{
	struct test_util_dir *f = *state;
	char path[4096], err[1024];
	struct oc_datafile_dirs d = {0};
	struct oc_viewcfg vc;
	assert_int_equal(oc_datafile_dirs_add(&d, test_util_at(f, "user", path), true), 0);
	assert_int_equal(oc_datafile_dirs_add(&d, OC_SOURCE_DIR, false), 0);

	test_util_write_file(f, "user/views/queue.json", "{\"columns\": [{\"id\": \"user\", \"width\": 8}]}", path);
	assert_int_equal(oc_viewcfg_find("queue", &d, QUEUE, &vc, err, sizeof(err)), 0);
	assert_int_equal(vc.ncols, 1);
	test_util_assert_contains(vc.path, "/user/views/queue.json");

	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(oc_viewcfg_find("queue", &d, QUEUE, &vc, err, sizeof(err)), -1);
	test_util_assert_contains(err, "refused: writable by others (mode 0666)");
	assert_int_equal(vc.ncols, 0);

	assert_int_equal(oc_viewcfg_find("gantt", &d, QUEUE, &vc, err, sizeof(err)), 1);
	test_util_assert_contains(err, "no views/gantt.json in");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalogue_ids),
		cmocka_unit_test(test_cell_helpers),
		cmocka_unit_test(test_shipped_equal_builtin),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test_setup_teardown(test_load, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_broken, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_too_many_columns, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_find_and_permissions, test_util_setup, test_util_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
