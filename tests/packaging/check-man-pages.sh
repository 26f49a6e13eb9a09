#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Each installed man page renders with man -l without a groff warning and has its NAME and SYNOPSIS; the
# rdtscope-cli page has a section for every command `rdtscope-cli --help` lists.
# usage: check-man-pages.sh ROOT
set -euo pipefail
root=$1
pages=("$root"/usr/share/man/man1/rdtscope.1.gz "$root"/usr/share/man/man1/rdtscope-cli.1.gz
  "$root"/usr/share/man/man8/rdtscope-agent.8.gz)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for page in "${pages[@]}"; do
  [ -f "$page" ] || { echo "missing man page $page" >&2; exit 1; }
  MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l -Tutf8 "$page" >"$tmp/out" 2>"$tmp/err"
  [ ! -s "$tmp/err" ] || { echo "$page: groff says:" >&2; cat "$tmp/err" >&2; exit 1; }
  # -Tutf8 output keeps overstrike bold; col -b gives the plain text.
  col -b <"$tmp/out" >"$tmp/text"
  for heading in NAME SYNOPSIS DESCRIPTION 'SEE ALSO'; do
    grep -q "^$heading\$" "$tmp/text" || { echo "$page has no $heading section" >&2; exit 1; }
  done
  echo "$(basename "$page"): $(wc -l <"$tmp/text") lines"
done
man -l -Tutf8 "$root/usr/share/man/man1/rdtscope-cli.1.gz" 2>/dev/null | col -b >"$tmp/cli"
mapfile -t commands < <("$root/usr/bin/rdtscope-cli" --help | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ ${#commands[@]} -ge 10 ] || { echo "rdtscope-cli --help listed only ${#commands[@]} commands" >&2; exit 1; }
for c in "${commands[@]}"; do
  grep -q "^   $c\$" "$tmp/cli" || { echo "rdtscope-cli.1 has no section for the command '$c'" >&2; exit 1; }
done
echo "rdtscope-cli.1 describes all ${#commands[@]} commands"
