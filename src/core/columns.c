/* columns.c: the column catalogues of the snapshot views (columns.h). The
 * texts themselves come from cells.c where script mode's JSON or the
 * screen also need them. */
#include "core/columns.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/cells.h"
#include "core/health.h"
#include "core/history.h"
#include "core/quota.h"
#include "core/sched.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/views.h"

void oc_cell_str(char *buf, size_t len, const char *s)
{
	if (!len)
		return;
	size_t n = 0;
	if (s)
		while (s[n] && n + 1 < len)
			n++;
	memcpy(buf, s ? s : "", n);
	buf[n] = '\0';
}

void oc_cell_u32(char *buf, size_t len, uint32_t v)
{
	char tmp[12];
	size_t i = sizeof(tmp);
	tmp[--i] = '\0';
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	oc_cell_str(buf, len, tmp + i);
}

void oc_cell_lines(char *buf, size_t len, const char *s)
{
	if (!len)
		return;
	size_t o = 0;
	buf[0] = '\0';
	for (const char *p = s ? s : ""; *p;) {
		const char *end = p + strcspn(p, "\r\n");
		const char *a = p, *b = end;
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b > a) {
			if (o && o + 3 >= len)
				break; /* no room for "; " and a character more */
			if (o) {
				memcpy(buf + o, "; ", 2);
				o += 2;
			}
			size_t n = (size_t)(b - a) < len - 1 - o ? (size_t)(b - a) : len - 1 - o;
			memcpy(buf + o, a, n);
			o += n;
			buf[o] = '\0';
		}
		p = *end ? end + 1 : end;
	}
}

/* "used/total" of two counts. */
static void cell_pair(char *buf, size_t len, unsigned long long used, unsigned long long total)
{
	snprintf(buf, len, "%llu/%llu", used, total);
}

#define CATALOGUE(name, table) {name, table, (int)(sizeof(table) / sizeof(table[0]))}

/* ---- partitions: rows = struct oc_part_row[] ---------------------------- */

static const struct oc_part_row *prow(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct oc_part_row *)src->rows)[row];
}

static const struct oc_partition *ppart(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->partitions->v[prow(src, row)->part];
}

OC_CELL_FIELD(p_nodes, prow, nodes, oc_cell_u32)
OC_CELL_FIELD(p_alloc, prow, alloc, oc_cell_u32)
OC_CELL_FIELD(p_mix, prow, mix, oc_cell_u32)
OC_CELL_FIELD(p_idle, prow, idle, oc_cell_u32)
OC_CELL_FIELD(p_drain, prow, drain, oc_cell_u32)
OC_CELL_FIELD(p_down, prow, down, oc_cell_u32)
OC_CELL_FIELD(p_run, prow, jobs_running, oc_cell_u32)
OC_CELL_FIELD(p_pend, prow, jobs_pending, oc_cell_u32)

static void p_name(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_partition *p = ppart(src, row);
	/* sinfo's * for the default; hidden ones (listed after H) say so in
	 * words: the dimmed colour alone is lost in mono themes. */
	snprintf(buf, len, "%s%s%s", p->name, (p->flags & OC_PF_DEFAULT) ? "*" : "",
		 (p->flags & OC_PF_HIDDEN) ? " (hidden)" : "");
}

static void p_avail(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_cells_part_avail(ppart(src, row)->flags));
}

static void p_time(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_format_minutes(ppart(src, row)->max_time_min, buf, len);
}

static void p_gpus(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	cell_pair(buf, len, prow(src, row)->gpus_alloc, prow(src, row)->gpus_total);
}

