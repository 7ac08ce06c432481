/* model.h: the cluster as the console sees it. Plain C, no Slurm types.
 *
 * A snapshot is immutable once published. It is made of tables (nodes,
 * partitions, jobs, reservations); each table is reference counted on its
 * own so that a refresh in which slurmctld answered "no change" for a part
 * shares that part with the previous snapshot instead of copying it.
 * Strings of a table live in its arena and die with the table.
 */
#ifndef OC_CORE_MODEL_H
#define OC_CORE_MODEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/arena.h"

/* Sentinel for "no value / unlimited" in 32-bit counters and limits. */
#define OC_NONE UINT32_MAX

/* What every table carries besides its rows. */
struct oc_table_head {
	atomic_int refs;
	struct oc_arena arena;
	time_t slurm_update;   /* Slurm's last_update of this data */
	uint64_t generation;   /* bumps when the rows changed */
};

/* ---- nodes ------------------------------------------------------------ */

/* Base state of a node, as sinfo's first word. */
enum oc_node_base {
	OC_NODE_UNKNOWN = 0,
	OC_NODE_DOWN,
	OC_NODE_IDLE,
	OC_NODE_ALLOCATED,
	OC_NODE_MIXED,
	OC_NODE_FUTURE,
};

/* State flags, independent of Slurm's bit values (the source maps them). */
enum oc_node_flag {
	OC_NF_DRAIN = 1u << 0,
	OC_NF_COMPLETING = 1u << 1,
	OC_NF_NOT_RESPONDING = 1u << 2,
	OC_NF_POWERED_DOWN = 1u << 3,
	OC_NF_POWERING_UP = 1u << 4,
	OC_NF_POWERING_DOWN = 1u << 5,
	OC_NF_POWER_DOWN_PENDING = 1u << 6, /* power down requested, '!' */
	OC_NF_FAIL = 1u << 7,
	OC_NF_MAINT = 1u << 8,
	OC_NF_RESERVED = 1u << 9,
	OC_NF_REBOOT_REQUESTED = 1u << 10,
	OC_NF_REBOOT_ISSUED = 1u << 11,
	OC_NF_PLANNED = 1u << 12,
	OC_NF_CLOUD = 1u << 13,
	OC_NF_INVALID_REG = 1u << 14,
	OC_NF_DYNAMIC = 1u << 15,           /* DYNAMIC_NORM */
	OC_NF_BLOCKED = 1u << 16,           /* 24.05+: blocked by an exclusive topology block */
	OC_NF_EXTERNAL = 1u << 17,          /* 25.05+: an external node, no slurmd */
	OC_NF_DYNAMIC_FUTURE = 1u << 18,
	OC_NF_POWER_UP = 1u << 19,          /* power up requested */
	OC_NF_POWER_DRAIN = 1u << 20,       /* power down asap: drain, then power down */
	OC_NF_REBOOT_CANCEL = 1u << 21,
	OC_NF_RESUME = 1u << 22,
	OC_NF_UNDRAIN = 1u << 23,
	OC_NF_OTHER = 1u << 24,             /* flags with no name here: oc_node.other_flags */
};

struct oc_node {
	const char *name;
	const char *addr;         /* NodeAddr, NULL when not known */
	enum oc_node_base base;
	uint32_t flags;           /* enum oc_node_flag */
	/* State words the console has no flag for (a newer Slurm's, or a base
	 * such as ERROR), as Slurm names them, '+' before each: "+FOO+BAR";
	 * a bit libslurm set that this build does not know is "+0x10000000".
	 * Set with OC_NF_OTHER; NULL when none. Never dropped: oc_node_state_long
	 * prints them, oc_node_state_compact marks the state with '?'. */
	const char *other_flags;
	const char *reason;       /* NULL when none */
	const char *reason_user;  /* user name (or uid as text), NULL if none */
	time_t reason_time;
	uint32_t cpus, alloc_cpus;
	uint64_t mem_mb, alloc_mem_mb;
	uint32_t gpus, alloc_gpus;
	const char *cfg_tres;     /* "cpu=192,mem=400000M,billing=192,gres/gpu=8" */
	const char *alloc_tres;
	const char *partitions;   /* comma separated, may be NULL */
	const char *features;
	const char *version;      /* slurmd version */
	time_t boot_time, slurmd_start_time;
	uint32_t cpu_load;        /* x100 */
};

