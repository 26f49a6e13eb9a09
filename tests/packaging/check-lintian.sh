#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# lintian on the three .deb files: no error at all, and no warning except those in ACCEPTED (one per line,
# "PACKAGE: TAG  reason"). An accepted warning lintian no longer gives fails too, so the list stays true.
# usage: check-lintian.sh DEBS_DIR ACCEPTED
set -euo pipefail
debs=$1 accepted=$2
rc=0
out=$(lintian --tag-display-limit 0 "$debs"/*.deb 2>&1) || rc=$? # 1: it found errors, judged below
echo "$out"
[ $rc -le 1 ] || { echo "lintian failed to run (exit $rc)" >&2; exit 1; }
failed=0
if grep -q '^E: ' <<<"$out"; then
  echo "lintian reports errors" >&2
  failed=1
fi
mapfile -t allowed < <(grep -v '^\s*#' "$accepted" | grep -v '^\s*$' | awk '{ print $1, $2 }')
declare -A seen=()
while read -r pkg tag _; do
  key="$pkg $tag"
  ok=0
  for a in "${allowed[@]}"; do [ "$a" = "$key" ] && ok=1; done
  if [ $ok = 1 ]; then seen[$key]=1; else echo "warning not accepted: $key" >&2; failed=1; fi
done < <(sed -n 's/^W: \([^ :]*\)[^:]*: \([^ ]*\).*/\1: \2/p' <<<"$out")
for a in "${allowed[@]}"; do
  [ -n "${seen[$a]:-}" ] || { echo "accepted warning no longer reported (remove it from $accepted): $a" >&2; failed=1; }
done
exit $failed
