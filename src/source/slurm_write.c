/* slurm_write.c: the libslurm writer (actions/writer.h): hostlists, node
 * updates, reservations, read-back, who the user is to Slurm, and the
 * rehearsal probes (jobs submitted with runuser + sbatch and cancelled
 * with slurm_kill_job, per-user totals from sacct, the controller's
 * configuration).
 *
 * Hostlist expressions are checked here before libslurm sees them:
 * libslurm's hostlist_create accepts some broken input and makes up names
 * from it (22.05: "gpu-st-b300-[3-" gives one host "gpu-st-b300-]"),
 * refuses other input with a message on stderr only, and expands a range
 * completely before anyone can count it. So the syntax is checked and the
 * names are counted first, and libslurm only expands what passed. */
#include "source/slurm_write.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurmdb.h>

#include "actions/plan.h"
#include "core/hostlist.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "source/exec.h"
#include "source/jobcmd.h"
#include "source/sacctmgr.h"
#include "source/slurm_compat.h"
#include "source/slurm_convert.h"
#include "source/slurm_reason.h"

/* Most names one node update may name (libslurm's own range limit is
 * 64k names per bracket range). */
#define OC_UPDATE_MAX_NODES 65536

struct slurm_writer {
	pthread_mutex_t lock; /* guards uids */
	struct oc_slurm_uid_cache uids;
};

/* Error messages (core/strbuf.h). */
#define seterr oc_seterr

/* Slurm's text for the errno a libslurm call left (SLURM_ERROR's text when
 * it left none). slurm_get_errno is gone in 24.11: errno is the one way. */
static void slurm_err(char *err, size_t errlen, int e)
{
	seterr(err, errlen, "%s", slurm_strerror(e ? e : SLURM_ERROR));
}

/* ---- hostlists --------------------------------------------------------- */

/* Free k names and the array, as oc_writer_names_free does (not called:
 * oc_source does not link oc_actions). */
static void names_free(char **v, size_t k)
{
	for (size_t i = 0; i < k; i++)
		free(v[i]);
	free(v);
}

/* Every name of the libslurm hostlist expr, as it expands it (duplicates
 * kept), into a malloc'd array *v of at most max malloc'd names (*n).
 * Returns 0; 1 when there are more than max; -1 on ENOMEM or when
 * libslurm refuses expr. */
static int hosts_expand(const char *expr, size_t max, char ***v, size_t *n)
{
	oc_hostlist hl = slurm_hostlist_create(expr);
	char **a;
	char *host;
	*v = NULL;
	*n = 0;
	if (!hl)
		return -1;
	a = malloc((max ? max : 1) * sizeof(*a));
	if (!a) {
		slurm_hostlist_destroy(hl);
		return -1;
	}
	while ((host = slurm_hostlist_shift(hl))) {
		if (*n == max) {
			free(host);
			slurm_hostlist_destroy(hl);
			names_free(a, *n);
			*n = 0;
			return 1;
		}
		a[(*n)++] = host;
	}
	slurm_hostlist_destroy(hl);
	*v = a;
	return 0;
}

/* Names come back in host order without duplicates. libslurm expands;
 * the duplicates are dropped here: slurm_hostlist_uniq (22.05) keeps
 * some duplicates of names that differ in zero padding and drops other
 * names ("xx[0-30,40,4][0-30,40,4]", found by tests/fuzz/fuzz_hostlist). */
static int sw_hostlist_expand(void *ctx, const char *expr, size_t max, char ***names, size_t *n,
			      char *err, size_t errlen)
{
	(void)ctx;
	*names = NULL;
	*n = 0;
	uint64_t count;
	if (oc_hostlist_check_nodes_max(expr, max, &count, err, errlen) < 0)
		return -1;
	char **v;
	size_t k;
	int rc = hosts_expand(expr, (size_t)count, &v, &k);
	if (rc < 0) {
		seterr(err, errlen, "libslurm refused the hostlist \"%.64s\" (or out of memory)", expr);
		return -1;
	}
	if (rc > 0 || k != count) {
		if (rc == 0)
			names_free(v, k);
		seterr(err, errlen, "libslurm expanded \"%.64s\" to another number of names than %llu", expr,
		       (unsigned long long)count);
		return -1;
	}
	for (size_t i = 0; i < k; i++)
		if (oc_node_name_check(v[i], err, errlen) < 0) {
			names_free(v, k);
			return -1;
		}
	oc_hostlist_uniq(v, &k);
	*names = v;
	*n = k;
	return 0;
}

/* Whether expr expands (libslurm, duplicates kept) to exactly the set
 * set[0..k-1] (unique, in host order). libslurm 22.05's compression merges
 * names that differ only in zero padding into ranges that name other nodes
 * (found by tests/fuzz/fuzz_hostlist), so its result is checked. */
