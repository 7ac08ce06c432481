/* quota.c: quota rows (accounts, their users and QoS) from a snapshot.
 * One pass over the associations, one over the jobs; names are resolved
 * through string maps, never by scanning jobs per account. */
#include "core/quota.h"

#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

/* A user's running and pending jobs in one QoS (all accounts). */
struct user_qos {
	const char *qos;
	uint32_t run, pend;
};

/* All QoS a user has jobs in: few per user, so a small array. */
struct user_jobs {
	struct user_qos *v;
	size_t n, cap;
};

/* What a row needs while it is built, besides the row itself. */
struct row_extra {
	struct oc_strmap users;   /* user name -> index in row.users */
	size_t ucap;
	uint64_t run_cpus, run_nodes;
};

struct builder {
	const struct oc_snapshot *s;
	struct oc_quota_row *rows;
	struct row_extra *extra;
	size_t n, cap;
	struct oc_strmap accounts;   /* account -> row index */
	struct oc_strmap qos_index;  /* QoS name -> index in s->accounting->qos */
	struct oc_strmap user_index; /* user -> index in ujobs */
	struct user_jobs *ujobs;
	size_t nu, ucap;
};

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *nv = realloc(*v, ncap * size);
	if (!nv)
		return -1;
	memset((char *)nv + *cap * size, 0, (ncap - *cap) * size);
	*v = nv;
	*cap = ncap;
	return 0;
}

/* The row of account, created when absent. NULL on ENOMEM. */
static struct oc_quota_row *row_get(struct builder *b, const char *account, size_t *idx)
{
	uint32_t i = oc_strmap_get(&b->accounts, account);
	if (i == UINT32_MAX) {
		size_t cap = b->cap;
		if (grow((void **)&b->rows, &cap, b->n + 1, sizeof(*b->rows)) < 0)
			return NULL;
		cap = b->cap;
		if (grow((void **)&b->extra, &cap, b->n + 1, sizeof(*b->extra)) < 0)
			return NULL;
		b->cap = cap;
		i = (uint32_t)b->n;
		if (oc_strmap_put(&b->accounts, account, i) < 0)
			return NULL;
		b->n++;
		struct oc_quota_row *r = &b->rows[i];
		r->account = account;
		r->gpu.limit = r->cpu.limit = r->mem.limit = r->node.limit = OC_NOLIMIT;
	}
	*idx = i;
	return &b->rows[i];
}

/* The user entry of a row, created when absent. NULL on ENOMEM. */
static struct oc_quota_user *row_user(struct builder *b, size_t ri, const char *user)
{
	struct oc_quota_row *r = &b->rows[ri];
	struct row_extra *x = &b->extra[ri];
	uint32_t i = oc_strmap_get(&x->users, user);
	if (i != UINT32_MAX)
		return &r->users[i];
	if (grow((void **)&r->users, &x->ucap, r->nusers + 1, sizeof(*r->users)) < 0)
		return NULL;
	i = (uint32_t)r->nusers;
	if (oc_strmap_put(&x->users, user, i) < 0)
		return NULL;
	r->nusers++;
	r->users[i].user = user;
	return &r->users[i];
}

/* The per-QoS job counts of a user (all accounts). NULL on ENOMEM. */
static struct user_qos *user_qos_get(struct builder *b, const char *user, const char *qos)
{
	uint32_t i = oc_strmap_get(&b->user_index, user);
	if (i == UINT32_MAX) {
		if (grow((void **)&b->ujobs, &b->ucap, b->nu + 1, sizeof(*b->ujobs)) < 0)
			return NULL;
		i = (uint32_t)b->nu;
		if (oc_strmap_put(&b->user_index, user, i) < 0)
			return NULL;
		b->nu++;
	}
	struct user_jobs *u = &b->ujobs[i];
	for (size_t k = 0; k < u->n; k++)
		if (u->v[k].qos == qos || strcmp(u->v[k].qos, qos) == 0)
			return &u->v[k];
	if (grow((void **)&u->v, &u->cap, u->n + 1, sizeof(*u->v)) < 0)
		return NULL;
	u->v[u->n].qos = qos;
	return &u->v[u->n++];
}

/* A user's counts in a QoS, or NULL when the user has no jobs in it. */
static const struct user_qos *user_qos_find(const struct builder *b, const char *user,
					    const char *qos)
{
	uint32_t i = oc_strmap_get(&b->user_index, user);
	if (i == UINT32_MAX)
		return NULL;
	const struct user_jobs *u = &b->ujobs[i];
	for (size_t k = 0; k < u->n; k++)
		if (strcmp(u->v[k].qos, qos) == 0)
			return &u->v[k];
	return NULL;
}

