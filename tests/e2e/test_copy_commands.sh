#!/usr/bin/env bash
# Issue 21, rule 2: a command shown to copy can be copied. At 80x24 and at
# 200x50, the "Equivalent command" of a drain (a long reason with quotes
# and blanks) and of a maintenance reservation is read off the screen
# inside its dialog, and those lines, pasted into bash as they are (with
# scontrol a function printing its arguments), give exactly the arguments
# of the command: broken between arguments (" \"), the reason, longer
# than a line at 80 columns, inside its quotes ("'\" and "'" again on the
# next line). At 80 columns both commands take more than one line, so the
# rule is exercised, not passed by a command that fits. Nothing is
# applied (Esc at each confirmation).
. "$(dirname "$0")/lib.sh"

reason="maintenance: PSU swap per vendor ticket 4471, rack 12 'B' side; \$(id) stays literal"

# The lines of the command under "Equivalent command:" on the screen,
# inside the dialog's border, one per line.
command_lines() {
	e2e_snap
	python3 -c '
import sys
scr = sys.stdin.read().split("\n")
at = [i for i, l in enumerate(scr) if "Equivalent command:" in l]
if not at:
    sys.exit("no Equivalent command: on the screen")
i = at[0]
x = scr[i].index("Equivalent command:")
right = x + len("Equivalent command:")
while right < len(scr[i]) and scr[i][right] == " ":
    right += 1
for l in scr[i + 1:]:
    seg = l[x:right].rstrip()
    if not seg:
        break
    print(seg)
' <<<"$E2E_LAST"
}

# check_pasted LINES NEED_WRAP WORD...: LINES pasted into bash give the
# argument list WORD... (after the command name).
check_pasted() {
	local lines=$1 need_wrap=$2
	shift 2
	local n
	n=$(wc -l <<<"$lines")
	if [ "$need_wrap" = yes ] && [ "$n" -lt 2 ]; then
		fail "the command fits on one line: the test does not exercise the wrap"$'\n'"$lines"
	fi
	# Every line but the last ends with a backslash (" \" between
	# arguments, "\" or "'\" inside a word longer than a line).
	if head -n -1 <<<"$lines" | grep -vq '\\$'; then
		fail "a line of the command does not end with a backslash:"$'\n'"$lines"
	fi
	local got want
	got=$(bash -c 'scontrol() { printf "[%s]\n" "$@"; }; '"$lines" | od -c)
	want=$(printf '[%s]\n' "$@" | od -c)
	[ "$got" = "$want" ] || fail "pasted, the lines give other arguments:"$'\n'"$lines"$'\n'"got:"$'\n'"$got"$'\n'"want:"$'\n'"$want"
}

for size in 80x24 200x50; do
	e2e_start "$size" --cluster llm-poc --view nodes
	e2e_drain_confirm gpu-st-b300-15 "$reason"
	e2e_wait "scontrol update" 5
	lines=$(command_lines)
	need=no
	[ "$size" = 80x24 ] && need=yes
	check_pasted "$lines" "$need" update NodeName=gpu-st-b300-15 State=DRAIN "Reason=$reason"
	ok "$size: the drain's command pastes into bash as one command ($(wc -l <<<"$lines") lines)"
	e2e_keys Escape
	e2e_wait 'Drain nodes' 5
	e2e_keys Escape
	e2e_wait 'cancelled, nothing changed' 5

	e2e_keys m
	e2e_wait 'Create a maintenance reservation' 5
	e2e_keys C-u
	e2e_type "e2e_copy_maintenance_window_$$"
	e2e_keys Tab C-u
	e2e_type 'gpu-st-b300-[13-14]'
	e2e_keys Enter
	e2e_wait 'Confirm: Create a maintenance reservation' 5
	e2e_wait "scontrol create" 5
	lines=$(command_lines)
	# The words as Slurm gets them: ReservationName, Nodes and Flags as
	# typed and fixed, a whole Duration.
	words=$(bash -c 'scontrol() { printf "%s\n" "$@"; }; '"$lines")
	grep -qx "ReservationName=e2e_copy_maintenance_window_$$" <<<"$words" || fail "no whole ReservationName:"$'\n'"$lines"
	grep -qx 'Nodes=gpu-st-b300-\[13-14\]' <<<"$words" || fail "no whole Nodes:"$'\n'"$lines"
	grep -Eqx '(Duration=([0-9]+-)?[0-9:]+|Duration=UNLIMITED|Duration=infinite|EndTime=[0-9T:-]+)' <<<"$words" ||
		fail "no whole Duration or EndTime:"$'\n'"$lines"
	mapfile -t argv <<<"$words"
	check_pasted "$lines" "$need" "${argv[@]}"
	[ "${argv[0]} ${argv[1]}" = "create reservation" ] || fail "not a create reservation: ${argv[*]}"
	ok "$size: the reservation's command pastes into bash as one command ($(wc -l <<<"$lines") lines)"
	e2e_keys Escape
	e2e_wait 'Create a maintenance reservation' 5
	e2e_keys Escape
	e2e_wait 'cancelled, nothing changed' 5
	scontrol show res "e2e_copy_maintenance_window_$$" >/dev/null 2>&1 && fail "a reservation was made"
	e2e_keys q
	e2e_wait 'EXIT=0' 5
done
