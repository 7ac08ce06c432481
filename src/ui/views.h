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
extern const struct oc_listview_def oc_lv_history;
extern const struct oc_listview_def oc_lv_events;
extern const struct oc_listview_def oc_lv_sched;

#endif
