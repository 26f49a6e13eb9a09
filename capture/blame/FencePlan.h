// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The allocation that fences a suspect for a probe, and the one that undoes it: for a cache suspect its L3 mask
// cut to min_cbm_bits contiguous ways away from the victim's ways where there are such ways (SDM 20.19.2, 20.19.4.2:
// contiguous masks are valid everywhere), on every domain; for a bandwidth suspect its MB value at the lowest the
// hardware takes (max(min_bandwidth, bandwidth_gran), SDM 20.19.7). With CDP both L3CODE and L3DATA are cut.

#include "BlameTypes.h"
#include "engine/EngineTypes.h"

#include <string>
#include <vector>

namespace rdt::blame {

struct Fence {
    Resource resource = Resource::Cache;
    Schemata change; ///< what fences the group
    Schemata original; ///< the group's values of the same lines now: what the restore writes
    std::string text; ///< "L3:0=3" (one line, for sentences and logs)
    std::string note; ///< why the resource differs from the one asked for ("" when it does not)
};

/// The fence of `group` against `victim` (paths) on the resource asked for; a bandwidth fence without MBA (or with
/// MB values in MiBps) falls back to ways, saying so. Fails when the group has no schemata or nothing can be cut.
Result<Fence> planFence(const Capabilities& caps, const std::vector<engine::GroupState>& groups,
    const std::string& group, const std::string& victim, Resource resource);

} // namespace rdt::blame