/* ---- partitions -------------------------------------------------------- */

enum oc_part_flag {
	OC_PF_DEFAULT = 1u << 0,
	OC_PF_HIDDEN = 1u << 1,
	OC_PF_ROOT_ONLY = 1u << 2,
	OC_PF_UP = 1u << 3,        /* State=UP */
	OC_PF_DRAIN = 1u << 4,     /* State=DRAIN (no new jobs) */
	OC_PF_INACTIVE = 1u << 5,  /* State=INACTIVE */
	OC_PF_EXCLUSIVE_USER = 1u << 6,
};

struct oc_partition {
	const char *name;
	const char *nodes;        /* hostlist expression as configured */
	uint32_t flags;           /* enum oc_part_flag */
	const char *allow_groups; /* NULL = all */
	const char *allow_accounts;
	const char *allow_qos;
	const char *qos;          /* partition QOS */
	uint32_t priority_tier;
	uint32_t max_time_min;    /* OC_NONE = unlimited */
	uint32_t grace_time_s;
	uint32_t preempt_mode;    /* raw, for display only */
	uint32_t total_nodes, total_cpus;
	/* Indexes of this partition's nodes in the snapshot's node table,
	 * resolved against the node table it was built with. */
	uint32_t *node_idx;
	uint32_t node_count;
};

/* ---- jobs -------------------------------------------------------------- */

enum oc_job_state {
	OC_JOB_PENDING = 0,
	OC_JOB_RUNNING,
	OC_JOB_SUSPENDED,
	OC_JOB_COMPLETE,
	OC_JOB_CANCELLED,
	OC_JOB_FAILED,
	OC_JOB_TIMEOUT,
	OC_JOB_NODE_FAIL,
	OC_JOB_PREEMPTED,
	OC_JOB_BOOT_FAIL,
	OC_JOB_DEADLINE,
	OC_JOB_OOM,
	OC_JOB_STATE_COUNT,
};

enum oc_job_flag {
	OC_JF_COMPLETING = 1u << 0,
	OC_JF_CONFIGURING = 1u << 1,
	OC_JF_REQUEUED = 1u << 2,
	OC_JF_RESIZING = 1u << 3,
	OC_JF_HELD = 1u << 4,
	OC_JF_LIMITED = 1u << 5,   /* pending on an association or QoS limit */
};

struct oc_job {
	uint32_t job_id;
	uint32_t array_job_id;    /* 0 when not an array */
	uint32_t array_task_id;   /* OC_NONE when not an array task */
	uint32_t het_job_id, het_job_offset; /* a het job's component: leader's id and offset; id 0 when none */
	const char *array_tasks;  /* a pending array's own record: the task ids left ("2-4%1"), else NULL */
	const char *name;
	const char *user;
	const char *account;
	const char *partition;    /* may be a comma list for pending jobs */
	const char *qos;
	enum oc_job_state state;
	uint32_t flags;           /* enum oc_job_flag */
	const char *reason;       /* pending/held reason as squeue prints it, NULL = None */
	const char *nodes;        /* allocated nodes (hostlist), or NULL */
	time_t submit_time, start_time, end_time;
	uint32_t time_limit_min;  /* OC_NONE = unlimited */
	uint32_t num_nodes, num_cpus;
	uint32_t gpus;            /* allocated (running) or requested (pending) */
	uint32_t priority;
	/* Indexes of its allocated nodes in the node table the jobs table was
	 * resolved against (see oc_jobs.node_generation); NULL when none.
	 * Set for the jobs oc_job_holds_nodes says hold nodes. */
	uint32_t *node_idx;
	uint32_t node_count;
};

/* ---- reservations ------------------------------------------------------ */

