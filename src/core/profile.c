/* profile.c: cluster profiles (JSON files, one per cluster), the
 * directories they are looked up in, and ClusterName= of a slurm.conf. */
#include "core/profile.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/datafiles.h"
#include "core/jsonfile.h"

#define PROFILE_NAME_MAX 63  /* sizeof(((struct oc_profile *)0)->name) - 1 */
#define PROFILE_REFRESH_MIN 0.2
#define PROFILE_REFRESH_MAX 3600.0
#define PROFILE_REFRESH_DEFAULT 2.0
#define PROFILE_SYSCONFDIR_DEFAULT "/etc/opsconsole"

/* Writes "a" + "b" into out (size 4096). Returns 0, or -1 when it does
 * not fit. */
static int profile_join(char out[4096], const char *a, const char *b)
{
	int n = snprintf(out, 4096, "%s%s", a, b);
	return (n < 0 || n >= 4096) ? -1 : 0;
}

/* Up to two directories: the user's, then the system's. Returns how many
 * were written. A directory whose path would not fit is left out. */
size_t oc_profile_dirs(char storage[OC_PROFILE_MAX_DIRS][4096], const char *dirs[OC_PROFILE_MAX_DIRS])
{
	size_t n = 0;
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	const char *sys = getenv("OPSCONSOLE_SYSCONFDIR");

	/* XDG Base Directory spec: a relative XDG_CONFIG_HOME is invalid and
	 * must be ignored. */
	if (xdg && xdg[0] == '/') {
		if (profile_join(storage[n], xdg, "/opsconsole/clusters") == 0)
			dirs[n] = storage[n], n++;
	} else if (home && home[0] == '/') {
		if (profile_join(storage[n], home, "/.config/opsconsole/clusters") == 0)
			dirs[n] = storage[n], n++;
	}
	if (!sys || !*sys)
		sys = PROFILE_SYSCONFDIR_DEFAULT;
	if (profile_join(storage[n], sys, "/clusters") == 0)
		dirs[n] = storage[n], n++;
	return n;
}

static void profile_ssh_defaults(struct oc_ssh_target *t)
{
	memset(t, 0, sizeof(*t));
	t->port = 22;
	t->connect_timeout_s = 10;
}

/* One default probe check. */
static void profile_probe_add(struct oc_probe_config *pc, const char *name, const char *command,
			      const char *expect, const double *max)
{
	struct oc_probe_check *c = &pc->checks[pc->ncheck++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->command, sizeof(c->command), "%s", command);
	if (expect) {
		snprintf(c->expect, sizeof(c->expect), "%s", expect);
		c->has_expect = true;
	}
	if (max) {
		c->max = *max;
		c->has_max = true;
	}
}

/* The quick checks of the runbook's prolog-gpu-quick.sh and periodic
 * health script (section 8), written so that a check that cannot look
 * exits 3 with the reason on stderr (an error, never a pass): the tool
 * missing or failing, an empty kernel log, "[N/A]" or any other output
 * that is not a number where a number is judged. Plain POSIX sh (dash on
 * Ubuntu, bash on Amazon Linux). Tested with stand-in tools in
 * tests/unit/test_probe_defaults.c. */
#define PROBE_NEED(tool) "command -v " tool " >/dev/null 2>&1 || { echo '" tool " not found' >&2; exit 3; }; "
/* out=$(CMD) or exit 3 with its first line. */
#define PROBE_RUN(cmd)                                                                                              \
	"out=$(" cmd " 2>&1) || { printf '%s failed: %s\\n' '" cmd "' \"$(printf '%s\\n' \"$out\" | head -n 1)\" >&2; " \
	"exit 3; }; "
