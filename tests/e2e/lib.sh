# lib.sh: helpers for end-to-end tests that drive the real opsconsole in
# tmux against the real local cluster. Source it; every wait has a timeout
# and fails the test with the screen it last saw.
set -euo pipefail

: "${OC_BIN:?OC_BIN must point at the opsconsole binary}"
: "${OC_CLUSTER_DIR:?OC_CLUSTER_DIR must point at the running test cluster}"
export SLURM_CONF="$OC_CLUSTER_DIR/etc/slurm.conf"
E2E_SESSION="oc-e2e-$$"
E2E_CLEANUPS=()
E2E_BIN_LOG=""

# e2e_on_exit CMD...: run CMD when the test ends, however it ends.
e2e_on_exit() { E2E_CLEANUPS+=("$(printf '%q ' "$@")"); }

e2e_exit() {
	local c i
	for c in "${E2E_CLEANUPS[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
	for ((i = 0; i <= E2E_STARTS; i++)); do tmux -L "oc-e2e-$$-$i" kill-server 2>/dev/null || true; done
}
trap e2e_exit EXIT

# E2E_BACKEND=cli: the same test with the CLI backend. The profiles are
# copied into a private XDG_CONFIG_HOME with "backend": "cli" and a
# "slurm_bin" folder of wrappers that log each Slurm command the console
# runs into $E2E_BIN_LOG before running the real one (e2e_check_cli_ran).
if [ -n "${E2E_BACKEND:-}" ]; then
	e2e_xdg=$(mktemp -d /tmp/oc-e2e-xdg.XXXXXX)
	e2e_on_exit rm -rf "$e2e_xdg"
	mkdir -p "$e2e_xdg/opsconsole/clusters" "$e2e_xdg/bin"
	# Tests that run the console as another user (opsview) need the
	# wrappers and their log; the profiles stay private.
	chmod 0755 "$e2e_xdg" "$e2e_xdg/bin"
	chmod 0700 "$e2e_xdg/opsconsole" "$e2e_xdg/opsconsole/clusters"
	E2E_BIN_LOG="$e2e_xdg/bin.log"
	: >"$E2E_BIN_LOG"
	chmod 0666 "$E2E_BIN_LOG"
	for c in sinfo squeue scontrol sacctmgr sbatch scancel sacct sprio sdiag; do
		real=$(command -v "$c") || fail "$c not found"
		printf '#!/bin/sh\necho "%s $*" >>%s\nexec %s "$@"\n' "$c" "$E2E_BIN_LOG" "$real" >"$e2e_xdg/bin/$c"
		chmod 0755 "$e2e_xdg/bin/$c"
	done
	for f in "${XDG_CONFIG_HOME:?}"/opsconsole/clusters/*.json; do
		jq --arg b "$E2E_BACKEND" --arg d "$e2e_xdg/bin" '. + {backend: $b, slurm_bin: $d}' "$f" \
			>"$e2e_xdg/opsconsole/clusters/${f##*/}"
		chmod 0600 "$e2e_xdg/opsconsole/clusters/${f##*/}"
	done
	export XDG_CONFIG_HOME=$e2e_xdg
fi

# e2e_check_cli_ran: with E2E_BACKEND=cli, fail unless the console read the
# cluster with the Slurm commands (sinfo or scontrol nodes, squeue).
e2e_check_cli_ran() {
	[ -n "$E2E_BIN_LOG" ] || return 0
	grep -Eq '^squeue .*--json' "$E2E_BIN_LOG" || fail "the console ran no squeue --json ($E2E_BIN_LOG)"
	grep -Eq '^(sinfo .*--json|scontrol --json(=v[0-9.]+)? show nodes)' "$E2E_BIN_LOG" || fail "the console read no nodes"
	grep -Eq '^scontrol .*show partition' "$E2E_BIN_LOG" || fail "the console read no partitions"
	ok "the console read the cluster with the Slurm commands (backend $E2E_BACKEND)"
}
E2E_SOCKET="oc-e2e-$$-0"
E2E_STARTS=0
E2E_LAST=""

e2e_tmux() { tmux -L "$E2E_SOCKET" "$@"; }

fail() {
	echo "FAIL: $*" >&2
	if [ -n "$E2E_LAST" ]; then
		echo "---- last screen ----" >&2
		printf '%s\n' "$E2E_LAST" >&2
		echo "---------------------" >&2
		e2e_stderr_logs >&2
	fi
	exit 1
}