struct oc_reservation {
	const char *name;
	const char *nodes;
	const char *users;
	const char *accounts;
	const char *flags;        /* "MAINT,IGNORE_JOBS" */
	time_t start_time, end_time;
	uint32_t node_count;
	/* Indexes of its nodes in the node table (resolved like jobs'). */
	uint32_t *node_idx;
	uint32_t node_idx_count;
};

/* ---- accounting: slurmctld's association manager ----------------------- */

#define OC_NOLIMIT UINT64_MAX

/* One TRES of a group limit: the limit (OC_NOLIMIT when none) and what the
 * association or QoS uses now. Memory in MB. */
struct oc_tres_use {
	uint64_t limit;
	uint64_t used;
};

enum oc_tres_kind { OC_TRES_GPU = 0, OC_TRES_CPU, OC_TRES_MEM, OC_TRES_NODE, OC_TRES_KINDS };

struct oc_assoc {
	const char *account;
	const char *user;          /* NULL for the account's own association */
	const char *parent;        /* parent account ("root"), NULL for root */
	const char *partition;     /* NULL unless the association is per partition */
	struct oc_tres_use grp[OC_TRES_KINDS]; /* GrpTRES */
	const char *grp_tres;      /* the whole GrpTRES as names ("gres/gpu=64"), NULL if none */
	uint32_t grp_jobs, grp_submit;         /* OC_NONE = no limit */
	uint32_t max_jobs, max_submit;         /* per association; OC_NONE = none */
	const char *qos;           /* allowed QoS names, comma separated, NULL = none */
	const char *def_qos;       /* NULL = none */
	uint32_t shares;           /* fair-share, OC_NONE = parent */
	/* Fair share as the association manager computes it (what `sshare`
	 * prints): normalised shares, raw, normalised and effective usage,
	 * the fair-share factor. have_fairshare false: not sent (no
	 * usage record); the CLI backend reads them as `scontrol show
	 * assoc_mgr` prints them, to two decimals. */
	bool have_fairshare;
	double shares_norm, usage_raw, usage_norm, usage_efctv, fs_factor;
};

struct oc_qos {
	const char *name;
	uint32_t priority;
	uint32_t max_jobs_pu, max_submit_pu;   /* per user; OC_NONE = none */
	uint32_t grp_jobs, grp_submit;         /* OC_NONE = none */
	struct oc_tres_use grp[OC_TRES_KINDS]; /* GrpTRES of the QoS */
	const char *max_tres_pu;   /* MaxTRESPerUser as names, NULL if none */
	const char *preempt_mode;  /* NULL = cluster default */
};

struct oc_accounting {
	struct oc_table_head h;
	struct oc_assoc *assocs;
	size_t nassocs;
	struct oc_qos *qos;
	size_t nqos;
	bool enabled;              /* AccountingStorageType is not none */
	/* Why the limits may be stale or missing, "" when slurmdbd answers:
	 * "slurmdbd unreachable since 14:02:11: ...". The association manager
	 * of slurmctld keeps enforcing its cached limits meanwhile. */
	char dbd_error[160];
};

/* ---- history: ended jobs from slurmdbd (sacct -a -X) -------------------- */

struct oc_hjob {
	uint32_t job_id;
	uint32_t array_job_id;    /* 0 when not an array */
	uint32_t array_task_id;   /* OC_NONE when not an array task */
	uint32_t het_job_id, het_job_offset; /* 0 / OC_NONE when not a het job */
	const char *name, *user, *account, *partition, *qos;
	const char *nodes;        /* NodeList, NULL when none */
	const char *work_dir, *submit_line; /* NULL when slurmdbd has none */
	enum oc_job_state state;
	uint32_t flags;           /* OC_JF_REQUEUED */
	int exit_code, signal;    /* ExitCode "code:signal" */
	time_t submit_time, start_time, end_time;
	uint32_t elapsed_s;
	uint32_t time_limit_min;  /* OC_NONE = unlimited */
	uint32_t num_nodes, num_cpus, gpus;
	uint32_t requeues;        /* Restarts (24.11+ on both backends), OC_NONE when not known */
};

