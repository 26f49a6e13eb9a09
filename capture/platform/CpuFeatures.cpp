// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/CpuFeatures.h"
#include "core/Text.h"

#include <algorithm>
#include <cstdio>

namespace rdt {

namespace {

constexpr bool bit(std::uint32_t v, unsigned n)
{
    return ((v >> n) & 1U) != 0;
}

constexpr std::uint32_t bits(std::uint32_t v, unsigned hi, unsigned lo)
{
    return (v >> lo) & ((hi - lo == 31) ? 0xFFFFFFFFU : ((1U << (hi - lo + 1)) - 1U));
}

std::string leafName(std::uint32_t leaf, std::uint32_t sub)
{
    char buf[64];
    if (leaf >= 0x80000000)
        std::snprintf(buf, sizeof buf, "CPUID.(EAX=%08XH)", leaf);
    else
        std::snprintf(buf, sizeof buf, "CPUID.(EAX=%02XH,ECX=%u)", leaf, sub);
    return buf;
}

std::string regsText(const CpuidRegs& r)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%08X-%08X-%08X-%08X", r.eax, r.ebx, r.ecx, r.edx);
    return buf;
}

std::string regString(std::uint32_t v)
{
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const char c = static_cast<char>((v >> (8 * i)) & 0xFF);
        if (c != '\0') s += c;
    }
    return s;
}

/// Reads leaves while remembering the maximum basic leaf: a leaf above it is "not enumerated" (no warning);
/// a leaf at or below it that the source lacks is "missing" (a warning naming what stays unknown).
class Reader {
public:
    Reader(CpuidSource& source, CpuFeatures& f)
        : m_source(source)
        , m_f(f)
    { }

    std::optional<CpuidRegs> basic(std::uint32_t leaf, std::uint32_t sub, const char* what)
    {
        if (leaf > m_f.identity.maxBasicLeaf) return std::nullopt;
        auto r = m_source.query(leaf, sub);
        if (!r) m_f.warnings.push_back(leafName(leaf, sub) + " missing from the source: " + what + " unknown");
        return r;
    }

    /// For reads past the end of an enumeration (the sub-leaf after the last cache): absence is not an error.
    std::optional<CpuidRegs> quiet(std::uint32_t leaf, std::uint32_t sub)
    {
        return leaf > m_f.identity.maxBasicLeaf ? std::nullopt : m_source.query(leaf, sub);
    }

    void implausible(
        std::uint32_t leaf, std::uint32_t sub, const CpuidRegs& r, const std::string& why, const char* ignored)
    {
        m_f.warnings.push_back(leafName(leaf, sub) + " = " + regsText(r) + " is implausible (" + why
            + "); the dump may mislabel sub-leaves, so " + ignored + " are ignored");
    }

private:
    CpuidSource& m_source;
    CpuFeatures& m_f;
};

void decodeIdentity(CpuidSource& src, Reader& rd, CpuFeatures& f)
{
    if (auto r1 = rd.basic(1, 0, "family/model/stepping")) {
        const std::uint32_t eax = r1->eax;
        f.identity.signature = eax;
        unsigned family = bits(eax, 11, 8);
        unsigned model = bits(eax, 7, 4);
        if (family == 0xF) family += bits(eax, 27, 20);
        if (family == 0x6 || family >= 0xF) model += bits(eax, 19, 16) << 4;
        f.identity.family = family;
        f.identity.model = model;
        f.identity.stepping = bits(eax, 3, 0);
        f.identity.hypervisor = bit(r1->ecx, 31);
    }
    if (auto e = src.query(0x80000000, 0); e && e->eax >= 0x80000000 && e->eax < 0x8000FFFF)
        f.identity.maxExtendedLeaf = e->eax;
    if (f.identity.maxExtendedLeaf >= 0x80000004) {
        std::string brand;
        for (std::uint32_t leaf = 0x80000002; leaf <= 0x80000004; ++leaf) {
            auto r = src.query(leaf, 0);
            if (!r) {
                f.warnings.push_back(leafName(leaf, 0) + " missing from the source: brand string incomplete");
                break;
            }
            brand += regString(r->eax) + regString(r->ebx) + regString(r->ecx) + regString(r->edx);
        }
        f.identity.brand = std::string(trim(brand));
    }
}

