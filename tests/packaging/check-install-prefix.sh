#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install BUILD --prefix P` (no package): the agent lands in P/libexec/rdtscope, and the systemd unit
# and polkit policy name it there, not /usr; the agent component installs alone.
# usage: check-install-prefix.sh BUILD_DIR
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/opt/rdt
cmake --install "$build" --prefix "$prefix" --component rdtscope-agent >"$tmp/log"
agent=$prefix/libexec/rdtscope/rdtscope-agent
[ -x "$agent" ] || { echo "no agent at $agent" >&2; cat "$tmp/log" >&2; exit 1; }
unit=$prefix/lib/systemd/system/rdtscope-agent.service
grep -qx "ExecStart=$agent --listen unix:/run/rdtscope/agent.sock --allow-group rdtscope" "$unit" \
  || { echo "$unit does not start $agent:" >&2; grep ExecStart "$unit" >&2; exit 1; }
policy=$prefix/share/polkit-1/actions/org.rdtscope.agent.policy
grep -q "exec.path\">$agent<" "$policy" || { echo "$policy does not name $agent" >&2; exit 1; }
[ ! -e "$prefix/bin" ] || { echo "--component rdtscope-agent installed more than the agent:" >&2; find "$prefix" >&2; exit 1; }
echo "agent, unit and policy agree on $agent"
