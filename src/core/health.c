/* health.c: the health view's rows: counts per group and the nodes that
 * need attention, grouped by the source of their reason. */
#include "core/health.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/views.h"

static int health_by_reason_then_name(const void *pa, const void *pb, void *arg)
{
	const struct oc_nodes *nodes = arg;
	const struct oc_node *a = &nodes->v[*(const uint32_t *)pa];
	const struct oc_node *b = &nodes->v[*(const uint32_t *)pb];
	int r = strcmp(a->reason ? a->reason : "", b->reason ? b->reason : "");
	return r ? r : oc_natcmp(a->name, b->name);
}

long oc_health_rows(const struct oc_snapshot *s, struct oc_health_row **rows,
		    uint32_t by_health[OC_HEALTH_COUNT], size_t *nodes)
{
	*rows = NULL;
	*nodes = 0;
	memset(by_health, 0, sizeof(uint32_t) * OC_HEALTH_COUNT);
	size_t nn = s->nodes ? s->nodes->n : 0;
	uint32_t *idx = malloc((nn ? nn : 1) * sizeof(*idx));
	int *src = malloc((nn ? nn : 1) * sizeof(*src));
	/* At most one group row per source plus one row per node. */
	struct oc_health_row *out = malloc((nn + OC_RS_COUNT + 1) * sizeof(*out));
	if (!idx || !src || !out) {
		free(idx);
		free(src);
		free(out);
		return -1;
	}
	for (size_t i = 0; i < nn; i++) {
		const struct oc_node *n = &s->nodes->v[i];
		enum oc_health h = oc_node_health(n);
		by_health[h]++;
		src[i] = (h == OC_HEALTH_OK || h == OC_HEALTH_POWER) && !n->reason ? -1
			 : n->reason ? (int)oc_reason_classify(n->reason, n->reason_user, s->slurm_user)
				     : OC_HEALTH_NO_REASON;
	}
	size_t k_out = 0;
	for (int g = 0; g <= OC_HEALTH_NO_REASON; g++) {
		size_t k = 0;
		for (size_t i = 0; i < nn; i++)
			if (src[i] == g)
				idx[k++] = (uint32_t)i;
		if (!k)
			continue;
		qsort_r(idx, k, sizeof(*idx), health_by_reason_then_name, (void *)s->nodes);
		out[k_out++] = (struct oc_health_row){.group = true, .source = g, .count = (uint32_t)k};
		for (size_t i = 0; i < k; i++)
			out[k_out++] = (struct oc_health_row){.source = g, .node = idx[i]};
		*nodes += k;
	}
	free(idx);
	free(src);
	if (!k_out) {
		free(out);
		return 0;
	}
	*rows = out;
	return (long)k_out;
}

const char *oc_health_source_name(int source)
{
	return source == OC_HEALTH_NO_REASON ? "no reason" : oc_reason_source_name((enum oc_reason_source)source);
}

const char *oc_health_reason_text(const struct oc_node *n)
{
	return n->reason ? n->reason : oc_health_name(oc_node_health(n));
}

long oc_health_power_parts(const struct oc_snapshot *s, struct oc_power_part **out)
{
	*out = NULL;
	size_t np = s->partitions ? s->partitions->n : 0;
	size_t nn = s->nodes ? s->nodes->n : 0;
	if (!np || !nn)
		return 0;
	struct oc_power_part *v = calloc(np, sizeof(*v));
	if (!v)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < np; i++) {
		const struct oc_partition *p = &s->partitions->v[i];
		struct oc_power_part c = {.partition = p->name};
		for (uint32_t j = 0; j < p->node_count; j++) {
			if (!p->node_idx || p->node_idx[j] >= nn)
				continue;
			const struct oc_node *n = &s->nodes->v[p->node_idx[j]];
			if (oc_node_health(n) == OC_HEALTH_RESUME_FAILED)
				c.resume_failed++;
			else if (n->flags & OC_NF_POWERING_UP)
				c.powering_up++;
			else if (n->flags & OC_NF_POWERING_DOWN)
				c.powering_down++;
			else if (n->flags & OC_NF_POWERED_DOWN)
				c.powered_down++;
			else if (n->flags & OC_NF_POWER_DOWN_PENDING)
				c.down_pending++;
		}
		if (c.resume_failed + c.powering_up + c.powering_down + c.powered_down + c.down_pending)
			v[k++] = c;
	}
	if (!k) {
		free(v);
		return 0;
	}
	*out = v;
	return (long)k;
}

void oc_health_power_text(const struct oc_power_part *p, char *buf, size_t len)
{
	const struct {
		uint32_t n;
		const char *what;
	} parts[] = {
		{p->powered_down, "powered down"},   {p->powering_up, "powering up"},
		{p->powering_down, "powering down"}, {p->down_pending, "power down pending"},
		{p->resume_failed, "failed resume"},
	};
	if (len)
		buf[0] = '\0';
	oc_appendf(buf, len, "%s:", p->partition ? p->partition : "?");
	bool first = true;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i].n)
			continue;
		oc_appendf(buf, len, "%s %u %s", first ? "" : ",", parts[i].n, parts[i].what);
		first = false;
	}
}
