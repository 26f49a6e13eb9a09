// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile and mangled resctrl trees: every backend operation returns a clear error or works, never crashes,
// blocks or reads without bound, and nothing outside the tree is created, removed or written.
#include "TestTree.h"
#include "rdt/AllocationEngine.h"
#include "rdt/ResctrlBackend.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <sys/stat.h>

using namespace rdt;
using rdt::test::TempTree;
namespace stdfs = std::filesystem;

namespace {

struct Mangling {
    const char* name;
    std::function<void(const stdfs::path& root)> apply;
    const char* said; ///< text the warnings or errors must contain
};

void replaceWith(const stdfs::path& p, const std::function<void(const stdfs::path&)>& make)
{
    stdfs::remove_all(p);
    make(p);
}

void writeBytes(const stdfs::path& p, const std::string& bytes)
{
    std::ofstream(p, std::ios::trunc | std::ios::binary) << bytes;
}

/// Everything in `dir` except the tree itself: path -> content ("<dir>" for directories).
std::map<std::string, std::string> outside(const std::string& dir, const std::string& tree)
{
    std::map<std::string, std::string> out;
    for (auto it = stdfs::recursive_directory_iterator(dir); it != stdfs::recursive_directory_iterator(); ++it) {
        if (it->path() == tree) {
            it.disable_recursion_pending();
            continue;
        }
        std::ifstream in(it->path());
        out[it->path().string()] = it->is_directory() ? "<dir>" : std::string(std::istreambuf_iterator<char>(in), {});
    }
    return out;
}

const std::string kGarbage = std::string("\x01\xff\x1b[2J\nL3:0=\x80\x81;1=zz\r\n:::\n=\n", 27) + std::string(64, '\0');

const Mangling kManglings[] = {
    { "empty root schemata", [](const stdfs::path& r) { writeBytes(r / "schemata", ""); }, "no L3 line" },
    { "root schemata without the L3 line size lists",
        [](const stdfs::path& r) { writeBytes(r / "schemata", "MB:0=100;1=100;2=100;3=100\n"); }, "no L3 line" },
    { "CRLF schemata",
        [](const stdfs::path& r) {
            writeBytes(r / "schemata", "L3:0=fffff;1=fffff;2=fffff;3=fffff\r\nMB:0=100;1=100;2=100;3=100\r\n");
            writeBytes(r / "Guaranteed/schemata", "L3:0=ff;1=ff;2=ff;3=ff\r\nMB:0=100;1=100;2=100;3=100\r\n");
        },
        "" },
    { "garbage schemata",
        [](const stdfs::path& r) {
            writeBytes(r / "schemata", kGarbage);
            writeBytes(r / "Guaranteed/schemata", kGarbage);
        },
        "unreadable as schemata" },
    { "schemata as a directory",
        [](const stdfs::path& r) {
            replaceWith(r / "schemata", [](const stdfs::path& p) { stdfs::create_directory(p); });
            replaceWith(r / "Guaranteed/schemata", [](const stdfs::path& p) { stdfs::create_directory(p); });
        },
        "is a directory" },
    { "symlink loops",
        [](const stdfs::path& r) {
            replaceWith(r / "Guaranteed", [](const stdfs::path& p) { stdfs::create_symlink(p.filename(), p); });
            stdfs::create_symlink("loop2", r / "info/L3/loop1");
            stdfs::create_symlink("loop1", r / "info/L3/loop2");
            replaceWith(r / "info/L3/num_closids", [](const stdfs::path& p) { stdfs::create_symlink(p, p); });
        },
        "no group 'Guaranteed'" },
    { "FIFOs where files are",
        [](const stdfs::path& r) {
            for (const char* f : { "Guaranteed/schemata", "mon_data/mon_L3_00/llc_occupancy", "info/L3/cbm_mask",
                     "Guaranteed/cpus_list", "Guaranteed/tasks" })
                replaceWith(r / f, [](const stdfs::path& p) { ASSERT_EQ(::mkfifo(p.c_str(), 0644), 0); });
        },
        "is a FIFO" },
    { "links to /dev/zero",
        [](const stdfs::path& r) {
            for (const char* f : { "Guaranteed/schemata", "mon_data/mon_L3_01/mbm_total_bytes", "info/MB/min_bandwidth",
                     "Guaranteed/tasks", "cpus_list" })
                replaceWith(r / f, [](const stdfs::path& p) { stdfs::create_symlink("/dev/zero", p); });
        },
        "symbolic link" },
    { "group linked outside the tree",
        [](const stdfs::path& r) {
            replaceWith(r / "Guaranteed",
                [&](const stdfs::path& p) { stdfs::create_directory_symlink(r.parent_path() / "outside", p); });
        },
        "no group 'Guaranteed'" },
};

} // namespace

