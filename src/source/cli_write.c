/* cli_write.c: the writer of actions/writer.h through the Slurm commands
 * over a transport (cli_source.h): scontrol update / create reservation /
 * delete, sacctmgr (through sacctmgr.c, the same parsing as the libslurm
 * writer), sbatch under runuser, scancel, sacct. Every value is one argv
 * word: a reason arrives at scontrol verbatim, whatever it holds (over SSH
 * the transport quotes each word). Errors are the command's own words.
 *
 * State: the Slurm version (for the node command), the remote user and
 * the configuration's SlurmUser and accounting type, learnt once, under a
 * lock: the functions may run on more than one thread. */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "actions/plan.h"
#include "core/hostlist.h"
#include "core/strbuf.h"
#include "source/cli_parse.h"
#include "source/cli_source.h"
#include "source/jobcmd.h"
#include "source/sacctmgr.h"

/* Most nodes one update names (as the libslurm writer). */
#define UPDATE_MAX_NODES 65536
#define SACCT_TIMEOUT_S 60

struct cli_writer {
	struct oc_transport *t;
	char bin[4096];
	pthread_mutex_t lock;
	int version; /* major * 100 + minor, 0 = not known */
	char user[64];
};

/* Error messages (core/strbuf.h). */
#define seterr oc_seterr

/* Run argv; 0 with *r, else -1 with err (the command's words). */
static int run(struct cli_writer *w, const char *const argv[], int timeout_s, struct oc_run_result *r, char *err,
	       size_t errlen)
{
	int rc = oc_cli_run(w->t, w->bin, argv, timeout_s, r, err, errlen);
	return rc == 0 ? 0 : -1;
}

/* A checked hostlist (core/hostlist.h: the rule both writers share): its
 * name count, or -1 with err. */
static long hostlist_check(const char *expr, char *err, size_t errlen)
{
	uint64_t count;
	if (oc_hostlist_check_nodes(expr, &count, err, errlen) < 0)
		return -1;
	return count > LONG_MAX ? LONG_MAX : (long)count;
}

static int cw_hostlist_expand(void *ctx, const char *expr, size_t max, char ***names, size_t *n, char *err,
			      size_t errlen)
{
	(void)ctx;
	return oc_hostlist_expand_nodes(expr, max, names, n, err, errlen);
}

static char *cw_hostlist_compress(void *ctx, const char *const *names, size_t n)
{
	(void)ctx;
	return oc_hostlist_compress(names, n);
}

/* The nodes of an update or a reboot: a good hostlist of at most
 * UPDATE_MAX_NODES names. 0, or -1 with err. */
static int targets_check(const char *expr, char *err, size_t errlen)
{
	long count = hostlist_check(expr, err, errlen);
	if (count < 0)
		return -1;
	if (count > UPDATE_MAX_NODES) {
		seterr(err, errlen, "hostlist names more than %d nodes", UPDATE_MAX_NODES);
		return -1;
	}
	return 0;
}

static int cw_node_update(void *ctx, const char *expr, enum oc_node_op op, const char *reason, char *err,
			  size_t errlen)
{
	struct cli_writer *w = ctx;
	if (targets_check(expr, err, errlen) < 0)
		return -1;
	const char *state;
	switch (op) {
	case OC_NODE_OP_DRAIN: {
		bool blank = true;
		for (const char *p = reason; p && *p; p++)
			if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
				blank = false;
		if (blank) {
			seterr(err, errlen, "a drain needs a reason");
			return -1;
		}
		state = "State=DRAIN";
		break;
	}
	case OC_NODE_OP_RESUME: state = "State=RESUME"; break;
	case OC_NODE_OP_UNDRAIN: state = "State=UNDRAIN"; break;
	case OC_NODE_OP_POWER_UP: state = "State=POWER_UP"; break;
	case OC_NODE_OP_POWER_DOWN: state = "State=POWER_DOWN"; break;
	case OC_NODE_OP_CANCEL_REBOOT: {
		const char *argv[] = {"scontrol", "cancel_reboot", expr, NULL};
		struct oc_run_result r;
		int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
		oc_run_result_clear(&r);
		return rc;
	}
	default: seterr(err, errlen, "unknown node operation %d", (int)op); return -1;
	}
	size_t nl = strlen(expr) + 10, rl = reason ? strlen(reason) + 8 : 0;
	char *nodes = malloc(nl), *why = op == OC_NODE_OP_DRAIN ? malloc(rl) : NULL;
	if (!nodes || (op == OC_NODE_OP_DRAIN && !why)) {
		free(nodes);
		free(why);
		seterr(err, errlen, "out of memory");
		return -1;
	}
	snprintf(nodes, nl, "NodeName=%s", expr);
	if (why)
		snprintf(why, rl, "Reason=%s", reason);
	const char *argv[] = {"scontrol", "update", nodes, state, why, NULL};
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	oc_run_result_clear(&r);
	free(nodes);
	free(why);
	return rc;
}

