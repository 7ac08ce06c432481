#!/usr/bin/env bash
# Terminal habits: resize at any time, "terminal too small" below the
# minimum, NO_COLOR and a non-UTF-8 locale still draw the views, ? help
# lists the keys from the registry.
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
e2e_capture_escapes | grep -q $'\e\\[[0-9;]*3[0-7]m\|\e\\[[0-9;]*4[0-7]m' || fail "default theme should use colours"
e2e_keys q
e2e_wait 'EXIT=0' 5
E2E_ENV=NO_COLOR=1 e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
e2e_capture_escapes | grep -q $'\e\\[[0-9;]*3[0-7]m\|\e\\[[0-9;]*4[0-7]m' && fail "NO_COLOR: colour escapes on screen"
ok "NO_COLOR: no colours"
e2e_keys q
e2e_wait 'EXIT=0' 5

E2E_LANG=C E2E_TERM=screen-256color e2e_start 80x24 --cluster llm-poc --view health
e2e_wait '^ok [0-9]+' 15
ok "TERM=screen-256color with the C locale draws"
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
e2e_wait '^NODE +STATE' 5
ok "fg resumes the console and keys work"
e2e_keys q
e2e_wait 'e2e\$ *$' 5
ok "q returns to the shell prompt"
