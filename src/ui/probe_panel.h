/* probe_panel.h: the node probe results panel (probe.c), an overlay. */
#ifndef OC_UI_PROBE_PANEL_H
#define OC_UI_PROBE_PANEL_H

struct oc_app;

/* Probe the tagged nodes, else the selected one of the nodes or health
 * view, and show the results panel (an overlay). */
void oc_probe_panel_open(struct oc_app *app);

#endif
