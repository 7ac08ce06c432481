#!/usr/bin/env bash
# History and node events (from slurmdbd): a job that exited 3, one killed
# by its time limit (TIMEOUT) and one whose node went DOWN under it
# (NODE_FAIL: the node is set DOWN with scontrol, which is what slurmctld
# does itself once SlurmdTimeout passes without the node's slurmd; the
# test cluster's SlurmdTimeout is 300 s), and a drain and resume of
# another node. `--once history --json` on both backends against `sacct
# -X -P -j`, field by field, and `--once events --json` against `sacctmgr
# show event`; the history view (9) lists the jobs and Enter shows the
# exit code; the events view (0) lists the drain and Enter on it opens the
# node, whose panel shows the event and the jobs that ended on it; with
# slurmdbd stopped --once history exits 2 and the view says accounting is
# unreachable.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
name="e2e-hist-$$"
since="@$(($(date +%s) - 2))"
e2e_cancel_on_exit "$name-3" "$name-t" "$name-n"
sub() { runuser -u alice -- sbatch --parsable -J "$1" -p large --qos large_qos -N1 --mem=1G --output=/dev/null "${@:2}"; }
# The NODE_FAIL job alone on its node; the others elsewhere.
jn=$(sub "$name-n" --time=10 --no-requeue --exclusive --wrap='sleep 600')
[ -n "$jn" ] || fail "sbatch gave no job id"
wait_cmd 60 sh -c "[ \"\$(squeue -h -j $jn -o %T)\" = RUNNING ]"
node=$(squeue -h -j "$jn" -o %N)
[ -n "$node" ] || fail "job $jn runs on no node"
j3=$(sub "$name-3" --time=5 --exclude="$node" --wrap='exit 3')
jt=$(sub "$name-t" --time=1 --exclude="$node" --wrap='sleep 600')
[ -n "$j3" ] && [ -n "$jt" ] || fail "sbatch gave no job id"
e2e_on_exit scontrol update nodename="$node" state=resume
scontrol update nodename="$node" state=down reason="e2e history node_fail" || fail "cannot set $node down"
# Ended, and slurmdbd has the whole record (a job that ends at once may
# reach it as an end before its start: name and partition come after).
ended() { grep -q "^[0-9].*|$name-.*|large\$" <<<"$(sacct -n -X -P -j "$1" -o End,JobName,Partition)"; }
wait_cmd 30 ended "$jn"
scontrol update nodename="$node" state=resume 2>/dev/null || true
wait_cmd 30 ended "$j3"
# The time limit: slurmctld checks it about every 30 s after the minute.
wait_cmd 150 ended "$jt"
ok "ended: $j3 (exit 3), $jt (time limit), $jn (node $node set DOWN)"
# A drain and a resume of an idle node: an event that ended.
dnode=$(sinfo -h -N -p large -t idle -o %N | grep -v "^$node\$" | tail -1)
[ -n "$dnode" ] || fail "no idle node to drain"
dreason="e2e events $$ | drained"
e2e_on_exit scontrol update nodename="$dnode" state=resume
scontrol update nodename="$dnode" state=drain reason="$dreason" || fail "cannot drain $dnode"
wait_cmd 20 sh -c "sinfo -h -n $dnode -o %t | grep -q drain"
scontrol update nodename="$dnode" state=resume || fail "cannot resume $dnode"
ev_ended() { grep -q "^[0-9].*|$dreason\$" <<<"$(sacctmgr -n -P show event Event=Node Nodes="$dnode" Start=now-1hours Format=TimeEnd,Reason)"; }
wait_cmd 30 ev_ended
ok "drained and resumed $dnode"

