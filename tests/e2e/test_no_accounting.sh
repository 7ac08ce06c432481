#!/usr/bin/env bash
# A cluster without accounting, as an AWS PCS cluster may be: the test
# cluster started again with --no-accounting (AccountingStorageType=
# accounting_storage/none, slurmdbd and MariaDB stopped). Every view that
# needs accounting says so, in script mode (exit 2 with the reason) and on
# screen; the rest works: nodes (GPUs from the configured Gres, gres/gpu
# being untracked), partitions, the queue, health. With "platform": "pcs"
# the header names AWS PCS and the rehearsal skips the drills that restart
# or stop slurmctld and slurmdbd (AWS runs them). The cluster goes back to
# accounting at the end, the demo's pending jobs submitted again.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
# Without accounting no limit holds: the demo's pending jobs (one kept
# pending by its team's GrpTRES) may start meanwhile. (Holding them does
# not work on a new cluster: "the DB index is being set" until slurmdbd
# has them.) Afterwards those two are cancelled and the demo submits them
# again (the clean-ups run in this order).
e2e_on_exit "$cluster" start
e2e_on_exit scancel -n demo-dave-normal
e2e_on_exit scancel -n demo-alice-over-quota
e2e_on_exit sh -c 'for i in $(seq 150); do [ -z "$(squeue -h -n demo-dave-normal,demo-alice-over-quota)" ] && exit 0; sleep 0.2; done'
e2e_on_exit "$cluster" start --demo
"$cluster" start --no-accounting >"$work/start.log" 2>&1 || { cat "$work/start.log"; fail "cluster.sh start --no-accounting"; }
# (24.11 prints an explicit accounting_storage/none as "(null)".)
ast=$(scontrol show config | sed -n 's/^AccountingStorageType *= *//p')
case $ast in accounting_storage/none | "(null)" | "") ;; *) fail "AccountingStorageType is $ast, not none" ;; esac

for v in quota history events fairshare; do
	rc=0
	"$OC_BIN" --cluster llm-poc --once "$v" </dev/null >"$work/$v.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "--once $v: exit $rc, not 2: $(cat "$work/$v.out")"
	grep -q "accounting is not configured (AccountingStorageType=none)" "$work/$v.out" ||
		fail "--once $v does not say why: $(cat "$work/$v.out")"
done
ok "--once quota, history, events, fairshare: exit 2, 'accounting is not configured'"
for v in nodes partitions queue; do
	rc=0
	"$OC_BIN" --cluster llm-poc --once "$v" --json </dev/null >"$work/$v.json" 2>"$work/$v.err" || rc=$?
	[ "$rc" = 0 ] || fail "--once $v: exit $rc: $(cat "$work/$v.err")"
done
[ "$(jq '.rows | length' "$work/nodes.json")" = "$(sinfo -h -N -o %N | sort -u | wc -l)" ] || fail "not every node"
want=$(scontrol show node gpu-st-b300-12 | sed -n 's/.*Gres=gpu:\([0-9]*\).*/\1/p')
[ "$(jq '.rows[] | select(.name == "gpu-st-b300-12") | .gpus' "$work/nodes.json")" = "$want" ] ||
	fail "gpu-st-b300-12: $(jq -c '.rows[] | select(.name == "gpu-st-b300-12")' "$work/nodes.json"), Gres says $want GPUs"
ok "--once nodes, partitions, queue work; GPUs from the configured Gres ($want per node, gres/gpu untracked)"

xdg=$(mktemp -d /tmp/oc-e2e-na.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
jq '. + {platform: "pcs"}' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"
# The controller is AWS's on PCS: the drills that restart or stop it are
# skipped with the checklist's reason (its "not_on"), not offered.
rc=0
XDG_CONFIG_HOME=$xdg XDG_STATE_HOME=$work/state "$OC_BIN" rehearse --cluster llm-poc --auto --only 'drill-slurm*' \
	</dev/null >"$work/reh.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "rehearse --only drill-slurm*: exit $rc: $(cat "$work/reh.out")"
[ "$(grep -c "SKIP drill-slurm[a-z-]*: skipped: not on AWS PCS: AWS PCS runs slurm" "$work/reh.out")" = 3 ] ||
	fail "the slurmctld and slurmdbd drills are not skipped as not on PCS: $(cat "$work/reh.out")"
ok "rehearsal on PCS: the slurmctld and slurmdbd drills skipped, 'not on AWS PCS'"

XDG_CONFIG_HOME=$xdg e2e_start 120x40 --cluster llm-poc --view nodes
e2e_wait "^ opsconsole  llm-poc  AWS PCS  Slurm " 20
e2e_wait "^ gpu-st-b300-12 +[a-z]+[^ ]* +[0-9]+/[0-9]+ +[0-9]+/$want( |$)" 20
ok "the nodes view works, the header names AWS PCS"
e2e_keys 5
e2e_wait "accounting is not configured \(AccountingStorageType=none\)" 20
ok "the quota view says accounting is not configured"
e2e_keys 9
e2e_wait "accounting is not configured \(AccountingStorageType=none\): no jobs ended" 20
ok "the history view says accounting is not configured"
e2e_keys 1
e2e_wait "^normal\* +up " 20
ok "the partitions view works"
e2e_keys q
e2e_wait 'EXIT=0' 5
