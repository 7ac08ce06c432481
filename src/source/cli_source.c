/* cli_source.c: the CLI backend (cli_source.h). Each part is one command
 * (two or three for accounting) run over the transport and parsed by the
 * parsers of cli_parse.h:
 *   nodes         sinfo --all --json (22.05) | scontrol --json show nodes (23.02+)
 *   partitions    scontrol --all --oneliner show partition
 *   jobs          squeue --all --states=all --json
 *                 (--json=v0.0.42 from 24.11 to 26.05: oc_cli_json_opt)
 *   reservations  scontrol --oneliner show reservation
 *   accounting    scontrol show assoc_mgr flags=assoc,qos, and at most every
 *                 30 s sacctmgr -P -n show assoc / show qos (slurmdbd's part)
 *   config        scontrol show config (once per (re)connection)
 * The CLI has no last_update: a part whose output is byte for byte the
 * previous one keeps its table (no parse, no new generation), so an
 * unchanged refresh costs the commands only. Parts not asked for run no
 * command. A failed command keeps the old table and sets the part's error
 * to the command's own words. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jobinfo.h"
#include "core/timespec.h"
#include "source/cli_parse.h"
#include "source/cli_source.h"
#include "source/exec.h"
#include "source/snapfile.h"

#define DBD_PERIOD_S 30
#define DBD_TIMEOUT_S 8

struct cli_backend {
	struct oc_backend base;
	struct oc_transport *t;
	char bin[4096];
	int version;        /* major * 100 + minor (2205), 0 = not known yet */
	bool conf_loaded;
	char cluster[64], slurm_version[32], slurm_user[64];
	bool accounting;
	char *last[OC_PART_COUNT]; /* previous output of each part */
	size_t last_len[OC_PART_COUNT];
	const void *built[OC_PART_COUNT]; /* the table made from it (a reference) */
	unsigned need_full;
	/* slurmdbd's part of the accounting, refreshed every DBD_PERIOD_S. */
	char *assoc_text, *qos_text;
	size_t assoc_len, qos_len;
	time_t dbd_checked, dbd_down_since;
	char dbd_error[160];
	bool dbd_changed;
	/* The data agent (docs/ssh.md): every part (nodes, partitions,
	 * jobs, reservations, accounting) from `opsconsole agent` on the
	 * head node. */
	char agent_cmd[4096];  /* "" = none */
	enum { AGENT_UNTRIED, AGENT_ON, AGENT_OFF } agent_state;
	uint64_t agent_base;   /* the last frame applied ("seq"), 0 none */
	unsigned agent_inval;  /* parts to load whole on the agent's side */
	char agent_why[256];   /* AGENT_OFF: why the CLI reads them */
	char agent_hello[160]; /* AGENT_ON: "opsconsole 0.1.0, Slurm 25.11.2" */
};

/* "slurm 22.05.8", "slurm-wlm 22.05.8" -> 2205; 0 when unreadable. */
static int parse_version(const char *s)
{
	const char *p = strchr(s, ' ');
	if (!p)
		return 0;
	unsigned maj = 0, min = 0;
	if (sscanf(p + 1, "%u.%u", &maj, &min) != 2 || maj > 99 || min > 99)
		return 0;
	return (int)(maj * 100 + min);
}

static int detect_version(struct cli_backend *b, char *err, size_t errlen)
{
	const char *argv[] = {"sinfo", "--version", NULL};
	struct oc_run_result r;
	int rc = oc_cli_run(b->t, b->bin, argv, OC_CLI_TIMEOUT_S, &r, err, errlen);
	if (rc == 0) {
		b->version = parse_version(r.out);
		if (!b->version) {
			snprintf(err, errlen, "sinfo --version: unexpected \"%.40s\"", r.out);
			rc = -1;
		}
	}
	oc_run_result_clear(&r);
	return rc == 0 ? 0 : -1;
}

static void load_conf(struct cli_backend *b, struct oc_snapshot *next)
{
	const char *argv[] = {"scontrol", "show", "config", NULL};
	struct oc_run_result r;
	char err[256];
	if (oc_cli_run(b->t, b->bin, argv, OC_CLI_TIMEOUT_S, &r, err, sizeof(err)) == 0) {
		struct oc_config *cfg = NULL;
		if (oc_cli_parse_config(r.out, r.out_len, next->config, &cfg, err, sizeof(err)) == 0) {
			oc_config_unref(&next->config);
			next->config = cfg;
			const char *v = oc_config_get(cfg, "ClusterName");
			snprintf(b->cluster, sizeof(b->cluster), "%s", v ? v : "");
			v = oc_config_get(cfg, "SLURM_VERSION");
			snprintf(b->slurm_version, sizeof(b->slurm_version), "%s", v ? v : "");
			v = oc_config_get(cfg, "SlurmUser");
			snprintf(b->slurm_user, sizeof(b->slurm_user), "%s", v ? v : "");
			char *paren = strchr(b->slurm_user, '(');
			if (paren)
				*paren = '\0';
			v = oc_config_get(cfg, "AccountingStorageType");
			/* "accounting_storage/none", or unset: Slurm 24.11 prints
			 * "(null)" for an explicit accounting_storage/none. */
			b->accounting = v && *v && strcmp(v, "(null)") != 0 && !strstr(v, "/none");
			b->conf_loaded = true;
		}
	}
	oc_run_result_clear(&r);
}

/* The table of part in s. */
static const void *part_table(const struct oc_snapshot *s, int part)
{
	switch (part) {
	case OC_PART_NODES: return s->nodes;
	case OC_PART_PARTITIONS: return s->partitions;
	case OC_PART_JOBS: return s->jobs;
	case OC_PART_RESV: return s->reservations;
	default: return s->accounting;
	}
}

