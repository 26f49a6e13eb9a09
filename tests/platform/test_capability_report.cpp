// SPDX-License-Identifier: GPL-3.0-or-later
// The capability list that `rdtscope-cli info` and the GUI Machine panel render.
#include "TempDir.h"
#include "TestData.h"

#include "core/Json.h"
#include "platform/CapabilityReport.h"

#include <algorithm>

using namespace rdt;
using namespace rdt::test;

namespace {

const CapabilityLine* findLine(const CapabilityReport& r, const std::string& name)
{
    auto it = std::find_if(r.lines.begin(), r.lines.end(), [&](const CapabilityLine& l) { return l.name == name; });
    return it == r.lines.end() ? nullptr : &*it;
}

CpuidTable amdVm()
{
    CpuidTable t("synthetic AMD VM");
    t.set(0, 0, { 0x10, 0x68747541, 0x444D4163, 0x69746E65 }, false); // "AuthenticAMD"
    t.set(1, 0, { 0x00B00F21, 0, 0x80000000, 0 }, false); // hypervisor bit
    t.set(7, 0, { 0, 0, 0, 0 });
    t.set(0x80000000, 0, { 0x80000021, 0, 0, 0 }, false);
    // 8000001DH.3: unified L3 (type 3, level 3), 16 ways, 64 B lines, 32768 sets = 32 MiB (leaf 04H layout).
    t.set(0x8000001D, 3, { 0x00004163, 0x03C0003F, 0x00007FFF, 0 });
    t.set(0x8000001D, 4, { 0, 0, 0, 0 });
    return t;
}

} // namespace

TEST(CapabilityReport, SkylakeLinesCarryOriginAndSdmSection)
{
    const CpuFeatures f = decodeDump(kSkylakeSP);
    const CapabilityReport r = buildCapabilityReport(f, nullptr, nullptr);
    EXPECT_TRUE(r.rdtWhyNot.empty()) << r.rdtWhyNot;
    const CapabilityLine* cbm = findLine(r, "L3 CBM length");
    ASSERT_NE(cbm, nullptr);
    EXPECT_EQ(cbm->group, capgroup::CacheAllocation);
    EXPECT_EQ(cbm->value, "11 bits (cbm_mask 0x7ff)");
    EXPECT_EQ(cbm->origin, "CPUID.(EAX=10H,ECX=1):EAX[4:0]");
    EXPECT_EQ(cbm->sdmSection, "20.19.4.2");
    EXPECT_TRUE(cbm->present);
    EXPECT_EQ(findLine(r, "L3 shareable bits")->value, "0x600");
    EXPECT_EQ(findLine(r, "L3 RMIDs")->value, "144 (highest RMID 143)");
    EXPECT_EQ(findLine(r, "MBM counter width")->value, "24 bits (24 + EAX[7:0])");
    const CapabilityLine* mba = findLine(r, "MBA details");
    ASSERT_NE(mba, nullptr);
    EXPECT_FALSE(mba->present);
    EXPECT_NE(mba->whyNot.find("CPUID.(EAX=10H,ECX=3)"), std::string::npos);

    for (const auto& l : r.lines) {
        SCOPED_TRACE(l.name);
        EXPECT_FALSE(l.group.empty());
        EXPECT_FALSE(l.name.empty());
        EXPECT_FALSE(l.value.empty());
        EXPECT_FALSE(l.origin.empty());
        if (!l.present) {
            EXPECT_FALSE(l.whyNot.empty());
        }
        if (l.group == capgroup::Monitoring || l.group == capgroup::CacheAllocation || l.group == capgroup::Mba
            || l.group == capgroup::Perfmon || l.group == capgroup::Lbr) {
            EXPECT_FALSE(l.sdmSection.empty());
        }
    }
}

