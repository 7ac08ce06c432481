/* window.c: the change window's checks, names and paths (window.h). */
#include "rehearsal/window.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/hostlist.h"
#include "core/strbuf.h"

void oc_state_dir(char *out, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	if (state && state[0] == '/')
		snprintf(out, len, "%s/opsconsole", state);
	else if (home && *home)
		snprintf(out, len, "%s/.local/state/opsconsole", home);
	else
		snprintf(out, len, "/tmp/opsconsole-%u", (unsigned)getuid());
}

/* FNV-1a: a short stable tag of the nodes for file and reservation names. */
static uint32_t win_hash(const char *text)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static bool win_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			return false;
	return true;
}

int oc_window_prepare(const char *cluster, const char *nodes, const char *reason, const char *name,
		      struct oc_window *w, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	if (!nodes || !*nodes) {
		snprintf(err, errlen, "nodes: none given (the nodes of the window)");
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	char why[256] = "";
	if (strpbrk(nodes, " \t\"'") ||
	    oc_hostlist_expand_nodes(nodes, OC_WINDOW_MAX_NODES, &names, &n, why, sizeof(why)) < 0 || n == 0) {
		snprintf(err, errlen, "nodes \"%.200s\": not a hostlist expression of 1 to %d nodes%s%s", nodes,
			 OC_WINDOW_MAX_NODES, why[0] ? ": " : "", why);
		oc_hostlist_names_free(&names, n);
		return -1;
	}
	char *ranged = oc_hostlist_compress((const char *const *)names, n);
	oc_hostlist_names_free(&names, n);
	if (!ranged || strlen(ranged) >= sizeof(w->nodes)) {
		snprintf(err, errlen, "nodes \"%.200s\": %s", nodes, ranged ? "too long once ranged" : "out of memory");
		free(ranged);
		return -1;
	}
	snprintf(w->nodes, sizeof(w->nodes), "%s", ranged);
	free(ranged);
	w->count = (long)n;
	if (!reason)
		reason = "maintenance window";
	if (!*reason || strlen(reason) >= sizeof(w->reason) || strpbrk(reason, "\n\r")) {
		snprintf(err, errlen, "reason: one line of 1 to 1000 characters");
		return -1;
	}
	snprintf(w->reason, sizeof(w->reason), "%s", reason);
	uint32_t h = win_hash(w->nodes);
	if (name)
		snprintf(w->name, sizeof(w->name), "%.64s", name);
	else
		snprintf(w->name, sizeof(w->name), "maint-%08x", h);
	if (!name || strlen(name) <= 64) {
		if (!win_name_ok(w->name)) {
			snprintf(err, errlen, "name \"%.80s\": 1 to 64 of A-Z a-z 0-9 . _ -", name);
			return -1;
		}
	} else {
		snprintf(err, errlen, "name \"%.80s...\": 1 to 64 of A-Z a-z 0-9 . _ -", name);
		return -1;
	}
	if (strncmp(w->name, "pcluster-", 9) == 0) {
		snprintf(err, errlen,
			 "name \"%s\": pcluster-* reservations are ParallelCluster's (Capacity Blocks); choose another name",
			 w->name);
		return -1;
	}
	/* Tied to the nodes: the same name on other nodes is another window. */
	snprintf(w->suffix, sizeof(w->suffix), "%s-%08x", w->name, h);
	snprintf(w->state_name, sizeof(w->state_name), "window-%.100s-%s", cluster, w->suffix);
	char dir[PATH_MAX];
	oc_state_dir(dir, sizeof(dir));
	snprintf(w->progress, sizeof(w->progress), "%s/%s.progress.json", dir, w->state_name);
	snprintf(w->headline, sizeof(w->headline), "change window on %.400s (%ld %s, reservation %s)", w->nodes,
		 w->count, oc_plural((unsigned long long)w->count, "node", "nodes"), w->name);
	w->vars[0] = (struct oc_checklist_var){"nodes", w->nodes};
	w->vars[1] = (struct oc_checklist_var){"reason", w->reason};
	w->vars[2] = (struct oc_checklist_var){"resv_name", w->name};
	return 0;
}
