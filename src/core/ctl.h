/* ctl.h: the cluster's controllers (every SlurmctldHost, the slurmdbd
 * hosts), which one answers and which one is in control, as the header,
 * the scheduler view and `--once scheduler` show them. Pure: the backend
 * pings (source.h, ping), the collector calls these around it.
 *
 * Which slurmctld is in control is not something Slurm tells a client: a
 * backup in standby answers a ping as the one in control does (its
 * standby loop answers REQUEST_PING and refuses the rest with "in standby
 * mode"). libslurm sends every request to the first controller that takes
 * it, so the one in control is the first that answers a ping, provided
 * the requests after that ping worked; when they did not, none is. */
#ifndef OC_CORE_CTL_H
#define OC_CORE_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/model.h"

/* The hosts of cfg (SlurmctldHost[i] "name(addr)", AccountingStorageHost
 * and AccountingStorageBackupHost when AccountingStorageType is slurmdbd)
 * into *out, keeping prev's state of each host that is still there.
 * With no configuration, *out is prev. */
void oc_ctl_from_config(const struct oc_config *cfg, const struct oc_controllers *prev,
			struct oc_controllers *out);

/* After a ping (c's states set, prev the controllers before it): which one
 * is in control and since when. data_ok: the requests that followed the
 * ping (or preceded the next one) worked; false when they failed, -1
 * (not known yet: between the ping and the requests) keeps prev's
 * controller in control unless it stopped answering. boot: the answering
 * controller's BOOT_TIME (0 unknown), used for the primary seen in control
 * for the first time. */
void oc_ctl_judge(struct oc_controllers *c, const struct oc_controllers *prev, int data_ok, time_t boot,
		  time_t now);

/* Whether the two differ in what the screen shows (hosts, states, the one
 * in control, since when). */
bool oc_ctl_changed(const struct oc_controllers *a, const struct oc_controllers *b);

/* The header's words for the controllers: long ("ctld oc-ctld1 in control
 * since 06:01, oc-ctld2 standby") when it fits in width, else short
 * ("ctld oc-ctld1* oc-ctld2"; * in control, ! down, ? not known). ""
 * when there is nothing to say (no configuration yet). *bad: 0 all
 * well, 1 worth a look (a backup in control, a backup down), 2 none in
 * control or the one in control is not known. */
void oc_ctl_header(const struct oc_controllers *c, int width, char *buf, size_t len, int *bad);

/* "06:01:12" or "2026-12-01 06:01" (another day), "?" for 0. */
void oc_ctl_when(time_t t, time_t now, char *buf, size_t len);

#endif
