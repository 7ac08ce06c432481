/* timespec.h: the time forms of sacct's -S/-E (and of --since/--until):
 * "now", "now-24hours", "now+30minutes", "today", "midnight", "noon",
 * "2026-12-01", "2026-12-01T08:00[:SS]", "12/01[/26][-08:00[:SS]]",
 * "08:00[:SS]" (today), and seconds since the epoch as "@1764576000".
 * Written here because libslurm's parse_time() is not part of its public
 * API, and the build without libslurm needs the same forms. */
#ifndef OC_CORE_TIMESPEC_H
#define OC_CORE_TIMESPEC_H

#include <stddef.h>
#include <time.h>

/* The history's window when none is given: the last 24 hours. */
#define OC_HISTORY_DEFAULT_SINCE "now-24hours"

/* The time spec names, in local time, seen from now. "now" units:
 * seconds (the default), minutes, hours, days, weeks, each also as its
 * prefix ("24h", "30min", "2d", "1w"). Returns 0 with *out, or -1 with a
 * message in err naming what did not parse. */
int oc_time_parse(const char *spec, time_t now, time_t *out, char *err, size_t errlen);

/* A window [since, until] from two specs (until NULL or "" = now).
 * Refuses since after until. Returns 0, or -1 with err ("--since: ..."). */
int oc_time_window(const char *since, const char *until, time_t now, time_t *s, time_t *u, char *err,
		   size_t errlen);

/* Seconds on the monotonic clock, for durations. */
double oc_mono_now(void);

#endif