TEST(CapabilityReport, GroupsComeInAStableOrder)
{
    const CpuFeatures f = decodeDump(kIceLakeSP);
    const CapabilityReport r = buildCapabilityReport(f, nullptr, nullptr);
    const std::vector<std::string> order
        = { capgroup::Identity, capgroup::Monitoring, capgroup::CacheAllocation, capgroup::Mba, capgroup::Cba,
              capgroup::Caches, capgroup::Perfmon, capgroup::Lbr, capgroup::PerfmonExt, capgroup::Warnings };
    std::vector<std::string> seen;
    for (const auto& l : r.lines)
        if (seen.empty() || seen.back() != l.group) seen.push_back(l.group);
    EXPECT_EQ(seen, order);
    // Same input, same list: the GUI relies on it to keep its tree stable across refreshes.
    const CapabilityReport again = buildCapabilityReport(f, nullptr, nullptr);
    EXPECT_EQ(formatCapabilityReportText(again), formatCapabilityReportText(r));
}

TEST(CapabilityReport, AmdVirtualMachineSaysWhyThereIsNoRdt)
{
    CpuidTable t = amdVm();
    const CpuFeatures f = decodeCpuFeatures(t);
    TempDir root;
    root.write("proc/filesystems", "nodev\tsysfs\n");
    const EnvironmentProbe env = probeEnvironment(root.path(), f.identity.hypervisor);
    const CapabilityReport r = buildCapabilityReport(f, &env, nullptr);
    // AMD's Platform QoS enumerates through the same bits: the vendor is no reason, the bits and the VM are.
    EXPECT_EQ(r.rdtWhyNot.find("GenuineIntel"), std::string::npos) << r.rdtWhyNot;
    EXPECT_NE(r.rdtWhyNot.find("hypervisor"), std::string::npos);
    EXPECT_NE(
        r.rdtWhyNot.find("enumerates no RDT (AMD Platform QoS is enumerated by the same bits)"), std::string::npos)
        << r.rdtWhyNot;
    const CapabilityLine* vendor = findLine(r, "Vendor");
    ASSERT_NE(vendor, nullptr);
    EXPECT_TRUE(vendor->present);
    const CapabilityLine* pmu = findLine(r, "'cpu' PMU");
    ASSERT_NE(pmu, nullptr);
    EXPECT_FALSE(pmu->present);
    EXPECT_NE(pmu->whyNot.find("running in a VM without a virtual PMU"), std::string::npos);
    const CapabilityLine* mon = findLine(r, "RDT monitoring (RDT_M)");
    ASSERT_NE(mon, nullptr);
    EXPECT_EQ(mon->value, "no");
    EXPECT_EQ(mon->whyNot.find("GenuineIntel"), std::string::npos) << mon->whyNot;
    EXPECT_NE(mon->whyNot.find("running under a hypervisor"), std::string::npos) << mon->whyNot;
    // Architectural LBR is Intel's: there the vendor is the reason.
    const CapabilityLine* lbr = findLine(r, "Architectural LBR");
    ASSERT_NE(lbr, nullptr);
    EXPECT_NE(lbr->whyNot.find("not GenuineIntel: AuthenticAMD"), std::string::npos) << lbr->whyNot;
    // AMD leaves 04H empty and describes caches in 8000001DH; sub-leaves 0-2 are absent from this table.
    EXPECT_TRUE(f.caches.empty() || f.caches.front().leaf == 0x8000001D);
    const std::string text = formatCapabilityReportText(r);
    EXPECT_NE(text.find("No RDT here: CPUID.(EAX=07H,ECX=0):EBX[12]=0"), std::string::npos) << text;
    EXPECT_NE(text.find("why not: resctrl not available"), std::string::npos);
}

