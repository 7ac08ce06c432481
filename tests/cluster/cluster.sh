#!/usr/bin/env bash
# tests/cluster/cluster.sh - start/stop a private, real Slurm cluster "llm-poc"
#
#   cluster.sh start  [--demo] [--backup-ctld] [--backup-dbd] [--cloud-nodes] [--no-accounting] [--dir DIR] [--conf-override KEY=VALUE ...]
#   cluster.sh stop   [--dir DIR]
#   cluster.sh kill   [--dir DIR]      # SIGKILL every process of it (a crash)
#   cluster.sh status [--dir DIR]
#   cluster.sh env    [--dir DIR]      # eval "$(tests/cluster/cluster.sh env)"
#   cluster.sh demo   [--dir DIR]
#
# Everything (config, munge key and socket, MariaDB datadir and socket, spool,
# state, logs, pid files) lives under DIR, which defaults to $OC_CLUSTER_DIR or
# <repo>/build/cluster. Nothing under /etc/slurm, /etc/munge or /var/lib/mysql
# is read or written. Needs root (useradd, runuser, unshare, mknod).
#
# Facts learnt while writing this (Slurm 22.05.8, munge 0.5.15, MariaDB 10.11,
# Debian 12, 2 cores); the surprising ones are repeated next to their code:
#  * 16 slurmd on one machine: each runs in its own UTS namespace with the node
#    name as hostname, all NodeAddr=127.0.0.1, one Port= per node.
#  * GPUs that do not exist: gres.conf File= must point at *character devices*
#    (mknod c 1 3); with Count= alone or regular files the node registers
#    gres/gpu:0 and goes INVAL.
#  * Connections to slurmdbd (slurmctld, sacctmgr) take their munge socket from
#    AccountingStoragePass, not from AuthInfo: without it they look for
#    /run/munge/munge.socket.2 and fail with "Protocol authentication error".
#  * The runbook's DefMemPerGPU=480000 (sized for a ~4 TB B300 node) can never
#    be satisfied by a node with RealMemory=400000: an 8-GPU job would need
#    3.84 TB. We scale it by 1/10 (48000 x 8 = 384000 <= 400000).
#    DefMemPerGPU does nothing for jobs without GPUs: those get the node's
#    whole memory (400000M) unless they pass --mem (DefMemPerCPU would be the
#    cure, but it is mutually exclusive with DefMemPerGPU).
#  * The runbook's partition Priority=N sets PriorityTier *and*
#    PriorityJobFactor; both are spelled out.
#  * sacctmgr: `-i add account/user/qos` of something that exists prints
#    "Nothing new added." and exits 1; `add cluster` says "already exists. Not
#    adding." (exit 1); `modify` with unchanged values still succeeds.
#    `modify account root set qos+=...` propagates to *every* child account.
#    Each sacctmgr call costs ~0.2-0.45 s here, so onboarding is skipped when
#    a fingerprint of its result is unchanged.
#  * GrpTRES=gres/gpu=64 can only be set once slurmctld has registered the
#    gres/gpu TRES with slurmdbd (AccountingStorageTRES), so onboarding runs
#    after slurmctld is up.
#  * After a stop/crash slurmctld recovers jobs as RUNNING although their
#    processes are gone, and notices it only minutes later: start requeues
#    such "ghost" jobs at once (requeued jobs then wait with Reason=BeginTime).
#  * slurmd logs "mpi/pmix: can not load PMIx library" at startup even with
#    MpiDefault=none (harmless), and munged logs "Unauthorized credential for
#    client UID=0" about once per slurmd start (harmless, Slurm logs nothing).
#  * PID 1 on this VM (not an init) reaps orphans only lazily: right after
#    `stop`, `ps` may show `[slurmd] <defunct>` zombies for a while. They hold
#    no ports or files; the checks below treat zombies as gone.
set -euo pipefail
export LC_ALL=C
printf -v START_EPOCH '%(%s)T' -1

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)

CLUSTER_NAME=llm-poc
NODE_PREFIX=gpu-st-b300-
NODE_COUNT=16
CTLD_PORT=${OC_CTLD_PORT:-16817}
DBD_PORT=${OC_DBD_PORT:-16819}
DB_PORT=${OC_DB_PORT:-13306}
SLURMD_PORT_BASE=${OC_SLURMD_PORT_BASE:-17001}
TIMEOUT=${OC_CLUSTER_TIMEOUT:-40}          # seconds per daemon
DB_USER=slurm
DB_PASS=${OC_DB_PASS:-oc-slurmdbd-local}   # only reachable on 127.0.0.1
MARK_VAR=OPSCONSOLE_CLUSTER_MARK           # env marker on every daemon we start

# ---------------------------------------------------------------- helpers
info() { printf '[cluster] %s\n' "$*"; }
warn() { printf '[cluster] WARNING: %s\n' "$*" >&2; }
die()  { printf '[cluster] ERROR: %s\n' "$*" >&2; exit 1; }

now_us() { local t=${EPOCHREALTIME/./}; printf '%s' "$((10#$t))"; }
fmt_ms() { local us=$1; printf '%d.%03ds' "$((us / 1000000))" "$(((us / 1000) % 1000))"; }

usage() {
	cat <<'EOF'
usage: cluster.sh start  [--demo] [--backup-ctld] [--backup-dbd] [--cloud-nodes] [--no-accounting] [--dir DIR] [--conf-override KEY=VALUE ...]
       cluster.sh stop   [--dir DIR]
       cluster.sh kill   [--dir DIR]      # SIGKILL everything (a crash)
       cluster.sh status [--dir DIR]
       cluster.sh env    [--dir DIR]
       cluster.sh demo   [--dir DIR]
environment: OC_CLUSTER_DIR, OC_CTLD_PORT (16817), OC_DBD_PORT (16819),
  OC_DB_PORT (13306), OC_SLURMD_PORT_BASE (17001), OC_CLUSTER_TIMEOUT (40),
  OC_CLUSTER_EXTRA_CONF=file (slurm.conf lines that replace or add lines)
--backup-ctld: two SlurmctldHost, oc-ctld1 (127.0.0.1) and oc-ctld2
  (127.0.0.2), each slurmctld in its own UTS and mount namespace;
  SlurmctldTimeout=10. A start without it goes back to one controller.
--backup-dbd: a backup slurmdbd (DbdBackupHost=oc-dbd2) in its own network
  and UTS namespace, reached at 10.250.x.2 (AccountingStorageBackupHost);
  it takes over when the primary stops answering. A start without it
  stops it.
--no-accounting: AccountingStorageType=accounting_storage/none, as an AWS
  PCS cluster without accounting: slurmdbd and MariaDB are stopped, no
  sacctmgr step runs (not with --demo). A start without it goes back.
--cloud-nodes: four State=CLOUD nodes gpu-dy-b300-[1-4] in partition
  "cloud" with power saving: ResumeProgram starts their slurmd,
  SuspendProgram stops it (SuspendTime=20); gpu-dy-b300-4's resume fails.
EOF
}

# ---------------------------------------------------------------- arguments
CMD=${1:-}
[[ -n $CMD ]] || { usage >&2; exit 2; }
shift
DIR=${OC_CLUSTER_DIR:-$REPO_ROOT/build/cluster}
WANT_DEMO=0
WANT_BACKUP=0
WANT_DBD_BACKUP=0
WANT_CLOUD=0
WANT_NOACCT=0
OVERRIDES=()
while (($#)); do
	case $1 in
	--dir) [[ $# -ge 2 ]] || die "--dir needs a value"; DIR=$2; shift 2 ;;
	--dir=*) DIR=${1#--dir=}; shift ;;
	--demo) WANT_DEMO=1; shift ;;
	--backup-ctld) WANT_BACKUP=1; shift ;;
	--backup-dbd) WANT_DBD_BACKUP=1; shift ;;
	--cloud-nodes) WANT_CLOUD=1; shift ;;
	--no-accounting) WANT_NOACCT=1; shift ;;
	--conf-override)
		[[ $# -ge 2 ]] || die "--conf-override needs KEY=VALUE"
		OVERRIDES+=("$2"); shift 2 ;;
	--conf-override=*) OVERRIDES+=("${1#--conf-override=}"); shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
done
for o in "${OVERRIDES[@]}"; do
	[[ $o == *=* ]] || die "--conf-override expects KEY=VALUE, got: $o"
done
((WANT_NOACCT && WANT_DBD_BACKUP)) && die "--backup-dbd needs accounting: not with --no-accounting"
((WANT_NOACCT && WANT_DEMO)) && die "--demo needs accounting (its jobs name accounts and QoS): not with --no-accounting"
case $CMD in
start | stop | kill | status | env | demo) ;;
-h | --help | help) usage; exit 0 ;;
*) usage >&2; die "unknown command: $CMD" ;;
esac

DIR=$(realpath -m "$DIR")
# Paths end up unquoted in slurm.conf and JSON: keep them simple.
[[ $DIR =~ ^/[A-Za-z0-9._/+@:,-]*$ ]] ||
	die "cluster dir '$DIR' must be an absolute path made of [A-Za-z0-9._/+@:,-]"

