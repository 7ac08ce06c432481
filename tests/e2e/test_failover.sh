#!/usr/bin/env bash
# Two controllers: the cluster is started again with a backup slurmctld
# (cluster.sh start --backup-ctld: oc-ctld1 on 127.0.0.1, oc-ctld2 on
# 127.0.0.2, SlurmctldTimeout=10, one state folder). The header names
# both, the one in control and since when; --once scheduler (libslurm and
# CLI backends) says what `scontrol ping` says. The primary is killed
# (-9): the backup takes over, the header says so without a restart of
# the console, and the console's views and actions keep working (a job
# submitted after the failover appears in the queue; a drain from the
# console reaches slurmctld). The primary is started again and takes
# control back. The cluster goes back to one controller at the end.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
node=gpu-st-b300-14
name="e2e-fo-$$"
# Last to run (cleanups run in order): back to one controller.
e2e_on_exit scontrol update NodeName="$node" State=RESUME
e2e_cancel_on_exit "$name"
e2e_on_exit "$cluster" start

"$cluster" start --backup-ctld >"$work/start.log" 2>&1 || { cat "$work/start.log"; fail "cluster.sh start --backup-ctld"; }
grep -q '(backup) at oc-ctld2 is UP' <<<"$(scontrol ping)" || fail "no backup after start --backup-ctld: $(scontrol ping)"

# --once scheduler against scontrol ping, with each backend.
once_ctl() { # LABEL EXPECT_REGEX_PRIMARY EXPECT_REGEX_BACKUP [XDG]
	"$OC_BIN" --cluster llm-poc --once scheduler --json >"$work/s.json" || [ $? -eq 1 ] || fail "$1: --once scheduler failed"
	local p b
	p=$(jq -r '.rows[] | select(.group == "slurmctld" and .item == "oc-ctld1 (primary)") | .value' "$work/s.json")
	b=$(jq -r '.rows[] | select(.group == "slurmctld" and .item == "oc-ctld2 (backup)") | .value' "$work/s.json")
	[[ $p =~ $2 ]] || fail "$1: oc-ctld1 is '$p', want /$2/ (scontrol ping: $(scontrol ping | tr '\n' ' '))"
	[[ $b =~ $3 ]] || fail "$1: oc-ctld2 is '$b', want /$3/"
	ok "$1: oc-ctld1 '$p', oc-ctld2 '$b'"
}
once_ctl "libslurm, both up" '^in control since .* at 127\.0\.0\.1$' '^standby since .* at 127\.0\.0\.2$'
xdg=$(mktemp -d /tmp/oc-e2e-fo.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
jq '. + {backend: "cli"}' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"
XDG_CONFIG_HOME=$xdg once_ctl "CLI, both up" '^in control since ' '^standby since '

e2e_start 160x30 --cluster llm-poc --view nodes
e2e_wait "ctld oc-ctld1 in control since [0-9:]+, oc-ctld2 standby" 20
ok "the header names both controllers, the primary in control"

# The primary dies.
pid=$(cat "$OC_CLUSTER_DIR/run/slurmctld.pid")
kill -9 "$pid"
killed=$(date +%s)
e2e_wait "ctld oc-ctld1 DOWN since [0-9:]+, oc-ctld2 in control since [0-9:]+" 60
took=$(($(date +%s) - killed))
grep -q '(primary) at oc-ctld1 is DOWN' <<<"$(scontrol ping)" || fail "scontrol ping: $(scontrol ping)"
ok "the backup took over ${took}s after the primary was killed; the header says so"
once_ctl "libslurm, primary killed" '^DOWN since ' '^in control since '
XDG_CONFIG_HOME=$xdg once_ctl "CLI, primary killed" '^DOWN since ' '^in control since '

# The views and the actions work through the backup.
job=$(runuser -u alice -- sbatch --parsable -J "$name" -p debug --qos debug_qos -N1 --time=5 --mem=1G \
	--output=/dev/null --hold --wrap='sleep 60')
[ -n "$job" ] || fail "sbatch through the backup gave no job id"
e2e_keys 2
e2e_keys /
e2e_type "$name"
e2e_keys Enter
e2e_wait "^ +$job " 20
ok "job $job, submitted after the failover, is in the queue view"
e2e_keys 3
e2e_keys /
e2e_keys C-u
e2e_type "$node"
e2e_keys Enter
e2e_drain_confirm "$node" "failover check"
e2e_keys Enter
e2e_wait "drained 1 node" 20
grep -q 'Reason=failover check' <<<"$(scontrol show node "$node")" || fail "$node was not drained through the backup"
ok "a drain from the console reached the backup controller"
e2e_keys Escape

# The primary comes back and takes control back.
"$cluster" start --backup-ctld >"$work/start2.log" 2>&1 || { cat "$work/start2.log"; fail "starting the primary again"; }
e2e_wait "ctld oc-ctld1 in control since [0-9:]+, oc-ctld2 standby" 60
ok "the primary took control back; the header says so"
