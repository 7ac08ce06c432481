/* checklist.c: loading and validating a rehearsal checklist (checklist.h,
 * schema in docs/rehearsal.md). jansson objects stay in this file. The
 * tables of check kinds and action kinds (kinds.h) are here, each below
 * the parse functions of its kinds. */
#include "rehearsal/checklist.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/datafiles.h"
#include "core/hostlist.h"
#include "core/jsonfile.h"
#include "core/model.h"
#include "core/platform.h"
#include "core/state.h"
#include "core/strbuf.h"
#include "actions/writer.h"
#include "rehearsal/kinds.h"

#define CL_MAX_STEPS 500
#define CL_MAX_ACTIONS 32
#define CL_MAX_DEPTH 4     /* "all" inside "all" ... */
#define CL_TIMEOUT_MAX (24.0 * 3600)

static const char *const step_keys[] = {
	"id", "title", "section", "why", "runbook", "do", "observe", "auto", "timeout",
	"require", "actions", "check", "cleanup", "not_on", NULL,
};
static const char *const top_keys[] = {
	"checklist", "version", "title", "description", "vars", "stop_on_failure", "steps", NULL,
};

/* Partition properties a "partition" check may look at, as scontrol
 * show partition spells them. */
static const char *const partition_props[] = {
	"Default", "Hidden", "RootOnly", "ExclusiveUser", "State", "AllowGroups", "AllowAccounts",
	"AllowQos", "QoS", "GraceTime", "MaxTime", "PriorityTier", "TotalNodes", "Nodes", NULL,
};
static const char *const assoc_fields[] = {
	"GrpTRES", "GrpJobs", "GrpSubmitJobs", "MaxJobs", "MaxSubmitJobs", NULL,
};
static const char *const qos_fields[] = {
	"MaxJobsPerUser", "MaxSubmitJobsPerUser", "Priority", "GrpJobs", "GrpSubmitJobs", "GrpTRES", NULL,
};
static const char *const node_state_names[] = {
	"idle", "alloc", "allocated", "mix", "mixed", "down", "future", "unknown", NULL,
};

static const struct {
	const char *name;
	int signo;
} cl_signals[] = {
	{"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"TERM", SIGTERM}, {"INT", SIGINT},
	{"HUP", SIGHUP},   {"KILL", SIGKILL}, {"CONT", SIGCONT}, {"STOP", SIGSTOP},
};

/* Labels a step defines, in order, to check references. */
struct cl_labels {
	const char *v[CL_MAX_ACTIONS];
	size_t n;
};

/* Loader state: where errors go, what ${NAME} means, and what the step
 * being read has defined so far. */
struct cl_load {
	const char *path;
	struct oc_checklist *cl;
	char *err;
	size_t errlen;
	const struct oc_checklist_var *vars;
	size_t nvars;
	json_t *file_vars;    /* the file's "vars" object, or NULL */
	const struct oc_step *step;   /* the step being read */
	struct cl_labels labels;      /* the labels its actions defined so far */
	int depth;                    /* how deep in "all" the check being read is */
};

/* Writes "path: where: message" into err. Returns -1. */
__attribute__((format(printf, 3, 4))) static int cl_fail(struct cl_load *l, const char *where,
							 const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	oc_seterr(l->err, l->errlen, "%s: %s%s%s", l->path, where ? where : "",
			where && *where ? ": " : "", msg);
	return -1;
}

/* Formats a "where" prefix into buf, cut to fit. Returns buf. */
__attribute__((format(printf, 3, 4))) static const char *cl_where(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

/* "a, b, c" of a NULL-terminated list into buf. Returns buf. */
static const char *cl_join(const char *const *names, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t at = 0;
	for (size_t i = 0; names[i] && at < len; i++) {
		int n = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", names[i]);
		if (n < 0)
			break;
		at += (size_t)n;
	}
	return buf;
}

/* Whether name is in the NULL-terminated list (case-sensitive or not). */
static bool cl_in(const char *const *names, const char *name, bool nocase)
{
	for (size_t i = 0; names[i]; i++)
		if (nocase ? strcasecmp(names[i], name) == 0 : strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* Refuses a key of obj that is neither "kind" (when with_kind) nor in
 * known. Returns 0 or -1. */
static int cl_keys(struct cl_load *l, const char *where, json_t *obj, bool with_kind,
		   const char *const *known)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		(void)v;
		if ((with_kind && strcmp(key, "kind") == 0) || cl_in(known, key, false))
			continue;
		char list[512];
		return cl_fail(l, where, "unknown key \"%s\" (known: %s%s)", key, with_kind ? "kind, " : "",
			       cl_join(known, list, sizeof(list)));
	}
	return 0;
}

/* The value of variable name: the caller's first, then the file's. NULL
 * when neither has it. */
static const char *cl_var(const struct cl_load *l, const char *name, size_t len)
{
	for (size_t i = 0; i < l->nvars; i++)
		if (strlen(l->vars[i].name) == len && strncmp(l->vars[i].name, name, len) == 0)
			return l->vars[i].value;
	if (l->file_vars) {
		char key[128];
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, name, len);
		key[len] = '\0';
		json_t *v = json_object_get(l->file_vars, key);
		if (json_is_string(v))
			return json_string_value(v);
	}
	return NULL;
}

static int cl_subst_depth(struct cl_load *l, const char *where, const char *in, const char **out, int depth);

/* in with ${NAME} replaced, as an arena string in *out. ${job:...} and
 * ${nodes:...} stay (the runner fills them in). Returns 0 or -1. */
static int cl_subst(struct cl_load *l, const char *where, const char *in, const char **out)
{
	return cl_subst_depth(l, where, in, out, 0);
}

static int cl_subst_depth(struct cl_load *l, const char *where, const char *in, const char **out, int depth)
{
	if (!strstr(in, "${")) {
		*out = oc_arena_strdup(&l->cl->arena, in);
		return *out ? 0 : cl_fail(l, where, "out of memory");
	}
	size_t cap = strlen(in) + 1, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		return cl_fail(l, where, "out of memory");
	for (const char *p = in; *p;) {
		const char *add = p;
		size_t addlen = 1;
		if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p + 2, '}');
			if (!end) {
				free(buf);
				return cl_fail(l, where, "\"${\" without \"}\" in \"%s\"", in);
			}
			const char *name = p + 2;
			size_t nlen = (size_t)(end - name);
			if (strncmp(name, "job:", 4) == 0 || strncmp(name, "nodes:", 6) == 0) {
				addlen = (size_t)(end - p) + 1;
			} else {
				add = cl_var(l, name, nlen);
				if (!add) {
					free(buf);
					return cl_fail(l, where, "unknown variable \"${%.*s}\" (define it in \"vars\" or with --var)",
						       (int)nlen, name);
				}
				if (strstr(add, "${")) {
					/* A variable that uses variables: one level. */
					if (depth > 0 || cl_subst_depth(l, where, add, &add, depth + 1) < 0) {
						free(buf);
						return depth > 0 ? cl_fail(l, where,
									   "variable \"${%.*s}\" uses a variable that uses "
									   "variables: one level only",
									   (int)nlen, name)
								 : -1;
					}
				}
				addlen = strlen(add);
			}
			p = end + 1;
		} else {
			p++;
		}
		if (len + addlen + 1 > cap) {
			cap = (len + addlen + 1) * 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return cl_fail(l, where, "out of memory");
			}
			buf = nb;
		}
		memcpy(buf + len, add, addlen);
		len += addlen;
	}
	buf[len] = '\0';
	*out = oc_arena_strdup(&l->cl->arena, buf);
	free(buf);
	return *out ? 0 : cl_fail(l, where, "out of memory");
}