/// AMD APM Vol. 3, CPUID Fn8000_0006: the L2/L3 associativity encodings ("the number of ways is at least ...").
std::string amdWaysEncoding(unsigned code, unsigned& exactWays)
{
    exactWays = 0;
    switch (code) {
    case 0x1:
        exactWays = 1;
        return "direct mapped";
    case 0x2:
        exactWays = 2;
        return "2-way";
    case 0x3:
        exactWays = 3;
        return "3-way";
    case 0x4:
        return "4 to 5 ways";
    case 0x5:
        return "6 to 7 ways";
    case 0x6:
        return "8 to 15 ways";
    case 0x8:
        return "16 to 31 ways";
    case 0xA:
        return "32 to 47 ways";
    case 0xB:
        return "48 to 63 ways";
    case 0xC:
        return "64 to 95 ways";
    case 0xD:
        return "96 to 127 ways";
    case 0xE:
        return "128 or more ways";
    case 0xF:
        return "fully associative";
    case 0x9:
        return "ways unknown (encoding 9H defers to CPUID Fn8000_001D, which the source does not have)";
    default:
        return "ways unknown (reserved encoding " + std::to_string(code) + ")";
    }
}

/// AMD's legacy cache leaves, for CPUs (and hypervisors) without 8000001DH: 80000005H ECX/EDX describe L1d/L1i
/// (size in KiB [31:24], associativity [23:16] with FFH fully associative, line size [7:0]); 80000006H ECX the L2
/// (KiB [31:16], encoded associativity [15:12], line [7:0]) and EDX the L3 (512 KiB units [31:18], likewise).
void decodeAmdLegacyCaches(CpuidSource& src, CpuFeatures& f)
{
    auto add = [&](std::uint32_t leaf, unsigned level, const char* type, std::uint64_t bytes, unsigned exactWays,
                   std::string waysText, unsigned line) {
        if (bytes == 0) return; // 0: no such cache (or disabled)
        CacheInfo c;
        c.leaf = leaf;
        c.level = level;
        c.type = type;
        c.statedBytes = bytes;
        c.lineSize = line;
        c.partitions = 1;
        c.ways = exactWays;
        c.sets = exactWays && line ? static_cast<unsigned>(bytes / (std::uint64_t(exactWays) * line)) : 0;
        c.waysText = std::move(waysText);
        f.caches.push_back(std::move(c));
    };
    if (f.identity.maxExtendedLeaf >= 0x80000005) {
        if (auto r = src.query(0x80000005, 0)) {
            auto l1 = [&](std::uint32_t reg, const char* type) {
                const unsigned assoc = bits(reg, 23, 16);
                const std::uint64_t bytes = std::uint64_t(bits(reg, 31, 24)) * 1024;
                const unsigned line = bits(reg, 7, 0);
                const unsigned ways = assoc == 0xFF && line ? static_cast<unsigned>(bytes / line) : assoc;
                add(0x80000005, 1, type, bytes, ways,
                    assoc == 0xFF ? "fully associative" : std::to_string(assoc) + "-way", line);
            };
            l1(r->ecx, "Data");
            l1(r->edx, "Instruction");
        }
    }
    if (f.identity.maxExtendedLeaf >= 0x80000006) {
        if (auto r = src.query(0x80000006, 0)) {
            unsigned ways = 0;
            auto text = amdWaysEncoding(bits(r->ecx, 15, 12), ways);
            if (bits(r->ecx, 15, 12) != 0)
                add(0x80000006, 2, "Unified", std::uint64_t(bits(r->ecx, 31, 16)) * 1024, ways, text,
                    bits(r->ecx, 7, 0));
            text = amdWaysEncoding(bits(r->edx, 15, 12), ways);
            if (bits(r->edx, 15, 12) != 0)
                add(0x80000006, 3, "Unified", std::uint64_t(bits(r->edx, 31, 18)) * 512 * 1024, ways, text,
                    bits(r->edx, 7, 0));
        }
    }
}

