#!/usr/bin/env bash
# cluster.rehearse_fresh: `opsconsole rehearse --auto` on a new cluster,
# started from an empty folder without the demo workload (no job history:
# what a cluster looks like before go-live, when a rehearsal runs). Every
# automatic step passes: each makes the evidence it judges (issue 16.10:
# mu-sacct-per-user runs a short job per user and does not rely on the
# jobs of earlier steps, which were held and cancelled and so are never in
# sacct). Own folder and ports (+300), beside the fixture's cluster.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/cluster.sh
: "${OC_BIN:?OC_BIN is not set}"
base=${OC_CLUSTER_DIR:?OC_CLUSTER_DIR is not set}
dir=$(dirname "$base")/cluster-fresh
export OC_CTLD_PORT=$((${OC_CTLD_PORT:-16817} + 300))
export OC_DBD_PORT=$((${OC_DBD_PORT:-16819} + 300))
export OC_DB_PORT=$((${OC_DB_PORT:-13306} + 300))
export OC_SLURMD_PORT_BASE=$((${OC_SLURMD_PORT_BASE:-17001} + 300))
export XDG_CONFIG_HOME=$dir-xdg XDG_STATE_HOME=$dir-state
export SLURM_CONF=$dir/etc/slurm.conf

fail() {
	echo "FAIL: $*" >&2
	[ -f "$dir-out" ] && cat "$dir-out" >&2
	"$cluster" stop --dir "$dir" >/dev/null 2>&1 || true
	exit 1
}
ok() { echo "ok: $*"; }

"$cluster" stop --dir "$dir" >/dev/null 2>&1 || true
rm -rf "$dir" "$dir-xdg" "$dir-state" "$dir-out"
trap '"$cluster" stop --dir "$dir" >/dev/null 2>&1 || true; rm -rf "$dir" "$dir-xdg" "$dir-state"' EXIT
out=$("$cluster" start --dir "$dir" 2>&1) || { echo "$out" >&2; fail "start from an empty folder"; }
n=$(sacct -a -X -n -S now-7days -o jobid | wc -l)
[ "$n" -eq 0 ] || fail "a new cluster with $n jobs in sacct"
[ -z "$(squeue -h)" ] || fail "a new cluster with jobs in the queue: $(squeue -h)"
ok "a new cluster: no job in the queue or in sacct ($(slurmctld -V))"

rc=0
"$OC_BIN" rehearse --cluster llm-poc --auto --report "$dir-state/report" --progress "$dir-state/p.json" \
	>"$dir-out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "rehearse --auto on a new cluster exited $rc"
grep -Eq '^\[ *[0-9]+/[0-9]+\] PASS mu-sacct-per-user: .*alice .*bob' "$dir-out" ||
	fail "mu-sacct-per-user did not pass with alice and bob"
nauto=$("$OC_BIN" rehearse --list | awk '$1 ~ /^[0-9]+$/ && $2 == "auto"' | wc -l)
npass=$(grep -Ec '^\[ *[0-9]+/[0-9]+\] PASS ' "$dir-out")
[ "$npass" -eq "$nauto" ] || fail "$npass of $nauto automatic steps passed"
ok "rehearse --auto on a new cluster: all $nauto automatic steps PASS, mu-sacct-per-user with its own jobs"
rm -f "$dir-out"