static int add_assocs(struct builder *b)
{
	const struct oc_accounting *acct = b->s->accounting;
	for (size_t i = 0; acct && i < acct->nassocs; i++) {
		const struct oc_assoc *a = &acct->assocs[i];
		if (!a->account || !*a->account)
			continue;
		size_t ri;
		struct oc_quota_row *r = row_get(b, a->account, &ri);
		if (!r)
			return -1;
		if (!a->user) {
			/* Prefer the association that is not per partition. */
			if (!r->assoc || (r->assoc->partition && !a->partition))
				r->assoc = a;
			continue;
		}
		struct oc_quota_user *u = row_user(b, ri, a->user);
		if (!u)
			return -1;
		if (!u->assoc || (u->assoc->partition && !a->partition))
			u->assoc = a;
	}
	return 0;
}

static int add_jobs(struct builder *b)
{
	const struct oc_jobs *jobs = b->s->jobs;
	for (size_t i = 0; jobs && i < jobs->n; i++) {
		const struct oc_job *j = &jobs->v[i];
		bool run = j->state == OC_JOB_RUNNING;
		if (!run && j->state != OC_JOB_PENDING)
			continue;
		bool limited = !run && (j->flags & OC_JF_LIMITED);
		if (j->user && j->qos) {
			struct user_qos *q = user_qos_get(b, j->user, j->qos);
			if (!q)
				return -1;
			if (run)
				q->run++;
			else
				q->pend++;
		}
		if (!j->account || !*j->account)
			continue;
		size_t ri;
		struct oc_quota_row *r = row_get(b, j->account, &ri);
		if (!r)
			return -1;
		if (run) {
			r->run_jobs++;
			r->run_gpus += j->gpus;
			b->extra[ri].run_cpus += j->num_cpus;
			b->extra[ri].run_nodes += j->num_nodes;
		} else {
			r->pend_jobs++;
			r->pend_gpus += j->gpus;
			r->limited_jobs += limited;
		}
		if (!j->user)
			continue;
		struct oc_quota_user *u = row_user(b, ri, j->user);
		if (!u)
			return -1;
		if (run) {
			u->run_jobs++;
			u->run_gpus += j->gpus;
		} else {
			u->pend_jobs++;
			u->pend_gpus += j->gpus;
			u->limited_jobs += limited;
		}
	}
	return 0;
}

/* How close counts are to per-user limits: the larger of run/max_jobs and
 * (run+pend)/max_submit; without limits, the number of jobs (so that the
 * busiest user is shown). */
static double qos_closeness(const struct oc_quota_qos *q, uint32_t run, uint32_t sub)
{
	double c = -1;
	if (q->max_jobs_pu != OC_NONE)
		c = q->max_jobs_pu ? (double)run / q->max_jobs_pu : (run ? 1e9 : 0);
	if (q->max_submit_pu != OC_NONE) {
		double d = q->max_submit_pu ? (double)sub / q->max_submit_pu : (sub ? 1e9 : 0);
		if (d > c)
			c = d;
	}
	return c < 0 ? (double)sub : c;
}

/* The row's QoS list from its association's "a,b,c": one allocation holds
 * the entries and a copy of the names they point into. */
static int row_qos(struct builder *b, struct oc_quota_row *r)
{
	const char *list = r->assoc ? r->assoc->qos : NULL;
	if (!list || !*list)
		return 0;
	size_t len = strlen(list), n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	char *mem = malloc(n * sizeof(*r->qos) + len + 1);
	if (!mem)
		return -1;
	r->qos = (struct oc_quota_qos *)(void *)mem;
	char *names = mem + n * sizeof(*r->qos);
	memcpy(names, list, len + 1);
	const struct oc_accounting *acct = b->s->accounting;
	for (char *tok = names, *next; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!*tok)
			continue;
		struct oc_quota_qos *q = &r->qos[r->nqos++];
		memset(q, 0, sizeof(*q));
		q->name = tok;
		uint32_t qi = oc_strmap_get(&b->qos_index, tok);
		q->qos = qi != UINT32_MAX ? &acct->qos[qi] : NULL;
		q->max_jobs_pu = q->qos ? q->qos->max_jobs_pu : OC_NONE;
		q->max_submit_pu = q->qos ? q->qos->max_submit_pu : OC_NONE;
		double best = 0;
		for (size_t u = 0; u < r->nusers; u++) {
			const struct user_qos *c = user_qos_find(b, r->users[u].user, tok);
			if (!c || (c->run == 0 && c->pend == 0))
				continue;
			uint32_t sub = c->run + c->pend;
			double v = qos_closeness(q, c->run, sub);
			if (!q->top_user || v > best ||
			    (v == best && (sub > q->top_submitted ||
					   (sub == q->top_submitted && c->run > q->top_running)))) {
				q->top_user = r->users[u].user;
				q->top_running = c->run;
				q->top_submitted = sub;
				best = v;
			}
		}
	}
	return 0;
}

static int user_cmp(const void *x, const void *y)
{
	const struct oc_quota_user *a = x, *b = y;
	return strcmp(a->user, b->user);
}

static int row_cmp(const void *x, const void *y)
{
	const struct oc_quota_row *a = x, *b = y;
	return strcmp(a->account, b->account);
}

