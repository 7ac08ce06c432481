#!/usr/bin/env bash
# bench_ui.sh OUT [RUNS] [KEYS] [CPU_SECONDS]: the real opsconsole in tmux
# against the running cluster, measured through its latency log
# (OC_LATENCY_LOG) and /proc:
#   P6  time from the console's exec (bash's $EPOCHREALTIME in the window,
#       just before `exec opsconsole`) to the first frame of the queue
#       view drawn with the jobs loaded, median of RUNS; against the wall
#       time of one `squeue` (output discarded) run by this script just
#       before each start, median of RUNS: both sides under the same load
#       of slurmctld. Also the time from just before `tmux new-window` to
#       that frame, and what `tmux new-window` costs by itself (a window
#       running date);
#   P4  its peak RSS (VmHWM) after that frame and two more refreshes, and
#       its RSS then (VmRSS: what holding the jobs costs); and the peak RSS
#       of the console opened on the same queue recorded (--record, then
#       --snapshot: holding the jobs without libslurm's load); and the
#       peak RSS of the console of P1 at the end of its window, with how
#       long it ran and how many whole job loads it took (the first too);
#   P5  key to screen in the queue view: moves, page keys, sorting by each
#       column, a filter typed character by character and cleared, views
#       switched and back, KEYS keys in all; then the same with slurmctld
#       stopped (SIGSTOP).
#   P5o the same keys timed from outside (issue 20): bench_keys runs the
#       console on a pty of its own (the size, TERM=xterm) and times each
#       key from its write to the pty to the last byte of the screen
#       update it causes; live, then with slurmctld stopped. A long list
#       is sorted and filtered off the UI thread: the key's frame comes
#       at once, the list later; how much later is counted apart (the
#       console's "list made" log lines).
#   P1  the whole process's CPU (utime+stime of all its threads, from
#       /proc/PID/stat) over CPU_SECONDS (default 60) of a console opened
#       afresh on the queue view after the keys (as an admin leaves it),
#       redraws included, against `watch -n2 'sinfo; squeue'` in a window
#       of the same size over the same time (watch's own CPU and its
#       children's, which it waits for: cutime+cstime).
#   P1q the console's CPU in the seconds of that window in which it
#       loaded no table anew, nor in the seconds either side (its threads
#       read once a second): what a cluster that did not change costs.
#       Its floor: `bench_scale --poll-floor CPU_SECONDS`, a program that
#       only asks libslurm every 2 s whether the queue changed.
# Each key is sent alone and the next one waits for its log line, so
# every figure is one key. "key MS" in the log is measured inside the
# program (key read to the end of doupdate()); the round trip
# (send-keys to the log line) includes tmux and this script's polling.
# Everything runs at one terminal size: OC_BENCH_SIZE, COLSxROWS, 200x50
# unless set (80x24 is what an SSM session gives).
# Writes key=value lines to OUT. Exits 1 only when it cannot measure.
set -euo pipefail
out=${1:?usage: bench_ui.sh OUT [RUNS] [KEYS]}
runs=${2:-5}
nkeys=${3:-120}
cpu_seconds=${4:-60}
: "${OC_BIN:?OC_BIN must point at the opsconsole binary}"
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running cluster}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
size=${OC_BENCH_SIZE:-200x50}
[[ $size =~ ^([0-9]{2,3})x([0-9]{2,3})$ ]] || { echo "bench_ui: OC_BENCH_SIZE must be COLSxROWS, like 80x24 (got '$size')" >&2; exit 1; }
cols=${BASH_REMATCH[1]} rows=${BASH_REMATCH[2]}
tmp=$(mktemp -d)
sock="oc-bench-$$"
ctld=$(cat "$OC_CLUSTER_DIR/run/slurmctld.pid" 2>/dev/null || true)
[[ -n $ctld ]] && kill -0 "$ctld" 2>/dev/null || { echo "bench_ui: slurmctld is not running" >&2; exit 1; }
cleanup() {
	kill -CONT "$ctld" 2>/dev/null || true
	tmux -L "$sock" kill-server 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
die() { echo "bench_ui: $*" >&2; exit 1; }
now_ns() { date +%s%N; }

# A server that is already up, so that its start is not counted.
tmux -L "$sock" -f /dev/null new-session -d -s idle -x "$cols" -y "$rows" "sleep 3600"
log=$tmp/latency.log

# What starting a program through `tmux new-window` costs by itself (the
# shell tmux runs the command with, env): measured with date, median of 5.
spawns=()
for ((r = 1; r <= 5; r++)); do
	rm -f "$tmp/spawn"
	t0=$(now_ns)
	tmux -L "$sock" new-window -d -t idle "env TERM=screen date +%s%N >$tmp/spawn.tmp && mv $tmp/spawn.tmp $tmp/spawn"
	end=$((SECONDS + 10))
	until [[ -s $tmp/spawn ]]; do
		((SECONDS < end)) || die "tmux did not start a window"
		sleep 0.005
	done
	spawns+=("$(awk -v a="$t0" '{printf "%.1f", ($1 - a) / 1e6}' "$tmp/spawn")")
done
spawn_ms=$(printf '%s\n' "${spawns[@]}" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')

# The window's command: the time just before the console's exec, then
# the console on the queue view.
cat >"$tmp/launch" <<EOF
#!/usr/bin/env bash
export LC_ALL=C
printf '%s\\n' "\$EPOCHREALTIME" >$tmp/t_exec
exec env TERM=screen LANG=C.UTF-8 OC_LATENCY_LOG=$log $(printf '%q ' "$OC_BIN") --cluster llm-poc --view queue
EOF
chmod +x "$tmp/launch"

# start: a new window running the console on the queue view; sets
# paint_ms (from before `tmux new-window`), exec_ms (from the exec) and pid.
start_console() {
	rm -f "$log" "$tmp/t_exec" # the console only creates its latency log, never appends to one

	t_start=$(now_ns)
	tmux -L "$sock" new-window -d -t idle -n oc "$tmp/launch"
	local end=$((SECONDS + 60))
	until grep -q '^first_full_paint' "$log" 2>/dev/null; do
		((SECONDS < end)) || die "no first full paint within 60 s"
		sleep 0.01
	done
	local t1 t_exec
	t1=$(awk '/^first_full_paint/ {print $2; exit}' "$log")
	t_exec=$(cat "$tmp/t_exec")
	[[ $t_exec =~ ^[0-9]+\.[0-9]+$ ]] || die "no time of the console's exec ($t_exec)"
	paint_ms=$(awk -v a="$t_start" -v b="$t1" 'BEGIN {printf "%.1f", (b - a / 1e9) * 1000}')
	exec_ms=$(awk -v a="$t_exec" -v b="$t1" 'BEGIN {printf "%.1f", (b - a) * 1000}')
	pid=$(tmux -L "$sock" display-message -p -t idle:oc '#{pane_pid}')
}

# One squeue's wall time (fork, exec, wait; output discarded), in ms.
squeue_wall() {
	local a b
	a=$EPOCHREALTIME
	squeue >/dev/null || die "squeue failed"
	b=$EPOCHREALTIME
	awk -v a="$a" -v b="$b" 'BEGIN {printf "%.1f", (b - a) * 1000}'
}
stop_console() {
	tmux -L "$sock" send-keys -t idle:oc q
	local end=$((SECONDS + 10))
	while kill -0 "$pid" 2>/dev/null && ((SECONDS < end)); do sleep 0.05; done
	kill "$pid" 2>/dev/null || true
}

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
paints=() execs=() squeues=()
for ((r = 1; r <= runs; r++)); do
	squeues+=("$(squeue_wall)")
	start_console
	paints+=("$paint_ms")
	execs+=("$exec_ms")
	if ((r < runs)); then stop_console; fi
done
p6=$(median "${paints[@]}")
p6_exec=$(median "${execs[@]}")
p6_squeue=$(median "${squeues[@]}")

# Peak RSS once the slow parts are in too and two refreshes have passed,
# and RSS then. The console keeps the memory of a big job load for the
# next one until 180 s have passed without another (slurm_source.c,
# OC_TRIM_AFTER_S), so RSS then is close to the peak.
sleep 10
rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
rss_now=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
[[ -n $rss ]] || die "cannot read VmHWM of $pid"

# The keys: moves and pages, each column as sort key, a typed filter,
# views switched (nodes, queue, partitions, queue).
keys=()
while ((${#keys[@]} < nkeys)); do
	keys+=(j j j j j k k NPage NPage PPage End Home s s s S s s S)
	keys+=(/ b e n c h - 1 2 BSpace BSpace 3 Escape)
	keys+=(3 2 1 2)
done
keys=("${keys[@]:0:$nkeys}")

# run_keys NAME: send every key alone, wait for its log line; writes
# NAME.in (in-program ms) and NAME.rt (round trip ms).
run_keys() {
	local name=$1 k n t0 t1 end
	: >"$tmp/$name.rt"
	: >"$tmp/$name.names"
	for k in "${keys[@]}"; do
		echo "$k" >>"$tmp/$name.names"
		n=$(grep -c '^key ' "$log" || true)
		t0=$(now_ns)
		tmux -L "$sock" send-keys -t idle:oc -- "$k"
		end=$((SECONDS + 10))
		until (($(grep -c '^key ' "$log" || true) > n)); do
			((SECONDS < end)) || die "no frame after key $k"
			sleep 0.002
		done
		t1=$(now_ns)
		echo "$(((t1 - t0) / 1000))" >>"$tmp/$name.rt"
	done
	grep '^key ' "$log" | awk '{print $2}' >"$tmp/$name.all"
	grep '^key ' "$log" | awk '{print $3}' >"$tmp/$name.prep"
	grep '^key ' "$log" | awk '{print $4}' >"$tmp/$name.cpu"
	# The slowest keys, for the record.
	paste "$tmp/$name.all" "$tmp/$name.names" | sort -rn | sed -n 1,5p | tr '\t\n' ' ,' >"$tmp/$name.slowest"
}
pct() { # pct FILE P: the P-th percentile (nearest rank)
	sort -n "$1" | awk -v p="$2" '{v[NR]=$1} END {i=int(NR*p/100+0.999999); if (i<1) i=1; printf "%.3f", v[i]}'
}

# Whole job loads the console took (for P4 over its whole run).
job_loads() { grep -a -c '^snapshot [0-9]* .*jobs' "$log" || true; }
# Esc after a run of keys, and its frame: a sequence cut short (20 keys:
# the filter prompt just opened) leaves no prompt for the next run to
# type its keys into.
keys_done() {
	local n end
	n=$(grep -c '^key ' "$log" || true)
	tmux -L "$sock" send-keys -t idle:oc Escape
	end=$((SECONDS + 10))
	until (($(grep -c '^key ' "$log" || true) > n)); do
		((SECONDS < end)) || die "no frame after Esc"
		sleep 0.01
	done
}
: >"$log"
run_keys live
keys_done
cp "$tmp/live.all" "$tmp/live.in"
kill -STOP "$ctld"
: >"$log"
run_keys stopped
keys_done
kill -CONT "$ctld"
cp "$tmp/stopped.all" "$tmp/stopped.in"
# P1 and P4 over a whole run are read from a console opened afresh on the
# queue view, as an admin leaves it: the keys leave the one above sorted
# by another column (and before keys_done, with 20 keys, filtered on the
# text typed into the prompt), which changes what each frame draws.
stop_console
start_console

# P1, the whole process, over cpu_seconds from 5 s after slurmctld came
# back (the console's refreshes run again): the CPU ticks of all its
# threads (/proc/PID/stat utime+stime, and cutime+cstime for the children
# a process waited for: watch's sinfo and squeue), 10 ms each; for the
# console the nanoseconds of each thread instead (/proc/PID/task/*/schedstat:
# those alive at the end, a thread born in the window counted whole; one
# that ended in it would be missed, so the ticks when they are more).
ticks() { awk '{sub(/^.*\) /, ""); print $12 + $13 + $14 + $15}' "/proc/$1/stat"; }
thread_ns() { # thread_ns PID: "TID NS" per thread
	local t
	for t in /proc/"$1"/task/*; do
		[[ -r $t/schedstat ]] && echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat" 2>/dev/null)"
	done
}
clk=$(getconf CLK_TCK)
ns_sum() { awk '{s += $2} END {printf "%d", s}'; }
cpu_window() { # cpu_window PID [ns]: ms of CPU over cpu_seconds
	local a b na nb ms ns
	a=$(ticks "$1") || die "cannot read /proc/$1/stat"
	if [[ ${2:-} == ns ]]; then
		na=$(thread_ns "$1")
		# Each second of the window: the console's CPU (all threads,
		# ns) and whether it loaded a table anew in it (its latency
		# log), for P1q below; slept to whole seconds from the start.
		local t0=${EPOCHREALTIME/./} i prev cur r rprev
		prev=$(ns_sum <<<"$na")
		rprev=$(reloads)
		: >"$tmp/p1_seconds"
		for ((i = 1; i <= cpu_seconds; i++)); do
			sleep "$(awk -v t="$((t0 + i * 1000000 - ${EPOCHREALTIME/./}))" 'BEGIN {printf "%.6f", (t > 0 ? t : 0) / 1e6}')"
			cur=$(thread_ns "$1" | ns_sum)
			r=$(reloads)
			echo "$((cur - prev)) $((r - rprev))" >>"$tmp/p1_seconds"
			prev=$cur
			rprev=$r
		done
	else
		sleep "$cpu_seconds"
	fi
	b=$(ticks "$1") || die "process $1 ended during the CPU window"
	ms=$(((b - a) * 1000 / clk))
	if [[ ${2:-} == ns ]]; then
		nb=$(thread_ns "$1")
		ns=$(awk 'NR == FNR {a[$1] = $2; next} $2 != "" {s += $2 - ($1 in a ? a[$1] : 0)} END {printf "%d", s / 1e6}' \
			<(echo "$na") <(echo "$nb"))
		# The UI thread's part (the main thread: its id is the pid's).
		awk -v m="$1" 'NR == FNR {a[$1] = $2; next} $1 == m {printf "%d\n", ($2 - a[$1]) / 1e6}' \
			<(echo "$na") <(echo "$nb") >"$tmp/ui_thread_ms"
		# ns unless the ticks are more by over two ticks (a thread that
		# ended in the window); the ticks alone are ±10 ms.
		if ((ms - ns <= 2 * 1000 / clk)); then ms=$ns; fi
	fi
	echo "$ms"
}
# The cluster is unchanged once slurmctld has caught up after its stop:
# the window starts when the console has loaded no table anew for 10 s
# (its latency log's "snapshot" lines; at most 90 s after slurmctld came
# back, 30 s for a window shorter than a minute: the CI size), and the
# tables it loaded in the window are counted and printed.
reloads() { grep -c '^snapshot [0-9]* [a-z]' "$log" 2>/dev/null || true; }
sleep 5
settle_end=$((SECONDS + (cpu_seconds >= 60 ? 90 : 30)))
last=$(reloads)
quiet_since=$SECONDS
while ((SECONDS < settle_end && SECONDS - quiet_since < 10)); do
	sleep 1
	now=$(reloads)
	if [[ $now != "$last" ]]; then
		last=$now
		quiet_since=$SECONDS
	fi
done
r0=$(reloads)
console_cpu_ms=$(cpu_window "$pid" ns)
# P1q: the console on a cluster that did not change: its CPU in the
# seconds of that window with no table loaded anew in them nor in the
# seconds either side (a whole load, its rows and its frame can spill
# into the next second), per second; with how many such seconds.
read -r p1q_seconds p1q_ms_per_s < <(awk '{c[NR] = $1; r[NR] = $2} END {
	for (i = 1; i <= NR; i++) if (!r[i] && !r[i - 1] && !r[i + 1]) {n++; s += c[i]}
	printf "%d %.4f\n", n, n ? s / n / 1e6 : -1}' "$tmp/p1_seconds")
p1_reloads=$(($(reloads) - r0))
p1_reload_tables=$({ grep '^snapshot [0-9]* [a-z]' "$log" || true; } | tail -n "+$((r0 + 1))" | cut -d' ' -f3- | tr ' ' '\n' | sort | uniq -c | awk '{printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1}')
# P4 over the console's whole run: the peak RSS of the console of the P1
# window, opened after the keys, now, with how long it ran and how many
# whole job loads it took, the first one too (each leaves its memory in the
# heap for the next one: P4 above is read 10 s after the first frame).
long_rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
[[ -n $long_rss ]] || die "cannot read VmHWM of $pid after the P1 window"
long_seconds=$((($(now_ns) - t_start) / 1000000000))
long_job_loads=$(job_loads)
stop_console
tmux -L "$sock" new-window -d -t idle -n watch \
	"env SLURM_CONF=$(printf '%q' "$SLURM_CONF") TERM=screen watch -n2 'sinfo; squeue'"
wpid=$(tmux -L "$sock" display-message -p -t idle:watch '#{pane_pid}')
sleep 3
watch_cpu_ms=$(cpu_window "$wpid")
tmux -L "$sock" kill-window -t idle:watch
# P1q's floor: a program doing nothing but libslurm's "no change" job
# request every 2 s, over as long (bench_scale --poll-floor). What it
# could not measure (no quiet request, a failed one) it says, and the
# report prints the floor as not measured.
if ! "$OC_BENCH_BIN/bench_scale" --poll-floor "$cpu_seconds" >"$tmp/floor" 2>"$tmp/floor.err"; then
	echo "bench_ui: P1q floor not measured: $(tr '\n' ' ' <"$tmp/floor.err")" >&2
	grep '^poll_floor_\(quiet\|changed\)=' "$tmp/floor" >"$tmp/floor.n" || true
	mv "$tmp/floor.n" "$tmp/floor"
fi

# P5o: the keys from outside, on a pty of bench_keys' own (no tmux).
okeys=$(printf '%s ' "${keys[@]}" | sed -e 's/NPage/PgDn/g; s/PPage/PgUp/g; s/Escape/Esc/g')
keys_out() { # keys_out NAME [--stop-pid PID]: the keys, timed; NAME.o
	local name=$1
	shift
	rm -f "$tmp/$name.log"
	env LANG=C.UTF-8 OC_LATENCY_LOG="$tmp/$name.log" "$OC_BENCH_BIN/bench_keys" --cols "$cols" --rows "$rows" --term xterm \
		--ready "$tmp/$name.log" --out "$tmp/$name.o" "$@" "$okeys" -- "$OC_BIN" --cluster llm-poc --view queue \
		>/dev/null || die "bench_keys ($name) failed"
	# A frame the console was descheduled in the middle of for more than
	# bench_keys' quiet time would end early on the pty: each key's figure
	# is at least the console's own (its latency log, one "key" line per
	# key's frame, key read to the end of doupdate), when the log has one
	# line per key.
	local nlog
	nlog=$(grep -c '^key ' "$tmp/$name.log" || true)
	if [[ $nlog == "$(wc -l <"$tmp/$name.o")" ]]; then
		awk 'NR == FNR {if ($1 == "key") in_[++n] = $2; next}
			{k++; v = $1 + 0; if (in_[k] + 0 > v) {v = in_[k] + 0; raised++}; printf "%.3f %s\n", v, $2}
			END {print raised + 0 > "/dev/stderr"}' "$tmp/$name.log" "$tmp/$name.o" >"$tmp/$name.om" 2>"$tmp/$name.raised"
		mv "$tmp/$name.om" "$tmp/$name.o"
	else
		echo "bench_ui: $name: $nlog frames logged for $(wc -l <"$tmp/$name.o") keys (a frame of its own came between): the pty figures alone" >&2
		echo "-1" >"$tmp/$name.raised"
	fi
	# Long lists are sorted and filtered off the UI thread: the key's
	# frame comes first, the list it asked for later ("list made ... MS
	# ms" in the log, from the key to the result).
	awk '/^list made / {print $(NF-1)}' "$tmp/$name.log" >"$tmp/$name.made"
	awk '{print $1}' "$tmp/$name.o" >"$tmp/$name.oall"
	awk '$2 != "Esc" {print $1}' "$tmp/$name.o" >"$tmp/$name.onoesc"
	awk '$2 == "Esc" {print $1}' "$tmp/$name.o" >"$tmp/$name.oesc"
	sort -rn "$tmp/$name.o" | sed -n 1,5p | tr '\n' ',' >"$tmp/$name.oslowest"
}
: "${OC_BENCH_BIN:?OC_BENCH_BIN must point at the folder of bench_keys}"
keys_out olive
keys_out ostopped --stop-pid "$ctld"
awk '{printf "%.3f\n", $1/1000}' "$tmp/live.rt" >"$tmp/live.rtms"

# P4 on a recorded snapshot (the issue allows one): the same queue written
# with --record, the console opened on it with --snapshot (no libslurm
# load), its peak RSS once the queue view is drawn and two seconds have
# passed.
snap=$tmp/queue.jsonl
"$OC_BIN" --cluster llm-poc --record "$snap" >/dev/null </dev/null || die "--record failed"
rm -f "$log"
tmux -L "$sock" new-window -d -t idle -n snap \
	"env TERM=screen LANG=C.UTF-8 OC_LATENCY_LOG=$log $(printf '%q ' "$OC_BIN") --snapshot $(printf '%q' "$snap") --view queue"
end=$((SECONDS + 60))
until grep -q '^first_full_paint' "$log" 2>/dev/null; do
	((SECONDS < end)) || die "no first paint on the snapshot within 60 s"
	sleep 0.01
done
sleep 2
spid=$(tmux -L "$sock" display-message -p -t idle:snap '#{pane_pid}')
snap_rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$spid/status")
snap_jobs=$(grep -c '"t":"job"' "$snap")
[[ -n $snap_rss ]] || die "cannot read VmHWM of the console on the snapshot"
tmux -L "$sock" send-keys -t idle:snap q

{
	echo "size=$size"
	echo "p6_first_paint_ms=$p6"
	echo "p6_exec_paint_ms=$p6_exec"
	echo "p6_squeue_ms=$p6_squeue"
	echo "p6_exec_paints=${execs[*]}"
	echo "p6_squeues=${squeues[*]}"
	echo "p6_spawn_ms=$spawn_ms"
	echo "p6_runs=$runs"
	echo "p4_console_rss_kb=$rss"
	echo "p4_console_rss_now_kb=$rss_now"
	echo "p4_snapshot_rss_kb=$snap_rss"
	echo "p4_snapshot_jobs=$snap_jobs"
	echo "p4_long_rss_kb=$long_rss"
	echo "p4_long_seconds=$long_seconds"
	echo "p4_long_job_loads=$long_job_loads"
	echo "p5_keys=$(wc -l <"$tmp/live.in")"
	echo "p5_p50=$(pct "$tmp/live.in" 50)"
	echo "p5_p99=$(pct "$tmp/live.in" 99)"
	echo "p5_max=$(pct "$tmp/live.in" 100)"
	echo "p5_stopped_keys=$(wc -l <"$tmp/stopped.in")"
	echo "p5_stopped_p50=$(pct "$tmp/stopped.in" 50)"
	echo "p5_stopped_p99=$(pct "$tmp/stopped.in" 99)"
	echo "p5_prep_p50=$(pct "$tmp/live.prep" 50)"
	echo "p5_prep_p99=$(pct "$tmp/live.prep" 99)"
	echo "p5_stopped_prep_p99=$(pct "$tmp/stopped.prep" 99)"
	echo "p5_cpu_p50=$(pct "$tmp/live.cpu" 50)"
	echo "p5_cpu_p99=$(pct "$tmp/live.cpu" 99)"
	echo "p5_stopped_cpu_p99=$(pct "$tmp/stopped.cpu" 99)"
	echo "p5_slowest=$(cat "$tmp/live.slowest")"
	echo "p5_stopped_slowest=$(cat "$tmp/stopped.slowest")"
	echo "p5_roundtrip_p50=$(pct "$tmp/live.rtms" 50)"
	echo "p5_roundtrip_p99=$(pct "$tmp/live.rtms" 99)"
	for n in olive ostopped; do
		echo "p5o_${n#o}_keys=$(wc -l <"$tmp/$n.oall")"
		echo "p5o_${n#o}_p50=$(pct "$tmp/$n.oall" 50)"
		echo "p5o_${n#o}_p99=$(pct "$tmp/$n.oall" 99)"
		echo "p5o_${n#o}_max=$(pct "$tmp/$n.oall" 100)"
		echo "p5o_${n#o}_noesc_p99=$(pct "$tmp/$n.onoesc" 99)"
		if [[ -s $tmp/$n.oesc ]]; then echo "p5o_${n#o}_esc_p50=$(pct "$tmp/$n.oesc" 50)"; fi
		echo "p5o_${n#o}_slowest=$(cat "$tmp/$n.oslowest")"
		echo "p5o_${n#o}_raised_by_log=$(cat "$tmp/$n.raised")"
		echo "p5o_${n#o}_made=$(wc -l <"$tmp/$n.made")"
		if [[ -s $tmp/$n.made ]]; then
			echo "p5o_${n#o}_made_p50=$(pct "$tmp/$n.made" 50)"
			echo "p5o_${n#o}_made_max=$(pct "$tmp/$n.made" 100)"
		fi
	done
	echo "p1_seconds=$cpu_seconds"
	echo "p1_console_cpu_ms=$console_cpu_ms"
	echo "p1_console_ui_thread_ms=$(cat "$tmp/ui_thread_ms" 2>/dev/null)"
	echo "p1_console_reloads=$p1_reloads"
	echo "p1q_quiet_seconds=$p1q_seconds"
	echo "p1q_console_ms_per_s=$p1q_ms_per_s"
	echo "p1_console_reload_tables=$p1_reload_tables"
	echo "p1_watch_cpu_ms=$watch_cpu_ms"
	cat "$tmp/floor"
} >"$out"
cat "$out"
