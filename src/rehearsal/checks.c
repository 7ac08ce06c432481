/* checks.c: evaluating checks (checks.h). */
#include "rehearsal/checks.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/hostlist.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/tres.h"
#include "rehearsal/kinds.h"

#define EV_APPEND(...) oc_appendf(ev, len, __VA_ARGS__)

/* ---- values ------------------------------------------------------------ */

int oc_checks_parse_number(const char *s, double *out)
{
	if (!s)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	if (strcasecmp(s, "UNLIMITED") == 0 || strcasecmp(s, "INFINITE") == 0) {
		*out = HUGE_VAL;
		return 0;
	}
	/* [D-]HH:MM:SS or MM:SS */
	if (strchr(s, ':')) {
		long d = 0, a = 0, b = 0, c = 0;
		int n = 0;
		if (strchr(s, '-')) {
			if (sscanf(s, "%ld-%ld:%ld:%ld%n", &d, &a, &b, &c, &n) == 4 && !s[n]) {
				*out = (double)(((d * 24 + a) * 60 + b) * 60 + c);
				return 0;
			}
			return -1;
		}
		if (sscanf(s, "%ld:%ld:%ld%n", &a, &b, &c, &n) == 3 && !s[n]) {
			*out = (double)((a * 60 + b) * 60 + c);
			return 0;
		}
		if (sscanf(s, "%ld:%ld%n", &a, &b, &n) == 2 && !s[n]) {
			*out = (double)(a * 60 + b);
			return 0;
		}
		return -1;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	static const struct {
		const char *unit;
		double mult;
	} units[] = {
		{"", 1},     {"s", 1},       {"sec", 1},     {"secs", 1},   {"second", 1}, {"seconds", 1},
		{"min", 60}, {"mins", 60},   {"minute", 60}, {"minutes", 60}, {"h", 3600},  {"hour", 3600},
		{"hours", 3600}, {"%", 1},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcasecmp(end, units[i].unit) == 0) {
			*out = v * units[i].mult;
			return 0;
		}
	return -1;
}

/* Whether a configuration value counts as not set. */
static bool value_unset(const char *v)
{
	return !v || !*v || strcmp(v, "(null)") == 0;
}

/* Whether the comma list value holds item (case-insensitive, spaces
 * around items ignored). */
static bool list_has(const char *value, const char *item)
{
	size_t il = strlen(item);
	for (const char *p = value; p && *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *e = p;
		while (*e && *e != ',')
			e++;
		const char *t = e;
		while (t > p && t[-1] == ' ')
			t--;
		if ((size_t)(t - p) == il && strncasecmp(p, item, il) == 0)
			return true;
		p = e;
	}
	return false;
}

/* Whether path is prefix or below it ("/fsx" covers "/fsx/x", not "/fsxa"). */
static bool path_under(const char *path, const char *prefix)
{
	size_t pl = strlen(prefix);
	while (pl > 1 && prefix[pl - 1] == '/')
		pl--;
	if (pl == 1 && prefix[0] == '/')
		return true;
	return strncmp(path, prefix, pl) == 0 && (path[pl] == '\0' || path[pl] == '/');
}

static void list_join(const struct oc_strlist *l, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++)
		oc_appendf(buf, len, "%s%s", i ? ", " : "", l->v[i]);
}

/* Compares value (text, as Slurm prints it) with c's expectation; writes
 * "NAME=VALUE" plus, on failure, what was expected, into ev. Returns
 * PASS or FAIL. */
static enum oc_verdict compare_value(const struct oc_check *c, const char *name, const char *value,
				     char *ev, size_t len)
{
	char want[512];
	EV_APPEND("%s=%s", name, value_unset(value) ? "(not set)" : value);
	if (value_unset(value)) {
		if (c->op == OC_OP_EQUALS && (strcasecmp(c->str, "none") == 0 || strcasecmp(c->str, "(null)") == 0))
			return OC_VERDICT_PASS;
		EV_APPEND(", expected it to be set");
		return OC_VERDICT_FAIL;
	}
	switch (c->op) {
	case OC_OP_NONE:
		return OC_VERDICT_PASS;
	case OC_OP_EQUALS: {
		double a, b;
		if (strcasecmp(value, c->str) == 0)
			return OC_VERDICT_PASS;
		if (oc_checks_parse_number(value, &a) == 0 && oc_checks_parse_number(c->str, &b) == 0 && a == b)
			return OC_VERDICT_PASS;
		EV_APPEND(", expected %s", c->str);
		return OC_VERDICT_FAIL;
	}
	case OC_OP_CONTAINS_ALL: {
		char missing[512] = "";
		for (size_t i = 0; i < c->list.n; i++)
			if (!list_has(value, c->list.v[i]))
				oc_appendf(missing, sizeof(missing), "%s%s", missing[0] ? ", " : "", c->list.v[i]);
		if (!missing[0])
			return OC_VERDICT_PASS;
		list_join(&c->list, want, sizeof(want));
		EV_APPEND(", missing %s (needs all of %s)", missing, want);
		return OC_VERDICT_FAIL;
	}
	case OC_OP_MIN:
	case OC_OP_MAX: {
		double v;
		if (oc_checks_parse_number(value, &v) < 0) {
			EV_APPEND(", not a number");
			return OC_VERDICT_FAIL;
		}
		if (c->op == OC_OP_MIN ? v >= c->num : v <= c->num)
			return OC_VERDICT_PASS;
		EV_APPEND(", expected %s %g", c->op == OC_OP_MIN ? ">=" : "<=", c->num);
		return OC_VERDICT_FAIL;
	}
	case OC_OP_NOT_UNDER: {
		/* One path or a comma list of paths (Prolog may list several). */
		char bad[512] = "";
		const char *p = value;
		while (*p) {
			while (*p == ',' || *p == ' ')
				p++;
			if (!*p)
				break;
			const char *e = p;
			while (*e && *e != ',')
				e++;
			char one[1024];
			snprintf(one, sizeof(one), "%.*s", (int)(e - p), p);
			for (size_t i = 0; i < c->list.n; i++)
				if (path_under(one, c->list.v[i]))
					oc_appendf(bad, sizeof(bad), "%s%s is under %s", bad[0] ? "; " : "", one,
						   c->list.v[i]);
			p = e;
		}
		if (!bad[0])
			return OC_VERDICT_PASS;
		list_join(&c->list, want, sizeof(want));
		EV_APPEND(": %s (must not be on a shared filesystem: %s)", bad, want);
		return OC_VERDICT_FAIL;
	}
	}
	return OC_VERDICT_FAIL;
}