void decodeCaches(CpuidSource& src, Reader& rd, CpuFeatures& f)
{
    // AMD describes its caches in 8000001DH with leaf 04H's layout (AMD APM Vol. 3, CPUID Fn8000_001D).
    const bool amd = f.identity.vendor == "AuthenticAMD" || f.identity.vendor == "HygonGenuine";
    const std::uint32_t leaf = amd && f.identity.maxExtendedLeaf >= 0x8000001D ? 0x8000001D : 4;
    for (std::uint32_t sub = 0; sub < 32; ++sub) {
        std::optional<CpuidRegs> r;
        if (leaf == 4)
            r = sub == 0 ? rd.basic(4, sub, "cache parameters") : rd.quiet(4, sub);
        else
            r = src.query(leaf, sub);
        if (!r) break;
        const unsigned type = bits(r->eax, 4, 0);
        if (type == 0) break;
        CacheInfo c;
        c.leaf = leaf;
        c.subleaf = sub;
        c.type = type == 1 ? "Data" : type == 2 ? "Instruction" : type == 3 ? "Unified" : "Unknown";
        c.level = bits(r->eax, 7, 5);
        c.maxSharingThreads = bits(r->eax, 25, 14) + 1;
        c.ways = bits(r->ebx, 31, 22) + 1;
        c.partitions = bits(r->ebx, 21, 12) + 1;
        c.lineSize = bits(r->ebx, 11, 0) + 1;
        c.sets = r->ecx + 1;
        c.inclusive = bit(r->edx, 1);
        c.complexIndexing = bit(r->edx, 2);
        f.caches.push_back(c);
    }
    if (amd && f.caches.empty()) decodeAmdLegacyCaches(src, f);
}

/// SDM 20.18.5: leaf 0FH. Sub-leaf 1 is validated: reserved bits clear (EAX[31:11], EDX[31:3]), a non-zero
/// upscaling factor, at least one event and a highest RMID within sub-leaf 0's.
void decodeMonitoring(Reader& rd, CpuFeatures& f)
{
    RdtMonitoring& m = f.monitoring;
    if (!m.supported) return;
    if (f.identity.maxBasicLeaf < 0x0F) {
        f.warnings.push_back("CPUID.(EAX=07H,ECX=0):EBX[12] enumerates RDT monitoring but the maximum basic leaf is "
                             "below 0FH: monitoring details unknown");
        return;
    }
    auto r0 = rd.basic(0x0F, 0, "RDT monitoring resources");
    if (!r0) return;
    m.highestRmidAny = r0->ebx;
    m.rmidFieldWidth = ceilLog2(std::uint64_t(r0->ebx) + 1);
    m.l3 = bit(r0->edx, 1);
    if (!m.l3) {
        f.warnings.push_back("CPUID.(EAX=07H,ECX=0):EBX[12]=1 but CPUID.(EAX=0FH,ECX=0):EDX[1]=0: no monitoring "
                             "resource enumerated (RDT monitoring disabled or fused off)");
        return;
    }
    auto r1 = rd.basic(0x0F, 1, "L3 monitoring details");
    if (!r1) return;
    std::string why;
    if (bits(r1->eax, 31, 11) != 0)
        why = "EAX[31:11] reserved bits set";
    else if (bits(r1->edx, 31, 3) != 0)
        why = "EDX[31:3] reserved bits set";
    else if (r1->ebx == 0)
        why = "upscaling factor EBX is 0";
    else if (r1->edx == 0)
        why = "no event enumerated in EDX";
    else if (r1->ecx > r0->ebx)
        why = "highest RMID ECX exceeds CPUID.(EAX=0FH,ECX=0):EBX";
    if (!why.empty()) {
        rd.implausible(0x0F, 1, *r1, why, "L3 monitoring details");
        return;
    }
    m.l3DetailsKnown = true;
    m.upscalingFactor = r1->ebx;
    m.highestRmid = r1->ecx;
    m.occupancy = bit(r1->edx, 0);
    m.totalBandwidth = bit(r1->edx, 1);
    m.localBandwidth = bit(r1->edx, 2);
    m.counterWidth = 24 + bits(r1->eax, 7, 0);
    // AMD leaves the offset 0 on parts whose counters are 44 bits wide: Linux adds MBM_CNTR_WIDTH_OFFSET_AMD (20)
    // when the offset is 0 on AMD (arch/x86/kernel/cpu/resctrl/core.c, resctrl_cpu_detect).
    if (bits(r1->eax, 7, 0) == 0 && f.identity.isAmd()) {
        m.counterWidth = 24 + 20;
        m.counterWidthAmdDefault = true;
    }
    m.overflowBit = bit(r1->eax, 8);
    m.nonCpuCmt = bit(r1->eax, 9);
    m.nonCpuMbm = bit(r1->eax, 10);
}