TEST(ResctrlRobustness, MangledTreesNeverCrashBlockOrEscape)
{
    int runs = 0;
    for (const auto& m : kManglings) {
        SCOPED_TRACE(m.name);
        TempTree t("resctrl.full");
        stdfs::create_directories(t.dir() + "/outside/Guaranteed");
        std::ofstream(t.dir() + "/outside/sentinel") << "untouched\n";
        std::ofstream(t.dir() + "/outside/Guaranteed/schemata") << "L3:0=1\n";
        m.apply(t.root());
        const auto before = outside(t.dir(), t.root());

        auto opened = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
        ASSERT_TRUE(opened.ok()) << opened.error().toString();
        auto& b = **opened;
        std::string said;
        for (const auto& w : b.warnings())
            said += w + "\n";
        auto note = [&](const auto& r) {
            if (!r) said += r.error().toString() + "\n";
            ++runs;
        };
        auto caps = b.capabilities();
        note(caps);
        auto groups = b.listGroups();
        note(groups);
        std::vector<std::string> paths { "", "Guaranteed" };
        if (groups)
            for (const auto& g : *groups)
                paths.push_back(g.path);
        for (const auto& p : paths) {
            note(b.readSchemata(p));
            note(b.tasks(p));
            note(b.cpus(p));
            note(b.readCounters(p));
        }
        AllocationEngine engine(b);
        auto applied = engine.apply({ "Guaranteed", *Schemata::parseStrict("L3:0=f"), "test" });
        if (!applied.ok) said += applied.error.toString() + "\n";
        note(b.createControlGroup("pX"));
        note(b.removeGroup("pX"));
        for (const char* hostile : { "../outside", "../outside/Guaranteed", "../../tmp/x", "/tmp" }) {
            EXPECT_FALSE(b.removeGroup(hostile).ok()) << hostile;
            EXPECT_FALSE(b.createControlGroup(hostile).ok()) << hostile;
            EXPECT_FALSE(engine.apply({ hostile, *Schemata::parseStrict("L3:0=f"), "test" }).ok) << hostile;
        }
        EXPECT_NE(said.find(m.said), std::string::npos) << said;
        EXPECT_EQ(said.find('\x1b'), std::string::npos) << "no raw bytes from the tree in messages";
        EXPECT_EQ(outside(t.dir(), t.root()), before) << "nothing outside the tree changed";
    }
    EXPECT_GT(runs, 100);
}

TEST(ResctrlRobustness, HostileGroupPathsAreRefusedBeforeAnyFileIsTouched)
{
    TempTree t("resctrl.full");
    std::ofstream(t.dir() + "/sentinel") << "untouched\n";
    stdfs::create_directories(t.dir() + "/x");
    auto b = ResctrlBackend::open(std::make_shared<PosixFs>(t.root()));
    ASSERT_TRUE(b.ok());
    const auto before = outside(t.dir(), t.root());
    for (const std::string p : { "../x", "../../tmp/x", "..", "../..", "/tmp/x", "Guaranteed/../../x", "Guaranteed/",
             "a\nb", "default", "Guaranteed/mon_groups/../../x" }) {
        auto del = (*b)->removeGroup(p);
        ASSERT_FALSE(del.ok()) << p;
        EXPECT_EQ(del.error().code, EINVAL) << p << ": " << del.error().toString();
        EXPECT_FALSE((*b)->createControlGroup(p).ok()) << p;
        EXPECT_FALSE((*b)->createMonitorGroup("", p).ok()) << p;
        EXPECT_FALSE((*b)->createMonitorGroup(p, "m").ok()) << p;
        EXPECT_FALSE((*b)->assignCpus(p, { 1 }).ok()) << p;
        EXPECT_FALSE((*b)->applySchemata(p, *Schemata::parseStrict("L3:0=f")).ok()) << p;
        EXPECT_FALSE((*b)->readSchemata(p).ok()) << p;
    }
    EXPECT_EQ(outside(t.dir(), t.root()), before);
    auto def = (*b)->createControlGroup("default");
    ASSERT_FALSE(def.ok());
    EXPECT_NE(def.error().message.find("names the root group"), std::string::npos);
    EXPECT_FALSE(stdfs::exists(t.root() + "/default"));
}
