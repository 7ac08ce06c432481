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