void oc_checklist_set_notice(struct oc_checklist *cl, const char *text)
{
	cl->notice = text && *text ? oc_arena_strdup(&cl->arena, text) : NULL;
}

const char *oc_checklist_fallback_notice(const char *cluster, const char *default_name, char *buf, size_t len)
{
	buf[0] = '\0';
	if (cluster && *cluster && strcmp(cluster, default_name) != 0)
		snprintf(buf, len,
			 "cluster %s has no checklist of its own (profile \"checklist\", or checklists/%s.json): "
			 "this is the default one, written for the runbook's %s cluster; check that its "
			 "variables fit (profile \"checklist_vars\", or --var)",
			 cluster, cluster, default_name);
	return buf;
}

/* A string key: *out is its value (variables replaced) or def when absent.
 * required: absent is an error. Returns 0 or -1. */
static int cl_str(struct cl_load *l, const char *where, json_t *obj, const char *key, bool required,
		  const char *def, const char **out)
{
	json_t *v = json_object_get(obj, key);
	*out = def;
	if (!v) {
		if (required)
			return cl_fail(l, where, "no \"%s\" (a string is required)", key);
		return 0;
	}
	if (!json_is_string(v))
		return cl_fail(l, where, "\"%s\" must be a string", key);
	return cl_subst(l, where, json_string_value(v), out);
}

/* A non-empty string key. Returns 0 or -1. */
static int cl_str_ne(struct cl_load *l, const char *where, json_t *obj, const char *key, bool required,
		     const char **out)
{
	if (cl_str(l, where, obj, key, required, NULL, out) < 0)
		return -1;
	if (*out && !**out)
		return cl_fail(l, where, "\"%s\" must not be empty", key);
	return 0;
}

static int cl_bool(struct cl_load *l, const char *where, json_t *obj, const char *key, bool def, bool *out)
{
	json_t *v = json_object_get(obj, key);
	*out = def;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return cl_fail(l, where, "\"%s\" must be true or false", key);
	*out = json_is_true(v);
	return 0;
}

/* A boolean key as -1 (absent), 0 or 1. */
static int cl_tri(struct cl_load *l, const char *where, json_t *obj, const char *key, int *out)
{
	json_t *v = json_object_get(obj, key);
	*out = -1;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return cl_fail(l, where, "\"%s\" must be true or false", key);
	*out = json_is_true(v) ? 1 : 0;
	return 0;
}

/* A number key within [min, max]. Returns 0 or -1. */
static int cl_num(struct cl_load *l, const char *where, json_t *obj, const char *key, double def,
		  double min, double max, double *out)
{
	json_t *v = json_object_get(obj, key);
	*out = def;
	if (!v)
		return 0;
	if (!json_is_number(v))
		return cl_fail(l, where, "\"%s\" must be a number", key);
	double d = json_number_value(v);
	if (!(d >= min && d <= max))
		return cl_fail(l, where, "\"%s\" must be between %g and %g (got %g)", key, min, max, d);
	*out = d;
	return 0;
}

static int cl_uint(struct cl_load *l, const char *where, json_t *obj, const char *key, uint32_t def,
		   uint32_t min, uint32_t max, uint32_t *out)
{
	json_t *v = json_object_get(obj, key);
	*out = def;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < (json_int_t)min ||
	    json_integer_value(v) > (json_int_t)max)
		return cl_fail(l, where, "\"%s\" must be a whole number from %u to %u", key, min, max);
	*out = (uint32_t)json_integer_value(v);
	return 0;
}

/* A list of non-empty strings: an array of strings, or one string (a
 * one-item list). Returns 0 or -1. */
static int cl_list(struct cl_load *l, const char *where, json_t *obj, const char *key, bool required,
		   struct oc_strlist *out)
{
	json_t *v = json_object_get(obj, key);
	out->v = NULL;
	out->n = 0;
	if (!v) {
		if (required)
			return cl_fail(l, where, "no \"%s\" (a string or a list of strings is required)", key);
		return 0;
	}
	size_t n = json_is_array(v) ? json_array_size(v) : 1;
	if (!json_is_array(v) && !json_is_string(v))
		return cl_fail(l, where, "\"%s\" must be a string or a list of strings", key);
	if (n == 0)
		return cl_fail(l, where, "\"%s\" must not be an empty list", key);
	out->v = oc_arena_alloc(&l->cl->arena, n * sizeof(*out->v));
	if (!out->v)
		return cl_fail(l, where, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
		if (!json_is_string(e))
			return cl_fail(l, where, "\"%s\"[%zu] must be a string", key, i);
		if (!*json_string_value(e))
			return cl_fail(l, where, "\"%s\"[%zu] must not be empty", key, i);
		if (cl_subst(l, where, json_string_value(e), &out->v[i]) < 0)
			return -1;
	}
	out->n = n;
	return 0;
}

/* The expectation of a config/partition/assoc/qos check: at most one of
 * the keys of allowed (a subset of equals, contains_all, min, max,
 * not_under). Returns 0 or -1. */
static int cl_op(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	static const char *const ops[] = {"equals", "contains_all", "min", "max", "not_under"};
	static const enum oc_check_op opv[] = {OC_OP_EQUALS, OC_OP_CONTAINS_ALL, OC_OP_MIN, OC_OP_MAX,
					       OC_OP_NOT_UNDER};
	const char *seen = NULL;
	c->op = OC_OP_NONE;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		json_t *v = json_object_get(obj, ops[i]);
		if (!v)
			continue;
		if (seen)
			return cl_fail(l, where, "\"%s\" and \"%s\" together: give one expectation", seen, ops[i]);
		seen = ops[i];
		c->op = opv[i];
		switch (c->op) {
		case OC_OP_EQUALS:
			if (json_is_string(v)) {
				if (cl_subst(l, where, json_string_value(v), &c->str) < 0)
					return -1;
			} else if (json_is_boolean(v)) {
				c->str = json_is_true(v) ? "YES" : "NO";
			} else if (json_is_number(v)) {
				char num[64];
				snprintf(num, sizeof(num), "%.15g", json_number_value(v));
				c->str = oc_arena_strdup(&l->cl->arena, num);
				c->num = json_number_value(v);
				if (!c->str)
					return cl_fail(l, where, "out of memory");
			} else {
				return cl_fail(l, where, "\"equals\" must be a string, a number or true/false");
			}
			break;
		case OC_OP_CONTAINS_ALL:
		case OC_OP_NOT_UNDER:
			if (cl_list(l, where, obj, ops[i], true, &c->list) < 0)
				return -1;
			break;
		case OC_OP_MIN:
		case OC_OP_MAX:
			if (!json_is_number(v))
				return cl_fail(l, where, "\"%s\" must be a number", ops[i]);
			c->num = json_number_value(v);
			break;
		case OC_OP_NONE:
			break;
		}
	}
	return 0;
}

static bool cl_has_label(const struct cl_labels *lb, const char *label)
{
	for (size_t i = 0; i < lb->n; i++)
		if (strcmp(lb->v[i], label) == 0)
			return true;
	return false;
}

