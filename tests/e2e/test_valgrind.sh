#!/usr/bin/env bash
# The console under valgrind (memcheck), driven in tmux against the
# cluster through a scripted session: every view, a filter, sorting,
# tagging, the help screen, a node's detail, the drain and reservation
# forms (reviewed, then cancelled), the audit view, quit. Passes when
# valgrind reports no invalid access, no use of uninitialised values and
# no definite or indirect leak (tests/valgrind.supp documents the one
# one-time block of ncurses' panel library that is suppressed; "possibly
# lost" blocks are libslurm's xmalloc'd one-time configuration, whose
# pointers point past a header). Skipped (77) for a sanitizer build.
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 77; }
if grep -q __asan_init "$OC_BIN" 2>/dev/null; then
	echo "$OC_BIN is built with AddressSanitizer: valgrind cannot run it; skipped"
	exit 77
fi
supp="$(cd "$(dirname "$0")/.." && pwd)/valgrind.supp"
tmp=$(mktemp -d)
e2e_on_exit rm -rf "$tmp"
log="$tmp/valgrind.log"
real_bin=$OC_BIN
# e2e_start runs $OC_BIN ARGS: make it valgrind with its options.
cat >"$tmp/vg" <<VG
#!/bin/sh
exec valgrind --leak-check=full --show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect --track-origins=yes --error-exitcode=99 \
	--suppressions="$supp" --log-file="$log" "$real_bin" "\$@"
VG
chmod +x "$tmp/vg"
OC_BIN="$tmp/vg"

e2e_start 120x32 --cluster llm-poc
e2e_wait '^normal\* +up ' 90
for v in 2 3 4 5 6 7 8 1; do
	e2e_keys "$v"
	e2e_wait ' [0-9] ?[A-Z][a-z]+  ' 20
done
e2e_keys 2
e2e_wait '^ *JOBID' 20
e2e_keys s s S
e2e_keys 3
e2e_wait '^ NODE +STATE' 20
e2e_keys /
e2e_type 'b300-1'
e2e_keys Enter
e2e_keys Space '*' u
e2e_keys Escape Enter
e2e_wait 'CfgTRES|State' 20
e2e_keys Escape
e2e_keys '?'
e2e_wait 'quit +quit the console' 20
e2e_keys Escape
e2e_keys d
e2e_wait 'Drain nodes' 20
e2e_type 'valgrind session'
e2e_keys Enter
e2e_wait 'Confirm: Drain nodes' 30
e2e_keys Escape
e2e_wait 'Drain nodes' 20
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 20
e2e_keys m
e2e_wait 'Create a maintenance reservation' 20
e2e_keys Escape
e2e_wait 'cancelled, nothing changed' 20
e2e_keys :
e2e_type 'queue nor'
e2e_keys Tab Enter
e2e_wait '^ *JOBID' 20
e2e_keys 7
e2e_wait '^TIME +USER +ACTION' 20   # the audit view's own header
e2e_tmux resize-window -t "$E2E_SESSION" -x 80 -y 24
e2e_tmux resize-window -t "$E2E_SESSION" -x 30 -y 6
e2e_tmux resize-window -t "$E2E_SESSION" -x 120 -y 32
e2e_keys 1
e2e_wait '^normal\* +up ' 20
e2e_keys q
e2e_wait 'EXIT=[0-9]+' 120
ok "scripted session done under valgrind"
grep -q 'ERROR SUMMARY: ' "$log" || fail "no valgrind summary in $log: $(cat "$log")"
if ! grep -q 'EXIT=0' <<<"$E2E_LAST" ||
	grep -Eq 'Invalid (read|write|free)|uninitialised|Mismatched free|definitely lost in|indirectly lost in' "$log"; then
	cat "$log" >&2
	fail "valgrind reported errors (see above)"
fi
grep -E 'ERROR SUMMARY|definitely lost:|indirectly lost:|possibly lost:|still reachable:|suppressed:' "$log" | sed 's/^==[0-9]*== */  /'
ok "valgrind: no invalid access, no uninitialised values, no definite or indirect leaks"
