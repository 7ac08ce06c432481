/* audit.c: the audit log of this cluster in the console: who did what,
 * when, with which equivalent command, and how it ended. Read from the
 * log file when the view is shown and after each action. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/audit.h"
#include "ui/app.h"
#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/views.h"

struct apriv {
	struct oc_audit_entry *e;
	long n;
	size_t bad;
	char error[256];
};

static void *priv_new(void)
{
	return calloc(1, sizeof(struct apriv));
}

static void priv_free(void *p)
{
	struct apriv *ap = p;
	if (ap)
		free(ap->e);
	free(ap);
}

static const struct oc_audit_entry *entry(struct oc_listview *lv, uint32_t item)
{
	return &((struct apriv *)lv->priv)->e[item];
}

static void c_time(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	struct tm tm;
	time_t t = entry(lv, item)->time;
	localtime_r(&t, &tm);
	strftime(buf, len, "%m-%d %H:%M:%S", &tm);
}

static int c_time_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	time_t x = entry(lv, a)->time, y = entry(lv, b)->time;
	return x < y ? -1 : x > y;
}

#define STR_CELL(fname, field)                                                      \
	static void fname(struct oc_listview *lv, uint32_t item, char *buf, size_t len) \
	{                                                                           \
		snprintf(buf, len, "%s", entry(lv, item)->field);                   \
	}
STR_CELL(c_user, user)
STR_CELL(c_action, action)
STR_CELL(c_targets, targets)
STR_CELL(c_result, result)

/* An intent with no outcome line says so where it is seen at 80 columns. */
static void c_command(struct oc_listview *lv, uint32_t item, char *buf, size_t len)
{
	const struct oc_audit_entry *e = entry(lv, item);
	snprintf(buf, len, "%s%s", e->no_outcome ? "outcome unknown (no outcome line): " : "", e->command);
}
STR_CELL(c_error, error)

static enum oc_role r_result(struct oc_listview *lv, uint32_t item)
{
	const char *r = entry(lv, item)->result;
	return strcmp(r, "ok") == 0 ? OC_ROLE_OK : strcmp(r, "partial") == 0 ? OC_ROLE_WARN : OC_ROLE_BAD;
}

static const struct oc_col_def cols[] = {
	{"time", "TIME", 14, false, false, false, c_time, c_time_cmp, NULL},
	{"user", "USER", 8, false, false, false, c_user, NULL, NULL},
	{"action", "ACTION", 12, false, false, false, c_action, NULL, NULL},
	{"targets", "TARGETS", 20, false, true, false, c_targets, NULL, NULL},
	{"result", "RESULT", 7, false, false, false, c_result, NULL, r_result},
	{"command", "COMMAND", 0, false, false, false, c_command, NULL, NULL},
	{"error", "ERROR", 30, false, true, true, c_error, NULL, NULL},
};

static size_t collect(struct oc_listview *lv, const struct oc_snapshot *s)
{
	(void)s;
	struct apriv *ap = lv->priv;
	struct oc_audit_entry *e = NULL;
	size_t bad = 0;
	char err[256] = "";
	const char *path = lv->app->cfg->audit_log;
	long n = path && *path ? oc_audit_read(path, 1000, &e, &bad, err, sizeof(err)) : 0;
	free(ap->e);
	ap->e = NULL;
	ap->n = 0;
	snprintf(ap->error, sizeof(ap->error), "%s", err);
	ap->bad = bad;
	if (n <= 0 || oc_listview_reserve(lv, (size_t)n) < 0) {
		free(e);
		return 0;
	}
	ap->e = e;
	ap->n = n;
	/* Newest first. */
	for (long i = 0; i < n; i++)
		lv->items[i] = (uint32_t)(n - 1 - i);
	return (size_t)n;
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct apriv *ap = lv->priv;
	if (ap->error[0])
		snprintf(buf, len, "%s", ap->error);
	else
		snprintf(buf, len, "%ld entries%s%s", ap->n, ap->bad ? ", some lines unreadable" : "",
			 lv->app->cfg->audit_log && *lv->app->cfg->audit_log ? "" : " (no audit log set)");
}

const struct oc_listview_def oc_lv_audit = {
	.name = "audit",
	.title = "Audit",
	.focus = 0,
	.cols = cols,
	.ncols = (int)(sizeof(cols) / sizeof(cols[0])),
	.collect = collect,
	.context = context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