static bool compress_same(const char *expr, char *const *set, size_t k)
{
	char **got;
	size_t n;
	bool same = false;
	if (hosts_expand(expr, k * 2 + 1, &got, &n) != 0)
		return false;
	oc_hostlist_uniq(got, &n);
	if (n == k) {
		same = true;
		for (size_t i = 0; i < k && same; i++)
			same = strcmp(got[i], set[i]) == 0;
	}
	names_free(got, n);
	return same;
}

/* set[0..k-1] joined by ',' (a hostlist expression that names each node
 * as it is), malloc'd; NULL on ENOMEM. */
static char *names_join(char *const *set, size_t k)
{
	size_t total = 1, used = 0;
	for (size_t i = 0; i < k; i++)
		total += strlen(set[i]) + 1;
	char *s = malloc(total);
	if (!s)
		return NULL;
	for (size_t i = 0; i < k; i++) {
		size_t len = strlen(set[i]);
		if (used)
			s[used++] = ',';
		memcpy(s + used, set[i], len);
		used += len;
	}
	s[used] = '\0';
	return s;
}

/* libslurm's ranged string of the names set[0..k-1], malloc'd; NULL on
 * ENOMEM or when libslurm refuses a name. */
static char *hosts_ranged(char *const *set, size_t k)
{
	oc_hostlist hl = slurm_hostlist_create(NULL);
	if (!hl)
		return NULL;
	for (size_t i = 0; i < k; i++)
		if (slurm_hostlist_push_host(hl, set[i]) != 1) {
			slurm_hostlist_destroy(hl);
			return NULL;
		}
	/* slurm_hostlist_ranged_string_malloc left slurm.h in 23.11, and the
	 * _xmalloc variant needs the undeclared xfree: write into our own
	 * buffer, doubling it while libslurm says it was truncated. */
	size_t cap = 256;
	char *s = NULL;
	for (;;) {
		char *ns = realloc(s, cap);
		if (!ns)
			break;
		s = ns;
		if (slurm_hostlist_ranged_string(hl, cap, s) >= 0) {
			slurm_hostlist_destroy(hl);
			return s;
		}
		if (cap > ((size_t)1 << 28))
			break; /* 256 MB of names: give up */
		cap *= 2;
	}
	free(s);
	slurm_hostlist_destroy(hl);
	return NULL;
}

/* Duplicates are dropped and names put in host order; a name that is not
 * a plain node name (empty, brackets, commas, > 255) gives NULL like
 * ENOMEM. When libslurm's ranges would name other nodes than names, or
 * are not an expression oc_hostlist_check_nodes accepts, the result is the names
 * joined by commas instead. */
static char *sw_hostlist_compress(void *ctx, const char *const *names, size_t n)
{
	(void)ctx;
	if (n == 0)
		return strdup("");
	for (size_t i = 0; i < n; i++)
		if (oc_node_name_check(names[i], NULL, 0) < 0)
			return NULL;
	char **set = malloc(n * sizeof(*set));
	size_t k = 0;
	if (!set)
		return NULL;
	for (; k < n; k++)
		if (!(set[k] = strdup(names[k]))) {
			names_free(set, k);
			return NULL;
		}
	oc_hostlist_uniq(set, &k);
	char *s = hosts_ranged(set, k);
	uint64_t count;
	if (s && (oc_hostlist_check_nodes(s, &count, NULL, 0) < 0 || !compress_same(s, set, k))) {
		free(s);
		s = names_join(set, k); /* lossy ranges: name every node as it is */
	}
	names_free(set, k);
	return s;
}

/* ---- node updates ------------------------------------------------------ */

/* The nodes of an update or a reboot: a good hostlist of at most
 * OC_UPDATE_MAX_NODES names. 0, or -1 with err. */
static int targets_check(const char *expr, char *err, size_t errlen)
{
	uint64_t count;
	if (oc_hostlist_check_nodes(expr, &count, err, errlen) < 0)
		return -1;
	if (count > OC_UPDATE_MAX_NODES) {
		seterr(err, errlen, "hostlist names more than %d nodes", OC_UPDATE_MAX_NODES);
		return -1;
	}
	return 0;
}

