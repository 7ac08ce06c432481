#!/usr/bin/env bash
# Issue 21, rules 1 and 10: identifiers are not cut silently and marks do
# not move the layout, at 80x24 and 200x50, in a UTF-8 locale and under
# LANG=C. Against the demo workload's jobs and nodes.
. "$(dirname "$0")/lib.sh"

# The demo's jobs: id and name, from squeue (the truth the screen is held to).
jobs=$(squeue -h -o '%i %j' | awk '$2 ~ /^demo-/')
[ -n "$jobs" ] || fail "the demo workload should have jobs in the queue"
longest=$(awk '{ if (length($2) > length(n)) n = $2 } END { print n }' <<<"$jobs")
[ "${#longest}" -gt 16 ] || fail "the demo workload should have a job name longer than 16: $longest"

# check_names MARK: every job's row shows its whole name, or a prefix of it
# ended by MARK (the cut mark); never a prefix without one.
check_names() {
	local mark=$1 id name line cell
	while read -r id name; do
		# (the id, a partition, then the name's start: " 1 Partitions"
		# on the tab bar is no job row)
		line=$(grep -E "^ +$id +[a-z]+ +demo-" <<<"$E2E_LAST") || fail "job $id is not on the screen"
		# The NAME column: the third cell (id, partition, name).
		cell=$(awk '{ print $3 }' <<<"$line")
		if [ "$cell" = "$name" ]; then
			continue
		fi
		[ "${cell%"$mark"}" != "$cell" ] || fail "job $id: name '$name' cut to '$cell' without the mark '$mark'"
		case "$name" in "${cell%"$mark"}"*) ;; *) fail "job $id: '$cell' is not a cut of '$name'" ;; esac
	done <<<"$jobs"
}

# 200x50: the queue's NAME column takes the room of its longest name.
e2e_start 200x50 --cluster llm-poc --view queue
e2e_wait '^ +JOBID +PARTITION +NAME' 15
e2e_wait " $longest " 15
check_names '…'
ok "200x50: every job name whole (the longest: $longest)"

# The partitions view ends at its last column, not at the right edge.
e2e_keys 1
e2e_wait '^PARTITION +AVAIL' 5
title=$(e2e_line '^PARTITION +AVAIL')
grep -Eq 'RUN +PEND *$' <<<"$title" || fail "no PEND after RUN: $title"
gap=$(sed -E 's/.*RUN( +)PEND.*/\1/' <<<"$title")
[ "${#gap}" -le 2 ] || fail "PEND is ${#gap} columns from RUN: $title"
ok "200x50: the partitions view's last column follows the others"

# A hidden partition says so in its row.
e2e_keys H
e2e_wait '^gpu \(hidden\) +up ' 5
e2e_keys H
e2e_wait_gone '^gpu \(hidden\) ' 5
ok "200x50: the hidden gpu partition is marked hidden in its row"
e2e_keys q
e2e_wait 'EXIT=0' 5

# 80x24: names that do not fit end with the cut mark.
for lang in C.UTF-8 C; do
	mark='…'
	[ "$lang" = C ] && mark='>'
	E2E_LANG=$lang e2e_start 80x24 --cluster llm-poc --view queue
	e2e_wait '^ +JOBID +PARTITION +NAME' 15
	e2e_wait "^ +$(head -n1 <<<"$jobs" | cut -d' ' -f1) +[a-z]+ +demo-" 15
	check_names "$mark"
	grep -qF "$mark" <<<"$E2E_LAST" || fail "LANG=$lang 80x24: nothing cut at all (the test proves nothing)"
	ok "LANG=$lang 80x24: job names whole or cut with '$mark'"
	e2e_keys q
	e2e_wait 'EXIT=0' 5
done

# Tagging and sorting move nothing: the tag mark has a column of its own,
# the sort mark goes where the title leaves room.
e2e_start 80x24 --cluster llm-poc --view nodes
e2e_wait '^ NODE +STATE' 15
e2e_wait '^ gpu-st-b300-16 ' 15
# The whole first screen: the partitions come after the nodes.
e2e_wait '^ gpu-st-b300-1 .*debug' 15
before_row=$(e2e_line '^ gpu-st-b300-1 ')
before_title=$(e2e_line '^ NODE +STATE')
e2e_keys Home Space
e2e_wait '1 tagged' 5
after_row=$(e2e_line '^\+gpu-st-b300-1 ')
[ -n "$after_row" ] || fail "no + on the tagged row"
[ "${after_row:1}" = "${before_row:1}" ] || fail "tagging moved the row: '$before_row' then '$after_row'"
ok "80x24: the tag mark moves nothing in its row"
e2e_keys u
e2e_wait_gone 'tagged' 5
for col in NODE STATE CPUS GPUS; do
	e2e_keys s
	e2e_wait "^ (NODE.*)?$col\\^" 5
	after_title=$(e2e_line "^ (NODE.*)?$col\\^")
	# The title text at the same place, the mark only where a blank was.
	for t in NODE STATE CPUS GPUS; do
		b=${before_title%%"$t"*}
		a=${after_title%%"$t"*}
		[ "${#a}" -eq "${#b}" ] || fail "sorting by $col moved $t: '$before_title' then '$after_title'"
	done
done
ok "80x24: the sort mark moves no title"
e2e_keys q
e2e_wait 'EXIT=0' 5
