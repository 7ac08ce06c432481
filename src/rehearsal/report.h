/* report.h: the rehearsal report, in Markdown (for people and tickets)
 * and JSON (for CI): cluster, checklist, date, operator (the OS user and
 * $SUDO_USER), a summary, and per step its result, evidence, notes, jobs
 * and the time it took. docs/rehearsal.md shows both formats. */
#ifndef OC_REHEARSAL_REPORT_H
#define OC_REHEARSAL_REPORT_H

#include <stddef.h>
#include <time.h>

#include "rehearsal/checklist.h"
#include "rehearsal/session.h"

/* The Markdown report of s (steps described by cl), dated now (local
 * time). Returns a malloc'd string the caller frees, NULL on ENOMEM. */
char *oc_report_markdown(const struct oc_session *s, const struct oc_checklist *cl, time_t now);

/* The JSON report (an object, keys in a fixed order). Returns a malloc'd
 * string the caller frees, NULL on ENOMEM. */
char *oc_report_json(const struct oc_session *s, const struct oc_checklist *cl, time_t now);

/* Write DIR/report.md and DIR/report.json (DIR made 0700 when missing;
 * files 0644, each written atomically). Returns 0, or -1 with err. */
int oc_report_write(const char *dir, const struct oc_session *s, const struct oc_checklist *cl, time_t now,
		    char *err, size_t errlen);

/* Local time as ISO 8601 with the offset ("2026-11-29T15:20:01+0100")
 * into buf; "" for t <= 0. Returns buf. */
const char *oc_report_time(double t, char *buf, size_t len);

#endif