/* Drop the backend's reference to the table made from part's output. */
static void built_release(struct cli_backend *b, int part)
{
	void *t = (void *)b->built[part];
	b->built[part] = NULL;
	if (!t)
		return;
	switch (part) {
	case OC_PART_NODES: {
		struct oc_nodes *x = t;
		oc_nodes_unref(&x);
		break;
	}
	case OC_PART_PARTITIONS: {
		struct oc_partitions *x = t;
		oc_partitions_unref(&x);
		break;
	}
	case OC_PART_JOBS: {
		struct oc_jobs *x = t;
		oc_jobs_unref(&x);
		break;
	}
	case OC_PART_RESV: {
		struct oc_reservations *x = t;
		oc_reservations_unref(&x);
		break;
	}
	default: {
		struct oc_accounting *x = t;
		oc_accounting_unref(&x);
		break;
	}
	}
}

/* Hold a reference to t, the table made from part's output. */
static void built_hold(struct cli_backend *b, int part, void *t)
{
	built_release(b, part);
	switch (part) {
	case OC_PART_NODES: b->built[part] = oc_nodes_ref(t); break;
	case OC_PART_PARTITIONS: b->built[part] = oc_partitions_ref(t); break;
	case OC_PART_JOBS: b->built[part] = oc_jobs_ref(t); break;
	case OC_PART_RESV: b->built[part] = oc_reservations_ref(t); break;
	default: b->built[part] = oc_accounting_ref(t); break;
	}
}

/* Run a part's command. Returns 1 when the output equals the previous one
 * and next holds the table made from it (the part may keep it), 0 with a
 * new output in *r, -1 with err. */
static int run_part(struct cli_backend *b, int part, const char *const argv[], const struct oc_snapshot *next,
		    struct oc_run_result *r, char *err, size_t errlen)
{
	int rc = oc_cli_run(b->t, b->bin, argv, OC_CLI_TIMEOUT_S, r, err, errlen);
	if (rc != 0)
		return -1;
	if (b->last[part] && b->last_len[part] == r->out_len && memcmp(b->last[part], r->out, r->out_len) == 0 &&
	    b->built[part] && b->built[part] == part_table(next, part))
		return 1;
	return 0;
}

/* Keep r's output as the part's previous one, and t as the table made
 * from it (after a successful parse). */
static void keep_output(struct cli_backend *b, int part, struct oc_run_result *r, void *t)
{
	free(b->last[part]);
	b->last[part] = r->out;
	b->last_len[part] = r->out_len;
	r->out = NULL;
	r->out_len = 0;
	built_hold(b, part, t);
}

static void forget_output(struct cli_backend *b, int part)
{
	free(b->last[part]);
	b->last[part] = NULL;
	b->last_len[part] = 0;
	built_release(b, part);
}

/* sacctmgr's part, at most every DBD_PERIOD_S: sets dbd_error. */
static void dbd_refresh(struct cli_backend *b)
{
	time_t now = time(NULL);
	if (b->dbd_checked && now - b->dbd_checked < DBD_PERIOD_S && now >= b->dbd_checked)
		return;
	b->dbd_checked = now;
	char cl[80] = "";
	if (b->cluster[0])
		snprintf(cl, sizeof(cl), "cluster=%s", b->cluster);
	const char *aargv[] = {"sacctmgr", "-P", "-n", "show", "assoc", "format=account,user,partition,qos,defaultqos",
			       cl[0] ? cl : NULL, NULL};
	const char *qargv[] = {"sacctmgr", "-P", "-n", "show", "qos", "format=name,maxjobspu,maxsubmitpu,priority,maxtrespu",
			       NULL};
	struct oc_run_result ra, rq;
	char err[256];
	int rc = oc_cli_run(b->t, b->bin, aargv, DBD_TIMEOUT_S, &ra, err, sizeof(err));
	if (rc == 0)
		rc = oc_cli_run(b->t, b->bin, qargv, DBD_TIMEOUT_S, &rq, err, sizeof(err));
	else
		memset(&rq, 0, sizeof(rq));
	if (rc == 0) {
		bool same = b->assoc_text && b->qos_text && ra.out_len == b->assoc_len && rq.out_len == b->qos_len &&
			    memcmp(ra.out, b->assoc_text, ra.out_len) == 0 && memcmp(rq.out, b->qos_text, rq.out_len) == 0;
		if (!same) {
			free(b->assoc_text);
			free(b->qos_text);
			b->assoc_text = ra.out;
			b->assoc_len = ra.out_len;
			b->qos_text = rq.out;
			b->qos_len = rq.out_len;
			ra.out = rq.out = NULL;
			b->dbd_changed = true;
		}
		if (b->dbd_error[0])
			b->dbd_changed = true;
		b->dbd_error[0] = '\0';
		b->dbd_down_since = 0;
	} else {
		if (!b->dbd_down_since)
			b->dbd_down_since = now;
		struct tm tm;
		char since[16] = "?";
		if (localtime_r(&b->dbd_down_since, &tm))
			strftime(since, sizeof(since), "%H:%M:%S", &tm);
		char e[sizeof(b->dbd_error)];
		snprintf(e, sizeof(e), "slurmdbd unreachable since %.15s: %.100s", since, err);
		if (strcmp(e, b->dbd_error) != 0)
			b->dbd_changed = true;
		snprintf(b->dbd_error, sizeof(b->dbd_error), "%s", e);
	}
	oc_run_result_clear(&ra);
	oc_run_result_clear(&rq);
}