/* A label a check or action refers to must be defined before it. */
static int cl_label_ref(struct cl_load *l, const char *where, const char *label)
{
	if (cl_has_label(&l->labels, label))
		return 0;
	return cl_fail(l, where, "no earlier action of this step stores jobs under the label \"%s\" "
				 "(a submit_job or record_jobs action with \"label\": \"%s\")", label, label);
}

/* An action that stores jobs under label defines it for what follows. */
static int cl_label_new(struct cl_load *l, const char *where, const char *label)
{
	if (cl_has_label(&l->labels, label))
		return cl_fail(l, where, "label \"%s\" is used twice in this step", label);
	if (l->labels.n >= CL_MAX_ACTIONS)
		return cl_fail(l, where, "too many labels");
	l->labels.v[l->labels.n++] = label;
	return 0;
}

/* ${job:LABEL} and ${nodes:LABEL} in text must name known labels. */
static int cl_template_refs(struct cl_load *l, const char *where, const char *text)
{
	for (const char *p = text ? strstr(text, "${") : NULL; p; p = strstr(p + 2, "${")) {
		const char *name = p + 2, *end = strchr(name, '}');
		if (!end)
			break;
		size_t skip = strncmp(name, "job:", 4) == 0 ? 4 : strncmp(name, "nodes:", 6) == 0 ? 6 : 0;
		if (!skip)
			continue;
		char label[OC_LABEL_MAX + 1];
		size_t n = (size_t)(end - name) - skip;
		if (n == 0 || n > OC_LABEL_MAX)
			return cl_fail(l, where, "bad label in \"%.*s\"", (int)(end - p + 1), p);
		memcpy(label, name + skip, n);
		label[n] = '\0';
		if (cl_label_ref(l, where, label) < 0)
			return -1;
	}
	return 0;
}

/* Whether s is one of OC_JOB_STATE_COUNT job states (case-insensitive). */
static bool cl_job_state(const char *s)
{
	for (int i = 0; i < OC_JOB_STATE_COUNT; i++)
		if (strcasecmp(oc_job_state_name((enum oc_job_state)i), s) == 0)
			return true;
	return false;
}

static int cl_check(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c);

/* ---- check kinds: one parse function each (the table is below) -------- */

static int cl_chk_config(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	if (cl_str_ne(l, where, obj, "key", true, &c->key) < 0 || cl_op(l, where, obj, c) < 0)
		return -1;
	return 0;
}

static int cl_chk_partition(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	char list[512];
	if (cl_list(l, where, obj, "partition", true, &c->names) < 0 ||
	    cl_str_ne(l, where, obj, "property", true, &c->key) < 0 || cl_op(l, where, obj, c) < 0)
		return -1;
	if (!cl_in(partition_props, c->key, true))
		return cl_fail(l, where, "unknown partition property \"%s\" (known: %s)", c->key,
			       cl_join(partition_props, list, sizeof(list)));
	return 0;
}

static int cl_chk_partition_nodes(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	return cl_list(l, where, obj, "partitions", false, &c->names);
}

static int cl_chk_accounts_gpu(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	if (cl_str_ne(l, where, obj, "tres", false, &c->tres) < 0 ||
	    cl_list(l, where, obj, "exclude", false, &c->exclude) < 0)
		return -1;
	if (!c->tres)
		c->tres = "gres/gpu";
	return 0;
}

/* A limit of one association or QoS: who names it ("account", "qos"),
 * user_key the key of the association's user (NULL: none), fields the
 * limits it has. */
static int cl_limit(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c, const char *who,
		    const char *user_key, const char *const *fields)
{
	char list[512];
	if (cl_list(l, where, obj, who, true, &c->names) < 0 ||
	    (user_key && cl_str_ne(l, where, obj, user_key, false, &c->user) < 0) ||
	    cl_str_ne(l, where, obj, "field", true, &c->key) < 0 ||
	    cl_str_ne(l, where, obj, "tres", false, &c->tres) < 0 || cl_op(l, where, obj, c) < 0)
		return -1;
	if (c->names.n != 1)
		return cl_fail(l, where, "\"%s\" must name one", who);
	if (!cl_in(fields, c->key, true))
		return cl_fail(l, where, "unknown field \"%s\" (known: %s)", c->key, cl_join(fields, list, sizeof(list)));
	if (strcasecmp(c->key, "GrpTRES") == 0 && !c->tres)
		return cl_fail(l, where, "\"field\": \"GrpTRES\" needs \"tres\" (e.g. \"gres/gpu\")");
	if (c->op == OC_OP_CONTAINS_ALL || c->op == OC_OP_NOT_UNDER)
		return cl_fail(l, where, "a limit is a number: use \"equals\", \"min\" or \"max\"");
	if (c->op == OC_OP_EQUALS && strcasecmp(c->str, "none") != 0 && strcasecmp(c->str, "unlimited") != 0) {
		char *end;
		strtod(c->str, &end);
		if (end == c->str || *end)
			return cl_fail(l, where, "\"equals\" must be a number or \"none\"");
	}
	return 0;
}

static int cl_chk_assoc(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	return cl_limit(l, where, obj, c, "account", "user", assoc_fields);
}

static int cl_chk_qos(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	return cl_limit(l, where, obj, c, "qos", NULL, qos_fields);
}

/* The names of list, each a name or a hostlist expression
 * ("gpu-st-b300-[3-4]"), expanded into out (in the checklist's arena).
 * Returns 0, or -1 with the message set (malformed, over 4096 names). */
static int cl_expand_names(struct cl_load *l, const char *where, const char *key, const struct oc_strlist *list,
			   struct oc_strlist *out)
{
	char err[256];
	size_t total = 0;
	for (size_t i = 0; i < list->n; i++) {
		long n = oc_hostlist_count(list->v[i], err, sizeof(err));
		if (n <= 0)
			return cl_fail(l, where, "\"%s\": \"%s\" is not a node name or hostlist expression%s%s", key,
				       list->v[i], n < 0 ? ": " : "", n < 0 ? err : "");
		total += (size_t)n;
	}
	if (total > 4096)
		return cl_fail(l, where, "\"%s\": %zu nodes, at most 4096", key, total);
	out->v = oc_arena_alloc(&l->cl->arena, total * sizeof(*out->v));
	if (!out->v)
		return cl_fail(l, where, "out of memory");
	out->n = 0;
	for (size_t i = 0; i < list->n; i++) {
		char **names = NULL;
		size_t n = 0;
		if (oc_hostlist_expand(list->v[i], 4096, &names, &n, err, sizeof(err)) < 0)
			return cl_fail(l, where, "\"%s\": %s", key, err);
		for (size_t k = 0; k < n && out->n < total; k++)
			out->v[out->n++] = oc_arena_strdup(&l->cl->arena, names[k]);
		oc_hostlist_names_free(&names, n);
	}
	return 0;
}

static int cl_chk_node(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	char list[512];
	struct oc_strlist given;
	if (cl_list(l, where, obj, "node", true, &given) < 0 ||
	    cl_expand_names(l, where, "node", &given, &c->names) < 0 ||
	    cl_list(l, where, obj, "state", false, &c->node_states) < 0 ||
	    cl_tri(l, where, obj, "drain", &c->drain) < 0 ||
	    cl_tri(l, where, obj, "responding", &c->responding) < 0 ||
	    cl_tri(l, where, obj, "rebooted", &c->rebooted) < 0 ||
	    cl_str_ne(l, where, obj, "reason_contains", false, &c->reason_contains) < 0)
		return -1;
	if (c->rebooted == 0)
		return cl_fail(l, where, "\"rebooted\": false checks nothing: leave it out");
	for (size_t i = 0; i < c->node_states.n; i++)
		if (!cl_in(node_state_names, c->node_states.v[i], true))
			return cl_fail(l, where, "unknown node state \"%s\" (known: %s)", c->node_states.v[i],
				       cl_join(node_state_names, list, sizeof(list)));
	return 0;
}

