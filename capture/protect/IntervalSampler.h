// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One control interval of the protected machine: the clock moved on (the simulator run, or a real source waited
// for), one poll, and what it says of the protected group and the best-effort groups: the protected group's
// occupancy (summed over its L3 domains), IPC and MPKI from its PMU counts over the interval where the engine
// counts them, the best-effort groups' retired instructions per second (their throughput; their memory traffic
// where there is no PMU) and the scenario's events.

#include "engine/Engine.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rdt::protect {

struct IntervalReading {
    std::uint64_t timeNs = 0; ///< source clock, at the interval's end
    std::optional<double> lcOccupancyBytes;
    std::optional<double> lcIpc, lcMpki;
    std::optional<double> beInstructionsPerSecond; ///< none without PMU counts of every best-effort group
    double beMissBps = 0; ///< the best-effort groups' MBM total
    std::vector<SimulationEvent> scenario; ///< scenario lines that ran during the interval
    std::string unread; ///< why the protected group's counts could not be read ("" when they were)
};

class IntervalSampler {
public:
    struct Hooks {
        std::function<void(const engine::EngineEvent&)> onEvent; ///< events other than sample batches
        std::function<void(const RdtSampleBatch&)> onBatch;
    };
    IntervalSampler(
        engine::Engine& engine, std::string lcGroup, std::vector<std::string> beGroups, bool paced, Hooks hooks);
    /// Moves the clock on by `intervalNs` and reads the interval.
    IntervalReading next(std::uint64_t intervalNs);
    /// How the protected group's PMU counts are counted ("simulated: ..."), or why there are none.
    const std::string& pmuMethod() const { return m_pmuMethod; }

private:
    std::optional<engine::GroupPmuCounts> count(const std::string& group);

    engine::Engine& m_engine;
    std::string m_lc;
    std::vector<std::string> m_be;
    bool m_paced;
    Hooks m_hooks;
    std::uint64_t m_t0 = 0, m_offset = 0;
    std::chrono::steady_clock::time_point m_wall0;
    std::optional<engine::GroupPmuCounts> m_lcLast;
    std::map<std::string, engine::GroupPmuCounts> m_beLast;
    std::map<std::string, std::uint64_t> m_beMbmLast;
    std::string m_pmuMethod;
};

} // namespace rdt::protect
