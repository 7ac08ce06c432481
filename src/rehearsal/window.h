/* window.h: a change window on nodes (checklist change-window, run by the
 * rehearsal engine): what `opsconsole window` and the console's :window
 * share, so that a window begun in one resumes in the other. The nodes
 * are checked and written in their ranged form (core/hostlist.h) (the hash that names
 * the progress file is of that form: the same nodes written another way
 * are the same window). */
#ifndef OC_REHEARSAL_WINDOW_H
#define OC_REHEARSAL_WINDOW_H

#include <limits.h>
#include <stddef.h>

#include "rehearsal/checklist.h"

#define OC_WINDOW_MAX_NODES 4096

struct oc_window {
	char nodes[4096];    /* ranged hostlist */
	long count;
	char reason[1001];
	char name[65];       /* the reservation */
	char suffix[80];     /* NAME-HASH */
	char state_name[256];   /* window-CLUSTER-NAME-HASH: the progress and report files' name */
	char progress[PATH_MAX + 384];
	char headline[1024]; /* "change window on ... (N nodes, reservation NAME)" */
	struct oc_checklist_var vars[3]; /* nodes, reason, resv_name: point into this struct */
};

/* The state folder: $XDG_STATE_HOME/opsconsole (absolute only), else
 * ~/.local/state/opsconsole, else /tmp/opsconsole-UID. */
void oc_state_dir(char *out, size_t len);

/* Fills w for cluster from the nodes (a hostlist expression of 1 to
 * OC_WINDOW_MAX_NODES valid names), the reason (one line, 1 to 1000
 * characters; NULL: "maintenance window") and the reservation name (NULL:
 * maint-HASH; 1 to 64 of A-Z a-z 0-9 . _ -, not pcluster-*). Returns 0, or
 * -1 with err naming the option (nodes, reason, name) and why. */
int oc_window_prepare(const char *cluster, const char *nodes, const char *reason, const char *name,
		      struct oc_window *w, char *err, size_t errlen);

#endif