static int refresh_acct(struct cli_backend *b, struct oc_snapshot *next)
{
	struct oc_part_status *st = &next->status[OC_PART_ACCT];
	const struct oc_accounting *old = next->accounting;
	if (!b->accounting) {
		if (!old || old->enabled || old->nassocs || old->nqos) {
			struct oc_accounting *t = oc_accounting_new();
			if (!t) {
				oc_part_status_fail(st, time(NULL), "accounting", "out of memory");
				return -1;
			}
			t->h.generation = (old ? old->h.generation : 0) + 1;
			oc_accounting_unref(&next->accounting);
			next->accounting = t;
		}
		oc_part_status_ok(st, time(NULL));
		return 0;
	}
	dbd_refresh(b);
	const char *argv[] = {"scontrol", "show", "assoc_mgr", "flags=assoc,qos", NULL};
	struct oc_run_result r;
	char err[256];
	int rc = run_part(b, OC_PART_ACCT, argv, next, &r, err, sizeof(err));
	if (rc == 1 && !b->dbd_changed) {
		oc_run_result_clear(&r);
		oc_part_status_ok(st, time(NULL));
		return 0;
	}
	if (rc < 0) {
		oc_run_result_clear(&r);
		oc_part_status_fail(st, time(NULL), "associations", err);
		return -1;
	}
	struct oc_accounting *t = NULL;
	if (oc_cli_parse_assoc_mgr(r.out, r.out_len, b->assoc_text, b->assoc_len, b->qos_text, b->qos_len, old, &t, err,
				   sizeof(err)) < 0) {
		oc_run_result_clear(&r);
		forget_output(b, OC_PART_ACCT);
		oc_part_status_fail(st, time(NULL), "associations", err);
		return -1;
	}
	snprintf(t->dbd_error, sizeof(t->dbd_error), "%s", b->dbd_error);
	b->dbd_changed = false;
	keep_output(b, OC_PART_ACCT, &r, t);
	oc_run_result_clear(&r);
	oc_accounting_unref(&next->accounting);
	next->accounting = t;
	oc_part_status_ok(st, time(NULL));
	return 0;
}

/* A part whose rows hold node indexes (partitions, jobs, reservations):
 * its command, and its parser and table slot behind one shape. */
struct indexed_part {
	int part;
	const char *what;
	const char *const *argv;
	/* Parse text against ix with prev's table (prev may be NULL) into a
	 * new table *out. Returns 0, or -1 with err. */
	int (*parse)(const char *text, size_t len, struct oc_node_index *ix, const struct oc_snapshot *prev,
		     void **out, char *err, size_t errlen);
	/* Put t into next's slot, dropping what was there. */
	void (*swap)(struct oc_snapshot *next, void *t);
};

static int parse_partitions(const char *text, size_t len, struct oc_node_index *ix, const struct oc_snapshot *prev,
			    void **out, char *err, size_t errlen)
{
	struct oc_partitions *t = NULL;
	int rc = oc_cli_parse_partitions(text, len, ix, prev ? prev->partitions : NULL, &t, err, errlen);
	*out = t;
	return rc;
}

static int parse_jobs(const char *text, size_t len, struct oc_node_index *ix, const struct oc_snapshot *prev,
		      void **out, char *err, size_t errlen)
{
	struct oc_jobs *t = NULL;
	int rc = oc_cli_parse_jobs_json(text, len, ix, prev ? prev->jobs : NULL, &t, err, errlen);
	*out = t;
	return rc;
}

static int parse_resv(const char *text, size_t len, struct oc_node_index *ix, const struct oc_snapshot *prev,
		      void **out, char *err, size_t errlen)
{
	struct oc_reservations *t = NULL;
	int rc = oc_cli_parse_reservations(text, len, ix, prev ? prev->reservations : NULL, &t, err, errlen);
	*out = t;
	return rc;
}

static void swap_partitions(struct oc_snapshot *next, void *t)
{
	oc_partitions_unref(&next->partitions);
	next->partitions = t;
}

static void swap_jobs(struct oc_snapshot *next, void *t)
{
	oc_jobs_unref(&next->jobs);
	next->jobs = t;
}

static void swap_resv(struct oc_snapshot *next, void *t)
{
	oc_reservations_unref(&next->reservations);
	next->reservations = t;
}

/* Refresh one indexed part: an output equal to the previous one keeps
 * the table, unless the node layout changed (need_full: parsed again
 * against the new node table). Returns 0, or -1 (status set). */
static int refresh_indexed(struct cli_backend *b, const struct indexed_part *ip, struct oc_node_index *ix,
			   const struct oc_snapshot *prev, struct oc_snapshot *next)
{
	struct oc_part_status *st = &next->status[ip->part];
	struct oc_run_result r;
	char err[256];
	int rc = run_part(b, ip->part, ip->argv, next, &r, err, sizeof(err));
	bool full = b->need_full & OC_MASK(ip->part);
	void *t = NULL;
	int ret = 0;
	if (rc == 1 && !full) {
		oc_part_status_ok(st, time(NULL));
	} else if (rc >= 0 && ip->parse(r.out, r.out_len, ix, prev, &t, err, sizeof(err)) == 0) {
		ip->swap(next, t);
		keep_output(b, ip->part, &r, t);
		b->need_full &= ~OC_MASK(ip->part);
		oc_part_status_ok(st, time(NULL));
	} else {
		if (rc >= 0)
			forget_output(b, ip->part);
		oc_part_status_fail(st, time(NULL), ip->what, err);
		ret = -1;
	}
	oc_run_result_clear(&r);
	return ret;
}


/* ---- the data agent ---------------------------------------------------- */

#define AGENT_PARTS OC_MASK_ALL /* every part: the accounting too */
#define AGENT_TIMEOUT_S 60 /* a whole frame of 100,000 jobs included */

/* The first line of text (at most 120 bytes) into buf. */
static void first_line(const char *text, char *buf, size_t len)
{
	size_t n = strcspn(text ? text : "", "\n");
	snprintf(buf, len, "%.*s", (int)(n > 120 ? 120 : n), text ? text : "");
}

/* Exit status of an agent whose Slurm request hung (agent_cli.c). */
#define AGENT_EXIT_STUCK 3

/* One request to the agent. 0 with r filled and exit 0; 1 when it ended
 * or timed out (err says how, the agent is stopped); -1 when it could not
 * be asked (err). */