/* scontrol reboot, with the argv the confirmation shows. */
static int cw_node_reboot(void *ctx, const char *expr, const struct oc_reboot_spec *spec, char *err,
			  size_t errlen)
{
	struct cli_writer *w = ctx;
	if (targets_check(expr, err, errlen) < 0)
		return -1;
	struct oc_plan_reboot_words words;
	const char *argv[OC_PLAN_REBOOT_ARGV];
	oc_plan_reboot_argv(expr, spec, &words, argv);
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	oc_run_result_clear(&r);
	return rc;
}

/* A list of names ("root,alice", "MAINT,IGNORE_JOBS"): 0, or -1. */
static int list_check(const char *v, size_t size, const char *what, char *err, size_t errlen)
{
	if (!memchr(v, '\0', size)) {
		seterr(err, errlen, "%s is not terminated", what);
		return -1;
	}
	for (const char *p = v; *p; p++)
		if (!oc_node_name_char((unsigned char)*p) && *p != ',') {
			seterr(err, errlen, "%s: letters, digits, '-', '_', '.' and ',' only", what);
			return -1;
		}
	return 0;
}

static int cw_resv_create(void *ctx, const struct oc_resv_spec *spec, char *name_out, size_t name_len, char *err,
			  size_t errlen)
{
	struct cli_writer *w = ctx;
	if (name_out && name_len)
		name_out[0] = '\0';
	if (list_check(spec->name, sizeof(spec->name), "reservation name", err, errlen) < 0 ||
	    list_check(spec->users, sizeof(spec->users), "users", err, errlen) < 0 ||
	    list_check(spec->accounts, sizeof(spec->accounts), "accounts", err, errlen) < 0 ||
	    list_check(spec->flags, sizeof(spec->flags), "flags", err, errlen) < 0)
		return -1;
	if (strchr(spec->name, ',')) {
		seterr(err, errlen, "reservation name: letters, digits, '-', '_' and '.' only");
		return -1;
	}
	if (!memchr(spec->nodes, '\0', sizeof(spec->nodes)) || hostlist_check(spec->nodes, err, errlen) < 0)
		return -1;
	char name[160], nodes[4200], users[280], accounts[280], flags[280], start[64], duration[48];
	snprintf(name, sizeof(name), "ReservationName=%s", spec->name);
	snprintf(nodes, sizeof(nodes), "Nodes=%s", spec->nodes);
	snprintf(users, sizeof(users), "Users=%s", spec->users[0] ? spec->users : "root");
	snprintf(accounts, sizeof(accounts), "Accounts=%s", spec->accounts);
	snprintf(flags, sizeof(flags), "Flags=%s", spec->flags);
	if (spec->start) {
		struct tm tm;
		if (!localtime_r(&spec->start, &tm) || !strftime(start, sizeof(start), "StartTime=%Y-%m-%dT%H:%M:%S", &tm)) {
			seterr(err, errlen, "bad start time");
			return -1;
		}
	} else {
		snprintf(start, sizeof(start), "StartTime=now");
	}
	if (spec->duration_min == -1)
		snprintf(duration, sizeof(duration), "Duration=UNLIMITED");
	else if (spec->duration_min <= 0 || spec->duration_min >= 0xfffffffeL) {
		seterr(err, errlen, "duration must be a positive number of minutes, or -1 (infinite)");
		return -1;
	} else
		snprintf(duration, sizeof(duration), "Duration=%ld", spec->duration_min);
	const char *argv[12];
	size_t n = 0;
	argv[n++] = "scontrol";
	argv[n++] = "create";
	argv[n++] = "reservation";
	if (spec->name[0])
		argv[n++] = name;
	argv[n++] = nodes;
	argv[n++] = users;
	if (spec->accounts[0])
		argv[n++] = accounts;
	if (spec->flags[0])
		argv[n++] = flags;
	argv[n++] = start;
	argv[n++] = duration;
	argv[n] = NULL;
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0) {
		/* "Reservation created: NAME" */
		const char *p = strstr(r.out, "created: ");
		if (p) {
			p += 9;
			size_t l = strcspn(p, " \r\n");
			if (name_out && name_len)
				snprintf(name_out, name_len, "%.*s", (int)l, p);
		} else if (name_out && name_len) {
			snprintf(name_out, name_len, "%s", spec->name);
		}
	}
	oc_run_result_clear(&r);
	return rc;
}

