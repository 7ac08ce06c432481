#include "core/ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "name(addr)" or "name" into e (host, addr). */
static void ctl_split(const char *v, struct oc_ctld *e)
{
	size_t n = strcspn(v, "(");
	snprintf(e->host, sizeof(e->host), "%.*s", (int)(n < sizeof(e->host) ? n : sizeof(e->host) - 1), v);
	e->addr[0] = '\0';
	if (v[n] == '(') {
		const char *a = v + n + 1;
		size_t al = strcspn(a, ")");
		if (al && !(al == n && strncmp(a, v, n) == 0))
			snprintf(e->addr, sizeof(e->addr), "%.*s",
				 (int)(al < sizeof(e->addr) ? al : sizeof(e->addr) - 1), a);
	}
}

/* prev's entry for host (NULL when it has none). */
static const struct oc_ctld *ctl_find(const struct oc_ctld *v, int n, const char *host)
{
	for (int i = 0; i < n; i++)
		if (strcmp(v[i].host, host) == 0)
			return &v[i];
	return NULL;
}

static void ctl_keep(struct oc_ctld *e, const struct oc_ctld *old)
{
	if (!old)
		return;
	e->state = old->state;
	e->in_control = old->in_control;
	e->since = old->since;
	e->since_seen = old->since_seen;
}

void oc_ctl_from_config(const struct oc_config *cfg, const struct oc_controllers *prev,
			struct oc_controllers *out)
{
	*out = *prev;
	if (!cfg || !cfg->n)
		return;
	struct oc_controllers c;
	memset(&c, 0, sizeof(c));
	c.in_control = -1;
	c.checked = prev->checked;
	memcpy(c.error, prev->error, sizeof(c.error));
	for (int i = 0; i < OC_CTLD_MAX; i++) {
		char key[32];
		snprintf(key, sizeof(key), "SlurmctldHost[%d]", i);
		const char *v = oc_config_get(cfg, key);
		if (!v || !*v)
			break;
		ctl_split(v, &c.v[c.n]);
		c.n++;
	}
	if (!c.n) {
		/* Before 17.11 and in some dumps: ControlMachine, BackupController. */
		const char *v = oc_config_get(cfg, "ControlMachine");
		if (v && *v && strcmp(v, "(null)") != 0)
			ctl_split(v, &c.v[c.n++]);
		v = oc_config_get(cfg, "BackupController");
		if (c.n && v && *v && strcmp(v, "(null)") != 0)
			ctl_split(v, &c.v[c.n++]);
	}
	for (int i = 0; i < c.n; i++) {
		const struct oc_ctld *old = ctl_find(prev->v, prev->n, c.v[i].host);
		ctl_keep(&c.v[i], old);
		if (old && old->in_control)
			c.in_control = i;
	}
	const char *type = oc_config_get(cfg, "AccountingStorageType");
	if (type && strstr(type, "slurmdbd")) {
		static const char *const keys[2] = {"AccountingStorageHost", "AccountingStorageBackupHost"};
		for (int k = 0; k < 2; k++) {
			const char *v = oc_config_get(cfg, keys[k]);
			if (!v || !*v || strcmp(v, "(null)") == 0)
				continue;
			ctl_split(v, &c.dbd[c.ndbd]);
			ctl_keep(&c.dbd[c.ndbd], ctl_find(prev->dbd, prev->ndbd, c.dbd[c.ndbd].host));
			c.dbd[c.ndbd].in_control = false;
			c.ndbd++;
		}
	}
	*out = c;
}

/* e's since after its state (or control) changed at now, or was first seen. */
static void ctl_mark(struct oc_ctld *e, const struct oc_ctld *old, bool changed, time_t now)
{
	if (!old || !old->since || (old->state == OC_CTLD_UNKNOWN && changed)) {
		e->since = now;
		e->since_seen = true;
	} else if (changed) {
		e->since = now;
		e->since_seen = false;
	}
}

void oc_ctl_judge(struct oc_controllers *c, const struct oc_controllers *prev, int data_ok, time_t boot,
		  time_t now)
{
	int first_up = -1;
	for (int i = 0; i < c->n; i++)
		if (c->v[i].state == OC_CTLD_UP) {
			first_up = i;
			break;
		}
	int prev_in = -1;
	for (int i = 0; i < prev->n; i++)
		if (prev->v[i].in_control)
			prev_in = i;
	const struct oc_ctld *prev_ctl = prev_in >= 0 ? &prev->v[prev_in] : NULL;
	int in = -1;
	if (data_ok > 0) {
		in = first_up;
	} else if (data_ok < 0 && prev_ctl) {
		/* Between the ping and the requests: the one in control stays
		 * so while it answers. */
		for (int i = 0; i < c->n; i++)
			if (strcmp(c->v[i].host, prev_ctl->host) == 0 && c->v[i].state == OC_CTLD_UP)
				in = i;
	}
	c->in_control = in;
	for (int i = 0; i < c->n; i++) {
		struct oc_ctld *e = &c->v[i];
		const struct oc_ctld *old = ctl_find(prev->v, prev->n, e->host);
		bool was_in = old && old->in_control;
		e->in_control = i == in;
		bool changed = !old || old->state != e->state || was_in != e->in_control;
		ctl_mark(e, old, changed, now);
		/* The primary in control the first time the console sees it: it
		 * took control when it started. */
		if (e->in_control && i == 0 && (!old || old->state == OC_CTLD_UNKNOWN) && boot > 0 &&
		    boot <= now) {
			e->since = boot;
			e->since_seen = false;
		}
	}
	for (int k = 0; k < c->ndbd; k++) {
		struct oc_ctld *e = &c->dbd[k];
		const struct oc_ctld *old = ctl_find(prev->dbd, prev->ndbd, e->host);
		ctl_mark(e, old, !old || old->state != e->state, now);
	}
}

