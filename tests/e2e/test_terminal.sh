#!/usr/bin/env bash
# Terminal habits: resize at any time (and a storm of resizes), "terminal
# too small" below the minimum (readable even at 20x6), NO_COLOR,
# TERM=vt100, a non-UTF-8 locale (ACS line drawing) still draw the views,
# TERM=dumb is refused with a message, ? help lists the keys from the
# registry.
. "$(dirname "$0")/lib.sh"

e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
e2e_tmux resize-window -t "$E2E_SESSION" -x 30 -y 6
e2e_wait 'terminal too small \(30x6\)' 5
ok "too small terminal says so"
e2e_tmux resize-window -t "$E2E_SESSION" -x 100 -y 30
e2e_wait '^normal\* +up ' 5
ok "resize back redraws the view"
e2e_keys '?'
e2e_wait 'view.nodes +nodes' 5
e2e_wait 'quit +quit the console' 5
ok "? lists actions with their keys"
e2e_keys Escape
e2e_wait '^normal\* +up ' 5
grep -q $'\e\\[[0-9;]*3[0-7]m\|\e\\[[0-9;]*4[0-7]m' <<<"$(e2e_capture_escapes)" || fail "default theme should use colours"
e2e_keys q
e2e_wait 'EXIT=0' 5
E2E_ENV=NO_COLOR=1 e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
grep -q $'\e\\[[0-9;]*3[0-7]m\|\e\\[[0-9;]*4[0-7]m' <<<"$(e2e_capture_escapes)" && fail "NO_COLOR: colour escapes on screen"
ok "NO_COLOR: no colours"
e2e_keys q
e2e_wait 'EXIT=0' 5

E2E_LANG=C E2E_TERM=screen-256color e2e_start 80x24 --cluster llm-poc --view health
e2e_wait '^ok [0-9]+' 15
ok "TERM=screen-256color with the C locale draws"
e2e_keys q
e2e_wait 'EXIT=0' 5

# 20x6 from the start: the message wraps and q still quits.
e2e_start 20x6 --cluster llm-poc
e2e_wait '^terminal too small \($' 10
e2e_wait '^20x6\), need 40x8' 2
e2e_keys q
e2e_wait 'EXIT=0' 5
ok "20x6: 'terminal too small' readable, q quits"

# A resize storm (a window being dragged): 60 sizes without a pause, some
# too small; the console ends drawn at the last size and answers keys.
e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
for i in $(seq 1 60); do
	e2e_tmux resize-window -t "$E2E_SESSION" -x $((20 + (i * 37) % 140)) -y $((5 + (i * 13) % 45))
done
e2e_tmux resize-window -t "$E2E_SESSION" -x 100 -y 30
e2e_wait '^normal\* +up ' 10
e2e_wait_gone 'terminal too small' 5
e2e_keys 3
e2e_wait '^ NODE +STATE' 5
e2e_wait '^ gpu-st-b300-16 ' 5
ok "resize storm: redrawn at 100x30, keys answer"
e2e_keys q
e2e_wait 'EXIT=0' 5

# TERM=vt100: no colours, the views draw.
E2E_TERM=vt100 e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
grep -q $'\e\\[[0-9;]*3[0-7]m\|\e\\[[0-9;]*4[0-7]m' <<<"$(e2e_capture_escapes)" && fail "vt100: colour escapes on screen"
e2e_keys 4
e2e_wait '^ok [0-9]+' 5
ok "TERM=vt100 draws, without colours"
e2e_keys q
e2e_wait 'EXIT=0' 5

# TERM=dumb cannot move the cursor: refused plainly, exit 1.
E2E_TERM=dumb e2e_start 80x24 --cluster llm-poc
e2e_wait "terminal type 'dumb' cannot move the cursor" 10
e2e_wait 'EXIT=1' 5
ok "TERM=dumb refused with a message"

# The C locale: panel borders in the terminal's line-drawing set (ACS,
# shifted in with SO), not in UTF-8 and not as letters.
E2E_LANG=C e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-1 ' 15
e2e_keys d
e2e_wait 'Drain nodes' 5
grep -q $'\x0e[xqlk]' <<<"$(e2e_capture_escapes)" || fail "C locale: no ACS line drawing in the form's border"
grep -q '│' <<<"$(e2e_capture_escapes)" && fail "C locale: UTF-8 box characters sent"
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 5
ok "LANG=C: borders drawn with ACS"
e2e_keys q
e2e_wait 'EXIT=0' 5

# Ctrl-Z suspends to the shell and fg brings the console back, redrawn.
e2e_start_shell 80x24
e2e_wait 'e2e\$ *$' 10
e2e_keys "$OC_BIN --cluster llm-poc" Enter
e2e_wait '^normal\* +up ' 15
e2e_keys C-z
e2e_wait 'Stopped' 5
e2e_wait_gone '^normal\* +up ' 5
ok "Ctrl-Z suspends to the shell"
e2e_keys fg Enter
e2e_wait '^normal\* +up ' 10
e2e_keys 3
e2e_wait '^ NODE +STATE' 5
ok "fg resumes the console and keys work"
e2e_keys q
e2e_wait 'e2e\$ *$' 5
ok "q returns to the shell prompt"

# The terminal goes away without a SIGHUP reaching the console (here it is
# not the console's controlling terminal: setsid), as when an SSM or SSH
# session drops under some agents: the console quits instead of polling
# the dead terminal (and slurmctld) forever.
real_bin=$OC_BIN
OC_BIN=setsid e2e_start 80x24 -w "$real_bin" --cluster llm-poc --view nodes
e2e_wait '^ NODE +STATE' 15
pid=$(pgrep -n -f -- "^$real_bin --cluster llm-poc --view nodes") || fail "cannot find the console's pid"
e2e_tmux kill-server
end=$((SECONDS + 10))
while kill -0 "$pid" 2>/dev/null && ((SECONDS < end)); do sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
	ps -o pid,stat,pcpu,args -p "$pid" >&2 || true
	kill -9 "$pid" 2>/dev/null || true
	fail "the console kept running after its terminal went away"
fi
ok "a terminal gone without SIGHUP: the console quits"
