/* connect.h: how the program reaches the cluster, chosen from the profile
 * (connect.c): the libslurm backend and writer in this process, or the
 * CLI backend and writer (source/cli_source.h) over a transport. The
 * front ends reach it through session_setup.h. */
#ifndef OC_CONNECT_H
#define OC_CONNECT_H

#include <stdbool.h>
#include <stddef.h>

#include "actions/writer.h"
#include "core/profile.h"
#include "source/source.h"
#include "source/transport.h"

struct oc_connection {
	bool cli;                       /* the CLI backend and writer */
	struct oc_transport *transport; /* theirs; NULL for libslurm */
	char slurm_bin[4096];
};

/* Open the backend p asks for ("backend": "libslurm", "cli", or auto:
 * libslurm when built with it and no "ssh" head node is named, else the
 * CLI) and, for the CLI, its transport, into *c (zeroed first). Sets
 * SLURM_CONF from p for libslurm and for the commands the local
 * transport runs. Returns the backend (free with oc_backend_close, or let
 * the collector own it), or NULL with err (c then holds nothing). */
struct oc_backend *oc_connect_backend(const struct oc_profile *p, struct oc_connection *c, char *err,
				      size_t errlen);

/* The writer that goes with c's backend into *w. Returns 0, or -1 with
 * err. Release with oc_connect_writer_fini. */
int oc_connect_writer(struct oc_connection *c, struct oc_writer *w, char *err, size_t errlen);
void oc_connect_writer_fini(struct oc_connection *c, struct oc_writer *w);

/* Close c's transport (after its backend and writer are gone) and clear
 * c. */
void oc_connect_close(struct oc_connection *c);

/* A word for --version and messages: "libslurm 22.05.8" or "the Slurm
 * commands (built without libslurm)". Static. */
const char *oc_connect_build_info(void);

#endif
