#!/usr/bin/env bash
# Hostile input (tests/corpus) through the console's forms and `onboard
# --file` against the real cluster: refused with a clear message and the
# cluster unchanged (nodes, reservations, accounts and QoS read back with
# sinfo, scontrol and sacctmgr), or, for a drain reason, accepted and
# arriving verbatim.
. "$(dirname "$0")/lib.sh"

corpus="$(dirname "$0")/../corpus"
tmp=$(mktemp -d)
e2e_on_exit rm -rf "$tmp"
node=gpu-st-b300-12
e2e_on_exit scontrol update NodeName="$node" State=RESUME

# What must not change: node states and reasons, reservations, the
# accounting (associations and QoS). The not-responding mark ('*') is left
# out: a ping a loaded slurmd misses (the ASan stage of CI) says nothing
# about the forms. So is whether a node runs jobs (idle, mixed, allocated,
# completing; draining and drained alike): a demo job that starts at its
# begin time during the test is not the forms' doing.
state() {
	sinfo -h -N -o '%N|%T|%E' | sed -E 's/\*\|/|/; s/\|(idle|mixed|allocated|completing|planned)\|/|up|/; s/\|(draining|drained)\|/|drain|/' | sort -u
	scontrol show res -o 2>/dev/null | sed -n 's/^\(ReservationName=[^ ]*\).*/\1/p' | sort
	sacctmgr -P -n show assoc format=account,user,qos,defaultqos,grptres,fairshare | sort
	sacctmgr -P -n show qos format=name,maxjobspu,maxsubmitpu,priority | sort
}
state >"$tmp/before"
# refused REGEX: the form shows REGEX and no confirmation opened.
refused() {
	e2e_wait "$1" 5
	if grep -q 'Confirm:' <<<"$E2E_LAST"; then fail "accepted instead of refused (/$1/)"; fi
}
# msg_blank: the form's message line (above its key hints) is empty.
msg_blank() {
	e2e_snap
	grep -B1 -E 'Enter (review|preview) ' <<<"$E2E_LAST" | head -1 | grep -Eq '^[^│]*│ +│ *$'
}
# try VALUE REGEX: clear the field, type VALUE, wait until the form's
# message line is empty (typing clears the last refusal, so a stale message
# cannot pass for this one), press Enter and expect the refusal REGEX.
# (Not for the onboarding form: it checks as typed.)
try() {
	e2e_keys C-u
	e2e_type "$1"
	wait_cmd 20 msg_blank || fail "the form's message did not clear after typing"
	e2e_keys Enter
	refused "$2"
}
unchanged() {
	state >"$tmp/after"
	diff "$tmp/before" "$tmp/after" >&2 || fail "the cluster changed: $1"
}

e2e_start 120x32 --cluster llm-poc --view nodes
e2e_wait "^ $node " 15
e2e_wait_gone '\[view only\]|\[read-only\]' 5
e2e_keys /
e2e_type 'b300-12'
e2e_keys Enter Escape

# --- drain form -----------------------------------------------------------
e2e_keys d
e2e_wait 'Drain nodes' 5
e2e_type "$(cat "$corpus/strings/long-10k")"
e2e_keys Enter
e2e_wait 'the reason is too long \(10240 bytes, at most 1024\)' 10
e2e_keys C-u Enter
e2e_wait 'Reason' 5
e2e_keys BTab C-u
for h in open-range:'never closed' range-100k:'more than the limit of 65536' shell-meta:"';' at offset" \
	big-number:'number at its end is above' suffix-after-range:"text after" space:'whitespace or control'; do
	e2e_keys C-u
	e2e_type "$(cat "$corpus/hostlists/${h%%:*}")"
	e2e_keys Enter
	e2e_wait "Nodes: .*${h#*:}" 5
	ok "drain form: hostlist ${h%%:*} refused: $(e2e_line 'Nodes: ' | sed 's/^.*Nodes: /Nodes: /; s/ *│$//')"
done
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 5
unchanged "after the refused drain forms"
ok "drain form: every refusal left the cluster as it was"

# A reason with shell characters, a format string, UTF-8: accepted and
# sent verbatim (no shell anywhere).
reason='x;$(reboot) `id` ${HOME} %n%s%x "dq" '\''sq'\'' | & > < 温度 –'
e2e_keys d
e2e_wait 'Drain nodes' 5
e2e_type "$reason"
e2e_keys Enter
e2e_wait 'Confirm: Drain nodes' 5
e2e_keys Enter
e2e_wait "drained 1 node: $node" 20
got=$(scontrol show node "$node" | sed -n 's/^ *Reason=\(.*\) \[root@.*$/\1/p')
[ "$got" = "$reason" ] || fail "reason is [$got], want [$reason]"
ok "a hostile reason arrives verbatim"
e2e_keys Escape
scontrol update NodeName="$node" State=RESUME
wait_cmd 20 sh -c "sinfo -h -n $node -o %t | grep -qv drain"

