/* onboard.c: the onboarding engine (onboard.h): the JSON file
 * (docs/onboarding.md), the checks, the sacctmgr plan with its diff and the
 * comparison after an apply. Pure: no Slurm, no processes; getpwnam_r is
 * the only outside call. jansson objects never leave this file. */
#include "actions/onboard.h"

#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "actions/plan.h"
#include "core/datafiles.h"
#include "core/jsonfile.h"
#include "core/strbuf.h"

/* Job counts, priorities and fair-share values: below Slurm's NO_VAL and
 * INFINITE (0xfffffffe, 0xffffffff). */
#define ONB_COUNT_MAX INT64_C(4294967293)
/* TRES counts (GPUs, CPUs, MB of memory). */
#define ONB_TRES_MAX INT64_C(1000000000000000)
#define ONB_DESC_MAX 256   /* sizeof spec->description */

/* ---- small helpers ------------------------------------------------------ */

/* n, but at most max (the counts of a struct filled by someone else).
 * Returns the smaller. */
static size_t onb_n(size_t n, size_t max)
{
	return n < max ? n : max;
}

/* Whether c is an ASCII letter, digit, or one of _ . - (and upper case when
 * upper). Returns true or false. */
static bool onb_name_char(char c, bool upper)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
	       (upper && c >= 'A' && c <= 'Z');
}

/* Why name is not a name sacctmgr accepts (see oc_onb_name_ok), written
 * into why ("spaces", "upper case", "character '@'", ...). Returns why, or
 * NULL when the name is fine. */
static const char *onb_name_problem(const char *name, bool user, char *why, size_t len)
{
	size_t n = name ? strnlen(name, OC_ONB_NAME_MAX) : 0;

	if (n == 0) {
		snprintf(why, len, "empty");
		return why;
	}
	if (n >= OC_ONB_NAME_MAX) {
		snprintf(why, len, "longer than %d characters", OC_ONB_NAME_MAX - 1);
		return why;
	}
	bool space = false, upper = false;
	int bad = -1;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (onb_name_char(c, user))
			continue;
		if (c == ' ' || c == '\t')
			space = true;
		else if (c >= 'A' && c <= 'Z')
			upper = true;
		else if (bad < 0)
			bad = (unsigned char)c;
	}
	if (space)
		snprintf(why, len, "spaces");
	else if (bad >= 0 && bad > 0x20 && bad < 0x7f)
		snprintf(why, len, "character '%c'", bad);
	else if (bad >= 0)
		snprintf(why, len, "character \\x%02x", (unsigned)bad);
	else if (upper)
		snprintf(why, len, "upper case");
	else if (name[0] == '-')
		snprintf(why, len, "starts with '-'");
	else
		return NULL;
	return why;
}

/* Whether name is fine for sacctmgr (onboard.h). */
bool oc_onb_name_ok(const char *name, bool user)
{
	char why[64];
	return onb_name_problem(name, user, why, sizeof(why)) == NULL;
}

/* A name or text as it may be shown in a message: at most 63 bytes,
 * control characters as '?', "..." when cut. Returns out. */
static const char *onb_echo(const char *s, char *out, size_t len)
{
	size_t o = 0, i = 0;

	if (len == 0)
		return out;
	for (; s && s[i] && i < 63 && o + 1 < len; i++)
		out[o++] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	out[o] = '\0';
	if (s && s[i] && o + 4 < len)
		memcpy(out + o, "...", 4);
	return out;
}

/* The word for a kind of name in messages. Returns a constant. */
static const char *onb_kind_word(bool user, bool qos)
{
	return user ? "user" : qos ? "QoS" : "account";
}

/* Whether name is among the first n of list. Returns true or false. */
static bool onb_in(const char (*list)[OC_ONB_NAME_MAX], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(list[i], name, OC_ONB_NAME_MAX) == 0)
			return true;
	return false;
}

/* The cluster's QoS called name in st, or NULL. */
static const struct oc_onb_qos_state *onb_cluster_qos(const struct oc_onb_state *st, const char *name)
{
	size_t n = onb_n(st->nall_qos, sizeof(st->all_qos) / sizeof(st->all_qos[0]));
	for (size_t i = 0; i < n; i++)
		if (strncmp(st->all_qos[i].name, name, OC_ONB_NAME_MAX) == 0)
			return &st->all_qos[i];
	return NULL;
}

/* A description character as sacctmgr 22.05 stores it: quotes become
 * backquotes, ASCII letters lower case. Returns the character. */
static char onb_desc_char(char c)
{
	if (c == '"' || c == '\'')
		return '`';
	if (c >= 'A' && c <= 'Z')
		return (char)(c - 'A' + 'a');
	return c;
}

/* Whether the description asked for is the one stored (as sacctmgr stores
 * it: onb_desc_char). Returns true or false. */
static bool onb_desc_same(const char *asked, const char *stored)
{
	size_t i = 0;
	for (; i < ONB_DESC_MAX && asked[i] && stored[i]; i++)
		if (onb_desc_char(asked[i]) != onb_desc_char(stored[i]))
			return false;
	return i == ONB_DESC_MAX || (!asked[i] && !stored[i]);
}

/* A limit for a message: "none" for OC_ONB_NONE, "no limit" for
 * OC_ONB_UNLIMITED, else the number with suffix. Returns out. */
static const char *onb_limit_str(int64_t v, const char *suffix, char *out, size_t len)
{
	if (v == OC_ONB_NONE)
		snprintf(out, len, "none");
	else if (v == OC_ONB_UNLIMITED)
		snprintf(out, len, "no limit");
	else
		snprintf(out, len, "%" PRId64 "%s", v, suffix);
	return out;
}

/* printf into out (len bytes), cut to what fits: for texts that may be
 * cut (a step's "what"). Returns nothing. */
static void onb_fmt(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void onb_fmt(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out, len, fmt, ap);
	va_end(ap);
}

/* Problems collected one per line (err may be NULL with len 0). */
struct onb_errs {
	char *buf;
	size_t len;
	size_t n;
};

