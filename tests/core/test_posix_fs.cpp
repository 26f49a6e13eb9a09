// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/PosixFs.h"

#include <cerrno>
#include <filesystem>
#include <gtest/gtest.h>

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
