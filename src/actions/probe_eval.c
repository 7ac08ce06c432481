/* probe_eval.c: a node probe's output against what its check wants, and
 * the drain reason made from the failures. Pure. */
#include "actions/probe_eval.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/plan.h"
#include "core/strbuf.h"

static bool eval_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* s trimmed of white space at both ends: start and length. */
static const char *eval_trim(const char *s, size_t *len)
{
	if (!s)
		s = "";
	while (eval_space(*s))
		s++;
	size_t n = strlen(s);
	while (n && eval_space(s[n - 1]))
		n--;
	*len = n;
	return s;
}

/* How many bytes of s (n bytes) fit in max without cutting a UTF-8
 * character. */
static size_t eval_fit(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	size_t k = max;
	while (k && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	return k;
}

/* Copy n bytes of s into out for display: each run of control
 * characters (line breaks, tabs, escapes) becomes one space, cut (at a
 * character) to fit. */
static void eval_display(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;
	bool in_ctl = false;
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f) {
			if (!in_ctl)
				out[o++] = ' ';
			in_ctl = true;
			continue;
		}
		in_ctl = false;
		if (c >= 0x80 && (c & 0xc0) != 0x80) {
			/* A lead byte: copy the character whole or not at all. */
			size_t cl = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
			if (o + cl + 1 > len)
				break;
			for (size_t k = 0; k < cl && i + k < n; k++)
				out[o++] = s[i + k];
			i += cl - 1;
			continue;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
}

/* A number as the check wrote it: 90, 0.5. */
static void eval_num(double v, char *out, size_t len)
{
	snprintf(out, len, "%.15g", v);
}

/* The first line of errout, trimmed, for an error text. */
static void eval_first_line(const char *errout, char *out, size_t len)
{
	size_t n;
	const char *s = eval_trim(errout, &n);
	const char *nl = memchr(s, '\n', n);
	if (nl)
		n = (size_t)(nl - s);
	eval_display(s, n, out, len);
}

enum oc_probe_verdict oc_probe_eval_check(const struct oc_probe_check *c, const char *output, const char *errout,
					  int exit_status, struct oc_probe_check_result *r)
{
	memset(r, 0, sizeof(*r));
	size_t n;
	const char *s = eval_trim(output, &n);
	eval_display(s, eval_fit(s, n, sizeof(r->value) - 1), r->value, sizeof(r->value));
	if (exit_status != 0) {
		char line[160];
		eval_first_line(errout, line, sizeof(line));
		r->verdict = OC_PROBE_ERROR;
		if (exit_status == OC_PROBE_EXIT_TIMED_OUT)
			snprintf(r->text, sizeof(r->text), "timed out");
		else if (exit_status == OC_PROBE_EXIT_SIGNALED)
			snprintf(r->text, sizeof(r->text), "killed by a signal%s%s", line[0] ? ": " : "", line);
		else
			snprintf(r->text, sizeof(r->text), "exit %d%s%s", exit_status, line[0] ? ": " : "", line);
		return r->verdict;
	}
	if (c->has_expect) {
		size_t el = strlen(c->expect);
		if (el != n || memcmp(c->expect, s, n) != 0) {
			r->verdict = OC_PROBE_FAILED;
			if (!n)
				snprintf(r->text, sizeof(r->text), "no output, want \"%s\"", c->expect);
			else if (!el)
				snprintf(r->text, sizeof(r->text), "%s, want no output", r->value);
			else
				snprintf(r->text, sizeof(r->text), "%.120s, want %.120s", r->value, c->expect);
			return r->verdict;
		}
	}
	if (c->has_min || c->has_max) {
		char lo[32] = "", hi[32] = "", want[96];
		if (c->has_min)
			eval_num(c->min, lo, sizeof(lo));
		if (c->has_max)
			eval_num(c->max, hi, sizeof(hi));
		if (c->has_min && c->has_max)
			snprintf(want, sizeof(want), "a number from %s to %s", lo, hi);
		else if (c->has_min)
			snprintf(want, sizeof(want), "a number of at least %s", lo);
		else
			snprintf(want, sizeof(want), "a number of at most %s", hi);
		char num[128];
		memcpy(num, s, n < sizeof(num) - 1 ? n : sizeof(num) - 1);
		num[n < sizeof(num) - 1 ? n : sizeof(num) - 1] = '\0';
		char *end = NULL;
		errno = 0;
		double v = n && n < sizeof(num) - 1 ? strtod(num, &end) : 0;
		if (!n) {
			r->verdict = OC_PROBE_FAILED;
			snprintf(r->text, sizeof(r->text), "no output, want %s", want);
			return r->verdict;
		}
		/* Decimal only: strtod would also take hex, "inf" and "nan". */
		bool decimal = strspn(num, "0123456789.+-eE") == strlen(num);
		if (!decimal || n >= sizeof(num) - 1 || !end || *end || end == num || errno == ERANGE ||
		    !isfinite(v)) {
			r->verdict = OC_PROBE_FAILED;
			snprintf(r->text, sizeof(r->text), "not a number: \"%.100s\", want %s", r->value, want);
			return r->verdict;
		}
		if (c->has_min && v < c->min) {
			r->verdict = OC_PROBE_FAILED;
			snprintf(r->text, sizeof(r->text), "%s below min %s", r->value, lo);
			return r->verdict;
		}
		if (c->has_max && v > c->max) {
			r->verdict = OC_PROBE_FAILED;
			snprintf(r->text, sizeof(r->text), "%s above max %s", r->value, hi);
			return r->verdict;
		}
	}
	r->verdict = OC_PROBE_OK;
	snprintf(r->text, sizeof(r->text), "ok");
	return r->verdict;
}

size_t oc_probe_eval_reason(const struct oc_probe_check *checks, const struct oc_probe_check_result *res, size_t n,
			    const char *node_error, char *out, size_t len)
{
	if (!len)
		return 0;
	out[0] = '\0';
	size_t max = len - 1 < OC_PLAN_REASON_MAX ? len - 1 : OC_PLAN_REASON_MAX;
	/* Failed checks first; errors only when nothing failed. */
	enum oc_probe_verdict want = OC_PROBE_FAILED;
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		if (res[i].verdict == OC_PROBE_FAILED)
			count++;
	if (!count) {
		want = OC_PROBE_ERROR;
		for (size_t i = 0; i < n; i++)
			if (res[i].verdict == OC_PROBE_ERROR)
				count++;
	}
	if (!count) {
		if (node_error && node_error[0]) {
			char buf[OC_PLAN_REASON_MAX + 1];
			snprintf(buf, sizeof(buf), "probe: %s", node_error);
			snprintf(out, max + 1, "%.*s", (int)eval_fit(buf, strlen(buf), max), buf);
			return 1;
		}
		return 0;
	}
	char buf[OC_PLAN_REASON_MAX + 64];
	snprintf(buf, sizeof(buf), "probe: ");
	size_t named = 0;
	for (size_t i = 0; i < n; i++) {
		if (res[i].verdict != want)
			continue;
		char part[256];
		if (want == OC_PROBE_ERROR)
			snprintf(part, sizeof(part), "%s error", checks[i].name);
		else
			snprintf(part, sizeof(part), "%s %s", checks[i].name, res[i].value[0] ? res[i].value : "(no output)");
		size_t used = strlen(buf);
		size_t sep = named ? 2 : 0;
		/* Room for this part, and for "; +N more" if some are still to come. */
		size_t left = count - named - 1;
		char more[32] = "";
		if (left)
			snprintf(more, sizeof(more), "; +%zu more", left);
		if (used + sep + strlen(part) + strlen(more) > max) {
			snprintf(more, sizeof(more), "; +%zu more", count - named);
			if (named && used + strlen(more) <= max)
				oc_appendf(buf, sizeof(buf), "%s", more);
			else if (!named) /* even one does not fit: cut it at a character */
				snprintf(buf + used, sizeof(buf) - used, "%.*s", (int)eval_fit(part, strlen(part), max - used),
					 part);
			named += !named;
			break;
		}
		oc_appendf(buf, sizeof(buf), "%s%s", named ? "; " : "", part);
		named++;
	}
	snprintf(out, len, "%s", buf);
	return named;
}

const char *oc_probe_eval_verdict_name(enum oc_probe_verdict v)
{
	switch (v) {
	case OC_PROBE_OK: return "OK";
	case OC_PROBE_FAILED: return "FAIL";
	case OC_PROBE_ERROR: return "ERR";
	default: return "...";
	}
}
