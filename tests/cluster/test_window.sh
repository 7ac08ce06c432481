#!/usr/bin/env bash
# `opsconsole window` (a change window run by the rehearsal engine, the
# checklist change-window) against the real local cluster:
#  1. bad input changes nothing: no --nodes, a malformed hostlist, a
#     platform reservation name (exit 2); an unknown node (exit 1: the
#     first step's precondition fails, the run stops there) leaves no
#     reservation, no drain and no audit line;
#  2. on a node that runs a job: the reservation is made, the node drained,
#     and the window waits for the job; SIGTERM then exits 143 with the
#     progress saved, the reservation and the drain staying;
#  3. run again: "resuming ... next: cw-wait-jobs"; the job is cancelled,
#     the node reboots (the test cluster's RebootProgram starts a new
#     slurmd: BootTime moves), comes back idle without the drain, the
#     reservation ends; exit 0; every change has an intent and an outcome
#     line with the same request id in the audit log.
set -euo pipefail

: "${OC_BIN:?OC_BIN must point at the opsconsole binary}"
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running test cluster}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"

node=gpu-st-b300-15
name=oc-test-window
tmp=$(mktemp -d)
export XDG_STATE_HOME="$tmp/state"
bg=""
job=""

restore() {
	if [ -n "$bg" ]; then kill "$bg" 2>/dev/null || true; wait "$bg" 2>/dev/null || true; fi
	[ -z "$job" ] || scancel "$job" 2>/dev/null || true
	scontrol cancel_reboot "$node" >/dev/null 2>&1 || true
	scontrol delete ReservationName="$name" >/dev/null 2>&1 || true
	scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap restore EXIT

fail() {
	echo "FAIL: $*" >&2
	for f in "$tmp"/out*; do
		[ -f "$f" ] || continue
		echo "---- $f ----" >&2
		cat "$f" >&2
	done
	exit 1
}
ok() { echo "ok: $*"; }
# wait_for SECONDS CMD...: until CMD succeeds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || fail "'$*' did not succeed within the time"
		sleep 0.5
	done
}
audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
[ -n "$audit" ] || fail "the test profile names no audit_log"
audit_lines() { (cat "$audit" 2>/dev/null || true) | wc -l; }

# ---- 1. bad input -----------------------------------------------------------
expect_usage() { # WANT ARGS...: exit 2 and WANT on stderr
	local want=$1 rc=0
	shift
	"$OC_BIN" window --cluster llm-poc "$@" >"$tmp/out.usage" 2>&1 </dev/null || rc=$?
	[ "$rc" = 2 ] || fail "window $*: exit $rc, not 2"
	grep -q -- "$want" "$tmp/out.usage" || fail "window $*: no \"$want\" in: $(cat "$tmp/out.usage")"
}
before=$(audit_lines)
expect_usage "--nodes HOSTLIST is required"
expect_usage "not a hostlist expression" --nodes 'gpu-st-b300-[3-' --auto
expect_usage "ParallelCluster's" --nodes "$node" --name pcluster-cb1 --auto
expect_usage "1 to 64 of" --nodes "$node" --name 'a b' --auto
rc=0
"$OC_BIN" window --cluster llm-poc --nodes no-such-node --name "$name" --auto >"$tmp/out.unknown" 2>&1 </dev/null || rc=$?
[ "$rc" = 1 ] || fail "window on an unknown node: exit $rc, not 1"
grep -q "FAIL cw-reserve: .*no node no-such-node" "$tmp/out.unknown" || fail "no reason for the unknown node"
grep -q "stopped at the failed step cw-reserve" "$tmp/out.unknown" || fail "the run did not stop at the failure"
grep -q "cw-drain" "$tmp/out.unknown" && fail "a step after the failed one ran"
scontrol show reservation "$name" >/dev/null 2>&1 && fail "a reservation was made"
[ "$(audit_lines)" = "$before" ] || fail "bad input wrote to the audit log"
ok "bad input: exit 2 (usage) or 1 (unknown node, stopped at its step), nothing changed, nothing audited"
rm -rf "$XDG_STATE_HOME"

# ---- 2. a node that runs a job: the window waits; SIGTERM --------------------
job=$(runuser -u alice -- sbatch --parsable -J oc-test-window -p large --qos large_qos -N1 -w "$node" \
	--time=10 --mem=1G --output=/dev/null --wrap='sleep 600')
