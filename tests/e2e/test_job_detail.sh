#!/usr/bin/env bash
# Enter on a job in the queue view opens its detail panel, with Slurm's
# reason explained from live data: a held job says who holds it; a job of
# team-a asking 72 GPUs against GrpTRES gres/gpu=64 says the account's use,
# the limit and what it asks, as squeue's AssocGrpGRES means, and its
# priority factors as sprio prints them. A task of a job array shows its
# output path as scontrol prints it, the array's records, its submit line
# and its steps as sacct lists them; PgDn scrolls the panel on 80x24. A
# job key in the panel acts on the job shown; Esc closes it. With
# E2E_BACKEND=cli (e2e.job_detail_cli) the same through scontrol, sprio
# and sacct.
. "$(dirname "$0")/lib.sh"

name="e2e-detail-$$"
e2e_cancel_on_exit "$name-h" "$name-g" "$name-a" "$name-x"
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
e2e_wait " 1 job([^s]|$)" 5
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
# The priority factors: the partition's and the QoS's are fixed by the
# weights (the age and fair-share ones move with time and usage).
fac=$(sprio -h -j "$big" -o '%r|%P|%Q' | sed -n 1p)
IFS='|' read -r fpart fp fq <<<"$fac"
[ -n "$fp" ] || fail "sprio lists no factors for $big"
e2e_wait "Factors +${fpart// /}: age [0-9]+, fairshare [0-9]+, jobsize [0-9]+, partition ${fp// /}, qos ${fq// /}," 15
ok "the pending job's priority factors as sprio: partition ${fp// /}, qos ${fq// /}"

# A job key in the panel: hold the job shown (its form names it).
e2e_keys h
e2e_wait "Hold jobs" 5
e2e_wait "Jobs +$big" 5
e2e_keys Escape
e2e_wait_gone "Hold jobs" 5
ok "h in the panel opens the hold form for the job shown"

# An array task with two steps: its output path, the array's records, its
# steps as sacct lists them; 80x24 needs PgDn to see them.
arr=$(runuser -u alice -- sbatch --parsable -J "$name-a" -p large --qos large_qos -N1 --gres=gpu:1 --time=10 \
	--mem=1G -a 1-3%1 --output="/tmp/$name-%A_%a.out" --wrap='srun -n1 true; srun -n1 sleep 600')
[ -n "$arr" ] || fail "sbatch gave no job id"
e2e_on_exit rm -f "/tmp/$name-${arr}_1.out"
stepped() { grep -q "^[0-9_]*\.1|RUNNING" <<<"$(sacct -n -P -j "${arr}_1" -o JobID,State)"; }
wait_cmd 60 stepped
task=$(squeue -h -j "${arr}_1" -o %A)
out=$(scontrol --oneliner show job "$task" | grep -o 'StdOut=[^ ]*' | cut -d= -f2)
[ "$out" = "/tmp/$name-${arr}_1.out" ] || fail "scontrol says StdOut=$out"
e2e_tmux resize-window -t "$E2E_SESSION" -x 80 -y 24 2>/dev/null || true
e2e_keys /
e2e_keys C-u
e2e_type "$name-a"
e2e_keys Enter
e2e_wait "^ +${arr}_1 " 10
# The array's own record, as squeue prints it (its start: a job id of five
# digits or more makes it wider than the column).
e2e_wait "^ *${arr}_\\[2-3" 5
e2e_keys Home Enter
e2e_wait "job $task " 5
e2e_wait "Stdout +$out" 15
e2e_wait "lines 1-[0-9]+ of [0-9]+ +PgUp/PgDn" 5
e2e_keys NPage
e2e_wait "Array +2 records" 10
e2e_wait "${arr}_\[2-3%1\] +PENDING" 5
e2e_wait "> ${arr}_1 +RUNNING" 5
e2e_wait "Submitted as +sbatch --parsable -J $name-a " 5
while IFS='|' read -r sid sst sec; do
	sid=${sid#*.}
	e2e_wait "${sid} +${sst%% *} +${sec} " 15
done < <(sacct -n -P -j "${arr}_1" -o JobID,State,ExitCode | grep '\.')
ok "the array task: StdOut $out, the array's records, its submit line and its steps as sacct"
e2e_keys Escape
e2e_wait_gone "job $task " 5

# A het job of two components: both records, the one shown marked.
het=$(runuser -u alice -- sbatch --parsable -J "$name-x" -p large --qos large_qos -N1 --mem=1G --time=10 \
	--output=/dev/null : -p large --qos large_qos -N1 --mem=1G --wrap='sleep 600')
[ -n "$het" ] || fail "sbatch gave no het job id"
wait_cmd 60 sh -c "[ \"\$(squeue -h -j $het -o %T | sort -u)\" = RUNNING ]"
e2e_keys /
e2e_keys C-u
e2e_type "$name-x"
e2e_keys Enter
e2e_wait "^ +$het\+0 " 10
e2e_keys Home Enter
e2e_wait "job $het " 5
e2e_wait "Requeued +0 times" 15
e2e_keys NPage
e2e_wait "Het job +2 records" 10
e2e_wait "> $het\+0 +RUNNING +large" 5
e2e_wait "  $het\+1 +RUNNING +large" 5
ok "the het job $het: its two components, the one shown marked"
e2e_keys Escape
e2e_wait_gone "job $het " 5

# From the node's panel: Right picks its first job, Enter opens that job.
node=$(squeue -h -j "$task" -o %N)
e2e_keys 3
e2e_keys /
e2e_keys C-u
e2e_type "$node"
e2e_keys Enter
e2e_wait "^ $node " 10
e2e_keys Enter
e2e_wait "Jobs +[1-9][0-9]* running" 10
e2e_wait "Right: pick a job" 5
first=$(e2e_capture | grep -A1 -E "Jobs +[0-9]+ running" | tail -1 | grep -oE '[0-9]+ +[A-Z]+ ' | head -1 | awk '{print $1}' || true)
[ -n "$first" ] || { e2e_snap; fail "no job line under Jobs in $node's panel"; }
e2e_keys Right
e2e_wait "Enter: open the job" 5
e2e_keys Enter
e2e_wait "job $first " 10
e2e_wait "Nodes +.*" 5
ok "$node's panel: Right picks job $first, Enter opens it"
e2e_keys Escape
e2e_wait_gone "job $first " 5

e2e_keys q
e2e_wait 'EXIT=0' 10
