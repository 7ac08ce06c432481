/* onboard_apply.c: run an onboarding: read the state, check, plan, run the
 * steps one by one (stop at the first failure), read back and compare.
 * The plan is built against the state read now, so a re-run after a
 * partial apply completes what is missing and leaves the rest alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/worker.h"
#include "core/strbuf.h"

static void report(oc_progress_fn progress, void *ctx, size_t done, size_t total, const char *what)
{
	if (!progress)
		return;
	struct oc_progress p = {.done = done, .total = total};
	snprintf(p.what, sizeof(p.what), "%s", what);
	progress(ctx, &p);
}

/* Read the state (unless the caller planned against one), check the spec
 * against it and build the plan. Returns 0 to go on, -1 when res (and
 * error) already say why nothing was applied. */
static int apply_prepare(const struct oc_writer *w, const struct oc_onb_spec *spec,
			 const struct oc_onb_state *planned, struct oc_onb_state *st, struct oc_onb_plan *plan,
			 struct oc_action_result *res, char *error, size_t errlen, char *err, size_t errsz,
			 oc_progress_fn progress, void *progress_ctx)
{
	if (planned) {
		*st = *planned;
	} else {
		report(progress, progress_ctx, 0, 0, "reading the accounting state");
		if (w->ops->onb_read_state(w->ctx, spec->account, st, err, errsz) < 0) {
			res->status = OC_ACTION_FAILED;
			snprintf(res->summary, sizeof(res->summary), "nothing applied: %.400s", err);
			snprintf(error, errlen, "%s", err);
			return -1;
		}
	}
	if (!planned && oc_onb_spec_check(spec, st, err, errsz) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "nothing applied: the onboarding does not fit the cluster");
		oc_appendf(res->details, sizeof(res->details), "%s\n", err);
		snprintf(error, errlen, "%s", err);
		return -1;
	}
	if (oc_onb_plan_build(spec, st, plan) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "out of memory");
		return -1;
	}
	return 0;
}

/* Run the steps in order; after the first failure the rest are listed as
 * not run, so a re-run knows what is left. Returns how many were done. */
static size_t apply_run_steps(const struct oc_writer *w, const struct oc_onb_plan *plan,
			      struct oc_action_result *res, char *error, size_t errlen, bool *failed,
			      oc_progress_fn progress, void *progress_ctx)
{
	size_t done = 0;
	*failed = false;
	for (size_t i = 0; i < plan->nsteps; i++) {
		const struct oc_onb_step *step = &plan->steps[i];
		if (*failed) {
			oc_appendf(res->details, sizeof(res->details), "[%zu/%zu] NOT RUN: %s\n", i + 1, plan->nsteps,
				   step->line);
			continue;
		}
		report(progress, progress_ctx, i, plan->nsteps, step->what);
		char out[2048] = "";
		int rc = w->ops->onb_run_step(w->ctx, step, out, sizeof(out));
		if (rc < 0) {
			*failed = true;
			/* sacctmgr's own words, on one line. */
			for (char *p = out; *p; p++)
				if (*p == '\n')
					*p = ' ';
			oc_appendf(res->details, sizeof(res->details), "[%zu/%zu] FAILED: %s\n        %s\n", i + 1,
				   plan->nsteps, step->line, out);
			snprintf(error, errlen, "step %zu (%s): %s", i + 1, step->what, out);
			continue;
		}
		done++;
		oc_appendf(res->details, sizeof(res->details), "[%zu/%zu] %s: %s\n", i + 1, plan->nsteps,
			   rc == 1 ? "already there" : "done", step->line);
	}
	return done;
}

/* Read the account back into after and list what still differs from the
 * spec into diff. Returns how many differences (1 when the read failed). */
static size_t apply_read_back(const struct oc_writer *w, const struct oc_onb_spec *spec,
			      struct oc_onb_state *after, struct oc_action_result *res, char *diff, size_t diffsz,
			      char *err, size_t errsz)
{
	if (w->ops->onb_read_state(w->ctx, spec->account, after, err, errsz) < 0) {
		oc_appendf(res->details, sizeof(res->details), "read-back failed: %s\n", err);
		return 1;
	}
	size_t ndiff = oc_onb_readback_diff(spec, after, diff, diffsz);
	if (ndiff)
		oc_appendf(res->details, sizeof(res->details), "\nStill different from what was asked:\n%s", diff);
	else
		oc_appendf(res->details, sizeof(res->details),
			   "\nRead back: associations, QoS and GrpTRES are as asked.\n");
	return ndiff;
}

