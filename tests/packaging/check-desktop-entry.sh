#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The installed desktop entry passes desktop-file-validate, and what it names exists in the same root: the
# program of Exec/TryExec in bin, the icon in hicolor (scalable and every PNG size).
# usage: check-desktop-entry.sh ROOT APP_ID
set -euo pipefail
root=$1 id=$2
entry=$root/usr/share/applications/$id.desktop
[ -f "$entry" ] || { echo "no desktop entry at $entry" >&2; exit 1; }
out=$(desktop-file-validate "$entry" 2>&1) || { echo "$out" >&2; exit 1; }
[ -z "$out" ] || { echo "desktop-file-validate: $out" >&2; exit 1; }
exec_prog=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$entry")
[ -x "$root/usr/bin/$exec_prog" ] || { echo "Exec=$exec_prog is not installed in usr/bin" >&2; exit 1; }
icon=$(sed -n 's/^Icon=//p' "$entry")
[ "$icon" = "$id" ] || { echo "Icon=$icon, expected the application id $id" >&2; exit 1; }
hicolor=$root/usr/share/icons/hicolor
[ -f "$hicolor/scalable/apps/$icon.svg" ] || { echo "no scalable icon $icon.svg" >&2; exit 1; }
for size in 16 32 48 64 128 256; do
  png=$hicolor/${size}x$size/apps/$icon.png
  [ -f "$png" ] || { echo "no ${size}px icon" >&2; exit 1; }
  file "$png" | grep -q "PNG image data, $size x $size" || { echo "$png is not a ${size}x$size PNG" >&2; exit 1; }
done
echo "desktop entry ok: Exec=$exec_prog Icon=$icon (svg + 6 PNG sizes)"
