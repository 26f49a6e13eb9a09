// SPDX-License-Identifier: GPL-3.0-or-later
#include "SummaryAggregator.h"

namespace rdt::session {

namespace {
constexpr std::uint64_t kNsPerS = 1000000000;
}

void SeriesSketch::add(const RdtSample& s)
{
    // The same rule as the comparison's raw path (compare/SessionProfile.cpp readSamples): Sample.h's.
    ++rows;
    if (s.flags & (kOccupancyUnknown | kMbmTotalUnread | kMbmLocalUnread | SampleCounterReset)) ++flagged;
    if (!(s.flags & kOccupancyUnknown)) occupancy.add(static_cast<double>(s.occupancyBytes));
    if (!(s.flags & kMbmTotalRateUnknown)) total.add(s.mbmTotalBps);
    if (!(s.flags & kMbmLocalRateUnknown)) local.add(s.mbmLocalBps);
}

namespace {
void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

bool getVarint(std::string_view in, std::size_t& at, std::uint64_t& v)
{
    v = 0;
    for (int shift = 0; shift < 64 && at < in.size(); shift += 7) {
        const auto b = static_cast<std::uint8_t>(in[at++]);
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}
} // namespace

std::string SeriesSketch::encode() const
{
    std::string out;
    putVarint(out, rows);
    putVarint(out, flagged);
    for (const PercentileSketch* s : { &occupancy, &total, &local }) {
        const std::string bytes = s->encode();
        putVarint(out, bytes.size());
        out += bytes;
    }
    return out;
}

Result<SeriesSketch> SeriesSketch::decode(std::string_view bytes)
{
    SeriesSketch out;
    std::size_t at = 0;
    if (!getVarint(bytes, at, out.rows) || !getVarint(bytes, at, out.flagged))
        return makeError("a stored minute sketch is malformed: its row counts are cut off");
    for (PercentileSketch* s : { &out.occupancy, &out.total, &out.local }) {
        std::uint64_t n = 0;
        if (!getVarint(bytes, at, n) || n > bytes.size() - at)
            return makeError("a stored minute sketch is malformed: a sketch is cut off");
        auto one = PercentileSketch::decode(bytes.substr(at, static_cast<std::size_t>(n)));
        if (!one) return one.error();
        *s = std::move(*one);
        at += static_cast<std::size_t>(n);
    }
    if (at != bytes.size()) return makeError("a stored minute sketch is malformed: bytes after its end");
    return out;
}

void SummaryAggregator::close(Open& o, std::size_t level)
{
    if (o.stats[level].rows == 0) return;
    if (level == kSketchLevel) {
        o.stats[level].sketch = o.sketch.encode();
        o.sketch = SeriesSketch {};
    }
    m_done.emplace_back(
        BucketKey { kResolutions[level], o.bucket[level], o.groupId, o.domain }, std::move(o.stats[level]));
    o.stats[level] = BucketStats {};
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
        // Unknown readings are left out (Sample.h), never averaged in as 0.
        ++b.rows;
        if (!(s.flags & kOccupancyUnknown)) b.occupancy.add(static_cast<double>(s.occupancyBytes));
        if (!(s.flags & kMbmTotalRateUnknown)) b.total.add(s.mbmTotalBps);
        if (!(s.flags & kMbmLocalRateUnknown)) b.local.add(s.mbmLocalBps);
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