static int sw_node_update(void *ctx, const char *expr, enum oc_node_op op, const char *reason,
			  char *err, size_t errlen)
{
	(void)ctx;
	if (targets_check(expr, err, errlen) < 0)
		return -1;
	update_node_msg_t msg;
	slurm_init_update_node_msg(&msg);
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
		msg.node_state = NODE_STATE_DRAIN;
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(26, 5, 0)
		/* Gone in 26.05: slurmctld always took the RPC's own uid. */
		msg.reason_uid = (uint32_t)getuid();
#endif
		break;
	}
	case OC_NODE_OP_RESUME:
		msg.node_state = NODE_RESUME;
		break;
	case OC_NODE_OP_UNDRAIN:
		msg.node_state = NODE_STATE_UNDRAIN;
		break;
	case OC_NODE_OP_CANCEL_REBOOT:
		/* What scontrol cancel_reboot sends. */
		msg.node_state = NODE_STATE_REBOOT_CANCEL;
		break;
	case OC_NODE_OP_POWER_UP:
		msg.node_state = NODE_STATE_POWER_UP;
		break;
	case OC_NODE_OP_POWER_DOWN:
		msg.node_state = NODE_STATE_POWER_DOWN;
		break;
	default:
		seterr(err, errlen, "unknown node operation %d", (int)op);
		return -1;
	}
	/* The message takes char *: give it copies rather than cast const away. */
	char *names = strdup(expr);
	char *why = op == OC_NODE_OP_DRAIN ? strdup(reason) : NULL;
	if (!names || (op == OC_NODE_OP_DRAIN && !why)) {
		free(names);
		free(why);
		seterr(err, errlen, "out of memory");
		return -1;
	}
	msg.node_names = names;
	msg.reason = why;
	errno = 0;
	int rc = slurm_update_node(&msg);
	int e = errno;
	free(names);
	free(why);
	if (rc != SLURM_SUCCESS) {
		slurm_err(err, errlen, e);
		return -1;
	}
	return 0;
}

/* How long sbatch (a probe job) and scontrol reboot may take. */
#define OC_SUBMIT_TIMEOUT_S 60

/* libslurm has no public call for a reboot: scontrol builds
 * REQUEST_REBOOT_NODES from Slurm's internal headers (reboot_msg_t is not
 * in slurm.h). The console runs scontrol with the argv the confirmation
 * shows (no shell), as it runs sbatch for the probe jobs. */
static int sw_node_reboot(void *ctx, const char *expr, const struct oc_reboot_spec *spec, char *err,
			  size_t errlen)
{
	(void)ctx;
	if (targets_check(expr, err, errlen) < 0)
		return -1;
	char scontrol[PATH_MAX];
	if (oc_exec_find("scontrol", scontrol, sizeof(scontrol), err, errlen) < 0)
		return -1;
	struct oc_plan_reboot_words words;
	const char *argv[OC_PLAN_REBOOT_ARGV];
	oc_plan_reboot_argv(expr, spec, &words, argv);
	argv[0] = scontrol;
	char out[2048], xerr[512], text[1024];
	int status;
	if (oc_exec(argv, OC_SUBMIT_TIMEOUT_S, out, sizeof(out), &status, xerr, sizeof(xerr)) < 0) {
		seterr(err, errlen, "%s", xerr);
		return -1;
	}
	oc_jobcmd_join(text, sizeof(text), out);
	if (status == 0)
		return 0;
	seterr(err, errlen, "%s%s%s", status < 0 ? xerr : "", status < 0 && text[0] ? ": " : "",
	       text[0] ? text : "scontrol reboot failed with no message");
	return -1;
}

/* ---- reservations ------------------------------------------------------ */

/* A NUL-terminated field of a fixed array: 0, or -1 with a message. */
static int field_check(const char *field, size_t size, const char *what, char *err, size_t errlen)
{
	if (!memchr(field, '\0', size)) {
		seterr(err, errlen, "%s is not terminated", what);
		return -1;
	}
	return 0;
}

/* "MAINT,IGNORE_JOBS" -> RESERVE_FLAG_* bits (names as Slurm prints
 * them, case-insensitive). Returns 0, or -1 naming the flag it does not
 * know. */
static int resv_flags_parse(const char *text, uint64_t *flags, char *err, size_t errlen)
{
	*flags = 0;
	const char *s = text;
	while (*s) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		uint64_t bit;
		if (!len) {
			seterr(err, errlen, "empty reservation flag in \"%.64s\"", text);
			return -1;
		}
		if (oc_slurm_resv_flag_bit(s, len, &bit) < 0) {
			seterr(err, errlen, "unknown reservation flag \"%.*s\"", (int)(len > 64 ? 64 : len), s);
			return -1;
		}
		*flags |= bit;
		if (!end)
			break;
		s = end + 1;
		if (!*s) {
			seterr(err, errlen, "empty reservation flag in \"%.64s\"", text);
			return -1;
		}
	}
	return 0;
}

static int resv_name_check(const char *name, char *err, size_t errlen)
{
	for (const char *p = name; *p; p++)
		if (!oc_node_name_char((unsigned char)*p)) {
			seterr(err, errlen, "reservation name: letters, digits, '-', '_' and '.' only");
			return -1;
		}
	return 0;
}

