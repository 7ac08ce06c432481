/* cli_run.c: one Slurm command over a transport, with its failure told in
 * the command's own words (cli_source.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/datafiles.h"
#include "source/cli_source.h"
#include "source/exec.h"

/* Copy text into err: whitespace-trimmed, newlines as "; ". */
static void words(const char *text, size_t len, char *err, size_t errlen)
{
	size_t o = 0;
	while (len && (*text == ' ' || *text == '\n' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\n' || text[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < len && o + 3 < errlen; i++) {
		if (text[i] == '\n') {
			err[o++] = ';';
			err[o++] = ' ';
		} else {
			err[o++] = text[i] == '\t' ? ' ' : text[i];
		}
	}
	if (errlen)
		err[o < errlen ? o : errlen - 1] = '\0';
}

#define MAX_ARGS 64

int oc_cli_run(struct oc_transport *t, const char *slurm_bin, const char *const argv[], int timeout_s,
	       struct oc_run_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	char prog[PATH_MAX];
	const char *av[MAX_ARGS + 1];
	size_t n = 0;
	while (argv[n] && n < MAX_ARGS)
		n++;
	if (argv[n]) {
		snprintf(err, errlen, "%s: too many arguments", argv[0]);
		return -1;
	}
	if (slurm_bin && *slurm_bin && !strchr(argv[0], '/')) {
		if ((size_t)snprintf(prog, sizeof(prog), "%s/%s", slurm_bin, argv[0]) >= sizeof(prog)) {
			snprintf(err, errlen, "%s: path too long", argv[0]);
			return -1;
		}
		av[0] = prog;
		/* The profile's folder of Slurm commands: run only what root or
		 * the user owns and nobody else can change (on this machine; a
		 * remote head node's folder is that machine's own business). */
		if (strcmp(t->ops->name, "local") == 0 &&
		    oc_path_trusted(prog, "Slurm command", err, errlen) < 0)
			return -1;
	} else {
		av[0] = argv[0];
	}
	for (size_t i = 1; i <= n; i++)
		av[i] = argv[i];
	char xerr[256] = "";
	if (t->ops->run(t, av, timeout_s, r, xerr, sizeof(xerr)) < 0) {
		snprintf(err, errlen, "%s", xerr[0] ? xerr : "cannot run the command");
		return -1;
	}
	if (r->exit_status == 0)
		return 0;
	if (r->exit_status == OC_EXEC_TIMED_OUT || r->exit_status == OC_EXEC_SIGNALED) {
		snprintf(err, errlen, "%s: %s", argv[0], xerr[0] ? xerr : "did not exit by itself");
		return 1;
	}
	if (r->err_len)
		words(r->errout, r->err_len, err, errlen);
	else if (r->out_len)
		words(r->out, r->out_len, err, errlen);
	else
		snprintf(err, errlen, "%s exited with status %d", argv[0], r->exit_status);
	return 1;
}

const char *oc_cli_json_opt(int version)
{
	return version >= 2411 && version <= 2605 ? "--json=v0.0.42" : "--json";
}

void oc_cli_nodes_argv(int version, const char *argv[5])
{
	const char *json = oc_cli_json_opt(version);
	if (version >= 2302) {
		argv[0] = "scontrol", argv[1] = json, argv[2] = "show", argv[3] = "nodes";
	} else {
		argv[0] = "sinfo", argv[1] = "--all", argv[2] = json, argv[3] = NULL;
	}
	argv[4] = NULL;
}
