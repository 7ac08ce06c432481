#!/usr/bin/env bash
# A change window begun in the console (:window in the nodes view) and
# finished by `opsconsole window --auto`: the same progress file.
#  - :window with no node selected or tagged, or with writes off
#    (--readonly), is refused with the reason and nothing changes;
#  - with a node selected, :window REASON shows the window in the
#    rehearsal view (its headline, 5 steps, the reservation's name);
#  - Enter on the first step asks first; Enter again makes the
#    reservation (scontrol shows it on the node); nothing else ran;
#  - :window off gives the cluster's rehearsal back, :window again the
#    window with its first step PASS (resumed from the file);
#  - `opsconsole window --nodes NODE --reason REASON --auto` resumes at
#    step 2 and ends the window: the node drained, rebooted, back idle,
#    the reservation gone.
. "$(dirname "$0")/lib.sh"

node=gpu-st-b300-16
reason="ui window $$"
state=$(mktemp -d)
export XDG_STATE_HOME=$state
e2e_on_exit rm -rf "$state"
e2e_on_exit scontrol update NodeName="$node" State=RESUME
e2e_on_exit scontrol cancel_reboot "$node"
e2e_on_exit sh -c "scontrol show res -o | sed -n 's/^ReservationName=\(maint-[0-9a-f]*\) .*Nodes=$node .*/\1/p' | xargs -r -n1 -I{} scontrol delete ReservationName={}"
resv_on_node() { scontrol show res -o 2>/dev/null | sed -n "s/^ReservationName=\([^ ]*\) .*Nodes=$node .*/\1/p"; }
[ -z "$(resv_on_node)" ] || fail "$node already has a reservation: $(resv_on_node)"
[ "$(sinfo -h -n "$node" -o %t)" = idle ] || fail "$node is not idle: $(sinfo -h -n "$node" -o %t)"

# Writes off: refused, nothing opened.
e2e_start 120x30 --cluster llm-poc --view nodes --readonly
e2e_wait "^ $node " 15
e2e_keys :
e2e_type "window x"
e2e_keys Enter
e2e_wait "read-only console" 5
ok ":window refused with --readonly"

e2e_start 120x30 --cluster llm-poc --view rehearsal
e2e_wait "steps" 15
e2e_keys :
e2e_type "window x"
e2e_keys Enter
e2e_wait ":window: tag the window's nodes" 5
ok ":window without nodes (rehearsal view) says what to do"

e2e_keys 3
e2e_keys /
e2e_type "$node"
e2e_keys Enter
e2e_wait "^ $node " 10
e2e_keys :
e2e_type "window $reason"
e2e_keys Enter
e2e_wait "change window on $node \(1 node, reservation maint-[0-9a-f]{8}\)" 10
e2e_wait "cw-reserve" 5
e2e_wait "cw-end" 5
ok "the rehearsal view shows the window on $node"

# Step 1: asks, then makes the reservation.
e2e_keys g
e2e_keys Enter
e2e_wait "changes the cluster .*Enter again to run it" 5
[ -z "$(resv_on_node)" ] || fail "a reservation was made before the confirmation"
e2e_keys Enter
wait_cmd 30 sh -c "scontrol show res -o | grep -q 'Nodes=$node '"
resv=$(resv_on_node)
e2e_wait "PASS +cw-reserve" 20
# The run has ended (the row shows PASS a moment before).
e2e_wait "5 steps; change window" 10
grep -q 'drain' <<<"$(sinfo -h -n "$node" -o %t)" && fail "$node was drained by step 1"
ok "step 1 from the console: reservation $resv on $node, asked first, nothing else"

# Off and on again: the saved progress.
e2e_keys :
e2e_type "window off"
e2e_keys Enter
e2e_wait "cluster's rehearsal again" 5
e2e_wait "cfg-default-partition" 5
e2e_keys 3
e2e_keys /
e2e_keys C-u
e2e_type "$node"
e2e_keys Enter
e2e_wait "^ $node " 10
e2e_keys :
e2e_type "window $reason"
e2e_keys Enter
e2e_wait "change window on $node .*1 passed" 10
ok ":window off / :window: the window comes back with step 1 passed"
e2e_keys q
e2e_wait "EXIT=0" 10

# The command line resumes the same window and ends it.
out=$("$OC_BIN" window --cluster llm-poc --nodes "$node" --reason "$reason" --auto 2>&1 </dev/null) ||
	fail "opsconsole window --auto: $out"
grep -q "resuming: 1 of 5 steps already done; next: cw-drain" <<<"$out" || fail "did not resume at cw-drain: $out"
grep -q "PASS cw-reserve" <<<"$out" && fail "the command line made the reservation again: $out"
for step in cw-drain cw-wait-jobs cw-reboot cw-end; do
	grep -q "PASS $step" <<<"$out" || fail "no PASS $step: $out"
done
[ -z "$(resv_on_node)" ] || fail "reservation still on $node: $(resv_on_node)"
[ "$(sinfo -h -n "$node" -o %t)" = idle ] || fail "$node is $(sinfo -h -n "$node" -o %t) after the window"
ok "opsconsole window --auto resumed the console's window at cw-drain and ended it: $node idle, $resv gone"
