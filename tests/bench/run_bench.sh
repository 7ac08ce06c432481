#!/usr/bin/env bash
# run_bench.sh: the benchmark of issue 8 against the local cluster,
# enlarged for the run and put back afterwards.
#
#   run_bench.sh [--workload mixed|uniform] [--nodes N] [--jobs N[,N...]]
#                [--main N] [--runs N] [--p3-seconds S] [--keys K]
#                [--paints N] [--running R] [--size COLSxROWS] [--out DIR]
#                [--keep] [--gate]
#
# Adds N State=CLOUD nodes (no slurmd; partition "cloud") to the running
# cluster of $OC_CLUSTER_DIR through OC_CLUSTER_EXTRA_CONF, raises
# MaxJobCount, then for each queue size (ascending) fills the queue and
# measures. The workload "mixed" (the default) is a cluster's queue: 200
# users (bu001..bu200, made here, OS and sacctmgr) in 20 accounts
# (bacct01..bacct20, GrpTRES=gres/gpu=64), every partition and QoS,
# R running jobs with GPUs (default 48, plus 16 at normal_qos's limit),
# pending jobs with every common reason, arrays, long names and comments
# (bench_fill.c says which); 4 DOWN nodes gpu-dn-b300-[1-4] in a partition
# "offline" for ReqNodeNotAvail, and a partition "bench" on the slurmd
# nodes for normal_qos's running jobs. "uniform" is held jobs of benchuser
# (account bench, bench_qos, partition normal). Measures: bench_ui.sh
# (the real console in tmux: P4, P5, P6) and bench_scale (P1, P2, P3). P3 and
# the full key sequence run at the --main size only. The console and watch
# run in a terminal of --size (default 200x50; bench_ui.sh's
# OC_BENCH_SIZE). At the end it cancels
# the benchmark's jobs and starts the cluster again without the overrides,
# so that slurm.conf is the default one again (unless --keep).
#
# Needs OC_CLUSTER_DIR (a running cluster), OC_BIN (opsconsole) and
# OC_BENCH_BIN (the folder of bench_scale and bench_fill). Exits 1 only when
# something could not be measured, never because of a target; with --gate
# (bench_scale --gate, at the --main size) 3 when a ratio is past its gate.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nodes=2000 sizes=10000 main="" runs=9 p3=60 keys=120 paints=5 out="" keep=0 gate=()
workload=mixed running=48
while (($#)); do
	case $1 in
	--workload) workload=$2; shift 2 ;;
	--running) running=$2; shift 2 ;;
	--nodes) nodes=$2; shift 2 ;;
	--jobs) sizes=$2; shift 2 ;;
	--main) main=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--p3-seconds) p3=$2; shift 2 ;;
	--keys) keys=$2; shift 2 ;;
	--paints) paints=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--size) export OC_BENCH_SIZE=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--gate) gate=(--gate); shift ;;
	*) echo "run_bench: unknown option $1" >&2; exit 2 ;;
	esac
done
[[ ${OC_BENCH_SIZE:-200x50} =~ ^[0-9]{2,3}x[0-9]{2,3}$ ]] || { echo "run_bench: --size is COLSxROWS, like 80x24, got ${OC_BENCH_SIZE}" >&2; exit 2; }
[[ $workload == mixed || $workload == uniform ]] || { echo "run_bench: --workload is mixed or uniform, got $workload" >&2; exit 2; }
for v in "$nodes" "$runs" "$p3" "$keys" "$paints" "$running" ${sizes//,/ }; do
	[[ $v =~ ^[0-9]+$ ]] || { echo "run_bench: not a number: $v" >&2; exit 2; }
done
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running cluster}"
: "${OC_BIN:?OC_BIN must point at opsconsole}"
: "${OC_BENCH_BIN:?OC_BENCH_BIN must point at the folder of bench_scale and bench_fill}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
cluster=$here/../cluster/cluster.sh
read -r -a sizes_sorted <<<"$(tr ',' '\n' <<<"$sizes" | sort -n | tr '\n' ' ')"
largest=${sizes_sorted[-1]}
[[ -n $main ]] || main=$( ((largest >= 10000)) && echo 10000 || echo "$largest")
out=${out:-$(mktemp -d)}
# Every task of a job array counts against MaxJobCount, pending or not:
# the mixed workload's 2 arrays of 100 tasks in each 100 jobs make about
# three times as many as its records.
maxjobs=$((largest + 20000))
[[ $workload == mixed ]] && maxjobs=$((3 * largest + 20000))
mkdir -p "$out"

