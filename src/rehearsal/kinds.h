/* kinds.h: the check kinds and the action kinds of a checklist, one const
 * table each, indexed by the kind (internal to oc_rehearsal). An entry is
 * all there is to a kind: its name in the JSON, the keys it takes, the
 * function that parses it (checklist.c) and the one that evaluates it
 * (checks.c) or performs it (runner.c). Nothing else dispatches on a kind:
 * adding one is a value of its enum (checklist.h), those functions and an
 * entry in the table (checklist.c, next to its parse function). */
#ifndef OC_REHEARSAL_KINDS_H
#define OC_REHEARSAL_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "rehearsal/checklist.h"
#include "rehearsal/checks.h"
#include "rehearsal/runner.h"

/* checklist.c's loader state (it knows the step being read: its labels so
 * far) and a JSON value: jansson's types stay in checklist.c. */
struct cl_load;
struct json_t;

struct oc_check_kind_def {
	const char *name;          /* as the JSON spells it: "config" */
	const char *const *keys;   /* the keys it takes besides "kind", NULL-terminated */
	/* Reads obj, whose keys are known to be among keys, into c (zeroed,
	 * but for the -1 of its "don't care" fields); where: the place for
	 * messages. Returns 0, or -1 with the message set. */
	int (*parse)(struct cl_load *l, const char *where, struct json_t *obj, struct oc_check *c);
	/* oc_checks_eval for this kind (c and ev are never NULL). */
	enum oc_verdict (*eval)(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
	unsigned needs;            /* OC_CHECK_NEEDS_*: what must be read besides the snapshot */
};

struct oc_step_action_kind_def {
	const char *name;          /* "submit_job" */
	const char *const *keys;   /* besides "kind", the keys every action takes included */
	/* Reads obj into a, after what every action has (after_operator,
	 * confirm, wait_timeout) and before its wait_for; a kind that
	 * stores jobs under a label defines the label here. Returns 0, or -1
	 * with the message set. */
	int (*parse)(struct cl_load *l, const char *where, struct json_t *obj, struct oc_step_action *a);
	/* Performs a. Returns 0 when done (the step goes on), -1 when the
	 * step fails (the run's evidence says why). */
	int (*run)(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
	bool confirm;              /* "confirm" defaults to true: it changes more than the step's jobs */
	bool writes;               /* needs the writer (else it fails at once without one) */
};

extern const struct oc_check_kind_def oc_check_kinds[OC_CHECK_KIND_COUNT];
extern const struct oc_step_action_kind_def oc_step_action_kinds[OC_SA_KIND_COUNT];

/* The evaluations (checks.c). */
enum oc_verdict oc_checks_eval_config(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_partition(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					 size_t len);
enum oc_verdict oc_checks_eval_partition_nodes(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					       size_t len);
enum oc_verdict oc_checks_eval_accounts_gpu(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					    size_t len);
enum oc_verdict oc_checks_eval_assoc(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_qos(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_node(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_job(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_submit(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_sacct(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_file(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);
enum oc_verdict oc_checks_eval_accounting(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					  size_t len);
enum oc_verdict oc_checks_eval_idle_nodes(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					  size_t len);
enum oc_verdict oc_checks_eval_reservation(const struct oc_check *c, const struct oc_check_input *in, char *ev,
					   size_t len);
enum oc_verdict oc_checks_eval_all(const struct oc_check *c, const struct oc_check_input *in, char *ev, size_t len);

/* The actions (runner.c). */
int oc_run_submit_job(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_signal_job(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_cancel_job(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_drain(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_resume(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_reservation(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_record_jobs(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_reboot(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);
int oc_run_end_reservation(struct oc_run *r, const struct oc_step_action *a, const struct oc_snapshot *snap);

#endif
