#!/usr/bin/env bash
# Fault drill: slurmdbd down, then MariaDB down, then munge down, each
# while the console runs. slurmdbd and MariaDB: the quota view says that
# slurmdbd is unreachable (it shows slurmctld's cache), the other views
# keep working (no STALE), onboarding refuses with "slurmdbd does not
# answer" and changes nothing. munge: every slurmctld request fails; the
# STALE banner says there is no credential (is munged running?) with
# Slurm's authentication error, keys keep answering, onboarding refuses
# with "no munge credential (is munged running?)". Each
# daemon is brought back with tests/cluster/cluster.sh start and the
# console recovers by itself.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
restore() { "$cluster" start >/dev/null 2>&1 || "$cluster" start; }
e2e_on_exit restore
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# stop_daemon PIDFILE [SECONDS]: TERM and wait. slurmdbd 24.11 can take
# about 30 s to exit: after slurmctld re-registered while its old
# connection was still open ("A new registration for cluster ... closing
# other connection"), its shutdown waits for that connection's thread
# (seen in CI right after e2e.dbd_failover restarted the cluster).
stop_daemon() {
	local pid
	pid=$(cat "$1") || fail "no pid file $1"
	kill -TERM "$pid"
	wait_cmd "${2:-30}" gone "$pid"
}
accounts() { sacctmgr -P -n show assoc format=account,user,qos,grptres 2>/dev/null | sort; }
acct_before=$(accounts)
[ -n "$acct_before" ] || fail "sacctmgr shows no associations before the drill"

# onboard_refused [REGEX]: the onboarding form refuses team-drill with
# REGEX (default "slurmdbd does not answer") and no account appears.
onboard_refused() {
	local re=${1:-slurmdbd does not answer}
	e2e_keys :
	e2e_type onboard
	e2e_keys Enter
	e2e_wait 'Onboard a team \(sacctmgr\)' 5
	e2e_type team-drill
	e2e_keys Tab Tab Tab
	e2e_type 8
	e2e_keys Enter
	e2e_wait "$re" 60
	e2e_keys Escape
	e2e_wait 'cancelled, nothing changed' 5
}

e2e_start 120x32 --cluster llm-poc --view quota
e2e_wait '^ *[+-] team-a ' 15

# --- slurmdbd down -----------------------------------------------------------
stop_daemon "$OC_CLUSTER_DIR/run/slurmdbd.pid" 90
ok "slurmdbd stopped"
e2e_wait 'slurmdbd unreachable since [0-9:]+' 40
e2e_wait '^ *[+-] team-a +[0-9]+/64' 2
ok "quota view: says slurmdbd is unreachable, keeps slurmctld's numbers"
e2e_keys 1
e2e_wait '^normal\* +up ' 3
e2e_wait_gone 'STALE' 5
ok "partitions view keeps working"
onboard_refused
ok "onboarding refused: slurmdbd does not answer"
restore
e2e_keys 5
e2e_wait_gone 'slurmdbd unreachable' 90
ok "slurmdbd back: the quota view recovers by itself"
[ "$(accounts)" = "$acct_before" ] || fail "the accounting changed while slurmdbd was down"

# --- MariaDB down ------------------------------------------------------------
stop_daemon "$OC_CLUSTER_DIR/mysql/mariadbd.pid"
ok "MariaDB stopped"
e2e_keys 3
e2e_wait '^ NODE +STATE' 3
e2e_wait_gone 'STALE' 5
ok "nodes view keeps working"
onboard_refused
ok "onboarding refused with MariaDB down"
restore
wait_cmd 60 sh -c 'sacctmgr -P -n show cluster format=cluster | grep -q .'
[ "$(accounts)" = "$acct_before" ] || fail "the accounting changed while MariaDB was down"
ok "MariaDB back, accounting unchanged"

# --- munge down ----------------------------------------------------------------
stop_daemon "$OC_CLUSTER_DIR/munge/munged.pid"
ok "munged stopped"
e2e_keys 1
e2e_wait 'STALE: no credential for slurmctld \(is munged running\?\) since [0-9:]+ \([0-9]+s\): .*authentication' 40
e2e_keys 3
e2e_wait '^ NODE +STATE' 2
ok "munge down: STALE names the authentication error, keys answer"
onboard_refused 'no munge credential \(is munged running\?\)'
ok "onboarding refused: no munge credential"
restore
e2e_wait_gone 'STALE' 90
e2e_wait 'updated [0-3]s ago' 10
ok "munge back: data returns by itself"
e2e_keys q
e2e_wait 'EXIT=0' 10
"$cluster" status >/dev/null || fail "cluster not healthy after the drill"
ok "cluster restored"
