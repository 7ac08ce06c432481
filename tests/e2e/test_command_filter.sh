#!/usr/bin/env bash
# ':' command mode jumps to views (with completion) and '/' filters lists;
# Space tags rows; s sorts by the next column.
. "$(dirname "$0")/lib.sh"

e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15   # data is there (completion needs the partitions)
e2e_keys : n o d e s Enter
e2e_wait '^ NODE +STATE' 5
ok ":nodes opens the nodes view"

# What Tab would complete to shows above the prompt while typing (issue 21,
# rule 7), and changes with each key.
e2e_keys : q
e2e_wait '^ quit  queue  quota *$' 5
e2e_keys u e
e2e_wait '^ queue *$' 5
e2e_keys u e Space
e2e_wait '^ debug  normal  large  exclusive *$' 5
e2e_keys C-u z z
e2e_wait "^ no command starts with 'zz'" 5
e2e_keys Escape
e2e_wait_gone "^ no command starts with" 5
ok ": shows the completions while typing"

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

# The nodes of one partition (issue 21, rule 6): ":nodes PARTITION" lists
# its nodes only (not a text filter), Esc lists every node again.
e2e_keys : n o d e s Space d e b Tab
e2e_wait '^:nodes debug' 5
e2e_keys Enter
e2e_wait 'partition debug  2 nodes' 5
e2e_wait '^ gpu-st-b300-2 ' 5
grep -Eq '^ gpu-st-b300-(3|9|16) ' <<<"$E2E_LAST" && fail ":nodes debug listed a node not in debug"
e2e_keys Escape
e2e_wait ' 16 nodes$' 5
e2e_wait 'every node listed' 5
ok ":nodes deb<Tab> completes; :nodes debug lists debug's nodes only, Esc every node"

# n in the partitions view: the selected partition's nodes.
e2e_keys 1
e2e_wait '^PARTITION +AVAIL' 5
e2e_keys Home Down n
e2e_wait 'partition normal  8 nodes' 5
e2e_wait '^ gpu-st-b300-8 ' 5
grep -Eq '^ gpu-st-b300-(9|16) ' <<<"$E2E_LAST" && fail "n listed a node outside normal"
e2e_keys : n o d e s Space a l l Enter
e2e_wait ' 16 nodes$' 5
ok "n in the partitions view lists its nodes; :nodes all every node"

# Enter on a reservation lists its nodes; once it is deleted, the list
# says so and lists every node (not an empty list under a dead filter).
resv="e2e_scope_$$"
e2e_on_exit scontrol delete reservation="$resv"
scontrol create reservation ReservationName="$resv" Nodes=gpu-st-b300-[15-16] StartTime=now Duration=60 \
	Users=root Flags=maint,ignore_jobs >/dev/null || fail "could not create reservation $resv"
e2e_keys 6
e2e_wait "^$resv " 15
e2e_keys Home Enter
e2e_wait "reservation $resv  2 nodes" 5
e2e_wait '^ gpu-st-b300-16 ' 5
grep -Eq '^ gpu-st-b300-(1|9) ' <<<"$E2E_LAST" && fail "the reservation's nodes list has other nodes"
scontrol delete reservation="$resv" || fail "could not delete reservation $resv"
e2e_wait "reservation $resv is gone: every node is listed" 15
e2e_wait ' 16 nodes$' 5
ok "Enter on a reservation lists its nodes; the list goes back to every node when it is deleted"
e2e_keys 2
e2e_wait 'JOBID PARTITION' 5

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
e2e_wait '^ NODE +STATE' 5
e2e_keys / b 3 0 0 - 1 2
e2e_wait '^/b300-12' 5
e2e_wait '^ gpu-st-b300-12 ' 5
grep -Eq '^ gpu-st-b300-(1|2|3|11|13) ' <<<"$(e2e_capture)" && fail "filter left other nodes"
e2e_keys Enter
e2e_wait 'filter "b300-12"' 5
ok "/ filters as typed and stays after Enter"
e2e_keys Escape
e2e_wait '^ gpu-st-b300-1 ' 5
ok "Esc clears the filter"

e2e_keys Home Space Space
e2e_wait '2 tagged' 5
e2e_wait '^\+gpu-st-b300-1 ' 5
ok "Space tags rows (marked with +)"

e2e_keys s
e2e_wait '^ NODE\^' 5
e2e_keys s
e2e_wait '^ NODE +STATE\^' 5
e2e_wait '^[ +]gpu-st-b300-7 +drain' 5   # drained sorts first by state
e2e_keys S
e2e_wait '^ NODE +STATEv' 5
ok "s sorts by the next column, S reverses (marked in the title)"
e2e_keys q
e2e_wait 'EXIT=0' 5
