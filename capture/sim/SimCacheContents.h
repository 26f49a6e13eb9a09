// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"

#include <cstdint>
#include <vector>

namespace rdt::sim {

/// What the simulated caches hold and how CBMs map onto their ways (SDM 20.19.2): resident bytes per CLOS and way,
/// code and data lines per way (the way heatmap), and emptying every cache. A view over SimMachine's state:
/// SimMachine holds the mutex and hands out nothing of it.
class SimCacheContents {
public:
    explicit SimCacheContents(SimMachine::Impl& impl);

    std::vector<std::vector<std::uint64_t>> occupancyByClosAndWay(unsigned domain) const;
    std::vector<std::uint64_t> occupancyByWay(unsigned domain, bool code) const;
    std::uint32_t waysOfL3Cbm(std::uint32_t cbm) const;
    std::uint32_t waysOfL2Cbm(std::uint32_t cbm) const;
    std::uint32_t l3Ways() const;
    void flushCaches();

private:
    SimMachine::Impl& m_impl;
    const SimFeatures& m_features;
};

} // namespace rdt::sim
