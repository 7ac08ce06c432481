/* views.h: the list views, one file each in views/. */
#ifndef OC_UI_VIEWS_H
#define OC_UI_VIEWS_H

#include <stdbool.h>

#include "ui/listview.h"

struct oc_app;

/* The list views. */
extern const struct oc_listview_def oc_lv_partitions;
extern const struct oc_listview_def oc_lv_queue;
extern const struct oc_listview_def oc_lv_nodes;
extern const struct oc_listview_def oc_lv_health;
extern const struct oc_listview_def oc_lv_quota;
extern const struct oc_listview_def oc_lv_reservations;
extern const struct oc_listview_def oc_lv_audit;
extern const struct oc_listview_def oc_lv_rehearsal;

/* The nodes view listing the nodes of one partition or reservation only
 * (kind "partition" or "reservation"), until Esc, another scope, or the
 * partition or reservation is gone (then every node, with a message).
 * The text filter is cleared. False when there is no nodes view. */
bool oc_nodes_scope(struct oc_app *app, const char *kind, const char *name);

/* :window: the rehearsal view shows the change window w (NULL: the
 * cluster's rehearsal again), its progress resumed from the file
 * `opsconsole window` uses. False with err while a step runs or when the
 * checklist or progress cannot be opened. */
struct oc_window;
bool oc_rehearsal_window(struct oc_app *app, const struct oc_window *w, char *err, size_t errlen);
extern const struct oc_listview_def oc_lv_history;
extern const struct oc_listview_def oc_lv_events;
extern const struct oc_listview_def oc_lv_sched;

#endif
