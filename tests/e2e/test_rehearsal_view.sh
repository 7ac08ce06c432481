#!/usr/bin/env bash
# The rehearsal view: a configuration-audit step runs from the console and
# passes with its evidence; the operator skips a step with a note; the
# progress survives closing the console; :report writes Markdown and JSON
# with every step. A configuration step judges what slurmctld has when it
# runs: after a restart with another KillWait, the same console's
# cfg-killwait fails naming it.
. "$(dirname "$0")/lib.sh"

state=$(mktemp -d)
e2e_on_exit rm -rf "$state"
E2E_ENV="XDG_STATE_HOME=$state" e2e_start 120x34 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
e2e_keys 8
e2e_wait '^ +1 ----  cfg-default-partition' 10
e2e_keys Enter
e2e_wait '^ +1 PASS  cfg-default-partition' 20
e2e_wait 'Evidence: normal: Default=YES' 5
ok "a step runs from the console and passes with its evidence"
e2e_keys Down Down :
e2e_type 'skip checked by hand with scontrol'
e2e_keys Enter
e2e_wait '^ +3 SKIP' 5
e2e_wait 'Notes: +checked by hand with scontrol' 5
ok "the operator skips a step with a note"
e2e_keys q
e2e_wait 'EXIT=0' 5

E2E_ENV="XDG_STATE_HOME=$state" e2e_start 120x34 --cluster llm-poc --view rehearsal
e2e_wait '^ +1 PASS  cfg-default-partition' 10
e2e_wait '^ +3 SKIP' 5
ok "the progress survives closing the console"
e2e_keys :
e2e_type 'report'
e2e_keys Enter
e2e_wait 'report written: ' 10
md=$(ls "$state"/opsconsole/rehearsal-llm-poc-*/report.md | head -1)
json=${md%.md}.json
[ -s "$md" ] && [ -s "$json" ] || fail "report files missing in $state"
python3 - "$json" <<'PY' || fail "report.json"
import json, sys
r = json.load(open(sys.argv[1]))
text = json.dumps(r)
for sid in ("cfg-default-partition", "cfg-gpu-root-only", "drill-slurmctld-restart"):
    assert sid in text, sid
PY
grep -q 'cfg-default-partition' "$md" || fail "report.md lacks the step"
ok "the report (Markdown and JSON) names every step"
e2e_keys q
e2e_wait 'EXIT=0' 5

# A configuration changed while the console runs (slurmctld restarted with
# KillWait=120): cfg-killwait, run again in the same console, judges the
# new value, not the one loaded when the console connected.
cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
E2E_ENV="XDG_STATE_HOME=$state" e2e_start 120x34 --cluster llm-poc --view rehearsal
e2e_wait '^ +7 ----  cfg-killwait' 10
e2e_keys Down Down Down Down Down Down Enter
e2e_wait '^ +7 PASS  cfg-killwait' 20
e2e_wait 'KillWait=300 sec' 5
e2e_on_exit "$cluster" start # the default slurm.conf back
"$cluster" start --conf-override KillWait=120 >/dev/null || fail "cluster.sh start --conf-override KillWait=120"
e2e_keys Enter
e2e_wait '^ +7 FAIL  cfg-killwait' 30
e2e_wait 'KillWait=120 sec' 5
ok "a step run after the change judges the new configuration (KillWait=120 sec)"
"$cluster" start >/dev/null || fail "cluster.sh start (the default slurm.conf back)"
e2e_keys Enter
e2e_wait '^ +7 PASS  cfg-killwait' 30
ok "and the restored one (KillWait=300 sec)"
e2e_keys q
e2e_wait 'EXIT=0' 5

# A cluster without a checklist of its own (this cluster's profile under
# another name) gets the default one, and the view says so.
xdg=$(mktemp -d)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg"
jq '.name = "other-cluster"' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" \
	>"$xdg/opsconsole/clusters/other-cluster.json"