static int agent_ask(struct cli_backend *b, const char *req, struct oc_run_result *r, char *err, size_t errlen)
{
	const char *argv[] = {b->agent_cmd, "agent", NULL};
	if (b->t->ops->ask(b->t, argv, req, OC_SNAPFILE_END, AGENT_TIMEOUT_S, r, err, errlen) < 0)
		return -1;
	if (r->exit_status == 0)
		return 0;
	char what[128], was[128];
	first_line(r->err_len ? r->errout : r->out, what, sizeof(what));
	first_line(err, was, sizeof(was));
	if (r->exit_status == OC_EXEC_TIMED_OUT)
		snprintf(err, errlen, "%.100s agent: no answer in %d s", b->agent_cmd, AGENT_TIMEOUT_S);
	else if (r->exit_status == 127)
		snprintf(err, errlen, "%.100s agent: not installed on the head node (%.100s)", b->agent_cmd, what);
	else if (r->exit_status >= 0)
		snprintf(err, errlen, "%.100s agent: exited %d: %.100s", b->agent_cmd, r->exit_status, what);
	else
		snprintf(err, errlen, "%.100s agent: %.100s", b->agent_cmd, was[0] ? was : "ended");
	return 1;
}

/* After agent_ask returned 1: whether the agent is gone for good (the
 * commands take over: not installed, crashed, killed), rather than slow
 * (no answer in time, or a Slurm request it gave up on itself: a new one
 * is started next time). */
static bool agent_gone(const struct oc_run_result *r)
{
	return r->exit_status != OC_EXEC_TIMED_OUT && r->exit_status != AGENT_EXIT_STUCK;
}

/* The commands read everything from now on; why says so. */
static void agent_off(struct cli_backend *b, const char *why)
{
	b->agent_state = AGENT_OFF;
	snprintf(b->agent_why, sizeof(b->agent_why), "%s", why);
}

/* Start the agent (`hello`): AGENT_ON, or AGENT_OFF with the reason when
 * it is not there or not an agent (the CLI then reads everything). -1
 * when the head node could not be asked (err): tried again next time. */
static int agent_start(struct cli_backend *b, char *err, size_t errlen)
{
	struct oc_run_result r;
	int rc = agent_ask(b, "hello\n", &r, err, errlen);
	if (rc < 0) {
		oc_run_result_clear(&r);
		return -1;
	}
	json_error_t je;
	json_t *o = rc == 0 ? json_loadb(r.out, strcspn(r.out, "\n"), 0, &je) : NULL;
	const char *schema = NULL, *version = "?", *slurm = "?";
	if (rc == 0 && json_unpack(o, "{s:s, s?s, s?s}", "schema", &schema, "version", &version, "slurm", &slurm) == 0 &&
	    strcmp(schema, "opsconsole.agent/1") == 0) {
		b->agent_state = AGENT_ON;
		b->agent_base = 0;
		snprintf(b->agent_hello, sizeof(b->agent_hello), "opsconsole %s, Slurm %s", version, slurm);
	} else if (rc == 0) {
		char what[128], why[256];
		first_line(r.out, what, sizeof(what));
		snprintf(why, sizeof(why), "%.100s agent: not an opsconsole agent: %.120s", b->agent_cmd, what);
		agent_off(b, why);
		/* Whatever it is, it is not left running. */
		struct oc_run_result stop;
		(void)b->t->ops->ask(b->t, NULL, NULL, NULL, 0, &stop, err, errlen);
		oc_run_result_clear(&stop);
	} else {
		agent_off(b, err);
	}
	json_decref(o);
	oc_run_result_clear(&r);
	return 0;
}

/* The statuses of a frame into next for the parts in mask, on this
 * machine's clock (the head node's may differ): ok now, or failed with
 * the agent's words since now (or since the part began to fail). */
static void agent_statuses(struct oc_snapshot *next, const struct oc_frame_info *fi, unsigned mask)
{
	time_t now = time(NULL);
	for (int p = 0; p < OC_PART_COUNT; p++) {
		if (!(mask & OC_MASK(p)))
			continue;
		struct oc_part_status *st = &next->status[p];
		if (!fi->status[p].error[0]) {
			oc_part_status_ok(st, now);
			continue;
		}
		if (!st->error_since)
			st->error_since = now;
		snprintf(st->error, sizeof(st->error), "%s", fi->status[p].error);
	}
}

/* Every part of mask marked failed with why; returns how many. */
static int agent_failed(struct oc_snapshot *next, unsigned mask, const char *why)
{
	int failed = 0;
	for (int p = 0; p < OC_PART_COUNT; p++)
		if (mask & OC_MASK(p)) {
			oc_part_status_fail(&next->status[p], time(NULL), "opsconsole agent", why);
			failed++;
		}
	return failed;
}

/* The parts of mask the agent serves into next (from the frame, or each
 * marked failed). Returns the number of parts that failed, or -1 when the
 * agent is off (the CLI reads them). */
static int agent_refresh(struct cli_backend *b, unsigned mask, struct oc_snapshot *next)
{
	char err[256] = "";
	mask &= AGENT_PARTS;
	if (b->agent_state == AGENT_UNTRIED && agent_start(b, err, sizeof(err)) < 0)
		return agent_failed(next, mask, err);
	if (b->agent_state != AGENT_ON)
		return -1;
	if (!mask)
		return 0;
	char req[96];
	snprintf(req, sizeof(req), "refresh %u %u %llu\n", mask, b->agent_inval & AGENT_PARTS,
		 (unsigned long long)b->agent_base);
	struct oc_run_result r;
	int rc = agent_ask(b, req, &r, err, sizeof(err));
	struct oc_frame_info fi;
	if (rc == 1 && agent_gone(&r)) {
		agent_off(b, err);
		oc_run_result_clear(&r);
		return -1;
	}
	if (rc == 0 && oc_snapfile_read_frame(r.out, r.out_len, next, &fi, err, sizeof(err)) == 0) {
		oc_run_result_clear(&r);
		b->agent_base = fi.seq;
		b->agent_inval = 0;
		/* A whole frame refreshed every part, and says how each went. */
		agent_statuses(next, &fi, mask | fi.sent);
		int failed = 0;
		for (int p = 0; p < OC_PART_COUNT; p++)
			failed += (mask & OC_MASK(p)) && next->status[p].error[0];
		return failed;
	}
	oc_run_result_clear(&r);
	/* No frame applied: the old tables stay, marked. The agent moved on
	 * (or is gone): the base names a frame it did not send last, so the
	 * next answer is whole. */
	return agent_failed(next, mask, err);
}