/* The numbers of $out, one a line: all must be numbers (else exit 3). */
#define PROBE_NUMBERS(agg)                                                                                          \
	"printf '%s\\n' \"$out\" | awk '/^ *[0-9]+(\\.[0-9]+)? *$/ { v = $1 + 0; " agg "; n++; next } "               \
	"{ bad = $0 } END { if (bad != \"\") { print \"not a number: \" bad > \"/dev/stderr\"; exit 3 } "          \
	"if (n == 0) { print \"no output\" > \"/dev/stderr\"; exit 3 } print r }'"

void oc_probe_config_defaults(struct oc_probe_config *pc)
{
	static const double temp_max = 90, ecc_max = 0;
	memset(pc, 0, sizeof(*pc));
	profile_ssh_defaults(&pc->ssh);
	pc->timeout_s = 10;
	pc->parallel = 16;
	profile_probe_add(pc, "gpu count",
			  PROBE_NEED("nvidia-smi") PROBE_RUN("nvidia-smi -L") "printf '%s\\n' \"$out\" | grep -c '^GPU ' || true",
			  "8", NULL);
	/* A booted kernel always has messages: none means journalctl could
	 * not read them (no permission, no journal). */
	profile_probe_add(pc, "xid",
			  PROBE_NEED("journalctl") PROBE_RUN("journalctl -k -b --no-pager -q")
			  "printf '%s\\n' \"$out\" | grep -q . || { echo 'journalctl shows no kernel message for this "
			  "boot' >&2; exit 3; }; "
			  "printf '%s\\n' \"$out\" | grep -oE 'NVRM: Xid .*: (79|74|48|63|64),' "
			  "| grep -oE ': (79|74|48|63|64),' | tr -dc '0-9\\n' | sort -un | paste -sd, -",
			  "", NULL);
	profile_probe_add(pc, "efa devices", "ls /sys/class/infiniband/ 2>/dev/null | wc -l", "16", NULL);
	profile_probe_add(pc, "gpu temp",
			  PROBE_NEED("nvidia-smi") PROBE_RUN("nvidia-smi --query-gpu=temperature.gpu --format=csv,noheader")
			  PROBE_NUMBERS("if (v > r || n == 0) r = v"),
			  NULL, &temp_max);
	profile_probe_add(pc, "ecc",
			  PROBE_NEED("nvidia-smi")
			  PROBE_RUN("nvidia-smi --query-gpu=ecc.errors.uncorrected.volatile.total --format=csv,noheader")
			  PROBE_NUMBERS("r += v"),
			  NULL, &ecc_max);
}

/* Fills *p with the defaults. */
void oc_profile_defaults(struct oc_profile *p)
{
	if (!p)
		return;
	memset(p, 0, sizeof(*p));
	p->refresh_s = PROFILE_REFRESH_DEFAULT;
	p->backend = OC_BACKEND_AUTO;
	profile_ssh_defaults(&p->ssh);
	snprintf(p->ssh.agent, sizeof(p->ssh.agent), "opsconsole");
	oc_probe_config_defaults(&p->probes);
}

/* The name a file stands for: its base name without ".json", in out.
 * Returns 0, or -1 when it is empty or longer than PROFILE_NAME_MAX. */
static int profile_stem(const char *path, char *out, size_t outlen)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".json") == 0)
		len -= 5;
	if (len == 0 || len >= outlen)
		return -1;
	memcpy(out, base, len);
	out[len] = '\0';
	return 0;
}

/* Copies the string value v of key into dst (size dstlen). Returns 0, or
 * -1 with a message when v is not a string or does not fit. */
static int profile_string(const char *path, const char *key, json_t *v,
			  char *dst, size_t dstlen, char *err, size_t errlen)
{
	if (!json_is_string(v)) {
		oc_seterr(err, errlen, "%s: \"%s\" must be a string", path, key);
		return -1;
	}
	size_t len = json_string_length(v);
	if (len >= dstlen) {
		oc_seterr(err, errlen, "%s: \"%s\" is too long (%zu bytes, at most %zu)",
				path, key, len, dstlen - 1);
		return -1;
	}
	memcpy(dst, json_string_value(v), len + 1);
	return 0;
}

