// SPDX-License-Identifier: GPL-3.0-or-later
// rdtscope-cli report / import on the fixtures: the done-when (propeller's hot functions and edges with
// perf's counts), exit codes, and clear errors on damaged input.

#include "PerfOracle.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sys/wait.h>

using rdt::perfdata::test::dataPath;
using rdt::perfdata::test::run;

#ifdef RDTSCOPE_CLI

namespace {

std::string cli(const std::string& args, int* exitCode)
{
    int status = -1;
    auto out = run(std::string("'") + RDTSCOPE_CLI + "' " + args + " 2>&1", &status);
    *exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

} // namespace

TEST(PerfdataCli, ReportLbrNamesHotFunctionsAndEdgesWithPerfsCounts)
{
    int rc = -1;
    const auto out = cli("report '" + dataPath("propeller_sample_1.perfdata") + "' --lbr --symfs '"
            + std::string(RDTSCOPE_TEST_DATA) + "/perf'",
        &rc);
    EXPECT_EQ(rc, 0) << out;
    // Counts perf 6.1 gives for this file: `perf report --sort symbol -n` (1901 main, 1832 compute_flag) and
    // `perf report -b -n` summed per symbol pair (72413, 15930, 15658, 15418).
    EXPECT_NE(out.find("1901       1901  main"), std::string::npos) << out;
    EXPECT_NE(out.find("1832       1832  compute_flag"), std::string::npos) << out;
    EXPECT_NE(out.find("72413"), std::string::npos);
    EXPECT_NE(out.find("main -> main"), std::string::npos);
    EXPECT_NE(out.find("15930"), std::string::npos);
    EXPECT_NE(out.find("main -> compute_flag"), std::string::npos);
    EXPECT_NE(out.find("15658"), std::string::npos);
    EXPECT_NE(out.find("15418"), std::string::npos);
}

TEST(PerfdataCli, ReportMemAndExitCodes)
{
    int rc = -1;
    auto out = cli("report '" + dataPath("perf.data.weight_struct") + "' --mem", &rc);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("Load latency: 14 samples"), std::string::npos) << out;
    EXPECT_NE(out.find("LFB"), std::string::npos);
    out = cli("report '" + dataPath("perf.data.weight_struct") + "' --lbr", &rc);
    EXPECT_EQ(rc, 1);
    EXPECT_NE(out.find("no branch-stack samples"), std::string::npos) << out;
    out = cli("report '" + dataPath("perf.lbr.data") + "' --mem", &rc);
    EXPECT_EQ(rc, 1);
    out = cli("report '" + dataPath("perf.lbr.data") + "'", &rc);
    EXPECT_EQ(rc, 2);
    out = cli("report /nonexistent.data --lbr", &rc);
    EXPECT_EQ(rc, 1);
    EXPECT_NE(out.find("No such file"), std::string::npos) << out;
}

TEST(PerfdataCli, DamagedFilesGiveClearErrors)
{
    const std::string bad = ::testing::TempDir() + "/not-perf.data";
    std::ofstream(bad) << "this is not a perf.data file, just text that is long enough to look like a header";
    int rc = -1;
    auto out = cli("import '" + bad + "'", &rc);
    EXPECT_EQ(rc, 1);
    EXPECT_NE(out.find("not a readable perf.data file"), std::string::npos) << out;
    // A file cut in the middle of its data section still shows what is there and says so, but records were lost:
    // exit 1 (it used to be 0), unless --salvage accepts what was readable. The same rule for report.
    const std::string cut = ::testing::TempDir() + "/cut.perfdata";
    {
        std::ifstream in(dataPath("propeller_sample_1.perfdata"), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, 1500000);
    }
    out = cli("import '" + cut + "'", &rc);
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("truncated"), std::string::npos) << out;
    EXPECT_NE(out.find("is damaged: the file is cut short"), std::string::npos) << out;
    EXPECT_NE(out.find("top symbols"), std::string::npos) << "what was readable is still shown: " << out;
    out = cli("import '" + cut + "' --salvage", &rc);
    EXPECT_EQ(rc, 0) << out;
    out = cli("report '" + cut + "' --lbr", &rc);
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("feature index truncated"), std::string::npos)
        << "report omits import's header warnings: " << out;
    out = cli("report '" + cut + "' --lbr --salvage", &rc);
    EXPECT_EQ(rc, 0) << out;
    // A whole file is not damaged.
    out = cli("import '" + dataPath("propeller_sample_1.perfdata") + "'", &rc);
    EXPECT_EQ(rc, 0) << out;
}

TEST(PerfdataCli, ImportWritesASession)
{
    const std::string session = ::testing::TempDir() + "/cli.rdts";
    int rc = -1;
    auto out = cli("import '" + dataPath("perf.lbr.data") + "' --symfs '" + std::string(RDTSCOPE_TEST_DATA)
            + "/perf' -o '" + session + "' --force",
        &rc);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("LBR: call-stack mode"), std::string::npos) << out;
    EXPECT_NE(out.find("session: "), std::string::npos) << out;
    EXPECT_TRUE(std::ifstream(session).good());
}

#endif
