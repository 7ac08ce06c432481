#!/usr/bin/env bash
# Health view: a node drained from outside with a runbook health-script
# reason appears under "health check" within one refresh, in the grid as
# 'D', and goes when it is resumed.
. "$(dirname "$0")/lib.sh"

node=gpu-st-b300-16
reason="periodic: temp/ecc e2e-$$"
e2e_on_exit scontrol update NodeName="$node" State=RESUME
e2e_start 80x24 --cluster llm-poc --view health
# At 80 columns the counts leave out the empty groups (but ok).
e2e_wait '^ok [0-9]+  (.*  )?drained 1( |$)' 15
e2e_wait '^-- health check: 1 node' 5   # the demo's prolog drain
scontrol update NodeName="$node" State=DRAIN Reason="$reason"
e2e_wait '^-- health check: 2 nodes' 5
e2e_wait '^ok [0-9]+  (.*  )?drained 2( |$)' 5
e2e_wait "^ $node +drain +root .*periodic: temp/ecc e2e-$$" 5
ok "drained node listed under health check with its reason"
# The grid shows 'D' twice. Waited for like every screen check: under the
# ASan build of CI an immediate capture once missed it.
e2e_wait '^[.#+dDX*~ ]*D[.#+dDX*~ ]*D' 5
ok "the grid shows both drained nodes"
scontrol update NodeName="$node" State=RESUME
e2e_wait '^-- health check: 1 node$' 10
ok "resumed node left the list"
e2e_keys q
e2e_wait 'EXIT=0' 5
