// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for every `-o` (core/OutputTarget.h) and the writer that follows it (core/OutputFile.h): every
// kind of target, with and without --force, and a writer that fails or dies before it commits.
#include "core/OutputFile.h"
#include "core/OutputTarget.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace rdt;

namespace {

class OutputRuleTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/rdtscope-outrule-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
    }
    void TearDown() override { fs::remove_all(dir); }
    std::string path(const char* name) const { return (dir / name).string(); }
    static void write(const std::string& p, const std::string& text) { std::ofstream(p, std::ios::trunc) << text; }
    static std::string read(const std::string& p)
    {
        std::ifstream in(p);
        return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
    }
    static OutputRule csvRule(bool force, std::vector<std::string> inputs = {})
    {
        OutputRule r;
        r.kind = "CSV export";
        r.isOwnKind = [](std::string_view head, const std::string&) { return headStartsWithLine(head, "a,b"); };
        r.force = force;
        r.inputs = std::move(inputs);
        return r;
    }
    std::vector<std::string> leftovers() const
    {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().find(".tmp-") != std::string::npos)
                out.push_back(e.path().filename().string());
        return out;
    }
    fs::path dir;
};

} // namespace

TEST_F(OutputRuleTest, EveryKindOfTarget)
{
    // One row per target kind: what the rule says without and with --force (the message names the reason).
    const std::string input = path("input.rdts");
    write(input, "the session");
    const std::string hardLink = path("hardlink");
    ASSERT_EQ(::link(input.c_str(), hardLink.c_str()), 0);
    write(path("own.csv"), "a,b\n1,2\n");
    write(path("notes.txt"), "my notes\n");
    write(path("empty"), "");
    ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
    fs::create_directory(path("dir"));
    fs::create_symlink(path("own.csv"), path("link"));
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un addr {};
    addr.sun_family = AF_UNIX;
    const std::string sockPath = path("sock");
    ASSERT_LT(sockPath.size(), sizeof addr.sun_path);
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sockPath.c_str());
    ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);

    struct Row {
        std::string target;
        bool okPlain, okForce;
        const char* reason; ///< in the refusal with --force ("" when allowed)
    };
    const Row rows[] = {
        { path("new.csv"), true, true, "" },
        { path("own.csv"), false, true, "" },
        { path("notes.txt"), false, false, "is not a CSV export" },
        { path("empty"), false, false, "is not a CSV export" },
        { input, false, false, "the command's own input" },
        { hardLink, false, false, "the command's own input" },
        { path("fifo"), false, false, "is a FIFO" },
        { path("dir"), false, false, "is a directory" },
        { path("link"), false, false, "is a symbolic link" },
        { sockPath, false, false, "is a socket" },
        { "/dev/null", false, false, "is a character device" },
        { "", false, false, "an empty output file name" },
    };
    for (const auto& r : rows) {
        SCOPED_TRACE(r.target);
        const auto plain = checkOutputTarget(r.target, csvRule(false, { input }));
        EXPECT_EQ(plain.ok(), r.okPlain);
        const auto forced = checkOutputTarget(r.target, csvRule(true, { input }));
        EXPECT_EQ(forced.ok(), r.okForce);
        if (!forced.ok()) {
            EXPECT_NE(forced.error().message.find(r.reason), std::string::npos) << forced.error().message;
        }
        if (!plain.ok() && r.okForce) {
            EXPECT_NE(plain.error().message.find("will not overwrite"), std::string::npos) << plain.error().message;
        }
    }
    ::close(sock);
    EXPECT_EQ(read(input), "the session");
    EXPECT_EQ(read(path("notes.txt")), "my notes\n");
    EXPECT_TRUE(fs::is_fifo(path("fifo")));
}

TEST_F(OutputRuleTest, CommitRenamesAndAFailureLeavesTheOldFile)
{
    const std::string target = path("out.csv");
    write(target, "a,b\nold\n");
    {
        auto f = OutputFile::create(target, csvRule(true));
        ASSERT_TRUE(f.ok()) << f.error().toString();
        std::fputs("a,b\nnew\n", f->stream());
        // Until commit the old file is what a reader sees.
        EXPECT_EQ(read(target), "a,b\nold\n");
        ASSERT_EQ(leftovers().size(), 1u);
        ASSERT_TRUE(f->commit().ok());
    }
    EXPECT_EQ(read(target), "a,b\nnew\n");
    EXPECT_TRUE(leftovers().empty());
    {
        // Not committed (the command failed): the temporary file goes, the target stays.
        auto f = OutputFile::create(target, csvRule(true));
        ASSERT_TRUE(f.ok());
        std::fputs("a,b\nhalf", f->stream());
    }
    EXPECT_EQ(read(target), "a,b\nnew\n");
    EXPECT_TRUE(leftovers().empty());
}

TEST_F(OutputRuleTest, ATargetCreatedMeanwhileIsNotReplaced)
{
    const std::string target = path("race.csv");
    auto f = OutputFile::create(target, csvRule(false));
    ASSERT_TRUE(f.ok());
    std::fputs("a,b\nmine\n", f->stream());
    write(target, "someone else's\n");
    const auto s = f->commit();
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("will not overwrite"), std::string::npos) << s.error().message;
    EXPECT_EQ(read(target), "someone else's\n");
    EXPECT_TRUE(leftovers().empty());
}

TEST_F(OutputRuleTest, AFullFileSystemLeavesTheOldFileWhole)
{
    // A child limited to fewer bytes than the new text (RLIMIT_FSIZE, SIGXFSZ ignored so write() fails with
    // EFBIG): the write fails, nothing is renamed, the old file is byte-identical.
    const std::string target = path("big.csv");
    const std::string old = "a,b\n" + std::string(1000, 'o') + "\n";
    write(target, old);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit { 4096, 4096 };
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const auto s = writeOutputFile(target, "a,b\n" + std::string(100000, 'n') + "\n", csvRule(true));
        ::_exit(s.ok() ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_EQ(read(target), old);
    EXPECT_TRUE(leftovers().empty());
}

TEST(OutputKinds, HeadsOfOwnFormats)
{
    EXPECT_TRUE(headStartsWithLine("time_s,group\n1,2\n", "time_s,group"));
    EXPECT_TRUE(headStartsWithLine("time_s,group\r\n", "time_s,group"));
    EXPECT_FALSE(headStartsWithLine("time_s,group,extra\n", "time_s,group"));
    EXPECT_FALSE(headStartsWithLine("time_s,group", "time_s,group")); // no line end: not a whole header
    EXPECT_FALSE(headStartsWithLine("", "time_s,group"));
    EXPECT_TRUE(headIsJsonFormat("{\"format\":\"rdtscope-diff\",\"version\":1}", "rdtscope-diff"));
    EXPECT_TRUE(headIsJsonFormat("{\n\"format\": \"rdtscope-session-export\",\n", "rdtscope-session-export"));
    EXPECT_FALSE(headIsJsonFormat("{\"format\":\"rdtscope-diffx\"}", "rdtscope-diff"));
    EXPECT_FALSE(headIsJsonFormat("{\"version\":1,\"format\":\"rdtscope-diff\"}", "rdtscope-diff"));
    EXPECT_FALSE(headIsJsonFormat("[\"format\",\"rdtscope-diff\"]", "rdtscope-diff"));
}
