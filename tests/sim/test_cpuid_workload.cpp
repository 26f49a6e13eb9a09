// SPDX-License-Identifier: GPL-3.0-or-later
// Presets, CPUID dumps, synthesized leaves and overrides; workload parsing and address generators.
#include "SimTestUtil.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

using namespace rdt;
using namespace rdt::sim;
using namespace rdt::sim::test;

TEST(SimCpuid, PresetsDecodeAsTheRealParts)
{
    // six Intel parts, epyc-genoa (test_epyc_preset.cpp), icx-8351n-snc2 (test_snc_preset.cpp), and the dialects
    // beyond x86: arm-mpam, riscv-cbqri, xeon-mbregion (test_dialect_presets.cpp)
    EXPECT_EQ(presets().size(), 11u);
    auto skx = decodeFeatures(*presetCpuid("skx-6154"));
    EXPECT_EQ(skx.brand, "Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz");
    EXPECT_EQ(skx.l3.ways, 11u);
    EXPECT_EQ(skx.l3.sets, 36864u);
    EXPECT_EQ(skx.l3.sizeBytes(), 25952256u);
    EXPECT_EQ(skx.l3Cat.cbmLen, 11u);
    EXPECT_EQ(skx.l3Cat.shareableBits, 0x600u);
    EXPECT_EQ(skx.l3Cat.numClos, 16u);
    EXPECT_TRUE(skx.mba.present);
    EXPECT_EQ(skx.mba.maxDelay, 90u);
    EXPECT_EQ(skx.mba.numClos, 8u);
    EXPECT_EQ(skx.mon.l3MaxRmid + 1, 144u);
    EXPECT_EQ(skx.mon.scale, 73728u);
    EXPECT_EQ(skx.mon.counterWidth, 24u);
    auto icx = decodeFeatures(*presetCpuid("icx-8351n"));
    EXPECT_EQ(icx.mon.counterWidth, 32u);
    EXPECT_EQ(icx.l3Cat.numClos, 15u);
    EXPECT_FALSE(icx.l3Cat.cdp);
    auto clx = decodeFeatures(*presetCpuid("clx-5215"));
    EXPECT_EQ(clx.mon.scale, 40960u); // pqos -D on a 5215 (intel-cmt-cat#282)
    EXPECT_EQ(clx.mon.l3MaxRmid + 1, 80u);
    auto bdw = decodeFeatures(*presetCpuid("bdw-6850k"));
    EXPECT_EQ(bdw.l3Cat.cbmLen, 20u);
    EXPECT_TRUE(bdw.l3Cat.cdp);
    EXPECT_FALSE(bdw.mba.present);
    auto hsw = decodeFeatures(*presetCpuid("hsw-2699v3"));
    EXPECT_FALSE(hsw.allocation());
    EXPECT_TRUE(hsw.mon.occupancy);
    EXPECT_FALSE(hsw.mon.mbmTotal);
    auto none = decodeFeatures(*presetCpuid("icx-d1718t"));
    EXPECT_FALSE(none.allocation());
    EXPECT_FALSE(none.mon.present);
    EXPECT_EQ(presetCpuid("xyz").error().code, ENOENT);
}

TEST(SimCpuid, MissingSubleavesAreSynthesizedAndSaidSo)
{
    auto skx = *presetCpuid("skx-6154");
    EXPECT_TRUE(skx.has(0x10, 3));
    ASSERT_FALSE(skx.notes.empty());
    EXPECT_NE(skx.notes[0].find("synthesized"), std::string::npos);
    auto bdw = *presetCpuid("bdw-6850k"); // no MBA enumerated: nothing to synthesize
    EXPECT_FALSE(bdw.has(0x10, 3));
    EXPECT_TRUE(bdw.notes.empty());
    ASSERT_TRUE(applyCpuidOverride(skx, "l2_cat", 8).ok());
    EXPECT_EQ(decodeFeatures(skx).l2Cat.cbmLen, 8u);
    EXPECT_NE(skx.notes.back().find("synthetic override"), std::string::npos);
    EXPECT_EQ(applyCpuidOverride(skx, "bogus", 1).error().code, EINVAL);
    EXPECT_EQ(applyCpuidOverride(skx, "mbm_width", 70).error().code, EINVAL);
    ASSERT_TRUE(applyCpuidOverride(skx, "mbm_width", 32).ok());
    EXPECT_EQ(decodeFeatures(skx).mon.counterWidth, 32u);
    auto bdw2 = *presetCpuid("bdw-6850k");
    EXPECT_EQ(applyCpuidOverride(bdw2, "mba_closids", 4).error().code, EINVAL) << "no MBA to edit";
}

