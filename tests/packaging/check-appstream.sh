#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The installed AppStream metadata passes `appstreamcli validate --strict` (--no-net: the screenshot URLs cannot
# be fetched here), its launchable is the installed desktop entry, every screenshot is a file the repository
# holds under resources/screenshots, and its newest release is the version being built.
# usage: check-appstream.sh ROOT APP_ID SOURCE_DIR VERSION
set -euo pipefail
root=$1 id=$2 src=$3 version=$4
meta=$root/usr/share/metainfo/$id.metainfo.xml
[ -f "$meta" ] || { echo "no metainfo at $meta" >&2; exit 1; }
appstreamcli validate --strict --no-net --explain "$meta"
launchable=$(sed -n 's:.*<launchable type="desktop-id">\(.*\)</launchable>.*:\1:p' "$meta")
[ "$launchable" = "$id.desktop" ] || { echo "launchable '$launchable' is not $id.desktop" >&2; exit 1; }
[ -f "$root/usr/share/applications/$launchable" ] || { echo "launchable $launchable is not installed" >&2; exit 1; }
mapfile -t shots < <(sed -n 's:.*<image>.*/\([^/<]*\)</image>.*:\1:p' "$meta")
[ ${#shots[@]} -ge 1 ] || { echo "no screenshots" >&2; exit 1; }
for s in "${shots[@]}"; do
  [ -f "$src/resources/screenshots/$s" ] || { echo "screenshot $s is not in resources/screenshots" >&2; exit 1; }
done
captions=$(grep -c '<caption>' "$meta")
[ "$captions" -eq ${#shots[@]} ] || { echo "$captions captions for ${#shots[@]} screenshots" >&2; exit 1; }
newest=$(sed -n 's:.*<release version="\([^"]*\)".*:\1:p' "$meta") # all of them: `| head -1` risks SIGPIPE
newest=${newest%%$'\n'*}
[ "$newest" = "$version" ] || { echo "newest release in the metainfo is $newest, the build is $version" >&2; exit 1; }
echo "metainfo ok: launchable $launchable, ${#shots[@]} screenshots, release $newest"
