#!/usr/bin/env bash
# Quota view: team-a's used GPUs equal the sum of its running jobs' GPUs
# (from squeue) and its limit is 64; a job beyond the limit shows as
# blocked; expanding the account lists its users and QoS limits.
. "$(dirname "$0")/lib.sh"

gpus_running() { # account -> sum of gres/gpu of its running jobs
	squeue -h -A "$1" -t R -O 'tres-alloc:300' |
		sed -n 's/.*gres\/gpu=\([0-9]*\).*/\1/p' | awk '{s += $1} END {print s + 0}'
}

e2e_start 100x30 --cluster llm-poc --view quota
e2e_wait '^ *[+-] team-a ' 15
used=$(gpus_running team-a)
[ "$used" -gt 0 ] || fail "the demo workload should run team-a jobs"
e2e_wait "^ *[+-] team-a +$used/64 " 10
ok "team-a shows $used/64 GPUs, as squeue's running jobs add up"
used_b=$(gpus_running team-b)
e2e_wait "^ *[+-] team-b +$used_b/64 " 10
ok "team-b shows $used_b/64"
e2e_wait '^ *[+-] bench +0/NONE .*no GPU limit' 5
ok "an account without a GPU limit is flagged"

# A job beyond team-a's limit: pending on AssocGrpGRES, counted as blocked.
before=$(squeue -h -A team-a -t PD -o '%r' | grep -c '^AssocGrp' || true)
name="e2e-over-$$"
jobid=$(runuser -u bob -- sbatch --parsable -p large --qos=large_qos -A team-a -J "$name" -N 8 \
	--gres=gpu:8 --mem=1G --wrap 'sleep 600' 2>&1) || fail "sbatch failed: $jobid"
jobid=${jobid%%;*}
e2e_on_exit scancel "$jobid"
wait_cmd 20 sh -c "squeue -h -j $jobid -o %r | grep -q '^AssocGrp'"
after=$((before + 1))
e2e_wait "^ *[+-] team-a .* $after jobs? on limit" 15
ok "the job over the limit is counted as blocked ($after)"

# Expand team-a: users and QoS rows.
e2e_keys Home Down   # bench, team-a, team-b: rows are sorted by account
e2e_keys Enter
e2e_wait '^ +bob ' 5
e2e_wait 'qos normal_qos +MaxJobsPerUser [0-9]+/4 +MaxSubmitJobsPerUser [0-9]+/8' 5
ok "team-a expands into its users and its QoS limits"

# The jobs counted as on limit are listed under it with their ids (issue
# 21, rule 6); Enter on one opens its detail.
e2e_wait "^ +job $jobid $name \\(bob, 64 GPUs\\) pending: AssocGrp" 5
squeue -h -A team-a -t PD -o '%i %r' | while read -r id reason; do
	case "$reason" in AssocGrp*) grep -Eq "^ +job $id " <<<"$E2E_LAST" || fail "job $id on limit is not listed" ;; esac
done
row=$(grep -nE "^ +job $jobid " <<<"$E2E_LAST" | cut -d: -f1)
sel=$(grep -nE '^- team-a ' <<<"$E2E_LAST" | cut -d: -f1)
for ((i = sel; i < row; i++)); do e2e_keys Down; done
e2e_keys Enter
e2e_wait "job $jobid ─" 5
e2e_wait "Job +$jobid +$name" 5
e2e_wait 'AssocGrpGRES|GrpTRES' 5
e2e_keys Escape
e2e_wait "^ +job $jobid " 5
ok "the job on limit is listed under team-a with its id; Enter opens it"
e2e_keys q
e2e_wait 'EXIT=0' 5
