#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fixture cleanup: the unpacked root and the .deb files go when the packaging tests are done.
set -euo pipefail
rm -rf "$1"
