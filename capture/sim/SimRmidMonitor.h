// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SimMachine.h"

#include <cstdint>
#include <optional>

namespace rdt::sim {

/// The simulated machine's monitoring as IA32_QM_CTR shows it (SDM 20.18): per-RMID counters in each L3 domain,
/// occupancy and MBM in counter units wrapped to the enumerated width, AMD's BMEC filters (QOS_EVT_CFG), and the
/// Unavailable bit. A view over SimMachine's state: SimMachine holds the mutex and hands out nothing of it.
class SimRmidMonitor {
public:
    explicit SimRmidMonitor(SimMachine::Impl& impl);

    RmidCounters counters(unsigned domain, std::uint32_t rmid) const;
    std::uint64_t occupancyBytes(unsigned domain, std::uint32_t rmid) const;
    void setMbmEventConfig(unsigned domain, std::uint32_t event, std::uint32_t transactions);
    std::optional<std::uint64_t> counterUnits(unsigned domain, std::uint32_t rmid, std::uint32_t event) const;
    std::uint64_t counterWraps(unsigned domain, std::uint32_t rmid, std::uint32_t event) const;
    void setUnavailable(unsigned domain, std::uint32_t rmid, std::uint64_t untilNs);
    bool unavailable(unsigned domain, std::uint32_t rmid) const;

private:
    SimMachine::Impl& m_impl;
    const SimFeatures& m_features;
};

} // namespace rdt::sim
