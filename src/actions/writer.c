#include "actions/writer.h"

#include <string.h>

#include "core/hostlist.h"

int oc_whoami_level(bool is_root, bool is_slurm_user, bool accounting, const char *user,
		    int (*admin_level)(void *ctx, const char *user, enum oc_admin_level *level, char *err,
				       size_t errlen),
		    void *ctx, enum oc_admin_level *level, char *err, size_t errlen)
{
	*level = OC_ADMIN_NONE;
	if (is_root || is_slurm_user) {
		*level = OC_ADMIN_ADMIN;
		return 0;
	}
	if (!accounting)
		return 0; /* no AdminLevel without accounting: a plain user */
	enum oc_admin_level l = OC_ADMIN_NONE;
	if (admin_level(ctx, user, &l, err, errlen) < 0)
		return -1;
	*level = l;
	return 0;
}

bool oc_is_slurm_user(const char *slurm_user, const char *user)
{
	if (!slurm_user || !user)
		return false;
	size_t n = strcspn(slurm_user, "(");
	return strlen(user) == n && strncmp(slurm_user, user, n) == 0;
}

void oc_writer_names_free(char ***names, size_t n)
{
	oc_hostlist_names_free(names, n);
}