static int sw_resv_create(void *ctx, const struct oc_resv_spec *spec, char *name_out, size_t name_len,
			  char *err, size_t errlen)
{
	(void)ctx;
	if (name_out && name_len)
		name_out[0] = '\0';
	if (field_check(spec->name, sizeof(spec->name), "reservation name", err, errlen) < 0 ||
	    field_check(spec->nodes, sizeof(spec->nodes), "nodes", err, errlen) < 0 ||
	    field_check(spec->users, sizeof(spec->users), "users", err, errlen) < 0 ||
	    field_check(spec->accounts, sizeof(spec->accounts), "accounts", err, errlen) < 0 ||
	    field_check(spec->flags, sizeof(spec->flags), "flags", err, errlen) < 0)
		return -1;
	if (resv_name_check(spec->name, err, errlen) < 0)
		return -1;
	uint64_t count;
	if (oc_hostlist_check_nodes(spec->nodes, &count, err, errlen) < 0)
		return -1;
	uint64_t flags;
	if (resv_flags_parse(spec->flags, &flags, err, errlen) < 0)
		return -1;
	uint32_t duration;
	if (spec->duration_min == -1) {
		duration = INFINITE;
	} else if (spec->duration_min <= 0 || (unsigned long)spec->duration_min >= INFINITE) {
		seterr(err, errlen, "duration must be a positive number of minutes, or -1 (infinite)");
		return -1;
	} else {
		duration = (uint32_t)spec->duration_min;
	}

	resv_desc_msg_t msg;
	slurm_init_resv_desc_msg(&msg);
	char *name = spec->name[0] ? strdup(spec->name) : NULL;
	char *nodes = strdup(spec->nodes);
	char *users = strdup(spec->users[0] ? spec->users : "root");
	char *accounts = spec->accounts[0] ? strdup(spec->accounts) : NULL;
	if ((spec->name[0] && !name) || !nodes || !users || (spec->accounts[0] && !accounts)) {
		free(name);
		free(nodes);
		free(users);
		free(accounts);
		seterr(err, errlen, "out of memory");
		return -1;
	}
	msg.name = name;
	msg.node_list = nodes;
	msg.users = users;
	msg.accounts = accounts;
	msg.flags = flags;
	/* start 0 = now: left at NO_VAL, slurmctld then starts it on its own
	 * clock (no skew between this host and the controller). */
	if (spec->start)
		msg.start_time = spec->start;
	msg.duration = duration;

	errno = 0;
	/* The name comes back strdup'd (22.05 to 25.11) or xstrdup'd (26.05):
	 * oc_slurm_free_resv_name releases it either way. */
	char *created = slurm_create_reservation(&msg);
	int e = errno;
	free(name);
	free(nodes);
	free(users);
	free(accounts);
	if (!created) {
		slurm_err(err, errlen, e);
		return -1;
	}
	if (name_out && name_len)
		snprintf(name_out, name_len, "%s", created);
	oc_slurm_free_resv_name(created);
	return 0;
}

static int sw_stats_reset(void *ctx, char *err, size_t errlen)
{
	(void)ctx;
	stats_info_request_msg_t req;
	memset(&req, 0, sizeof(req));
	req.command_id = STAT_COMMAND_RESET;
	errno = 0;
	if (slurm_reset_statistics(&req) != SLURM_SUCCESS) {
		slurm_err(err, errlen, errno);
		return -1;
	}
	return 0;
}

static int sw_resv_delete(void *ctx, const char *name, char *err, size_t errlen)
{
	(void)ctx;
	if (!name || !*name) {
		seterr(err, errlen, "no reservation name");
		return -1;
	}
	char *copy = strdup(name);
	if (!copy) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	reservation_name_msg_t msg;
	memset(&msg, 0, sizeof(msg));
	msg.name = copy;
	errno = 0;
	int rc = slurm_delete_reservation(&msg);
	int e = errno;
	free(copy);
	if (rc != SLURM_SUCCESS) {
		slurm_err(err, errlen, e);
		return -1;
	}
	return 0;
}

/* ---- read-back --------------------------------------------------------- */

static int sw_read_nodes(void *ctx, struct oc_nodes **out, char *err, size_t errlen)
{
	struct slurm_writer *w = ctx;
	*out = NULL;
	node_info_msg_t *msg = NULL;
	/* As the backend asks: SHOW_DETAIL for gres_used. */
	uint16_t show = SHOW_ALL | SHOW_DETAIL;
#ifdef SHOW_MIXED
	show |= SHOW_MIXED;
#endif
	errno = 0;
	if (slurm_load_node((time_t)0, &msg, show) != SLURM_SUCCESS || !msg) {
		slurm_err(err, errlen, errno);
		return -1;
	}
	pthread_mutex_lock(&w->lock);
	struct oc_nodes *t = oc_slurm_convert_nodes(&w->uids, msg, NULL);
	pthread_mutex_unlock(&w->lock);
	slurm_free_node_info_msg(msg);
	if (!t) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	*out = t;
	return 0;
}

/* The table's node_idx are left empty: read-back compares names. */
static int sw_read_reservations(void *ctx, struct oc_reservations **out, char *err, size_t errlen)
{
	(void)ctx;
	*out = NULL;
	reserve_info_msg_t *msg = NULL;
	errno = 0;
	if (slurm_load_reservations((time_t)0, &msg) != SLURM_SUCCESS || !msg) {
		slurm_err(err, errlen, errno);
		return -1;
	}
	struct oc_reservations *t = oc_slurm_convert_resv(msg, NULL, NULL);
	slurm_free_reservation_info_msg(msg);
	if (!t) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	*out = t;
	return 0;
}

