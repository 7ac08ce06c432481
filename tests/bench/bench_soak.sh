#!/usr/bin/env bash
# bench_soak.sh [MINUTES] [EVERY]: a console left open on a queue that
# keeps changing (docs/performance.md, "A console left open all day").
# The real opsconsole runs in tmux (200x50, queue view, OC_LATENCY_LOG)
# against the running cluster while `scontrol update comment=` changes one
# pending job every EVERY seconds (default 3) for MINUTES (default 25), so
# that every job request gets the whole queue again. Once a minute it
# prints the job loads so far (the log's "snapshot ... jobs" lines), the
# console's VmHWM and VmRSS and the CPU of all its threads
# (/proc/PID/task/*/schedstat). Run it on a filled queue: run_bench.sh
# --keep leaves one. The job's comment is put back at the end. Exits 1
# when it cannot measure (no cluster, no pending job, no frame).
set -euo pipefail
minutes=${1:-25}
every=${2:-3}
[[ $minutes =~ ^[1-9][0-9]*$ && $every =~ ^[1-9][0-9]*$ ]] || {
	echo "usage: bench_soak.sh [MINUTES] [EVERY] (whole numbers above 0)" >&2
	exit 1
}
: "${OC_BIN:?OC_BIN must point at the opsconsole binary}"
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running cluster}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
die() { echo "bench_soak: $*" >&2; exit 1; }
squeue -h -o %i >/dev/null 2>&1 || die "squeue failed: is the cluster running?"
# A pending job that is not an array's task (its record changes alone).
jid=$(squeue -h -t PD -o %i | grep -v _ | head -1 || true)
[[ -n $jid ]] || die "no pending job to change"
comment=$(squeue -h -j "$jid" -o %k)
[[ $comment == "(null)" ]] && comment=""
tmp=$(mktemp -d)
sock="oc-soak-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	scontrol update jobid="$jid" comment="$comment" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
log=$tmp/latency.log
tmux -L "$sock" -f /dev/null new-session -d -s soak -x 200 -y 50 \
	"env TERM=screen LANG=C.UTF-8 OC_LATENCY_LOG=$log $OC_BIN --cluster llm-poc --view queue"
end=$((SECONDS + 60))
until grep -q first_full_paint "$log" 2>/dev/null; do
	((SECONDS < end)) || die "the console drew no full frame in 60 s"
	sleep 0.1
done
pid=$(tmux -L "$sock" display-message -p -t soak '#{pane_pid}')
loads() { grep -c 'snapshot.*jobs' "$log" || true; }
cpu_ms() {
	local tot=0 t c
	for t in /proc/"$pid"/task/*/schedstat; do
		read -r c _ <"$t" || continue
		tot=$((tot + c))
	done
	echo $((tot / 1000000))
}
mem() { awk '/^VmHWM|^VmRSS/ {printf "%s %.1f MB  ", $1, $2 / 1024}' /proc/"$pid"/status; }
sample() {
	kill -0 "$pid" 2>/dev/null || die "the console ended"
	printf 'minute %3d  job loads %5d  %s CPU %d ms\n' "$1" "$(loads)" "$(mem)" "$(cpu_ms)"
}
echo "bench_soak: job $jid changed every $every s for $minutes minutes; console pid $pid"
sample 0
start=$SECONDS
i=0
for ((m = 1; m <= minutes; m++)); do
	while ((SECONDS - start < m * 60)); do
		scontrol update jobid="$jid" comment="soak$i" || die "scontrol update failed"
		i=$((i + 1))
		sleep "$every"
	done
	sample "$m"
done