# e2e_stderr_logs: the end of the logs the console's stderr goes to while
# its screen is up (libslurm's messages, a sanitizer's report), from the
# state folder of the last e2e_start, those written since the test began.
E2E_MARK=$(mktemp /tmp/oc-e2e-mark.XXXXXX)
e2e_on_exit rm -f "$E2E_MARK"
e2e_stderr_logs() {
	local state f
	state=$(sed -n 's/.*XDG_STATE_HOME=\([^ ]*\).*/\1/p' <<<"${E2E_ENV:-}")
	state=${state:-${XDG_STATE_HOME:-${HOME:-/root}/.local/state}}
	for f in "$state"/opsconsole/*.log; do
		[ "$f" -nt "$E2E_MARK" ] || continue
		echo "---- the end of $f ----"
		tail -n 30 "$f"
	done
}

# e2e_start COLSxROWS ARGS...: start opsconsole in a detached tmux session.
e2e_start() {
	local size=$1
	shift
	local cols=${size%x*} rows=${size#*x}
	local cmd
	cmd=$(printf '%q ' "$OC_BIN" "$@")
	# Each start gets its own tmux server: a server being killed must not
	# race with the next one.
	e2e_tmux kill-server 2>/dev/null || true
	E2E_STARTS=$((E2E_STARTS + 1))
	E2E_SOCKET="oc-e2e-$$-$E2E_STARTS"
	e2e_tmux -f /dev/null new-session -d -s "$E2E_SESSION" -x "$cols" -y "$rows" \
		"env TERM=${E2E_TERM:-screen} LANG=${E2E_LANG:-C.UTF-8} ${E2E_ENV:-} $cmd; echo EXIT=\$?; sleep 3600"
	e2e_tmux set-option -t "$E2E_SESSION" remain-on-exit on >/dev/null
}

# e2e_start_shell COLSxROWS: an interactive bash (job control: Ctrl-Z, fg)
# in a new tmux server; type commands with e2e_keys.
e2e_start_shell() {
	local size=$1 cols rows
	cols=${size%x*}
	rows=${size#*x}
	e2e_tmux kill-server 2>/dev/null || true
	E2E_STARTS=$((E2E_STARTS + 1))
	E2E_SOCKET="oc-e2e-$$-$E2E_STARTS"
	e2e_tmux -f /dev/null new-session -d -s "$E2E_SESSION" -x "$cols" -y "$rows" \
		"env TERM=${E2E_TERM:-screen} LANG=${E2E_LANG:-C.UTF-8} PS1='e2e\$ ' bash --norc --noprofile -i"
}

# e2e_snap: read the screen into E2E_LAST (in this shell, not a subshell).
e2e_snap() {
	E2E_LAST=$(e2e_tmux capture-pane -p -t "$E2E_SESSION" 2>/dev/null || true)
}

e2e_capture() {
	e2e_snap
	printf '%s\n' "$E2E_LAST"
}

# e2e_capture_escapes: the screen with its colour/attribute escapes.
e2e_capture_escapes() { e2e_tmux capture-pane -e -p -t "$E2E_SESSION"; }

# e2e_type TEXT: type TEXT literally (no key names).
e2e_type() { e2e_tmux send-keys -t "$E2E_SESSION" -l -- "$1"; }

# e2e_keys KEY...: send keys (tmux key names: Enter, Tab, Escape, C-c...).
e2e_keys() { e2e_tmux send-keys -t "$E2E_SESSION" "$@"; }

# e2e_wait REGEX [TIMEOUT_S]: wait until the screen matches (grep -E).
e2e_wait() {
	local re=$1 timeout=${2:-10}
	local end=$((SECONDS + timeout))
	while :; do
		e2e_snap
		if grep -Eq -- "$re" <<<"$E2E_LAST"; then
			return 0
		fi
		[ "$SECONDS" -lt "$end" ] || fail "screen did not show /$re/ within ${timeout}s"
		sleep 0.1
	done
}

# e2e_wait_gone REGEX [TIMEOUT_S]: wait until the screen no longer matches.
e2e_wait_gone() {
	local re=$1 timeout=${2:-10}
	local end=$((SECONDS + timeout))
	while :; do
		e2e_snap
		if ! grep -Eq -- "$re" <<<"$E2E_LAST"; then
			return 0
		fi
		[ "$SECONDS" -lt "$end" ] || fail "screen still shows /$re/ after ${timeout}s"
		sleep 0.1
	done
}

# e2e_line REGEX: print the first screen line matching REGEX.
e2e_line() { e2e_capture | grep -E -m1 -- "$1" || true; }

# e2e_cancel_on_exit NAME...: when the test ends, cancel the jobs of these
# names (scancel -n takes one name) and wait (30 s at most) until squeue
# no longer lists them, so that the next test starts without them.
e2e_cancel_on_exit() {
	local n names=""
	for n in "$@"; do
		e2e_on_exit scancel -n "$n"
		names=${names:+$names,}$n
	done
	e2e_on_exit sh -c "for i in \$(seq 150); do [ -z \"\$(squeue -h -n '$names' 2>/dev/null)\" ] && exit 0; sleep 0.2; done"
}

# try_cmd TIMEOUT CMD...: wait until a command succeeds; 1 if it has not
# within TIMEOUT seconds (the caller says what went wrong).
try_cmd() {
	local timeout=$1
	shift
	local end=$((SECONDS + timeout))
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.2
	done
}

# wait_cmd TIMEOUT CMD...: wait until a command succeeds.
wait_cmd() {
	try_cmd "$@" || fail "'${*:2}' did not succeed within ${1}s"
}

ok() { echo "ok: $*"; }

# e2e_drain_confirm NODE REASON: in the nodes view, with NODE idle, open
# the drain form for NODE with REASON and wait for its confirmation.
e2e_drain_confirm() {
	e2e_wait "^ $1 +idle" 15
	e2e_keys d
	e2e_wait 'Drain nodes' 5
	e2e_keys BTab C-u
	e2e_type "$1"
	e2e_keys Tab
	e2e_type "$2"
	e2e_keys Enter
	e2e_wait 'Confirm: Drain nodes' 5
}