/* Whether the part of the snapshot has data to judge. Writes why not. */
static bool part_ready(const struct oc_snapshot *s, enum oc_part_id part, size_t rows, char *ev, size_t len)
{
	if (!s) {
		EV_APPEND("no snapshot yet");
		return false;
	}
	if (rows > 0 || (s->status[part].fetched && !s->status[part].error[0]))
		return true;
	if (s->status[part].error[0])
		EV_APPEND("cannot read the cluster: %s", s->status[part].error);
	else
		EV_APPEND("no data from the cluster yet");
	return false;
}

static const struct oc_partition *find_partition(const struct oc_snapshot *s, const char *name)
{
	for (size_t i = 0; s && s->partitions && i < s->partitions->n; i++)
		if (s->partitions->v[i].name && strcmp(s->partitions->v[i].name, name) == 0)
			return &s->partitions->v[i];
	return NULL;
}

/* Whether the partitions' node indexes can be used with the node table.
 * The source refetches partitions, jobs and reservations in full whenever
 * the node table's layout changes, so a table that merely changed state
 * keeps them valid (the generations differ then): only the bounds are
 * checked. */
static bool idx_fresh(const struct oc_snapshot *s)
{
	return s->nodes && s->partitions;
}

/* ---- kinds ------------------------------------------------------------- */

enum oc_verdict oc_checks_eval_config(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				      size_t len)
{
	if (!in->config || in->config->n == 0) {
		EV_APPEND("configuration not read yet%s%s", in->config_error ? ": " : "",
			  in->config_error ? in->config_error : "");
		return OC_VERDICT_WAIT;
	}
	return compare_value(c, c->key, oc_config_get(in->config, c->key), ev, len);
}

/* The text of a partition property, as scontrol prints it, into buf. */
static const char *partition_prop(const struct oc_partition *p, const char *prop, char *buf, size_t len)
{
	if (strcasecmp(prop, "Default") == 0)
		return p->flags & OC_PF_DEFAULT ? "YES" : "NO";
	if (strcasecmp(prop, "Hidden") == 0)
		return p->flags & OC_PF_HIDDEN ? "YES" : "NO";
	if (strcasecmp(prop, "RootOnly") == 0)
		return p->flags & OC_PF_ROOT_ONLY ? "YES" : "NO";
	if (strcasecmp(prop, "ExclusiveUser") == 0)
		return p->flags & OC_PF_EXCLUSIVE_USER ? "YES" : "NO";
	if (strcasecmp(prop, "State") == 0)
		return p->flags & OC_PF_INACTIVE ? "INACTIVE"
		       : p->flags & OC_PF_DRAIN  ? "DRAIN"
		       : p->flags & OC_PF_UP     ? "UP"
						 : "DOWN";
	if (strcasecmp(prop, "AllowGroups") == 0)
		return p->allow_groups ? p->allow_groups : "ALL";
	if (strcasecmp(prop, "AllowAccounts") == 0)
		return p->allow_accounts ? p->allow_accounts : "ALL";
	if (strcasecmp(prop, "AllowQos") == 0)
		return p->allow_qos ? p->allow_qos : "ALL";
	if (strcasecmp(prop, "QoS") == 0)
		return p->qos ? p->qos : "N/A";
	if (strcasecmp(prop, "Nodes") == 0)
		return p->nodes ? p->nodes : "(null)";
	if (strcasecmp(prop, "GraceTime") == 0)
		snprintf(buf, len, "%u", p->grace_time_s);
	else if (strcasecmp(prop, "MaxTime") == 0)
		snprintf(buf, len, "%s", "UNLIMITED");
	else if (strcasecmp(prop, "PriorityTier") == 0)
		snprintf(buf, len, "%u", p->priority_tier);
	else if (strcasecmp(prop, "TotalNodes") == 0)
		snprintf(buf, len, "%u", p->total_nodes);
	else
		snprintf(buf, len, "(null)");
	if (strcasecmp(prop, "MaxTime") == 0 && p->max_time_min != OC_NONE)
		snprintf(buf, len, "%u", p->max_time_min);   /* minutes */
	return buf;
}

enum oc_verdict oc_checks_eval_partition(const struct oc_check *c, const struct oc_check_input *in,
					 char *ev, size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!part_ready(s, OC_PART_PARTITIONS, s && s->partitions ? s->partitions->n : 0, ev, len))
		return OC_VERDICT_WAIT;
	enum oc_verdict v = OC_VERDICT_PASS;
	for (size_t i = 0; i < c->names.n; i++) {
		if (i)
			EV_APPEND("; ");
		const struct oc_partition *p = find_partition(s, c->names.v[i]);
		if (!p) {
			EV_APPEND("no partition %s", c->names.v[i]);
			v = OC_VERDICT_FAIL;
			continue;
		}
		char buf[64], name[160];
		snprintf(name, sizeof(name), "%s: %s", p->name, c->key);
		if (compare_value(c, name, partition_prop(p, c->key, buf, sizeof(buf)), ev, len) != OC_VERDICT_PASS)
			v = OC_VERDICT_FAIL;
	}
	return v;
}

/* Hostlist counting: one term "pre[1-3,5]suf[a-b]" multiplies its
 * bracket counts. Returns the count or -1. */
static long hostlist_term(const char *p, const char *end)
{
	long count = 1;
	while (p < end) {
		if (*p == ']')
			return -1;
		if (*p != '[') {
			p++;
			continue;
		}
		const char *close = memchr(p, ']', (size_t)(end - p));
		if (!close)
			return -1;
		long n = 0;
		for (const char *q = p + 1; q < close;) {
			char *e;
			long a = strtol(q, &e, 10);
			if (e == q)
				return -1;
			long b = a;
			if (*e == '-') {
				const char *q2 = e + 1;
				b = strtol(q2, &e, 10);
				if (e == q2 || b < a)
					return -1;
			}
			n += b - a + 1;
			if (e < close && *e != ',')
				return -1;
			q = e < close ? e + 1 : close;
		}
		if (n <= 0 || count > 10000000 / n)
			return -1;
		count *= n;
		p = close + 1;
	}
	return count;
}

