// SPDX-License-Identifier: GPL-3.0-or-later
#include "SummaryAggregator.h"

namespace rdt::session {

namespace {
constexpr std::uint64_t kNsPerS = 1000000000;
}

void SeriesSketch::add(const RdtSample& s)
{
    // The same rule as the comparison's raw path (compare/SessionProfile.cpp readSamples).
    constexpr std::uint32_t occBad = SampleOccupancyError | SampleOccupancyUnavailable;
    constexpr std::uint32_t mbmBad = SampleMbmError | SampleMbmUnavailable | SampleMbmUnassigned | SampleCounterReset;
    ++rows;
    if (s.flags & (occBad | mbmBad)) ++flagged;
    if (!(s.flags & occBad)) occupancy.add(static_cast<double>(s.occupancyBytes));
    if (!(s.flags & (mbmBad | SampleFirst))) {
        total.add(s.mbmTotalBps);
        local.add(s.mbmLocalBps);
    }
}

void SummaryAggregator::close(Open& o, std::size_t level)
{
    if (o.stats[level].occupancy.n == 0) return;
    m_done.emplace_back(BucketKey { kResolutions[level], o.bucket[level], o.groupId, o.domain }, o.stats[level]);
    o.stats[level] = BucketStats {};
    if (level == kSketchLevel) {
        m_doneSketches.emplace_back(SketchKey { o.bucket[level], o.groupId, o.domain }, std::move(o.sketch));
        o.sketch = SeriesSketch {};
    }
}

void SummaryAggregator::add(const RdtSample& s, std::int64_t groupId)
{
    const auto key = (static_cast<std::uint64_t>(groupId) << 16) ^ static_cast<std::uint64_t>(s.domain & 0xffff);
    Open& o = m_open[key];
    o.groupId = groupId;
    o.domain = s.domain;
    for (std::size_t level = 0; level < kResolutions.size(); ++level) {
        const std::uint64_t bucket = s.timeNs / (static_cast<std::uint64_t>(kResolutions[level]) * kNsPerS);
        if (o.any && bucket != o.bucket[level]) close(o, level);
        o.bucket[level] = bucket;
        auto& b = o.stats[level];
        b.occupancy.add(static_cast<double>(s.occupancyBytes));
        b.total.add(s.mbmTotalBps);
        b.local.add(s.mbmLocalBps);
    }
    o.sketch.add(s);
    o.any = true;
}

std::vector<Bucket> SummaryAggregator::takeComplete(std::uint64_t timeNs)
{
    // Series that stopped (a removed group) still close their buckets once time has moved past them.
    for (auto& [key, o] : m_open) {
        for (std::size_t level = 0; level < kResolutions.size(); ++level) {
            const std::uint64_t endNs
                = (o.bucket[level] + 1) * static_cast<std::uint64_t>(kResolutions[level]) * kNsPerS;
            if (endNs <= timeNs) close(o, level);
        }
    }
    std::vector<Bucket> out;
    out.swap(m_done);
    return out;
}

std::vector<Sketch> SummaryAggregator::takeSketches()
{
    std::vector<Sketch> out;
    out.swap(m_doneSketches);
    return out;
}

std::vector<Bucket> SummaryAggregator::takeAll()
{
    for (auto& [key, o] : m_open)
        for (std::size_t level = 0; level < kResolutions.size(); ++level)
            close(o, level);
    m_open.clear();
    std::vector<Bucket> out;
    out.swap(m_done);
    return out;
}

} // namespace rdt::session
