#!/usr/bin/env bash
# cluster.lifecycle: tests/cluster/cluster.sh on the Slurm it finds (22.05
# natively, 24.11 and 26.05 in the CI chroots), on a cluster of its own
# (its own folder and ports, beside the fixture's):
#   1. start --demo from an empty folder: every daemon, 16 nodes, the
#      runbook's QoS and accounts, the demo workload;
#   2. start again while it runs: nothing is started anew;
#   3. kill -9 of every process (cluster.sh kill: a crash, nothing saved;
#      none is left), then start --demo: it comes back, the demo workload
#      with it;
#   4. stop: no process left; start after a clean stop comes back too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/cluster.sh
base=${OC_CLUSTER_DIR:?OC_CLUSTER_DIR is not set}
dir=$(dirname "$base")/cluster-lifecycle
# Ports beside the fixture cluster's (all below 32768, the ephemeral range).
export OC_CTLD_PORT=$((${OC_CTLD_PORT:-16817} + 100))
export OC_DBD_PORT=$((${OC_DBD_PORT:-16819} + 100))
export OC_DB_PORT=$((${OC_DB_PORT:-13306} + 100))
export OC_SLURMD_PORT_BASE=$((${OC_SLURMD_PORT_BASE:-17001} + 100))
export XDG_CONFIG_HOME=$dir-xdg
export SLURM_CONF=$dir/etc/slurm.conf

fail() { echo "FAIL: $*" >&2; "$cluster" stop --dir "$dir" >/dev/null 2>&1 || true; exit 1; }
ok() { echo "ok: $*"; }
mine() { grep -slzxF "OPSCONSOLE_CLUSTER_MARK=$dir" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | sort -n || true; }
# The runbook's state, read from the daemons themselves.
check_up() {
	local what=$1 n qos acc
	n=$(sinfo -h -N -o '%N %t' | sort -u | awk '$2 !~ /(\*|unk|down|inval|fail)/' | wc -l)
	[ "$n" -eq 16 ] || fail "$what: $n of 16 nodes up: $(sinfo -h -N -o '%N %t' | sort -u | tr '\n' ' ')"
	qos=$(sacctmgr -n -P show qos format=name | sort | tr '\n' ' ')
	[ "$qos" = "bench_qos debug_qos exclusive_qos large_qos normal normal_qos " ] || fail "$what: QoS are [$qos]"
	acc=$(sacctmgr -n -P show assoc format=account,user,grptres where account=team-a)
	grep -qx 'team-a||gres/gpu=64' <<<"$acc" && grep -qx 'team-a|alice|' <<<"$acc" ||
		fail "$what: team-a associations are [$(tr '\n' ' ' <<<"$acc")]"
	[ "$(squeue -h -n demo-alice-over-quota -o '%T %r')" = "PENDING AssocGrpGRES" ] ||
		fail "$what: the demo's quota job is [$(squeue -h -n demo-alice-over-quota -o '%T %r')]"
	ok "$what: 16 nodes, the runbook's QoS and accounts, the demo workload"
}

"$cluster" stop --dir "$dir" >/dev/null 2>&1 || true
rm -rf "$dir" "$dir-xdg"
trap '"$cluster" stop --dir "$dir" >/dev/null 2>&1 || true' EXIT
echo "# $(slurmctld -V), folder $dir, slurmctld port $OC_CTLD_PORT"

out=$("$cluster" start --demo --dir "$dir" 2>&1) || { echo "$out" >&2; fail "start from an empty folder"; }
grep -q 'slurmd .*16 up (16 started' <<<"$out" || { echo "$out" >&2; fail "a fresh start did not start 16 slurmd"; }
check_up "fresh start"

out=$("$cluster" start --demo --dir "$dir" 2>&1) || { echo "$out" >&2; fail "second start"; }
grep -q 'slurmd .*16 up (0 started, 16 were running)' <<<"$out" || { echo "$out" >&2; fail "a second start started slurmd anew"; }
grep -q 'slurmctld  running' <<<"$out" || { echo "$out" >&2; fail "a second start restarted slurmctld"; }
ok "second start: nothing started anew"

before=$(mine | tr '\n' ' ')
"$cluster" kill --dir "$dir" >/dev/null || fail "cluster.sh kill"
[ -z "$(mine)" ] || fail "processes left after kill: $(mine | tr '\n' ' ')"
ok "kill -9 of every process ($(wc -w <<<"$before") processes)"
out=$("$cluster" start --demo --dir "$dir" 2>&1) || { echo "$out" >&2; fail "start after kill -9"; }
check_up "start after kill -9"

"$cluster" stop --dir "$dir" >/dev/null || fail "stop"
[ -z "$(mine)" ] || fail "processes left after stop: $(mine | tr '\n' ' ')"
ok "stop: no process left"
out=$("$cluster" start --dir "$dir" 2>&1) || { echo "$out" >&2; fail "start after a clean stop"; }
"$cluster" status --dir "$dir" >/dev/null || fail "status after the restart"
ok "start after a clean stop"
"$cluster" stop --dir "$dir" >/dev/null || fail "final stop"
[ -z "$(mine)" ] || fail "processes left after the final stop"
rm -rf "$dir" "$dir-xdg"
ok "stopped, folder removed"