long oc_checks_hostlist_count(const char *expr)
{
	if (!expr || !*expr)
		return -1;
	long total = 0;
	const char *p = expr;
	while (*p) {
		const char *e = p;
		int depth = 0;
		while (*e && (depth || *e != ',')) {
			if (*e == '[')
				depth++;
			else if (*e == ']')
				depth--;
			if (depth < 0 || depth > 1)
				return -1;
			e++;
		}
		if (depth)
			return -1;
		if (e > p) {
			long n = hostlist_term(p, e);
			if (n < 0)
				return -1;
			total += n;
		}
		p = *e ? e + 1 : e;
	}
	return total;
}

enum oc_verdict oc_checks_eval_partition_nodes(const struct oc_check *c, const struct oc_check_input *in,
					       char *ev, size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!part_ready(s, OC_PART_PARTITIONS, s && s->partitions ? s->partitions->n : 0, ev, len) ||
	    !part_ready(s, OC_PART_NODES, s->nodes ? s->nodes->n : 0, ev, len))
		return OC_VERDICT_WAIT;
	if (!idx_fresh(s)) {
		EV_APPEND("no node table");
		return OC_VERDICT_WAIT;
	}
	enum oc_verdict v = OC_VERDICT_PASS;
	size_t shown = 0;
	for (size_t i = 0; i < s->partitions->n; i++) {
		const struct oc_partition *p = &s->partitions->v[i];
		if (c->names.n) {
			bool want = false;
			for (size_t k = 0; k < c->names.n; k++)
				want |= strcmp(c->names.v[k], p->name) == 0;
			if (!want)
				continue;
		}
		long named = p->nodes && strcasecmp(p->nodes, "ALL") == 0 ? -1 : oc_checks_hostlist_count(p->nodes);
		bool ok = p->node_count == p->total_nodes && (named < 0 || named == (long)p->node_count) &&
			  p->total_nodes > 0;
		EV_APPEND("%s%s: ", shown++ ? "; " : "", p->name);
		if (ok) {
			EV_APPEND("%u of %u %s exist", p->node_count, p->total_nodes,
				  oc_plural(p->total_nodes, "node", "nodes"));
		} else if (!p->total_nodes) {
			v = OC_VERDICT_FAIL;
			EV_APPEND("no nodes (Nodes=%s)", p->nodes ? p->nodes : "");
		} else {
			v = OC_VERDICT_FAIL;
			EV_APPEND("Nodes=%s names %ld, TotalNodes=%u, %u found in the node table", p->nodes ? p->nodes : "",
				  named, p->total_nodes, p->node_count);
		}
	}
	for (size_t k = 0; k < c->names.n; k++)
		if (!find_partition(s, c->names.v[k])) {
			EV_APPEND("%sno partition %s", shown++ ? "; " : "", c->names.v[k]);
			v = OC_VERDICT_FAIL;
		}
	if (!shown) {
		EV_APPEND("no partitions");
		v = OC_VERDICT_FAIL;
	}
	return v;
}

static bool acct_ready(const struct oc_snapshot *s, char *ev, size_t len)
{
	if (!part_ready(s, OC_PART_ACCT, s && s->accounting ? s->accounting->nassocs + s->accounting->nqos : 0, ev,
			len))
		return false;
	return true;
}

/* A GrpTRES limit of an association by TRES name. */
static uint64_t assoc_tres_limit(const struct oc_assoc *a, const char *tres)
{
	static const char *const kinds[OC_TRES_KINDS] = {"gres/gpu", "cpu", "mem", "node"};
	for (int k = 0; k < OC_TRES_KINDS; k++)
		if (strcasecmp(tres, kinds[k]) == 0)
			return a->grp[k].limit;
	uint64_t v;
	if (a->grp_tres && oc_tres_get(a->grp_tres, tres, &v) == 1)
		return v;
	return OC_NOLIMIT;
}

static bool name_in(const struct oc_strlist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], name) == 0)
			return true;
	return false;
}

enum oc_verdict oc_checks_eval_accounts_gpu(const struct oc_check *c, const struct oc_check_input *in,
					    char *ev, size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!acct_ready(s, ev, len))
		return OC_VERDICT_WAIT;
	if (!s->accounting->enabled) {
		EV_APPEND("accounting is off (AccountingStorageType=none): no limit is enforced");
		return OC_VERDICT_FAIL;
	}
	char ok[1024] = "", missing[1024] = "";
	size_t nteams = 0;
	for (size_t i = 0; i < s->accounting->nassocs; i++) {
		const struct oc_assoc *a = &s->accounting->assocs[i];
		if (a->user || a->partition || !a->account || strcmp(a->account, "root") == 0 ||
		    name_in(&c->exclude, a->account))
			continue;
		nteams++;
		uint64_t lim = assoc_tres_limit(a, c->tres);
		if (lim == OC_NOLIMIT)
			oc_appendf(missing, sizeof(missing), "%s%s", missing[0] ? ", " : "", a->account);
		else
			oc_appendf(ok, sizeof(ok), "%s%s %s=%llu", ok[0] ? ", " : "", a->account, c->tres,
				   (unsigned long long)lim);
	}
	if (!nteams) {
		EV_APPEND("no team account (every account is root or excluded)");
		return OC_VERDICT_FAIL;
	}
	if (missing[0]) {
		EV_APPEND("no GrpTRES %s on: %s", c->tres, missing);
		if (ok[0])
			EV_APPEND("; set on: %s", ok);
		return OC_VERDICT_FAIL;
	}
	EV_APPEND("GrpTRES: %s", ok);
	if (c->exclude.n) {
		char ex[256];
		list_join(&c->exclude, ex, sizeof(ex));
		EV_APPEND(" (left out: root, %s)", ex);
	}
	return OC_VERDICT_PASS;
}

