#!/usr/bin/env bash
# The man page renders without a single warning (man --warnings).
set -euo pipefail
page=$(dirname "$0")/../docs/opsconsole.1
warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null || true)
if [ -n "$warnings" ]; then
	echo "man --warnings -l $page:" >&2
	echo "$warnings" >&2
	exit 1
fi
out=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
for section in NAME SYNOPSIS OPTIONS VIEWS KEYS FILES ENVIRONMENT "EXIT STATUS" EXAMPLES; do
	grep -q "^$section" <<<"$out" || { echo "section $section missing" >&2; exit 1; }
done
echo "ok: the man page has every section and no warnings"
