/* onboard_cli.c: `opsconsole onboard --cluster NAME --file F [--dry-run]
 * [--yes]`: the same engine as the console's onboarding form, for files
 * and scripts. Prints the preview (diff and the exact sacctmgr command
 * lines, in order), then applies step by step with progress, stops at the
 * first failure, reads back and compares. */
#include "onboard_cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions/onboard.h"
#include "actions/worker.h"
#include "core/strbuf.h"
#include "session_setup.h"

static void onboard_usage(FILE *out)
{
	fprintf(out,
		"Usage: opsconsole onboard --cluster NAME --file TEAM.json [--dry-run] [--yes]\n"
		"Onboard a team (a Slurm account) and its users with sacctmgr, as described\n"
		"in TEAM.json (see docs/onboarding.md). Shows what is new, what changes and\n"
		"what is already there, and the exact sacctmgr command lines, then applies\n"
		"them one by one (asking first on a terminal; --yes for scripts), stops at\n"
		"the first failure, and reads the result back. A re-run completes what is\n"
		"missing and changes nothing that is already right.\n"
		"\n"
		"  -c, --cluster NAME  the cluster's profile (as for the console)\n"
		"  -f, --file F        the onboarding file\n"
		"  -n, --dry-run       show the preview only\n"
		"  -y, --yes           apply without asking\n"
		"\n"
		"Exit status: 0 applied or nothing to change, 1 failed or partial,\n"
		"2 bad file, bad input or usage.\n");
}

static void print_progress(void *ctx, const struct oc_progress *p)
{
	(void)ctx;
	if (p->total)
		printf("[%zu/%zu] %s\n", p->done + 1 > p->total ? p->total : p->done + 1, p->total, p->what);
	else
		printf("... %s\n", p->what);
	fflush(stdout);
}

/* What the command line asked for. */
struct onb_opts {
	const char *cluster, *file;
	int dry_run, yes;
};

/* Parses the options into o. Returns -1 to go on, else the exit code
 * (--help, bad options: the usage is printed). */
static int onboard_parse(int argc, char **argv, struct onb_opts *o)
{
	static const struct option opts[] = {
		{"cluster", required_argument, NULL, 'c'}, {"file", required_argument, NULL, 'f'},
		{"dry-run", no_argument, NULL, 'n'},	   {"yes", no_argument, NULL, 'y'},
		{"help", no_argument, NULL, 'h'},	   {NULL, 0, NULL, 0},
	};
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "c:f:nyh", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': o->cluster = optarg; break;
		case 'f': o->file = optarg; break;
		case 'n': o->dry_run = 1; break;
		case 'y': o->yes = 1; break;
		case 'h': onboard_usage(stdout); return 0;
		default: onboard_usage(stderr); return 2;
		}
	}
	if (optind < argc || !o->file) {
		fprintf(stderr, optind < argc ? "opsconsole onboard: unexpected argument '%s'\n"
					      : "opsconsole onboard: --file is required%s\n",
			optind < argc ? argv[optind] : "");
		onboard_usage(stderr);
		return 2;
	}
	return -1;
}

/* The account as the cluster has it into st, the file checked against it
 * (a user in another team, a QoS that does not exist), and the plan.
 * Returns -1 to go on, else the exit code after saying why. */
