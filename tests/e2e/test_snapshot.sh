#!/usr/bin/env bash
# Recorded snapshots: `--record FILE` writes the live cluster (the same
# jobs squeue lists), `--snapshot FILE` opens the console on it in tmux
# without reaching any cluster (SLURM_CONF pointing nowhere): the queue and
# nodes as recorded, a header that says so, actions refused. A broken file
# is refused before the screen, and a failed recording leaves no file.
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
snap=$work/llm-poc.jsonl

out=$("$OC_BIN" --cluster llm-poc --record "$snap" </dev/null) || fail "--record failed"
grep -Eq "^recorded $snap: 16 nodes, [0-9]+ partitions?, [0-9]+ jobs?, [0-9]+ reservations?$" <<<"$out" || fail "--record said: $out"
[[ ! -e $snap.tmp ]] || fail "--record left its temporary file"
grep -q '"schema":"opsconsole.snapshot/1"' <<<"$(head -1 "$snap")" || fail "no snapshot header"
recorded=$(grep -c '"t":"job"' "$snap")
live=$(squeue --all -h -t all -o %i | wc -l)
((recorded > 0 && recorded == live)) || fail "recorded $recorded jobs, squeue lists $live"
ok "--record: 16 nodes and the $recorded jobs squeue lists"
running=$(squeue -h -t R -o '%i %N' | sed -n 1p)
jobid=${running%% *}
[[ -n $jobid ]] || fail "the demo has no running job"

# The console on the file, with no cluster to reach.
E2E_ENV="SLURM_CONF=/nonexistent" e2e_start 120x30 --snapshot "$snap" --view queue
e2e_wait '\[recorded snapshot\] +recorded [0-9-]+ [0-9:]+' 10
e2e_wait "^ +$jobid +[a-z]+ " 5
ok "--snapshot: the queue as recorded, the header says so"
e2e_keys 3
e2e_wait '^ gpu-st-b300-7 +drain' 5
e2e_keys d
e2e_wait 'a recorded snapshot \(--snapshot\): nothing here reaches a cluster' 5
ok "--snapshot: the nodes view, and actions refused"
e2e_keys Escape 5
e2e_wait 'a recorded snapshot holds no association manager' 5
e2e_wait_gone 'STALE' 2
ok "--snapshot: the quota view says the limits are not recorded"
e2e_keys q
e2e_wait 'EXIT=0' 5

# Bad files and failed recordings change nothing and say why.
rc=0
msg=$("$OC_BIN" --snapshot /etc/passwd 2>&1 </dev/null) || rc=$?
((rc == 1)) && grep -q '/etc/passwd:1: ' <<<"$msg" || fail "a non-snapshot file: rc $rc: $msg"
head -n -1 "$snap" >"$work/cut.jsonl"
rc=0
msg=$("$OC_BIN" --snapshot "$work/cut.jsonl" 2>&1 </dev/null) || rc=$?
((rc == 1)) && grep -q 'truncated: ' <<<"$msg" || fail "a truncated snapshot: rc $rc: $msg"
rc=0
msg=$("$OC_BIN" --cluster llm-poc --record /nonexistent/dir/x.jsonl 2>&1 </dev/null) || rc=$?
((rc == 1)) && grep -q 'No such file or directory' <<<"$msg" || fail "recording into a missing dir: rc $rc: $msg"
rc=0
msg=$("$OC_BIN" --cluster llm-poc --record "$work/x.jsonl" --once queue 2>&1 </dev/null) || rc=$?
((rc == 2)) || fail "--record with --once: rc $rc: $msg"
[[ ! -e $work/x.jsonl ]] || fail "a refused recording wrote a file"
ok "bad snapshots and recordings are refused with a message"