/* What a report table (history, events) says of its load. */
struct oc_report_info {
	time_t since, until;      /* the window asked, resolved */
	char since_spec[48], until_spec[48]; /* as given ("now-24hours", "" = now) */
	bool enabled;             /* false: AccountingStorageType=none */
	double load_s;            /* how long the load took */
	size_t skipped;           /* records that did not read (CLI backend), left out */
};

/* The jobs that ended in a window, as read; loaded on demand (the history
 * view, --once history), never at the refresh rate. */
struct oc_history {
	struct oc_table_head h;
	struct oc_hjob *v;        /* in the arena, or v_heap */
	size_t n;
	struct oc_report_info r;
	struct oc_hjob *v_heap;   /* v when malloc'd (grown while loading), freed with the table */
};

/* ---- node events from slurmdbd (sacctmgr show event) -------------------- */

/* One period a node spent down or drained, as slurmdbd recorded it. */
struct oc_event {
	const char *node;
	time_t start, end;        /* end 0: still going on */
	const char *state;        /* as sacctmgr prints it: "DOWN", "DRAIN", "IDLE*" */
	const char *reason;       /* NULL when none */
	const char *user;         /* who set the reason (name, or uid as text), NULL when not known */
};

/* A line of ParallelCluster's clustermgtd log that names nodes
 * (core/pclog.h): what the platform did to them (found unhealthy, set
 * DOWN, terminated, replaced). */
struct oc_pclog_line {
	time_t when;
	const char *level;        /* "INFO", "WARNING", "ERROR" */
	const char *text;         /* the message, after the logger's fields */
};

/* The node events that overlap a window, loaded on demand like the history. */
struct oc_events {
	struct oc_table_head h;
	struct oc_event *v;
	size_t n;
	struct oc_report_info r;
	/* On ParallelCluster, with the events: the clustermgtd log's lines of
	 * the window that name nodes, oldest first. pc_path NULL: not read
	 * (not ParallelCluster); pc_error set: could not be read. */
	const char *pc_path;
	struct oc_pclog_line *pc;
	size_t npc;
	const char *pc_error;
};

/* ---- scheduler statistics (sdiag) ---------------------------------------- */

/* RPCs of one message type or one user since the counters were reset. */
struct oc_rpc_stat {
	uint32_t id;              /* message type or uid */
	const char *name;         /* "REQUEST_JOB_INFO", "root"; NULL when not known */
	uint32_t count;
	uint64_t total_us;        /* ave = total / count */
};

/* What `sdiag` shows: slurmctld's counters since req_time_start. */
struct oc_sched {
	struct oc_table_head h;
	time_t req_time, req_time_start;
	uint32_t server_threads, agent_queue, agent_count, agent_threads, dbd_agent_queue;
	uint32_t jobs_submitted, jobs_started, jobs_completed, jobs_canceled, jobs_failed;
	uint32_t jobs_pending, jobs_running;
	/* Main scheduler, microseconds. */
	uint32_t main_last_us, main_max_us, main_mean_us, main_cycles, main_queue_len;
	/* Backfill, microseconds. */
	uint32_t bf_backfilled, bf_backfilled_since_cycle, bf_cycles, bf_last_us, bf_max_us, bf_mean_us,
		bf_last_depth, bf_queue_len;
	time_t bf_last_when;
	bool bf_active;
	struct oc_rpc_stat *types, *users, *pending; /* pending: count only */
	size_t ntypes, nusers, npending;
};

/* ---- one job in full (the job panel) ------------------------------------ */

/* One step of a job as slurmdbd recorded it (what sacct lists without -X). */
struct oc_jstep {
	char id[40];              /* as sacct's JobID after the dot: "batch", "extern", "0", "1+0" */
	const char *name;
	enum oc_job_state state;
	int exit_code, signal;
	time_t start_time, end_time; /* end 0: still running */
	uint32_t elapsed_s;
	const char *nodes;
	uint32_t ntasks;          /* OC_NONE when not known */
};