real_nodes=$(sinfo -h -p large -o %N 2>/dev/null) && [[ -n $real_nodes ]] ||
	{ echo "run_bench: cannot list the nodes of partition large (is the cluster running?)" >&2; exit 1; }
# The enlarged configuration. Powered-down cloud nodes are hidden from
# every client unless PrivateData=cloud.
extra=$out/bench-slurm.conf
{
	if ((nodes > 0)); then
		echo "NodeName=gpu-dy-b300-[1-$nodes] CPUs=192 Boards=1 SocketsPerBoard=2 CoresPerSocket=48 ThreadsPerCore=2 RealMemory=400000 State=CLOUD"
		echo "PartitionName=cloud Nodes=gpu-dy-b300-[1-$nodes] MaxTime=1-00:00:00 Default=NO State=UP AllowQOS=bench_qos"
		echo "PrivateData=cloud"
	fi
	if [[ $workload == mixed ]]; then
		# normal_qos's jobs at its MaxJobsPerUser need free GPUs in a
		# partition that allows it: normal's nodes are the demo's.
		echo "PartitionName=bench Nodes=$real_nodes PriorityJobFactor=200 PriorityTier=200 MaxTime=1-00:00:00 Default=NO State=UP AllowQOS=normal_qos,bench_qos"
		# Nodes that are down (no slurmd): the jobs asking for them pend
		# with ReqNodeNotAvail.
		echo "NodeName=gpu-dn-b300-[1-4] NodeAddr=127.0.0.1 Port=9 CPUs=192 Boards=1 SocketsPerBoard=2 CoresPerSocket=48 ThreadsPerCore=2 RealMemory=400000 Gres=gpu:8 State=DOWN Reason=bench:powered_off"
		echo "PartitionName=offline Nodes=gpu-dn-b300-[1-4] MaxTime=1-00:00:00 Default=NO State=UP"
	fi
	echo "MaxJobCount=$maxjobs"
	# Cancelled benchmark jobs leave slurmctld soon, so that the default
	# MaxJobCount (10000) holds every record again before the restore.
	echo "MinJobAge=10"
} >"$extra"

