// SPDX-License-Identifier: GPL-3.0-or-later
#include "AmdPerfmon.h"
#include "CpuFeatures.h"
#include "CpuidSource.h"

namespace rdt {

namespace {
constexpr unsigned field(std::uint32_t v, unsigned hi, unsigned lo)
{
    return static_cast<unsigned>((v >> lo) & ((1U << (hi - lo + 1)) - 1U));
}
}

void decodeAmdPerfmon(CpuidSource& source, CpuFeatures& f)
{
    AmdPerfmon& p = f.amdPerfmon;
    if (!f.identity.isAmd() || f.identity.maxExtendedLeaf < 0x80000001) return;
    auto r1 = source.query(0x80000001, 0);
    if (!r1) {
        f.warnings.push_back("CPUID.(EAX=80000001H) missing from the source: AMD performance counters unknown");
        return;
    }
    p.decoded = true;
    p.coreExt = field(r1->ecx, 23, 23) != 0;
    p.dfExt = field(r1->ecx, 24, 24) != 0;
    p.llcExt = field(r1->ecx, 28, 28) != 0;
    if (f.identity.maxExtendedLeaf < 0x80000022) return;
    auto r = source.query(0x80000022, 0);
    if (!r) {
        f.warnings.push_back("CPUID.(EAX=80000022H) missing from the source: AMD PerfMonV2 and LBR v2 unknown");
        return;
    }
    p.v2Known = true;
    p.perfMonV2 = field(r->eax, 0, 0) != 0;
    p.lbrV2 = field(r->eax, 1, 1) != 0;
    p.lbrPmcFreeze = field(r->eax, 2, 2) != 0;
    p.coreCounters = field(r->ebx, 3, 0);
    p.lbrV2Depth = field(r->ebx, 9, 4);
    p.dfCounters = field(r->ebx, 15, 10);
    p.umcCounters = field(r->ebx, 21, 16);
}

} // namespace rdt
