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
scancel "$jobid"
e2e_wait_gone "^ +$jobid " 20
ok "cancelled job left the queue view"
e2e_keys q
e2e_wait 'EXIT=0' 5