/// SDM 20.19.4.2: CPUID.10H.01H (L3) and 10H.02H (L2).
void decodeCacheAllocation(Reader& rd, CpuFeatures& f, std::uint32_t resId, CacheAllocation& c)
{
    const char* what = resId == 1 ? "L3 CAT details" : "L2 CAT details";
    auto r = rd.basic(0x10, resId, what);
    if (!r) return;
    // ECX: L3 defines bits 1-3, L2 bits 2-3 (bit 1, non-CPU agent, is L3 only).
    const std::uint32_t ecxDefined = resId == 1 ? 0xEU : 0xCU;
    std::string why;
    if (bits(r->eax, 31, 5) != 0)
        why = "EAX[31:5] reserved bits set";
    else if ((r->ecx & ~ecxDefined) != 0)
        why = "ECX reserved bits set";
    else if (bits(r->edx, 31, 16) != 0)
        why = "EDX[31:16] reserved bits set";
    if (!why.empty()) {
        rd.implausible(0x10, resId, *r, why, what);
        return;
    }
    c.detailsKnown = true;
    c.cbmLength = bits(r->eax, 4, 0) + 1;
    c.cbmMask = c.cbmLength >= 32 ? 0xFFFFFFFFU : (1U << c.cbmLength) - 1U;
    c.shareableBits = r->ebx & c.cbmMask;
    if ((r->ebx & ~c.cbmMask) != 0)
        f.warnings.push_back(leafName(0x10, resId) + ":EBX has shareable bits outside the "
            + std::to_string(c.cbmLength) + "-bit CBM; they are ignored");
    c.nonCpuAgent = resId == 1 && bit(r->ecx, 1);
    c.cdp = bit(r->ecx, 2);
    c.nonContiguous = bit(r->ecx, 3);
    // Every CBM is valid on AMD: Linux sets arch_has_sparse_bitmasks for AMD whatever ECX[3] says
    // (rdt_init_res_defs_amd).
    if (f.identity.isAmd() && !c.nonContiguous) c.nonContiguous = c.nonContiguousByVendor = true;
    c.highestClos = bits(r->edx, 15, 0);
    if (const CacheInfo* cache = f.cache(resId == 1 ? 3 : 2)) c.bytesPerCbmBit = cache->sizeBytes() / c.cbmLength;
}

