// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuClockMap.h"

#include <algorithm>
#include <cmath>

void PmuClockMap::addStep(std::uint64_t wallFrom, std::uint64_t simFrom, std::uint64_t wallTo, std::uint64_t simTo)
{
    m_anchors.emplace_back(wallFrom, simFrom);
    m_anchors.emplace_back(wallTo, simTo);
}

std::optional<std::uint64_t> PmuClockMap::simulatedOf(std::uint64_t monoNs) const
{
    if (m_anchors.empty()) return std::nullopt;
    const auto it = std::upper_bound(m_anchors.begin(), m_anchors.end(), monoNs,
        [](std::uint64_t v, const std::pair<std::uint64_t, std::uint64_t>& a) { return v < a.first; });
    if (it == m_anchors.begin()) return it->second; // before the first step: nothing earlier was simulated
    if (it == m_anchors.end()) return m_anchors.back().second;
    const auto& [w0, p0] = *(it - 1);
    const auto& [w1, p1] = *it;
    if (w1 == w0 || p1 <= p0) return p1;
    const double f = static_cast<double>(monoNs - w0) / static_cast<double>(w1 - w0);
    return p0 + static_cast<std::uint64_t>(std::llround(f * static_cast<double>(p1 - p0)));
}

std::optional<std::uint64_t> PmuClockMap::monotonicOf(std::uint64_t simNs) const
{
    if (m_anchors.empty()) return std::nullopt;
    // The first wall time at which the simulation reached simNs (between steps it stands still).
    const auto it = std::lower_bound(m_anchors.begin(), m_anchors.end(), simNs,
        [](const std::pair<std::uint64_t, std::uint64_t>& a, std::uint64_t v) { return a.second < v; });
    if (it == m_anchors.begin()) return it->first;
    if (it == m_anchors.end()) return m_anchors.back().first;
    const auto& [w0, p0] = *(it - 1);
    const auto& [w1, p1] = *it;
    if (p1 == p0) return w0;
    const double f = static_cast<double>(simNs - p0) / static_cast<double>(p1 - p0);
    return w0 + static_cast<std::uint64_t>(std::llround(f * static_cast<double>(w1 - w0)));
}