static int cw_resv_delete(void *ctx, const char *name, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	if (!name || !*name) {
		seterr(err, errlen, "no reservation name");
		return -1;
	}
	for (const char *p = name; *p; p++)
		if (!oc_node_name_char((unsigned char)*p)) {
			seterr(err, errlen, "reservation name: letters, digits, '-', '_' and '.' only");
			return -1;
		}
	/* The whole name, whatever its length: a name cut short could delete
	 * another reservation whose name is that prefix. */
	size_t len = strlen(name) + sizeof("ReservationName=");
	char *arg = malloc(len);
	if (!arg) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	snprintf(arg, len, "ReservationName=%s", name);
	const char *argv[] = {"scontrol", "delete", arg, NULL};
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	oc_run_result_clear(&r);
	free(arg);
	return rc;
}

static int cw_stats_reset(void *ctx, char *err, size_t errlen)
{
	const char *argv[] = {"sdiag", "--reset", NULL};
	struct oc_run_result r;
	int rc = run(ctx, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	oc_run_result_clear(&r);
	return rc;
}

/* The Slurm version on the transport's host (once). */
static int writer_version(struct cli_writer *w, char *err, size_t errlen)
{
	pthread_mutex_lock(&w->lock);
	int v = w->version;
	pthread_mutex_unlock(&w->lock);
	if (v)
		return v;
	const char *argv[] = {"sinfo", "--version", NULL};
	struct oc_run_result r;
	if (run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen) == 0) {
		const char *sp = strchr(r.out, ' ');
		unsigned maj, min;
		if (sp && sscanf(sp + 1, "%u.%u", &maj, &min) == 2 && maj < 100 && min < 100)
			v = (int)(maj * 100 + min);
		else
			seterr(err, errlen, "sinfo --version: unexpected \"%.40s\"", r.out);
	}
	oc_run_result_clear(&r);
	pthread_mutex_lock(&w->lock);
	w->version = v;
	pthread_mutex_unlock(&w->lock);
	return v ? v : -1;
}

static int cw_read_nodes(void *ctx, struct oc_nodes **out, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	*out = NULL;
	int v = writer_version(w, err, errlen);
	if (v < 0)
		return -1;
	const char *nodes_argv[5];
	oc_cli_nodes_argv(v, nodes_argv);
	struct oc_run_result r;
	int rc = run(w, nodes_argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0)
		rc = oc_cli_parse_nodes_json(r.out, r.out_len, NULL, out, err, errlen);
	oc_run_result_clear(&r);
	return rc;
}

