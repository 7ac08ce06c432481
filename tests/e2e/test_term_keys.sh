#!/usr/bin/env bash
# Issue 21, rule 4: keys mean what the terminal sends, under TERM=vt100,
# xterm, screen, tmux-256color and linux. tmux sends each key as a
# terminal emulator does, whatever the pane's TERM says (PgDn is ESC [ 6 ~
# even where the vt100 entry names no PgDn). In the nodes view at 80x24:
# End and PgDn, then Enter, open the last node's detail, Home and PgUp the
# first's; Shift-Tab goes to the view before (the queue); a sequence no
# entry names (Ctrl-Shift-Alt-F2, ESC [ 1 ; 8 Q) is dropped whole and said,
# and none of its bytes acts as a key (its "8" would open the scheduler
# view, its "Q" quit). No key ever reports "is not bound".
. "$(dirname "$0")/lib.sh"

# detail_of NODE: the node detail's title is on the screen (a bordered
# box whose top line names the node), not only the list's row.
detail_of() { e2e_wait "[^a-z0-9-]$1 [─q-]" 5; }

for t in vt100 xterm screen tmux-256color linux; do
	E2E_TERM=$t e2e_start 80x24 --cluster llm-poc --view nodes
	e2e_wait '^ NODE +STATE' 15
	e2e_wait '^ gpu-st-b300-[0-9]+ ' 15
	e2e_snap
	first=$(grep -m1 -oE '^ gpu-st-b300-[0-9]+' <<<"$E2E_LAST" | tr -d ' ')
	last=$(grep -oE '^ gpu-st-b300-[0-9]+' <<<"$E2E_LAST" | tail -n 1 | tr -d ' ')
	[ "$first" != "$last" ] || fail "one node on the screen: $first"
	for k in End NPage; do
		e2e_keys Home
		e2e_keys "$k" Enter
		detail_of "$last"
		e2e_keys Escape
		e2e_wait_gone "[^a-z0-9-]$last [─q-]" 5
	done
	for k in Home PPage; do
		e2e_keys End
		e2e_keys "$k" Enter
		detail_of "$first"
		e2e_keys Escape
		e2e_wait_gone "[^a-z0-9-]$first [─q-]" 5
	done
	ok "TERM=$t: End, PgDn, Home and PgUp move in the list"
	e2e_keys BTab
	e2e_wait '^ +JOBID +PARTITION' 5
	ok "TERM=$t: Shift-Tab goes to the view before"
	e2e_tmux send-keys -t "$E2E_SESSION" -H 1b 5b 31 3b 38 51
	e2e_wait "key ESC \[1;8Q is not known to TERM=$t: ignored" 5
	e2e_keys Down
	e2e_wait '^ +JOBID +PARTITION' 5
	e2e_snap
	grep -q 'is not bound' <<<"$E2E_LAST" && fail "TERM=$t: a key was not bound: $(grep 'is not bound' <<<"$E2E_LAST")"
	ok "TERM=$t: an unknown sequence is dropped whole and said"
	if [ $t = xterm ]; then
		# An Up key whose Esc byte came alone, 60 ms before its "[A"
		# (past the list's 10 ms ESCDELAY): the rest is dropped and
		# said, its "A" does not open the audit view. Sent apart on
		# purpose; when the console read both parts at once (a busy
		# machine) it was a plain Up, and the split is sent again.
		split=0
		for _ in 1 2 3 4 5; do
			e2e_tmux send-keys -t "$E2E_SESSION" -H 1b
			sleep 0.06
			e2e_tmux send-keys -t "$E2E_SESSION" -l '[A'
			end=$((SECONDS + 2))
			while [ $SECONDS -lt $end ]; do
				e2e_snap
				grep -q 'a key came in two parts (\[A after Esc): its rest ignored' <<<"$E2E_LAST" && split=1 && break
				sleep 0.1
			done
			[ $split = 0 ] || break
		done
		[ $split = 1 ] || fail "a split Up key was never reported as split"
		e2e_wait '^ +JOBID +PARTITION' 5
		ok "TERM=$t: a key whose Esc came apart is not taken as Esc and letters"
	fi
	e2e_keys q
	e2e_wait 'EXIT=0' 5
done