# sacct's view of a job, as the JSON fields compare: state (first word),
# exit code, signal, elapsed, nodes, node count, CPUs, user, account,
# partition, QoS, name.
sacct_row() {
	sacct -n -X -P -j "$1" -o State,ExitCode,ElapsedRaw,NodeList,NNodes,NCPUS,User,Account,Partition,QOS,JobName |
		awk -F'|' '{ split($1, st, " "); split($2, ec, ":");
			if ($4 == "None assigned") $4 = "";
			printf "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n", st[1], ec[1], ec[2], $3, $4, $5, $6, $7, $8, $9, $10, $11 }'
}
ours_row() { # JSON FILE, JOB
	jq -r --argjson id "$2" '.rows[] | select(.job_id == $id) |
		[.state, .exit_code, .signal, .elapsed_s, (.nodes // ""), .num_nodes, .num_cpus, .user, .account,
		 .partition, .qos, .name] | map(tostring) | join("|")' "$1"
}
check_backend() { # LABEL (XDG_CONFIG_HOME set by the caller)
	local json rc j want got
	json=$(mktemp)
	e2e_on_exit rm -f "$json"
	"$OC_BIN" --cluster llm-poc --once history --since "$since" --json >"$json"
	rc=$?
	[ "$rc" -eq 0 ] || fail "$1: --once history exited $rc"
	jq -e '.schema == "opsconsole.once/1" and .view == "history" and (.rows | type == "array")' "$json" >/dev/null ||
		fail "$1: not a history document: $(head -c 300 "$json")"
	for j in "$j3" "$jt" "$jn"; do
		want=$(sacct_row "$j")
		got=$(ours_row "$json" "$j")
		[ -n "$want" ] || fail "sacct has no row for $j"
		[ "$got" = "$want" ] || fail "$1: job $j: ours '$got', sacct '$want'"
	done
	[ "$(ours_row "$json" "$j3" | cut -d'|' -f1-3)" = "FAILED|3|0" ] || fail "$1: $j3 not FAILED 3:0"
	[ "$(ours_row "$json" "$jt" | cut -d'|' -f1)" = "TIMEOUT" ] || fail "$1: $jt not TIMEOUT"
	[ "$(ours_row "$json" "$jn" | cut -d'|' -f1)" = "NODE_FAIL" ] || fail "$1: $jn not NODE_FAIL"
	ok "$1: FAILED 3:0, TIMEOUT and NODE_FAIL as sacct has them, field by field"

	# Every job that ended in the last four hours and a bit (the libslurm
	# backend asks slurmdbd in four slices): the same ids as sacct's rows
	# with an End in the window.
	local s4 u4 ours theirs
	u4=$(($(date +%s) - 1))
	s4=$((u4 - 4 * 3600 - 17))
	ours=$("$OC_BIN" --cluster llm-poc --once history --since "@$s4" --until "@$u4" --json | jq -r '.rows[].job_id' | sort -n)
	theirs=$(sacct -a -X -n -P -S "$(date -d "@$s4" +%Y-%m-%dT%H:%M:%S)" -E "$(date -d "@$u4" +%Y-%m-%dT%H:%M:%S)" \
		-o JobIDRaw,End | python3 -c '
import sys, time
s, u = int(sys.argv[1]), int(sys.argv[2])
for line in sys.stdin:
	jid, end = line.rstrip("\n").split("|")[:2]
	if end in ("Unknown", "None", ""):
		continue
	e = int(time.mktime(time.strptime(end, "%Y-%m-%dT%H:%M:%S")))
	if s <= e <= u:
		print(jid)' "$s4" "$u4" | sort -n)
	[ -n "$theirs" ] || fail "$1: sacct lists no job that ended in the last four hours"
	[ "$ours" = "$theirs" ] || fail "$1: jobs ended in the window: $(diff <(echo "$ours") <(echo "$theirs") | head -5)"
	ok "$1: the $(wc -l <<<"$ours") jobs that ended in a 4-hour window are sacct's"

	# Node events against sacctmgr: node, start, end, state, user, reason.
	"$OC_BIN" --cluster llm-poc --once events --since "$since" --json >"$json"
	rc=$?
	[ "$rc" -eq 0 ] || fail "$1: --once events exited $rc"
	want=$(TZ=UTC sacctmgr -n -P show event Event=Node Start="$(date -u -d "@${since#@}" +%Y-%m-%dT%H:%M:%S)" \
		Format=NodeName,TimeStart,TimeEnd,State,User,Reason | grep -E "^($node|$dnode)\|" |
		awk -F'|' '{ u = $5; sub(/\(.*/, "", u); e = ($3 == "Unknown") ? "" : $3; r = $6
			for (i = 7; i <= NF; i++) r = r "|" $i   # a reason may hold |
			print $1 "|" $2 "|" e "|" $4 "|" u "|" r }' | sort)
	got=$(jq -r --arg a "$node" --arg b "$dnode" '.rows[] | select(.node == $a or .node == $b) |
		[.node, (.start_time | sub("Z$"; "")), ((.end_time // "") | sub("Z$"; "")), .state, (.user // ""),
		 (.reason // "")] | join("|")' "$json" | sort)
	[ -n "$want" ] || fail "sacctmgr lists no event of $node or $dnode"
	[ "$got" = "$want" ] || fail "$1: events: ours
$got
sacctmgr
$want"
	grep -q "^$dnode|.*|DRAIN|root|$dreason\$" <<<"$got" || fail "$1: no ended DRAIN event of $dnode: $got"
	grep -q "^$node|.*|DOWN|root|e2e history node_fail\$" <<<"$got" || fail "$1: no DOWN event of $node: $got"
	ok "$1: the DOWN of $node and the drain of $dnode as sacctmgr show event has them"
}
set +e
check_backend "$(if [ -n "${E2E_BACKEND:-}" ]; then echo "backend $E2E_BACKEND"; else echo "profile's backend"; fi)"
# The other backend too: a private copy of the profile with "backend": "cli".
if [ -z "${E2E_BACKEND:-}" ]; then
	xdg=$(mktemp -d /tmp/oc-e2e-hist.XXXXXX)
	e2e_on_exit rm -rf "$xdg"
	mkdir -p "$xdg/opsconsole/clusters"
	chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
	jq '. + {backend: "cli"}' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
	chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"
	XDG_CONFIG_HOME=$xdg check_backend "backend cli"
fi
set -e

# Bad windows: a clear message, exit 2.
out=$("$OC_BIN" --cluster llm-poc --once history --since yesterday 2>&1) && fail "--since yesterday accepted"
grep -q "'yesterday' is not a time" <<<"$out" || fail "--since yesterday: $out"
out=$("$OC_BIN" --cluster llm-poc --once history --since now --until now-1hour 2>&1) && fail "since after until accepted"
grep -q "is after --until" <<<"$out" || fail "since after until: $out"
out=$("$OC_BIN" --cluster llm-poc --once queue --since now-1hour 2>&1) && fail "--since with queue accepted"
grep -q -- "--since goes with --once history or events" <<<"$out" || fail "--since with queue: $out"
ok "bad windows refused with the reason"

# The view: the three jobs, newest first; Enter on the exit-3 job.
e2e_start 120x30 --cluster llm-poc --view history
e2e_wait "jobs ended since now-24hours" 20
e2e_keys /
e2e_type "$name"
e2e_keys Enter
e2e_wait "3 of [0-9]+ jobs ended" 10
e2e_wait "^[0-9-]+ [0-9:]+ +$j3 +alice .*FAILED +3:0" 5
e2e_wait "^[0-9-]+ [0-9:]+ +$jt +alice .*TIMEOUT" 5
e2e_wait "^[0-9-]+ [0-9:]+ +$jn +alice .*NODE_FAIL .*$node" 5
ok "the history view lists the three with state and exit code"
e2e_keys /
e2e_keys C-u
e2e_type "$name-3"
e2e_keys Enter
e2e_wait "1 of [0-9]+ jobs ended" 10
e2e_keys Enter
e2e_wait "job $j3 " 5
e2e_wait "State +FAILED +exit code 3, signal 0" 5
e2e_wait "Submitted as +sbatch --parsable -J $name-3 " 5
# Its steps as sacct lists them: the batch step failed with exit code 3.
bstep=$(sacct -n -P -j "$j3" -o JobID,State,ExitCode | awk -F'|' '$1 ~ /\.batch$/ { split($2, s, " "); print s[1] " +" $3 }')
[ -n "$bstep" ] || fail "sacct lists no batch step of $j3"
e2e_wait "batch +$bstep " 15
ok "Enter shows the ended job: exit code 3, its submit line and its batch step ($bstep) as sacct"
e2e_keys Escape
e2e_wait_gone "job $j3 " 5

# The events view: the drain; Enter opens the node with its events and
# the jobs that ended on it.
e2e_keys 0
e2e_wait "node events since now-24hours" 20
e2e_keys /
e2e_type "e2e events $$"
e2e_keys Enter
e2e_wait "1 of [0-9]+ node events" 10
e2e_wait "$dnode +DRAIN +root +e2e events $$ \\| drained" 5
e2e_keys Enter
e2e_wait "Events +[0-9]+ down or drained \\(since now-24hours" 10
e2e_wait "to [0-9-]+ [0-9:]+ +DRAIN +root +e2e events $$" 5
e2e_wait "Ended here +[0-9]+ jobs? \\(since now-24hours" 20
ok "the events view lists the drain; Enter opens $dnode with its event and the jobs that ended on it"
e2e_keys Escape

# An account's history from the quota view: a on team-a.
e2e_keys 5
e2e_wait "team-a +[0-9]+/64" 15
e2e_keys /
e2e_type "team-a"
e2e_keys Enter
e2e_keys a
e2e_wait "jobs ended since now-24hours" 20
# (cut with its mark when the window's counts are long: a cluster with
# many ended jobs; the rows below show which account it is)
e2e_wait 'filter "te(am(-a"|-?…)|…)' 5
e2e_wait "^[0-9-]+ [0-9:]+ +$j3 +alice +team-a " 10
ok "a in the quota view opens team-a's history"

# slurmdbd stopped: the view says so, --once history exits 2.
e2e_keys 9
e2e_wait "jobs ended since now-24hours" 20
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
restore() { "$cluster" start >/dev/null 2>&1 || "$cluster" start; }
e2e_on_exit restore
pid=$(cat "$OC_CLUSTER_DIR/run/slurmdbd.pid") || fail "no slurmdbd pid file"
kill -TERM "$pid"
wait_cmd 90 gone "$pid" # slurmdbd 24.11 may take ~30 s: see test_drill_accounting.sh
e2e_keys r
e2e_wait "accounting unreachable: .*slurmdbd" 60
ok "slurmdbd stopped: the view says accounting is unreachable"
rc=0
out=$("$OC_BIN" --cluster llm-poc --once history 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "--once history without slurmdbd: exit $rc ($out)"
grep -qi "slurmdbd" <<<"$out" || fail "--once history without slurmdbd: $out"
ok "--once history without slurmdbd: exit 2: $out"
restore
e2e_keys r
e2e_wait_gone "accounting unreachable" 60
e2e_wait "jobs ended since now-24hours" 10
ok "slurmdbd back: the view recovers"
e2e_keys q
e2e_wait 'EXIT=0' 10