/* One record slurmctld has of the job's array or het job (the job itself
 * among them): what the panel lists as its parts. */
struct oc_jpart {
	uint32_t job_id;
	uint32_t array_task_id;   /* OC_NONE when not an array task */
	uint32_t het_job_offset;  /* OC_NONE when not a het component */
	const char *array_tasks;  /* an array's pending record: its task ids ("5-20%4"), else NULL */
	enum oc_job_state state;
	const char *nodes, *reason, *partition;
	uint32_t num_nodes, gpus;
};

/* The priority factors of a pending job in one partition, weighted, as
 * sprio prints them. */
struct oc_prio {
	const char *partition;
	double age, assoc, fairshare, jobsize, part, qos, tres;
	int site, nice;
	const char *tres_text;    /* sprio's TRES column, NULL when none */
};

/* What the job panel shows beyond the queue's table, loaded for one job
 * while its panel is open (OC_REPORT_JOB): slurmctld's record (paths,
 * command, the array or het parts), the priority factors (sprio) and
 * slurmdbd's record (the submit line and the steps). Each source says on
 * its own whether it answered. */
struct oc_jobinfo {
	struct oc_table_head h;
	uint32_t job_id;
	/* slurmctld: live false when it answered that it does not know the
	 * job; live_err when it could not be asked. */
	bool live;
	char live_err[300];
	const char *work_dir, *command, *std_in, *std_out, *std_err;
	const char *tres_per_node, *dependency, *batch_host;
	uint32_t array_job_id, het_job_id; /* 0 when none */
	uint32_t restarts;        /* times requeued (Restarts), OC_NONE when not known */
	struct oc_jpart *parts;
	size_t nparts;
	/* sprio: nprio rows (one per partition); prio_err says why there are
	 * none when the job is pending ("not pending", the plugin). */
	struct oc_prio *prio;
	size_t nprio;
	char prio_err[300];
	/* slurmdbd: db false with db_err when it could not be asked or has
	 * no record yet. */
	bool db;
	char db_err[300];
	const char *submit_line;
	struct oc_jstep *steps;
	size_t nsteps;
};

/* The lists loaded on demand for a window (oc_collector_set_report); the
 * job report loads one job (its "since" is the job id). */
enum oc_report { OC_REPORT_NONE = 0, OC_REPORT_HISTORY, OC_REPORT_EVENTS, OC_REPORT_SCHED, OC_REPORT_JOB, OC_REPORT_COUNT };

/* ---- tables ------------------------------------------------------------ */


struct oc_nodes {
	struct oc_table_head h;
	struct oc_node *v;
	size_t n;
};

struct oc_partitions {
	struct oc_table_head h;
	struct oc_partition *v;
	size_t n;
	uint64_t node_generation; /* generation of the node table node_idx refers to */
};

struct oc_jobs {
	struct oc_table_head h;
	struct oc_job *v;
	size_t n;
	uint64_t node_generation; /* node table the node_idx refer to */
	/* The strings of v, shared by the copies of this table resolved
	 * against other node tables (oc_jobs_relink); h.arena holds v and
	 * the node indexes. Never NULL in a table from oc_jobs_new. (Tables
	 * that are never relinked may keep their strings in h.arena.) */
	struct oc_strings *str;
};

/* A reference-counted arena for strings shared between tables. */
struct oc_strings {
	atomic_int refs;
	struct oc_arena arena;
};

struct oc_reservations {
	struct oc_table_head h;
	struct oc_reservation *v;
	size_t n;
	uint64_t node_generation;
};

/* How fresh a part of the snapshot is: failures are data. */
struct oc_part_status {
	time_t fetched;        /* last time data came back (changed or not) */
	time_t error_since;    /* 0 when the last request worked */
	char error[160];       /* last error, "" when none */
};

/* The one way a backend marks a part read (ok) or failed ("what: why";
 * error_since kept from the first failure in a row). */
void oc_part_status_ok(struct oc_part_status *st, time_t now);
void oc_part_status_fail(struct oc_part_status *st, time_t now, const char *what, const char *why);

