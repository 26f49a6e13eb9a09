#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# rdtscope-cli and rdtscope-agent run where no Qt is installed: their packages depend on no Qt package and ldd
# of the installed programs names no Qt library. The GUI package is the control: it must depend on Qt 6, or the
# check would pass for a reason that has nothing to do with the programs.
# usage: check-no-qt.sh DEBS_DIR ROOT
set -euo pipefail
debs=$1 root=$2
depends() { dpkg-deb -f "$(ls "$debs"/"$1"_*.deb)" Depends; }
for pkg in rdtscope-cli rdtscope-agent; do
  d=$(depends $pkg)
  echo "$pkg Depends: $d"
  if grep -qi 'qt' <<<"$d"; then echo "$pkg depends on Qt" >&2; exit 1; fi
done
for prog in usr/bin/rdtscope-cli usr/libexec/rdtscope/rdtscope-agent; do
  libs=$(ldd "$root/$prog")
  if grep -i 'libqt' <<<"$libs"; then echo "$prog links Qt" >&2; exit 1; fi
  grep -q 'libc.so' <<<"$libs" || { echo "ldd of $prog gave no libraries: $libs" >&2; exit 1; }
done
gui=$(depends rdtscope)
grep -q 'libqt6widgets6' <<<"$gui" || { echo "the GUI package does not depend on Qt 6 Widgets: $gui" >&2; exit 1; }
# ldd's whole output first: `ldd | grep -q` under pipefail failed now and then, when grep quit at its first match
# and ldd died of SIGPIPE before it had written the rest.
gui_libs=$(ldd "$root/usr/bin/rdtscope")
grep -q 'libQt6Widgets' <<<"$gui_libs" || { echo "ldd finds no Qt in the GUI: $gui_libs" >&2; exit 1; }
echo "no Qt in rdtscope-cli or rdtscope-agent (the GUI package depends on it, as it must)"