TEST(CapabilityReport, AVendorThatIsNeitherIntelNorAmdIsNamedAsTheReason)
{
    CpuidTable t = amdVm();
    t.set(0, 0, { 0x10, 0x746E6543, 0x736C7561, 0x48727561 }, false); // "CentaurHauls"
    const CpuFeatures f = decodeCpuFeatures(t);
    const CapabilityReport r = buildCapabilityReport(f, nullptr, nullptr);
    EXPECT_EQ(r.rdtWhyNot.rfind("neither Intel nor AMD: CentaurHauls; ", 0), 0u) << r.rdtWhyNot;
    const CapabilityLine* vendor = findLine(r, "Vendor");
    ASSERT_NE(vendor, nullptr);
    EXPECT_FALSE(vendor->present);
    EXPECT_NE(vendor->whyNot.find("neither GenuineIntel nor AuthenticAMD: CentaurHauls"), std::string::npos);
    const CapabilityLine* mon = findLine(r, "RDT monitoring (RDT_M)");
    ASSERT_NE(mon, nullptr);
    EXPECT_NE(mon->whyNot.find("neither Intel nor AMD: CentaurHauls"), std::string::npos) << mon->whyNot;
}

TEST(CapabilityReport, AmdCachesComeFromLeaf8000001D)
{
    CpuidTable t = amdVm();
    t.set(0x8000001D, 0, { 0x00000121, 0x02C0003F, 0x0000003F, 0 }); // L1 data, 12 ways x 64 sets x 64 B = 48 KiB
    t.set(0x8000001D, 1, { 0x00000122, 0x01C0003F, 0x0000003F, 0 });
    t.set(0x8000001D, 2, { 0x00000143, 0x03C0003F, 0x000003FF, 2 });
    const CpuFeatures f = decodeCpuFeatures(t);
    ASSERT_EQ(f.caches.size(), 4u);
    EXPECT_EQ(f.caches[0].sizeBytes(), 48u * 1024u);
    ASSERT_NE(f.cache(3), nullptr);
    EXPECT_EQ(f.cache(3)->sizeBytes(), 32u * 1024u * 1024u);
    const CapabilityReport r = buildCapabilityReport(f, nullptr, nullptr);
    const CapabilityLine* l3 = findLine(r, "L3 Unified");
    ASSERT_NE(l3, nullptr);
    EXPECT_EQ(l3->origin, "CPUID.(EAX=8000001DH,ECX=3)");
}

TEST(CapabilityReport, IntelWithRdtButResctrlUnmountedSaysHowToMount)
{
    const CpuFeatures f = decodeDump(kBroadwellE);
    TempDir root;
    root.write("proc/filesystems", "nodev\tresctrl\n");
    EnvironmentProbe env = probeEnvironment(root.path(), false);
    CapabilityReport r = buildCapabilityReport(f, &env, nullptr);
    EXPECT_EQ(r.rdtWhyNot, "resctrl not mounted: mount -t resctrl resctrl /sys/fs/resctrl");
    root.mkdir("sys/fs/resctrl/info");
    env = probeEnvironment(root.path(), false);
    r = buildCapabilityReport(f, &env, nullptr);
    EXPECT_TRUE(r.rdtWhyNot.empty());
    EXPECT_TRUE(findLine(r, "resctrl")->present);
    EXPECT_NE(formatCapabilityReportText(r).find("RDT: available"), std::string::npos);
    const CapabilityReport dumpOnly = buildCapabilityReport(f, nullptr, nullptr);
    EXPECT_NE(formatCapabilityReportText(dumpOnly).find("RDT: enumerated by CPUID"), std::string::npos);
}

TEST(CapabilityReport, JsonHasEveryLine)
{
    const CpuFeatures f = decodeDump(kSkylakeSP);
    const CapabilityReport r = buildCapabilityReport(f, nullptr, nullptr);
    auto doc = json::parse(formatCapabilityReportJson(r));
    ASSERT_TRUE(doc.ok()) << doc.error().toString();
    const json::Value& caps = doc->at("capabilities");
    ASSERT_TRUE(caps.is_array());
    ASSERT_EQ(caps.size(), r.lines.size());
    for (std::size_t i = 0; i < r.lines.size(); ++i) {
        EXPECT_EQ(caps[i].at("name"), r.lines[i].name);
        EXPECT_EQ(caps[i].at("value"), r.lines[i].value);
        EXPECT_EQ(caps[i].at("present"), r.lines[i].present);
        EXPECT_EQ(caps[i].at("sdm"), r.lines[i].sdmSection);
    }
    EXPECT_EQ(doc->at("source"), r.source);
}

