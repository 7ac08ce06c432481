#!/usr/bin/env bash
# The data agent: a profile with "ssh" and "agent" makes the remote console
# start `opsconsole agent` on the head node (here the test sshd on
# 127.0.0.1) and read nodes, partitions, jobs and reservations from its
# frames. --version says so; the queue shows a job submitted and drops it
# when cancelled; a drain reason set with scontrol arrives in the nodes
# view; when the agent is killed the console goes on with the Slurm
# commands; an agent that is not installed gives the Slurm commands at once,
# and --version says why.
. "$(dirname "$0")/lib.sh"

: "${OC_SSHD_DIR:?OC_SSHD_DIR must point at the test sshd folder (fixture sshd)}"
sshd_sh="$(dirname "$0")/../ssh/sshd.sh"
eval "$("$sshd_sh" env)"
"$sshd_sh" status >/dev/null || fail "the test sshd is not running"
# Nothing local to fall back on: the console must go through SSH; the
# test's own Slurm commands name the configuration.
conf="$OC_CLUSTER_DIR/etc/slurm.conf"
unset SLURM_CONF
sl() { SLURM_CONF=$conf "$@"; }

base_profile=$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json
xdg=$(mktemp -d /tmp/oc-e2e-agent.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
profile() { # profile AGENT [SLURM_BIN]: the test cluster's profile over SSH
	jq --argjson port "$OC_SSHD_PORT" --arg key "$OC_SSH_KEY" --arg kh "$OC_SSH_KNOWN_HOSTS" --arg agent "$1" \
		--arg bin "${2:-}" \
		'del(.slurm_conf) + {ssh: {host: "127.0.0.1", port: $port, user: "root", identity: $key, known_hosts: $kh, connect_timeout_seconds: 3, agent: $agent}}
		 + (if $bin == "" then {} else {slurm_bin: $bin} end)' \
		"$base_profile" >"$xdg/opsconsole/clusters/llm-poc.json.new"
	mv "$xdg/opsconsole/clusters/llm-poc.json.new" "$xdg/opsconsole/clusters/llm-poc.json"
	chmod -R go-rwx "$xdg"
}
agent_pids() { pgrep -f "^$OC_BIN agent" || true; }
[ -z "$(agent_pids)" ] || fail "an agent runs before the test: $(agent_pids)"

# The agent answers requests on its own (no SSH): a frame for a refresh,
# an error for anything else. A refresh of the jobs alone whose base is
# not a frame this agent sent gets every part, whole.
out=$(printf 'hello\nrefresh 4 0 1\nnonsense\n' | sl "$OC_BIN" agent)
grep -q '"schema":"opsconsole.agent/1"' <<<"$out" || fail "agent: no hello: $out"
frame=$(grep '^{"t":"frame"' <<<"$out") || fail "agent: no frame: ${out:0:300}"
for k in '"seq":[0-9]' '"nodes":[0-9]' '"partitions":[0-9]' '"jobs":[0-9]' '"reservations":[0-9]' '"accounting":{'; do
	grep -q "$k" <<<"$frame" || fail "agent: the frame has no $k: ${frame:0:400}"
done
! grep -q '"delta"' <<<"$frame" || fail "agent: a whole frame with deltas"
grep -q '"t":"error"' <<<"$out" || fail "agent: no error for a bad request"
[ "$(grep -c '^{"t":"end"}$' <<<"$out")" -eq 3 ] || fail "agent: not one end line per request"
ok "opsconsole agent answers hello, refresh and a bad request on stdin"

profile "$OC_BIN"
export XDG_CONFIG_HOME=$xdg
v=$("$OC_BIN" --version --cluster llm-poc)
grep -q 'asked through data agent on the head node: opsconsole ' <<<"$v" || fail "--version: $v"
ok "--version: $(sed -n 2p <<<"$v")"

name=e2e-agent-$$
e2e_on_exit env SLURM_CONF="$conf" scancel -n "$name"
e2e_on_exit env SLURM_CONF="$conf" scancel -n "$name-2"
# queue_filter: only this test's jobs in the queue (a long queue would
# push them off the screen).
queue_filter() {
	e2e_keys /
	e2e_type "e2e-agent-$$"
	e2e_keys Enter
}
e2e_start 200x40 --cluster llm-poc --view queue
e2e_wait 'JOBID' 20
queue_filter
# Asked again until it is there (not "$(agent_pids)" once, empty when the
# console is still connecting: slow under ASan).
agent_up() { [ -n "$(agent_pids)" ]; }
wait_cmd 20 agent_up
ok "the console started the agent on the head node ($(agent_pids))"

id=$(sl sbatch --parsable --hold -J "$name" -p debug --wrap 'sleep 600')
e2e_wait "^ *$id .*e2e-agen" 15
e2e_wait_gone 'STALE' 5
ok "a job submitted on the head node arrives through the agent"
sl scancel "$id"
e2e_wait_gone "^ *$id " 15
ok "and goes when cancelled"

node=gpu-st-b300-14
e2e_on_exit env SLURM_CONF="$conf" scontrol update NodeName="$node" State=RESUME
sl scontrol update NodeName="$node" State=DRAIN Reason="agent-e2e $$"
e2e_keys 3
e2e_keys /
e2e_type "$node"
e2e_keys Enter
e2e_wait "^ $node .*agent-e2e $$" 15
ok "a drain reason set with scontrol arrives in the nodes view"
sl scontrol update NodeName="$node" State=RESUME
e2e_wait_gone "agent-e2e $$" 15

# The agent killed: the Slurm commands take over, the data keeps coming.
pkill -KILL -f "^$OC_BIN agent"
e2e_keys 2
id2=$(sl sbatch --parsable --hold -J "$name-2" -p debug --wrap 'sleep 600')
e2e_wait "^ *$id2 .*e2e-agen" 20
[ -z "$(agent_pids)" ] || fail "the agent was started again after it was killed"
ok "after the agent was killed the console reads the queue with the Slurm commands"
e2e_keys q
e2e_wait 'EXIT=0' 10

# A console quit with its agent running: the agent ends with the session
# (EOF on its stdin), it is not left on the head node.
e2e_start 200x40 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-1 ' 20
wait_cmd 20 agent_up
e2e_keys q
e2e_wait 'EXIT=0' 10
start=$SECONDS
wait_cmd 10 sh -c "! pgrep -f '^$OC_BIN agent'"
ok "the agent ended with the console's session ($((SECONDS - start)) s after the quit)"

# Not installed: the Slurm commands from the start, and --version says why.
# Their squeue takes 3 s (a wrapper in slurm_bin), as at 10,000 jobs over
# SSH: a quit during it must not free the transport the collector still
# uses (it crashed so).
mkdir -p "$xdg/bin"
echo 3 >"$xdg/squeue-delay"
for c in sinfo squeue scontrol sacctmgr sacct sprio sdiag sbatch scancel; do
	real=$(command -v "$c") || fail "$c not found"
	{
		echo '#!/bin/sh'
		[ "$c" = squeue ] && echo "sleep \$(cat '$xdg/squeue-delay')"
		echo "exec $real \"\$@\""
	} >"$xdg/bin/$c"
	chmod 0755 "$xdg/bin/$c"
done
profile /nonexistent/opsconsole "$xdg/bin"
v=$("$OC_BIN" --version --cluster llm-poc)
grep -q 'no data agent: /nonexistent/opsconsole agent: not installed on the head node' <<<"$v" || fail "--version: $v"
e2e_start 200x40 --cluster llm-poc --view queue
e2e_wait 'JOBID' 20
queue_filter
e2e_wait "^ *$id2 .*e2e-agen" 20
e2e_wait_gone 'STALE' 5
ok "no agent on the head node: the queue through the Slurm commands ($(sed -n 2p <<<"$v" | sed 's/.*(asked through //'))"
e2e_keys r
wait_cmd 5 pgrep -f "^/bin/sh $xdg/bin/squeue"
e2e_keys q
e2e_wait 'EXIT=0' 10
ok "quit while a command over SSH still runs: exit 0"

# A command slower than the stale rule (26.05's squeue --all --json of
# 10,000 jobs takes 13 s): the banner says the refresh is not done, not
# that slurmctld does not answer, which the console cannot know.
echo 12 >"$xdg/squeue-delay"
e2e_start 200x40 --cluster llm-poc --view queue
e2e_wait 'STALE: refresh not done since [0-9:]+ \([0-9]+s\)' 20
e2e_keys q
e2e_wait 'EXIT=0' 10
wait_cmd 20 sh -c "! pgrep -f '^/bin/sh $xdg/bin/squeue'"
ok "a command slower than the stale rule: STALE says the refresh is not done"
e2e_exit