[ -n "$job" ] || fail "sbatch gave no job id"
wait_for 60 sh -c "[ \"\$(squeue -h -j $job -o %T)\" = RUNNING ]"
boot_before=$(scontrol show node "$node" | sed -n 's/.*BootTime=\([^ ]*\).*/\1/p')
before=$(audit_lines)

"$OC_BIN" window --cluster llm-poc --nodes "$node" --name "$name" --reason "oc test window" --auto \
	>"$tmp/out.first" 2>&1 </dev/null &
bg=$!
wait_for 60 grep -q "PASS cw-drain" "$tmp/out.first"
grep -q "PASS cw-reserve: reservation $name: nodes $node" "$tmp/out.first" || fail "no reservation line"
grep -q "Nodes=$node " <<<"$(scontrol show reservation "$name")" || fail "no reservation $name on $node"
grep -qi 'drain' <<<"$(sinfo -h -n "$node" -o '%T')" || fail "$node is not draining: $(sinfo -h -n "$node" -o '%T')"
sleep 3 # the wait step polls each second: it must not pass while the job runs
[ "$(squeue -h -j "$job" -o %T)" = RUNNING ] || fail "job $job no longer runs"
grep -q "cw-wait-jobs" "$tmp/out.first" && fail "the wait for the jobs ended while job $job runs"
ok "reservation $name on $node, $node draining, the window waits for job $job"
kill -TERM "$bg"
rc=0
wait "$bg" || rc=$?
bg=""
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc, not 143"
grep -q "progress saved" "$tmp/out.first" || fail "no word of the saved progress"
scontrol show reservation "$name" >/dev/null 2>&1 || fail "the reservation went with the stop"
grep -qi 'drain' <<<"$(sinfo -h -n "$node" -o '%T')" || fail "the drain went with the stop"
ok "SIGTERM during the wait: exit 143, progress saved, reservation and drain kept"

# ---- 3. resumed: the job ends, the reboot, the end ---------------------------
"$OC_BIN" window --cluster llm-poc --nodes "$node" --name "$name" --reason "oc test window" --auto \
	>"$tmp/out.second" 2>&1 </dev/null &
bg=$!
wait_for 30 grep -q "resuming: 2 of 5 steps already done; next: cw-wait-jobs" "$tmp/out.second"
sleep 2
grep -q "cw-wait-jobs" <(grep -v resuming "$tmp/out.second") && fail "the wait ended while job $job runs"
scancel "$job"
rc=0
wait "$bg" || rc=$?
bg=""
[ "$rc" = 0 ] || fail "the resumed window: exit $rc"
for step in cw-wait-jobs cw-reboot cw-end; do
	grep -q "PASS $step" "$tmp/out.second" || fail "no PASS $step"
done
grep -q "PASS cw-reserve\|PASS cw-drain" "$tmp/out.second" && fail "the resumed run made the first steps again"
boot_after=$(scontrol show node "$node" | sed -n 's/.*BootTime=\([^ ]*\).*/\1/p')
[ "$boot_after" != "$boot_before" ] || fail "BootTime did not move ($boot_before)"
state=$(sinfo -h -n "$node" -o '%T')
[ "$state" = idle ] || fail "$node is $state after the window, not idle"
scontrol show reservation "$name" >/dev/null 2>&1 && fail "the reservation is still there"
ok "resumed: job ended, $node rebooted (BootTime $boot_before -> $boot_after), idle, reservation gone"

tail -n +"$((before + 1))" "$audit" >"$tmp/audit"
for action in resv.create node.drain node.reboot resv.delete; do
	ids=$(grep "\"action\":\"$action\"" "$tmp/audit" | grep '"phase":"intent"' | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
	[ -n "$ids" ] || fail "no intent line for $action: $(cat "$tmp/audit")"
	for id in $ids; do
		grep -q '"phase":"outcome".*"result":"ok"' <<<"$(grep "\"id\":\"$id\"" "$tmp/audit")" ||
			fail "$action $id: no ok outcome line"
	done
done
ok "audited: an intent and an ok outcome with the same id for resv.create, node.drain, node.reboot, resv.delete"
report=$(sed -n 's/^report: \(.*\)\/report.md.*/\1/p' "$tmp/out.second")
grep -q "^# Change window" "$report/report.md" || fail "the report has no change window title"
grep -q "| 5 passed, 0 failed" "$report/report.md" || fail "the report does not say 5 passed"
ok "report: $report/report.md"
