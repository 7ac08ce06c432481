#!/usr/bin/env bash
# The .deb: built with cpack, unpacked into a scratch root, and the program
# run from there finds its data files relative to its install prefix.
set -euo pipefail
build=${1:?build directory}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$build" && cpack -G DEB -B "$scratch/pkg" >/dev/null)
deb=$(ls "$scratch"/pkg/*.deb | head -1)
[ -s "$deb" ] || { echo "no .deb built" >&2; exit 1; }
dpkg-deb -f "$deb" Depends | grep -q libjansson4 || { echo "Depends lacks the runtime libraries" >&2; exit 1; }
dpkg-deb -f "$deb" Depends | grep -qi slurm && { echo "the package must not depend on a Slurm package" >&2; exit 1; }
dpkg-deb -x "$deb" "$scratch/root"
"$scratch/root/usr/bin/opsconsole" --version | grep -q '^opsconsole [0-9.]* (built against Slurm' ||
	{ echo "opsconsole --version from the scratch root failed" >&2; exit 1; }
for f in share/opsconsole/keymaps/default.json share/opsconsole/themes/mono.json \
	share/opsconsole/views/queue.json share/opsconsole/checklists/llm-poc.json \
	share/man/man1/opsconsole.1 share/doc/opsconsole/llm-poc.profile.json; do
	[ -s "$scratch/root/usr/$f" ] || { echo "missing in the package: $f" >&2; exit 1; }
done
echo "ok: $(basename "$deb") installs into a scratch root and runs: $("$scratch/root/usr/bin/opsconsole" --version)"
