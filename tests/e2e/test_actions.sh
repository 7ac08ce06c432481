#!/usr/bin/env bash
# Write actions end to end: drain three tagged nodes with a hostile reason
# (quotes, $(...), ;) and read it back with scontrol; resume them; create a
# maintenance reservation on two nodes and check MAINT,IGNORE_JOBS; delete
# it; each apply leaves one audit line. Then --readonly and a non-operator
# user: writes are refused with the reason, and nothing is audited.
. "$(dirname "$0")/lib.sh"

audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
[ -n "$audit" ] || fail "the test profile names no audit_log"
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)
reason='disk "bad" $(reboot); `id` '\''x'\'' 점검'
e2e_on_exit scontrol update NodeName='gpu-st-b300-[9-11]' State=RESUME
e2e_on_exit sh -c "scontrol show res -o | sed -n 's/ReservationName=\\(e2e_[^ ]*\\).*/\\1/p' | xargs -r -n1 scontrol delete ReservationName"

e2e_start 120x30 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-9 ' 15
e2e_wait_gone '\[view only\]|\[read-only\]' 5
# Tag 9, 10, 11.
e2e_keys /
e2e_type 'b300-9'
e2e_keys Enter Space Escape
e2e_keys /
e2e_type 'b300-10'
e2e_keys Enter Space Escape
e2e_keys /
e2e_type 'b300-11'
e2e_keys Enter Space Escape
e2e_wait '3 tagged' 5
e2e_keys d
e2e_wait 'Drain nodes' 5
e2e_wait 'Nodes +gpu-st-b300-\[9-11\]' 5
e2e_type "$reason"
e2e_keys Enter
e2e_wait 'Confirm: Drain nodes' 5
e2e_wait "scontrol update NodeName='gpu-st-b300-\[9-11\]' State=DRAIN" 5
# (wider than the panel: the reason on the next line, e2e.copy_commands)
e2e_wait " +Reason='disk \"bad\"" 5
ok "confirmation shows the equivalent command"
e2e_keys Enter
e2e_wait 'drained 3 nodes: gpu-st-b300-\[9-11\]' 20
for n in 9 10 11; do
	got=$(scontrol show node "gpu-st-b300-$n" | sed -n 's/^ *Reason=\(.*\) \[root@.*$/\1/p')
	[ "$got" = "$reason" ] || fail "gpu-st-b300-$n reason is [$got], want [$reason]"
done
ok "three nodes drained with the reason exactly as typed"
e2e_keys Escape

# Resume them: a hostlist typed by hand.
e2e_keys R
e2e_wait 'Resume nodes' 5
e2e_keys C-u
e2e_type 'gpu-st-b300-[9-11]'
e2e_keys Enter
e2e_wait "State=RESUME" 5
e2e_keys Enter
e2e_wait 'resumed 3 nodes' 20
for n in 9 10 11; do
	st=$(sinfo -h -n "gpu-st-b300-$n" -o %t | sed -n 1p)
	case $st in drain* | drng* | down*) fail "gpu-st-b300-$n is $st after resume" ;; esac
done
ok "resumed, sinfo agrees"
e2e_keys Escape

# A bad hostlist is refused in the form, nothing applied. (The form
# opens on the Nodes field when nothing is tagged or selected... here the
# selected node fills it, so the cursor is on Reason.)
e2e_keys d
e2e_wait 'Drain nodes' 5
e2e_type 'x'
e2e_keys BTab C-u
e2e_type 'gpu-st-b300-[3-'
e2e_keys Enter
e2e_wait 'Nodes: ' 5
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 5
ok "a bad hostlist is refused before anything is applied"

