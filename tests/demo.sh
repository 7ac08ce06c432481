#!/usr/bin/env bash
# Installs what is needed, builds, starts the local llm-poc cluster with a
# demo workload, and opens the console on it.
set -euo pipefail
cd "$(dirname "$0")/.."
tests/install-deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target opsconsole
tests/cluster/cluster.sh start --demo
exec build/src/opsconsole --cluster llm-poc "$@"