static int cl_chk_job(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	if (cl_str_ne(l, where, obj, "job", true, &c->job) < 0 ||
	    cl_list(l, where, obj, "state", false, &c->states) < 0 ||
	    cl_list(l, where, obj, "reason", false, &c->reasons) < 0 ||
	    cl_tri(l, where, obj, "requeued", &c->requeued) < 0)
		return -1;
	for (size_t i = 0; i < c->states.n; i++) {
		if (cl_job_state(c->states.v[i]))
			continue;
		char known[256] = "";
		for (int s = 0; s < OC_JOB_STATE_COUNT; s++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", s ? ", " : "",
				 oc_job_state_name((enum oc_job_state)s));
		return cl_fail(l, where, "unknown job state \"%s\" (known: %s)", c->states.v[i], known);
	}
	if (c->requeued == 0)
		return cl_fail(l, where, "\"requeued\": false checks nothing: leave it out");
	return cl_label_ref(l, where, c->job);
}

static int cl_chk_submit(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	const char *result;
	if (cl_str_ne(l, where, obj, "job", true, &c->job) < 0 ||
	    cl_str_ne(l, where, obj, "result", true, &result) < 0 ||
	    cl_str_ne(l, where, obj, "contains", false, &c->contains) < 0)
		return -1;
	if (strcmp(result, "refused") == 0)
		c->refused = true;
	else if (strcmp(result, "never_runs") == 0)
		c->never_runs = true;
	else if (strcmp(result, "accepted") != 0)
		return cl_fail(l, where, "\"result\" must be \"refused\", \"accepted\" or \"never_runs\" (got \"%s\")",
			       result);
	return cl_label_ref(l, where, c->job);
}

static int cl_chk_sacct(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	if (cl_list(l, where, obj, "users", true, &c->names) < 0 ||
	    cl_num(l, where, obj, "since_hours", 24, 0.01, 24.0 * 366, &c->num) < 0)
		return -1;
	return 0;
}

static int cl_chk_file(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	if (cl_str_ne(l, where, obj, "path", true, &c->path) < 0 ||
	    cl_str_ne(l, where, obj, "contains", false, &c->contains) < 0 ||
	    cl_bool(l, where, obj, "remove", false, &c->remove) < 0)
		return -1;
	if (c->path[0] != '/')
		return cl_fail(l, where, "\"path\" must be absolute (got \"%s\")", c->path);
	return cl_template_refs(l, where, c->path);
}

static int cl_chk_accounting(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	const char *want;
	if (cl_str_ne(l, where, obj, "slurmdbd", true, &want) < 0)
		return -1;
	if (strcmp(want, "up") == 0)
		c->dbd_up = true;
	else if (strcmp(want, "down") != 0)
		return cl_fail(l, where, "\"slurmdbd\" must be \"up\" or \"down\" (got \"%s\")", want);
	return 0;
}

static int cl_chk_idle_nodes(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	uint32_t min;
	if (cl_list(l, where, obj, "partition", true, &c->names) < 0 ||
	    cl_uint(l, where, obj, "min", 1, 1, 100000, &min) < 0)
		return -1;
	if (c->names.n != 1)
		return cl_fail(l, where, "\"partition\" must name one partition");
	c->num = min;
	return 0;
}

static int cl_chk_all(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	json_t *arr = json_object_get(obj, "checks");
	if (!json_is_array(arr) || json_array_size(arr) == 0)
		return cl_fail(l, where, "\"checks\" must be a non-empty list of checks");
	c->nsub = json_array_size(arr);
	c->sub = oc_arena_alloc(&l->cl->arena, c->nsub * sizeof(*c->sub));
	if (!c->sub)
		return cl_fail(l, where, "out of memory");
	l->depth++;
	for (size_t i = 0; i < c->nsub; i++) {
		char w[256];
		cl_where(w, sizeof(w), "%s: checks[%zu]", where, i);
		if (cl_check(l, w, json_array_get(arr, i), &c->sub[i]) < 0)
			return -1;
	}
	l->depth--;
	return 0;
}

static int cl_hostlist_field(struct cl_load *l, const char *where, json_t *obj, const char *key, bool required,
			     const char **out);

static int cl_chk_reservation(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	const char *name;
	if (cl_str_ne(l, where, obj, "name", true, &name) < 0 ||
	    cl_hostlist_field(l, where, obj, "nodes", false, &c->hostlist) < 0 ||
	    cl_bool(l, where, obj, "exists", true, &c->exists) < 0)
		return -1;
	c->names.v = oc_arena_alloc(&l->cl->arena, sizeof(*c->names.v));
	if (!c->names.v)
		return cl_fail(l, where, "out of memory");
	c->names.v[0] = name;
	c->names.n = 1;
	if (!c->exists && c->hostlist)
		return cl_fail(l, where, "\"nodes\" with \"exists\": false checks nothing: leave it out");
	return 0;
}

/* A NULL-terminated list of keys, for a table entry. */
#define CL_KEYS(...) ((const char *const[]){__VA_ARGS__, NULL})

const struct oc_check_kind_def oc_check_kinds[OC_CHECK_KIND_COUNT] = {
	/* Read from slurmctld each time: a reconfigure meanwhile counts. */
	[OC_CHECK_CONFIG] = {"config", CL_KEYS("key", "equals", "contains_all", "min", "max", "not_under"),
			     cl_chk_config, oc_checks_eval_config, .needs = OC_CHECK_NEEDS_CONFIG},
	[OC_CHECK_PARTITION] = {"partition",
				CL_KEYS("partition", "property", "equals", "contains_all", "min", "max"),
				cl_chk_partition, oc_checks_eval_partition, .needs = 0},
	[OC_CHECK_PARTITION_NODES] = {"partition_nodes", CL_KEYS("partitions"), cl_chk_partition_nodes,
				      oc_checks_eval_partition_nodes, .needs = 0},
	[OC_CHECK_ACCOUNTS_GPU] = {"accounts_gpu_limit", CL_KEYS("tres", "exclude"), cl_chk_accounts_gpu,
				   oc_checks_eval_accounts_gpu, .needs = 0},
	[OC_CHECK_ASSOC] = {"assoc_limit", CL_KEYS("account", "user", "field", "tres", "equals", "min", "max"),
			    cl_chk_assoc, oc_checks_eval_assoc, .needs = 0},
	[OC_CHECK_QOS] = {"qos_limit", CL_KEYS("qos", "field", "tres", "equals", "min", "max"), cl_chk_qos,
			  oc_checks_eval_qos, .needs = 0},
	[OC_CHECK_NODE] = {"node", CL_KEYS("node", "state", "drain", "responding", "rebooted", "reason_contains"),
			   cl_chk_node, oc_checks_eval_node, .needs = 0},
	[OC_CHECK_JOB] = {"job", CL_KEYS("job", "state", "reason", "requeued"), cl_chk_job, oc_checks_eval_job,
			  .needs = 0},
	[OC_CHECK_SUBMIT] = {"submit", CL_KEYS("job", "result", "contains"), cl_chk_submit, oc_checks_eval_submit,
			     .needs = 0},
	/* sacct over the last since_hours, asked through the writer. */
	[OC_CHECK_SACCT] = {"sacct", CL_KEYS("users", "since_hours"), cl_chk_sacct, oc_checks_eval_sacct,
			    .needs = OC_CHECK_NEEDS_SACCT},
	[OC_CHECK_FILE] = {"file", CL_KEYS("path", "contains", "remove"), cl_chk_file, oc_checks_eval_file, .needs = 0},
	[OC_CHECK_ACCOUNTING] = {"accounting", CL_KEYS("slurmdbd"), cl_chk_accounting, oc_checks_eval_accounting, .needs = 0},
	[OC_CHECK_IDLE_NODES] = {"idle_nodes", CL_KEYS("partition", "min"), cl_chk_idle_nodes,
				 oc_checks_eval_idle_nodes, .needs = 0},
	[OC_CHECK_RESERVATION] = {"reservation", CL_KEYS("name", "nodes", "exists"), cl_chk_reservation,
				  oc_checks_eval_reservation, .needs = 0},
	[OC_CHECK_ALL] = {"all", CL_KEYS("checks"), cl_chk_all, oc_checks_eval_all, .needs = 0},
};

