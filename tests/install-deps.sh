#!/usr/bin/env bash
# Installs what opsconsole needs to build and to run its tests on Debian 12
# (as root): compilers and libraries, a real Slurm 22.05 with munge and
# MariaDB, tmux and strace for the end-to-end tests, jq and python3 to check JSON,
# rpm (rpmbuild) and cpio to build and unpack the .rpm, OpenSSH (server and
# client) and iproute2 (ss) for the SSH tests' private sshd, clang
# (libFuzzer) and valgrind for the reliability drills, debootstrap for the
# chroots with newer Slurm (tests/chroot/chroot.sh).
# Does nothing when all is there.
set -euo pipefail

pkgs=(
	build-essential cmake pkg-config
	libslurm-dev libncurses-dev libjansson-dev libssh-dev libcmocka-dev
	slurmctld slurmd slurmdbd slurm-client munge mariadb-server
	tmux procps util-linux passwd man-db groff-base jq python3 rpm cpio strace
	openssh-server openssh-client iproute2 debootstrap
	clang libclang-rt-dev valgrind
)
missing=()
for p in "${pkgs[@]}"; do
	grep -q 'install ok installed' <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]} (run as root to install them)" >&2
	exit 1
fi
if grep -q 'install ok installed' <<<"$(dpkg-query -W -f='${Status}' slurm-wlm-emulator 2>/dev/null)"; then
	echo "install-deps: slurm-wlm-emulator is installed and replaces slurmd/slurmctld; remove it first" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# No init system here: package scripts must not try to start services.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