TEST(CapabilityReport, AmdPqosExtendedLeavesAreDecoded)
{
    // A Genoa-like PQoS enumeration: leaves 0FH/10H as on Intel, MBA in 80000008H, the rest in 80000020H.
    CpuidTable t("synthetic AMD EPYC");
    t.set(0, 0, { 0x10, 0x68747541, 0x444D4163, 0x69746E65 }, false); // "AuthenticAMD"
    t.set(1, 0, { 0x00A10F11, 0, 0, 0 }, false);
    t.set(7, 0, { 0, (1u << 12) | (1u << 15), 0, 0 });
    t.set(0xF, 0, { 0, 0xFF, 0, 0x2 });
    t.set(0xF, 1, { 0x14, 64, 0xFF, 0x7 });
    t.set(0x10, 0, { 0, 0x2, 0, 0 });
    t.set(0x10, 1, { 0xF, 0, 0x4, 0xF });
    t.set(0x80000000, 0, { 0x80000028, 0, 0, 0 }, false);
    t.set(0x80000008, 0, { 0, 1u << 6, 0, 0 }, false);
    t.set(0x80000020, 0, { 0, (1u << 1) | (1u << 2) | (1u << 3) | (1u << 5) | (1u << 6), 0, 0 });
    t.set(0x80000020, 1, { 11, 0, 0, 15 });
    t.set(0x80000020, 2, { 11, 0, 0, 15 });
    t.set(0x80000020, 3, { 0, 2, 0x7F, 0 });
    t.set(0x80000020, 5, { 0, 31, 0, 0 });
    const CpuFeatures f = decodeCpuFeatures(t);
    EXPECT_TRUE(f.amdQos.decoded);
    EXPECT_TRUE(f.amdQos.mba && f.amdQos.smba && f.amdQos.bmec && f.amdQos.abmc && f.amdQos.sdciae);
    EXPECT_EQ(f.amdQos.mbaMax(), 2048u);
    EXPECT_EQ(f.amdQos.abmcCounters, 32u);
    EXPECT_EQ(f.amdQos.bmecValidBits, 0x7Fu);
    const CapabilityReport r = buildCapabilityReport(f, nullptr, nullptr);
    EXPECT_EQ(r.rdtWhyNot.find("not GenuineIntel"), std::string::npos) << r.rdtWhyNot; // AMD PQoS is usable
    const CapabilityLine* range = findLine(r, "MBA limit range");
    ASSERT_NE(range, nullptr);
    EXPECT_EQ(range->group, capgroup::AmdQos);
    EXPECT_EQ(range->value, "0..2048 in 1/8 GB/s (2048 = unlimited), 16 CLOS");
    EXPECT_EQ(range->origin, "CPUID.(EAX=80000020H,ECX=1):EAX,EDX");
    const CapabilityLine* abmc = findLine(r, "ABMC (assignable MBM counters)");
    ASSERT_NE(abmc, nullptr);
    EXPECT_EQ(abmc->value, "yes, 32 counters per L3");
    EXPECT_EQ(findLine(r, "L3 CBM length")->value, "16 bits (cbm_mask 0xffff)");

    // An Intel CPU gets no AMD lines at all.
    const CapabilityReport intel = buildCapabilityReport(decodeDump(kSkylakeSP), nullptr, nullptr);
    for (const auto& l : intel.lines)
        EXPECT_NE(l.group, capgroup::AmdQos);
}
