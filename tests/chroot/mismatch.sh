#!/usr/bin/env bash
# tests/chroot/mismatch.sh SUITE - the upgrade-day mistake: this machine's
# console (built against Debian 12's libslurm 22.05, in build/) pointed at
# a cluster of another major (24.11 or 26.05, started in the SUITE chroot
# with the clone at the same path, so its slurm.conf and munge socket work
# from outside). libslurm 22.05 cannot read a 24.11 slurmctld's answers; the
# console must say so, not crash:
#   - `--version --cluster` names libslurm 22.05, cannot learn slurmctld's
#     version, says why (another major) and exits 1;
#   - the console, in tmux, shows the STALE banner with that reason, keys
#     answer, q quits with 0;
#   - `--once partitions` fails with exit 2 and the same reason.
# Against 26.05 about one request in six meets a reset connection instead of
# an answer it cannot read; that error names the other major too (see
# docs/architecture.md, "another major").
# Run by tests/run-all.sh after the chroot stages (needs build/src/opsconsole
# and a made chroot). Its cluster has its own folder and ports (+200).
set -euo pipefail
suite=${1:?usage: mismatch.sh SUITE}
cd "$(dirname "$0")/../.."
top=$PWD
bin=$top/build/src/opsconsole
[ -x "$bin" ] || { echo "mismatch: no $bin (build the native console first)" >&2; exit 1; }
dir=$top/build-$suite/cluster-mismatch
export OC_CTLD_PORT=$((${OC_CTLD_PORT:-16817} + 200))
export OC_DBD_PORT=$((${OC_DBD_PORT:-16819} + 200))
export OC_DB_PORT=$((${OC_DB_PORT:-13306} + 200))
export OC_SLURMD_PORT_BASE=$((${OC_SLURMD_PORT_BASE:-17001} + 200))
xdg=$dir-xdg
sock="oc-mismatch-$$"
in_chroot() { tests/chroot/chroot.sh run "$suite" env OC_CLUSTER_DIR="$dir" XDG_CONFIG_HOME="$xdg" "$@"; }
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	in_chroot tests/cluster/cluster.sh stop >/dev/null 2>&1 || true
}
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
trap cleanup EXIT

out=$(in_chroot tests/cluster/cluster.sh start 2>&1) || { echo "$out" >&2; fail "cluster start in $suite"; }
ctld=$(tests/chroot/chroot.sh run "$suite" slurmctld -V)
echo "# console: $("$bin" --version | sed -n 1p); cluster: $ctld in the $suite chroot"

# 1. --version --cluster
out=$(XDG_CONFIG_HOME=$xdg timeout 60 "$bin" --version --cluster llm-poc 2>/dev/null) && rc=0 || rc=$?
[ "$rc" -eq 1 ] || fail "--version --cluster: exit $rc, want 1: $out"
grep -q 'built against Slurm 22\.05' <<<"$out" || fail "--version does not name libslurm 22.05: $out"
grep -q 'slurmctld of llm-poc: version unknown .*another major than libslurm 22\.05' <<<"$out" ||
	fail "--version --cluster does not say why: $out"
ok "--version --cluster: $(tail -n 1 <<<"$out")"

# 2. --once
out=$(XDG_CONFIG_HOME=$xdg timeout 60 "$bin" --cluster llm-poc --once partitions 2>&1) && rc=0 || rc=$?
[ "$rc" -eq 2 ] || fail "--once partitions: exit $rc, want 2: $out"
grep -q 'another major than libslurm 22\.05' <<<"$out" || fail "--once does not say why: $out"
ok "--once partitions exits 2 and says why"

# 3. the console in tmux
tmux -L "$sock" new-session -d -x 200 -y 50 \
	"env XDG_CONFIG_HOME=$xdg TERM=screen LANG=C.UTF-8 $bin --cluster llm-poc; echo EXIT=\$?; sleep 600"
screen=""
for _ in $(seq 1 100); do
	screen=$(tmux -L "$sock" capture-pane -p)
	grep -q 'STALE: .*another major than libslurm 22\.05' <<<"$screen" && break
	sleep 0.2
done
grep -q 'STALE: .*another major than libslurm 22\.05' <<<"$screen" || { echo "$screen" >&2; fail "no STALE banner naming the mismatch"; }
ok "STALE banner: $(grep -o 'STALE: .*' <<<"$screen" | sed -n 1p)"
tmux -L "$sock" send-keys 3
for _ in $(seq 1 50); do
	screen=$(tmux -L "$sock" capture-pane -p)
	grep -Eq '^ NODE +STATE' <<<"$screen" && break
	sleep 0.2
done
grep -Eq '^ NODE +STATE' <<<"$screen" || { echo "$screen" >&2; fail "key 3 did not switch to the nodes view"; }
tmux -L "$sock" send-keys q
for _ in $(seq 1 50); do
	screen=$(tmux -L "$sock" capture-pane -p)
	grep -q '^EXIT=' <<<"$screen" && break
	sleep 0.2
done
grep -q '^EXIT=0' <<<"$screen" || { echo "$screen" >&2; fail "the console did not quit with 0"; }
ok "keys answer, q quits with 0"