# Maintenance reservation on two nodes, from the nodes view.
e2e_keys m
e2e_wait 'Create a maintenance reservation' 5
e2e_keys C-u
e2e_type "e2e_maint_$$"
e2e_keys Tab C-u
e2e_type 'gpu-st-b300-[13-14]'
e2e_keys Enter
e2e_wait 'Confirm: Create a maintenance reservation' 5
e2e_wait "scontrol create reservation ReservationName=e2e_maint_$$" 5
# The runbook's default duration (infinite) in words, before and after.
e2e_wait "When: now, until deleted \(Duration=UNLIMITED\)" 5
# (the command wraps in the panel: its flags are checked with scontrol below)
e2e_keys Enter
e2e_wait "created reservation e2e_maint_$$ on gpu-st-b300-\[13-14\] until deleted" 20
e2e_wait "from: +[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} until deleted" 5
grep -q 'Flags=.*MAINT.*IGNORE_JOBS' <<<"$(scontrol show res "e2e_maint_$$")" || fail "scontrol: flags"
grep -q 'Nodes=gpu-st-b300-\[13-14\]' <<<"$(scontrol show res "e2e_maint_$$")" || fail "scontrol: nodes"
ok "reservation created with MAINT,IGNORE_JOBS on the two nodes"
e2e_keys Escape
e2e_keys 6
e2e_wait "^e2e_maint_$$ " 15
e2e_keys /
e2e_type "e2e_maint_$$"
e2e_keys Enter x
e2e_wait "scontrol delete ReservationName=e2e_maint_$$" 5
e2e_keys Enter
e2e_wait "deleted reservation e2e_maint_$$" 20
scontrol show res "e2e_maint_$$" >/dev/null 2>&1 && fail "reservation still there"
ok "reservation deleted"
e2e_keys Escape

# The audit log: an intent line before each apply, an outcome line with
# the same id after it, the reason verbatim.
e2e_keys 7
e2e_wait "resv.delete +e2e_maint_$$ +ok" 10
ok "the audit view lists the actions"
# Enter opens an entry whole (issue 21, rule 1): every field, the command
# wrapped, not cut.
e2e_keys /
e2e_type 'node.drain'
e2e_keys Enter Home Enter
e2e_wait '─ audit: node.drain ' 5
e2e_wait '│ Targets +gpu-st-b300-\[9-11\] ' 5
e2e_wait "│ Command +scontrol update NodeName='gpu-st-b300-\[9-11\]' State=DRAIN" 5
e2e_wait '│ Result +ok ' 5
e2e_keys Escape
e2e_wait_gone '─ audit: ' 5
ok "Enter opens an audit entry whole"
e2e_keys q
e2e_wait 'EXIT=0' 5
lines_after=$(wc -l <"$audit")
[ $((lines_after - lines_before)) -eq 8 ] || fail "audit: $((lines_after - lines_before)) new lines, want 8"
tail -n 8 "$audit" | python3 -c '
import json, sys
want = sys.argv[1]
lines = [json.loads(l) for l in sys.stdin]
intents, recs = lines[0::2], lines[1::2]
for i, o in zip(intents, recs):
    assert i["phase"] == "intent" and o["phase"] == "outcome", (i, o)
    assert i["id"] == o["id"] and len(i["id"]) == 16, (i, o)
    assert "result" not in i and i["action"] == o["action"] and i["command"] == o["command"], (i, o)
assert len({r["id"] for r in recs}) == 4, recs
acts = [(r["action"], r["result"]) for r in recs]
assert acts == [("node.drain", "ok"), ("node.resume", "ok"), ("resv.create", "ok"), ("resv.delete", "ok")], acts
drain = [r for r in recs if r["action"] == "node.drain"][0]
assert drain["params"]["reason"] == want, drain
assert drain["targets"] == "gpu-st-b300-[9-11]", drain
assert drain["user"] == "root", drain
assert "State=DRAIN" in drain["command"], drain
for r in recs:
    assert r["schema"] == 2 and r["cluster"] == "llm-poc", r
' "$reason" || fail "audit lines"
ok "audit log: intent then outcome (same id) per apply, reason verbatim"
