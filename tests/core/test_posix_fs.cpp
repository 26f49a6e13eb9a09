// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/FsPath.h"
#include "core/PosixFs.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sys/stat.h>

using namespace rdt;
namespace fs = std::filesystem;

TEST(PosixFs, ReadWriteListMkdirRmdir)
{
    const fs::path root = fs::temp_directory_path() / ("rdtscope-posixfs-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "info/L3");
    PosixFs f(root.string() + "/");
    ASSERT_TRUE(f.mkdir("p0").ok());
    EXPECT_TRUE(f.isDirectory("p0"));
    {
        std::FILE* fp = std::fopen((root / "p0/schemata").c_str(), "w");
        ASSERT_NE(fp, nullptr);
        std::fclose(fp);
    }
    ASSERT_TRUE(f.write("p0/schemata", "L3:0=ff\n").ok());
    auto r = f.read("p0/schemata");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, "L3:0=ff\n");
    auto names = f.list(".");
    ASSERT_TRUE(names.ok());
    EXPECT_EQ(*names, (std::vector<std::string> { "info", "p0" }));
    auto missing = f.read("nope");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    EXPECT_TRUE(f.lock(true).ok());
    f.unlock();
    fs::remove(root / "p0/schemata");
    EXPECT_TRUE(f.rmdir("p0").ok());
    EXPECT_FALSE(f.exists("p0"));
    fs::remove_all(root);
}

