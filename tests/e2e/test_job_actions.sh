#!/usr/bin/env bash
# Job actions end to end, in the queue view, each read back with squeue:
# a held job of alice gets a time limit (T), is released (e), held again
# (h); a QoS made a moment before the QoS form opens is among its
# choices; two tagged jobs are cancelled at once (c); USR1 reaches a running
# job's batch shell (K: its trap writes a marker); a bad time limit and a
# job id not in the queue are refused in the form, with nothing sent. Each
# apply leaves an intent and an outcome line in the audit log. Outside the
# queue view and with --readonly the keys are refused with the reason.
. "$(dirname "$0")/lib.sh"

audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
[ -n "$audit" ] || fail "the test profile names no audit_log"
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)

# alice's jobs in partition large (idle nodes there), named for this run.
name="e2e-job-$$"
submit() { # submit [--hold] [-J NAME] COMMAND: the job id
	local hold="" jname=$name
	[ "$1" = --hold ] && { hold=--hold; shift; }
	[ "$1" = -J ] && { jname=$2; shift 2; }
	runuser -u alice -- sbatch --parsable -J "$jname" -p large --qos large_qos -N1 --time=10 --mem=1G \
		--output=/dev/null $hold --wrap="$1"
}
e2e_cancel_on_exit "$name" "$name-c" "$name-s"
e2e_on_exit sh -c "rm -f /tmp/$name.*"
field() { squeue -h -j "$1" -o "$2" 2>/dev/null; }

held=$(submit --hold 'sleep 600')
[ -n "$held" ] || fail "sbatch gave no job id"

e2e_start 120x32 --cluster llm-poc --view queue
e2e_wait "^ +$held " 15
e2e_wait_gone '\[view only\]|\[read-only\]' 5
e2e_keys /
e2e_type "$name"
e2e_keys Enter
e2e_wait " 1 job([^s]|$)" 5

# Time limit: the value typed, the equivalent command, squeue agrees.
e2e_keys T
e2e_wait 'Change the time limit' 5
e2e_wait "Jobs +$held" 5
e2e_type 'soon'
e2e_keys Enter
e2e_wait 'Time limit: ' 5
ok "a time limit that does not parse is refused in the form"
e2e_keys C-u
e2e_type '2h'
e2e_keys Enter
e2e_wait "scontrol update JobId=$held TimeLimit=02:00:00" 5
e2e_keys Enter
e2e_wait "new time limit for 1 job: $held" 20
[ "$(field "$held" %l)" = "2:00:00" ] || fail "squeue says time limit $(field "$held" %l)"
ok "time limit changed, squeue shows 2:00:00"
e2e_keys Escape

# A QoS made while the console runs is among the QoS form's choices at
# once: the form asks for the accounting when it opens (the queue view
# holds it at the idle rate, a minute; the apply above loaded it last).
fresh="e2e_fresh_$$"
# (Not a wait for a condition: the refresh the apply asked for, tens of
# ms, must be over, or it and not the form could bring the new QoS.)
sleep 1
sacctmgr -i add qos "$fresh" >/dev/null || fail "sacctmgr could not add qos $fresh"
e2e_on_exit sacctmgr -i delete qos "$fresh"
wait_cmd 20 sh -c "scontrol show assoc_mgr flags=qos | grep -q 'QOS=$fresh('"
e2e_keys :
e2e_type setqos
e2e_keys Enter
e2e_wait 'Change the QoS' 5
end=$((SECONDS + 10))
until e2e_keys C-o && e2e_wait 'normal_qos' 5 && grep -q "$fresh" <<<"$E2E_LAST"; do
	[ "$SECONDS" -lt "$end" ] || fail "the QoS choices lack $fresh, made before the form opened"
	e2e_keys Escape
	e2e_wait_gone 'normal_qos' 5
done
ok "a QoS made a moment before is among the form's choices"
e2e_keys Escape Escape
e2e_wait_gone 'Change the QoS' 5

# Release, then hold again: squeue's reason follows.
e2e_keys e
e2e_wait 'Release jobs' 5
e2e_keys Enter
e2e_wait "scontrol release $held" 5
e2e_keys Enter
e2e_wait "released 1 job" 20
e2e_keys Escape
wait_cmd 20 sh -c "[ \"\$(squeue -h -j $held -o %r)\" != JobHeldUser ]"
ok "released: squeue no longer says JobHeldUser"

