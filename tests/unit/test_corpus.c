/* test_corpus.c: the hostile-input corpus (tests/corpus, README.md there)
 * through every file loader and every text check of the action forms.
 * - every files/KIND/NAME.json, each loaded as broken.json by KIND's loader: refused
 *   (-1 or NULL) with a message that starts with "PATH:", with "PATH:L:C: "
 *   for the syntax-* files (jansson's line and column), and nothing kept in
 *   the loader's output (empty keymap, plain theme, no columns, default
 *   profile, no checklist, empty onboarding spec).
 * - every strings/NAME: drain reasons (accepted, to reach Slurm verbatim, unless
 *   empty, blank or longer than 1024 bytes), reservation names, start
 *   times, durations, onboarding names (refused with a message), and
 *   hostlists, with every hostlists/NAME (refused with a message, through the
 *   libslurm writer's checks). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "actions/onboard.h"
#include "actions/plan.h"
#include "actions/writer.h"
#include "core/keymap.h"
#include "core/profile.h"
#include "core/theme.h"
#include "core/viewcfg.h"
#include "rehearsal/checklist.h"
#include "source/slurm_write.h"
#include "test_util.h"

#ifndef OC_SOURCE_DIR
#error "OC_SOURCE_DIR must be defined (tests/unit/CMakeLists.txt)"
#endif
#define CORPUS OC_SOURCE_DIR "/tests/corpus"

static const char *const ids[] = {"quit", "help", "move.down"};
static const char *const roles[] = {"normal", "header", "bad"};
static const char *const cols[] = {"node", "state", "reason"};

/* Reads the file at path (at most 1 MB) into a malloc'd NUL-terminated
 * buffer, its length in *len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1024 * 1024 + 1);
	assert_non_null(buf);
	*len = fread(buf, 1, 1024 * 1024, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* The sorted names of the regular files of dir; *n of them. */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	*n = 0;
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "README.md"))
			continue;
		v = realloc(v, (*n + 1) * sizeof(*v));
		assert_non_null(v);
		v[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 1; i < *n; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	assert_true(*n > 0);
	return v;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Whether err is "path:LINE:COL: text". */
static int has_line_col(const char *err, const char *path)
{
	size_t n = strlen(path);
	const char *p = err + n;
	if (strncmp(err, path, n) != 0 || *p++ != ':' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != ':' || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return p[0] == ':' && p[1] == ' ' && p[2];
}

typedef int (*loader_fn)(const char *path, char *err, size_t errlen);

static int load_profile(const char *path, char *err, size_t errlen)
{
	struct oc_profile p, def;
	int rc = oc_profile_load_file(path, &p, err, errlen);
	oc_profile_defaults(&def);
	if (rc < 0)
		assert_memory_equal(&p, &def, sizeof(p));
	return rc;
}

static int load_keymap(const char *path, char *err, size_t errlen)
{
	static struct oc_keymap km;
	int rc = oc_keymap_load(path, ids, 3, &km, err, errlen);
	if (rc < 0)
		assert_int_equal(km.n, 0);
	return rc;
}

static int load_theme(const char *path, char *err, size_t errlen)
{
	static struct oc_theme_spec th;
	int rc = oc_theme_load(path, roles, 3, &th, err, errlen);
	if (rc < 0)
		for (size_t i = 0; i < 3; i++)
			assert_true(th.role[i].fg == -1 && th.role[i].bg == -1 && th.role[i].attrs == 0);
	return rc;
}

static int load_view(const char *path, char *err, size_t errlen)
{
	static struct oc_viewcfg vc;
	int rc = oc_viewcfg_load(path, "broken", cols, 3, &vc, err, errlen);
	if (rc < 0)
		assert_int_equal(vc.ncols, 0);
	return rc;
}

static int load_checklist(const char *path, char *err, size_t errlen)
{
	struct oc_checklist *cl = oc_checklist_load(path, NULL, 0, err, errlen);
	if (!cl)
		return -1;
	oc_checklist_free(&cl);
	return 0;
}

static int load_onboard(const char *path, char *err, size_t errlen)
{
	static struct oc_onb_spec spec, empty;
	int rc = oc_onb_spec_load(path, &spec, err, errlen);
	if (rc == 0) /* a file that parses must not pass the checks */
		rc = oc_onb_spec_check(&spec, NULL, err, errlen) == 0 ? 0 : 1;
	else {
		oc_onb_spec_init(&empty);
		assert_memory_equal(&spec, &empty, sizeof(spec));
	}
	return rc;
}

/* Calls fn on the content of every file of CORPUS/sub. */
static void each_string(const char *sub, void (*fn)(const char *name, const char *s, size_t len))
{
	char dir[4096], src[8192];
	size_t n, len;
	snprintf(dir, sizeof(dir), "%s/%s", CORPUS, sub);
	char **names = list_dir(dir, &n);
	for (size_t i = 0; i < n; i++) {
		snprintf(src, sizeof(src), "%s/%s", dir, names[i]);
		char *s = slurp(src, &len);
		assert_int_equal(strlen(s), len); /* no NUL in the corpus */
		fn(names[i], s, len);
		free(s);
	}
	free_list(names, n);
}

/* The kind being checked (check_kind), for one_file. */
static struct {
	struct test_util_dir *d;
	const char *kind;
	loader_fn load;
} cur;

/* One file of files/KIND through the kind's loader, as d/broken.json. */
static void one_file(const char *name, const char *text, size_t len)
{
	char path[4096], err[8192];
	FILE *f = fopen(test_util_at(cur.d, "broken.json", path), "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	err[0] = '\0';
	int rc = cur.load(path, err, sizeof(err));
	if (rc == 0)
		print_error("%s/%s: accepted\n", cur.kind, name);
	assert_int_not_equal(rc, 0);
	if (rc < 0) { /* refused by the loader: the message names the file */
		if (strncmp(err, path, strlen(path)) != 0 || err[strlen(path)] != ':')
			print_error("%s/%s: message without the path: %s\n", cur.kind, name, err);
		assert_memory_equal(err, path, strlen(path));
		assert_int_equal(err[strlen(path)], ':');
		if (!strncmp(name, "syntax-", 7) && !has_line_col(err, path)) {
			print_error("%s/%s: no line:col: %s\n", cur.kind, name, err);
			fail();
		}
	} else { /* onboarding: parsed, refused by the checks */
		assert_true(err[0] != '\0');
	}
	assert_null(strchr(err, '\033')); /* the message does not carry escapes */
}

static void check_kind(void **state, const char *kind, loader_fn load)
{
	char sub[64];
	cur.d = *state;
	cur.kind = kind;
	cur.load = load;
	snprintf(sub, sizeof(sub), "files/%s", kind);
	each_string(sub, one_file);
}

static void test_profiles(void **state) { check_kind(state, "profile", load_profile); }
static void test_keymaps(void **state) { check_kind(state, "keymap", load_keymap); }
static void test_themes(void **state) { check_kind(state, "theme", load_theme); }
static void test_views(void **state) { check_kind(state, "view", load_view); }
static void test_checklists(void **state) { check_kind(state, "checklist", load_checklist); }
static void test_onboarding(void **state) { check_kind(state, "onboard", load_onboard); }

static int blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

static void one_form_string(const char *name, const char *s, size_t len)
{
	char err[512];
	time_t t;
	long min;

	/* A drain reason is free text: accepted verbatim unless empty, blank
	 * or too long. */
	int rc = oc_plan_check_reason(s, err, sizeof(err));
	if (len == 0 || blank(s) || len > 1024) {
		if (rc != -1)
			print_error("reason %s: accepted\n", name);
		assert_int_equal(rc, -1);
		assert_true(err[0] != '\0');
	} else {
		if (rc != 0)
			print_error("reason %s: refused: %s\n", name, err);
		assert_int_equal(rc, 0);
	}
	/* Names, times, durations: refused with a message ("" is a name
	 * Slurm chooses). */
	if (len > 0) {
		err[0] = '\0';
		if (oc_plan_check_resv_name(s, err, sizeof(err)) != -1)
			print_error("reservation name %s: accepted\n", name);
		assert_true(err[0] != '\0');
	}
	err[0] = '\0';
	assert_int_equal(oc_plan_parse_start(s, time(NULL), &t, err, sizeof(err)), -1);
	assert_true(err[0] != '\0');
	err[0] = '\0';
	assert_int_equal(oc_plan_parse_duration(s, &min, err, sizeof(err)), -1);
	assert_true(err[0] != '\0');
	assert_false(oc_onb_name_ok(s, false));
	assert_false(oc_onb_name_ok(s, true));
}

static void test_form_strings(void **state)
{
	(void)state;
	each_string("strings", one_form_string);
}

static struct oc_writer writer;

static void one_hostlist(const char *name, const char *s, size_t len)
{
	char err[512] = "";
	char **names = NULL;
	size_t n = 0;
	(void)len;
	/* 65536: the console's own limit for one update */
	int rc = writer.ops->hostlist_expand(writer.ctx, s, 65536, &names, &n, err, sizeof(err));
	if (rc != -1)
		print_error("hostlist %s: accepted (%zu names)\n", name, n);
	assert_int_equal(rc, -1);
	assert_true(err[0] != '\0');
	assert_null(names);
}

static void test_hostlists(void **state)
{
	char err[256];
	(void)state;
	assert_int_equal(oc_slurm_writer_init(&writer, err, sizeof(err)), 0);
	each_string("hostlists", one_hostlist);
	each_string("strings", one_hostlist);
	oc_slurm_writer_fini(&writer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_profiles, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_keymaps, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_themes, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_views, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_checklists, test_util_setup, test_util_teardown),
		cmocka_unit_test_setup_teardown(test_onboarding, test_util_setup, test_util_teardown),
		cmocka_unit_test(test_form_strings),
		cmocka_unit_test(test_hostlists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
