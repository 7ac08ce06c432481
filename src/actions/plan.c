/* plan.c: the equivalent command lines of actions, and the checks and
 * parsers of what the admin types into the action forms. Pure: no Slurm,
 * no curses, no shell. */
#include "actions/plan.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <time.h>

/* Longest accepted reservation name: what fits oc_resv_spec.name. */
#define PLAN_RESV_NAME_MAX (sizeof(((struct oc_resv_spec *)0)->name) - 1)
#define PLAN_REASON_MAX OC_PLAN_REASON_MAX
#define PLAN_START_MAX_AHEAD (366L * 24 * 3600)
#define PLAN_DURATION_MAX_MIN (3650L * 24 * 60)

/* An output buffer that counts what it would need, like snprintf. */
struct plan_buf {
	char *out;
	size_t len;
	size_t need;
};

static void plan_put(struct plan_buf *b, const char *s, size_t n)
{
	if (b->len > 0 && b->need < b->len - 1) {
		size_t room = b->len - 1 - b->need;
		memcpy(b->out + b->need, s, n < room ? n : room);
	}
	b->need += n;
}

static void plan_puts(struct plan_buf *b, const char *s)
{
	plan_put(b, s, strlen(s));
}

/* NUL-terminate what was written. Returns the length the whole needs. */
static size_t plan_end(struct plan_buf *b)
{
	if (b->len > 0)
		b->out[b->need < b->len ? b->need : b->len - 1] = '\0';
	return b->need;
}

/* A byte that a POSIX shell takes literally outside quotes, by the rule
 * of plan.h. Not isalnum(): that depends on the locale. */
static bool plan_bare_char(unsigned char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	return c != '\0' && strchr("_.,:=/@%+-", c) != NULL;
}

static void plan_put_quoted(struct plan_buf *b, const char *value)
{
	const char *v = value ? value : "";
	/* A leading '=' is zsh's =cmd expansion: quote it too. */
	bool bare = *v != '\0' && *v != '=';
	for (const unsigned char *p = (const unsigned char *)v; *p && bare; p++)
		bare = plan_bare_char(*p);
	if (bare) {
		plan_puts(b, v);
		return;
	}
	plan_put(b, "'", 1);
	for (const char *p = v;;) {
		const char *q = strchr(p, '\'');
		if (!q) {
			plan_puts(b, p);
			break;
		}
		plan_put(b, p, (size_t)(q - p));
		plan_put(b, "'\\''", 4);
		p = q + 1;
	}
	plan_put(b, "'", 1);
}

/* " Key=<quoted value>" */
static void plan_put_kv(struct plan_buf *b, const char *key, const char *value)
{
	plan_put(b, " ", 1);
	plan_puts(b, key);
	plan_put(b, "=", 1);
	plan_put_quoted(b, value);
}

size_t oc_plan_quote(const char *value, char *out, size_t len)
{
	struct plan_buf b = {out, len, 0};
	plan_put_quoted(&b, value);
	return plan_end(&b);
}

void oc_plan_reboot_argv(const char *expr, const struct oc_reboot_spec *spec, struct oc_plan_reboot_words *w,
			 const char *argv[OC_PLAN_REBOOT_ARGV])
{
	int n = 0;
	argv[n++] = "scontrol";
	argv[n++] = "reboot";
	if (spec->asap)
		argv[n++] = "ASAP";
	if (spec->next != OC_REBOOT_NEXT_AS_BEFORE) {
		snprintf(w->next, sizeof(w->next), "nextstate=%s",
			 spec->next == OC_REBOOT_NEXT_DOWN ? "DOWN" : "RESUME");
		argv[n++] = w->next;
	}
	if (spec->reason[0]) {
		snprintf(w->reason, sizeof(w->reason), "reason=%s", spec->reason);
		argv[n++] = w->reason;
	}
	argv[n++] = expr;
	argv[n] = NULL;
}

size_t oc_plan_node_reboot(const char *expr, const struct oc_reboot_spec *spec, char *out, size_t len)
{
	struct plan_buf b = {out, len, 0};
	plan_puts(&b, "scontrol reboot");
	if (spec->asap)
		plan_puts(&b, " ASAP");
	if (spec->next != OC_REBOOT_NEXT_AS_BEFORE)
		plan_puts(&b, spec->next == OC_REBOOT_NEXT_DOWN ? " nextstate=DOWN" : " nextstate=RESUME");
	if (spec->reason[0])
		plan_put_kv(&b, "reason", spec->reason);
	plan_puts(&b, " ");
	plan_put_quoted(&b, expr);
	return plan_end(&b);
}