static void cli_invalidate(struct oc_backend *base, unsigned mask)
{
	((struct cli_backend *)base)->agent_inval |= mask;
}

void oc_cli_backend_set_agent(struct oc_backend *base, const char *cmd)
{
	struct cli_backend *b = (struct cli_backend *)base;
	snprintf(b->agent_cmd, sizeof(b->agent_cmd), "%s", cmd && b->t->ops->ask ? cmd : "");
	b->agent_state = b->agent_cmd[0] ? AGENT_UNTRIED : AGENT_OFF;
	snprintf(b->agent_why, sizeof(b->agent_why), "%s", cmd && cmd[0] ? "this transport runs no agent" : "no agent in the profile");
}

const char *oc_cli_backend_agent(const struct oc_backend *base, bool *on)
{
	const struct cli_backend *b = (const struct cli_backend *)base;
	*on = b->agent_state == AGENT_ON;
	return b->agent_state == AGENT_ON ? b->agent_hello : b->agent_state == AGENT_OFF ? b->agent_why : "not started yet";
}

static int cli_refresh(struct oc_backend *base, unsigned mask, const struct oc_snapshot *prev, struct oc_snapshot *next)
{
	struct cli_backend *b = (struct cli_backend *)base;
	int failed = 0;
	char err[256];

	if (!b->version && detect_version(b, err, sizeof(err)) < 0) {
		for (int p = 0; p < OC_PART_COUNT; p++)
			if (mask & OC_MASK(p)) {
				oc_part_status_fail(&next->status[p], time(NULL), "sinfo --version", err);
				failed++;
			}
		return failed;
	}
	if (!b->conf_loaded)
		load_conf(b, next);
	snprintf(next->cluster, sizeof(next->cluster), "%s", b->cluster);
	snprintf(next->slurm_version, sizeof(next->slurm_version), "%s", b->slurm_version);
	snprintf(next->slurm_user, sizeof(next->slurm_user), "%s", b->slurm_user);

	int by_agent = b->agent_state == AGENT_OFF ? -1 : agent_refresh(b, mask, next);
	if (by_agent >= 0) {
		failed += by_agent;
		mask &= ~(unsigned)AGENT_PARTS;
	}
	struct oc_run_result r;
	if (mask & OC_MASK(OC_PART_NODES)) {
		struct oc_part_status *st = &next->status[OC_PART_NODES];
		const char *nodes_argv[5];
		oc_cli_nodes_argv(b->version, nodes_argv);
		int rc = run_part(b, OC_PART_NODES, nodes_argv, next, &r, err, sizeof(err));
		struct oc_nodes *t = NULL;
		if (rc == 1) {
			oc_part_status_ok(st, time(NULL));
		} else if (rc >= 0 && oc_cli_parse_nodes_json(r.out, r.out_len, prev ? prev->nodes : NULL, &t, err,
							     sizeof(err)) == 0) {
			oc_nodes_unref(&next->nodes);
			next->nodes = t;
			keep_output(b, OC_PART_NODES, &r, t);
			oc_part_status_ok(st, time(NULL));
		} else {
			if (rc >= 0)
				forget_output(b, OC_PART_NODES);
			oc_part_status_fail(st, time(NULL), "nodes", err);
			failed++;
		}
		oc_run_result_clear(&r);
	}
	/* A new node layout: partitions and reservations are parsed again
	 * against it, the jobs relinked from the table held (oc_jobs_relink). */
	bool relayout = by_agent < 0 && !oc_nodes_same_layout(prev ? prev->nodes : NULL, next->nodes);
	if (relayout)
		b->need_full |= OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_RESV);
	if (by_agent < 0)
		mask |= oc_backend_refetch(b->need_full, mask, prev);
	struct oc_node_index ix = {.nodes = next->nodes};

	static const char *const parts_argv[] = {"scontrol", "--all", "--oneliner", "show", "partition", NULL};
	/* --states=all: from 23.02 squeue's JSON honours its default filter
	 * (pending and running only); libslurm's load lists every record. */
	const char *const jobs_argv[] = {"squeue", "--all", "--states=all", oc_cli_json_opt(b->version), NULL};
	static const char *const resv_argv[] = {"scontrol", "--oneliner", "show", "reservation", NULL};
	const struct indexed_part indexed[] = {
		{OC_PART_PARTITIONS, "partitions", parts_argv, parse_partitions, swap_partitions},
		{OC_PART_JOBS, "jobs", jobs_argv, parse_jobs, swap_jobs},
		{OC_PART_RESV, "reservations", resv_argv, parse_resv, swap_resv},
	};
	for (size_t k = 0; k < sizeof(indexed) / sizeof(indexed[0]); k++)
		if ((mask & OC_MASK(indexed[k].part)) && refresh_indexed(b, &indexed[k], &ix, prev, next) < 0)
			failed++;
	if (relayout && oc_backend_relink_jobs(prev, next, &ix, oc_cli_resolve_nodes) < 0)
		b->need_full |= OC_MASK(OC_PART_JOBS);
	oc_node_index_free(&ix);

	if ((mask & OC_MASK(OC_PART_ACCT)) && b->conf_loaded && refresh_acct(b, next) < 0)
		failed++;
	if (failed > (by_agent > 0 ? by_agent : 0)) {
		/* The controller (or the head node) may come back as another
		 * version: detect it again. (Not for the agent's parts: it
		 * asks libslurm, which finds out by itself; this would run two
		 * commands on the head node at every refresh of an outage.) */
		b->version = 0;
		b->conf_loaded = false;
	}
	return failed;
}

/* Before a report (history, events): the window resolved here (relative
 * times count from the console's clock), the version and the
 * configuration known. false with the reason in *st. */
