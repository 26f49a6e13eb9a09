// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleCodec.h"

#include <algorithm>
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

std::uint64_t derivedBps(std::int64_t delta, std::uint64_t elapsedNs)
{
    if (delta <= 0 || elapsedNs == 0) return 0;
    __extension__ using U128 = unsigned __int128;
    const U128 q = (static_cast<U128>(static_cast<std::uint64_t>(delta)) * 1'000'000'000u + elapsedNs / 2) / elapsedNs;
    return q > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(q);
}

void SampleEncoder::encode(const RdtSampleBatch& batch, std::uint64_t droppedBatches, pb::RdtSampleBatch& out)
{
    out.Clear();
    out.set_time_ns(batch.timeNs);
    out.set_dropped_batches(droppedBatches);
    // Rates travel only when the receiver could not derive every one of them exactly from the deltas (the first
    // batch of a series, a coalesced gap, a counter reset, the sampler's own rounding).
    bool derivable = true;
    // With SNC node rows (the backend reads per node) only they travel, with a node column: the receiver sums
    // them into the L3 rows as the sampler did (splitSncNodes).
    const bool nodes = !batch.nodeSamples.empty();
    for (const auto& s : nodes ? batch.nodeSamples : batch.samples) {
        auto [it, inserted] = m_groups.try_emplace(s.group, static_cast<std::uint32_t>(m_groups.size()));
        if (inserted) out.add_new_groups(s.group);
        const std::uint32_t g = it->second;
        auto& last = m_last[{ g, s.domain, s.node }];
        const auto dTotal = difference(s.mbmTotalBytes, last.total);
        const auto dLocal = difference(s.mbmLocalBytes, last.local);
        const auto total = roundedBps(s.mbmTotalBps);
        const auto local = roundedBps(s.mbmLocalBps);
        if (derivable) {
            const auto elapsed = last.timeNs != 0 && batch.timeNs > last.timeNs ? batch.timeNs - last.timeNs : 0;
            derivable = elapsed > 0 && derivedBps(dTotal, elapsed) == total && derivedBps(dLocal, elapsed) == local;
        }
        out.add_group(g);
        out.add_domain(s.domain);
        out.add_occupancy_bytes(s.occupancyBytes);
        out.add_mbm_total_delta(dTotal);
        out.add_mbm_local_delta(dLocal);
        out.add_flags(s.flags);
        if (nodes) out.add_node(s.node);
        out.add_mbm_total_bps(total);
        out.add_mbm_local_bps(local);
        last = { s.mbmTotalBytes, s.mbmLocalBytes, batch.timeNs };
    }
    if (derivable && !batch.samples.empty()) {
        out.clear_mbm_total_bps();
        out.clear_mbm_local_bps();
        out.set_rates_derived(true);
    }
    for (const auto& t : batch.telemetry) {
        auto [it, inserted] = m_groups.try_emplace(t.group, static_cast<std::uint32_t>(m_groups.size()));
        if (inserted) out.add_new_groups(t.group);
        auto* row = out.add_telemetry();
        row->set_group(it->second);
        row->set_package(t.package);
        row->set_event(t.event);
        row->set_value(t.value);
        row->set_per_second(t.perSecond);
        row->set_flags(t.flags);
    }
    for (const auto& u : batch.unread) {
        auto* row = out.add_unread();
        row->set_group(u.group);
        row->set_error(u.error.substr(0, kMaxUnreadErrorBytes)); // the receiver refuses longer
    }
}

Result<DecodedSamples> SampleDecoder::decode(const pb::RdtSampleBatch& in)
{
    const int n = in.group_size();
    const int rates = in.rates_derived() ? 0 : n;
    if (in.domain_size() != n || in.occupancy_bytes_size() != n || in.mbm_total_delta_size() != n
        || in.mbm_local_delta_size() != n || in.flags_size() != n || in.mbm_total_bps_size() != rates
        || in.mbm_local_bps_size() != rates || (in.node_size() != 0 && in.node_size() != n))
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
        const int node = in.node_size() ? in.node(i) : -1;
        if (node < -1) return makeError("protocol error: SNC node " + std::to_string(node));
        const std::tuple<std::uint32_t, int, int> key { g, in.domain(i), node };
        if (m_last.size() >= kMaxSeries && !m_last.contains(key))
            return makeError("protocol error: more than " + std::to_string(kMaxSeries) + " sample series");
        auto& last = m_last[key];
        RdtSample s;
        s.timeNs = in.time_ns();
        s.group = m_groups[g];
        s.domain = in.domain(i);
        s.occupancyBytes = in.occupancy_bytes(i);
        s.mbmTotalBytes = last.total + static_cast<std::uint64_t>(in.mbm_total_delta(i));
        s.mbmLocalBytes = last.local + static_cast<std::uint64_t>(in.mbm_local_delta(i));
        s.flags = in.flags(i);
        s.node = node;
        if (in.rates_derived()) {
            // A series seen for the first time, or time going backwards, cannot have a derived rate: the sender
            // never does that, so the batch is inconsistent with this side's state.
            if (last.timeNs == 0 || in.time_ns() <= last.timeNs)
                return makeError("protocol error: derived rates for a series without an earlier sample");
            const auto elapsed = in.time_ns() - last.timeNs;
            s.mbmTotalBps = static_cast<double>(derivedBps(in.mbm_total_delta(i), elapsed));
            s.mbmLocalBps = static_cast<double>(derivedBps(in.mbm_local_delta(i), elapsed));
        } else {
            s.mbmTotalBps = static_cast<double>(in.mbm_total_bps(i));
            s.mbmLocalBps = static_cast<double>(in.mbm_local_bps(i));
        }
        last = { s.mbmTotalBytes, s.mbmLocalBytes, in.time_ns() };
        out.batch.samples.push_back(std::move(s));
    }
    splitSncNodes(out.batch);
    if (static_cast<std::size_t>(in.telemetry_size()) > kMaxTelemetryRows)
        return makeError("protocol error: more than " + std::to_string(kMaxTelemetryRows) + " telemetry rows");
    out.batch.telemetry.reserve(static_cast<std::size_t>(in.telemetry_size()));
    for (const auto& row : in.telemetry()) {
        if (row.group() >= m_groups.size())
            return makeError("protocol error: telemetry refers to group #" + std::to_string(row.group()) + " of "
                + std::to_string(m_groups.size()));
        if (row.event().empty() || row.event().size() > kMaxTelemetryEventBytes)
            return makeError(
                "protocol error: a telemetry event name of " + std::to_string(row.event().size()) + " bytes");
        if (!std::isfinite(row.value()) || !std::isfinite(row.per_second()))
            return makeError("protocol error: a telemetry value that is not a finite number");
        TelemetrySample t;
        t.timeNs = in.time_ns();
        t.group = m_groups[row.group()];
        t.package = row.package();
        t.event = row.event();
        t.value = row.value();
        t.perSecond = row.per_second();
        t.flags = row.flags();
        out.batch.telemetry.push_back(std::move(t));
    }
    if (static_cast<std::size_t>(in.unread_size()) > kMaxGroupTable)
        return makeError("protocol error: more than " + std::to_string(kMaxGroupTable) + " unread groups");
    for (const auto& u : in.unread()) {
        if (u.group().size() > kMaxGroupNameBytes || u.error().size() > kMaxUnreadErrorBytes)
            return makeError("protocol error: an unread group's name or error is too long");
        out.batch.unread.push_back({ u.group(), u.error() });
    }
    return out;
}

} // namespace rdt::protocol
