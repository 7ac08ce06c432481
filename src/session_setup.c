/* session_setup.c: profile, connection, backend, writer and audit path,
 * the set-up every front end shares (session_setup.h). */
#include "session_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/audit.h"
#include "source/snapfile.h"

void oc_setup_init(struct oc_setup *s, const char *prog)
{
	memset(s, 0, sizeof(*s));
	s->prog = prog;
}

const char *oc_setup_slurm_conf(void)
{
	const char *env = getenv("SLURM_CONF");
	if (env && *env)
		return env;
#ifdef OC_SLURM_DEFAULT_CONF
	return OC_SLURM_DEFAULT_CONF;
#else
	return "/etc/slurm/slurm.conf";
#endif
}

/* Resolve NAME to a profile. Returns 0, or OC_SETUP_EXIT_USAGE after
 * printing why. The messages say "opsconsole:" in every front end: the
 * subcommands' tests and scripts match them as the console prints them. */
static int setup_resolve(const char *name, struct oc_profile *p)
{
	char storage[OC_PROFILE_MAX_DIRS][4096];
	const char *dirs[OC_PROFILE_MAX_DIRS];
	size_t ndirs = oc_profile_dirs(storage, dirs);
	char err[4400];
	oc_profile_defaults(p);
	if (name) {
		int rc = oc_profile_find(name, dirs, ndirs, p, err, sizeof(err));
		if (rc == 0)
			return 0;
		if (rc < 0) {
			fprintf(stderr, "opsconsole: %s\n", err);
			return OC_SETUP_EXIT_USAGE;
		}
	}
	/* No profile: the default slurm.conf, if its ClusterName matches. */
	const char *conf = oc_setup_slurm_conf();
	char conf_name[64] = "";
	int crc = oc_slurm_conf_cluster_name(conf, conf_name, sizeof(conf_name));
	if (!name && crc == 0) {
		snprintf(p->name, sizeof(p->name), "%s", conf_name);
		return 0;
	}
	if (name && crc == 0 && strcmp(conf_name, name) == 0) {
		snprintf(p->name, sizeof(p->name), "%s", name);
		snprintf(p->slurm_conf, sizeof(p->slurm_conf), "%s", conf);
		return 0;
	}
	char *known = oc_profile_list(dirs, ndirs);
	if (name)
		fprintf(stderr, "opsconsole: unknown cluster '%s'\n", name);
	else
		fprintf(stderr, "opsconsole: no --cluster given and no ClusterName in %s\n", conf);
	fprintf(stderr, "known clusters: %s%s%s\n", known && *known ? known : "(no profiles)",
		crc == 0 ? " ; default slurm.conf: " : "", crc == 0 ? conf_name : "");
	fprintf(stderr, "profiles are read from:");
	for (size_t i = 0; i < ndirs; i++)
		fprintf(stderr, " %s", dirs[i]);
	fprintf(stderr, "\n");
	free(known);
	return OC_SETUP_EXIT_USAGE;
}

int oc_setup_profile(struct oc_setup *s, const char *name)
{
	int rc = setup_resolve(name, &s->profile);
	if (rc == 0)
		oc_audit_profile_path(&s->profile, s->audit_log, sizeof(s->audit_log));
	return rc;
}

void oc_setup_unnamed(struct oc_setup *s, const char *name)
{
	oc_profile_defaults(&s->profile);
	snprintf(s->profile.name, sizeof(s->profile.name), "%s", name);
	oc_audit_profile_path(&s->profile, s->audit_log, sizeof(s->audit_log));
}

int oc_setup_backend(struct oc_setup *s, char *err, size_t errlen)
{
	/* A recorded snapshot: read-only, no transport. */
	s->backend = s->snapshot ? oc_snap_backend_open(s->snapshot, err, errlen)
				 : oc_connect_backend(&s->profile, &s->conn, err, errlen);
	return s->backend ? 0 : -1;
}

int oc_setup_writer(struct oc_setup *s, char *err, size_t errlen)
{
	return oc_connect_writer(&s->conn, &s->writer, err, errlen);
}

int oc_setup_open(struct oc_setup *s, bool want_writer, char *err, size_t errlen)
{
	if (oc_setup_backend(s, err, errlen) < 0) {
		fprintf(stderr, "%s: %s: %s\n", s->prog, s->snapshot ? "snapshot" : s->profile.name, err);
		return -1;
	}
	if (want_writer && oc_setup_writer(s, err, errlen) < 0) {
		fprintf(stderr, "%s: %s\n", s->prog, err);
		return -1;
	}
	return 0;
}

void oc_setup_writer_close(struct oc_setup *s)
{
	oc_connect_writer_fini(&s->conn, &s->writer);
}

void oc_setup_close(struct oc_setup *s)
{
	oc_setup_writer_close(s);
	oc_backend_close(&s->backend);
	oc_connect_close(&s->conn);
}