/* Copies the boolean value v of key into *dst. Returns 0, or -1 with a
 * message when v is not true/false. */
static int profile_bool(const char *path, const char *key, json_t *v,
			bool *dst, char *err, size_t errlen)
{
	if (!json_is_boolean(v)) {
		oc_seterr(err, errlen, "%s: \"%s\" must be a boolean (true or false)", path, key);
		return -1;
	}
	*dst = json_is_true(v);
	return 0;
}

/* Keys that later parts of the console read; here they are only checked
 * to be an object or a string (a file name). */
static const char *const profile_reserved[] = {
	"checklist",
};

/* "checklist_vars": an object of strings; names of letters, digits and
 * '_'. Returns 0, or -1 with a message. */
static int profile_checklist_vars(const char *path, json_t *v, struct oc_profile *p, char *err, size_t errlen)
{
	if (!json_is_object(v)) {
		oc_seterr(err, errlen, "%s: \"checklist_vars\" must be an object of strings", path);
		return -1;
	}
	if (json_object_size(v) > OC_PROFILE_MAX_VARS) {
		oc_seterr(err, errlen, "%s: \"checklist_vars\": more than %d variables", path, OC_PROFILE_MAX_VARS);
		return -1;
	}
	p->nchecklist_vars = 0;
	const char *k;
	json_t *x;
	json_object_foreach(v, k, x) {
		size_t kl = strlen(k);
		if (kl == 0 || kl >= sizeof(p->checklist_vars[0].name) || strspn(k, "abcdefghijklmnopqrstuvwxyz"
									   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != kl) {
			oc_seterr(err, errlen, "%s: \"checklist_vars\": \"%.80s\" is not a variable name (letters, "
					"digits and _, up to 63)", path, k);
			return -1;
		}
		if (!json_is_string(x) || json_string_length(x) >= sizeof(p->checklist_vars[0].value) ||
		    strlen(json_string_value(x)) != json_string_length(x)) {
			oc_seterr(err, errlen, "%s: \"checklist_vars\": \"%s\" must be a string of up to %zu bytes",
					path, k, sizeof(p->checklist_vars[0].value) - 1);
			return -1;
		}
		memcpy(p->checklist_vars[p->nchecklist_vars].name, k, kl + 1);
		memcpy(p->checklist_vars[p->nchecklist_vars].value, json_string_value(x), json_string_length(x) + 1);
		p->nchecklist_vars++;
	}
	return 0;
}

/* An integer in [lo, hi] into *dst. Returns 0, or -1 with a message. */
static int profile_int(const char *path, const char *key, json_t *v, int lo, int hi, int *dst,
		       char *err, size_t errlen)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		oc_seterr(err, errlen, "%s: \"%s\" must be a whole number from %d to %d", path, key, lo,
				hi);
		return -1;
	}
	*dst = (int)json_integer_value(v);
	return 0;
}

/* A string without control characters (it ends up in a command line or
 * a file name): like profile_string, and refuses bytes below 0x20 and
 * 0x7f. empty_ok says whether "" is allowed. */
static int profile_text(const char *path, const char *key, json_t *v, char *dst, size_t dstlen,
			bool empty_ok, char *err, size_t errlen)
{
	if (profile_string(path, key, v, dst, dstlen, err, errlen) < 0)
		return -1;
	if (!empty_ok && !dst[0]) {
		oc_seterr(err, errlen, "%s: \"%s\" must not be empty", path, key);
		return -1;
	}
	for (const unsigned char *c = (const unsigned char *)dst; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			oc_seterr(err, errlen, "%s: \"%s\" has a control character (byte 0x%02x)", path,
					key, *c);
			dst[0] = '\0';
			return -1;
		}
	return 0;
}