size_t oc_plan_node_update(const char *expr, enum oc_node_op op, const char *reason, char *out,
			   size_t len)
{
	struct plan_buf b = {out, len, 0};
	if (op == OC_NODE_OP_CANCEL_REBOOT) {
		plan_puts(&b, "scontrol cancel_reboot ");
		plan_put_quoted(&b, expr);
		return plan_end(&b);
	}
	if (op == OC_NODE_OP_REBOOT) {
		struct oc_reboot_spec none = {0};
		return oc_plan_node_reboot(expr, &none, out, len);
	}
	plan_puts(&b, "scontrol update");
	plan_put_kv(&b, "NodeName", expr);
	switch (op) {
	case OC_NODE_OP_DRAIN:
		plan_puts(&b, " State=DRAIN");
		plan_put_kv(&b, "Reason", reason);
		break;
	case OC_NODE_OP_RESUME:
		plan_puts(&b, " State=RESUME");
		break;
	case OC_NODE_OP_UNDRAIN:
		plan_puts(&b, " State=UNDRAIN");
		break;
	case OC_NODE_OP_POWER_UP:
		plan_puts(&b, " State=POWER_UP");
		break;
	case OC_NODE_OP_POWER_DOWN:
		plan_puts(&b, " State=POWER_DOWN");
		break;
	default:
		break;
	}
	return plan_end(&b);
}

/* Minutes as Slurm prints and takes a duration: [D-]HH:MM:SS. */
static void plan_put_duration(struct plan_buf *b, long minutes)
{
	char buf[64];
	if (minutes < 0) {
		plan_puts(b, "UNLIMITED");
		return;
	}
	long days = minutes / 1440, hours = minutes / 60 % 24, mins = minutes % 60;
	if (days > 0)
		snprintf(buf, sizeof(buf), "%ld-%02ld:%02ld:00", days, hours, mins);
	else
		snprintf(buf, sizeof(buf), "%02ld:%02ld:00", hours, mins);
	plan_puts(b, buf);
}

size_t oc_plan_resv_create(const struct oc_resv_spec *spec, char *out, size_t len)
{
	struct plan_buf b = {out, len, 0};
	if (!spec)
		return plan_end(&b);
	plan_puts(&b, "scontrol create reservation");
	if (spec->name[0])
		plan_put_kv(&b, "ReservationName", spec->name);
	if (spec->users[0])
		plan_put_kv(&b, "Users", spec->users);
	if (spec->accounts[0])
		plan_put_kv(&b, "Accounts", spec->accounts);
	if (spec->start == 0) {
		plan_puts(&b, " StartTime=now");
	} else {
		char t[64];
		struct tm tm;
		if (localtime_r(&spec->start, &tm) && strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tm) > 0) {
			plan_puts(&b, " StartTime=");
			plan_puts(&b, t);
		} else {
			snprintf(t, sizeof(t), " StartTime=%lld", (long long)spec->start);
			plan_puts(&b, t);
		}
	}
	plan_puts(&b, " Duration=");
	plan_put_duration(&b, spec->duration_min);
	if (spec->flags[0])
		plan_put_kv(&b, "Flags", spec->flags);
	plan_put_kv(&b, "Nodes", spec->nodes);
	return plan_end(&b);
}

size_t oc_plan_resv_delete(const char *name, char *out, size_t len)
{
	struct plan_buf b = {out, len, 0};
	plan_puts(&b, "scontrol delete");
	plan_put_kv(&b, "ReservationName", name);
	return plan_end(&b);
}

static int plan_fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen > 0)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

