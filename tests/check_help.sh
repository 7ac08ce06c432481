#!/usr/bin/env bash
# check_help.sh OPSCONSOLE: --help and the man page name the same options.
# Every option the man page names is in `opsconsole --help`; every option
# of a subcommand's synopsis in the man page is in that subcommand's
# --help, and every option a --help names is in the man page.
set -euo pipefail
bin=${1:?usage: check_help.sh OPSCONSOLE}
page=$(dirname "$0")/../docs/opsconsole.1
opts() { grep -o -- '--[a-z][a-z-]*[a-z]' | sort -u; }
# The man page as text, its hyphens plain.
man_text=$(sed 's/\\-/-/g' "$page")
man_opts=$(opts <<<"$man_text")
main_help=$("$bin" --help)
status=0
missing=$(comm -23 <(echo "$man_opts") <(opts <<<"$main_help"))
if [ -n "$missing" ]; then
	echo "opsconsole --help does not name what the man page does:" $missing >&2
	status=1
fi
# The synopsis blocks: ".B opsconsole SUB" to the next .br.
synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' <<<"$man_text")
for sub in onboard window rehearse agent; do
	block=$(awk -v s=".B opsconsole $sub" '$0 == s {on = 1; next} on && /^\.br/ {exit} on' <<<"$synopsis")
	[ -n "$block" ] || { echo "the man page's synopsis has no opsconsole $sub" >&2; status=1; continue; }
	help=$("$bin" "$sub" --help)
	missing=$(comm -23 <(opts <<<"$block") <(opts <<<"$help"))
	[ -z "$missing" ] || { echo "opsconsole $sub --help lacks:" $missing >&2; status=1; }
	extra=$(comm -13 <( (opts <<<"$block"; echo --help) | sort -u) <(opts <<<"$help"))
	[ -z "$extra" ] || { echo "the man page's synopsis of opsconsole $sub lacks:" $extra >&2; status=1; }
done
extra=$(comm -13 <(echo "$man_opts") <(opts <<<"$main_help"))
[ -z "$extra" ] || { echo "the man page does not name what opsconsole --help does:" $extra >&2; status=1; }
[ $status -eq 0 ] && echo "ok: --help and the man page name the same options ($(wc -l <<<"$man_opts"))"
exit $status
