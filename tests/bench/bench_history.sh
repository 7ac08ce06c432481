#!/usr/bin/env bash
# bench_history.sh OUT [JOBS] [RUNS] [KEYS]: the history of JOBS ended jobs
# (issue 18's benchmark) against the running cluster of $OC_CLUSTER_DIR.
#
# Adds JOBS ended jobs to slurmdbd's job table (MariaDB, one INSERT ...
# SELECT from the newest completed job there, ids from 50000001 on, named
# bench-hist-N, ended over the last 23 hours, one in ten FAILED with exit
# code 3, one in ten TIMEOUT, CANCELLED, NODE_FAIL; on the 16 nodes in
# turn) and deletes them when it ends. Then, for the window now-24hours:
#   H1  `sacct -a -X -P -S now-24hours -E now`: wall time and peak RSS
#       (getrusage of the child), median of RUNS;
#   H2  the real console opened on the history view in tmux: time from its
#       start to the first frame drawn with the history loaded
#       (OC_LATENCY_LOG's first_full_paint), median of RUNS, and its peak
#       RSS (VmHWM) then; the ratios H2/H1 (issue 18: <= 1.0 each);
#   H3  key to screen (the latency log's "key" lines) for KEYS keys sent
#       one at a time from the console's start, while the history loads:
#       p50/p99/max, and how many of them came before the first paint;
#   H4  the same keys on the loaded list (moves, pages, sorting by end and
#       by state, a filter typed and cleared): p50/p99/max.
# Writes key=value lines to OUT. Exits 1 only when it cannot measure.
set -euo pipefail
out=${1:?usage: bench_history.sh OUT [JOBS] [RUNS] [KEYS]}
njobs=${2:-100000}
runs=${3:-3}
nkeys=${4:-60}
for v in "$njobs" "$runs" "$nkeys"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench_history: not a number: $v" >&2; exit 2; }
done
: "${OC_BIN:?OC_BIN must point at the opsconsole binary}"
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running cluster}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
die() { echo "bench_history: $*" >&2; exit 1; }
now_ns() { date +%s%N; }
cluster=$(scontrol show config | awk -F' = ' '/^ClusterName/ {print $2}')
[[ -n $cluster ]] || die "scontrol show config gave no ClusterName"
db=(mysql --defaults-file="$OC_CLUSTER_DIR/mysql/my.cnf" -N -B slurm_acct_db)
jt="\`${cluster}_job_table\`"
"${db[@]}" -e "select 1" >/dev/null || die "cannot reach the cluster's MariaDB"
tmp=$(mktemp -d)
sock="oc-benchh-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	# OC_BENCH_KEEP=1 keeps the jobs (to look at the console on them).
	[[ ${OC_BENCH_KEEP:-} == 1 ]] ||
		"${db[@]}" -e "delete from $jt where id_job > 50000000 and job_name like 'bench-hist-%'" || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# The jobs: copies of the newest job that ran and ended, with another id,
# name, state, node and times. A cluster with none runs one first.
tmpl="select * from $jt where time_end > 0 and nodes_alloc > 0 and id_job < 50000000 order by job_db_inx desc limit 1"
if [[ -z $("${db[@]}" -e "$tmpl") ]]; then
	seed=$(runuser -u alice -- sbatch --parsable -J bench-hist-seed -p large --qos large_qos -N1 --mem=1G \
		--output=/dev/null --wrap=true) || die "sbatch of the seed job failed"
	end=$((SECONDS + 60))
	until grep -q '^[0-9].*|gpu' <<<"$(sacct -n -X -P -j "$seed" -o End,NodeList)"; do
		((SECONDS < end)) || die "the seed job $seed did not end within 60 s"
		sleep 0.5
	done
