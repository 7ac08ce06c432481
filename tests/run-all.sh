#!/usr/bin/env bash
# Installs what is needed, builds (warnings are errors), and runs every
# test: unit tests, then the real local cluster (started and stopped by
# ctest's "cluster" fixture) with the cluster, end-to-end and benchmark
# tests, on Debian 12's Slurm 22.05; then the same build and the unit,
# cluster and end-to-end tests on Slurm 24.11 and 26.05 in Debian chroots;
# then the build without libslurm (the CLI backend only) with the
# unit tests and two end-to-end tests; then the unit, cluster, SSH and
# end-to-end tests again under AddressSanitizer+UBSan; then a short libFuzzer run of every
# parser (clang).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
tests/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

# The newer Slurm majors run in Debian chroots (tests/chroot/chroot.sh),
# cached between runs; made or refreshed in the background meanwhile
# (mostly downloads). OC_MAJORS=native runs 22.05 alone.
majors=${OC_MAJORS:-native trixie sid}
chroot_pids=()
for suite in $majors; do
	[ "$suite" = native ] && continue
	mkdir -p build
	tests/chroot/chroot.sh ensure "$suite" >"build/chroot-$suite.log" 2>&1 &
	chroot_pids+=("$suite:$!")
done

cmake -S . -B build -DOC_WERROR=ON
cmake --build build -j"$jobs"
# A console or cluster left over from a demo must not interfere.
ctest --test-dir build --output-on-failure --timeout 600

# Slurm 24.11 (Debian 13) and 26.05 (Debian sid): the same sources built in
# a chroot of each, with warnings as errors; unit, cluster and end-to-end
# tests against a cluster of that Slurm (tests/chroot/stage.sh).
for sp in "${chroot_pids[@]}"; do
	suite=${sp%%:*}
	if ! wait "${sp#*:}"; then
		cat "build/chroot-$suite.log" >&2
		echo "run-all: the $suite chroot could not be made" >&2
		exit 1
	fi
	cat "build/chroot-$suite.log"
	tests/chroot/chroot.sh run "$suite" tests/chroot/stage.sh "$suite"
	# The console of build/ (libslurm 22.05) against this major's cluster:
	# the upgrade-day mistake, said on the screen.
	tests/chroot/mismatch.sh "$suite"
done

# Without libslurm (OC_WITH_LIBSLURM=OFF): the console reads the cluster
# with the Slurm commands. Same cluster folder; its fixture starts it again.
cmake -S . -B build-cli -DOC_WERROR=ON -DOC_WITH_LIBSLURM=OFF -DOC_CLUSTER_DIR="$top/build/cluster"
cmake --build build-cli -j"$jobs"
ctest --test-dir build-cli --output-on-failure -L unit
ctest --test-dir build-cli --output-on-failure --timeout 600 -R '^(cluster\.(start|stop)|e2e\.(views|actions|job_actions|scheduler))$'

cmake -S . -B build-asan -DOC_WERROR=ON -DOC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan --output-on-failure -L unit
# The cluster and SSH tests and the console itself under ASan+UBSan,
# driven in tmux against the cluster (leak reports off: ncurses' panel
# library keeps one block for stdscr; e2e.valgrind checks leaks instead).
# cluster.lifecycle tests the cluster script, not the console: not again;
# cluster.rehearse_fresh runs the rehearsal code that cluster.rehearse runs.
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan --output-on-failure --timeout 600 -L 'cluster|e2e' \
	-E '^cluster\.(lifecycle|rehearse_fresh)$'

# libFuzzer: every parser fuzzed for a short while (OC_FUZZ_SECONDS each,
# about 2.5 minutes in all) from its seeds and the hostile corpus.
CC=clang cmake -S . -B build-fuzz -DOC_WERROR=ON -DOC_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-fuzz -j"$jobs"
ctest --test-dir build-fuzz --output-on-failure -L fuzz
echo "run-all: all tests passed ($top)"
