// SPDX-License-Identifier: GPL-3.0-or-later
// Output paths are user input: a session is written only to a regular file, never over a FIFO, a device, a
// directory or a symbolic link (--force or not), and never over a session another recorder is still writing.
#include "CliRun.h"
#include "session/SessionFileClaim.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace fs = std::filesystem;
using rdt::session::SessionFileClaim;

namespace {

class OutputPaths : public ::testing::Test {
protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/rdtscope-outpaths-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
    }
    void TearDown() override { fs::remove_all(dir); }
    std::string path(const char* name) const { return (dir / name).string(); }
    fs::path dir;
};

std::string readAll(const std::string& p)
{
    std::ifstream in(p);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

/// The first 100 bytes of an SQLite file with rdtscope's application_id (what the output rule looks at).
std::string fakeSessionHeader()
{
    std::string h("SQLite format 3\0", 16);
    h.resize(100, '\0');
    h[68] = 'R', h[69] = 'D', h[70] = 'T', h[71] = 'S';
    return h;
}

} // namespace

TEST_F(OutputPaths, RecordForceOntoFifoRefusesAndLeavesTheFifo)
{
    const std::string fifo = path("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const CliRun r = runCli("record -o " + fifo + " --force --source sim --duration 1", 30);
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("is a FIFO"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(OutputPaths, ForceOntoCharacterDeviceRefusesAndLeavesTheDevice)
{
    const std::string dev = path("null");
    // A private copy of /dev/null (1:3) needs CAP_MKNOD; without it the rule is shown on /dev/null itself, which
    // a process without that capability could not replace anyway.
    const std::string target = ::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0 ? dev : "/dev/null";
    auto claim = SessionFileClaim::take(target, true);
    ASSERT_FALSE(claim);
    EXPECT_NE(claim.error().message.find("is a character device"), std::string::npos) << claim.error().message;
    struct stat st { };
    ASSERT_EQ(::lstat(target.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    const CliRun r = runCli("record -o " + target + " --force --source sim --duration 1", 30);
    EXPECT_NE(r.exitCode, 0) << r.output;
    ASSERT_EQ(::lstat(target.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(OutputPaths, DirectoryAndSymlinkAreRefused)
{
    const std::string sub = path("sub");
    fs::create_directory(sub);
    auto onDir = SessionFileClaim::take(sub, true);
    ASSERT_FALSE(onDir);
    EXPECT_NE(onDir.error().message.find("is a directory"), std::string::npos);

    const std::string victim = path("victim.txt");
    std::ofstream(victim) << "keep me";
    const std::string link = path("link.rdts");
    fs::create_symlink(victim, link);
    auto onLink = SessionFileClaim::take(link, true);
    ASSERT_FALSE(onLink);
    EXPECT_NE(onLink.error().message.find("is a symbolic link"), std::string::npos);
    EXPECT_EQ(readAll(victim), "keep me");
    EXPECT_TRUE(fs::is_symlink(link));
}

TEST_F(OutputPaths, ExistingFileNeedsForceAndForceReplacesOnlyASession)
{
    const std::string file = path("old.rdts");
    std::ofstream(file) << "old";
    auto claim = SessionFileClaim::take(file, false);
    ASSERT_FALSE(claim);
    EXPECT_NE(claim.error().message.find("will not overwrite"), std::string::npos);
    EXPECT_EQ(readAll(file), "old");
    auto forced = SessionFileClaim::take(file, true);
    ASSERT_FALSE(forced);
    EXPECT_NE(forced.error().message.find("is not a session file"), std::string::npos) << forced.error().message;
    EXPECT_EQ(readAll(file), "old");

    // A session is replaced, but only when the new one is complete: it is written beside the old one.
    std::ofstream(file, std::ios::trunc) << fakeSessionHeader();
    auto replacing = SessionFileClaim::take(file, true);
    ASSERT_TRUE(replacing) << replacing.error().toString();
    EXPECT_TRUE(replacing->replacing());
    EXPECT_NE(replacing->writePath(), file);
    EXPECT_EQ(readAll(file), fakeSessionHeader());
    const std::string beside = replacing->writePath();
    std::ofstream(beside, std::ios::trunc) << "the new session";
    ASSERT_TRUE(replacing->commit().ok());
    EXPECT_EQ(readAll(file), "the new session");
    EXPECT_FALSE(fs::exists(beside));
    EXPECT_FALSE(replacing->replacing());
}

TEST_F(OutputPaths, SecondWriterIsRefusedWhileTheFirstHoldsTheFile)
{
    const std::string file = path("live.rdts");
    auto first = SessionFileClaim::take(file, false);
    ASSERT_TRUE(first) << first.error().toString();
    std::ofstream(file, std::ios::app) << fakeSessionHeader();
    auto second = SessionFileClaim::take(file, true);
    ASSERT_FALSE(second);
    EXPECT_NE(second.error().message.find("another rdtscope is writing"), std::string::npos);
    EXPECT_EQ(readAll(file), fakeSessionHeader());

    *first = SessionFileClaim(); // the first recorder ends
    auto third = SessionFileClaim::take(file, true);
    EXPECT_TRUE(third) << third.error().toString();
}

TEST_F(OutputPaths, SecondRecorderProcessIsRefused)
{
    const std::string file = path("shared.rdts");
    auto first = SessionFileClaim::take(file, false); // this process plays the first recorder
    ASSERT_TRUE(first) << first.error().toString();
    const CliRun r = runCli("record -o " + file + " --force --source sim --duration 1", 30);
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("another rdtscope is writing"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(file));
}

TEST(OutputErrors, FullDiskOnStdoutIsAFailure)
{
    // stderr still reaches the test; stdout goes to /dev/full, where every write fails with ENOSPC.
    const CliRun r = runCli("monitor --source sim --duration 1 --csv >/dev/full", 60);
    EXPECT_EQ(r.exitCode, 1) << r.output;
    EXPECT_NE(r.output.find("cannot write the output"), std::string::npos) << r.output;
}

TEST(InputBounds, EndlessOrSpecialInputFilesAreRefusedAtOnce)
{
    for (const char* args : { "info --cpuid-dump /dev/zero", "sim --scenario /dev/zero --seconds 1" }) {
        const CliRun r = runCli(args, 20);
        EXPECT_EQ(r.exitCode, 1) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("is not a regular file"), std::string::npos) << args << "\n" << r.output;
    }
}
