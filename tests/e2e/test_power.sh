#!/usr/bin/env bash
# Power saving: the cluster is started again with four CLOUD nodes
# (cluster.sh start --cloud-nodes: gpu-dy-b300-[1-4], ResumeProgram starts
# their slurmd, SuspendProgram stops it; gpu-dy-b300-4's resume fails).
# :powerup on a static node is refused with the reason; on a powered-down
# CLOUD node it powers up (idle~ -> idle); :powerdown powers it down
# again (idle% / idle~); the failed resume shows in the health view with
# Slurm's "ResumeTimeout reached". The cluster goes back to no cloud nodes.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
e2e_on_exit "$cluster" start
"$cluster" start --cloud-nodes >"$work/start.log" 2>&1 || { cat "$work/start.log"; fail "cluster.sh start --cloud-nodes"; }
wait_cmd 30 sh -c "[ \"\$(sinfo -h -N -n gpu-dy-b300-2 -o %t)\" = 'idle~' ]"

e2e_start 140x40 --cluster llm-poc --view nodes
e2e_wait "^gpu-dy-b300-2 +idle~" 20

filter() {
	e2e_keys /
	e2e_keys C-u
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait "^$1 " 10
}
command() { # the form opens on its nodes: Enter reviews them
	e2e_keys :
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait "$2" 5
	e2e_keys Enter
}

filter gpu-st-b300-12
command powerup "Power up nodes"
e2e_wait "refused, nothing sent: gpu-st-b300-12: a static node \(not State=CLOUD\)" 5
e2e_keys Escape
e2e_wait_gone 'Power up nodes' 5
ok ":powerup on a static node is refused with the reason"

filter gpu-dy-b300-2
command powerup "Power up nodes"
e2e_wait 'Confirm: Power up nodes' 5
e2e_wait "scontrol update NodeName=gpu-dy-b300-2 State=POWER_UP" 5
e2e_keys Enter
e2e_wait "powering up 1 node: gpu-dy-b300-2" 20
wait_cmd 40 sh -c "[ \"\$(sinfo -h -N -n gpu-dy-b300-2 -o %t)\" = idle ]"
e2e_keys Escape
e2e_wait "^gpu-dy-b300-2 +idle " 15
ok "gpu-dy-b300-2 powered up: idle~ -> idle (its slurmd runs)"

command powerdown "Power down nodes"
e2e_wait 'Confirm: Power down nodes' 5
e2e_wait "scontrol update NodeName=gpu-dy-b300-2 State=POWER_DOWN" 5
e2e_keys Enter
e2e_wait "powering down 1 node: gpu-dy-b300-2" 20
wait_cmd 60 sh -c "[ \"\$(sinfo -h -N -n gpu-dy-b300-2 -o %t)\" = 'idle~' ]"
e2e_keys Escape
e2e_wait "^gpu-dy-b300-2 +idle~" 45
ok "gpu-dy-b300-2 powered down again: idle~"

# The failed resume.
filter gpu-dy-b300-4
command powerup "Power up nodes"
e2e_wait 'Confirm: Power up nodes' 5
e2e_keys Enter
e2e_wait "powering up 1 node: gpu-dy-b300-4" 20
e2e_keys Escape
wait_cmd 120 sh -c "sinfo -h -N -n gpu-dy-b300-4 -o '%t %E' | grep -q '^down.* ResumeTimeout reached'"
e2e_keys 4
e2e_wait "failed resume 1" 20
e2e_wait "gpu-dy-b300-4 .*ResumeTimeout reached" 20
ok "the failed resume of gpu-dy-b300-4 is in the health view with Slurm's reason"
e2e_on_exit scontrol update NodeName=gpu-dy-b300-4 State=RESUME