static int onboard_plan(const struct oc_setup *su, const char *file, const struct oc_action_req *req,
			struct oc_onb_state *st, struct oc_onb_plan *plan)
{
	char err[8192];
	if (su->writer.ops->onb_read_state(su->writer.ctx, req->onb.account, st, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: nothing applied: %s\n", err);
		return 1;
	}
	if (oc_onb_spec_check(&req->onb, st, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s: nothing applied:\n%s\n", file, err);
		return 2;
	}
	if (oc_onb_plan_build(&req->onb, st, plan) < 0) {
		fprintf(stderr, "opsconsole onboard: out of memory\n");
		return 1;
	}
	return -1;
}

/* The preview: what is new, changes or is there, and the sacctmgr lines
 * in order, which also make the audit line's command. Returns -1 when
 * there is something to apply, else 0. */
static int onboard_show(const char *cluster, struct oc_action_req *req, const struct oc_onb_state *st,
			const struct oc_onb_plan *plan)
{
	static const char mark[] = {[OC_ONB_NEW] = '+', [OC_ONB_CHANGE] = '~', [OC_ONB_SAME] = '=', [OC_ONB_REMOVE] = '-'};
	printf("Onboarding %s on cluster %s (%s):\n", req->onb.account, cluster,
	       st->account_exists ? "existing account" : "new account");
	for (size_t i = 0; i < plan->ndiff; i++)
		printf("  %c %s\n", mark[plan->diff[i].kind], plan->diff[i].text);
	if (plan->nsteps == 0) {
		printf("nothing to change: %s is already as asked\n", req->onb.account);
		return 0;
	}
	printf("\nsacctmgr commands, in order:\n");
	for (size_t i = 0; i < plan->nsteps; i++) {
		printf("  %s\n", plan->steps[i].line);
		oc_appendf(req->command, sizeof(req->command), "%s%s", i ? " ; " : "", plan->steps[i].line);
	}
	return -1;
}

/* Whether to apply: not with --dry-run; with --yes, or when the operator
 * answers y on a terminal. Returns -1 to apply, else the exit code. */
static int onboard_go_ahead(const struct onb_opts *o, size_t nsteps)
{
	if (o->dry_run) {
		printf("\n--dry-run: nothing applied\n");
		return 0;
	}
	if (o->yes)
		return -1;
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "opsconsole onboard: not asking on a non-terminal: add --yes to apply\n");
		return 2;
	}
	printf("\nApply %zu %s? [y/N] ", nsteps, oc_plural(nsteps, "step", "steps"));
	fflush(stdout);
	char answer[16] = "";
	if (!fgets(answer, sizeof(answer), stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
		printf("nothing applied\n");
		return 0;
	}
	return -1;
}

/* Applies the plan step by step with progress, reads back, and returns the
 * exit code. */
static int onboard_apply(const struct oc_setup *su, const struct oc_action_req *req, const struct oc_onb_state *st)
{
	struct oc_action_result res;
	/* Exactly the commands shown above, even if the cluster changed since. */
	oc_onboard_apply_planned(&su->writer, su->profile.name, su->audit_log, req, st, &res, print_progress, NULL);
	printf("\n%s%s\n", res.details, res.summary);
	if (res.audit_error[0])
		fprintf(stderr, "opsconsole onboard: AUDIT LOG NOT WRITTEN: %s\n", res.audit_error);
	return res.status == OC_ACTION_OK ? 0 : 1;
}

/* With the writer open: plan, show, ask, apply. Returns the exit code. */
static int onboard_run(const struct oc_setup *su, const struct onb_opts *o, struct oc_action_req *req)
{
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	struct oc_onb_plan plan = {0};
	int rc = st ? onboard_plan(su, o->file, req, st, &plan) : 1;
	if (rc < 0)
		rc = onboard_show(su->profile.name, req, st, &plan);
	if (rc < 0)
		rc = onboard_go_ahead(o, plan.nsteps);
	if (rc < 0)
		rc = onboard_apply(su, req, st);
	oc_onb_plan_free(&plan);
	free(st);
	return rc;
}

int oc_onboard_cli(int argc, char **argv)
{
	struct onb_opts o = {0};
	int rc = onboard_parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	struct oc_setup su;
	oc_setup_init(&su, "opsconsole onboard");
	rc = oc_setup_profile(&su, o.cluster);
	if (rc)
		return rc;

	static struct oc_action_req req; /* large: not on the stack */
	memset(&req, 0, sizeof(req));
	req.kind = OC_ACTION_ONBOARD;
	char err[8192];
	if (oc_onb_spec_load(o.file, &req.onb, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s\n", err);
		return 2;
	}
	if (oc_onb_spec_check(&req.onb, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s: nothing applied:\n%s\n", o.file, err);
		return 2;
	}
	rc = oc_setup_open(&su, true, err, sizeof(err)) < 0 ? 1 : onboard_run(&su, &o, &req);
	oc_setup_close(&su);
	return rc;
}