static int cw_read_reservations(void *ctx, struct oc_reservations **out, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	*out = NULL;
	const char *argv[] = {"scontrol", "--oneliner", "show", "reservation", NULL};
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0)
		rc = oc_cli_parse_reservations(r.out, r.out_len, NULL, NULL, out, err, errlen);
	oc_run_result_clear(&r);
	return rc;
}

static int cw_read_config(void *ctx, struct oc_config **out, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	*out = NULL;
	const char *argv[] = {"scontrol", "show", "config", NULL};
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0)
		rc = oc_cli_parse_config(r.out, r.out_len, NULL, out, err, errlen);
	oc_run_result_clear(&r);
	return rc;
}

/* The user commands run as on the transport's host (`id -un`, once). */
static int writer_user(struct cli_writer *w, char *user, size_t len, char *err, size_t errlen)
{
	pthread_mutex_lock(&w->lock);
	snprintf(user, len, "%s", w->user);
	pthread_mutex_unlock(&w->lock);
	if (user[0])
		return 0;
	const char *argv[] = {"id", "-un", NULL};
	struct oc_run_result r;
	memset(&r, 0, sizeof(r));
	char xerr[256];
	/* id is not a Slurm command: no slurm_bin prefix. */
	if (w->t->ops->run(w->t, argv, OC_CLI_TIMEOUT_S, &r, xerr, sizeof(xerr)) < 0 || r.exit_status != 0) {
		seterr(err, errlen, "id -un: %s", r.err_len ? r.errout : xerr);
		oc_run_result_clear(&r);
		return -1;
	}
	size_t l = strcspn(r.out, "\r\n");
	if (!l || l >= len) {
		seterr(err, errlen, "id -un printed no user name");
		oc_run_result_clear(&r);
		return -1;
	}
	snprintf(user, len, "%.*s", (int)l, r.out);
	oc_run_result_clear(&r);
	pthread_mutex_lock(&w->lock);
	snprintf(w->user, sizeof(w->user), "%s", user);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

/* The AdminLevel sacctmgr gives user. */
static int cw_admin_level(void *ctx, const char *user, enum oc_admin_level *level, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	const char *argv[] = {"sacctmgr", "-P", "-n", "show", "user", user, "format=adminlevel", NULL};
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0) {
		if (strncasecmp(r.out, "Administrator", 13) == 0)
			*level = OC_ADMIN_ADMIN;
		else if (strncasecmp(r.out, "Operator", 8) == 0)
			*level = OC_ADMIN_OPERATOR;
	}
	oc_run_result_clear(&r);
	return rc;
}

static int cw_whoami(void *ctx, char *user, size_t user_len, enum oc_admin_level *level, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	*level = OC_ADMIN_NONE;
	char name[64];
	if (user && user_len)
		user[0] = '\0';
	if (writer_user(w, name, sizeof(name), err, errlen) < 0)
		return -1;
	if (user && user_len)
		snprintf(user, user_len, "%s", name);
	bool root = strcmp(name, "root") == 0, slurm_user = false, accounting = false;
	if (!root) { /* root needs no configuration read */
		struct oc_config *cfg = NULL;
		if (cw_read_config(w, &cfg, err, errlen) < 0)
			return -1;
		const char *acct = oc_config_get(cfg, "AccountingStorageType");
		slurm_user = oc_is_slurm_user(oc_config_get(cfg, "SlurmUser"), name);
		accounting = acct && !strstr(acct, "/none");
		oc_config_unref(&cfg);
	}
	return oc_whoami_level(root, slurm_user, accounting, name, cw_admin_level, w, level, err, errlen);
}

static int cw_onb_read_state(void *ctx, const char *account, struct oc_onb_state *st, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	return oc_sacctmgr_read_state_on(w->t, w->bin, account, st, err, errlen);
}

static int cw_onb_run_step(void *ctx, const struct oc_onb_step *step, char *out, size_t outlen)
{
	struct cli_writer *w = ctx;
	return oc_sacctmgr_run_step_on(w->t, w->bin, step, out, outlen, OC_SACCTMGR_STEP_TIMEOUT_S);
}

