// SPDX-License-Identifier: GPL-3.0-or-later
#include "Figures.h"

namespace rdt::protect {

std::optional<double> violationShare(const ProtectResult& r, std::uint64_t windowNs)
{
    if (r.intervals.empty() || windowNs == 0) return std::nullopt;
    const std::uint64_t end = r.intervals.back().offsetNs;
    unsigned windows = 0, broken = 0;
    for (std::uint64_t w0 = 0; w0 < end; w0 += windowNs) {
        const std::uint64_t w1 = w0 + windowNs;
        if (w1 > end && (end - w0) * 2 < windowNs && windows > 0) break;
        double sum = 0;
        unsigned n = 0;
        for (const auto& i : r.intervals)
            if (i.offsetNs > w0 && i.offsetNs <= w1 && i.signal) {
                sum += *i.signal;
                ++n;
            }
        if (n == 0) continue;
        ++windows;
        if (!r.target.met(sum / n)) ++broken;
    }
    if (windows == 0) return std::nullopt;
    return static_cast<double>(broken) / windows;
}

std::optional<double> convergenceAfter(
    const ProtectResult& r, std::uint64_t stepNs, std::uint64_t untilNs, std::uint64_t holdNs)
{
    std::optional<std::uint64_t> stretchStart;
    std::uint64_t previousEnd = stepNs;
    for (const auto& i : r.intervals) {
        if (i.offsetNs <= stepNs) continue;
        if (i.offsetNs > untilNs) break;
        const bool ok = i.slack && *i.slack >= 0;
        if (!ok) {
            stretchStart.reset();
        } else {
            if (!stretchStart) stretchStart = previousEnd;
            if (i.offsetNs - *stretchStart >= holdNs || i.offsetNs + (i.offsetNs - previousEnd) > untilNs)
                return static_cast<double>(*stretchStart - stepNs) / 1e9;
        }
        previousEnd = i.offsetNs;
    }
    return std::nullopt;
}

PolicyFigures figuresOf(const ProtectResult& r)
{
    PolicyFigures f;
    f.policy = r.policy;
    f.violationShare1s = violationShare(r, 1'000'000'000);
    f.violationShare60s = violationShare(r, 60'000'000'000);
    double sum = 0;
    unsigned n = 0;
    for (const auto& i : r.intervals)
        if (i.beThroughput) {
            sum += *i.beThroughput;
            ++n;
        }
    if (n) f.beThroughput = sum / n;
    f.throughputUnit = r.throughputUnit;
    const std::uint64_t end = r.intervals.empty() ? 0 : r.intervals.back().offsetNs;
    for (std::size_t s = 0; s < r.loadStepsNs.size(); ++s) {
        const std::uint64_t until = s + 1 < r.loadStepsNs.size() ? r.loadStepsNs[s + 1] : end;
        f.convergenceS.push_back(convergenceAfter(r, r.loadStepsNs[s], until));
    }
    f.writes = r.writes;
    f.restored = r.restored;
    return f;
}

} // namespace rdt::protect
