// SPDX-License-Identifier: GPL-3.0-or-later
#include "EngineAllocation.h"

#include "core/Text.h"

#include "platform/CpuidDump.h"
#include "rdt/CacheSize.h"
#include "rdt/Schemata.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

BandwidthSchema bandwidthSchemaOf(const rdt::api::BandwidthLayout& layout)
{
    using rdt::api::BandwidthUnit;
    BandwidthSchema b;
    b.name = layout.resource;
    b.unit = layout.unit == BandwidthUnit::EighthGBps ? "GB/s"
        : layout.unit == BandwidthUnit::ThrottleLevel ? "level"
        : layout.unit == BandwidthUnit::MiBps         ? "MiBps"
        : layout.unit == BandwidthUnit::Blocks        ? "blocks"
        : layout.unit == BandwidthUnit::Weight        ? "weight"
                                                      : "%";
    // A control that describes itself (info/<RES>/resource_schemata/<CTRL>/): its values are counted in its own
    // resolution ("256 /511" of unit "all"); the engine decided the bounds from the same files.
    if (layout.unit == BandwidthUnit::Described)
        b.unit = layout.description && layout.description->resolution && layout.description->unit == "all"
            ? "/" + std::to_string(*layout.description->resolution)
            : layout.description && !layout.description->unit.empty() ? layout.description->unit
                                                                      : "(unit unknown)";
    b.minValue = layout.minValue;
    b.maxValue = layout.maxValue;
    b.granularity = layout.granularity;
    b.scale = layout.linear ? BandwidthSchema::Scale::Linear : BandwidthSchema::Scale::PowerOfTwo;
    b.rounding = BandwidthSchema::Rounding::Up;
    b.higherThrottles = layout.higherThrottles;
    b.sncNodes = layout.sncNodes;
    b.role = layout.role;
    b.region = layout.region;
    b.budget = layout.budget;
    b.budgetSource = layout.budgetSource;
    if (layout.description) b.described = layout.description->summary();
    b.domains = layout.domains;
    b.mode = layout.mode;
    b.modes = layout.modes;
    return b;
}

AllocationState allocationStateOf(const rdt::api::AllocationLayout& layout)
{
    AllocationState st;
    for (const auto& l : layout.caches) {
        CacheSchema c;
        c.name = l.resource;
        c.cbmLength = static_cast<int>(l.cbmLength);
        c.shareableBits = l.shareableBits;
        c.minCbmBits = static_cast<int>(l.minCbmBits);
        c.sparseMasks = l.sparseMasks;
        c.sncNodes = l.sncNodes;
        c.cacheBytes = l.cacheBytes;
        c.ways = static_cast<int>(l.ways);
        c.waysLeaf = l.waysLeaf;
        c.ioAllocMasks = l.ioAllocMasks;
        c.ioAllocClosid = l.ioAllocClosid;
        st.caches.push_back(c);
    }
    for (const auto& b : layout.bandwidths)
        st.bandwidths.push_back(bandwidthSchemaOf(b));
    st.domains = layout.domains;
    st.bandwidthAbsent = layout.bandwidthAbsent;
    return st;
}

rdt::Result<AllocationState> readAllocationState(rdt::engine::Engine& engine, const AllocationStateOptions& options)
{
    auto layout = engine.allocationLayout();
    if (!layout) return layout.error();
    const auto snapshot = engine.snapshot();
    if (!snapshot.result.ok) return snapshot.result.error();
    AllocationState st = allocationStateOf(*layout);
    st.simulated = options.simulated;
    st.writable = options.writable;
    st.readOnlyReason = options.readOnlyReason;
    for (const auto& state : snapshot.groups) {
        const auto& g = state.info;
        if (!g.isControl) continue;
        if (!state.schemataError.empty())
            return rdt::makeError("cannot read the schemata of "
                + (g.path.empty() ? std::string("the default group") : g.path) + ": " + state.schemataError);
        GroupAllocation a;
        a.group = g.path;
        a.closid = g.closid;
        a.exclusive = g.mode == "exclusive";
        for (const auto& line : state.schemata.lines()) {
            const bool cache = rdt::isCacheResource(line.resource);
            for (const auto& [d, v] : line.values) {
                if (cache) {
                    if (auto m = rdt::parseMask(v)) a.cbm[line.resource][d] = *m;
                } else if (auto b = rdt::parseBandwidth(v)) {
                    a.bandwidth[line.resource][d] = static_cast<unsigned>(*b);
                }
            }
        }
        // The default group first, then the others in listing order (CLOSID order is not visible in resctrl).
        if (a.group.empty())
            st.groups.insert(st.groups.begin(), std::move(a));
        else
            st.groups.push_back(std::move(a));
    }
    return st;
}

