/* dialog.h: the action dialogs (dialog.c): form, confirmation with the
 * equivalent command, the worker, the result. */
#ifndef OC_UI_DIALOG_H
#define OC_UI_DIALOG_H

#include "actions/writer.h"

struct oc_app;

/* Open the form of a node action (drain: nodes and reason). */
void oc_dialog_open_node(struct oc_app *app, enum oc_node_op op);
void oc_dialog_open_resv_create(struct oc_app *app);
void oc_dialog_open_resv_delete(struct oc_app *app);
/* The onboarding form: a new team, or the selected account of the quota
 * view to change (its users and QoS prefilled; deleting one removes it). */
void oc_dialog_open_onboard(struct oc_app *app);
/* The same for the account called name ("" = a new team). */
void oc_dialog_open_onboard_named(struct oc_app *app, const char *name);
/* The drain form for nodes with the reason filled in (editable), the
 * cursor at the end of the reason: the drain from a failed probe. */
void oc_dialog_open_drain(struct oc_app *app, const char *nodes, const char *reason);

#endif
