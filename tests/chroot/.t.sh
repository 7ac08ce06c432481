#!/usr/bin/env bash
set -euo pipefail
suite=${1:?}
cd "$(dirname "$0")/../.."
b=build-$suite
cmake -S . -B "$b" -DOC_WERROR=ON >/dev/null
cmake --build "$b" -j2 2>&1 | grep -E "error|warning" || true
cmake --build "$b" -j2 >/dev/null
ctest --test-dir "$b" --output-on-failure -L unit -LE package 2>&1 | tail -5
ctest --test-dir "$b" --output-on-failure --timeout 600 -R '^(cluster\.start|cluster\.stop|e2e\.history|e2e\.once|e2e\.fairshare|e2e\.scheduler)$' 2>&1 | tail -40
