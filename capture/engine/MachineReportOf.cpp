// SPDX-License-Identifier: GPL-3.0-or-later
#include "MachineReportOf.h"

#include "platform/CpuidDump.h"
#include "simpmu/SimPmuModel.h"

#include <optional>

namespace rdt::engine {

namespace {

std::string leafName(std::uint32_t leaf)
{
    return leaf == 0x8000001DU ? "CPUID.8000001DH" : "CPUID.04H";
}

} // namespace

api::MachineReport machineReportOf(const CpuFeatures* features, bool simulatedCpu, const CapabilityReport* described)
{
    api::MachineReport r;
    if (described) {
        for (const auto& l : described->lines)
            r.lines.push_back({ l.group, l.name, l.value, l.present, l.origin, l.sdmSection, l.whyNot });
        r.environmentProbed = described->environmentProbed;
        r.rdt.whyNot = described->rdtWhyNot;
        r.linesFrom = described->source;
    }
    if (!features) return r;
    const auto& f = *features;
    r.cpu.known = true;
    r.cpu.vendor = f.identity.vendor;
    r.cpu.brand = f.identity.brand;
    r.cpu.family = f.identity.family;
    r.cpu.model = f.identity.model;
    r.cpu.stepping = f.identity.stepping;
    r.cpu.hypervisor = f.identity.hypervisor;
    r.cpu.simulated = simulatedCpu;
    r.cpu.source = f.source;
    for (const auto& c : f.caches)
        r.caches.push_back({ c.level, c.type, c.sizeBytes(), c.ways, c.lineSize, c.sets, c.maxSharingThreads,
            leafName(c.leaf), c.subleaf });

    // SDM 20.18.5 (monitoring, CPUID.0FH) and 20.19.4 (allocation, CPUID.10H).
    const auto& mon = f.monitoring;
    r.rdt.monitoring = mon.supported;
    r.rdt.l3Occupancy = mon.l3DetailsKnown && mon.occupancy;
    r.rdt.mbmTotal = mon.l3DetailsKnown && mon.totalBandwidth;
    r.rdt.mbmLocal = mon.l3DetailsKnown && mon.localBandwidth;
    r.rdt.rmids = mon.rmidCount();
    r.rdt.mbmCounterWidth = mon.counterWidth;
    const auto& a = f.allocation;
    r.rdt.allocation = a.supported;
    r.rdt.l3CbmLength = a.l3.present && a.l3.detailsKnown ? a.l3.cbmLength : 0;
    r.rdt.l2CbmLength = a.l2.present && a.l2.detailsKnown ? a.l2.cbmLength : 0;
    r.rdt.l3Cdp = a.l3.cdp;
    r.rdt.l2Cdp = a.l2.cdp;
    r.rdt.l3Clos = a.l3.closCount();
    r.rdt.mba = a.mba.present;
    r.rdt.mbaMaxThrottle = a.mba.detailsKnown ? a.mba.maxThrottle : 0;
    r.rdt.mbaLinear = a.mba.linear;
    r.rdt.cba = a.cba.present;

    // SDM 20.2 (CPUID.0AH) and Table 22-3 (architectural events; bit 7 of EBX clear: topdown slots available).
    const auto& p = f.perfmon;
    r.pmu.version = p.version;
    r.pmu.gpCounters = p.gpCounters;
    r.pmu.gpWidth = p.gpWidth;
    r.pmu.fixedCounters = p.fixedCounters;
    r.pmu.topdownSlots = p.eventVectorLength > 7 && (p.eventsUnavailable & (1U << 7)) == 0;
    r.pmu.archLbr = f.archLbr.supported;
    r.pmu.lbrDepths = f.archLbr.depths();
    const auto model = pmu::simulatedPmuModel(f);
    r.pmu.simulatedPmuName = model.pfmName;
    r.pmu.simulatedPmuLabel = model.label;
    return r;
}

api::MachineReport machineReportOf(
    const MachineDescription& machine, const CapabilityReport* described, const std::string& location)
{
    std::optional<CpuFeatures> features;
    if (auto table = cpuidTableFromJson(machine.cpuidJson)) features = decodeCpuFeatures(*table);
    auto r = machineReportOf(features ? &*features : nullptr, machine.source.simulated, described);
    r.hostname = machine.hostname;
    r.kernel = machine.kernel;
    r.location = location;
    return r;
}

} // namespace rdt::engine
