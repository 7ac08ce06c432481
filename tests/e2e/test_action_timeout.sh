#!/usr/bin/env bash
# An action sent while slurmctld does not answer: the console stays
# responsive while the worker waits; after the timeout it says clearly that
# slurmctld did not answer and that the request (one RPC) is applied to all
# targets or none once it recovers; after recovery the node is either
# drained with exactly that reason or untouched, never anything between;
# the audit line is written.
. "$(dirname "$0")/lib.sh"

ctld=$(cat "$OC_CLUSTER_DIR/run/slurmctld.pid")
kill -0 "$ctld" || fail "slurmctld is not running"
e2e_on_exit kill -CONT "$ctld"
audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)

e2e_start 100x30 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-12 +idle' 15
e2e_keys d
e2e_wait 'Drain nodes' 5
e2e_keys BTab C-u
e2e_type 'gpu-st-b300-12'
e2e_keys Tab
e2e_type 'e2e timeout test'
e2e_keys Enter
e2e_wait 'Confirm: Drain nodes' 5
kill -STOP "$ctld"
e2e_keys Enter
e2e_wait 'applying\.\.\.' 5
e2e_keys 1
e2e_wait 'applying\.\.\. \(the result appears here' 3
ok "keys answer while the action waits on a stopped slurmctld"
e2e_wait 'Drain nodes: NO ANSWER' 60
e2e_wait 'slurmctld did not answer in time' 5
ok "after the timeout: a clear message that slurmctld did not answer"
kill -CONT "$ctld"
e2e_keys Escape
e2e_on_exit scontrol update NodeName=gpu-st-b300-12 State=RESUME
e2e_wait_gone 'STALE' 60
wait_cmd 30 scontrol ping
st=$(sinfo -h -n gpu-st-b300-12 -o '%t|%E')
case $st in
"drain|e2e timeout test" | "idle|none" | "mix|none" | "alloc|none") ;;
*) fail "gpu-st-b300-12 is half-way: $st" ;;
esac
ok "all or nothing after recovery ($st)"
e2e_wait "^ gpu-st-b300-12 +${st%%|*}" 20
ok "the nodes view shows what happened"
lines_after=$(wc -l <"$audit")
[ $((lines_after - lines_before)) -eq 2 ] || fail "want an intent and an outcome line, got $((lines_after - lines_before))"
grep -q '"phase":"intent"' <<<"$(tail -n 2 "$audit" | head -n 1)" || fail "audit intent line: $(tail -n 2 "$audit" | head -n 1)"
grep -q '"result":"unknown"' <<<"$(tail -n 1 "$audit")" || fail "audit line: $(tail -n 1 "$audit")"
ok "the action is audited as unknown"
e2e_keys q
e2e_wait 'EXIT=0' 5
