/* worker.c: apply → read back → compare → audit, off the UI thread. */
#include "actions/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "actions/audit.h"
#include "core/cells.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/strmap.h"

/* Largest node list an action takes (a typo like [1-100000] is refused). */
#define OC_ACTION_MAX_NODES 65536

struct oc_worker {
	struct oc_writer writer;
	char cluster[64];
	char audit_path[4096];
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cv;
	bool quit, done, has_req, has_result;
	time_t busy_since;
	struct oc_action_req req;
	struct oc_action_result result;
	struct oc_progress progress;
	struct oc_onb_state preview_state;  /* what the last onboarding preview read */
	bool have_preview;
	struct oc_whoami who;
	int pipe_rd, pipe_wr;
};

static const char *op_name(enum oc_node_op op)
{
	switch (op) {
	case OC_NODE_OP_DRAIN: return "node.drain";
	case OC_NODE_OP_RESUME: return "node.resume";
	case OC_NODE_OP_REBOOT: return "node.reboot";
	case OC_NODE_OP_CANCEL_REBOOT: return "node.cancel_reboot";
	case OC_NODE_OP_POWER_UP: return "node.power_up";
	case OC_NODE_OP_POWER_DOWN: return "node.power_down";
	default: return "node.undrain";
	}
}

static const char *op_past(enum oc_node_op op)
{
	switch (op) {
	case OC_NODE_OP_DRAIN: return "drained";
	case OC_NODE_OP_RESUME: return "resumed";
	case OC_NODE_OP_REBOOT: return "rebooted";
	case OC_NODE_OP_CANCEL_REBOOT: return "reboot cancelled";
	case OC_NODE_OP_POWER_UP: return "powering up";
	case OC_NODE_OP_POWER_DOWN: return "powering down";
	default: return "undrained";
	}
}

/* Whether node n now is what op asked for; why not into why. */
static bool node_took(const struct oc_node *n, enum oc_node_op op, const char *reason, char *why, size_t len)
{
	switch (op) {
	case OC_NODE_OP_DRAIN:
		if (!(n->flags & OC_NF_DRAIN)) {
			snprintf(why, len, "not draining");
			return false;
		}
		if (!n->reason || strcmp(n->reason, reason) != 0) {
			snprintf(why, len, "reason is \"%s\"", n->reason ? n->reason : "");
			return false;
		}
		return true;
	case OC_NODE_OP_RESUME:
		if (n->flags & OC_NF_DRAIN) {
			snprintf(why, len, "still drained");
			return false;
		}
		if (n->base == OC_NODE_DOWN) {
			snprintf(why, len, "still down%s", (n->flags & OC_NF_NOT_RESPONDING) ? " (not responding)" : "");
			return false;
		}
		return true;
	case OC_NODE_OP_POWER_UP:
		/* Asked (POWER_UP), on its way (#) or up: the resume is
		 * ResumeProgram's, followed in the views. */
		if ((n->flags & OC_NF_POWERED_DOWN) && !(n->flags & (OC_NF_POWER_UP | OC_NF_POWERING_UP))) {
			snprintf(why, len, "still powered down, no power up asked");
			return false;
		}
		return true;
	case OC_NODE_OP_POWER_DOWN:
		if (!(n->flags & (OC_NF_POWERED_DOWN | OC_NF_POWERING_DOWN | OC_NF_POWER_DOWN_PENDING))) {
			snprintf(why, len, "not powering down");
			return false;
		}
		return true;
	case OC_NODE_OP_CANCEL_REBOOT:
		if (n->flags & OC_NF_REBOOT_ISSUED) {
			snprintf(why, len, "the reboot was already issued");
			return false;
		}
		if (n->flags & OC_NF_REBOOT_REQUESTED) {
			snprintf(why, len, "reboot still requested");
			return false;
		}
		return true;
	default:
		if (n->flags & OC_NF_DRAIN) {
			snprintf(why, len, "still drained");
			return false;
		}
		return true;
	}
}

/* Whether Slurm's error says the controller did not answer in time or
 * dropped the connection during the request (the request may still be
 * applied when it recovers), as opposed to a refusal or a connection that
 * never opened (that one is "connect failure" or "Connection refused").
 * Which errno a broken connection reports depends on when slurmctld died:
 * ECONNRESET, EPIPE, a zero-byte read, or ENOTCONN ("Transport endpoint is
 * not connected", seen in CI when the reset came between poll and recv),
 * or Slurm's own "missing socket error" when SO_ERROR was already read. */
bool oc_action_is_timeout(const char *err)
{
	static const char *const broke[] = {
		"timed out",	      "timeout",		  "Connection reset",
		"Zero Bytes were transmitted", "Broken pipe", "Transport endpoint is not connected",
		"missing socket error",
	};
	for (size_t i = 0; i < sizeof(broke) / sizeof(broke[0]); i++)
		if (strcasestr(err, broke[i]))
			return true;
	return false;
}

