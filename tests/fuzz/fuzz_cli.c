/* fuzz_cli.c: the CLI backend's parsers of what the Slurm commands print
 * (source/cli_json.c, cli_text.c: `sinfo --json`, `squeue --json`,
 * `scontrol show partition|reservation|config|assoc_mgr|job`, `sacctmgr
 * -P -n`, sacct's history and sacctmgr's node events, cli_hist.c; the job
 * panel's scontrol show job, sprio and sacct -j; scontrol ping and
 * sacctmgr ping). The first byte picks the parser, the rest is the command's
 * output (followed by a NUL, as a transport returns it). Properties: 0 with a table or -1 with a message and no table;
 * every node index of a table points into the node table it was resolved
 * against; rows hold NUL-terminated names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions/writer.h"
#include "core/arena.h"
#include "core/nodeindex.h"
#include "fuzz_util.h"
#include "source/cli_parse.h"

/* The node table lists are resolved against: gpu-st-b300-[1-16]. */
static struct oc_nodes *fuzz_nodes(void)
{
	static struct oc_nodes *t;
	if (t)
		return t;
	t = oc_nodes_new();
	FUZZ_ASSERT(t != NULL, "ENOMEM");
	t->v = calloc(16, sizeof(*t->v));
	FUZZ_ASSERT(t->v != NULL, "ENOMEM");
	for (int i = 0; i < 16; i++) {
		char name[32];
		snprintf(name, sizeof(name), "gpu-st-b300-%d", i + 1);
		t->v[i].name = oc_arena_strdup(&t->h.arena, name);
	}
	t->n = 16;
	return t;
}

