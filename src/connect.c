/* connect.c: backend, writer and transport from the profile (connect.h). */
#include "connect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/cli_source.h"
#ifdef OC_WITH_LIBSLURM
#include "source/slurm_write.h"
#endif

/* The transport: the local one (execve on this machine), or SSH to the
 * profile's head node. With "ssh" the commands read the head node's own
 * configuration: slurm_conf is not sent along. */
static struct oc_transport *connect_transport(const struct oc_profile *p, char *err, size_t errlen)
{
	/* A remote head node: every command runs there over one libssh
	 * session (host key checked, key-only auth: docs/ssh.md). */
	if (p->ssh.host[0])
		return oc_ssh_transport_open(&p->ssh, err, errlen);
	return oc_local_transport_open(err, errlen);
}

const char *oc_connect_build_info(void)
{
#ifdef OC_WITH_LIBSLURM
	static char v[48];
	if (!v[0])
		snprintf(v, sizeof(v), "Slurm %s", oc_slurm_build_version());
	return v;
#else
	return "no libslurm: the Slurm commands";
#endif
}

struct oc_backend *oc_connect_backend(const struct oc_profile *p, struct oc_connection *c, char *err,
				      size_t errlen)
{
	memset(c, 0, sizeof(*c));
	bool cli;
	switch (p->backend) {
	case OC_BACKEND_CLI: cli = true; break;
	case OC_BACKEND_LIBSLURM:
		if (p->ssh.host[0]) {
			snprintf(err, errlen,
				 "the profile names a head node (\"ssh\": %s) and \"backend\": \"libslurm\": libslurm "
				 "only talks to the cluster from this machine (use \"cli\" or \"auto\")",
				 p->ssh.host);
			return NULL;
		}
#ifndef OC_WITH_LIBSLURM
		snprintf(err, errlen, "the profile asks for \"backend\": \"libslurm\", but this build has no libslurm "
				      "(use \"cli\" or \"auto\")");
		return NULL;
#endif
		cli = false;
		break;
	default:
#ifdef OC_WITH_LIBSLURM
		cli = p->ssh.host[0] != '\0';
#else
		cli = true;
#endif
		break;
	}
#ifdef OC_WITH_LIBSLURM
	if (!cli)
		return oc_slurm_backend_open(p->slurm_conf, err, errlen);
#else
	(void)cli; /* always the CLI */
#endif
	if (p->slurm_conf[0] && !p->ssh.host[0]) {
		if (access(p->slurm_conf, R_OK) != 0) {
			snprintf(err, errlen, "cannot read %s: %s", p->slurm_conf, strerror(errno));
			return NULL;
		}
		setenv("SLURM_CONF", p->slurm_conf, 1); /* the commands read it */
	}
	c->transport = connect_transport(p, err, errlen);
	if (!c->transport)
		return NULL;
	snprintf(c->slurm_bin, sizeof(c->slurm_bin), "%s", p->slurm_bin);
	struct oc_backend *b = oc_cli_backend_open(c->transport, c->slurm_bin, err, errlen);
	if (!b) {
		oc_transport_close(&c->transport);
		return NULL;
	}
	if (p->ssh.host[0])
		oc_cli_backend_set_agent(b, p->ssh.agent);
	c->cli = true;
	return b;
}

int oc_connect_writer(struct oc_connection *c, struct oc_writer *w, char *err, size_t errlen)
{
	if (c->cli)
		return oc_cli_writer_init(w, c->transport, c->slurm_bin, err, errlen);
#ifdef OC_WITH_LIBSLURM
	return oc_slurm_writer_init(w, err, errlen);
#else
	snprintf(err, errlen, "no backend open");
	return -1;
#endif
}

void oc_connect_writer_fini(struct oc_connection *c, struct oc_writer *w)
{
	if (!w || !w->ops)
		return;
	if (c->cli) {
		oc_cli_writer_fini(w);
		return;
	}
#ifdef OC_WITH_LIBSLURM
	oc_slurm_writer_fini(w);
#endif
}

void oc_connect_close(struct oc_connection *c)
{
	oc_transport_close(&c->transport);
	c->cli = false;
}