static const struct oc_column part_cols[] = {
	{"partition", "PARTITION", 10, false, false, false, p_name, false},
	{"avail", "AVAIL", 5, false, false, false, p_avail, false},
	{"timelimit", "TIMELIMIT", 11, true, false, false, p_time, false},
	{"nodes", "NODES", 5, true, false, false, p_nodes, false},
	{"alloc", "ALLOC", 5, true, false, false, p_alloc, false},
	{"mix", "MIX", 4, true, false, false, p_mix, false},
	{"idle", "IDLE", 4, true, false, false, p_idle, false},
	{"drain", "DRN", 4, true, false, false, p_drain, false},
	{"down", "DOWN", 4, true, false, false, p_down, false},
	{"gpus", "GPUS A/T", 9, true, false, false, p_gpus, false},
	{"running", "RUN", 4, true, false, false, p_run, false},
	{"pending", "PEND", 0, true, false, false, p_pend, false},
};
const struct oc_catalogue oc_cat_partitions = CATALOGUE("partitions", part_cols);

/* ---- queue: row indexes s->jobs ------------------------------------------ */

static const struct oc_job *qjob(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->jobs->v[row];
}

OC_CELL_FIELD(j_part, qjob, partition, oc_cell_str)
OC_CELL_FIELD(j_name, qjob, name, oc_cell_str)
OC_CELL_FIELD(j_user, qjob, user, oc_cell_str)
OC_CELL_FIELD(j_acct, qjob, account, oc_cell_str)
OC_CELL_FIELD(j_qos, qjob, qos, oc_cell_str)
OC_CELL_FIELD(j_nodes, qjob, num_nodes, oc_cell_u32)
OC_CELL_FIELD(j_cpus, qjob, num_cpus, oc_cell_u32)
OC_CELL_FIELD(j_gpus, qjob, gpus, oc_cell_u32)
OC_CELL_FIELD(j_prio, qjob, priority, oc_cell_u32)

static void j_id(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_job_id(qjob(src, row), buf, len);
}

static void j_state(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_job_state_compact(qjob(src, row)));
}

static void j_time(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_format_duration(oc_cells_job_run_seconds(qjob(src, row), src->now), buf, len);
}

static void j_limit(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_format_minutes(qjob(src, row)->time_limit_min, buf, len);
}

static void j_where(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_job_where(qjob(src, row), buf, len);
}

static const struct oc_column queue_cols[] = {
	{"jobid", "JOBID", 8, true, false, false, j_id, false},
	{"partition", "PARTITION", 9, false, false, false, j_part, false},
	{"name", "NAME", 8, false, false, false, j_name, false},
	{"user", "USER", 8, false, false, false, j_user, false},
	{"account", "ACCOUNT", 8, false, true, false, j_acct, false},
	{"qos", "QOS", 10, false, true, true, j_qos, false},
	{"state", "ST", 2, false, false, false, j_state, false},
	{"time", "TIME", 10, true, false, false, j_time, true},
	{"timelimit", "TIME_LIMIT", 10, true, true, true, j_limit, false},
	{"nodes", "NODES", 5, true, false, false, j_nodes, false},
	{"cpus", "CPUS", 5, true, true, true, j_cpus, false},
	{"gpus", "GPUS", 4, true, false, false, j_gpus, false},
	{"priority", "PRIORITY", 10, true, true, true, j_prio, false},
	{"reason", "NODELIST(REASON)", 0, false, false, false, j_where, false},
};
const struct oc_catalogue oc_cat_queue = CATALOGUE("queue", queue_cols);

/* ---- nodes and health: the node cells both show -------------------------- */

static void node_state(const struct oc_node *n, char *buf, size_t len)
{
	oc_node_state_compact(n, buf, len);
}

/* ---- nodes: row indexes s->nodes, extra = struct oc_node_places ---------- */

static const struct oc_node *nnode(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->nodes->v[row];
}

static const struct oc_node_places *nplaces(const struct oc_cell_src *src)
{
	return src->extra;
}

static void n_name(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, nnode(src, row)->name);
}

static void n_state(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	node_state(nnode(src, row), buf, len);
}

static void n_cpus(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	cell_pair(buf, len, nnode(src, row)->alloc_cpus, nnode(src, row)->cpus);
}

static void n_gpus(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	cell_pair(buf, len, nnode(src, row)->alloc_gpus, nnode(src, row)->gpus);
}

