#!/usr/bin/env bash
# A job submitted with sbatch while the console runs appears in the queue
# view without a restart, with its state; cancelling it makes it go.
. "$(dirname "$0")/lib.sh"

e2e_start 100x30 --cluster llm-poc --view queue
e2e_wait '^ +JOBID +PARTITION' 15
name="e2e-live-$$"
jobid=$(runuser -u alice -- sbatch --parsable -p debug --qos=debug_qos -A team-a -J "$name" \
	--wrap 'sleep 600' 2>&1) || fail "sbatch failed: $jobid"
jobid=${jobid%%;*}
e2e_on_exit scancel "$jobid"
e2e_wait "^ +$jobid +debug +e2e-live\\S* +alice +team-a +(R|PD|CF) " 15
ok "job $jobid appeared in the queue view"
state=$(squeue -h -j "$jobid" -o %t)
e2e_wait "^ +$jobid .* $state " 10
ok "its state matches squeue ($state)"

# Once a second the clock moves and only what changed is drawn again
# (screen.c draw_tick): the running job's TIME advances with no key
# pressed, and the screen drawn that way is the screen a whole draw makes
# (after a key), clock figures aside, attributes included.
# A job that runs: on an idle node (debug's may be busy with the demo).
idle=$(sinfo -h -N -p large -o '%n %t' | awk '$2 == "idle" { print $1; exit }') # idle, not drained
[ -n "$idle" ] || fail "no idle node in large for a running job"
rjob=$(runuser -u alice -- sbatch --parsable -p large --qos=large_qos -A team-a -J "$name-r" -w "$idle" \
	--chdir=/tmp -o /dev/null --wrap 'sleep 600' 2>&1) || fail "sbatch failed: $rjob"
rjob=${rjob%%;*}
e2e_on_exit scancel "$rjob"
wait_cmd 60 sh -c "[ \"\$(squeue -h -j $rjob -o %t)\" = R ]"
row_re="^ +$rjob +large +e2e-live\\S* +alice +team-a +R +([0-9:-]+) "
e2e_wait "$row_re" 15
[[ $(grep -E -- "$row_re" <<<"$E2E_LAST") =~ $row_re ]] || fail "no TIME in the row of $rjob"
t1=${BASH_REMATCH[1]}
e2e_wait_gone "^ +$rjob .* R +$t1 " 10
e2e_wait "$row_re" 2
ok "the running job's TIME moved on by itself ($t1, then more): the clock's redraw"
mask() { sed -E 's/[0-9]+:[0-9]{2}(:[0-9]{2})?/T/g; s/updated [0-9]+s ago/updated Ns ago/'; }
clock_of() { sed -n 1p <<<"$1" | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}' | tail -n 1; } # the header's clock
# A key draws the whole screen (the cursor moves down a row); then the
# clock's next second draws the changed cells only, over that.
before=$(e2e_capture_escapes | mask)
e2e_keys Down
end=$((SECONDS + 5))
while whole=$(e2e_capture_escapes) && [ "$(mask <<<"$whole")" = "$before" ]; do
	[ "$SECONDS" -lt "$end" ] || fail "Down did not move the cursor"
	sleep 0.05
done
end=$((SECONDS + 5))
while ticked=$(e2e_capture_escapes) && [ "$(clock_of "$ticked")" = "$(clock_of "$whole")" ]; do
	[ "$SECONDS" -lt "$end" ] || fail "the clock did not move on from $(clock_of "$whole")"
	sleep 0.05
done
if [ "$(mask <<<"$ticked")" != "$(mask <<<"$whole")" ]; then
	diff <(mask <<<"$whole") <(mask <<<"$ticked") >&2 || true
	fail "the screen the clock drew differs from the whole draw before it (diff above)"
fi
ok "the clock's partial draw is the whole draw, attributes included"
scancel "$jobid"
e2e_wait_gone "^ +$jobid " 20
ok "cancelled job left the queue view"
e2e_keys q
e2e_wait 'EXIT=0' 5
