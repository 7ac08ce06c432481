/* session.c: a rehearsal's progress, saved after every change (session.h).
 * jansson objects stay in this file. */
#include "rehearsal/session.h"
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/jsonfile.h"

#define SESSION_FORMAT "opsconsole-rehearsal-progress"
#define SESSION_VERSION 1

static const char *const state_names[OC_STEP_STATE_COUNT] = {
	[OC_STEP_NOT_RUN] = "not run", [OC_STEP_RUNNING] = "running", [OC_STEP_PASSED] = "passed",
	[OC_STEP_FAILED] = "failed",   [OC_STEP_SKIPPED] = "skipped",
};
static const char *const state_tags[OC_STEP_STATE_COUNT] = {
	[OC_STEP_NOT_RUN] = "----", [OC_STEP_RUNNING] = "RUN", [OC_STEP_PASSED] = "PASS",
	[OC_STEP_FAILED] = "FAIL",  [OC_STEP_SKIPPED] = "SKIP",
};

const char *oc_step_state_name(enum oc_step_state st)
{
	return (unsigned)st < OC_STEP_STATE_COUNT ? state_names[st] : "?";
}

const char *oc_step_state_tag(enum oc_step_state st)
{
	return (unsigned)st < OC_STEP_STATE_COUNT ? state_tags[st] : "?";
}

double oc_session_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Who runs the rehearsal: the effective user's name and $SUDO_USER. */
static void session_operator(struct oc_session *s)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	uid_t uid = geteuid();
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) == 0 && res && res->pw_name && *res->pw_name)
		snprintf(s->operator_user, sizeof(s->operator_user), "%s", res->pw_name);
	else
		snprintf(s->operator_user, sizeof(s->operator_user), "uid:%lu", (unsigned long)uid);
	const char *sudo = getenv("SUDO_USER");
	snprintf(s->sudo_user, sizeof(s->sudo_user), "%s", sudo && *sudo ? sudo : "");
}

static void rec_free_lists(struct oc_step_rec *r)
{
	free(r->jobs);
	free(r->submits);
	for (size_t i = 0; i < r->nresv; i++)
		free(r->resv[i]);
	free(r->resv);
	for (size_t i = 0; i < r->nundrain; i++)
		free(r->undrain[i]);
	free(r->undrain);
	r->jobs = NULL;
	r->submits = NULL;
	r->resv = r->undrain = NULL;
	r->njobs = r->nsubmits = r->nresv = r->nundrain = 0;
}

void oc_step_rec_clear_run(struct oc_step_rec *r)
{
	rec_free_lists(r);
	free(r->evidence);
	r->evidence = NULL;
	r->state = OC_STEP_NOT_RUN;
	r->started = r->ended = 0;
	r->by[0] = '\0';
}

int oc_step_rec_set_evidence(struct oc_step_rec *r, const char *text)
{
	char *copy = NULL;
	if (text && !(copy = strdup(text)))
		return -1;
	free(r->evidence);
	r->evidence = copy;
	return 0;
}

int oc_step_rec_add_note(struct oc_step_rec *r, const char *note)
{
	if (!note || !*note)
		return 0;
	size_t old = r->notes ? strlen(r->notes) : 0;
	char *n = realloc(r->notes, old + strlen(note) + 2);
	if (!n)
		return -1;
	if (old)
		n[old++] = '\n';
	strcpy(n + old, note);
	r->notes = n;
	return 0;
}

struct oc_step_job *oc_step_rec_add_job(struct oc_step_rec *r, const char *label, uint32_t id)
{
	struct oc_step_job *n = realloc(r->jobs, (r->njobs + 1) * sizeof(*n));
	if (!n)
		return NULL;
	r->jobs = n;
	struct oc_step_job *j = &n[r->njobs++];
	memset(j, 0, sizeof(*j));
	snprintf(j->label, sizeof(j->label), "%s", label ? label : "");
	j->id = id;
	return j;
}

