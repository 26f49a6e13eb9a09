// SPDX-License-Identifier: GPL-3.0-or-later
// The table test of issue 43: `info --json` fields of the dumps in tests/data/cpuid/written/, against values worked
// out by hand from the documents, each row citing the section it was worked out from.
#include "TestData.h"

#include "core/Json.h"
#include "platform/CapabilityReport.h"
#include "platform/CoreTypeView.h"

#include <gtest/gtest.h>

using namespace rdt;
using namespace rdt::test;

namespace {

struct Row {
    const char* file; ///< under tests/data/cpuid/written/
    unsigned cpu;
    const char* name; ///< the capability's "name" in `info --json`
    const char* value; ///< its "value", exactly
    bool present;
    const char* cited; ///< where the value was worked out from
};

// clang-format off
const Row kRows[] = {
    // Four CPUs without headers or tags (docs/CPUID-DUMPS.md rules 1 and 3); leaf 04H fields, SDM Vol. 2A CPUID leaf
    // 04H: ways EBX[31:22]+1, partitions EBX[21:12]+1, line EBX[11:0]+1, sets ECX+1, sharing EAX[25:14]+1, EDX[1].
    { "tagless-4cpu-no-headers.txt", 0, "L1 Data", "32.00 KiB, 8-way, 64 sets, 64 B lines, shared by up to 2 threads", true, "SDM Vol. 2A CPUID 04H; 8 x 64 x 64 B" },
    { "tagless-4cpu-no-headers.txt", 0, "L1 Instruction", "32.00 KiB, 8-way, 64 sets, 64 B lines, shared by up to 2 threads", true, "SDM Vol. 2A CPUID 04H" },
    { "tagless-4cpu-no-headers.txt", 0, "L2 Unified", "256.00 KiB, 4-way, 1024 sets, 64 B lines, shared by up to 2 threads", true, "SDM Vol. 2A CPUID 04H; 4 x 1024 x 64 B" },
    { "tagless-4cpu-no-headers.txt", 3, "L3 Unified", "8.00 MiB, 16-way, 8192 sets, 64 B lines, shared by up to 16 threads, inclusive", true, "SDM Vol. 2A CPUID 04H; EDX[1] inclusive" },
    // A hybrid P-core with leaf 23H (SDM Vol. 3B 22.2.9) and leaf 1AH (SDM Vol. 2A CPUID 1AH: 40H = Intel Core).
    { "hybrid-pcore-10gp.txt", 0, "Core type", "P-core (native model ID 0x1)", true, "SDM Vol. 2A CPUID 1AH EAX[31:24]=40H, EAX[23:0]=1" },
    { "hybrid-pcore-10gp.txt", 0, "General-purpose counters", "10 (this P-core, bitmap 0x3ff); common set 8 (CPUID.0AH:EAX[15:8], never above 8)", true, "SDM 22.2.9.3: 23H.01H:EAX bitmap; 0AH never reports more than 8" },
    { "hybrid-pcore-10gp.txt", 0, "Fixed-function counters", "4 (this P-core, bitmap 0xf); common set 3 (CPUID.0AH:EDX[4:0])", true, "SDM 22.2.9.4: 23H.01H:EBX bitmap" },
    { "hybrid-pcore-10gp.txt", 0, "Topdown slots event (TMA)", "yes (this P-core's true view; not in the common set of CPUID.0AH)", true, "SDM 22.2.9.5: 23H.03H:EAX[7] positive polarity; 0AH:EAX[31:24]=7 leaves bit 7 out" },
    { "hybrid-pcore-10gp.txt", 0, "TMA slots per cycle", "8", true, "SDM 22.2.9.6: 23H.00H:ECX[7:0]" },
    { "hybrid-pcore-10gp.txt", 0, "Architectural perfmon version", "5", true, "SDM 22.2: 0AH:EAX[7:0]" },
    // Zen 3 with an MBM width offset of 0 (Linux resctrl_cpu_detect: MBM_CNTR_WIDTH_OFFSET_AMD = 20) and CAT without
    // ECX[3] (Linux sets arch_has_sparse_bitmasks for AMD); MBA from AMD APM Vol. 3 Fn8000_0020 ECX=1.
    { "zen3-mbm-offset0.txt", 0, "MBM counter width", "44 bits (AMD: EAX[7:0]=0 means 24 + 20, Linux MBM_CNTR_WIDTH_OFFSET_AMD)", true, "docs/RESCTRL.md From CPUID to info/ values: 44 bits when 0FH.1:EAX[7:0] is 0" },
    { "zen3-mbm-offset0.txt", 0, "L3 non-contiguous CBM", "yes (sparse masks allowed: every CBM is valid on AMD)", true, "docs/RESCTRL.md: every CBM is valid on AMD (sparse_masks 1 without ECX[3])" },
    { "zen3-mbm-offset0.txt", 0, "L3 CBM length", "16 bits (cbm_mask 0xffff)", true, "SDM 20.19.4.2: 10H.1:EAX[4:0]+1 = 15+1" },
    { "zen3-mbm-offset0.txt", 0, "L3 RMIDs", "256 (highest RMID 255)", true, "SDM 20.18.5: 0FH.1:ECX+1" },
    { "zen3-mbm-offset0.txt", 0, "MBA limit range", "0..2048 in 1/8 GB/s (2048 = unlimited), 16 CLOS", true, "APM Vol. 3 Fn8000_0020_EAX_x1: 1 << 11; EDX 15 + 1 CLOS" },
    { "zen3-mbm-offset0.txt", 0, "Core counters", "6 (PerfCtrExtCore)", true, "APM Vol. 3 Fn8000_0001_ECX[23] PerfCtrExtCore" },
    { "zen3-mbm-offset0.txt", 0, "PerfMonV2", "no", false, "APM Vol. 3: maximum extended leaf 80000020H < 80000022H" },
    { "zen3-mbm-offset0.txt", 0, "L3 Unified", "32.00 MiB, 16-way, 32768 sets, 64 B lines, shared by up to 16 threads", true, "APM Vol. 3 Fn8000_001D (leaf 04H layout)" },
    // Resource Priority only: SDM 20.21.2.1.1 keeps 10H.06H:EDX[15:0] zero for the width formula of 20.19.4.4,
    // whose CLOS_MAX then comes from ACPI _CPC.
    { "resource-priority-only.txt", 0, "Resource priority", "yes", true, "SDM 20.21.2.1.1: 10H.00H:EBX[6]" },
    { "resource-priority-only.txt", 0, "CLOS field width", "unknown", false, "SDM 20.19.4.4: RP as the only allocation feature, CLOS_MAX from ACPI" },
    // This project's VM (an AMD family 1AH guest without 8000001DH or 80000022H): AMD APM Vol. 3 Fn8000_0005 (L1:
    // KiB [31:24], ways [23:16], line [7:0]) and Fn8000_0006 (L2 KiB [31:16], L3 512 KiB units [31:18], encoded ways
    // [15:12]: 6H = 8 to 15, 9H = see Fn8000_001D). 80000005H ECX 300C0140H, EDX 20080140H; 80000006H ECX 04006140H,
    // EDX 0FE09140H.
    { "oxide-turin-vm-snapshot.json", 0, "L1 Data", "48.00 KiB, 12-way, 64 B lines; sharing unknown (legacy leaf)", true, "APM Vol. 3 Fn8000_0005_ECX: 30H KiB, 0CH ways, 40H B" },
    { "oxide-turin-vm-snapshot.json", 0, "L1 Instruction", "32.00 KiB, 8-way, 64 B lines; sharing unknown (legacy leaf)", true, "APM Vol. 3 Fn8000_0005_EDX" },
    { "oxide-turin-vm-snapshot.json", 0, "L2 Unified", "1.00 MiB, 8 to 15 ways, 64 B lines; sharing unknown (legacy leaf)", true, "APM Vol. 3 Fn8000_0006_ECX: 400H KiB, encoding 6H" },
    { "oxide-turin-vm-snapshot.json", 0, "L3 Unified", "508.00 MiB (at least), ways unknown (encoding 9H defers to CPUID Fn8000_001D, which the source does not have), 64 B lines; sharing unknown (legacy leaf)", true, "APM Vol. 3 Fn8000_0006_EDX: 3F8H x 512 KiB, encoding 9H" },
    { "oxide-turin-vm-snapshot.json", 0, "Core counters", "4 (the legacy PerfCtr0-3 of every AMD64 CPU, APM Vol. 2 13.2); a hypervisor may still hide them (see Environment)", true, "APM Vol. 3 Fn8000_0001_ECX[23]=0 (ECX 440001F1H)" },
    { "oxide-turin-vm-snapshot.json", 0, "PerfMonV2", "no", false, "maximum extended leaf 80000021H < 80000022H" },
};
// clang-format on

json::Value reportOf(const std::string& file, unsigned cpu)
{
    auto table = loadCpuidDump(cpuidDumpPath("written/" + file), cpu);
    EXPECT_TRUE(table.ok()) << file << ": " << (table.ok() ? "" : table.error().toString());
    if (!table.ok()) return {};
    const auto text = formatCapabilityReportJson(buildCapabilityReport(decodeCpuFeatures(*table), nullptr, nullptr));
    auto doc = json::parse(text);
    EXPECT_TRUE(doc.ok());
    return doc.ok() ? std::move(*doc) : json::Value();
}

} // namespace

