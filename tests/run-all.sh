#!/usr/bin/env bash
# Installs what is needed, builds (warnings are errors), and runs every
# test: on Debian 12's Slurm 22.05, the unit, packaging and benchmark
# tests and the "plain" cluster tests with the real local cluster (started
# and stopped by ctest's "cluster" fixture); then the same build and the
# unit, cluster and end-to-end tests on Slurm 24.11 and 26.05 in Debian
# chroots, and beside them the other builds and a short libFuzzer run of
# every parser (clang); then the build without libslurm (the CLI backend
# only) with the unit tests and a few end-to-end tests; then the unit
# tests and every other cluster, SSH and end-to-end test on 22.05 under
# AddressSanitizer+UBSan.
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

stage() { echo "run-all: $1 at $((SECONDS / 60))m$((SECONDS % 60))s"; }
cmake -S . -B build -DOC_WERROR=ON
cmake --build build -j"$jobs"
# The normal build on 22.05: the unit and packaging tests, the benchmark
# and the "plain" cluster tests (tests/CMakeLists.txt); its other cluster
# and e2e tests run in the ASan+UBSan build below, and in the normal build
# on 24.11 and 26.05, rather than twice on 22.05.
stage "22.05 normal build"
ctest --test-dir build --output-on-failure --timeout 600 -L 'unit|package|bench|plain'

# Slurm 24.11 (Debian 13) and 26.05 (Debian sid): the same sources built in
# a chroot of each, with warnings as errors; unit, cluster and end-to-end
# tests against a cluster of that Slurm (tests/chroot/stage.sh), then the
# console of build/ (libslurm 22.05) against that major's cluster: the
# upgrade-day mistake, said on the screen (tests/chroot/mismatch.sh).
# The stages run side by side (most of their time is spent waiting on
# Slurm's timers, not on the two cores), each with its own ports: the
# second one's are 5000 higher, below the ephemeral range (32768).
# OC_CHROOT_SERIAL=1 runs them one after the other.
stage_of() { # SUITE [VAR=VALUE...]: one major's stage and mismatch check
	local suite=$1
	shift
	env "$@" tests/chroot/chroot.sh run "$suite" tests/chroot/stage.sh "$suite" &&
		env "$@" tests/chroot/mismatch.sh "$suite"
}
shifted=(OC_CTLD_PORT=$((${OC_CTLD_PORT:-16817} + 5000)) OC_DBD_PORT=$((${OC_DBD_PORT:-16819} + 5000))
	OC_DB_PORT=$((${OC_DB_PORT:-13306} + 5000)) OC_SLURMD_PORT_BASE=$((${OC_SLURMD_PORT_BASE:-17001} + 5000))
	OC_SSHD_PORT=$((${OC_SSHD_PORT:-2222} + 5000)))
serial=${OC_CHROOT_SERIAL:-0}
for v in "${shifted[@]}"; do
	# Its clusters use up to 330 ports above the base (tests/cluster/).
	[ "$((${v#*=} + 330))" -lt 32768 ] || serial=1
done
# Beside the chroot stages (their time goes mostly to Slurm's timers, not
# to the cores): the builds without libslurm, with ASan+UBSan and with
# clang for libFuzzer, then the fuzzers (OC_FUZZ_SECONDS each, about 3.5
# minutes in all, from their seeds and the hostile corpus), at a low
# priority (nice 10) so that the cluster tests get the cores when they
# need them. Their output: build/side.log, printed after the stages.
side() {
	renice -n 10 -p "$BASHPID" >/dev/null
	cmake -S . -B build-cli -DOC_WERROR=ON -DOC_WITH_LIBSLURM=OFF -DOC_CLUSTER_DIR="$top/build/cluster"
	cmake --build build-cli -j"$jobs"
	cmake -S . -B build-asan -DOC_WERROR=ON -DOC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	cmake --build build-asan -j"$jobs"
	CC=clang cmake -S . -B build-fuzz -DOC_WERROR=ON -DOC_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug
	cmake --build build-fuzz -j"$jobs"
	ctest --test-dir build-fuzz --output-on-failure -L fuzz
}
stage "builds and fuzzers beside the chroot stages (output in build/side.log)"
(side) >build/side.log 2>&1 &
side_pid=$!

stage_pids=()
n=0
for sp in "${chroot_pids[@]}"; do
	suite=${sp%%:*}
	if ! wait "${sp#*:}"; then
		cat "build/chroot-$suite.log" >&2
		echo "run-all: the $suite chroot could not be made" >&2
		exit 1
	fi
	cat "build/chroot-$suite.log"
	if [ "$serial" = 1 ]; then
		stage_of "$suite"
		continue
	fi
	ports=()
	[ "$n" -eq 0 ] || ports=("${shifted[@]}")
	[ "$n" -lt 2 ] || { echo "run-all: more than two chroot stages side by side: set OC_CHROOT_SERIAL=1" >&2; exit 1; }
	echo "stage $suite: started${ports[*]:+ with ${ports[*]}} (output in build/stage-$suite.log)"
	stage_of "$suite" "${ports[@]}" >"build/stage-$suite.log" 2>&1 &
	stage_pids+=("$suite:$!")
	n=$((n + 1))
done
failed=()
for sp in "${stage_pids[@]}"; do
	suite=${sp%%:*}
	wait "${sp#*:}" || failed+=("$suite")
done
for sp in "${stage_pids[@]}"; do
	suite=${sp%%:*}
	echo "==== stage $suite (build/stage-$suite.log) ===="
	cat "build/stage-$suite.log"
done
stage "chroot stages done"
side_ok=1
wait "$side_pid" || side_ok=0
echo "==== builds and fuzzers (build/side.log) ===="
cat build/side.log
stage "builds and fuzzers done"
[ "${#failed[@]}" -eq 0 ] || { echo "run-all: the ${failed[*]} stage failed (its output above)" >&2; exit 1; }
[ "$side_ok" = 1 ] || { echo "run-all: a build or a fuzzer failed (build/side.log above)" >&2; exit 1; }

# Without libslurm (OC_WITH_LIBSLURM=OFF, built above): the console reads
# the cluster with the Slurm commands. Same cluster folder; its fixture
# starts it again.
stage "no libslurm"
ctest --test-dir build-cli --output-on-failure -L unit
ctest --test-dir build-cli --output-on-failure --timeout 600 -R '^(cluster\.(start|stop)|e2e\.(views|actions|job_actions|scheduler))$'

stage "ASan+UBSan"
ctest --test-dir build-asan --output-on-failure -L unit
# The cluster and SSH tests and the console itself under ASan+UBSan,
# driven in tmux against the cluster (leak reports off: ncurses' panel
# library keeps one block for stdscr; e2e.valgrind checks leaks instead):
# every cluster and e2e test but the "plain" ones, run above.
ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build-asan --output-on-failure --timeout 600 -L 'cluster|e2e' -LE plain

echo "run-all: all tests passed ($top) in $((SECONDS / 60))m$((SECONDS % 60))s"
