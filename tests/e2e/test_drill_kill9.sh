#!/usr/bin/env bash
# Fault drill: kill -9 of the console. (1) During an action in flight
# (slurmctld held with SIGSTOP so that the drain waits): the audit log
# stays whole (every line a complete JSON record, the file ends with a
# newline) and holds the drain's intent line (write-ahead), which the
# audit view of the next console shows as "outcome unknown"; after
# slurmctld resumes the node is all or nothing. (1b) The same for an
# onboarding and a rehearsal write killed mid-apply (their Slurm command
# held by a stand-in that waits): the intent line is there, no outcome.
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
    assert isinstance(r, dict) and "action" in r, (i, l)
    assert ("result" in r) == (r.get("phase") != "intent"), (i, l)
' "$audit" || fail "audit log: a line is not a whole JSON record"
}

# wait_file F: until F is not empty (30 s); status 1 when it stays empty.
wait_file() {
	local end=$((SECONDS + 30))
	until [ -s "$1" ]; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}

# no_outcome FILE ACTION: the last ACTION line of FILE is an intent with an
# id that no outcome line has; prints the intent line.
no_outcome() {
	python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
mine = [r for r in recs if r["action"] == sys.argv[2]]
assert mine, "no %s line" % sys.argv[2]
last = mine[-1]
assert last.get("phase") == "intent" and len(last.get("id", "")) == 16, last
assert not [r for r in recs if r.get("id") == last["id"] and r.get("phase") == "outcome"], last
print(json.dumps(last))
' "$1" "$2"
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
intent=$(no_outcome "$audit" node.drain) || fail "no intent line for the drain in flight"
grep -q "\"targets\": \"$node\"" <<<"$intent" || fail "intent line: $intent"
st=$(sinfo -h -n "$node" -o '%t|%E')
case $st in
"drain|drill: console killed" | "idle|none") ;;
*) fail "$node is half-way: $st" ;;
esac
ok "audit log whole ($(wc -l <"$audit") lines), the drain's intent is there with no outcome, node all or nothing ($st)"
scontrol update NodeName="$node" State=RESUME 2>/dev/null || true

# The console starts again on the same audit log: the drain shows as
# "outcome unknown".
e2e_start 200x30 --cluster llm-poc --view audit
e2e_wait "node\.drain +$node +unknown .*outcome unknown" 15
e2e_keys q
e2e_wait 'EXIT=0' 5
audit_whole
ok "a new console shows the drain as outcome unknown"

# --- (1b) onboarding and rehearsal writes killed mid-apply ---------------------
# A profile with the CLI backend whose sacctmgr and scontrol hold their
# writes (add, update): the stand-in writes its pid, then waits.
cfg=$tmp/cfg
mkdir -p "$cfg/opsconsole/clusters" "$tmp/bin"
chmod 0700 "$cfg"
for c in sinfo squeue scontrol sacctmgr sbatch scancel sacct; do
	real=$(command -v "$c")
	cat >"$tmp/bin/$c" <<EOF
#!/bin/sh
case " \$* " in
*" add "* | *" update "*) echo \$\$ >"$tmp/held.$c"; exec sleep 300 ;;
esac
exec $real "\$@"
EOF
	chmod 0755 "$tmp/bin/$c"
done
e2e_on_exit sh -c "cat $tmp/held.* 2>/dev/null | xargs -r kill"
jq --arg d "$tmp/bin" '. + {backend: "cli", slurm_bin: $d}' \
	"$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$cfg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$cfg/opsconsole/clusters/llm-poc.json"

# kill9_when_held CMD ARGS...: runs opsconsole ARGS with that profile until
# the stand-in CMD holds a write, then kill -9s it (and the stand-in).
kill9_when_held() {
	local held=$tmp/held.$1
	shift
	XDG_CONFIG_HOME=$cfg "$OC_BIN" "$@" >"$tmp/held.out" 2>&1 &
	local bg=$!
	e2e_on_exit kill -KILL "$bg"
	wait_file "$held" || fail "opsconsole $1 never reached its write: $(cat "$tmp/held.out")"
	kill -KILL "$bg"
	wait "$bg" 2>/dev/null || true
	kill "$(cat "$held")" 2>/dev/null || true
	audit_whole
}

cat >"$tmp/team-k.json" <<'JSON'
{"account": "team-k9", "description": "kill -9 drill", "gpu_quota": 8, "users": ["carol"]}
JSON
kill9_when_held sacctmgr onboard --cluster llm-poc --file "$tmp/team-k.json" --yes
intent=$(no_outcome "$audit" onboard) || fail "no intent line for the onboarding"
grep -q '"targets": "team-k9"' <<<"$intent" || fail "onboarding intent: $intent"
grep -q . <<<"$(sacctmgr -n -P show account team-k9)" && fail "team-k9 was created although sacctmgr was held"
ok "onboarding killed -9 in its first sacctmgr add: the intent is logged, no outcome, nothing created"

cat >"$tmp/wal.json" <<'JSON'
{"checklist": "wal", "version": 1, "title": "kill -9 drill", "steps": [
 {"id": "wal-drain", "title": "Drain", "why": "drill", "do": "", "observe": "drained", "auto": true,
  "timeout": 60,
  "actions": [{"kind": "drain", "nodes": "gpu-st-b300-13", "reason": "drill: rehearsal killed", "undo": true, "confirm": false}],
  "check": {"kind": "node", "node": "gpu-st-b300-13", "drain": true}}]}
JSON
kill9_when_held scontrol rehearse --cluster llm-poc --checklist "$tmp/wal.json" --auto \
	--report "$tmp/walrep" --progress "$tmp/wal.progress.json"
intent=$(no_outcome "$audit" node.drain) || fail "no intent line for the rehearsal's drain"
grep -q '"targets": "gpu-st-b300-13"' <<<"$intent" || fail "rehearsal intent: $intent"
[ "$(sinfo -h -n gpu-st-b300-13 -o %t)" = idle ] || fail "gpu-st-b300-13 changed although scontrol was held"
ok "rehearsal killed -9 in its drain: the intent is logged, no outcome, the node untouched"

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
