// SPDX-License-Identifier: GPL-3.0-or-later
#include "AmdQosReport.h"
#include "core/Text.h"

namespace rdt {

void appendAmdQosLines(const CpuFeatures& f, std::vector<CapabilityLine>& lines)
{
    const AmdQos& q = f.amdQos;
    if (!f.identity.isAmd()) return;
    auto add = [&](std::string name, std::string value, bool present, std::string origin, std::string whyNot) {
        CapabilityLine l;
        l.group = capgroup::AmdQos;
        l.name = std::move(name);
        l.value = std::move(value);
        l.present = present;
        l.origin = std::move(origin);
        l.sdmSection = ""; // AMD's manual, not Intel's SDM: the origin names the leaf
        l.whyNot = present ? std::string() : std::move(whyNot);
        lines.push_back(std::move(l));
    };
    auto yes = [](bool on) { return std::string(on ? "yes" : "no"); };
    if (!q.decoded) {
        add("PQoS extended features", "unknown", false, "CPUID.(EAX=80000000H)",
            "the source has no extended leaves 80000008H/80000020H");
        return;
    }
    add("MBA (memory bandwidth enforcement)", yes(q.mba || q.l3mbe), q.mba || q.l3mbe,
        "CPUID.(EAX=80000008H):EBX[6], CPUID.(EAX=80000020H,ECX=0):EBX[1]", "no AMD MBA: resctrl shows no MB");
    if (q.mbaDetailsMissing)
        add("MBA limit range", "unknown", false, "CPUID.(EAX=80000020H,ECX=1):EAX,EDX",
            "CPUID.(EAX=80000020H,ECX=1) is not in the source (see Warnings); resctrl's info/MB shows the values on "
            "a live machine");
    else if (q.mbaBandwidthLength)
        add("MBA limit range",
            formatString("0..%u in 1/8 GB/s (%u = unlimited), %u CLOS", q.mbaMax(), q.mbaMax(), q.mbaHighestCos + 1),
            true, "CPUID.(EAX=80000020H,ECX=1):EAX,EDX", "");
    add("SMBA (slow/CXL memory bandwidth)", yes(q.smba), q.smba, "CPUID.(EAX=80000020H,ECX=0):EBX[2]",
        "no SMBA: resctrl shows no SMBA line");
    if (q.smba && q.smbaBandwidthLength)
        add("SMBA limit range",
            formatString("0..%u in 1/8 GB/s, %u CLOS", 1u << q.smbaBandwidthLength, q.smbaHighestCos + 1), true,
            "CPUID.(EAX=80000020H,ECX=2):EAX,EDX", "");
    add("BMEC (configurable MBM events)", yes(q.bmec), q.bmec, "CPUID.(EAX=80000020H,ECX=0):EBX[3]",
        "no BMEC: MBM events count the fixed default transactions");
    if (q.bmec)
        add("BMEC transaction bits",
            formatString("%u events, valid bits %s", q.bmecEvents, formatHex(q.bmecValidBits).c_str()), true,
            "CPUID.(EAX=80000020H,ECX=3):EBX[7:0],ECX", "");
    add("ABMC (assignable MBM counters)", q.abmc ? formatString("yes, %u counters per L3", q.abmcCounters) : "no",
        q.abmc, "CPUID.(EAX=80000020H,ECX=0):EBX[5], ECX=5:EBX[15:0]",
        "no ABMC: every group has counters, which hardware may reassign (reads Unavailable)");
    add("SDCIAE (resctrl io_alloc)", yes(q.sdciae), q.sdciae, "CPUID.(EAX=80000020H,ECX=0):EBX[6]",
        "no SDCIAE: I/O cache injection cannot be confined (no info/L3/io_alloc)");
}

} // namespace rdt
