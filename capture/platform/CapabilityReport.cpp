// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/CapabilityReport.h"
#include "platform/AmdQosReport.h"

#include "core/IdList.h"
#include "core/Json.h"
#include "core/Text.h"
#include "core/Units.h"

#include <bit>
#include <cstdio>

namespace rdt {

namespace {

std::string yesNo(bool b)
{
    return b ? "yes" : "no";
}

std::string leaf(const char* eaxEcx, const char* reg)
{
    return std::string("CPUID.(") + eaxEcx + "):" + reg;
}

class Builder {
public:
    explicit Builder(CapabilityReport& r)
        : m_r(r)
    { }
    void group(const char* g) { m_group = g; }
    void add(
        std::string name, std::string value, bool present, std::string origin, std::string sdm, std::string whyNot = {})
    {
        m_r.lines.push_back({ m_group, std::move(name), std::move(value), present, std::move(origin), std::move(sdm),
            present ? std::string() : std::move(whyNot) });
    }
    /// A yes/no feature flag; `absent` is the why-not text when it is 0.
    void flag(std::string name, bool on, std::string origin, std::string sdm, std::string absent = {})
    {
        add(std::move(name), yesNo(on), on, std::move(origin), std::move(sdm), std::move(absent));
    }

private:
    CapabilityReport& m_r;
    std::string m_group;
};

std::string vendorName(const CpuIdentity& id)
{
    return id.vendor.empty() ? std::string("unknown vendor") : id.vendor;
}

/// Why an RDT feature is likely missing beyond the CPUID bit itself: vendor and hypervisor. AMD's Platform QoS
/// enumerates through the same bits and leaves (CPUID 07H EBX[12]/[15], 0FH, 10H) and resctrl, so AMD is no reason.
std::string rdtContext(const CpuFeatures& f)
{
    std::string s;
    if (!f.identity.isIntel() && !f.identity.isAmd()) s += "; neither Intel nor AMD: " + vendorName(f.identity);
    if (f.identity.hypervisor) s += "; running under a hypervisor, which may hide it";
    return s;
}

/// The same for Intel-only PMU features (architectural perfmon leaf 0AH, architectural LBR): AMD has its own.
std::string intelContext(const CpuFeatures& f)
{
    std::string s;
    if (!f.identity.isIntel()) s += "; not GenuineIntel: " + vendorName(f.identity);
    if (f.identity.hypervisor) s += "; running under a hypervisor, which may hide it";
    return s;
}

void identity(Builder& b, const CpuFeatures& f)
{
    const CpuIdentity& id = f.identity;
    b.group(capgroup::Identity);
    b.add("Vendor", id.vendor.empty() ? "unknown" : id.vendor, id.isIntel() || id.isAmd(),
        "CPUID.(EAX=00H):EBX,EDX,ECX", "",
        "neither GenuineIntel nor AuthenticAMD: " + vendorName(id)
            + " (RDT, AMD's Platform QoS and the PMU features below are theirs; rdtscope uses the simulated Xeon)");
    b.add("Brand", id.brand.empty() ? "unknown" : id.brand, !id.brand.empty(), "CPUID.(EAX=80000002H-80000004H)", "",
        "brand string leaves not enumerated");
    char fms[96];
    std::snprintf(fms, sizeof fms, "family %02XH model %02XH stepping %u (signature %s)", id.family, id.model,
        id.stepping, formatHex(id.signature).c_str());
    b.add("Family/model/stepping", fms, id.signature != 0, "CPUID.(EAX=01H):EAX", "", "leaf 01H missing");
    b.add("Maximum basic leaf", formatHex(id.maxBasicLeaf), true, "CPUID.(EAX=00H):EAX", "");
    b.add(
        "Hypervisor", id.hypervisor ? "yes (running in a virtual machine)" : "no", true, "CPUID.(EAX=01H):ECX[31]", "");
}

void monitoring(Builder& b, const CpuFeatures& f)
{
    const RdtMonitoring& m = f.monitoring;
    b.group(capgroup::Monitoring);
    b.flag("RDT monitoring (RDT_M)", m.supported, leaf("EAX=07H,ECX=0", "EBX[12]"), "20.18.4",
        "CPUID.(EAX=07H,ECX=0):EBX[12]=0: no RDT monitoring (CMT/MBM)" + rdtContext(f));
    if (!m.supported) return;
    b.add(
        "Highest RMID (any resource)", std::to_string(m.highestRmidAny), true, leaf("EAX=0FH,ECX=0", "EBX"), "20.18.4");
    b.add("RMID field width", std::to_string(m.rmidFieldWidth) + " bits (IA32_PQR_ASSOC.RMID)", true,
        "Ceil(Log2(1 + CPUID.(EAX=0FH,ECX=0):EBX))", "20.18.6");
    b.flag("L3 monitoring", m.l3, leaf("EAX=0FH,ECX=0", "EDX[1]"), "20.18.4",
        "CPUID.(EAX=0FH,ECX=0):EDX[1]=0: no L3 monitoring resource (leaf 0FH enumerates nothing: disabled or "
        "fused off)");
    if (!m.l3) return;
    if (!m.l3DetailsKnown) {
        b.add("L3 monitoring details", "unknown", false, leaf("EAX=0FH,ECX=1", "EAX-EDX"), "20.18.5",
            "CPUID.(EAX=0FH,ECX=1) missing or implausible in the source (see Warnings)");
        return;
    }
    b.add("L3 RMIDs", std::to_string(m.rmidCount()) + " (highest RMID " + std::to_string(m.highestRmid) + ")", true,
        leaf("EAX=0FH,ECX=1", "ECX"), "20.18.5");
    b.add("Upscaling factor", std::to_string(m.upscalingFactor) + " bytes per counter unit", true,
        leaf("EAX=0FH,ECX=1", "EBX"), "20.18.5");
    b.flag("L3 occupancy (CMT, event 01H)", m.occupancy, leaf("EAX=0FH,ECX=1", "EDX[0]"), "20.18.5.1",
        "CPUID.(EAX=0FH,ECX=1):EDX[0]=0: no L3 occupancy event");
    b.flag("L3 total bandwidth (MBM, event 02H)", m.totalBandwidth, leaf("EAX=0FH,ECX=1", "EDX[1]"), "20.18.5.2",
        "CPUID.(EAX=0FH,ECX=1):EDX[1]=0: no MBM total bandwidth (this CPU has CMT only)");
    b.flag("L3 local bandwidth (MBM, event 03H)", m.localBandwidth, leaf("EAX=0FH,ECX=1", "EDX[2]"), "20.18.5.2",
        "CPUID.(EAX=0FH,ECX=1):EDX[2]=0: no MBM local bandwidth");
    const bool mbm = m.totalBandwidth || m.localBandwidth;
    b.add("MBM counter width",
        !mbm ? "n/a"
            : m.counterWidthAmdDefault
            ? std::to_string(m.counterWidth) + " bits (AMD: EAX[7:0]=0 means 24 + 20, Linux MBM_CNTR_WIDTH_OFFSET_AMD)"
            : std::to_string(m.counterWidth) + " bits (24 + EAX[7:0])",
        mbm, leaf("EAX=0FH,ECX=1", "EAX[7:0]"), "20.18.5.2", "no MBM events enumerated");
    b.flag("IA32_QM_CTR overflow bit (bit 61)", m.overflowBit, leaf("EAX=0FH,ECX=1", "EAX[8]"), "20.18.5.2",
        "CPUID.(EAX=0FH,ECX=1):EAX[8]=0: counters wrap silently; sample faster than the wrap time");
    b.flag(
        "Non-CPU agent CMT", m.nonCpuCmt, leaf("EAX=0FH,ECX=1", "EAX[9]"), "20.20", "CPUID.(EAX=0FH,ECX=1):EAX[9]=0");
    b.flag(
        "Non-CPU agent MBM", m.nonCpuMbm, leaf("EAX=0FH,ECX=1", "EAX[10]"), "20.20", "CPUID.(EAX=0FH,ECX=1):EAX[10]=0");
}

void cacheAllocation(Builder& b, const CacheAllocation& c, unsigned resId, const char* name)
{
    const std::string sub = std::string("EAX=10H,ECX=") + std::to_string(resId);
    const std::string p = name;
    const std::string cdpSection = resId == 1 ? "20.19.5" : "20.19.6";
    b.flag(p + " CAT", c.present, leaf("EAX=10H,ECX=0", resId == 1 ? "EBX[1]" : "EBX[2]"), "20.19.4.2",
        std::string("CPUID.(EAX=10H,ECX=0):EBX[") + std::to_string(resId) + "]=0: no " + p + " cache allocation");
    if (!c.present) return;
    if (!c.detailsKnown) {
        b.add(p + " CAT details", "unknown", false, leaf(sub.c_str(), "EAX-EDX"), "20.19.4.2",
            "CPUID.(" + sub + ") missing or implausible in the source (see Warnings)");
        return;
    }
    b.add(p + " CBM length", std::to_string(c.cbmLength) + " bits (cbm_mask " + formatHex(c.cbmMask) + ")", true,
        leaf(sub.c_str(), "EAX[4:0]"), "20.19.4.2");
    b.add(p + " shareable bits", formatHex(c.shareableBits), true, leaf(sub.c_str(), "EBX"), "20.19.4.2");
    b.add(p + " CLOS", std::to_string(c.closCount()) + " (highest CLOS " + std::to_string(c.highestClos) + ")", true,
        leaf(sub.c_str(), "EDX[15:0]"), "20.19.4.2");
    b.add(p + " CDP", c.cdp ? "yes (" + std::to_string(c.closCountCdp()) + " CLOS when enabled)" : "no", c.cdp,
        leaf(sub.c_str(), "ECX[2]"), cdpSection, "CPUID.(" + sub + "):ECX[2]=0: no code/data prioritization");
    if (c.nonContiguousByVendor)
        b.add(p + " non-contiguous CBM", "yes (sparse masks allowed: every CBM is valid on AMD)", true,
            "AMD vendor rule (Linux arch_has_sparse_bitmasks); " + leaf(sub.c_str(), "ECX[3]") + " is Intel's bit", "");
    else
        b.flag(p + " non-contiguous CBM", c.nonContiguous, leaf(sub.c_str(), "ECX[3]"), "20.19.4.2",
            "CPUID.(" + sub + "):ECX[3]=0: masks must be contiguous runs of 1s");
    if (resId == 1)
        b.flag(p + " non-CPU agent CAT", c.nonCpuAgent, leaf(sub.c_str(), "ECX[1]"), "20.20",
            "CPUID.(" + sub + "):ECX[1]=0");
    b.add(p + " bytes per CBM bit", c.bytesPerCbmBit ? formatBytes(double(c.bytesPerCbmBit)) : "unknown",
        c.bytesPerCbmBit != 0, std::string("CPUID.(EAX=04H) L") + (resId == 1 ? "3" : "2") + " size / CBM length",
        "20.19.4.2", "CPUID.(EAX=04H) did not describe this cache");
}

void allocation(Builder& b, const CpuFeatures& f)
{
    const RdtAllocation& a = f.allocation;
    b.group(capgroup::CacheAllocation);
    b.flag("RDT allocation (RDT_A)", a.supported, leaf("EAX=07H,ECX=0", "EBX[15]"), "20.19.4.1",
        "CPUID.(EAX=07H,ECX=0):EBX[15]=0: no RDT allocation (CAT/CDP/MBA)" + rdtContext(f));
    if (!a.supported) return;
    std::string res;
    for (auto [bitNo, n] : { std::pair { 1, "L3" }, { 2, "L2" }, { 3, "MBA" }, { 5, "CBA" }, { 6, "RP" } })
        if ((a.resourceBitmap >> bitNo) & 1U) res += std::string(res.empty() ? "" : " ") + n;
    b.add("Allocation resources", formatHex(a.resourceBitmap) + (res.empty() ? "" : " (" + res + ")"),
        a.resourceBitmap != 0, leaf("EAX=10H,ECX=0", "EBX"), "20.19.4.2",
        "CPUID.(EAX=10H,ECX=0):EBX=0: no allocation resource");
    cacheAllocation(b, a.l3, 1, "L3");
    cacheAllocation(b, a.l2, 2, "L2");
    const bool widthKnown = a.closFieldWidthUnknown.empty();
    b.add("CLOS field width",
        widthKnown ? std::to_string(a.closFieldWidth) + " bits (IA32_PQR_ASSOC["
                + std::to_string(32 + (a.closFieldWidth ? a.closFieldWidth - 1 : 0)) + ":32])"
                   : "unknown",
        widthKnown, "Ceil(Log2(CLOS_MAX + 1)), CLOS_MAX over CPUID.(EAX=10H,ECX=ResID):EDX[15:0]", "20.19.4.4",
        a.closFieldWidthUnknown);
    b.flag("Resource priority", a.resourcePriority, leaf("EAX=10H,ECX=0", "EBX[6]"), "20.21.2",
        "CPUID.(EAX=10H,ECX=0):EBX[6]=0");

    b.group(capgroup::Mba);
    b.flag("MBA", a.mba.present, leaf("EAX=10H,ECX=0", "EBX[3]"), "20.19.7.1",
        "CPUID.(EAX=10H,ECX=0):EBX[3]=0: no memory bandwidth allocation");
    if (a.mba.present && !a.mba.detailsKnown)
        b.add("MBA details", "unknown", false, leaf("EAX=10H,ECX=3", "EAX-EDX"), "20.19.7.1",
            "CPUID.(EAX=10H,ECX=3) missing from the source (InstLatx64 dumps never include it); resctrl's "
            "info/MB shows the same values on a live machine");
    if (a.mba.detailsKnown) {
        b.add("MBA max throttle", std::to_string(a.mba.maxThrottle) + "%", true, leaf("EAX=10H,ECX=3", "EAX[11:0]"),
            "20.19.7.1");
        b.add("MBA granularity", a.mba.linear ? std::to_string(a.mba.granularity()) + "%" : "n/a (non-linear)",
            a.mba.linear, leaf("EAX=10H,ECX=3", "EAX[11:0]"), "20.19.7.1",
            "delay values are not linear: only the listed steps apply");
        b.flag("MBA linear", a.mba.linear, leaf("EAX=10H,ECX=3", "ECX[2]"), "20.19.7.1",
            "CPUID.(EAX=10H,ECX=3):ECX[2]=0: non-linear delay values");
        b.flag("MBA per-thread throttling", a.mba.perThread, leaf("EAX=10H,ECX=3", "ECX[0]"), "20.19.7.1",
            "CPUID.(EAX=10H,ECX=3):ECX[0]=0: the core applies the max of its threads' delays");
        b.add("MBA CLOS", std::to_string(a.mba.closCount()), true, leaf("EAX=10H,ECX=3", "EDX[15:0]"), "20.19.7.1");
    }

    b.group(capgroup::Cba);
    b.flag("CBA", a.cba.present, leaf("EAX=10H,ECX=0", "EBX[5]"), "20.19.8.2",
        "CPUID.(EAX=10H,ECX=0):EBX[5]=0: no cache bandwidth allocation");
    if (a.cba.present && !a.cba.detailsKnown)
        b.add("CBA details", "unknown", false, leaf("EAX=10H,ECX=5", "EAX-EDX"), "20.19.8.2",
            "CPUID.(EAX=10H,ECX=5) missing or implausible in the source");
    if (a.cba.detailsKnown) {
        b.add("CBA max throttle level", std::to_string(a.cba.maxLevel), true, leaf("EAX=10H,ECX=5", "EAX[7:0]"),
            "20.19.8.2");
        b.add("CBA MSR scope", a.cba.scope == 1 ? "logical processor (1)" : std::to_string(a.cba.scope), true,
            leaf("EAX=10H,ECX=5", "EAX[11:8]"), "20.19.8.2");
        b.flag("CBA linear", a.cba.linear, leaf("EAX=10H,ECX=5", "ECX[3]"), "20.19.8.2",
            "CPUID.(EAX=10H,ECX=5):ECX[3]=0: non-linear response");
        b.add("CBA CLOS", std::to_string(a.cba.closCount()), true, leaf("EAX=10H,ECX=5", "EDX[15:0]"), "20.19.8.2");
    }
}

void caches(Builder& b, const CpuFeatures& f)
{
    b.group(capgroup::Caches);
    if (f.caches.empty())
        b.add("Cache parameters", "none", false, "CPUID.(EAX=04H)", "",
            "CPUID leaf 04H (on AMD 8000001DH, or 80000005H/80000006H) lists no cache");
    for (std::size_t i = 0; i < f.caches.size(); ++i) {
        const CacheInfo& c = f.caches[i];
        if (c.statedBytes) {
            const bool l1 = c.leaf == 0x80000005;
            b.add("L" + std::to_string(c.level) + " " + c.type,
                formatBytes(double(c.sizeBytes())) + (c.level == 3 ? " (at least)" : "") + ", " + c.waysText + ", "
                    + std::to_string(c.lineSize) + " B lines; sharing unknown (legacy leaf)",
                true,
                l1 ? std::string("CPUID.(EAX=80000005H):") + (c.type == "Data" ? "ECX" : "EDX")
                   : std::string("CPUID.(EAX=80000006H):") + (c.level == 2 ? "ECX" : "EDX"),
                "");
            continue;
        }
        b.add("L" + std::to_string(c.level) + " " + c.type,
            formatBytes(double(c.sizeBytes())) + ", " + std::to_string(c.ways) + "-way, " + std::to_string(c.sets)
                + " sets, " + std::to_string(c.lineSize) + " B lines, shared by up to "
                + std::to_string(c.maxSharingThreads) + (c.maxSharingThreads == 1 ? " thread" : " threads")
                + (c.inclusive ? ", inclusive" : ""),
            true,
            std::string(c.leaf == 4 ? "CPUID.(EAX=04H,ECX=" : "CPUID.(EAX=8000001DH,ECX=") + std::to_string(c.subleaf)
                + ")",
            "");
    }
}

/// AMD's PMU (APM Vol. 2 13.2, Vol. 3 Fn8000_0001/Fn8000_0022): leaf 0AH is Intel's and says nothing here.
void amdPerfmon(Builder& b, const CpuFeatures& f)
{
    const AmdPerfmon& a = f.amdPerfmon;
    if (!a.decoded) {
        b.add("AMD performance counters", "unknown", false, "CPUID.(EAX=80000001H)", "",
            "CPUID.(EAX=80000001H) is not in the source");
        return;
    }
    const std::string hv = f.identity.hypervisor ? "; a hypervisor may still hide them (see Environment)" : "";
    if (a.perfMonV2 && a.coreCounters)
        b.add(
            "Core counters", std::to_string(a.coreCounters), true, "CPUID.(EAX=80000022H):EBX[3:0] NumPerfCtrCore", "");
    else
        b.add("Core counters",
            std::to_string(a.coreCounterCount())
                + (a.coreExt ? " (PerfCtrExtCore)" : " (the legacy PerfCtr0-3 of every AMD64 CPU, APM Vol. 2 13.2)")
                + hv,
            true, "CPUID.(EAX=80000001H):ECX[23]", "");
    b.add("PerfMonV2", a.v2Known ? yesNo(a.perfMonV2) : "no", a.perfMonV2, "CPUID.(EAX=80000022H):EAX[0]", "",
        a.v2Known ? "CPUID.(EAX=80000022H):EAX[0]=0: no global counter control (perf uses the legacy interface)"
                  : "the maximum extended leaf is below 80000022H: no PerfMonV2");
    if (a.v2Known)
        b.add("LBR v2", a.lbrV2 ? "yes, " + std::to_string(a.lbrV2Depth) + " entries" : "no", a.lbrV2,
            "CPUID.(EAX=80000022H):EAX[1], EBX[9:4]", "", "CPUID.(EAX=80000022H):EAX[1]=0: no LBR stack");
    if (a.v2Known && a.perfMonV2)
        b.add("Data fabric (northbridge) counters", std::to_string(a.dfCounters), a.dfCounters > 0,
            "CPUID.(EAX=80000022H):EBX[15:10]", "", "none enumerated");
    else
        b.add("Data fabric (northbridge) counters", a.dfExt ? "4 (PerfCtrExtDF)" : "none", a.dfExt,
            "CPUID.(EAX=80000001H):ECX[24]", "", "CPUID.(EAX=80000001H):ECX[24]=0");
    if (a.v2Known && a.perfMonV2)
        b.add("UMC counters", std::to_string(a.umcCounters), a.umcCounters > 0, "CPUID.(EAX=80000022H):EBX[21:16]", "",
            "none enumerated");
    b.flag("L3 counters (PerfCtrExtLLC)", a.llcExt, "CPUID.(EAX=80000001H):ECX[28]", "",
        "CPUID.(EAX=80000001H):ECX[28]=0: no L3 performance counters");
}

void perfmon(Builder& b, const CpuFeatures& f)
{
    const PerfmonInfo& p = f.perfmon;
    const PerfmonExtInfo& e = f.perfmonExt;
    const HybridInfo& h = f.hybrid;
    b.group(capgroup::Perfmon);
    if (f.identity.isAmd()) {
        amdPerfmon(b, f);
        return;
    }
    if (h.hybrid)
        b.add("Core type",
            h.coreTypeKnown ? h.coreTypeName() + " (native model ID " + formatHex(h.nativeModelId) + ")" : "unknown",
            h.coreTypeKnown, leaf("EAX=1AH,ECX=0", "EAX[31:24]"), "",
            "CPUID.(EAX=1AH) missing from the source: the core type of this logical CPU is unknown");
    // What the counts describe: leaf 23H is this logical CPU's true view, leaf 0AH the set every logical CPU shares
    // when 23H exists (SDM 22.2.9.2); on a hybrid part without 23H, 0AH describes the core type it runs on.
    const std::string who = h.coreTypeKnown ? "this " + h.coreTypeName() : "this logical CPU";
    const std::string zeroAh = e.countersKnown ? " (common set of all logical CPUs)"
        : h.hybrid                             ? " (" + who + "'s CPUID.0AH)"
                                               : "";
    b.add("Architectural perfmon version", std::to_string(p.version), p.version > 0, leaf("EAX=0AH", "EAX[7:0]"),
        "22.2", "CPUID.(EAX=0AH):EAX[7:0]=0: no architectural performance monitoring" + intelContext(f));
    if (p.version == 0) return;
    if (e.countersKnown) {
        const auto gp = static_cast<unsigned>(std::popcount(e.gpBitmap));
        b.add("General-purpose counters",
            std::to_string(gp) + " (" + who + ", bitmap " + formatHex(e.gpBitmap) + "); common set "
                + std::to_string(p.gpCounters) + " (CPUID.0AH:EAX[15:8], never above 8)",
            gp > 0, leaf("EAX=23H,ECX=1", "EAX"), "22.2.9.3", "the true-view bitmap is empty");
    } else {
        b.add("General-purpose counters", std::to_string(p.gpCounters) + zeroAh, p.gpCounters > 0,
            leaf("EAX=0AH", "EAX[15:8]"), "22.2.1", "no general-purpose counters");
    }
    b.add("General-purpose counter width", std::to_string(p.gpWidth) + " bits", true, leaf("EAX=0AH", "EAX[23:16]"),
        "22.2.1");
    if (e.countersKnown) {
        const auto fixed = static_cast<unsigned>(std::popcount(e.fixedBitmap));
        b.add("Fixed-function counters",
            std::to_string(fixed) + " (" + who + ", bitmap " + formatHex(e.fixedBitmap) + "); common set "
                + std::to_string(p.fixedCounters) + " (CPUID.0AH:EDX[4:0])",
            fixed > 0, leaf("EAX=23H,ECX=1", "EBX"), "22.2.9.4", "the true-view bitmap is empty");
    } else {
        b.add("Fixed-function counters", std::to_string(p.fixedCounters) + zeroAh, p.fixedCounters > 0,
            leaf("EAX=0AH", "EDX[4:0]"), "22.2.2", "no fixed-function counters enumerated (version 1 or a VM)");
    }
    b.add("Fixed-function counter width", std::to_string(p.fixedWidth) + " bits", p.fixedWidth > 0,
        leaf("EAX=0AH", "EDX[12:5]"), "22.2.2", "not enumerated");
    b.add("Fixed counter bitmap", formatHex(p.fixedBitmap), p.version >= 5, leaf("EAX=0AH", "ECX"), "22.2.5.2",
        "perfmon version < 5: fixed counters are the first EDX[4:0] ones");
    const auto events = p.availableEvents();
    std::string list;
    for (const auto& ev : events)
        list += (list.empty() ? "" : ", ") + ev;
    b.add("Architectural events",
        std::to_string(events.size()) + " of " + std::to_string(p.eventVectorLength) + (list.empty() ? "" : ": " + list)
            + zeroAh,
        !events.empty(), "CPUID.(EAX=0AH):EAX[31:24], EBX", "22.2.7", "no architectural event available");
    // 0AH:EBX is the common set (negative polarity); 23H.03H:EAX this CPU's (positive): either one enumerates it here.
    const bool topdownCommon = p.eventVectorLength > 7 && ((p.eventsUnavailable >> 7) & 1U) == 0;
    const bool topdownTrue = e.eventsKnown && ((e.eventBitmap >> 7) & 1U) != 0;
    if (topdownTrue && !topdownCommon)
        b.add("Topdown slots event (TMA)", "yes (" + who + "'s true view; not in the common set of CPUID.0AH)", true,
            leaf("EAX=23H,ECX=3", "EAX[7]"), "22.2.9.5");
    else
        b.flag("Topdown slots event (TMA)", topdownCommon, leaf("EAX=0AH", "EBX[7]"), "22.2.7",
            e.eventsKnown ? "neither CPUID.(EAX=0AH):EBX[7] nor CPUID.(EAX=23H,ECX=3):EAX[7] enumerates Topdown Slots"
                          : "CPUID.(EAX=0AH): Topdown Slots not enumerated (pre-Ice Lake core): TMA uses "
                            "model-specific events");
    b.flag("AnyThread deprecation", p.anyThreadDeprecated, leaf("EAX=0AH", "EDX[15]"), "22.2.5.1",
        "CPUID.(EAX=0AH):EDX[15]=0");
}

void archLbr(Builder& b, const CpuFeatures& f)
{
    const ArchLbrInfo& l = f.archLbr;
    b.group(capgroup::Lbr);
    b.flag("Architectural LBR", l.supported, leaf("EAX=07H,ECX=0", "EDX[19]"), "21.1",
        "CPUID.(EAX=07H,ECX=0):EDX[19]=0: no architectural LBR (model-specific LBRs may still work through perf)"
            + intelContext(f));
    if (!l.supported) return;
    std::string depths;
    for (unsigned d : l.depths())
        depths += (depths.empty() ? "" : ", ") + std::to_string(d);
    b.add("LBR depths", depths.empty() ? "none" : depths, !depths.empty(), leaf("EAX=1CH", "EAX[7:0]"), "21.1.2.2",
        "CPUID.(EAX=1CH):EAX[7:0]=0");
    b.add("LBR IP type", l.lipValues ? "LIP (includes CS base)" : "EIP/RIP", true, leaf("EAX=1CH", "EAX[31]"),
        "21.1.3.1");
    b.flag("LBR deep C-state reset", l.deepCStateReset, leaf("EAX=1CH", "EAX[30]"), "21.1",
        "LBRs are kept across deep C-states");
    b.flag("LBR CPL filtering", l.cplFiltering, leaf("EAX=1CH", "EBX[0]"), "21.1.2.5", "CPUID.(EAX=1CH):EBX[0]=0");
    b.flag(
        "LBR branch filtering", l.branchFiltering, leaf("EAX=1CH", "EBX[1]"), "21.1.2.3", "CPUID.(EAX=1CH):EBX[1]=0");
    b.flag("LBR call-stack mode", l.callStackMode, leaf("EAX=1CH", "EBX[2]"), "21.1.2.4", "CPUID.(EAX=1CH):EBX[2]=0");
    b.flag("LBR mispredict bit", l.mispredictBit, leaf("EAX=1CH", "ECX[0]"), "21.1.3.4", "CPUID.(EAX=1CH):ECX[0]=0");
    b.flag("Timed LBR (cycle counts)", l.timedLbr, leaf("EAX=1CH", "ECX[1]"), "21.1.3.3", "CPUID.(EAX=1CH):ECX[1]=0");
    b.flag(
        "LBR branch type field", l.branchTypeField, leaf("EAX=1CH", "ECX[2]"), "21.1.3.2", "CPUID.(EAX=1CH):ECX[2]=0");
    b.add("LBR event logging counters", formatHex(l.eventLoggingBitmap), l.eventLoggingBitmap != 0,
        leaf("EAX=1CH", "ECX[19:16]"), "21.1.3.6", "CPUID.(EAX=1CH):ECX[19:16]=0: no counter can log events");
}

void perfmonExt(Builder& b, const CpuFeatures& f)
{
    const PerfmonExtInfo& e = f.perfmonExt;
    b.group(capgroup::PerfmonExt);
    b.add("ARCH_PERFMON_EXT", f.archPerfmonExtKnown ? yesNo(e.supported) : "unknown", e.supported,
        leaf("EAX=07H,ECX=1", "EAX[8]"), "22.2.9",
        f.archPerfmonExtKnown ? "CPUID.(EAX=07H,ECX=1):EAX[8]=0: no CPUID leaf 23H (CPUID.0AH describes the PMU)"
                              : "CPUID.(EAX=07H,ECX=1) missing from the source");
    if (!e.supported) return;
    b.add("Leaf 23H sub-leaves", formatHex(e.subleafBitmap), true, leaf("EAX=23H,ECX=0", "EAX"), "22.2.9.1");
    b.add("TMA slots per cycle", std::to_string(e.tmaSlotsPerCycle), e.tmaSlotsPerCycle > 0,
        leaf("EAX=23H,ECX=0", "ECX[7:0]"), "22.2.9.6", "0: use programmable events for TMA on this logical CPU");
    b.add("General-purpose counter bitmap", formatHex(e.gpBitmap), e.gpBitmap != 0, leaf("EAX=23H,ECX=1", "EAX"),
        "22.2.9.3", "sub-leaf 1 not enumerated");
    b.add("Fixed counter bitmap (true view)", formatHex(e.fixedBitmap), e.fixedBitmap != 0,
        leaf("EAX=23H,ECX=1", "EBX"), "22.2.9.4", "sub-leaf 1 not enumerated");
    b.add("Architectural event bitmap", formatHex(e.eventBitmap), e.eventBitmap != 0, leaf("EAX=23H,ECX=3", "EAX"),
        "22.2.9.5", "sub-leaf 3 not enumerated");
}

void environment(Builder& b, const EnvironmentProbe& e)
{
    b.group(capgroup::Environment);
    b.add("resctrl", e.resctrlMounted ? "mounted" : (e.resctrlInKernel ? "supported, not mounted" : "not available"),
        e.resctrlMounted, "/sys/fs/resctrl/info, /proc/filesystems", "", e.resctrlWhyNot);
    b.add("'cpu' PMU", e.cpuPmu ? e.cpuPmuName : "absent", e.cpuPmu, "/sys/bus/event_source/devices/cpu", "",
        e.cpuPmuWhyNot);
    b.add("perf_event_paranoid", e.perfEventParanoid ? std::to_string(*e.perfEventParanoid) : "unknown",
        e.perfWhyNot.empty(), "/proc/sys/kernel/perf_event_paranoid", "", e.perfWhyNot);
    b.add("MSR device", e.msrDevice ? "/dev/cpu/N/msr" : "absent", e.msrDevice, "/dev/cpu/0/msr", "", e.msrWhyNot);
    b.add("Hypervisor type", e.hypervisorType.empty() ? "none reported" : e.hypervisorType, true,
        "/sys/hypervisor/type", "");
}

void topology(Builder& b, const Topology& t)
{
    b.group(capgroup::Topology);
    std::vector<unsigned> cpus;
    for (const auto& c : t.cpus)
        cpus.push_back(c.cpu);
    b.add("Logical CPUs", std::to_string(cpus.size()) + " online (" + formatIdList(cpus) + ")", !cpus.empty(),
        t.root + "/devices/system/cpu/online", "");
    b.add("Packages", std::to_string(t.packageCount()), true, "topology/physical_package_id", "");
    b.add("Cores", std::to_string(t.coreCount()), true, "topology/core_id", "");
    for (const auto& [node, list] : t.nodes)
        b.add("NUMA node " + std::to_string(node), "CPUs " + formatIdList(list), true,
            t.root + "/devices/system/node/node" + std::to_string(node) + "/cpulist", "");
    for (const auto* domains : { &t.l2, &t.l3 })
        for (const auto& d : *domains)
            b.add("L" + std::to_string(d.level) + " domain " + std::to_string(d.id),
                "CPUs " + formatIdList(d.cpus) + (d.size.empty() ? "" : ", " + d.size), true,
                "cache/index*/id, shared_cpu_list", "");
}

} // namespace

CapabilityReport buildCapabilityReport(
    const CpuFeatures& f, const EnvironmentProbe* environmentProbe, const Topology* topologyInfo)
{
    CapabilityReport r;
    r.source = f.source;
    r.environmentProbed = environmentProbe != nullptr;
    Builder b(r);
    identity(b, f);
    monitoring(b, f);
    allocation(b, f);
    appendAmdQosLines(f, r.lines);
    caches(b, f);
    perfmon(b, f);
    archLbr(b, f);
    perfmonExt(b, f);
    if (environmentProbe) environment(b, *environmentProbe);
    if (topologyInfo) topology(b, *topologyInfo);
    b.group(capgroup::Warnings);
    for (const auto& w : f.warnings)
        b.add("CPUID", w, false, "CPUID source", "", w);
    if (topologyInfo)
        for (const auto& w : topologyInfo->warnings)
            b.add("sysfs", w, false, topologyInfo->root, "", w);

    std::vector<std::string> why;
    // AMD's PQoS uses the same leaves 0FH/10H and resctrl: only a vendor that is neither is a reason.
    if (!f.identity.isIntel() && !f.identity.isAmd()) why.push_back("neither Intel nor AMD: " + vendorName(f.identity));
    if (!f.hasRdt()) {
        if (f.monitoring.supported || f.allocation.supported)
            why.push_back("CPUID.(EAX=07H,ECX=0):EBX[12]/[15] are set but leaves 0FH and 10H enumerate no resource: "
                          "RDT is disabled or fused off on this part");
        else
            why.push_back(std::string("CPUID.(EAX=07H,ECX=0):EBX[12]=0 and EBX[15]=0: the CPU enumerates no RDT")
                + (f.identity.isAmd() ? " (AMD Platform QoS is enumerated by the same bits)" : ""));
    }
    if (f.identity.hypervisor) why.push_back("hypervisor: running in a VM");
    if (environmentProbe && !environmentProbe->resctrlMounted && (f.hasRdt() || why.empty()))
        why.push_back(environmentProbe->resctrlWhyNot);
    else if (environmentProbe && !environmentProbe->resctrlMounted && !environmentProbe->resctrlInKernel)
        why.push_back("no resctrl in the kernel");
    for (std::size_t i = 0; i < why.size(); ++i)
        r.rdtWhyNot += (i ? "; " : "") + why[i];
    return r;
}

std::string formatCapabilityReportText(const CapabilityReport& report)
{
    std::string out = "CPUID source: " + report.source + "\n";
    if (!report.rdtWhyNot.empty())
        out += "No RDT here: " + report.rdtWhyNot + "\n";
    else
        out += report.environmentProbed ? "RDT: available\n"
                                        : "RDT: enumerated by CPUID (kernel interfaces not probed for a dump)\n";
    std::string group;
    for (const auto& l : report.lines) {
        if (l.group != group) {
            group = l.group;
            out += "\n" + group + "\n";
        }
        std::string line = "  " + l.name + ": ";
        if (line.size() < 40) line.append(40 - line.size(), ' ');
        line += l.value;
        std::string where = l.origin;
        if (!l.sdmSection.empty()) where += "; SDM " + l.sdmSection;
        if (!where.empty()) line += "  [" + where + "]";
        out += line + "\n";
        if (!l.present && !l.whyNot.empty() && l.whyNot != l.value) out += "      why not: " + l.whyNot + "\n";
    }
    return out;
}

std::string formatCapabilityReportJson(const CapabilityReport& report)
{
    // Built member by member: from a braced initializer list nlohmann builds and copies a two-element array per
    // member before it becomes an object (the CPUID fuzz target's execution took 8.7 ms with it, 5.3 ms without).
    json::Ordered capabilities = json::Ordered::array();
    for (const auto& l : report.lines) {
        json::Ordered& line = capabilities.emplace_back(json::Ordered::object());
        line["group"] = l.group;
        line["name"] = l.name;
        line["value"] = l.value;
        line["present"] = l.present;
        line["origin"] = l.origin;
        line["sdm"] = l.sdmSection;
        line["whyNot"] = l.whyNot;
    }
    const json::Ordered doc = { { "source", report.source }, { "rdtWhyNot", report.rdtWhyNot },
        { "environmentProbed", report.environmentProbed }, { "capabilities", std::move(capabilities) } };
    return json::dumpLined(doc, "capabilities");
}

} // namespace rdt
