#!/usr/bin/env bash
# slurmctld stopped with SIGSTOP: the console still answers keys, shows the
# stale banner with the age, and recovers by itself after SIGCONT.
. "$(dirname "$0")/lib.sh"

pidfile="$OC_CLUSTER_DIR/run/slurmctld.pid"
[ -r "$pidfile" ] || fail "no slurmctld pid file at $pidfile"
ctld=$(cat "$pidfile")
kill -0 "$ctld" || fail "slurmctld ($ctld) is not running"
e2e_on_exit kill -CONT "$ctld"

e2e_start 80x24 --cluster llm-poc
e2e_wait '^normal\* +up ' 15
e2e_wait_gone 'STALE' 5
kill -STOP "$ctld"
ok "slurmctld $ctld stopped"

# Keys answer at once although the collector is stuck in a request.
e2e_keys 3
e2e_wait '^ NODE +STATE' 2
e2e_keys 1
e2e_wait '^PARTITION +AVAIL' 2
ok "keys answer while slurmctld is stopped"

e2e_wait 'STALE: slurmctld (not answering|unreachable) since [0-9:]+ \([0-9]+s\)' 30
e2e_wait '^normal\* +up ' 2   # the last data stays on screen
ok "stale banner shown, old data kept"

kill -CONT "$ctld"
e2e_wait_gone 'STALE' 40
e2e_wait 'updated [0-3]s ago' 10
ok "recovered by itself after SIGCONT"
e2e_keys q
e2e_wait 'EXIT=0' 5
