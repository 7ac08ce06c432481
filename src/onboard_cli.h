/* onboard_cli.h: the `opsconsole onboard` subcommand. */
#ifndef OC_ONBOARD_CLI_H
#define OC_ONBOARD_CLI_H

/* Run `opsconsole onboard ...` (argv[0] is "onboard"): the cluster's
 * profile, backend and writer come from session_setup.c, as for the
 * console. Returns the process exit code. */
int oc_onboard_cli(int argc, char **argv);

#endif
