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
e2e_wait '^ NODE +STATE' 5
ok "default keys still work"
e2e_keys q
e2e_wait 'EXIT=0' 5
rm "$cfg/opsconsole/keymaps/default.json"

e2e_start 80x24 --cluster llm-poc --keymap vim --view nodes
e2e_wait '^ gpu-st-b300-1 ' 10
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
e2e_wait '^ NODE +REASON +STATE' 10
ok "a user view file sets the columns"
e2e_keys q
e2e_wait 'EXIT=0' 5
chmod 666 "$cfg/opsconsole/views/nodes.json"
e2e_start 120x24 --cluster llm-poc --view nodes
e2e_wait 'views/nodes.json.*(writable|permission)' 10
e2e_wait '^ NODE +STATE' 5
ok "a group/world-writable view file is refused, the built-in layout used"
e2e_keys q
e2e_wait 'EXIT=0' 5

# Code and data from paths nobody checked (issue 16.6): a data folder, a
# profile's slurm_bin and the latency log in folders others may write.
bad=$(mktemp -d)
e2e_on_exit rm -rf "$bad"
cp -r "$(dirname "$0")/../../src/rehearsal/checklists" "$bad/"
chmod 0777 "$bad"
for args in "--cluster llm-poc --view nodes" "rehearse --cluster llm-poc --list"; do
	rc=0
	# shellcheck disable=SC2086
	out=$(OPSCONSOLE_DATADIR=$bad "$OC_BIN" $args 2>&1 </dev/null) || rc=$?
	[ "$rc" = 2 ] || fail "OPSCONSOLE_DATADIR writable by others: opsconsole $args exited $rc: $out"
	grep -q "OPSCONSOLE_DATADIR $bad: refused: it is writable by others (mode 0777)" <<<"$out" ||
		fail "no refusal of the data folder: $out"
done
ok "a data folder writable by others is refused before anything runs (exit 2)"
chmod 0755 "$bad"
out=$(OPSCONSOLE_DATADIR=$bad "$OC_BIN" rehearse --cluster llm-poc --list 2>&1) || fail "a trusted data folder: $out"
ok "the same folder, not writable by others, is used"

# slurm_bin: the profile's Slurm commands run only from a folder nobody
# else can write.
mkdir -p "$bad/bin"
for c in sinfo squeue scontrol sacctmgr; do ln -s "$(command -v $c)" "$bad/bin/$c"; done
jq --arg d "$bad/bin" '. + {backend: "cli", slurm_bin: $d}' "$XDG_CONFIG_HOME_SAVED/opsconsole/clusters/llm-poc.json" \
	>"$cfg/opsconsole/clusters/cli.json"
jq '.name = "cli"' "$cfg/opsconsole/clusters/cli.json" >"$cfg/tmp.json" && mv "$cfg/tmp.json" "$cfg/opsconsole/clusters/cli.json"
chmod 600 "$cfg/opsconsole/clusters/cli.json"
"$OC_BIN" --cluster cli --once nodes >/dev/null 2>&1 || fail "slurm_bin in a trusted folder does not work"
chmod 0777 "$bad/bin"
rc=0
out=$("$OC_BIN" --cluster cli --once nodes 2>&1) || rc=$?
[ "$rc" -ne 0 ] || fail "Slurm commands from a folder writable by others were run: $out"
grep -q "Slurm command $bad/bin/s[a-z]*: refused: its directory $bad/bin is writable by others" <<<"$out" ||
	fail "no refusal of slurm_bin: $out"
ok "slurm_bin writable by others: the commands are not run (exit $rc)"

# OC_LATENCY_LOG never appends to a file that exists, nor writes into a
# folder others may write.
printf 'precious\n' >"$bad/existing"
chmod 0755 "$bad"
E2E_ENV="OC_LATENCY_LOG=$bad/existing" e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-1 ' 10
e2e_keys 2 3 2 3
e2e_wait '^ NODE +STATE' 5
e2e_keys q
e2e_wait 'EXIT=0' 5
[ "$(cat "$bad/existing")" = precious ] || fail "OC_LATENCY_LOG appended to an existing file"
E2E_ENV="OC_LATENCY_LOG=$bad/new.log" e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-1 ' 10
e2e_keys 2 3
e2e_wait '^ NODE +STATE' 5
e2e_keys q
e2e_wait 'EXIT=0' 5
grep -q '^first_full_paint' "$bad/new.log" || fail "OC_LATENCY_LOG did not create a new log"
# Its keys' lines, but no line per frame without OC_LATENCY_FRAMES (the
# benchmark's console does not pay for them; e2e.live_queue asks for them).
grep -q '^key ' "$bad/new.log" || fail "OC_LATENCY_LOG has no key line after 2 and 3"
! grep -q '^draw ' "$bad/new.log" || fail "OC_LATENCY_LOG has frame lines without OC_LATENCY_FRAMES"
chmod 0777 "$bad"
rm -f "$bad/new.log"
E2E_ENV="OC_LATENCY_LOG=$bad/new.log" e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-1 ' 10
e2e_keys q
e2e_wait 'EXIT=0' 5
[ ! -e "$bad/new.log" ] || fail "OC_LATENCY_LOG wrote into a folder writable by others"
ok "OC_LATENCY_LOG: only a new file, only in a folder nobody else can write, no frame lines unless asked"