static void n_mem(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_node *n = nnode(src, row);
	snprintf(buf, len, "%lluG/%lluG", (unsigned long long)(n->alloc_mem_mb / 1024),
		 (unsigned long long)(n->mem_mb / 1024));
}

static void n_parts(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_node_places *np = nplaces(src);
	oc_cell_str(buf, len, np && row < np->n ? np->parts[row] : "");
}

static void n_resv(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_node_places *np = nplaces(src);
	oc_cell_str(buf, len, np && row < np->n ? np->resv[row] : NULL);
}

/* Who set the reason; "?" when Slurm did not say. */
static void n_by(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_node *n = nnode(src, row);
	oc_cell_str(buf, len, n->reason ? (n->reason_user ? n->reason_user : "?") : "");
}

static void n_since(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_reason_since(nnode(src, row), buf, len);
}

static void n_ago(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_reason_ago(nnode(src, row), src->now, buf, len);
}

static void n_reason(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, nnode(src, row)->reason);
}

/* The node's slurmd version, "!" after it when it is not slurmctld's. */
static void n_slurmd(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_node *n = nnode(src, row);
	snprintf(buf, len, "%s%s", n->version ? n->version : "",
		 oc_version_slurmd_differs(n->version, src->s->slurm_version) ? "!" : "");
}

static const struct oc_column node_cols[] = {
	{"node", "NODE", 15, false, false, false, n_name, false},
	{"state", "STATE", 7, false, false, false, n_state, false},
	{"cpus", "CPUS", 7, true, false, false, n_cpus, false},
	{"gpus", "GPUS", 5, true, false, false, n_gpus, false},
	{"mem", "MEM", 11, true, true, true, n_mem, false},
	{"partitions", "PARTITIONS", 16, false, true, true, n_parts, false},
	{"reservation", "RESV", 10, false, true, false, n_resv, false},
	{"slurmd", "SLURMD", 9, false, true, true, n_slurmd, false},
	{"by", "BY", 8, false, false, false, n_by, false},
	{"since", "SINCE", 11, false, true, false, n_since, false},
	{"ago", "AGO", 4, true, false, false, n_ago, true},
	{"reason", "REASON", 0, false, false, false, n_reason, false},
};
const struct oc_catalogue oc_cat_nodes = CATALOGUE("nodes", node_cols);

/* ---- health: rows = struct oc_health_row[] (node rows) ------------------- */

static const struct oc_health_row *hrow(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct oc_health_row *)src->rows)[row];
}

static const struct oc_node *hnode(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->nodes->v[hrow(src, row)->node];
}

static void h_group(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_health_source_name(hrow(src, row)->source));
}

static void h_node(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, hnode(src, row)->name);
}

static void h_state(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	node_state(hnode(src, row), buf, len);
}

/* Who set the reason; nothing when Slurm did not say. */
static void h_by(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_node *n = hnode(src, row);
	oc_cell_str(buf, len, n->reason ? n->reason_user : NULL);
}

static void h_since(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_reason_since(hnode(src, row), buf, len);
}

static void h_ago(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_reason_ago(hnode(src, row), src->now, buf, len);
}

static void h_reason(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_health_reason_text(hnode(src, row)));
}

static const struct oc_column health_cols[] = {
	{"group", "SOURCE", 12, false, true, true, h_group, false},
	{"node", "NODE", 15, false, false, false, h_node, false},
	{"state", "STATE", 7, false, false, false, h_state, false},
	{"by", "BY", 8, false, false, false, h_by, false},
	{"since", "SINCE", 11, false, true, false, h_since, false},
	{"ago", "AGO", 4, true, false, false, h_ago, true},
	{"reason", "REASON", 0, false, false, false, h_reason, false},
};
const struct oc_catalogue oc_cat_health = CATALOGUE("health", health_cols);

/* ---- quota: rows = struct oc_quota_item[], extra = struct oc_quota_row[] -- */

static const struct oc_quota_item *qitem(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct oc_quota_item *)src->rows)[row];
}

static const struct oc_quota_row *qrow(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct oc_quota_row *)src->extra)[qitem(src, row)->row];
}

