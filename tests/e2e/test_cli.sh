#!/usr/bin/env bash
# Command line: --version names the Slurm it was built against (or that it
# has no libslurm) and, with --cluster, the one slurmctld runs; an unknown
# cluster lists the known ones and exits 2; bad options exit 2.
set -uo pipefail
: "${OC_BIN:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$OC_BIN" --version) || fail "--version failed"
# A build without libslurm (OC_WITH_LIBSLURM=OFF) says so instead.
grep -Eq '^opsconsole [0-9.]+ \((built against Slurm [0-9]+\.[0-9]+|built without libslurm: reads the cluster with the Slurm commands\))' <<<"$out" ||
	fail "--version: $out"
echo "ok: --version: $out"

# --version --cluster: the version slurmctld runs, the same as sinfo's, and
# no warning (the test cluster is the Slurm the console was built against).
out=$("$OC_BIN" --version --cluster llm-poc) || fail "--version --cluster llm-poc failed: $out"
want=$(sinfo --version | awk '{ print $2 }')
grep -q "^slurmctld of llm-poc: Slurm $want (asked through " <<<"$out" || fail "--version --cluster: $out (sinfo says $want)"
if grep -q '^opsconsole .*built against Slurm' <<<"$out"; then
	! grep -q 'WARNING' <<<"$out" || fail "--version --cluster warns on one major: $out"
fi
echo "ok: --version --cluster names slurmctld's $want"

out=$("$OC_BIN" --help) || fail "--help failed"
grep -q -- '--cluster NAME' <<<"$out" || fail "--help lacks --cluster"

out=$("$OC_BIN" --cluster no-such-cluster 2>&1); rc=$?
[ $rc -eq 2 ] || fail "unknown cluster: exit $rc, want 2"
grep -q "unknown cluster 'no-such-cluster'" <<<"$out" || fail "unknown cluster message: $out"
grep -q 'known clusters: .*llm-poc' <<<"$out" || fail "known clusters not listed: $out"
echo "ok: unknown cluster exits 2 and lists: $(grep known <<<"$out")"

out=$("$OC_BIN" --bogus 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--bogus: exit $rc, want 2"
out=$("$OC_BIN" --cluster llm-poc --view nope 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--view nope: exit $rc, want 2"
grep -q "unknown view 'nope'" <<<"$out" || fail "bad view message: $out"
out=$("$OC_BIN" --cluster '../etc' 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--cluster ../etc: exit $rc, want 2"
echo "ok: bad options exit 2"

out=$("$OC_BIN" --cluster llm-poc </dev/null 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "no terminal: exit $rc, want 1"
grep -q 'needs a terminal' <<<"$out" || fail "no terminal message: $out"
echo "ok: refuses to start without a terminal"