static bool assoc_has_limit(const struct oc_assoc *a)
{
	if (!a)
		return false;
	for (int k = 0; k < OC_TRES_KINDS; k++)
		if (a->grp[k].limit != OC_NOLIMIT)
			return true;
	return a->grp_tres || a->grp_jobs != OC_NONE || a->grp_submit != OC_NONE ||
	       a->max_jobs != OC_NONE || a->max_submit != OC_NONE;
}

static void row_free(struct oc_quota_row *r)
{
	free(r->users);
	free(r->qos);
	r->users = NULL;
	r->qos = NULL;
}

static void builder_free(struct builder *b)
{
	for (size_t i = 0; i < b->n; i++) {
		row_free(&b->rows[i]);
		oc_strmap_free(&b->extra[i].users);
	}
	free(b->rows);
	free(b->extra);
	for (size_t i = 0; i < b->nu; i++)
		free(b->ujobs[i].v);
	free(b->ujobs);
	oc_strmap_free(&b->accounts);
	oc_strmap_free(&b->qos_index);
	oc_strmap_free(&b->user_index);
}

long oc_quota_rows(const struct oc_snapshot *s, struct oc_quota_row **rows)
{
	*rows = NULL;
	if (!s)
		return 0;
	struct builder b = {.s = s};
	const struct oc_accounting *acct = s->accounting;
	size_t nassocs = acct ? acct->nassocs : 0, nqos = acct ? acct->nqos : 0;
	if (oc_strmap_init(&b.accounts, nassocs) < 0 || oc_strmap_init(&b.qos_index, nqos) < 0 ||
	    oc_strmap_init(&b.user_index, nassocs) < 0)
		goto fail;
	for (size_t i = 0; i < nqos; i++)
		if (acct->qos[i].name && oc_strmap_put(&b.qos_index, acct->qos[i].name, (uint32_t)i) < 0)
			goto fail;
	if (add_assocs(&b) < 0 || add_jobs(&b) < 0)
		goto fail;

	for (size_t i = 0; i < b.n; i++) {
		struct oc_quota_row *r = &b.rows[i];
		oc_strmap_free(&b.extra[i].users);
		if (strcmp(r->account, "root") == 0 && !assoc_has_limit(r->assoc)) {
			row_free(r);
			r->account = NULL; /* left out below */
			continue;
		}
		if (r->assoc) {
			r->gpu = r->assoc->grp[OC_TRES_GPU];
			r->cpu = r->assoc->grp[OC_TRES_CPU];
			r->mem = r->assoc->grp[OC_TRES_MEM];
			r->node = r->assoc->grp[OC_TRES_NODE];
		} else {
			r->gpu.used = r->run_gpus;
			r->cpu.used = b.extra[i].run_cpus;
			r->node.used = b.extra[i].run_nodes;
		}
		r->has_gpu_limit = r->gpu.limit != OC_NOLIMIT;
		if (r->nusers > 1)
			qsort(r->users, r->nusers, sizeof(*r->users), user_cmp);
		if (row_qos(&b, r) < 0)
			goto fail;
	}
	size_t kept = 0;
	for (size_t i = 0; i < b.n; i++)
		if (b.rows[i].account)
			b.rows[kept++] = b.rows[i];
	b.n = kept;
	if (kept > 1)
		qsort(b.rows, kept, sizeof(*b.rows), row_cmp);
	if (kept == 0) {
		builder_free(&b);
		return 0;
	}
	*rows = b.rows;
	b.rows = NULL;
	b.n = 0;
	builder_free(&b);
	return (long)kept;
fail:
	builder_free(&b);
	return -1;
}

void oc_quota_rows_free(struct oc_quota_row **rows, long n)
{
	if (!rows || !*rows)
		return;
	for (long i = 0; i < n; i++)
		row_free(&(*rows)[i]);
	free(*rows);
	*rows = NULL;
}

unsigned oc_quota_pct(uint64_t used, uint64_t limit)
{
	if (limit == OC_NOLIMIT)
		return 0;
	if (used >= limit)
		return used ? 100 : 0; /* at or over the limit; 0 of 0 is empty */
	uint64_t p;
	if (used <= UINT64_MAX / 100)
		p = used * 100 / limit;
	else
		p = used / (limit / 100); /* limit > used > 2^64/100 */
	return p > 99 ? 99 : (unsigned)p; /* below the limit is never 100 */
}

unsigned oc_quota_fill(uint64_t used, uint64_t limit, unsigned width)
{
	if (limit == OC_NOLIMIT || width == 0 || used == 0)
		return 0;
	if (used >= limit)
		return width;
	unsigned cells;
	if (used <= UINT64_MAX / width)
		cells = (unsigned)(used * width / limit);
	else
		cells = (unsigned)(used / (limit / width + 1));
	if (cells == 0)
		cells = 1;
	if (cells >= width)
		cells = width - 1;
	return cells;
}