/* The user of a user item, NULL for an account (or QoS) item. */
static const struct oc_quota_user *quser(const struct oc_cell_src *src, uint32_t row)
{
	const struct oc_quota_item *q = qitem(src, row);
	return q->kind == OC_QI_USER ? &qrow(src, row)->users[q->child] : NULL;
}

static void q_account(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_item *q = qitem(src, row);
	const struct oc_quota_user *u = quser(src, row);
	if (u)
		snprintf(buf, len, "    %s", u->user);
	else if (q->mark)
		snprintf(buf, len, "%c %s", q->mark, qrow(src, row)->account);
	else
		oc_cell_str(buf, len, qrow(src, row)->account);
}

static void q_gpus(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_user *u = quser(src, row);
	if (u)
		oc_cell_u32(buf, len, u->run_gpus);
	else
		oc_cells_quota_gpus(qrow(src, row), buf, len);
}

static void q_bar(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_user *u = quser(src, row);
	const struct oc_quota_row *r = qrow(src, row);
	buf[0] = '\0';
	oc_cells_quota_bar(r, u ? u->run_gpus : r->gpu.used, !u, buf, len);
}

static void q_running(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_user *u = quser(src, row);
	oc_cell_u32(buf, len, u ? u->run_jobs : qrow(src, row)->run_jobs);
}

static void q_pending(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_user *u = quser(src, row);
	const struct oc_quota_row *r = qrow(src, row);
	cell_pair(buf, len, u ? u->pend_gpus : r->pend_gpus, u ? u->pend_jobs : r->pend_jobs);
}

/* "N jobs on limit", and for accounts the other GrpTRES limits that are
 * set. */
static void q_blocked(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_user *u = quser(src, row);
	const struct oc_quota_row *r = qrow(src, row);
	oc_cells_quota_blocked(u ? u->limited_jobs : r->limited_jobs, u ? NULL : r, buf, len);
}

/* A limit of the account's GrpTRES: "-" when none. */
static void q_limit(uint64_t v, bool mem, char *buf, size_t len)
{
	if (v == OC_NOLIMIT)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, mem ? "%lluG" : "%llu", (unsigned long long)(mem ? v / 1024 : v));
}

static void q_cpu(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_row *r = qrow(src, row);
	char lim[24];
	q_limit(r->cpu.limit, false, lim, sizeof(lim));
	snprintf(buf, len, "%llu/%s", (unsigned long long)r->cpu.used, lim);
}

static void q_mem(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_row *r = qrow(src, row);
	char lim[24];
	q_limit(r->mem.limit, true, lim, sizeof(lim));
	snprintf(buf, len, "%lluG/%s", (unsigned long long)(r->mem.used / 1024), lim);
}

static void q_nodes(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_quota_row *r = qrow(src, row);
	char lim[24];
	q_limit(r->node.limit, false, lim, sizeof(lim));
	snprintf(buf, len, "%llu/%s", (unsigned long long)r->node.used, lim);
}

/* The association of an account or user item (fair share), NULL for QoS. */
static const struct oc_assoc *qassoc(const struct oc_cell_src *src, uint32_t row)
{
	const struct oc_quota_user *u = quser(src, row);
	if (u)
		return u->assoc;
	return qitem(src, row)->kind == OC_QI_ACCOUNT ? qrow(src, row)->assoc : NULL;
}

/* NormShares and EffectvUsage as percentages, the fair-share factor. */
static void q_share(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = qassoc(src, row);
	if (a && a->have_fairshare)
		snprintf(buf, len, "%.0f%%", a->shares_norm * 100);
	else
		oc_cell_str(buf, len, "");
}

static void q_usage(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = qassoc(src, row);
	if (a && a->have_fairshare)
		snprintf(buf, len, "%.0f%%", a->usage_efctv * 100);
	else
		oc_cell_str(buf, len, "");
}

static void q_fairshare(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = qassoc(src, row);
	if (a && a->have_fairshare && a->user)
		snprintf(buf, len, "%.2f", a->fs_factor);
	else
		oc_cell_str(buf, len, "");
}

