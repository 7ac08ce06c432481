#!/usr/bin/env bash
# The three first views against the real cluster: partitions (hidden gpu
# only on request), nodes with the drain reasons scontrol reports, Enter on
# a partition opening its queue, Tab and number keys switching views.
# e2e.views_cli runs it again with E2E_BACKEND=cli (lib.sh): the CLI backend.
. "$(dirname "$0")/lib.sh"

e2e_start 80x24 --cluster llm-poc
e2e_wait '^PARTITION +AVAIL' 15
for p in debug 'normal\*' large exclusive; do
	e2e_wait "^$p +up " 10
done
grep -Eq '^gpu ' <<<"$(e2e_capture)" && fail "hidden partition gpu listed without H"
ok "partitions view lists debug normal large exclusive, not gpu"

# GPUs per partition: total is 8 per node, as slurm.conf says.
line=$(e2e_line '^normal\*')
grep -Eq ' [0-9]+/64 ' <<<"$line" || fail "normal should have 64 GPUs in total: $line"
ok "normal has 64 GPUs"

e2e_keys H
e2e_wait '^gpu \(hidden\) +up ' 5
e2e_keys H
e2e_wait_gone '^gpu \(hidden\) +up ' 5
ok "H shows and hides the hidden partition"

# Nodes view: every node scontrol reports as drained/draining shows with
# its reason.
e2e_keys 3
e2e_wait '^ NODE +STATE' 5
drained=$(sinfo -h -N -t drain,drng -o '%N|%E' | sort -u)
[ -n "$drained" ] || fail "the demo workload should have drained a node"
while IFS='|' read -r node reason; do
	e2e_wait "^ $node +(drain|drng)"'[*~#%!@^$-]? .*'"${reason:0:20}" 10
done <<<"$drained"
ok "nodes view shows drained nodes with their reasons"

# Tab and Shift-Tab cycle through the views, number keys jump; Enter
# opens the queue of the selected partition.
e2e_keys Tab
e2e_wait '^-- |^ok [0-9]+ +draining' 5   # 4 Health
e2e_keys BTab
e2e_wait '^ NODE +STATE' 5
e2e_keys 1
e2e_wait '^PARTITION +AVAIL' 5
e2e_keys Down Enter
e2e_wait 'partition normal' 5
e2e_wait '^ +JOBID +PARTITION' 5
ok "Enter on a partition opens its queue"

e2e_keys q
e2e_wait 'EXIT=0' 5
ok "q quits with status 0"
e2e_check_cli_ran
