// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Keeps every poll of a blame run per group and L3 domain (occupancy, cumulative MBM total) and, where the engine
// counts them, the victim's cumulative PMU counts at the same instants: what the sliding windows, the victim's harm
// and the probes are computed from. The clock moves on in poll-sized steps: the simulator is run, a real source is
// waited for (experiment/Measurement.h does the same for sweeps, summed over domains, which blame cannot use).

#include "engine/Engine.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rdt::blame {

/// One group on one domain at one poll.
struct PollReading {
    std::optional<double> occupancyBytes; ///< none when the counter read Error/Unavailable
    std::optional<std::uint64_t> mbmTotalBytes; ///< cumulative (wrap-corrected by the sampler); none when unread
};

using GroupDomain = std::pair<std::string, int>;

struct Poll {
    std::uint64_t offsetNs = 0; ///< since the recorder started
    std::map<GroupDomain, PollReading> readings;
    std::optional<engine::GroupPmuCounts> victimPmu; ///< the victim's cumulative counts, when offered
};

class PollRecorder {
public:
    struct Hooks {
        std::function<bool()> stopRequested;
        std::function<void(const engine::EngineEvent&)> onEvent; ///< events other than sample batches
        std::function<void(const RdtSampleBatch&)> onBatch; ///< every poll's samples (a session records them)
    };
    /// `pollNs` is clamped to what the counter width allows (SDM 20.18.8). `pmuGroup`: whose PMU counts to read at
    /// every poll (the victim).
    PollRecorder(engine::Engine& engine, std::uint64_t pollNs, unsigned counterWidth, bool paced, std::string pmuGroup,
        Hooks hooks);

    /// Polls every pollNs() for `ns` (the first poll at once), appending to `out`. False when a stop was asked for.
    bool record(std::uint64_t ns, std::vector<Poll>& out);
    std::uint64_t elapsedNs() const { return m_offset; }
    /// Someone else moved the source clock on (a sweep polled it): the next poll follows from there, not from the
    /// last poll of this recorder, which would ask for a time already past.
    void catchUp()
    {
        const std::uint64_t now = m_engine.nowNs();
        if (now > m_t0 + m_offset) m_offset = now - m_t0;
    }
    std::uint64_t pollNs() const { return m_pollNs; }
    /// How the victim's PMU counts were counted ("" when never), or why there are none.
    const std::string& pmuMethod() const { return m_pmuMethod; }
    const std::string& pmuUnavailable() const { return m_pmuUnavailable; }

private:
    bool stopRequested() const { return m_hooks.stopRequested && m_hooks.stopRequested(); }
    bool pollAt(std::uint64_t offset, std::vector<Poll>& out);

    engine::Engine& m_engine;
    std::uint64_t m_pollNs;
    bool m_paced;
    std::string m_pmuGroup;
    Hooks m_hooks;
    std::uint64_t m_t0 = 0, m_offset = 0;
    bool m_started = false;
    std::chrono::steady_clock::time_point m_wall0;
    std::string m_pmuMethod, m_pmuUnavailable;
};

} // namespace rdt::blame
