#!/usr/bin/env bash
# Fault drill: kill -9 of the console. (1) During an action in flight
# (slurmctld held with SIGSTOP so that the drain waits): the audit log
# stays whole (every line a complete JSON record, the file ends with a
# newline), and after slurmctld resumes the node is all or nothing.
# (2) During `opsconsole rehearse --auto`, after its first PASS: the
# progress file is valid, and the next run says "resuming", does not run
# the finished steps again and completes the checklist.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
tmp=$(mktemp -d)
export XDG_STATE_HOME="$tmp/state"
e2e_on_exit rm -rf "$tmp"
ctld=$(cat "$OC_CLUSTER_DIR/run/slurmctld.pid")
kill -0 "$ctld" || fail "slurmctld is not running"
e2e_on_exit "$cluster" start
e2e_on_exit kill -CONT "$ctld"
audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
node=gpu-st-b300-14
e2e_on_exit scontrol update NodeName="$node" State=RESUME

# audit_whole: every line of the audit log is one JSON object and the file
# ends with a newline.
audit_whole() {
	[ ! -s "$audit" ] || [ "$(tail -c 1 "$audit" | od -An -c | tr -d ' ')" = '\n' ] || fail "audit log: torn last line"
	python3 -c '
import json, sys
for i, l in enumerate(open(sys.argv[1], encoding="utf-8", errors="strict"), 1):
    r = json.loads(l)
    assert isinstance(r, dict) and "action" in r and "result" in r, (i, l)
' "$audit" || fail "audit log: a line is not a whole JSON record"
}

# --- (1) the console killed during an action -----------------------------------
# Console pid: the opsconsole child of the tmux pane.
console_pid() { pgrep -f -n "^$OC_BIN --cluster llm-poc --view nodes" || true; }
e2e_start 100x30 --cluster llm-poc --view nodes
e2e_drain_confirm "$node" 'drill: console killed'
kill -STOP "$ctld"
e2e_keys Enter
e2e_wait 'applying\.\.\.' 5
pid=$(console_pid)
[ -n "$pid" ] || fail "no console process"
kill -KILL "$pid"
e2e_wait 'EXIT=137' 10
ok "console $pid killed (-9) with the drain in flight"
kill -CONT "$ctld"
wait_cmd 30 scontrol ping
audit_whole
st=$(sinfo -h -n "$node" -o '%t|%E')
case $st in
"drain|drill: console killed" | "idle|none") ;;
*) fail "$node is half-way: $st" ;;
esac
ok "audit log whole ($(wc -l <"$audit") lines), node all or nothing ($st)"
scontrol update NodeName="$node" State=RESUME 2>/dev/null || true

# The console starts again on the same audit log and appends to it.
e2e_start 100x30 --cluster llm-poc --view audit
e2e_wait 'AUDIT|node\.' 15
e2e_keys q
e2e_wait 'EXIT=0' 5
audit_whole
ok "a new console reads the audit log"

# --- (2) a rehearsal killed -9 and resumed ------------------------------------
"$OC_BIN" rehearse --cluster llm-poc --auto --report "$tmp/report" --progress "$tmp/p.json" --reset \
	>"$tmp/out1" 2>&1 &
bg=$!
e2e_on_exit kill -KILL "$bg"
for i in $(seq 1 600); do
	grep -q '] PASS ' "$tmp/out1" 2>/dev/null && break
	kill -0 "$bg" 2>/dev/null || break
	sleep 0.05
done
grep -q '] PASS ' "$tmp/out1" || fail "no PASS line from the rehearsal: $(cat "$tmp/out1")"
kill -KILL "$bg"
rc=0
wait "$bg" || rc=$?
[ "$rc" = 137 ] || [ "$rc" = 0 ] || fail "the killed rehearsal exited $rc"
[ -s "$tmp/p.json" ] || fail "no progress file after kill -9"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/p.json" || fail "progress file is not whole JSON after kill -9"
done1=$(grep -Ec '^\[ *[0-9]+/[0-9]+\] (PASS|FAIL|SKIP) ' "$tmp/out1" || true)
first=$(grep -Eo '^\[ *[0-9]+/[0-9]+\] (PASS|FAIL|SKIP) [^:]+' "$tmp/out1" | head -1 | awk '{print $NF}')
# Probe jobs of the killed run are left behind: its next run's reset of
# the step cancels them; they must not stay.
rc=0
"$OC_BIN" rehearse --cluster llm-poc --auto --report "$tmp/report" --progress "$tmp/p.json" >"$tmp/out2" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "the resumed rehearsal exited $rc: $(tail -20 "$tmp/out2")"
grep -q '^resuming: ' "$tmp/out2" || fail "the second run does not say it is resuming"
if grep -Eq "^\[ *[0-9]+/[0-9]+\] [A-Z-]+ $first: " "$tmp/out2"; then
	fail "the resumed run ran $first again"
fi
[ -s "$tmp/report/report.json" ] || fail "no report after the resumed run"
ok "rehearsal killed -9 after $done1 step(s) ($first), resumed without repeating it, report written"
squeue -h -o '%i %j' | awk '$2 ~ /^oc-rehearsal-/ { print $1 }' | xargs -r scancel 2>/dev/null || true
"$cluster" status >/dev/null || fail "cluster not healthy after the drill"