struct oc_step_submit *oc_step_rec_add_submit(struct oc_step_rec *r, const char *label, int result,
					      uint32_t job_id, const char *text)
{
	struct oc_step_submit *n = realloc(r->submits, (r->nsubmits + 1) * sizeof(*n));
	if (!n)
		return NULL;
	r->submits = n;
	struct oc_step_submit *sb = &n[r->nsubmits++];
	memset(sb, 0, sizeof(*sb));
	snprintf(sb->label, sizeof(sb->label), "%s", label ? label : "");
	sb->result = result;
	sb->job_id = job_id;
	snprintf(sb->text, sizeof(sb->text), "%s", text ? text : "");
	return sb;
}

int oc_step_rec_push(char ***list, size_t *n, const char *s)
{
	char **nl = realloc(*list, (*n + 1) * sizeof(*nl));
	if (!nl)
		return -1;
	*list = nl;
	if (!(nl[*n] = strdup(s)))
		return -1;
	(*n)++;
	return 0;
}

const struct oc_step_job *oc_step_rec_job(const struct oc_step_rec *r, const char *label)
{
	for (size_t i = 0; r && label && i < r->njobs; i++)
		if (strcmp(r->jobs[i].label, label) == 0)
			return &r->jobs[i];
	return NULL;
}

struct oc_session *oc_session_new(const struct oc_checklist *cl, const char *cluster, const char *path)
{
	struct oc_session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->steps = calloc(cl->nsteps ? cl->nsteps : 1, sizeof(*s->steps));
	if (!s->steps) {
		free(s);
		return NULL;
	}
	s->nsteps = cl->nsteps;
	for (size_t i = 0; i < cl->nsteps; i++)
		snprintf(s->steps[i].id, sizeof(s->steps[i].id), "%s", cl->steps[i].id);
	snprintf(s->path, sizeof(s->path), "%s", path ? path : "");
	snprintf(s->cluster, sizeof(s->cluster), "%s", cluster ? cluster : "");
	snprintf(s->checklist_name, sizeof(s->checklist_name), "%s", cl->name);
	snprintf(s->checklist_path, sizeof(s->checklist_path), "%s", cl->path ? cl->path : "");
	s->checklist_digest = cl->digest;
	s->created = s->updated = oc_session_now();
	session_operator(s);
	return s;
}

void oc_session_free(struct oc_session **s)
{
	if (!s || !*s)
		return;
	for (size_t i = 0; i < (*s)->nsteps; i++) {
		oc_step_rec_clear_run(&(*s)->steps[i]);
		free((*s)->steps[i].notes);
	}
	free((*s)->steps);
	free(*s);
	*s = NULL;
}

size_t oc_session_next(const struct oc_session *s)
{
	for (size_t i = 0; i < s->nsteps; i++)
		if (s->steps[i].state == OC_STEP_NOT_RUN || s->steps[i].state == OC_STEP_RUNNING)
			return i;
	return s->nsteps;
}

size_t oc_session_count(const struct oc_session *s, enum oc_step_state st)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		n += s->steps[i].state == st;
	return n;
}

/* ---- JSON -------------------------------------------------------------- */

/* json_object_set_new that ignores a NULL value (ENOMEM is checked once
 * at the end through the dump). */
static void js_set(json_t *o, const char *k, json_t *v)
{
	if (v)
		json_object_set_new(o, k, v);
}

