// SPDX-License-Identifier: GPL-3.0-or-later
#include "Windows.h"

#include <algorithm>
#include <cmath>

namespace rdt::blame {

std::optional<SpanReading> spanOf(
    const std::vector<Poll>& polls, const GroupDomain& key, std::size_t begin, std::size_t end)
{
    end = std::min(end, polls.size());
    if (begin + 1 >= end) return std::nullopt;
    std::vector<double> occupancy;
    for (std::size_t i = begin; i < end; ++i) {
        const auto it = polls[i].readings.find(key);
        if (it == polls[i].readings.end() || !it->second.occupancyBytes) return std::nullopt;
        occupancy.push_back(*it->second.occupancyBytes);
    }
    const auto a = polls[begin].readings.find(key), b = polls[end - 1].readings.find(key);
    if (!a->second.mbmTotalBytes || !b->second.mbmTotalBytes) return std::nullopt;
    const double secs = static_cast<double>(polls[end - 1].offsetNs - polls[begin].offsetNs) / 1e9;
    if (secs <= 0) return std::nullopt;
    SpanReading r;
    const auto m = meanInterval(occupancy);
    r.occupancyBytes = m.mean;
    r.occupancyStdError = m.twoStdErrors / 2;
    const auto total = *b->second.mbmTotalBytes, first = *a->second.mbmTotalBytes;
    r.fillBps = static_cast<double>(total - std::min(total, first)) / secs;
    r.polls = static_cast<unsigned>(occupancy.size());
    return r;
}

std::optional<PmuSpan> pmuSpanOf(const std::vector<Poll>& polls, std::size_t begin, std::size_t end)
{
    end = std::min(end, polls.size());
    if (begin + 1 >= end) return std::nullopt;
    const auto& a = polls[begin].victimPmu;
    const auto& b = polls[end - 1].victimPmu;
    if (!a || !b) return std::nullopt;
    const double cycles = b->cycles - a->cycles, instructions = b->instructions - a->instructions;
    if (cycles <= 0 || instructions <= 0) return std::nullopt;
    const double misses = b->llcMisses - a->llcMisses;
    PmuSpan s;
    s.ipc = instructions / cycles;
    s.mpki = misses / instructions * 1000;
    if (a->memoryStallCycles && b->memoryStallCycles) {
        const double stalls = *b->memoryStallCycles - *a->memoryStallCycles;
        s.memoryBound = std::clamp(stalls / cycles, 0.0, 1.0);
        if (misses > 0) s.stallCyclesPerMiss = stalls / misses;
    }
    return s;
}

std::vector<WindowBounds> slidingWindows(std::size_t begin, std::size_t end, std::size_t span)
{
    std::vector<WindowBounds> out;
    span = std::max<std::size_t>(span, 2);
    const std::size_t stride = std::max<std::size_t>(span / 2, 1);
    for (std::size_t b = begin; b + span <= end; b += stride)
        out.push_back({ b, b + span });
    if (out.empty() && begin + 2 <= end) out.push_back({ begin, end }); // shorter than one window: the whole stretch
    return out;
}

MeanInterval meanInterval(const std::vector<double>& values)
{
    MeanInterval m;
    if (values.empty()) return m;
    double sum = 0;
    for (const double v : values)
        sum += v;
    m.mean = sum / static_cast<double>(values.size());
    if (values.size() < 2) return m;
    double ss = 0;
    for (const double v : values)
        ss += (v - m.mean) * (v - m.mean);
    const double n = static_cast<double>(values.size());
    m.twoStdErrors = 2 * std::sqrt(ss / (n - 1) / n);
    return m;
}

std::optional<double> correlation(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.size() < 3) return std::nullopt;
    const auto ma = meanInterval(a).mean, mb = meanInterval(b).mean;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    // A list whose spread is below 1 % of its mean holds still: its correlation would be the counters' noise.
    const double n = static_cast<double>(a.size());
    const auto still = [n](double ss, double mean) { return std::sqrt(ss / n) <= 0.01 * std::abs(mean) || ss <= 0; };
    if (still(saa, ma) || still(sbb, mb)) return std::nullopt;
    return sab / std::sqrt(saa * sbb);
}

} // namespace rdt::blame
