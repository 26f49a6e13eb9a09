// SPDX-License-Identifier: GPL-3.0-or-later
// CPUID sources: the table's sub-leaf rules, the three dump formats, mislabelled/missing sub-leaves, JSON snapshot.
#include "TestData.h"

#include "platform/CapabilityReport.h"
#include "platform/CoreTypeView.h"
#include "platform/LiveCpuid.h"

#include <algorithm>
#include <cerrno>
#include <sched.h>
#include <set>

using namespace rdt;
using namespace rdt::test;

namespace {

bool hasWarning(const CpuFeatures& f, const std::string& needle)
{
    return std::any_of(f.warnings.begin(), f.warnings.end(),
        [&](const std::string& w) { return w.find(needle) != std::string::npos; });
}

/// A minimal Skylake-SP-like AIDA64 dump whose 0FH/10H lines the tests replace.
std::string aidaDump(const std::string& rdtLines)
{
    return "------[ Logical CPU #0 ]------\n\n"
           "CPUID 00000000: 00000016-756E6547-6C65746E-49656E69 [GenuineIntel]\n"
           "CPUID 00000001: 00050654-00400800-7FFEFBFF-BFEBFBFF\n"
           "CPUID 00000007: 00000000-D39FFFFB-00000008-00000000\n"
        + rdtLines;
}

} // namespace

TEST(CpuidTable, UnlabelledEntryAnswersSubleafZeroOnlyForLeavesWithSubleaves)
{
    CpuidTable t;
    t.set(0x07, 0, { 0, 0xD39FFFFB, 8, 0 }, false);
    t.set(0x0A, 0, { 0x07300404, 0, 0, 0x603 }, false);
    EXPECT_TRUE(t.query(0x07, 0).has_value());
    EXPECT_FALSE(t.query(0x07, 1).has_value()); // leaf 07H has sub-leaves: sub-leaf 1 is unknown, not sub-leaf 0
    ASSERT_TRUE(t.query(0x0A, 3).has_value()); // leaf 0AH ignores ECX
    EXPECT_EQ(t.query(0x0A, 3)->eax, 0x07300404u);
    EXPECT_FALSE(t.query(0x0B, 0).has_value());
}

TEST(CpuidDump, Aida64PicksTheRequestedLogicalCpu)
{
    const std::string text = "------[ Logical CPU #0 ]------\nCPUID 00000001: 00050654-00000800-00000000-00000000\n"
                             "------[ Logical CPU #1 ]------\nCPUID 00000001: 00050654-01000800-00000000-00000000\n";
    auto cpu1 = parseAida64Dump(text, 1, "x");
    ASSERT_TRUE(cpu1.ok());
    EXPECT_EQ(cpu1->query(1, 0)->ebx, 0x01000800u);
    auto cpu7 = parseAida64Dump(text, 7, "x");
    ASSERT_FALSE(cpu7.ok());
    EXPECT_NE(cpu7.error().message.find("no logical CPU #7"), std::string::npos);
    EXPECT_FALSE(parseAida64Dump("hello\n", 0).ok());
}

// A line without [SL nn] used to replace the labelled sub-leaf 0 line of the same leaf (issue: a hand-edited or
// concatenated dump then reported CAT from the wrong registers). The labelled line wins in either order.
TEST(CpuidDump, UnlabelledLineNeverOverridesALabelledSubleafZero)
{
    const std::string labelledFirst = "CPUID 00000010: 00000000-0000000E-00000000-00000000 [SL 00]\n"
                                      "CPUID 00000010: 00000000-00000000-00000000-00000000\n";
    const std::string unlabelledFirst = "CPUID 00000010: 00000000-00000000-00000000-00000000\n"
                                        "CPUID 00000010: 00000000-0000000E-00000000-00000000 [SL 00]\n";
    for (const auto* text : { &labelledFirst, &unlabelledFirst }) {
        auto t = parseAida64Dump(*text, 0, "x");
        ASSERT_TRUE(t.ok()) << t.error().toString();
        ASSERT_TRUE(t->query(0x10, 0).has_value());
        EXPECT_EQ(t->query(0x10, 0)->ebx, 0x0Eu) << (text == &labelledFirst ? "labelled first" : "unlabelled first");
    }
}