namespace {

/// A temp dir holding a tree ("tree/") and, beside it, a sentinel file and directory nothing may touch.
class Confinement : public ::testing::TestWithParam<BeneathResolution> {
protected:
    void SetUp() override
    {
        char templ[] = "/tmp/rdtscope-confine-XXXXXX";
        m_dir = ::mkdtemp(templ);
        fs::create_directories(tree() / "p0");
        fs::create_directories(outside() / "victim");
        std::ofstream(tree() / "schemata") << "L3:0=ff\n";
        std::ofstream(tree() / "p0/schemata") << "L3:0=f\n";
        std::ofstream(outside() / "sentinel") << "untouched\n";
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path tree() const { return m_dir / "tree"; }
    fs::path outside() const { return m_dir / "outside"; }
    /// Everything outside the tree, as path -> content ("<dir>" for directories).
    std::map<std::string, std::string> outsideState() const
    {
        std::map<std::string, std::string> out;
        for (const auto& e : fs::recursive_directory_iterator(outside())) {
            std::ifstream in(e.path());
            out[e.path().string()] = e.is_directory() ? "<dir>" : std::string(std::istreambuf_iterator<char>(in), {});
        }
        return out;
    }

    fs::path m_dir;
};

} // namespace

TEST_P(Confinement, HostilePathsTouchNothingOutside)
{
    PosixFs f(tree().string(), GetParam());
    const auto before = outsideState();
    // Links a copied tree could contain: to a directory outside, to a file outside, dangling, a loop.
    fs::create_directory_symlink(outside() / "victim", tree() / "escape");
    fs::create_symlink(outside() / "sentinel", tree() / "p0/tasks");
    fs::create_symlink(tree() / "loop", tree() / "loop");
    const std::string hostile[] = { "../outside/sentinel", "../outside/victim", "/tmp", "p0/../../outside/sentinel",
        "p0//schemata", "p0/", "./p0", "p0/.", "p0\nschemata", "escape/x", "escape/sentinel", "p0/tasks", "loop",
        "loop/schemata", std::string("p0\0x", 4) };
    for (const auto& p : hostile) {
        EXPECT_FALSE(f.write(p, "pwned\n").ok()) << p;
        EXPECT_FALSE(f.read(p).ok()) << p;
        EXPECT_FALSE(f.mkdir(p + "/x").ok()) << p;
        EXPECT_FALSE(f.mkdir(p).ok()) << p;
        EXPECT_FALSE(f.rmdir(p).ok()) << p;
        EXPECT_FALSE(f.isDirectory(p)) << p;
        EXPECT_FALSE(f.openForPolling(p).ok()) << p;
    }
    EXPECT_FALSE(f.list("escape").ok());
    EXPECT_FALSE(f.list("..").ok());
    EXPECT_FALSE(f.rmdir("escape").ok()) << "rmdir never follows a link";
    EXPECT_EQ(outsideState(), before) << "nothing outside the tree changed";
    EXPECT_TRUE(fs::is_symlink(tree() / "escape"));
    auto why = f.read("escape/sentinel");
    ASSERT_FALSE(why.ok());
    EXPECT_EQ(why.error().code, ELOOP);
    EXPECT_NE(why.error().message.find("symbolic link"), std::string::npos) << why.error().message;
    auto dots = f.write("../outside/sentinel", "x");
    ASSERT_FALSE(dots.ok());
    EXPECT_NE(dots.error().message.find("'..' components are not allowed"), std::string::npos);
    // The ordinary paths still work.
    EXPECT_TRUE(f.write("p0/schemata", "L3:0=3\n").ok());
    EXPECT_EQ(*f.read("p0/schemata"), "L3:0=3\n");
}

TEST_P(Confinement, SpecialFilesAreRefusedWithoutBlocking)
{
    PosixFs f(tree().string(), GetParam());
    ASSERT_EQ(::mkfifo((tree() / "p0/cpus_list").c_str(), 0644), 0);
    fs::create_symlink("/dev/zero", tree() / "p0/mode");
    fs::create_directory(tree() / "p0/size"); // a directory where a file is expected
    auto fifo = f.read("p0/cpus_list");
    ASSERT_FALSE(fifo.ok());
    EXPECT_NE(fifo.error().message.find("is a FIFO, not a regular file"), std::string::npos) << fifo.error().message;
    EXPECT_FALSE(f.write("p0/cpus_list", "1\n").ok());
    EXPECT_FALSE(f.openForPolling("p0/cpus_list").ok());
    auto zero = f.read("p0/mode");
    ASSERT_FALSE(zero.ok());
    EXPECT_EQ(zero.error().code, ELOOP);
    auto dir = f.read("p0/size");
    ASSERT_FALSE(dir.ok());
    EXPECT_EQ(dir.error().code, EISDIR);
    EXPECT_TRUE(f.exists("p0/mode")) << "a link exists, it is just never followed";
    EXPECT_FALSE(f.isDirectory("p0/mode"));
}

TEST_P(Confinement, ReadsAreBounded)
{
    PosixFs f(tree().string(), GetParam());
    {
        std::ofstream big(tree() / "p0/schemata", std::ios::trunc);
        big << std::string(readLimitFor("schemata") + 1, 'f');
    }
    auto r = f.read("p0/schemata");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, EFBIG);
    {
        std::ofstream exact(tree() / "p0/schemata", std::ios::trunc);
        exact << std::string(readLimitFor("schemata"), 'f');
    }
    EXPECT_TRUE(f.read("p0/schemata").ok());
    EXPECT_GT(readLimitFor("tasks"), 4194304u * 7) << "a tasks file may list every PID";
}

INSTANTIATE_TEST_SUITE_P(PosixFs, Confinement,
    ::testing::Values(BeneathResolution::Automatic, BeneathResolution::ComponentWalk),
    [](const auto& test) { return test.param == BeneathResolution::Automatic ? "Openat2" : "ComponentWalk"; });

TEST(FsPath, SplitBeneathTable)
{
    EXPECT_TRUE(splitBeneath("")->empty());
    EXPECT_TRUE(splitBeneath(".")->empty());
    EXPECT_EQ(*splitBeneath("p0/mon_groups/m1"), (std::vector<std::string> { "p0", "mon_groups", "m1" }));
    for (const char* bad : { "/", "/abs", "a//b", "a/", "..", "a/..", "./a", "a/./b", "a\nb", "a\tb", "a\x7f" })
        EXPECT_FALSE(splitBeneath(bad).ok()) << bad;
    EXPECT_FALSE(splitBeneath(std::string(256, 'a')).ok()) << "longer than NAME_MAX";
    EXPECT_TRUE(splitBeneath(std::string(255, 'a')).ok());
}