static bool plan_blank_char(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int oc_plan_check_reason(const char *reason, char *err, size_t errlen)
{
	if (!reason || !reason[0])
		return plan_fail(err, errlen, "a reason is required");
	bool blank = true;
	for (const char *p = reason; *p && blank; p++)
		blank = plan_blank_char(*p);
	if (blank)
		return plan_fail(err, errlen, "the reason is blank");
	size_t n = strlen(reason);
	if (n > PLAN_REASON_MAX) {
		if (err && errlen > 0)
			snprintf(err, errlen, "the reason is too long (%zu bytes, at most %d)", n,
				 PLAN_REASON_MAX);
		return -1;
	}
	return 0;
}

int oc_plan_check_resv_name(const char *name, char *err, size_t errlen)
{
	if (!name || !name[0])
		return 0;
	size_t n = strlen(name);
	if (n > PLAN_RESV_NAME_MAX) {
		if (err && errlen > 0)
			snprintf(err, errlen, "reservation name too long (%zu characters, at most %zu)", n,
				 PLAN_RESV_NAME_MAX);
		return -1;
	}
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			  *p == '_' || *p == '.' || *p == '-';
		if (!ok)
			return plan_fail(err, errlen,
					 "reservation name: only letters, digits, '_', '.' and '-'");
	}
	return 0;
}

/* Copy text without surrounding blanks, lowercased, into buf. Returns 0,
 * or -1 when it does not fit. */