static bool cli_report_ready(struct cli_backend *b, struct oc_snapshot *next, struct oc_part_status *st,
			     const char *what, const char *since, const char *until, time_t *s, time_t *u)
{
	char err[256];
	time_t now = time(NULL);
	if (oc_time_window(since, until, now, s, u, err, sizeof(err)) < 0) {
		oc_part_status_fail(st, now, what, err);
		return false;
	}
	if (!b->version && detect_version(b, err, sizeof(err)) < 0) {
		oc_part_status_fail(st, now, "sinfo --version", err);
		return false;
	}
	if (!b->conf_loaded)
		load_conf(b, next);
	if (!b->conf_loaded) {
		oc_part_status_fail(st, now, what, "scontrol show config failed: the controller's configuration is not known");
		return false;
	}
	snprintf(next->cluster, sizeof(next->cluster), "%s", b->cluster);
	snprintf(next->slurm_version, sizeof(next->slurm_version), "%s", b->slurm_version);
	return true;
}

/* A time for sacct's -S/-E and sacctmgr's Start=/End=, relative to now
 * ("now-3660seconds"), so that the window does not depend on the time zone
 * of the host the command runs on; widened by a minute (the records are
 * kept by their end time here). late: the window's end (later by a
 * minute), else its start (earlier). */
static void cli_time(time_t t, bool late, char *buf, size_t len)
{
	long long d = (long long)(t - time(NULL)) + (late ? 60 : -60);
	if (late && d >= 0)
		snprintf(buf, len, "now");
	else
		snprintf(buf, len, "now%+lldseconds", d);
}

/* The history: one sacct (cli_hist.c). */
static int cli_history(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	struct cli_backend *b = (struct cli_backend *)base;
	struct oc_part_status *st = &next->hist_status;
	time_t s, u;
	if (!cli_report_ready(b, next, st, "history", since, until, &s, &u))
		return -1;
	char err[256];
	const char *what = "history";
	struct oc_history *h = NULL;
	double t0 = oc_mono_now();
	if (!b->accounting) {
		h = oc_history_new();
		snprintf(err, sizeof(err), "out of memory");
	} else {
		char from[32], to[32];
		cli_time(s, false, from, sizeof(from));
		cli_time(u, true, to, sizeof(to));
		const char *argv[16];
		oc_cli_history_argv(b->version, from, to, argv);
		struct oc_run_result r;
		int rc = oc_cli_run(b->t, b->bin, argv, OC_CLI_HIST_TIMEOUT_S, &r, err, sizeof(err));
		if (rc == 0)
			oc_cli_parse_history(r.out, r.out_len, b->version, s, u, &h, err, sizeof(err));
		else
			what = "sacct";
		oc_run_result_clear(&r);
	}
	if (!h) {
		oc_part_status_fail(st, time(NULL), what, err);
		return -1;
	}
	oc_report_info_set(&h->r, b->accounting, since, until, s, u, oc_mono_now() - t0);
	h->h.generation = next->history ? next->history->h.generation + 1 : 1;
	oc_history_unref(&next->history);
	next->history = h;
	oc_part_status_ok(st, time(NULL));
	return 0;
}

/* The node events: one sacctmgr show event (cli_hist.c). */
static int cli_events(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	struct cli_backend *b = (struct cli_backend *)base;
	struct oc_part_status *st = &next->ev_status;
	time_t s, u;
	if (!cli_report_ready(b, next, st, "events", since, until, &s, &u))
		return -1;
	char err[256];
	const char *what = "events";
	struct oc_events *t = NULL;
	double t0 = oc_mono_now();
	if (!b->accounting) {
		t = oc_events_new();
		snprintf(err, sizeof(err), "out of memory");
	} else {
		char from[48], to[48], clusters[96];
		snprintf(from, sizeof(from), "Start=");
		cli_time(s, false, from + 6, sizeof(from) - 6);
		snprintf(to, sizeof(to), "End=");
		cli_time(u, true, to + 4, sizeof(to) - 4);
		const char *argv[12];
		oc_cli_events_argv(b->cluster, from, to, clusters, sizeof(clusters), argv);
		struct oc_run_result r;
		int rc = oc_cli_run(b->t, b->bin, argv, OC_CLI_HIST_TIMEOUT_S, &r, err, sizeof(err));
		if (rc == 0 && oc_cli_parse_events(r.out, r.out_len, b->cluster, &t, err, sizeof(err)) == 0) {
			/* The window asked was a minute wider on each side: keep
			 * the events that overlap the one given. */
			size_t k = 0;
			for (size_t i = 0; i < t->n; i++)
				if ((!t->v[i].end || t->v[i].end >= s) && t->v[i].start <= u)
					t->v[k++] = t->v[i];
			t->n = k;
		}
		else
			what = "sacctmgr show event";
		oc_run_result_clear(&r);
	}
	if (!t) {
		oc_part_status_fail(st, time(NULL), what, err);
		return -1;
	}
	oc_report_info_set(&t->r, b->accounting, since, until, s, u, oc_mono_now() - t0);
	t->h.generation = next->events ? next->events->h.generation + 1 : 1;
	oc_events_unref(&next->events);
	next->events = t;
	oc_part_status_ok(st, time(NULL));
	return 0;
}

/* slurmctld's statistics: one sdiag (cli_hist.c). */
static int cli_sched(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	struct cli_backend *b = (struct cli_backend *)base;
	struct oc_part_status *st = &next->sched_status;
	time_t s, u;
	if (!cli_report_ready(b, next, st, "slurmctld statistics", "now", until, &s, &u))
		return -1;
	(void)since;
	const char *argv[] = {"sdiag", NULL};
	struct oc_run_result r;
	char err[256];
	struct oc_sched *t = NULL;
	int rc = oc_cli_run(b->t, b->bin, argv, OC_CLI_TIMEOUT_S, &r, err, sizeof(err));
	if (rc == 0)
		oc_cli_parse_sdiag(r.out, r.out_len, &t, err, sizeof(err));
	oc_run_result_clear(&r);
	if (!t) {
		oc_part_status_fail(st, time(NULL), "sdiag", err);
		return -1;
	}
	t->h.generation = next->sched ? next->sched->h.generation + 1 : 1;
	oc_sched_unref(&next->sched);
	next->sched = t;
	oc_part_status_ok(st, time(NULL));
	return 0;
}

