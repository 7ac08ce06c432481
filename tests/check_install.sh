#!/usr/bin/env bash
# packaging/install-on-cluster.sh on the layouts of the three platforms,
# written under a scratch root (--root) and installed from this build
# (--prebuilt):
#  - ParallelCluster (/opt/parallelcluster, /opt/slurm/etc/slurm.conf):
#    platform detected, slurm.conf and ClusterName read from it; the
#    program runs from its install prefix and, with the profile the script
#    wrote (its slurm.conf pointed at the running test cluster's), reads
#    the cluster;
#  - AWS PCS (/opt/aws/pcs/scheduler/slurm-24.11 and -25.11, no
#    slurm.conf: configless): the newest Slurm, no slurm_conf in the
#    profile, the cluster name from --cluster;
#  - bad input (no --source, a bad platform, a cluster name with a slash,
#    no ClusterName): exit 2 or 1 with the reason, nothing written;
#  - --dry-run with a source: the cmake line against SLURM_ROOT, nothing
#    written.
set -euo pipefail
build=${1:?build directory}
script=$(cd "$(dirname "$0")/.." && pwd)/packaging/install-on-cluster.sh
: "${SLURM_CONF:?SLURM_CONF must name the slurm.conf of the running test cluster}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# ---- ParallelCluster
pc=$scratch/pc
mkdir -p "$pc/opt/parallelcluster/scripts" "$pc/opt/slurm/etc" "$pc/opt/slurm/bin"
sed 's/^ClusterName=.*/ClusterName=pc-test/' "$SLURM_CONF" >"$pc/opt/slurm/etc/slurm.conf"
grep -q '^ClusterName=pc-test' "$pc/opt/slurm/etc/slurm.conf" || fail "no ClusterName in the test slurm.conf"
bash "$script" --prebuilt "$build" --root "$pc" >"$scratch/pc.out" 2>&1 || { cat "$scratch/pc.out"; fail "ParallelCluster install"; }
grep -q "^platform parallelcluster, Slurm in /opt/slurm, slurm.conf /opt/slurm/etc/slurm.conf, cluster pc-test" \
	"$scratch/pc.out" || fail "ParallelCluster not detected: $(head -3 "$scratch/pc.out")"
profile=$pc/etc/opsconsole/clusters/pc-test.json
[ "$(jq -r '.platform + " " + .slurm_conf + " " + .slurm_bin + " " + .audit_log' "$profile")" = \
	"parallelcluster /opt/slurm/etc/slurm.conf /opt/slurm/bin /var/log/opsconsole/pc-test-audit.log" ] ||
	fail "profile: $(cat "$profile")"
[ "$(stat -c %a "$profile")" = 644 ] || fail "profile mode $(stat -c %a "$profile")"
bin=$pc/opt/opsconsole/bin/opsconsole
[ -x "$bin" ] && [ -s "$pc/opt/opsconsole/share/opsconsole/checklists/change-window.json" ] ||
	fail "the program or its data is not under the prefix"
[ "$(readlink "$pc/usr/local/bin/opsconsole")" = /opt/opsconsole/bin/opsconsole ] || fail "no link in /usr/local/bin"
ok "ParallelCluster: detected, installed under /opt/opsconsole, profile $(jq -c . "$profile")"
# The installed program with that profile, its paths made to point into
# the scratch root and at the test cluster: it reads the cluster.
xdg=$scratch/xdg
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
jq --arg conf "$SLURM_CONF" --arg bin "$(dirname "$(command -v sinfo)")" --arg audit "$scratch/audit.log" \
	'.slurm_conf = $conf | .slurm_bin = $bin | .audit_log = $audit' "$profile" >"$xdg/opsconsole/clusters/pc-test.json"
chmod 0600 "$xdg/opsconsole/clusters/pc-test.json"
rc=0
XDG_CONFIG_HOME=$xdg "$bin" --cluster pc-test --once partitions --json </dev/null >"$scratch/parts.json" 2>"$scratch/parts.err" || rc=$?
[ "$rc" = 0 ] || fail "the installed program: exit $rc: $(cat "$scratch/parts.err")"
[ "$(jq -r '.rows | length' "$scratch/parts.json")" -ge 4 ] || fail "no partitions: $(cat "$scratch/parts.json")"
ok "the installed program reads the cluster with the profile the script wrote"

# ---- AWS PCS: the newest Slurm, configless
pcs=$scratch/pcs
mkdir -p "$pcs/opt/aws/pcs/scheduler/slurm-24.11/bin" "$pcs/opt/aws/pcs/scheduler/slurm-25.11/bin"
bash "$script" --prebuilt "$build" --root "$pcs" --cluster pcs-prod >"$scratch/pcs.out" 2>&1 ||
	{ cat "$scratch/pcs.out"; fail "PCS install"; }
grep -q "^platform pcs, Slurm in /opt/aws/pcs/scheduler/slurm-25.11, slurm.conf (configless), cluster pcs-prod" \
	"$scratch/pcs.out" || fail "PCS: $(head -3 "$scratch/pcs.out")"
profile=$pcs/etc/opsconsole/clusters/pcs-prod.json
[ "$(jq -r '.platform + " " + .slurm_bin + " " + (has("slurm_conf") | tostring)' "$profile")" = \
	"pcs /opt/aws/pcs/scheduler/slurm-25.11/bin false" ] || fail "PCS profile: $(cat "$profile")"
ok "PCS: the newest Slurm (25.11), configless (no slurm_conf), profile $(jq -c . "$profile")"

# ---- bad input: nothing written
bad=$scratch/bad
mkdir -p "$bad/opt/slurm/etc"
echo "SlurmctldHost=x" >"$bad/opt/slurm/etc/slurm.conf"
expect() { # RC TEXT ARGS...
	local want=$1 text=$2 rc=0
	shift 2
	bash "$script" --root "$bad" "$@" >"$scratch/bad.out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, not $want: $(cat "$scratch/bad.out")"
	grep -q -- "$text" "$scratch/bad.out" || fail "$*: no \"$text\" in $(cat "$scratch/bad.out")"
}
expect 2 "--source or --prebuilt is required" --platform onprem
expect 2 "--platform is parallelcluster" --prebuilt "$build" --platform slurm
expect 2 "--cluster: 1-63 of" --prebuilt "$build" --slurm-root /opt/slurm --cluster 'a/b'
expect 1 "no ClusterName found" --prebuilt "$build" --slurm-root /opt/slurm
expect 1 "no Slurm prefix found" --prebuilt "$build" --platform pcs
[ ! -e "$bad/etc" ] && [ ! -e "$bad/opt/opsconsole" ] || fail "bad input wrote files"
ok "bad input: exit 2 (usage) or 1 (nothing to go on), nothing written"

# ---- --dry-run from a source tree
src=$(cd "$(dirname "$0")/.." && pwd)
bash "$script" --source "$src" --no-deps --root "$pc" --cluster dry --dry-run >"$scratch/dry.out" 2>&1 ||
	{ cat "$scratch/dry.out"; fail "--dry-run"; }
grep -q "^+ cmake -S $src -B .* -DSLURM_ROOT=$pc/opt/slurm -DCMAKE_INSTALL_PREFIX=/opt/opsconsole" "$scratch/dry.out" ||
	fail "--dry-run: no cmake line against SLURM_ROOT: $(cat "$scratch/dry.out")"
[ ! -e "$pc/etc/opsconsole/clusters/dry.json" ] || fail "--dry-run wrote the profile"
ok "--dry-run: builds against SLURM_ROOT, writes nothing"
