/* form.h: the one engine behind every write dialog (form.c), and what a
 * form kind gives it (one file each in forms/: nodes.c, resv.c,
 * onboard.c). Every write goes the same way: a form (ncurses form
 * library, checked as typed where the kind asks) → for some kinds a
 * preview the worker reads first → a confirmation that names the targets
 * and shows the exact equivalent command → apply by the worker thread
 * (the screen stays live) → the read-back result. Esc cancels at every
 * step before the apply with nothing changed.
 *
 * A kind is a const table: its fields, and functions that read plain
 * data (struct oc_form_ctx), not the terminal, so that what a form
 * accepts and refuses is unit-tested without one (tests/unit/test_forms.c). */
#ifndef OC_UI_FORM_H
#define OC_UI_FORM_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "actions/worker.h"
#include "actions/writer.h"
#include "core/model.h"
#include "core/platform.h"

struct oc_app;

#define OC_FORM_MAX_FIELDS 10

/* What a kind's functions may read. */
struct oc_form_ctx {
	const struct oc_snapshot *snap;  /* the snapshot on screen */
	const struct oc_writer *writer;  /* for its hostlist functions */
	time_t now;
	void *state;                     /* the kind's own, given at open */
	const bool *changed;             /* per field: edited since the form opened */
	enum oc_platform platform;       /* what the cluster runs on (core/platform.h) */
};

struct oc_form_kind {
	const char *title;          /* "Drain nodes" (oc_form_open may give another) */
	int nfields;
	const char *const *labels;
	/* The field whose Up/Down offers the drain reasons on the nodes and
	 * those used in this session; -1: none. */
	int reason_field;
	/* Nothing to type: the form opens at its confirmation, where Esc
	 * cancels (instead of going back to the form). */
	bool at_confirm;
	/* The line under the fields. */
	const char *hint;
	/* F2 or C-o picks the values of this field from a list (Space
	 * toggles, Enter takes); -1: none. choices gives the list, borrowed
	 * from the snapshot, or -1 with err. */
	int choose_field;
	int (*choices)(const struct oc_form_ctx *c, const char ***names, size_t *n, char *err, size_t errlen);
	/* Checks the field being typed once the typing pauses: a message
	 * into err, "" when fine. NULL: none. */
	void (*live)(const struct oc_form_ctx *c, int field, const char *value, char *err, size_t errlen);
	/* The request and the confirmation's text from the fields' values.
	 * Returns 0, or -1 with err (the form stays, nothing is sent). */
	int (*plan)(const struct oc_form_ctx *c, char *const *values, struct oc_action_req *req, char *text,
		    size_t textlen, char *err, size_t errlen);
	/* The request plan made is a preview the worker answers first (its
	 * details are the confirmation); then previewed (may be NULL) takes
	 * what the request needs from the answer. */
	bool preview;
	void (*previewed)(struct oc_action_req *req, const struct oc_action_result *res);
	/* A progress bar of the worker's steps while it applies. */
	bool progress;
	/* Right before the request goes to the worker (after the Enter of
	 * the confirmation), and after its result; NULL: nothing. */
	void (*applying)(struct oc_app *app, struct oc_action_req *req);
	void (*applied)(struct oc_app *app, const struct oc_action_req *req, const struct oc_action_result *res);
	/* Frees the state given at open; NULL: free(). */
	void (*state_free)(void *state);
};

/* Open kind's form over the screen with values (nfields of them; NULL:
 * empty), the cursor in field start (at the end of its text when at_end,
 * else at its start). title:
 * NULL for the kind's. state: the kind's own (freed by the form, also
 * when it cannot open). Refused with a message when writes are not
 * offered or an action still runs. Returns true when the form is open. */
bool oc_form_open(struct oc_app *app, const struct oc_form_kind *kind, const char *title, const char *const *values,
		  void *state, int start, bool at_end);

/* What Enter on the form does before anything is sent: the checks every
 * form gets (bytes the terminal sent that are not UTF-8), then the
 * kind's plan; the text ends with what Enter and Esc do next. Returns 0,
 * or -1 with err. No terminal needed. */
int oc_form_plan(const struct oc_form_kind *k, const struct oc_form_ctx *c, char *const *values,
		 struct oc_action_req *req, char *text, size_t textlen, char *err, size_t errlen);

/* For the kinds: the nodes of a hostlist a person typed, each checked to
 * be a node of the snapshot (a typo must not reach Slurm half-applied),
 * and their compressed form. Returns 0 (*names to free with
 * oc_writer_names_free), or -1 with err. */
int oc_form_nodes(const struct oc_form_ctx *c, const char *expr, char ***names, size_t *n, char *compressed,
		  size_t clen, char *err, size_t errlen);
/* The running jobs on the named nodes, a line per busy node (at most 8)
 * appended to out. Returns how many nodes run jobs. */
size_t oc_form_busy_nodes(const struct oc_snapshot *s, char **names, size_t n, char *out, size_t len);
/* Whether word is one of the names in list (separated by commas or
 * blanks). */
bool oc_form_list_has(const char *list, const char *word);
/* The QoS of the cluster, for a kind's choices (names borrowed from the
 * snapshot). Returns 0, or -1 with err when accounting is not loaded. */
int oc_form_qos_choices(const struct oc_form_ctx *c, const char ***names, size_t *n, char *err, size_t errlen);
/* The tagged nodes, else the selected node, compressed; "" when none. */
void oc_form_default_nodes(struct oc_app *app, char *out, size_t len);

#endif
