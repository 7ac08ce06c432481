#!/usr/bin/env bash
# tests/chroot/chroot.sh - a Debian chroot with another Slurm major, for CI
#
#   chroot.sh ensure SUITE         make or refresh the cached chroot of SUITE
#   chroot.sh run SUITE CMD...     run CMD inside it, in the project (mounted at its own path)
#   chroot.sh path SUITE           print the chroot's folder
#   chroot.sh slurm SUITE          print the Slurm version the chroot has
#
# SUITE is a Debian suite: trixie (Debian 13, Slurm 24.11) or sid (Debian
# unstable: Slurm 26.05 on 2026-12-01, whatever it ships later).
#
# The chroots live under $OC_CHROOT_CACHE (default /var/cache/opsconsole/
# chroots), outside the clone, so that later runs on the same machine reuse
# them. When the list of packages changes (a stamp holds a hash of the list
# and of this script's version) the new list is installed into the cached
# chroot; one older than $OC_CHROOT_MAX_DAYS (default 7) days, or one the
# install fails in, is made anew (sid moves). Making one
# takes about 5 minutes and 1.3 GB (debootstrap minbase, then the packages of
# tests/install-deps.sh but clang).
#
# The mirror is the one this machine's own apt sources name (read from
# /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list): no host name
# is written here. Needs root.
#
# Facts this relies on (checked on Debian 12, 2026-12-01):
#  * /proc, /dev, /dev/pts and /sys must be mounted inside (munge, mariadb,
#    unshare, tmux); /etc/hosts is copied in, else mariadb-install-db cannot
#    resolve localhost.
#  * The project is bind-mounted at its own path, which every user must be
#    able to search (the tests run the console as other users; cluster.sh
#    checks it).
#  * sid's Release file can be past its Valid-Until date: apt inside is told
#    not to check it.
set -euo pipefail
# The caller's locale goes inside (the tests type UTF-8); this script's own
# commands run in C.
HOST_LANG=${LANG:-C.UTF-8}
HOST_LC_ALL=${LC_ALL:-}
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/../.." && pwd)
CACHE=${OC_CHROOT_CACHE:-/var/cache/opsconsole/chroots}
MAX_DAYS=${OC_CHROOT_MAX_DAYS:-7}
# The clone is mounted at its own path inside, so that every path of a
# cluster started inside (slurm.conf, the munge socket) is the same outside:
# a program built on the host can talk to it (tests/chroot/mismatch.sh).
MOUNT_AT=$REPO_ROOT
STAMP_VERSION=1

die() { printf '[chroot] ERROR: %s\n' "$*" >&2; exit 1; }
info() { printf '[chroot] %s\n' "$*"; }

# The packages a chroot gets: tests/install-deps.sh's list without the fuzz
# stage's clang (the chroot stages run no fuzzing and no sanitizers).
chroot_pkgs() {
	sed -n '/^pkgs=(/,/^)/p' "$REPO_ROOT/tests/install-deps.sh" | sed '1d;$d' |
		tr ' \t' '\n\n' | grep -v -e '^$' -e '^clang$' -e '^libclang-rt-dev$' -e '^debootstrap$' | sort -u
}

mirror() {
	local f u
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		# The deb822 stanza whose suites are Debian's (bookworm), not -security.
		u=$(awk '/^URIs:/{u=$2} /^Suites:/{ if ($0 ~ /(^| )bookworm( |$)/) print u }' "$f" | head -n 1)
		[ -n "$u" ] && { printf '%s\n' "$u"; return 0; }
	done
	if [ -e /etc/apt/sources.list ]; then
		u=$(awk '$1=="deb" && $3 ~ /^[a-z]+$/ && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
		[ -n "$u" ] && { printf '%s\n' "$u"; return 0; }
	fi
	die "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"
}

stamp_of() {
	{ echo "v$STAMP_VERSION $1"; chroot_pkgs; } | sha256sum | cut -d' ' -f1
}

# in_ns DIR CMD...: CMD inside the chroot DIR, in a mount namespace of its
# own: /proc, /sys, /dev, /dev/pts and the project are mounted there and go
# away with the last process of the run, so nothing is left mounted on the
# host and two runs never unmount each other's folders. OC_*, E2E_* and CI
# pass through; the rest of the environment does not.
in_ns() {
	local d=$1 passenv=() v
	shift
	cp /etc/hosts "$d/etc/hosts"
	cp /etc/resolv.conf "$d/etc/resolv.conf" 2>/dev/null || true
	for v in $(compgen -e); do
		case $v in OC_CHROOT_* | OC_TEST_*) ;; OC_* | E2E_* | CI) passenv+=("$v=${!v}") ;; esac
	done
	mkdir -p "$d$MOUNT_AT"
	# Every folder on the way must be searchable by the test users (a
	# chroot's /root is 0700).
	local p=$MOUNT_AT
	while [ "$p" != / ]; do
		p=$(dirname "$p")
		chmod o+x "$d$p"
	done
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare -m --propagation private /bin/bash -c '
		set -e
		d=$1 repo=$2 at=$3; shift 3
		# The root of the chroot a mount point of its own, as a real
		# root is: else a namespace made inside (unshare -m: the
		# slurmctld of cluster.sh --backup-ctld) cannot make its mounts
		# private ("cannot change root filesystem propagation").
		mount --bind "$d" "$d"
		mount -t proc proc "$d/proc"
		mount --rbind /sys "$d/sys"
		mount --rbind /dev "$d/dev"
		mount --bind /dev/pts "$d/dev/pts"
		mount --bind "$repo" "$d$at"
		exec chroot "$d" "$@"' oc-chroot "$d" "$REPO_ROOT" "$MOUNT_AT" \
		/usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG="$HOST_LANG" ${HOST_LC_ALL:+LC_ALL="$HOST_LC_ALL"} TERM="${TERM:-xterm}" \
		"${passenv[@]}" "$@"
}

