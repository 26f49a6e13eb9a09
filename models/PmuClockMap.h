// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

/// How the simulated PMU's own clock relates to this host's CLOCK_MONOTONIC: each simulation step records when
/// (wall clock) it ran and which simulated span it produced; a wall time maps onto the samples produced then (linear
/// within a step, flat between steps). Its own class: a mapping with its own edge rules (before the first step, after
/// the last, steps that produced nothing), apart from the session that records it (PmuSession::dataTimeOfMonotonic).
class PmuClockMap {
public:
    void clear() { m_anchors.clear(); }
    /// One step produced simulated time up to `simTo`, starting at `simFrom`, while the wall clock went from `wallFrom`
    /// to `wallTo`. Steps come in time order.
    void addStep(std::uint64_t wallFrom, std::uint64_t simFrom, std::uint64_t wallTo, std::uint64_t simTo);
    /// CLOCK_MONOTONIC ns -> simulated ns; nullopt before any step.
    std::optional<std::uint64_t> simulatedOf(std::uint64_t monoNs) const;
    /// Simulated ns -> the first CLOCK_MONOTONIC ns the simulation reached it; nullopt before any step.
    std::optional<std::uint64_t> monotonicOf(std::uint64_t simNs) const;

private:
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_anchors; ///< (CLOCK_MONOTONIC ns, sim ns), both rising
};
