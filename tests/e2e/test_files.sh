#!/usr/bin/env bash
# Keymap, theme and view files: a broken keymap is reported with its path,
# line and column and the default keys still work; the vim keymap binds j/k;
# a user view file changes the columns; a group-writable file is refused.
. "$(dirname "$0")/lib.sh"

cfg=$(mktemp -d)
export XDG_CONFIG_HOME_SAVED=$XDG_CONFIG_HOME
mkdir -p "$cfg/opsconsole/clusters" "$cfg/opsconsole/keymaps" "$cfg/opsconsole/views"
cp "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" "$cfg/opsconsole/clusters/"
chmod 700 "$cfg" "$cfg/opsconsole" "$cfg/opsconsole/keymaps" "$cfg/opsconsole/views"
export XDG_CONFIG_HOME=$cfg
e2e_on_exit rm -rf "$cfg"

printf '{"keymap": "default",\n "bindings": {"q": "quit",\n  "x": }\n}\n' >"$cfg/opsconsole/keymaps/default.json"
chmod 600 "$cfg/opsconsole/keymaps/default.json"
e2e_start 120x24 --cluster llm-poc
e2e_wait "keymaps/default.json:3:[0-9]+" 10
ok "broken keymap reported with path:line:col"
e2e_keys 3
e2e_wait '^NODE +STATE' 5
ok "default keys still work"
e2e_keys q
e2e_wait 'EXIT=0' 5
rm "$cfg/opsconsole/keymaps/default.json"

e2e_start 80x24 --cluster llm-poc --keymap vim --view nodes
e2e_wait '^gpu-st-b300-1 ' 10
e2e_keys j j
e2e_keys Enter
e2e_wait 'gpu-st-b300-3 .*Esc closes' 5
ok "vim keymap: j moves down (detail of the third node opened)"
e2e_keys Escape q
e2e_wait 'EXIT=0' 5

# A user layout for the nodes view: only node, state and reason.
printf '{"view": "nodes", "columns": [{"id": "node", "width": 16}, {"id": "reason", "width": 0}, {"id": "state", "width": 8}]}\n' \
	>"$cfg/opsconsole/views/nodes.json"
chmod 600 "$cfg/opsconsole/views/nodes.json"
e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^NODE +REASON +STATE' 10
ok "a user view file sets the columns"
e2e_keys q
e2e_wait 'EXIT=0' 5
chmod 666 "$cfg/opsconsole/views/nodes.json"
e2e_start 120x24 --cluster llm-poc --view nodes
e2e_wait 'views/nodes.json.*(writable|permission)' 10
e2e_wait '^NODE +STATE' 5
ok "a group/world-writable view file is refused, the built-in layout used"
e2e_keys q
e2e_wait 'EXIT=0' 5