/* The request reached slurmctld (or may have) but no answer came: it timed
 * out, or the connection broke because slurmctld died under it (found by
 * the drill tests/e2e/test_drill_ctld.sh: "Connection reset by peer"). */
void oc_action_unknown_result(struct oc_action_result *res, const char *slurm_err, char *error, size_t errlen)
{
	bool broke = !strcasestr(slurm_err, "timed out") && !strcasestr(slurm_err, "timeout");
	res->status = OC_ACTION_UNKNOWN;
	snprintf(res->summary, sizeof(res->summary),
		 "NO ANSWER: %s (%.200s); the request is applied to all targets or to none once it "
		 "recovers: check the view",
		 broke ? "the connection to slurmctld broke during the request (slurmctld died or restarted?)"
		       : "slurmctld did not answer in time",
		 slurm_err);
	snprintf(error, errlen, "%s", slurm_err);
}

static void apply_node_update(const struct oc_writer *w, const struct oc_action_req *req,
			      struct oc_action_result *res, char *error, size_t errlen)
{
	char **names = NULL;
	size_t n = 0;
	char err[512] = "";
	if (w->ops->hostlist_expand(w->ctx, req->nodes, OC_ACTION_MAX_NODES, &names, &n, err, sizeof(err)) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "refused: %.400s", err);
		snprintf(error, errlen, "%s", err);
		return;
	}
	char slurm_err[512] = "";
	int rc = w->ops->node_update(w->ctx, req->nodes, req->op, req->reason, slurm_err, sizeof(slurm_err));
	if (rc < 0 && oc_action_is_timeout(slurm_err)) {
		oc_action_unknown_result(res, slurm_err, error, errlen);
		oc_writer_names_free(&names, n);
		return;
	}
	struct oc_nodes *t = NULL;
	char read_err[512] = "";
	if (w->ops->read_nodes(w->ctx, &t, read_err, sizeof(read_err)) < 0) {
		res->status = OC_ACTION_FAILED;
		if (rc < 0)
			snprintf(res->summary, sizeof(res->summary), "failed: %.400s", slurm_err);
		else
			snprintf(res->summary, sizeof(res->summary),
				 "sent, but the read-back failed (%.400s): check the nodes", read_err);
		snprintf(error, errlen, "%.400s%s%.400s", rc < 0 ? slurm_err : "", rc < 0 ? "; " : "", read_err);
		oc_writer_names_free(&names, n);
		return;
	}
	struct oc_strmap index = {0};
	oc_strmap_init(&index, t->n);
	for (size_t i = 0; i < t->n; i++)
		oc_strmap_put(&index, t->v[i].name, (uint32_t)i);
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t k = oc_strmap_get(&index, names[i]);
		char why[300] = "";
		bool took;
		if (k == UINT32_MAX) {
			took = false;
			snprintf(why, sizeof(why), "no such node");
		} else {
			took = node_took(&t->v[k], req->op, req->reason, why, sizeof(why));
		}
		if (took) {
			ok++;
			oc_appendf(res->details, sizeof(res->details), "%s: %s\n", names[i], op_past(req->op));
		} else {
			oc_appendf(res->details, sizeof(res->details), "%s: NOT changed: %s%s%s\n", names[i], why,
				rc < 0 ? "; Slurm: " : "", rc < 0 ? slurm_err : "");
		}
	}
	oc_strmap_free(&index);
	oc_nodes_unref(&t);
	if (ok == n) {
		res->status = OC_ACTION_OK;
		snprintf(res->summary, sizeof(res->summary), "%s %zu %s: %.300s", op_past(req->op), n,
			 oc_plural(n, "node", "nodes"), req->nodes);
	} else {
		res->status = ok ? OC_ACTION_PARTIAL : OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "%s: %s %zu of %zu %s%s%.300s", ok ? "partial" : "failed",
			 op_past(req->op), ok, n, oc_plural(n, "node", "nodes"), rc < 0 ? "; Slurm: " : "",
			 rc < 0 ? slurm_err : "");
		snprintf(error, errlen, "%s", rc < 0 ? slurm_err : "read-back differs");
	}
	oc_writer_names_free(&names, n);
}

/* How long a reboot's read-back follows the nodes (REBOOT_REQUESTED,
 * REBOOT_ISSUED, back with a new boot time), at most. */
#define OC_REBOOT_WAIT_S 180

/* Where node n stands after a reboot asked at boot time boot0: 1 done
 * (back, or waiting for its jobs with ASAP), 0 still on its way, -1
 * failed; what into what. */
