#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fixture: builds the three .deb files from this build tree with cpack (what `./dev package` runs on the release
# tree) and unpacks them with dpkg -x into WORK/root, where the other packaging tests find the installed files.
# usage: build-debs.sh BUILD_DIR WORK
set -euo pipefail
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work/debs" "$work/root"
cpack --config "$build/CPackConfig.cmake" -B "$work/cpack" >"$work/cpack.log" 2>&1 || {
  cat "$work/cpack.log" >&2
  exit 1
}
mv "$work"/cpack/*.deb "$work/debs/"
rm -rf "$work/cpack"
shopt -s nullglob
debs=("$work"/debs/*.deb)
[ ${#debs[@]} -eq 3 ] || { echo "expected 3 .deb files, cpack made ${#debs[@]}: ${debs[*]}" >&2; exit 1; }
for d in "${debs[@]}"; do
  dpkg-deb -x "$d" "$work/root"
  echo "$(basename "$d"): $(dpkg-deb -f "$d" Installed-Size) KiB installed"
done
