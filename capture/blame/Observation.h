// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the passive half of a blame run saw: the polls, which of them were passive, who the victim and the other
// control groups are, and their L3 masks (who may fill which ways, SDM 20.19.2). The victim's harm
// (VictimHarm.h) and the ranking (SuspectRanking.h) are computed from it.

#include "PollRecorder.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rdt::blame {

struct Observation {
    std::vector<Poll> polls;
    std::size_t passiveEnd = 0; ///< polls [0, passiveEnd) are the passive observation
    std::size_t windowPolls = 4; ///< polls per sliding window
    std::string victim; ///< path ("" = default group)
    std::vector<std::string> suspects; ///< every other control group ("" = default group)
    /// L3 capacity bitmask per control group and domain (with CDP the data mask); absent where not read.
    std::map<GroupDomain, std::uint64_t> masks;
    bool cat = false; ///< the machine has L3 CAT: masks decide who may fill which ways
    std::uint64_t bytesPerWay = 0; ///< 0 when the way size is unknown
    std::string pmuMethod; ///< how the victim's PMU counts were counted
    std::string pmuUnavailable; ///< or why there are none
};

} // namespace rdt::blame
