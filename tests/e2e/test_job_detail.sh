#!/usr/bin/env bash
# Enter on a job in the queue view opens its detail panel, with Slurm's
# reason explained from live data: a held job says who holds it; a job of
# team-a asking 72 GPUs against GrpTRES gres/gpu=64 says the account's use,
# the limit and what it asks, as squeue's AssocGrpGRES means. A job key in
# the panel acts on the job shown; Esc closes it.
. "$(dirname "$0")/lib.sh"

name="e2e-detail-$$"
e2e_cancel_on_exit "$name-h" "$name-g"
held=$(runuser -u alice -- sbatch --parsable -J "$name-h" -p large --qos large_qos -N1 --time=10 --mem=1G \
	--output=/dev/null --hold --wrap='sleep 600')
big=$(runuser -u bob -- sbatch --parsable -J "$name-g" -p large --qos large_qos -N9 --gres=gpu:8 --time=10 \
	--mem=1G --output=/dev/null --wrap='sleep 600')
[ -n "$held" ] && [ -n "$big" ] || fail "sbatch gave no job id"
wait_cmd 30 sh -c "[ \"\$(squeue -h -j $big -o %r)\" = AssocGrpGRES ]"

e2e_start 110x32 --cluster llm-poc --view queue
e2e_wait "^ +$held " 15
e2e_keys /
e2e_type "$name-h"
e2e_keys Enter
e2e_wait "1 jobs" 5
e2e_keys Enter
e2e_wait "job $held " 5
e2e_wait "State +PENDING +reason JobHeldUser" 5
e2e_wait "Why +Held by its user" 5
e2e_wait "User +alice +account team-a" 5
ok "a held job's panel says who holds it"
e2e_keys Escape
e2e_wait_gone "job $held " 5

e2e_keys /
e2e_keys C-u
e2e_type "$name-g"
e2e_keys Enter
e2e_wait "^ +$big " 10
e2e_keys Enter
e2e_wait "reason AssocGrpGRES" 5
e2e_wait "Why +team-a uses [0-9]+ of 64 GPUs \(GrpTRES gres/gpu=64\); this job asks 72 more" 5
e2e_wait "Size +9 nodes, [0-9]+ CPUs, 72 GPUs \(8 per node\)" 5
ok "AssocGrpGRES explained with team-a's use, its limit and the 72 GPUs asked"

# A job key in the panel: hold the job shown (its form names it).
e2e_keys h
e2e_wait "Hold jobs" 5
e2e_wait "Jobs +$big" 5
e2e_keys Escape
e2e_wait_gone "Hold jobs" 5
ok "h in the panel opens the hold form for the job shown"
e2e_keys q
e2e_wait 'EXIT=0' 10
