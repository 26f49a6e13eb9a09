// SPDX-License-Identifier: GPL-3.0-or-later
#include "TelemetryHistory.h"

void TelemetryHistory::append(double t, const std::vector<rdt::TelemetrySample>& samples)
{
    constexpr std::uint32_t kNoRate
        = rdt::SampleFirst | rdt::SampleCounterReset | rdt::SampleTelemetryError | rdt::SampleTelemetryUnavailable;
    std::map<QString, Point> sums;
    for (const auto& s : samples) {
        if (s.flags & kNoRate) continue;
        if (s.event != "core_energy" && s.event != "activity") continue;
        Point& p = sums[QString::fromStdString(s.group)];
        p.t = t;
        (s.event == "core_energy" ? p.watts : p.faradsPerSecond) += s.perSecond;
    }
    for (auto& [group, point] : sums) {
        auto& series = m_groups[group];
        if (!series.empty() && point.t < series.back().t) continue; // keys stay sorted; a seek clears instead
        series.push_back(point);
        while (!series.empty() && series.front().t < point.t - m_history)
            series.pop_front();
    }
}

QStringList TelemetryHistory::groups() const
{
    QStringList out;
    for (const auto& [group, series] : m_groups)
        out << group;
    return out;
}

const std::deque<TelemetryHistory::Point>* TelemetryHistory::points(const QString& group) const
{
    auto it = m_groups.find(group);
    return it == m_groups.end() ? nullptr : &it->second;
}
