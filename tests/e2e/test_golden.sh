#!/usr/bin/env bash
# Golden screens (issue 21): the views at 80x24 and 200x50 drawn from a
# recorded snapshot of the demo cluster (tests/golden/demo.jsonl, with a
# reservation of the console's own long default name) by the real binary
# in tmux, compared line by line with tests/golden/VIEW-SIZE.txt. A later
# change that cuts an identifier, moves a mark or pushes a column shows
# here as a diff. The snapshot's clock is the time it was taken, so the
# screens do not depend on when the test runs.
#
# OC_GOLDEN_UPDATE=1 writes the files again from what the binary draws
# (then read the diff before committing it).
. "$(dirname "$0")/lib.sh"

dir=$(cd "$(dirname "$0")/../golden" && pwd)
snap=$dir/demo.jsonl
state=$(mktemp -d)
e2e_on_exit rm -rf "$state"
failed=0

# golden NAME SIZE VIEW MARKER [KEYS...]: the screen of VIEW at SIZE after
# KEYS, once it shows MARKER and stops changing, against NAME-SIZE.txt.
golden() {
	local name=$1 size=$2 view=$3 marker=$4
	shift 4
	E2E_ENV="SLURM_CONF=/nonexistent TZ=UTC XDG_STATE_HOME=$state" e2e_start "$size" --snapshot "$snap" --view "$view"
	e2e_wait '\[recorded snapshot\]|recorded [0-9-]+ [0-9:]+' 10
	[ $# -gt 0 ] && e2e_keys "$@"
	e2e_wait "$marker" 5
	local last="" end=$((SECONDS + 10))
	while :; do
		e2e_snap
		[ "$E2E_LAST" = "$last" ] && break
		last=$E2E_LAST
		[ "$SECONDS" -lt "$end" ] || fail "$name $size: the screen did not settle"
		sleep 0.3
	done
	local file=$dir/$name-$size.txt
	if [ -n "${OC_GOLDEN_UPDATE:-}" ]; then
		printf '%s\n' "$E2E_LAST" >"$file"
		echo "wrote $file"
	elif ! diff -u "$file" <(printf '%s\n' "$E2E_LAST") >&2; then
		echo "FAIL: $name $size differs from $file (above)" >&2
		failed=1
	else
		ok "$name $size as $file"
	fi
	e2e_keys q
	e2e_wait 'EXIT=0' 5
}

for size in 80x24 200x50; do
	golden partitions "$size" partitions '^normal\* +up '
	golden queue "$size" queue 'demo-alice-over'
	golden nodes "$size" nodes '^ gpu-st-b300-16 '
	golden reservations "$size" reservations '^maint_20261201_2150 '
	golden health "$size" health 'health check'
done
# The hidden partition marked in its row; a tagged row and the sort mark.
golden partitions-hidden 80x24 partitions '^gpu \(hidden\) ' H
golden nodes-tagged-sorted 80x24 nodes 'STATE\^' Home Space Space s s
# The help, grouped and wrapped at 80 columns.
golden help 80x24 nodes '^Keys \(keymap' '?'

[ "$failed" -eq 0 ] || fail "golden screens differ (OC_GOLDEN_UPDATE=1 rewrites them; check the diff first)"