static const struct oc_column quota_cols[] = {
	{"account", "ACCOUNT", 16, false, false, false, q_account, false},
	{"gpus", "GPUS", 9, true, false, false, q_gpus, false},
	{"bar", "USE OF GrpTRES", 16, false, false, false, q_bar, false},
	{"running", "RUN", 4, true, false, false, q_running, false},
	{"pending", "PEND G/J", 8, true, false, false, q_pending, false},
	{"share", "SHARE", 5, true, true, false, q_share, false},
	{"usage", "USAGE", 5, true, true, false, q_usage, false},
	{"fairshare", "FS", 4, true, true, false, q_fairshare, false},
	{"blocked", "BLOCKED", 0, false, false, false, q_blocked, false},
	{"cpu", "CPU", 10, true, true, true, q_cpu, false},
	{"mem", "MEM", 12, true, true, true, q_mem, false},
	{"nodes", "NODES", 7, true, true, true, q_nodes, false},
};
const struct oc_catalogue oc_cat_quota = CATALOGUE("quota", quota_cols);

/* ---- reservations: row indexes s->reservations --------------------------- */

static const struct oc_reservation *rresv(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->reservations->v[row];
}

OC_CELL_FIELD(r_name, rresv, name, oc_cell_str)
OC_CELL_FIELD(r_nodes, rresv, nodes, oc_cell_str)
OC_CELL_FIELD(r_flags, rresv, flags, oc_cell_str)
OC_CELL_FIELD(r_users, rresv, users, oc_cell_str)
OC_CELL_FIELD(r_accounts, rresv, accounts, oc_cell_str)

static void r_state(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_cells_resv_state(rresv(src, row), src->now));
}

static void r_start(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_resv_time(rresv(src, row)->start_time, buf, len);
}

static void r_end(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_resv_end(rresv(src, row), buf, len);
}

static void r_duration(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cells_resv_duration(rresv(src, row), buf, len);
}

static const struct oc_column resv_cols[] = {
	{"name", "NAME", 18, false, false, false, r_name, false},
	{"state", "STATE", 6, false, false, false, r_state, true},
	{"nodes", "NODES", 20, false, false, false, r_nodes, false},
	{"start", "START", 11, false, false, false, r_start, false},
	{"end", "END", 11, false, true, false, r_end, false},
	{"duration", "DURATION", 10, true, true, true, r_duration, false},
	{"users", "USERS", 10, false, true, false, r_users, false},
	{"accounts", "ACCOUNTS", 10, false, true, true, r_accounts, false},
	{"flags", "FLAGS", 0, false, false, false, r_flags, false},
};
const struct oc_catalogue oc_cat_reservations = CATALOGUE("reservations", resv_cols);

/* ---- history: row indexes s->history --------------------------------------- */

static const struct oc_hjob *hjob(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->history->v[row];
}

OC_CELL_FIELD(hj_user, hjob, user, oc_cell_str)
OC_CELL_FIELD(hj_acct, hjob, account, oc_cell_str)
OC_CELL_FIELD(hj_part, hjob, partition, oc_cell_str)
OC_CELL_FIELD(hj_qos, hjob, qos, oc_cell_str)
OC_CELL_FIELD(hj_name, hjob, name, oc_cell_str)
OC_CELL_FIELD(hj_nodelist, hjob, nodes, oc_cell_str)
OC_CELL_FIELD(hj_nodes, hjob, num_nodes, oc_cell_u32)
OC_CELL_FIELD(hj_gpus, hjob, gpus, oc_cell_u32)
OC_CELL_FIELD(hj_workdir, hjob, work_dir, oc_cell_str)

static void hj_id(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_hjob_id_text(hjob(src, row), buf, len);
}

static void hj_state(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_cell_str(buf, len, oc_hjob_state_name(hjob(src, row)));
}

static void hj_exit(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_hjob_exit_text(hjob(src, row), buf, len);
}

static void hj_elapsed(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	oc_elapsed_text(hjob(src, row)->elapsed_s, buf, len);
}