/* oc_check_kinds[i].name and oc_step_action_kinds[i].name, for cl_kind. */
static const char *cl_check_kind_at(size_t i)
{
	return oc_check_kinds[i].name;
}

static const char *cl_action_kind_at(size_t i)
{
	return oc_step_action_kinds[i].name;
}

/* The kind obj names: its index among the n names name(i), and in w
 * (wlen bytes) where with its name: "check (config)". a_what ("a check")
 * and what ("check") are for the messages. Returns the index, or -1 with
 * the message set. */
static int cl_kind(struct cl_load *l, const char *where, json_t *obj, const char *a_what, const char *what,
		   const char *(*name)(size_t), size_t n, char *w, size_t wlen)
{
	if (!json_is_object(obj))
		return cl_fail(l, where, "%s must be an object with a \"kind\"", a_what);
	json_t *k = json_object_get(obj, "kind");
	if (!json_is_string(k))
		return cl_fail(l, where, k ? "\"kind\" must be a string" : "no \"kind\"");
	const char *kind = json_string_value(k);
	for (size_t i = 0; i < n; i++)
		if (strcmp(name(i), kind) == 0) {
			cl_where(w, wlen, "%s (%s)", where, kind);
			return (int)i;
		}
	char list[512] = "";
	for (size_t i = 0; i < n; i++)
		oc_appendf(list, sizeof(list), "%s%s", i ? ", " : "", name(i));
	return cl_fail(l, where, "unknown %s kind \"%s\" (known: %s)", what, kind, list);
}

/* Parses one check object into *c, its kind's parse function doing the
 * rest. Returns 0 or -1. */
static int cl_check(struct cl_load *l, const char *where, json_t *obj, struct oc_check *c)
{
	memset(c, 0, sizeof(*c));
	c->requeued = c->drain = c->responding = c->rebooted = -1;
	if (l->depth > CL_MAX_DEPTH)
		return cl_fail(l, where, "checks nested more than %d deep", CL_MAX_DEPTH);
	char w[256];
	int kind = cl_kind(l, where, obj, "a check", "check", cl_check_kind_at, OC_CHECK_KIND_COUNT, w, sizeof(w));
	if (kind < 0)
		return -1;
	c->kind = (enum oc_check_kind)kind;
	if (cl_keys(l, w, obj, true, oc_check_kinds[kind].keys) < 0)
		return -1;
	return oc_check_kinds[kind].parse(l, w, obj, c);
}

/* A new check in the arena, parsed from obj. */
static int cl_check_new(struct cl_load *l, const char *where, json_t *obj, const struct oc_check **out)
{
	struct oc_check *c = oc_arena_alloc(&l->cl->arena, sizeof(*c));
	if (!c)
		return cl_fail(l, where, "out of memory");
	if (cl_check(l, where, obj, c) < 0)
		return -1;
	*out = c;
	return 0;
}

/* Parses "signal" ("USR1", "SIGUSR1"). Returns the signal or 0. */
static int cl_signal(const char *name, const char **canon)
{
	if (strncasecmp(name, "SIG", 3) == 0)
		name += 3;
	for (size_t i = 0; i < sizeof(cl_signals) / sizeof(cl_signals[0]); i++)
		if (strcasecmp(cl_signals[i].name, name) == 0) {
			*canon = cl_signals[i].name;
			return cl_signals[i].signo;
		}
	return 0;
}

/* Whether s is a plain name for Slurm fields (user, account...): no
 * whitespace, no control or quoting characters. */
static bool cl_plain(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if (*p <= ' ' || *p == 0x7f || strchr("\"'`\\$;&|<>", *p))
			return false;
	return true;
}

/* Copies a plain name field (limit chars). */
static int cl_name_field(struct cl_load *l, const char *where, json_t *obj, const char *key, bool required,
			 size_t limit, const char **out)
{
	if (cl_str_ne(l, where, obj, key, required, out) < 0)
		return -1;
	if (*out && (!cl_plain(*out) || strlen(*out) >= limit))
		return cl_fail(l, where, "\"%s\" must be a name without spaces or quotes, shorter than %zu characters",
			       key, limit);
	return 0;
}

/* A name field holding nodes: a hostlist expression of 1 to 4096 names. */
static int cl_hostlist_field(struct cl_load *l, const char *where, json_t *obj, const char *key, bool required,
			     const char **out)
{
	if (cl_name_field(l, where, obj, key, required, 4096, out) < 0)
		return -1;
	if (!*out)
		return 0;
	char err[256];
	long n = oc_hostlist_count(*out, err, sizeof(err));
	if (n <= 0 || n > 4096)
		return cl_fail(l, where, "\"%s\": \"%s\" is not a hostlist expression of 1 to 4096 nodes%s%s", key,
			       *out, n < 0 ? ": " : "", n < 0 ? err : "");
	return 0;
}

/* ---- action kinds: one parse function each (the table is below) ------- */

/* submit_job's "nodes" (a number, or "idle": needs a "partition") and
 * "expect". */
static int cl_submit_nodes_expect(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	json_t *nodes = json_object_get(obj, "nodes");
	if (json_is_string(nodes) && strcmp(json_string_value(nodes), "idle") == 0) {
		a->nodes_idle = true;
		if (!a->partition)
			return cl_fail(l, where, "\"nodes\": \"idle\" needs a \"partition\"");
	} else if (nodes && !json_is_integer(nodes)) {
		return cl_fail(l, where, "\"nodes\" must be a whole number or \"idle\"");
	} else if (cl_uint(l, where, obj, "nodes", 1, 1, 100000, &a->nodes) < 0) {
		return -1;
	}
	const char *expect = NULL;
	if (cl_str_ne(l, where, obj, "expect", false, &expect) < 0)
		return -1;
	if (!expect || strcmp(expect, "accepted") == 0)
		a->expect = OC_EXPECT_ACCEPTED;
	else if (strcmp(expect, "refused") == 0)
		a->expect = OC_EXPECT_REFUSED;
	else if (strcmp(expect, "any") == 0)
		a->expect = OC_EXPECT_ANY;
	else
		return cl_fail(l, where, "\"expect\" must be \"accepted\", \"refused\" or \"any\" (got \"%s\")", expect);
	return 0;
}