ETC=$DIR/etc
CONF=$ETC/slurm.conf
DBD_CONF=$ETC/slurmdbd.conf
GRES_CONF=$ETC/gres.conf
MUNGE_DIR=$DIR/munge
MUNGE_KEY=$MUNGE_DIR/munge.key
MUNGE_SOCK=$MUNGE_DIR/munge.socket.2
MUNGE_PID=$MUNGE_DIR/munged.pid
MUNGE_LOG=$MUNGE_DIR/munged.log
MYSQL_DIR=$DIR/mysql
MY_CNF=$MYSQL_DIR/my.cnf
MY_SOCK=$MYSQL_DIR/mysqld.sock
MY_PID=$MYSQL_DIR/mariadbd.pid
LOGDIR=$DIR/log
MY_LOG=$LOGDIR/mariadb.log
RUNDIR=$DIR/run
SPOOL=$DIR/spool
STATE=$DIR/state
DEVDIR=$DIR/dev
OPS=$DIR/ops/health
DBD_PID=$RUNDIR/slurmdbd.pid
DBD_LOG=$LOGDIR/slurmdbd.log
CTLD_PID=$RUNDIR/slurmctld.pid
CTLD_LOG=$LOGDIR/slurmctld.log
# The backup controller (--backup-ctld): its own run and log folders,
# mounted over RUNDIR and LOGDIR in its mount namespace, so that the one
# slurm.conf's SlurmctldPidFile and SlurmctldLogFile are its own there.
CTLD2_DIR=$DIR/ctld2
CTLD2_PID=$CTLD2_DIR/run/slurmctld.pid
CTLD2_LOG=$CTLD2_DIR/log/slurmctld.log
CTLD_HOSTS=$ETC/hosts
# The backup slurmdbd (--backup-dbd). slurmdbd listens on every address of
# its host at DbdPort, so a second one on this machine needs a network of
# its own: a network namespace joined to ours by a veth pair, a /30 out of
# 10.250.0.0/16 picked by DbdPort (two clusters on other ports do not
# meet). Inside it is oc-dbd2 (its own UTS namespace), at DBD2_IP; it
# watches the primary at DBD2_HOST_IP, our end of the pair, and reaches
# MariaDB over its Unix socket (the file system is shared).
DBD2_DIR=$DIR/dbd2
DBD2_CONF=$DBD2_DIR/slurmdbd.conf
DBD2_PID=$DBD2_DIR/slurmdbd.pid
DBD2_LOG=$LOGDIR/slurmdbd-backup.log
DBD2_NS=ocdbd-$DBD_PORT
DBD2_VETH=od${DBD_PORT}
DBD2_HOST_IP=10.250.$((DBD_PORT / 64 % 256)).$((DBD_PORT % 64 * 4 + 1))
DBD2_IP=10.250.$((DBD_PORT / 64 % 256)).$((DBD_PORT % 64 * 4 + 2))
PROFILE_DIR=${XDG_CONFIG_HOME:-$HOME/.config}/opsconsole/clusters
PROFILE=$PROFILE_DIR/$CLUSTER_NAME.json

export SLURM_CONF=$CONF

# Daemons must not inherit a caller's descriptors (a test harness waiting for
# EOF on a pipe would hang): close everything above stderr except bash's own.
for fd in "/proc/$$/fd"/*; do
	fd=${fd##*/}
	if [[ $fd =~ ^[0-9]+$ ]] && ((fd > 2 && fd != 255)); then
		eval "exec $fd>&-" 2>/dev/null || true
	fi
done
unset fd

