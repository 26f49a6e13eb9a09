// SPDX-License-Identifier: GPL-3.0-or-later
#include "AllocationChangeText.h"
#include "GroupNames.h"

namespace rdt {

std::string allocationChangeTarget(const AllocationChanged& change)
{
    std::string text = displayGroup(change.group) + " " + change.resource;
    if (change.domain >= 0) text += ":" + std::to_string(change.domain);
    return text;
}

} // namespace rdt
