// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Time sampling of a steady simulated machine (opt-in: SimOptions::maxTimeScale). Once no register or workload has
// changed for a while and every RMID's L3 occupancy has stopped moving, each simulated access stands for `scale()`
// accesses of the same thread (its cost in cycles and its counts are multiplied, its memory traffic too), so the
// machine costs 1/scale of the host CPU. Every thread is thinned alike, so the threads' relative rates, hit ratios,
// bandwidth and the occupancy equilibrium stay what they were; what would change is the speed of a transient (the
// cache fills k times slower), so any change returns to scale 1 at once and the scale goes up only after the
// occupancy has been flat for `kStableWindows` windows. The dashboard uses it so an idle window costs little;
// experiments, lessons and the CLI run at scale 1 (docs/ARCHITECTURE.md, "The simulated machine").

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rdt::sim {

class TimeScale {
public:
    static constexpr std::uint64_t kWindowNs = 100'000'000; ///< occupancy is compared every 100 ms simulated
    static constexpr int kStableWindows = 10; ///< one simulated second flat (and quiet) before scaling up

    explicit TimeScale(std::uint32_t maxScale = 1)
        : m_max(std::max<std::uint32_t>(1, maxScale))
    { }

    std::uint32_t scale() const { return m_scale; }
    std::uint32_t maxScale() const { return m_max; }
    bool enabled() const { return m_max > 1; }

    /// A register, task association or workload changed: full rate until the cache is steady again.
    void noteChange()
    {
        m_scale = 1;
        m_stable = 0;
    }

    /// Whether observe() wants a snapshot at `nowNs` (once per window).
    bool due(std::uint64_t nowNs) const { return enabled() && nowNs >= m_nextNs; }

    /// The sampled occupancy lines of every (domain, RMID), in a fixed order, and the sampled lines one domain
    /// holds. A window is flat when no RMID moved by more than 2 % of the cache since the last one: well above the
    /// sampling noise of a steady group (about the square root of its lines), well below a fill or a decay, which
    /// at full rate takes milliseconds (a streamer refills a whole L3 in about 2 ms at 16 GB/s). Only a change
    /// (noteChange) or such a jump lowers the scale again.
    void observe(std::uint64_t nowNs, const std::vector<std::int64_t>& occupancy, std::int64_t linesPerDomain)
    {
        m_nextNs = nowNs + kWindowNs;
        const std::int64_t threshold = std::max<std::int64_t>(1, linesPerDomain / 50);
        bool flat = m_last.size() == occupancy.size();
        for (std::size_t i = 0; flat && i < occupancy.size(); ++i) {
            const std::int64_t moved = occupancy[i] > m_last[i] ? occupancy[i] - m_last[i] : m_last[i] - occupancy[i];
            flat = moved <= threshold;
        }
        m_last = occupancy;
        if (!flat) {
            noteChange();
            return;
        }
        if (++m_stable >= kStableWindows) m_scale = m_max;
    }

private:
    std::uint32_t m_max;
    std::uint32_t m_scale = 1;
    int m_stable = 0;
    std::uint64_t m_nextNs = 0;
    std::vector<std::int64_t> m_last;
};

} // namespace rdt::sim