std::map<std::string, std::map<int, std::uint64_t>> occupancyFromBatch(const rdt::RdtSampleBatch& batch)
{
    std::map<std::string, std::map<int, std::uint64_t>> out;
    for (const auto& s : batch.samples) {
        if (s.group.find("mon_groups") != std::string::npos) continue;
        if (s.flags & (rdt::SampleOccupancyError | rdt::SampleOccupancyUnavailable)) continue;
        out[s.group][s.domain] = s.occupancyBytes;
    }
    return out;
}

EngineAllocationWriter::EngineAllocationWriter(rdt::engine::Engine& engine)
    : m_engine(engine)
{ }

std::string EngineAllocationWriter::reasonOf(const rdt::Error& error)
{
    static const std::string kernelSays = "kernel says: ";
    const std::string& m = error.message;
    const auto k = m.rfind(kernelSays);
    if (k != std::string::npos) return m.substr(k + kernelSays.size());
    // Engine validation prefixes "L3:0: " (resource:domain) to the kernel-style text.
    const auto colon = m.find(": ");
    if (colon != std::string::npos && m.find(':') < colon && colon < 16) return m.substr(colon + 2);
    return m;
}

rdt::Result<std::uint64_t> EngineAllocationWriter::write(
    const std::string& group, const std::string& schema, int domain, const std::string& value, bool cache)
{
    rdt::Schemata change;
    change.set(schema, domain, value);
    const auto out = m_engine.applyAllocation(group, change);
    if (!out.result.ok) {
        rdt::Error e = out.result.error();
        e.message = reasonOf(e);
        return e;
    }
    // What the transaction wrote and read back (normalised: a rounded MB value, a mask as the kernel prints it).
    auto v = out.applied.value(schema, domain);
    if (!v) {
        const auto snapshot = m_engine.snapshot();
        for (const auto& g : snapshot.groups)
            if (g.info.path == group) v = g.schemata.value(schema, domain);
    }
    if (!v)
        return rdt::errnoError(
            EIO, "no " + schema + ":" + std::to_string(domain) + " in " + group + "/schemata after the write");
    if (cache) {
        auto m = rdt::parseMask(*v);
        if (!m) return m.error();
        return *m;
    }
    auto b = rdt::parseBandwidth(*v);
    if (!b) return b.error();
    return *b;
}

rdt::Result<std::uint64_t> EngineAllocationWriter::writeCbm(
    const std::string& group, const std::string& schema, int domain, std::uint64_t mask)
{
    return write(group, schema, domain, rdt::hexDigits(mask), true);
}

rdt::Result<unsigned> EngineAllocationWriter::writeBandwidth(
    const std::string& group, const std::string& schema, int domain, unsigned value)
{
    auto r = write(group, schema, domain, std::to_string(value), false);
    if (!r) return r.error();
    return static_cast<unsigned>(*r);
}

rdt::Result<std::vector<unsigned>> EngineAllocationWriter::writeBandwidths(
    const std::string& group, int domain, const std::vector<std::pair<std::string, unsigned>>& values)
{
    // One engine transaction: the validator sees the whole change (checkRegionTriples over the merged triple), and
    // a refusal or a failed write leaves every value as it was.
    rdt::Schemata change;
    for (const auto& [schema, value] : values)
        change.set(schema, domain, std::to_string(value));
    const auto out = m_engine.applyAllocation(group, change);
    if (!out.result.ok) {
        rdt::Error e = out.result.error();
        e.message = reasonOf(e);
        return e;
    }
    std::vector<unsigned> held;
    for (const auto& [schema, value] : values) {
        auto v = out.applied.value(schema, domain);
        auto b = v ? rdt::parseBandwidth(*v)
                   : rdt::Result<std::uint64_t>(rdt::errnoError(EIO,
                       "no " + schema + ":" + std::to_string(domain) + " in " + group + "/schemata after the write"));
        if (!b) return b.error();
        held.push_back(static_cast<unsigned>(*b));
    }
    return held;
}