/* A 32-bit or 64-bit limit as text ("none" when unset). */
static const char *limit_text(uint64_t v, bool wide, char *buf, size_t len)
{
	if ((wide && v == OC_NOLIMIT) || (!wide && v == OC_NONE))
		return "none";
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

enum oc_verdict oc_checks_eval_assoc(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				     size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!acct_ready(s, ev, len))
		return OC_VERDICT_WAIT;
	const char *acct = c->names.v[0];
	const struct oc_assoc *a = NULL;
	for (size_t i = 0; i < s->accounting->nassocs && !a; i++) {
		const struct oc_assoc *x = &s->accounting->assocs[i];
		if (x->account && strcmp(x->account, acct) == 0 && !x->partition &&
		    ((!c->user && !x->user) || (c->user && x->user && strcmp(c->user, x->user) == 0)))
			a = x;
	}
	if (!a) {
		EV_APPEND("no association account=%s%s%s", acct, c->user ? " user=" : "", c->user ? c->user : "");
		return OC_VERDICT_FAIL;
	}
	char buf[32], name[200];
	const char *val;
	if (strcasecmp(c->key, "GrpTRES") == 0)
		val = limit_text(assoc_tres_limit(a, c->tres), true, buf, sizeof(buf));
	else if (strcasecmp(c->key, "GrpJobs") == 0)
		val = limit_text(a->grp_jobs, false, buf, sizeof(buf));
	else if (strcasecmp(c->key, "GrpSubmitJobs") == 0)
		val = limit_text(a->grp_submit, false, buf, sizeof(buf));
	else if (strcasecmp(c->key, "MaxJobs") == 0)
		val = limit_text(a->max_jobs, false, buf, sizeof(buf));
	else
		val = limit_text(a->max_submit, false, buf, sizeof(buf));
	snprintf(name, sizeof(name), "%s%s%s: %s%s%s", acct, c->user ? "/" : "", c->user ? c->user : "", c->key,
		 c->tres && strcasecmp(c->key, "GrpTRES") == 0 ? " " : "",
		 c->tres && strcasecmp(c->key, "GrpTRES") == 0 ? c->tres : "");
	if (strcmp(val, "none") == 0)
		val = NULL;
	return compare_value(c, name, val, ev, len);
}

enum oc_verdict oc_checks_eval_qos(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				   size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!acct_ready(s, ev, len))
		return OC_VERDICT_WAIT;
	const struct oc_qos *q = NULL;
	for (size_t i = 0; i < s->accounting->nqos && !q; i++)
		if (s->accounting->qos[i].name && strcmp(s->accounting->qos[i].name, c->names.v[0]) == 0)
			q = &s->accounting->qos[i];
	if (!q) {
		EV_APPEND("no QoS %s", c->names.v[0]);
		return OC_VERDICT_FAIL;
	}
	char buf[32], name[200];
	const char *val;
	if (strcasecmp(c->key, "MaxJobsPerUser") == 0)
		val = limit_text(q->max_jobs_pu, false, buf, sizeof(buf));
	else if (strcasecmp(c->key, "MaxSubmitJobsPerUser") == 0)
		val = limit_text(q->max_submit_pu, false, buf, sizeof(buf));
	else if (strcasecmp(c->key, "Priority") == 0)
		val = limit_text(q->priority, false, buf, sizeof(buf));
	else if (strcasecmp(c->key, "GrpJobs") == 0)
		val = limit_text(q->grp_jobs, false, buf, sizeof(buf));
	else if (strcasecmp(c->key, "GrpSubmitJobs") == 0)
		val = limit_text(q->grp_submit, false, buf, sizeof(buf));
	else {
		static const char *const kinds[OC_TRES_KINDS] = {"gres/gpu", "cpu", "mem", "node"};
		uint64_t lim = OC_NOLIMIT;
		for (int k = 0; k < OC_TRES_KINDS; k++)
			if (strcasecmp(c->tres, kinds[k]) == 0)
				lim = q->grp[k].limit;
		val = limit_text(lim, true, buf, sizeof(buf));
	}
	snprintf(name, sizeof(name), "%s: %s", q->name, c->key);
	if (strcmp(val, "none") == 0)
		val = NULL;
	return compare_value(c, name, val, ev, len);
}

static const char *node_base_name(enum oc_node_base b)
{
	switch (b) {
	case OC_NODE_DOWN: return "down";
	case OC_NODE_IDLE: return "idle";
	case OC_NODE_ALLOCATED: return "alloc";
	case OC_NODE_MIXED: return "mix";
	case OC_NODE_FUTURE: return "future";
	case OC_NODE_UNKNOWN: break;
	}
	return "unknown";
}

static bool node_state_match(const char *want, enum oc_node_base b)
{
	const char *have = node_base_name(b);
	if (strcasecmp(want, have) == 0)
		return true;
	return (strcasecmp(want, "allocated") == 0 && b == OC_NODE_ALLOCATED) ||
	       (strcasecmp(want, "mixed") == 0 && b == OC_NODE_MIXED);
}

