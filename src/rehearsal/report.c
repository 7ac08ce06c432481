/* report.c: the rehearsal report in Markdown and JSON (report.h). */
#include "rehearsal/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* A growing string. */
struct rbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void rb_add(struct rbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rb_add(struct rbuf *b, const char *fmt, ...)
{
	if (b->oom)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 4096);
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Text for a Markdown table cell: one line, '|' escaped, cut at max. */
static void rb_cell(struct rbuf *b, const char *text, size_t max)
{
	size_t n = 0;
	for (const char *p = text ? text : ""; *p && *p != '\n'; p++, n++) {
		if (n >= max) {
			rb_add(b, "…");
			return;
		}
		if (*p == '|')
			rb_add(b, "\\|");
		else if (*p == '\r' || *p == '\t')
			rb_add(b, " ");
		else
			rb_add(b, "%c", *p);
	}
}

const char *oc_report_time(double t, char *buf, size_t len)
{
	buf[0] = '\0';
	if (t <= 0)
		return buf;
	time_t tt = (time_t)t;
	struct tm tm;
	if (localtime_r(&tt, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%S%z", &tm);
	return buf;
}

static double rec_duration(const struct oc_step_rec *r)
{
	return r->started > 0 && r->ended >= r->started ? r->ended - r->started : 0;
}

static const char *fmt_duration(double d, char *buf, size_t len)
{
	if (d < 60)
		snprintf(buf, len, "%.1f s", d);
	else if (d < 3600)
		snprintf(buf, len, "%dm %02ds", (int)d / 60, (int)d % 60);
	else
		snprintf(buf, len, "%dh %02dm", (int)d / 3600, ((int)d / 60) % 60);
	return buf;
}

static const char *result_word(enum oc_step_state st)
{
	switch (st) {
	case OC_STEP_PASSED: return "PASS";
	case OC_STEP_FAILED: return "FAIL";
	case OC_STEP_SKIPPED: return "SKIP";
	case OC_STEP_RUNNING: return "RUNNING";
	default: return "NOT RUN";
	}
}

/* First and last times of the session's steps. */
static void session_span(const struct oc_session *s, double *first, double *last)
{
	*first = *last = 0;
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct oc_step_rec *r = &s->steps[i];
		if (r->started > 0 && (!*first || r->started < *first))
			*first = r->started;
		if (r->ended > *last)
			*last = r->ended;
	}
}

/* The title and the table of what was rehearsed, when, by whom and with
 * what result. */
static void md_header(struct rbuf *b, const struct oc_session *s, const struct oc_checklist *cl, time_t now)
{
	char t1[40], t2[40], t3[40];
	double first, last;
	session_span(s, &first, &last);
	if (cl && cl->stop_on_failure && cl->title) /* a procedure (the change window), not a rehearsal */
		rb_add(b, "# %s: %s\n\n", cl->title, s->cluster);
	else
		rb_add(b, "# Failure rehearsal: %s\n\n", s->cluster);
	rb_add(b, "| | |\n|---|---|\n");
	rb_add(b, "| Cluster | %s |\n", s->cluster);
	rb_add(b, "| Checklist | ");
	if (cl && cl->title && strncmp(cl->title, s->checklist_name, strlen(s->checklist_name)) == 0)
		rb_cell(b, cl->title, 200);
	else if (cl && cl->title && strcmp(cl->title, s->checklist_name) != 0)
		rb_add(b, "%s: ", s->checklist_name), rb_cell(b, cl->title, 200);
	else
		rb_add(b, "%s", s->checklist_name);
	rb_add(b, " (`");
	rb_cell(b, s->checklist_path, 400);
	rb_add(b, "`) |\n");
	if (cl && cl->notice) {
		rb_add(b, "| Note | ");
		rb_cell(b, cl->notice, 600);
		rb_add(b, " |\n");
	}
	rb_add(b, "| Date | %s |\n", oc_report_time((double)now, t1, sizeof(t1)));
	rb_add(b, "| Started | %s |\n| Last step ended | %s |\n", oc_report_time(first ? first : s->created, t2, sizeof(t2)),
	       last ? oc_report_time(last, t3, sizeof(t3)) : "-");
	rb_add(b, "| Operator | %s%s%s%s |\n", s->operator_user, s->sudo_user[0] ? " (sudo from " : "", s->sudo_user,
	       s->sudo_user[0] ? ")" : "");
	rb_add(b, "| Result | %zu passed, %zu failed, %zu skipped, %zu not run (of %zu) |\n\n",
	       oc_session_count(s, OC_STEP_PASSED), oc_session_count(s, OC_STEP_FAILED),
	       oc_session_count(s, OC_STEP_SKIPPED),
	       oc_session_count(s, OC_STEP_NOT_RUN) + oc_session_count(s, OC_STEP_RUNNING), s->nsteps);
}

/* One row per step: result, time and evidence, cut to fit a table. */
static void md_summary(struct rbuf *b, const struct oc_session *s, const struct oc_checklist *cl)
{
	char dur[32];
	rb_add(b, "## Summary\n\n| # | Step | Result | Time | Evidence |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct oc_step_rec *r = &s->steps[i];
		const struct oc_step *st = cl && i < cl->nsteps ? &cl->steps[i] : NULL;
		rb_add(b, "| %zu | `%s` ", i + 1, r->id);
		rb_cell(b, st ? st->title : "", 120);
		rb_add(b, " | %s | %s | ", result_word(r->state),
		       r->started > 0 && r->ended > 0 ? fmt_duration(rec_duration(r), dur, sizeof(dur)) : "-");
		rb_cell(b, r->evidence, 160);
		rb_add(b, " |\n");
	}
}

/* Step i in full (st is its checklist entry, NULL when the checklist is
 * not at hand): what it is, when it ran, its jobs, evidence and notes. */
static void md_step(struct rbuf *b, size_t i, const struct oc_step_rec *r, const struct oc_step *st)
{
	char t1[40], dur[32];
	rb_add(b, "\n#### %zu. `%s`: %s: %s\n\n", i + 1, r->id, st ? st->title : "", result_word(r->state));
	if (st) {
		rb_add(b, "- Kind: %s\n", st->automatic ? "automatic" : "manual (operator)");
		rb_add(b, "- Why: %s\n", st->why);
		if (st->runbook) /* a file: UTF-8 whatever the locale */
			rb_add(b, "- Runbook: %s\n", st->runbook);
		if (st->todo[0])
			rb_add(b, "- Do: %s\n", st->todo);
		rb_add(b, "- Observe: %s\n", st->observe);
	}
	if (r->started > 0)
		rb_add(b, "- Started: %s\n", oc_report_time(r->started, t1, sizeof(t1)));
	if (r->ended > 0)
		rb_add(b, "- Ended: %s (%s)%s%s\n", oc_report_time(r->ended, t1, sizeof(t1)),
		       fmt_duration(rec_duration(r), dur, sizeof(dur)), r->by[0] ? ", verdict by " : "", r->by);
	if (r->njobs) {
		rb_add(b, "- Jobs:");
		for (size_t k = 0; k < r->njobs; k++)
			rb_add(b, "%s %u (%s%s)", k ? "," : "", r->jobs[k].id, r->jobs[k].label,
			       r->jobs[k].recorded ? ", recorded" : r->jobs[k].cancelled ? ", cancelled" : "");
		rb_add(b, "\n");
	}
	if (r->evidence) {
		rb_add(b, "- Evidence:\n\n```\n%s\n```\n", r->evidence);
	}
	if (r->notes) {
		rb_add(b, "- Notes:\n");
		for (const char *p = r->notes; *p;) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			rb_add(b, "  - %.*s\n", (int)n, p);
			p = e ? e + 1 : p + n;
		}
	}
}

char *oc_report_markdown(const struct oc_session *s, const struct oc_checklist *cl, time_t now)
{
	struct rbuf b = {0};
	md_header(&b, s, cl, now);
	md_summary(&b, s, cl);
	rb_add(&b, "\n## Steps\n");
	const char *section = NULL;
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct oc_step *st = cl && i < cl->nsteps ? &cl->steps[i] : NULL;
		/* A section heading where the section changes. */
		if (st && st->section && (!section || strcmp(section, st->section) != 0)) {
			section = st->section;
			rb_add(&b, "\n### %s\n", section);
		}
		md_step(&b, i, &s->steps[i], st);
	}
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

static void js_set(json_t *o, const char *k, json_t *v)
{
	if (v)
		json_object_set_new(o, k, v);
}

static json_t *js_time(double t)
{
	char buf[40];
	return t > 0 ? json_string(oc_report_time(t, buf, sizeof(buf))) : json_null();
}

char *oc_report_json(const struct oc_session *s, const struct oc_checklist *cl, time_t now)
{
	json_t *root = json_object();
	if (!root)
		return NULL;
	double first, last;
	session_span(s, &first, &last);
	char digest[32];
	snprintf(digest, sizeof(digest), "%016llx", (unsigned long long)s->checklist_digest);
	js_set(root, "format", json_string("opsconsole-rehearsal-report"));
	js_set(root, "version", json_integer(1));
	js_set(root, "cluster", json_string(s->cluster));
	json_t *clo = json_object();
	js_set(clo, "name", json_string(s->checklist_name));
	if (cl && cl->title)
		js_set(clo, "title", json_string(cl->title));
	js_set(clo, "path", json_string(s->checklist_path));
	js_set(clo, "digest", json_string(digest));
	if (cl && cl->notice)
		js_set(clo, "notice", json_string(cl->notice));
	js_set(root, "checklist", clo);
	js_set(root, "date", js_time((double)now));
	js_set(root, "started", js_time(first ? first : s->created));
	js_set(root, "finished", js_time(last));
	json_t *op = json_object();
	js_set(op, "user", json_string(s->operator_user));
	js_set(op, "sudo_user", s->sudo_user[0] ? json_string(s->sudo_user) : json_null());
	js_set(root, "operator", op);
	json_t *sum = json_object();
	js_set(sum, "steps", json_integer((json_int_t)s->nsteps));
	js_set(sum, "passed", json_integer((json_int_t)oc_session_count(s, OC_STEP_PASSED)));
	js_set(sum, "failed", json_integer((json_int_t)oc_session_count(s, OC_STEP_FAILED)));
	js_set(sum, "skipped", json_integer((json_int_t)oc_session_count(s, OC_STEP_SKIPPED)));
	js_set(sum, "not_run", json_integer((json_int_t)(oc_session_count(s, OC_STEP_NOT_RUN) +
							 oc_session_count(s, OC_STEP_RUNNING))));
	js_set(root, "summary", sum);
	json_t *steps = json_array();
	for (size_t i = 0; steps && i < s->nsteps; i++) {
		const struct oc_step_rec *r = &s->steps[i];
		const struct oc_step *st = cl && i < cl->nsteps ? &cl->steps[i] : NULL;
		json_t *o = json_object();
		if (!o)
			continue;
		js_set(o, "id", json_string(r->id));
		if (st) {
			js_set(o, "title", json_string(st->title));
			js_set(o, "section", st->section ? json_string(st->section) : json_null());
			js_set(o, "automatic", json_boolean(st->automatic));
			js_set(o, "why", json_string(st->why));
			js_set(o, "runbook", st->runbook ? json_string(st->runbook) : json_null());
			js_set(o, "do", json_string(st->todo));
			js_set(o, "observe", json_string(st->observe));
		}
		js_set(o, "result", json_string(oc_step_state_name(r->state)));
		js_set(o, "by", r->by[0] ? json_string(r->by) : json_null());
		js_set(o, "started", js_time(r->started));
		js_set(o, "ended", js_time(r->ended));
		js_set(o, "duration_s", r->started > 0 && r->ended > 0 ? json_real(rec_duration(r)) : json_null());
		js_set(o, "evidence", r->evidence ? json_string(r->evidence) : json_null());
		js_set(o, "notes", r->notes ? json_string(r->notes) : json_null());
		json_t *jobs = json_array();
		for (size_t k = 0; jobs && k < r->njobs; k++) {
			json_t *jo = json_object();
			js_set(jo, "label", json_string(r->jobs[k].label));
			js_set(jo, "id", json_integer(r->jobs[k].id));
			js_set(jo, "recorded", json_boolean(r->jobs[k].recorded));
			js_set(jo, "cancelled", json_boolean(r->jobs[k].cancelled));
			json_array_append_new(jobs, jo);
		}
		js_set(o, "jobs", jobs);
		json_array_append_new(steps, o);
	}
	js_set(root, "steps", steps);
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return text;
}

int oc_report_write(const char *dir, const struct oc_session *s, const struct oc_checklist *cl, time_t now,
		    char *err, size_t errlen)
{
	char path[4200];
	char *md = oc_report_markdown(s, cl, now), *js = oc_report_json(s, cl, now);
	int rc = -1;
	if (!md || !js) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/report.md", dir);
	if (oc_session_write_file(path, md, 0644, err, errlen) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/report.json", dir);
	if (oc_session_write_json(path, js, 0644, err, errlen) < 0)
		goto out;
	rc = 0;
out:
	free(md);
	free(js);
	return rc;
}
