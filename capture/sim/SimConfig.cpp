// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimConfig.h"

#include "platform/CpuFeatures.h"

#include <algorithm>

namespace rdt::sim {
namespace {

CacheGeometry geometry(const rdt::CacheInfo* c)
{
    CacheGeometry g;
    if (!c) return g;
    g.ways = c->ways;
    g.sets = c->sets;
    g.lineSize = c->lineSize ? c->lineSize : 64;
    g.partitions = c->partitions ? c->partitions : 1;
    return g;
}

CatCaps cat(const rdt::CacheAllocation& a)
{
    CatCaps k;
    k.present = a.present && a.detailsKnown && a.cbmLength > 0;
    if (!k.present) return k;
    k.cbmLen = std::min(a.cbmLength, 32u);
    k.shareableBits = a.shareableBits & k.fullMask();
    k.cdp = a.cdp;
    k.sparse = a.nonContiguous;
    k.numClos = a.closCount();
    return k;
}

/// AMD's bandwidth and monitoring extensions (leaf 8000_0020H), as the kernel applies them
/// (arch/x86/kernel/cpu/resctrl/core.c rdt_init_res_defs_amd, __rdt_get_mem_config_amd).
void decodeAmd(const rdt::CpuFeatures& cf, SimFeatures& f)
{
    const rdt::AmdQos& q = cf.amdQos;
    if (!cf.identity.isAmd()) return;
    f.amd = true;
    // Sparse masks and the 44-bit MBM width are the decoder's (platform/CpuFeatures.cpp), already in `cf`.
    if ((q.mba || q.l3mbe) && q.mbaMax() > 0) {
        f.mba.present = true;
        f.mba.linear = false; // the kernel's delay_linear is 0 on AMD
        f.mba.maxDelay = 0;
        f.mba.maxBandwidth = q.mbaMax();
        f.mba.numClos = q.mbaHighestCos + 1;
        f.closMax = std::max(f.closMax, q.mbaHighestCos);
    }
    f.amdMon.bmec = q.bmec && f.mon.present;
    f.amdMon.bmecValidBits = q.bmecValidBits;
    f.amdMon.abmcCounters = f.mon.present ? q.abmcCounters : 0;
}

} // namespace

SimFeatures decodeFeatures(const SimCpuid& cpuid)
{
    rdt::CpuidTable table = cpuid.table();
    const rdt::CpuFeatures cf = rdt::decodeCpuFeatures(table);
    SimFeatures f;
    f.brand = cf.identity.brand;
    f.warnings = cf.warnings;
    for (const auto& c : cf.caches) {
        if (c.level == 1 && c.type == "Instruction") f.l1i = geometry(&c);
        if (c.level == 3) f.l3SharingThreads = c.maxSharingThreads;
    }
    f.l1d = geometry(cf.cache(1));
    f.l2 = geometry(cf.cache(2));
    f.l3 = geometry(cf.cache(3));

    const rdt::RdtMonitoring& m = cf.monitoring;
    f.mon.maxRmid = m.highestRmidAny;
    if (m.supported && m.l3 && m.l3DetailsKnown) {
        f.mon.present = true;
        f.mon.l3MaxRmid = m.highestRmid;
        f.mon.scale = std::max<std::uint32_t>(1, m.upscalingFactor);
        f.mon.counterWidth = m.counterWidth ? m.counterWidth : 24;
        f.mon.overflowBit = m.overflowBit;
        f.mon.occupancy = m.occupancy;
        f.mon.mbmTotal = m.totalBandwidth;
        f.mon.mbmLocal = m.localBandwidth;
    }
    const rdt::RdtAllocation& a = cf.allocation;
    if (a.supported) {
        f.l3Cat = cat(a.l3);
        f.l2Cat = cat(a.l2);
        if (a.mba.present && a.mba.detailsKnown) {
            f.mba.present = true;
            f.mba.maxDelay = a.mba.maxThrottle;
            f.mba.linear = a.mba.linear;
            f.mba.perThread = a.mba.perThread;
            f.mba.numClos = a.mba.closCount();
        }
        if (a.cba.present && a.cba.detailsKnown) {
            f.cba.present = true;
            f.cba.maxLevel = a.cba.maxLevel;
            f.cba.linear = a.cba.linear;
            f.cba.numClos = a.cba.closCount();
        }
        f.closMax = a.closMax;
    }
    decodeAmd(cf, f);
    return f;
}

} // namespace rdt::sim
