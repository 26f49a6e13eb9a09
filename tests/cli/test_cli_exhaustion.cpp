// SPDX-License-Identifier: GPL-3.0-or-later
// Resource exhaustion is an error with a message, never a signal: `record` under a file size limit (the same
// EFBIG path a full disk takes with ENOSPC) at session creation and part-way through a recording.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

class Exhaustion : public ::testing::Test {
protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/rdtscope-exhaustion-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
    }
    void TearDown() override { fs::remove_all(dir); }
    std::string path(const char* name) const { return (dir / name).string(); }
    fs::path dir;
};

/// `ulimit -f` in /bin/sh counts 512-byte blocks (POSIX); the CLI runs in that shell's child.
CliRun runUnderFileLimit(int blocks, const std::string& args)
{
    return runCli(args, 60, "ulimit -f " + std::to_string(blocks) + "; ");
}

} // namespace

TEST_F(Exhaustion, FileSizeLimitAtCreationFailsWithAMessageAndLeavesNothing)
{
    const auto out = path("created.rdts");
    auto r = runUnderFileLimit(8, "record --source sim --duration 1 -o " + out);
    EXPECT_EQ(r.exitCode, 1) << r.output; // 153 (128 + SIGXFSZ) or a crash before
    EXPECT_NE(r.output.find("ulimit -f"), std::string::npos) << r.output;
    for (const char* suffix : { "", "-wal", "-shm" })
        EXPECT_FALSE(fs::exists(out + suffix)) << out << suffix;
}

TEST_F(Exhaustion, FileSizeLimitMidRecordingKeepsWhatWasCommitted)
{
    const auto out = path("partial.rdts");
    auto r = runUnderFileLimit(400, "record --source sim --duration 60 -o " + out);
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("recording stopped"), std::string::npos) << r.output;
    ASSERT_TRUE(fs::exists(out));
    auto summary = runCli("summary " + out);
    EXPECT_EQ(summary.exitCode, 0) << summary.output;
    EXPECT_NE(summary.output.find("not closed cleanly"), std::string::npos) << summary.output;
}