enum oc_verdict oc_checks_eval_node(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				    size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!part_ready(s, OC_PART_NODES, s && s->nodes ? s->nodes->n : 0, ev, len))
		return OC_VERDICT_WAIT;
	enum oc_verdict v = OC_VERDICT_PASS;
	for (size_t i = 0; i < c->names.n; i++) {
		if (i)
			EV_APPEND("; ");
		long at = oc_nodes_find(s->nodes, c->names.v[i]);
		if (at < 0) {
			EV_APPEND("no node %s", c->names.v[i]);
			v = OC_VERDICT_FAIL;
			continue;
		}
		const struct oc_node *n = &s->nodes->v[at];
		char st[256]; /* the long state whole, other_flags included */
		bool drained = n->flags & OC_NF_DRAIN, answers = !(n->flags & OC_NF_NOT_RESPONDING);
		EV_APPEND("%s: %s", n->name, oc_node_state_long(n, st, sizeof(st)));
		if (n->reason)
			EV_APPEND(", reason \"%s\"", n->reason);
		bool ok = true;
		if (c->node_states.n) {
			bool any = false;
			for (size_t k = 0; k < c->node_states.n; k++)
				any |= node_state_match(c->node_states.v[k], n->base);
			ok &= any;
		}
		if (c->drain >= 0)
			ok &= drained == (c->drain == 1);
		if (c->responding >= 0)
			ok &= answers == (c->responding == 1);
		if (c->reason_contains)
			ok &= n->reason && strcasestr(n->reason, c->reason_contains) != NULL;
		if (c->rebooted == 1) {
			/* Booted since the step started (whole seconds, as Slurm
			 * keeps it), no reboot still asked for or under way. */
			time_t since = in->rec ? (time_t)in->rec->started : 0;
			bool booted = since && n->boot_time >= since &&
				      !(n->flags & (OC_NF_REBOOT_REQUESTED | OC_NF_REBOOT_ISSUED));
			if (n->boot_time) {
				struct tm tm;
				char bt[32] = "?";
				if (localtime_r(&n->boot_time, &tm))
					strftime(bt, sizeof(bt), "%Y-%m-%dT%H:%M:%S", &tm);
				EV_APPEND(", booted %s", bt);
			}
			ok &= booted;
		}
		if (!ok) {
			char want[256] = "";
			if (c->node_states.n)
				list_join(&c->node_states, want, sizeof(want));
			EV_APPEND(" (waiting for%s%s%s%s%s%s%s%s)", want[0] ? " " : "", want,
				  c->drain == 1 ? " drained" : c->drain == 0 ? " not drained" : "",
				  c->responding == 1 ? " answering" : c->responding == 0 ? " not answering" : "",
				  c->rebooted == 1 ? " rebooted" : "",
				  c->reason_contains ? " reason containing \"" : "",
				  c->reason_contains ? c->reason_contains : "", c->reason_contains ? "\"" : "");
			if (v == OC_VERDICT_PASS)
				v = OC_VERDICT_WAIT;
		}
	}
	return v;
}

static int names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether hostlist expressions a and b name the same nodes (order and
 * duplicates aside). -1 when one cannot be read. */
static int same_nodes(const char *a, const char *b)
{
	char **na = NULL, **nb = NULL, err[128];
	size_t ka = 0, kb = 0;
	int rc = -1;
	if (oc_hostlist_expand(a, 100000, &na, &ka, err, sizeof(err)) == 0 &&
	    oc_hostlist_expand(b, 100000, &nb, &kb, err, sizeof(err)) == 0) {
		qsort(na, ka, sizeof(*na), names_cmp);
		qsort(nb, kb, sizeof(*nb), names_cmp);
		size_t i = 0, j = 0;
		rc = 1;
		while (rc && (i < ka || j < kb)) {
			if (i < ka && i && strcmp(na[i], na[i - 1]) == 0) {
				i++;
				continue;
			}
			if (j < kb && j && strcmp(nb[j], nb[j - 1]) == 0) {
				j++;
				continue;
			}
			if (i >= ka || j >= kb || strcmp(na[i], nb[j]) != 0)
				rc = 0;
			i++;
			j++;
		}
	}
	oc_hostlist_names_free(&na, ka);
	oc_hostlist_names_free(&nb, kb);
	return rc;
}

enum oc_verdict oc_checks_eval_reservation(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					   size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!part_ready(s, OC_PART_RESV, s && s->reservations ? s->reservations->n : 0, ev, len))
		return OC_VERDICT_WAIT;
	const char *name = c->names.n ? c->names.v[0] : "";
	const struct oc_reservation *r = NULL;
	for (size_t i = 0; s->reservations && i < s->reservations->n && !r; i++)
		if (s->reservations->v[i].name && strcmp(s->reservations->v[i].name, name) == 0)
			r = &s->reservations->v[i];
	if (!r) {
		EV_APPEND("no reservation %s", name);
		return c->exists ? OC_VERDICT_WAIT : OC_VERDICT_PASS;
	}
	EV_APPEND("reservation %s: nodes %s, flags %s", name, r->nodes ? r->nodes : "(none)",
		  r->flags ? r->flags : "(none)");
	if (!c->exists) {
		EV_APPEND(" (waiting for it to end)");
		return OC_VERDICT_WAIT;
	}
	if (c->hostlist) {
		int same = r->nodes ? same_nodes(r->nodes, c->hostlist) : 0;
		if (same != 1) {
			EV_APPEND(" (expected nodes %s)", c->hostlist);
			return OC_VERDICT_FAIL;
		}
	}
	return OC_VERDICT_PASS;
}

static const struct oc_job *find_job(const struct oc_snapshot *s, uint32_t id)
{
	for (size_t i = 0; s && s->jobs && i < s->jobs->n; i++)
		if (s->jobs->v[i].job_id == id)
			return &s->jobs->v[i];
	return NULL;
}

static bool job_final(enum oc_job_state st)
{
	return st != OC_JOB_PENDING && st != OC_JOB_RUNNING && st != OC_JOB_SUSPENDED;
}

/* Whether the job was requeued since the step first saw it running. */
static bool job_requeued(const struct oc_job *j, const struct oc_step_job *sj)
{
	if (j->flags & OC_JF_REQUEUED)
		return true;
	if (!sj->seen_running)
		return false;
	if (j->state == OC_JOB_PENDING)
		return true;
	return j->state == OC_JOB_RUNNING && (long long)j->start_time > sj->first_start;
}