static int cw_submit_job(void *ctx, const struct oc_job_spec *spec, uint32_t *job_id, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	*job_id = 0;
	if (err && errlen)
		err[0] = '\0';
	if (oc_jobcmd_check(spec, err, errlen) < 0)
		return -1;
	char me[64];
	if (writer_user(w, me, sizeof(me), err, errlen) < 0)
		return -1;
	bool as_root = strcmp(me, "root") == 0;
	if (!as_root && strcmp(me, spec->user) != 0) {
		seterr(err, errlen, "submitting as another user needs root (commands run as %s)", me);
		return -1;
	}
	char sbatch[4200];
	if (w->bin[0])
		snprintf(sbatch, sizeof(sbatch), "%s/sbatch", w->bin);
	else
		snprintf(sbatch, sizeof(sbatch), "sbatch");
	struct oc_jobcmd_args args;
	const char *argv[OC_JOBCMD_MAX_ARGV];
	oc_jobcmd_sbatch_argv(spec, as_root ? "runuser" : NULL, sbatch, &args, argv);
	struct oc_run_result r;
	char xerr[512], text[1024];
	/* argv[0] is runuser or a full sbatch path: no slurm_bin prefix. */
	if (w->t->ops->run(w->t, argv, 60, &r, xerr, sizeof(xerr)) < 0) {
		seterr(err, errlen, "%s", xerr);
		oc_run_result_clear(&r);
		return -1;
	}
	int status = r.exit_status;
	int rc;
	oc_jobcmd_join(text, sizeof(text), r.err_len ? r.errout : r.out);
	if (status == 0) {
		rc = oc_jobcmd_job_id(r.out, job_id) < 0 ? -1 : 0;
		if (rc < 0)
			seterr(err, errlen, "sbatch printed no job id: %s", text[0] ? text : "(nothing)");
	} else if (status < 0) {
		seterr(err, errlen, "sbatch %s%s%s", xerr, text[0] ? ": " : "", text);
		rc = -1;
	} else if (as_root && (strncmp(text, "runuser:", 8) == 0 || status == 126 || status == 127)) {
		seterr(err, errlen, "runuser failed (exit %d): %s", status, text[0] ? text : "(no output)");
		rc = -1;
	} else if (strstr(text, "Unable to contact slurm controller") || strstr(text, "Socket timed out") ||
		   strstr(text, "Connection refused")) {
		seterr(err, errlen, "%s", text);
		rc = -1;
	} else {
		seterr(err, errlen, "%s", text[0] ? text : "sbatch failed with no message");
		rc = 1;
	}
	oc_run_result_clear(&r);
	return rc;
}

/* A job id a command may name: 0 and 0xfffffffe and up are not jobs. */
static int job_id_check(uint32_t job_id, char *err, size_t errlen)
{
	if (job_id == 0 || job_id >= 0xfffffffeU) {
		seterr(err, errlen, "bad job id %u", (unsigned)job_id);
		return -1;
	}
	return 0;
}

/* Run a command that changes a job (scancel, scontrol). Returns 0; 1 when
 * it said the job had already ended ("scancel: error: Kill job error on
 * job id 123: Job/step already completing or completed"), whatever its
 * exit status; else -1 with its own words (stderr, or stdout when stderr
 * is empty, joined into one line). scancel 22.05 to 26.05 print that
 * only with -v: without, a plain cancel of an ended (or unknown) job is
 * silent with exit 0, and a signal to one says "Invalid job id
 * specified" with exit 1, which is -1 here. */
static int job_command(struct cli_writer *w, const char *const argv[], char *err, size_t errlen)
{
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	const char *text = r.err_len ? r.errout : r.out_len ? r.out : "";
	if (strstr(text, "already completing or completed")) {
		oc_jobcmd_join(err, errlen, text);
		rc = 1;
	} else if (rc < 0 && r.exit_status > 0 && text[0]) {
		oc_jobcmd_join(err, errlen, text);
	}
	oc_run_result_clear(&r);
	return rc;
}