/* ---- who am I ---------------------------------------------------------- */

/* The accounting AdminLevel of user from slurmctld's association manager:
 * 0 and *level, or -1 with Slurm's error. A user unknown to accounting is
 * NONE. */
static int whoami_admin_level(void *ctx, const char *user, enum oc_admin_level *level, char *err, size_t errlen)
{
	(void)ctx;
	*level = OC_ADMIN_NONE;
	oc_list users = slurm_list_create(NULL); /* items borrowed: nothing to free */
	if (!users) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	slurm_list_append(users, (char *)user); /* borrowed: the list frees nothing */
	assoc_mgr_info_request_msg_t req;
	memset(&req, 0, sizeof(req));
	req.flags = ASSOC_MGR_INFO_FLAG_USERS;
	req.user_list = users;
	assoc_mgr_info_msg_t *msg = NULL;
	errno = 0;
	int rc = slurm_load_assoc_mgr_info(&req, &msg);
	int e = errno;
	slurm_list_destroy(users);
	if (rc != SLURM_SUCCESS || !msg) {
		if (msg)
			slurm_free_assoc_mgr_info_msg(msg);
		slurm_err(err, errlen, e);
		return -1;
	}
	if (msg->user_list && slurm_list_count(msg->user_list) > 0) {
		oc_list_itr it = slurm_list_iterator_create(msg->user_list);
		slurmdb_user_rec_t *u;
		while ((u = slurm_list_next(it))) {
			if (!u->name || strcasecmp(u->name, user) != 0)
				continue;
			if (u->admin_level == SLURMDB_ADMIN_SUPER_USER)
				*level = OC_ADMIN_ADMIN;
			else if (u->admin_level == SLURMDB_ADMIN_OPERATOR)
				*level = OC_ADMIN_OPERATOR;
			break;
		}
		slurm_list_iterator_destroy(it);
	}
	slurm_free_assoc_mgr_info_msg(msg);
	return 0;
}

static int sw_whoami(void *ctx, char *user, size_t user_len, enum oc_admin_level *level, char *err,
		     size_t errlen)
{
	(void)ctx;
	*level = OC_ADMIN_NONE;
	if (user && user_len)
		user[0] = '\0';
	uid_t uid = getuid();
	char name[256];
	struct passwd pw, *res = NULL;
	char buf[4096];
	int pe = getpwuid_r(uid, &pw, buf, sizeof(buf), &res);
	if (pe != 0 || !res) {
		seterr(err, errlen, "uid %u has no user name: %s", (unsigned)uid,
		       pe ? strerror(pe) : "no passwd entry");
		return -1;
	}
	snprintf(name, sizeof(name), "%s", pw.pw_name);
	if (user && user_len)
		snprintf(user, user_len, "%s", name);
	bool slurm_user = false, accounting = false;
	if (uid != 0) { /* root needs no configuration read */
		slurm_conf_t *conf = NULL;
		errno = 0;
		if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS || !conf) {
			slurm_err(err, errlen, errno);
			return -1;
		}
		slurm_user = conf->slurm_user_id == (uint32_t)uid || oc_is_slurm_user(conf->slurm_user_name, name);
		accounting = conf->accounting_storage_type && !strstr(conf->accounting_storage_type, "/none");
		oc_slurm_free_conf(conf);
	}
	return oc_whoami_level(uid == 0, slurm_user, accounting, name, whoami_admin_level, NULL, level, err, errlen);
}

/* ---- onboarding: through the sacctmgr binary (source/sacctmgr.h) ------- */

/* sacctmgr from PATH for now (bindir NULL); a profile may name a Slurm
 * bin folder later. Returns what oc_sacctmgr_read_state returns. */
static int sw_onb_read_state(void *ctx, const char *account, struct oc_onb_state *st, char *err,
			     size_t errlen)
{
	(void)ctx;
	return oc_sacctmgr_read_state(NULL, account, st, err, errlen);
}

/* Returns what oc_sacctmgr_run_step returns (0 done, 1 already there,
 * -1 failed with sacctmgr's output in out). */
static int sw_onb_run_step(void *ctx, const struct oc_onb_step *step, char *out, size_t outlen)
{
	(void)ctx;
	return oc_sacctmgr_run_step(NULL, step, out, outlen, OC_SACCTMGR_STEP_TIMEOUT_S);
}

/* ---- rehearsal probes ----------------------------------------------- */

/* Seconds an sbatch (through runuser) or an sacct may take. */
#define OC_SACCT_TIMEOUT_S 60
/* Most output read from sacct (about 30 bytes a job). */
#define OC_SACCT_OUT_MAX ((size_t)16 << 20)

/* The words Slurm uses for "the controller could not be reached" (its
 * slurm_strerror texts), which make a failed sbatch "not tried" rather
 * than "refused". */