/* Appends one problem (a line) to e. Returns nothing. */
static void onb_problem(struct onb_errs *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void onb_problem(struct onb_errs *e, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (e->buf && e->len)
		oc_appendf(e->buf, e->len, "%s%s", e->n ? "\n" : "", line);
	e->n++;
}

/* ---- init --------------------------------------------------------------- */

void oc_onb_spec_init(struct oc_onb_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->gpu_quota = spec->cpu_quota = spec->mem_quota_mb = spec->fairshare = OC_ONB_NONE;
}

void oc_onb_state_init(struct oc_onb_state *st)
{
	memset(st, 0, sizeof(*st));
	st->gpu_quota = st->cpu_quota = st->mem_quota_mb = st->fairshare = OC_ONB_NONE;
}

/* ---- the file ----------------------------------------------------------- */

/* One file being loaded: where errors go. */
struct onb_load {
	const char *path;
	char *err;
	size_t errlen;
};

/* Writes "path: message" into l's err. Returns -1. */
static int onb_fail(const struct onb_load *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int onb_fail(const struct onb_load *l, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	oc_seterr(l->err, l->errlen, "%s: %s", l->path, msg);
	return -1;
}

/* The top-level keys, in the order the unknown-key message lists them. */
static const char *const onb_top_keys[] = {
	"account",   "description", "parent",   "gpu_quota", "cpu_quota",    "mem_quota_mb", "fairshare",
	"qos",       "default_qos", "new_qos",  "users",     "remove_users", "remove_qos",
};
static const char *const onb_qos_keys[] = {"name", "max_jobs_per_user", "max_submit_jobs_per_user",
					   "priority"};
static const char *const onb_user_keys[] = {"name", "allow_missing_os_user"};

/* Whether key is among keys. Returns true or false. */
static bool onb_known(const char *const *keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

/* Says that key is unknown in where ("an onboarding file", "a new_qos
 * entry"), naming the keys it may have. Returns -1. */
static int onb_unknown_key(const struct onb_load *l, const char *field, const char *where,
			   const char *const *keys, size_t n, const char *key)
{
	char known[512] = "", shown[80];
	for (size_t i = 0; i < n; i++)
		oc_appendf(known, sizeof(known), "%s%s", i ? ", " : "", keys[i]);
	return onb_fail(l, "%s%sunknown key \"%s\" (%s has %s)", field, field[0] ? ": " : "",
			onb_echo(key, shown, sizeof(shown)), where, known);
}

/* Copies the string v (field names it) into dst (cap bytes). Refuses what
 * is not a string, holds a NUL or does not fit. Returns 0 or -1. */
static int onb_get_str(const struct onb_load *l, json_t *v, const char *field, char *dst, size_t cap)
{
	if (!json_is_string(v))
		return onb_fail(l, "%s: must be a string", field);
	const char *s = json_string_value(v);
	size_t n = json_string_length(v);
	if (strlen(s) != n)
		return onb_fail(l, "%s: must not contain a NUL character", field);
	if (n >= cap)
		return onb_fail(l, "%s: longer than %zu bytes", field, cap - 1);
	memcpy(dst, s, n + 1);
	return 0;
}

/* Copies the name v into dst (OC_ONB_NAME_MAX bytes) after checking it
 * with onb_name_problem; "" passes when allow_empty. Returns 0 or -1. */
static int onb_get_name(const struct onb_load *l, json_t *v, const char *field, bool user, bool qos,
			bool allow_empty, char *dst)
{
	char why[64], shown[80];

	if (!json_is_string(v))
		return onb_fail(l, "%s: must be a string (a %s name)", field, onb_kind_word(user, qos));
	const char *s = json_string_value(v);
	if (strlen(s) != json_string_length(v))
		return onb_fail(l, "%s: must not contain a NUL character", field);
	if (allow_empty && !s[0]) {
		dst[0] = '\0';
		return 0;
	}
	if (onb_name_problem(s, user, why, sizeof(why)))
		return onb_fail(l, "%s \"%s\": not a valid Slurm %s name (%s)", field,
				onb_echo(s, shown, sizeof(shown)), onb_kind_word(user, qos), why);
	snprintf(dst, OC_ONB_NAME_MAX, "%s", s);
	return 0;
}

/* Reads the whole number v into *dst: min..max, or null (then
 * OC_ONB_UNLIMITED) when allow_null; must says what it must be. Returns 0
 * or -1. */
static int onb_get_int(const struct onb_load *l, json_t *v, const char *field, bool allow_null,
		       int64_t min, int64_t max, const char *must, int64_t *dst)
{
	if (json_is_null(v) && allow_null) {
		*dst = OC_ONB_UNLIMITED;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return onb_fail(l, "%s: must be %s", field, must);
	*dst = (int64_t)json_integer_value(v);
	return 0;
}

/* Checks that v is an array of at most max entries and sets *n. Returns 0
 * or -1. */
static int onb_get_array(const struct onb_load *l, json_t *v, const char *field, size_t max, size_t *n)
{
	if (!json_is_array(v))
		return onb_fail(l, "%s: must be an array", field);
	if (json_array_size(v) > max)
		return onb_fail(l, "%s: too many entries (%zu, at most %zu)", field, json_array_size(v), max);
	*n = json_array_size(v);
	return 0;
}

/* Reads an array of names (field: "qos", "remove_users", ...) into list.
 * Returns 0 or -1. */
static int onb_get_names(const struct onb_load *l, json_t *v, const char *field, bool user, bool qos,
			 char (*list)[OC_ONB_NAME_MAX], size_t max, size_t *n)
{
	size_t count = 0;
	if (onb_get_array(l, v, field, max, &count) < 0)
		return -1;
	for (size_t i = 0; i < count; i++) {
		char f[64];
		snprintf(f, sizeof(f), "%s[%zu]", field, i);
		if (onb_get_name(l, json_array_get(v, i), f, user, qos, false, list[i]) < 0)
			return -1;
	}
	*n = count;
	return 0;
}

/* Reads "users": names or {"name", "allow_missing_os_user"} objects.
 * Returns 0 or -1. */
static int onb_get_users(const struct onb_load *l, json_t *v, struct oc_onb_spec *spec)
{
	size_t count = 0;
	if (onb_get_array(l, v, "users", OC_ONB_MAX_USERS, &count) < 0)
		return -1;
	for (size_t i = 0; i < count; i++) {
		json_t *u = json_array_get(v, i);
		struct oc_onb_user_spec *dst = &spec->users[i];
		char f[64], fk[96];
		snprintf(f, sizeof(f), "users[%zu]", i);
		if (json_is_string(u)) {
			if (onb_get_name(l, u, f, true, false, false, dst->name) < 0)
				return -1;
			continue;
		}
		if (!json_is_object(u))
			return onb_fail(l, "%s: must be a user name or an object {\"name\": ..., "
					   "\"allow_missing_os_user\": true}", f);
		const char *key;
		json_t *kv;
		json_object_foreach(u, key, kv) {
			if (!onb_known(onb_user_keys, 2, key))
				return onb_unknown_key(l, f, "a user entry", onb_user_keys, 2, key);
			snprintf(fk, sizeof(fk), "%s.%s", f, key);
			if (strcmp(key, "name") == 0) {
				if (onb_get_name(l, kv, fk, true, false, false, dst->name) < 0)
					return -1;
			} else if (!json_is_boolean(kv)) {
				return onb_fail(l, "%s: must be true or false", fk);
			} else {
				dst->allow_missing_os_user = json_is_true(kv);
			}
		}
		if (!dst->name[0])
			return onb_fail(l, "%s: no \"name\"", f);
	}
	spec->nusers = count;
	return 0;
}

/* Reads "new_qos": objects {"name", "max_jobs_per_user",
 * "max_submit_jobs_per_user", "priority"}. Returns 0 or -1. */
static int onb_get_new_qos(const struct onb_load *l, json_t *v, struct oc_onb_spec *spec)
{
	size_t count = 0;
	if (onb_get_array(l, v, "new_qos", OC_ONB_MAX_QOS, &count) < 0)
		return -1;
	for (size_t i = 0; i < count; i++) {
		json_t *q = json_array_get(v, i);
		struct oc_onb_qos_spec *dst = &spec->new_qos[i];
		char f[64], fk[96];
		snprintf(f, sizeof(f), "new_qos[%zu]", i);
		dst->max_jobs_pu = dst->max_submit_pu = dst->priority = OC_ONB_NONE;
		if (!json_is_object(q))
			return onb_fail(l, "%s: must be an object {\"name\": ..., \"max_jobs_per_user\": ...}", f);
		const char *key;
		json_t *kv;
		json_object_foreach(q, key, kv) {
			if (!onb_known(onb_qos_keys, 4, key))
				return onb_unknown_key(l, f, "a new_qos entry", onb_qos_keys, 4, key);
			snprintf(fk, sizeof(fk), "%s.%s", f, key);
			int rc;
			if (strcmp(key, "name") == 0)
				rc = onb_get_name(l, kv, fk, false, true, false, dst->name);
			else if (strcmp(key, "priority") == 0)
				rc = onb_get_int(l, kv, fk, false, 0, ONB_COUNT_MAX, "a whole number, 0 or more",
						 &dst->priority);
			else
				rc = onb_get_int(l, kv, fk, true, 0, ONB_COUNT_MAX,
						 "a whole number, 0 or more (or null: no limit)",
						 strcmp(key, "max_jobs_per_user") == 0 ? &dst->max_jobs_pu
										     : &dst->max_submit_pu);
			if (rc < 0)
				return -1;
		}
		if (!dst->name[0])
			return onb_fail(l, "%s: no \"name\"", f);
	}
	spec->nnew_qos = count;
	return 0;
}

/* Reads one top-level key of the file into spec. Returns 0 or -1. */
static int onb_get_key(const struct onb_load *l, const char *key, json_t *v, struct oc_onb_spec *spec)
{
	static const char quota_must[] = "a positive whole number (or null: no limit)";

	if (strcmp(key, "account") == 0)
		return onb_get_name(l, v, key, false, false, false, spec->account);
	if (strcmp(key, "description") == 0)
		return onb_get_str(l, v, key, spec->description, sizeof(spec->description));
	if (strcmp(key, "parent") == 0)
		return onb_get_name(l, v, key, false, false, true, spec->parent);
	if (strcmp(key, "gpu_quota") == 0)
		return onb_get_int(l, v, key, true, 1, ONB_TRES_MAX, quota_must, &spec->gpu_quota);
	if (strcmp(key, "cpu_quota") == 0)
		return onb_get_int(l, v, key, true, 1, ONB_TRES_MAX, quota_must, &spec->cpu_quota);
	if (strcmp(key, "mem_quota_mb") == 0)
		return onb_get_int(l, v, key, true, 1, ONB_TRES_MAX, quota_must, &spec->mem_quota_mb);
	if (strcmp(key, "fairshare") == 0)
		return onb_get_int(l, v, key, false, 1, ONB_COUNT_MAX, "a positive whole number",
				   &spec->fairshare);
	if (strcmp(key, "qos") == 0)
		return onb_get_names(l, v, key, false, true, spec->qos, OC_ONB_MAX_QOS, &spec->nqos);
	if (strcmp(key, "default_qos") == 0)
		return onb_get_name(l, v, key, false, true, true, spec->default_qos);
	if (strcmp(key, "new_qos") == 0)
		return onb_get_new_qos(l, v, spec);
	if (strcmp(key, "users") == 0)
		return onb_get_users(l, v, spec);
	if (strcmp(key, "remove_users") == 0)
		return onb_get_names(l, v, key, true, false, spec->remove_users, OC_ONB_MAX_USERS,
				     &spec->nremove_users);
	return onb_get_names(l, v, key, false, true, spec->remove_qos, OC_ONB_MAX_QOS, &spec->nremove_qos);
}

/* Parses the document root into spec. Returns 0 or -1. */
static int onb_parse(const struct onb_load *l, json_t *root, struct oc_onb_spec *spec)
{
	const size_t ntop = sizeof(onb_top_keys) / sizeof(onb_top_keys[0]);
	const char *key;
	json_t *v;

	if (!json_is_object(root))
		return onb_fail(l, "an onboarding file must be a JSON object");
	json_object_foreach(root, key, v) {
		if (!onb_known(onb_top_keys, ntop, key))
			return onb_unknown_key(l, "", "an onboarding file", onb_top_keys, ntop, key);
		if (onb_get_key(l, key, v, spec) < 0)
			return -1;
	}
	if (!spec->account[0])
		return onb_fail(l, "no \"account\"");
	return 0;
}

/* Loads the file at path into spec (onboard.h). The file is read with
 * oc_datafile_read (regular files only, at most 1 MB) and parsed with
 * json_loadb, duplicate keys refused. */
int oc_onb_spec_load(const char *path, struct oc_onb_spec *spec, char *err, size_t errlen)
{
	const struct onb_load l = {path ? path : "(null)", err, errlen};
	char *text = NULL;
	size_t textlen = 0;
	json_error_t jerr;

	oc_onb_spec_init(spec);
	if (!path) {
		oc_seterr(err, errlen, "no onboarding file given");
		return -1;
	}
	if (oc_datafile_read(path, false, &text, &textlen, err, errlen) < 0)
		return -1;
	json_t *root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root) {
		oc_jsonfile_syntax_err(err, errlen, path, jerr.line, jerr.column, jerr.text);
		return -1;
	}
	int rc = onb_parse(&l, root, spec);
	json_decref(root);
	if (rc < 0)
		oc_onb_spec_init(spec);
	return rc;
}

/* ---- checks ------------------------------------------------------------- */

/* Checks one name (field as "users[2]"), adding a problem when bad.
 * Returns true when it is fine. */
static bool onb_check_name(struct onb_errs *e, const char *field, const char *name, bool user, bool qos)
{
	char why[64], shown[80];
	if (!onb_name_problem(name, user, why, sizeof(why)))
		return true;
	onb_problem(e, "%s \"%s\": not a valid Slurm %s name (%s)", field, onb_echo(name, shown, sizeof(shown)),
		    onb_kind_word(user, qos), why);
	return false;
}

/* Checks a quota (field "gpu_quota"): OC_ONB_NONE, OC_ONB_UNLIMITED or
 * 1..ONB_TRES_MAX. Returns nothing. */
static void onb_check_quota(struct onb_errs *e, const char *field, int64_t v)
{
	if (v != OC_ONB_NONE && v != OC_ONB_UNLIMITED && (v < 1 || v > ONB_TRES_MAX))
		onb_problem(e, "%s: must be a positive number (or no limit), not %" PRId64, field, v);
}

/* Checks a QoS limit of new_qos[i]: OC_ONB_NONE, OC_ONB_UNLIMITED when
 * unlimited_ok, or 0..ONB_COUNT_MAX. Returns nothing. */
static void onb_check_qos_limit(struct onb_errs *e, size_t i, const char *name, const char *key, int64_t v,
				bool unlimited_ok)
{
	if (v == OC_ONB_NONE || (unlimited_ok && v == OC_ONB_UNLIMITED) || (v >= 0 && v <= ONB_COUNT_MAX))
		return;
	onb_problem(e, "new_qos[%zu] %s: %s must be 0 or more%s, not %" PRId64, i, name, key,
		    unlimited_ok ? " (or no limit)" : "", v);
}

/* Checks a list of names: each valid, none twice. Returns nothing. */
static void onb_check_names(struct onb_errs *e, const char *field, const char (*list)[OC_ONB_NAME_MAX],
			    size_t n, bool user, bool qos)
{
	for (size_t i = 0; i < n; i++) {
		char f[64];
		snprintf(f, sizeof(f), "%s[%zu]", field, i);
		if (onb_check_name(e, f, list[i], user, qos) && onb_in(list, i, list[i]))
			onb_problem(e, "%s %s: listed twice", f, list[i]);
	}
}

/* Whether user name is in the OS user database (getpwnam_r: files, LDAP,
 * SSSD). Returns 1 when it is, 0 when not, -1 when the lookup failed
 * (errno-like code in *code). */
static int onb_os_user(const char *name, int *code)
{
	long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t size = hint > 0 ? (size_t)hint : 16384;
	for (int tries = 0; tries < 6; tries++, size *= 4) {
		char *buf = malloc(size);
		if (!buf) {
			*code = ENOMEM;
			return -1;
		}
		struct passwd pw, *res = NULL;
		int rc = getpwnam_r(name, &pw, buf, size, &res);
		free(buf);
		if (rc == ERANGE)
			continue;
		if (rc == 0)
			return res ? 1 : 0;
		/* What some libcs return for "no such user" (getpwnam_r(3)). */
		if (rc == ENOENT || rc == ESRCH || rc == EBADF || rc == EPERM)
			return 0;
		*code = rc;
		return -1;
	}
	*code = ERANGE;
	return -1;
}

/* The account, its parent and its description. Returns nothing. */
static void onb_check_account(struct onb_errs *e, const struct oc_onb_spec *spec)
{
	if (onb_check_name(e, "account", spec->account, false, false) && strcmp(spec->account, "root") == 0)
		onb_problem(e, "account root: the root account holds every team; it is not onboarded");
	if (spec->parent[0] && onb_check_name(e, "parent", spec->parent, false, false) &&
	    strncmp(spec->parent, spec->account, OC_ONB_NAME_MAX) == 0)
		onb_problem(e, "parent %s: an account cannot be its own parent", spec->parent);

	size_t dlen = strnlen(spec->description, sizeof(spec->description));
	if (dlen == sizeof(spec->description))
		onb_problem(e, "description: longer than %zu bytes", sizeof(spec->description) - 1);
	for (size_t i = 0; i < dlen; i++)
		if ((unsigned char)spec->description[i] < 0x20 || spec->description[i] == 0x7f) {
			onb_problem(e, "description: control characters (tabs, new lines) are not allowed");
			break;
		}
	if (spec->description[0] == '"' || spec->description[0] == '\'')
		onb_problem(e, "description: must not start with a quote (sacctmgr keeps only the quoted part)");
}

/* The first nnew new_qos entries: names valid and not twice, limits in
 * range. Returns nothing. */
static void onb_check_new_qos(struct onb_errs *e, const struct oc_onb_spec *spec, size_t nnew)
{
	for (size_t i = 0; i < nnew; i++) {
		const struct oc_onb_qos_spec *q = &spec->new_qos[i];
		char f[64];
		snprintf(f, sizeof(f), "new_qos[%zu]", i);
		if (!onb_check_name(e, f, q->name, false, true))
			continue;
		for (size_t j = 0; j < i; j++)
			if (strncmp(spec->new_qos[j].name, q->name, OC_ONB_NAME_MAX) == 0) {
				onb_problem(e, "%s %s: listed twice", f, q->name);
				break;
			}
		onb_check_qos_limit(e, i, q->name, "max_jobs_per_user", q->max_jobs_pu, true);
		onb_check_qos_limit(e, i, q->name, "max_submit_jobs_per_user", q->max_submit_pu, true);
		onb_check_qos_limit(e, i, q->name, "priority", q->priority, false);
	}
}

/* The first nusers users: names valid, not twice, not also removed, and
 * known to the OS unless allow_missing_os_user. Returns nothing. */
static void onb_check_users(struct onb_errs *e, const struct oc_onb_spec *spec, size_t nusers, size_t nrmu)
{
	for (size_t i = 0; i < nusers; i++) {
		const char *name = spec->users[i].name;
		char f[64];
		snprintf(f, sizeof(f), "users[%zu]", i);
		if (!onb_check_name(e, f, name, true, false))
			continue;
		bool twice = false;
		for (size_t j = 0; j < i && !twice; j++)
			twice = strncmp(spec->users[j].name, name, OC_ONB_NAME_MAX) == 0;
		if (twice) {
			onb_problem(e, "%s %s: listed twice", f, name);
			continue;
		}
		if (onb_in(spec->remove_users, nrmu, name))
			onb_problem(e, "user %s is both in users and remove_users", name);
		if (spec->users[i].allow_missing_os_user)
			continue;
		int code = 0;
		int rc = onb_os_user(name, &code);
		if (rc == 0)
			onb_problem(e, "user %s does not exist in the OS user database (getpwnam; create it first "
				       "or set allow_missing_os_user)", name);
		else if (rc < 0)
			onb_problem(e, "user %s: the OS user database cannot be read: %s", name, strerror(code));
	}
}

/* The checks of the spec on its own. Returns nothing (problems in e). */
static void onb_check_spec(struct onb_errs *e, const struct oc_onb_spec *spec)
{
	size_t nqos = onb_n(spec->nqos, OC_ONB_MAX_QOS), nnew = onb_n(spec->nnew_qos, OC_ONB_MAX_QOS);
	size_t nusers = onb_n(spec->nusers, OC_ONB_MAX_USERS);
	size_t nrmu = onb_n(spec->nremove_users, OC_ONB_MAX_USERS);
	size_t nrmq = onb_n(spec->nremove_qos, OC_ONB_MAX_QOS);

	onb_check_account(e, spec);

	onb_check_quota(e, "gpu_quota", spec->gpu_quota);
	onb_check_quota(e, "cpu_quota", spec->cpu_quota);
	onb_check_quota(e, "mem_quota_mb", spec->mem_quota_mb);
	if (spec->fairshare != OC_ONB_NONE && (spec->fairshare < 1 || spec->fairshare > ONB_COUNT_MAX))
		onb_problem(e, "fairshare: must be a positive number, not %" PRId64, spec->fairshare);

	if (spec->nqos > OC_ONB_MAX_QOS || spec->nnew_qos > OC_ONB_MAX_QOS || spec->nremove_qos > OC_ONB_MAX_QOS)
		onb_problem(e, "qos, new_qos, remove_qos: at most %d entries each", OC_ONB_MAX_QOS);
	if (spec->nusers > OC_ONB_MAX_USERS || spec->nremove_users > OC_ONB_MAX_USERS)
		onb_problem(e, "users, remove_users: at most %d entries each", OC_ONB_MAX_USERS);

	onb_check_names(e, "qos", spec->qos, nqos, false, true);
	if (spec->default_qos[0] && onb_check_name(e, "default_qos", spec->default_qos, false, true) &&
	    !onb_in(spec->qos, nqos, spec->default_qos))
		onb_problem(e, "default_qos %s is not in qos", spec->default_qos);

	onb_check_new_qos(e, spec, nnew);
	onb_check_users(e, spec, nusers, nrmu);
	onb_check_names(e, "remove_users", spec->remove_users, nrmu, true, false);
	onb_check_names(e, "remove_qos", spec->remove_qos, nrmq, false, true);
	for (size_t i = 0; i < nrmq; i++)
		if (onb_in(spec->qos, nqos, spec->remove_qos[i]) && oc_onb_name_ok(spec->remove_qos[i], false))
			onb_problem(e, "qos %s is both in qos and remove_qos", spec->remove_qos[i]);
}

/* The checks against the cluster's state. Returns nothing. */
static void onb_check_state(struct onb_errs *e, const struct oc_onb_spec *spec, const struct oc_onb_state *st)
{
	size_t nqos = onb_n(spec->nqos, OC_ONB_MAX_QOS), nnew = onb_n(spec->nnew_qos, OC_ONB_MAX_QOS);
	size_t nrmq = onb_n(spec->nremove_qos, OC_ONB_MAX_QOS);

	for (size_t i = 0; i < nqos; i++) {
		const char *q = spec->qos[i];
		if (!oc_onb_name_ok(q, false) || onb_cluster_qos(st, q))
			continue;
		bool in_new = false;
		for (size_t j = 0; j < nnew && !in_new; j++)
			in_new = strncmp(spec->new_qos[j].name, q, OC_ONB_NAME_MAX) == 0;
		if (!in_new)
			onb_problem(e, "qos %s does not exist on the cluster and is not in new_qos", q);
	}
	/* sacctmgr refuses (with exit code 0) to take away the DefaultQOS. */
	if (st->account_exists && st->default_qos[0] && !spec->default_qos[0] &&
	    onb_in(spec->remove_qos, nrmq, st->default_qos))
		onb_problem(e, "remove_qos %s is the DefaultQOS of %s: set default_qos to another QoS",
			    st->default_qos, spec->account);
}

int oc_onb_spec_check(const struct oc_onb_spec *spec, const struct oc_onb_state *state, char *err,
		      size_t errlen)
{
	struct onb_errs e = {err, errlen, 0};

	if (err && errlen)
		err[0] = '\0';
	if (!spec) {
		onb_problem(&e, "no onboarding spec");
		return -1;
	}
	onb_check_spec(&e, spec);
	if (state)
		onb_check_state(&e, spec, state);
	return e.n ? -1 : 0;
}

/* ---- the plan ----------------------------------------------------------- */

/* A plan being built. */
struct onb_build {
	struct oc_onb_plan *p;
	size_t cap_steps, cap_diff;
	bool oom;
};

/* Adds a diff entry. Returns nothing (b->oom on ENOMEM). */
static void onb_diff(struct onb_build *b, enum oc_onb_diff_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void onb_diff(struct onb_build *b, enum oc_onb_diff_kind kind, const char *fmt, ...)
{
	if (b->oom)
		return;
	if (b->p->ndiff == b->cap_diff) {
		size_t cap = b->cap_diff ? b->cap_diff * 2 : 16;
		struct oc_onb_diff *d = realloc(b->p->diff, cap * sizeof(*d));
		if (!d) {
			b->oom = true;
			return;
		}
		b->p->diff = d;
		b->cap_diff = cap;
	}
	struct oc_onb_diff *d = &b->p->diff[b->p->ndiff++];
	va_list ap;
	d->kind = kind;
	va_start(ap, fmt);
	vsnprintf(d->text, sizeof(d->text), fmt, ap);
	va_end(ap);
}

/* Appends arg to the display line: "Key=value" as Key= and the quoted
 * value (Description='Team "C"'), anything else quoted whole. Returns
 * nothing. */
static void onb_line_arg(char *line, size_t len, const char *arg)
{
	size_t used = strlen(line);
	const char *eq = strchr(arg, '=');
	size_t klen = 0;

	if (used && used + 1 < len) {
		line[used++] = ' ';
		line[used] = '\0';
	}
	if (eq && eq > arg) {
		klen = (size_t)(eq - arg);
		for (size_t i = 0; i < klen; i++) {
			char c = arg[i];
			bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
			if (!letter && !(i == klen - 1 && i > 0 && (c == '+' || c == '-')))
				klen = 0;
		}
	}
	if (klen && used + klen + 1 < len) {
		memcpy(line + used, arg, klen + 1);
		used += klen + 1;
		line[used] = '\0';
		arg = eq + 1;
	}
	if (used < len)
		oc_plan_quote(arg, line + used, len - used);
}

/* Adds the step "sacctmgr -i ARGS..." (the NULL-terminated strings after
 * what); add marks an "add" that may find the thing already there.
 * Returns nothing (b->oom on ENOMEM). */
static void onb_step(struct onb_build *b, bool add, const char *what, ...) __attribute__((sentinel));
static void onb_step(struct onb_build *b, bool add, const char *what, ...)
{
	const char *args[OC_ONB_MAX_ARGS];
	size_t n = 0;
	va_list ap;

	if (b->oom)
		return;
	args[n++] = "sacctmgr";
	args[n++] = "-i";
	va_start(ap, what);
	for (const char *a; (a = va_arg(ap, const char *)) != NULL;) {
		if (n == OC_ONB_MAX_ARGS) {
			b->oom = true;   /* cannot happen: the steps below have at most 9 */
			break;
		}
		args[n++] = a;
	}
	va_end(ap);
	if (b->oom)
		return;
	if (b->p->nsteps == b->cap_steps) {
		size_t cap = b->cap_steps ? b->cap_steps * 2 : 8;
		struct oc_onb_step *s = realloc(b->p->steps, cap * sizeof(*s));
		if (!s) {
			b->oom = true;
			return;
		}
		b->p->steps = s;
		b->cap_steps = cap;
	}
	struct oc_onb_step *s = &b->p->steps[b->p->nsteps];
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		s->argv[i] = strdup(args[i]);
		if (!s->argv[i]) {
			for (size_t j = 0; j < i; j++)
				free(s->argv[j]);
			b->oom = true;
			return;
		}
		onb_line_arg(s->line, sizeof(s->line), args[i]);
	}
	s->argv[n] = NULL;
	s->add = add;
	snprintf(s->what, sizeof(s->what), "%s", what);
	b->p->nsteps++;
}

/* The steps and diff of new_qos: add what is missing, set limits that
 * differ. Returns nothing. */
static void onb_plan_qos(struct onb_build *b, const struct oc_onb_spec *spec, const struct oc_onb_state *st)
{
	static const char *const keys[3] = {"MaxJobsPerUser", "MaxSubmitJobsPerUser", "Priority"};

	for (size_t i = 0; i < onb_n(spec->nnew_qos, OC_ONB_MAX_QOS); i++) {
		const struct oc_onb_qos_spec *q = &spec->new_qos[i];
		const struct oc_onb_qos_state *cur = onb_cluster_qos(st, q->name);
		const int64_t want[3] = {q->max_jobs_pu, q->max_submit_pu, q->priority};
		const int64_t have[3] = {cur ? cur->max_jobs_pu : OC_ONB_NONE, cur ? cur->max_submit_pu : OC_ONB_NONE,
					 cur ? cur->priority : OC_ONB_NONE};
		char set[3][64], name_arg[OC_ONB_NAME_MAX + 8], what[256], shown[256] = "";
		const char *sets[3] = {NULL, NULL, NULL};
		size_t nset = 0;

		snprintf(name_arg, sizeof(name_arg), "Name=%s", q->name);
		if (!cur) {
			onb_fmt(what, sizeof(what), "add qos %s", q->name);
			onb_step(b, true, what, "add", "qos", name_arg, (const char *)NULL);
			onb_diff(b, OC_ONB_NEW, "qos %s: new QoS", q->name);
		}
		for (int k = 0; k < 3; k++) {
			if (want[k] == OC_ONB_NONE)
				continue;
			int64_t target = want[k] == OC_ONB_UNLIMITED ? OC_ONB_NONE : want[k];
			if (cur && have[k] == target)
				continue;
			if (!cur && target == OC_ONB_NONE)
				continue;   /* a new QoS has no limit to remove */
			snprintf(set[nset], sizeof(set[nset]), "%s=%" PRId64, keys[k], want[k]);
			sets[nset] = set[nset];
			oc_appendf(shown, sizeof(shown), "%s%s", nset ? " " : "", set[nset]);
			nset++;
			if (cur) {
				char a[32], c[32];
				onb_diff(b, OC_ONB_CHANGE, "qos %s %s: %s -> %s", q->name, keys[k],
					 onb_limit_str(have[k], "", a, sizeof(a)),
					 onb_limit_str(want[k], "", c, sizeof(c)));
			}
		}
		if (nset) {
			/* sets[] past nset are NULL: they end the argument list. */
			onb_fmt(what, sizeof(what), "set limits of qos %s: %s", q->name, shown);
			onb_step(b, false, what, "modify", "qos", "where", name_arg, "set", sets[0], sets[1], sets[2],
				 (const char *)NULL);
			if (!cur)
				onb_diff(b, OC_ONB_NEW, "qos %s limits: %s", q->name, shown);
		} else if (cur) {
			onb_diff(b, OC_ONB_SAME, "qos %s: already there with these limits, left alone", q->name);
		}
	}
}

/* The GrpTRES step and diff: cpu, mem, gres/gpu in one "GrpTRES=..."
 * with what differs; -1 removes a limit. Returns nothing. */
static void onb_plan_tres(struct onb_build *b, const struct oc_onb_spec *spec, const struct oc_onb_state *st,
			  const char *where)
{
	static const char *const names[3] = {"cpu", "mem", "gres/gpu"};
	static const char *const suffix[3] = {"", "M", ""};
	const int64_t want[3] = {spec->cpu_quota, spec->mem_quota_mb, spec->gpu_quota};
	const int64_t have[3] = {st->account_exists ? st->cpu_quota : OC_ONB_NONE,
				 st->account_exists ? st->mem_quota_mb : OC_ONB_NONE,
				 st->account_exists ? st->gpu_quota : OC_ONB_NONE};
	char tres[256] = "GrpTRES=", what[256];
	size_t nparts = 0;

	for (int k = 0; k < 3; k++) {
		char a[32], c[32];
		if (want[k] == OC_ONB_NONE)
			continue;
		if (want[k] == OC_ONB_UNLIMITED) {
			if (have[k] == OC_ONB_NONE) {
				if (st->account_exists)
					onb_diff(b, OC_ONB_SAME, "GrpTRES %s: no limit, as asked", names[k]);
				continue;
			}
			oc_appendf(tres, sizeof(tres), "%s%s=-1", nparts++ ? "," : "", names[k]);
			onb_diff(b, OC_ONB_REMOVE, "GrpTRES %s: %s -> no limit", names[k],
				 onb_limit_str(have[k], suffix[k], a, sizeof(a)));
			continue;
		}
		if (have[k] == want[k]) {
			onb_diff(b, OC_ONB_SAME, "GrpTRES %s=%" PRId64 "%s: already there", names[k], want[k],
				 suffix[k]);
			continue;
		}
		oc_appendf(tres, sizeof(tres), "%s%s=%" PRId64 "%s", nparts++ ? "," : "", names[k], want[k],
			   suffix[k]);
		if (!st->account_exists)
			onb_diff(b, OC_ONB_NEW, "GrpTRES %s=%" PRId64 "%s", names[k], want[k], suffix[k]);
		else
			onb_diff(b, OC_ONB_CHANGE, "GrpTRES %s: %s -> %s", names[k],
				 have[k] == OC_ONB_NONE ? "no limit" : onb_limit_str(have[k], suffix[k], a, sizeof(a)),
				 onb_limit_str(want[k], suffix[k], c, sizeof(c)));
	}
	if (nparts) {
		onb_fmt(what, sizeof(what), "set GrpTRES %s", tres + strlen("GrpTRES="));
		onb_step(b, false, what, "modify", "account", "where", where, "set", tres, (const char *)NULL);
	}
}

/* The account row itself: add it (under parent, default root), or fix the
 * description and parent of the one there. Returns nothing. */
static void onb_plan_account_row(struct onb_build *b, const struct oc_onb_spec *spec,
				 const struct oc_onb_state *st, const char *where)
{
	const char *acct = spec->account;
	char arg[ONB_DESC_MAX + 32], arg2[OC_ONB_NAME_MAX + 16], what[256];
	char shown[80];

	if (!st->account_exists) {
		const char *desc = spec->description[0] ? spec->description : acct;
		const char *parent = spec->parent[0] ? spec->parent : "root";
		snprintf(arg, sizeof(arg), "Description=%s", desc);
		snprintf(arg2, sizeof(arg2), "Parent=%s", parent);
		onb_fmt(what, sizeof(what), "add account %s", acct);
		onb_step(b, true, what, "add", "account", where, arg, arg2, (const char *)NULL);
		onb_diff(b, OC_ONB_NEW, "account %s: new, under %s, description \"%s\"", acct, parent,
			 onb_echo(desc, shown, sizeof(shown)));
		return;
	}
	onb_diff(b, OC_ONB_SAME, "account %s: already there", acct);
	/* No description asked: the stored one stays, and the preview says
	 * which it is (the form does not show it). */
	if (!spec->description[0] && st->description[0])
		onb_diff(b, OC_ONB_SAME, "description \"%s\": kept (none typed)",
			 onb_echo(st->description, shown, sizeof(shown)));
	if (spec->description[0] && !onb_desc_same(spec->description, st->description)) {
		char was[80];
		snprintf(arg, sizeof(arg), "Description=%s", spec->description);
		onb_fmt(what, sizeof(what), "set Description of %s", acct);
		onb_step(b, false, what, "modify", "account", "where", where, "set", arg, (const char *)NULL);
		onb_diff(b, OC_ONB_CHANGE, "description: \"%s\" -> \"%s\"", onb_echo(st->description, was, sizeof(was)),
			 onb_echo(spec->description, shown, sizeof(shown)));
	}
	if (spec->parent[0] && strncmp(spec->parent, st->parent, OC_ONB_NAME_MAX) != 0) {
		snprintf(arg2, sizeof(arg2), "Parent=%s", spec->parent);
		onb_fmt(what, sizeof(what), "move %s under %s", acct, spec->parent);
		onb_step(b, false, what, "modify", "account", "where", where, "set", arg2, (const char *)NULL);
		onb_diff(b, OC_ONB_CHANGE, "parent: %s -> %s", st->parent[0] ? st->parent : "(none)", spec->parent);
	}
}

/* The account's Fairshare, when the spec sets one. Returns nothing. */
static void onb_plan_fairshare(struct onb_build *b, const struct oc_onb_spec *spec, const struct oc_onb_state *st,
			       const char *where)
{
	char arg[ONB_DESC_MAX + 32], what[256];
	if (spec->fairshare == OC_ONB_NONE)
		return;
	int64_t have = st->account_exists ? st->fairshare : OC_ONB_NONE;
	if (have == spec->fairshare) {
		onb_diff(b, OC_ONB_SAME, "Fairshare=%" PRId64 ": already there", have);
		return;
	}
	snprintf(arg, sizeof(arg), "Fairshare=%" PRId64, spec->fairshare);
	onb_fmt(what, sizeof(what), "set Fairshare %" PRId64, spec->fairshare);
	onb_step(b, false, what, "modify", "account", "where", where, "set", arg, (const char *)NULL);
	if (have == OC_ONB_NONE)
		onb_diff(b, OC_ONB_NEW, "Fairshare=%" PRId64, spec->fairshare);
	else
		onb_diff(b, OC_ONB_CHANGE, "Fairshare: %" PRId64 " -> %" PRId64, have, spec->fairshare);
}

/* QoS grants: "qos+=a,b" (the account's association and, through
 * inheritance, its users'). Grants not in the spec are left alone.
 * Returns nothing. */
static void onb_plan_grants(struct onb_build *b, const struct oc_onb_spec *spec, const struct oc_onb_state *st,
			    const char *where)
{
	const char *acct = spec->account;
	char what[256];
	size_t nqos = onb_n(spec->nqos, OC_ONB_MAX_QOS);
	size_t nhave = st->account_exists ? onb_n(st->nqos, OC_ONB_MAX_QOS) : 0;
	char grant[OC_ONB_MAX_QOS * OC_ONB_NAME_MAX + 16] = "qos+=";
	size_t ngrant = 0;
	for (size_t i = 0; i < nqos; i++) {
		if (onb_in(st->qos, nhave, spec->qos[i])) {
			onb_diff(b, OC_ONB_SAME, "qos %s: already granted to %s", spec->qos[i], acct);
			continue;
		}
		oc_appendf(grant, sizeof(grant), "%s%s", ngrant++ ? "," : "", spec->qos[i]);
		onb_diff(b, OC_ONB_NEW, "qos %s: granted to %s", spec->qos[i], acct);
	}
	for (size_t i = 0; i < nhave; i++)
		if (!onb_in(spec->qos, nqos, st->qos[i]) &&
		    !onb_in(spec->remove_qos, onb_n(spec->nremove_qos, OC_ONB_MAX_QOS), st->qos[i]))
			onb_diff(b, OC_ONB_SAME, "qos %s: granted to %s, not in the spec, left alone", st->qos[i],
				 acct);
	if (ngrant) {
		onb_fmt(what, sizeof(what), "grant qos %s to %s", grant + strlen("qos+="), acct);
		onb_step(b, false, what, "modify", "account", "where", where, "set", grant, (const char *)NULL);
	}
}

/* The account's DefaultQOS, when the spec sets one. Returns nothing. */
static void onb_plan_default_qos(struct onb_build *b, const struct oc_onb_spec *spec,
				 const struct oc_onb_state *st, const char *where)
{
	char arg2[OC_ONB_NAME_MAX + 16], what[256];
	if (!spec->default_qos[0])
		return;
	const char *have = st->account_exists ? st->default_qos : "";
	if (strncmp(have, spec->default_qos, OC_ONB_NAME_MAX) == 0) {
		onb_diff(b, OC_ONB_SAME, "DefaultQOS %s: already set", have);
		return;
	}
	snprintf(arg2, sizeof(arg2), "DefaultQOS=%s", spec->default_qos);
	onb_fmt(what, sizeof(what), "set DefaultQOS %s", spec->default_qos);
	onb_step(b, false, what, "modify", "account", "where", where, "set", arg2, (const char *)NULL);
	if (have[0])
		onb_diff(b, OC_ONB_CHANGE, "DefaultQOS: %s -> %s", have, spec->default_qos);
	else
		onb_diff(b, OC_ONB_NEW, "DefaultQOS=%s", spec->default_qos);
}

/* The account: add it or fix its description and parent, then its
 * GrpTRES, Fairshare, QoS grants and DefaultQOS. Returns nothing. */
static void onb_plan_account(struct onb_build *b, const struct oc_onb_spec *spec, const struct oc_onb_state *st)
{
	char where[OC_ONB_NAME_MAX + 8];
	snprintf(where, sizeof(where), "Name=%s", spec->account);
	onb_plan_account_row(b, spec, st, where);
	onb_plan_tres(b, spec, st, where);
	onb_plan_fairshare(b, spec, st, where);
	onb_plan_grants(b, spec, st, where);
	onb_plan_default_qos(b, spec, st, where);
}

/* Users to add (one step each), then the removals: QoS taken away
 * ("qos-=", after DefaultQOS moved), user associations deleted. Returns
 * nothing. */
static void onb_plan_users(struct onb_build *b, const struct oc_onb_spec *spec, const struct oc_onb_state *st)
{
	const char *acct = spec->account;
	const bool exists = st->account_exists;
	size_t nhave = exists ? onb_n(st->nusers, OC_ONB_MAX_USERS) : 0;
	char name_arg[OC_ONB_NAME_MAX + 8], acct_arg[OC_ONB_NAME_MAX + 16], where[OC_ONB_NAME_MAX + 8], what[256];

	snprintf(acct_arg, sizeof(acct_arg), "Account=%s", acct);
	snprintf(where, sizeof(where), "Name=%s", acct);
	for (size_t i = 0; i < onb_n(spec->nusers, OC_ONB_MAX_USERS); i++) {
		const struct oc_onb_user_spec *u = &spec->users[i];
		if (onb_in(st->users, nhave, u->name)) {
			onb_diff(b, OC_ONB_SAME, "user %s: already in %s", u->name, acct);
			continue;
		}
		snprintf(name_arg, sizeof(name_arg), "Name=%s", u->name);
		onb_fmt(what, sizeof(what), "add user %s to %s", u->name, acct);
		onb_step(b, true, what, "add", "user", name_arg, acct_arg, (const char *)NULL);
		onb_diff(b, OC_ONB_NEW, "user %s: added to %s%s", u->name, acct,
			 u->allow_missing_os_user ? " (allow_missing_os_user)" : "");
	}

	/* On a new account, a QoS to take away may come from the parent:
	 * "qos-=" of a QoS the account lacks changes nothing. */
	size_t nqhave = exists ? onb_n(st->nqos, OC_ONB_MAX_QOS) : 0;
	char take[OC_ONB_MAX_QOS * OC_ONB_NAME_MAX + 16] = "qos-=";
	size_t ntake = 0;
	for (size_t i = 0; i < onb_n(spec->nremove_qos, OC_ONB_MAX_QOS); i++) {
		const char *q = spec->remove_qos[i];
		if (exists && !onb_in(st->qos, nqhave, q)) {
			onb_diff(b, OC_ONB_SAME, "qos %s: not granted to %s, nothing to take away", q, acct);
			continue;
		}
		oc_appendf(take, sizeof(take), "%s%s", ntake++ ? "," : "", q);
		onb_diff(b, OC_ONB_REMOVE, "qos %s: taken away from %s%s", q, acct,
			 exists ? "" : " (if inherited from the parent)");
	}
	if (ntake) {
		onb_fmt(what, sizeof(what), "take qos %s away from %s", take + strlen("qos-="), acct);
		onb_step(b, false, what, "modify", "account", "where", where, "set", take, (const char *)NULL);
	}

	for (size_t i = 0; i < onb_n(spec->nremove_users, OC_ONB_MAX_USERS); i++) {
		const char *u = spec->remove_users[i];
		if (!onb_in(st->users, nhave, u)) {
			onb_diff(b, OC_ONB_SAME, "user %s: not in %s, nothing to remove", u, acct);
			continue;
		}
		snprintf(name_arg, sizeof(name_arg), "Name=%s", u);
		onb_fmt(what, sizeof(what), "delete user %s from %s", u, acct);
		onb_step(b, false, what, "delete", "user", "where", name_arg, acct_arg, (const char *)NULL);
		onb_diff(b, OC_ONB_REMOVE, "user %s: removed from %s", u, acct);
	}
}

int oc_onb_plan_build(const struct oc_onb_spec *spec, const struct oc_onb_state *state,
		      struct oc_onb_plan *plan)
{
	struct oc_onb_state *empty = NULL;

	memset(plan, 0, sizeof(*plan));
	if (!spec)
		return 0;
	if (!state) {
		empty = malloc(sizeof(*empty));
		if (!empty)
			return -1;
		oc_onb_state_init(empty);
		state = empty;
	}
	struct onb_build b = {.p = plan};
	onb_plan_qos(&b, spec, state);
	onb_plan_account(&b, spec, state);
	onb_plan_users(&b, spec, state);
	free(empty);
	if (b.oom) {
		oc_onb_plan_free(plan);
		return -1;
	}
	return 0;
}

void oc_onb_plan_free(struct oc_onb_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->nsteps; i++)
		for (size_t j = 0; j <= OC_ONB_MAX_ARGS && plan->steps[i].argv[j]; j++)
			free(plan->steps[i].argv[j]);
	free(plan->steps);
	free(plan->diff);
	memset(plan, 0, sizeof(*plan));
}

/* ---- read-back ---------------------------------------------------------- */

/* Compares one limit: want OC_ONB_NONE is not asked, OC_ONB_UNLIMITED
 * means "no limit". Returns nothing (a problem in e when it differs). */
static void onb_rb_limit(struct onb_errs *e, const char *what, int64_t want, int64_t have, const char *suffix)
{
	char a[32], c[32];
	if (want == OC_ONB_NONE)
		return;
	int64_t target = want == OC_ONB_UNLIMITED ? OC_ONB_NONE : want;
	if (have == target)
		return;
	onb_problem(e, "%s: %s (asked %s)", what,
		    have == OC_ONB_NONE ? "no limit" : onb_limit_str(have, suffix, a, sizeof(a)),
		    onb_limit_str(want, suffix, c, sizeof(c)));
}

size_t oc_onb_readback_diff(const struct oc_onb_spec *spec, const struct oc_onb_state *state, char *out,
			    size_t len)
{
	struct onb_errs e = {out, len, 0};
	struct oc_onb_state *empty = NULL;

	if (out && len)
		out[0] = '\0';
	if (!spec)
		return 0;
	if (!state) {
		empty = malloc(sizeof(*empty));
		if (!empty) {
			onb_problem(&e, "out of memory");
			return e.n;
		}
		oc_onb_state_init(empty);
		state = empty;
	}
	const struct oc_onb_state *st = state;
	const char *acct = spec->account;
	char a[80], c[80];

	if (!st->account_exists)
		onb_problem(&e, "account %s: does not exist", acct);
	if (spec->description[0] && st->account_exists && !onb_desc_same(spec->description, st->description))
		onb_problem(&e, "description: \"%s\" (asked \"%s\")", onb_echo(st->description, a, sizeof(a)),
			    onb_echo(spec->description, c, sizeof(c)));
	if (spec->parent[0] && st->account_exists && strncmp(spec->parent, st->parent, OC_ONB_NAME_MAX) != 0)
		onb_problem(&e, "parent: %s (asked %s)", st->parent[0] ? st->parent : "(none)", spec->parent);
	onb_rb_limit(&e, "GrpTRES cpu", spec->cpu_quota, st->cpu_quota, "");
	onb_rb_limit(&e, "GrpTRES mem", spec->mem_quota_mb, st->mem_quota_mb, "M");
	onb_rb_limit(&e, "GrpTRES gres/gpu", spec->gpu_quota, st->gpu_quota, "");
	if (spec->fairshare != OC_ONB_NONE && spec->fairshare != st->fairshare)
		onb_problem(&e, "Fairshare: %s (asked %" PRId64 ")", onb_limit_str(st->fairshare, "", a, sizeof(a)),
			    spec->fairshare);

	for (size_t i = 0; i < onb_n(spec->nnew_qos, OC_ONB_MAX_QOS); i++) {
		const struct oc_onb_qos_spec *q = &spec->new_qos[i];
		const struct oc_onb_qos_state *cur = onb_cluster_qos(st, q->name);
		char what[128];
		if (!cur) {
			onb_problem(&e, "qos %s: does not exist", q->name);
			continue;
		}
		onb_fmt(what, sizeof(what), "qos %s MaxJobsPerUser", q->name);
		onb_rb_limit(&e, what, q->max_jobs_pu, cur->max_jobs_pu, "");
		onb_fmt(what, sizeof(what), "qos %s MaxSubmitJobsPerUser", q->name);
		onb_rb_limit(&e, what, q->max_submit_pu, cur->max_submit_pu, "");
		onb_fmt(what, sizeof(what), "qos %s Priority", q->name);
		onb_rb_limit(&e, what, q->priority, cur->priority, "");
	}
	size_t nqos = onb_n(st->nqos, OC_ONB_MAX_QOS);
	for (size_t i = 0; i < onb_n(spec->nqos, OC_ONB_MAX_QOS); i++)
		if (!onb_in(st->qos, nqos, spec->qos[i]))
			onb_problem(&e, "qos %s: not granted to %s", spec->qos[i], acct);
	for (size_t i = 0; i < onb_n(spec->nremove_qos, OC_ONB_MAX_QOS); i++)
		if (onb_in(st->qos, nqos, spec->remove_qos[i]))
			onb_problem(&e, "qos %s: still granted to %s (asked to take it away)", spec->remove_qos[i],
				    acct);
	if (spec->default_qos[0] && strncmp(spec->default_qos, st->default_qos, OC_ONB_NAME_MAX) != 0)
		onb_problem(&e, "DefaultQOS: %s (asked %s)", st->default_qos[0] ? st->default_qos : "none",
			    spec->default_qos);

	size_t nusers = onb_n(st->nusers, OC_ONB_MAX_USERS);
	for (size_t i = 0; i < onb_n(spec->nusers, OC_ONB_MAX_USERS); i++)
		if (!onb_in(st->users, nusers, spec->users[i].name))
			onb_problem(&e, "user %s: not in %s", spec->users[i].name, acct);
	for (size_t i = 0; i < onb_n(spec->nremove_users, OC_ONB_MAX_USERS); i++)
		if (onb_in(st->users, nusers, spec->remove_users[i]))
			onb_problem(&e, "user %s: still in %s (asked to remove)", spec->remove_users[i], acct);
	free(empty);
	return e.n;
}
