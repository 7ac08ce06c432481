#!/usr/bin/env bash
# Power saving: the cluster is started again with four CLOUD nodes
# (cluster.sh start --cloud-nodes: gpu-dy-b300-[1-4], ResumeProgram starts
# their slurmd, SuspendProgram stops it; gpu-dy-b300-4's resume fails).
# :powerup on a static node is refused with the reason; on a powered-down
# CLOUD node it powers up (idle~ -> idle); :powerdown powers it down
# again (idle% / idle~); the failed resume shows in the health view with
# Slurm's "ResumeTimeout reached", and the power states per partition in
# the view and in --once health as sinfo counts them. The cluster goes
# back to no cloud nodes.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
e2e_on_exit "$cluster" start
"$cluster" start --cloud-nodes >"$work/start.log" 2>&1 || { cat "$work/start.log"; fail "cluster.sh start --cloud-nodes"; }
wait_cmd 30 sh -c "[ \"\$(sinfo -h -N -n gpu-dy-b300-2 -o %t)\" = 'idle~' ]"

e2e_start 140x40 --cluster llm-poc --view nodes
e2e_wait "^ gpu-dy-b300-2 +idle~" 20

filter() {
	e2e_keys /
	e2e_keys C-u
	e2e_type "$1"
	e2e_keys Enter
	e2e_wait "^ $1 " 10
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
e2e_wait "^ gpu-dy-b300-2 +idle " 15
ok "gpu-dy-b300-2 powered up: idle~ -> idle (its slurmd runs)"

command powerdown "Power down nodes"
e2e_wait 'Confirm: Power down nodes' 5
e2e_wait "scontrol update NodeName=gpu-dy-b300-2 State=POWER_DOWN" 5
e2e_keys Enter
e2e_wait "powering down 1 node: gpu-dy-b300-2" 20
wait_cmd 60 sh -c "[ \"\$(sinfo -h -N -n gpu-dy-b300-2 -o %t)\" = 'idle~' ]"
e2e_keys Escape
e2e_wait "^ gpu-dy-b300-2 +idle~" 45
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

# Counts per partition: the health view's power line and --once health.
e2e_wait "^power +cloud: 3 powered down, 1 failed resume" 20
ok "the health view counts the cloud partition's nodes: 3 powered down, 1 failed resume"
# The JSON's cloud counts equal sinfo's (read again while nodes move).
power_agrees() {
	local rc=0
	"$OC_BIN" --cluster llm-poc --once health --json </dev/null >"$work/health.json" 2>/dev/null || rc=$?
	[ "$rc" -le 1 ] || return 1
	local got want
	got=$(jq -r '.power_by_partition[] | select(.partition == "cloud") |
		"\(.powered_down) \(.powering_up) \(.powering_down) \(.resume_failed)"' "$work/health.json")
	want=$(sinfo -h -N -p cloud -o '%t' | awk '
		/^down/ && /[~#]$/ { f++; next }
		/#$/ { u++; next } /%$/ { d++; next } /~$/ { p++; next }
		END { printf "%d %d %d %d\n", p, u, d, f }')
	echo "console: $got  sinfo: $want" >"$work/power.cmp"
	[ -n "$got" ] && [ "$got" = "$want" ]
}
end=$((SECONDS + 30))
until power_agrees; do
	[ "$SECONDS" -lt "$end" ] || fail "power_by_partition differs from sinfo: $(cat "$work/power.cmp")"
	sleep 0.5
done
ok "--once health --json: the cloud partition's power counts equal sinfo's ($(cat "$work/power.cmp"))"
rc=0
"$OC_BIN" --cluster llm-poc --once health </dev/null >"$work/health.txt" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "--once health exited $rc, not 1 (findings): $(cat "$work/health.txt")"
grep -q '^power cloud: 3 powered down, 1 failed resume$' "$work/health.txt" ||
	fail "--once health has no power line for cloud: $(cat "$work/health.txt")"
ok "--once health prints the cloud partition's power line"
e2e_on_exit scontrol update NodeName=gpu-dy-b300-4 State=RESUME
