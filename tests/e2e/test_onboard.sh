#!/usr/bin/env bash
# Onboarding end to end on the real cluster: team-c with two existing OS
# users, GPU quota 32, QoS debug_qos+normal_qos, DefaultQOS normal_qos,
# through the console's form; sacctmgr shows exactly that; a job of one of
# the users is accounted to team-c; the same onboarding from a file says
# "nothing to change"; a step that fails (a QoS removed between the
# preview and the apply) gives the partial report, and a re-run completes.
. "$(dirname "$0")/lib.sh"

assoc() { sacctmgr -P -n show assoc where account="$1" format=account,user,qos,defaultqos,grptres; }
drop_account() {
	sacctmgr -i delete user where account="$1" >/dev/null 2>&1 || true
	sacctmgr -i delete account "$1" >/dev/null 2>&1 || true
}
drop_account team-c
drop_account team-d
sacctmgr -i delete qos e2e_tmp_qos >/dev/null 2>&1 || true
e2e_on_exit drop_account team-c
e2e_on_exit drop_account team-d
e2e_on_exit sacctmgr -i delete qos e2e_tmp_qos
tmp=$(mktemp -d)
e2e_on_exit rm -rf "$tmp"

# --- the form ---------------------------------------------------------------
e2e_start 120x32 --cluster llm-poc --view quota
e2e_wait '^ *[+-] team-a ' 15
# o on an account asks: a new team, or a change of that one (issue 21,
# rule 8); Esc cancels.
row=$(grep -nE '^ *[+-] team-a ' <<<"$E2E_LAST" | cut -d: -f1)
first=$(grep -nE '^ *[+-] [a-z]' <<<"$E2E_LAST" | head -1 | cut -d: -f1)
e2e_keys Home
for ((i = first; i < row; i++)); do e2e_keys Down; done
e2e_keys o
e2e_wait '─ Onboarding \(sacctmgr\) ' 5
e2e_wait '>  ?c  change team team-a' 5
e2e_keys Escape
e2e_wait_gone 'Onboarding \(sacctmgr\)' 5
e2e_keys o
e2e_wait '─ Onboarding \(sacctmgr\) ' 5
e2e_keys c
e2e_wait 'Change a team \(sacctmgr\)' 5
e2e_wait '│ Account +team-a ' 5
e2e_keys Escape
e2e_wait_gone 'Change a team' 5
e2e_keys o
e2e_wait '─ Onboarding \(sacctmgr\) ' 5
e2e_keys n
e2e_wait 'Onboard a team \(sacctmgr\)' 5
e2e_wait '│ Account +│' 5
e2e_keys Escape
e2e_wait_gone 'Onboard a team' 5
ok "o on team-a offers a new team or a change of team-a"
e2e_keys :
e2e_type 'onboard'
e2e_keys Enter
e2e_wait 'Onboard a team \(sacctmgr\)' 5
e2e_type 'team-c'
e2e_keys Tab
e2e_type 'Team C'
e2e_keys Tab Tab
e2e_type '32'
e2e_keys Tab
e2e_type 'debug_qos,bogus_qos'
e2e_wait 'QoS: no QoS bogus_qos on this cluster' 5
ok "QoS are checked as typed"
e2e_keys C-u
e2e_type 'debug_qos,normal_qos'
e2e_keys Tab
e2e_type 'normal_qos'
e2e_keys Tab Tab
e2e_type 'carol,dave'
e2e_wait 'note: carol is in team-b already; added here, the default account stays' 5
ok "a user already in another team is noted, with what it means for the default account"
e2e_keys Enter
e2e_wait 'Confirm: Onboard a team' 20
e2e_wait '\+ account team-c: new' 5
e2e_wait '\+ GrpTRES gres/gpu=32' 5
e2e_wait "sacctmgr -i add account Name=team-c" 5
ok "preview: new things marked + and the sacctmgr commands in order"
e2e_keys Enter
e2e_wait 'onboarded team-c' 60
e2e_wait 'Read back: associations, QoS and GrpTRES are as asked' 5
ok "applied and read back"
e2e_keys Escape q
e2e_wait 'EXIT=0' 5

