/* script.h: script mode (`opsconsole --cluster NAME --once VIEW [--json]`):
 * one view of a snapshot as a plain ASCII table or as JSON of the schema
 * OC_SCRIPT_SCHEMA (docs/script-mode.md), and the findings that decide
 * the exit code of `health` and `quota`. Pure: no Slurm, no curses; the
 * rows come from the same core code as the screen's views. */
#ifndef OC_CORE_SCRIPT_H
#define OC_CORE_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/model.h"

/* The "schema" field of every JSON document; bumped on any change that
 * is not an added field. */
#define OC_SCRIPT_SCHEMA "opsconsole.once/1"

enum oc_script_view {
	OC_SCRIPT_PARTITIONS = 0,
	OC_SCRIPT_QUEUE,
	OC_SCRIPT_NODES,
	OC_SCRIPT_HEALTH,
	OC_SCRIPT_QUOTA,
	OC_SCRIPT_RESERVATIONS,
	OC_SCRIPT_HISTORY,      /* from s->history, not a part: loaded on demand */
	OC_SCRIPT_EVENTS,       /* from s->events, the same */
	OC_SCRIPT_FAIRSHARE,
	OC_SCRIPT_SCHEDULER,    /* from s->sched, loaded on demand */
	OC_SCRIPT_VIEW_COUNT,
};

/* The view named name, or -1 when there is none of that name. */
int oc_script_view_parse(const char *name);

/* "partitions", "queue", ... Static; "?" when v is out of range. */
const char *oc_script_view_name(enum oc_script_view v);

/* The names of all views, comma separated ("partitions, queue, ..."). Static. */
const char *oc_script_view_list(void);

/* The parts of a snapshot (OC_MASK bits) view v needs. */
unsigned oc_script_view_parts(enum oc_script_view v);

/* Whether the view has findings (exit code 1): health and quota. */
bool oc_script_view_has_findings(enum oc_script_view v);

struct oc_script_opts {
	enum oc_script_view view;
	const char *partition;  /* queue: only the jobs of this partition; NULL = all */
	bool show_hidden;       /* hidden partitions (and their jobs) too */
	bool json;              /* JSON instead of the table */
	const char *since, *until; /* history, events: the window as asked */
};

/* Whether snapshot s can answer o: every part the view needs came back
 * (a failed one is named, as "slurmctld: nodes: Socket timed out ..."),
 * the partition asked for exists, and for quota accounting is
 * configured. Returns 0, or -1 with the reason in err. */
int oc_script_check(const struct oc_snapshot *s, const struct oc_script_opts *o, char *err, size_t errlen);

/* What is degraded but still answered, "" when nothing: for quota, the
 * slurmdbd error while slurmctld's cached limits are shown. Writes into
 * buf; returns buf. */
const char *oc_script_warning(const struct oc_snapshot *s, const struct oc_script_opts *o, char *buf,
			      size_t len);

/* The view as text: a table (header line, one line per row, columns
 * padded with spaces, ASCII only: other bytes print as '?') or one JSON
 * document and a newline. Times in the table are local, relative ones
 * count from s->taken. Sets *findings to the number of findings (nodes
 * listed by health, accounts with a finding for quota, 0 for the other
 * views). Returns a malloc'd string the caller frees, or NULL with a
 * message in err (ENOMEM). */
char *oc_script_render(const struct oc_snapshot *s, const struct oc_script_opts *o, long *findings, char *err,
		       size_t errlen);

#endif
