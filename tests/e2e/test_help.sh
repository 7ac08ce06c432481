#!/usr/bin/env bash
# Issue 21, rule 7: ? tells the truth. At 80x24 the help groups the keys
# (general, moving, views, nodes, jobs...), wraps a long line at a blank
# instead of cutting it ("Esc cle"), says that Space moves to the next row
# after tagging, lists the : commands, and stops at its last page: End
# shows the last command, Down after it changes nothing. At 200x50 the
# same line fits whole. Any other key closes it.
. "$(dirname "$0")/lib.sh"

e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ NODE +STATE' 15
e2e_keys '?'
e2e_wait '^Keys \(keymap default' 5
e2e_wait '^ General' 5
e2e_wait '^ Moving in a list' 5
# The filter's help, wrapped at a blank, its second line at the
# description's column.
e2e_wait 'filter the list on any visible text \(Esc$' 5
e2e_wait '^ {36}clears\)$' 5
ok "80x24: groups, and a long line wrapped at a blank"
# Page down to the views and the tags.
e2e_keys PPage NPage
e2e_wait '^ Views' 5
e2e_wait '^  [^ ]+ +view\.nodes ' 5
# Page on until the line is on the screen; after each PgDn wait until the
# page has changed (the help's first line is another one), and stop when
# it no longer does: the last page.
found=0
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
	page=$(e2e_capture)
	if grep -q 'tag or untag the row, then move to the next' <<<"$page"; then found=1; break; fi
	top=$(sed -n 2p <<<"$page")
	e2e_keys NPage
	end=$((SECONDS + 5))
	while [ "$(e2e_capture | sed -n 2p)" = "$top" ] && [ $SECONDS -lt $end ]; do
		sleep 0.1
	done
	[ "$(e2e_capture | sed -n 2p)" != "$top" ] || break
done
[ $found = 1 ] || fail "the help does not say that Space moves to the next row"
ok "80x24: the views grouped, Space's move said"
e2e_keys End
e2e_wait '^  :window ' 5
# Down and PgDn at the end change nothing: one Up after them shows the
# line that was first one row lower (had they scrolled on, it would not).
first=$(e2e_capture | sed -n 2p)
e2e_keys Down Down NPage Up
end=$((SECONDS + 5))
until [ "$(e2e_capture | sed -n 3p)" = "$first" ]; do
	[ $SECONDS -lt $end ] || fail "the help scrolled past its end:"$'\n'"$E2E_LAST"
	sleep 0.1
done
ok "80x24: End shows the last command, and the help does not scroll past it"
e2e_keys x
e2e_wait '^ NODE +STATE' 5
e2e_wait_gone '^Keys \(keymap' 5
ok "another key closes it"
e2e_keys q
e2e_wait 'EXIT=0' 5

e2e_start 200x50 --cluster llm-poc --view nodes
e2e_wait '^ NODE +STATE' 15
e2e_keys '?'
e2e_wait 'filter the list on any visible text \(Esc clears\)$' 5
ok "200x50: the same line whole"
e2e_keys q
e2e_wait 'EXIT=0' 5
