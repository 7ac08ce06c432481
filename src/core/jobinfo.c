#include "core/jobinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/state.h"

int oc_jobinfo_id(const char *spec, uint32_t *id, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	unsigned long v = spec && *spec >= '0' && *spec <= '9' ? strtoul(spec, &end, 10) : 0;
	if (!spec || !*spec || *end || errno || v == 0 || v > 0xfffffff0UL) {
		snprintf(err, errlen, "not a job id: '%s'", spec ? spec : "");
		return -1;
	}
	*id = (uint32_t)v;
	return 0;
}

void oc_jstep_id_text(uint32_t step_id, uint32_t het_comp, char *buf, size_t len)
{
	/* Slurm's reserved step ids (slurm.h, the same from 22.05 to 26.05). */
	const char *name = step_id == 0xfffffffbU   ? "batch"
			   : step_id == 0xfffffffcU ? "extern"
			   : step_id == 0xfffffffaU ? "interactive"
			   : step_id == 0xfffffffdU ? "pending"
						    : NULL;
	if (name)
		snprintf(buf, len, "%s", name);
	else if (het_comp != OC_NONE)
		snprintf(buf, len, "%u+%u", (unsigned)step_id, (unsigned)het_comp);
	else
		snprintf(buf, len, "%u", (unsigned)step_id);
}

void oc_jobinfo_publish(struct oc_snapshot *next, struct oc_jobinfo *t)
{
	t->h.generation = next->jobinfo ? next->jobinfo->h.generation + 1 : 1;
	bool ok = !t->live_err[0] || t->db;
	oc_jobinfo_unref(&next->jobinfo);
	next->jobinfo = t;
	if (ok) {
		oc_part_status_ok(&next->jobinfo_status, time(NULL));
	} else {
		char why[620];
		snprintf(why, sizeof(why), "%s; %s", t->live_err, t->db_err[0] ? t->db_err : "slurmdbd not asked");
		oc_part_status_fail(&next->jobinfo_status, time(NULL), "job", why);
	}
}

const struct oc_jpart *oc_jobinfo_self(const struct oc_jobinfo *t)
{
	for (size_t i = 0; t && i < t->nparts; i++)
		if (t->parts[i].job_id == t->job_id)
			return &t->parts[i];
	return NULL;
}
