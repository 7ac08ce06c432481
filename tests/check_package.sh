#!/usr/bin/env bash
# A package (DEB, the default, or RPM): built with cpack, unpacked into a
# scratch root (dpkg-deb -x; rpm2cpio | cpio), and the program run from
# there finds its data files relative to its install prefix. The package
# depends on the runtime libraries and not on a Slurm package.
set -euo pipefail
build=${1:?build directory}
gen=${2:-DEB}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "$gen: $*" >&2; exit 1; }
(cd "$build" && cpack -G "$gen" -B "$scratch/pkg" >/dev/null)
mkdir "$scratch/root"
case $gen in
DEB)
	pkg=$(ls "$scratch"/pkg/*.deb | head -1)
	[ -s "$pkg" ] || fail "no .deb built"
	deps=$(dpkg-deb -f "$pkg" Depends)
	grep -q libjansson4 <<<"$deps" || fail "Depends lacks the runtime libraries: $deps"
	dpkg-deb -x "$pkg" "$scratch/root"
	;;
RPM)
	command -v rpmbuild >/dev/null || fail "rpmbuild is missing (Debian package rpm, tests/install-deps.sh)"
	pkg=$(ls "$scratch"/pkg/*.rpm | head -1)
	[ -s "$pkg" ] || fail "no .rpm built"
	deps=$(rpm -qpR "$pkg" | grep -v '^rpmlib(' | tr '\n' ' ')
	for lib in ncurses-libs jansson libssh; do
		grep -qw "$lib" <<<"$deps" || fail "Requires lacks $lib: $deps"
	done
	# Directories of the base system stay the base system's.
	if grep -Eqx '/usr(/bin|/share|/share/man|/share/man/man1|/share/doc|/lib)?' <<<"$(rpm -qpl "$pkg")"; then
		fail "the package owns system directories: $(rpm -qpl "$pkg" | grep -Ex '/usr(/[a-z/0-9]*)?' | tr '\n' ' ')"
	fi
	(cd "$scratch/root" && rpm2cpio "$pkg" | cpio -idm --quiet)
	;;
*) fail "unknown generator (DEB or RPM)" ;;
esac
grep -qi slurm <<<"$deps" && fail "the package must not depend on a Slurm package: $deps"
# (Captured first: grep -q stops reading at its match, and the program's
# second line then met a closed pipe: SIGPIPE, a failure under pipefail,
# seen once in a loaded run of tests/soak.sh.)
version=$("$scratch/root/usr/bin/opsconsole" --version) || fail "opsconsole --version from the scratch root exited $?"
grep -q '^opsconsole [0-9.]* (built against Slurm' <<<"$version" ||
	fail "opsconsole --version from the scratch root: $version"
for f in share/opsconsole/keymaps/default.json share/opsconsole/themes/mono.json \
	share/opsconsole/views/queue.json share/opsconsole/checklists/llm-poc.json \
	share/opsconsole/checklists/change-window.json \
	share/man/man1/opsconsole.1 share/doc/opsconsole/llm-poc.profile.json \
	share/doc/opsconsole/script-mode.md share/doc/opsconsole/script-mode.schema.json; do
	[ -s "$scratch/root/usr/$f" ] || fail "missing in the package: $f"
done
# The SSH module (loaded on first use by source/ssh_load.c) is where the
# program looks for it, and every oc_ function it calls is exported by the
# program (a missing one would make the first SSH connection fail).
mod=$scratch/root/usr/lib/opsconsole/opsconsole-ssh.so
[ -s "$mod" ] || fail "missing in the package: lib/opsconsole/opsconsole-ssh.so"
exported=$(nm -D --defined-only "$scratch/root/usr/bin/opsconsole" | awk '{print $3}')
for sym in $(nm -D --undefined-only "$mod" | awk '$2 ~ /^oc_/ {print $2}'); do
	grep -qx "$sym" <<<"$exported" || fail "opsconsole does not export $sym, which opsconsole-ssh.so needs"
done
# No build or source path in what is installed (the program finds its data
# relative to itself; a build folder's path is never compiled in), and no
# opsconsole.datadir (the build folder's pointer to the source tree).
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
bdir=$(cd "$build" && pwd)
[ -n "$src" ] || fail "no CMAKE_HOME_DIRECTORY in $build/CMakeCache.txt"
for f in "$scratch/root/usr/bin/opsconsole" "$mod"; do
	for p in "$src" "$bdir"; do
		if grep -aqF "$p" "$f"; then fail "$(basename "$f") contains the path $p"; fi
	done
done
[ -z "$(find "$scratch/root" -name opsconsole.datadir)" ] || fail "the package holds opsconsole.datadir"
echo "ok: $(basename "$pkg") unpacks into a scratch root and runs: $("$scratch/root/usr/bin/opsconsole" --version)"
