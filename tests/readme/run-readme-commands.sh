#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every "$ command" line of the README's examples as a user would type it (issue #47 item 8), so the README
# cannot drift from the tools: the built programs on PATH, the checkout's tests/ folder under the working
# directory, every /tmp/ path moved into this run's own temp dir. A line passes when it exits as the README says
# ("# exit N" at its end, else 0). Lines that need what this machine cannot have (a mounted resctrl, an AMD
# machine, a hardware PMU, an agent to connect to) are skipped with that reason; each skip is printed.
# usage: run-readme-commands.sh README SOURCE_DIR BIN_DIR...
set -u
readme=$(realpath "$1")
source_dir=$(realpath "$2")
shift 2
for dir in "$@"; do PATH="$(realpath "$dir"):$PATH"; done
export PATH
work=$(mktemp -d /tmp/rdtscope-readme.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run" "$work/tmp"
ln -s "$source_dir/tests" "$work/run/tests"
cd "$work/run" || exit 2

skip_reason() {
    case "$1" in
    *"/sys/fs/resctrl"*) echo "needs the resctrl of a real RDT machine" ;;
    *"on an AMD machine"* | *"refused on AMD"* | *"AMD ABMC"* | *"counter-unassign p0"*)
        echo "needs an AMD machine's resctrl" ;;
    *"pmu tma -- "*) echo "needs a hardware PMU (this machine's answer is its own example)" ;;
    *"--connect"*) echo "needs an agent to connect to" ;;
    *) return 1 ;;
    esac
}

passed=0
failed=0
skipped=0
line_no=0
in_block=0
while IFS= read -r line; do
    line_no=$((line_no + 1))
    case "$line" in
    '```'*) in_block=$((1 - in_block)); continue ;;
    esac
    [ "$in_block" = 1 ] || continue
    case "$line" in
    '$ '*) ;;
    *) continue ;;
    esac
    command=${line#\$ }
    if reason=$(skip_reason "$command"); then
        echo "SKIP README:$line_no ($reason): $command"
        skipped=$((skipped + 1))
        continue
    fi
    expected=0
    if [[ "$command" =~ \#\ exit\ ([0-9]+) ]]; then expected=${BASH_REMATCH[1]}; fi
    command=${command//\/tmp\//$work/tmp/}
    timeout 600 bash -c "$command" > "$work/out" 2>&1 < /dev/null
    code=$?
    if [ "$code" = "$expected" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL README:$line_no: exit $code, the README says $expected: $command"
        head -c 2000 "$work/out" | sed 's/^/    /'
    fi
done < "$readme"
echo "README commands: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
