/* onboard_cli.h: the `opsconsole onboard` subcommand. */
#ifndef OC_ONBOARD_CLI_H
#define OC_ONBOARD_CLI_H

#include "core/profile.h"

/* Run `opsconsole onboard ...` (argv[0] is "onboard"). resolve: how main
 * turns --cluster into a profile (prints why on failure and returns the
 * exit code). Returns the process exit code. */
int oc_onboard_cli(int argc, char **argv, const struct oc_profile *unused,
		   int (*resolve)(const char *name, struct oc_profile *p));

#endif