// The parsers walk lines as views and only copy the lines that can match (a many-CPU dump has thousands of lines).
// These pin the line rules std::getline and sscanf gave them: a CPU number is never read from the next line, the
// last line needs no newline, and sscanf's whitespace and sign rules still decide a `cpuid -r` header.
TEST(CpuidDump, Aida64HeaderNumberIsNeverReadFromTheNextLine)
{
    const std::string text = "------[ Logical CPU #0 ]------\nCPUID 00000001: 00050654-00000800-00000000-00000000\n"
                             "------[ Logical CPU #\n1\nCPUID 00000001: 00050654-01000800-00000000-00000000";
    auto cpu0 = parseAida64Dump(text, 0, "x");
    ASSERT_TRUE(cpu0.ok());
    // The header without a number is not a header: the file stays CPU #0, and there is no CPU #1. Its second,
    // different leaf-01H line (with no final newline) cannot be placed: the first stays, and a note says so
    // (docs/CPUID-DUMPS.md rule 4).
    EXPECT_EQ(cpu0->query(1, 0)->ebx, 0x00000800u);
    ASSERT_EQ(cpu0->notes().size(), 1u);
    EXPECT_NE(cpu0->notes()[0].find("line 5: a second CPUID 00000001 line for CPU #0"), std::string::npos)
        << cpu0->notes()[0];
    EXPECT_FALSE(parseAida64Dump(text, 1, "x").ok());
    const std::string last = "CPUID 00000001: 00050654-00000800-00000000-00000000\r\nCPUID 00000007: "
                             "00000000-D39FFFFB-00000008-00000000 [SL 00]";
    auto t = parseAida64Dump(last, 0, "x");
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE(t->query(7, 0).has_value()); // the last line without '\n' counts
    EXPECT_EQ(t->query(7, 0)->ebx, 0xD39FFFFBu);
    EXPECT_TRUE(t->query(1, 0).has_value()); // CRLF: the '\r' follows the registers and is ignored
}

TEST(CpuidDump, RawCpuidHeadersFollowSscanfRules)
{
    const std::string text = "CPUID 00000001: 00050654-00000800-00000000-00000000\n" // AIDA line: not a header
                             "   0x00000001 0x00: eax=0x00000011 ebx=0x0 ecx=0x0 edx=0x0\n"
                             "CPU\t 1:\n" // whitespace between "CPU" and the number
                             "   0x00000001 0x00: eax=0x00000022 ebx=0x0 ecx=0x0 edx=0x0\n"
                             "CPU+2:\n" // no space, a sign: still a header (the format's space matches none)
                             "   0x00000001 0x00: eax=0x00000033 ebx=0x0 ecx=0x0 edx=0x0\n"
                             "CPU 3: eax=1\n" // a '=' makes it a data line, not a header: still CPU 2
                             "   0x00000001 0x00: eax=0x00000044 ebx=0x0 ecx=0x0 edx=0x0";
    EXPECT_FALSE(parseRawCpuidDump(text, 0, "x").ok()); // headers name CPUs 1 and 2 only
    const std::uint32_t expected[] = { 0, 0x22, 0x44 };
    for (unsigned cpu = 1; cpu < 3; ++cpu) {
        auto t = parseRawCpuidDump(text, cpu, "x");
        ASSERT_TRUE(t.ok()) << cpu << ": " << t.error().toString();
        ASSERT_TRUE(t->query(1, 0).has_value()) << cpu;
        EXPECT_EQ(t->query(1, 0)->eax, expected[cpu]) << cpu;
    }
    EXPECT_FALSE(parseRawCpuidDump(text, 3, "x").ok());
    EXPECT_FALSE(parseRawCpuidDump("CPUX 0:\n0x1 0x0: eax=0x1 ebx=0x0 ecx=0x0 edx=0x0\n", 5, "x").ok());
}