TEST(SimCpuid, AnyDumpFileByPath)
{
    // An AIDA64-format dump written from the preset's registers reads back as the same machine.
    auto skx = *presetCpuid("clx-5215");
    const auto path = std::filesystem::temp_directory_path() / "rdtscope-sim-test-dump.txt";
    {
        std::ofstream f(path);
        f << "------[ Logical CPU #0 ]------\n\n";
        for (const auto& [key, r] : skx.leaves()) {
            if (key.first == 0x10 && key.second == 3) continue; // dumps lack it: the loader must synthesize it again
            char line[128];
            std::snprintf(line, sizeof line, "CPUID %08X: %08X-%08X-%08X-%08X [SL %02X]\n", key.first, r.eax, r.ebx,
                r.ecx, r.edx, key.second);
            f << line;
        }
    }
    auto loaded = loadSimCpuid(path.string());
    ASSERT_TRUE(loaded.ok()) << loaded.error().toString();
    EXPECT_EQ(loaded->brand(), skx.brand());
    EXPECT_TRUE(loaded->has(0x10, 3));
    auto a = decodeFeatures(*loaded), b = decodeFeatures(skx);
    EXPECT_EQ(a.l3.sizeBytes(), b.l3.sizeBytes());
    EXPECT_EQ(a.mon.scale, b.mon.scale);
    EXPECT_EQ(a.mba.numClos, b.mba.numClos);
    std::filesystem::remove(path);
    EXPECT_FALSE(loadSimCpuid("/nonexistent/dump.txt").ok());
}

TEST(Workload, SettingsParse)
{
    WorkloadSpec s;
    ASSERT_TRUE(applyWorkloadSetting(s, "ws", "24M").ok());
    EXPECT_EQ(s.workingSet, 24ull << 20);
    ASSERT_TRUE(applyWorkloadSetting(s, "ws", "512KiB").ok());
    EXPECT_EQ(s.workingSet, 512ull << 10);
    ASSERT_TRUE(applyWorkloadSetting(s, "rate", "50M").ok());
    EXPECT_EQ(s.rate, 50e6);
    ASSERT_TRUE(applyWorkloadSetting(s, "pattern", "chase").ok());
    EXPECT_EQ(s.effectiveMlp(), 1.0);
    EXPECT_FALSE(applyWorkloadSetting(s, "ws", "12Q").ok());
    EXPECT_FALSE(applyWorkloadSetting(s, "write", "1.5").ok());
    EXPECT_FALSE(applyWorkloadSetting(s, "pattern", "zigzag").ok());
    EXPECT_FALSE(applyWorkloadSetting(s, "colour", "red").ok());
}

TEST(Workload, GeneratorsEmitOnlySampledLines)
{
    for (Pattern p : { Pattern::Stream, Pattern::Random, Pattern::Chase, Pattern::Mix }) {
        WorkloadSpec s = spec(p, 1 << 20);
        AddressGenerator g(s, 1ull << 38, 64, 7);
        std::set<std::uint64_t> seen;
        bool code = false;
        for (int i = 0; i < 4096; ++i) {
            std::uint64_t a = 0;
            AccessKind k = AccessKind::Load;
            g.next(a, k);
            EXPECT_EQ((a >> 6) % 64, 0u) << patternName(p);
            code |= k == AccessKind::Code;
            if (k != AccessKind::Code) seen.insert(a);
        }
        EXPECT_EQ(code, p == Pattern::Mix);
        if (p != Pattern::Mix) {
            EXPECT_EQ(seen.size(), (1u << 20) / 64 / 64) << patternName(p) << " covers its working set";
        }
    }
}
