#!/usr/bin/env bash
# Reboots from the nodes view (B), on the test cluster whose RebootProgram
# restarts the node's slurmd with -b (a new boot time, as a machine that
# rebooted reports). An idle node rebooted with nextstate=RESUME: the
# confirmation shows the scontrol line, the read-back follows the node
# until it is back, slurmd is a new process and the boot time moved; the
# audit log has the intent and the outcome. A node that runs a job: a
# reboot "now" is refused with the reason and nothing changes; ASAP
# leaves it REBOOT_REQUESTED (drained, "Reboot ASAP") with its job still
# running, and :cancelreboot takes that back. Run with E2E_BACKEND=cli too.
. "$(dirname "$0")/lib.sh"

audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
[ -n "$audit" ] || fail "the test profile names no audit_log"
idle=gpu-st-b300-13
name="e2e-rb-$$"
e2e_on_exit scontrol update NodeName="$idle" State=RESUME
# Before its job is cancelled: an ASAP reboot left requested would be
# issued the moment the node is idle.
e2e_on_exit scontrol cancel_reboot gpu-st-b300-14
e2e_cancel_on_exit "$name"

# A node of its own that runs a job (held in place by the job's sleep).
busy_job=$(runuser -u alice -- sbatch --parsable -J "$name" -p large --qos large_qos -N1 -w gpu-st-b300-14 \
	--time=5 --mem=1G --output=/dev/null --wrap='sleep 300')
[ -n "$busy_job" ] || fail "sbatch gave no job id"
busy=gpu-st-b300-14
wait_cmd 60 sh -c "[ \"\$(squeue -h -j $busy_job -o %T)\" = RUNNING ]"

boot_before=$(scontrol show node "$idle" | sed -n 's/.*BootTime=\([^ ]*\).*/\1/p')
pid_before=$(cat "$OC_CLUSTER_DIR/run/slurmd-$idle.pid")
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)

e2e_start 160x40 --cluster llm-poc --view nodes
e2e_wait "^ $idle +(idle|maint)" 20
e2e_keys /
e2e_type "$idle"
e2e_keys Enter
e2e_wait "^ $idle " 5
e2e_keys B
e2e_wait 'Reboot nodes' 5
e2e_type "e2e reboot $$"
e2e_keys Enter
e2e_wait 'Confirm: Reboot nodes' 5
e2e_wait "scontrol reboot ASAP nextstate=RESUME reason='e2e reboot $$' $idle" 5
ok "the confirmation shows the scontrol line"
e2e_keys Enter
e2e_wait "rebooted 1 node: $idle" 90
e2e_wait "$idle: rebooted, back IDLE" 5
boot_after=$(scontrol show node "$idle" | sed -n 's/.*BootTime=\([^ ]*\).*/\1/p')
pid_after=$(cat "$OC_CLUSTER_DIR/run/slurmd-$idle.pid")
[ "$boot_after" != "$boot_before" ] || fail "BootTime did not move ($boot_before)"
[ "$pid_after" != "$pid_before" ] || fail "slurmd was not restarted (pid $pid_before)"
st=$(sinfo -h -n "$idle" -o %t | sed -n 1p)
case $st in idle | maint) ;; *) fail "$idle is $st after the reboot" ;; esac
ok "$idle rebooted: BootTime $boot_before -> $boot_after, slurmd $pid_before -> $pid_after, $st"
tail -n +"$((lines_before + 1))" "$audit" >"$OC_CLUSTER_DIR/reboot-audit.$$"
e2e_on_exit rm -f "$OC_CLUSTER_DIR/reboot-audit.$$"
grep -q '"phase":"intent".*"action":"node.reboot"' "$OC_CLUSTER_DIR/reboot-audit.$$" || fail "no intent line"
grep -q '"phase":"outcome".*"action":"node.reboot".*"result":"ok"' "$OC_CLUSTER_DIR/reboot-audit.$$" ||
	fail "no ok outcome: $(cat "$OC_CLUSTER_DIR/reboot-audit.$$")"
ok "audited: intent, then outcome ok"
e2e_keys Escape

# A node that runs a job: "now" is refused, nothing changes.
e2e_keys /
e2e_keys C-u
e2e_type "$busy"
e2e_keys Enter
e2e_wait "^ $busy +(alloc|mix)" 10
e2e_keys B
e2e_wait 'Reboot nodes' 5
e2e_keys BTab BTab C-u
e2e_type now
e2e_keys Enter
e2e_wait "refused, nothing sent: $busy: runs jobs" 5
grep -q 'REBOOT' <<<"$(scontrol show node "$busy")" && fail "$busy has a reboot flag after a refusal"
ok "a reboot now of a node that runs a job is refused, nothing sent"
e2e_keys Escape
e2e_wait_gone 'Reboot nodes' 5

# ASAP: requested, the job keeps running; then cancelled.
e2e_keys B
e2e_wait 'Reboot nodes' 5
e2e_keys Enter
e2e_wait 'Confirm: Reboot nodes' 5
e2e_wait "Running jobs \(ASAP lets them finish\)" 5
e2e_keys Enter
e2e_wait "$busy: reboot requested: ASAP, once its jobs end" 30
grep -q 'REBOOT_REQUESTED' <<<"$(scontrol show node "$busy")" || fail "$busy: $(scontrol show node "$busy" | grep State)"
[ "$(squeue -h -j "$busy_job" -o %T)" = RUNNING ] || fail "job $busy_job is no longer running"
ok "ASAP: $busy REBOOT_REQUESTED, job $busy_job still running"
e2e_keys Escape
# The nodes view shows it (sinfo's '@': reboot requested).
e2e_wait "^ $busy +[a-z]+@" 10
e2e_keys :
e2e_type cancelreboot
e2e_keys Enter
e2e_wait 'Cancel a reboot' 5
e2e_keys Enter
e2e_wait 'Confirm: Cancel a reboot' 5
e2e_wait "scontrol cancel_reboot $busy" 5
e2e_keys Enter
e2e_wait "reboot cancelled 1 node: $busy" 30
grep -q 'REBOOT' <<<"$(scontrol show node "$busy")" && fail "$busy still has a reboot flag"
grep -q 'State=[A-Z]*+DRAIN' <<<"$(scontrol show node "$busy")" && fail "$busy is still drained"
[ "$(squeue -h -j "$busy_job" -o %T)" = RUNNING ] || fail "job $busy_job is no longer running"
ok ":cancelreboot: $busy has no reboot requested and is not drained; its job runs on"
e2e_check_cli_ran