void oc_onboard_apply(const struct oc_writer *w, const struct oc_onb_spec *spec,
		      const struct oc_onb_state *planned, struct oc_action_result *res, char *error, size_t errlen,
		      oc_progress_fn progress, void *progress_ctx)
{
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	struct oc_onb_state *after = calloc(1, sizeof(*after));
	struct oc_onb_plan plan = {0};
	char err[4096] = "";
	if (!st || !after) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "out of memory");
		goto out;
	}
	if (apply_prepare(w, spec, planned, st, &plan, res, error, errlen, err, sizeof(err), progress,
			  progress_ctx) < 0)
		goto out;
	if (plan.nsteps == 0) {
		res->status = OC_ACTION_OK;
		snprintf(res->summary, sizeof(res->summary), "nothing to change: %.128s is already as asked",
			 spec->account);
		goto out;
	}
	bool failed = false;
	size_t done = apply_run_steps(w, &plan, res, error, errlen, &failed, progress, progress_ctx);
	report(progress, progress_ctx, plan.nsteps, plan.nsteps, "reading back");
	char diff[4096] = "";
	size_t ndiff = apply_read_back(w, spec, after, res, diff, sizeof(diff), err, sizeof(err));
	if (failed) {
		res->status = done ? OC_ACTION_PARTIAL : OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary),
			 "%s: %zu of %zu %s applied, stopped at the first failure; run it again to complete",
			 done ? "partial" : "failed", done, plan.nsteps, oc_plural(plan.nsteps, "step", "steps"));
	} else if (ndiff) {
		res->status = OC_ACTION_PARTIAL;
		snprintf(res->summary, sizeof(res->summary), "applied %zu %s, but the read-back differs", done,
			 oc_plural(done, "step", "steps"));
		snprintf(error, errlen, "read-back differs: %s", diff);
	} else {
		res->status = OC_ACTION_OK;
		snprintf(res->summary, sizeof(res->summary), "onboarded %.128s: %zu %s applied", spec->account, done,
			 oc_plural(done, "step", "steps"));
	}
out:
	oc_onb_plan_free(&plan);
	free(st);
	free(after);
}

void oc_onboard_preview(const struct oc_writer *w, const struct oc_onb_spec *spec, struct oc_action_result *res,
			struct oc_onb_state *state_out)
{
	static const char mark[] = {[OC_ONB_NEW] = '+', [OC_ONB_CHANGE] = '~', [OC_ONB_SAME] = '=',
				    [OC_ONB_REMOVE] = '-'};
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	struct oc_onb_plan plan = {0};
	char err[4096] = "";
	res->status = OC_ACTION_FAILED;
	if (!st) {
		snprintf(res->summary, sizeof(res->summary), "out of memory");
		return;
	}
	if (w->ops->onb_read_state(w->ctx, spec->account, st, err, sizeof(err)) < 0) {
		snprintf(res->summary, sizeof(res->summary), "%.480s", err);
	} else if (oc_onb_spec_check(spec, st, err, sizeof(err)) < 0) {
		snprintf(res->summary, sizeof(res->summary), "the onboarding does not fit the cluster");
		oc_appendf(res->details, sizeof(res->details), "%s\n", err);
	} else if (oc_onb_plan_build(spec, st, &plan) < 0) {
		snprintf(res->summary, sizeof(res->summary), "out of memory");
	} else {
		res->status = OC_ACTION_OK;
		oc_appendf(res->details, sizeof(res->details), "%s %s:\n",
			   st->account_exists ? "Existing account" : "New account", spec->account);
		for (size_t i = 0; i < plan.ndiff; i++)
			oc_appendf(res->details, sizeof(res->details), "  %c %s\n", mark[plan.diff[i].kind],
				   plan.diff[i].text);
		if (plan.nsteps) {
			oc_appendf(res->details, sizeof(res->details), "\nsacctmgr commands, in order:\n");
			for (size_t i = 0; i < plan.nsteps; i++)
				oc_appendf(res->details, sizeof(res->details), "  %s\n", plan.steps[i].line);
			snprintf(res->summary, sizeof(res->summary), "%zu %s", plan.nsteps,
				 oc_plural(plan.nsteps, "step", "steps"));
		} else {
			snprintf(res->summary, sizeof(res->summary), "nothing to change");
		}
	}
	if (state_out && res->status == OC_ACTION_OK)
		*state_out = *st;
	oc_onb_plan_free(&plan);
	free(st);
}
