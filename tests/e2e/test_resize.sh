#!/usr/bin/env bash
# Issue 21, rule 3: dialogs fit their content and survive a resize. A
# drain form resized to 40x10, then below what it needs, then back keeps
# what was typed and its layout; C-l repaints it; the confirmation is as
# tall as its text; the node detail keeps its border at 40x10, and the
# header keeps the cluster's name whole.
. "$(dirname "$0")/lib.sh"

resize() { e2e_tmux resize-window -t "$E2E_SESSION" -x "$1" -y "$2"; }

# box_ok TITLE: the dialog titled TITLE has its four corners, its right
# border on every line between them, and returns its height in $BOX_H.
box_ok() {
	local top bottom
	top=$(grep -n "┌─ $1" <<<"$E2E_LAST" | head -1 | cut -d: -f1)
	[ -n "$top" ] || fail "no dialog '$1' on the screen"
	bottom=$(awk -v t="$top" 'NR > t && /└/ { print NR; exit }' <<<"$E2E_LAST")
	[ -n "$bottom" ] || fail "dialog '$1' has no bottom border"
	local left col
	left=$(sed -n "${top}p" <<<"$E2E_LAST" | awk '{ print index($0, "┌") }')
	for ((l = top + 1; l < bottom; l++)); do
		col=$(sed -n "${l}p" <<<"$E2E_LAST" | awk '{ print index($0, "│") }')
		[ "$col" = "$left" ] || fail "dialog '$1': line $l has no left border at column $left"
		sed -n "${l}p" <<<"$E2E_LAST" | grep -q '│.*│' || fail "dialog '$1': line $l has no right border"
	done
	sed -n "${top}p" <<<"$E2E_LAST" | grep -q '┐' || fail "dialog '$1': no top-right corner"
	sed -n "${bottom}p" <<<"$E2E_LAST" | grep -q '┘' || fail "dialog '$1': no bottom-right corner"
	BOX_H=$((bottom - top + 1))
}

e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ gpu-st-b300-16 ' 15
e2e_keys Home d
e2e_wait '─ Drain nodes ' 5
reason="resize keeps $$"
e2e_type "$reason"
e2e_wait "│ Reason +$reason " 5
box_ok 'Drain nodes'

resize 40 10
e2e_wait "│ Reason +$reason" 5
box_ok 'Drain nodes'
ok "40x10: the form laid out again, the reason kept"

resize 40 8
e2e_wait 'Drain nodes: the terminal is too small' 5
resize 80 24
e2e_wait "│ Reason +$reason " 5
e2e_wait_gone 'terminal is too small' 5
box_ok 'Drain nodes'
ok "too small, then back: the form returns with what was typed"

e2e_keys C-l
e2e_wait "│ Reason +$reason " 5
box_ok 'Drain nodes'
e2e_type ' more'
e2e_wait "│ Reason +$reason more " 5
ok "C-l repaints the form, typing goes on"

# The confirmation: as tall as its text at 200x50, not 40 lines.
resize 200 50
e2e_wait "│ Reason +$reason more " 5
e2e_keys Enter
e2e_wait '─ Confirm: Drain nodes ' 5
e2e_wait "Reason='$reason more'" 5
box_ok 'Confirm: Drain nodes'
[ "$BOX_H" -lt 20 ] || fail "the confirmation is $BOX_H lines tall for a dozen lines of text"
ok "200x50: the confirmation is as tall as its text ($BOX_H lines)"
e2e_keys Escape
e2e_wait '─ Drain nodes ' 5
e2e_keys Escape
e2e_wait_gone 'Drain nodes' 5
[ -z "$(scontrol show node gpu-st-b300-1 | grep -F "$reason")" ] || fail "the cancelled drain was applied"
ok "cancelled: nothing applied"

# The node detail at 40x10: its border whole; the header keeps the name.
resize 40 10
e2e_keys Home Enter
e2e_wait '─ gpu-st-b300-1 ' 5
box_ok 'gpu-st-b300-1'
e2e_wait '^ llm-poc  Slurm ' 5
ok "40x10: the node detail keeps its border, the header the cluster's name"
e2e_keys Escape q
e2e_wait 'EXIT=0' 5