fi
now=$(date +%s)
"${db[@]}" -e "delete from $jt where id_job > 50000000 and job_name like 'bench-hist-%'"
t0=$(now_ns)
"${db[@]}" -e "
insert into $jt (mod_time, account, cpus_req, exit_code, job_name, id_assoc, id_job, id_qos, id_resv,
	id_wckey, id_user, id_group, het_job_id, het_job_offset, state_reason_prev, nodelist, nodes_alloc,
	node_inx, \`partition\`, priority, state, timelimit, time_submit, time_eligible, time_start, time_end,
	work_dir, submit_line, tres_alloc, tres_req, mem_req, gres_used, wckey, flags, id_array_task)
select $now, t.account, t.cpus_req, if(s.seq % 10 = 1, 768, 0), concat('bench-hist-', s.seq), t.id_assoc,
	50000000 + s.seq, t.id_qos, 0, t.id_wckey, t.id_user, t.id_group, 0, t.het_job_offset, 0,
	concat('gpu-st-b300-', 1 + s.seq % 16), 1, t.node_inx, t.\`partition\`, t.priority,
	case s.seq % 10 when 1 then 5 when 2 then 6 when 3 then 4 when 4 then 7 else 3 end,
	t.timelimit, $now - 83700 + s.seq * 82000 div $njobs, $now - 83700 + s.seq * 82000 div $njobs,
	$now - 83400 + s.seq * 82000 div $njobs, $now - 82800 + s.seq * 82000 div $njobs,
	t.work_dir, concat('sbatch --wrap=bench ', s.seq), t.tres_alloc, t.tres_req, t.mem_req, t.gres_used, t.wckey,
	t.flags, 4294967294
from seq_1_to_$njobs s join ($tmpl) t"
ins_ms=$((($(now_ns) - t0) / 1000000))
have=$("${db[@]}" -e "select count(*) from $jt where id_job > 50000000 and job_name like 'bench-hist-%'")
[[ $have == "$njobs" ]] || die "$have of $njobs jobs inserted (no completed job to copy?)"
total=$(sacct -a -X -n -P -S now-24hours -E now -o JobID | wc -l)
echo "bench_history: $njobs jobs inserted in $ins_ms ms; sacct lists $total in the window" >&2

median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
pct() { # pct FILE P: the P-th percentile (nearest rank)
	sort -n "$1" | awk -v p="$2" '{v[NR]=$1} END {i=int(NR*p/100+0.999999); if (i<1) i=1; printf "%.3f", v[i]}'
}

# H1: sacct, its wall time and peak RSS (kB) per run.
: >"$tmp/sacct"
for ((r = 1; r <= runs; r++)); do
	python3 -c '
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
w = time.monotonic() - t
print("%.1f %d %d" % (w * 1000, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc))
' sacct -a -X -P -S now-24hours -E now >>"$tmp/sacct"
done
awk '$3 != 0 {exit 1}' "$tmp/sacct" || die "sacct failed"
sacct_ms=$(awk '{print $1}' "$tmp/sacct" | median)
sacct_rss=$(awk '{print $2}' "$tmp/sacct" | median)

# H2, H3: the console on the history view; keys from its start.
tmux -L "$sock" -f /dev/null new-session -d -s idle -x 120 -y 40 "sleep 3600"
log=$tmp/latency.log
keys=()
while ((${#keys[@]} < nkeys)); do keys+=(j j k NPage PPage j Home End k); done
keys=("${keys[@]:0:$nkeys}")

# send_keys NAME: each key alone, the next once its frame is logged.
send_keys() {
	local name=$1 k n end
	for k in "${keys[@]}"; do
		n=$(grep -c '^key ' "$log" 2>/dev/null || true)
		tmux -L "$sock" send-keys -t idle:oc -- "$k"
		end=$((SECONDS + 20))
		until (($(grep -c '^key ' "$log" 2>/dev/null || true) > n)); do
			((SECONDS < end)) || die "no frame after key $k ($name)"
			sleep 0.002
		done
	done
}

paints=() rsss=()
for ((r = 1; r <= runs; r++)); do
	rm -f "$log"
	t_start=$(now_ns)
	tmux -L "$sock" new-window -d -t idle -n oc \
		"env TERM=screen LANG=C.UTF-8 OC_LATENCY_LOG=$log $(printf '%q ' "$OC_BIN") --cluster llm-poc --view history"
	pid=""
	end=$((SECONDS + 20))
	until [[ -e $log ]] || [[ -n $pid && ! -d /proc/$pid ]]; do
		((SECONDS < end)) || die "the console wrote no latency log within 20 s"
		pid=$(tmux -L "$sock" display-message -p -t idle:oc '#{pane_pid}' 2>/dev/null || true)
		sleep 0.01
	done
	pid=$(tmux -L "$sock" display-message -p -t idle:oc '#{pane_pid}')
	# The first run sends its keys while the history loads (H3).
	if ((r == 1)); then
		send_keys loading
		grep '^key \|^first_full_paint' "$log" >"$tmp/loading.lines"
	fi
	end=$((SECONDS + 300))
	until grep -q '^first_full_paint' "$log"; do
		((SECONDS < end)) || die "no first paint of the history within 300 s"
		sleep 0.01
	done
	t1=$(awk '/^first_full_paint/ {print $2; exit}' "$log")
	paints+=("$(awk -v a="$t_start" -v b="$t1" 'BEGIN {printf "%.1f", (b - a / 1e9) * 1000}')")
	rsss+=("$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")")
	screen=$(tmux -L "$sock" capture-pane -p -t idle:oc)
	grep -Eq "[0-9]+ jobs ended since now-24hours" <<<"$screen" || die "the history view shows no count: $(head -3 <<<"$screen")"
	shown=$(grep -Eo "[0-9]+ jobs ended since" <<<"$screen" | grep -Eo '^[0-9]+')
	((shown >= njobs)) || die "the history view shows $shown jobs, $njobs inserted"
	if ((r == runs)); then
		# H4: the loaded list.
		keys=()
		while ((${#keys[@]} < nkeys)); do keys+=(j j k NPage PPage End Home s S s / b e n c h BSpace BSpace BSpace BSpace BSpace Escape); done
		keys=("${keys[@]:0:$nkeys}")
		n0=$(grep -c '^key ' "$log" || true)
		send_keys loaded
		grep '^key ' "$log" | tail -n +$((n0 + 1)) | awk '{print $2}' >"$tmp/loaded.in"
		paste "$tmp/loaded.in" <(printf '%s\n' "${keys[@]}") | sort -rn | sed -n 1,8p | tr '\t\n' ' ,' >"$tmp/loaded.slowest"
		sleep 2
		rsss[-1]=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
	fi
	tmux -L "$sock" send-keys -t idle:oc q
	end=$((SECONDS + 10))
	while kill -0 "$pid" 2>/dev/null && ((SECONDS < end)); do sleep 0.05; done
	kill "$pid" 2>/dev/null || true
done
paint_ms=$(printf '%s\n' "${paints[@]}" | median)
rss_kb=$(printf '%s\n' "${rsss[@]}" | median)
# Keys sent before the first paint: those logged before its line.
awk '/^first_full_paint/ {exit} /^key / {print $2}' "$tmp/loading.lines" >"$tmp/before.in"
awk '/^key / {print $2}' "$tmp/loading.lines" >"$tmp/loading.in"

{
	echo "h_jobs=$njobs"
	echo "h_window_jobs=$total"
	echo "h_insert_ms=$ins_ms"
	echo "h1_sacct_ms=$sacct_ms"
	echo "h1_sacct_rss_kb=$sacct_rss"
	echo "h2_first_paint_ms=$paint_ms"
	echo "h2_console_rss_kb=$rss_kb"
	echo "h2_paint_ratio=$(awk -v a="$paint_ms" -v b="$sacct_ms" 'BEGIN {printf "%.2f", a / b}')"
	echo "h2_rss_ratio=$(awk -v a="$rss_kb" -v b="$sacct_rss" 'BEGIN {printf "%.2f", a / b}')"
	echo "h3_keys=$(wc -l <"$tmp/loading.in")"
	echo "h3_keys_before_paint=$(wc -l <"$tmp/before.in")"
	echo "h3_p50=$(pct "$tmp/loading.in" 50)"
	echo "h3_p99=$(pct "$tmp/loading.in" 99)"
	echo "h3_max=$(pct "$tmp/loading.in" 100)"
	echo "h4_keys=$(wc -l <"$tmp/loaded.in")"
	echo "h4_p50=$(pct "$tmp/loaded.in" 50)"
	echo "h4_p99=$(pct "$tmp/loaded.in" 99)"
	echo "h4_max=$(pct "$tmp/loaded.in" 100)"
	echo "h4_slowest=$(cat "$tmp/loaded.slowest")"
} >"$out"
cat "$out"