TEST(CpuidDump, RawCpuidOutputDecodesLikeTheAidaDump)
{
    auto raw = loadCpuidDump(cpuidDumpPath("skx-cpuid-r.txt"));
    ASSERT_TRUE(raw.ok()) << raw.error().toString();
    EXPECT_NE(raw->describe().find("cpuid -r"), std::string::npos);
    const CpuFeatures r = decodeCpuFeatures(*raw);
    const CpuFeatures a = decodeDump(kSkylakeSP);
    EXPECT_EQ(r.identity.brand, a.identity.brand);
    EXPECT_EQ(r.identity.model, a.identity.model);
    EXPECT_EQ(r.monitoring.rmidCount(), a.monitoring.rmidCount());
    EXPECT_EQ(r.monitoring.upscalingFactor, a.monitoring.upscalingFactor);
    EXPECT_EQ(r.allocation.l3.cbmMask, a.allocation.l3.cbmMask);
    EXPECT_EQ(r.allocation.l3.shareableBits, a.allocation.l3.shareableBits);
    EXPECT_EQ(r.allocation.l3.bytesPerCbmBit, a.allocation.l3.bytesPerCbmBit);
    // The raw sample includes 10H.03H (MBA), which the InstLatx64 dump lacks (20.19.7.1).
    ASSERT_TRUE(r.allocation.mba.detailsKnown);
    EXPECT_EQ(r.allocation.mba.maxThrottle, 90u);
    EXPECT_TRUE(r.allocation.mba.linear);
    EXPECT_EQ(r.allocation.mba.granularity(), 10u);
    EXPECT_EQ(r.allocation.mba.closCount(), 8u);
    EXPECT_EQ(r.allocation.closMax, 15u);
    EXPECT_FALSE(hasWarning(r, "CLOS field width"));
    EXPECT_TRUE(hasWarning(a, "CLOS field width"));

    auto cpu1 = loadCpuidDump(cpuidDumpPath("skx-cpuid-r.txt"), 1);
    ASSERT_TRUE(cpu1.ok());
    EXPECT_EQ(cpu1->query(1, 0)->ebx, 0x01400800u);
    EXPECT_FALSE(cpu1->query(0x0F, 0).has_value());
}

TEST(CpuidDump, MislabelledMonitoringSubleafGivesAWarningNotAWrongAnswer)
{
    // As in GenuineIntel0050657_CascadeLakeXeon_CPUID.txt: 10H.01H-style values printed as "0000000F [SL 01]".
    const std::string text = aidaDump("CPUID 0000000F: 00000000-0000004F-00000000-00000002 [SL 00]\n"
                                      "CPUID 0000000F: 0000000A-00000600-00000004-0000000F [SL 01]\n"
                                      "CPUID 00000010: 00000000-0000000A-00000000-00000000 [SL 00]\n"
                                      "CPUID 00000010: 00000000-00012000-0000008F-00000007 [SL 01]\n");
    auto t = parseAida64Dump(text, 0, "mislabelled");
    ASSERT_TRUE(t.ok());
    const CpuFeatures f = decodeCpuFeatures(*t);
    EXPECT_TRUE(f.monitoring.l3);
    EXPECT_FALSE(f.monitoring.l3DetailsKnown);
    EXPECT_EQ(f.monitoring.rmidCount(), 0u);
    EXPECT_EQ(f.monitoring.upscalingFactor, 0u);
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=0FH,ECX=1) = 0000000A-00000600-00000004-0000000F is implausible"));
    // ... and the 0FH.01H-style values under 10H [SL 01] are rejected too (ECX reserved bits).
    EXPECT_FALSE(f.allocation.l3.detailsKnown);
    EXPECT_EQ(f.allocation.l3.closCount(), 0u);
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=10H,ECX=1) = 00000000-00012000-0000008F-00000007 is implausible"));

    const CapabilityReport report = buildCapabilityReport(f, nullptr, nullptr);
    const auto line = std::find_if(report.lines.begin(), report.lines.end(),
        [](const CapabilityLine& l) { return l.name == "L3 monitoring details"; });
    ASSERT_NE(line, report.lines.end());
    EXPECT_FALSE(line->present);
    EXPECT_EQ(line->value, "unknown");
}

