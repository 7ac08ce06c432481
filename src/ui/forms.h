/* forms.h: the write forms, one file each in forms/ (a form kind of the
 * engine in form.h): their open functions, which the actions call, and
 * their kinds (tests/unit/test_forms.c reads them without a terminal). */
#ifndef OC_UI_FORMS_H
#define OC_UI_FORMS_H

#include "actions/writer.h"
#include "ui/form.h"

struct oc_app;

/* forms/nodes.c */
extern const struct oc_form_kind oc_form_drain, oc_form_resume, oc_form_undrain, oc_form_reboot, oc_form_cancel_reboot,
	oc_form_power_up, oc_form_power_down;
/* The form of a node action on the tagged nodes, else the selected one
 * (drain: nodes and reason). */
void oc_dialog_open_node(struct oc_app *app, enum oc_node_op op);
/* The drain form for nodes with the reason filled in (editable), the
 * cursor at the end of the reason: the drain from a failed probe. */
void oc_dialog_open_drain(struct oc_app *app, const char *nodes, const char *reason);

/* forms/resv.c */
extern const struct oc_form_kind oc_form_resv_create, oc_form_resv_delete;
void oc_dialog_open_resv_create(struct oc_app *app);
/* Opens at the confirmation of the selected reservation's delete. */
void oc_dialog_open_resv_delete(struct oc_app *app);

/* forms/sched.c */
extern const struct oc_form_kind oc_form_stats_reset;
/* Opens at the confirmation of `sdiag --reset`. */
void oc_dialog_open_stats_reset(struct oc_app *app);

/* forms/onboard.c */
extern const struct oc_form_kind oc_form_onboard;
/* The onboarding form: a new team, or the selected account of the quota
 * view to change (its users and QoS prefilled; deleting one removes it). */
void oc_dialog_open_onboard(struct oc_app *app);
/* The same for the account called name ("" = a new team). */
void oc_dialog_open_onboard_named(struct oc_app *app, const char *name);

/* forms/jobs.c */
extern const struct oc_form_kind oc_form_job_cancel, oc_form_job_signal, oc_form_job_hold, oc_form_job_release,
	oc_form_job_requeue, oc_form_job_requeue_hold, oc_form_job_time_limit, oc_form_job_partition, oc_form_job_qos,
	oc_form_job_nice, oc_form_job_priority;
/* The form of a job action on the tagged jobs, else the selected one
 * (refused with a message when there is none); value fills its value
 * field (a signal, a time limit...; NULL: empty, USR1 for a signal). */
void oc_dialog_open_job(struct oc_app *app, enum oc_job_op op, const char *value);

#endif