static json_t *js_strlist(char **v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *rec_to_json(const struct oc_step_rec *r)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	js_set(o, "id", json_string(r->id));
	js_set(o, "state", json_string(oc_step_state_name(r->state)));
	js_set(o, "started", json_real(r->started));
	js_set(o, "ended", json_real(r->ended));
	js_set(o, "by", json_string(r->by));
	if (r->evidence)
		js_set(o, "evidence", json_string(r->evidence));
	if (r->notes)
		js_set(o, "notes", json_string(r->notes));
	json_t *jobs = json_array();
	for (size_t i = 0; jobs && i < r->njobs; i++) {
		const struct oc_step_job *j = &r->jobs[i];
		json_t *jo = json_object();
		js_set(jo, "label", json_string(j->label));
		js_set(jo, "id", json_integer(j->id));
		js_set(jo, "recorded", json_boolean(j->recorded));
		js_set(jo, "seen_running", json_boolean(j->seen_running));
		js_set(jo, "first_start", json_integer(j->first_start));
		js_set(jo, "nodes", json_string(j->nodes));
		js_set(jo, "cancelled", json_boolean(j->cancelled));
		json_array_append_new(jobs, jo);
	}
	js_set(o, "jobs", jobs);
	json_t *subs = json_array();
	for (size_t i = 0; subs && i < r->nsubmits; i++) {
		const struct oc_step_submit *sb = &r->submits[i];
		json_t *so = json_object();
		js_set(so, "label", json_string(sb->label));
		js_set(so, "result", json_string(sb->result == 0 ? "accepted" : sb->result == 1 ? "refused" : "error"));
		js_set(so, "job_id", json_integer(sb->job_id));
		js_set(so, "text", json_string(sb->text));
		json_array_append_new(subs, so);
	}
	js_set(o, "submits", subs);
	js_set(o, "reservations", js_strlist(r->resv, r->nresv));
	js_set(o, "undrain", js_strlist(r->undrain, r->nundrain));
	return o;
}

char *oc_session_to_json(const struct oc_session *s)
{
	json_t *root = json_object();
	if (!root)
		return NULL;
	char digest[32];
	snprintf(digest, sizeof(digest), "%016" PRIx64, s->checklist_digest);
	js_set(root, "format", json_string(SESSION_FORMAT));
	js_set(root, "version", json_integer(SESSION_VERSION));
	js_set(root, "cluster", json_string(s->cluster));
	js_set(root, "checklist", json_string(s->checklist_name));
	js_set(root, "checklist_path", json_string(s->checklist_path));
	js_set(root, "checklist_digest", json_string(digest));
	js_set(root, "operator", json_string(s->operator_user));
	js_set(root, "sudo_user", json_string(s->sudo_user));
	js_set(root, "created", json_real(s->created));
	js_set(root, "updated", json_real(s->updated));
	json_t *steps = json_array();
	for (size_t i = 0; steps && i < s->nsteps; i++)
		json_array_append_new(steps, rec_to_json(&s->steps[i]));
	js_set(root, "steps", steps);
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return text;
}

/* mkdir -p of path's directory, 0700 for the parts it makes. Returns 0
 * or -1 with errno. */
static int session_mkdirs(const char *path)
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(dir, 0700) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int oc_session_write_json(const char *path, const char *text, mode_t mode, char *err, size_t errlen)
{
	size_t n = strlen(text);
	char *t = malloc(n + 2);
	if (!t) {
		oc_seterr(err, errlen, "%s: out of memory", path);
		return -1;
	}
	memcpy(t, text, n);
	t[n] = '\n';
	t[n + 1] = '\0';
	int rc = oc_session_write_file(path, t, mode, err, errlen);
	free(t);
	return rc;
}

