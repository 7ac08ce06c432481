/* detail.h: the node detail panel (detail.c), an overlay. */
#ifndef OC_UI_DETAIL_H
#define OC_UI_DETAIL_H

struct oc_app;

/* Open the detail panel of a node (or show that node in the open one). */
void oc_app_show_node(struct oc_app *app, const char *node);

#endif