static int cw_cancel_job(void *ctx, uint32_t job_id, int signal, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	if (job_id_check(job_id, err, errlen) < 0)
		return -1;
	if (signal < 0 || signal >= 65535) {
		seterr(err, errlen, "bad signal %d", signal);
		return -1;
	}
	char id[16], sig[16];
	snprintf(id, sizeof(id), "%u", (unsigned)job_id);
	snprintf(sig, sizeof(sig), "%d", signal);
	const char *plain[] = {"scancel", id, NULL};
	const char *batch[] = {"scancel", "-b", "-s", sig, id, NULL};
	int rc = job_command(w, signal ? batch : plain, err, errlen);
	/* As the libslurm writer: a plain cancel of an ended job is done, a
	 * signal to one is an error. */
	if (rc == 1)
		rc = signal ? -1 : 0;
	return rc;
}

static int cw_job_change(void *ctx, uint32_t job_id, const struct oc_job_change *c, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	if (err && errlen)
		err[0] = '\0';
	if (job_id_check(job_id, err, errlen) < 0 || oc_plan_check_job_change(c, err, errlen) < 0)
		return -1;
	/* The very words the plan shows. */
	struct oc_plan_job_words words;
	const char *argv[OC_PLAN_JOB_ARGV];
	oc_plan_job_argv(job_id, c, &words, argv);
	int rc = job_command(w, argv, err, errlen);
	/* Only scancel has nothing to do for an ended job. */
	if (rc == 1 && c->op != OC_JOB_OP_CANCEL && c->op != OC_JOB_OP_SIGNAL)
		rc = -1;
	return rc;
}

static int cw_read_job(void *ctx, uint32_t job_id, struct oc_job_now *out, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	memset(out, 0, sizeof(*out));
	if (job_id_check(job_id, err, errlen) < 0)
		return -1;
	char id[16];
	snprintf(id, sizeof(id), "%u", (unsigned)job_id);
	const char *argv[] = {"scontrol", "--oneliner", "show", "job", id, NULL};
	struct oc_run_result r;
	int rc = run(w, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0) {
		rc = oc_cli_parse_job_now(r.out, r.out_len, job_id, out, err, errlen);
	} else if (r.exit_status > 0 && r.err_len) {
		/* "slurm_load_jobs error: Invalid job id specified" (exit 1): not
		 * known; other words are the error. */
		char xerr[64];
		if (oc_cli_parse_job_now(r.errout, r.err_len, job_id, out, xerr, sizeof(xerr)) == 0 && !out->found) {
			rc = 0;
		} else {
			memset(out, 0, sizeof(*out));
			oc_jobcmd_join(err, errlen, r.errout);
		}
	}
	oc_run_result_clear(&r);
	return rc;
}

static int cw_sacct_users(void *ctx, time_t since, char *out, size_t outlen, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	if (out && outlen)
		out[0] = '\0';
	if (!out || !outlen) {
		seterr(err, errlen, "no room for the result");
		return -1;
	}
	struct tm tm;
	char start[32];
	if (!localtime_r(&since, &tm) || !strftime(start, sizeof(start), "%Y-%m-%dT%H:%M:%S", &tm)) {
		seterr(err, errlen, "bad start time %lld", (long long)since);
		return -1;
	}
	const char *argv[] = {"sacct", "-a", "-X", "-n", "-P", "-S", start, "-o", "user,account,jobid", NULL};
	struct oc_run_result r;
	int rc = run(w, argv, SACCT_TIMEOUT_S, &r, err, errlen);
	if (rc == 0 && r.err_len && strstr(r.errout, "sacct: error:")) {
		oc_jobcmd_join(out, outlen, r.errout);
		seterr(err, errlen, "%s", out);
		out[0] = '\0';
		rc = -1;
	}
	if (rc == 0)
		rc = oc_jobcmd_sacct_count(r.out, out, outlen, err, errlen);
	oc_run_result_clear(&r);
	return rc;
}

