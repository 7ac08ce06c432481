#!/usr/bin/env bash
# run_fuzz.sh BIN SECONDS WORKDIR DICT SEEDDIR [MOREDIRS...]
# Fuzzes the libFuzzer program BIN for SECONDS, from a fresh working corpus
# WORKDIR/corpus (new inputs go there, never into the checked-in seeds)
# and the read-only SEEDDIR and MOREDIRS; DICT ("" for none) is a
# dictionary. Crash inputs land in WORKDIR/. Prints libFuzzer's final
# stats; exits non-zero on a crash, a leak, a timeout or an OOM.
set -euo pipefail
bin=$1 secs=$2 work=$3 dict=$4
shift 4
mkdir -p "$work/corpus"
args=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536
	-print_final_stats=1 -artifact_prefix="$work/" -close_fd_mask=1)
[ -n "$dict" ] && args+=(-dict="$dict")
echo "run_fuzz: $(basename "$bin") for ${secs}s, seeds: $*"
exec "$bin" "${args[@]}" "$work/corpus" "$@"
