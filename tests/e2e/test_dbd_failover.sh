#!/usr/bin/env bash
# A backup slurmdbd: the cluster is started again with one (cluster.sh
# start --backup-dbd: DbdBackupHost oc-dbd2 in its own network and UTS
# namespace, AccountingStorageBackupHost its address). The scheduler view
# and --once scheduler (libslurm and CLI backends) have a row for each
# slurmdbd host. From 24.11, where Slurm can ping a slurmdbd: the primary
# answers, the backup in standby does not listen and is not flagged.
# Before 24.11 both rows say "unknown" and why. The primary is killed
# (-9): the backup takes control, accounting keeps working through it (an
# onboarding from the console is written, read back, --once history reads through it), and
# from 24.11 the rows say the primary is down and the backup serves. The
# primary is started again: the backup gives control back, the rows go
# back to standby. The cluster goes back to one slurmdbd at the end.
. "$(dirname "$0")/lib.sh"

cluster="$(cd "$(dirname "$0")/../cluster" && pwd)/cluster.sh"
work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
team="team-dbf"
drop_account() {
	sacctmgr -i delete user where account="$1" >/dev/null 2>&1 || true
	sacctmgr -i delete account "$1" >/dev/null 2>&1 || true
}
drop_account "$team"
# Last to run (cleanups run in order): back to one slurmdbd.
e2e_on_exit drop_account "$team"
e2e_on_exit "$cluster" start

"$cluster" start --backup-dbd >"$work/start.log" 2>&1 || { cat "$work/start.log"; fail "cluster.sh start --backup-dbd"; }
backup=$(awk -F= '$1 == "AccountingStorageBackupHost" { print $2 }' "$SLURM_CONF")
[ -n "$backup" ] || fail "no AccountingStorageBackupHost in $SLURM_CONF"
blog=$OC_CLUSTER_DIR/log/slurmdbd-backup.log
# log_has LINES TEXT: TEXT in the backup's log after its first LINES lines
# (what happened since then, not in an earlier run).
log_lines() { wc -l <"$blog"; }
log_has() { grep -q -- "$2" <<<"$(tail -n +"$(($1 + 1))" "$blog")"; }
grep -q 'running in background mode' "$blog" || fail "the backup slurmdbd is not in standby: $(tail -n 5 "$blog")"
ok "backup slurmdbd oc-dbd2 at $backup in standby"

v=$(slurmctld -V | awk '{ print $2 }')
pingable=0
(($(echo "$v" | awk -F. '{ print $1 * 100 + $2 }') >= 2411)) && pingable=1

