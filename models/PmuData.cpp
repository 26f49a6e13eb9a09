// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuData.h"

#include <algorithm>

namespace rdt::pmu {

std::pair<std::uint64_t, std::uint64_t> PmuData::timeSpan() const
{
    std::uint64_t lo = ~std::uint64_t { 0 }, hi = 0;
    auto see = [&](std::uint64_t t) {
        lo = std::min(lo, t);
        hi = std::max(hi, t);
    };
    // Samples are in file order, which is time order per CPU only: look at every one.
    for (const auto& b : branches)
        see(b.time);
    for (const auto& l : loads)
        see(l.time);
    for (const auto& p : tma)
        see(p.time);
    return hi == 0 && lo == ~std::uint64_t { 0 } ? std::pair<std::uint64_t, std::uint64_t> { 0, 0 }
                                                 : std::pair { lo, hi };
}

void addSample(PmuData& data, const Sample& s, const EventAttr* attr)
{
    const bool loadLatency = s.has(perf::SampleWeight | perf::SampleWeightStruct) && s.has(perf::SampleDataSrc);
    if (s.has(perf::SampleBranchStack)) { // empty stacks too: their IP still counts as a self sample
        if (attr) {
            const auto info = BranchGraph::Info::fromAttr(*attr);
            data.branchMode = info.mode;
            data.branchTypes = info.typesRecorded;
        }
        data.branches.push_back(PmuBranchSample { s.time, s.pid, s.ip, s.branches });
    } else if (loadLatency) {
        data.loads.push_back(PmuLoadSample { s.time, s.ip, s.addr, s.dataSrc, s.pid,
            static_cast<std::uint32_t>(std::min<std::uint64_t>(s.latency(), 0xffffffffu)) });
    } else {
        ++data.otherSamples;
        ++data.otherFunctions[data.symbols->resolve(s.pid, s.ip).function];
    }
}

} // namespace rdt::pmu
