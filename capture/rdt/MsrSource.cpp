// SPDX-License-Identifier: GPL-3.0-or-later
// The real MSR source: MsrBackend over /dev/cpu/N/msr (capture/platform DevMsr), enumerated from the live CPUID
// and the sysfs topology.
#include "MsrSource.h"

#include "MsrBackend.h"
#include "MsrStateFile.h"

#include <algorithm>

#include <cerrno>

#ifdef RDTSCOPE_HAVE_PLATFORM
#include "platform/CpuFeatures.h"
#include "platform/DevMsr.h"
#include "platform/LiveCpuid.h"
#include "platform/Topology.h"
#endif

namespace rdt {

#ifdef RDTSCOPE_HAVE_PLATFORM
Result<RdtSource> openMsrSource(const RdtSourceOptions& options)
{
    std::string mountPoint;
    resctrlMounted(options.mountsFile, &mountPoint);
    if (!LiveCpuid::instructionAvailable())
        return errnoError(ENODEV, "the CPUID instruction is not available here", "use --source sim-msr");
    auto cpuid = LiveCpuid::onCpu(0);
    if (!cpuid) return cpuid.error();
    const auto f = decodeCpuFeatures(*cpuid);
    if (!f.identity.isIntel())
        return errnoError(ENODEV, "this CPU is " + f.identity.vendor + ", not GenuineIntel: no Intel RDT MSRs",
            "use --source sim-msr to explore the MSR protocol on the simulated Xeon");
    auto topo = readTopology("/sys");
    if (!topo) return topo.error();
    MsrRdtEnumeration e;
    e.maxRmid = f.monitoring.l3DetailsKnown ? f.monitoring.highestRmid : 0;
    e.upscalingFactor = f.monitoring.upscalingFactor ? f.monitoring.upscalingFactor : 1;
    e.mbmWidth = f.monitoring.counterWidth ? f.monitoring.counterWidth : 24;
    e.overflowBit = f.monitoring.overflowBit;
    e.llcOccupancy = f.monitoring.occupancy;
    e.mbmTotal = f.monitoring.totalBandwidth;
    e.mbmLocal = f.monitoring.localBandwidth;
    const auto& a = f.allocation;
    e.l3Cat = a.l3.detailsKnown;
    e.l3CbmLength = a.l3.cbmLength;
    e.l3Shareable = a.l3.shareableBits;
    e.l3Cdp = a.l3.cdp;
    e.l3Sparse = a.l3.nonContiguous;
    e.l3MaxClos = a.l3.highestClos;
    e.l3BytesPerBit = a.l3.bytesPerCbmBit;
    e.l2Cat = a.l2.detailsKnown;
    e.l2CbmLength = a.l2.cbmLength;
    e.l2Shareable = a.l2.shareableBits;
    e.l2Cdp = a.l2.cdp;
    e.l2Sparse = a.l2.nonContiguous;
    e.l2MaxClos = a.l2.highestClos;
    e.mba = a.mba.detailsKnown;
    e.mbaMaxDelay = a.mba.maxThrottle;
    e.mbaLinear = a.mba.linear;
    e.mbaMaxClos = a.mba.highestClos;
    e.cba = a.cba.detailsKnown;
    e.cbaMaxLevel = a.cba.maxLevel;
    e.cbaMaxClos = a.cba.highestClos;
    // Indexed by the real CPU number (sysfs), not by the count of online CPUs: with CPUs 4-7 offline, CPU 8 is
    // still /dev/cpu/8/msr. Offline CPUs keep domain -1 and are never addressed.
    unsigned cpuSlots = 0;
    for (const auto& c : topo->cpus)
        cpuSlots = std::max(cpuSlots, c.cpu + 1);
    e.l3IdOfCpu.assign(cpuSlots, -1);
    e.l2IdOfCpu.assign(cpuSlots, -1);
    for (const auto& c : topo->cpus) {
        e.l3IdOfCpu[c.cpu] = 0; // a CPU the cache lists below gets its id; a CPU no L3 lists is domain 0
        e.l2IdOfCpu[c.cpu] = 0;
    }
    for (const auto& d : topo->l3)
        for (unsigned c : d.cpus)
            if (c < e.l3IdOfCpu.size()) e.l3IdOfCpu[c] = static_cast<int>(d.id);
    for (const auto& d : topo->l2)
        for (unsigned c : d.cpus)
            if (c < e.l2IdOfCpu.size()) e.l2IdOfCpu[c] = static_cast<int>(d.id);
    auto msrs = std::make_shared<DevMsr>("/dev/cpu", cpuSlots);
    if (auto probe = msrs->read(topo->cpus.front().cpu, msr::IA32_PQR_ASSOC); !probe) return probe.error();
    auto b = MsrBackend::open(msrs, e, mountPoint);
    if (!b) return b.error();
    // Groups of an earlier run keep their names and CLOS (docs/SAFE-WRITES.md, "MSR state between runs").
    if (auto attached = (*b)->attachStateFile(kDefaultMsrStateFile); !attached)
        return Error { attached.error().code, attached.error().message, attached.error().advice };
    RdtSource s;
    s.kind = "msr";
    s.writeTarget = "/dev/cpu/0/msr";
    s.why = "msr requested with --source msr (" + f.identity.brand + ")";
    s.warnings = (*b)->warnings();
    s.backend = std::move(*b);
    return s;
}
#else
Result<RdtSource> openMsrSource(const RdtSourceOptions&)
{
    return errnoError(ENOSYS, "source 'msr' is not available in this build",
        "the MSR device layer (capture/platform DevMsr) is not built in");
}
#endif

} // namespace rdt