void decodeAllocation(Reader& rd, CpuFeatures& f)
{
    RdtAllocation& a = f.allocation;
    if (!a.supported) return;
    if (f.identity.maxBasicLeaf < 0x10) {
        f.warnings.push_back("CPUID.(EAX=07H,ECX=0):EBX[15] enumerates RDT allocation but the maximum basic leaf is "
                             "below 10H: allocation details unknown");
        return;
    }
    auto r0 = rd.basic(0x10, 0, "RDT allocation resources");
    if (!r0) return;
    a.resourceBitmap = r0->ebx;
    a.l3.present = bit(r0->ebx, 1);
    a.l2.present = bit(r0->ebx, 2);
    a.mba.present = bit(r0->ebx, 3);
    a.cba.present = bit(r0->ebx, 5);
    a.resourcePriority = bit(r0->ebx, 6);
    if ((r0->ebx & 0x7EU) == 0)
        f.warnings.push_back("CPUID.(EAX=07H,ECX=0):EBX[15]=1 but CPUID.(EAX=10H,ECX=0):EBX enumerates no allocation "
                             "resource (RDT allocation disabled or fused off)");
    if (a.l3.present) decodeCacheAllocation(rd, f, 1, a.l3);
    if (a.l2.present) decodeCacheAllocation(rd, f, 2, a.l2);
    if (a.mba.present) {
        // SDM 20.19.7.1: EAX[11:0] max throttle - 1, ECX[0] per-thread, ECX[2] linear, EDX[15:0] highest CLOS.
        if (auto r = rd.basic(0x10, 3, "MBA details")) {
            if (bits(r->eax, 31, 12) != 0 || (r->ecx & ~0x5U) != 0 || bits(r->edx, 31, 16) != 0
                || bits(r->eax, 11, 0) + 1 > 100)
                rd.implausible(0x10, 3, *r, "reserved bits set or throttle above 100", "MBA details");
            else {
                a.mba.detailsKnown = true;
                a.mba.maxThrottle = bits(r->eax, 11, 0) + 1;
                a.mba.perThread = bit(r->ecx, 0);
                a.mba.linear = bit(r->ecx, 2);
                a.mba.highestClos = bits(r->edx, 15, 0);
            }
        }
    }
    if (a.cba.present) {
        // SDM 20.19.8.2: EAX[7:0] max level, EAX[11:8] scope, ECX[3] linear, EDX[15:0] highest CLOS.
        if (auto r = rd.basic(0x10, 5, "CBA details")) {
            if (bits(r->eax, 31, 12) != 0 || (r->ecx & ~0x8U) != 0 || bits(r->edx, 31, 16) != 0)
                rd.implausible(0x10, 5, *r, "reserved bits set", "CBA details");
            else {
                a.cba.detailsKnown = true;
                a.cba.maxLevel = bits(r->eax, 7, 0);
                a.cba.scope = bits(r->eax, 11, 8);
                a.cba.linear = bit(r->ecx, 3);
                a.cba.highestClos = bits(r->edx, 15, 0);
            }
        }
    }
    // SDM 20.19.4.4 pseudo-code: CLOS_MAX over every enumerated ResID, CLOS_WIDTH = Ceil(Log2(CLOS_MAX + 1)).
    bool partial = false;
    auto consider = [&](bool present, bool known, std::uint32_t highest) {
        if (!present) return;
        if (!known) {
            partial = true;
            return;
        }
        a.closMax = std::max(a.closMax, highest);
    };
    consider(a.l3.present, a.l3.detailsKnown, a.l3.highestClos);
    consider(a.l2.present, a.l2.detailsKnown, a.l2.highestClos);
    consider(a.mba.present, a.mba.detailsKnown, a.mba.highestClos);
    consider(a.cba.present, a.cba.detailsKnown, a.cba.highestClos);
    // Resource Priority (ResID 6) takes part with 0: CPUID.10H.06H:EDX[15:0] stays reserved as zero for this formula
    // (20.21.2.1.1). Other unknown ResIDs are not decoded here.
    for (unsigned resId = 4; resId < 32; ++resId)
        if (resId != 5 && resId != 6 && bit(a.resourceBitmap, resId)) partial = true;
    const bool anyKnown = (a.l3.present && a.l3.detailsKnown) || (a.l2.present && a.l2.detailsKnown)
        || (a.mba.present && a.mba.detailsKnown) || (a.cba.present && a.cba.detailsKnown);
    const bool onlyPriority = a.resourcePriority && (a.resourceBitmap & ~0x41U) == 0;
    a.closFieldWidth = ceilLog2(std::uint64_t(a.closMax) + 1);
    if (onlyPriority)
        a.closFieldWidthUnknown = "Resource Priority is the only allocation feature: CLOS_MAX is its number of "
                                  "priority levels - 1 from ACPI _CPC, not CPUID (20.19.4.4)";
    else if (!anyKnown && a.resourceBitmap != 0)
        a.closFieldWidthUnknown = "no enumerated resource's CPUID.(EAX=10H,ECX=ResID) sub-leaf could be read";
    if (!a.closFieldWidthUnknown.empty())
        a.closFieldWidth = 0;
    else if (partial)
        f.warnings.push_back("IA32_PQR_ASSOC CLOS field width computed without every enumerated resource "
                             "(20.19.4.4): some sub-leaves of CPUID.10H are missing or not decoded");
}