/* The "ssh" object (or "probes.ssh" when probe is true: no "host").
 * prefix names the object in messages. Returns 0, or -1. */
static int profile_ssh(const char *path, const char *prefix, json_t *obj, bool probe,
		       struct oc_ssh_target *t, char *err, size_t errlen)
{
	char k[96];
	if (!json_is_object(obj)) {
		oc_seterr(err, errlen, "%s: \"%s\" must be an object", path, prefix);
		return -1;
	}
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		snprintf(k, sizeof(k), "%s.%s", prefix, key);
		int rc;
		if (!probe && strcmp(key, "host") == 0)
			rc = profile_text(path, k, v, t->host, sizeof(t->host), false, err, errlen);
		else if (strcmp(key, "user") == 0)
			rc = profile_text(path, k, v, t->user, sizeof(t->user), false, err, errlen);
		else if (strcmp(key, "port") == 0)
			rc = profile_int(path, k, v, 1, 65535, &t->port, err, errlen);
		else if (strcmp(key, "identity") == 0)
			rc = profile_text(path, k, v, t->identity, sizeof(t->identity), false, err, errlen);
		else if (strcmp(key, "known_hosts") == 0)
			rc = profile_text(path, k, v, t->known_hosts, sizeof(t->known_hosts), false, err, errlen);
		else if (strcmp(key, "accept_new_host_key") == 0)
			rc = profile_bool(path, k, v, &t->accept_new_host_key, err, errlen);
		else if (strcmp(key, "connect_timeout_seconds") == 0)
			rc = profile_int(path, k, v, 1, 300, &t->connect_timeout_s, err, errlen);
		else if (!probe && strcmp(key, "agent") == 0)
			rc = profile_text(path, k, v, t->agent, sizeof(t->agent), true, err, errlen);
		else {
			oc_seterr(err, errlen, "%s: unknown key \"%s\"", path, k);
			rc = -1;
		}
		if (rc < 0)
			return -1;
	}
	if (!probe && !t->host[0]) {
		oc_seterr(err, errlen, "%s: \"%s\" needs \"host\"", path, prefix);
		return -1;
	}
	return 0;
}

/* A number bound ("min"/"max") of a probe check. */
static int profile_bound(const char *path, const char *key, json_t *v, double *dst, bool *has,
			 char *err, size_t errlen)
{
	if (!json_is_number(v)) {
		oc_seterr(err, errlen, "%s: \"%s\" must be a number", path, key);
		return -1;
	}
	*dst = json_number_value(v);
	*has = true;
	return 0;
}

/* One element of "probes.checks". */
static int profile_check(const char *path, size_t i, json_t *obj, struct oc_probe_check *c, char *err,
			 size_t errlen)
{
	char k[96];
	memset(c, 0, sizeof(*c));
	if (!json_is_object(obj)) {
		oc_seterr(err, errlen, "%s: \"probes.checks[%zu]\" must be an object", path, i);
		return -1;
	}
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		snprintf(k, sizeof(k), "probes.checks[%zu].%s", i, key);
		int rc;
		if (strcmp(key, "name") == 0)
			rc = profile_text(path, k, v, c->name, sizeof(c->name), false, err, errlen);
		else if (strcmp(key, "command") == 0)
			rc = profile_text(path, k, v, c->command, sizeof(c->command), false, err, errlen);
		else if (strcmp(key, "expect") == 0) {
			rc = profile_text(path, k, v, c->expect, sizeof(c->expect), true, err, errlen);
			c->has_expect = rc == 0;
		} else if (strcmp(key, "min") == 0)
			rc = profile_bound(path, k, v, &c->min, &c->has_min, err, errlen);
		else if (strcmp(key, "max") == 0)
			rc = profile_bound(path, k, v, &c->max, &c->has_max, err, errlen);
		else {
			oc_seterr(err, errlen, "%s: unknown key \"%s\"", path, k);
			rc = -1;
		}
		if (rc < 0)
			return -1;
	}
	if (!c->name[0] || !c->command[0]) {
		oc_seterr(err, errlen, "%s: \"probes.checks[%zu]\" needs \"name\" and \"command\"", path,
				i);
		return -1;
	}
	if (!c->has_expect && !c->has_min && !c->has_max) {
		oc_seterr(err, errlen,
				"%s: \"probes.checks[%zu]\" (%s) needs \"expect\", \"min\" or \"max\"", path, i,
				c->name);
		return -1;
	}
	if (c->has_min && c->has_max && c->min > c->max) {
		oc_seterr(err, errlen, "%s: \"probes.checks[%zu]\" (%s): \"min\" is above \"max\"",
				path, i, c->name);
		return -1;
	}
	return 0;
}

