/* agent_cli.c: the data agent (agent_cli.h). */
#include "agent_cli.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/nodeindex.h"
#include "source/collector.h"
#include "source/snapfile.h"
#include "source/source.h"

#define AGENT_SCHEMA "opsconsole.agent/1"
#define AGENT_PARTS OC_MASK_ALL

#ifdef OC_WITH_LIBSLURM
static void agent_say(json_t *o)
{
	if (o)
		json_dumpf(o, stdout, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	fputs("\n" OC_SNAPFILE_END "\n", stdout);
	fflush(stdout);
}

static void agent_error(const char *msg)
{
	agent_say(json_pack("{s:s, s:s}", "t", "error", "error", msg));
}

/* A request that libslurm holds longer than this (a controller failing
 * over: up to 1.5 x SlurmctldTimeout) ends the agent with
 * AGENT_EXIT_STUCK, rather than leave it blocked on the head node after
 * the console gave up on it (its timeout is longer, 60 s); the console
 * starts another. */
#define AGENT_WATCHDOG_S 50
#define AGENT_EXIT_STUCK 3

static void agent_stuck(int sig)
{
	(void)sig;
	static const char msg[] = "opsconsole agent: a Slurm request did not return in 50 s\n";
	ssize_t w = write(2, msg, sizeof(msg) - 1);
	(void)w;
	_exit(AGENT_EXIT_STUCK);
}

/* One refresh. The frame carries seq, a number of this agent's own; the
 * console names the last one it applied as base. When base is not the
 * last frame sent (the console refused it, or this agent is new), every
 * part is refreshed and sent whole. Otherwise the parts whose table is
 * not prev's are sent, nodes and jobs as deltas against prev (and every
 * indexed part when the node layout changed, since the console's indexes
 * point into the old node table). */
static int agent_refresh(struct oc_backend *b, struct oc_snapshot **prev, uint64_t *last, unsigned mask,
			 unsigned inval, uint64_t base)
{
	bool full = !*prev || base != *last;
	if (full)
		mask = inval = AGENT_PARTS;
	if (inval && b->ops->invalidate)
		b->ops->invalidate(b, inval & AGENT_PARTS);
	alarm(AGENT_WATCHDOG_S);
	struct oc_snapshot *next = oc_collector_refresh_once(b, mask & AGENT_PARTS, *prev);
	alarm(0);
	if (!next) {
		agent_error("out of memory");
		return -1;
	}
	const struct oc_snapshot *p = *prev;
	/* The accounting is loaded whole each time it is asked (no
	 * last_update): unchanged, the console keeps its table. */
	if (p && !full && next->accounting != p->accounting && oc_snapfile_acct_same(next->accounting, p->accounting)) {
		oc_accounting_unref(&next->accounting);
		next->accounting = oc_accounting_ref(p->accounting);
	}
	unsigned send = full ? AGENT_PARTS : 0;
	if (!p || next->nodes != p->nodes)
		send |= OC_MASK(OC_PART_NODES);
	if (!p || next->partitions != p->partitions)
		send |= OC_MASK(OC_PART_PARTITIONS);
	if (!p || next->jobs != p->jobs)
		send |= OC_MASK(OC_PART_JOBS);
	if (!p || next->reservations != p->reservations)
		send |= OC_MASK(OC_PART_RESV);
	if (!p || next->accounting != p->accounting)
		send |= OC_MASK(OC_PART_ACCT);
	if (p && !oc_nodes_same_layout(p->nodes, next->nodes))
		send |= OC_MASK(OC_PART_PARTITIONS) | OC_MASK(OC_PART_JOBS) | OC_MASK(OC_PART_RESV);
	char err[256];
	/* Deltas against what the console holds: prev, unless it asked for
	 * whole tables. */
	next->seq = ++*last;
	int rc = oc_snapfile_write_frame(stdout, next, full ? NULL : p, send, err, sizeof(err));
	oc_snapshot_unref(prev);
	*prev = next;
	if (rc < 0)
		fprintf(stderr, "opsconsole agent: %s\n", err);
	return rc;
}

/* `ping {"ctld": [HOST...], "dbd": [HOST...]}`: the controllers the
 * console's configuration names (in its order, which is slurm_ping's
 * index), pinged from here. */
static void agent_ping(struct oc_backend *b, const char *arg)
{
	json_error_t je;
	json_t *o = json_loads(arg, 0, &je), *ctld = NULL, *dbd = NULL;
	struct oc_controllers c;
	memset(&c, 0, sizeof(c));
	if (json_unpack(o, "{s:o, s:o}", "ctld", &ctld, "dbd", &dbd) < 0 || !json_is_array(ctld) ||
	    !json_is_array(dbd) || json_array_size(ctld) > OC_CTLD_MAX || json_array_size(dbd) > 2) {
		json_decref(o);
		agent_error("ping: want {\"ctld\": [hosts], \"dbd\": [at most 2 hosts]}");
		return;
	}
	size_t i;
	json_t *v;
	json_array_foreach(ctld, i, v) snprintf(c.v[c.n++].host, sizeof(c.v[0].host), "%s",
						json_is_string(v) ? json_string_value(v) : "");
	json_array_foreach(dbd, i, v) snprintf(c.dbd[c.ndbd++].host, sizeof(c.dbd[0].host), "%s",
					       json_is_string(v) ? json_string_value(v) : "");
	json_decref(o);
	if (b->ops->ping) {
		alarm(AGENT_WATCHDOG_S);
		b->ops->ping(b, &c);
		alarm(0);
	}
	json_t *a = json_array(), *d = json_array();
	for (int k = 0; k < c.n; k++)
		json_array_append_new(a, json_integer(c.v[k].state));
	for (int k = 0; k < c.ndbd; k++)
		json_array_append_new(d, json_integer(c.dbd[k].state));
	agent_say(json_pack("{s:s, s:o, s:o, s:s, s:s}", "t", "ping", "ctld", a, "dbd", d, "error", c.error, "note",
			    c.dbd_note));
}
#endif

int oc_agent_cli(int argc, char **argv)
{
	static const struct option opts[] = {
		{"slurm-conf", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *conf = NULL;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'f': conf = optarg; break;
		case 'h':
			printf("Usage: opsconsole agent [--slurm-conf FILE]\n"
			       "The data agent a remote console starts on the head node over SSH\n"
			       "(docs/ssh.md): requests on stdin, snapshot frames on stdout.\n");
			return 0;
		default: fprintf(stderr, "Usage: opsconsole agent [--slurm-conf FILE]\n"); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "opsconsole agent: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
#ifndef OC_WITH_LIBSLURM
	(void)conf;
	fprintf(stderr, "opsconsole agent: this build has no libslurm\n");
	return 1;
#else
	char err[512];
	struct oc_backend *b = oc_slurm_backend_open(conf, err, sizeof(err));
	if (!b) {
		fprintf(stderr, "opsconsole agent: %s\n", err);
		return 1;
	}
	/* Frames of 100,000 jobs are tens of MB: a large stdio buffer. */
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	signal(SIGALRM, agent_stuck);
	struct oc_snapshot *prev = NULL;
	/* The frames' numbers start where no other agent's would: a console
	 * that names another agent's frame as its base gets whole tables. */
	uint64_t last = ((uint64_t)time(NULL) << 20) ^ ((uint64_t)getpid() << 1);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		unsigned mask, inval;
		unsigned long long base;
		char extra;
		if (strcmp(line, "hello") == 0) {
			agent_say(json_pack("{s:s, s:s, s:s, s:s}", "t", "hello", "schema", AGENT_SCHEMA, "version",
					    OC_VERSION, "slurm", oc_slurm_build_version()));
		} else if (sscanf(line, "refresh %u %u %llu %c", &mask, &inval, &base, &extra) == 3) {
			if (agent_refresh(b, &prev, &last, mask, inval, (uint64_t)base) < 0) {
				rc = 1;
				break;
			}
		} else if (strncmp(line, "ping ", 5) == 0) {
			agent_ping(b, line + 5);
		} else {
			agent_error("unknown request (hello, refresh MASK INVAL BASE, ping {...})");
		}
	}
	free(line);
	oc_snapshot_unref(&prev);
	oc_backend_close(&b);
	return rc;
#endif
}
