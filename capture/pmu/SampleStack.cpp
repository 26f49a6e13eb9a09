// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleStack.h"

namespace rdt::pmu {

void callchainFrames(std::span<const std::uint64_t> callchain, std::vector<std::uint64_t>& frames)
{
    frames.clear();
    for (auto ip : callchain)
        if (!perf::isContextMarker(ip) && ip != 0) frames.push_back(ip);
}

} // namespace rdt::pmu