/* The "probes" object. "checks", when given, replaces the default set. */
static int profile_probes(const char *path, json_t *obj, struct oc_probe_config *pc, char *err,
			  size_t errlen)
{
	if (!json_is_object(obj)) {
		oc_seterr(err, errlen, "%s: \"probes\" must be an object", path);
		return -1;
	}
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		int rc = 0;
		if (strcmp(key, "ssh") == 0)
			rc = profile_ssh(path, "probes.ssh", v, true, &pc->ssh, err, errlen);
		else if (strcmp(key, "timeout_seconds") == 0)
			rc = profile_int(path, "probes.timeout_seconds", v, 1, 600, &pc->timeout_s, err, errlen);
		else if (strcmp(key, "parallel") == 0)
			rc = profile_int(path, "probes.parallel", v, 1, 256, &pc->parallel, err, errlen);
		else if (strcmp(key, "connect_to") == 0) {
			char what[16];
			rc = profile_string(path, "probes.connect_to", v, what, sizeof(what), err, errlen);
			if (rc == 0 && strcmp(what, "name") == 0)
				pc->use_node_name = true;
			else if (rc == 0 && strcmp(what, "addr") == 0)
				pc->use_node_name = false;
			else if (rc == 0) {
				oc_seterr(err, errlen, "%s: \"probes.connect_to\" must be \"addr\" or \"name\"",
						path);
				rc = -1;
			}
		} else if (strcmp(key, "checks") == 0) {
			if (!json_is_array(v) || json_array_size(v) == 0 ||
			    json_array_size(v) > OC_PROBE_MAX_CHECKS) {
				oc_seterr(err, errlen, "%s: \"probes.checks\" must be an array of 1 to %d checks",
						path, OC_PROBE_MAX_CHECKS);
				return -1;
			}
			pc->ncheck = 0;
			size_t i;
			json_t *c;
			json_array_foreach(v, i, c) {
				if (profile_check(path, i, c, &pc->checks[i], err, errlen) < 0)
					return -1;
				for (size_t j = 0; j < i; j++)
					if (strcmp(pc->checks[j].name, pc->checks[i].name) == 0) {
						oc_seterr(err, errlen, "%s: two probe checks are named \"%s\"",
								path, pc->checks[i].name);
						return -1;
					}
				pc->ncheck = i + 1;
			}
		} else {
			oc_seterr(err, errlen, "%s: unknown key \"probes.%s\"", path, key);
			rc = -1;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Applies one key of the top level object to *p. Returns 0, or -1 with a
 * message naming the key. */
static int profile_key(const char *path, const char *key, json_t *v,
		       struct oc_profile *p, char *err, size_t errlen)
{
	if (strcmp(key, "name") == 0)
		return profile_string(path, key, v, p->name, sizeof(p->name), err, errlen);
	if (strcmp(key, "slurm_conf") == 0)
		return profile_string(path, key, v, p->slurm_conf, sizeof(p->slurm_conf), err, errlen);
	if (strcmp(key, "audit_log") == 0)
		return profile_string(path, key, v, p->audit_log, sizeof(p->audit_log), err, errlen);
	if (strcmp(key, "clustermgtd_log") == 0) {
		if (profile_string(path, key, v, p->clustermgtd_log, sizeof(p->clustermgtd_log), err, errlen) < 0)
			return -1;
		if (p->clustermgtd_log[0] != '/') {
			oc_seterr(err, errlen, "%s: \"clustermgtd_log\" must be an absolute path", path);
			return -1;
		}
		return 0;
	}
	if (strcmp(key, "readonly") == 0)
		return profile_bool(path, key, v, &p->readonly, err, errlen);
	if (strcmp(key, "show_hidden") == 0)
		return profile_bool(path, key, v, &p->show_hidden, err, errlen);
	if (strcmp(key, "mouse") == 0) {
		bool on = true;
		if (profile_bool(path, key, v, &on, err, errlen) < 0)
			return -1;
		p->no_mouse = !on;
		return 0;
	}
	if (strcmp(key, "theme") == 0)
		return profile_string(path, key, v, p->theme, sizeof(p->theme), err, errlen);
	if (strcmp(key, "keymap") == 0)
		return profile_string(path, key, v, p->keymap, sizeof(p->keymap), err, errlen);
	if (strcmp(key, "refresh_seconds") == 0) {
		if (!json_is_number(v)) {
			oc_seterr(err, errlen, "%s: \"%s\" must be a number", path, key);
			return -1;
		}
		double d = json_number_value(v);
		if (!(d >= PROFILE_REFRESH_MIN && d <= PROFILE_REFRESH_MAX)) {
			oc_seterr(err, errlen, "%s: \"%s\" must be between %g and %g (got %g)",
					path, key, PROFILE_REFRESH_MIN, PROFILE_REFRESH_MAX, d);
			return -1;
		}
		p->refresh_s = d;
		return 0;
	}
	if (strcmp(key, "ssh") == 0)
		return profile_ssh(path, "ssh", v, false, &p->ssh, err, errlen);
	if (strcmp(key, "probes") == 0)
		return profile_probes(path, v, &p->probes, err, errlen);
	if (strcmp(key, "slurm_bin") == 0)
		return profile_text(path, key, v, p->slurm_bin, sizeof(p->slurm_bin), false, err, errlen);
	if (strcmp(key, "backend") == 0) {
		char b[16];
		if (profile_string(path, key, v, b, sizeof(b), err, errlen) == 0) {
			if (strcmp(b, "auto") == 0)
				p->backend = OC_BACKEND_AUTO;
			else if (strcmp(b, "libslurm") == 0)
				p->backend = OC_BACKEND_LIBSLURM;
			else if (strcmp(b, "cli") == 0)
				p->backend = OC_BACKEND_CLI;
			else
				b[0] = '\0';
			if (b[0])
				return 0;
		}
		oc_seterr(err, errlen, "%s: \"backend\" must be \"auto\", \"libslurm\" or \"cli\"", path);
		return -1;
	}
	if (strcmp(key, "platform") == 0) {
		char b[32];
		if (profile_string(path, key, v, b, sizeof(b), err, errlen) == 0 && oc_platform_parse(b, &p->platform) == 0)
			return 0;
		oc_seterr(err, errlen, "%s: \"platform\" must be \"auto\", \"parallelcluster\", \"pcs\" or \"onprem\"",
			  path);
		return -1;
	}
	if (strcmp(key, "checklist_vars") == 0)
		return profile_checklist_vars(path, v, p, err, errlen);
	if (strcmp(key, "checklist") == 0 && json_is_string(v))
		return profile_string(path, key, v, p->checklist, sizeof(p->checklist), err, errlen);
	for (size_t i = 0; i < sizeof(profile_reserved) / sizeof(profile_reserved[0]); i++) {
		if (strcmp(key, profile_reserved[i]) != 0)
			continue;
		if (!json_is_object(v) && !json_is_string(v)) {
			oc_seterr(err, errlen, "%s: \"%s\" must be an object or a string", path, key);
			return -1;
		}
		return 0;
	}
	oc_seterr(err, errlen, "%s: unknown key \"%s\"", path, key);
	return -1;
}

/* Parses path into *p. Returns 0, or -1 with err set (*p then holds the
 * defaults). */
int oc_profile_load_file(const char *path, struct oc_profile *p, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root = NULL;
	char stem[sizeof(p->name)];
	char *text = NULL;
	size_t textlen = 0;
	int rc = -1;

	if (oc_datafile_begin(p, "profile", err, errlen) < 0)
		return -1;
	oc_profile_defaults(p);
	if (!path || !*path) {
		oc_seterr(err, errlen, "no profile path");
		return -1;
	}
	if (strlen(path) >= sizeof(p->path)) {
		oc_seterr(err, errlen, "%.64s...: path too long", path);
		return -1;
	}
	if (profile_stem(path, stem, sizeof(stem)) < 0) {
		oc_seterr(err, errlen, "%s: file name must be NAME.json with NAME of 1 to %d characters",
				path, PROFILE_NAME_MAX);
		return -1;
	}

	/* oc_datafile_read: regular files of at most 1 MB, and in the
	 * configuration directories the ssh-like permission check. */
	if (oc_datafile_read(path, false, &text, &textlen, err, errlen) < 0)
		goto out;
	root = json_loadb(text, textlen, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		oc_jsonfile_syntax_err(err, errlen, path, jerr.line, jerr.column, jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		oc_seterr(err, errlen, "%s: a profile must be a JSON object ({ ... })", path);
		goto out;
	}

	const char *key;
	json_t *v;
	json_object_foreach(root, key, v) {
		if (profile_key(path, key, v, p, err, errlen) < 0)
			goto out;
	}
	if (!json_object_get(root, "name")) {
		memcpy(p->name, stem, sizeof(stem));
	} else if (strcmp(p->name, stem) != 0) {
		oc_seterr(err, errlen, "%s: \"name\" is \"%s\" but the file is %s.json",
				path, p->name, stem);
		goto out;
	}
	memcpy(p->path, path, strlen(path) + 1);
	rc = 0;
out:
	json_decref(root);
	free(text);
	if (rc < 0)
		oc_profile_defaults(p);
	return rc;
}

/* Returns 0 when name can be a profile name (1 to PROFILE_NAME_MAX
 * characters, no '/', not starting with '.'), else -1. */
static int profile_name_ok(const char *name)
{
	if (!name || !*name || name[0] == '.' || strchr(name, '/'))
		return -1;
	if (strlen(name) > PROFILE_NAME_MAX)
		return -1;
	return 0;
}

/* Returns 0 / 1 / -1 as profile.h says. */
int oc_profile_find(const char *name, const char *const *dirs, size_t ndirs,
		    struct oc_profile *p, char *err, size_t errlen)
{
	char path[4096];

	oc_profile_defaults(p);
	if (err && errlen)
		err[0] = '\0';
	if (profile_name_ok(name) < 0) {
		oc_seterr(err, errlen,
				"invalid cluster name \"%.80s\": 1 to %d characters, no '/', not starting with '.'",
				name ? name : "", PROFILE_NAME_MAX);
		return -1;
	}
	for (size_t i = 0; i < ndirs; i++) {
		if (!dirs || !dirs[i] || !*dirs[i])
			continue;
		int n = snprintf(path, sizeof(path), "%s/%s.json", dirs[i], name);
		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		n = oc_datafile_probe(path, err, errlen);
		if (n == 1)
			continue;
		if (n < 0)
			return -1;
		return oc_profile_load_file(path, p, err, errlen) < 0 ? -1 : 0;
	}
	oc_seterr(err, errlen, "no profile %s.json in", name);
	if (ndirs == 0 || !dirs)
		oc_seterr(err, errlen, "no profile %s.json: no profile directories", name);
	for (size_t i = 0; i < ndirs && dirs && err && errlen; i++) {
		size_t used = strlen(err);
		if (dirs[i] && used < errlen)
			snprintf(err + used, errlen - used, "%s %s", i ? "," : "", dirs[i]);
	}
	return 1;
}

/* Sorted, deduplicated names joined by ", "; malloc'd, NULL on ENOMEM.
 * Directories that cannot be read are skipped, as are names that
 * oc_profile_find would refuse. */
char *oc_profile_list(const char *const *dirs, size_t ndirs)
{
	struct oc_datafile_names l = {0};

	for (size_t i = 0; i < ndirs && !l.oom && dirs; i++) {
		DIR *d = dirs[i] ? opendir(dirs[i]) : NULL;
		struct dirent *de;
		if (!d)
			continue;
		while ((de = readdir(d)) != NULL) {
			size_t len = strlen(de->d_name);
			if (de->d_type == DT_DIR)
				continue;
			if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
				continue;
			len -= 5;
			if (de->d_name[0] == '.' || len > PROFILE_NAME_MAX)
				continue;
			if (oc_datafile_names_add(&l, de->d_name, len) < 0)
				break;
		}
		closedir(d);
	}
	return oc_datafile_names_join(&l);
}

/* If the line (comment already cut off) has a ClusterName=VALUE token,
 * points *val and *len at VALUE (without quotes). Returns 1 when found. */
static int profile_conf_line(char *line, const char **val, size_t *len)
{
	static const char key[] = "clustername";
	const size_t klen = sizeof(key) - 1;
	char *p = line;
	int found = 0;

	/* slurm.conf allows several Key=Value pairs on one line. */
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		char *tok = p;
		while (*p && !isspace((unsigned char)*p) && *p != '=')
			p++;
		size_t toklen = (size_t)(p - tok);
		while (isspace((unsigned char)*p))
			p++;
		if (*p != '=') {
			/* a word without '=' ("Include file"): skip it */
			continue;
		}
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		const char *v = p;
		size_t vlen;
		if (*p == '"' || *p == '\'') {
			char q = *p++;
			v = p;
			while (*p && *p != q)
				p++;
			vlen = (size_t)(p - v);
			if (*p)
				p++;
		} else {
			while (*p && !isspace((unsigned char)*p))
				p++;
			vlen = (size_t)(p - v);
		}
		if (toklen == klen && strncasecmp(tok, key, klen) == 0) {
			*val = v;
			*len = vlen;
			found = 1;  /* a later one on the line wins */
		}
	}
	return found;
}

/* Like slurmctld, the name is lower-cased and the last ClusterName= wins.
 * Returns 0 and fills out, 1 when there is none (or only an empty one),
 * -1 when the file cannot be read or the name does not fit in out.
 * Include files are not followed. */
int oc_slurm_conf_cluster_name(const char *conf_path, char *out, size_t outlen)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int rc = 1;

	if (out && outlen)
		out[0] = '\0';
	if (!conf_path || !out || outlen == 0)
		return -1;
	f = fopen(conf_path, "r");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		char *hash = strchr(line, '#');
		const char *v;
		size_t vlen;
		if (hash)
			*hash = '\0';
		if (!profile_conf_line(line, &v, &vlen))
			continue;
		if (vlen == 0) {
			rc = 1;
			out[0] = '\0';
			continue;
		}
		if (vlen >= outlen) {
			rc = -1;
			out[0] = '\0';
			break;
		}
		for (size_t i = 0; i < vlen; i++)
			out[i] = (char)tolower((unsigned char)v[i]);
		out[vlen] = '\0';
		rc = 0;
	}
	if (ferror(f)) {
		rc = -1;
		out[0] = '\0';
	}
	free(line);
	fclose(f);
	return rc;
}
