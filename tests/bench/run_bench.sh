#!/usr/bin/env bash
# run_bench.sh: the benchmark of issue 8 against the local cluster,
# enlarged for the run and put back afterwards.
#
#   run_bench.sh [--nodes N] [--jobs N[,N...]] [--main N] [--runs N]
#                [--p3-seconds S] [--keys K] [--paints N] [--out DIR] [--keep]
#                [--gate]
#
# Adds N State=CLOUD nodes (no slurmd; partition "cloud") to the running
# cluster of $OC_CLUSTER_DIR through OC_CLUSTER_EXTRA_CONF, raises
# MaxJobCount, then for each queue size (ascending) fills the queue with held
# jobs of benchuser (account bench, bench_qos) and measures: bench_ui.sh
# (the real console in tmux: P4, P5, P6) and bench_scale (P1, P2, P3). P3 and
# the full key sequence run at the --main size only. At the end it cancels
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
while (($#)); do
	case $1 in
	--nodes) nodes=$2; shift 2 ;;
	--jobs) sizes=$2; shift 2 ;;
	--main) main=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--p3-seconds) p3=$2; shift 2 ;;
	--keys) keys=$2; shift 2 ;;
	--paints) paints=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--gate) gate=(--gate); shift ;;
	*) echo "run_bench: unknown option $1" >&2; exit 2 ;;
	esac
done
for v in "$nodes" "$runs" "$p3" "$keys" "$paints" ${sizes//,/ }; do
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
mkdir -p "$out"

# The enlarged configuration. Powered-down cloud nodes are hidden from
# every client unless PrivateData=cloud.
extra=$out/bench-slurm.conf
{
	if ((nodes > 0)); then
		echo "NodeName=gpu-dy-b300-[1-$nodes] CPUs=192 Boards=1 SocketsPerBoard=2 CoresPerSocket=48 ThreadsPerCore=2 RealMemory=400000 State=CLOUD"
		echo "PartitionName=cloud Nodes=gpu-dy-b300-[1-$nodes] MaxTime=1-00:00:00 Default=NO State=UP AllowQOS=bench_qos"
		echo "PrivateData=cloud"
	fi
	echo "MaxJobCount=$((largest + 20000))"
	# Cancelled benchmark jobs leave slurmctld soon, so that the default
	# MaxJobCount (10000) holds every record again before the restore.
	echo "MinJobAge=10"
} >"$extra"

restore() {
	((keep)) && return 0
	echo "run_bench: cancelling the benchmark's jobs, restoring slurm.conf" >&2
	"$OC_BENCH_BIN/bench_fill" --clear >&2 || true
	# A restart with the default MaxJobCount drops the records beyond it:
	# wait (at most 150 s) until the cancelled jobs are purged.
	local end=$((SECONDS + 150))
	while (($(squeue -h -t all -o %i 2>/dev/null | wc -l) > 9000)) && ((SECONDS < end)); do sleep 5; done
	env -u OC_CLUSTER_EXTRA_CONF "$cluster" start >&2 || echo "run_bench: restoring the cluster failed" >&2
}
trap restore EXIT

echo "run_bench: $nodes cloud nodes, MaxJobCount $((largest + 20000))" >&2
OC_CLUSTER_EXTRA_CONF=$extra "$cluster" start >"$out/cluster-start.log" 2>&1 ||
	{ tail -20 "$out/cluster-start.log" >&2; echo "run_bench: the enlarged cluster did not start" >&2; exit 1; }

# settle: wait until the pending reasons of the new jobs stop changing
# (the scheduler sets them) and no finished job of benchuser is left (the
# cancelled records of an earlier run, purged MinJobAge after they ended:
# they would be in every job load), at most 240 s.
settle() {
	local prev="" cur done_jobs end=$((SECONDS + 240))
	while ((SECONDS < end)); do
		cur=$(squeue -h -u benchuser -t PD -o %r | sort | uniq -c)
		done_jobs=$(squeue -h -u benchuser -t CA,CD,F,TO,NF,PR,BF,DL,OOM -o %i | wc -l)
		[[ $cur == "$prev" ]] && ((done_jobs == 0)) && return 0
		prev=$cur
		sleep 3
	done
	echo "run_bench: the queue did not settle in 240 s; measuring anyway" >&2
}

for n in "${sizes_sorted[@]}"; do
	echo "run_bench: queue of $n jobs" >&2
	"$OC_BENCH_BIN/bench_fill" --jobs "$n" >&2
	settle
	if ((n == main)); then
		"$here/bench_ui.sh" "$out/ui-$n.txt" "$paints" "$keys" >&2
		"$OC_BENCH_BIN/bench_scale" --runs "$runs" --p3-seconds "$p3" --ui "$out/ui-$n.txt" "${gate[@]}" | tee "$out/scale-$n.txt"
	else
		"$here/bench_ui.sh" "$out/ui-$n.txt" "$paints" 20 >&2
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