TEST(FixtureTable, InfoJsonFieldsMatchTheValuesWorkedOutFromTheDocuments)
{
    for (const auto& row : kRows) {
        SCOPED_TRACE(
            std::string(row.file) + " CPU " + std::to_string(row.cpu) + ": " + row.name + " [" + row.cited + "]");
        const auto doc = reportOf(row.file, row.cpu);
        ASSERT_TRUE(doc.contains("capabilities"));
        const json::Value* found = nullptr;
        for (const auto& line : doc["capabilities"])
            if (line["name"] == row.name && line["group"] != "Warnings") found = &line;
        ASSERT_NE(found, nullptr) << "no capability named " << row.name;
        EXPECT_EQ((*found)["value"].get<std::string>(), row.value);
        EXPECT_EQ((*found)["present"].get<bool>(), row.present);
    }
}

TEST(FixtureTable, ResourcePriorityAloneIsNotAMissingSubleaf)
{
    const auto doc = reportOf("resource-priority-only.txt", 0);
    ASSERT_TRUE(doc.contains("capabilities"));
    for (const auto& line : doc["capabilities"]) {
        EXPECT_EQ(line["value"].get<std::string>().find("sub-leaves of CPUID.10H are missing"), std::string::npos)
            << line["value"];
        if (line["name"] == "CLOS field width") {
            EXPECT_NE(line["whyNot"].get<std::string>().find("ACPI _CPC"), std::string::npos) << line["whyNot"];
        }
    }
}

