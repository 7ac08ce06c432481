#!/usr/bin/env bash
# Script mode against the real cluster: `--once VIEW --json` for every view
# has the documented shape (docs/script-mode.schema.json, checked by
# once_check.jq) and the values Slurm's own tools report; tables are plain
# ASCII; exit codes: health 1 with the demo's drained node and 0 once it is
# resumed, quota 1 on the demo, 2 for bad usage, an unknown cluster and a
# stopped slurmctld (without threads); slurmdbd down is a warning.
. "$(dirname "$0")/lib.sh"

src=$(cd "$(dirname "$0")/../.." && pwd)
schema="$src/docs/script-mode.schema.json"
checker="$src/tests/e2e/once_check.jq"
work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
node7=gpu-st-b300-7
reason7="prolog: gpu count 7"

# once NAME ARGS...: run opsconsole --cluster llm-poc ARGS, stdout in
# $work/NAME.out, stderr in $work/NAME.err, exit code in $rc. Never a
# terminal: stdin from /dev/null, stdout a file.
once() {
	local name=$1
	shift
	rc=0
	"$OC_BIN" --cluster llm-poc "$@" <"/dev/null" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
}

# shape NAME: the document in $work/NAME.out has the documented shape.
shape() {
	local problems
	problems=$(jq -r --slurpfile schema "$schema" -f "$checker" "$work/$1.out") ||
		fail "$1: not JSON: $(head -c 300 "$work/$1.out")"
	[ -z "$problems" ] || fail "$1: not the documented shape:
$problems"
}

# jqv NAME FILTER: the raw value of FILTER on $work/NAME.out.
jqv() { jq -r "$2" "$work/$1.out"; }

# The checker itself catches what it must.
echo '{"schema":"opsconsole.once/1","view":"nodes","cluster":"x","slurm_version":null,"taken":"t","partition":null,"show_hidden":false,"warnings":[],"rows":[{"name":1,"surprise":true}]}' >"$work/bad.out"
bad=$(jq -r --slurpfile schema "$schema" -f "$checker" "$work/bad.out")
grep -q 'rows\[0\].name: number where string was expected' <<<"$bad" || fail "checker missed a wrong type: $bad"
grep -q 'field surprise is not documented' <<<"$bad" || fail "checker missed an undocumented field: $bad"
grep -q 'missing field state' <<<"$bad" || fail "checker missed a missing field: $bad"
ok "the shape checker reports wrong types, unknown and missing fields"

# A reservation, so that the reservations view has a row to check.
resv="e2e_once_$$"
e2e_on_exit scontrol delete ReservationName="$resv"
scontrol create reservation ReservationName="$resv" user=root starttime=now duration=60 \
	flags=maint,ignore_jobs nodes=gpu-st-b300-[15-16] >/dev/null
# slurmctld marks the nodes MAINT on its next reservation pass, not at once.
for _ in $(seq 100); do
	[ "$(sinfo -h -n gpu-st-b300-[15-16] -N -o %t | sort -u)" = maint ] && break
	sleep 0.1
done
[ "$(sinfo -h -n gpu-st-b300-[15-16] -N -o %t | sort -u)" = maint ] || fail "nodes 15-16 never became maint"

# The history has a row: a job that ended (slurmdbd has its whole record).
hname="e2e-once-$$"
e2e_cancel_on_exit "$hname"
runuser -u alice -- sbatch --parsable -J "$hname" -p large --qos large_qos -N1 --mem=1G --time=5 \
	--output=/dev/null --wrap='exit 0' >/dev/null || fail "sbatch failed"
wait_cmd 60 sh -c "sacct -n -X -P -S now-1hours -o End,JobName | grep -q '^[0-9].*|$hname\$'"

