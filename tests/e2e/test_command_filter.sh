#!/usr/bin/env bash
# ':' command mode jumps to views (with completion) and '/' filters lists;
# Space tags rows; s sorts by the next column.
. "$(dirname "$0")/lib.sh"

e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15   # data is there (completion needs the partitions)
e2e_keys : n o d e s Enter
e2e_wait '^NODE +STATE' 5
ok ":nodes opens the nodes view"

e2e_keys : q u e u e Space n o r Tab
e2e_wait '^:queue normal' 5
e2e_keys Enter
e2e_wait 'partition normal' 5
ok ":queue nor<Tab> completes to normal and opens its queue"

# Every partition again: ":queue all" (issue 21, rule 6), and ":queue".
e2e_keys : q u e u e Space a l l Enter
e2e_wait 'all partitions' 5
e2e_wait_gone "no partition 'all'" 2
e2e_keys : q u e u e Space n o r m a l Enter
e2e_wait 'partition normal' 5
e2e_keys : q u e u e Enter
e2e_wait 'all partitions' 5
ok ":queue all and :queue list every partition again"

e2e_keys : b o g u s Enter
e2e_wait "unknown command 'bogus'" 5
ok "an unknown command is refused with a message"

e2e_keys : q u e u e Space a Space b Enter
e2e_wait ':queue takes at most one argument' 5
ok "a command given too many arguments is refused with a message"

e2e_keys : p a s s Space o k Enter
e2e_wait ':pass works in the rehearsal view \(8\)' 5
ok "a command of another view is refused with the view and its key"

# ? lists the : commands from the same table as the keys (after them).
e2e_keys ?
e2e_wait '^Keys \(keymap default' 5
# page_to REGEX: PgDn, one page at a time (each time waiting for the page
# to change), until the help shows REGEX; fails at the last page.
page_to() {
	local before end
	for _ in $(seq 12); do
		e2e_snap
		grep -Eq -- "$1" <<<"$E2E_LAST" && return 0
		before=$E2E_LAST
		e2e_keys PgDn
		end=$((SECONDS + 5))
		while e2e_snap && [ "$E2E_LAST" = "$before" ] && [ "$SECONDS" -lt "$end" ]; do sleep 0.05; done
		[ "$E2E_LAST" != "$before" ] || break
	done
	e2e_wait "$1" 1
}
page_to '^Commands \(: then the name'
page_to '^  :queue \[PARTITION \| all\] +job queue \(also q jobs squeue\)'
page_to '^  :pass \[NOTE\] +rehearsal: the selected step passed'
page_to '^  :timelimit \[LIMIT\] +change the jobs'
e2e_keys Escape
e2e_wait 'JOBID PARTITION' 5
ok "? lists the : commands with their arguments and aliases"

e2e_keys : n Enter
e2e_wait '^NODE +STATE' 5
e2e_keys / b 3 0 0 - 1 2
e2e_wait '^/b300-12' 5
e2e_wait '^gpu-st-b300-12 ' 5
grep -Eq '^gpu-st-b300-(1|2|3|11|13) ' <<<"$(e2e_capture)" && fail "filter left other nodes"
e2e_keys Enter
e2e_wait 'filter "b300-12"' 5
ok "/ filters as typed and stays after Enter"
e2e_keys Escape
e2e_wait '^gpu-st-b300-1 ' 5
ok "Esc clears the filter"

e2e_keys Home Space Space
e2e_wait '2 tagged' 5
e2e_wait '^\+gpu-st-b300-1 ' 5
ok "Space tags rows (marked with +)"

e2e_keys s
e2e_wait '^NODE\^' 5
e2e_keys s
e2e_wait '^NODE +STATE\^' 5
e2e_wait '^\+?gpu-st-b300-7 +drain' 5   # drained sorts first by state
e2e_keys S
e2e_wait '^NODE +STATEv' 5
ok "s sorts by the next column, S reverses (marked in the title)"
e2e_keys q
e2e_wait 'EXIT=0' 5
