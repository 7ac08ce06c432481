#!/usr/bin/env bash
# `opsconsole rehearse --auto` against the real local cluster:
#  1. the whole default checklist: exit 0; the configuration audit, the
#     GrpTRES, MaxSubmitJobsPerUser and requeue probes PASS; report.md and
#     report.json name every step; no probe job is left behind;
#  2. a wrong setting (gpu not Hidden, through OC_CLUSTER_EXTRA_CONF and a
#     slurmctld restart) makes the audit fail naming Hidden (exit 1); the
#     cluster is put back afterwards, whatever happens;
#  3. an interrupted rehearsal (SIGTERM after the first PASS line) exits
#     143 with its progress saved, and a second run without --reset says
#     "resuming" and does not run the first step again.
set -euo pipefail

: "${OC_BIN:?OC_BIN must point at the opsconsole binary}"
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running test cluster}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
HERE=$(cd "$(dirname "$0")" && pwd)
CLUSTER_SH="$HERE/cluster.sh"

tmp=$(mktemp -d)
export XDG_STATE_HOME="$tmp/state"
overridden=0
bg=""

restore() {
	if [ -n "$bg" ]; then kill "$bg" 2>/dev/null || true; fi
	if [ "$overridden" = 1 ]; then
		echo "restoring the cluster's configuration"
		env -u OC_CLUSTER_EXTRA_CONF "$CLUSTER_SH" start --demo >/dev/null 2>&1 ||
			echo "WARNING: could not restore the cluster (run tests/cluster/cluster.sh start)" >&2
	fi
	# Probe jobs the runs may have left (they cancel their own; belt and braces).
	squeue -h -o '%i %j' 2>/dev/null | awk '$2 ~ /^oc-rehearsal-/ { print $1 }' | xargs -r scancel 2>/dev/null || true
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
	# What the cluster looked like: nodes not idle, jobs still there, and
	# slurmctld's last words on ending jobs (a node left completing).
	echo "---- sinfo (nodes not idle) / squeue ----" >&2
	sinfo -N -h -o '%N %T %E' 2>&1 | grep -v ' idle ' >&2 || true
	squeue -h -t all -o '%i %j %T %r %N' 2>&1 >&2 || true
	echo "---- slurmctld.log (ending jobs, last 40) ----" >&2
	grep -aiE 'complet|epilog|kill|requeue|preempt' "$OC_CLUSTER_DIR/log/slurmctld.log" 2>&1 | tail -40 >&2 || true
	exit 1
}
ok() { echo "ok: $*"; }

# The step ids of the default checklist, and the automatic ones, from --list.
list=$("$OC_BIN" rehearse --list)
ids=$(awk '$1 ~ /^[0-9]+$/ { print $3 }' <<<"$list")
nauto=$(awk '$1 ~ /^[0-9]+$/ && $2 == "auto"' <<<"$list" | wc -l)
[ "$(wc -l <<<"$ids")" -ge 20 ] || fail "rehearse --list lists too few steps: $ids"
ok "the default checklist has $(wc -l <<<"$ids") steps"

# No probe job of ours is left (cancelled jobs may be completing for a moment).
no_leftovers() {
	local i left
	for i in $(seq 1 50); do
		left=$(squeue -h -t PD,R,S -o '%i %j' | awk '$2 ~ /^oc-rehearsal-/' || true)
		[ -z "$left" ] && return 0
		sleep 0.2
	done
	fail "probe jobs left behind: $left"
}

# --- 1. the whole checklist ---------------------------------------------------
rc=0
"$OC_BIN" rehearse --cluster llm-poc --auto --report "$tmp/report1" --progress "$tmp/p1.json" --reset \
	>"$tmp/out1" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "rehearse --auto exited $rc (expected 0)"
for id in $(grep '^cfg-' <<<"$ids") mu-grptres-held mu-max-submit mu-max-jobs mu-preempt-requeue \
	mu-signal-scancel mu-sacct-per-user; do
	grep -Eq "^\[ *[0-9]+/[0-9]+\] PASS $id: " "$tmp/out1" || fail "step $id did not PASS"
