#!/usr/bin/env bash
# Installs what is needed, builds (warnings are errors), and runs every
# test: unit tests, then the real local cluster (started and stopped by
# ctest's "cluster" fixture) with the cluster, end-to-end and benchmark
# tests; then the build without libslurm (the CLI backend only) with the
# unit tests and two end-to-end tests; then the unit, cluster, SSH and
# end-to-end tests again under AddressSanitizer+UBSan; then a short libFuzzer run of every
# parser (clang).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
tests/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DOC_WERROR=ON
cmake --build build -j"$jobs"
# A console or cluster left over from a demo must not interfere.
ctest --test-dir build --output-on-failure --timeout 600

# Without libslurm (OC_WITH_LIBSLURM=OFF): the console reads the cluster
# with the Slurm commands. Same cluster folder; its fixture starts it again.
cmake -S . -B build-cli -DOC_WERROR=ON -DOC_WITH_LIBSLURM=OFF -DOC_CLUSTER_DIR="$top/build/cluster"
cmake --build build-cli -j"$jobs"
ctest --test-dir build-cli --output-on-failure -L unit
ctest --test-dir build-cli --output-on-failure --timeout 600 -R '^(cluster\.(start|stop)|e2e\.(views|actions))$'

cmake -S . -B build-asan -DOC_WERROR=ON -DOC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-asan -j"$jobs"
ctest --test-dir build-asan --output-on-failure -L unit
# The cluster and SSH tests and the console itself under ASan+UBSan,
# driven in tmux against the cluster (leak reports off: ncurses' panel
# library keeps one block for stdscr; e2e.valgrind checks leaks instead).
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan --output-on-failure --timeout 600 -L 'cluster|e2e'

# libFuzzer: every parser fuzzed for a short while (OC_FUZZ_SECONDS each,
# about 2.5 minutes in all) from its seeds and the hostile corpus.
CC=clang cmake -S . -B build-fuzz -DOC_WERROR=ON -DOC_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-fuzz -j"$jobs"
ctest --test-dir build-fuzz --output-on-failure -L fuzz
echo "run-all: all tests passed ($top)"
