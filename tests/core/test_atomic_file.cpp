// SPDX-License-Identifier: GPL-3.0-or-later
// core/AtomicFile: the state files' writer. A writer that dies between writing and renaming, or whose rename
// fails, leaves the old file whole and readable (issue #44: writing in place passed every test before).
#include "core/AtomicFile.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rdt;

namespace {

class AtomicFileTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/rdtscope-atomic-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        file = (dir / "state.json").string();
        std::ofstream(file) << oldText;
    }
    void TearDown() override { fs::remove_all(dir); }
    static std::string read(const std::string& p)
    {
        std::ifstream in(p);
        return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
    }
    fs::path dir;
    std::string file;
    const std::string oldText = "{\"version\":1,\"saved\":[1,2,3]}\n";
};

} // namespace

TEST_F(AtomicFileTest, ReplacesTheFile)
{
    ASSERT_TRUE(writeFileAtomically(file, "new\n").ok());
    EXPECT_EQ(read(file), "new\n");
    EXPECT_FALSE(fs::exists(file + ".tmp"));
}

TEST_F(AtomicFileTest, WriterKilledBeforeTheRenameLeavesTheOldFileWhole)
{
    // The child may write 16 KiB; the new text is 1 MiB, so the kernel kills it with SIGXFSZ in the middle of
    // writing, before any rename: what a crash or kill -9 at that moment leaves.
    const std::string newText(1 << 20, 'x');
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_DFL);
        const rlimit limit { 16384, 16384 };
        ::setrlimit(RLIMIT_FSIZE, &limit);
        (void)writeFileAtomically(file, newText);
        ::_exit(0); // not reached when the limit works
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer was not stopped mid-write";
    EXPECT_EQ(WTERMSIG(status), SIGXFSZ);
    EXPECT_EQ(read(file), oldText);
    // The next writer starts over on the leftover temporary file.
    ASSERT_TRUE(writeFileAtomically(file, "after\n").ok());
    EXPECT_EQ(read(file), "after\n");
}

TEST_F(AtomicFileTest, FailingWriteLeavesTheOldFileAndNoTemporary)
{
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN); // write() now fails with EFBIG instead
        const rlimit limit { 16384, 16384 };
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const auto s = writeFileAtomically(file, std::string(1 << 20, 'x'));
        ::_exit(s.ok() ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_EQ(read(file), oldText);
    EXPECT_FALSE(fs::exists(file + ".tmp"));
}

TEST_F(AtomicFileTest, FailingRenameLeavesTheOldFileWhole)
{
    // rename(2) fails with EISDIR/ENOTEMPTY... when the target is a non-empty directory; here the old "file" is a
    // directory holding the state file, which must come through untouched.
    const std::string target = (dir / "statedir").string();
    fs::create_directory(target);
    std::ofstream(target + "/inside") << oldText;
    const auto s = writeFileAtomically(target, "new\n");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("cannot replace"), std::string::npos) << s.error().message;
    EXPECT_EQ(read(target + "/inside"), oldText);
    EXPECT_FALSE(fs::exists(target + ".tmp"));
}