static int cl_act_submit_job(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	if (cl_name_field(l, where, obj, "label", true, OC_LABEL_MAX + 1, &a->label) < 0 ||
	    cl_name_field(l, where, obj, "user", true, 64, &a->user) < 0 ||
	    cl_name_field(l, where, obj, "account", false, 64, &a->account) < 0 ||
	    cl_name_field(l, where, obj, "partition", false, 64, &a->partition) < 0 ||
	    cl_name_field(l, where, obj, "qos", false, 64, &a->qos) < 0 ||
	    cl_name_field(l, where, obj, "name", false, 64, &a->name) < 0 ||
	    cl_name_field(l, where, obj, "signal", false, 32, &a->signal_opt) < 0 ||
	    cl_str_ne(l, where, obj, "command", false, &a->command) < 0 ||
	    cl_uint(l, where, obj, "gpus_per_node", 0, 0, 1024, &a->gpus_per_node) < 0 ||
	    cl_uint(l, where, obj, "time", 10, 1, 60 * 24 * 365, &a->time_min) < 0 ||
	    cl_bool(l, where, obj, "requeue", false, &a->requeue) < 0 ||
	    cl_bool(l, where, obj, "hold", false, &a->hold) < 0)
		return -1;
	if (a->command && strlen(a->command) >= 256)
		return cl_fail(l, where, "\"command\" must be shorter than 256 characters");
	if (cl_submit_nodes_expect(l, where, obj, a) < 0)
		return -1;
	if (cl_name_field(l, where, obj, "on_nodes_of", false, OC_LABEL_MAX + 1, &a->nodes_of) < 0 ||
	    (a->nodes_of && cl_label_ref(l, where, a->nodes_of) < 0))
		return -1;
	if (!a->name) {
		char nm[64];
		snprintf(nm, sizeof(nm), "oc-rehearsal-%s", l->step->id);
		a->name = oc_arena_strdup(&l->cl->arena, nm);
	}
	if (!a->command)
		a->command = "sleep 600";
	return cl_label_new(l, where, a->label);
}

static int cl_act_cancel_job(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	if (cl_name_field(l, where, obj, "job", true, OC_LABEL_MAX + 1, &a->label) < 0 ||
	    cl_label_ref(l, where, a->label) < 0)
		return -1;
	return 0;
}

static int cl_act_signal_job(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	const char *sig;
	if (cl_act_cancel_job(l, where, obj, a) < 0 || cl_str_ne(l, where, obj, "signal", true, &sig) < 0)
		return -1;
	a->signo = cl_signal(sig, &a->signame);
	if (!a->signo)
		return cl_fail(l, where, "unknown signal \"%s\" (known: USR1, USR2, TERM, INT, HUP, KILL, CONT, STOP)", sig);
	return 0;
}

static int cl_act_resume(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	return cl_hostlist_field(l, where, obj, "nodes", true, &a->hostlist);
}

static int cl_act_reboot(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	const char *next = NULL;
	if (cl_act_resume(l, where, obj, a) < 0 || cl_bool(l, where, obj, "asap", true, &a->asap) < 0 ||
	    cl_str_ne(l, where, obj, "next_state", false, &next) < 0 ||
	    cl_str_ne(l, where, obj, "reason", false, &a->reason) < 0)
		return -1;
	if (!next || strcasecmp(next, "resume") == 0)
		a->next_state = OC_REBOOT_NEXT_RESUME;
	else if (strcasecmp(next, "down") == 0)
		a->next_state = OC_REBOOT_NEXT_DOWN;
	else if (strcasecmp(next, "as_before") == 0)
		a->next_state = OC_REBOOT_NEXT_AS_BEFORE;
	else
		return cl_fail(l, where, "\"next_state\" is resume, down or as_before, not \"%s\"", next);
	if (!a->reason) {
		char r[128];
		snprintf(r, sizeof(r), "reboot %s", l->step->id);
		a->reason = oc_arena_strdup(&l->cl->arena, r);
	}
	return 0;
}

static int cl_act_end_reservation(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	return cl_name_field(l, where, obj, "name", true, 128, &a->resv_name);
}

static int cl_act_drain(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	if (cl_act_resume(l, where, obj, a) < 0 || cl_str_ne(l, where, obj, "reason", false, &a->reason) < 0 ||
	    cl_bool(l, where, obj, "undo", false, &a->undo) < 0)
		return -1;
	if (!a->reason) {
		char r[128];
		snprintf(r, sizeof(r), "rehearsal %s", l->step->id);
		a->reason = oc_arena_strdup(&l->cl->arena, r);
	}
	return 0;
}

static int cl_act_reservation(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	double dur;
	if (cl_name_field(l, where, obj, "name", false, 128, &a->resv_name) < 0 ||
	    cl_hostlist_field(l, where, obj, "nodes", true, &a->hostlist) < 0 ||
	    cl_name_field(l, where, obj, "users", false, 256, &a->resv_users) < 0 ||
	    cl_name_field(l, where, obj, "accounts", false, 256, &a->resv_accounts) < 0 ||
	    cl_name_field(l, where, obj, "flags", false, 256, &a->resv_flags) < 0 ||
	    cl_num(l, where, obj, "duration", 60, -1, 60.0 * 24 * 365, &dur) < 0 ||
	    cl_bool(l, where, obj, "keep", false, &a->keep) < 0)
		return -1;
	if (dur != -1 && dur < 1)
		return cl_fail(l, where, "\"duration\" is minutes (1 or more), or -1 for infinite");
	a->duration_min = (long)dur;
	if (!a->resv_users && !a->resv_accounts)
		a->resv_users = "root";
	if (!a->resv_flags)
		a->resv_flags = "MAINT,IGNORE_JOBS";
	return 0;
}

static int cl_act_record_jobs(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	if (cl_name_field(l, where, obj, "label", true, OC_LABEL_MAX + 1, &a->label) < 0 ||
	    cl_str_ne(l, where, obj, "state", false, &a->state_filter) < 0)
		return -1;
	if (!a->state_filter)
		a->state_filter = "RUNNING";
	if (!cl_job_state(a->state_filter))
		return cl_fail(l, where, "unknown job state \"%s\"", a->state_filter);
	return cl_label_new(l, where, a->label);
}

/* The keys every action takes besides its own (cl_action reads them). */
#define CL_ACTION_KEYS(...) CL_KEYS(__VA_ARGS__, "after_operator", "confirm", "wait_for", "wait_timeout")

