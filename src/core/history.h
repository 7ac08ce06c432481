/* history.h: the rules the history (ended jobs from slurmdbd) follows on
 * every backend: which records count as ended in a window, and their
 * state and exit code as sacct prints them. Pure. */
#ifndef OC_CORE_HISTORY_H
#define OC_CORE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/model.h"

/* Whether j ended in [since, until]: an end time in the window and a
 * state that is not pending, running or suspended (a requeued record
 * counts: its run ended). */
bool oc_hjob_ended(const struct oc_hjob *j, time_t since, time_t until);

/* The state as sacct prints it: "REQUEUED" for a requeued record, else
 * the base ("COMPLETED", "OUT_OF_MEMORY"). Static. */
const char *oc_hjob_state_name(const struct oc_hjob *j);

/* "code:signal" as sacct's ExitCode, into buf. */
void oc_hjob_exit_text(const struct oc_hjob *j, char *buf, size_t len);

/* The job id as sacct's JobID prints it: "123", "120_3", "200+1". */
void oc_hjob_id_text(const struct oc_hjob *j, char *buf, size_t len);

/* Elapsed time as sacct prints it: "[D-]HH:MM:SS". */
void oc_elapsed_text(uint32_t secs, char *buf, size_t len);

#endif
