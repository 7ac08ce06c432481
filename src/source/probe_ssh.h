/* probe_ssh.h: the node probes' runner (actions/probe.h) over SSH: one
 * libssh session per node (oc_ssh_transport_open with a copy of the
 * profile's probes.ssh whose host is the node's NodeAddr, or its name when
 * probes.connect_to is "name"), one command per check on that session. */
#ifndef OC_SOURCE_PROBE_SSH_H
#define OC_SOURCE_PROBE_SSH_H

#include <stddef.h>

#include "actions/probe.h"
#include "core/profile.h"

/* A runner for the probes of pc (its ssh login and connect_to are
 * copied). Returns a malloc'd runner to free with oc_probe_runner_free,
 * or NULL with err on ENOMEM. */
struct oc_probe_runner *oc_probe_ssh_runner_new(const struct oc_probe_config *pc, char *err, size_t errlen);

#endif