static int reboot_stage(const struct oc_node *n, time_t boot0, const struct oc_reboot_spec *spec, char *what,
			size_t len)
{
	char st[96];
	oc_node_state_long(n, st, sizeof(st));
	bool busy = n->base == OC_NODE_ALLOCATED || n->base == OC_NODE_MIXED || (n->flags & OC_NF_COMPLETING);
	if (n->flags & OC_NF_REBOOT_ISSUED) {
		snprintf(what, len, "reboot issued (%s)", st);
		return 0;
	}
	if (n->flags & OC_NF_REBOOT_REQUESTED) {
		if (spec->asap && busy) {
			snprintf(what, len, "reboot requested: ASAP, once its jobs end (%s)", st);
			return 1;
		}
		snprintf(what, len, "reboot requested (%s)", st);
		return 0;
	}
	if (n->boot_time > boot0) {
		bool down = n->base == OC_NODE_DOWN, drained = (n->flags & OC_NF_DRAIN) != 0;
		if (spec->next == OC_REBOOT_NEXT_RESUME && (down || drained)) {
			snprintf(what, len, "rebooted, but %s, not resumed%s%s", st, n->reason ? ": " : "",
				 n->reason ? n->reason : "");
			return -1;
		}
		if (spec->next == OC_REBOOT_NEXT_DOWN && !down) {
			snprintf(what, len, "rebooted, but %s, not DOWN", st);
			return -1;
		}
		snprintf(what, len, "rebooted, back %s", st);
		return 1;
	}
	if (n->base == OC_NODE_DOWN && n->reason && strcasestr(n->reason, "reboot")) {
		snprintf(what, len, "DOWN: %s", n->reason);
		return -1;
	}
	snprintf(what, len, "not rebooted yet (%s)", st);
	return 0;
}

/* A reboot: the request, then the nodes followed until each is back (or
 * waits for its jobs, with ASAP), failed, or OC_REBOOT_WAIT_S passed. */
static void apply_node_reboot(const struct oc_writer *w, const struct oc_action_req *req,
			      struct oc_action_result *res, char *error, size_t errlen, oc_progress_fn progress,
			      void *progress_ctx)
{
	char **names = NULL;
	size_t n = 0;
	char err[512] = "";
	if (w->ops->hostlist_expand(w->ctx, req->nodes, OC_ACTION_MAX_NODES, &names, &n, err, sizeof(err)) < 0 ||
	    !w->ops->node_reboot) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "refused: %.400s",
			 err[0] ? err : "this source cannot reboot nodes");
		snprintf(error, errlen, "%s", res->summary);
		oc_writer_names_free(&names, n);
		return;
	}
	/* The boot times before: a node is back when its boot time moved. */
	time_t *boot0 = calloc(n ? n : 1, sizeof(*boot0));
	int *stage = calloc(n ? n : 1, sizeof(*stage));
	char (*what)[300] = calloc(n ? n : 1, sizeof(*what));
	struct oc_nodes *t = NULL;
	if (!boot0 || !stage || !what) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "failed: out of memory; nothing was sent");
		snprintf(error, errlen, "out of memory");
		goto out;
	}
	if (w->ops->read_nodes(w->ctx, &t, err, sizeof(err)) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "failed: reading the nodes first: %.400s; nothing was sent",
			 err);
		snprintf(error, errlen, "%s", err);
		goto out;
	}
	struct oc_strmap index = {0};
	oc_strmap_init(&index, t->n);
	for (size_t i = 0; i < t->n; i++)
		oc_strmap_put(&index, t->v[i].name, (uint32_t)i);
	for (size_t i = 0; i < n; i++) {
		uint32_t k = oc_strmap_get(&index, names[i]);
		boot0[i] = k == UINT32_MAX ? 0 : t->v[k].boot_time;
	}
	oc_strmap_free(&index);
	oc_nodes_unref(&t);

	char slurm_err[512] = "";
	if (w->ops->node_reboot(w->ctx, req->nodes, &req->reboot, slurm_err, sizeof(slurm_err)) < 0) {
		if (oc_action_is_timeout(slurm_err)) {
			oc_action_unknown_result(res, slurm_err, error, errlen);
		} else {
			res->status = OC_ACTION_FAILED;
			snprintf(res->summary, sizeof(res->summary), "failed: %.450s", slurm_err);
			snprintf(error, errlen, "%s", slurm_err);
		}
		goto out;
	}
	time_t deadline = time(NULL) + OC_REBOOT_WAIT_S;
	size_t settled = 0, ok = 0;
	for (;;) {
		if (w->ops->read_nodes(w->ctx, &t, err, sizeof(err)) == 0) {
			oc_strmap_init(&index, t->n);
			for (size_t i = 0; i < t->n; i++)
				oc_strmap_put(&index, t->v[i].name, (uint32_t)i);
			settled = ok = 0;
			for (size_t i = 0; i < n; i++) {
				uint32_t k = oc_strmap_get(&index, names[i]);
				if (k == UINT32_MAX) {
					stage[i] = -1;
					snprintf(what[i], sizeof(what[i]), "no such node");
				} else {
					stage[i] = reboot_stage(&t->v[k], boot0[i], &req->reboot, what[i],
								sizeof(what[i]));
				}
				settled += stage[i] != 0;
				ok += stage[i] == 1;
			}
			oc_strmap_free(&index);
			oc_nodes_unref(&t);
		}
		if (progress) {
			struct oc_progress p = {.done = settled, .total = n};
			snprintf(p.what, sizeof(p.what), "reboot: %zu of %zu %s back or waiting for jobs", ok, n,
				 oc_plural(n, "node", "nodes"));
			progress(progress_ctx, &p);
		}
		if (settled == n || time(NULL) >= deadline)
			break;
		sleep(1);
	}
	for (size_t i = 0; i < n; i++) {
		if (stage[i] == 0)
			oc_appendf(res->details, sizeof(res->details), "%s: NOT back within %d s: %s\n", names[i],
				   OC_REBOOT_WAIT_S, what[i][0] ? what[i] : "not read back");
		else
			oc_appendf(res->details, sizeof(res->details), "%s: %s%s\n", names[i], stage[i] < 0 ? "FAILED: " : "",
				   what[i]);
	}
	if (ok == n) {
		res->status = OC_ACTION_OK;
		snprintf(res->summary, sizeof(res->summary), "rebooted %zu %s: %.300s", n, oc_plural(n, "node", "nodes"),
			 req->nodes);
	} else {
		res->status = ok ? OC_ACTION_PARTIAL : OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "%s: %zu of %zu %s rebooted or waiting for their jobs",
			 ok ? "partial" : "failed", ok, n, oc_plural(n, "node", "nodes"));
		snprintf(error, errlen, "%s", "read-back: not every node came back");
	}
