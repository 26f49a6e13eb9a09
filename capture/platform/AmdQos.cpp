// SPDX-License-Identifier: GPL-3.0-or-later
#include "AmdQos.h"
#include "CpuFeatures.h"
#include "CpuidSource.h"

namespace rdt {

namespace {
constexpr bool bit(std::uint32_t v, unsigned n)
{
    return ((v >> n) & 1U) != 0;
}
}

void decodeAmdQos(CpuidSource& source, CpuFeatures& f)
{
    AmdQos& q = f.amdQos;
    if (!f.identity.isAmd()) return;
    auto top = source.query(0x80000000, 0);
    if (!top) return;
    q.maxExtendedLeaf = top->eax;
    if (q.maxExtendedLeaf >= 0x80000008) {
        if (auto r = source.query(0x80000008, 0)) {
            q.decoded = true;
            q.mba = bit(r->ebx, 6);
        }
    }
    if (q.maxExtendedLeaf < 0x80000020) {
        if (q.mba) {
            q.mbaDetailsMissing = true;
            f.warnings.push_back("CPUID.80000008H:EBX[6] enumerates AMD MBA but the maximum extended leaf is below "
                                 "80000020H: MBA limits and CLOS count unknown");
        }
        return;
    }
    auto r0 = source.query(0x80000020, 0);
    if (!r0) {
        f.warnings.push_back("CPUID.(EAX=80000020H,ECX=0) missing from the source: AMD PQoS extended features unknown");
        return;
    }
    q.decoded = true;
    q.detailsKnown = true;
    q.l3mbe = bit(r0->ebx, 1);
    q.smba = bit(r0->ebx, 2);
    q.bmec = bit(r0->ebx, 3);
    q.abmc = bit(r0->ebx, 5);
    q.sdciae = bit(r0->ebx, 6);
    if (q.l3mbe || q.mba) {
        if (auto r = source.query(0x80000020, 1)) {
            q.mbaBandwidthLength = r->eax;
            q.mbaHighestCos = r->edx;
        } else {
            q.mbaDetailsMissing = true;
            f.warnings.push_back("CPUID.(EAX=80000020H,ECX=1) missing from the source: AMD MBA limits and CLOS count "
                                 "unknown");
        }
    }
    if (q.smba) {
        if (auto r = source.query(0x80000020, 2)) {
            q.smbaBandwidthLength = r->eax;
            q.smbaHighestCos = r->edx;
        }
    }
    if (q.bmec) {
        if (auto r = source.query(0x80000020, 3)) {
            q.bmecEvents = r->ebx & 0xFFU;
            q.bmecValidBits = r->ecx;
        }
    }
    if (q.abmc) {
        if (auto r = source.query(0x80000020, 5)) q.abmcCounters = (r->ebx & 0xFFFFU) + 1;
    }
    if (q.mbaBandwidthLength >= 32 || q.smbaBandwidthLength >= 32) {
        f.warnings.push_back("CPUID.(EAX=80000020H,ECX=1/2):EAX bandwidth length above 31 is implausible: MBA/SMBA "
                             "limits unknown");
        q.mbaBandwidthLength = q.mbaBandwidthLength >= 32 ? 0 : q.mbaBandwidthLength;
        q.smbaBandwidthLength = q.smbaBandwidthLength >= 32 ? 0 : q.smbaBandwidthLength;
    }
}

} // namespace rdt
