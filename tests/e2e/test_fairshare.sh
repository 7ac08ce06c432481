#!/usr/bin/env bash
# Fair share: `--once fairshare --json` with the libslurm and with the CLI
# backend against `sshare -a -P` for every association: raw and
# normalised shares, raw and effective usage, the fair-share factor of
# users (the CLI backend reads `scontrol show assoc_mgr`, which prints two
# decimals: the tolerance says so; usage grows while the demo's jobs run,
# so raw usage is compared to 0.1 %). The quota view at 120 columns shows
# each account's share and usage beside its GPU use.
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
e2e_on_exit rm -rf "$work"
sshare -a -P -n -o Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare |
	awk -F'|' '{ gsub(/^ +/, "", $1); print }' OFS='|' >"$work/sshare"
[ -s "$work/sshare" ] || fail "sshare printed nothing"

compare() { # LABEL TOLERANCE
	jq -r '.rows[] | [.account, (.user // ""), (.shares_raw // "" | tostring), .shares_norm, .usage_raw,
		.usage_efctv, (.fairshare // "" | tostring)] | map(tostring) | join("|")' "$work/ours.json" >"$work/ours"
	awk -F'|' -v tol="$2" -v label="$1" '
		function abs(x) { return x < 0 ? -x : x }
		NR == FNR { key = $1 "|" $2; want[key] = $0; next }
		{
			key = $1 "|" $2; seen[key] = 1
			if (!(key in want)) { print label ": " key " is not in sshare -a"; bad = 1; next }
			split(want[key], w, "|")
			# root has no RawShares in sshare; ours may say 1
			if (w[3] != "" && w[3] != $3) { print label ": " key " RawShares " $3 ", sshare " w[3]; bad = 1 }
			if (abs($4 - w[4]) > tol) { print label ": " key " NormShares " $4 ", sshare " w[4]; bad = 1 }
			if (abs($5 - w[5]) > 0.001 * (w[5] > 1000 ? w[5] : 1000)) { print label ": " key " RawUsage " $5 ", sshare " w[5]; bad = 1 }
			if (abs($6 - w[6]) > tol) { print label ": " key " EffectvUsage " $6 ", sshare " w[6]; bad = 1 }
			if ((w[7] == "") != ($7 == "")) { print label ": " key " FairShare [" $7 "], sshare [" w[7] "]"; bad = 1 }
			else if (w[7] != "" && abs($7 - w[7]) > tol) { print label ": " key " FairShare " $7 ", sshare " w[7]; bad = 1 }
		}
		END {
			for (k in want) if (!(k in seen)) { print label ": " k " of sshare -a is missing"; bad = 1 }
			exit bad
		}' "$work/sshare" "$work/ours" || fail "$1: fair share differs from sshare -a"
	ok "$1: $(wc -l <"$work/ours") associations as sshare -a has them (tolerance $2)"
}

"$OC_BIN" --cluster llm-poc --once fairshare --json >"$work/ours.json" || fail "--once fairshare failed"
jq -e '.view == "fairshare" and (.rows | length) > 3' "$work/ours.json" >/dev/null || fail "not a fairshare document"
compare "profile's backend" 0.0005
# The CLI backend: a private copy of the profile with "backend": "cli".
xdg=$(mktemp -d /tmp/oc-e2e-fs.XXXXXX)
e2e_on_exit rm -rf "$xdg"
mkdir -p "$xdg/opsconsole/clusters"
chmod 0700 "$xdg/opsconsole" "$xdg/opsconsole/clusters"
jq '. + {backend: "cli"}' "$XDG_CONFIG_HOME/opsconsole/clusters/llm-poc.json" >"$xdg/opsconsole/clusters/llm-poc.json"
chmod 0600 "$xdg/opsconsole/clusters/llm-poc.json"
XDG_CONFIG_HOME=$xdg "$OC_BIN" --cluster llm-poc --once fairshare --json >"$work/ours.json" || fail "--once fairshare (cli) failed"
compare "backend cli" 0.0051

# The table has sshare's columns.
"$OC_BIN" --cluster llm-poc --once fairshare >"$work/table" || fail "--once fairshare (table) failed"
grep -Eq '^ACCOUNT +USER +RAWSHARES +NORMSHARES +RAWUSAGE +EFFECTVUSAGE +FAIRSHARE$' <<<"$(head -1 "$work/table")" ||
	fail "fairshare table header: $(head -1 "$work/table")"
grep -Eq '^team-a +alice +1 +0\.33333[0-9] ' "$work/table" || fail "no alice row: $(cat "$work/table")"
ok "the table has sshare's columns"

# The quota view: share and usage beside the GPU use (wide enough).
share=$(awk -F'|' '$1 == "team-a" && $2 == "" { printf "%.0f%%", $4 * 100 }' "$work/sshare")
e2e_start 120x30 --cluster llm-poc --view quota
e2e_wait "SHARE +USAGE +FS" 15
e2e_wait "team-a +[0-9]+/64 .* +$share +[0-9]+% " 15
ok "quota view: team-a's share $share and usage beside its GPU use"
e2e_keys q
e2e_wait 'EXIT=0' 10
