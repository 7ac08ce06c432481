/* forms/sched.c: resetting slurmctld's statistics counters (what `sdiag
 * --reset` does), from the scheduler view. Nothing to type: it opens at
 * the confirmation, which says what is lost. */
#include <stdio.h>
#include <string.h>

#include "actions/plan.h"
#include "core/strbuf.h"
#include "ui/app.h"
#include "ui/form.h"
#include "ui/forms.h"

static const char *const reset_labels[] = {"Counters"};

static int plan_reset(const struct oc_form_ctx *c, char *const *v, struct oc_action_req *req, char *text,
		      size_t textlen, char *err, size_t errlen)
{
	(void)c;
	if (strcmp(v[0], "all") != 0) {
		snprintf(err, errlen, "Counters: \"all\" (slurmctld resets them all at once)");
		return -1;
	}
	req->kind = OC_ACTION_STATS_RESET;
	snprintf(req->command, sizeof(req->command), "%s", OC_PLAN_STATS_RESET);
	oc_appendf(text, textlen,
		   "Reset slurmctld's statistics counters: job counts, scheduler cycles, RPC counts by type\n"
		   "and by user start again from zero (sdiag's \"Data since\" becomes now).\n\n"
		   "Equivalent command:\n  %s\n",
		   OC_PLAN_STATS_RESET);
	return 0;
}

const struct oc_form_kind oc_form_stats_reset = {
	.title = "Reset the scheduler statistics",
	.nfields = 1,
	.labels = reset_labels,
	.reason_field = -1,
	.at_confirm = true,
	.hint = "Enter review  Esc cancel",
	.choose_field = -1,
	.plan = plan_reset,
};

void oc_dialog_open_stats_reset(struct oc_app *app)
{
	const char *values[] = {"all"};
	oc_form_open(app, &oc_form_stats_reset, NULL, values, NULL, 0, false);
}
