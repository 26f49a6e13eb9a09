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

BandwidthSchema bandwidthSchemaOf(const rdt::ResourceCaps& r, unsigned sncNodes)
{
    BandwidthSchema b;
    b.name = r.name;
    if (r.bandwidthUnit == rdt::BandwidthUnit::EighthGBps) {
        // AMD MBA/SMBA: absolute bandwidth in 1/8 GB/s steps, the maximum meaning unlimited (resctrl.rst
        // "on AMD systems"); the kernel takes any step in range, so nothing rounds.
        b.unit = "GB/s";
        b.minValue = r.minBandwidth;
        b.maxValue = r.maxBandwidth;
        b.granularity = 1;
    } else if (r.bandwidthUnit == rdt::BandwidthUnit::ThrottleLevel) {
        // CBA through the MSRs (SDM 20.19.8): a throttle level per CLOS, 0 unthrottled, every level up to the
        // enumerated maximum a step, a higher one throttling more. It was shown as "0 %..100 %".
        b.unit = "level";
        b.minValue = r.minBandwidth;
        b.maxValue = r.maxBandwidth;
        b.granularity = 1;
        b.higherThrottles = true;
    } else if (r.mbpsMode) {
        // mba_MBps: any u32 MiBps, no rounding (docs/RESCTRL.md "Group files").
        b.unit = "MiBps";
        b.minValue = 0;
        b.maxValue = 4294967295u;
        b.granularity = 1;
    } else {
        b.unit = "%";
        b.minValue = r.minBandwidth;
        b.maxValue = 100;
        b.granularity = r.bandwidthGran ? r.bandwidthGran : 1;
        b.scale = r.delayLinear ? BandwidthSchema::Scale::Linear : BandwidthSchema::Scale::PowerOfTwo;
        b.rounding = BandwidthSchema::Rounding::Up; // kernel bw_validate: roundup to bandwidth_gran
    }
    b.sncNodes = sncNodes;
    return b;
}

rdt::Result<AllocationState> readAllocationState(rdt::engine::Engine& engine, const AllocationStateOptions& options)
{
    auto machine = engine.machine();
    if (!machine) return machine.error();
    const auto* caps = &machine->capabilities;
    const auto snapshot = engine.snapshot();
    if (!snapshot.result.ok) return snapshot.result.error();
    AllocationState st;
    st.simulated = options.simulated;
    st.writable = options.writable;
    st.readOnlyReason = options.readOnlyReason;
    for (const auto& r : caps->resources) {
        if (r.isCache()) {
            CacheSchema c;
            c.name = r.name;
            c.cbmLength = static_cast<int>(r.cbmBits);
            c.shareableBits = r.shareableBits;
            c.minCbmBits = static_cast<int>(r.minCbmBits);
            c.sparseMasks = r.sparseMasks;
            if (c.cacheName() == "L3") c.sncNodes = caps->monitoring.sncNodesPerL3();
            // With SNC resctrl's size files give one node's share ("the values reported in the resctrl size files
            // are adjusted accordingly", resctrl.rst "Notes on Sub-NUMA Cluster mode"); the schema holds the whole
            // cache instance, as the domain's occupancy (the sum over its nodes) is measured against it.
            c.cacheBytes = r.bytesPerBit * r.cbmBits * c.sncNodes;
            const auto w = options.ways.find(c.cacheName());
            c.ways = w == options.ways.end() ? 0 : w->second;
            if (c.ways > 0) c.waysLeaf = options.waysLeaf;
            if (r.ioAllocEnabled()) {
                for (const auto& v : r.ioAllocCbm)
                    c.ioAllocMasks[v.domain] = v.value;
                c.ioAllocClosid = r.numClosids > 0 ? static_cast<int>(r.numClosids) - 1 : -1;
            }
            st.caches.push_back(c);
        } else {
            st.bandwidths.push_back(bandwidthSchemaOf(r, caps->monitoring.sncNodesPerL3()));
        }
        for (int d : r.domains) {
            if (std::find(st.domains.begin(), st.domains.end(), d) == st.domains.end()) st.domains.push_back(d);
        }
    }
    std::sort(st.domains.begin(), st.domains.end());
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

std::string cacheParametersLeaf(const rdt::CpuFeatures& features)
{
    return features.identity.isAmd() ? "CPUID.8000001DH" : "CPUID.04H";
}

std::map<std::string, int> cacheWays(const rdt::CpuFeatures& features)
{
    std::map<std::string, int> out;
    for (unsigned level : { 2u, 3u }) {
        if (const rdt::CacheInfo* c = features.cache(level); c && c->ways > 0)
            out["L" + std::to_string(level)] = static_cast<int>(c->ways);
    }
    return out;
}

std::map<std::string, int> cacheWaysFor(const rdt::CpuFeatures& features, const rdt::Capabilities& caps)
{
    auto ways = cacheWays(features);
    for (const auto& r : caps.resources) {
        if (!r.isCache() || r.bytesPerBit == 0 || r.cbmBits == 0) continue;
        const std::string level = r.name.substr(0, 2); // L3CODE/L3DATA are the L3
        const rdt::CacheInfo* c = features.cache(level == "L2" ? 2 : 3);
        if (!c || c->sizeBytes() == 0) continue;
        if (!rdt::resctrlSizeIsThisCache(r.bytesPerBit * r.cbmBits, c->sizeBytes())) ways.erase(level);
    }
    return ways;
}

std::map<std::string, int> cacheWays(rdt::CpuidSource& cpuid)
{
    return cacheWays(rdt::decodeCpuFeatures(cpuid));
}

std::map<std::string, std::uint64_t> cacheBytes(const rdt::CpuFeatures& features)
{
    std::map<std::string, std::uint64_t> out;
    for (unsigned level : { 2u, 3u })
        if (const rdt::CacheInfo* c = features.cache(level); c && c->sizeBytes() > 0)
            out["L" + std::to_string(level)] = c->sizeBytes();
    return out;
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
