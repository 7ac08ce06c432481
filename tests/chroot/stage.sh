#!/usr/bin/env bash
# tests/chroot/stage.sh - one CI stage on another Slurm major, run INSIDE a
# chroot of tests/chroot/chroot.sh (tests/run-all.sh calls it as
# `chroot.sh run SUITE tests/chroot/stage.sh SUITE`):
#
#   builds the console with warnings as errors in build-SUITE (libslurm of
#   the chroot's Slurm), runs the unit tests, then the cluster and
#   end-to-end tests against a private llm-poc cluster of that Slurm
#   (ctest's "cluster" fixture starts and stops it), the configuration
#   audit included (cluster.rehearse).
#
# Left out here, run on 22.05 only: the benchmark (figures are measured on
# one version), the .deb/.rpm packaging, valgrind (e2e.valgrind), the
# sanitizer and fuzz stages.
set -euo pipefail
suite=${1:?usage: stage.sh SUITE}
cd "$(dirname "$0")/../.."
top=$PWD
b=build-$suite
jobs=$(nproc 2>/dev/null || echo 2)
t0=$SECONDS
echo "stage $suite: $(slurmctld -V), $(gcc --version | sed -n 1p)"
cmake -S . -B "$b" -DOC_WERROR=ON >/dev/null
cmake --build "$b" -j"$jobs" 2>&1 | grep -vE '^\[ *[0-9]+%\]' || true
# The build must have succeeded (the grep above hides the progress only).
cmake --build "$b" -j"$jobs" >/dev/null
echo "stage $suite: built in $((SECONDS - t0)) s"
ctest --test-dir "$b" --output-on-failure -L unit -LE package
ctest --test-dir "$b" --output-on-failure --timeout 600 -L 'cluster|e2e' -E '^(e2e\.valgrind|bench\..*)$'
echo "stage $suite: passed in $((SECONDS - t0)) s ($top/$b)"
