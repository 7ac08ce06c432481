#!/usr/bin/env bash
# docs/script-mode.md documents every field of docs/script-mode.schema.json
# (the shape the e2e test checks the real output against), and the schema
# names the version the program writes.
set -euo pipefail
docs=$(dirname "$0")/../docs
schema=$docs/script-mode.schema.json
md=$docs/script-mode.md
jq -e '.schema == "opsconsole.once/1"' "$schema" >/dev/null || { echo "$schema: not opsconsole.once/1" >&2; exit 1; }
grep -q 'define OC_SCRIPT_SCHEMA "opsconsole.once/1"' "$(dirname "$0")/../src/core/script.h" ||
	{ echo "src/core/script.h writes another schema than $schema" >&2; exit 1; }
missing=()
for f in $(jq -r '[.document, (.views[] | .document, .row)] | map(paths(type == "object") as $p | getpath($p) | keys[]?) + map(keys[]) | unique[]' "$schema" | grep -v '^[0-9]*$'); do
	grep -q "\`$f\`" "$md" || missing+=("$f")
done
for v in $(jq -r '.views | keys[]' "$schema"); do
	grep -q "^### $v\$" "$md" || missing+=("section $v")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "$md does not document: ${missing[*]}" >&2
	exit 1
fi
echo "ok: $md documents every field of $(basename "$schema")"