done
ok "configuration audit, GrpTRES, MaxSubmit/MaxJobsPerUser, requeue, signal and sacct steps PASS"
grep -q 'no checklist of its own' "$tmp/out1" && fail "llm-poc's own checklist reported as another cluster's"
# The signal marker went to the default signal_dir, /home/${user_a}, and
# was removed after the check.
marker=$(grep -Eo "PASS mu-signal-scancel: /home/alice/oc-rehearsal-signal\.[0-9]+: there" "$tmp/out1" |
	sed -E 's/^PASS mu-signal-scancel: //; s/: there$//') ||
	fail "mu-signal-scancel did not read /home/alice: $(grep mu-signal-scancel "$tmp/out1")"
# This run's marker (its job id in the name): another cluster on the
# machine may be running the same step with its own marker meanwhile.
[ -e "$marker" ] && fail "the signal marker $marker was not removed"
# mu-sacct-per-user made its own evidence: a job of alice and one of bob ran.
grep -Eq 'PASS mu-sacct-per-user: .*alice .*bob' "$tmp/out1" || fail "mu-sacct-per-user: $(grep mu-sacct "$tmp/out1")"
ok "signal marker in /home/alice (default signal_dir); sacct per user from the step's own jobs"
grep -Eq '^\[ *[0-9]+/[0-9]+\] SKIP drill-drain-resume: skipped: needs an operator' "$tmp/out1" ||
	fail "manual steps are not marked skipped"
[ -s "$tmp/report1/report.md" ] || fail "no report.md"
[ -s "$tmp/report1/report.json" ] || fail "no report.json"
for id in $ids; do
	grep -q "\`$id\`" "$tmp/report1/report.md" || fail "report.md lacks step $id"
	grep -q "\"id\": \"$id\"" "$tmp/report1/report.json" || fail "report.json lacks step $id"
done
grep -q '"operator": {' "$tmp/report1/report.json" || fail "report.json has no operator"
grep -q '| Operator | ' "$tmp/report1/report.md" || fail "report.md has no operator"
ok "report.md and report.json name every step"
no_leftovers
ok "no probe job left"

# --- 1b. a cluster without a checklist of its own -----------------------------
# Its profile (the same cluster under another name) gets the default
# checklist, and says so on the terminal and in the report.
mkdir -p "$tmp/xdg/opsconsole/clusters"
chmod 0700 "$tmp/xdg"
jq '.name = "other-cluster"' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" \
	>"$tmp/xdg/opsconsole/clusters/other-cluster.json"
chmod 0600 "$tmp/xdg/opsconsole/clusters/other-cluster.json"
rc=0
XDG_CONFIG_HOME=$tmp/xdg "$OC_BIN" rehearse --cluster other-cluster --auto --only cfg-default-partition \
	--report "$tmp/report-other" --progress "$tmp/p-other.json" >"$tmp/out-other" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "rehearse on other-cluster exited $rc"
grep -q 'note: cluster other-cluster has no checklist of its own' "$tmp/out-other" ||
	fail "no notice that other-cluster uses the default checklist"
jq -e '.checklist.notice | test("other-cluster has no checklist of its own")' "$tmp/report-other/report.json" \
	>/dev/null || fail "report.json has no checklist notice"
grep -q '^| Note | cluster other-cluster has no checklist of its own' "$tmp/report-other/report.md" ||
	fail "report.md has no notice"
ok "a cluster without its own checklist: the notice on the terminal and in both reports"

# --- 2. a wrong setting fails the audit, naming it ----------------------------
cat >"$tmp/extra.conf" <<'EOF'
PartitionName=gpu Nodes=gpu-st-b300-[1-16] Hidden=NO AllowGroups=root Default=NO State=UP
EOF
overridden=1
OC_CLUSTER_EXTRA_CONF="$tmp/extra.conf" "$CLUSTER_SH" start >"$tmp/out-start" 2>&1 ||
	fail "could not restart the cluster with gpu not hidden"