int oc_session_write_file(const char *path, const char *text, mode_t mode, char *err, size_t errlen)
{
	char tmp[4200];
	if (session_mkdirs(path) < 0) {
		oc_seterr(err, errlen, "%s: cannot make its directory: %s", path, strerror(errno));
		return -1;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= sizeof(tmp)) {
		oc_seterr(err, errlen, "%s: path too long", path);
		return -1;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0) {
		oc_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			oc_seterr(err, errlen, "%s: write: %s", tmp, n < 0 ? strerror(errno) : "short write");
			close(fd);
			unlink(tmp);
			return -1;
		}
		off += (size_t)n;
	}
	if (fsync(fd) < 0 && errno != EINVAL && errno != EROFS) {
		oc_seterr(err, errlen, "%s: fsync: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		oc_seterr(err, errlen, "%s: rename: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int oc_session_save(struct oc_session *s, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	s->updated = oc_session_now();
	if (!s->path[0])
		return 0;
	char *text = oc_session_to_json(s);
	if (!text) {
		oc_seterr(err, errlen, "%s: out of memory", s->path);
		return -1;
	}
	int rc = oc_session_write_json(s->path, text, 0600, err, errlen);
	free(text);
	return rc;
}

/* ---- loading ----------------------------------------------------------- */

static const char *js_str(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double js_num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : 0;
}

/* Reads one step record of the file into r. Returns 0, -1 on a bad
 * record (err) or ENOMEM. */
static int rec_from_json(const char *path, json_t *o, struct oc_step_rec *r, char *err, size_t errlen)
{
	const char *st = js_str(o, "state");
	int found = -1;
	for (int i = 0; st && i < OC_STEP_STATE_COUNT; i++)
		if (strcmp(state_names[i], st) == 0)
			found = i;
	if (found < 0) {
		oc_seterr(err, errlen, "%s: step \"%s\": unknown state \"%s\"", path, r->id, st ? st : "(none)");
		return -1;
	}
	r->state = (enum oc_step_state)found;
	r->started = js_num(o, "started");
	r->ended = js_num(o, "ended");
	snprintf(r->by, sizeof(r->by), "%s", js_str(o, "by") ? js_str(o, "by") : "");
	if ((js_str(o, "evidence") && oc_step_rec_set_evidence(r, js_str(o, "evidence")) < 0) ||
	    (js_str(o, "notes") && oc_step_rec_add_note(r, js_str(o, "notes")) < 0))
		goto oom;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(o, "jobs"), i, v) {
		json_t *idv = json_object_get(v, "id");
		if (!json_is_integer(idv))
			continue;
		struct oc_step_job *j = oc_step_rec_add_job(r, js_str(v, "label"), (uint32_t)json_integer_value(idv));
		if (!j)
			goto oom;
		j->recorded = json_is_true(json_object_get(v, "recorded"));
		j->seen_running = json_is_true(json_object_get(v, "seen_running"));
		j->first_start = (long long)js_num(v, "first_start");
		snprintf(j->nodes, sizeof(j->nodes), "%s", js_str(v, "nodes") ? js_str(v, "nodes") : "");
		j->cancelled = json_is_true(json_object_get(v, "cancelled"));
	}
	json_array_foreach(json_object_get(o, "submits"), i, v) {
		const char *res = js_str(v, "result");
		int result = res && strcmp(res, "accepted") == 0 ? 0 : res && strcmp(res, "refused") == 0 ? 1 : -1;
		if (!oc_step_rec_add_submit(r, js_str(v, "label"), result, (uint32_t)js_num(v, "job_id"),
					    js_str(v, "text")))
			goto oom;
	}
	json_array_foreach(json_object_get(o, "reservations"), i, v)
		if (json_is_string(v) && oc_step_rec_push(&r->resv, &r->nresv, json_string_value(v)) < 0)
			goto oom;
	json_array_foreach(json_object_get(o, "undrain"), i, v)
		if (json_is_string(v) && oc_step_rec_push(&r->undrain, &r->nundrain, json_string_value(v)) < 0)
			goto oom;
	return 0;
oom:
	oc_seterr(err, errlen, "%s: out of memory", path);
	return -1;
}

int oc_session_open(const struct oc_checklist *cl, const char *cluster, const char *path, bool reset,
		    struct oc_session **out, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	*out = NULL;
	struct oc_session *s = oc_session_new(cl, cluster, path);
	if (!s) {
		oc_seterr(err, errlen, "out of memory");
		return -1;
	}
	struct stat stt;
	if (reset || !path || !*path || stat(path, &stt) < 0) {
		if (!reset && path && *path && errno != ENOENT) {
			oc_seterr(err, errlen, "%s: %s", path, strerror(errno));
			oc_session_free(&s);
			return -1;
		}
		*out = s;
		return 0;
	}
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		oc_jsonfile_syntax_err(err, errlen, path, jerr.line, jerr.column, jerr.text);
		goto fail;
	}
	const char *fmt = js_str(root, "format");
	if (!json_is_object(root) || !fmt || strcmp(fmt, SESSION_FORMAT) != 0 ||
	    json_integer_value(json_object_get(root, "version")) != SESSION_VERSION) {
		oc_seterr(err, errlen, "%s: not a rehearsal progress file of version %d", path, SESSION_VERSION);
		goto fail;
	}
	const char *fc = js_str(root, "cluster"), *fl = js_str(root, "checklist");
	if (!fc || strcmp(fc, s->cluster) != 0) {
		oc_seterr(err, errlen, "%s: progress of cluster \"%s\", not \"%s\" (use another --progress file, or --reset)",
			    path, fc ? fc : "?", s->cluster);
		goto fail;
	}
	if (!fl || strcmp(fl, s->checklist_name) != 0) {
		oc_seterr(err, errlen, "%s: progress of checklist \"%s\", not \"%s\" (use another --progress file, or --reset)",
			    path, fl ? fl : "?", s->checklist_name);
		goto fail;
	}
	if (js_str(root, "operator"))
		snprintf(s->operator_user, sizeof(s->operator_user), "%s", js_str(root, "operator"));
	if (js_str(root, "sudo_user"))
		snprintf(s->sudo_user, sizeof(s->sudo_user), "%s", js_str(root, "sudo_user"));
	if (js_num(root, "created") > 0)
		s->created = js_num(root, "created");
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(root, "steps"), i, v) {
		const char *id = js_str(v, "id");
		long at = oc_checklist_find(cl, id);
		if (at < 0)
			continue;    /* a step the checklist no longer has */
		struct oc_step_rec *r = &s->steps[at];
		if (rec_from_json(path, v, r, err, errlen) < 0)
			goto fail;
		if (r->state == OC_STEP_RUNNING) {
			r->state = OC_STEP_NOT_RUN;
			r->ended = 0;
			oc_step_rec_add_note(r, "interrupted: the session that ran this step ended before it finished");
		}
	}
	json_decref(root);
	s->resumed = true;
	*out = s;
	return 0;