static void fuzz_idx(const uint32_t *idx, uint32_t n, size_t nnodes)
{
	for (uint32_t i = 0; i < n; i++)
		FUZZ_ASSERT(idx && idx[i] < nnodes, "a node index outside the node table");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	/* The parsers take a command's output as the transports return it:
	 * len bytes and a NUL after them. */
	size_t len = size - 1;
	char *text = malloc(len + 1);
	FUZZ_ASSERT(text != NULL, "ENOMEM");
	memcpy(text, data + 1, len);
	text[len] = '\0';
	char err[512] = "";
	struct oc_nodes *nodes = fuzz_nodes();
	struct oc_node_index ix = {.nodes = nodes};
	int rc = -1;
	switch (data[0] % 15) {
	case 0: {
		struct oc_nodes *out = NULL;
		rc = oc_cli_parse_nodes_json(text, len, NULL, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++)
			FUZZ_ASSERT(out->v[i].name != NULL, "a node without a name");
		oc_nodes_unref(&out);
		break;
	}
	case 1: {
		struct oc_jobs *out = NULL;
		rc = oc_cli_parse_jobs_json(text, len, &ix, NULL, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++)
			fuzz_idx(out->v[i].node_idx, out->v[i].node_count, nodes->n);
		oc_jobs_unref(&out);
		break;
	}
	case 2: {
		struct oc_partitions *out = NULL;
		rc = oc_cli_parse_partitions(text, len, &ix, NULL, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++) {
			FUZZ_ASSERT(out->v[i].name != NULL, "a partition without a name");
			fuzz_idx(out->v[i].node_idx, out->v[i].node_count, nodes->n);
		}
		oc_partitions_unref(&out);
		break;
	}
	case 3: {
		struct oc_reservations *out = NULL;
		rc = oc_cli_parse_reservations(text, len, &ix, NULL, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++)
			fuzz_idx(out->v[i].node_idx, out->v[i].node_idx_count, nodes->n);
		oc_reservations_unref(&out);
		break;
	}
	case 4: {
		struct oc_config *out = NULL;
		rc = oc_cli_parse_config(text, len, NULL, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++)
			FUZZ_ASSERT(out->keys[i] != NULL, "a key without a name");
		oc_config_unref(&out);
		break;
	}
	case 7: {
		/* One job's record (read_job), job 113: found only with 0. */
		struct oc_job_now out;
		rc = oc_cli_parse_job_now(text, len, 113, &out, err, sizeof(err));
		FUZZ_ASSERT(rc == 0 || !out.found, "a job found with an error");
		FUZZ_ASSERT(memchr(out.partition, '\0', sizeof(out.partition)) && memchr(out.qos, '\0', sizeof(out.qos)) &&
				    memchr(out.reason, '\0', sizeof(out.reason)),
			    "a job's text not terminated");
		FUZZ_ASSERT((unsigned)out.state < OC_JOB_STATE_COUNT, "a job state out of range");
		break;
	}
	case 8: {
		/* sacct's history output (24.11's fields when the second byte is odd). */
		struct oc_history *out = NULL;
		int version = len && (text[0] & 1) ? 2411 : 2205;
		rc = oc_cli_parse_history(text, len, version, 0, (time_t)4102444800, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++)
			FUZZ_ASSERT(out->v[i].job_id != 0 && out->v[i].end_time > 0, "a history row without id or end");
		oc_history_unref(&out);
		break;
	}
	case 9: {
		/* sacctmgr show event of cluster llm-poc. */
		struct oc_events *out = NULL;
		rc = oc_cli_parse_events(text, len, "llm-poc", &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->n; i++)
			FUZZ_ASSERT(out->v[i].node != NULL && out->v[i].state != NULL, "an event without node or state");
		oc_events_unref(&out);
		break;
	}
	case 10: {
		/* sdiag. */
		struct oc_sched *out = NULL;
		rc = oc_cli_parse_sdiag(text, len, &out, err, sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		oc_sched_unref(&out);
		break;
	}
	case 11:
	case 12:
	case 13: {
		/* The job panel's commands: scontrol show job (11), sprio (12),
		 * sacct -j (13), for job 164. */
		struct oc_jobinfo *t = oc_jobinfo_new();
		FUZZ_ASSERT(t != NULL, "ENOMEM");
		t->job_id = 164;
		if (data[0] % 15 == 11)
			rc = oc_cli_parse_jobinfo_live(text, len, t, false, err, sizeof(err));
		else if (data[0] % 15 == 12)
			rc = oc_cli_parse_sprio(text, len, t, err, sizeof(err));
		else
			rc = oc_cli_parse_jobinfo_sacct(text, len, t, err, sizeof(err));
		for (size_t i = 0; i < t->nparts; i++)
			FUZZ_ASSERT(t->parts[i].job_id != 0, "a part without a job id");
		if (rc < 0)
			FUZZ_ASSERT(t->nprio == 0 && t->nsteps == 0 && !t->db, "a failed parse left rows");
		for (size_t i = 0; i < t->nsteps; i++)
			FUZZ_ASSERT(t->steps[i].id[0] != '\0', "a step without an id");
		oc_jobinfo_unref(&t);
		break;
	}
	case 14: {
		/* scontrol ping / sacctmgr ping: the lines read, or -1 with no
		 * state set; every state one of the three. */
		struct oc_ctld v[3];
		memset(v, 0, sizeof(v));
		int lines = oc_cli_parse_ping(text, len, (len & 1) ? "slurmdbd" : "Slurmctld", v, 3);
		FUZZ_ASSERT(lines == -1 || lines >= 1, "a line count below 1");
		for (int i = 0; i < 3; i++) {
			FUZZ_ASSERT(v[i].state == OC_CTLD_UNKNOWN || v[i].state == OC_CTLD_UP ||
					    v[i].state == OC_CTLD_DOWN,
				    "a state out of range");
			FUZZ_ASSERT(lines > 0 || v[i].state == OC_CTLD_UNKNOWN, "a state set from no line");
		}
		rc = 0;
		break;
	}
	default: {
		/* assoc_mgr text alone (5), or split at the first NUL into
		 * assoc_mgr, sacctmgr assoc and sacctmgr qos output (6). */
		const char *parts[3] = {text, NULL, NULL};
		size_t lens[3] = {len, 0, 0};
		if (data[0] % 15 == 6) {
			for (int p = 0; p < 2; p++) {
				const char *nul = memchr(parts[p], '\0', lens[p]);
				if (!nul)
					break;
				parts[p + 1] = nul + 1;
				lens[p + 1] = lens[p] - (size_t)(nul + 1 - parts[p]);
				lens[p] = (size_t)(nul - parts[p]);
			}
		}
		struct oc_accounting *out = NULL;
		rc = oc_cli_parse_assoc_mgr(parts[0], lens[0], parts[1], lens[1], parts[2], lens[2], NULL, &out, err,
					    sizeof(err));
		FUZZ_ASSERT(rc < 0 ? out == NULL : out != NULL, "table and return code disagree");
		for (size_t i = 0; out && i < out->nassocs; i++)
			FUZZ_ASSERT(out->assocs[i].account != NULL, "an association without an account");
		oc_accounting_unref(&out);
		break;
	}
	}
	FUZZ_ASSERT(rc == 0 || rc == -1, "rc is not 0 or -1");
	if (rc < 0)
		FUZZ_ASSERT(err[0] != '\0', "refused without a message");
	oc_node_index_free(&ix);
	free(text);
	return 0;
}