grep -q 'Hidden=NO' <<<"$(scontrol show partition gpu)" || fail "the override did not take: $(scontrol show partition gpu)"
rc=0
"$OC_BIN" rehearse --cluster llm-poc --auto --only 'cfg-*' --report "$tmp/report2" --progress "$tmp/p2.json" \
	--reset >"$tmp/out2" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "rehearse with gpu not hidden exited $rc (expected 1)"
grep -Eq '^\[ *[0-9]+/[0-9]+\] FAIL cfg-gpu-hidden: .*Hidden=NO' "$tmp/out2" || fail "cfg-gpu-hidden did not FAIL naming Hidden"
grep -Eq '^\[ *[0-9]+/[0-9]+\] PASS cfg-gpu-root-only: ' "$tmp/out2" || fail "cfg-gpu-root-only should still pass"
grep -q 'Hidden=NO, expected YES' "$tmp/report2/report.md" || fail "report.md lacks the evidence"
ok "gpu not hidden: exit 1, cfg-gpu-hidden FAILs with \"$(grep -o 'gpu: Hidden=NO[^|]*' "$tmp/out2" | head -1)\""
env -u OC_CLUSTER_EXTRA_CONF "$CLUSTER_SH" start --demo >"$tmp/out-restore" 2>&1 || fail "could not restore the cluster"
overridden=0
grep -q 'Hidden=YES' <<<"$(scontrol show partition gpu)" || fail "gpu is not hidden again"
ok "cluster restored"

# --- 3. interrupted and resumed -----------------------------------------------
"$OC_BIN" rehearse --cluster llm-poc --auto --report "$tmp/report3" --progress "$tmp/p3.json" --reset \
	>"$tmp/out3" 2>&1 &
bg=$!
for i in $(seq 1 200); do
	grep -q '] PASS ' "$tmp/out3" 2>/dev/null && break
	kill -0 "$bg" 2>/dev/null || break
	sleep 0.05
done
grep -q '] PASS ' "$tmp/out3" || fail "no PASS line from the first run"
kill -TERM "$bg"
rc=0
wait "$bg" || rc=$?
bg=""
[ "$rc" = 143 ] || [ "$rc" = 0 ] || fail "the interrupted run exited $rc (expected 143)"
if [ "$rc" = 143 ]; then
	grep -q 'stopped by signal 15' "$tmp/out3" || fail "the interrupted run does not say it was stopped"
fi
[ -s "$tmp/p3.json" ] || fail "no progress file after the interruption"
done1=$(grep -Ec '^\[ *[0-9]+/[0-9]+\] (PASS|FAIL|SKIP) ' "$tmp/out3" || true)
no_leftovers
rc=0
"$OC_BIN" rehearse --cluster llm-poc --auto --report "$tmp/report3" --progress "$tmp/p3.json" >"$tmp/out4" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "the resumed run exited $rc (expected 0)"
grep -q '^resuming: ' "$tmp/out4" || fail "the second run does not say it is resuming"
first=$(head -1 <<<"$ids")
if grep -Eq "^\[ *[0-9]+/[0-9]+\] [A-Z-]+ $first: " "$tmp/out4"; then
	fail "the resumed run ran $first again"
fi
done2=$(grep -Ec '^\[ *[0-9]+/[0-9]+\] (PASS|FAIL|SKIP) ' "$tmp/out4" || true)
total=$(wc -l <<<"$ids")
[ $((done1 + done2)) -eq "$total" ] || fail "interrupted run did $done1 steps, resumed run $done2: not $total in all"
grep -q "\"passed\": $nauto," "$tmp/report3/report.json" ||
	fail "the final report does not count the $nauto automatic steps as passed"
ok "interrupted after $done1 steps, resumed with the other $done2; $nauto automatic steps passed in all"
no_leftovers
echo "PASS: rehearse"
