// SPDX-License-Identifier: GPL-3.0-or-later
// Probe for capture_dependency_check_detects_api: the engine's API reaching into a backend must fail the check.
#include "Probe.h"
#include "core/Result.h"
#include "rdt/Schemata.h"
