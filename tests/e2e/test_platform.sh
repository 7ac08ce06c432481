#!/usr/bin/env bash
# The platform from the profile ("platform": "parallelcluster"): the drain
# confirmation of a static node (gpu-st-...) says that clustermgtd
# replaces it and offers a maintenance reservation first; a Capacity Block
# reservation (pcluster-...) is refused for deletion with the reason and
# stays; the node panel shows clustermgtd's log lines about the node (a
# missing log is said); the header names the platform, the reservations view counts the
# Capacity Block. With the test profile (no platform, not detected from
# its configuration) the same reservation can be deleted.
. "$(dirname "$0")/lib.sh"

resv="pcluster-e2e-$$"
node=gpu-st-b300-12
e2e_on_exit scontrol delete ReservationName="$resv"
scontrol create reservation ReservationName="$resv" user=root starttime=now+1days duration=60 \
	flags=maint nodes=gpu-st-b300-11 >/dev/null || fail "scontrol create reservation $resv"

xdg=$(mktemp -d /tmp/oc-e2e-pf.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
# clustermgtd's log (its format; times of the last hour): two lines name
# gpu-st-b300-12, one only gpu-st-b300-125 (not ...-12: named whole).
pclog=$xdg/clustermgtd
stamp() { date -d "$1" '+%Y-%m-%d %H:%M:%S,123'; }
{
	echo "$(stamp '-50 min') - [slurm_plugin.clustermgtd:manage_cluster] - INFO - Managing cluster..."
	echo "$(stamp '-49 min') - [slurm_plugin.clustermgtd:_handle_unhealthy_static_nodes] - INFO - Found the following unhealthy static nodes: (x1) ['gpu-st-b300-12(10.0.1.12)']"
	echo "$(stamp '-48 min') - [slurm_plugin.clustermgtd:_handle_unhealthy_static_nodes] - INFO - Found the following unhealthy static nodes: (x1) ['gpu-st-b300-125(10.0.1.125)']"
	echo "$(stamp '-45 min') - [slurm_plugin.instance_manager:_update_slurm_node_addrs] - INFO - Nodes are now configured with instances: (x1) [\"('gpu-st-b300-12', EC2Instance(id='i-0ffe1234567890012'))\"]"
} >"$pclog"
jq --arg log "$pclog" '. + {platform: "parallelcluster", clustermgtd_log: $log}' \
	"$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"

XDG_CONFIG_HOME=$xdg e2e_start 120x40 --cluster llm-poc --view nodes
e2e_wait "^ $node " 20
e2e_wait "^ opsconsole  llm-poc  ParallelCluster  Slurm " 5
ok "the header names the platform"
e2e_keys /
e2e_type "$node"
e2e_keys Enter
e2e_drain_confirm "$node" "platform check"
e2e_wait "ParallelCluster: clustermgtd replaces a static node that is DRAINED or DOWN" 5
e2e_wait "maintenance reservation on it first \(m\), then drain it" 5
ok "the drain confirmation says what ParallelCluster does to a drained static node"
e2e_keys Escape     # back to the form
e2e_wait_gone 'Confirm: Drain nodes' 5
e2e_keys Escape
e2e_wait_gone 'Drain nodes' 5
grep -q drain <<<"$(sinfo -h -n "$node" -o %t)" && fail "$node was drained"

# The node's panel: what clustermgtd did to it, newest first.
e2e_keys Enter
e2e_wait "clustermgtd +2 lines naming it \($pclog, since " 20
e2e_wait "INFO +Nodes are now configured with instances: .*gpu-st-b300-12" 5
e2e_wait "INFO +Found the following unhealthy static nodes: \(x1\) \['gpu-st-b300-12\(10" 5
ok "the node panel shows clustermgtd's lines about $node (not those of gpu-st-b300-125)"
rm -f "$pclog"
e2e_keys r     # closes the panel, loads everything again (the events and the log too)
e2e_wait_gone "clustermgtd +2 lines" 5
e2e_keys Enter
e2e_wait "clustermgtd +cannot read $pclog: no such file on the head node" 20
ok "a clustermgtd log that cannot be read is said, not shown as empty"
e2e_keys Escape

e2e_keys 6
e2e_keys /
e2e_type "$resv"
e2e_keys Enter
e2e_wait "^$resv " 15
e2e_wait "1 reservation, 1 ParallelCluster Capacity Block" 5
ok "the reservations view counts the Capacity Block reservation as the platform's"
e2e_keys x
e2e_wait "refused, nothing sent: $resv is a ParallelCluster Capacity Block reservation" 5
e2e_keys Escape
scontrol show res "$resv" >/dev/null 2>&1 || fail "$resv is gone"
ok "the Capacity Block reservation is refused for deletion and stays"
e2e_keys q
e2e_wait 'EXIT=0' 5

# Not ParallelCluster: an ordinary reservation of that name.
e2e_start 120x40 --cluster llm-poc --view reservations
e2e_keys /
e2e_type "$resv"
e2e_keys Enter
e2e_wait "^$resv " 15
e2e_wait_gone "Capacity Block" 3
e2e_keys x
e2e_wait "scontrol delete ReservationName=$resv" 5
e2e_keys Escape
ok "without the platform, $resv is an ordinary reservation (its delete is offered)"
