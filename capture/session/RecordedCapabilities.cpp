// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordedCapabilities.h"

#include "platform/CpuidDump.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/Schemata.h"

#include <algorithm>
#include <bit>

namespace rdt::session {
namespace {

/// CBM lengths per cache resource from the recorded CPUID (CPUID.10H.1/10H.2:EAX[4:0], SDM 20.19.4.2).
unsigned cpuidCbmLength(const CpuFeatures& f, const std::string& resource)
{
    const auto* cat = resource.rfind("L2", 0) == 0 ? &f.allocation.l2 : &f.allocation.l3;
    return cat->detailsKnown ? cat->cbmLength : 0;
}

ResourceCaps recordedCache(
    const std::string& name, const CpuFeatures* cpu, const RecordedResource* recorded, const RecordedValues& seen)
{
    ResourceCaps r = recorded ? recorded->caps : ResourceCaps {};
    r.name = name;
    r.kind = ResourceKind::Cache;
    const std::uint64_t resctrlBytes = recorded ? recorded->caps.bytesPerBit * recorded->caps.cbmBits : 0;
    r.cbmBits = std::max({ r.cbmBits, seen.widestMaskBits, cpu ? cpuidCbmLength(*cpu, name) : 0u });
    r.cbmMask = r.cbmBits >= 64 ? ~0ull : (1ull << r.cbmBits) - 1;
    r.bytesPerBit = r.cbmBits > 0 ? resctrlBytes / r.cbmBits : 0;
    return r;
}

ResourceCaps recordedBandwidth(
    const std::string& name, const CpuFeatures* cpu, const RecordedResource* recorded, unsigned largestValue)
{
    if (recorded && recorded->unitRecorded) return recorded->caps;
    ResourceCaps r;
    r.name = name;
    r.kind = ResourceKind::Bandwidth;
    if (name == "CBA") { // the MSR backend's throttle levels (SDM 20.19.8), never a resctrl resource
        r.bandwidthUnit = BandwidthUnit::ThrottleLevel;
        r.minBandwidth = 0;
        r.bandwidthGran = 1;
        r.maxBandwidth
            = std::max(largestValue, cpu && cpu->allocation.cba.detailsKnown ? cpu->allocation.cba.maxLevel : 0u);
        return r;
    }
    const bool amd = recorded ? recorded->caps.minBandwidth == 0 : cpu && cpu->identity.isAmd();
    if (largestValue > 100 && !amd) {
        r.bandwidthUnit = BandwidthUnit::MiBps;
        r.mbpsMode = true;
    } else if (amd) {
        const unsigned length = !cpu ? 0
            : name == "SMBA"         ? cpu->amdQos.smbaBandwidthLength
                                     : cpu->amdQos.mbaBandwidthLength;
        r.bandwidthUnit = BandwidthUnit::EighthGBps;
        r.minBandwidth = 0;
        r.maxBandwidth = length > 0 && length < 32 ? 1u << length : std::max(2048u, largestValue);
    } else if (recorded) {
        r.minBandwidth = recorded->caps.minBandwidth;
        r.bandwidthGran = recorded->caps.bandwidthGran;
    } else if (cpu && cpu->allocation.mba.detailsKnown && cpu->allocation.mba.maxThrottle > 0) {
        r.setIntelMbaBounds(cpu->allocation.mba.maxThrottle, cpu->allocation.mba.linear);
    } else {
        r.minBandwidth = 10;
        r.bandwidthGran = 10;
    }
    return r;
}

} // namespace

std::map<std::string, RecordedValues> recordedValuesOf(const AllocationState& allocations)
{
    std::map<std::string, RecordedValues> seen;
    for (const auto& [key, value] : allocations) {
        const auto& [group, resource, domain] = key;
        auto& values = seen[resource];
        if (std::find(values.domains.begin(), values.domains.end(), domain) == values.domains.end())
            values.domains.push_back(domain);
        if (isCacheResource(resource)) {
            const auto mask = parseMask(value); // damaged text: no bits
            if (mask)
                values.widestMaskBits = std::max(values.widestMaskBits, static_cast<unsigned>(std::bit_width(*mask)));
        } else if (const auto v = parseBandwidth(value)) {
            values.largestValue = std::max(values.largestValue, static_cast<unsigned>(*v));
        }
    }
    for (auto& [name, values] : seen)
        std::sort(values.domains.begin(), values.domains.end());
    return seen;
}

std::optional<CpuFeatures> recordedCpu(const MachineInfo& machine)
{
    if (machine.cpuidJson.empty()) return std::nullopt;
    auto table = cpuidTableFromJson(machine.cpuidJson);
    if (!table) return std::nullopt;
    return decodeCpuFeatures(*table);
}

Capabilities recordedCapabilities(
    const MachineInfo& machine, const CpuFeatures* cpu, const std::map<std::string, RecordedValues>& seen)
{
    std::map<std::string, RecordedResource> recorded;
    for (auto& r : parseCapabilitiesText(machine.topology))
        recorded.emplace(r.caps.name, std::move(r));
    Capabilities caps;
    for (const auto& [name, values] : seen) {
        const auto it = recorded.find(name);
        const RecordedResource* r = it == recorded.end() ? nullptr : &it->second;
        const bool cache = name.rfind("L3", 0) == 0 || name.rfind("L2", 0) == 0;
        ResourceCaps rc
            = cache ? recordedCache(name, cpu, r, values) : recordedBandwidth(name, cpu, r, values.largestValue);
        rc.domains = values.domains;
        if (r && r->sncNodes > 1 && caps.monitoring.sncNodesPerL3() == 1) {
            // The recorded SNC node count, as the monitoring capabilities carry it (MonitorCaps::subDomains).
            std::vector<int> nodes;
            for (unsigned n = 0; n < r->sncNodes; ++n)
                nodes.push_back(static_cast<int>(n));
            for (int d : rc.domains)
                caps.monitoring.subDomains.emplace_back(d, nodes);
        }
        caps.resources.push_back(std::move(rc));
    }
    return caps;
}

} // namespace rdt::session