out:
	free(boot0);
	free(stage);
	free(what);
	oc_writer_names_free(&names, n);
}

/* Whether the node lists a and b name the same nodes. */
static bool same_nodes(const struct oc_writer *w, const char *a, const char *b)
{
	char **x = NULL, **y = NULL;
	size_t nx = 0, ny = 0;
	char err[256];
	bool same = false;
	if (w->ops->hostlist_expand(w->ctx, a, OC_ACTION_MAX_NODES, &x, &nx, err, sizeof(err)) == 0 &&
	    w->ops->hostlist_expand(w->ctx, b, OC_ACTION_MAX_NODES, &y, &ny, err, sizeof(err)) == 0 && nx == ny) {
		struct oc_strmap m = {0};
		oc_strmap_init(&m, nx);
		for (size_t i = 0; i < nx; i++)
			oc_strmap_put(&m, x[i], (uint32_t)i);
		same = true;
		for (size_t i = 0; i < ny && same; i++)
			same = oc_strmap_get(&m, y[i]) != UINT32_MAX;
		oc_strmap_free(&m);
	}
	oc_writer_names_free(&x, nx);
	oc_writer_names_free(&y, ny);
	return same;
}

static const struct oc_reservation *find_resv(const struct oc_reservations *t, const char *name)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (strcmp(t->v[i].name, name) == 0)
			return &t->v[i];
	return NULL;
}

/* Whether every comma-separated word of want is in have. */
static bool flags_contain(const char *have, const char *want)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", want);
	char *save = NULL;
	for (char *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		bool found = false;
		size_t fl = strlen(f);
		for (const char *p = have; p && *p;) {
			const char *comma = strchr(p, ',');
			size_t l = comma ? (size_t)(comma - p) : strlen(p);
			if (l == fl && strncasecmp(p, f, fl) == 0)
				found = true;
			p = comma ? comma + 1 : NULL;
		}
		if (!found)
			return false;
	}
	return true;
}

