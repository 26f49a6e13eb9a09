// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimConfig.h"

#include <algorithm>

namespace rdt::sim {
namespace {

    CacheGeometry cacheFromLeaf4(const CpuidRegs& r)
    {
        CacheGeometry g;
        if ((r.eax & 0x1F) == 0)
            return g; // no cache at this subleaf
        g.ways = ((r.ebx >> 22) & 0x3FF) + 1;
        g.partitions = ((r.ebx >> 12) & 0x3FF) + 1;
        g.lineSize = (r.ebx & 0xFFF) + 1;
        g.sets = r.ecx + 1;
        return g;
    }

} // namespace

SimFeatures decodeFeatures(const SimCpuid& c)
{
    SimFeatures f;
    f.brand = c.brand();
    // Leaf 04H subleaves: type in EAX[4:0] (1 data, 2 code, 3 unified), level in EAX[7:5].
    for (std::uint32_t sub = 0; sub < 8; ++sub) {
        CpuidRegs r = c.query(0x4, sub);
        unsigned type = r.eax & 0x1F, level = (r.eax >> 5) & 7;
        if (type == 0)
            break;
        CacheGeometry g = cacheFromLeaf4(r);
        if (level == 1 && type == 1)
            f.l1d = g;
        else if (level == 1 && type == 2)
            f.l1i = g;
        else if (level == 2)
            f.l2 = g;
        else if (level == 3) {
            f.l3 = g;
            f.l3SharingThreads = ((r.eax >> 14) & 0xFFF) + 1;
        }
    }
    const CpuidRegs l7 = c.query(0x7, 0);
    const bool rdtM = (l7.ebx >> 12) & 1, rdtA = (l7.ebx >> 15) & 1;
    if (rdtM) {
        CpuidRegs f0 = c.query(0xF, 0), f1 = c.query(0xF, 1);
        f.mon.maxRmid = f0.ebx;
        if (f0.edx & 2) { // L3 monitoring resource
            f.mon.present = true;
            f.mon.l3MaxRmid = f1.ecx;
            f.mon.scale = std::max<std::uint32_t>(1, f1.ebx);
            f.mon.counterWidth = 24 + (f1.eax & 0xFF);
            f.mon.overflowBit = (f1.eax >> 8) & 1;
            f.mon.occupancy = f1.edx & 1;
            f.mon.mbmTotal = (f1.edx >> 1) & 1;
            f.mon.mbmLocal = (f1.edx >> 2) & 1;
        }
    }
    if (rdtA) {
        const std::uint32_t res = c.query(0x10, 0).ebx;
        auto cat = [&](std::uint32_t sub) {
            CatCaps k;
            CpuidRegs r = c.query(0x10, sub);
            k.present = (res >> sub) & 1;
            if (!k.present)
                return k;
            k.cbmLen = (r.eax & 0x1F) + 1;
            k.shareableBits = r.ebx & k.fullMask();
            k.cdp = (r.ecx >> 2) & 1;
            k.sparse = (r.ecx >> 3) & 1;
            k.numClos = (r.edx & 0xFFFF) + 1;
            return k;
        };
        f.l3Cat = cat(1);
        f.l2Cat = cat(2);
        if ((res >> 3) & 1) {
            CpuidRegs r = c.query(0x10, 3);
            f.mba.present = true;
            f.mba.maxDelay = (r.eax & 0xFFF) + 1;
            f.mba.linear = (r.ecx >> 2) & 1;
            f.mba.perThread = r.ecx & 1;
            f.mba.numClos = (r.edx & 0xFFFF) + 1;
        }
        if ((res >> 5) & 1) {
            CpuidRegs r = c.query(0x10, 5);
            f.cba.present = true;
            f.cba.maxLevel = r.eax & 0xFF;
            f.cba.linear = (r.ecx >> 3) & 1;
            f.cba.numClos = (r.edx & 0xFFFF) + 1;
        }
        for (std::uint32_t n : { f.l3Cat.present ? f.l3Cat.numClos : 0u, f.l2Cat.present ? f.l2Cat.numClos : 0u,
                 f.mba.present ? f.mba.numClos : 0u, f.cba.present ? f.cba.numClos : 0u })
            if (n > 0)
                f.closMax = std::max(f.closMax, n - 1);
    }
    return f;
}

} // namespace rdt::sim
