// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "rdt/Sample.h"

#include <string>

namespace rdt {

/// What an allocation change changed, as schemata spell it: "victim L3:0", "COS1 MB:1", "default L3" (a change of
/// no one domain). The monitor's stderr line and the GUI's timeline markers say it the same way.
std::string allocationChangeTarget(const AllocationChanged& change);

} // namespace rdt