void decodePerfmon(Reader& rd, CpuFeatures& f)
{
    auto r = rd.basic(0x0A, 0, "architectural performance monitoring");
    if (!r) return;
    PerfmonInfo& p = f.perfmon;
    p.version = bits(r->eax, 7, 0);
    p.gpCounters = bits(r->eax, 15, 8);
    p.gpWidth = bits(r->eax, 23, 16);
    p.eventVectorLength = bits(r->eax, 31, 24);
    p.eventsUnavailable = r->ebx;
    if (p.version >= 5) p.fixedBitmap = r->ecx;
    if (p.version > 1) {
        p.fixedCounters = bits(r->edx, 4, 0);
        p.fixedWidth = bits(r->edx, 12, 5);
        p.anyThreadDeprecated = bit(r->edx, 15);
    }
}

void decodeArchLbr(Reader& rd, CpuFeatures& f)
{
    ArchLbrInfo& l = f.archLbr;
    if (!l.supported) return;
    auto r = rd.basic(0x1C, 0, "architectural LBR details");
    if (!r) {
        if (f.identity.maxBasicLeaf < 0x1C)
            f.warnings.push_back("CPUID.(EAX=07H,ECX=0):EDX[19] enumerates architectural LBR but the maximum basic "
                                 "leaf is below 1CH: LBR details unknown");
        return;
    }
    l.depthBitmap = bits(r->eax, 7, 0);
    l.deepCStateReset = bit(r->eax, 30);
    l.lipValues = bit(r->eax, 31);
    l.cplFiltering = bit(r->ebx, 0);
    l.branchFiltering = bit(r->ebx, 1);
    l.callStackMode = bit(r->ebx, 2);
    l.mispredictBit = bit(r->ecx, 0);
    l.timedLbr = bit(r->ecx, 1);
    l.branchTypeField = bit(r->ecx, 2);
    l.eventLoggingBitmap = bits(r->ecx, 19, 16);
}

void decodePerfmonExt(Reader& rd, CpuFeatures& f)
{
    PerfmonExtInfo& e = f.perfmonExt;
    if (!e.supported) return;
    auto r0 = rd.basic(0x23, 0, "ARCH_PERFMON_EXT sub-leaves");
    if (!r0) return;
    e.subleafBitmap = r0->eax;
    e.tmaSlotsPerCycle = bits(r0->ecx, 7, 0);
    if (bit(e.subleafBitmap, 1)) {
        if (auto r1 = rd.basic(0x23, 1, "true-view counter bitmaps")) {
            e.gpBitmap = r1->eax;
            e.fixedBitmap = r1->ebx;
            e.countersKnown = true;
        }
    }
    if (bit(e.subleafBitmap, 3)) {
        if (auto r3 = rd.basic(0x23, 3, "true-view architectural event bitmap")) {
            e.eventBitmap = r3->eax;
            e.eventsKnown = true;
        }
    }
}

