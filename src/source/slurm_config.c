/* slurm_config.c: the controller's configuration (slurm_load_ctl_conf)
 * as the key/value pairs `scontrol show config` prints, for the backend's
 * snapshot (slurm_source.c) and the writer's read_config (slurm_write.c).
 *
 * scontrol prints slurm_ctl_conf_2_key_pairs' list ("AccountingStorageEnforce
 * = associations,limits,qos", "KillWait = 300 sec", "Prolog = /path", an
 * unset value as "(null)"), then the sections of the same pair type the
 * reply carries: Account Gather, Cgroup Support, External Sensors (up to
 * 23.11), MPI Plugins and the select plugin's pairs. The table holds them
 * in that order; a key of a later section that is already there is left
 * out, so that a lookup finds the main section's value. The keys that
 * hold a list, "Prolog[0]", "Prolog[1]" since 24.05, are also folded
 * into "Prolog" by oc_config_fold_arrays (core/model.c), as the CLI
 * backend's parser does. */
#include "source/slurm_convert.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "source/slurm_compat.h"

/* libslurm's config_key_pair_t. slurm.h calls it opaque and declares it in
 * no public header, but it is the same two-pointer struct in
 * src/common/read_config.h of every release from 22.05 to 25.11 (checked
 * in each). Items are only read here: a list's own destructor frees them
 * (slurm_ctl_conf_2_key_pairs' list is made with destroy_config_key_pair,
 * the sections belong to the configuration message). */
struct oc_slurm_key_pair {
	char *name;
	char *value;
};

/* Pairs of one list, appended to keys/values (room for cap). Returns 0,
 * or -1 on ENOMEM. */
static int config_add_list(struct oc_config *t, void *list, size_t cap)
{
	if (!list)
		return 0;
	oc_list l = (oc_list)list;
	oc_list_itr it = slurm_list_iterator_create(l);
	if (!it)
		return -1;
	int rc = 0;
	const struct oc_slurm_key_pair *kp;
	while ((kp = slurm_list_next(it)) && t->n < cap) {
		if (!kp->name || !*kp->name)
			continue;
		bool dup = false;
		for (size_t i = 0; i < t->n && !dup; i++)
			dup = strcasecmp(t->keys[i], kp->name) == 0;
		if (dup)
			continue;
		const char *k = oc_arena_strdup(&t->h.arena, kp->name);
		const char *v = kp->value ? oc_arena_strdup(&t->h.arena, kp->value) : NULL;
		if (!k || (kp->value && !v)) {
			rc = -1;
			break;
		}
		t->keys[t->n] = k;
		t->values[t->n] = v;
		t->n++;
	}
	slurm_list_iterator_destroy(it);
	return rc;
}

static size_t list_len(void *list)
{
	if (!list)
		return 0;
	int n = slurm_list_count((oc_list)list);
	return n > 0 ? (size_t)n : 0;
}

/* Returns a new table with one reference, or NULL (slurm_convert.h). */
struct oc_config *oc_slurm_convert_config(slurm_conf_t *conf, const struct oc_config *prev)
{
	if (!conf)
		return NULL;
	/* The sections of the message scontrol prints after the main list. */
	void *sections[] = {
		conf->acct_gather_conf,
		conf->cgroup_conf,
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 5, 0)
		conf->ext_sensors_conf,
#endif
		conf->mpi_conf,
		conf->select_conf_key_pairs,
	};
	const size_t nsections = sizeof(sections) / sizeof(sections[0]);

	void *main_list = slurm_ctl_conf_2_key_pairs(conf);
	if (!main_list)
		return NULL;
	size_t cap = list_len(main_list);
	for (size_t i = 0; i < nsections; i++)
		cap += list_len(sections[i]);

	struct oc_config *t = oc_config_new();
	if (!t) {
		slurm_list_destroy((oc_list)main_list);
		return NULL;
	}
	t->h.slurm_update = conf->last_update;
	t->h.generation = (prev ? prev->h.generation : 0) + 1;
	size_t alloc = cap ? cap : 1;
	t->keys = oc_arena_alloc(&t->h.arena, alloc * sizeof(*t->keys));
	t->values = oc_arena_alloc(&t->h.arena, alloc * sizeof(*t->values));
	int rc = (t->keys && t->values) ? config_add_list(t, main_list, cap) : -1;
	slurm_list_destroy((oc_list)main_list);
	for (size_t i = 0; rc == 0 && i < nsections; i++)
		rc = config_add_list(t, sections[i], cap);
	/* "Prolog[0]" (24.05 and later) also as "Prolog" (core/model.h). */
	if (rc == 0)
		rc = oc_config_fold_arrays(t);
	if (rc < 0)
		oc_config_unref(&t);
	return t;
}
