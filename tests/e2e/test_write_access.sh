#!/usr/bin/env bash
# Who may write: --readonly refuses every write with its reason; a Slurm
# user who is not an operator (opsview) sees writes disabled with the
# reason; neither leaves an audit line nor changes the cluster. An audit
# log that cannot be written refuses the write (the log is write-ahead):
# the reason on screen, the node unchanged.
. "$(dirname "$0")/lib.sh"

audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)

e2e_start 100x24 --cluster llm-poc --view nodes --readonly
e2e_wait '\[read-only\]' 15
e2e_wait '^ gpu-st-b300-1 ' 10
e2e_keys d
e2e_wait 'read-only console' 5
e2e_keys m
e2e_wait 'read-only console' 5
ok "--readonly refuses writes with the reason"
e2e_keys q
e2e_wait 'EXIT=0' 5

# opsview: a plain user of team-a, with its own profile directory.
home=$(mktemp -d)
e2e_on_exit rm -rf "$home"
mkdir -p "$home/cfg/opsconsole/clusters"
sed 's/"audit_log": *"[^"]*"/"audit_log": "'"${home//\//\\/}"'\/audit.log"/' \
	"$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$home/cfg/opsconsole/clusters/llm-poc.json"
chown -R opsview "$home"
chmod -R go-w "$home"
# The console runs as opsview (e2e_start would run it as root).
e2e_tmux kill-server 2>/dev/null || true
E2E_STARTS=$((E2E_STARTS + 1))
E2E_SOCKET="oc-e2e-$$-$E2E_STARTS"
e2e_tmux -f /dev/null new-session -d -s "$E2E_SESSION" -x 100 -y 24 \
	"runuser -u opsview -- env TERM=screen LANG=C.UTF-8 HOME=$home XDG_CONFIG_HOME=$home/cfg SLURM_CONF=$SLURM_CONF $OC_BIN --cluster llm-poc --view nodes; echo EXIT=\$?; sleep 3600"
e2e_wait '^ gpu-st-b300-1 ' 15
e2e_wait '\[view only\]' 15
e2e_keys d
e2e_wait 'writes disabled: opsview is not a Slurm operator or administrator' 5
ok "a non-operator sees writes disabled with the reason"
e2e_keys q
e2e_wait 'EXIT=0' 5
[ ! -s "$home/audit.log" ] || fail "a refused write left an audit line"
lines_after=$( (cat "$audit" 2>/dev/null || true) | wc -l)
[ "$lines_after" -eq "$lines_before" ] || fail "refused writes changed the audit log"
ok "nothing audited, nothing changed"

# An audit log that cannot be written (here a directory, which even root
# cannot append to): the drain is refused with the reason, nothing changes.
cfg=$(mktemp -d)
e2e_on_exit rm -rf "$cfg"
mkdir -p "$cfg/opsconsole/clusters" "$cfg/audit.d"
sed 's/"audit_log": *"[^"]*"/"audit_log": "'"${cfg//\//\\/}"'\/audit.d"/' \
	"$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$cfg/opsconsole/clusters/llm-poc.json"
chmod -R go-w "$cfg"
node=gpu-st-b300-10
e2e_on_exit scontrol update NodeName="$node" State=RESUME
E2E_ENV="XDG_CONFIG_HOME=$cfg" e2e_start 100x30 --cluster llm-poc --view nodes
e2e_drain_confirm "$node" 'must not happen'
e2e_keys Enter
e2e_wait 'refused: audit log .*audit\.d' 15
e2e_wait 'nothing was changed' 5
st=$(sinfo -h -n "$node" -o '%t')
[ "$st" = idle ] || fail "$node is $st after a refused drain"
ok "an audit log that cannot be written refuses the write ($node still $st)"
e2e_keys Escape q
e2e_wait 'EXIT=0' 5
