/* session_setup.h: what every front end sets up before it talks to a
 * cluster, in one place (session_setup.c): the profile --cluster names, the
 * backend, writer and transport the profile asks for (connect.c), and the
 * audit log's path. Used by the console, --version and --record (main.c),
 * script mode (once_cli.c), `opsconsole onboard` and `opsconsole rehearse`,
 * so that a cluster is found, reached and let go of the same way in all. */
#ifndef OC_SESSION_SETUP_H
#define OC_SESSION_SETUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "actions/writer.h"
#include "connect.h"
#include "core/profile.h"
#include "source/source.h"

/* Exit code of a usage or profile error, the same in every front end. */
#define OC_SETUP_EXIT_USAGE 2

struct oc_setup {
	const char *prog;           /* the messages' prefix: "opsconsole", "opsconsole onboard" */
	const char *snapshot;       /* a recorded file served instead of the cluster (--snapshot), or NULL */
	struct oc_profile profile;  /* zeroed until oc_setup_profile or oc_setup_unnamed */
	char audit_log[PATH_MAX];   /* where the profile's actions are logged ("" = nowhere) */
	struct oc_connection conn;
	struct oc_backend *backend; /* NULL when not open, or handed on (set it to NULL then) */
	struct oc_writer writer;    /* ops NULL until oc_setup_writer */
};

/* Zero s, with prog for the messages. */
void oc_setup_init(struct oc_setup *s, const char *prog);

/* The slurm.conf a cluster without a profile is read from: $SLURM_CONF,
 * else the default of the Slurm built against. */
const char *oc_setup_slurm_conf(void);

/* Resolve the cluster NAME (NULL: the default slurm.conf's ClusterName) to
 * its profile, and its audit log's path. Returns 0, or OC_SETUP_EXIT_USAGE
 * after printing why on stderr (an unknown name also lists the known ones
 * and where profiles are read from). */
int oc_setup_profile(struct oc_setup *s, const char *name);

/* No cluster: the default profile, named name (a snapshot without
 * --cluster), and its audit log's path. */
void oc_setup_unnamed(struct oc_setup *s, const char *name);

/* Open the backend: s->snapshot's, else the one the profile asks for with
 * its transport. Returns 0, or -1 with err and nothing open. Prints
 * nothing. */
int oc_setup_backend(struct oc_setup *s, char *err, size_t errlen);

/* The writer that goes with the backend into s->writer. Returns 0, or -1
 * with err. Prints nothing. */
int oc_setup_writer(struct oc_setup *s, char *err, size_t errlen);

/* oc_setup_backend and, with want_writer, oc_setup_writer; on failure
 * prints "PROG: CLUSTER: why" (the backend; "snapshot" for the cluster
 * with s->snapshot) or "PROG: why" (the writer) on stderr and returns -1,
 * leaving what was opened to oc_setup_close. err: the caller's buffer (its
 * size is where a long message is cut). */
int oc_setup_open(struct oc_setup *s, bool want_writer, char *err, size_t errlen);

/* Release the writer alone (before the transport goes, after whoever
 * used it has stopped). Safe when it is not open. */
void oc_setup_writer_close(struct oc_setup *s);

/* Release the writer, the backend (unless handed on) and the transport, in
 * that order. Safe on what is not open, and more than once. */
void oc_setup_close(struct oc_setup *s);

#endif
