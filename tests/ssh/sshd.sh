#!/usr/bin/env bash
# tests/ssh/sshd.sh - a private, real OpenSSH server for the SSH tests
#
#   sshd.sh start  [--dir DIR]   # idempotent; waits until the port answers
#   sshd.sh stop   [--dir DIR]   # the server and every session it started
#   sshd.sh status [--dir DIR]
#   sshd.sh env    [--dir DIR]   # eval "$(tests/ssh/sshd.sh env)"
#
# DIR is --dir, else $OC_SSHD_DIR, else <repo>/build/sshd; it holds
# everything: sshd_config, the host key host_ed25519_key, the client key
# client_ed25519 (no passphrase) listed in authorized_keys, known_hosts (the
# host key for [127.0.0.1]:PORT and [localhost]:PORT), sshd.pid, sshd.log.
# The server listens on 127.0.0.1:$OC_SSHD_PORT (default 2222) only and
# takes public keys only (no passwords, no PAM). When SLURM_CONF is set at
# start, the sessions get it too (SetEnv), as the remote commands must find
# the private cluster's slurm.conf the way a head node's commands find
# theirs. Besides root, the OS user $OC_SSH_USER (default octest, made by
# start when missing: no password, home /, /bin/bash) logs in with the
# same key (AuthorizedKeysFile is one file for every user): a non-root
# login, as on a head node. Runs as root (sshd needs it); installs nothing
# (tests/install-deps.sh adds openssh-server and openssh-client).
#
# Facts learnt while writing this (OpenSSH 9.2, Debian 12):
#  * sshd refuses to start without its privilege separation folder
#    /run/sshd ("Missing privilege separation directory"); start makes it.
#  * Every connection's sshd calls setsid(): a session does not stay in the
#    server's process group, and it outlives a killed server. sshd also
#    writes its process title over its argv and environment, so an
#    environment marker cannot be read back from /proc. stop therefore
#    ends the server (its title names DIR/sshd_config), every process with
#    a TCP socket on 127.0.0.1:PORT (the sessions, ss -p), and all their
#    descendants, so no session is left behind.
#  * Without PAM, sshd refuses accounts whose password field starts with
#    "!" ("account is locked"), which is what useradd leaves: the test user
#    gets "*" (no password, not locked).
#  * The server starts from an empty environment (PATH only), so that
#    tests/cluster/cluster.sh stop, which ends processes carrying the
#    cluster's SLURM_CONF, leaves it alone.
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
SSHD=${OC_SSHD_BIN:-/usr/sbin/sshd}
PORT=${OC_SSHD_PORT:-2222}
TIMEOUT=${OC_SSHD_TIMEOUT:-20}
LOGLEVEL=${OC_SSHD_LOGLEVEL:-INFO}
TEST_USER=${OC_SSH_USER:-octest}

say() { printf '[sshd] %s\n' "$*"; }
die() { printf '[sshd] ERROR: %s\n' "$*" >&2; exit 1; }

usage() {
	cat <<'EOF'
usage: sshd.sh start|stop|status|env [--dir DIR]
environment: OC_SSHD_DIR (<repo>/build/sshd), OC_SSHD_PORT (2222),
  OC_SSH_USER (octest: the non-root login), OC_SSHD_TIMEOUT (20 s to come up),
  OC_SSHD_LOGLEVEL (INFO; DEBUG2 for a verbose sshd.log),
  SLURM_CONF (passed to the sessions)
EOF
}

CMD=${1:-}
[[ -n $CMD ]] || { usage >&2; exit 2; }
shift
DIR=${OC_SSHD_DIR:-$REPO_ROOT/build/sshd}
while (($#)); do
	case $1 in
	--dir) [[ $# -ge 2 ]] || die "--dir needs a value"; DIR=$2; shift 2 ;;
	--dir=*) DIR=${1#--dir=}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown argument: $1" ;;
	esac
done
case $CMD in
start | stop | status | env) ;;
-h | --help | help) usage; exit 0 ;;
*) usage >&2; die "unknown command: $CMD" ;;
esac
if ! [[ $PORT =~ ^[0-9]+$ ]] || ((PORT < 1 || PORT > 65535)); then
	die "OC_SSHD_PORT must be a port number, got: $PORT"
fi
DIR=$(realpath -m "$DIR")
CONFIG=$DIR/sshd_config
PIDFILE=$DIR/sshd.pid
LOG=$DIR/sshd.log
HOST_KEY=$DIR/host_ed25519_key
CLIENT_KEY=$DIR/client_ed25519
KNOWN_HOSTS=$DIR/known_hosts