static const int submit_comm_errors[] = {
	SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR, SLURMCTLD_COMMUNICATIONS_SEND_ERROR,
	SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR, SLURMCTLD_COMMUNICATIONS_SHUTDOWN_ERROR,
	SLURM_COMMUNICATIONS_CONNECTION_ERROR, SLURM_COMMUNICATIONS_SEND_ERROR,
	SLURM_COMMUNICATIONS_RECEIVE_ERROR, SLURM_COMMUNICATIONS_SHUTDOWN_ERROR,
	SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT, SLURM_PROTOCOL_AUTHENTICATION_ERROR,
};


/* Whether text holds one of the communication errors. */
static bool submit_comm_failure(const char *text)
{
	for (size_t i = 0; i < sizeof(submit_comm_errors) / sizeof(submit_comm_errors[0]); i++) {
		const char *m = slurm_strerror(submit_comm_errors[i]);
		if (m && *m && strstr(text, m))
			return true;
	}
	return false;
}

/* runuser -u USER -- sbatch --parsable ... --wrap=COMMAND (sbatch alone
 * when the console is not root and submits as itself). Returns 0 and
 * *job_id; 1 when sbatch exited non-zero (its words in err); -1 when it
 * could not be tried (bad spec, no such user, no root, runuser failed,
 * controller unreachable, timeout). */
static int sw_submit_job(void *ctx, const struct oc_job_spec *spec, uint32_t *job_id, char *err,
			 size_t errlen)
{
	(void)ctx;
	*job_id = 0;
	if (err && errlen)
		err[0] = '\0';
	if (oc_jobcmd_check(spec, err, errlen) < 0)
		return -1;

	/* Who submits: runuser as root, else only the console's own user. */
	char pwbuf[4096];
	struct passwd pw, *res = NULL;
	int pe = getpwnam_r(spec->user, &pw, pwbuf, sizeof(pwbuf), &res);
	if (pe != 0 || !res) {
		seterr(err, errlen, "no such user \"%s\"%s%s", spec->user, pe ? ": " : "", pe ? strerror(pe) : "");
		return -1;
	}
	bool as_root = geteuid() == 0;
	if (!as_root && res->pw_uid != geteuid()) {
		seterr(err, errlen, "submitting as another user needs root (the console runs as uid %u)",
		       (unsigned)geteuid());
		return -1;
	}

	char runuser[PATH_MAX], sbatch[PATH_MAX];
	if ((as_root && oc_exec_find("runuser", runuser, sizeof(runuser), err, errlen) < 0) ||
	    oc_exec_find("sbatch", sbatch, sizeof(sbatch), err, errlen) < 0)
		return -1;

	struct oc_jobcmd_args args;
	const char *argv[OC_JOBCMD_MAX_ARGV];
	oc_jobcmd_sbatch_argv(spec, as_root ? runuser : NULL, sbatch, &args, argv);

	char out[4096], xerr[512], text[1024];
	int status;
	if (oc_exec(argv, OC_SUBMIT_TIMEOUT_S, out, sizeof(out), &status, xerr, sizeof(xerr)) < 0) {
		seterr(err, errlen, "%s", xerr);
		return -1;
	}
	oc_jobcmd_join(text, sizeof(text), out);
	if (status == 0) {
		if (oc_jobcmd_job_id(out, job_id) < 0) {
			seterr(err, errlen, "sbatch printed no job id: %s", text[0] ? text : "(nothing)");
			return -1;
		}
		return 0;
	}
	if (status < 0) { /* timed out or killed */
		seterr(err, errlen, "sbatch %s%s%s", xerr, text[0] ? ": " : "", text);
		return -1;
	}
	/* runuser's own failures: its messages, or 126/127 when it could not
	 * run sbatch. */
	if (as_root && (strncmp(out, "runuser:", 8) == 0 || status == 126 || status == 127)) {
		seterr(err, errlen, "runuser failed (exit %d): %s", status, text[0] ? text : "(no output)");
		return -1;
	}
	if (submit_comm_failure(text)) {
		seterr(err, errlen, "%s", text);
		return -1;
	}
	seterr(err, errlen, "%s", text[0] ? text : "sbatch failed with no message");
	return 1;
}

static int sw_cancel_job(void *ctx, uint32_t job_id, int signal, char *err, size_t errlen)
{
	(void)ctx;
	if (job_id == 0 || job_id >= NO_VAL) {
		seterr(err, errlen, "bad job id %u", (unsigned)job_id);
		return -1;
	}
	if (signal < 0 || signal >= 65535) {
		seterr(err, errlen, "bad signal %d", signal);
		return -1;
	}
	/* scancel: a plain cancel is SIGKILL to the whole job with no flags;
	 * "scancel -b -s SIG" is SIG to the batch shell (KILL_JOB_BATCH). */
	uint16_t sig = signal ? (uint16_t)signal : (uint16_t)SIGKILL;
	uint16_t flags = signal ? (uint16_t)KILL_JOB_BATCH : 0;
	errno = 0;
	if (oc_slurm_kill_job(job_id, sig, flags) == SLURM_SUCCESS)
		return 0;
	int e = errno;
	/* As scancel: a plain cancel of a job that has already ended is done. */
	if (!signal && e == ESLURM_ALREADY_DONE)
		return 0;
	slurm_err(err, errlen, e);
	return -1;
}

