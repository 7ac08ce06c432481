/* version.c: Slurm release majors (version.h). */
#include "core/version.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Whether c is an ASCII digit (not locale dependent). */
static bool version_digit(char c)
{
	return c >= '0' && c <= '9';
}

int oc_version_major(const char *v, char *out, size_t len)
{
	if (out && len)
		out[0] = '\0';
	if (!v || !out || !len)
		return -1;
	/* The first "D+.D+" that starts a word: after "slurm " or
	 * "slurm-wlm ", not inside a name such as "x24.11". */
	for (const char *p = v; *p; p++) {
		if (!version_digit(*p) || (p > v && (isalnum((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		const char *q = p;
		while (version_digit(*q))
			q++;
		if (*q != '.' || !version_digit(q[1]))
			continue;
		q++;
		while (version_digit(*q))
			q++;
		size_t n = (size_t)(q - p);
		if (n >= len || n > 15)
			return -1;
		memcpy(out, p, n);
		out[n] = '\0';
		/* "24.05" and "24.5" are the same major: the minor as a number. */
		char maj[16], mnr[16];
		const char *dot = strchr(out, '.');
		snprintf(maj, sizeof(maj), "%.*s", (int)(dot - out), out);
		snprintf(mnr, sizeof(mnr), "%s", dot + 1);
		unsigned long mi = 0;
		for (const char *d = mnr; *d; d++)
			mi = mi * 10 + (unsigned long)(*d - '0');
		snprintf(out, len, "%s.%02lu", maj, mi % 100);
		return 0;
	}
	return -1;
}

bool oc_version_majors_differ(const char *a, const char *b)
{
	char x[16], y[16];
	if (oc_version_major(a, x, sizeof(x)) < 0 || oc_version_major(b, y, sizeof(y)) < 0)
		return false;
	return strcmp(x, y) != 0;
}

bool oc_version_slurmd_differs(const char *slurmd, const char *slurmctld)
{
	if (!slurmd || !*slurmd || !slurmctld || !*slurmctld)
		return false;
	return strcmp(slurmd, slurmctld) != 0;
}