# The mixed workload's users and accounts.
mix_users=$(printf 'bu%03d,' $(seq 1 200)) mix_users=${mix_users%,}
mix_accounts=$(printf 'bacct%02d,' $(seq 1 20)) mix_accounts=${mix_accounts%,}
sacct_i() { # sacctmgr -i ARGS, its output on failure
	local o
	o=$(sacctmgr -i "$@" 2>&1) || { echo "run_bench: sacctmgr $*: $o" >&2; return 1; }
}
mixed_setup() {
	local u a i have
	for u in ${mix_users//,/ }; do
		id -u "$u" >/dev/null 2>&1 || useradd --no-create-home --no-user-group --gid users --shell /usr/sbin/nologin "$u" ||
			{ echo "run_bench: useradd $u failed" >&2; return 1; }
	done
	have=$(sacctmgr -n -P show assoc format=account,user 2>/dev/null) || { echo "run_bench: sacctmgr does not answer" >&2; return 1; }
	grep -q '^bacct20|$' <<<"$have" || sacct_i add account "name=$mix_accounts" Description=benchmark Organization=bench || return 1
	# "Nothing modified" (a second run) exits 1: what counts is the result.
	sacct_i modify account "name=$mix_accounts" set GrpTRES=gres/gpu=64 \
		qos+=debug_qos,normal_qos,large_qos,exclusive_qos,bench_qos DefaultQOS=large_qos 2>/dev/null || true
	(($(sacctmgr -n -P show assoc format=account,user,grptres 2>/dev/null | grep -c '^bacct[0-9]*||gres/gpu=64$') == 20)) ||
		{ echo "run_bench: the accounts bacct01..20 did not get GrpTRES=gres/gpu=64" >&2; return 1; }
	for ((i = 0; i < 20; i++)); do
		a=$(printf 'bacct%02d' $((i + 1)))
		u=$(printf 'bu%03d,' $(seq $((i * 10 + 1)) $((i * 10 + 10))))
		grep -q "^$a|bu$(printf '%03d' $((i * 10 + 10)))$" <<<"$have" || sacct_i add user "name=${u%,}" "account=$a" || return 1
	done
	(($(sacctmgr -n -P show assoc format=account,user 2>/dev/null | grep -c '^bacct[0-9]*|bu[0-9]*$') == 200)) ||
		{ echo "run_bench: the 200 users of the mixed workload are not all in sacctmgr" >&2; return 1; }
	# slurmctld learns new associations from slurmdbd: wait for the last.
	local end=$((SECONDS + 60))
	until grep -q 'UserName=bu200' <<<"$(scontrol show assoc_mgr users=bu200 accounts=bacct20 flags=assoc 2>/dev/null)"; do
		((SECONDS < end)) || { echo "run_bench: slurmctld does not know bu200/bacct20 after 60 s" >&2; return 1; }
		sleep 1
	done
}
# Cancel the mixed workload's jobs, wait until none is left in slurmctld
# (sacctmgr refuses to delete users with active jobs), delete its users
# and accounts from the accounting (the OS users stay).
mixed_teardown() {
	"$OC_BENCH_BIN/bench_fill" --workload mixed --clear >&2 || true
	local end=$((SECONDS + 150))
	while [[ -n $(squeue -h -u "$mix_users" -t PD,R,CG,S -o %i 2>/dev/null) ]] && ((SECONDS < end)); do sleep 2; done
	# slurmdbd refuses while its own job table still has jobs of theirs
	# that it has not seen end ("Job(s) active"): try again for 120 s.
	end=$((SECONDS + 120))
	while grep -q '^bacct' <<<"$(sacctmgr -n -P show account format=account 2>/dev/null)"; do
		sacctmgr -i delete user "name=$mix_users" >/dev/null 2>&1 || true
		sacctmgr -i delete account "name=$mix_accounts" >/dev/null 2>&1 || true
		grep -q '^bacct' <<<"$(sacctmgr -n -P show account format=account 2>/dev/null)" || break
		((SECONDS < end)) || {
			echo "run_bench: the accounts bacct01..20 could not be deleted in 120 s: $(sacctmgr -i delete account "name=$mix_accounts" 2>&1 | tail -2)" >&2
			return 1
		}
		sleep 3
	done
}

# Pending jobs that are not the benchmark's (the demo's, a test's) are held
# for the run: the scheduler would plan them onto the nodes bench_fill
# counts as free for its running jobs. Released at the end, --keep or not.
held=()
hold_others() {
	local pending others
	pending=$(squeue -h -t PD -o '%i %u %r' 2>&1) || { echo "run_bench: squeue failed: $pending" >&2; return 1; }
	others=$(awk -v u=",$1," 'index(u, "," $2 ",") == 0 && $3 !~ /^JobHeld/ {print $1}' <<<"$pending")
	[[ -n $others ]] || return 0
	read -r -a held <<<"$(tr '\n' ' ' <<<"$others")"
	scontrol hold "${held[@]}" >&2 || { echo "run_bench: could not hold the pending jobs ${held[*]}" >&2; return 1; }
	echo "run_bench: held ${#held[@]} pending jobs not the benchmark's: ${held[*]}" >&2
}
restore() {
	if ((${#held[@]})); then
		scontrol release "${held[@]}" >&2 || echo "run_bench: could not release the held jobs ${held[*]}" >&2
	fi
	((keep)) && return 0
	echo "run_bench: cancelling the benchmark's jobs, restoring slurm.conf" >&2
	local failed=0
	if [[ $workload == mixed ]]; then mixed_teardown || failed=1; fi
	"$OC_BENCH_BIN/bench_fill" --clear >&2 || true
	# A restart with the default MaxJobCount drops the records beyond it:
	# wait (at most 150 s) until the cancelled jobs are purged.
	local end=$((SECONDS + 150))
	while (($(squeue -h -t all -o %i 2>/dev/null | wc -l) > 9000)) && ((SECONDS < end)); do sleep 5; done
	env -u OC_CLUSTER_EXTRA_CONF "$cluster" start >&2 || echo "run_bench: restoring the cluster failed" >&2
	if ((failed)); then exit 1; fi
}
trap restore EXIT

echo "run_bench: workload $workload, $nodes cloud nodes, MaxJobCount $maxjobs" >&2
OC_CLUSTER_EXTRA_CONF=$extra "$cluster" start >"$out/cluster-start.log" 2>&1 ||
	{ tail -20 "$out/cluster-start.log" >&2; echo "run_bench: the enlarged cluster did not start" >&2; exit 1; }
if [[ $workload == mixed ]]; then
	mixed_setup || exit 1
	users=$mix_users fill=(--workload mixed --running "$running")
else
	users=benchuser fill=()
fi
hold_others "$users,benchuser" || exit 1

# settle: wait until the pending reasons of the new jobs stop changing
# (the scheduler sets them) and no finished job of benchuser is left (the
# cancelled records of an earlier run, purged MinJobAge after they ended:
# they would be in every job load), at most 240 s.
settle() {
	local prev="" cur done_jobs end=$((SECONDS + 240))
	while ((SECONDS < end)); do
		cur=$(squeue -h -u "$users" -t PD -o %r | sort | uniq -c)
		done_jobs=$(squeue -h -u "$users" -t CA,CD,F,TO,NF,PR,BF,DL,OOM -o %i | wc -l)
		[[ $cur == "$prev" ]] && ((done_jobs == 0)) && return 0
		prev=$cur
		sleep 3
	done
	echo "run_bench: the queue did not settle in 240 s; measuring anyway" >&2
}

# P1 of the whole process: the console and `watch 'sinfo; squeue'` over
# the P3 window, 10 s at least (five of watch's runs).
cpu_s=$((p3 < 10 ? 10 : p3))
for n in "${sizes_sorted[@]}"; do
	echo "run_bench: queue of $n jobs" >&2
	"$OC_BENCH_BIN/bench_fill" --jobs "$n" "${fill[@]}" >&2
	settle
	# What the queue holds: its pending reasons, for the record.
	squeue -h -t PD -o %r | sed 's/,.*//' | sort | uniq -c | sort -rn >"$out/reasons-$n.txt"
	echo "run_bench: $(squeue -h -t R -o %i | wc -l) running, pending reasons: $(awk '{printf "%s %s; ", $2, $1}' "$out/reasons-$n.txt")" >&2
	if ((n == main)); then
		"$here/bench_ui.sh" "$out/ui-$n.txt" "$paints" "$keys" "$cpu_s" >&2
		"$OC_BENCH_BIN/bench_scale" --runs "$runs" --p3-seconds "$p3" --ui "$out/ui-$n.txt" "${gate[@]}" | tee "$out/scale-$n.txt"
	else
		"$here/bench_ui.sh" "$out/ui-$n.txt" "$paints" 20 "$cpu_s" >&2
		"$OC_BENCH_BIN/bench_scale" --runs "$runs" --quick --ui "$out/ui-$n.txt" >"$out/scale-$n.txt"
	fi
done

# How the cost grows with the queue: one line per size.
echo
echo "growth (medians; CPU in ms, RSS in MB)"
printf '%8s %9s %9s %10s %10s %9s %9s %9s %10s %10s\n' jobs squeue full tick own/bare consoleMB snapshotMB squeueMB paint_ms squeue_ms
for n in "${sizes_sorted[@]}"; do
	f=$out/scale-$n.txt
	v() { awk -v k="$1" 'index($0, k) {print $(NF-1); exit}' "$f"; }
	r() { awk -v k="$1" 'index($0, k) {print $(NF-4); exit}' "$f"; }
	printf '%8s %9s %9s %10s %10s %9s %9s %9s %10s %10s\n' "$n" \
		"$(v 'squeue, one process (CPU)')" "$(v 'collector full refresh, 4 parts (CPU)')" \
		"$(v 'unchanged tick, queue view')" "$(r 'own work')" \
		"$(v 'console peak RSS (VmHWM')" "$(v 'console peak RSS on the recorded')" "$(v 'squeue peak RSS')" \
		"$(v 'first full paint, queue view')" "$(v 'squeue, one process (wall)')"
done
echo "run_bench: results in $out" >&2