/* ---- job actions --------------------------------------------------------- */

/* The error of a job update or requeue: the call's, or the first one a
 * per-task reply carries. Frees resp. Returns 0 or the Slurm error. */
static int job_resp_error(int rc, int e, job_array_resp_msg_t *resp)
{
	int out = rc == SLURM_SUCCESS ? 0 : (e ? e : SLURM_ERROR);
	for (uint32_t i = 0; !out && resp && i < resp->job_array_count; i++)
		if (resp->error_code[i] != SLURM_SUCCESS)
			out = (int)resp->error_code[i];
	if (resp)
		slurm_free_job_array_resp(resp);
	return out;
}

/* hold, release, time limit, partition, QoS, nice: one update request, as
 * scontrol makes it (job_id_str: the one job id field every release
 * has). Returns 0 or the Slurm error. */
static int job_update(char *id, const struct oc_job_change *c)
{
	job_desc_msg_t d;
	slurm_init_job_desc_msg(&d);
	d.job_id_str = id;
	char name[sizeof(c->name)];
	snprintf(name, sizeof(name), "%s", c->name);
	switch (c->op) {
	case OC_JOB_OP_HOLD:
		d.priority = 0; /* scontrol hold: an administrator's hold */
		d.alloc_sid = 0;
		break;
	case OC_JOB_OP_RELEASE: d.priority = INFINITE; break;
	case OC_JOB_OP_TIME_LIMIT: d.time_limit = c->minutes == OC_NONE ? INFINITE : c->minutes; break;
	case OC_JOB_OP_PARTITION: d.partition = name; break;
	case OC_JOB_OP_QOS: d.qos = name; break;
	case OC_JOB_OP_PRIORITY: d.priority = c->priority; break;
	default: d.nice = (uint32_t)((int64_t)NICE_OFFSET + c->nice); break;
	}
	job_array_resp_msg_t *resp = NULL;
	errno = 0;
	int rc = slurm_update_job2(&d, &resp);
	return job_resp_error(rc, errno, resp);
}

static int sw_job_change(void *ctx, uint32_t job_id, const struct oc_job_change *c, char *err, size_t errlen)
{
	(void)ctx;
	if (job_id == 0 || job_id >= NO_VAL) {
		seterr(err, errlen, "bad job id %u", (unsigned)job_id);
		return -1;
	}
	if (oc_plan_check_job_change(c, err, errlen) < 0)
		return -1;
	char id[16];
	snprintf(id, sizeof(id), "%u", job_id);
	int e = 0;
	job_array_resp_msg_t *resp = NULL;
	switch (c->op) {
	case OC_JOB_OP_CANCEL:
	case OC_JOB_OP_SIGNAL: {
		/* scancel: a cancel is SIGKILL to the whole job with no flags;
		 * --batch is KILL_JOB_BATCH, --full KILL_FULL_JOB. */
		uint16_t sig = c->op == OC_JOB_OP_CANCEL ? (uint16_t)SIGKILL : (uint16_t)c->signal;
		uint16_t flags = c->op == OC_JOB_OP_CANCEL ? 0 : c->batch_only ? KILL_JOB_BATCH : KILL_FULL_JOB;
		errno = 0;
		if (slurm_kill_job2(id, sig, flags, NULL) != SLURM_SUCCESS)
			e = errno ? errno : SLURM_ERROR;
		if (e == ESLURM_ALREADY_DONE)
			return 1; /* as scancel: nothing left to cancel or signal */
		break;
	}
	case OC_JOB_OP_REQUEUE:
	case OC_JOB_OP_REQUEUE_HOLD: {
		errno = 0;
		int rc = slurm_requeue2(id, c->op == OC_JOB_OP_REQUEUE_HOLD ? JOB_REQUEUE_HOLD : 0, &resp);
		e = job_resp_error(rc, errno, resp);
		break;
	}
	default: e = job_update(id, c); break;
	}
	if (!e)
		return 0;
	slurm_err(err, errlen, e);
	return -1;
}

