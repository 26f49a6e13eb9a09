// SPDX-License-Identifier: GPL-3.0-or-later
// What the header says about a recording's branch stacks and binaries: the source of its branch stacks named from
// the attrs, the CPU id, the architecture and the trace events (docs/PMU.md "Branch stack sources"); a binary of
// another architecture refused; a binary matched by path only said so.
#include "perfdata/BranchStackOrigin.h"
#include "perfdata/SymbolSearch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

using namespace rdt;
using namespace rdt::perfdata;
using pmu::BranchStackSource;

namespace {

HeaderInfo header(const std::string& arch, const std::string& cpuId)
{
    HeaderInfo h;
    h.arch = arch;
    h.cpuId = cpuId;
    return h;
}

pmu::EventAttr lbrAttr()
{
    pmu::EventAttr a;
    a.type = 0;
    a.sampleType = pmu::perf::SampleIp | pmu::perf::SampleBranchStack;
    a.branchSampleType = pmu::perf::BranchUser | pmu::perf::BranchAny;
    return a;
}

pmu::MmapRecord execMapping(const std::string& path)
{
    pmu::MmapRecord m;
    m.isMmap2 = true;
    m.prot = 4;
    m.pid = 1;
    m.addr = 0x400000;
    m.len = 0x1000;
    m.filename = path;
    return m;
}

} // namespace

TEST(BranchStackOrigin, NamedFromCpuArchitectureAndTraceEvents)
{
    const auto a = lbrAttr();
    EXPECT_EQ(branchStackSource(a, header("x86_64", "GenuineIntel,6,85,4")), BranchStackSource::IntelLbr); // SKX
    EXPECT_EQ(branchStackSource(a, header("x86_64", "GenuineIntel,6,143,8")), BranchStackSource::IntelArchLbr); // SPR
    EXPECT_EQ(branchStackSource(a, header("x86_64", "GenuineIntel,6,151,2")), BranchStackSource::IntelArchLbr); // ADL
    EXPECT_EQ(branchStackSource(a, header("x86_64", "AuthenticAMD,25,1,1")), BranchStackSource::AmdBrs); // Milan
    EXPECT_EQ(branchStackSource(a, header("x86_64", "AuthenticAMD,25,17,1")), BranchStackSource::AmdLbrV2); // Genoa
    EXPECT_EQ(branchStackSource(a, header("x86_64", "AuthenticAMD,26,2,0")), BranchStackSource::AmdLbrV2); // Zen 5
    EXPECT_EQ(branchStackSource(a, header("aarch64", "0x00000000410fd490")), BranchStackSource::ArmBrbe);
    EXPECT_EQ(branchStackSource(a, header("", "")), BranchStackSource::Unknown);

    // perf inject --itrace keeps the trace event it synthesized the stacks from, by name or by PMU type.
    auto etm = header("aarch64", "0x00000000410fd0c0");
    etm.events.push_back({ {}, "cs_etm/@tmc_etr0/u", {}, {}, 1.0 });
    EXPECT_EQ(branchStackSource(a, etm), BranchStackSource::SynthesizedEtm);
    auto spe = header("aarch64", "0x00000000410fd0c0");
    pmu::EventAttr speAttr;
    speAttr.type = 9;
    spe.events.push_back({ speAttr, "", {}, {}, 1.0 });
    spe.pmuMappings.push_back({ 9, "arm_spe_0" });
    EXPECT_EQ(branchStackSource(a, spe), BranchStackSource::SynthesizedSpe);
    EXPECT_EQ(pmu::branchStackSourceName(BranchStackSource::SynthesizedEtm), "synthesized from CoreSight ETM");
}

TEST(SymbolSearchArch, AnotherArchitecturesRecordingDoesNotTakeThisHostsBinary)
{
    // This host's /bin/sh is an x86-64 (or whatever this machine is) ELF file; an aarch64 recording without
    // build-ids names the same path.
    const std::string path = "/bin/sh";
    const auto hostMachine = SymbolSearch::readElfMachine(path);
    ASSERT_NE(hostMachine, 0u) << "/bin/sh is not ELF here";
    const std::string otherArch = hostMachine == 183 ? "x86_64" : "aarch64";
    SymbolSearch foreign;
    const auto refused = foreign.localMapping(execMapping(path), header(otherArch, ""));
    EXPECT_FALSE(refused.binaryPresent);
    EXPECT_NE(foreign.rejection(path).find(otherArch), std::string::npos) << foreign.rejection(path);

    // The host's own architecture: accepted, and said to be matched by path only (nothing to compare).
    std::string hostArch = hostMachine == 62 ? "x86_64" : (hostMachine == 183 ? "aarch64" : "");
    if (hostArch.empty()) GTEST_SKIP() << "host e_machine " << hostMachine << " has no HEADER_ARCH name in this test";
    SymbolSearch native;
    const auto found = native.localMapping(execMapping(path), header(hostArch, ""));
    EXPECT_TRUE(found.binaryPresent);
    EXPECT_TRUE(native.matchedByPathOnly(path));
    EXPECT_TRUE(native.rejection(path).empty());
}

TEST(SymbolSearchArch, ElfMachineOfArchAndFile)
{
    EXPECT_EQ(SymbolSearch::elfMachineOfArch("x86_64"), 62u);
    EXPECT_EQ(SymbolSearch::elfMachineOfArch("aarch64"), 183u);
    EXPECT_EQ(SymbolSearch::elfMachineOfArch("sparc64"), 0u);
    const std::string notElf = ::testing::TempDir() + "/not-elf";
    std::ofstream(notElf) << "#!/bin/sh\nexit 0\n";
    EXPECT_EQ(SymbolSearch::readElfMachine(notElf), 0u);
    EXPECT_EQ(SymbolSearch::readElfMachine(::testing::TempDir() + "/does-not-exist"), 0u);
    // A big-endian header (EI_DATA 2) reads its e_machine big-endian.
    std::vector<char> h(64, 0);
    h[0] = 0x7f, h[1] = 'E', h[2] = 'L', h[3] = 'F', h[4] = 2, h[5] = 2, h[18] = 0, h[19] = 22; // s390
    const std::string be = ::testing::TempDir() + "/be-elf";
    std::ofstream(be, std::ios::binary).write(h.data(), static_cast<std::streamsize>(h.size()));
    EXPECT_EQ(SymbolSearch::readElfMachine(be), 22u);
}