# The Slurm release the daemons are, as YYMM (2205, 2411, 2605).
SLURM_VNUM=""
slurm_version_num() {
	if [[ -z $SLURM_VNUM ]]; then
		local v
		v=$(slurmctld -V 2>/dev/null | awk '{ print $2 }')
		[[ $v =~ ^([0-9]+)\.([0-9]+) ]] || die "cannot tell the Slurm version from 'slurmctld -V': '$v'"
		SLURM_VNUM=$((10#${BASH_REMATCH[1]} * 100 + 10#${BASH_REMATCH[2]}))
	fi
	printf '%s\n' "$SLURM_VNUM"
}

node_name() { printf '%s%d' "$NODE_PREFIX" "$1"; }
node_pidfile() { printf '%s/slurmd-%s.pid' "$RUNDIR" "$(node_name "$1")"; }
node_log() { printf '%s/slurmd-%s.log' "$LOGDIR" "$(node_name "$1")"; }
NODE_RANGE="${NODE_PREFIX}[1-$NODE_COUNT]"
# --cloud-nodes: ParallelCluster's dynamic nodes, powered up for jobs.
CLOUD_PREFIX=gpu-dy-b300-
CLOUD_COUNT=4
CLOUD_RANGE="${CLOUD_PREFIX}[1-$CLOUD_COUNT]"
CLOUD_FAIL="${CLOUD_PREFIX}$CLOUD_COUNT"   # its resume fails: ResumeTimeout

# ---------------------------------------------------------------- processes
# alive PID: running and not a zombie.
alive() {
	local st
	[[ -r /proc/$1/stat ]] || return 1
	st=$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[[ -n $st && $st != Z && $st != X ]]
}

# pid_of PIDFILE COMM: print the pid if the file names a live process of that
# name that carries our marker (so a recycled pid is never trusted).
pid_of() {
	local pid comm
	[[ -s $1 ]] || return 1
	read -r pid <"$1" || true
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	alive "$pid" || return 1
	comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
	[[ $comm == "$2" ]] || return 1
	grep -qzxF "$MARK_VAR=$DIR" "/proc/$pid/environ" 2>/dev/null || return 1
	printf '%s\n' "$pid"
}

# Every process that belongs to this cluster:
#  - processes started by this script (env marker, inherited by slurmstepd),
#  - job processes: they live in a slurmd's UTS namespace (not ours) and have
#    SLURM_CONF=DIR/etc/slurm.conf in their environment (sbatch exports it),
#    which also catches `sleep`s orphaned by a kill -9 of their slurmstepd,
#  - all descendants of the above.
# Never this script, its ancestors, or a user shell that merely has SLURM_CONF.
cluster_pids() {
	local self_uts f pid uts seeds=() ancestors=() p
	self_uts=$(readlink /proc/$$/ns/uts)
	while IFS= read -r f; do
		pid=${f#/proc/}; pid=${pid%/environ}
		seeds+=("$pid")
	done < <(grep -slzxF "$MARK_VAR=$DIR" /proc/[0-9]*/environ 2>/dev/null || true)
	while IFS= read -r f; do
		pid=${f#/proc/}; pid=${pid%/environ}
		uts=$(readlink "/proc/$pid/ns/uts" 2>/dev/null) || continue
		[[ $uts != "$self_uts" ]] && seeds+=("$pid")
	done < <(grep -slzxF "SLURM_CONF=$CONF" /proc/[0-9]*/environ 2>/dev/null || true)
	# slurmstepd of 24.11+ has neither marker nor SLURM_CONF in its
	# environment (22.05's had); it keeps slurmd's working folder, the log
	# folder, and is reparented to pid 1.
	for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
		# -ef: the same folder, whatever mount namespace shows the path (chroots)
		[[ /proc/$pid/cwd -ef $LOGDIR ]] && seeds+=("$pid")
	done
	p=$$
	while [[ $p =~ ^[0-9]+$ && $p -gt 1 ]]; do
		ancestors+=("$p")
		p=$(awk '{ sub(/^.*\) /, ""); print $2 }' "/proc/$p/stat" 2>/dev/null) || break
	done
	ancestors+=("$BASHPID")
	ps -e -o pid=,ppid=,stat= | awk -v seeds="${seeds[*]-}" -v skip="${ancestors[*]}" '
		BEGIN { n = split(seeds, s, " "); for (i = 1; i <= n; i++) mine[s[i]] = 1
		        n = split(skip, k, " "); for (i = 1; i <= n; i++) no[k[i]] = 1 }
		$3 !~ /^Z/ { par[$1] = $2 }
		END {
			do { changed = 0
			     for (p in par) if (!(p in mine) && (par[p] in mine)) { mine[p] = 1; changed = 1 }
			} while (changed)
			for (p in mine) if ((p in par) && !(p in no)) print p
		}' | sort -n
}

# orphan_filter < pids: the ones that are neither a daemon nor below a live
# slurmstepd (their ancestry reaches pid 1 without one).
orphan_filter() {
	local pids
	pids=$(tr '\n' ' ')
	[[ -n ${pids// /} ]] || return 0
	ps -e -o pid=,ppid=,comm= | awk -v cand="$pids" '
		BEGIN { n = split(cand, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1 }
		{ par[$1] = $2; comm[$1] = $3 }
		END {
			for (p in want) {
				if (!(p in comm)) continue
				if (comm[p] ~ /^(munged|mariadbd|mysqld|slurmdbd|slurmctld|slurmscriptd|slurmd|slurmstepd)$/) continue
				q = par[p]; keep = 0; hops = 0
				while (q > 1 && (q in par) && hops++ < 64) {
					if (comm[q] == "slurmstepd") { keep = 1; break }
					q = par[q]
				}
				if (!keep) print p
			}
		}' | sort -n
}

comm_of() { cat "/proc/$1/comm" 2>/dev/null || printf '?'; }

# kill_wait SIGNAL SECONDS PID...: signal and wait until all are gone.
kill_wait() {
	local sig=$1 secs=$2 p left deadline
	shift 2
	(($#)) || return 0
	kill "-$sig" "$@" 2>/dev/null || true
	deadline=$(($(now_us) + secs * 1000000))
	while :; do
		left=()
		for p in "$@"; do alive "$p" && left+=("$p"); done
		((${#left[@]})) || return 0
		(($(now_us) < deadline)) || break
		sleep 0.1
	done
	kill -KILL "${left[@]}" 2>/dev/null || true
	return 0
}

# ---------------------------------------------------------------- waiting
# wait_for NAME LOG CHECK...: poll CHECK (a command) until it succeeds.
wait_for() {
	local name=$1 log=$2 deadline
	shift 2
	deadline=$(($(now_us) + TIMEOUT * 1000000))
	until "$@" >/dev/null 2>&1; do
		if (($(now_us) >= deadline)); then
			printf '[cluster] ERROR: %s did not come up within %ss. Log: %s\n' "$name" "$TIMEOUT" "$log" >&2
			if [[ -f $log ]]; then
				printf -- '----- last lines of %s -----\n' "$log" >&2
				tail -n 25 "$log" >&2
				printf -- '-----\n' >&2
			fi
			exit 1
		fi
		sleep 0.2
	done
}

T_STEP=0
step_begin() { T_STEP=$(now_us); }
step_end() { info "$(printf '%-10s %-8s %s' "$1" "$2" "$(fmt_ms "$(($(now_us) - T_STEP))")")"; }

# ---------------------------------------------------------------- checks
munge_ok() { munge -n -S "$MUNGE_SOCK" 2>/dev/null | unmunge -S "$MUNGE_SOCK" >/dev/null 2>&1; }
# The munge client retries a dead socket for ~2 s: look at the pid first.
munge_up() { pid_of "$MUNGE_PID" munged >/dev/null && munge_ok; }
db_ok() { mysqladmin --defaults-file="$MY_CNF" ping >/dev/null 2>&1; }
dbd_ok() { sacctmgr -n -P show cluster format=cluster >/dev/null 2>&1; }
# With a backup slurmdbd, sacctmgr is answered by whichever serves: the
# primary is up when its process lives and its port takes connections.
dbd_port_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$DBD_PORT" 2>/dev/null; }
dbd_primary_ok() {
	if ((WANT_DBD_BACKUP)); then
		pid_of "$DBD_PID" slurmdbd >/dev/null && dbd_port_open && dbd_ok
	else
		dbd_ok
	fi
}
ctld_ok() { grep -q 'is UP' <<<"$(scontrol ping 2>/dev/null)"; }
ctld_primary_ok() { grep -q '(primary) at .* is UP' <<<"$(scontrol ping 2>/dev/null)"; }
ctld_backup_ok() { grep -q '(backup) at .* is UP' <<<"$(scontrol ping 2>/dev/null)"; }

# Node lines "name state" from the controller.
node_states() { sinfo -h -N -o '%N %t' 2>/dev/null | sort -u; }
# All nodes registered: none unknown, down, not responding (*), inval or fail.
# Only the slurmd nodes count (an override may add State=CLOUD nodes).
nodes_ok() {
	local out n
	out=$(node_states) || return 1
	n=$(awk -v p="$NODE_PREFIX" 'index($1, p) == 1 && $2 !~ /(\*|unk|down|inval|fail|boot|pow|~|#|%)/' <<<"$out" | wc -l)
	((n == NODE_COUNT))
}

# ---------------------------------------------------------------- config
write_if_changed() { # write_if_changed FILE MODE < content; returns 0 if changed
	local tmp changed=1
	tmp=$(mktemp "$1.XXXXXX")
	cat >"$tmp"
	chmod "$2" "$tmp"
	if [[ -f $1 ]] && cmp -s "$tmp" "$1"; then
		rm -f "$tmp"
	else
		mv -f "$tmp" "$1"
		changed=0
	fi
	return "$changed"
}

# One controller ("localhost": every client reads it as its own host name),
# or two (--backup-ctld). Surprise (Slurm's slurm_setup_addr): slurmctld
# listens on every address unless CommunicationParameters has
# NoCtldInAddrAny; then it binds what its host name resolves to. Both run
# in a UTS namespace (host name oc-ctld1, oc-ctld2) and a mount namespace
# whose /etc/hosts (ETC/hosts) maps those names to 127.0.0.1 and
# 127.0.0.2: two controllers on one port of one machine.
ctld_hosts_conf() {
	if ((WANT_BACKUP)); then
		printf '%s\n' "SlurmctldHost=oc-ctld1(127.0.0.1)" "SlurmctldHost=oc-ctld2(127.0.0.2)" \
			"CommunicationParameters=NoCtldInAddrAny" "SlurmctldTimeout=10"
	else
		printf '%s\n' "SlurmctldHost=localhost(127.0.0.1)"
	fi
}

# The slurmdbd hosts. With --backup-dbd the primary is reached at our end
# of the veth pair: slurmdbd keeps the address slurmctld registered from
# (the connection's) as the cluster's control host and sends updates
# there, and 127.0.0.1 in the backup's namespace is not this machine.
dbd_hosts_conf() {
	if ((WANT_DBD_BACKUP)); then
		printf '%s\n' "AccountingStorageHost=$DBD2_HOST_IP" "AccountingStorageBackupHost=$DBD2_IP"
	else
		printf '%s\n' "AccountingStorageHost=localhost"
	fi
}

base_slurm_conf() {
	local last_port=$((SLURMD_PORT_BASE + NODE_COUNT - 1))
	cat <<EOF
# Generated by tests/cluster/cluster.sh - regenerated on every start.
# Overrides: --conf-override KEY=VALUE and \$OC_CLUSTER_EXTRA_CONF (see README).
ClusterName=$CLUSTER_NAME
$(ctld_hosts_conf)
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
CredType=cred/munge
StateSaveLocation=$STATE/slurmctld
SlurmdSpoolDir=$SPOOL/%n
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$RUNDIR/slurmd-%n.pid
SlurmctldLogFile=$CTLD_LOG
SlurmdLogFile=$LOGDIR/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
MessageTimeout=10
ReturnToService=2
# One machine, fake hardware: no cgroups, no binding, no pmix.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# Nodes claim 192 CPUs / 400000 MB / 8 GPUs the machine does not have.
SlurmdParameters=config_overrides
GresTypes=gpu

# ---- runbook slurm-extra.conf (seed 7-2) ----
# Multithreading on: 192 vCPU / 8 GPU = 24.
DefCPUPerGPU=24
# Runbook: DefMemPerGPU=480000, sized for the real ~4 TB B300 node. Our nodes
# claim RealMemory=400000, so 8 x 480000 could never fit and every GPU job
# would be refused/pend forever. Scaled by 1/10: 8 x 48000 = 384000 <= 400000.
# (DefMemPerCPU/DefMemPerNode are mutually exclusive with it.)
DefMemPerGPU=48000
SchedulerType=sched/backfill
PriorityType=priority/multifactor
PriorityWeightPartition=100000
PriorityWeightQOS=1000
PriorityWeightFairshare=100
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
JobRequeue=1
# SIGTERM -> SIGKILL gap on time limit (runbook). scancel still ends a
# sleep job at once: the SIGTERM already kills it.
KillWait=300
# Local scripts (never on /fsx); here they only exit 0.
HealthCheckProgram=$OPS/periodic-check.sh
HealthCheckInterval=300
HealthCheckNodeState=IDLE
Prolog=$OPS/prolog-gpu-quick.sh
Epilog=$OPS/epilog-on-failure.sh
# scontrol reboot: restarts the node's slurmd, which reports a new boot time.
RebootProgram=$DIR/ops/reboot-node.sh

# ---- accounting ----
AccountingStorageType=accounting_storage/slurmdbd
$(dbd_hosts_conf)
AccountingStoragePort=$DBD_PORT
# Surprise: connections to slurmdbd (slurmctld, sacctmgr, sacct) do NOT use
# AuthInfo's socket but AccountingStoragePass (documented as "alternate
# MUNGE socket"); without it they try /run/munge/munge.socket.2.
AccountingStoragePass=$MUNGE_SOCK
AccountingStorageTRES=cpu,mem,node,billing,gres/gpu
AccountingStorageEnforce=limits,qos,associations
JobCompType=jobcomp/none

# ---- nodes: 16 real slurmd, each in its own UTS namespace ----
NodeName=$NODE_RANGE NodeAddr=127.0.0.1 Port=[$SLURMD_PORT_BASE-$last_port] CPUs=192 Boards=1 SocketsPerBoard=2 CoresPerSocket=48 ThreadsPerCore=2 RealMemory=400000 Gres=gpu:8 State=UNKNOWN

# ---- partitions (runbook 7-2) ----
# The runbook's partition Priority=N is the old alias that sets both
# PriorityTier (scheduling/preemption order) and PriorityJobFactor (the
# partition factor that PriorityWeightPartition multiplies): spelled out here.
# Hidden root-only partition of the ParallelCluster queue.
PartitionName=gpu Nodes=$NODE_RANGE Hidden=YES AllowGroups=root Default=NO State=UP
PartitionName=debug Nodes=${NODE_PREFIX}[1-2] PriorityJobFactor=100 PriorityTier=100 MaxTime=00:30:00 Default=NO State=UP AllowQOS=debug_qos GraceTime=120
# bench_qos (account "bench", no limits, for load tests) is the one deviation
# from the runbook: it is also allowed on normal.
PartitionName=normal Nodes=${NODE_PREFIX}[1-8] PriorityJobFactor=200 PriorityTier=200 MaxTime=1-00:00:00 Default=YES State=UP AllowQOS=normal_qos,bench_qos GraceTime=600
PartitionName=large Nodes=$NODE_RANGE PriorityJobFactor=300 PriorityTier=300 MaxTime=7-00:00:00 Default=NO State=UP AllowQOS=large_qos GraceTime=600
PartitionName=exclusive Nodes=$NODE_RANGE PriorityJobFactor=1000 PriorityTier=1000 MaxTime=14-00:00:00 Default=NO State=UP PreemptMode=REQUEUE AllowQOS=exclusive_qos
EOF
	if ((WANT_CLOUD)); then
		local c0=$((SLURMD_PORT_BASE + NODE_COUNT)) c1=$((SLURMD_PORT_BASE + NODE_COUNT + CLOUD_COUNT - 1))
		cat <<EOF

# ---- power saving (--cloud-nodes): ParallelCluster's dynamic nodes ----
# ResumeProgram starts a node's slurmd (in its own UTS namespace), the
# SuspendProgram stops it; $CLOUD_FAIL's resume fails (ResumeTimeout).
NodeName=$CLOUD_RANGE NodeAddr=127.0.0.1 Port=[$c0-$c1] CPUs=192 Boards=1 SocketsPerBoard=2 CoresPerSocket=48 ThreadsPerCore=2 RealMemory=400000 Gres=gpu:8 State=CLOUD
PartitionName=cloud Nodes=$CLOUD_RANGE MaxTime=01:00:00 Default=NO State=UP AllowQOS=normal_qos
ResumeProgram=$DIR/ops/resume-nodes.sh
SuspendProgram=$DIR/ops/suspend-nodes.sh
SuspendTime=20
SuspendTimeout=10
ResumeTimeout=20
SuspendExcNodes=$NODE_RANGE
# Surprise: without it, a powered-down CLOUD node is hidden from every
# client (scontrol show node: "not found"); ParallelCluster sets it too.
PrivateData=cloud
EOF
	fi
}

# Later lines win: an override line replaces the generated line with the same
# key (KEY= for plain parameters, PartitionName=X / NodeName=X / NodeSet=X as a
# whole line), otherwise it is appended. Slurm itself would keep the *first*
# definition of a duplicated partition, so appending alone would not work.
merge_conf() { # merge_conf OVERRIDE_FILE < base
	awk -v ovf="$1" '
	function key(line,   first, eq, k) {
		sub(/^[ \t]+/, "", line)
		if (line == "" || line ~ /^#/) return ""
		split(line, w, /[ \t]+/); first = w[1]
		eq = index(first, "="); if (eq == 0) return ""
		k = tolower(substr(first, 1, eq - 1))
		if (k == "partitionname" || k == "nodename" || k == "nodeset")
			return k "=" tolower(substr(first, eq + 1))
		return k
	}
	BEGIN {
		while ((getline l < ovf) > 0) {
			k = key(l); if (k == "") continue
			if (!(k in ov)) order[++n] = k
			ov[k] = l
		}
	}
	{
		k = key($0)
		if (k != "" && (k in ov)) {
			# "Key=" with no value drops the line.
			if (!(k in done) && ov[k] !~ /=[ \t]*$/) print ov[k] "   # override"
			done[k] = 1
			next
		}
		print
	}
	END {
		hdr = 0
		for (i = 1; i <= n; i++) if (!(order[i] in done) && ov[order[i]] !~ /=[ \t]*$/) {
			if (!hdr) { print ""; print "# ---- overrides ----"; hdr = 1 }
			print ov[order[i]]
		}
	}'
}

no_qos_if_no_accounting() {
	if ((WANT_NOACCT)); then sed -e '/^PartitionName=/s/[[:space:]]AllowQOS=[^[:space:]]*//'; else cat; fi
}

# Writes all config files; sets SLURM_CONF_CHANGED / DBD_CONF_CHANGED.
SLURM_CONF_CHANGED=0
DBD_CONF_CHANGED=0
DBD2_CONF_CHANGED=0
write_configs() {
	local ovfile i
	mkdir -p "$ETC" "$LOGDIR" "$RUNDIR" "$STATE/slurmctld" "$DEVDIR" "$OPS"
	chmod 0755 "$DIR" "$ETC" "$LOGDIR" "$RUNDIR" "$DEVDIR"
	for ((i = 1; i <= NODE_COUNT; i++)); do mkdir -p "$SPOOL/$(node_name "$i")"; done
	for ((i = 1; i <= CLOUD_COUNT; i++)); do mkdir -p "$SPOOL/$CLOUD_PREFIX$i"; done
	# Fake GPUs: character devices (same major/minor as /dev/null).
	for i in 0 1 2 3 4 5 6 7; do
		if [[ ! -c $DEVDIR/gpu$i ]]; then
			rm -f "$DEVDIR/gpu$i"
			mknod -m 0666 "$DEVDIR/gpu$i" c 1 3
		fi
	done
	ovfile=$(mktemp)
	if [[ -n ${OC_CLUSTER_EXTRA_CONF:-} ]]; then
		[[ -r $OC_CLUSTER_EXTRA_CONF ]] || die "OC_CLUSTER_EXTRA_CONF=$OC_CLUSTER_EXTRA_CONF is not readable"
		cat "$OC_CLUSTER_EXTRA_CONF" >>"$ovfile"
		printf '\n' >>"$ovfile"
	fi
	if ((WANT_NOACCT)); then
		printf '%s\n' AccountingStorageType=accounting_storage/none AccountingStorageEnforce= AccountingStorageTRES= >>"$ovfile"
	fi
	if ((${#OVERRIDES[@]})); then printf '%s\n' "${OVERRIDES[@]}" >>"$ovfile"; fi
	# Without accounting there are no QoS: 26.05 refuses to start with a
	# partition's AllowQOS naming one (22.05 and 24.11 ignore it).
	if base_slurm_conf | no_qos_if_no_accounting | merge_conf "$ovfile" | write_if_changed "$CONF" 0644; then
		SLURM_CONF_CHANGED=1
	fi
	rm -f "$ovfile"
	if write_if_changed "$GRES_CONF" 0644 <<EOF; then SLURM_CONF_CHANGED=1; fi
# Generated by tests/cluster/cluster.sh. AutoDetect off; File= must name
# character devices, otherwise the node registers gres/gpu:0 and is INVAL.
AutoDetect=off
NodeName=$NODE_RANGE Name=gpu File=$DEVDIR/gpu[0-7]
$( ((WANT_CLOUD)) && printf 'NodeName=%s Name=gpu File=%s/gpu[0-7]\n' "$CLOUD_RANGE" "$DEVDIR")
EOF
	# Debian's 24.11 slurmd stops with "cgroup filesystem not mounted ...
	# Unable to initialize cgroup plugin" where no cgroup2 is mounted at
	# /sys/fs/cgroup (containers, chroots); this cluster uses no cgroups
	# (proctrack/linuxproc, task/none). CgroupPlugin=disabled came with
	# 23.02's cgroup.conf; 22.05 does not know it and needs no file.
	if (($(slurm_version_num) >= 2302)); then
		if write_if_changed "$ETC/cgroup.conf" 0644 <<EOF; then SLURM_CONF_CHANGED=1; fi
# Generated by tests/cluster/cluster.sh: no cgroups on this test bed.
CgroupPlugin=disabled
EOF
	else
		rm -f "$ETC/cgroup.conf"
	fi
	# slurmdbd refuses a config readable by others (mode 600, owner SlurmUser).
	if write_if_changed "$DBD_CONF" 0600 <<EOF; then DBD_CONF_CHANGED=1; fi
# Generated by tests/cluster/cluster.sh.
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$DBD_PORT
SlurmUser=root
DebugLevel=info
LogFile=$DBD_LOG
PidFile=$DBD_PID
MessageTimeout=10
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=$DB_USER
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
	# The backup's own: it finds it next to its SLURM_CONF (DBD2_DIR).
	if ((WANT_DBD_BACKUP)); then
		mkdir -p "$DBD2_DIR"
		ln -sfn "$CONF" "$DBD2_DIR/slurm.conf"
		if write_if_changed "$DBD2_CONF" 0600 <<EOF; then DBD2_CONF_CHANGED=1; fi
# Generated by tests/cluster/cluster.sh: the backup slurmdbd (--backup-dbd).
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
DbdHost=localhost
DbdAddr=$DBD2_HOST_IP
DbdBackupHost=oc-dbd2
DbdPort=$DBD_PORT
SlurmUser=root
DebugLevel=info
LogFile=$DBD2_LOG
PidFile=$DBD2_PID
MessageTimeout=10
StorageType=accounting_storage/mysql
StorageHost=localhost
StoragePort=$DB_PORT
StorageUser=$DB_USER
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
	fi
	# Health scripts of runbook 8-5, reduced to "healthy": there is no GPU.
	local s
	for s in periodic-check prolog-gpu-quick epilog-on-failure; do
		write_if_changed "$OPS/$s.sh" 0755 <<EOF || true
#!/bin/sh
# $s.sh - stand-in for the runbook's script (8-5): this test cluster has no
# GPUs to check, so it always reports healthy. Local path, never on /fsx.
exit 0
EOF
	done
	write_if_changed "$DIR/ops/reboot-node.env" 0644 <<EOF || true
RUNDIR=$RUNDIR
LOGDIR=$LOGDIR
CONF=$CONF
MARK_VAR=$MARK_VAR
DIR=$DIR
CLOUD_FAIL=$CLOUD_FAIL
PATH=$PATH
EOF
	write_if_changed "$DIR/ops/resume-nodes.sh" 0755 <<'EOF' || true
#!/bin/sh
# resume-nodes.sh HOSTLIST - ResumeProgram of this test cluster's CLOUD
# nodes (cluster.sh --cloud-nodes writes it; settings in reboot-node.env).
# slurmctld runs it as root: "powering up" a node here is starting its
# slurmd in a UTS namespace of its own, with -b: slurmctld takes a node as
# powered up only when it registers with a boot time after the resume. The last cloud node's resume
# fails on purpose (nothing is started: ResumeTimeout marks it DOWN).
# Each slurmd has written its pid file before this exits: slurmctld kills
# the script's process group when it ends (24.11+), and a slurmd that
# had not left it yet would die with it.
. "$(dirname "$0")/reboot-node.env"
eval "export $MARK_VAR=\"\$DIR\""
# slurmctld takes a node as powered up only when its boot time (whole
# seconds) is not before the resume request, and 22.05's slurmd -b counts
# its uptime in whole seconds of the system's uptime, which can make it
# look up to a second older: the node then never counts as up (seen under
# load). The request came before this script: start the slurmds two
# whole seconds after it started.
t0=$(date +%s)
while [ "$(date +%s)" -lt $((t0 + 2)) ]; do sleep 0.1; done
for node in $(scontrol show hostnames "$1"); do
	if [ "$node" = "$CLOUD_FAIL" ]; then
		echo "resume-nodes.sh: $node: failing on purpose" >>"$LOGDIR/resume.log"
		continue
	fi
	pidf=$RUNDIR/slurmd-$node.pid
	rm -f "$pidf"
	echo "resume-nodes.sh: $node: starting slurmd" >>"$LOGDIR/resume.log"
	unshare -u sh -c 'hostname "$1" && exec slurmd -b -f "$2" -N "$1"' sh "$node" "$CONF" \
		</dev/null >>"$LOGDIR/slurmd-$node.log" 2>&1
	i=0
	while [ ! -s "$pidf" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
done
exit 0
EOF
	write_if_changed "$DIR/ops/suspend-nodes.sh" 0755 <<'EOF' || true
#!/bin/sh
# suspend-nodes.sh HOSTLIST - SuspendProgram of this test cluster's CLOUD
# nodes: "powering down" is stopping the node's slurmd.
. "$(dirname "$0")/reboot-node.env"
for node in $(scontrol show hostnames "$1"); do
	pid=$(cat "$RUNDIR/slurmd-$node.pid" 2>/dev/null) || continue
	echo "suspend-nodes.sh: $node: stopping slurmd $pid" >>"$LOGDIR/resume.log"
	kill "$pid" 2>/dev/null
done
exit 0
EOF
	write_if_changed "$DIR/ops/reboot-node.sh" 0755 <<'EOF' || true
#!/bin/sh
# reboot-node.sh - RebootProgram of this test cluster (written by
# cluster.sh, settings in reboot-node.env beside it). slurmd runs it as
# root, in the node's UTS namespace, on `scontrol reboot`. A node here is
# a slurmd, so its reboot is a new slurmd: the old one is stopped and a
# new one started with -b, which reports the node rebooted now (a new
# boot time), as a machine that rebooted would. Detached: slurmd waits for
# this script, not for the restart. Surprise (Slurm 24.11+ run_command):
# when the script ends, slurmd kills its whole process group ("kill
# children too"), so the script waits until the detached shell is in a
# session of its own (it says so with a file) before it exits.
. "$(dirname "$0")/reboot-node.env"
node=$(hostname)
ready=$RUNDIR/reboot-$node.ready
rm -f "$ready"
# The new slurmd starts two whole seconds after the request at the
# earliest (see resume-nodes.sh: a boot time up to a second early).
t0=$(date +%s)
export node RUNDIR CONF ready t0
# The mark cluster.sh finds its daemons by (stop, kill).
eval "export $MARK_VAR=\"\$DIR\""
setsid sh -c '
	: >"$ready"
	trap "echo \"reboot-node.sh: \$node: signal received\"" HUP TERM INT
	pidf=$RUNDIR/slurmd-$node.pid
	sleep 1
	pid=$(cat "$pidf" 2>/dev/null)
	echo "reboot-node.sh: $node: stopping slurmd $pid"
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	i=0
	while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	while [ "$(date +%s)" -lt $((t0 + 2)) ]; do sleep 0.1; done
	echo "reboot-node.sh: $node: starting slurmd -b"
	exec unshare -u sh -c "hostname \"\$node\" && exec slurmd -b -f \"\$CONF\" -N \"\$node\""
' </dev/null >>"$LOGDIR/slurmd-$node.log" 2>&1 &
i=0
while [ ! -e "$ready" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
rm -f "$ready"
exit 0
EOF
}

# ---------------------------------------------------------------- daemons
start_munge() {
	step_begin
	if munge_up; then step_end munged running; return; fi
	local pid
	if pid=$(pid_of "$MUNGE_PID" munged); then kill_wait TERM 5 "$pid"; fi
	# munged (as user munge) insists: key 0600 owned by munge, key/socket
	# directory owned by munge and not writable by group/other, and no
	# group/other-writable parent without sticky bit. Clients (alice...) need
	# only search permission on the socket directory, hence 0755.
	mkdir -p "$MUNGE_DIR"
	chown munge:munge "$MUNGE_DIR"
	chmod 0755 "$MUNGE_DIR"
	if [[ ! -s $MUNGE_KEY ]]; then
		mungekey --create --keyfile="$MUNGE_KEY" --bits=1024 >/dev/null 2>&1 ||
			dd if=/dev/urandom of="$MUNGE_KEY" bs=1 count=1024 status=none
	fi
	chown munge:munge "$MUNGE_KEY"
	chmod 0600 "$MUNGE_KEY"
	touch "$MUNGE_LOG"
	chown munge:munge "$MUNGE_LOG"
	# A stale socket/lock after kill -9 is fine: munged takes the lock and
	# replaces the socket.
	runuser -u munge -- env "$MARK_VAR=$DIR" munged \
		--key-file="$MUNGE_KEY" --socket="$MUNGE_SOCK" --pid-file="$MUNGE_PID" \
		--log-file="$MUNGE_LOG" --seed-file="$MUNGE_DIR/munged.seed" \
		</dev/null >>"$MUNGE_LOG" 2>&1 || true
	wait_for munged "$MUNGE_LOG" munge_ok
	step_end munged started
}

MY_CNF_CHANGED=0
write_my_cnf() {
	mkdir -p "$MYSQL_DIR/data" "$MYSQL_DIR/tmp"
	MY_CNF_CHANGED=0
	if write_if_changed "$MY_CNF" 0644 <<EOF; then MY_CNF_CHANGED=1; fi
# Generated by tests/cluster/cluster.sh - private MariaDB for slurmdbd.
[mysqld]
user=root
datadir=$MYSQL_DIR/data
tmpdir=$MYSQL_DIR/tmp
socket=$MY_SOCK
pid-file=$MY_PID
port=$DB_PORT
bind-address=127.0.0.1
log-error=$MY_LOG
skip-name-resolve
innodb_buffer_pool_size=128M
innodb_log_file_size=64M
innodb_lock_wait_timeout=900
# MariaDB 11.8 (trixie, sid) turns snapshot isolation on; slurmdbd 26.05
# says it is not supported and that slurmdbd dies when a write conflicts
# with another transaction (two slurmdbds at a failover). "loose-": 10.11
# (bookworm) does not know the option and must not refuse to start.
loose-innodb_snapshot_isolation=OFF
max_connections=64
[client]
socket=$MY_SOCK
user=root
[mysqladmin]
socket=$MY_SOCK
user=root
EOF
}

start_mariadb() {
	step_begin
	local pid state=started
	write_my_cnf
	if ((MY_CNF_CHANGED)) && pid=$(pid_of "$MY_PID" mariadbd); then
		info "my.cnf changed: restarting mariadb"
		kill_wait TERM 30 "$pid"
	fi
	if db_ok; then step_end mariadb running; return; fi
	if pid=$(pid_of "$MY_PID" mariadbd); then
		# Alive but not answering yet (still starting?): give it the timeout.
		wait_for mariadb "$MY_LOG" db_ok
		step_end mariadb running
		return
	fi
	if [[ ! -f $MYSQL_DIR/data/.oc-initialized ]]; then
		rm -rf "$MYSQL_DIR/data"
		mkdir -p "$MYSQL_DIR/data"
		if ! mariadb-install-db --defaults-file="$MY_CNF" --user=root \
			--auth-root-authentication-method=socket --skip-test-db \
			>"$LOGDIR/mariadb-install.log" 2>&1; then
			die "mariadb-install-db failed, log: $LOGDIR/mariadb-install.log
$(tail -n 20 "$LOGDIR/mariadb-install.log")"
		fi
		touch "$MYSQL_DIR/data/.oc-initialized"
		state=initialized
	fi
	rm -f "$MY_SOCK" "$MY_SOCK.lock" "$MY_PID"
	# mariadbd does not daemonize: detach it (new session, no inherited fds)
	# so a caller piping our output is not kept waiting.
	setsid env "$MARK_VAR=$DIR" mariadbd --defaults-file="$MY_CNF" </dev/null >>"$MY_LOG" 2>&1 &
	wait_for mariadb "$MY_LOG" db_ok
	local sql
	sql="CREATE DATABASE IF NOT EXISTS slurm_acct_db;"
	for h in localhost 127.0.0.1; do
		sql+="CREATE USER IF NOT EXISTS '$DB_USER'@'$h' IDENTIFIED BY '$DB_PASS';"
		sql+="ALTER USER '$DB_USER'@'$h' IDENTIFIED BY '$DB_PASS';"
		sql+="GRANT ALL PRIVILEGES ON slurm_acct_db.* TO '$DB_USER'@'$h';"
	done
	mariadb --defaults-file="$MY_CNF" -e "$sql" >>"$MY_LOG" 2>&1 ||
		die "creating the slurm database user failed, log: $MY_LOG"
	step_end mariadb "$state"
}

# start_daemon NAME PIDFILE LOG CHECK CMD...: start a daemon unless it
# answers (CHECK) or its pid is alive, then wait until CHECK succeeds.
start_daemon() {
	local name=$1 pidfile=$2 log=$3 check=$4
	shift 4
	if "$check"; then step_end "$name" running; return; fi
	if pid_of "$pidfile" "$name" >/dev/null; then
		wait_for "$name" "$log" "$check"
		step_end "$name" running
		return
	fi
	rm -f "$pidfile"
	env "$MARK_VAR=$DIR" SLURM_CONF="$CONF" "$@" </dev/null >>"$log" 2>&1 ||
		die "$name failed to start, log: $log
$(tail -n 20 "$log")"
	wait_for "$name" "$log" "$check"
	step_end "$name" started
}

start_slurmdbd() {
	step_begin
	# slurmdbd finds slurmdbd.conf next to $SLURM_CONF.
	start_daemon slurmdbd "$DBD_PID" "$DBD_LOG" dbd_primary_ok slurmdbd
}

stop_pidfile() { # stop_pidfile PIDFILE COMM
	local pid
	if pid=$(pid_of "$1" "$2"); then kill_wait TERM 15 "$pid"; fi
	rm -f "$1"
}

start_slurmctld() {
	step_begin
	local i running=0
	if ((SLURM_CONF_CHANGED)); then
		pid_of "$CTLD_PID" slurmctld >/dev/null && running=1
		pid_of "$CTLD2_PID" slurmctld >/dev/null && running=1
		for ((i = 1; i <= NODE_COUNT; i++)); do
			pid_of "$(node_pidfile "$i")" slurmd >/dev/null && running=1
		done
	fi
	if ((running)); then
		# Running jobs survive this: slurmstepd outlives slurmd.
		info "slurm.conf/gres.conf changed: restarting slurmctld and slurmd"
		stop_backup_ctld
		stop_pidfile "$CTLD_PID" slurmctld
		for ((i = 1; i <= NODE_COUNT; i++)); do stop_pidfile "$(node_pidfile "$i")" slurmd; done
	fi
	# A state folder that a killed or failed first start left without its
	# association usage file: 25.11 slurmctld is fatal on "No Assoc usage
	# file ... to recover". -i recovers what is there and ignores the rest.
	local recover=()
	if ! ctld_ok && ! pid_of "$CTLD_PID" slurmctld >/dev/null &&
		[[ -n $(ls -A "$STATE/slurmctld" 2>/dev/null) && ! -e $STATE/slurmctld/assoc_usage ]]; then
		info "state folder without assoc_usage (killed before its first save?): slurmctld -i"
		recover=(-i)
	fi
	if ((WANT_BACKUP)); then
		write_if_changed "$CTLD_HOSTS" 0644 < <(
			grep -v -E '(^|[[:space:]])oc-ctld[12]([[:space:]]|$)' /etc/hosts
			printf '127.0.0.1\toc-ctld1\n127.0.0.2\toc-ctld2\n'
		) || true
		# shellcheck disable=SC2016 # $1/$2/$@ belong to the inner sh
		start_daemon slurmctld "$CTLD_PID" "$CTLD_LOG" ctld_primary_ok \
			unshare -u -m sh -c 'mount --bind "$1" /etc/hosts && hostname "$2" && shift 2 && exec "$@"' sh \
			"$CTLD_HOSTS" oc-ctld1 slurmctld -f "$CONF" "${recover[@]}"
	else
		start_daemon slurmctld "$CTLD_PID" "$CTLD_LOG" ctld_primary_ok slurmctld -f "$CONF" "${recover[@]}"
	fi
}

# The backup slurmctld (--backup-ctld), in standby once the primary runs.
start_backup_ctld() {
	step_begin
	mkdir -p "$CTLD2_DIR/run" "$CTLD2_DIR/log"
	# shellcheck disable=SC2016 # $1.. belong to the inner sh
	start_daemon "slurmctld" "$CTLD2_PID" "$CTLD2_LOG" ctld_backup_ok \
		unshare -u -m sh -c 'mount --bind "$1" /etc/hosts && mount --bind "$2" "$3" &&
			mount --bind "$4" "$5" && hostname oc-ctld2 && shift 5 && exec "$@"' sh \
		"$CTLD_HOSTS" "$CTLD2_DIR/run" "$RUNDIR" "$CTLD2_DIR/log" "$LOGDIR" slurmctld -f "$CONF"
}

# The slurmd of the CLOUD nodes (--cloud-nodes) that are powered up:
# stopped when the cluster goes back to no cloud nodes.
stop_cloud_slurmds() {
	local i
	for ((i = 1; i <= CLOUD_COUNT; i++)); do
		stop_pidfile "$RUNDIR/slurmd-$CLOUD_PREFIX$i.pid" slurmd
	done
}

# The backup slurmdbd (--backup-dbd) in its namespaces: the network one
# (made here when missing), its own UTS one (host name oc-dbd2, which
# DbdBackupHost names). In standby it does not listen; it connects to the
# primary every second and takes control when it cannot.
dbd2_net_up() {
	# Whole or made anew: a setup that died half way is not reused.
	if ! grep -q -- "inet $DBD2_HOST_IP/30" <<<"$(ip -4 addr show dev "${DBD2_VETH}a" 2>/dev/null)" ||
		! grep -q -- "inet $DBD2_IP/30" <<<"$(ip netns exec "$DBD2_NS" ip -4 addr show dev "${DBD2_VETH}b" 2>/dev/null)"; then
		dbd2_net_down
		ip netns add "$DBD2_NS" &&
			ip link add "${DBD2_VETH}a" type veth peer name "${DBD2_VETH}b" &&
			ip link set "${DBD2_VETH}b" netns "$DBD2_NS" &&
			ip addr add "$DBD2_HOST_IP/30" dev "${DBD2_VETH}a" &&
			ip link set "${DBD2_VETH}a" up &&
			ip netns exec "$DBD2_NS" ip addr add "$DBD2_IP/30" dev "${DBD2_VETH}b" &&
			ip netns exec "$DBD2_NS" ip link set "${DBD2_VETH}b" up &&
			ip netns exec "$DBD2_NS" ip link set lo up || {
			dbd2_net_down
			die "could not make the backup slurmdbd's network namespace $DBD2_NS (ip netns, veth)"
		}
	fi
}

dbd2_net_down() {
	command -v ip >/dev/null 2>&1 || return 0
	ip link del "${DBD2_VETH}a" 2>/dev/null || true
	ip netns del "$DBD2_NS" 2>/dev/null || true
}

# Standby: alive, and its log says it waits in the background (one that
# took control at once could not reach the primary: not started right).
dbd2_ok() { pid_of "$DBD2_PID" slurmdbd >/dev/null && grep -q 'running in background mode' "$DBD2_LOG" 2>/dev/null; }

start_backup_dbd() {
	step_begin
	dbd2_net_up
	if ((DBD2_CONF_CHANGED)) && pid_of "$DBD2_PID" slurmdbd >/dev/null; then
		info "the backup's slurmdbd.conf changed: restarting it"
		stop_pidfile "$DBD2_PID" slurmdbd
	fi
	# dbd2_ok reads the log: a new backup starts a new one (the old one
	# kept as .old), else an earlier run's lines would pass for its own.
	if ! pid_of "$DBD2_PID" slurmdbd >/dev/null && [[ -e $DBD2_LOG ]]; then mv -f "$DBD2_LOG" "$DBD2_LOG.old"; fi
	# shellcheck disable=SC2016 # $@ belongs to the inner sh
	start_daemon slurmdbd "$DBD2_PID" "$DBD2_LOG" dbd2_ok \
		env SLURM_CONF="$DBD2_DIR/slurm.conf" MYSQL_UNIX_PORT="$MY_SOCK" \
		ip netns exec "$DBD2_NS" unshare -u sh -c 'hostname oc-dbd2 && exec "$@"' sh slurmdbd
}

stop_backup_dbd() {
	stop_pidfile "$DBD2_PID" slurmdbd
	dbd2_net_down
}

# A backup left running by an earlier --backup-ctld start: stopped when the
# cluster goes back to one controller.
stop_backup_ctld() {
	stop_pidfile "$CTLD2_PID" slurmctld
}

start_slurmds() {
	step_begin
	local i n started=0 pidf
	for ((i = 1; i <= NODE_COUNT; i++)); do
		n=$(node_name "$i")
		pidf=$(node_pidfile "$i")
		pid_of "$pidf" slurmd >/dev/null && continue
		rm -f "$pidf"
		# Own UTS namespace => own hostname => slurmd is that node. slurmd
		# daemonizes inside the namespace; no unshare process stays behind.
		# shellcheck disable=SC2016 # $1/$@ belong to the inner sh
		env "$MARK_VAR=$DIR" SLURM_CONF="$CONF" \
			unshare -u sh -c 'hostname "$1" && shift && exec "$@"' sh \
			"$n" slurmd -f "$CONF" -N "$n" </dev/null >>"$(node_log "$i")" 2>&1 ||
			die "slurmd $n failed to start, log: $(node_log "$i")"
		started=$((started + 1))
	done
	local deadline=$(($(now_us) + TIMEOUT * 1000000))
	until nodes_ok; do
		# INVAL (config does not match what slurmd reports) will not heal.
		if (($(now_us) >= deadline)) || node_states | awk '$2 ~ /inval/ { f = 1 } END { exit !f }'; then
			printf '[cluster] ERROR: not all %d slurmd registered (timeout %ss):\n' "$NODE_COUNT" "$TIMEOUT" >&2
			node_states | awk '$2 ~ /(\*|unk|down|inval|fail|boot|pow|~|#|%)/' >&2 || true
			local bad
			bad=$(node_states | awk '$2 ~ /(\*|unk|down|inval|fail|boot|pow|~|#|%)/ && !f { print $1; f = 1 }')
			bad=${bad:-$(node_name 1)}
			printf '[cluster] slurmd log: %s/slurmd-%s.log (last lines):\n' "$LOGDIR" "$bad" >&2
			tail -n 25 "$LOGDIR/slurmd-$bad.log" >&2 || true
			scontrol show node "$bad" 2>/dev/null | grep -E 'State|Reason' >&2 || true
			exit 1
		fi
		sleep 0.2
	done
	step_end slurmd "$NODE_COUNT up ($started started, $((NODE_COUNT - started)) were running)"
}

# Jobs that slurmctld recovered as RUNNING although their processes died with
# the previous stop/crash. Surprise: slurmctld only notices this >= 20 s
# after its restart (time_last_active is reset on recovery and must be older
# than BatchStartTimeout + MessageTimeout) *and* on a later node registration,
# which with the default SlurmdTimeout comes minutes later; until then such
# "ghost" jobs show RUNNING and hold their nodes. Requeue them now, which is
# what slurmctld would do itself ("Batch JobId=N missing from batch node").
purge_ghost_jobs() {
	local live id st p ghosts=() line orphans=()
	# Job processes whose slurmstepd died (kill -9 of the cluster): Slurm
	# no longer knows them, they would run forever. Kill them.
	mapfile -t orphans < <(cluster_pids | orphan_filter)
	if ((${#orphans[@]})); then
		info "killing ${#orphans[@]} orphaned job process(es) of a previous run: ${orphans[*]}"
		kill_wait KILL 5 "${orphans[@]}"
	fi
	live=$(for p in $(cluster_pids); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null || true
		printf '\n'
	done | sed -n 's/^slurmstepd: \[\([0-9][0-9]*\)\..*/\1/p' | sort -u)
	while read -r id st; do
		[[ $id =~ ^[0-9]+$ ]] || continue
		grep -qx "$id" <<<"$live" && continue
		st=$(date -d "$st" +%s 2>/dev/null) || continue
		((st < START_EPOCH)) && ghosts+=("$id")
	done < <(squeue -h -t RUNNING -o '%A %S' 2>/dev/null || true)
	((${#ghosts[@]})) || return 0
	info "requeueing ${#ghosts[@]} job(s) whose processes were lost with the previous stop/crash: ${ghosts[*]}"
	for id in "${ghosts[@]}"; do
		line=$(scontrol requeue "$id" 2>&1) || scancel "$id" 2>/dev/null ||
			warn "could not requeue or cancel job $id: $line"
	done
}

# ---------------------------------------------------------------- onboarding
# sacctmgr -i ...: "Nothing new added." / "Nothing modified" (exit 1) = done.
acct() {
	local out rc=0
	out=$(sacctmgr -i "$@" 2>&1) || rc=$?
	((rc == 0)) && return 0
	# 22.05: "Nothing new added." / "Nothing modified"; 24.11+ also "Already
	# existing account X on cluster Y" and "Request didn't affect anything" /
	# "Nothing added.". onboard() checks the result as a whole afterwards, so
	# that one of these answers to a real failure cannot pass unseen.
	if ((rc == 1)) && grep -qE "^ *(Nothing (new added|modified|added)\.?|Already existing |Request didn't affect anything)" <<<"$out" &&
		! grep -qiE 'error|problem|invalid|unknown' <<<"$out"; then
		return 0
	fi
	printf '[cluster] ERROR: sacctmgr -i %s (exit %d):\n%s\n' "$*" "$rc" "$out" >&2
	exit 1
}

ensure_os_user() { # ensure_os_user NAME
	id -u "$1" >/dev/null 2>&1 ||
		useradd --no-create-home --shell /bin/bash --user-group "$1" ||
		die "useradd $1 failed"
	# A home, as on a real cluster: the rehearsal's signal marker goes to
	# /home/USER by default (the checklist's signal_dir).
	local home
	home=$(getent passwd "$1" | cut -d: -f6)
	[ -z "$home" ] || [ -d "$home" ] || { mkdir -p "$home" && chown "$1:" "$home" && chmod 0755 "$home"; } ||
		die "home $home of $1"
}

RUNBOOK_QOS=(debug_qos normal_qos large_qos exclusive_qos bench_qos)

# The QoS that the partitions' AllowQOS name must exist before slurmctld
# starts: 25.11 and 26.05 slurmctld are fatal on "Partition debug has an
# invalid AllowQOS (debug_qos)" (22.05 only warned). QoS need slurmdbd only.
ensure_qos() {
	step_begin
	local have q missing=()
	have=$(sacctmgr -n -P show qos format=name 2>/dev/null) || die "sacctmgr show qos failed (slurmdbd log: $DBD_LOG)"
	for q in "${RUNBOOK_QOS[@]}"; do grep -qx "$q" <<<"$have" || missing+=("$q"); done
	if ((${#missing[@]} == 0)); then step_end qos known; return; fi
	acct add qos "name=$(IFS=,; printf '%s' "${missing[*]}")"
	qos_limits
	step_end qos "${#missing[@]} added"
}

# Runbook 7-3: the QoS limits.
qos_limits() {
	acct modify qos debug_qos set MaxJobsPerUser=1 MaxSubmitJobsPerUser=2 Priority=1000
	acct modify qos normal_qos set MaxJobsPerUser=4 MaxSubmitJobsPerUser=8 Priority=2000
	acct modify qos large_qos set Priority=3000
	acct modify qos exclusive_qos set MaxJobsPerUser=1 MaxSubmitJobsPerUser=2 Priority=10000
}

# What the onboarding must have produced, whatever sacctmgr answered: every
# user in its account, the teams' GrpTRES and QoS.
onboard_check() {
	local assoc u a
	assoc=$(sacctmgr -n -P show assoc format=account,user,qos,grptres 2>/dev/null) || return 1
	for u in alice:team-a bob:team-a opsview:team-a carol:team-b dave:team-b benchuser:bench; do
		a=${u#*:} u=${u%%:*}
		grep -q "^$a|$u|" <<<"$assoc" || { warn "association $a/$u missing"; return 1; }
	done
	for a in team-a team-b; do
		grep -E "^$a\|\|.*normal_qos.*\|.*gres/gpu=64" <<<"$assoc" >/dev/null ||
			{ warn "account $a lacks normal_qos or GrpTRES=gres/gpu=64"; return 1; }
	done
}

# What the onboarding produces; when it matches the last run, skip the ~20
# sacctmgr calls (about 0.3 s each here).
onboard_fingerprint() {
	sacctmgr -n -P show assoc format=cluster,account,user,qos,defaultqos,grptres &&
		sacctmgr -n -P show qos format=name,maxjobspu,maxsubmitpu,priority
}

onboard() {
	step_begin
	local u deadline fp
	for u in alice bob carol dave benchuser opsview; do ensure_os_user "$u"; done
	if [[ -s $STATE/onboarded.fp ]] && fp=$(onboard_fingerprint 2>/dev/null) &&
		[[ $fp == "$(cat "$STATE/onboarded.fp")" ]]; then
		step_end accounts unchanged
		return
	fi
	# The gres/gpu TRES exists once slurmctld registered AccountingStorageTRES.
	deadline=$(($(now_us) + TIMEOUT * 1000000))
	until grep -q gpu <<<"$(sacctmgr -n -P show tres type=gres name=gpu 2>/dev/null)"; do
		(($(now_us) < deadline)) || die "TRES gres/gpu never appeared in slurmdbd (log: $CTLD_LOG)"
		sleep 0.2
	done
	# Runbook 7-3.
	acct add account team-a Description="Team A" Organization=llm-poc
	acct add account team-b Description="Team B" Organization=llm-poc
	acct add account bench Description="Load tests (no limits)" Organization=llm-poc
	acct add qos "name=$(IFS=,; printf '%s' "${RUNBOOK_QOS[*]}")"
	qos_limits
	# Runbook: GrpTRES, then qos+=/DefaultQOS, per team; one call for both.
	acct modify account name=team-a,team-b set GrpTRES=gres/gpu=64 \
		qos+=debug_qos,normal_qos,large_qos DefaultQOS=normal_qos
	acct modify account bench set qos+=bench_qos DefaultQOS=bench_qos
	acct add user name=alice,bob,opsview account=team-a
	acct add user name=carol,dave account=team-b
	acct add user name=benchuser account=bench
	# Operators (root) may use every QoS, e.g. `srun -p normal` checks (9-1).
	# Surprise: `modify account root set qos+=...` would propagate to every
	# child account (team-a would get exclusive_qos): change the root *user*.
	acct modify user root set qos+=debug_qos,normal_qos,large_qos,exclusive_qos,bench_qos
	onboard_check || die "onboarding did not reach the runbook's accounts (sacctmgr show assoc):
$(sacctmgr -n -P show assoc format=cluster,account,user,qos,grptres 2>&1)"
	onboard_fingerprint >"$STATE/onboarded.fp"
	step_end accounts onboarded
}

# ---------------------------------------------------------------- demo
DEMO_RUNNING=(demo-bob-normal demo-alice-large demo-carol-large)
DEMO_LIMITED=demo-alice-over-quota
DEMO_DRAIN_NODE=${NODE_PREFIX}7
DEMO_DRAIN_REASON="prolog: gpu count 7"

demo_submit() { # demo_submit USER NAME PARTITION QOS NODES [sbatch args...]
	local user=$1 name=$2 part=$3 qos=$4 nodes=$5 out
	shift 5
	if [[ -n $(squeue -h -n "$name" -u "$user" -o %i 2>/dev/null) ]]; then
		return 0
	fi
	out=$(runuser -u "$user" -- env SLURM_CONF="$CONF" sbatch --parsable \
		-J "$name" -p "$part" --qos="$qos" -N "$nodes" --gres=gpu:8 \
		--chdir=/tmp --output=/dev/null --requeue "$@" --wrap='sleep 100000' 2>&1) ||
		die "sbatch as $user ($name) failed: $out$(queue_full_hint)"
	info "submitted $name as $user: job $out"
}

# Why slurmctld may refuse a submission here: a queue at MaxJobCount,
# such as the one `tests/bench/run_bench.sh --keep` leaves (its
# MaxJobCount goes with its overrides at this start).
queue_full_hint() {
	local n max
	n=$(squeue -a -h -t all -o %i 2>/dev/null | wc -l)
	max=$(scontrol show config 2>/dev/null | awk '$1 == "MaxJobCount" {print $3}')
	[[ $max =~ ^[0-9]+$ ]] && ((n >= max)) || return 0
	printf '\n  slurmctld holds %d jobs, MaxJobCount is %d: a queue left by run_bench.sh --keep?\n' "$n" "$max"
	printf '  cancel its jobs (users bu001-bu200) and start again, or start afresh: %s stop; rm -rf %s' "$0" "$DIR"
}

job_field() { squeue -h -n "$1" -o "$2" 2>/dev/null | sed -n 1p; }

demo_running_ok() {
	local n
	for n in "${DEMO_RUNNING[@]}"; do [[ $(job_field "$n" %T) == RUNNING ]] || return 1; done
}

demo_gone() { ! grep -q '^demo-' <<<"$(squeue -h -o %j)"; }
others_gone() { [ -z "$(squeue -h -w "${NODE_PREFIX}[1-6,8]" -o '%j' 2>/dev/null | grep -v '^demo-')" ]; }

demo_ok() {
	demo_running_ok || return 1
	[[ $(job_field "$DEMO_LIMITED" %T) == PENDING ]] || return 1
	[[ $(job_field "$DEMO_LIMITED" %r) == AssocGrpGRES ]] || return 1
	[[ $(job_field demo-dave-normal %T) == PENDING ]] || return 1
}

demo_wait() { # demo_wait CHECK WHAT
	local deadline=$(($(now_us) + TIMEOUT * 1000000))
	until "$1"; do
		if (($(now_us) >= deadline)); then
			printf '[cluster] ERROR: demo workload: %s not reached after %ss:\n' "$2" "$TIMEOUT" >&2
			squeue -o '%.8i %.10u %.10a %.9P %.22j %.8T %.4D %R' >&2 || true
			printf '[cluster] expected RUNNING: %s; PENDING: demo-dave-normal, %s (AssocGrpGRES). Log: %s\n' \
				"${DEMO_RUNNING[*]}" "$DEMO_LIMITED" "$CTLD_LOG" >&2
			exit 1
		fi
		sleep 0.2
	done
}

run_demo() {
	step_begin
	ctld_ok || die "slurmctld is not answering; run: cluster.sh start"
	# Drain first so the scheduler never puts a running demo job there.
	scontrol update NodeName="$DEMO_DRAIN_NODE" State=DRAIN Reason="$DEMO_DRAIN_REASON" ||
		die "could not drain $DEMO_DRAIN_NODE"
	# A demo left half-done (jobs requeued by a restart, a running one gone)
	# cannot be repaired in place: released together, the scheduler would
	# start them in priority order, not ours. Cancel it and submit afresh.
	local ids
	ids=$(squeue -h -o '%A %j' | awk '$2 ~ /^demo-/ { print $1 }')
	if [[ -n $ids ]] && ! demo_running_ok; then
		info "demo workload incomplete: cancelling jobs $(tr '\n' ' ' <<<"$ids")and resubmitting"
		# shellcheck disable=SC2086 # word splitting of the id list is wanted
		scancel $ids
		demo_wait demo_gone "old demo jobs gone"
	fi
	# Another job on the nodes the demo is pinned to (a test's job left
	# running by a run that was killed) would keep the demo pending.
	local others
	others=$(squeue -h -w "${NODE_PREFIX}[1-6,8]" -o '%A %j' 2>/dev/null | awk '$2 !~ /^demo-/ { print $1 }' | sort -u)
	if [[ -n $others ]] && ! demo_running_ok; then
		info "jobs of an earlier run on the demo's nodes: cancelling $(tr '\n' ' ' <<<"$others")"
		# shellcheck disable=SC2086 # word splitting of the id list is wanted
		scancel $others
		demo_wait others_gone "earlier jobs gone from the demo's nodes"
	fi
	# Running: team-a 16 + 8 GPUs, team-b 32 GPUs, pinned so node 7 stays free.
	demo_submit bob demo-bob-normal normal normal_qos 1 -w "${NODE_PREFIX}1"
	demo_submit alice demo-alice-large large large_qos 2 -w "${NODE_PREFIX}[2-3]"
	demo_submit carol demo-carol-large large large_qos 4 -w "${NODE_PREFIX}[4-6,8]"
	# The pending ones only once these run: the scheduler takes jobs in
	# priority order (large, PriorityTier 300, before normal), so a quota
	# job submitted together would start first and leave bob's job (normal)
	# pending on AssocGrpGRES instead.
	demo_wait demo_running_ok "running jobs RUNNING"
	# Pending: normal has no free node left (1-6,8 busy, 7 drained).
	demo_submit dave demo-dave-normal normal normal_qos 2
	# Pending on the team quota: 24 used + 48 asked > GrpTRES gres/gpu=64.
	demo_submit alice "$DEMO_LIMITED" large large_qos 6
	demo_wait demo_ok "pending jobs PENDING (demo-alice-over-quota on AssocGrpGRES)"
	step_end demo ready
}

# ---------------------------------------------------------------- commands
write_profile() {
	mkdir -p "$PROFILE_DIR"
	chmod 0700 "$PROFILE_DIR"
	(
		umask 077
		cat >"$PROFILE.tmp" <<EOF
{"name": "$CLUSTER_NAME", "slurm_conf": "$CONF", "refresh_seconds": 2, "audit_log": "$DIR/audit.log",
 "checklist_vars": {"gpu_limit_exempt": "bench", "maxjobs_user": "root", "maxjobs_account": "root",
                    "maxjobs_partition": "exclusive", "maxjobs_qos": "exclusive_qos"}}
EOF
		chmod 0600 "$PROFILE.tmp"
		mv -f "$PROFILE.tmp" "$PROFILE"
	)
}

check_prereqs() {
	((EUID == 0)) || die "must run as root (useradd, runuser, unshare, mknod)"
	local c missing=()
	for c in munged mungekey munge unmunge mariadb-install-db mariadbd mariadb mysqladmin \
		slurmdbd slurmctld slurmd sacctmgr scontrol sinfo squeue sbatch unshare runuser; do
		command -v "$c" >/dev/null 2>&1 || missing+=("$c")
	done
	((${#missing[@]} == 0)) || die "missing programs: ${missing[*]}"
	id munge >/dev/null 2>&1 || die "user 'munge' does not exist (install munge)"
	# The munge socket must be reachable by job users (alice, ...): every
	# directory above DIR needs search permission for others.
	local d=$DIR
	while [[ $d != / ]]; do
		d=$(dirname "$d")
		[[ $(($(stat -c '0%a' "$d") & 1)) -eq 1 ]] ||
			die "$d is not searchable by other users (chmod o+x), job users could not reach the munge socket"
	done
}

cmd_start() {
	local t0
	t0=$(now_us)
	mkdir -p "$DIR"
	check_prereqs
	info "cluster $CLUSTER_NAME in $DIR"
	write_configs
	start_munge
	if ((WANT_NOACCT)); then
		# No accounting at all: what slurmctld cannot reach is not there.
		stop_pidfile "$DBD_PID" slurmdbd
		stop_backup_dbd
		stop_pidfile "$MY_PID" mariadbd
	else
		start_mariadb
		if ((DBD_CONF_CHANGED)) && pid_of "$DBD_PID" slurmdbd >/dev/null; then
			info "slurmdbd.conf changed: restarting slurmdbd"
			stop_pidfile "$DBD_PID" slurmdbd
		fi
		# The primary is reached over the veth pair (dbd_hosts_conf).
		if ((WANT_DBD_BACKUP)); then
			command -v ip >/dev/null 2>&1 || die "--backup-dbd needs ip (iproute2)"
			dbd2_net_up
		fi
		start_slurmdbd
		if ((WANT_DBD_BACKUP)); then start_backup_dbd; else stop_backup_dbd; fi
		step_begin
		# `add cluster` for an existing one says "already exists. Not adding."
		# (exit 1), unlike accounts/users ("Nothing new added."): ask first.
		if grep -qx "$CLUSTER_NAME" <<<"$(sacctmgr -n -P show cluster format=cluster)"; then
			step_end cluster known
		else
			acct add cluster "$CLUSTER_NAME"
			step_end cluster registered
		fi
		ensure_qos
	fi
	((WANT_BACKUP)) || stop_backup_ctld
	((WANT_CLOUD)) || stop_cloud_slurmds
	start_slurmctld
	if ((WANT_BACKUP)); then start_backup_ctld; fi
	start_slurmds
	purge_ghost_jobs
	((WANT_NOACCT)) || onboard
	if ((WANT_DEMO)); then run_demo; fi
	write_profile
	info "up in $(fmt_ms "$(($(now_us) - t0))")"
	cat <<EOF

  cluster   $CLUSTER_NAME (slurmctld 127.0.0.1:$CTLD_PORT, slurmdbd :$DBD_PORT, MariaDB :$DB_PORT)
  config    $CONF
  logs      $LOGDIR/ (munged: $MUNGE_LOG)
  profile   $PROFILE
  use it    eval "\$($SCRIPT_DIR/cluster.sh env${DIR_ARG})"; sinfo; squeue
  stop      $SCRIPT_DIR/cluster.sh stop${DIR_ARG}
EOF
}

cmd_stop() {
	local pids=() p c slurm=() term=() kill9=() db=() mu=() left
	((EUID == 0)) || die "must run as root"
	mapfile -t pids < <(cluster_pids)
	for p in "${pids[@]}"; do
		c=$(comm_of "$p")
		case $c in
		mariadbd | mysqld | mysqld_safe) db+=("$p") ;;
		munged) mu+=("$p") ;;
		slurmctld | slurmscriptd | slurmdbd | slurmd) term+=("$p") ;;
		*) kill9+=("$p") ;; # slurmstepd and job processes
		esac
	done
	slurm=("${term[@]}" "${kill9[@]}")
	info "stopping $CLUSTER_NAME in $DIR: ${#term[@]} slurm daemons, ${#kill9[@]} job processes, ${#db[@]} mariadb, ${#mu[@]} munged"
	if ((${#kill9[@]})); then kill -KILL "${kill9[@]}" 2>/dev/null || true; fi
	# SIGTERM lets slurmctld save its state.
	kill_wait TERM 15 "${slurm[@]}"
	kill_wait TERM 30 "${db[@]}"
	kill_wait TERM 10 "${mu[@]}"
	# Anything forked meanwhile (a job starting during the stop).
	mapfile -t pids < <(cluster_pids)
	if ((${#pids[@]})); then kill_wait KILL 5 "${pids[@]}"; fi
	mapfile -t left < <(cluster_pids)
	rm -f "$RUNDIR"/*.pid "$MY_PID" "$MY_SOCK" "$MUNGE_PID" "$DBD2_PID" 2>/dev/null || true
	dbd2_net_down
	if ((${#left[@]})); then
		warn "processes still alive: ${left[*]}"
		ps -o pid,user,cmd -p "$(
			IFS=,
			printf '%s' "${left[*]}"
		)" >&2 || true
		exit 1
	fi
	info "stopped (no process of $DIR left)"
}

# A crash of the whole cluster (power loss): SIGKILL to every process at
# once, nothing saved, pid files, sockets and locks left behind. `start`
# must recover from it (tests/cluster/test_lifecycle.sh).
cmd_kill() {
	((EUID == 0)) || die "must run as root"
	local pids=() left=()
	mapfile -t pids < <(cluster_pids)
	info "killing (-9) ${#pids[@]} processes of $CLUSTER_NAME in $DIR"
	if ((${#pids[@]})); then kill_wait KILL 5 "${pids[@]}"; fi
	mapfile -t left < <(cluster_pids)
	dbd2_net_down
	((${#left[@]} == 0)) || die "processes still alive after SIGKILL: ${left[*]}"
}

cmd_status() {
	local ok=0 pid i n st states munge_up=1 ctld_up=1
	line() { printf '%-22s %-5s %s\n' "$1" "$2" "$3"; }
	if munge_up; then line munged up "pid $(pid_of "$MUNGE_PID" munged || echo '?') socket $MUNGE_SOCK"
	else line munged down "log $MUNGE_LOG"; ok=1; munge_up=0; fi
	if [[ -f $MY_CNF ]] && db_ok; then line mariadb up "pid $(pid_of "$MY_PID" mariadbd || echo '?') port $DB_PORT"
	else line mariadb down "log $MY_LOG"; ok=1; fi
	# Without munged every Slurm client call fails slowly (retries): skip them.
	if ((munge_up)) && dbd_ok; then line slurmdbd up "pid $(pid_of "$DBD_PID" slurmdbd || echo '?') port $DBD_PORT"
	else line slurmdbd down "log $DBD_LOG"; ok=1; fi
	if ((munge_up)) && ctld_ok; then line slurmctld up "pid $(pid_of "$CTLD_PID" slurmctld || echo '?') port $CTLD_PORT"
	else line slurmctld down "log $CTLD_LOG"; ok=1; ctld_up=0; fi
	states=""
	((ctld_up)) && states=$(node_states || true)
	for ((i = 1; i <= NODE_COUNT; i++)); do
		n=$(node_name "$i")
		st=$(awk -v n="$n" '$1 == n { print $2 }' <<<"$states")
		if pid=$(pid_of "$(node_pidfile "$i")" slurmd) && [[ -n $st && $st != *'*'* && $st != unk* && $st != down* ]]; then
			line "slurmd $n" up "pid $pid port $((SLURMD_PORT_BASE + i - 1)) state $st"
		else
			line "slurmd $n" down "pid ${pid:-none} state ${st:-?} log $(node_log "$i")"; ok=1
		fi
	done
	return "$ok"
}

DIR_ARG=""
[[ $DIR == "$(realpath -m "$REPO_ROOT/build/cluster")" ]] || DIR_ARG=" --dir $DIR"

case $CMD in
start) cmd_start ;;
stop) cmd_stop ;;
kill) cmd_kill ;;
status) cmd_status ;;
env) printf 'export SLURM_CONF=%s\n' "$CONF" ;;
demo)
	check_prereqs
	ctld_ok || die "cluster is not running (slurmctld at 127.0.0.1:$CTLD_PORT does not answer); run: $0 start${DIR_ARG}"
	run_demo
	;;
esac; exit $? # on the line of esac: a run never reads past it, even when the file is edited meanwhile