static int sw_read_job(void *ctx, uint32_t job_id, struct oc_job_now *out, char *err, size_t errlen)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	job_info_msg_t *msg = NULL;
	errno = 0;
	if (oc_slurm_load_job(&msg, job_id, SHOW_ALL) != SLURM_SUCCESS) {
		int e = errno;
		if (e == ESLURM_INVALID_JOB_ID)
			return 0; /* purged: slurmctld no longer knows it */
		slurm_err(err, errlen, e);
		return -1;
	}
	for (uint32_t i = 0; msg && i < msg->record_count; i++) {
		const slurm_job_info_t *ji = &msg->job_array[i];
		if (ji->job_id != job_id)
			continue; /* the other tasks of an array */
		out->found = true;
		out->state = oc_slurm_job_state(ji->job_state);
		out->priority = ji->priority;
		out->time_limit_min = (ji->time_limit == INFINITE || ji->time_limit == NO_VAL) ? OC_NONE : ji->time_limit;
		out->nice = (int)((int64_t)ji->nice - (int64_t)NICE_OFFSET);
		out->restarts = ji->restart_cnt;
		snprintf(out->partition, sizeof(out->partition), "%s", ji->partition ? ji->partition : "");
		snprintf(out->qos, sizeof(out->qos), "%s", ji->qos ? ji->qos : "");
		snprintf(out->reason, sizeof(out->reason), "%s", oc_slurm_reason_name(ji->state_reason));
		break;
	}
	slurm_free_job_info_msg(msg);
	return 0;
}

/* sacct -a -X -n -P -S SINCE -o user,account,jobid: one line per job
 * ("alice|team-a|55"), counted per (user, account) into lines "alice
 * team-a 3" (sorted; an empty field is written "-"). */
static int sw_sacct_users(void *ctx, time_t since, char *out, size_t outlen, char *err, size_t errlen)
{
	(void)ctx;
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
	char sacct[PATH_MAX];
	if (oc_exec_find("sacct", sacct, sizeof(sacct), err, errlen) < 0)
		return -1;
	const char *argv[] = {sacct, "-a", "-X", "-n", "-P", "-S", start, "-o", "user,account,jobid", NULL};
	char *buf = malloc(OC_SACCT_OUT_MAX);
	if (!buf) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	int status;
	char xerr[512];
	if (oc_exec(argv, OC_SACCT_TIMEOUT_S, buf, OC_SACCT_OUT_MAX, &status, xerr, sizeof(xerr)) < 0) {
		seterr(err, errlen, "%s", xerr);
		free(buf);
		return -1;
	}
	if (status != 0 || strstr(buf, "sacct: error:")) {
		char text[1024];
		oc_jobcmd_join(text, sizeof(text), buf);
		if (status == 0)
			seterr(err, errlen, "%s", text);
		else if (status > 0)
			seterr(err, errlen, "sacct failed (exit %d): %s", status, text[0] ? text : "(no output)");
		else
			seterr(err, errlen, "sacct %s%s%s", xerr, text[0] ? ": " : "", text);
		free(buf);
		return -1;
	}
	if (strlen(buf) >= OC_SACCT_OUT_MAX - 1) {
		seterr(err, errlen, "sacct printed more than %zu bytes", OC_SACCT_OUT_MAX - 1);
		free(buf);
		return -1;
	}

	int np = oc_jobcmd_sacct_count(buf, out, outlen, err, errlen);
	free(buf);
	return np;
}

static int sw_read_config(void *ctx, struct oc_config **out, char *err, size_t errlen)
{
	(void)ctx;
	*out = NULL;
	slurm_conf_t *conf = NULL;
	errno = 0;
	if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS || !conf) {
		slurm_err(err, errlen, errno);
		return -1;
	}
	struct oc_config *t = oc_slurm_convert_config(conf, NULL);
	oc_slurm_free_conf(conf);
	if (!t) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	*out = t;
	return 0;
}

/* ---- the vtable -------------------------------------------------------- */

static const struct oc_writer_ops slurm_writer_ops = {
	.hostlist_expand = sw_hostlist_expand,
	.hostlist_compress = sw_hostlist_compress,
	.node_update = sw_node_update,
	.node_reboot = sw_node_reboot,
	.resv_create = sw_resv_create,
	.resv_delete = sw_resv_delete,
	.stats_reset = sw_stats_reset,
	.read_nodes = sw_read_nodes,
	.read_reservations = sw_read_reservations,
	.whoami = sw_whoami,
	.onb_read_state = sw_onb_read_state,
	.onb_run_step = sw_onb_run_step,
	.submit_job = sw_submit_job,
	.cancel_job = sw_cancel_job,
	.job_change = sw_job_change,
	.read_job = sw_read_job,
	.sacct_users = sw_sacct_users,
	.read_config = sw_read_config,
};

int oc_slurm_writer_init(struct oc_writer *w, char *err, size_t errlen)
{
	w->ops = NULL;
	w->ctx = NULL;
	struct slurm_writer *sw = calloc(1, sizeof(*sw));
	if (!sw) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	int e = pthread_mutex_init(&sw->lock, NULL);
	if (e) {
		free(sw);
		seterr(err, errlen, "mutex: %s", strerror(e));
		return -1;
	}
	w->ops = &slurm_writer_ops;
	w->ctx = sw;
	return 0;
}

void oc_slurm_writer_fini(struct oc_writer *w)
{
	if (!w || !w->ctx)
		return;
	struct slurm_writer *sw = w->ctx;
	pthread_mutex_destroy(&sw->lock);
	free(sw);
	w->ctx = NULL;
	w->ops = NULL;
}
