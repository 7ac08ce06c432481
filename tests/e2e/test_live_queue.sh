#!/usr/bin/env bash
# A job submitted with sbatch while the console runs appears in the queue
# view without a restart, with its state; cancelling it makes it go. A
# running job's time moves on by the clock's partial redraw, which draws
# what a whole draw would.
. "$(dirname "$0")/lib.sh"

lat=$(mktemp -u /tmp/oc-live-lat.XXXXXX)
e2e_on_exit rm -f "$lat"
E2E_ENV="OC_LATENCY_LOG=$lat OC_LATENCY_FRAMES=1" e2e_start 100x30 --cluster llm-poc --view queue
e2e_wait '^ +JOBID +PARTITION' 15
name="e2e-live-$$"
jobid=$(runuser -u alice -- sbatch --parsable -p debug --qos=debug_qos -A team-a -J "$name" \
	--wrap 'sleep 600' 2>&1) || fail "sbatch failed: $jobid"
jobid=${jobid%%;*}
e2e_on_exit scancel "$jobid"
e2e_wait "^ +$jobid +debug +e2e-live\\S* +alice +team-a +(R|PD|CF) " 15
ok "job $jobid appeared in the queue view"
state=$(squeue -h -j "$jobid" -o %t)
e2e_wait "^ +$jobid .* $state " 10
ok "its state matches squeue ($state)"

scancel "$jobid"
e2e_wait_gone "^ +$jobid " 20
ok "cancelled job left the queue view"

# Every 2 s the clock moves and only what changed is drawn again
# (screen.c draw_tick, "draw cells" in the latency log): the running job's
# TIME advances with no key pressed, and the screen drawn that way is the
# screen a whole draw (Ctrl-L) makes, clock figures aside, attributes
# included. The list is filtered to that job, so that no other job's
# change comes between the two; the tab bar's counts may still change
# (a demo job ending): three tries.
idle=$(sinfo -h -N -p large -o '%n %t' | awk '$2 == "idle" { print $1; exit }') # idle, not drained
[ -n "$idle" ] || fail "no idle node in large for a running job"
rjob=$(runuser -u alice -- sbatch --parsable -p large --qos=large_qos -A team-a -J "$name-r" -w "$idle" \
	--chdir=/tmp -o /dev/null --wrap 'sleep 600' 2>&1) || fail "sbatch failed: $rjob"
rjob=${rjob%%;*}
e2e_on_exit scancel "$rjob"
wait_cmd 60 sh -c "[ \"\$(squeue -h -j $rjob -o %t)\" = R ]"
e2e_keys /
e2e_type "$rjob"
e2e_keys Enter
row_re="^ +$rjob +large +e2e-live\\S* +alice +team-a +R +([0-9:-]+) "
e2e_wait "$row_re" 15
e2e_wait_gone "^ +$jobid " 5
[[ $(grep -E -- "$row_re" <<<"$E2E_LAST") =~ $row_re ]] || fail "no TIME in the row of $rjob"
t1=${BASH_REMATCH[1]}
e2e_wait_gone "^ +$rjob .* R +$t1 " 10
e2e_wait "$row_re" 2
ok "the running job's TIME moved on by itself ($t1, then more): the clock's redraw"
# The clock steps every 2 s with refresh_seconds 2 (screen.c clock_step):
# the frames the clock alone made fall on even seconds, 2 s or more apart.
n0=$(grep -c ' clock ' "$lat" || true)
more_clock() { [ "$(grep -c ' clock ' "$lat" || true)" -ge $((n0 + 3)) ]; }
wait_cmd 10 more_clock
secs=$(grep ' clock ' "$lat" | tail -n +$((n0 + 1)) | awk '{ print $4 }' | tr '\n' ' ')
prev=
for s in $secs; do
	((s % 2 == 0)) || fail "a frame of the clock at an odd second ($s of: $secs)"
	[ -z "$prev" ] || ((s - prev >= 2)) || fail "frames of the clock $prev and $s less than 2 s apart"
	prev=$s
done
ok "the clock's frames come every 2 s, on even seconds ($secs)"
mask() { sed -E 's/[0-9]+:[0-9]{2}(:[0-9]{2})?/T/g; s/updated [0-9]+s ago/updated Ns ago/'; }
count() { grep -cE "^draw $1( |\$)" "$lat" || true; }
more() { [ "$(count "$1")" -gt "$2" ]; } # more "draw $1" lines than $2
same=false
for try in 1 2 3; do
	n=$(count whole)
	e2e_keys C-l
	wait_cmd 5 more whole "$n"
	whole=$(e2e_capture_escapes)
	n=$(count cells)
	wait_cmd 5 more cells "$n"
	ticked=$(e2e_capture_escapes)
	if [ "$(mask <<<"$ticked")" = "$(mask <<<"$whole")" ]; then
		same=true
		break
	fi
	echo "try $try: the screens differ:"
	diff <(mask <<<"$whole") <(mask <<<"$ticked") || true
done
$same || fail "the screen the clock drew differs from the whole draw under it, three times (diffs above)"
ok "the clock's partial draw is the whole draw, attributes included ($(count cells) partial draws)"

# Each draw reaches the terminal in one write() (screen.c term_open:
# ncurses 6.4 flushed at every cursor motion until the screen had once
# been left and taken again, so that each changed cell, here the clock
# on the first line and the job's TIME on another, was a write of its
# own). The UI thread is the process's first; its writes to the terminal
# are counted over 4 s against the draws the latency log saw meanwhile.
pane=$(e2e_tmux display -p -t "$E2E_SESSION" '#{pane_pid}')
pid=$(pgrep -P "$pane" -x opsconsole) || fail "no console under the tmux pane ($pane)"
command -v strace >/dev/null || fail "strace is not installed (tests/install-deps.sh installs it)"
trace=$(mktemp /tmp/oc-live-strace.XXXXXX)
e2e_on_exit rm -f "$trace"
draws0=$(grep -c '^draw ' "$lat" || true)
timeout -s INT 5 strace -qq -e trace=write -e signal=none -p "$pid" -o "$trace" || true
draws=$(($(grep -c '^draw ' "$lat" || true) - draws0))
writes=$(grep -c '^write(1,' "$trace" || true)
[ "$draws" -ge 2 ] || fail "only $draws draws in 5 s of strace (the clock draws one every 2 s)"
[ "$writes" -le $((draws + 1)) ] ||
	fail "$writes writes to the terminal for $draws draws: more than one a draw ($(grep '^write(1,' "$trace" | head -3 | tr '\n' ' '))"
ok "one write() to the terminal a draw ($writes writes, $draws draws)"
e2e_keys q
e2e_wait 'EXIT=0' 5