bool oc_ctl_changed(const struct oc_controllers *a, const struct oc_controllers *b)
{
	if (a->n != b->n || a->ndbd != b->ndbd || a->in_control != b->in_control || strcmp(a->error, b->error))
		return true;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->v[i].host, b->v[i].host) || strcmp(a->v[i].addr, b->v[i].addr) ||
		    a->v[i].state != b->v[i].state || a->v[i].in_control != b->v[i].in_control ||
		    a->v[i].since != b->v[i].since || a->v[i].since_seen != b->v[i].since_seen)
			return true;
	for (int k = 0; k < a->ndbd; k++)
		if (strcmp(a->dbd[k].host, b->dbd[k].host) || a->dbd[k].state != b->dbd[k].state ||
		    a->dbd[k].since != b->dbd[k].since)
			return true;
	return false;
}

void oc_ctl_when(time_t t, time_t now, char *buf, size_t len)
{
	if (!t) {
		snprintf(buf, len, "?");
		return;
	}
	struct tm tm, tn;
	localtime_r(&t, &tm);
	localtime_r(&now, &tn);
	if (tm.tm_year == tn.tm_year && tm.tm_yday == tn.tm_yday)
		strftime(buf, len, "%H:%M:%S", &tm);
	else
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

static const char *ctl_word(const struct oc_controllers *c, const struct oc_ctld *e, bool any_in)
{
	if (e->in_control)
		return c->n == 1 ? "up" : "in control";
	switch (e->state) {
	case OC_CTLD_UP: return any_in ? "standby" : "answers";
	case OC_CTLD_DOWN: return "DOWN";
	default: return "not checked";
	}
}

/* The long form into buf; returns its length (len or more when cut). */
static size_t ctl_words(const struct oc_controllers *c, bool any_in, int with_since, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "ctld");
	for (int i = 0; i < c->n && used < len; i++) {
		const struct oc_ctld *e = &c->v[i];
		char when[48] = "";
		if (with_since && (e->in_control || e->state == OC_CTLD_DOWN)) {
			char t[24];
			oc_ctl_when(e->since, e->since, t, sizeof(t));
			snprintf(when, sizeof(when), " since %s%s", e->since_seen ? "<=" : "", t);
		}
		used += (size_t)snprintf(buf + used, len - used, "%s %s %s%s", i ? "," : "", e->host,
					 ctl_word(c, e, any_in), when);
	}
	if (used < len && !any_in && c->n > 1)
		used += (size_t)snprintf(buf + used, len - used, ", none in control");
	return used;
}

void oc_ctl_header(const struct oc_controllers *c, int width, char *buf, size_t len, int *bad)
{
	buf[0] = '\0';
	*bad = 0;
	if (!c->n)
		return;
	bool any_in = c->in_control >= 0;
	if (!any_in)
		*bad = 2;
	for (int i = 0; i < c->n; i++)
		if ((c->v[i].in_control && i > 0) || c->v[i].state == OC_CTLD_DOWN)
			*bad = *bad > 1 ? *bad : 1;
	/* Long: "ctld oc-ctld1 in control since 06:01:12, oc-ctld2 standby",
	 * then the same without the times. */
	for (int with_since = 1; with_since >= 0; with_since--) {
		if (ctl_words(c, any_in, with_since, buf, len) <= (size_t)width)
			return;
	}
	/* Short: "ctld oc-ctld1* oc-ctld2!" */
	size_t used = (size_t)snprintf(buf, len, "ctld");
	for (int i = 0; i < c->n && used < len; i++) {
		const struct oc_ctld *e = &c->v[i];
		const char *mark = e->in_control	     ? "*"
				   : e->state == OC_CTLD_DOWN ? "!"
				   : e->state == OC_CTLD_UP   ? ""
							      : "?";
		used += (size_t)snprintf(buf + used, len - used, " %s%s", e->host, mark);
	}
	if (used < len && !any_in)
		snprintf(buf + used, len - used, " (none in control)");
}
