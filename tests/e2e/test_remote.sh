#!/usr/bin/env bash
# The remote head node: a profile with "ssh" makes the console read the
# cluster with the Slurm commands run on the head node over one libssh
# session (here the test sshd on 127.0.0.1, whose sessions find the local
# cluster's slurm.conf). The views show the cluster; a drain with a hostile
# reason typed in the console arrives verbatim and a resume works, both
# audited; sshd stopped mid-session gives the stale banner while keys keep
# answering, and the console reconnects by itself when sshd is back.
. "$(dirname "$0")/lib.sh"

: "${OC_SSHD_DIR:?OC_SSHD_DIR must point at the test sshd folder (fixture sshd)}"
sshd_sh="$(dirname "$0")/../ssh/sshd.sh"
eval "$("$sshd_sh" env)"
"$sshd_sh" status >/dev/null || fail "the test sshd is not running"
e2e_on_exit "$sshd_sh" start

# A private profile: the test cluster's, plus the head node.
xdg=$(mktemp -d /tmp/oc-e2e-remote.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg" "$xdg/opsconsole" "$xdg/opsconsole/clusters"
profile="$xdg/opsconsole/clusters/llm-poc.json"
jq --argjson port "$OC_SSHD_PORT" --arg key "$OC_SSH_KEY" --arg kh "$OC_SSH_KNOWN_HOSTS" \
	'del(.slurm_conf) + {ssh: {host: "127.0.0.1", port: $port, user: "root", identity: $key, known_hosts: $kh, connect_timeout_seconds: 3}}' \
	"$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$profile"
chmod 0600 "$profile"
audit=$(jq -r .audit_log "$profile")
[ -n "$audit" ] && [ "$audit" != null ] || fail "the test profile names no audit_log"
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)
export XDG_CONFIG_HOME=$xdg
# Nothing local to fall back on: the console must go through SSH.
unset SLURM_CONF

node=gpu-st-b300-12
reason='remote "bad" $(reboot); `id` '\''x'\'' 점검'
e2e_on_exit env SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf" scontrol update NodeName="$node" State=RESUME

e2e_start 120x30 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-7 .*prolog: gpu count 7' 20
e2e_wait "^ $node " 5
e2e_wait_gone 'STALE' 5
ok "the nodes view over SSH shows the drained node and its reason"

# Drain the node with a hostile reason, typed in the console.
e2e_keys /
e2e_type 'b300-12'
e2e_keys Enter
e2e_keys d
e2e_wait 'Drain nodes' 5
e2e_wait "Nodes +$node" 5
e2e_type "$reason"
e2e_keys Enter
e2e_wait 'Confirm: Drain nodes' 5
e2e_keys Enter
e2e_wait "drained 1 node" 30
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
got=$(scontrol show node "$node" | sed -n 's/^ *Reason=\(.*\) \[root@.*$/\1/p')
[ "$got" = "$reason" ] || fail "$node reason is [$got], want [$reason]"
ok "drained over SSH with the reason exactly as typed"
e2e_keys Escape

e2e_keys R
e2e_wait 'Resume nodes' 5
e2e_wait "Nodes +$node" 5
e2e_keys Enter
e2e_wait 'Confirm: Resume nodes' 5
e2e_keys Enter
e2e_wait 'resumed 1 node' 30
st=$(sinfo -h -n "$node" -o %t | sed -n 1p)
case $st in drain* | drng* | down*) fail "$node is $st after the remote resume" ;; esac
ok "resumed over SSH, sinfo agrees ($st)"
e2e_keys Escape
lines_after=$(wc -l <"$audit")
[ "$((lines_after - lines_before))" -eq 4 ] || fail "audit: $((lines_after - lines_before)) new lines, want 4 (intent and outcome of 2 applies)"
grep -q '"node.drain"' <<<"$(tail -n 4 "$audit")" || fail "audit: no node.drain line"
ok "both applies audited"

# sshd gone mid-session: the stale banner, keys still answer.
"$sshd_sh" stop >/dev/null
e2e_keys r
e2e_wait 'STALE: head node unreachable since [0-9:]+ \([0-9]+s\): .*ssh root@127.0.0.1' 40
e2e_keys 1
e2e_wait '^PARTITION +AVAIL' 2
e2e_keys 3
e2e_wait '^ NODE +STATE' 2
e2e_wait "^ $node " 2 # the last data stays on screen
ok "sshd stopped: stale banner, old data kept, keys answer: $(grep -m1 STALE <<<"$E2E_LAST")"

# sshd back: the console reconnects by itself (backoff at most 30 s).
"$sshd_sh" start >/dev/null
e2e_wait_gone 'STALE' 60
e2e_wait 'updated [0-5]s ago' 15
ok "reconnected by itself when sshd came back"
e2e_keys q
e2e_wait 'EXIT=0' 5

# The SSH module is loaded only from a path nobody else can write: a copy
# in a folder writable by others ($OC_SSH_MODULE) is refused, nothing runs.
bad=$(mktemp -d /tmp/oc-e2e-badmod.XXXXXX)
e2e_on_exit rm -rf "$bad"
cp "$(dirname "$OC_BIN")/opsconsole-ssh.so" "$bad/"
chmod 0777 "$bad"
rc=0
out=$(OC_SSH_MODULE=$bad/opsconsole-ssh.so "$OC_BIN" --cluster llm-poc --once nodes 2>&1) || rc=$?
[ "$rc" -ne 0 ] || fail "a module from a folder writable by others was used: $out"
grep -q "SSH module $bad/opsconsole-ssh.so: refused: its directory $bad is writable by others" <<<"$out" ||
	fail "no refusal of the module: $out"
ok "an SSH module from a folder writable by others is refused (exit $rc)"
