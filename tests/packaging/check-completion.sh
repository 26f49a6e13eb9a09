#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The installed bash completion completes the installed rdtscope-cli: command names, a command's options, the
# actions of alloc, scenario and preset names, and files where a file goes.
# usage: check-completion.sh ROOT
set -euo pipefail
root=$1
completion=$root/usr/share/bash-completion/completions/rdtscope-cli
[ -f "$completion" ] || { echo "no completion at $completion" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/session.rdts"
export PATH=$root/usr/bin:$PATH
# shellcheck source=/dev/null
source "$completion"
complete -p rdtscope-cli | grep -q _rdtscope_cli || { echo "the completion registers no function" >&2; exit 1; }
failed=0
expect() { # expect "WANTED COMPLETIONS" WORDS... (the last word is the one being completed)
  local want=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMPREPLY=()
  _rdtscope_cli
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)
  if [ "$got" = "$want" ]; then echo "ok:   '$*' -> $got"; else echo "FAIL: '$*' -> '$got', wanted '$want'" >&2; failed=1; fi
}
expect "monitor" rdtscope-cli mon
expect "diff" rdtscope-cli --connect ssh://h di
expect "--duration" rdtscope-cli monitor --dur
expect "--json" rdtscope-cli export x.rdts --j
expect "set show" rdtscope-cli alloc ''
expect "assign counter-assign counter-unassign create delete event-config list" rdtscope-cli groups --source sim ''
expect "--group" rdtscope-cli alloc set --gr
expect "lbr" rdtscope-cli pmu l
expect "noisy-neighbour" rdtscope-cli sim --scenario noisy
expect "skx-6154" rdtscope-cli sim --preset skx
expect "sim sim-msr" rdtscope-cli monitor --source si
expect "$tmp/session.rdts" rdtscope-cli replay "$tmp/sess"
exit $failed