/* Marker files on the head node: plain coreutils over the transport. */
static long cw_read_file(void *ctx, const char *path, char *buf, size_t len, bool *missing, char *err,
			 size_t errlen)
{
	struct cli_writer *w = ctx;
	*missing = false;
	const char *argv[] = {"cat", "--", path, NULL};
	struct oc_run_result r;
	if (w->t->ops->run(w->t, argv, OC_CLI_TIMEOUT_S, &r, err, errlen) < 0) {
		oc_run_result_clear(&r);
		return -1;
	}
	long n = -1;
	if (r.exit_status == 0) {
		n = (long)(r.out_len < len ? r.out_len : len - 1);
		memcpy(buf, r.out, (size_t)n);
		buf[n] = '\0';
	} else if (strstr(r.errout, "No such file")) {
		*missing = true;
		n = 0;
	} else {
		oc_jobcmd_join(buf, len, r.errout);
		seterr(err, errlen, "cat %s on %s: %s", path, w->t->ops->describe(w->t),
		       buf[0] ? buf : "failed");
		buf[0] = '\0';
	}
	oc_run_result_clear(&r);
	return n;
}

static int cw_remove_file(void *ctx, const char *path, char *err, size_t errlen)
{
	struct cli_writer *w = ctx;
	const char *argv[] = {"rm", "-f", "--", path, NULL};
	struct oc_run_result r;
	int rc = w->t->ops->run(w->t, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0 && r.exit_status != 0) {
		seterr(err, errlen, "rm %s on %s: %.200s", path, w->t->ops->describe(w->t), r.errout);
		rc = -1;
	}
	oc_run_result_clear(&r);
	return rc;
}

static const struct oc_writer_ops cli_writer_ops = {
	.hostlist_expand = cw_hostlist_expand,
	.hostlist_compress = cw_hostlist_compress,
	.node_update = cw_node_update,
	.node_reboot = cw_node_reboot,
	.resv_create = cw_resv_create,
	.resv_delete = cw_resv_delete,
	.stats_reset = cw_stats_reset,
	.read_nodes = cw_read_nodes,
	.read_reservations = cw_read_reservations,
	.whoami = cw_whoami,
	.onb_read_state = cw_onb_read_state,
	.onb_run_step = cw_onb_run_step,
	.submit_job = cw_submit_job,
	.cancel_job = cw_cancel_job,
	.job_change = cw_job_change,
	.read_job = cw_read_job,
	.sacct_users = cw_sacct_users,
	.read_config = cw_read_config,
	.read_file = cw_read_file,
	.remove_file = cw_remove_file,
};

int oc_cli_writer_init(struct oc_writer *w, struct oc_transport *t, const char *slurm_bin, char *err, size_t errlen)
{
	w->ops = NULL;
	w->ctx = NULL;
	struct cli_writer *cw = calloc(1, sizeof(*cw));
	if (!cw || !t) {
		free(cw);
		seterr(err, errlen, t ? "out of memory" : "no transport");
		return -1;
	}
	if (slurm_bin && (size_t)snprintf(cw->bin, sizeof(cw->bin), "%s", slurm_bin) >= sizeof(cw->bin)) {
		free(cw);
		seterr(err, errlen, "slurm_bin too long");
		return -1;
	}
	int e = pthread_mutex_init(&cw->lock, NULL);
	if (e) {
		free(cw);
		seterr(err, errlen, "mutex: %s", strerror(e));
		return -1;
	}
	cw->t = t;
	w->ops = &cli_writer_ops;
	w->ctx = cw;
	return 0;
}

void oc_cli_writer_fini(struct oc_writer *w)
{
	if (!w || !w->ctx)
		return;
	struct cli_writer *cw = w->ctx;
	pthread_mutex_destroy(&cw->lock);
	free(cw);
	w->ctx = NULL;
	w->ops = NULL;
}