xdg=$(mktemp -d /tmp/oc-e2e-dbf.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
jq '. + {backend: "cli"}' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"

# dbd_rows LABEL PRIMARY_RE BACKUP_RE BACKUP_UNUSUAL [XDG]: --once scheduler's
# slurmdbd rows against what is expected.
dbd_rows() {
	local label=$1 pre=$2 bre=$3 bunusual=$4 x=${5:-$XDG_CONFIG_HOME} p b bu
	XDG_CONFIG_HOME=$x "$OC_BIN" --cluster llm-poc --once scheduler --json >"$work/s.json" || [ $? -eq 1 ] ||
		fail "$label: --once scheduler failed"
	p=$(jq -r '.rows[] | select(.group == "slurmdbd" and (.item | endswith("(primary)"))) | .value' "$work/s.json")
	b=$(jq -r --arg h "$backup (backup)" '.rows[] | select(.group == "slurmdbd" and .item == $h) | .value' "$work/s.json")
	bu=$(jq -r --arg h "$backup (backup)" '.rows[] | select(.group == "slurmdbd" and .item == $h) | .unusual' "$work/s.json")
	[[ $p =~ $pre ]] || fail "$label: primary slurmdbd is '$p', want /$pre/"
	[[ $b =~ $bre ]] || fail "$label: backup slurmdbd is '$b', want /$bre/ ($(jq -c '.rows[] | select(.group == "slurmdbd")' "$work/s.json"))"
	[ "$bu" = "$bunusual" ] || fail "$label: backup slurmdbd unusual=$bu, want $bunusual"
	ok "$label: primary '$p', backup '$b'"
}
both_ways() { # LABEL PRIMARY_RE BACKUP_RE BACKUP_UNUSUAL
	dbd_rows "libslurm, $1" "$2" "$3" "$4"
	dbd_rows "CLI, $1" "$2" "$3" "$4" "$xdg"
}
# Both up. sacctmgr ping stops at the first host that answers: with the CLI
# backend the standby backup is not known, and its row says why.
standby_rows() {
	dbd_rows "libslurm, $1" '^answers since ' '^not listening since ' false
	dbd_rows "CLI, $1" '^answers since ' '^unknown$' false "$xdg"
	jq -e '.rows[] | select(.group == "slurmdbd") | select(.note // "" | test("only when the primary is down"))' \
		"$work/s.json" >/dev/null || fail "CLI, $1: the unknown backup row does not say why"
}
if ((pingable)); then
	standby_rows "both up"
else
	both_ways "both up ($v)" '^unknown$' '^unknown$' false
	jq -e '.rows[] | select(.group == "slurmdbd") | select(.note | test("cannot ping a slurmdbd"))' "$work/s.json" >/dev/null ||
		fail "$v: the unknown slurmdbd rows do not say why"
fi

e2e_start 120x30 --cluster llm-poc
e2e_wait "PARTITION" 15
e2e_keys D
e2e_wait "$backup \(backup\)" 15
ok "the scheduler view has a row for the backup slurmdbd"

# The primary dies; the backup notices within a few seconds.
n0=$(log_lines)
kill -9 "$(cat "$OC_CLUSTER_DIR/run/slurmdbd.pid")"
wait_cmd 30 log_has "$n0" 'Taking Control'
# It listens a moment after it says so.
port=$(awk -F= '$1 == "AccountingStoragePort" { print $2 }' "$SLURM_CONF")
wait_cmd 30 timeout 2 bash -c "exec 3<>/dev/tcp/$backup/$port"
ok "the backup slurmdbd took control and listens"
if ((pingable)); then
	both_ways "primary killed" '^DOWN since ' '^serves since ' true
	# The view pings with its reload, every 10 s (medium interval).
	e2e_wait "$backup \(backup\) +serves since" 45
	ok "the scheduler view says the backup serves"
fi

# Accounting works through the backup: the console writes an onboarding
# and reads it back (its own read-back asks slurmdbd), and --once history
# reads sacct's records through it. (slurmctld's own cache of
# associations is not checked: on 24.11 and 26.05 here, slurmctld did not
# take a new association from the backup within 150 s; 22.05 did.)
cat >"$work/$team.json" <<JSON
{"account": "$team", "description": "dbd failover", "gpu_quota": 16, "users": ["carol"]}
JSON
out=$("$OC_BIN" onboard --cluster llm-poc --file "$work/$team.json" --yes 2>&1) || fail "onboarding through the backup: $out"
grep -q 'Read back: associations, QoS and GrpTRES are as asked' <<<"$out" || fail "no read-back through the backup: $out"
[ "$(sacctmgr -n -P show assoc where account="$team" user=carol format=account)" = "$team" ] ||
	fail "carol is not in $team after the onboarding: $out"
rc=0
"$OC_BIN" --cluster llm-poc --once history --json >"$work/h.json" || rc=$?
[ $rc -le 1 ] || fail "--once history through the backup: exit $rc"
[ "$(jq -c '.warnings // []' "$work/h.json")" = "[]" ] || fail "--once history through the backup: $(jq -c .warnings "$work/h.json")"
ok "an onboarding was written and read back through the backup slurmdbd; --once history read through it"

# The primary comes back; the backup gives control back.
# slurmdbd gives control back one of two ways: it stops its threads and
# says so, or, when its usage rollup (started when it took control) is
# still running, it cancels the rollup and starts itself again (the same
# in 22.05 to 26.05: src/slurmdbd/slurmdbd.c). Either way it says first
# that the primary has come back.
n1=$(log_lines)
"$cluster" start --backup-dbd >"$work/start2.log" 2>&1 || { cat "$work/start2.log"; fail "starting the primary again"; }
gave_back() { log_has "$n1" 'Backup has given up control' || log_has "$n1" 'the backup dbd will now restart'; }
if ! try_cmd 30 gave_back; then
	echo "---- the backup slurmdbd's log since the primary was started again ----" >&2
	tail -n +"$((n1 + 1))" "$blog" >&2
	echo "---- the primary slurmdbd's last lines ----" >&2
	tail -n 20 "$OC_CLUSTER_DIR/log/slurmdbd.log" >&2
	fail "the backup slurmdbd did not give control back within 30 s"
fi
log_has "$n1" 'Primary has come back' || fail "the backup gave control back without saying the primary came back: $(tail -n +"$((n1 + 1))" "$blog")"
ok "the backup gave control back to the primary ($(grep -o 'Backup has given up control\|the backup dbd will now restart' <<<"$(tail -n +"$((n1 + 1))" "$blog")" | head -n 1))"
if ((pingable)); then
	# Until the backup stopped listening too (it gives up a moment after
	# it says so).
	rows_back() {
		"$OC_BIN" --cluster llm-poc --once scheduler --json >"$work/b.json" || [ $? -eq 1 ] || return 1
		jq -e --arg h "$backup (backup)" '[.rows[] | select(.group == "slurmdbd")] |
			(map(select((.item | endswith("(primary)")) and (.value | startswith("answers")))) | length == 1) and
			(map(select(.item == $h and (.value | startswith("not listening")))) | length == 1)' "$work/b.json" >/dev/null
	}
	wait_cmd 30 rows_back
	standby_rows "primary back"
fi
