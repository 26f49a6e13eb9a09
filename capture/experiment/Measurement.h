// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Holding an allocation and measuring what it does, through the engine: the clock moved on in poll-sized steps
// (sleeping in real time when paced, running the simulator otherwise), a poll at each, and per group the mean
// occupancy and the bandwidth over the measured time. What sweeps and the advisor share.

#include "engine/Engine.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace rdt::experiment {

/// One group over one measurement, summed over its monitoring domains.
struct GroupMeasure {
    bool seen = false;
    double occupancyBytes = 0; ///< mean of the polls
    double totalBps = 0; ///< MBM total bytes over the measured time
    double localBps = 0;
};

class Measurer {
public:
    struct Hooks {
        std::function<bool()> stopRequested;
        std::function<void(const engine::EngineEvent&)> onEvent; ///< events other than sample batches
        std::function<void(std::uint64_t elapsedNs)> onProgress;
        std::function<void(const RdtSampleBatch&)> onBatch; ///< every poll's samples (a session records them)
    };
    /// `pollNs` is clamped to what the counter width allows (SDM 20.18.8); the clock starts now.
    Measurer(engine::Engine& engine, std::uint64_t pollNs, unsigned counterWidth, bool paced, Hooks hooks);

    /// Holds for `ns`, polling. False when a stop was requested.
    bool settle(std::uint64_t ns);
    /// Holds for `ns`, polling, and measures every group seen. False when a stop was requested.
    bool measure(std::uint64_t ns, std::map<std::string, GroupMeasure>& out);
    std::uint64_t elapsedNs() const { return m_offset; }
    std::uint64_t pollNs() const { return m_pollNs; }

private:
    struct Reading {
        double occupancy = 0;
        std::uint64_t total = 0;
        std::uint64_t local = 0;
    };
    bool stopRequested() const { return m_hooks.stopRequested && m_hooks.stopRequested(); }
    bool pollAt(std::uint64_t offset, std::map<std::string, Reading>& out);

    engine::Engine& m_engine;
    std::uint64_t m_pollNs;
    bool m_paced;
    Hooks m_hooks;
    std::uint64_t m_t0 = 0, m_offset = 0;
    std::chrono::steady_clock::time_point m_wall0;
    /// The last poll's readings and whether there was one: a measurement starting where a settle ended starts from
    /// them instead of polling the same instant again (a second batch at one time is a duplicate session row).
    std::map<std::string, Reading> m_latest;
    bool m_polled = false;
};

} // namespace rdt::experiment