# ---- every view: shape, exit code, common fields ------------------------
for v in partitions queue nodes health quota reservations history events fairshare scheduler; do
	args=(--show-hidden)
	case $v in history | events) args=(--since now-1hours) ;; esac
	once "$v" --once "$v" --json "${args[@]}"
	shape "$v"
	case $v in
	health | quota) want=1 ;; # the demo: a drained node; bench has no GPU limit
	scheduler) want=$((rc <= 1 ? rc : 0)) ;; # 1 when something is unusual: a state of the cluster
	*) want=0 ;;
	esac
	[ "$rc" -eq "$want" ] || fail "--once $v --json: exit $rc, want $want: $(cat "$work/$v.err")"
	[ "$(jqv "$v" '.schema + " " + .view + " " + .cluster')" = "opsconsole.once/1 $v llm-poc" ] ||
		fail "$v: schema/view/cluster: $(jqv "$v" '[.schema, .view, .cluster] | tostring')"
	grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' <<<"$(jqv "$v" '.taken')" ||
		fail "$v: taken is not ISO 8601 UTC: $(jqv "$v" .taken)"
	[ "$(jqv "$v" '.rows | length')" -gt 0 ] || fail "$v: no rows"
done
ok "every view's JSON has the documented shape (health and quota exit 1 on the demo, the others 0)"

# ---- values against Slurm's own tools ----------------------------------
# nodes: every node with sinfo's compact state; node 7 with its reason.
# The two are read at different moments: a state that moves in between
# (the backfill planning nodes for a job an earlier test just cancelled:
# `plnd`) is read again, 10 times at most, a second apart; a difference
# that stays is a failure.
for try in 1 2 3 4 5 6 7 8 9 10; do
	want=$(sinfo -h -a -N -o '%N %t' | sort -u | sort)
	got=$(jqv nodes '.rows[] | "\(.name) \(.state)"' | sort)
	[ "$got" = "$want" ] && break
	sleep 1
	once nodes --once nodes --json