enum oc_part_id { OC_PART_NODES, OC_PART_PARTITIONS, OC_PART_JOBS, OC_PART_RESV, OC_PART_ACCT, OC_PART_COUNT };

/* Bits of enum oc_part_id: which parts a refresh asks for or a view shows. */
#define OC_MASK(part) (1u << (part))
#define OC_MASK_ALL ((1u << OC_PART_COUNT) - 1)
/* With a refresh's mask: the node table is not on screen (the queue,
 * quota views): its whole reload, which catches the changes slurmctld
 * does not date, may wait longer (the libslurm backend). */
#define OC_MASK_NODES_UNSEEN (1u << 30)
/* With a refresh's mask: the controller's configuration, when not loaded
 * yet, may wait for the next refresh (the first one, which loads only
 * what the screen shows: the screen is drawn without waiting for the
 * configuration's request and the controllers' ping that follows it).
 * Ignored when the accounting part is asked for (it needs to know
 * whether the cluster has accounting). */
#define OC_MASK_CONF_LATER (1u << 29)

/* ---- configuration: what `scontrol show config` prints ----------------- */

struct oc_config {
	struct oc_table_head h;
	const char **keys;        /* "AccountingStorageEnforce", "JobRequeue", ... */
	const char **values;      /* as scontrol prints them; NULL when unset */
	size_t n;
};

/* ---- controllers: every SlurmctldHost and slurmdbd host ---------------- */

#define OC_CTLD_MAX 8
enum oc_ctld_state { OC_CTLD_UNKNOWN = 0, OC_CTLD_UP, OC_CTLD_DOWN };

/* One slurmctld (SlurmctldHost[i]) or slurmdbd (AccountingStorageHost,
 * AccountingStorageBackupHost) as the console last saw it (core/ctl.h). */
struct oc_ctld {
	char host[64];            /* as configured ("oc-ctld1") */
	char addr[64];            /* "127.0.0.1", "" when the name is the address */
	enum oc_ctld_state state; /* the last ping: answered, did not, or not asked */
	bool in_control;          /* the one serving requests (slurmctld only) */
	time_t since;             /* since when it is as it is; 0 not known */
	bool since_seen;          /* since is when the console first saw it: it may be older */
};

struct oc_controllers {
	int n;                          /* SlurmctldHost count, 0 when not known */
	struct oc_ctld v[OC_CTLD_MAX];
	int in_control;                 /* index into v, -1 none or not known */
	int ndbd;                       /* 0 (no slurmdbd), 1 or 2 */
	struct oc_ctld dbd[2];          /* in_control unused */
	time_t checked;                 /* last ping, 0 never */
	char error[96];                 /* why the last ping could not look, "" */
	char dbd_note[96];              /* why a slurmdbd host reads unknown, "" */
};

struct oc_snapshot {
	atomic_int refs;
	uint64_t seq;          /* 1, 2, 3... per published snapshot */
	time_t taken;
	char cluster[64];
	char slurm_version[32];
	char slurm_user[64];   /* SlurmUser: the user Slurm itself sets reasons as */
	struct oc_nodes *nodes;
	struct oc_partitions *partitions;
	struct oc_jobs *jobs;
	struct oc_reservations *reservations;
	struct oc_accounting *accounting;
	struct oc_config *config;  /* loaded with the controller's configuration */
	struct oc_part_status status[OC_PART_COUNT];
	struct oc_controllers ctl; /* who answers: pinged by the collector (core/ctl.h) */
	/* Loaded on demand, not a part: NULL until asked for (see
	 * oc_collector_set_report); hist_status says how the last load went. */
	struct oc_history *history;
	struct oc_part_status hist_status;
	struct oc_events *events;   /* the same for the node events */
	struct oc_part_status ev_status;
	struct oc_sched *sched;     /* the same for the scheduler statistics */
	struct oc_part_status sched_status;
	struct oc_jobinfo *jobinfo; /* the same for the job whose panel is open */
	struct oc_part_status jobinfo_status;
};