void decodeHybrid(Reader& rd, CpuFeatures& f)
{
    HybridInfo& h = f.hybrid;
    if (!h.hybrid || f.identity.maxBasicLeaf < 0x1A) return;
    if (auto r = rd.basic(0x1A, 0, "hybrid core type")) {
        h.coreTypeKnown = true;
        h.coreType = bits(r->eax, 31, 24);
        h.nativeModelId = bits(r->eax, 23, 0);
    }
}

} // namespace

std::string HybridInfo::coreTypeName() const
{
    if (!coreTypeKnown) return {};
    if (coreType == 0x40) return "P-core";
    if (coreType == 0x20) return "E-core";
    char buf[32];
    std::snprintf(buf, sizeof buf, "core type %02XH", coreType);
    return buf;
}

unsigned ceilLog2(std::uint64_t n)
{
    unsigned w = 0;
    while (w < 64 && (std::uint64_t(1) << w) < n)
        ++w;
    return w;
}

const CacheInfo* CpuFeatures::cache(unsigned level) const
{
    for (const auto& c : caches)
        if (c.level == level && c.type != "Instruction") return &c;
    return nullptr;
}

std::vector<std::string> PerfmonInfo::availableEvents() const
{
    // Table 22-3, bit positions of CPUID.0AH:EBX (1 = not available).
    static const char* const names[]
        = { "UnHalted Core Cycles", "Instruction Retired", "UnHalted Reference Cycles", "LLC Reference", "LLC Misses",
              "Branch Instruction Retired", "Branch Misses Retired", "Topdown Slots", "Topdown Backend Bound",
              "Topdown Bad Speculation", "Topdown Frontend Bound", "Topdown Retiring", "LBR Inserts" };
    std::vector<std::string> out;
    for (unsigned i = 0; i < eventVectorLength && i < std::size(names); ++i)
        if (!bit(eventsUnavailable, i)) out.emplace_back(names[i]);
    return out;
}

std::vector<unsigned> ArchLbrInfo::depths() const
{
    std::vector<unsigned> out;
    for (unsigned n = 0; n < 8; ++n)
        if (bit(depthBitmap, n)) out.push_back(8 * (n + 1));
    return out;
}

CpuFeatures decodeCpuFeatures(CpuidSource& source)
{
    CpuFeatures f;
    f.source = source.describe();
    for (const auto& n : source.notes())
        f.warnings.push_back(n);
    auto r0 = source.query(0, 0);
    if (!r0) {
        f.warnings.push_back("CPUID.(EAX=00H) missing from the source: nothing can be decoded");
        return f;
    }
    f.identity.vendor = regString(r0->ebx) + regString(r0->edx) + regString(r0->ecx);
    f.identity.maxBasicLeaf = r0->eax;
    Reader rd(source, f);
    decodeIdentity(source, rd, f);
    decodeCaches(source, rd, f);

    if (auto r7 = rd.basic(7, 0, "structured extended features (RDT, arch LBR)")) {
        f.monitoring.supported = bit(r7->ebx, 12);
        f.allocation.supported = bit(r7->ebx, 15);
        f.archLbr.supported = bit(r7->edx, 19);
        f.hybrid.hybrid = bit(r7->edx, 15);
        // CPUID.07H.00H:EAX is the highest sub-leaf of leaf 07H; sub-leaf 1 only exists when it is >= 1.
        if (r7->eax >= 1) {
            if (auto r71 = rd.basic(7, 1, "ARCH_PERFMON_EXT (CPUID.07H.01H:EAX[8])")) {
                f.perfmonExt.supported = bit(r71->eax, 8);
                f.archPerfmonExtKnown = true;
            }
        } else {
            f.archPerfmonExtKnown = true;
        }
    }
    decodeMonitoring(rd, f);
    decodeAllocation(rd, f);
    if (!f.identity.isAmd()) decodePerfmon(rd, f); // AMD reserves leaf 0AH: its PMU is AmdPerfmon's
    decodeArchLbr(rd, f);
    decodePerfmonExt(rd, f);
    decodeHybrid(rd, f);
    decodeAmdQos(source, f);
    decodeAmdPerfmon(source, f);
    return f;
}

} // namespace rdt
