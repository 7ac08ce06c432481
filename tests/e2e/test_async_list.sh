#!/usr/bin/env bash
# A long list (OC_ASYNC_ROWS items and more, 20,000 by default; 1 here, so
# that the demo queue is one) is collected, sorted and filtered on a
# thread of its own, the screen keeping the last list until the new one is
# ready. Every step gives the screen the same steps give on the UI thread
# (OC_ASYNC_ROWS=0), the cursor stays on its job, and a job submitted or
# cancelled meanwhile comes and goes.
. "$(dirname "$0")/lib.sh"

tag="e2e-async-$$"
e2e_cancel_on_exit "$tag-alpha" "$tag-beta" "$tag-gamma" "$tag-delta" "$tag-late"
# Held jobs of two users and teams, names, GPUs and node counts apart: a
# list the filter keeps whole, which no scheduling changes while the two
# consoles run one after the other.
users=(alice bob carol dave)
accts=(team-a team-a team-b team-b)
names=(alpha beta gamma delta)
ids=()
for i in $(seq 0 11); do
	u=$((i % 4))
	out=$(runuser -u "${users[$u]}" -- sbatch --parsable -H -p large --qos=large_qos -A "${accts[$u]}" \
		-J "$tag-${names[$(((i * 7) % 4))]}" -N $((1 + i % 2)) --gres=gpu:$((1 + (i * 5) % 8)) \
		-t $((10 + (i * 13) % 50)) --chdir=/tmp -o /dev/null --wrap 'sleep 60' 2>&1) ||
		fail "sbatch failed: $out"
	ids+=("${out%%;*}")
done
# The rows are found by job id: the NAME column is narrower than the names.
idre="^ +($(IFS='|'; echo "${ids[*]}")) "
wait_cmd 20 sh -c "[ \$(squeue -h -o %j | grep -c '^$tag-') -eq 12 ]"

# The job rows, and the header and tab bar lines (the sort mark; the
# count, the filter and "(sorting...)" while a list is being made).
rows_of() { grep -E -- "$idre|^ +JOBID | Queue .*jobs" <<<"$1" || true; }
lat=$(mktemp -u /tmp/oc-async-lat.XXXXXX)
dir=$(mktemp -d /tmp/oc-async.XXXXXX)
e2e_on_exit rm -rf "$lat" "$dir"
count() { grep -c "^$1" "$lat" 2>/dev/null || true; }

# The steps: the filter, then each column as sort key, a reverse, the
# cursor moved, a sort after it.
steps=(s s s s s s s s s s s s S S s Down Down s S)

# run ROWS: the console with OC_ASYNC_ROWS=ROWS through the steps; the
# job rows after each into $dir/ROWS.N. With ROWS=0 (the UI thread) each
# step's screen is kept once its frame is logged and the screen holds
# still; with 1 the screen must come to the one kept (10 s).
run() {
	local r=$1 i n
	rm -f "$lat"
	E2E_ENV="OC_ASYNC_ROWS=$r OC_LATENCY_LOG=$lat" e2e_start 200x50 --cluster llm-poc --view queue
	e2e_wait '^ +JOBID +PARTITION' 15
	# The whole queue on screen before the filter (off the UI thread it
	# comes after the first frame): a column is as wide as the widest
	# text it has shown, so both runs must have shown the same rows.
	wait_cmd 15 sh -c "[ \$(tmux -L $E2E_SOCKET capture-pane -p -t $E2E_SESSION | grep -Ec -- '$idre') -eq 12 ]"
	e2e_keys /
	e2e_type "$tag"
	e2e_keys Enter
	wait_cmd 15 sh -c "[ \$(tmux -L $E2E_SOCKET capture-pane -p -t $E2E_SESSION | grep -Ec -- '$idre') -eq 12 ]"
	for i in "${!steps[@]}"; do
		n=$(count key)
		e2e_keys "${steps[$i]}"
		wait_cmd 5 sh -c "[ \$(grep -c '^key' $lat) -gt $n ]"
		if [ "$r" = 0 ]; then
			local prev="" cur
			local end=$((SECONDS + 5))
			while :; do
				e2e_snap
				cur=$(rows_of "$E2E_LAST")
				[ -n "$cur" ] && [ "$cur" = "$prev" ] && break
				[ "$SECONDS" -lt "$end" ] || fail "step $i: the screen did not hold still"
				prev=$cur
				sleep 0.2
			done
			printf '%s\n' "$cur" >"$dir/0.$i"
		else
			local want end
			want=$(cat "$dir/0.$i")
			end=$((SECONDS + 10))
			while :; do
				e2e_snap
				[ "$(rows_of "$E2E_LAST")" = "$want" ] && break
				if [ "$SECONDS" -ge "$end" ]; then
					diff <(printf '%s\n' "$want") <(rows_of "$E2E_LAST") || true
					fail "step $i (${steps[$i]}): off the UI thread, the list is not the one made on it"
				fi
				sleep 0.1
			done
		fi
	done
	# Enter on the cursor's row: the job it stayed on through the sorts.
	e2e_keys Enter
	e2e_wait "Job +[0-9]+ +$tag" 10
	grep -Eo "Job +[0-9]+ +$tag-[a-z]+" <<<"$E2E_LAST" | sed -n 1p >"$dir/$r.job"
	e2e_keys Escape
	e2e_wait_gone "Job +[0-9]+ +$tag" 5
	if [ "$r" = 0 ]; then
		e2e_keys q
		e2e_wait 'EXIT=0' 5
	fi
}

run 0
[ "$(count 'list made')" = 0 ] || fail "OC_ASYNC_ROWS=0 made lists off the UI thread: $(grep '^list made' "$lat")"
ok "on the UI thread: ${#steps[@]} steps kept"
run 1
made=$(count 'list made')
[ "$made" -ge 10 ] || fail "OC_ASYNC_ROWS=1 made only $made lists off the UI thread"
ok "off the UI thread ($made lists made, e.g. '$(grep -m1 '^list made sorting' "$lat")'): every step's rows, sort mark and tab bar are the UI thread's"
[ -s "$dir/0.job" ] && [ "$(cat "$dir/0.job")" = "$(cat "$dir/1.job")" ] ||
	fail "the cursor ended on $(cat "$dir/1.job") off the UI thread, on $(cat "$dir/0.job") on it"
ok "the cursor stayed on its job through the sorts ($(cat "$dir/1.job"))"

# New tables: collected off the UI thread too.
late=$(runuser -u alice -- sbatch --parsable -H -p large --qos=large_qos -A team-a -J "$tag-late" \
	--chdir=/tmp -o /dev/null --wrap 'sleep 60' 2>&1) || fail "sbatch failed: $late"
late=${late%%;*}
e2e_wait "^ +$late +large " 20
ok "a job submitted meanwhile appears ($late)"
n=$(count 'list made updating')
[ "$n" -ge 1 ] || fail "no list was collected off the UI thread for the new job"
scancel "$late"
e2e_wait_gone "^ +$late " 20
ok "and goes when cancelled ($(count 'list made updating') lists collected off the UI thread)"
e2e_keys q
e2e_wait 'EXIT=0' 5