TEST(CpuidDump, MissingSubleafIsAWarning)
{
    // RDT_M and RDT_A set, leaf 0FH sub-leaf 1 and leaf 10H absent from the dump.
    const std::string text = aidaDump("CPUID 0000000F: 00000000-0000008F-00000000-00000002 [SL 00]\n");
    auto t = parseAida64Dump(text);
    ASSERT_TRUE(t.ok());
    const CpuFeatures f = decodeCpuFeatures(*t);
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=0FH,ECX=1) missing from the source"));
    EXPECT_TRUE(hasWarning(f, "CPUID.(EAX=10H,ECX=0) missing from the source"));
    EXPECT_EQ(f.monitoring.rmidCount(), 0u);
    EXPECT_EQ(f.allocation.resourceBitmap, 0u);
}

TEST(CpuidDump, ShareableBitsOutsideTheCbmAreMaskedWithAWarning)
{
    const std::string text = aidaDump("CPUID 00000010: 00000000-00000002-00000000-00000000 [SL 00]\n"
                                      "CPUID 00000010: 00000003-000000F0-00000000-00000003 [SL 01]\n");
    auto t = parseAida64Dump(text);
    ASSERT_TRUE(t.ok());
    const CpuFeatures f = decodeCpuFeatures(*t);
    EXPECT_EQ(f.allocation.l3.cbmMask, 0xFu);
    EXPECT_EQ(f.allocation.l3.shareableBits, 0xF0u & 0xFu);
    EXPECT_TRUE(hasWarning(f, "shareable bits outside"));
}

TEST(CpuidDump, JsonSnapshotRoundTripDecodesTheSame)
{
    for (const char* file : { kHaswellEP, kBroadwellE, kSkylakeSP, kCascadeLake, kIceLakeSP, kXeonD1718T }) {
        SCOPED_TRACE(file);
        CpuidTable dump = loadDump(file);
        const CpuidTable snap = snapshotCpuid(dump);
        const std::string json = cpuidTableToJson(snap);
        auto back = cpuidTableFromJson(json);
        ASSERT_TRUE(back.ok()) << back.error().toString();
        EXPECT_EQ(back->entries(), snap.entries());
        EXPECT_EQ(back->describe(), dump.describe());

        const CpuFeatures before = decodeCpuFeatures(dump);
        CpuidTable restored = std::move(*back);
        const CpuFeatures after = decodeCpuFeatures(restored);
        EXPECT_EQ(formatCapabilityReportText(buildCapabilityReport(after, nullptr, nullptr)),
            formatCapabilityReportText(buildCapabilityReport(before, nullptr, nullptr)));
    }
}

TEST(CpuidDump, SnapshotKeepsAmdSubleaves)
{
    // Sessions recorded on AMD kept only sub-leaf 0 of 8000001DH and 80000020H: the replay lost the caches (it
    // showed "L3: 0 B") and the MBA length. A Genoa-like table: caches in 8000001DH.0-3 (type 0 at 4), PQoS in
    // 80000020H.0-3 and .5.
    CpuidTable t("synthetic AMD");
    t.set(0, 0, { 0x10, 0x68747541, 0x444D4163, 0x69746E65 }, false); // "AuthenticAMD"
    t.set(7, 0, { 0, 1u << 15, 0, 0 });
    t.set(0x80000000, 0, { 0x80000026, 0, 0, 0 }, false);
    t.set(0x8000001D, 0, { 0x00004121, 0x01C0003F, 0x0000003F, 0 }); // L1d
    t.set(0x8000001D, 1, { 0x00004122, 0x01C0003F, 0x0000003F, 0 }); // L1i
    t.set(0x8000001D, 2, { 0x00004143, 0x01C0003F, 0x000007FF, 0 }); // L2
    t.set(0x8000001D, 3, { 0x0003C163, 0x03C0003F, 0x00007FFF, 0 }); // L3: 16 ways x 32768 sets x 64 B
    t.set(0x8000001D, 4, { 0, 0, 0, 0 });
    t.set(0x80000020, 0, { 0, (1u << 1) | (1u << 2) | (1u << 3) | (1u << 5), 0, 0 });
    t.set(0x80000020, 1, { 11, 0, 0, 15 });
    t.set(0x80000020, 2, { 11, 0, 0, 15 });
    t.set(0x80000020, 3, { 0, 2, 0x7F, 0 });
    t.set(0x80000020, 5, { 0, 31, 0, 0 });
    t.set(0x80000026, 0, { 0, 0, 0x0100, 0 });
    t.set(0x80000026, 1, { 0, 0, 0x0200, 0 });
    t.set(0x80000026, 2, { 0, 0, 0, 0 });
    CpuidTable snap = snapshotCpuid(t);
    for (auto [leaf, sub] : { std::pair { 0x8000001Du, 3u }, { 0x80000020u, 1u }, { 0x80000020u, 3u },
             { 0x80000020u, 5u }, { 0x80000026u, 1u } })
        EXPECT_TRUE(snap.query(leaf, sub).has_value()) << std::hex << leaf << "." << sub;
    const CpuFeatures before = decodeCpuFeatures(t);
    const CpuFeatures after = decodeCpuFeatures(snap);
    ASSERT_NE(after.cache(3), nullptr);
    EXPECT_EQ(after.cache(3)->sizeBytes(), 32u << 20);
    EXPECT_EQ(after.amdQos.mbaMax(), 2048u);
    EXPECT_EQ(after.amdQos.abmcCounters, 32u);
    EXPECT_EQ(formatCapabilityReportText(buildCapabilityReport(after, nullptr, nullptr)),
        formatCapabilityReportText(buildCapabilityReport(before, nullptr, nullptr)));
}

