/* audit.c: the audit log of this cluster in the console: who did what,
 * when, with which equivalent command, and how it ended. Read from the
 * log file when the view is shown and after each action. Enter opens an
 * entry whole: every target, every line of its command, its error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/audit.h"
#include "core/strbuf.h"
#include "ui/app.h"
#include "ui/detail.h"
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

/* The columns: this view's own catalogue (its rows are the audit log's,
 * not a snapshot's; src->rows = struct oc_audit_entry[]). */
static const struct oc_audit_entry *aentry(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct oc_audit_entry *)src->rows)[row];
}

static void c_time(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	struct tm tm;
	time_t t = aentry(src, row)->time;
	localtime_r(&t, &tm);
	strftime(buf, len, "%m-%d %H:%M:%S", &tm);
}

static int c_time_cmp(struct oc_listview *lv, uint32_t a, uint32_t b)
{
	time_t x = entry(lv, a)->time, y = entry(lv, b)->time;
	return x < y ? -1 : x > y;
}

OC_CELL_FIELD(c_user, aentry, user, oc_cell_str)
OC_CELL_FIELD(c_action, aentry, action, oc_cell_str)
OC_CELL_FIELD(c_targets, aentry, targets, oc_cell_str)
OC_CELL_FIELD(c_result, aentry, result, oc_cell_str)
OC_CELL_FIELD(c_error, aentry, error, oc_cell_lines)

/* An intent with no outcome line says so where it is seen at 80 columns.
 * An onboarding's commands (a line each) are joined with "; ". */
static void c_command(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_audit_entry *e = aentry(src, row);
	if (!len)
		return;
	oc_cell_str(buf, len, e->no_outcome ? "outcome unknown (no outcome line): " : "");
	size_t n = strlen(buf);
	oc_cell_lines(buf + n, len - n, e->command);
}

static enum oc_role r_result(struct oc_listview *lv, uint32_t item)
{
	const char *r = entry(lv, item)->result;
	return strcmp(r, "ok") == 0 ? OC_ROLE_OK : strcmp(r, "partial") == 0 ? OC_ROLE_WARN : OC_ROLE_BAD;
}

static const struct oc_column cat_cols[] = {
	{"time", "TIME", 14, false, false, false, c_time, false},
	{"user", "USER", 8, false, false, false, c_user, false},
	{"action", "ACTION", 12, false, false, false, c_action, false},
	{"targets", "TARGETS", 20, false, true, false, c_targets, false},
	{"result", "RESULT", 7, false, false, false, c_result, false},
	{"command", "COMMAND", 0, false, false, false, c_command, false},
	{"error", "ERROR", 30, false, true, true, c_error, false},
};
static const struct oc_catalogue catalogue = {"audit", cat_cols, (int)(sizeof(cat_cols) / sizeof(cat_cols[0]))};

static const struct oc_col_ui cols[] = {
	{"time", c_time_cmp, NULL, NULL, NULL},
	{"result", NULL, r_result, NULL, NULL},
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
	lv->src.rows = NULL;
	snprintf(ap->error, sizeof(ap->error), "%s", err);
	ap->bad = bad;
	if (n <= 0 || oc_listview_reserve(lv, (size_t)n) < 0) {
		free(e);
		return 0;
	}
	ap->e = e;
	ap->n = n;
	lv->src.rows = e;
	/* Newest first. */
	for (long i = 0; i < n; i++)
		lv->items[i] = (uint32_t)(n - 1 - i);
	return (size_t)n;
}

/* Enter: the entry whole, a field a line ("Label\tvalue"), the command's
 * lines each on its own (an onboarding runs several). */
static void open_item(struct oc_listview *lv, uint32_t item)
{
	const struct oc_audit_entry *e = entry(lv, item);
	char when[64];
	struct tm tm;
	localtime_r(&e->time, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
	size_t cap = sizeof(*e) + 512;
	char *f = malloc(cap);
	if (!f) {
		oc_app_message(lv->app, true, " out of memory");
		return;
	}
	snprintf(f, cap, "Time\t%s\nUser\t%s\nAction\t%s\nTargets\t%s\nResult\t%s%s\nId\t%s\nCommand\t%s\nError\t%s",
		 when, e->user, e->action, e->targets[0] ? e->targets : "-", e->result,
		 e->no_outcome ? " (no outcome line: the console ended before it wrote one)" : "", e->id[0] ? e->id : "-",
		 e->command[0] ? e->command : "-", e->error[0] ? e->error : "-");
	char title[96];
	snprintf(title, sizeof(title), "audit: %s", e->action);
	oc_app_show_text(lv->app, title, f);
	free(f);
}

static void context(struct oc_listview *lv, char *buf, size_t len)
{
	struct apriv *ap = lv->priv;
	if (ap->error[0])
		snprintf(buf, len, "%s", ap->error);
	else
		snprintf(buf, len, "%ld %s%s%s", ap->n, oc_plural((unsigned long long)ap->n, "entry", "entries"),
			 ap->bad ? ", some lines unreadable" : "",
			 lv->app->cfg->audit_log && *lv->app->cfg->audit_log ? "" : " (no audit log set)");
}

const struct oc_listview_def oc_lv_audit = {
	.name = "audit",
	.title = "Audit",
	.focus = 0,
	.cat = &catalogue,
	.ui = cols,
	.nui = (int)(sizeof(cols) / sizeof(cols[0])),
	.collect = collect,
	.open = open_item,
	.context = context,
	.priv_new = priv_new,
	.priv_free = priv_free,
};