/* One job in full: scontrol show job (and again for the whole array or
 * het job), sprio when it is pending, sacct -j (cli_text.c, cli_hist.c). */
static int cli_job(struct oc_backend *base, const char *since, const char *until, struct oc_snapshot *next)
{
	struct cli_backend *b = (struct cli_backend *)base;
	struct oc_part_status *st = &next->jobinfo_status;
	time_t s, u;
	if (!cli_report_ready(b, next, st, "job", "now", until, &s, &u))
		return -1;
	struct oc_jobinfo *t = oc_jobinfo_new();
	char err[256];
	if (!t || oc_jobinfo_id(since, &t->job_id, err, sizeof(err)) < 0) {
		oc_part_status_fail(st, time(NULL), "job", t ? err : "out of memory");
		oc_jobinfo_unref(&t);
		return -1;
	}
	char id[16];
	snprintf(id, sizeof(id), "%u", (unsigned)t->job_id);
	const char *show[] = {"scontrol", "--oneliner", "show", "job", id, NULL};
	struct oc_run_result r;
	int rc = oc_cli_run(b->t, b->bin, show, OC_CLI_TIMEOUT_S, &r, err, sizeof(err));
	/* "Invalid job id specified" comes with exit 1 on stderr. */
	if (rc != 0 && r.exit_status > 0 && r.err_len && strstr(r.errout, "Invalid job id specified"))
		rc = 0;
	else if (rc == 0 && oc_cli_parse_jobinfo_live(r.out, r.out_len, t, false, err, sizeof(err)) < 0)
		rc = -1;
	oc_run_result_clear(&r);
	if (rc != 0)
		snprintf(t->live_err, sizeof(t->live_err), "scontrol show job: %s", err);
	uint32_t whole = t->het_job_id ? t->het_job_id : t->array_job_id;
	if (t->live && whole && whole != t->job_id) {
		char wid[16];
		snprintf(wid, sizeof(wid), "%u", (unsigned)whole);
		show[4] = wid;
		if (oc_cli_run(b->t, b->bin, show, OC_CLI_TIMEOUT_S, &r, err, sizeof(err)) == 0) {
			size_t n = t->nparts;
			struct oc_jpart *v = t->parts;
			if (oc_cli_parse_jobinfo_live(r.out, r.out_len, t, true, err, sizeof(err)) < 0 || !t->nparts)
				t->parts = v, t->nparts = n;
		}
		oc_run_result_clear(&r);
	}
	const struct oc_jpart *self = oc_jobinfo_self(t);
	if (self && self->state == OC_JOB_PENDING) {
		const char *argv[8];
		oc_cli_sprio_argv(id, argv);
		if (oc_cli_run(b->t, b->bin, argv, OC_CLI_TIMEOUT_S, &r, err, sizeof(err)) != 0 ||
		    oc_cli_parse_sprio(r.out, r.out_len, t, err, sizeof(err)) < 0)
			snprintf(t->prio_err, sizeof(t->prio_err), "sprio: %s", err);
		else if (!t->nprio)
			snprintf(t->prio_err, sizeof(t->prio_err), "%s",
				 "sprio lists none for it (the priority plugin is not multifactor, or its priority was set by hand)");
		oc_run_result_clear(&r);
	} else {
		snprintf(t->prio_err, sizeof(t->prio_err), "%s", t->live ? "not pending" : "not in the queue");
	}
	if (!b->accounting) {
		snprintf(t->db_err, sizeof(t->db_err), "accounting is not configured (AccountingStorageType)");
	} else {
		const char *argv[12];
		oc_cli_jobinfo_sacct_argv(id, argv);
		if (oc_cli_run(b->t, b->bin, argv, OC_CLI_HIST_TIMEOUT_S, &r, err, sizeof(err)) != 0 ||
		    oc_cli_parse_jobinfo_sacct(r.out, r.out_len, t, err, sizeof(err)) < 0)
			snprintf(t->db_err, sizeof(t->db_err), "sacct: %s", err);
		oc_run_result_clear(&r);
	}
	oc_jobinfo_publish(next, t);
	return next->jobinfo_status.error[0] ? -1 : 0;
}

static void cli_close(struct oc_backend *base)
{
	struct cli_backend *b = (struct cli_backend *)base;
	for (int p = 0; p < OC_PART_COUNT; p++)
		forget_output(b, p);
	free(b->assoc_text);
	free(b->qos_text);
	free(b);
}

/* `scontrol ping`, and `sacctmgr ping` from 24.11 (before it sacctmgr has
 * no ping: the slurmdbd hosts stay not known). A command that ran and
 * failed (scontrol exits 1 when a controller is down) is still read. */
/* The ping through the agent (libslurm's, on the head node). false when
 * there is no agent or it could not answer: the commands ping then. */