static int plan_trim_lower(const char *text, char *buf, size_t len)
{
	const char *s = text ? text : "";
	while (plan_blank_char(*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && plan_blank_char(s[n - 1]))
		n--;
	if (n >= len)
		return -1;
	for (size_t i = 0; i < n; i++)
		buf[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
	buf[n] = '\0';
	return 0;
}

static bool plan_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse 1..maxdigits decimal digits at *p (no sign, no blanks) and
 * advance *p. Returns 0 and sets *v, or -1. */
static int plan_uint(const char **p, int maxdigits, long *v)
{
	long x = 0;
	int n = 0;
	while (plan_digit(**p)) {
		if (++n > maxdigits)
			return -1;
		x = x * 10 + (**p - '0');
		(*p)++;
	}
	if (n == 0)
		return -1;
	*v = x;
	return 0;
}

/* Exactly n digits at *p. */
static int plan_fixed(const char **p, int n, long *v)
{
	for (int i = 0; i < n; i++)
		if (!plan_digit((*p)[i]))
			return -1;
	return plan_uint(p, n, v);
}

static void plan_skip_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

static bool plan_word_in(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(w, *list) == 0)
			return true;
	return false;
}

static const char *const plan_unit_min[] = {"m", "min", "mins", "minute", "minutes", NULL};
static const char *const plan_unit_hour[] = {"h", "hr", "hrs", "hour", "hours", NULL};
static const char *const plan_unit_day[] = {"d", "day", "days", NULL};

/* Minutes per unit word, or 0 for an unknown word. "" is 0 too. */
static long plan_unit(const char *w)
{
	if (plan_word_in(w, plan_unit_min))
		return 1;
	if (plan_word_in(w, plan_unit_hour))
		return 60;
	if (plan_word_in(w, plan_unit_day))
		return 1440;
	return 0;
}

static int plan_days_in_month(long y, long m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

static const char plan_start_forms[] =
	"now, now+30min, now+2h, now+1d, HH:MM or YYYY-MM-DDTHH:MM[:SS]";

/* "now+N unit", p just past "now". */
static int plan_start_relative(const char *p, time_t now, time_t *t, char *err, size_t errlen)
{
	long n, unit;
	plan_skip_blanks(&p);
	if (*p != '+')
		return plan_fail(err, errlen, "write now+30min, now+2h or now+1d");
	p++;
	plan_skip_blanks(&p);
	if (plan_uint(&p, 6, &n) < 0)
		return plan_fail(err, errlen, "a number after now+, e.g. now+30min");
	plan_skip_blanks(&p);
	unit = plan_unit(p);
	if (unit == 0)
		return plan_fail(err, errlen, "give a unit after the number: min, h or d");
	long long secs = (long long)n * unit * 60;
	if (secs > PLAN_START_MAX_AHEAD)
		return plan_fail(err, errlen, "at most 366 days ahead");
	*t = now + (time_t)secs;
	return 0;
}

static void plan_set_clock(struct tm *tm, long h, long mi)
{
	tm->tm_hour = (int)h;
	tm->tm_min = (int)mi;
	tm->tm_sec = 0;
	tm->tm_isdst = -1;
}

/* "HH:MM" today, or tomorrow when that is past; h is parsed already and q
 * is at the ':'. tm holds today's local time. */
static int plan_start_clock(const char *q, long h, struct tm *tm, time_t now, time_t *t, char *err,
			    size_t errlen)
{
	long mi;
	q++;
	if (plan_fixed(&q, 2, &mi) < 0 || h > 23 || mi > 59)
		return plan_fail(err, errlen, "HH:MM with hours 0-23 and minutes 0-59");
	plan_set_clock(tm, h, mi);
	time_t when = mktime(tm);
	if (when != (time_t)-1 && when < now) {
		if (!localtime_r(&now, tm))
			return plan_fail(err, errlen, "cannot read the local time");
		tm->tm_mday++;
		plan_set_clock(tm, h, mi);
		when = mktime(tm);
	}
	if (when == (time_t)-1)
		return plan_fail(err, errlen, "not a valid local time");
	*t = when;
	return 0;
}

/* "YYYY-MM-DDTHH:MM[:SS]" (or a blank for the T), in local time, in the
 * future and at most PLAN_START_MAX_AHEAD ahead. */
static int plan_start_date(const char *q, time_t now, time_t *t, char *err, size_t errlen)
{
	long y, mo, d, h, mi, s = 0;
	if (plan_fixed(&q, 4, &y) < 0 || *q++ != '-' || plan_fixed(&q, 2, &mo) < 0 || *q++ != '-' ||
	    plan_fixed(&q, 2, &d) < 0 || (*q != 't' && *q != ' '))
		return plan_fail(err, errlen, plan_start_forms);
	q++;
	if (plan_fixed(&q, 2, &h) < 0 || *q++ != ':' || plan_fixed(&q, 2, &mi) < 0)
		return plan_fail(err, errlen, plan_start_forms);
	if (*q == ':') {
		q++;
		if (plan_fixed(&q, 2, &s) < 0)
			return plan_fail(err, errlen, plan_start_forms);
	}
	if (*q != '\0')
		return plan_fail(err, errlen, plan_start_forms);
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > plan_days_in_month(y, mo))
		return plan_fail(err, errlen, "no such date");
	if (h > 23 || mi > 59 || s > 59)
		return plan_fail(err, errlen, "no such time of day");
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = (int)(y - 1900);
	tm.tm_mon = (int)(mo - 1);
	tm.tm_mday = (int)d;
	tm.tm_hour = (int)h;
	tm.tm_min = (int)mi;
	tm.tm_sec = (int)s;
	tm.tm_isdst = -1;
	time_t when = mktime(&tm);
	if (when == (time_t)-1)
		return plan_fail(err, errlen, "not a valid local time");
	/* mktime moves a time skipped by a DST change: say so. */
	if (tm.tm_mday != d || tm.tm_hour != h || tm.tm_min != mi)
		return plan_fail(err, errlen, "that time does not exist here (DST change)");
	if (when < now)
		return plan_fail(err, errlen, "that time is in the past");
	if (when - now > PLAN_START_MAX_AHEAD)
		return plan_fail(err, errlen, "at most 366 days ahead");
	*t = when;
	return 0;
}

int oc_plan_parse_start(const char *text, time_t now, time_t *t, char *err, size_t errlen)
{
	char buf[64];
	if (plan_trim_lower(text, buf, sizeof(buf)) < 0 || !buf[0])
		return plan_fail(err, errlen, plan_start_forms);
	if (strcmp(buf, "now") == 0) {
		*t = 0;
		return 0;
	}
	if (strncmp(buf, "now", 3) == 0)
		return plan_start_relative(buf + 3, now, t, err, errlen);

	struct tm tm;
	if (!localtime_r(&now, &tm))
		return plan_fail(err, errlen, "cannot read the local time");
	long h;
	const char *q = buf;
	if (plan_uint(&q, 2, &h) == 0 && q[0] == ':' && plan_digit(q[1]) && plan_digit(q[2]) &&
	    q[3] == '\0')
		return plan_start_clock(q, h, &tm, now, t, err, errlen);
	return plan_start_date(buf, now, t, err, errlen);
}

static const char plan_duration_forms[] =
	"90 (minutes), 90m, 4h, 2d, 2:30:00, 1-12:00:00 or UNLIMITED";

int oc_plan_parse_duration(const char *text, long *minutes, char *err, size_t errlen)
{
	char buf[64];
	if (plan_trim_lower(text, buf, sizeof(buf)) < 0 || !buf[0])
		return plan_fail(err, errlen, plan_duration_forms);
	if (strcmp(buf, "infinite") == 0 || strcmp(buf, "unlimited") == 0) {
		*minutes = -1;
		return 0;
	}
	if (buf[0] == '-' || buf[0] == '+')
		return plan_fail(err, errlen, "must be a positive length");

	const char *p = buf;
	long n, total;
	if (plan_uint(&p, 9, &n) < 0)
		return plan_fail(err, errlen, plan_duration_forms);
	if (*p == '-' || *p == ':') {
		/* Slurm's forms: D-H, D-H:M, D-H:M:S and H:M:S. */
		long days = 0, hours, mins = 0, secs = 0;
		bool have_days = *p == '-';
		if (have_days) {
			days = n;
			p++;
			if (plan_uint(&p, 2, &hours) < 0)
				return plan_fail(err, errlen, plan_duration_forms);
		} else {
			hours = n;
		}
		int fields = 1;
		if (*p == ':') {
			p++;
			if (plan_uint(&p, 2, &mins) < 0)
				return plan_fail(err, errlen, plan_duration_forms);
			fields++;
		}
		if (*p == ':') {
			p++;
			if (plan_uint(&p, 2, &secs) < 0)
				return plan_fail(err, errlen, plan_duration_forms);
			fields++;
		}
		if (*p != '\0')
			return plan_fail(err, errlen, plan_duration_forms);
		if (!have_days && fields != 3)
			return plan_fail(err, errlen,
					 "2:30 is ambiguous (Slurm reads minutes:seconds): write 2:30:00 or 150m");
		if (have_days && hours > 23)
			return plan_fail(err, errlen, "hours 0-23 after the days (D-HH:MM:SS)");
		if (mins > 59 || secs > 59)
			return plan_fail(err, errlen, "minutes and seconds 0-59");
		if (days > PLAN_DURATION_MAX_MIN / 1440 || hours > PLAN_DURATION_MAX_MIN / 60)
			return plan_fail(err, errlen, "at most 3650 days");
		total = days * 1440 + hours * 60 + mins + (secs > 0 ? 1 : 0);
	} else {
		plan_skip_blanks(&p);
		long unit = *p ? plan_unit(p) : 1;
		if (unit == 0)
			return plan_fail(err, errlen, plan_duration_forms);
		if (n > PLAN_DURATION_MAX_MIN / unit)
			return plan_fail(err, errlen, "at most 3650 days");
		total = n * unit;
	}
	if (total <= 0)
		return plan_fail(err, errlen, "must be at least one minute");
	if (total > PLAN_DURATION_MAX_MIN)
		return plan_fail(err, errlen, "at most 3650 days");
	*minutes = total;
	return 0;
}

const char *oc_plan_propose_resv_name(time_t now, char *out, size_t len)
{
	char buf[64];
	struct tm tm;
	if (len == 0)
		return out;
	if (!localtime_r(&now, &tm) || strftime(buf, sizeof(buf), "maint_%Y%m%d_%H%M", &tm) == 0)
		snprintf(buf, sizeof(buf), "maint");
	snprintf(out, len, "%s", buf);
	return out;
}

/* ---- job actions ------------------------------------------------------- */

/* Signal numbers and the names scancel takes (Linux numbering). */
static const struct {
	int sig;
	const char *name;
} plan_signals[] = {
	{1, "HUP"},   {2, "INT"},   {3, "QUIT"},  {6, "ABRT"},   {9, "KILL"},   {10, "USR1"},
	{12, "USR2"}, {14, "ALRM"}, {15, "TERM"}, {18, "CONT"},  {19, "STOP"},  {20, "TSTP"},
	{21, "TTIN"}, {22, "TTOU"}, {23, "URG"},  {24, "XCPU"},  {25, "XFSZ"},  {26, "VTALRM"},
	{27, "PROF"}, {28, "WINCH"}, {29, "IO"},  {30, "PWR"},
};

const char *oc_plan_signal_name(int sig)
{
	for (size_t i = 0; i < sizeof(plan_signals) / sizeof(plan_signals[0]); i++)
		if (plan_signals[i].sig == sig)
			return plan_signals[i].name;
	return NULL;
}

int oc_plan_parse_signal(const char *text, int *sig, char *err, size_t errlen)
{
	char buf[32];
	if (plan_trim_lower(text, buf, sizeof(buf)) < 0 || !buf[0])
		return plan_fail(err, errlen, "a name (USR1, TERM...) or a number 1-64");
	bool digits = true;
	for (const char *p = buf; *p; p++)
		digits = digits && *p >= '0' && *p <= '9';
	if (digits) {
		long v = strlen(buf) <= 2 ? strtol(buf, NULL, 10) : 0;
		if (v < 1 || v > 64)
			return plan_fail(err, errlen, "a number from 1 to 64");
		*sig = (int)v;
		return 0;
	}
	const char *name = strncmp(buf, "sig", 3) == 0 ? buf + 3 : buf;
	for (size_t i = 0; i < sizeof(plan_signals) / sizeof(plan_signals[0]); i++)
		if (strcasecmp(plan_signals[i].name, name) == 0) {
			*sig = plan_signals[i].sig;
			return 0;
		}
	if (err && errlen)
		snprintf(err, errlen, "unknown name \"%s\" (HUP, INT, KILL, USR1, USR2, TERM, CONT, STOP...)",
			 text ? text : "");
	return -1;
}

/* A partition or QoS name: 1..63 of [A-Za-z0-9_.-]. */
static int plan_check_name(const char *what, const char *name, char *err, size_t errlen)
{
	size_t n = strlen(name);
	bool ok = n > 0 && n < sizeof(((struct oc_job_change *)0)->name);
	for (const unsigned char *p = (const unsigned char *)name; ok && *p; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		     *p == '.' || *p == '-';
	if (ok)
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s: 1 to %zu letters, digits, '_', '.' or '-'", what,
			 sizeof(((struct oc_job_change *)0)->name) - 1);
	return -1;
}

#define PLAN_NICE_MAX 2147483645L

int oc_plan_check_job_change(const struct oc_job_change *c, char *err, size_t errlen)
{
	if (!c || (unsigned)c->op >= OC_JOB_OP_COUNT)
		return plan_fail(err, errlen, "unknown job action");
	switch (c->op) {
	case OC_JOB_OP_SIGNAL:
		if (c->signal < 1 || c->signal > 64)
			return plan_fail(err, errlen, "signal: a number from 1 to 64");
		return 0;
	case OC_JOB_OP_TIME_LIMIT:
		if (c->minutes == 0)
			return plan_fail(err, errlen, "time limit: at least one minute (or UNLIMITED)");
		if (c->minutes != OC_NONE && c->minutes > PLAN_DURATION_MAX_MIN)
			return plan_fail(err, errlen, "time limit: at most 3650 days (or UNLIMITED)");
		return 0;
	case OC_JOB_OP_PRIORITY:
		if (c->priority == 0 || c->priority >= 0xfffffffeU)
			return plan_fail(err, errlen, "priority: from 1 to 4294967293 (hold it to stop it starting)");
		return 0;
	case OC_JOB_OP_NICE:
		if (c->nice < -PLAN_NICE_MAX || c->nice > PLAN_NICE_MAX)
			return plan_fail(err, errlen, "nice: between -2147483645 and 2147483645");
		return 0;
	case OC_JOB_OP_PARTITION: return plan_check_name("partition", c->name, err, errlen);
	case OC_JOB_OP_QOS: return plan_check_name("QoS", c->name, err, errlen);
	default: return 0;
	}
}

const char *oc_plan_time_limit(uint32_t minutes, char *out, size_t len)
{
	if (minutes == OC_NONE) {
		snprintf(out, len, "UNLIMITED");
		return out;
	}
	unsigned d = minutes / 1440, h = minutes % 1440 / 60, m = minutes % 60;
	if (d)
		snprintf(out, len, "%u-%02u:%02u:00", d, h, m);
	else
		snprintf(out, len, "%02u:%02u:00", h, m);
	return out;
}

/* The shape of a job change's command, for the line and the argv alike:
 * words before the job ids, the ids (apart: scancel's "113 114"; or as
 * one word, which for scontrol update is JobId=IDS) and a Key=value after
 * them. Texts go to w. */
struct plan_job_cmd {
	const char *before[3];
	size_t n;
	bool apart, key;
	const char *after_key, *after_value;
};

static void plan_job_cmd(const struct oc_job_change *c, struct oc_plan_job_words *w, struct plan_job_cmd *m)
{
	static const char *const verbs[OC_JOB_OP_COUNT] = {
		[OC_JOB_OP_HOLD] = "hold",
		[OC_JOB_OP_RELEASE] = "release",
		[OC_JOB_OP_REQUEUE] = "requeue",
		[OC_JOB_OP_REQUEUE_HOLD] = "requeuehold",
	};
	memset(m, 0, sizeof(*m));
	switch (c->op) {
	case OC_JOB_OP_CANCEL:
		m->before[m->n++] = "scancel";
		m->apart = true;
		break;
	case OC_JOB_OP_SIGNAL: {
		const char *name = oc_plan_signal_name(c->signal);
		if (name)
			snprintf(w->opt, sizeof(w->opt), "--signal=%s", name);
		else
			snprintf(w->opt, sizeof(w->opt), "--signal=%d", c->signal);
		m->before[m->n++] = "scancel";
		m->before[m->n++] = w->opt;
		m->before[m->n++] = c->batch_only ? "--batch" : "--full";
		m->apart = true;
		break;
	}
	case OC_JOB_OP_HOLD:
	case OC_JOB_OP_RELEASE:
	case OC_JOB_OP_REQUEUE:
	case OC_JOB_OP_REQUEUE_HOLD:
		m->before[m->n++] = "scontrol";
		m->before[m->n++] = verbs[c->op];
		break;
	default:
		m->before[m->n++] = "scontrol";
		m->before[m->n++] = "update";
		m->key = true;
		m->after_value = w->value;
		if (c->op == OC_JOB_OP_TIME_LIMIT) {
			m->after_key = "TimeLimit";
			oc_plan_time_limit(c->minutes, w->value, sizeof(w->value));
		} else if (c->op == OC_JOB_OP_PARTITION || c->op == OC_JOB_OP_QOS) {
			m->after_key = c->op == OC_JOB_OP_QOS ? "QOS" : "Partition";
			snprintf(w->value, sizeof(w->value), "%.*s", (int)sizeof(c->name), c->name);
		} else if (c->op == OC_JOB_OP_PRIORITY) {
			m->after_key = "Priority";
			snprintf(w->value, sizeof(w->value), "%u", c->priority);
		} else {
			m->after_key = "Nice";
			snprintf(w->value, sizeof(w->value), "%d", c->nice);
		}
		break;
	}
}

size_t oc_plan_job_change(uint32_t job_id, const struct oc_job_change *c, char *out, size_t len)
{
	char id[16];
	snprintf(id, sizeof(id), "%u", job_id);
	return oc_plan_job_change_ids(id, c, out, len);
}

size_t oc_plan_job_change_ids(const char *ids, const struct oc_job_change *c, char *out, size_t len)
{
	struct plan_buf b = {out, len, 0};
	struct oc_plan_job_words w;
	struct plan_job_cmd m;
	plan_job_cmd(c, &w, &m);
	for (size_t i = 0; i < m.n; i++) {
		if (i)
			plan_put(&b, " ", 1);
		plan_put_quoted(&b, m.before[i]);
	}
	if (m.key) {
		plan_put_kv(&b, "JobId", ids);
	} else {
		/* scancel takes the ids apart: "113 114". */
		plan_put(&b, " ", 1);
		for (const char *p = ids; *p; p++)
			plan_put(&b, *p == ',' && m.apart ? " " : p, 1);
	}
	if (m.after_key)
		plan_put_kv(&b, m.after_key, m.after_value);
	return plan_end(&b);
}

void oc_plan_job_argv(uint32_t job_id, const struct oc_job_change *c, struct oc_plan_job_words *w,
		      const char *argv[OC_PLAN_JOB_ARGV])
{
	struct plan_job_cmd m;
	plan_job_cmd(c, w, &m);
	size_t n = 0;
	for (size_t i = 0; i < m.n; i++)
		argv[n++] = m.before[i];
	snprintf(w->id, sizeof(w->id), m.key ? "JobId=%u" : "%u", job_id);
	argv[n++] = w->id;
	if (m.after_key) {
		snprintf(w->word, sizeof(w->word), "%s=%s", m.after_key, m.after_value);
		argv[n++] = w->word;
	}
	argv[n] = NULL;
}
