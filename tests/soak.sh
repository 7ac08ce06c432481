#!/usr/bin/env bash
# tests/soak.sh: the test suite N times in a row on a loaded machine, to
# find flaky tests (a test that fails once in ten runs is a bug). Exports
# the committed tree (HEAD) into a folder of its own and builds there, so
# that edits made meanwhile change nothing (cpack and the tests read the
# sources while they run); starts a CPU load beside the tests (stress-ng on
# every core at 50 %, installed when missing), runs ctest N times, and
# writes one line per run and a count of failures per test to the results
# file.
#
#   tests/soak.sh [-n RUNS] [--stage native|asan] [--load stress|none]
#                 [-R REGEX] [--out FILE]
#
#   -n RUNS        runs (default 10)
#   --stage        native: the normal build, every ctest test (default);
#                  asan: AddressSanitizer+UBSan build, its unit, cluster and
#                  e2e tests as tests/run-all.sh runs them
#   --load         stress (default) or none
#   -R REGEX       only the tests matching REGEX (ctest -R)
#   --out FILE     the results (default soak[-asan]/soak-results.txt)
#
# Exit status: 0 every run passed, 1 a run failed, 2 usage. Each run's
# ctest output is kept as soak*/soak-run-N.log. It stops nothing it did not
# start; run it with no other test cluster on its ports: the default ones,
# or those of OC_CTLD_PORT, OC_DBD_PORT, OC_DB_PORT, OC_SLURMD_PORT_BASE and
# OC_SSHD_PORT (tests/cluster/cluster.sh, tests/ssh/sshd.sh), which let a
# native and a sanitizer soak run side by side.
set -euo pipefail
# bash reads a script as it runs it: an edit of this file during a soak of
# hours changes what the running soak reads (seen: "syntax error near
# unexpected token" at the end of one). It runs from a copy.
if [ -z "${OC_SOAK_COPY:-}" ]; then
	copy=$(mktemp /tmp/oc-soak-XXXXXX)
	cp "$0" "$copy"
	OC_SOAK_COPY=$copy OC_SOAK_TOP=$(cd "$(dirname "$0")/.." && pwd) exec bash "$copy" "$@"
fi
trap 'rm -f "$OC_SOAK_COPY"' EXIT
cd "$OC_SOAK_TOP"
top=$PWD
runs=10 stage=native load=stress regex="" out=""
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=${2:?-n wants a number}; shift 2 ;;
	--stage) stage=${2:?}; shift 2 ;;
	--load) load=${2:?}; shift 2 ;;
	-R) regex=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "soak: unknown argument $1 (--help)" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "soak: -n wants a positive number" >&2; exit 2; }
jobs=$(nproc 2>/dev/null || echo 2)
case $stage in native) work=$top/soak ;; asan) work=$top/soak-asan ;; esac
[ -n "${work:-}" ] || { echo "soak: --stage is native or asan" >&2; exit 2; }
# The committed tree, frozen for the whole soak.
rm -rf "$work/tree"
mkdir -p "$work/tree"
commit=$(git -C "$top" rev-parse --short HEAD)
git -C "$top" archive "$commit" | tar -x -C "$work/tree"
src=$work/tree
dir=$work/build
# What the tests need, and a new build folder: a cache left by a
# configure that ran before the packages were there builds a console
# without libslurm (seen: a soak of 82 tests instead of 114).
bash "$top/tests/install-deps.sh" >/dev/null
rm -rf "$dir"
case $stage in
native)
	cmake -S "$src" -B "$dir" -DOC_WERROR=ON >/dev/null
	ctest_args=(--timeout 600)
	;;
asan)
	cmake -S "$src" -B "$dir" -DOC_WERROR=ON -DOC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	ctest_args=(--timeout 600 -L 'unit|cluster|e2e' -E '^cluster\.(lifecycle|rehearse_fresh)$')
	export ASAN_OPTIONS=detect_leaks=0
	;;
*) echo "soak: --stage is native or asan" >&2; exit 2 ;;
esac
[ -n "$regex" ] && ctest_args+=(-R "$regex")
out=${out:-$work/soak-results.txt}
cmake --build "$dir" -j"$jobs" >/dev/null

stress_pid=""
stop_load() {
	[ -z "$stress_pid" ] || kill "$stress_pid" 2>/dev/null || true
	rm -f "$OC_SOAK_COPY"
}
trap stop_load EXIT
case $load in
stress)
	command -v stress-ng >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null
	stress-ng --cpu "$jobs" --cpu-load 50 --quiet &
	stress_pid=$!
	load_desc="stress-ng --cpu $jobs --cpu-load 50"
	;;
none) load_desc="none" ;;
*) echo "soak: --load is stress or none" >&2; exit 2 ;;
esac

{
	echo "# soak: $runs runs, stage $stage, load: $load_desc, $(date -Is), $commit"
	echo "# $(slurmctld -V 2>/dev/null || echo 'no slurmctld'), $jobs cores"
} >"$out"
declare -A fails=()
bad=0
for i in $(seq 1 "$runs"); do
	log=$work/soak-run-$i.log
	t0=$SECONDS
	rc=0
	ctest --test-dir "$dir" --output-on-failure "${ctest_args[@]}" >"$log" 2>&1 || rc=$?
	total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
	failed=$(awk '/The following tests FAILED:/ {f=1; next} f && /^[[:space:]]+[0-9]+ - / {print $3}' "$log" | tr '\n' ' ')
	if [ "$rc" = 0 ]; then
		line="run $i: pass (${total:-?} tests, $((SECONDS - t0)) s)"
	else
		bad=$((bad + 1))
		line="run $i: FAIL (${total:-?} tests, $((SECONDS - t0)) s): ${failed:-ctest exit $rc}"
		for t in $failed; do fails[$t]=$((${fails[$t]:-0} + 1)); done
	fi
	echo "$line" | tee -a "$out"
done
{
	echo "# $((runs - bad)) of $runs runs passed"
	for t in "${!fails[@]}"; do echo "# $t failed ${fails[$t]} of $runs"; done
} | tee -a "$out"
[ "$bad" = 0 ]
