// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleCodec.h"

#include <cmath>

namespace rdt::protocol {

namespace {
std::uint64_t roundedBps(double bps)
{
    if (!(bps > 0)) return 0;
    if (bps >= 1.8e19) return UINT64_MAX;
    return static_cast<std::uint64_t>(std::llround(bps));
}
std::int64_t difference(std::uint64_t now, std::uint64_t before)
{
    // Two's-complement difference: the decoder adds it back modulo 2^64, so any pair round-trips exactly.
    return static_cast<std::int64_t>(now - before);
}
}

void SampleEncoder::encode(const RdtSampleBatch& batch, std::uint64_t droppedBatches, pb::RdtSampleBatch& out)
{
    out.Clear();
    out.set_time_ns(batch.timeNs);
    out.set_dropped_batches(droppedBatches);
    for (const auto& s : batch.samples) {
        auto [it, inserted] = m_groups.try_emplace(s.group, static_cast<std::uint32_t>(m_groups.size()));
        if (inserted) out.add_new_groups(s.group);
        const std::uint32_t g = it->second;
        auto& last = m_last[{ g, s.domain }];
        out.add_group(g);
        out.add_domain(s.domain);
        out.add_occupancy_bytes(s.occupancyBytes);
        out.add_mbm_total_delta(difference(s.mbmTotalBytes, last.first));
        out.add_mbm_local_delta(difference(s.mbmLocalBytes, last.second));
        out.add_flags(s.flags);
        out.add_mbm_total_bps(roundedBps(s.mbmTotalBps));
        out.add_mbm_local_bps(roundedBps(s.mbmLocalBps));
        last = { s.mbmTotalBytes, s.mbmLocalBytes };
    }
}

Result<DecodedSamples> SampleDecoder::decode(const pb::RdtSampleBatch& in)
{
    const int n = in.group_size();
    if (in.domain_size() != n || in.occupancy_bytes_size() != n || in.mbm_total_delta_size() != n
        || in.mbm_local_delta_size() != n || in.flags_size() != n || in.mbm_total_bps_size() != n
        || in.mbm_local_bps_size() != n)
        return makeError("protocol error: a sample batch whose columns differ in length");
    if (m_groups.size() + static_cast<std::size_t>(in.new_groups_size()) > kMaxGroupTable)
        return makeError("protocol error: more than " + std::to_string(kMaxGroupTable) + " group names announced");
    for (const auto& g : in.new_groups()) {
        if (g.size() > kMaxGroupNameBytes) return makeError("protocol error: a group name longer than 4 KiB");
        m_groups.push_back(g);
    }
    DecodedSamples out;
    out.droppedBatches = in.dropped_batches();
    out.batch.timeNs = in.time_ns();
    out.batch.samples.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const std::uint32_t g = in.group(i);
        if (g >= m_groups.size())
            return makeError("protocol error: sample refers to group #" + std::to_string(g) + " of "
                + std::to_string(m_groups.size()));
        if (m_last.size() >= kMaxSeries && !m_last.contains({ g, in.domain(i) }))
            return makeError("protocol error: more than " + std::to_string(kMaxSeries) + " sample series");
        auto& last = m_last[{ g, in.domain(i) }];
        RdtSample s;
        s.timeNs = in.time_ns();
        s.group = m_groups[g];
        s.domain = in.domain(i);
        s.occupancyBytes = in.occupancy_bytes(i);
        s.mbmTotalBytes = last.first + static_cast<std::uint64_t>(in.mbm_total_delta(i));
        s.mbmLocalBytes = last.second + static_cast<std::uint64_t>(in.mbm_local_delta(i));
        s.flags = in.flags(i);
        s.mbmTotalBps = static_cast<double>(in.mbm_total_bps(i));
        s.mbmLocalBps = static_cast<double>(in.mbm_local_bps(i));
        last = { s.mbmTotalBytes, s.mbmLocalBytes };
        out.batch.samples.push_back(std::move(s));
    }
    return out;
}

} // namespace rdt::protocol