TEST(CpuidDump, JsonSnapshotRejectsBadInput)
{
    EXPECT_FALSE(cpuidTableFromJson("").ok());
    EXPECT_FALSE(cpuidTableFromJson("{\"format\":\"rdtscope-cpuid\",\"version\":1,\"entries\":[").ok());
    EXPECT_FALSE(cpuidTableFromJson("{\"format\":\"other\",\"version\":1,\"entries\":[]}").ok());
    EXPECT_FALSE(cpuidTableFromJson("{\"format\":\"rdtscope-cpuid\",\"version\":2,\"entries\":[]}").ok());
    auto bad = cpuidTableFromJson("{\"format\":\"rdtscope-cpuid\",\"version\":1,\"entries\":[{\"leaf\":\"0x1\"}]}");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("entry 0"), std::string::npos);
    std::string deep(200, '[');
    EXPECT_FALSE(cpuidTableFromJson(deep).ok());
}

TEST(CpuidDump, FormatDetectionAndFileErrors)
{
    EXPECT_EQ(detectCpuidDumpFormat("  {\"format\":1}"), CpuidDumpFormat::Json);
    EXPECT_EQ(detectCpuidDumpFormat("CPU 0:\n   0x00000000 0x00: eax=0x00000016"), CpuidDumpFormat::CpuidRaw);
    EXPECT_EQ(detectCpuidDumpFormat("CPUID 00000000: 00000016-756E6547-6C65746E-49656E69"), CpuidDumpFormat::Aida64);
    EXPECT_EQ(detectCpuidDumpFormat("hello"), CpuidDumpFormat::Unknown);
    auto missing = loadCpuidDump(cpuidDumpPath("does-not-exist.txt"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    auto notDump = loadCpuidDump(cpuidDumpPath("README.md"));
    ASSERT_FALSE(notDump.ok());
    EXPECT_EQ(notDump.error().code, EINVAL);
}

// The fuzz campaign seeds with cpuid/seeds: each real dump cut to logical CPUs #0-#2 (every other section kept; see
// cpuid/README.md), so an execution costs a 20 KB input, not a 500 KB one. They must stay representative: CPUs #0
// and #1, the ones the fuzz target reads, give the same table as in the full dump, and #3 is gone.
TEST(CpuidDump, FuzzSeedsReadLikeTheFullDumps)
{
    for (const std::string file : { kHaswellEP, kBroadwellE, kSkylakeSP, kCascadeLake, kIceLakeSP, kXeonD1718T }) {
        const std::string seed = "seeds/" + file.substr(0, file.size() - 4) + ".cpu0-2.txt";
        for (unsigned cpu : { 0u, 1u }) {
            auto full = loadCpuidDump(cpuidDumpPath(file), cpu);
            auto cut = loadCpuidDump(cpuidDumpPath(seed), cpu);
            ASSERT_TRUE(full.ok() && cut.ok()) << seed;
            cut->setDescription(full->describe()); // the file name differs; the entries must not
            EXPECT_EQ(cpuidTableToJson(*cut), cpuidTableToJson(*full)) << seed << " CPU #" << cpu;
        }
        EXPECT_FALSE(loadCpuidDump(cpuidDumpPath(seed), 3).ok()) << seed;
    }
}

TEST(LiveCpuid, DecodesWithoutCrashingAndStopsAtTheMaximumLeaf)
{
    if (!LiveCpuid::instructionAvailable()) GTEST_SKIP() << "not an x86 build";
    LiveCpuid live;
    auto leaf0 = live.query(0, 0);
    ASSERT_TRUE(leaf0.has_value());
    EXPECT_FALSE(live.query(leaf0->eax + 1, 0).has_value());
    const CpuFeatures f = decodeCpuFeatures(live);
    EXPECT_FALSE(f.identity.vendor.empty());
    EXPECT_EQ(f.identity.maxBasicLeaf, leaf0->eax);
    auto dev = LiveCpuid::onCpu(0, "/nonexistent-dev-cpu");
    ASSERT_FALSE(dev.ok());
    EXPECT_NE(dev.error().advice.find("modprobe cpuid"), std::string::npos);
}

// Leaves 01H, 04H, 1AH and 23H answer for the CPU that executes CPUID (SDM 22.2.9), so the live per-core-type view
// reads each allowed CPU from a thread pinned there: every CPU's leaf 01H then carries its own initial APIC ID
// (EBX[31:24]), which a read that stayed on one CPU would repeat.
TEST(LiveCpuid, EachCpuIsReadWhereItRuns)
{
    if (!LiveCpuid::instructionAvailable()) GTEST_SKIP() << "not an x86 build";
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
    const auto tables = liveCpuidPerCpu();
    ASSERT_EQ(tables.size(), static_cast<std::size_t>(CPU_COUNT(&allowed)));
    std::set<std::uint32_t> apicIds;
    for (auto [cpu, table] : tables) {
        EXPECT_TRUE(CPU_ISSET(cpu, &allowed));
        auto leaf1 = table.query(1, 0);
        ASSERT_TRUE(leaf1.has_value());
        apicIds.insert(leaf1->ebx >> 24);
    }
    EXPECT_EQ(apicIds.size(), tables.size());
    // Not hybrid: one CPU answers for all, and there is no per-type view (the dumps' tests cover hybrid parts).
    LiveCpuid live;
    if (!decodeCpuFeatures(live).hybrid.hybrid) {
        EXPECT_TRUE(liveCoreTypeViews().empty());
        EXPECT_EQ(liveCpuidPerCpu([](const CpuidTable&) { return false; }).size(), 1u);
    }
}

// docs/CPUID-DUMPS.md rules 1 and 3 on a dump written for them from the SDM's leaf 04H and 0BH layouts: four logical
// CPUs without headers or sub-leaf tags. Each leaf-0 line starts a CPU; the five leaf-04H lines of a CPU are its
// sub-leaves 0-4 (L1d, L1i, L2, L3, the terminator), not five overwrites of sub-leaf 0.
TEST(CpuidDump, TaglessDumpWithoutHeadersSplitsCpusAtLeafZeroAndNumbersSubleaves)
{
    const std::string file = "written/tagless-4cpu-no-headers.txt";
    for (unsigned cpu = 0; cpu < 4; ++cpu) {
        auto t = loadCpuidDump(cpuidDumpPath(file), cpu);
        ASSERT_TRUE(t.ok()) << t.error().toString();
        EXPECT_TRUE(t->notes().empty()) << t->notes().front();
        EXPECT_NE(t->describe().find("logical CPU #" + std::to_string(cpu) + " of 4"), std::string::npos)
            << t->describe();
        // Leaf 01H:EBX[31:24] and 0BH:EDX are the APIC ID, written as the CPU's number: never another CPU's.
        EXPECT_EQ(t->query(1, 0)->ebx >> 24, cpu);
        EXPECT_EQ(t->query(0x0B, 1)->edx, cpu);
        const std::uint32_t cacheEax[] = { 0x04004121, 0x04004122, 0x04004143, 0x0403C163, 0 };
        for (std::uint32_t sub = 0; sub < 5; ++sub) {
            ASSERT_TRUE(t->query(4, sub).has_value()) << "sub-leaf " << sub;
            EXPECT_EQ(t->query(4, sub)->eax, cacheEax[sub]) << "sub-leaf " << sub;
        }
        for (const auto& e : t->entries()) {
            if (e.leaf == 4) {
                EXPECT_FALSE(e.subleafLabelled); // numbered by position, and a snapshot says so
            }
        }
        const auto f = decodeCpuFeatures(*t);
        ASSERT_EQ(f.caches.size(), 4u);
        EXPECT_EQ(f.caches[0].level, 1u);
        EXPECT_EQ(f.caches[3].level, 3u);
        EXPECT_EQ(f.caches[3].sizeBytes(), 8u << 20); // 16 ways x 8192 sets x 64 B
    }
    auto fifth = loadCpuidDump(cpuidDumpPath(file), 4);
    ASSERT_FALSE(fifth.ok());
    EXPECT_NE(fifth.error().message.find("no logical CPU #4"), std::string::npos);
    EXPECT_NE(fifth.error().advice.find("4 CPUs"), std::string::npos) << fifth.error().advice;
}

// EVEREST-era dumps: CPU headers, no sub-leaf tags.
TEST(CpuidDump, UntaggedLinesWithHeadersAreSuccessiveSubleavesPerCpu)
{
    const std::string text = "------[ Logical CPU #0 ]------\n"
                             "CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69\n"
                             "CPUID 00000004: 1C004121-01C0003F-0000003F-00000000\n"
                             "CPUID 00000004: 1C004122-01C0003F-0000003F-00000000\n"
                             "------[ Logical CPU #1 ]------\n"
                             "CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69\n"
                             "CPUID 00000004: 1C004121-01C0003F-0000003F-00000000\n";
    auto cpu0 = parseAida64Dump(text, 0, "x");
    ASSERT_TRUE(cpu0.ok());
    EXPECT_EQ(cpu0->query(4, 1)->eax, 0x1C004122u);
    auto cpu1 = parseAida64Dump(text, 1, "x");
    ASSERT_TRUE(cpu1.ok());
    EXPECT_FALSE(cpu1->query(4, 1).has_value()); // CPU #1 lists one cache: its count restarts per CPU
    EXPECT_NE(cpu0->describe().find("without sub-leaf tags"), std::string::npos) << cpu0->describe();
}

// Rule 7: every line that cannot be placed is a warning with its line number, and the decoder shows it.
TEST(CpuidDump, LinesThatCannotBePlacedAreWarnings)
{
    const std::string text = "CPUID 00000001: 00050654-00000800-00000000-00000000\n" // before any header
                             "CPUID Manufacturer: GenuineIntel\n" // AIDA64 report text, not a register line
                             "------[ Logical CPU #0 ]------\n"
                             "CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69\n"
                             "CPUID 00000004: 1C004121-01C0003F\n" // truncated
                             "CPUID 00000010: 00000000-0000000E-00000000-00000000 [SL 00]\n"
                             "CPUID 00000010: 00000000-00000002-00000000-00000000\n"; // differs from [SL 00]
    auto t = parseAida64Dump(text, 0, "x");
    ASSERT_TRUE(t.ok());
    const auto notes = t->notes();
    ASSERT_EQ(notes.size(), 3u);
    EXPECT_NE(notes[0].find("line 1: CPUID 00000001 before the first 'Logical CPU #n' header"), std::string::npos)
        << notes[0];
    EXPECT_NE(notes[1].find("line 5: 'CPUID 00000004: 1C004121-01C0003F' is not a CPUID line"), std::string::npos)
        << notes[1];
    EXPECT_NE(notes[2].find("line 7: untagged CPUID 00000010 differs from its [SL 00] line"), std::string::npos)
        << notes[2];
    EXPECT_EQ(t->query(0x10, 0)->ebx, 0x0Eu);
    const auto f = decodeCpuFeatures(*t);
    for (const auto& n : notes)
        EXPECT_NE(std::find(f.warnings.begin(), f.warnings.end(), n), f.warnings.end()) << n;
}