# apt_install DIR: the packages into the chroot DIR (log: $CACHE/SUITE.apt.log).
apt_install() {
	# shellcheck disable=SC2046
	in_ns "$1" /bin/sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" &&
		apt-get clean' sh $(chroot_pkgs) >"$2" 2>&1
}

ensure() {
	local suite=$1 d="$CACHE/$1" want have
	mkdir -p "$CACHE"
	# One maker at a time per suite (CI and a developer on one machine).
	exec 9>"$CACHE/$suite.lock"
	flock 9
	want=$(stamp_of "$suite")
	have=$(cat "$d/.oc-stamp" 2>/dev/null || true)
	local fresh=""
	[ -e "$d/.oc-stamp" ] && fresh=$(find "$d/.oc-stamp" -mtime -"$MAX_DAYS" 2>/dev/null)
	if [ "$want" = "$have" ] && [ -n "$fresh" ]; then
		info "$suite: cached in $d ($(slurm_version "$suite"))"
		return 0
	fi
	local t0=$SECONDS
	if [ -n "$fresh" ]; then
		# The package list changed: install into the cached chroot (the
		# stamp's age stays, so a sid chroot is still made anew weekly).
		info "$suite: the package list changed: installing into $d"
		if apt_install "$d" "$CACHE/$suite.apt.log"; then
			printf '%s\n' "$want" >"$d/.oc-stamp.new"
			touch -r "$d/.oc-stamp" "$d/.oc-stamp.new"
			mv "$d/.oc-stamp.new" "$d/.oc-stamp"
			info "$suite: ready in $((SECONDS - t0)) s ($(slurm_version "$suite"))"
			return 0
		fi
		info "$suite: that failed (log: $CACHE/$suite.apt.log): making the chroot anew"
	fi
	command -v debootstrap >/dev/null || { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
	local uri
	uri=$(mirror)
	info "$suite: making a chroot in $d (debootstrap minbase, then $(chroot_pkgs | wc -l) packages)"
	rm -rf "$d.new"
	debootstrap --variant=minbase "$suite" "$d.new" "$uri" >"$CACHE/$suite.debootstrap.log" 2>&1 ||
		{ tail -n 20 "$CACHE/$suite.debootstrap.log" >&2; die "debootstrap $suite failed (log: $CACHE/$suite.debootstrap.log)"; }
	printf '#!/bin/sh\nexit 101\n' >"$d.new/usr/sbin/policy-rc.d"
	chmod 755 "$d.new/usr/sbin/policy-rc.d"
	apt_install "$d.new" "$CACHE/$suite.apt.log" ||
		{ tail -n 20 "$CACHE/$suite.apt.log" >&2; die "installing the packages in the $suite chroot failed (log: $CACHE/$suite.apt.log)"; }
	rm -rf "$d"
	mv "$d.new" "$d"
	printf '%s\n' "$want" >"$d/.oc-stamp"
	info "$suite: ready in $((SECONDS - t0)) s ($(slurm_version "$suite"))"
}

slurm_version() {
	local d="$CACHE/$1"
	chroot "$d" dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || echo "no slurm"
}

run() {
	local suite=$1 d="$CACHE/$1"
	shift
	[ -e "$d/.oc-stamp" ] || die "no $suite chroot in $d: run 'chroot.sh ensure $suite' first"
	# shellcheck disable=SC2016
	in_ns "$d" /bin/bash -c 'cd "$0" && exec "$@"' "$MOUNT_AT" "$@"
}

[ $# -ge 2 ] || die "usage: chroot.sh ensure|run|path|slurm SUITE [CMD...]"
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mount)"
cmd=$1 suite=$2
shift 2
case "$suite" in *[!a-z]* | '') die "bad suite name: $suite" ;; esac
case "$cmd" in
ensure) ensure "$suite" ;;
run) run "$suite" "$@" ;;
path) printf '%s\n' "$CACHE/$suite" ;;
slurm) slurm_version "$suite" ;;
*) die "unknown command: $cmd" ;;
esac; exit $? # on the line of esac: an edit of this file while it runs cannot run a stray line