static bool agent_ping(struct cli_backend *b, struct oc_controllers *c)
{
	if (b->agent_state != AGENT_ON)
		return false;
	json_t *h = json_array(), *d = json_array();
	for (int i = 0; i < c->n; i++)
		json_array_append_new(h, json_string(c->v[i].host));
	for (int k = 0; k < c->ndbd; k++)
		json_array_append_new(d, json_string(c->dbd[k].host));
	json_t *q = json_pack("{s:o, s:o}", "ctld", h, "dbd", d);
	char *qs = q ? json_dumps(q, JSON_COMPACT) : NULL;
	json_decref(q);
	char *req = NULL;
	if (!qs || asprintf(&req, "ping %s\n", qs) < 0)
		req = NULL;
	free(qs);
	if (!req)
		return false;
	struct oc_run_result r;
	char err[256] = "";
	int rc = agent_ask(b, req, &r, err, sizeof(err));
	free(req);
	if (rc == 1 && agent_gone(&r))
		agent_off(b, err);
	json_error_t je;
	json_t *o = rc == 0 ? json_loadb(r.out, strcspn(r.out, "\n"), 0, &je) : NULL;
	oc_run_result_clear(&r);
	json_t *a = NULL, *db = NULL;
	const char *e = "", *note = "";
	bool ok = json_unpack(o, "{s:o, s:o, s?s, s?s}", "ctld", &a, "dbd", &db, "error", &e, "note", &note) == 0 &&
		  json_is_array(a) && json_is_array(db) && json_array_size(a) == (size_t)c->n &&
		  json_array_size(db) == (size_t)c->ndbd;
	for (int i = 0; ok && i < c->n; i++) {
		json_int_t st = json_integer_value(json_array_get(a, (size_t)i));
		c->v[i].state = st == OC_CTLD_UP ? OC_CTLD_UP : st == OC_CTLD_DOWN ? OC_CTLD_DOWN : OC_CTLD_UNKNOWN;
	}
	for (int k = 0; ok && k < c->ndbd; k++) {
		json_int_t st = json_integer_value(json_array_get(db, (size_t)k));
		c->dbd[k].state = st == OC_CTLD_UP ? OC_CTLD_UP : st == OC_CTLD_DOWN ? OC_CTLD_DOWN : OC_CTLD_UNKNOWN;
	}
	if (ok) {
		snprintf(c->error, sizeof(c->error), "%s", e);
		snprintf(c->dbd_note, sizeof(c->dbd_note), "%s", note);
	}
	json_decref(o);
	return ok;
}

static void cli_ping(struct oc_backend *base, struct oc_controllers *c)
{
	struct cli_backend *b = (struct cli_backend *)base;
	if (agent_ping(b, c))
		return;
	struct oc_run_result r;
	char err[256] = "";
	c->error[0] = '\0';
	c->dbd_note[0] = '\0';
	for (int i = 0; i < c->n; i++)
		c->v[i].state = OC_CTLD_UNKNOWN;
	for (int k = 0; k < c->ndbd; k++)
		c->dbd[k].state = OC_CTLD_UNKNOWN;
	const char *sc[] = {"scontrol", "ping", NULL};
	int rc = oc_cli_run(b->t, b->bin, sc, OC_CLI_TIMEOUT_S, &r, err, sizeof(err));
	if (rc < 0 || oc_cli_parse_ping(r.out, r.out_len, "Slurmctld", c->v, c->n) < 0)
		snprintf(c->error, sizeof(c->error), "scontrol ping: %.80s", rc < 0 ? err : "no controller in its output");
	oc_run_result_clear(&r);
	if (c->ndbd && b->version >= 2411) {
		const char *sa[] = {"sacctmgr", "ping", NULL};
		rc = oc_cli_run(b->t, b->bin, sa, DBD_TIMEOUT_S, &r, err, sizeof(err));
		if (rc >= 0)
			oc_cli_parse_ping(r.out, r.out_len, "slurmdbd", c->dbd, c->ndbd);
		oc_run_result_clear(&r);
		/* sacctmgr ping stops at the first host that answers (seen on
		 * 24.11): the backup is asked only when the primary is down. */
		if (c->ndbd > 1 && c->dbd[0].state == OC_CTLD_UP && c->dbd[1].state == OC_CTLD_UNKNOWN)
			snprintf(c->dbd_note, sizeof(c->dbd_note),
				 "sacctmgr ping asks the backup only when the primary is down");
	}
}

/* The tail of a file on the head node: `tail -c MAX -- PATH` over the
 * transport (the clustermgtd log of a remote head node too). */
static int cli_read_tail(struct oc_backend *base, const char *path, size_t max, char **buf, size_t *len, char *err,
			 size_t errlen)
{
	struct cli_backend *b = (struct cli_backend *)base;
	*buf = NULL;
	*len = 0;
	char bytes[32];
	snprintf(bytes, sizeof(bytes), "%zu", max);
	const char *argv[] = {"tail", "-c", bytes, "--", path, NULL};
	struct oc_run_result r;
	if (b->t->ops->run(b->t, argv, OC_CLI_TIMEOUT_S, &r, err, errlen) < 0) {
		oc_run_result_clear(&r);
		return -1;
	}
	int rc = 0;
	if (r.exit_status != 0) {
		rc = strstr(r.errout, "No such file") ? 1 : -1;
		if (rc < 0)
			snprintf(err, errlen, "tail %s on %s: %.160s", path, b->t->ops->describe(b->t),
				 r.errout[0] ? r.errout : "failed");
	} else if ((*buf = malloc(r.out_len + 1))) {
		memcpy(*buf, r.out, r.out_len);
		(*buf)[r.out_len] = '\0';
		*len = r.out_len;
	} else {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	oc_run_result_clear(&r);
	return rc;
}

static const struct oc_backend_ops cli_backend_ops = {
	.name = "cli",
	.refresh = cli_refresh,
	.history = cli_history,
	.events = cli_events,
	.sched = cli_sched,
	.job = cli_job,
	.ping = cli_ping,
	.invalidate = cli_invalidate,
	.read_tail = cli_read_tail,
	.close = cli_close,
};

struct oc_backend *oc_cli_backend_open(struct oc_transport *t, const char *slurm_bin, char *err, size_t errlen)
{
	if (!t) {
		snprintf(err, errlen, "no transport");
		return NULL;
	}
	struct cli_backend *b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (slurm_bin && (size_t)snprintf(b->bin, sizeof(b->bin), "%s", slurm_bin) >= sizeof(b->bin)) {
		free(b);
		snprintf(err, errlen, "slurm_bin too long");
		return NULL;
	}
	b->t = t;
	b->agent_state = AGENT_OFF;
	snprintf(b->agent_why, sizeof(b->agent_why), "no agent: the commands run on this machine");
	b->base.ops = &cli_backend_ops;
	return &b->base;
}
