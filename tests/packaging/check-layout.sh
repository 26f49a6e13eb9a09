#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every file of the three packages, "package path", equals EXPECTED: a file that goes missing or appears
# unannounced fails (update the list in the same commit as the install rule).
# usage: check-layout.sh DEBS_DIR EXPECTED
set -euo pipefail
debs=$1 expected=$2
actual=$(for d in "$debs"/*.deb; do
  pkg=$(dpkg-deb -f "$d" Package)
  dpkg-deb -c "$d" | awk -v p="$pkg" '$1 !~ /^d/ { sub(/^\.\//, "/", $6); print p, $6 }'
done | sort)
if ! diff -u <(grep -v '^#' "$expected" | sort) <(echo "$actual"); then
  echo "the packages' files differ from $expected (- expected, + packaged)" >&2
  exit 1
fi
echo "$(wc -l <<<"$actual") files in the expected places"