a=$(assoc team-c)
echo "$a"
grep -q '^team-c||.*|normal_qos|gres/gpu=32$' <<<"$a" || fail "team-c account association: $a"
for u in carol dave; do
	line=$(grep "^team-c|$u|" <<<"$a") || fail "no association for $u in team-c"
	grep -q 'debug_qos' <<<"$line" || fail "$u lacks debug_qos: $line"
	grep -q 'normal_qos' <<<"$line" || fail "$u lacks normal_qos: $line"
	grep -q '|normal_qos|' <<<"$line" || fail "$u DefaultQOS: $line"
done
grep -q 'large_qos\|exclusive_qos' <<<"$a" && fail "team-c got QoS it did not ask for: $a"
ok "sacctmgr: account, users, QoS, DefaultQOS and GrpTRES exactly as asked"

job=$(runuser -u carol -- sbatch --parsable -A team-c -p normal --qos=normal_qos -J e2e-onb --mem=1G \
	--wrap 'sleep 300' 2>&1) || fail "sbatch as carol in team-c: $job"
job=${job%%;*}
e2e_on_exit scancel "$job"
[ "$(squeue -h -j "$job" -o %a)" = team-c ] || fail "job $job not accounted to team-c"
ok "a job of carol is accounted to team-c"
scancel "$job"

# --- the same onboarding from a file: nothing to change -------------------------
cat >"$tmp/team-c.json" <<'JSON'
{"account": "team-c", "description": "Team C", "parent": "root", "gpu_quota": 32,
 "qos": ["debug_qos", "normal_qos"], "default_qos": "normal_qos", "users": ["carol", "dave"]}
JSON
out=$("$OC_BIN" onboard --cluster llm-poc --file "$tmp/team-c.json" --yes 2>&1) || fail "re-run failed: $out"
grep -q 'nothing to change' <<<"$out" || fail "re-run should change nothing: $out"
ok "the same onboarding again from a file: nothing to change"

rc=0; out=$("$OC_BIN" onboard --cluster llm-poc --file "$tmp/team-c.json" 2>&1 </dev/null) || rc=$?
[ $rc -eq 0 ] || fail "no-op without a terminal: exit $rc: $out"
printf '{"account": "team-c", "gpu_quota": -3}\n' >"$tmp/bad.json"
rc=0; out=$("$OC_BIN" onboard --cluster llm-poc --file "$tmp/bad.json" --yes 2>&1) || rc=$?
[ $rc -eq 2 ] || fail "bad quota: exit $rc"
grep -q 'gpu_quota' <<<"$out" || fail "bad quota message: $out"
printf '{"account": "team-c",\n "users": ["carol",]}\n' >"$tmp/broken.json"
rc=0; out=$("$OC_BIN" onboard --cluster llm-poc --file "$tmp/broken.json" --yes 2>&1) || rc=$?
[ $rc -eq 2 ] || fail "broken json: exit $rc"
grep -Eq 'broken.json:2:[0-9]+' <<<"$out" || fail "broken json message: $out"
ok "bad files are refused with a clear message (path:line:col), nothing applied"

# --- a step fails between preview and apply, then a re-run completes -----------
sacctmgr -i add qos e2e_tmp_qos >/dev/null
cat >"$tmp/team-d.json" <<'JSON'
{"account": "team-d", "description": "Team D", "gpu_quota": 16,
 "qos": ["normal_qos", "e2e_tmp_qos"], "default_qos": "normal_qos", "users": ["carol"]}
JSON
e2e_start_shell 120x40
e2e_wait 'e2e\$ *$' 10
e2e_keys "$OC_BIN onboard --cluster llm-poc --file $tmp/team-d.json" Enter
e2e_wait 'Apply [0-9]+ steps\? \[y/N\]' 30
sacctmgr -i delete qos e2e_tmp_qos >/dev/null
e2e_keys y Enter
e2e_wait 'partial: [0-9]+ of [0-9]+ steps applied, stopped at the first failure' 60
e2e_wait 'FAILED: ' 5
ok "a QoS removed in between: the step fails, the partial report says what was applied"
sacctmgr -i add qos e2e_tmp_qos >/dev/null
out=$("$OC_BIN" onboard --cluster llm-poc --file "$tmp/team-d.json" --yes 2>&1) || fail "completing re-run failed: $out"
grep -q 'onboarded team-d' <<<"$out" || fail "re-run: $out"
grep -q 'as asked' <<<"$out" || fail "re-run read-back: $out"
a=$(assoc team-d)
grep -q '^team-d|carol|.*e2e_tmp_qos' <<<"$a" || fail "team-d after re-run: $a"
ok "the re-run completed what was missing"
