#!/usr/bin/env bash
# Scheduler health (what sdiag shows): `--once scheduler --json` with the
# libslurm and with the CLI backend, between two sdiag runs: every counter
# (jobs, cycles, RPC counts by message type and by user) lies between the
# two sdiag readings, and every RPC message type the console names has the
# name sdiag prints for that number (the libslurm backend names them from
# its own table: libslurm does not export Slurm's). The scheduler view (D)
# lists the RPC types.
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
e2e_on_exit rm -rf "$work"

# sdiag's numbers as "key value" lines: jobs and cycles, "type ID NAME
# COUNT", "user ID NAME COUNT".
sdiag_lines() {
	sdiag | awk '
		/^Main schedule statistics/ { sec = "main" } /^Backfilling stats/ { sec = "bf" }
		/^Remote Procedure Call statistics by message type/ { sec = "type"; next }
		/^Remote Procedure Call statistics by user/ { sec = "user"; next }
		/^Pending RPC/ { sec = "pending"; next }
		/^Jobs submitted:/ { print "jobs_submitted", $3 } /^Jobs started:/ { print "jobs_started", $3 }
		/^Jobs completed:/ { print "jobs_completed", $3 } /^Jobs canceled:/ { print "jobs_canceled", $3 }
		sec == "main" && /Total cycles:/ { print "main_cycles", $3 }
		sec == "bf" && /Total cycles:/ { print "bf_cycles", $3 }
		(sec == "type" || sec == "user") && /count:/ {
			name = $1; id = $0; sub(/^[^(]*\( */, "", id); sub(/\).*/, "", id)
			c = $0; sub(/.*count:/, "", c); sub(/ .*/, "", c)
			print sec, id, name, c }'
}

check() { # LABEL
	sdiag_lines >"$work/before"
	"$OC_BIN" --cluster llm-poc --once scheduler --json >"$work/ours.json"
	local rc=$?
	sdiag_lines >"$work/after"
	[ "$rc" -le 1 ] || fail "$1: --once scheduler exited $rc"
	jq -r '.rows[] | select(.group == "jobs" and (.item == "submitted" or .item == "started" or .item == "completed" or .item == "canceled")) | "jobs_\(.item) \(.number)"' "$work/ours.json" >"$work/ours"
	jq -r '.rows[] | select(.group == "main" and .item == "cycles") | "main_cycles \(.number)"' "$work/ours.json" >>"$work/ours"
	jq -r '.rows[] | select(.group == "rpc type" or .group == "rpc user") |
		(.item | capture("^(?<name>[A-Za-z0-9_.-]+) \\((?<id>[0-9]+)\\)$|^(RPC|uid) (?<id2>[0-9]+)$")) as $m |
		"\(.group | sub("rpc "; "")) \($m.id // $m.id2) \($m.name // "-") \(.number)"' "$work/ours.json" >>"$work/ours"
	[ "$(grep -c '^type ' "$work/ours")" -ge 5 ] || fail "$1: fewer than 5 RPC types: $(cat "$work/ours")"
	awk -v label="$1" '
		FILENAME == ARGV[1] { if ($1 == "type" || $1 == "user") { lo[$1 " " $2] = $4; nm[$1 " " $2] = $3 } else lo[$1] = $2; next }
		FILENAME == ARGV[2] { if ($1 == "type" || $1 == "user") { hi[$1 " " $2] = $4; nm[$1 " " $2] = $3 } else hi[$1] = $2; next }
		{
			if ($1 == "type" || $1 == "user") { k = $1 " " $2; v = $4 } else { k = $1; v = $2 }
			if (!(k in hi)) { print label ": " k " is not in sdiag"; bad = 1; next }
			l = (k in lo) ? lo[k] : 0
			if (v < l || v > hi[k]) { print label ": " k " = " v ", sdiag " l " then " hi[k]; bad = 1 }
			if ($1 == "type" && $3 != "-" && $3 != nm[k]) { print label ": RPC " $2 " named " $3 ", sdiag " nm[k]; bad = 1 }
		}
		END { exit bad }' "$work/before" "$work/after" "$work/ours" || fail "$1: the statistics differ from sdiag's"
	ok "$1: $(grep -c '^type ' "$work/ours") RPC types, $(grep -c '^user ' "$work/ours") users, jobs and cycles between two sdiag readings; names as sdiag's"
	# The controllers head the list, as scontrol ping says (one here,
	# answering: in control).
	local host want got
	host=$(scontrol ping | sed -n 's/^Slurmctld(primary) at \(.*\) is UP$/\1/p')
	[ -n "$host" ] || fail "$1: scontrol ping: $(scontrol ping)"
	want="slurmctld|$host (primary)|in control since"
	got=$(jq -r '.rows[0] | "\(.group)|\(.item)|\(.value)"' "$work/ours.json")
	[[ $got == "$want"* ]] || fail "$1: first row '$got', want '$want ...'"
	ok "$1: the first row is $host in control, as scontrol ping says"
}

check "profile's backend"
xdg=$(mktemp -d /tmp/oc-e2e-sd.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
jq '. + {backend: "cli"}' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"
XDG_CONFIG_HOME=$xdg check "backend cli"

e2e_start 120x30 --cluster llm-poc
e2e_wait "PARTITION" 15
e2e_keys D
e2e_wait "counters since [0-9-]+ [0-9:]+, read [0-9:]+; [0-9]+ unusual" 15
e2e_keys /
e2e_type "REQUEST_JOB_INFO"
e2e_keys Enter
e2e_wait "rpc type +REQUEST_JOB_INFO \(2003\) +count [0-9]+ +ave " 10
ok "the scheduler view (D) lists the RPC types with count and times"

# Reset (confirmed, audited): sdiag's "Data since" moves to now.
audit=$(sed -n 's/.*"audit_log": *"\([^"]*\)".*/\1/p' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json")
lines_before=$( (cat "$audit" 2>/dev/null || true) | wc -l)
since_before=$(sdiag | sed -n 's/^Data since.*(\([0-9]*\))$/\1/p')
e2e_keys :
e2e_type resetstats
e2e_keys Enter
e2e_wait 'Reset the scheduler statistics' 5
e2e_wait 'Equivalent command:' 5
e2e_wait 'sdiag --reset' 5
e2e_keys Enter
e2e_wait "slurmctld's statistics counters reset" 20
since_after=$(sdiag | sed -n 's/^Data since.*(\([0-9]*\))$/\1/p')
[ -n "$since_after" ] && [ "$since_after" -gt "${since_before:-0}" ] ||
	fail "sdiag's Data since did not move: $since_before then $since_after"
lines_after=$(wc -l <"$audit")
[ $((lines_after - lines_before)) -eq 2 ] || fail "want an intent and an outcome line, got $((lines_after - lines_before))"
grep -q '"scheduler.reset"' <<<"$(tail -n 2 "$audit" | head -n 1)" || fail "audit intent: $(tail -n 2 "$audit" | head -n 1)"
grep -q '"result":"ok"' <<<"$(tail -n 1 "$audit")" || fail "audit outcome: $(tail -n 1 "$audit")"
ok "reset confirmed and applied: sdiag's counters start at $since_after, intent and outcome audited"
e2e_keys Escape
e2e_keys q
e2e_wait 'EXIT=0' 10

# Read-only: refused with the reason, nothing sent.
since_before=$(sdiag | sed -n 's/^Data since.*(\([0-9]*\))$/\1/p')
e2e_start 120x30 --cluster llm-poc --readonly --view scheduler
e2e_wait "counters since" 15
e2e_keys :
e2e_type resetstats
e2e_keys Enter
e2e_wait 'read-only' 5
[ "$(sdiag | sed -n 's/^Data since.*(\([0-9]*\))$/\1/p')" = "$since_before" ] || fail "--readonly reset the counters"
ok "--readonly: the reset is refused, the counters untouched"
e2e_keys q
e2e_wait 'EXIT=0' 10