# A job id that is not in the queue: refused in the form.
e2e_keys h
e2e_wait 'Hold jobs' 5
e2e_keys C-u
e2e_type '99999999'
e2e_keys Enter
e2e_wait 'job 99999999 is not in the queue' 5
ok "a job id not in the queue is refused"
e2e_keys Escape
e2e_wait_gone 'Hold jobs' 5

# Two held jobs of their own name (their order stays: neither starts),
# tagged, cancelled at once.
j2=$(submit --hold -J "$name-c" 'sleep 600')
j3=$(submit --hold -J "$name-c" 'sleep 600')
e2e_keys /
e2e_keys C-u
e2e_type "$name-c"
e2e_keys Enter
e2e_wait "^ +$j3 " 20
e2e_wait "2 jobs" 5
e2e_keys u Home Space Down Space
e2e_wait '2 tagged' 5
e2e_keys c
e2e_wait "Jobs +[0-9]+,[0-9]+" 5
e2e_keys Enter
e2e_wait 'Cancel 2 jobs' 5
e2e_wait "scancel [0-9]+ [0-9]+" 5
e2e_keys Enter
e2e_wait 'cancelled 2 jobs' 20
e2e_keys Escape
for j in "$j2" "$j3"; do
	wait_cmd 20 sh -c "st=\$(squeue -h -j $j -o %T 2>/dev/null); [ -z \"\$st\" ] || [ \"\$st\" = CANCELLED ] || [ \"\$st\" = COMPLETING ]"
done
ok "two tagged jobs cancelled, squeue agrees"

# USR1 to a running job's batch shell: its trap writes the marker.
run=$(submit -J "$name-s" "trap 'echo USR1 > /tmp/$name.\$SLURM_JOB_ID' USR1; touch /tmp/$name.\$SLURM_JOB_ID.ready; sleep 600 & wait; sleep 600 & wait")
wait_cmd 60 test -e "/tmp/$name.$run.ready"
e2e_keys u /
e2e_keys C-u
e2e_type "$name-s"
e2e_keys Enter
e2e_wait "^ +$run .* R " 20
e2e_wait " 1 job([^s]|$)" 5
e2e_keys K
e2e_wait 'Signal jobs' 5
e2e_wait "Signal +USR1" 5
e2e_keys Enter
e2e_wait "scancel --signal=USR1 --batch $run" 5
e2e_keys Enter
e2e_wait "signalled 1 job" 20
wait_cmd 20 test -e "/tmp/$name.$run"
[ "$(cat "/tmp/$name.$run")" = USR1 ] || fail "the trap wrote '$(cat "/tmp/$name.$run")'"
ok "USR1 reached the batch shell's trap"
e2e_keys Escape

# Outside the queue view: refused with the reason.
e2e_keys 3
e2e_wait '^ gpu-st-b300-1 ' 10
e2e_keys c
e2e_wait 'job actions work in the queue view' 5
ok "job keys outside the queue view say where they work"
e2e_keys q
e2e_wait 'EXIT=0' 10

# Audit: intent and outcome for each of the five applies (time limit,
# release, cancel, signal), none for the refused ones.
after=$(tail -n +"$((lines_before + 1))" "$audit")
for a in job.timelimit job.release job.cancel job.signal; do
	n=$(grep -c "\"action\":\"$a\"" <<<"$after" || true)
	[ "$n" = 2 ] || fail "audit: $n lines for $a, want 2 (intent, outcome): $after"
done
grep -q '"action":"job.hold"' <<<"$after" && fail "the refused hold was audited"
grep -q "\"command\":\"scancel --signal=USR1 --batch $run\"" <<<"$after" || fail "audit lacks the signal command"
ok "one intent and one outcome line per job action, none for the refused"

# --readonly: the keys say why.
e2e_start 120x32 --cluster llm-poc --view queue --readonly
e2e_wait "^ +$run " 15
e2e_keys c
e2e_wait 'read-only' 5
e2e_wait_gone 'Cancel jobs' 2
ok "--readonly refuses job actions with the reason"
e2e_keys q
e2e_wait 'EXIT=0' 10