static void apply_resv_create(const struct oc_writer *w, const struct oc_action_req *req,
			      struct oc_action_result *res, char *error, size_t errlen, char *name_out,
			      size_t name_len)
{
	char err[512] = "";
	if (w->ops->resv_create(w->ctx, &req->resv, name_out, name_len, err, sizeof(err)) < 0) {
		if (oc_action_is_timeout(err)) {
			oc_action_unknown_result(res, err, error, errlen);
			return;
		}
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "failed: %.400s", err);
		snprintf(error, errlen, "%s", err);
		return;
	}
	struct oc_reservations *t = NULL;
	if (w->ops->read_reservations(w->ctx, &t, err, sizeof(err)) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "created %.128s, but the read-back failed: %.300s", name_out, err);
		snprintf(error, errlen, "read-back: %s", err);
		return;
	}
	const struct oc_reservation *r = find_resv(t, name_out);
	if (!r) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "Slurm said it created %.128s, but it is not listed", name_out);
		snprintf(error, errlen, "not found in the read-back");
	} else {
		bool nodes_ok = r->nodes && same_nodes(w, r->nodes, req->resv.nodes);
		bool flags_ok = flags_contain(r->flags, req->resv.flags);
		bool users_ok = !req->resv.users[0] || (r->users && strstr(r->users, req->resv.users));
		/* When it ends, as Slurm read it back: the admin plans by it. */
		char start[32], until[64];
		struct tm tm;
		localtime_r(&r->start_time, &tm);
		strftime(start, sizeof(start), "%Y-%m-%d %H:%M", &tm);
		oc_cells_resv_until(r, until, sizeof(until));
		oc_appendf(res->details, sizeof(res->details),
			   "name:  %s\nnodes: %s%s\nflags: %s%s\nusers: %s%s\nfrom:  %s %s\n", r->name,
			   r->nodes ? r->nodes : "", nodes_ok ? "" : "  (DIFFERS from what was asked)",
			   r->flags ? r->flags : "", flags_ok ? "" : "  (DIFFERS)", r->users ? r->users : "",
			   users_ok ? "" : "  (DIFFERS)", start, until);
		if (nodes_ok && flags_ok && users_ok) {
			res->status = OC_ACTION_OK;
			snprintf(res->summary, sizeof(res->summary), "created reservation %.128s on %.280s %.40s", r->name,
				 r->nodes ? r->nodes : "", until);
		} else {
			res->status = OC_ACTION_PARTIAL;
			snprintf(res->summary, sizeof(res->summary), "created %.128s, but it differs from what was asked",
				 r->name);
			snprintf(error, errlen, "read-back differs");
		}
	}
	oc_reservations_unref(&t);
}

/* One RPC; Slurm's answer is the read-back (the counters are not readable
 * through the writer: the scheduler view shows them again). */
static void apply_stats_reset(const struct oc_writer *w, struct oc_action_result *res, char *error, size_t errlen)
{
	char err[512] = "";
	if (!w->ops->stats_reset) {
		res->status = OC_ACTION_FAILED;
		snprintf(error, errlen, "this writer cannot reset the statistics");
		snprintf(res->summary, sizeof(res->summary), "not reset: %s", error);
		return;
	}
	int rc = w->ops->stats_reset(w->ctx, err, sizeof(err));
	if (rc < 0 && oc_action_is_timeout(err)) {
		oc_action_unknown_result(res, err, error, errlen);
		return;
	}
	if (rc < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(error, errlen, "%.400s", err);
		snprintf(res->summary, sizeof(res->summary), "not reset: %.200s", err);
		return;
	}
	res->status = OC_ACTION_OK;
	snprintf(res->summary, sizeof(res->summary), "slurmctld's statistics counters reset");
}

static void apply_resv_delete(const struct oc_writer *w, const struct oc_action_req *req,
			      struct oc_action_result *res, char *error, size_t errlen)
{
	char err[512] = "";
	int rc = w->ops->resv_delete(w->ctx, req->resv_name, err, sizeof(err));
	if (rc < 0 && oc_action_is_timeout(err)) {
		oc_action_unknown_result(res, err, error, errlen);
		return;
	}
	struct oc_reservations *t = NULL;
	char rerr[512] = "";
	if (w->ops->read_reservations(w->ctx, &t, rerr, sizeof(rerr)) < 0) {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "%s%.200s; read-back failed: %.200s", rc < 0 ? "failed: " : "sent",
			 rc < 0 ? err : "", rerr);
		snprintf(error, errlen, "%s", rc < 0 ? err : rerr);
		return;
	}
	bool gone = find_resv(t, req->resv_name) == NULL;
	oc_reservations_unref(&t);
	if (gone) {
		res->status = OC_ACTION_OK;
		snprintf(res->summary, sizeof(res->summary), "deleted reservation %.128s", req->resv_name);
	} else {
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary), "failed: %.128s is still there%s%.300s", req->resv_name,
			 rc < 0 ? ": " : "", rc < 0 ? err : "");
		snprintf(error, errlen, "%s", rc < 0 ? err : "still listed");
	}
}

/* A JSON string of s; invalid UTF-8 bytes become '?' (the audit keeps the
 * line valid JSON; the reason itself went to Slurm verbatim). */