# --- reservation form -----------------------------------------------------
nres=$(scontrol show res -o 2>/dev/null | grep -c ReservationName= || true)
e2e_keys m
e2e_wait 'Create a maintenance reservation' 5
for s in shell-meta:'reservation name: only' long-10k:'reservation name' backticks:'reservation name: only' \
	invalid-utf8:'Name: the terminal sent bytes that are not UTF-8' newline:'reservation name: only' \
	utf8-ok:'reservation name: only'; do
	try "$(tr '\n' ' ' <"$corpus/strings/${s%%:*}")" "${s#*:}"
done
ok "reservation names with shell characters, 10 KB, bad UTF-8 refused"
e2e_keys C-u
e2e_type "e2e_hostile_$$"
e2e_keys Tab C-u
e2e_type "$(cat "$corpus/hostlists/nested")"
e2e_keys Enter
refused 'Nodes: nested'
e2e_keys C-u
e2e_type "$node"
e2e_keys Tab C-u
for s in yesterday '2020-01-01T00:00' 'now+30' '$(date)' '25:99'; do
	try "$s" 'Start: '
done
ok "bad start times refused"
e2e_keys C-u
e2e_type now
e2e_keys Tab
for s in 2:30 0 -5 99999d '1-25:00:00' '`id`'; do
	try "$s" 'Duration: '
done
ok "bad durations refused"
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 5
[ "$(scontrol show res -o 2>/dev/null | grep -c ReservationName= || true)" = "$nres" ] || fail "a reservation appeared"
unchanged "after the refused reservation forms"
ok "reservation form: nothing created"

# --- onboarding form ------------------------------------------------------
e2e_keys :
e2e_type onboard
e2e_keys Enter
e2e_wait 'Onboard a team \(sacctmgr\)' 5
for s in shell-meta backticks leading-dash long-10k; do
	e2e_keys C-u
	e2e_type "$(cat "$corpus/strings/$s")"
	e2e_keys Enter
	refused 'Account: .*(not a name|too long|empty)'
done
ok "onboarding: hostile account names refused"
e2e_keys C-u
e2e_type "e2e-hostile"
e2e_keys Tab Tab Tab
for s in -5 '1e9;x' '$(id)'; do
	e2e_keys C-u
	e2e_type "$s"
	e2e_keys Enter
	refused 'GPU quota: '
done
ok "onboarding: bad GPU quotas refused"
e2e_keys C-u Tab Tab Tab Tab
for s in '`id`' 'carol;dave' 'a b'; do
	e2e_keys C-u
	e2e_type "$s"
	e2e_keys Enter
	refused '(Users|users\[0\]|user ).*(not a|name|does not exist)'
done
ok "onboarding: hostile user names refused"
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 5
e2e_keys q
e2e_wait 'EXIT=0' 5
unchanged "after the onboarding form"

# --- onboard --file with every broken onboarding file ----------------------
n=0
for f in "$corpus"/files/onboard/*.json; do
	cp "$f" "$tmp/$(basename "$f")"
	rc=0
	out=$("$OC_BIN" onboard --cluster llm-poc --file "$tmp/$(basename "$f")" --yes 2>&1 </dev/null) || rc=$?
	[ "$rc" = 2 ] || fail "onboard --file $(basename "$f"): exit $rc, want 2: $out"
	grep -q "$tmp/$(basename "$f")" <<<"$out" || fail "onboard --file $(basename "$f"): message without the path: $out"
	case $(basename "$f") in
	syntax-*) grep -Eq "$tmp/$(basename "$f"):[0-9]+:[0-9]+: " <<<"$out" || fail "no line:col: $out" ;;
	esac
	n=$((n + 1))
done
unchanged "after onboard --file"
ok "onboard --file: $n broken files refused (exit 2, path[:line:col]), accounting unchanged"

# --- a broken profile -------------------------------------------------------
prof="$XDG_CONFIG_HOME/opsconsole/clusters/e2e-broken.json"
e2e_on_exit rm -f "$prof"
install -m 0600 "$corpus/files/profile/syntax-truncated-object.json" "$prof"
rc=0
out=$("$OC_BIN" --cluster e2e-broken 2>&1 </dev/null) || rc=$?
[ "$rc" = 2 ] || fail "broken profile: exit $rc: $out"
grep -Eq "$prof:[0-9]+:[0-9]+: " <<<"$out" || fail "broken profile: no path:line:col: $out"
ok "a broken profile: exit 2 with path:line:col"