enum oc_verdict oc_checks_eval_job(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				   size_t len)
{
	const struct oc_snapshot *s = in->snap;
	const struct oc_step_rec *r = in->rec;
	size_t n = 0;
	enum oc_verdict v = OC_VERDICT_PASS;
	for (size_t i = 0; r && i < r->njobs; i++) {
		const struct oc_step_job *sj = &r->jobs[i];
		if (strcmp(sj->label, c->job) != 0)
			continue;
		if (n++)
			EV_APPEND("; ");
		const struct oc_job *j = find_job(s, sj->id);
		if (!j) {
			EV_APPEND("job %u (%s): not in the queue%s", sj->id, sj->label,
				  s && s->status[OC_PART_JOBS].error[0] ? " (cannot read jobs)" : "");
			if (v == OC_VERDICT_PASS)
				v = OC_VERDICT_WAIT;
			continue;
		}
		EV_APPEND("job %u (%s): %s", j->job_id, sj->label, oc_job_state_name(j->state));
		if (j->state == OC_JOB_PENDING || j->reason)
			EV_APPEND(", reason %s", j->reason ? j->reason : "None");
		if (j->nodes && j->state == OC_JOB_RUNNING)
			EV_APPEND(", on %s", j->nodes);
		if (sj->seen_running && c->requeued == 1)
			EV_APPEND(", was running on %s", sj->nodes[0] ? sj->nodes : "?");
		bool ok = true;
		if (c->states.n) {
			bool any = false;
			for (size_t k = 0; k < c->states.n; k++)
				any |= strcasecmp(c->states.v[k], oc_job_state_name(j->state)) == 0;
			ok &= any;
		}
		if (c->reasons.n) {
			bool any = false;
			for (size_t k = 0; k < c->reasons.n; k++)
				any |= j->reason && strcasestr(j->reason, c->reasons.v[k]) != NULL;
			ok &= any;
		}
		bool rq = c->requeued == 1 ? job_requeued(j, sj) : true;
		if (c->requeued == 1)
			EV_APPEND(rq ? ", requeued" : ", not requeued");
		ok &= rq;
		if (!ok) {
			if (job_final(j->state) && !(j->flags & OC_JF_REQUEUED)) {
				EV_APPEND(" (ended)");
				v = OC_VERDICT_FAIL;
			} else if (v == OC_VERDICT_PASS) {
				v = OC_VERDICT_WAIT;
			}
		}
	}
	if (!n) {
		EV_APPEND("no job under the label %s (its submission failed or was refused)", c->job);
		return OC_VERDICT_FAIL;
	}
	if (v == OC_VERDICT_WAIT) {
		char want[300] = "";
		if (c->states.n)
			list_join(&c->states, want, sizeof(want));
		if (c->reasons.n) {
			char rs[200];
			list_join(&c->reasons, rs, sizeof(rs));
			oc_appendf(want, sizeof(want), "%sreason %s", want[0] ? " with " : "", rs);
		}
		if (c->requeued == 1)
			oc_appendf(want, sizeof(want), "%srequeued", want[0] ? ", " : "");
		EV_APPEND(" [expected %s]", want);
	}
	return v;
}

/* "never_runs": Slurm refuses the submission (22.05, or EnforcePartLimits
 * on), or accepts it and ends the job without running it (25.11 with the
 * default EnforcePartLimits=NO: CANCELLED at once, Reason
 * uid_N_not_in_group_permitted_to_use_this_partition_(gpu)). "contains"
 * applies to the refusal or to the ended job's reason. */
static enum oc_verdict eval_never_runs(const struct oc_check *c, const struct oc_check_input *in,
				       const struct oc_step_submit *sb, char *ev, size_t len)
{
	if (sb->result == 1) {
		EV_APPEND("submission %s refused: %s", c->job, sb->text);
		if (c->contains && !strcasestr(sb->text, c->contains)) {
			EV_APPEND(" (expected Slurm's answer to contain \"%s\")", c->contains);
			return OC_VERDICT_FAIL;
		}
		return OC_VERDICT_PASS;
	}
	EV_APPEND("submission %s accepted as job %u", c->job, sb->job_id);
	const struct oc_step_job *sj = oc_step_rec_job(in->rec, c->job);
	const struct oc_job *j = find_job(in->snap, sb->job_id);
	/* Not start_time: Slurm sets it to the end time of a pending job that
	 * it cancels. Nodes are allocated only to a job that started. */
	if ((sj && sj->seen_running) ||
	    (j && (j->state == OC_JOB_RUNNING || j->state == OC_JOB_COMPLETE || (j->nodes && *j->nodes)))) {
		EV_APPEND(", and it ran%s%s (expected it never to run)", j && j->nodes ? " on " : "",
			  j && j->nodes ? j->nodes : "");
		return OC_VERDICT_FAIL;
	}
	if (!j) {
		EV_APPEND(", not in the queue%s", in->snap && in->snap->status[OC_PART_JOBS].error[0]
							  ? " (cannot read jobs)"
							  : " (cannot tell whether it ran)");
		return OC_VERDICT_WAIT;
	}
	EV_APPEND(", %s, reason %s", oc_job_state_name(j->state), j->reason ? j->reason : "None");
	bool why = !c->contains || (j->reason && strcasestr(j->reason, c->contains));
	if (!job_final(j->state)) {
		/* 24.11 keeps such a job pending with the refusal as its reason
		 * (held or not): Slurm will not start it. */
		if (j->state == OC_JOB_PENDING && c->contains && why) {
			EV_APPEND(": pending, and Slurm will not start it");
			return OC_VERDICT_PASS;
		}
		EV_APPEND(" [expected Slurm to end it without running it%s%s%s]", c->contains ? ", or a reason with \"" : "",
			  c->contains ? c->contains : "", c->contains ? "\"" : "");
		return OC_VERDICT_WAIT;
	}
	if (!why) {
		EV_APPEND(" (expected the reason to contain \"%s\")", c->contains);
		return OC_VERDICT_FAIL;
	}
	EV_APPEND(": ended without running");
	return OC_VERDICT_PASS;
}

enum oc_verdict oc_checks_eval_submit(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				      size_t len)
{
	const struct oc_step_rec *r = in->rec;
	const struct oc_step_submit *sb = NULL;
	for (size_t i = 0; r && i < r->nsubmits; i++)
		if (strcmp(r->submits[i].label, c->job) == 0)
			sb = &r->submits[i];
	if (!sb) {
		EV_APPEND("nothing was submitted under the label %s", c->job);
		return OC_VERDICT_FAIL;
	}
	if (sb->result < 0) {
		EV_APPEND("submission %s could not be tried: %s", c->job, sb->text);
		return OC_VERDICT_FAIL;
	}
	if (c->never_runs)
		return eval_never_runs(c, in, sb, ev, len);
	if (sb->result == 0)
		EV_APPEND("submission %s accepted as job %u", c->job, sb->job_id);
	else
		EV_APPEND("submission %s refused: %s", c->job, sb->text);
	if ((sb->result == 1) != c->refused) {
		EV_APPEND(" (expected it to be %s)", c->refused ? "refused" : "accepted");
		return OC_VERDICT_FAIL;
	}
	if (c->contains && !strcasestr(sb->text, c->contains)) {
		EV_APPEND(" (expected Slurm's answer to contain \"%s\")", c->contains);
		return OC_VERDICT_FAIL;
	}
	return OC_VERDICT_PASS;
}