# deadline SECONDS: the time (in s since the epoch) SECONDS from now.
deadline() { printf '%s' "$((EPOCHSECONDS + $1))"; }

# alive PID: the process exists and is not a zombie.
alive() {
	local st
	st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null) || return 1
	[[ -n $st && $st != Z && $st != X ]]
}

# title_is_ours PID: the process is a live sshd serving DIR/sshd_config.
title_is_ours() {
	alive "$1" || return 1
	grep -qF -- "-f $CONFIG " <<<"$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)" || return 1
}

# running: the pid of our server when it runs.
running() {
	local pid
	[[ -s $PIDFILE ]] || return 1
	read -r pid <"$PIDFILE" || true
	[[ $pid =~ ^[0-9]+$ ]] && title_is_ours "$pid" || return 1
	printf '%s\n' "$pid"
}

# answers: the port gives an SSH banner within 2 s.
answers() {
	# shellcheck disable=SC2016 # $1 is the inner shell's
	grep -q '^SSH-' <<<"$(timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && head -c 4 <&3' _ "$PORT" 2>/dev/null)"
}

# our_pids: the server, every process with a TCP socket whose local end
# is 127.0.0.1:PORT (sessions), and all their descendants (the commands
# they run); never this script.
our_pids() {
	local seeds p
	seeds=$(ss -Htanp "( sport = :$PORT )" src 127.0.0.1 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | tr '\n' ' ') || true
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $(cat "/proc/$p/comm" 2>/dev/null) == sshd ]] && title_is_ours "$p" && seeds+=" $p"
	done
	[[ -n ${seeds// /} ]] || return 0
	ps -e -o pid=,ppid=,stat= | awk -v seeds="$seeds" -v self="$$" '
		BEGIN { n = split(seeds, m, " "); for (i = 1; i <= n; i++) ours[m[i]] = 1 }
		$3 !~ /^Z/ { parent[$1] = $2 }
		END {
			do { grew = 0
			     for (p in parent) if (!(p in ours) && (parent[p] in ours)) { ours[p] = 1; grew = 1 }
			} while (grew)
			for (p in ours) if ((p in parent) && p != self) print p
		}'
}

# The sshd_config for this DIR, PORT and SLURM_CONF, on stdout.
config_text() {
	cat <<EOF
# Written by tests/ssh/sshd.sh: a private test server, public keys only.
ListenAddress 127.0.0.1:$PORT
HostKey $HOST_KEY
PidFile $PIDFILE
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AuthorizedKeysFile $DIR/authorized_keys
StrictModes no
AllowAgentForwarding no
AllowTcpForwarding no
X11Forwarding no
PrintMotd no
LogLevel $LOGLEVEL
MaxStartups 100:30:200
MaxSessions 50
Subsystem sftp internal-sftp
EOF
	# SHLVL=1: bash, run by sshd for a command, reads ~/.bashrc only when
	# SHLVL was below 1 (Debian builds bash with SSH_SOURCE_BASHRC); the
	# sessions must not depend on the logins' rc files (this machine's
	# root .bashrc runs pyenv, whose rehash lock made parallel sessions
	# wait 60 s and print to stderr). One SetEnv line: sshd keeps the first.
	local env="SHLVL=1"
	if [[ -n ${SLURM_CONF:-} ]]; then
		[[ $SLURM_CONF != *[[:space:]\"]* ]] || die "SLURM_CONF must not hold blanks or quotes for SetEnv: $SLURM_CONF"
		env+=" SLURM_CONF=$SLURM_CONF"
	fi
	printf 'SetEnv %s\n' "$env"
}

# Keys and files made once per DIR (the known_hosts every time: the port may change).
make_keys() {
	mkdir -p "$DIR"
	chmod 755 "$DIR" # the test user reads authorized_keys; private keys stay 0600
	[[ -s $HOST_KEY ]] || ssh-keygen -q -t ed25519 -N '' -C "opsconsole test sshd" -f "$HOST_KEY" >/dev/null
	[[ -s $CLIENT_KEY ]] || ssh-keygen -q -t ed25519 -N '' -C "opsconsole test client" -f "$CLIENT_KEY" >/dev/null
	cp "$CLIENT_KEY.pub" "$DIR/authorized_keys"
	chmod 644 "$DIR/authorized_keys"
	local key
	key=$(cut -d' ' -f1,2 "$HOST_KEY.pub")
	printf '[127.0.0.1]:%s %s\n[localhost]:%s %s\n' "$PORT" "$key" "$PORT" "$key" >"$KNOWN_HOSTS.tmp"
	mv "$KNOWN_HOSTS.tmp" "$KNOWN_HOSTS"
}

# The non-root test login: exists, with a shell, not locked.
ensure_test_user() {
	[[ $TEST_USER =~ ^[a-z_][a-z0-9_-]*$ ]] || die "OC_SSH_USER must be a user name, got: $TEST_USER"
	if ! id -u "$TEST_USER" >/dev/null 2>&1; then
		useradd --no-create-home --home-dir / --shell /bin/bash --user-group "$TEST_USER" ||
			die "useradd $TEST_USER failed"
	fi
	[[ $(getent shadow "$TEST_USER" | cut -d: -f2) != '!'* ]] || usermod -p '*' "$TEST_USER" ||
		die "usermod -p '*' $TEST_USER failed"
}

cmd_stop() {
	local pids left end
	pids=$(our_pids | tr '\n' ' ')
	if [[ -z ${pids// /} ]]; then
		rm -f "$PIDFILE"
		say "stopped (nothing was running)"
		return 0
	fi
	# shellcheck disable=SC2086
	kill -TERM $pids 2>/dev/null || true
	end=$(deadline 5)
	while left=$(our_pids | tr '\n' ' ') && [[ -n ${left// /} ]] && ((EPOCHSECONDS < end)); do
		sleep 0.1
	done
	if [[ -n ${left// /} ]]; then
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null || true
		end=$(deadline 5)
		while left=$(our_pids | tr '\n' ' ') && [[ -n ${left// /} ]] && ((EPOCHSECONDS < end)); do
			sleep 0.1
		done
		[[ -z ${left// /} ]] || die "processes left after SIGKILL: $left"
	fi
	rm -f "$PIDFILE"
	say "stopped"
}

cmd_start() {
	[[ $(id -u) -eq 0 ]] || die "must run as root (sshd needs it)"
	[[ -x $SSHD ]] || die "$SSHD not found: apt-get install openssh-server (tests/install-deps.sh)"
	command -v ssh-keygen >/dev/null || die "ssh-keygen not found: apt-get install openssh-client"
	make_keys
	ensure_test_user
	config_text >"$CONFIG.new"
	if pid=$(running); then
		if cmp -s "$CONFIG" "$CONFIG.new" && answers; then
			rm -f "$CONFIG.new"
			say "already running (pid $pid, 127.0.0.1:$PORT)"
			return 0
		fi
		if cmp -s "$CONFIG" "$CONFIG.new"; then
			say "pid $pid does not answer on 127.0.0.1:$PORT: restarting"
		else
			say "configuration changed: restarting"
		fi
		cmd_stop
	fi
	mv "$CONFIG.new" "$CONFIG"
	mkdir -p /run/sshd
	chmod 755 /run/sshd
	"$SSHD" -t -f "$CONFIG" || die "$SSHD -t refused $CONFIG"
	if answers; then
		die "127.0.0.1:$PORT is taken by another server: set OC_SSHD_PORT"
	fi
	printf -- "--- %(%F %T)T sshd.sh start\n" -1 >>"$LOG"
	setsid env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$SSHD" -D -f "$CONFIG" -E "$LOG" </dev/null >/dev/null 2>&1 &
	local launched=$! end
	printf '%s\n' "$launched" >"$PIDFILE"
	end=$(deadline "$TIMEOUT")
	# Until it answers, the process counts while it lives: before the exec
	# of setsid, env and sshd (slow on a loaded machine) its command line
	# is this script's, which running() does not take for our server.
	until answers; do
		if ! alive "$launched" || ((EPOCHSECONDS >= end)); then
			printf '[sshd] ERROR: sshd did not come up on 127.0.0.1:%s within %s s. Log %s:\n' "$PORT" "$TIMEOUT" "$LOG" >&2
			tail -n 20 "$LOG" >&2 || true
			cmd_stop >/dev/null 2>&1 || true
			exit 1
		fi
		sleep 0.1
	done
	say "started (pid $(running), 127.0.0.1:$PORT, $DIR)"
}

cmd_status() {
	local pid
	if pid=$(running) && answers; then
		say "running (pid $pid, 127.0.0.1:$PORT, $DIR)"
		return 0
	fi
	say "not running ($DIR)"
	return 1
}

cmd_env() {
	printf 'export OC_SSHD_PORT=%q OC_SSH_KEY=%q OC_SSH_KNOWN_HOSTS=%q OC_SSHD_DIR=%q OC_SSH_USER=%q\n' \
		"$PORT" "$CLIENT_KEY" "$KNOWN_HOSTS" "$DIR" "$TEST_USER"
}

"cmd_$CMD"
