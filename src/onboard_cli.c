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

#include "actions/audit.h"
#include "actions/onboard.h"
#include "actions/worker.h"
#include "core/strbuf.h"
#include "connect.h"
#include "source/source.h"

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

int oc_onboard_cli(int argc, char **argv, const struct oc_profile *profile_in,
		   int (*resolve)(const char *name, struct oc_profile *p))
{
	const char *cluster = NULL, *file = NULL;
	int dry_run = 0, yes = 0;
	static const struct option opts[] = {
		{"cluster", required_argument, NULL, 'c'}, {"file", required_argument, NULL, 'f'},
		{"dry-run", no_argument, NULL, 'n'},	   {"yes", no_argument, NULL, 'y'},
		{"help", no_argument, NULL, 'h'},	   {NULL, 0, NULL, 0},
	};
	(void)profile_in;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "c:f:nyh", opts, NULL)) != -1) {
		switch (ch) {
		case 'c': cluster = optarg; break;
		case 'f': file = optarg; break;
		case 'n': dry_run = 1; break;
		case 'y': yes = 1; break;
		case 'h': onboard_usage(stdout); return 0;
		default: onboard_usage(stderr); return 2;
		}
	}
	if (optind < argc || !file) {
		fprintf(stderr, optind < argc ? "opsconsole onboard: unexpected argument '%s'\n"
					      : "opsconsole onboard: --file is required%s\n",
			optind < argc ? argv[optind] : "");
		onboard_usage(stderr);
		return 2;
	}
	struct oc_profile profile;
	int rc = resolve(cluster, &profile);
	if (rc)
		return rc;

	static struct oc_action_req req; /* large: not on the stack */
	memset(&req, 0, sizeof(req));
	req.kind = OC_ACTION_ONBOARD;
	char err[8192];
	if (oc_onb_spec_load(file, &req.onb, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s\n", err);
		return 2;
	}
	if (oc_onb_spec_check(&req.onb, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s: nothing applied:\n%s\n", file, err);
		return 2;
	}
	struct oc_connection conn;
	struct oc_backend *backend = oc_connect_backend(&profile, &conn, err, sizeof(err));
	if (!backend) {
		fprintf(stderr, "opsconsole onboard: %s: %s\n", profile.name, err);
		return 1;
	}
	struct oc_writer writer = {0};
	if (oc_connect_writer(&conn, &writer, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s\n", err);
		oc_backend_close(&backend);
		oc_connect_close(&conn);
		return 1;
	}
	int exit_code = 1;
	struct oc_onb_state *st = calloc(1, sizeof(*st));
	struct oc_onb_plan plan = {0};
	if (!st)
		goto out;
	if (writer.ops->onb_read_state(writer.ctx, req.onb.account, st, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: nothing applied: %s\n", err);
		goto out;
	}
	if (oc_onb_spec_check(&req.onb, st, err, sizeof(err)) < 0) {
		fprintf(stderr, "opsconsole onboard: %s: nothing applied:\n%s\n", file, err);
		exit_code = 2;
		goto out;
	}
	if (oc_onb_plan_build(&req.onb, st, &plan) < 0) {
		fprintf(stderr, "opsconsole onboard: out of memory\n");
		goto out;
	}
	static const char mark[] = {[OC_ONB_NEW] = '+', [OC_ONB_CHANGE] = '~', [OC_ONB_SAME] = '=', [OC_ONB_REMOVE] = '-'};
	printf("Onboarding %s on cluster %s (%s):\n", req.onb.account, profile.name,
	       st->account_exists ? "existing account" : "new account");
	for (size_t i = 0; i < plan.ndiff; i++)
		printf("  %c %s\n", mark[plan.diff[i].kind], plan.diff[i].text);
	if (plan.nsteps == 0) {
		printf("nothing to change: %s is already as asked\n", req.onb.account);
		exit_code = 0;
		goto out;
	}
	printf("\nsacctmgr commands, in order:\n");
	for (size_t i = 0; i < plan.nsteps; i++) {
		printf("  %s\n", plan.steps[i].line);
		oc_appendf(req.command, sizeof(req.command), "%s%s", i ? " ; " : "", plan.steps[i].line);
	}
	if (dry_run) {
		printf("\n--dry-run: nothing applied\n");
		exit_code = 0;
		goto out;
	}
	if (!yes) {
		if (!isatty(STDIN_FILENO)) {
			fprintf(stderr, "opsconsole onboard: not asking on a non-terminal: add --yes to apply\n");
			exit_code = 2;
			goto out;
		}
		printf("\nApply %zu step%s? [y/N] ", plan.nsteps, plan.nsteps == 1 ? "" : "s");
		fflush(stdout);
		char answer[16] = "";
		if (!fgets(answer, sizeof(answer), stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
			printf("nothing applied\n");
			exit_code = 0;
			goto out;
		}
	}
	char audit[4096];
	oc_audit_profile_path(&profile, audit, sizeof(audit));
	struct oc_action_result res;
	/* Exactly the commands shown above, even if the cluster changed since. */
	oc_onboard_apply_planned(&writer, profile.name, audit, &req, st, &res, print_progress, NULL);
	printf("\n%s%s\n", res.details, res.summary);
	if (res.audit_error[0])
		fprintf(stderr, "opsconsole onboard: AUDIT LOG NOT WRITTEN: %s\n", res.audit_error);
	exit_code = res.status == OC_ACTION_OK ? 0 : 1;
out:
	oc_onb_plan_free(&plan);
	free(st);
	oc_connect_writer_fini(&conn, &writer);
	oc_backend_close(&backend);
	oc_connect_close(&conn);
	return exit_code;
}