fail:
	json_decref(root);
	oc_session_free(&s);
	return -1;
}

int oc_session_mark(struct oc_session *s, size_t i, enum oc_step_state st, const char *note,
		    const char *by, char *err, size_t errlen)
{
	if (i >= s->nsteps || (unsigned)st >= OC_STEP_STATE_COUNT) {
		oc_seterr(err, errlen, "no step %zu", i);
		return -1;
	}
	struct oc_step_rec *r = &s->steps[i];
	double now = oc_session_now();
	r->state = st;
	if (st == OC_STEP_NOT_RUN) {
		r->ended = 0;
	} else {
		if (!r->started)
			r->started = now;
		r->ended = st == OC_STEP_RUNNING ? 0 : now;
	}
	snprintf(r->by, sizeof(r->by), "%s", by ? by : "");
	if (note && *note && oc_step_rec_add_note(r, note) < 0) {
		oc_seterr(err, errlen, "out of memory");
		return -1;
	}
	return oc_session_save(s, err, errlen);
}

int oc_session_note(struct oc_session *s, size_t i, const char *note, char *err, size_t errlen)
{
	if (i >= s->nsteps) {
		oc_seterr(err, errlen, "no step %zu", i);
		return -1;
	}
	if (oc_step_rec_add_note(&s->steps[i], note) < 0) {
		oc_seterr(err, errlen, "out of memory");
		return -1;
	}
	return oc_session_save(s, err, errlen);
}