static void hj_when(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (t <= 0 || !localtime_r(&t, &tm) || !strftime(buf, len, "%m-%d %H:%M:%S", &tm))
		oc_cell_str(buf, len, "");
}

static void hj_end(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	hj_when(hjob(src, row)->end_time, buf, len);
}

static void hj_start(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	hj_when(hjob(src, row)->start_time, buf, len);
}

static void hj_requeues(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	uint32_t r = hjob(src, row)->requeues;
	oc_cell_str(buf, len, r == OC_NONE ? "" : NULL);
	if (r != OC_NONE)
		oc_cell_u32(buf, len, r);
}

static const struct oc_column hist_cols[] = {
	{"end", "END", 14, false, false, false, hj_end, false},
	{"jobid", "JOBID", 10, true, false, false, hj_id, false},
	{"user", "USER", 8, false, false, false, hj_user, false},
	{"account", "ACCOUNT", 8, false, true, false, hj_acct, false},
	{"partition", "PARTITION", 9, false, true, false, hj_part, false},
	{"qos", "QOS", 8, false, true, true, hj_qos, false},
	{"name", "NAME", 10, false, true, false, hj_name, false},
	{"state", "STATE", 13, false, false, false, hj_state, false},
	{"exit", "EXIT", 5, true, false, false, hj_exit, false},
	{"elapsed", "ELAPSED", 11, true, false, false, hj_elapsed, false},
	{"start", "START", 14, false, true, true, hj_start, false},
	{"nodes", "NODES", 5, true, true, false, hj_nodes, false},
	{"gpus", "GPUS", 4, true, false, false, hj_gpus, false},
	{"requeues", "REQUEUES", 8, true, true, true, hj_requeues, false},
	{"workdir", "WORKDIR", 20, false, true, true, hj_workdir, false},
	{"nodelist", "NODELIST", 0, false, false, false, hj_nodelist, false},
};
const struct oc_catalogue oc_cat_history = CATALOGUE("history", hist_cols);

/* ---- node events: row indexes s->events ------------------------------------ */

static const struct oc_event *ev(const struct oc_cell_src *src, uint32_t row)
{
	return &src->s->events->v[row];
}

OC_CELL_FIELD(ev_node, ev, node, oc_cell_str)
OC_CELL_FIELD(ev_state, ev, state, oc_cell_str)
OC_CELL_FIELD(ev_user, ev, user, oc_cell_str)
OC_CELL_FIELD(ev_reason, ev, reason, oc_cell_str)

static void ev_start(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	hj_when(ev(src, row)->start, buf, len);
}

static void ev_end(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	time_t e = ev(src, row)->end;
	if (e)
		hj_when(e, buf, len);
	else
		oc_cell_str(buf, len, "ongoing");
}

static void ev_duration(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_event *e = ev(src, row);
	time_t end = e->end ? e->end : src->now;
	oc_elapsed_text(end > e->start ? (uint32_t)(end - e->start) : 0, buf, len);
}

static const struct oc_column event_cols[] = {
	{"start", "START", 14, false, false, false, ev_start, false},
	{"end", "END", 14, false, true, false, ev_end, false},
	{"duration", "DURATION", 11, true, true, false, ev_duration, true},
	{"node", "NODE", 15, false, false, false, ev_node, false},
	{"state", "STATE", 6, false, false, false, ev_state, false},
	{"user", "USER", 8, false, false, false, ev_user, false},
	{"reason", "REASON", 0, false, false, false, ev_reason, false},
};
const struct oc_catalogue oc_cat_events = CATALOGUE("events", event_cols);

/* ---- fair share: rows = const struct oc_assoc *[] ---------------------------- */

static const struct oc_assoc *fsa(const struct oc_cell_src *src, uint32_t row)
{
	return ((const struct oc_assoc *const *)src->rows)[row];
}

OC_CELL_FIELD(fs_account, fsa, account, oc_cell_str)
OC_CELL_FIELD(fs_user, fsa, user, oc_cell_str)