done
[ "$got" = "$want" ] || fail "node states differ from sinfo:
sinfo:
$want
opsconsole:
$got"
[ "$(jqv nodes ".rows[] | select(.name == \"$node7\") | .reason")" = "$reason7" ] ||
	fail "$node7 lacks its reason: $(jqv nodes ".rows[] | select(.name == \"$node7\")")"
[ "$(jqv nodes ".rows[] | select(.name == \"$node7\") | .reason_source")" = "health check" ] ||
	fail "$node7's reason is not a health check"
[ "$(jqv nodes '.rows[] | select(.name == "gpu-st-b300-15") | .reservation')" = "$resv" ] ||
	fail "gpu-st-b300-15 is not shown in $resv"
ok "nodes: the states sinfo reports; $node7 drained with '$reason7'; reserved nodes named"
# Each node's slurmd version as scontrol shows it; none differs here (one build).
want_ver=$(scontrol show node "$node7" | sed -n 's/.*Version=\([^ ]*\).*/\1/p')
[ -n "$want_ver" ] || fail "scontrol shows no Version for $node7"
[ "$(jqv nodes ".rows[] | select(.name == \"$node7\") | .slurmd_version")" = "$want_ver" ] ||
	fail "$node7: slurmd_version $(jqv nodes ".rows[] | select(.name == \"$node7\") | .slurmd_version"), scontrol: $want_ver"
[ "$(jqv nodes '[.rows[] | select(.slurmd_differs)] | length')" = 0 ] ||
	fail "nodes marked with another slurmd version on a one-build cluster"
ok "nodes: slurmd_version $want_ver as scontrol shows it, none marked as differing"

# partitions: node counts as sinfo's %F total, running jobs as squeue's.
while read -r p counts; do
	total=${counts##*/}
	got=$(jqv partitions ".rows[] | select(.name == \"$p\") | .nodes")
	[ "$got" = "$total" ] || fail "partition $p: $got nodes, sinfo says $total"
	running=$(squeue -h -t R -p "$p" -o %i | wc -l)
	got=$(jqv partitions ".rows[] | select(.name == \"$p\") | .jobs_running")
	[ "$got" = "$running" ] || fail "partition $p: $got running jobs, squeue says $running"
done < <(sinfo -h -a -o '%R %F')
[ "$(jqv partitions '.rows[] | select(.default) | .name')" = normal ] || fail "normal is not the default partition"
ok "partitions: node totals as sinfo, running jobs as squeue"

# queue: the jobs squeue lists, with their states and users; --partition.
for try in 1 2 3 4 5 6 7 8 9 10; do # read again while it moves, as the nodes above
	want=$(squeue -h --all -o '%i %t %u' | sort)
	got=$(jqv queue '.rows[] | "\(.id) \(.state_compact) \(.user)"' | sort)
	[ "$got" = "$want" ] && break
	sleep 1
	once queue --once queue --json
done
[ "$got" = "$want" ] || fail "queue differs from squeue:
squeue:
$want
opsconsole:
$got"
once queue_normal --once queue --partition normal --json
[ "$rc" -eq 0 ] || fail "--once queue --partition normal: exit $rc"
shape queue_normal
[ "$(jqv queue_normal '.partition')" = normal ] || fail "the document does not name the partition"
[ "$(jqv queue_normal '.rows[].id' | sort)" = "$(squeue -h -p normal -o %i | sort)" ] ||
	fail "--partition normal lists other jobs than squeue -p normal"
ok "queue: the jobs, states and users squeue lists; --partition normal as squeue -p normal"

# health: the drained node under "health check", findings as sinfo counts.
bad_nodes=$(sinfo -h -a -N -o '%N %t' | sort -u | awk '$2 ~ /drain|drng|down|fail|\*/ {print $1}' | sort)
[ "$(jqv health '.rows[].name' | sort)" = "$bad_nodes" ] ||
	fail "health lists $(jqv health '[.rows[].name] | join(",")'), sinfo: $(echo $bad_nodes)"
[ "$(jqv health ".rows[] | select(.name == \"$node7\") | .source")" = "health check" ] ||
	fail "$node7 is not under health check"
[ "$(jqv health '.findings')" = "$(echo "$bad_nodes" | grep -c .)" ] || fail "findings: $(jqv health .findings)"
[ "$(jqv health '.counts | add')" = "$(jqv health .nodes_total)" ] || fail "health counts do not add up"
ok "health: $(echo $bad_nodes) listed as sinfo reports them, exit 1"

# quota: GPU use and limits as the association manager counts them.
for acct in team-a team-b; do
	grp=$(scontrol show assoc_mgr accounts="$acct" flags=assoc |
		awk -v a="Account=$acct" '$0 ~ a" UserName= " {on = 1; next} on && /GrpTRES=/ {print; exit}')
	lim=$(sed -E 's/.*gres\/gpu=([0-9N]+)\(([0-9]+)\).*/\1/' <<<"$grp")
	used=$(sed -E 's/.*gres\/gpu=([0-9N]+)\(([0-9]+)\).*/\2/' <<<"$grp")
	[ -n "$used" ] && [ "$lim" != "$grp" ] || fail "no gres/gpu in assoc_mgr for $acct: $grp"
	got=$(jqv quota ".rows[] | select(.account == \"$acct\") | \"\(.gpu_limit) \(.gpu_used)\"")
	[ "$got" = "$lim $used" ] || fail "$acct: opsconsole says limit/used $got, assoc_mgr $lim $used"
	limited=$(squeue -h -t PD -A "$acct" -o %r | grep -c '^Assoc\|^QOS' || true)
	got=$(jqv quota ".rows[] | select(.account == \"$acct\") | .limited_jobs")
	[ "$got" = "$limited" ] || fail "$acct: $got jobs on a limit, squeue says $limited"
	echo "   $acct: gres/gpu=$lim($used), $limited job(s) pending on a limit"
done
grep -qx no_gpu_limit <<<"$(jqv quota '.rows[] | select(.account == "bench") | .findings[]')" ||
	fail "bench is not flagged without a GPU limit"
grep -qx jobs_on_limit <<<"$(jqv quota '.rows[] | select(.account == "team-a") | .findings[]')" ||
	fail "team-a's job pending on AssocGrpGRES is not a finding"
ok "quota: team-a and team-b GPU use and limits match scontrol show assoc_mgr; bench flagged"

# reservations: the one made above, as scontrol shows it.
row=$(jqv reservations ".rows[] | select(.name == \"$resv\")")
[ -n "$row" ] || fail "$resv is not listed"
[ "$(jq -r '"\(.state) \(.nodes) \(.node_count) \(.users | join(","))"' <<<"$row")" = \
	"ACTIVE gpu-st-b300-[15-16] 2 root" ] || fail "$resv: $row"
flags=$(scontrol show res "$resv" | sed -nE 's/.*Flags=([^ ]+).*/\1/p')
[ "$(jq -r '.flags | join(",")' <<<"$row")" = "$flags" ] || fail "$resv flags $(jq -c .flags <<<"$row"), scontrol: $flags"
ok "reservations: $resv ACTIVE on gpu-st-b300-[15-16] with $flags"

[ "$(jq --arg n "$hname" '[.rows[] | select(.name == $n and .state == "COMPLETED" and .exit == "0:0")] | length' \
	"$work/history.out")" = 1 ] || fail "history: $hname is not listed COMPLETED 0:0"
ok "history: the job that ended is listed COMPLETED 0:0"
[ "$(jq --arg n "$node7" --arg r "$reason7" '[.rows[] | select(.node == $n and .ongoing and .reason == $r)] | length' \
	"$work/events.out")" = 1 ] || fail "events: the drain of $node7 is not listed as ongoing"
ok "events: the demo's drain of $node7 is listed, ongoing"

# ---- tables: plain ASCII, columns like the console's -------------------
for v in partitions queue nodes health quota reservations history events fairshare scheduler; do
	once "t_$v" --once "$v"
	[ "$rc" -le 1 ] || fail "--once $v (table): exit $rc: $(cat "$work/t_$v.err")"
	if LC_ALL=C grep -q '[^ -~]' "$work/t_$v.out"; then
		fail "--once $v: the table has bytes other than printable ASCII: $(LC_ALL=C grep -n '[^ -~]' "$work/t_$v.out" | cat -v | head -3)"
	fi
done
grep -Eq '^PARTITION +AVAIL +TIMELIMIT +NODES' <<<"$(head -1 "$work/t_partitions.out")" || fail "partitions header: $(head -1 "$work/t_partitions.out")"
grep -Eq '^normal\* +up ' "$work/t_partitions.out" || fail "no default partition line"
grep -Eq "^health check +$node7 +drain +root .*$reason7\$" "$work/t_health.out" || fail "health table: $(cat "$work/t_health.out")"
grep -Eq '^bench +0/NONE +no GPU limit!' "$work/t_quota.out" || fail "quota table: $(cat "$work/t_quota.out")"
for v in partitions health quota; do
	long=$(awk 'length > 80' "$work/t_$v.out")
	[ -z "$long" ] || fail "--once $v: lines longer than 80 columns: $long"
done
ok "tables are plain ASCII; partitions, health and quota fit 80 columns"

# ---- exit codes ----------------------------------------------------------
# health 0 once the drained node is resumed; put it back as the demo has it.
e2e_on_exit scontrol update nodename="$node7" state=drain reason="$reason7"
scontrol update nodename="$node7" state=resume
# Slurm shows a resumed node as not responding (idle*) until its slurmd answers.
unhealthy() { sinfo -h -a -N -o '%N %t' | sort -u | awk '$2 ~ /drain|drng|down|fail|\*/'; }
end=$((SECONDS + 40))
while [ -n "$(unhealthy)" ]; do
	[ "$SECONDS" -lt "$end" ] || fail "nodes not healthy 40 s after resuming $node7: $(unhealthy | tr '\n' ' ')"
	sleep 0.5
done
once healthy --once health --json
[ "$rc" -eq 0 ] || fail "health with every node healthy: exit $rc, want 0: $(jqv healthy '.rows')"
shape healthy
once healthy_t --once health
[ "$rc" -eq 0 ] || fail "health table with every node healthy: exit $rc"
grep -q '^no node needs attention$' "$work/healthy_t.out" || fail "healthy table: $(cat "$work/healthy_t.out")"
scontrol update nodename="$node7" state=drain reason="$reason7"
wait_cmd 20 bash -c "sinfo -h -n $node7 -o %t | grep -q dr"
once drained_again --once health
[ "$rc" -eq 1 ] || fail "health after draining $node7 again: exit $rc, want 1"
ok "health exits 0 with all nodes healthy, 1 with $node7 drained (restored: '$reason7')"

# Bad usage, unknown cluster: 2, a message, nothing on stdout.
expect2() {
	local what=$1 msg=$2
	shift 2
	rc=0
	"$OC_BIN" "$@" </dev/null >"$work/x.out" 2>"$work/x.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$what: exit $rc, want 2"
	grep -q -- "$msg" "$work/x.err" || fail "$what: message: $(cat "$work/x.err")"
	[ ! -s "$work/x.out" ] || fail "$what: printed on stdout: $(head -3 "$work/x.out")"
}
expect2 "unknown view" "unknown view 'bogus'" --cluster llm-poc --once bogus --json
expect2 "unknown cluster" "unknown cluster 'no-such'" --cluster no-such --once health --json
expect2 "unknown partition" "unknown partition 'nope'" --cluster llm-poc --once queue --partition nope
expect2 "--partition with nodes" "--partition goes with --once queue" --cluster llm-poc --once nodes --partition debug
expect2 "--json alone" "--json goes with --once" --cluster llm-poc --json
expect2 "--view with --once" "do not go together" --cluster llm-poc --view nodes --once nodes
ok "unknown view, cluster or partition and bad combinations exit 2 with a message, nothing on stdout"

# slurmdbd down: quota still answers from slurmctld's cache, with a warning.
dbd=$(cat "$OC_CLUSTER_DIR/run/slurmdbd.pid")
e2e_on_exit "$src/tests/cluster/cluster.sh" start
kill -TERM "$dbd"
wait_cmd 90 bash -c "! kill -0 $dbd" # slurmdbd 24.11 may take ~30 s: see test_drill_accounting.sh
once nodbd --once quota --json
[ "$rc" -eq 1 ] || fail "quota with slurmdbd down: exit $rc, want 1 (the demo's findings): $(cat "$work/nodbd.err")"
shape nodbd
grep -q 'slurmdbd unreachable' <<<"$(jqv nodbd '.warnings[0]')" || fail "no slurmdbd warning: $(jqv nodbd .warnings)"
grep -q 'slurmdbd unreachable' <<<"$(jqv nodbd '.accounting.dbd_error')" || fail "no dbd_error: $(jqv nodbd .accounting)"
grep -q 'warning: slurmdbd unreachable' "$work/nodbd.err" || fail "no warning on stderr: $(cat "$work/nodbd.err")"
[ "$(jqv nodbd '.rows[] | select(.account == "team-a") | .gpu_limit')" = 64 ] || fail "team-a's limit lost with slurmdbd down"
"$src/tests/cluster/cluster.sh" start >/dev/null
ok "slurmdbd down: quota answers from slurmctld's cache with a warning (JSON and stderr)"

# slurmctld stopped: 2, the part named on stderr, nothing on stdout, and
# no thread started while it waits.
ctld=$(cat "$OC_CLUSTER_DIR/run/slurmctld.pid")
kill -0 "$ctld" || fail "slurmctld ($ctld) is not running"
e2e_on_exit kill -CONT "$ctld"
kill -STOP "$ctld"
"$OC_BIN" --cluster llm-poc --once health --json </dev/null >"$work/stopped.out" 2>"$work/stopped.err" &
pid=$!
wait_cmd 10 test -d "/proc/$pid/task"
sleep 1 # well inside the wait for slurmctld (MessageTimeout=10)
threads=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
rc=0
wait "$pid" || rc=$?
kill -CONT "$ctld"
[ "$rc" -eq 2 ] || fail "health with slurmctld stopped: exit $rc, want 2"
[ "$threads" -eq 1 ] || fail "script mode ran $threads threads, want 1"
grep -Eq 'slurmctld: nodes: ' "$work/stopped.err" || fail "stderr does not name slurmctld and the part: $(cat "$work/stopped.err")"
[ ! -s "$work/stopped.out" ] || fail "printed on stdout with slurmctld stopped"
echo "   $(grep -m1 'once health' "$work/stopped.err")"
wait_cmd 40 sinfo
once back --once health --json
[ "$rc" -eq 1 ] || fail "health after SIGCONT: exit $rc, want 1"
ok "slurmctld stopped: exit 2 naming slurmctld and the part, one thread only; 1 again after SIGCONT"