const struct oc_step_action_kind_def oc_step_action_kinds[OC_SA_KIND_COUNT] = {
	[OC_SA_SUBMIT_JOB] = {"submit_job",
			      CL_ACTION_KEYS("label", "user", "account", "partition", "qos", "name", "nodes",
					     "on_nodes_of", "gpus_per_node", "time", "signal", "command", "requeue", "hold",
					     "expect"),
			      cl_act_submit_job, oc_run_submit_job, .writes = true},
	[OC_SA_SIGNAL_JOB] = {"signal_job", CL_ACTION_KEYS("job", "signal"), cl_act_signal_job, oc_run_signal_job,
			      .writes = true},
	[OC_SA_CANCEL_JOB] = {"cancel_job", CL_ACTION_KEYS("job"), cl_act_cancel_job, oc_run_cancel_job,
			      .writes = true},
	[OC_SA_DRAIN] = {"drain", CL_ACTION_KEYS("nodes", "reason", "undo"), cl_act_drain, oc_run_drain,
			 .confirm = true, .writes = true},
	[OC_SA_RESUME] = {"resume", CL_ACTION_KEYS("nodes"), cl_act_resume, oc_run_resume, .confirm = true,
			  .writes = true},
	[OC_SA_RESERVATION] = {"reservation",
			       CL_ACTION_KEYS("name", "nodes", "users", "accounts", "flags", "duration", "keep"),
			       cl_act_reservation, oc_run_reservation, .confirm = true, .writes = true},
	/* Reads the snapshot only: runs without a writer too. */
	[OC_SA_RECORD_JOBS] = {"record_jobs", CL_ACTION_KEYS("label", "state"), cl_act_record_jobs,
			       oc_run_record_jobs, .confirm = false, .writes = false},
	[OC_SA_REBOOT] = {"reboot", CL_ACTION_KEYS("nodes", "asap", "next_state", "reason"), cl_act_reboot,
			  oc_run_reboot, .confirm = true, .writes = true},
	[OC_SA_END_RESERVATION] = {"end_reservation", CL_ACTION_KEYS("name"), cl_act_end_reservation,
				   oc_run_end_reservation, .confirm = true, .writes = true},
};

/* Parses one action object into *a: what every action has, then its
 * kind's parse function, then its wait_for (which may name the label it
 * just defined). Returns 0 or -1. */
static int cl_action(struct cl_load *l, const char *where, json_t *obj, struct oc_step_action *a)
{
	memset(a, 0, sizeof(*a));
	char w[256];
	int kind = cl_kind(l, where, obj, "an action", "action", cl_action_kind_at, OC_SA_KIND_COUNT, w, sizeof(w));
	if (kind < 0)
		return -1;
	const struct oc_step_action_kind_def *d = &oc_step_action_kinds[kind];
	a->kind = (enum oc_step_action_kind)kind;
	where = w;
	if (cl_keys(l, where, obj, true, d->keys) < 0 ||
	    cl_bool(l, where, obj, "after_operator", false, &a->after_operator) < 0 ||
	    cl_bool(l, where, obj, "confirm", d->confirm, &a->confirm) < 0 ||
	    cl_num(l, where, obj, "wait_timeout", l->step->timeout_s, 1, CL_TIMEOUT_MAX, &a->wait_timeout_s) < 0 ||
	    d->parse(l, where, obj, a) < 0)
		return -1;
	json_t *wf = json_object_get(obj, "wait_for");
	if (wf) {
		char ww[300];
		cl_where(ww, sizeof(ww), "%s: wait_for", where);
		struct oc_check *c = oc_arena_alloc(&l->cl->arena, sizeof(*c));
		if (!c)
			return cl_fail(l, where, "out of memory");
		if (cl_check(l, ww, wf, c) < 0)
			return -1;
		a->wait_for = c;
	}
	return 0;
}

/* A step id: 1 to OC_STEP_ID_MAX of [a-z0-9._-], starting with a letter or digit. */
static bool cl_id_ok(const char *id)
{
	size_t n = strlen(id);
	if (n == 0 || n > OC_STEP_ID_MAX || !isalnum((unsigned char)id[0]))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)id[i];
		if (!(islower(ch) || isdigit(ch) || ch == '.' || ch == '_' || ch == '-'))
			return false;
	}
	return true;
}

/* The step's "actions" (acts: NULL when it has none) into st, in order:
 * once one is "after_operator", the rest are; an "auto" step has none that
 * waits for or asks the operator. Returns 0 or -1. */
static int cl_actions(struct cl_load *l, const char *where, json_t *acts, struct oc_step *st)
{
	if (!acts)
		return 0;
	if (!json_is_array(acts))
		return cl_fail(l, where, "\"actions\" must be a list of actions");
	if (json_array_size(acts) > CL_MAX_ACTIONS)
		return cl_fail(l, where, "more than %d actions", CL_MAX_ACTIONS);
	st->nactions = json_array_size(acts);
	if (st->nactions) {
		st->actions = oc_arena_alloc(&l->cl->arena, st->nactions * sizeof(*st->actions));
		if (!st->actions)
			return cl_fail(l, where, "out of memory");
	}
	bool after = false;
	for (size_t i = 0; i < st->nactions; i++) {
		char w[160];
		cl_where(w, sizeof(w), "%s: actions[%zu]", where, i);
		if (cl_action(l, w, json_array_get(acts, i), &st->actions[i]) < 0)
			return -1;
		struct oc_step_action *a = &st->actions[i];
		if (a->confirm)
			st->needs_confirm = true;
		if (after && !a->after_operator)
			return cl_fail(l, w, "comes after an \"after_operator\" action: it must be one too");
		after = a->after_operator;
		if (st->automatic && a->after_operator)
			return cl_fail(l, w, "an \"auto\" step has no operator: \"after_operator\" cannot be used");
		if (st->automatic && a->confirm)
			return cl_fail(l, w, "an \"auto\" step runs unattended, but this %s action asks for "
					     "confirmation: set \"confirm\": false on it, or make the step manual",
				       oc_step_action_kinds[a->kind].name);
	}
	return 0;
}

/* "not_on": {"pcs": "why"}: the platforms (core/platform.h) where the
 * step cannot be done, each with the reason it is skipped there. */
static int cl_not_on(struct cl_load *l, const char *where, json_t *obj, struct oc_step *st)
{
	json_t *v = json_object_get(obj, "not_on");
	if (!v)
		return 0;
	if (!json_is_object(v) || json_object_size(v) == 0)
		return cl_fail(l, where, "\"not_on\" must be an object of platform: reason (parallelcluster, pcs, onprem)");
	const char *k;
	json_t *reason;
	json_object_foreach(v, k, reason) {
		enum oc_platform p;
		if (oc_platform_parse(k, &p) < 0 || p == OC_PLATFORM_UNKNOWN)
			return cl_fail(l, where, "\"not_on\": unknown platform \"%s\" (known: parallelcluster, pcs, onprem)", k);
		if (!json_is_string(reason) || !*json_string_value(reason))
			return cl_fail(l, where, "\"not_on\": \"%s\" must be the reason (a non-empty string)", k);
		if (cl_subst(l, where, json_string_value(reason), &st->not_on[p]) < 0)
			return -1;
	}
	return 0;
}