static void fs_num(char *buf, size_t len, bool have, int decimals, double v)
{
	if (have)
		snprintf(buf, len, "%.*f", decimals, v);
	else
		oc_cell_str(buf, len, "");
}

static void fs_raw_shares(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	uint32_t s = fsa(src, row)->shares;
	if (s == OC_NONE)
		oc_cell_str(buf, len, "parent");
	else
		oc_cell_u32(buf, len, s);
}

static void fs_norm_shares(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = fsa(src, row);
	fs_num(buf, len, a->have_fairshare, 6, a->shares_norm);
}

static void fs_raw_usage(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = fsa(src, row);
	fs_num(buf, len, a->have_fairshare, 0, a->usage_raw);
}

static void fs_efctv(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = fsa(src, row);
	fs_num(buf, len, a->have_fairshare, 6, a->usage_efctv);
}

/* The fair-share factor, as sshare shows it: for users. */
static void fs_factor(const struct oc_cell_src *src, uint32_t row, char *buf, size_t len)
{
	const struct oc_assoc *a = fsa(src, row);
	fs_num(buf, len, a->have_fairshare && a->user, 6, a->fs_factor);
}

static const struct oc_column fairshare_cols[] = {
	{"account", "ACCOUNT", 16, false, false, false, fs_account, false},
	{"user", "USER", 10, false, false, false, fs_user, false},
	{"rawshares", "RAWSHARES", 9, true, false, false, fs_raw_shares, false},
	{"normshares", "NORMSHARES", 10, true, false, false, fs_norm_shares, false},
	{"rawusage", "RAWUSAGE", 12, true, false, false, fs_raw_usage, false},
	{"effectvusage", "EFFECTVUSAGE", 12, true, false, false, fs_efctv, false},
	{"fairshare", "FAIRSHARE", 0, true, false, false, fs_factor, false},
};
const struct oc_catalogue oc_cat_fairshare = CATALOGUE("fairshare", fairshare_cols);

/* ---- scheduler: rows = struct oc_sched_row[] (core/sched.h) ------------------ */

static const struct oc_sched_row *srow(const struct oc_cell_src *src, uint32_t row)
{
	return &((const struct oc_sched_row *)src->rows)[row];
}

OC_CELL_FIELD(sc_group, srow, group, oc_cell_str)
OC_CELL_FIELD(sc_item, srow, item, oc_cell_str)
OC_CELL_FIELD(sc_value, srow, value, oc_cell_str)
OC_CELL_FIELD(sc_note, srow, note, oc_cell_str)

static const struct oc_column sched_cols[] = {
	{"group", "GROUP", 11, false, false, false, sc_group, false},
	{"item", "ITEM", 32, false, false, false, sc_item, false},
	{"value", "VALUE", 40, false, false, false, sc_value, false},
	{"note", "NOTE", 0, false, false, false, sc_note, false},
};
const struct oc_catalogue oc_cat_sched = CATALOGUE("scheduler", sched_cols);

/* ---- lookups -------------------------------------------------------------- */

static const struct oc_catalogue *const catalogues[] = {
	&oc_cat_partitions, &oc_cat_queue, &oc_cat_nodes, &oc_cat_health, &oc_cat_quota, &oc_cat_reservations,
	&oc_cat_history, &oc_cat_events, &oc_cat_fairshare, &oc_cat_sched,
};

const struct oc_catalogue *oc_catalogue_find(const char *view)
{
	for (size_t i = 0; view && i < sizeof(catalogues) / sizeof(catalogues[0]); i++)
		if (strcmp(catalogues[i]->view, view) == 0)
			return catalogues[i];
	return NULL;
}

int oc_catalogue_col(const struct oc_catalogue *cat, const char *id)
{
	for (int i = 0; cat && id && i < cat->n; i++)
		if (strcmp(cat->cols[i].id, id) == 0)
			return i;
	return -1;
}

size_t oc_catalogue_ids(const struct oc_catalogue *cat, const char **ids, size_t max)
{
	size_t n = 0;
	for (int i = 0; cat && i < cat->n && n < max; i++)
		ids[n++] = cat->cols[i].id;
	return n;
}
