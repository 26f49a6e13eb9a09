// SPDX-License-Identifier: GPL-3.0-or-later
// Every numeric option of rdtscope-cli rejects NaN, infinities, negative, overflowing and non-numeric values
// with exit 2 (usage) and a message naming the option, at once: before this rule `--duration nan` and
// `--interval 1e-300` hung and `--pid abc` profiled the CLI itself.
#include "CliRun.h"

#include <gtest/gtest.h>

namespace {

struct NumericOption {
    const char* command; ///< the command line up to the option (positionals included)
    const char* option;
};

// A missing session file is fine: each command checks its numbers before it opens anything.
const NumericOption kOptions[] = {
    { "monitor --source sim", "--interval" },
    { "monitor --source sim", "--duration" },
    { "record -o /nonexistent/x.rdts --source sim", "--interval" },
    { "record -o /nonexistent/x.rdts --source sim", "--duration" },
    { "replay /nonexistent.rdts", "--speed" },
    { "replay /nonexistent.rdts", "--from" },
    { "replay /nonexistent.rdts", "--to" },
    { "export /nonexistent.rdts --csv", "--from" },
    { "export /nonexistent.rdts --csv", "--to" },
    { "report /nonexistent.data --lbr", "--top" },
    { "pmu lbr --source sim", "--duration" },
    { "pmu lbr --source sim", "--interval" },
    { "pmu mem --source sim", "--ldlat" },
    { "pmu lbr --source sim", "--top" },
    { "pmu lbr --source sim", "--memory-scale" },
    { "sim", "--seconds" },
    { "sim", "--speed" },
    { "sim", "--cores" },
    { "sim", "--sampling" },
    { "info --cpuid-dump /nonexistent", "--cpu" },
    { "info", "--cpuid-device" },
    { "diff /nonexistent-a.rdts /nonexistent-b.rdts", "--top" },
};

const char* const kBadValues[] = { "nan", "-nan", "inf", "-inf", "-1", "1e400", "abc", "''", "1x", "0x" };

} // namespace

TEST(CliNumbers, EveryNumericOptionRejectsBadValuesWithUsageExit)
{
    int checked = 0;
    for (const auto& o : kOptions)
        for (const char* bad : kBadValues) {
            const std::string args = std::string(o.command) + " " + o.option + " " + bad;
            const CliRun r = runCli(args, 20);
            EXPECT_EQ(r.exitCode, 2) << "rdtscope-cli " << args << "\n" << r.output;
            EXPECT_NE(r.output.find(o.option), std::string::npos)
                << "the message should name " << o.option << ": rdtscope-cli " << args << "\n"
                << r.output;
            ++checked;
        }
    EXPECT_EQ(checked, int(std::size(kOptions) * std::size(kBadValues)));
}

TEST(CliNumbers, TinyIntervalIsRefusedInsteadOfSpinning)
{
    const CliRun r = runCli("monitor --source sim --interval 1e-300 --duration 1", 20);
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find("--interval takes a number from 1 to"), std::string::npos) << r.output;
}

TEST(CliNumbers, PidMustBeAProcessId)
{
    for (const char* bad : { "abc", "-1", "4294967296", "99999999999" }) {
        const CliRun r = runCli(std::string("pmu tma --source perf --pid ") + bad, 20);
        EXPECT_EQ(r.exitCode, 2) << "--pid " << bad << "\n" << r.output;
        EXPECT_NE(r.output.find("--pid"), std::string::npos) << r.output;
    }
}

TEST(CliNumbers, GoodValuesStillWork)
{
    const CliRun r = runCli("monitor --source sim --interval 500 --duration 1 --csv", 60);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("llc_occupancy"), std::string::npos) << r.output;
}