static int cl_step(struct cl_load *l, size_t index, json_t *obj, struct oc_step *st)
{
	char where[128];
	snprintf(where, sizeof(where), "steps[%zu]", index);
	if (!json_is_object(obj))
		return cl_fail(l, where, "a step must be an object");
	json_t *idv = json_object_get(obj, "id");
	if (!json_is_string(idv))
		return cl_fail(l, where, idv ? "\"id\" must be a string" : "no \"id\"");
	if (!cl_id_ok(json_string_value(idv)))
		return cl_fail(l, where, "\"id\" must be 1 to %d characters of a-z, 0-9, '.', '_', '-' (got \"%s\")",
			       OC_STEP_ID_MAX, json_string_value(idv));
	st->id = oc_arena_strdup(&l->cl->arena, json_string_value(idv));
	if (!st->id)
		return cl_fail(l, where, "out of memory");
	snprintf(where, sizeof(where), "step \"%s\"", st->id);
	for (size_t i = 0; i < index; i++)
		if (strcmp(l->cl->steps[i].id, st->id) == 0)
			return cl_fail(l, where, "the id is used by steps[%zu] too", i);
	if (cl_keys(l, where, obj, false, step_keys) < 0 ||
	    cl_str_ne(l, where, obj, "title", true, &st->title) < 0 ||
	    cl_str_ne(l, where, obj, "section", false, &st->section) < 0 ||
	    cl_str_ne(l, where, obj, "why", true, &st->why) < 0 ||
	    cl_str_ne(l, where, obj, "runbook", false, &st->runbook) < 0 ||
	    cl_str(l, where, obj, "do", true, NULL, &st->todo) < 0 ||
	    cl_str_ne(l, where, obj, "observe", true, &st->observe) < 0 ||
	    cl_bool(l, where, obj, "auto", false, &st->automatic) < 0 ||
	    cl_num(l, where, obj, "timeout", 30, 1, CL_TIMEOUT_MAX, &st->timeout_s) < 0 ||
	    cl_bool(l, where, obj, "cleanup", true, &st->cleanup) < 0 || cl_not_on(l, where, obj, st) < 0)
		return -1;
	l->step = st;
	l->labels.n = 0;
	json_t *req = json_object_get(obj, "require");
	if (req) {
		char w[160];
		cl_where(w, sizeof(w), "%s: require", where);
		if (cl_check_new(l, w, req, &st->require) < 0)
			return -1;
	}
	if (cl_actions(l, where, json_object_get(obj, "actions"), st) < 0)
		return -1;
	json_t *chk = json_object_get(obj, "check");
	if (chk) {
		char w[160];
		cl_where(w, sizeof(w), "%s: check", where);
		if (cl_check_new(l, w, chk, &st->check) < 0)
			return -1;
	}
	if (st->automatic && !st->check)
		return cl_fail(l, where, "an \"auto\" step needs a \"check\" (nobody is there to judge it)");
	if (cl_template_refs(l, where, st->todo) < 0)
		return -1;
	st->has_operator_phase = !st->automatic;
	return 0;
}

static uint64_t cl_fnv1a(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The file's "vars" (an object of strings) and the caller's variables
 * (each with a name and a value). Returns 0, or -1 with the error set. */
static int cl_load_vars(struct cl_load *l, json_t *root)
{
	json_t *fv = json_object_get(root, "vars");
	if (fv) {
		if (!json_is_object(fv)) {
			cl_fail(l, NULL, "\"vars\" must be an object of strings");
			return -1;
		}
		const char *k;
		json_t *v;
		json_object_foreach(fv, k, v) {
			if (!json_is_string(v)) {
				cl_fail(l, "vars", "\"%s\" must be a string", k);
				return -1;
			}
		}
		l->file_vars = fv;
	}
	for (size_t i = 0; i < l->nvars; i++)
		if (!l->vars[i].name || !l->vars[i].value || !*l->vars[i].name) {
			cl_fail(l, NULL, "a variable without a name or value");
			return -1;
		}
	return 0;
}

/* "version", "checklist", "title" (the name when absent) and
 * "description". Returns 0, or -1 with the error set. */
static int cl_load_header(struct cl_load *l, json_t *root)
{
	struct oc_checklist *cl = l->cl;
	json_t *ver = json_object_get(root, "version");
	if (!ver) {
		cl_fail(l, NULL, "no \"version\" (this console reads version %d)", OC_CHECKLIST_VERSION);
		return -1;
	}
	if (!json_is_integer(ver) || json_integer_value(ver) != OC_CHECKLIST_VERSION) {
		cl_fail(l, NULL, "\"version\" must be %d", OC_CHECKLIST_VERSION);
		return -1;
	}
	if (cl_str_ne(l, NULL, root, "checklist", true, &cl->name) < 0 ||
	    cl_str_ne(l, NULL, root, "title", false, &cl->title) < 0 ||
	    cl_str_ne(l, NULL, root, "description", false, &cl->description) < 0 ||
	    cl_bool(l, NULL, root, "stop_on_failure", false, &cl->stop_on_failure) < 0)
		return -1;
	if (!cl->title)
		cl->title = cl->name;
	return 0;
}

/* "steps": 1 to CL_MAX_STEPS of them, each checked by cl_step. Returns 0,
 * or -1 with the error set. */
static int cl_load_steps(struct cl_load *l, json_t *root)
{
	struct oc_checklist *cl = l->cl;
	json_t *steps = json_object_get(root, "steps");
	if (!json_is_array(steps) || json_array_size(steps) == 0) {
		cl_fail(l, NULL, steps ? "\"steps\" must be a non-empty list" : "no \"steps\"");
		return -1;
	}
	if (json_array_size(steps) > CL_MAX_STEPS) {
		cl_fail(l, NULL, "more than %d steps", CL_MAX_STEPS);
		return -1;
	}
	cl->nsteps = json_array_size(steps);
	cl->steps = oc_arena_alloc(&cl->arena, cl->nsteps * sizeof(*cl->steps));
	if (!cl->steps) {
		cl_fail(l, NULL, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < cl->nsteps; i++)
		if (cl_step(l, i, json_array_get(steps, i), &cl->steps[i]) < 0)
			return -1;
	return 0;
}

struct oc_checklist *oc_checklist_load(const char *path, const struct oc_checklist_var *vars,
				       size_t nvars, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!path || !*path) {
		oc_seterr(err, errlen, "no checklist path");
		return NULL;
	}
	char *text = NULL;
	size_t textlen = 0;
	if (oc_datafile_read(path, false, &text, &textlen, err, errlen) < 0)
		return NULL;
	struct oc_checklist *cl = calloc(1, sizeof(*cl));
	struct cl_load l = {.path = path, .cl = cl, .err = err, .errlen = errlen, .vars = vars, .nvars = nvars};
	json_error_t jerr;
	json_t *root = NULL;
	if (!cl) {
		oc_seterr(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	cl->digest = cl_fnv1a(text, textlen);
	cl->path = oc_arena_strdup(&cl->arena, path);
	root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		oc_jsonfile_syntax_err(err, errlen, path, jerr.line, jerr.column, jerr.text);
		goto fail;
	}
	if (!json_is_object(root)) {
		cl_fail(&l, NULL, "a checklist must be a JSON object ({ \"checklist\": ..., \"steps\": [...] })");
		goto fail;
	}
	if (cl_keys(&l, NULL, root, false, top_keys) < 0 || cl_load_vars(&l, root) < 0 ||
	    cl_load_header(&l, root) < 0 || cl_load_steps(&l, root) < 0)
		goto fail;
	json_decref(root);
	free(text);
	return cl;
fail:
	json_decref(root);
	free(text);
	oc_checklist_free(&cl);
	return NULL;
}

void oc_checklist_free(struct oc_checklist **cl)
{
	if (!cl || !*cl)
		return;
	oc_arena_release(&(*cl)->arena);
	free(*cl);
	*cl = NULL;
}

long oc_checklist_find(const struct oc_checklist *cl, const char *id)
{
	for (size_t i = 0; cl && id && i < cl->nsteps; i++)
		if (strcmp(cl->steps[i].id, id) == 0)
			return (long)i;
	return -1;
}

const char *oc_check_kind_name(enum oc_check_kind k)
{
	return (unsigned)k < OC_CHECK_KIND_COUNT ? oc_check_kinds[k].name : "?";
}

const char *oc_step_action_kind_name(enum oc_step_action_kind k)
{
	return (unsigned)k < OC_SA_KIND_COUNT ? oc_step_action_kinds[k].name : "?";
}