enum oc_verdict oc_checks_eval_sacct(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				     size_t len)
{
	if (!in->sacct) {
		EV_APPEND("sacct not read%s%s", in->sacct_error ? ": " : "", in->sacct_error ? in->sacct_error : "");
		return OC_VERDICT_WAIT;
	}
	char found[1024] = "", missing[512] = "";
	size_t nusers = 0;
	for (const char *p = in->sacct; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		char user[64] = "", acct[64] = "";
		long jobs = 0;
		int k = sscanf(line, "%63s %63s %ld", user, acct, &jobs);
		if (k >= 1 && user[0]) {
			nusers++;
			for (size_t i = 0; i < c->names.n; i++)
				if (strcmp(c->names.v[i], user) == 0)
					oc_appendf(found, sizeof(found), "%s%s", found[0] ? ", " : "", line);
		}
		p = e ? e + 1 : p + l;
	}
	for (size_t i = 0; i < c->names.n; i++) {
		bool have = false;
		for (const char *p = in->sacct; *p && !have;) {
			const char *e = strchr(p, '\n');
			size_t l = e ? (size_t)(e - p) : strlen(p), ul = strlen(c->names.v[i]);
			have = l >= ul && strncmp(p, c->names.v[i], ul) == 0 && (l == ul || p[ul] == ' ' || p[ul] == '\t');
			p = e ? e + 1 : p + l;
		}
		if (!have)
			oc_appendf(missing, sizeof(missing), "%s%s", missing[0] ? ", " : "", c->names.v[i]);
	}
	EV_APPEND("sacct -a -X over the last %gh: %zu user %s", in->sacct_since_hours, nusers,
		  oc_plural(nusers, "line", "lines"));
	if (found[0])
		EV_APPEND("; %s", found);
	if (missing[0]) {
		EV_APPEND("; no line for %s", missing);
		return OC_VERDICT_WAIT;
	}
	return OC_VERDICT_PASS;
}

enum oc_verdict oc_checks_eval_file(const struct oc_check *c, const struct oc_check_input *in, char *ev,
				    size_t len)
{
	char path[4096];
	if (oc_checks_expand(c->path, in->rec, path, sizeof(path)) < 0) {
		EV_APPEND("%s: its job was not submitted", c->path);
		return OC_VERDICT_FAIL;
	}
	char buf[65536];
	ssize_t n;
	if (in->read_file) {
		bool missing = false;
		char e[512] = "";
		n = (ssize_t)in->read_file(in->read_file_ctx, path, buf, sizeof(buf), &missing, e, sizeof(e));
		if (n < 0 || missing) {
			EV_APPEND("%s: %s", path, missing ? "not there (yet)" : e);
			return OC_VERDICT_WAIT;
		}
	} else {
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			EV_APPEND("%s: %s", path, errno == ENOENT ? "not there (yet)" : strerror(errno));
			return OC_VERDICT_WAIT;
		}
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n < 0) {
			EV_APPEND("%s: %s", path, strerror(errno));
			return OC_VERDICT_WAIT;
		}
	}
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	if (c->contains && !strstr(buf, c->contains)) {
		EV_APPEND("%s: there, without \"%s\" (yet)", path, c->contains);
		return OC_VERDICT_WAIT;
	}
	char first[128];
	snprintf(first, sizeof(first), "%.127s", buf);
	char *nl = strchr(first, '\n');
	if (nl)
		*nl = '\0';
	EV_APPEND("%s: there (%zd bytes%s%s%s)", path, n, first[0] ? ": \"" : "", first, first[0] ? "\"" : "");
	return OC_VERDICT_PASS;
}

enum oc_verdict oc_checks_eval_accounting(const struct oc_check *c, const struct oc_check_input *in,
					  char *ev, size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!s || !s->accounting || (!s->status[OC_PART_ACCT].fetched && !s->accounting->nassocs)) {
		EV_APPEND("accounting not read yet");
		return OC_VERDICT_WAIT;
	}
	if (!s->accounting->enabled) {
		EV_APPEND("accounting is off");
		return OC_VERDICT_FAIL;
	}
	bool up = s->accounting->dbd_error[0] == '\0';
	const char *e = s->accounting->dbd_error;
	if (up)
		EV_APPEND("slurmdbd answers");
	else
		EV_APPEND("%s%s", strncmp(e, "slurmdbd", 8) == 0 ? "" : "slurmdbd: ", e);
	if (up == c->dbd_up)
		return OC_VERDICT_PASS;
	EV_APPEND(" (waiting for it to %s)", c->dbd_up ? "answer" : "be unreachable");
	return OC_VERDICT_WAIT;
}

long oc_checks_idle_nodes(const struct oc_snapshot *snap, const char *partition)
{
	const struct oc_partition *p = find_partition(snap, partition);
	if (!p || !idx_fresh(snap))
		return -1;
	const uint32_t busy = OC_NF_DRAIN | OC_NF_COMPLETING | OC_NF_NOT_RESPONDING | OC_NF_POWERED_DOWN |
			      OC_NF_POWERING_UP | OC_NF_POWERING_DOWN | OC_NF_POWER_DOWN_PENDING | OC_NF_FAIL |
			      OC_NF_MAINT | OC_NF_RESERVED | OC_NF_REBOOT_REQUESTED | OC_NF_REBOOT_ISSUED |
			      OC_NF_INVALID_REG | OC_NF_BLOCKED | OC_NF_POWER_DRAIN |
			      OC_NF_OTHER; /* a flag of unknown meaning: not counted as free */
	long n = 0;
	for (uint32_t i = 0; i < p->node_count; i++) {
		uint32_t at = p->node_idx[i];
		if (at >= snap->nodes->n)
			continue;
		const struct oc_node *nd = &snap->nodes->v[at];
		if (nd->base == OC_NODE_IDLE && !(nd->flags & busy))
			n++;
	}
	return n;
}

