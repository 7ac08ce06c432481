#!/usr/bin/env bash
# A job action sent while slurmctld does not answer (SIGSTOP): the keys
# keep answering while the worker waits; after the timeout the result says
# that slurmctld did not answer and that the request is applied or not
# once it recovers; after SIGCONT the job is either cancelled or untouched,
# never anything between, and the audit log has the intent and an outcome
# "unknown". (The same for node actions: test_action_timeout.sh.)
. "$(dirname "$0")/lib.sh"

ctld=$(cat "$OC_CLUSTER_DIR/run/slurmctld.pid")
kill -0 "$ctld" || fail "slurmctld is not running"
e2e_on_exit kill -CONT "$ctld"
audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)

name="e2e-jto-$$"
e2e_cancel_on_exit "$name"
job=$(runuser -u alice -- sbatch --parsable -J "$name" -p large --qos large_qos -N1 --time=10 --mem=1G \
	--output=/dev/null --hold --wrap='sleep 600')
[ -n "$job" ] || fail "sbatch gave no job id"

e2e_start 110x30 --cluster llm-poc --view queue
e2e_wait "^ +$job " 15
e2e_keys /
e2e_type "$name"
e2e_keys Enter
e2e_wait " 1 job([^s]|$)" 5
e2e_keys c
e2e_wait 'Cancel jobs' 5
e2e_wait "Jobs +$job" 5
e2e_keys Enter
e2e_wait "scancel $job" 5
kill -STOP "$ctld"
e2e_keys Enter
e2e_wait 'applying\.\.\.' 5
e2e_keys 1
e2e_wait 'applying\.\.\. \(the result appears here' 3
ok "keys answer while the job action waits on a stopped slurmctld"
e2e_wait 'Cancel jobs: NO ANSWER' 90
e2e_wait 'slurmctld did not answer in time' 5
ok "after the timeout: a clear message that slurmctld did not answer"
kill -CONT "$ctld"
e2e_keys Escape
wait_cmd 30 scontrol ping
st=$(squeue -h -j "$job" -t all -o %T 2>/dev/null || true)
case $st in
PENDING | CANCELLED | "") ;;
*) fail "job $job is half-way: '$st'" ;;
esac
ok "all or nothing after recovery (job $job: ${st:-gone})"
lines_after=$(wc -l <"$audit")
[ $((lines_after - lines_before)) -eq 2 ] || fail "want an intent and an outcome line, got $((lines_after - lines_before))"
grep -q '"phase":"intent"' <<<"$(tail -n 2 "$audit" | head -n 1)" || fail "audit intent line: $(tail -n 2 "$audit" | head -n 1)"
grep -q '"job.cancel"' <<<"$(tail -n 2 "$audit" | head -n 1)" || fail "audit intent is not the cancel: $(tail -n 2 "$audit" | head -n 1)"
grep -q '"result":"unknown"' <<<"$(tail -n 1 "$audit")" || fail "audit line: $(tail -n 1 "$audit")"
ok "the job action is audited: intent, then outcome unknown"
e2e_keys q
e2e_wait 'EXIT=0' 5