chmod 0600 "$xdg/opsconsole/clusters/other-cluster.json"
E2E_ENV="XDG_STATE_HOME=$state XDG_CONFIG_HOME=$xdg" e2e_start 120x34 --cluster other-cluster --view rehearsal
e2e_wait "NOT this cluster's checklist" 10
e2e_wait 'cfg-default-partition' 5
ok "another cluster's checklist is marked as such in the view"
e2e_keys q
e2e_wait 'EXIT=0' 5

# Issue 21, rule 9: a step's why is English, readable under LANG=C (no
# line of "?" for the Korean runbook); its runbook quote is shown where
# the locale is UTF-8, and only there.
E2E_LANG=C E2E_ENV="XDG_STATE_HOME=$state" e2e_start 80x24 --cluster llm-poc --view rehearsal
e2e_wait '^Why: +9-1: partitions: the default partition is normal' 10
e2e_snap
grep -q '??' <<<"$E2E_LAST" && fail "LANG=C: question marks for text the locale cannot show:"$'\n'"$E2E_LAST"
grep -q '^Runbook:' <<<"$E2E_LAST" && fail "LANG=C: the runbook quote is shown"
ok "LANG=C: the why in English, no runbook quote"
e2e_keys q
e2e_wait 'EXIT=0' 5
E2E_ENV="XDG_STATE_HOME=$state" e2e_start 80x24 --cluster llm-poc --view rehearsal
e2e_wait '^Why: +9-1: partitions' 10
e2e_wait '^Runbook: 9-1: 파티션' 5
ok "UTF-8: the runbook quote under the why"
e2e_keys q
e2e_wait 'EXIT=0' 5

# Issue 21, rule 10: at 200x50 the list does not move from step to step,
# and the detail above it is no taller than the longest step's (one step
# fills it: no blank line above the title); after a look at another view,
# the cursor is back on the same step.
E2E_ENV="XDG_STATE_HOME=$state" e2e_start 200x50 --cluster llm-poc --view rehearsal
e2e_wait '^ +# STATE STEP' 10
nsteps=$(grep -oE ' [0-9]+ steps' <<<"$E2E_LAST" | head -1 | tr -dc '0-9')
[ "$nsteps" -gt 10 ] || fail "only $nsteps steps listed"
sel_line() { e2e_capture_escapes | grep -nP '\x1b\[47m *[0-9]+ ' | head -1 | cut -d: -f1; }
[ -n "$(sel_line)" ] || fail "no selected row found (black on white)"
title_row="" least_blank=99
for ((i = 1; i <= nsteps; i++)); do
	e2e_snap
	row=$(grep -nE '^ +# STATE STEP' <<<"$E2E_LAST" | cut -d: -f1)
	[ -z "$title_row" ] && title_row=$row
	[ "$row" = "$title_row" ] || fail "step $i: the list's title moved from line $title_row to $row"
	blank=0
	for ((k = row - 1; k > 3; k--)); do
		[ -z "$(sed -n "${k}p" <<<"$E2E_LAST" | tr -d ' ')" ] || break
		blank=$((blank + 1))
	done
	[ "$blank" -lt "$least_blank" ] && least_blank=$blank
	[ "$i" -lt "$nsteps" ] || break
	# The selected row (the theme's black on white) moves one line down.
	before=$(sel_line)
	e2e_keys Down
	end=$((SECONDS + 5))
	while [ "$(sel_line)" = "$before" ]; do
		[ "$SECONDS" -lt "$end" ] || fail "Down did not move to step $((i + 1))"
		sleep 0.05
	done
done
[ "$least_blank" -eq 0 ] || fail "every step leaves at least $least_blank blank lines above the list"
ok "200x50: the list stays in place from step to step, the detail as tall as the longest"
e2e_keys Home Down Down Down Down
e2e_wait '^Why: +8-3: JobRequeue=1' 5
e2e_keys 3
e2e_wait '^ NODE +STATE' 5
e2e_keys 8
e2e_wait '^ +# STATE STEP' 5
e2e_wait '^Why: +8-3: JobRequeue=1' 5
ok "back from another view, the cursor is on the same step"
e2e_keys q
e2e_wait 'EXIT=0' 5
