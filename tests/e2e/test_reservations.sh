#!/usr/bin/env bash
# A reservation created with scontrol appears in the reservations view with
# its flags, and its nodes are marked in the nodes view.
. "$(dirname "$0")/lib.sh"

name="e2e_maint_$$"
e2e_on_exit scontrol delete ReservationName="$name"
e2e_start 120x30 --cluster llm-poc --view reservations
e2e_wait '^NAME +STATE' 15
scontrol create reservation ReservationName="$name" user=root starttime=now duration=60 \
	flags=maint,ignore_jobs nodes=gpu-st-b300-[15-16] >/dev/null
e2e_wait "^$name +ACTIVE +gpu-st-b300-\[15-16\] .*root +MAINT,IGNORE_JOBS" 15
ok "reservation listed as active with MAINT,IGNORE_JOBS"
e2e_keys Enter      # its nodes, in the nodes view
e2e_wait "^ gpu-st-b300-15 +maint.* e2e_maint" 10
e2e_wait "^ gpu-st-b300-16 +maint.* e2e_maint" 5
e2e_wait "reservation $name  2 nodes, 2 reserved" 5
grep -Eq '^ gpu-st-b300-(1|14) ' <<<"$E2E_LAST" && fail "the reservation's nodes list has other nodes"
ok "its nodes are marked in the nodes view, listed alone"
scontrol delete ReservationName="$name"
e2e_keys 6
e2e_wait_gone "^$name " 40
ok "deleted reservation left the view"
e2e_keys q
e2e_wait 'EXIT=0' 5
