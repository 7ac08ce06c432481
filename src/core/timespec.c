#include "core/timespec.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "now[+-N[unit]]". */
static int parse_now(const char *p, time_t now, time_t *out, char *err, size_t errlen)
{
	if (!*p) {
		*out = now;
		return 0;
	}
	if (*p != '+' && *p != '-')
		goto bad;
	int sign = *p == '-' ? -1 : 1;
	p++;
	if (!isdigit((unsigned char)*p))
		goto bad;
	errno = 0;
	char *end;
	long long n = strtoll(p, &end, 10);
	if (errno || n > 100LL * 366 * 86400)
		goto bad;
	static const struct {
		const char *name;
		long long secs;
	} units[] = {{"seconds", 1}, {"minutes", 60}, {"hours", 3600}, {"days", 86400}, {"weeks", 7 * 86400}};
	long long mult = 1;
	if (*end) {
		size_t l = strlen(end);
		mult = 0;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (l <= strlen(units[i].name) && strncasecmp(end, units[i].name, l) == 0) {
				/* "m" alone is ambiguous in sacct too: minutes */
				mult = units[i].secs;
				break;
			}
		if (!mult && strcasecmp(end, "min") == 0)
			mult = 60;
		if (!mult)
			goto bad;
	}
	*out = now + sign * (time_t)(n * mult);
	return 0;
bad:
	snprintf(err, errlen, "'now%s': want now[+|-]COUNT[seconds|minutes|hours|days|weeks]", p);
	return -1;
}

/* Read exactly n digits (n = 0: one or more) into *v; advances *p. */
static bool digits(const char **p, int n, int *v)
{
	const char *s = *p;
	int i = 0, x = 0;
	while (isdigit((unsigned char)s[i]) && (n == 0 || i < n) && i < 9) {
		x = x * 10 + (s[i] - '0');
		i++;
	}
	if (i == 0 || (n && i != n))
		return false;
	*v = x;
	*p = s + i;
	return true;
}

/* "HH:MM[:SS]" at *p; the rest must be empty. */
static bool clock_part(const char *p, struct tm *tm)
{
	int h, m, s = 0;
	if (!digits(&p, 0, &h) || *p++ != ':' || !digits(&p, 2, &m))
		return false;
	if (*p == ':' && (p++, !digits(&p, 2, &s)))
		return false;
	if (*p || h > 23 || m > 59 || s > 60)
		return false;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = s;
	return true;
}

static int finish(struct tm *tm, int y, int mo, int d, time_t *out)
{
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1970 || y > 2200)
		return -1;
	tm->tm_year = y - 1900;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	tm->tm_isdst = -1;
	struct tm check = *tm;
	time_t t = mktime(tm);
	if (t == (time_t)-1 || tm->tm_mday != check.tm_mday || tm->tm_mon != check.tm_mon)
		return -1; /* 02-30 */
	*out = t;
	return 0;
}

int oc_time_parse(const char *spec, time_t now, time_t *out, char *err, size_t errlen)
{
	if (!spec || !*spec) {
		snprintf(err, errlen, "empty time");
		return -1;
	}
	struct tm today;
	localtime_r(&now, &today);
	struct tm tm = today;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	int y = today.tm_year + 1900, mo = today.tm_mon + 1, d = today.tm_mday;
	const char *p = spec;
	if (strncasecmp(p, "now", 3) == 0)
		return parse_now(p + 3, now, out, err, errlen);
	if (strcasecmp(p, "today") == 0 || strcasecmp(p, "midnight") == 0)
		goto done;
	if (strcasecmp(p, "noon") == 0) {
		tm.tm_hour = 12;
		goto done;
	}
	if (*p == '@') {
		errno = 0;
		char *end;
		long long v = strtoll(p + 1, &end, 10);
		if (errno || end == p + 1 || *end || v < 0) {
			snprintf(err, errlen, "'%s': want @SECONDS since the epoch", spec);
			return -1;
		}
		*out = (time_t)v;
		return 0;
	}
	int a;
	const char *q = p;
	if (digits(&q, 4, &a) && *q == '-') { /* YYYY-MM-DD[THH:MM[:SS]] */
		y = a;
		q++;
		if (!digits(&q, 2, &mo) || *q++ != '-' || !digits(&q, 2, &d))
			goto bad;
		if (*q == 'T' && !clock_part(q + 1, &tm))
			goto bad;
		if (*q && *q != 'T')
			goto bad;
		goto done;
	}
	q = p;
	if (digits(&q, 2, &a) && *q == '/') { /* MM/DD[/YY][-HH:MM[:SS]] */
		mo = a;
		q++;
		if (!digits(&q, 2, &d))
			goto bad;
		if (*q == '/') {
			int yy;
			q++;
			if (!digits(&q, 2, &yy))
				goto bad;
			y = 2000 + yy;
		}
		if (*q == '-' && !clock_part(q + 1, &tm))
			goto bad;
		if (*q && *q != '-')
			goto bad;
		goto done;
	}
	if (clock_part(p, &tm)) /* HH:MM[:SS] today */
		goto done;
bad:
	snprintf(err, errlen,
		 "'%s' is not a time: use now-24hours, today, 2026-12-01T08:00, 12/01-08:00 or 08:00", spec);
	return -1;
done:
	if (finish(&tm, y, mo, d, out) < 0) {
		snprintf(err, errlen, "'%s': no such date", spec);
		return -1;
	}
	return 0;
}

int oc_time_window(const char *since, const char *until, time_t now, time_t *s, time_t *u, char *err,
		   size_t errlen)
{
	char e[200];
	if (oc_time_parse(since, now, s, e, sizeof(e)) < 0) {
		snprintf(err, errlen, "--since: %s", e);
		return -1;
	}
	*u = now;
	if (until && *until && oc_time_parse(until, now, u, e, sizeof(e)) < 0) {
		snprintf(err, errlen, "--until: %s", e);
		return -1;
	}
	if (*s > *u) {
		snprintf(err, errlen, "--since (%s) is after --until (%s)", since, until && *until ? until : "now");
		return -1;
	}
	return 0;
}

double oc_mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
