#include "core/history.h"

#include <stdio.h>

#include "core/state.h"

bool oc_hjob_ended(const struct oc_hjob *j, time_t since, time_t until)
{
	if (j->end_time <= 0 || j->end_time < since || j->end_time > until)
		return false;
	if (j->flags & OC_JF_REQUEUED)
		return true;
	return j->state != OC_JOB_PENDING && j->state != OC_JOB_RUNNING && j->state != OC_JOB_SUSPENDED;
}

const char *oc_hjob_state_name(const struct oc_hjob *j)
{
	return (j->flags & OC_JF_REQUEUED) ? "REQUEUED" : oc_job_state_name(j->state);
}

void oc_hjob_exit_text(const struct oc_hjob *j, char *buf, size_t len)
{
	snprintf(buf, len, "%d:%d", j->exit_code, j->signal);
}

void oc_hjob_id_text(const struct oc_hjob *j, char *buf, size_t len)
{
	if (j->array_task_id != OC_NONE && j->array_job_id)
		snprintf(buf, len, "%u_%u", (unsigned)j->array_job_id, (unsigned)j->array_task_id);
	else if (j->het_job_id && j->het_job_offset != OC_NONE)
		snprintf(buf, len, "%u+%u", (unsigned)j->het_job_id, (unsigned)j->het_job_offset);
	else
		snprintf(buf, len, "%u", (unsigned)j->job_id);
}

void oc_elapsed_text(uint32_t secs, char *buf, size_t len)
{
	unsigned d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60, s = secs % 60;
	if (d)
		snprintf(buf, len, "%u-%02u:%02u:%02u", d, h, m, s);
	else
		snprintf(buf, len, "%02u:%02u:%02u", h, m, s);
}
