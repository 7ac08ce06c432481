#!/usr/bin/env bash
# Issue 21, rule 5: the mouse where the terminal has one. A press selects a
# row (a second press on it opens it), a press on a tab opens that view,
# the wheel scrolls; a press outside a dialog does nothing; --no-mouse
# leaves the mouse to the terminal (tmux sees no mouse mode asked).
# The presses are xterm's X10 reports written to the console's pty, as a
# terminal sends them (TERM=screen's kmous: ESC [ M b x y).
. "$(dirname "$0")/lib.sh"

# press X Y: the first button pressed and released at column X, line Y
# (0-based); wheel_down X Y: one notch.
report() { printf '\033[M%b%b%b' "\\x$(printf %x $((32 + $1)))" "\\x$(printf %x $((33 + $2)))" "\\x$(printf %x $((33 + $3)))"; }
press() { e2e_type "$(report 0 "$1" "$2")$(report 3 "$1" "$2")"; }
wheel_down() { e2e_type "$(report 65 "$1" "$2")"; }
# The selected row's first text (the default theme: black on white).
selected() { e2e_capture_escapes | grep -P '\x1b\[47m' | head -1 | sed 's/\x1b\[[0-9;]*m//g' | awk '{ print $1 }'; }
# wait_selected NODE WHAT: until NODE's row is the selected one.
wait_selected() {
	local end=$((SECONDS + 5))
	until [ "$(selected)" = "$1" ]; do
		[ "$SECONDS" -lt "$end" ] || fail "$2 (selected: $(selected))"
		sleep 0.1
	done
}

e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-16 ' 15
[ "$(e2e_tmux display -p -t "$E2E_SESSION" '#{mouse_any_flag}')" = 1 ] || fail "the console asked for no mouse events"
line=$(grep -n '^ gpu-st-b300-6 ' <<<"$E2E_LAST" | cut -d: -f1)
press 10 $((line - 1))
wait_selected gpu-st-b300-6 "a press on gpu-st-b300-6's row did not select it"
ok "a press selects the row under it"
press 10 $((line - 1))
e2e_wait '─ gpu-st-b300-6 ' 5
ok "a second press on the selected row opens it"
press 2 0 # outside the panel: nothing
e2e_wait '─ gpu-st-b300-6 ' 2
e2e_keys Escape
e2e_wait_gone '─ gpu-st-b300-6 ' 5

e2e_keys Home
wheel_down 10 10
wait_selected gpu-st-b300-4 "the wheel did not move three rows down"
ok "the wheel moves three rows"

# The tab bar: " 1 " is the partitions view's tab at 80 columns.
press 1 1
e2e_wait '^PARTITION +AVAIL' 5
ok "a press on a tab opens its view"

# A dialog open: a press outside it changes nothing, the form keeps its text.
e2e_keys 3
e2e_wait '^ NODE +STATE' 5
e2e_keys Home d
e2e_wait '─ Drain nodes ' 5
e2e_type "mouse $$"
press 1 1
press 5 20
e2e_wait "│ Reason +mouse $$ " 5
e2e_wait '─ Drain nodes ' 2
e2e_keys Escape
e2e_wait_gone 'Drain nodes' 5
[ -z "$(scontrol show node gpu-st-b300-1 | grep -F "mouse $$")" ] || fail "a press applied the drain"
ok "a press outside a dialog does nothing"
e2e_keys q
e2e_wait 'EXIT=0' 5

# --no-mouse: the terminal keeps the mouse (its own text selection).
e2e_start 80x24 --cluster llm-poc --view nodes --no-mouse
e2e_wait '^ gpu-st-b300-16 ' 15
[ "$(e2e_tmux display -p -t "$E2E_SESSION" '#{mouse_any_flag}')" = 0 ] || fail "--no-mouse still asked for mouse events"
ok "--no-mouse asks the terminal for no mouse events"
e2e_keys q
e2e_wait 'EXIT=0' 5