/* Allocate an empty table with one reference. Returns NULL on ENOMEM. */
struct oc_nodes *oc_nodes_new(void);
struct oc_partitions *oc_partitions_new(void);
struct oc_jobs *oc_jobs_new(void);
struct oc_reservations *oc_reservations_new(void);
struct oc_accounting *oc_accounting_new(void);
struct oc_config *oc_config_new(void);
struct oc_history *oc_history_new(void);
struct oc_events *oc_events_new(void);
struct oc_sched *oc_sched_new(void);
struct oc_jobinfo *oc_jobinfo_new(void);

/* Take one more reference; returns its argument (NULL passes through). */
struct oc_nodes *oc_nodes_ref(struct oc_nodes *t);
struct oc_partitions *oc_partitions_ref(struct oc_partitions *t);
struct oc_jobs *oc_jobs_ref(struct oc_jobs *t);
struct oc_reservations *oc_reservations_ref(struct oc_reservations *t);
struct oc_accounting *oc_accounting_ref(struct oc_accounting *t);
struct oc_config *oc_config_ref(struct oc_config *t);
struct oc_history *oc_history_ref(struct oc_history *t);
struct oc_events *oc_events_ref(struct oc_events *t);
struct oc_sched *oc_sched_ref(struct oc_sched *t);
struct oc_jobinfo *oc_jobinfo_ref(struct oc_jobinfo *t);

/* Drop one reference, free on the last, and clear *t. */
void oc_nodes_unref(struct oc_nodes **t);
void oc_partitions_unref(struct oc_partitions **t);
void oc_jobs_unref(struct oc_jobs **t);
/* Whether j holds its nodes (running, suspended or completing), i.e.
 * whether its node_idx are resolved. */
bool oc_job_holds_nodes(const struct oc_job *j);
void oc_reservations_unref(struct oc_reservations **t);
void oc_accounting_unref(struct oc_accounting **t);
void oc_config_unref(struct oc_config **t);
void oc_history_unref(struct oc_history **t);
void oc_events_unref(struct oc_events **t);
void oc_sched_unref(struct oc_sched **t);
void oc_jobinfo_unref(struct oc_jobinfo **t);

/* A new snapshot with one reference and empty tables. NULL on ENOMEM. */
struct oc_snapshot *oc_snapshot_new(void);
/* Take one more reference; returns s. */
struct oc_snapshot *oc_snapshot_ref(struct oc_snapshot *s);
/* Drop one reference (tables too on the last) and clear *s. */
void oc_snapshot_unref(struct oc_snapshot **s);

/* The value of a configuration key (case-insensitive), NULL when absent
 * or unset. */
const char *oc_config_get(const struct oc_config *c, const char *key);

/* Since Slurm 24.05 `scontrol show config` (and libslurm's
 * slurm_ctl_conf_2_key_pairs) prints the keys that hold a list as
 * "Prolog[0] = /a", "Prolog[1] = /b" (Prolog, Epilog, PrologSlurmctld,
 * EpilogSlurmctld; SlurmctldHost in every release) and leaves them out
 * when unset. Both backends call this on the table they build: for every
 * such "Key[N]" with no plain "Key" in t, it adds "Key" = the values in
 * index order joined with ',' (NULL when none is set), just before
 * "Key[0]"; the indexed keys stay as scontrol prints them. So
 * oc_config_get(t, "Prolog") reads the same on 22.05 and 26.05. Returns
 * 0 (t unchanged when it has no indexed key), or -1 on ENOMEM (t then
 * unchanged too). */
int oc_config_fold_arrays(struct oc_config *t);

/* Fill a report table's r (the window as given and resolved, whether
 * accounting is enabled, how long the load took). */
void oc_report_info_set(struct oc_report_info *r, bool enabled, const char *since, const char *until, time_t s,
			time_t u, double load_s);

/* Find a node by name (linear scan; the source keeps an index for hot
 * paths). Returns its index or -1. */
long oc_nodes_find(const struct oc_nodes *t, const char *name);

#endif
