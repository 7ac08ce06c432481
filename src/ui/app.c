/* app.c: the state the whole screen shares and nothing else: messages on
 * the status line, whether writes are offered, what the selected row
 * names, the tag sets. A leaf: it calls no overlay, dialog or view by
 * name (a view answers for its rows through its oc_listview_def). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/worker.h"
#include "ui/app.h"
#include "ui/listview.h"

void oc_app_message(struct oc_app *app, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->message, sizeof(app->message), fmt, ap);
	va_end(ap);
	app->message_is_error = error;
	app->dirty = true;
}

bool oc_app_writes_allowed(struct oc_app *app, char *why, size_t len)
{
	if (app->cfg->frozen_at) {
		snprintf(why, len, " a recorded snapshot (--snapshot): nothing here reaches a cluster");
		return false;
	}
	if (app->cfg->readonly) {
		snprintf(why, len, " read-only console (--readonly or \"readonly\": true in the profile)");
		return false;
	}
	if (!app->worker) {
		snprintf(why, len, " actions are not available (no connection for writes)");
		return false;
	}
	struct oc_whoami who;
	oc_worker_whoami(app->worker, &who);
	if (!who.known) {
		snprintf(why, len, " still asking Slurm who you are; try again in a moment");
		return false;
	}
	if (who.level == OC_ADMIN_NONE) {
		if (who.error[0])
			snprintf(why, len, " writes disabled: cannot tell your Slurm rights (%.200s)", who.error);
		else
			snprintf(why, len, " writes disabled: %.64s is not a Slurm operator or administrator (AdminLevel=None)",
				 who.user);
		return false;
	}
	return true;
}

const char *oc_app_selected(struct oc_app *app, enum oc_sel what, char *buf, size_t len)
{
	struct oc_listview *lv = app->view[app->cur];
	const struct oc_listview_def *def = lv->def;
	uint32_t item = oc_listview_selected(lv);
	if (item == UINT32_MAX || (def->is_group && def->is_group(lv, item) && what == OC_SEL_NODE))
		return NULL;
	const char *name = NULL;
	if (what == OC_SEL_NODE && def->tags == OC_TAG_NODES && def->tag_key)
		name = def->tag_key(lv, item, buf, len); /* a node row's key is its name */
	else if (what == OC_SEL_JOB && def->tags == OC_TAG_JOBS && def->tag_key)
		name = def->tag_key(lv, item, buf, len); /* a job row's key is its id */
	else if (def->selected)
		name = def->selected(lv, item, what, buf, len);
	return name && *name ? name : NULL;
}

/* ---- tag sets ---------------------------------------------------------- */

/* The index of key in t->keys, or -1. */
static long tagset_find(const struct oc_tagset *ct, const char *key)
{
	struct oc_tagset *t = (struct oc_tagset *)ct; /* the index is a cache */
	if (t->index_stale) {
		oc_strmap_free(&t->index);
		t->index_stale = false;
		for (size_t i = 0; i < t->n; i++)
			if (oc_strmap_put(&t->index, t->keys[i], (uint32_t)i) < 0) {
				oc_strmap_free(&t->index);
				t->index_stale = true;
				break;
			}
	}
	if (!t->index_stale) {
		uint32_t i = oc_strmap_get(&t->index, key);
		return i == UINT32_MAX ? -1 : (long)i;
	}
	for (size_t i = 0; i < t->n; i++) /* no memory for the index */
		if (strcmp(t->keys[i], key) == 0)
			return (long)i;
	return -1;
}

bool oc_tagset_has(const struct oc_tagset *t, const char *key)
{
	return t->n && tagset_find(t, key) >= 0;
}

bool oc_tagset_toggle(struct oc_tagset *t, const char *key)
{
	long at = t->n ? tagset_find(t, key) : -1;
	if (at >= 0) {
		free(t->keys[at]);
		t->keys[at] = t->keys[--t->n];
		t->index_stale = true;
		return false;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		char **k = realloc(t->keys, cap * sizeof(*k));
		if (!k)
			return false;
		t->keys = k;
		t->cap = cap;
	}
	char *dup = strdup(key);
	if (!dup)
		return false;
	t->keys[t->n] = dup;
	if (!t->index_stale && oc_strmap_put(&t->index, dup, (uint32_t)t->n) < 0)
		t->index_stale = true;
	t->n++;
	return true;
}

void oc_tagset_clear(struct oc_tagset *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->keys[i]);
	free(t->keys);
	oc_strmap_free(&t->index);
	memset(t, 0, sizeof(*t));
}