TEST(FixtureTable, AmdMbaWithoutItsSubleafIsUnknown)
{
    std::string text;
    {
        auto t = loadCpuidDump(cpuidDumpPath("written/zen3-mbm-offset0.txt"));
        ASSERT_TRUE(t.ok());
        CpuidTable copy;
        for (const auto& e : t->entries())
            if (!(e.leaf == 0x80000020 && e.subleaf == 1)) copy.set(e.leaf, e.subleaf, e.regs, e.subleafLabelled);
        const auto report = buildCapabilityReport(decodeCpuFeatures(copy), nullptr, nullptr);
        text = formatCapabilityReportText(report);
    }
    EXPECT_NE(text.find("MBA limit range:"), std::string::npos) << text;
    EXPECT_NE(text.find("CPUID.(EAX=80000020H,ECX=1) missing from the source: AMD MBA limits and CLOS count unknown"),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("0..2048"), std::string::npos) << text;
}

TEST(FixtureTable, AmdPerfMonV2IsDecoded)
{
    // A Zen 4-style 80000022H (AMD APM Vol. 3 Fn8000_0022): PerfMonV2, LbrStack, LbrAndPmcFreeze; 6 core counters,
    // a 16-entry LBR stack, 16 data-fabric counters (Linux union cpuid_0x80000022_ebx).
    CpuidTable t;
    t.set(0, 0, { 0x10, 0x68747541, 0x444D4163, 0x69746E65 });
    t.set(1, 0, { 0x00A10F11, 0, 0, 0 });
    t.set(0x80000000, 0, { 0x80000022, 0, 0, 0 });
    t.set(0x80000001, 0, { 0, 0, 0x00800000, 0 });
    t.set(0x80000022, 0, { 0x7, 0x6 | (16u << 4) | (16u << 10), 0, 0 });
    const auto f = decodeCpuFeatures(t);
    EXPECT_TRUE(f.amdPerfmon.perfMonV2);
    EXPECT_EQ(f.amdPerfmon.coreCounters, 6u);
    EXPECT_EQ(f.amdPerfmon.lbrV2Depth, 16u);
    EXPECT_EQ(f.amdPerfmon.dfCounters, 16u);
    const auto text = formatCapabilityReportText(buildCapabilityReport(f, nullptr, nullptr));
    EXPECT_NE(text.find("LBR v2:"), std::string::npos) << text;
    EXPECT_NE(text.find("yes, 16 entries"), std::string::npos) << text;
    EXPECT_EQ(text.find("Architectural perfmon version"), std::string::npos) << text; // Intel's leaf, not AMD's
}

// A hybrid dump (SDM Vol. 2A CPUID 1AH; Vol. 3B 22.2.9): one line per core type with its own counts.
TEST(FixtureTable, HybridDumpListsEachCoreTypeWithItsOwnCounts)
{
    const auto path = cpuidDumpPath("written/hybrid-2p-2e.txt");
    const auto views = coreTypeViews(path);
    ASSERT_EQ(views.size(), 2u);
    EXPECT_EQ(views[0].coreType, "P-core");
    EXPECT_EQ(views[0].cpus, (std::vector<unsigned> { 0, 1 }));
    EXPECT_EQ(views[1].coreType, "E-core");
    EXPECT_EQ(views[1].cpus, (std::vector<unsigned> { 2, 3 }));
    auto table = loadCpuidDump(path, 2);
    ASSERT_TRUE(table.ok());
    auto report = buildCapabilityReport(decodeCpuFeatures(*table), nullptr, nullptr);
    appendCoreTypeLines(views, report);
    const auto text = formatCapabilityReportText(report);
    EXPECT_NE(text.find("P-core:                               2 CPUs (0-1): 10 general-purpose, 4 fixed counters, "
                        "Topdown slots yes, TMA slots per cycle 8"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("E-core:                               2 CPUs (2-3): 8 general-purpose, 3 fixed counters, "
                        "Topdown slots no, TMA slots per cycle 0"),
        std::string::npos)
        << text;
    // The headline of CPU #2 names its core type and the common set.
    EXPECT_NE(text.find("8 (this E-core, bitmap 0xff); common set 8"), std::string::npos) << text;
    EXPECT_LT(text.find("\nCore types\n"), text.find("\nWarnings\n")); // Warnings stay last (when there are any)
    EXPECT_TRUE(coreTypeViews(cpuidDumpPath("written/zen3-mbm-offset0.txt")).empty()); // not hybrid
}