static json_t *json_string_lossy(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/* What an action is, for its audit lines: action name, targets and a JSON
 * object of its parameters (a new reference, NULL on ENOMEM). */
static json_t *action_describe(const struct oc_action_req *req, const char **action, const char **targets)
{
	json_t *params = json_object();
	*action = "";
	*targets = "";
	switch (req->kind) {
	case OC_ACTION_NODE_UPDATE:
		*action = op_name(req->op);
		*targets = req->nodes;
		if (params && req->op == OC_NODE_OP_DRAIN)
			json_object_set_new(params, "reason", json_string_lossy(req->reason));
		if (params && req->op == OC_NODE_OP_REBOOT) {
			json_object_set_new(params, "asap", json_boolean(req->reboot.asap));
			json_object_set_new(params, "nextstate",
					    json_string(req->reboot.next == OC_REBOOT_NEXT_RESUME ? "RESUME"
							: req->reboot.next == OC_REBOOT_NEXT_DOWN   ? "DOWN"
												    : ""));
			json_object_set_new(params, "reason", json_string_lossy(req->reboot.reason));
		}
		break;
	case OC_ACTION_RESV_CREATE:
		*action = "resv.create";
		*targets = req->resv.nodes;
		if (params) {
			json_object_set_new(params, "name", json_string(req->resv.name));
			json_object_set_new(params, "flags", json_string(req->resv.flags));
			json_object_set_new(params, "users", json_string(req->resv.users));
			json_object_set_new(params, "start", json_integer((json_int_t)req->resv.start));
			json_object_set_new(params, "duration_min", json_integer(req->resv.duration_min));
		}
		break;
	case OC_ACTION_RESV_DELETE:
		*action = "resv.delete";
		*targets = req->resv_name;
		break;
	case OC_ACTION_STATS_RESET:
		*action = "scheduler.reset";
		*targets = "slurmctld";
		break;
	case OC_ACTION_ONBOARD:
		*action = "onboard";
		*targets = req->onb.account;
		if (params) {
			json_object_set_new(params, "gpu_quota",
					    req->onb.gpu_quota == OC_ONB_NONE ? json_null() : json_integer(req->onb.gpu_quota));
			json_t *users = json_array();
			for (size_t i = 0; users && i < req->onb.nusers; i++)
				json_array_append_new(users, json_string_lossy(req->onb.users[i].name));
			json_object_set_new(params, "users", users);
			json_t *qos = json_array();
			for (size_t i = 0; qos && i < req->onb.nqos; i++)
				json_array_append_new(qos, json_string_lossy(req->onb.qos[i]));
			json_object_set_new(params, "qos", qos);
			json_object_set_new(params, "default_qos", json_string_lossy(req->onb.default_qos));
			json_object_set_new(params, "parent", json_string_lossy(req->onb.parent));
			json_object_set_new(params, "description", json_string_lossy(req->onb.description));
			json_object_set_new(params, "fairshare",
					    req->onb.fairshare == OC_ONB_NONE ? json_null() : json_integer(req->onb.fairshare));
			/* The destructive parts, always recorded. */
			json_t *ru = json_array();
			for (size_t i = 0; ru && i < req->onb.nremove_users; i++)
				json_array_append_new(ru, json_string_lossy(req->onb.remove_users[i]));
			json_object_set_new(params, "remove_users", ru);
			json_t *rq = json_array();
			for (size_t i = 0; rq && i < req->onb.nremove_qos; i++)
				json_array_append_new(rq, json_string_lossy(req->onb.remove_qos[i]));
			json_object_set_new(params, "remove_qos", rq);
		}
		break;
	case OC_ACTION_ONBOARD_PREVIEW:
		break;
	case OC_ACTION_JOB:
		*action = oc_job_op_name(req->job.op);
		*targets = req->job_ids;
		if (!params)
			break;
		if (req->job.op == OC_JOB_OP_SIGNAL) {
			json_object_set_new(params, "signal", json_integer(req->job.signal));
			json_object_set_new(params, "scope", json_string(req->job.batch_only ? "batch" : "full"));
		} else if (req->job.op == OC_JOB_OP_TIME_LIMIT) {
			json_object_set_new(params, "minutes",
					    req->job.minutes == OC_NONE ? json_null() : json_integer(req->job.minutes));
		} else if (req->job.op == OC_JOB_OP_PARTITION || req->job.op == OC_JOB_OP_QOS) {
			json_object_set_new(params, "name", json_string_lossy(req->job.name));
		} else if (req->job.op == OC_JOB_OP_PRIORITY) {
			json_object_set_new(params, "priority", json_integer(req->job.priority));
		} else if (req->job.op == OC_JOB_OP_NICE) {
			json_object_set_new(params, "nice", json_integer(req->job.nice));
		}
		break;
	}
	return params;
}

static void action_apply(const struct oc_writer *writer, const char *cluster, const char *audit_path,
			 const struct oc_action_req *req, const struct oc_onb_state *planned,
			 struct oc_action_result *res, oc_progress_fn progress, void *progress_ctx)
{
	memset(res, 0, sizeof(*res));
	if (req->kind == OC_ACTION_ONBOARD_PREVIEW) {
		oc_onboard_preview(writer, &req->onb, res, NULL);
		return;
	}
	char error[1024] = "";
	char created[128] = "";
	const char *action, *targets;
	json_t *params = action_describe(req, &action, &targets);
	/* A reason with invalid UTF-8 makes json_string fail: keep it raw. */
	char *params_text = params ? json_dumps(params, JSON_COMPACT) : NULL;
	/* Write-ahead: the intent is on disk before the first request. */
	char id[OC_AUDIT_ID_LEN];
	oc_audit_new_id(id);
	struct oc_audit_rec rec = {
		.time = time(NULL),
		.id = id,
		.phase = "intent",
		.cluster = cluster,
		.action = action,
		.targets = targets,
		.params = params_text,
		.command = req->command,
	};
	char aerr[256] = "";
	if (!audit_path || !*audit_path || oc_audit_append(audit_path, &rec, aerr, sizeof(aerr)) < 0) {
		if (!audit_path || !*audit_path)
			snprintf(aerr, sizeof(aerr), "no audit log (no home directory and no audit_log in the profile)");
		res->status = OC_ACTION_FAILED;
		snprintf(res->summary, sizeof(res->summary),
			 "refused: %.300s; nothing was changed (every write is logged first; to act without "
			 "the log, use scontrol)",
			 aerr);
		snprintf(res->audit_error, sizeof(res->audit_error), "%s", aerr);
		json_decref(params);
		free(params_text);
		return;
	}
	switch (req->kind) {
	case OC_ACTION_NODE_UPDATE:
		if (req->op == OC_NODE_OP_REBOOT)
			apply_node_reboot(writer, req, res, error, sizeof(error), progress, progress_ctx);
		else
			apply_node_update(writer, req, res, error, sizeof(error));
		break;
	case OC_ACTION_RESV_CREATE:
		apply_resv_create(writer, req, res, error, sizeof(error), created, sizeof(created));
		if (params && created[0]) {
			json_object_set_new(params, "created", json_string(created));
			free(params_text);
			params_text = json_dumps(params, JSON_COMPACT);
		}
		break;
	case OC_ACTION_RESV_DELETE:
		apply_resv_delete(writer, req, res, error, sizeof(error));
		break;
	case OC_ACTION_STATS_RESET:
		apply_stats_reset(writer, res, error, sizeof(error));
		break;
	case OC_ACTION_ONBOARD:
		oc_onboard_apply(writer, &req->onb, planned, res, error, sizeof(error), progress, progress_ctx);
		break;
	case OC_ACTION_ONBOARD_PREVIEW:
		break; /* handled above */
	case OC_ACTION_JOB:
		oc_job_apply(writer, req, res, error, sizeof(error));
		break;
	}
	json_decref(params);
	rec.time = time(NULL);
	rec.phase = "outcome";
	rec.params = params_text;
	rec.result = res->status == OC_ACTION_OK	? "ok"
		     : res->status == OC_ACTION_PARTIAL ? "partial"
		     : res->status == OC_ACTION_UNKNOWN ? "unknown"
							: "failed";
	rec.error = error[0] ? error : NULL;
	if (oc_audit_append(audit_path, &rec, aerr, sizeof(aerr)) < 0)
		snprintf(res->audit_error, sizeof(res->audit_error), "outcome not logged: %.230s", aerr);
	free(params_text);
}

void oc_action_apply(const struct oc_writer *writer, const char *cluster, const char *audit_path,
		     const struct oc_action_req *req, struct oc_action_result *res, oc_progress_fn progress,
		     void *progress_ctx)
{
	action_apply(writer, cluster, audit_path, req, NULL, res, progress, progress_ctx);
}

void oc_onboard_apply_planned(const struct oc_writer *writer, const char *cluster, const char *audit_path,
			      const struct oc_action_req *req, const struct oc_onb_state *planned,
			      struct oc_action_result *res, oc_progress_fn progress, void *progress_ctx)
{
	action_apply(writer, cluster, audit_path, req, planned, res, progress, progress_ctx);
}

static void notify(struct oc_worker *w);

/* Progress from the worker thread: kept for the screen, which is woken. */
static void worker_progress(void *ctx, const struct oc_progress *p)
{
	struct oc_worker *w = ctx;
	pthread_mutex_lock(&w->lock);
	w->progress = *p;
	notify(w);
	pthread_mutex_unlock(&w->lock);
}

void oc_worker_progress(struct oc_worker *w, struct oc_progress *out)
{
	pthread_mutex_lock(&w->lock);
	*out = w->progress;
	pthread_mutex_unlock(&w->lock);
}

static void notify(struct oc_worker *w)
{
	char one = 1;
	ssize_t r = write(w->pipe_wr, &one, 1);
	(void)r;
}

static void *worker_main(void *arg)
{
	struct oc_worker *w = arg;
	/* Who we are to Slurm, first. */
	struct oc_whoami who = {0};
	who.known = true;
	if (w->writer.ops->whoami(w->writer.ctx, who.user, sizeof(who.user), &who.level, who.error,
				  sizeof(who.error)) < 0)
		who.level = OC_ADMIN_NONE;
	pthread_mutex_lock(&w->lock);
	w->who = who;
	notify(w);
	while (!w->quit) {
		if (!w->has_req) {
			if (!w->who.error[0]) {
				pthread_cond_wait(&w->cv, &w->lock);
				continue;
			}
			/* whoami failed (slurmctld down at start?): ask again in
			 * 15 s unless an action comes first. */
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 15;
			if (pthread_cond_timedwait(&w->cv, &w->lock, &ts) == ETIMEDOUT && !w->quit) {
				pthread_mutex_unlock(&w->lock);
				struct oc_whoami again = {.known = true};
				if (w->writer.ops->whoami(w->writer.ctx, again.user, sizeof(again.user), &again.level,
							  again.error, sizeof(again.error)) < 0)
					again.level = OC_ADMIN_NONE;
				pthread_mutex_lock(&w->lock);
				w->who = again;
				notify(w);
			}
			continue;
		}
		/* The request is large (an onboarding spec): apply from the
		 * worker's own copy, which submit does not touch while busy. */
		const struct oc_action_req *req = &w->req;
		memset(&w->progress, 0, sizeof(w->progress));
		pthread_mutex_unlock(&w->lock);
		static struct oc_action_result res; /* large; one worker */
		memset(&res, 0, sizeof(res));
		if (req->kind == OC_ACTION_ONBOARD_PREVIEW) {
			oc_onboard_preview(&w->writer, &req->onb, &res, &w->preview_state);
			w->have_preview = res.status == OC_ACTION_OK;
		} else {
			const struct oc_onb_state *planned =
				req->kind == OC_ACTION_ONBOARD && req->onb_use_preview && w->have_preview ? &w->preview_state
													   : NULL;
			action_apply(&w->writer, w->cluster, w->audit_path, req, planned, &res, worker_progress, w);
		}
		pthread_mutex_lock(&w->lock);
		w->result = res;
		w->has_result = true;
		w->has_req = false;
		w->busy_since = 0;
		notify(w);
	}
	w->done = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct oc_worker *oc_worker_start(const struct oc_writer *writer, const char *cluster,
				  const char *audit_path, char *err, size_t errlen)
{
	struct oc_worker *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->writer = *writer;
	snprintf(w->cluster, sizeof(w->cluster), "%s", cluster ? cluster : "");
	snprintf(w->audit_path, sizeof(w->audit_path), "%s", audit_path ? audit_path : "");
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "worker: %s", strerror(errno));
		free(w);
		return NULL;
	}
	w->pipe_rd = fds[0];
	w->pipe_wr = fds[1];
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cv, NULL);
	int rc = pthread_create(&w->thread, NULL, worker_main, w);
	if (rc) {
		snprintf(err, errlen, "worker thread: %s", strerror(rc));
		close(fds[0]);
		close(fds[1]);
		free(w);
		return NULL;
	}
	return w;
}

