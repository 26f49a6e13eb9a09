#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The programs as unpacked from the .deb files run from that root, in an empty directory with an empty HOME, and
# use only what is under it: --version prints the version and the git revision, `rdtscope-cli info` reports,
# the installed scenario file runs, the GUI writes a screenshot offscreen, and the agent serves the installed
# Grafana dashboard. No installed program carries a
# path into the source or build tree.
# usage: run-installed.sh ROOT VERSION SOURCE_DIR BUILD_DIR
set -euo pipefail
root=$1 version=$2 src=$3 build=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export HOME=$tmp XDG_CONFIG_HOME=$tmp/config XDG_RUNTIME_DIR=$tmp/run QT_QPA_PLATFORM=offscreen
mkdir -m 700 "$XDG_RUNTIME_DIR"
cli=$root/usr/bin/rdtscope-cli gui=$root/usr/bin/rdtscope agent=$root/usr/libexec/rdtscope/rdtscope-agent

for p in "$cli" "$gui"; do
  v=$("$p" --version)
  echo "$v"
  [[ $v =~ ^rdtscope(-cli)?\ $version\ \(git\ [0-9a-f]{7,}(-dirty)?\)$ ]] || [[ $v == *"$version (git unknown)" ]] \
    || { echo "unexpected --version output: $v" >&2; exit 1; }
done

"$cli" info >info.txt
grep -q '^CPUID source:' info.txt || { echo "rdtscope-cli info printed no report:" >&2; cat info.txt >&2; exit 1; }
echo "rdtscope-cli info: $(wc -l <info.txt) lines"

scn=$root/usr/share/rdtscope/scenarios/noisy-neighbour.scn
"$cli" sim --scenario "$scn" --seconds 2 >sim.txt
grep -q '^# scenario: noisy-neighbour' sim.txt || { echo "the installed scenario did not run:" >&2; cat sim.txt >&2; exit 1; }
echo "rdtscope-cli sim --scenario $scn: ok"

timeout 120 "$gui" --screenshot "$tmp/shot.png" --after 1
file "$tmp/shot.png" | grep -q 'PNG image data' || { echo "rdtscope wrote no PNG" >&2; exit 1; }
echo "rdtscope --screenshot: $(file -b "$tmp/shot.png")"

# The agent serves the installed Grafana dashboard, found from its own path under the root (not the prefix the
# build was configured with): --metrics on a free loopback port, /dashboard read with bash's /dev/tcp.
for attempt in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  "$agent" --metrics "127.0.0.1:$port" --source sim >agent.log 2>&1 &
  apid=$!
  for _ in $(seq 50); do grep -q 'serving metrics' agent.log && break; kill -0 $apid 2>/dev/null || break; sleep 0.1; done
  grep -q 'serving metrics' agent.log && break
  kill $apid 2>/dev/null || true
  wait $apid 2>/dev/null || true
done
grep -q 'serving metrics' agent.log || { echo "the installed agent did not serve metrics:" >&2; cat agent.log >&2; exit 1; }
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /dashboard HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
timeout 10 cat <&3 >dashboard.txt || true
exec 3<&-
kill $apid
wait $apid 2>/dev/null || true
grep -q 'rdtscope_mbm_total_bytes_total' dashboard.txt \
  || { echo "the installed agent served no dashboard at /dashboard:" >&2; head -c 300 dashboard.txt >&2; exit 1; }
echo "rdtscope-agent --metrics: /dashboard served from $root/usr/share/rdtscope/grafana"

for p in "$cli" "$gui" "$agent"; do
  for dir in "$src" "$build"; do
    if grep -q -F "$dir" "$p"; then echo "$p contains the path $dir" >&2; exit 1; fi
  done
  if file "$p" | grep -q 'not stripped'; then echo "$p is not stripped" >&2; exit 1; fi
done
echo "no installed program names $src or $build"
