/* fuzz_plan.c: what the admin types into the action forms
 * (actions/plan.c): drain reasons, reservation names, start times,
 * durations, and the shell quoting of the equivalent command lines. The
 * first byte picks the parser, the rest is the text.
 * Properties: every parser answers 0 or -1 with a message; the quoting
 * of any value, read back as a POSIX shell reads one word (bare
 * characters, '...' and \' outside quotes), gives the value exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "actions/plan.h"
#include "fuzz_util.h"

/* Reads one shell word from q (as sh would, for the subset the quoting
 * writes) into out. Returns 0, or -1 when q is not one such word. */
static int unquote_word(const char *q, char *out, size_t len)
{
	size_t o = 0;
	for (const char *p = q; *p; p++) {
		if (*p == '\'') {
			for (p++; *p && *p != '\''; p++) {
				if (o + 1 >= len)
					return -1;
				out[o++] = *p;
			}
			if (*p != '\'')
				return -1; /* unterminated */
		} else if (*p == '\\') {
			p++;
			if (!*p || o + 1 >= len)
				return -1;
			out[o++] = *p;
		} else if (strchr(" \t\n;&|<>()$`\"*?[]#~{}!", *p)) {
			return -1; /* the shell would do something with it */
		} else {
			if (o + 1 >= len)
				return -1;
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	return 0;
}

/* The word at the start of s, after "Key=" has been cut off, is the rest
 * of the command line for the last argument: check the quoting alone. */
static void check_quote(const char *s)
{
	size_t need = oc_plan_quote(s, NULL, 0);
	char *q = malloc(need + 1);
	char *back = malloc(strlen(s) + 2);
	FUZZ_ASSERT(q && back, "out of memory");
	FUZZ_ASSERT(oc_plan_quote(s, q, need + 1) == need, "quote length changed");
	FUZZ_ASSERT(strlen(q) == need, "quote length is not the length written");
	FUZZ_ASSERT(unquote_word(q, back, strlen(s) + 2) == 0, "quoted value is not one shell word");
	FUZZ_ASSERT(strcmp(back, s) == 0, "quoted value does not read back as itself");
	FUZZ_ASSERT(q[0] != '=', "a word starting with '=' (zsh expands it)");
	/* A short buffer: truncated, NUL-terminated, same length needed. */
	char small[8];
	FUZZ_ASSERT(oc_plan_quote(s, small, sizeof(small)) == need, "length with a short buffer");
	FUZZ_ASSERT(strlen(small) < sizeof(small), "not NUL-terminated");
	free(q);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	char *s = fuzz_str(data + 1, size - 1);
	char err[512], out[8192];
	time_t now = 1780000000; /* a fixed "now": the outcome depends on the input only */
	time_t t = -5;
	long minutes = -5;
	int rc;

	err[0] = '\0';
	switch (data[0] % 6) {
	case 0:
		rc = oc_plan_check_reason(s, err, sizeof(err));
		if (rc == 0) {
			oc_plan_node_update("gpu-st-b300-[1-3]", OC_NODE_OP_DRAIN, s, out, sizeof(out));
			check_quote(s);
		}
		break;
	case 1:
		rc = oc_plan_check_resv_name(s, err, sizeof(err));
		if (rc == 0)
			oc_plan_resv_delete(s, out, sizeof(out));
		break;
	case 2:
		rc = oc_plan_parse_start(s, now, &t, err, sizeof(err));
		if (rc == 0)
			FUZZ_ASSERT(t == 0 || t >= now - 60, "a start time in the past");
		break;
	case 3:
		rc = oc_plan_parse_duration(s, &minutes, err, sizeof(err));
		if (rc == 0)
			FUZZ_ASSERT(minutes == -1 || (minutes >= 1 && minutes <= 3650L * 24 * 60),
				    "a duration out of range");
		break;
	case 4: {
		struct oc_resv_spec spec = {0};
		snprintf(spec.name, sizeof(spec.name), "%s", s);
		snprintf(spec.nodes, sizeof(spec.nodes), "%s", s);
		snprintf(spec.users, sizeof(spec.users), "%s", s);
		snprintf(spec.flags, sizeof(spec.flags), "%s", s);
		spec.duration_min = (long)size - 3;
		oc_plan_resv_create(&spec, out, sizeof(out));
		rc = 0;
		break;
	}
	default:
		check_quote(s);
		rc = 0;
		break;
	}
	FUZZ_ASSERT(rc == 0 || rc == -1, "rc is not 0 or -1");
	if (rc < 0)
		FUZZ_ASSERT(err[0] != '\0', "refused without a message");
	free(s);
	return 0;
}