int oc_worker_submit(struct oc_worker *w, const struct oc_action_req *req)
{
	pthread_mutex_lock(&w->lock);
	if (w->has_req) {
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	w->req = *req;
	w->has_req = true;
	w->has_result = false;
	w->busy_since = time(NULL);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

bool oc_worker_busy(struct oc_worker *w, time_t *since)
{
	pthread_mutex_lock(&w->lock);
	bool busy = w->has_req;
	if (since)
		*since = w->busy_since;
	pthread_mutex_unlock(&w->lock);
	return busy;
}

bool oc_worker_take_result(struct oc_worker *w, struct oc_action_result *out)
{
	pthread_mutex_lock(&w->lock);
	bool has = w->has_result;
	if (has) {
		*out = w->result;
		w->has_result = false;
	}
	pthread_mutex_unlock(&w->lock);
	return has;
}

void oc_worker_whoami(struct oc_worker *w, struct oc_whoami *out)
{
	pthread_mutex_lock(&w->lock);
	*out = w->who;
	pthread_mutex_unlock(&w->lock);
}

int oc_worker_fd(const struct oc_worker *w)
{
	return w->pipe_rd;
}

void oc_worker_ack(struct oc_worker *w)
{
	char buf[32];
	while (read(w->pipe_rd, buf, sizeof(buf)) > 0)
		;
}

const struct oc_writer *oc_worker_writer(const struct oc_worker *w)
{
	return &w->writer;
}

bool oc_worker_stop(struct oc_worker **wp)
{
	struct oc_worker *w = wp ? *wp : NULL;
	if (!w)
		return true;
	*wp = NULL;
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	pthread_cond_broadcast(&w->cv);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	while (!w->done)
		if (pthread_cond_timedwait(&w->cv, &w->lock, &ts) == ETIMEDOUT)
			break;
	bool done = w->done;
	pthread_mutex_unlock(&w->lock);
	if (!done) {
		pthread_detach(w->thread); /* stuck in a request: ends with the process */
		return false;
	}
	pthread_join(w->thread, NULL);
	close(w->pipe_rd);
	close(w->pipe_wr);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cv);
	free(w);
	return true;
}