enum oc_verdict oc_checks_eval_idle_nodes(const struct oc_check *c, const struct oc_check_input *in,
					  char *ev, size_t len)
{
	const struct oc_snapshot *s = in->snap;
	if (!part_ready(s, OC_PART_NODES, s && s->nodes ? s->nodes->n : 0, ev, len))
		return OC_VERDICT_WAIT;
	long n = oc_checks_idle_nodes(s, c->names.v[0]);
	if (n < 0) {
		if (!find_partition(s, c->names.v[0])) {
			EV_APPEND("no partition %s", c->names.v[0]);
			return OC_VERDICT_FAIL;
		}
		EV_APPEND("no node table");
		return OC_VERDICT_WAIT;
	}
	EV_APPEND("%s: %ld idle %s (needs %g)", c->names.v[0], n, oc_plural((unsigned long long)n, "node", "nodes"),
		  c->num);
	/* Nodes still completing a job (often the previous step's, cancelled
	 * by its cleanup) are named, not waited for: a step needs only its
	 * idle nodes. The preemption steps, which fill "the idle nodes",
	 * put the job that must preempt onto a node of the filling job
	 * (on_nodes_of), so a node freed meanwhile cannot take it. */
	long completing = 0;
	const struct oc_partition *p = find_partition(s, c->names.v[0]);
	for (uint32_t i = 0; p && i < p->node_count; i++)
		if (p->node_idx[i] < s->nodes->n && (s->nodes->v[p->node_idx[i]].flags & OC_NF_COMPLETING))
			completing++;
	if (completing)
		EV_APPEND(", %ld completing a job", completing);
	return (double)n >= c->num ? OC_VERDICT_PASS : OC_VERDICT_WAIT;
}

/* Every sub-check passes: any failure fails, else any wait waits. */
enum oc_verdict oc_checks_eval_all(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len)
{
	enum oc_verdict v = OC_VERDICT_PASS;
	for (size_t i = 0; i < c->nsub; i++) {
		char one[1024];
		enum oc_verdict sv = oc_checks_eval(&c->sub[i], in, one, sizeof(one));
		EV_APPEND("%s%s", i ? "; " : "", one);
		if (sv == OC_VERDICT_FAIL)
			v = OC_VERDICT_FAIL;
		else if (sv == OC_VERDICT_WAIT && v == OC_VERDICT_PASS)
			v = OC_VERDICT_WAIT;
	}
	return v;
}

enum oc_verdict oc_checks_eval(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len)
{
	if (!ev || !len)
		return OC_VERDICT_FAIL;
	ev[0] = '\0';
	static const struct oc_check_input none = {0};
	if (!in)
		in = &none;
	if (!c) {
		EV_APPEND("no check");
		return OC_VERDICT_FAIL;
	}
	if ((unsigned)c->kind >= OC_CHECK_KIND_COUNT) {
		EV_APPEND("unknown check kind");
		return OC_VERDICT_FAIL;
	}
	return oc_check_kinds[c->kind].eval(c, in, ev, len);
}

unsigned oc_checks_needs(const struct oc_check *c)
{
	if (!c)
		return 0;
	unsigned n = (unsigned)c->kind < OC_CHECK_KIND_COUNT ? oc_check_kinds[c->kind].needs : 0;
	for (size_t i = 0; c->kind == OC_CHECK_ALL && i < c->nsub; i++)
		n |= oc_checks_needs(&c->sub[i]);
	return n;
}

double oc_checks_sacct_hours(const struct oc_check *c)
{
	if (!c)
		return 0;
	double h = c->kind == OC_CHECK_SACCT ? c->num : 0;
	for (size_t i = 0; c->kind == OC_CHECK_ALL && i < c->nsub; i++) {
		double x = oc_checks_sacct_hours(&c->sub[i]);
		if (x > h)
			h = x;
	}
	return h;
}

bool oc_checks_observe(struct oc_step_rec *rec, const struct oc_snapshot *snap)
{
	bool changed = false;
	for (size_t i = 0; rec && i < rec->njobs; i++) {
		struct oc_step_job *sj = &rec->jobs[i];
		if (sj->seen_running)
			continue;
		const struct oc_job *j = find_job(snap, sj->id);
		if (j && j->state == OC_JOB_RUNNING) {
			sj->seen_running = true;
			sj->first_start = (long long)j->start_time;
			snprintf(sj->nodes, sizeof(sj->nodes), "%s", j->nodes ? j->nodes : "");
			changed = true;
		}
	}
	return changed;
}

int oc_checks_expand(const char *text, const struct oc_step_rec *rec, char *out, size_t len)
{
	if (!len)
		return -1;
	out[0] = '\0';
	int rc = 0;
	for (const char *p = text ? text : ""; *p;) {
		const char *d = strstr(p, "${");
		if (!d) {
			oc_appendf(out, len, "%s", p);
			break;
		}
		oc_appendf(out, len, "%.*s", (int)(d - p), p);
		const char *name = d + 2, *end = strchr(name, '}');
		if (!end) {
			oc_appendf(out, len, "%s", d);
			break;
		}
		bool is_job = strncmp(name, "job:", 4) == 0, is_nodes = strncmp(name, "nodes:", 6) == 0;
		if (!is_job && !is_nodes) {
			oc_appendf(out, len, "%.*s", (int)(end - d + 1), d);
			p = end + 1;
			continue;
		}
		const char *lab = name + (is_job ? 4 : 6);
		char label[OC_LABEL_MAX + 1];
		snprintf(label, sizeof(label), "%.*s", (int)(end - lab), lab);
		const struct oc_step_job *j = oc_step_rec_job(rec, label);
		if (!j) {
			oc_appendf(out, len, "%.*s", (int)(end - d + 1), d);
			rc = -1;
		} else if (is_job) {
			oc_appendf(out, len, "%u", j->id);
		} else if (j->nodes[0]) {
			oc_appendf(out, len, "%s", j->nodes);
		} else {
			oc_appendf(out, len, "(job %u has not run yet)", j->id);
			rc = -1;
		}
		p = end + 1;
	}
	if (strlen(out) + 1 >= len)
		rc = -1;
	return rc;
}
