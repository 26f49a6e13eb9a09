// SPDX-License-Identifier: GPL-3.0-or-later
// One conformance suite, three targets: every check of capture/selftest (the checks `rdtscope-cli selftest` runs,
// each citing its resctrl.rst or SDM section) runs through rdtscope's unmodified ResctrlBackend against (a) the
// emulated kernel through the Fs seam, (b) the same emulation mounted through FUSE and reached with real system
// calls (PosixFs), and (c) a real /sys/fs/resctrl when one is mounted; (c) only writes when
// RDTSCOPE_CONFORMANCE_WRITE=1, since its groups are the machine's. On the simulated targets every check must pass
// (their streamers are simulated threads); on the real one none may fail. Also here: a simulated processor that
// ignores CAT masks fails the fence check, and a tree saved with AnonymisedTreeCopy opens again.
#include "FuseTestUtil.h"

#include "core/PosixFs.h"
#include "engine/SelftestSimMachine.h"
#include "rdt/ResctrlBackend.h"
#include "selftest/AnonymisedTreeCopy.h"
#include "selftest/ResctrlSelftest.h"
#include "selftest/StreamerProcess.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <tuple>

using namespace rdt;
using namespace rdt::selftest;
using namespace rdt::simfs;
using namespace rdt::simfs::test;

namespace {

enum class Target { Emulated, Mounted, Real };

const char* targetName(Target t)
{
    return t == Target::Emulated ? "Emulated" : t == Target::Mounted ? "Mounted" : "Real";
}

using Param = std::tuple<Target, std::string>;

std::string paramName(const ::testing::TestParamInfo<Param>& p)
{
    std::string check = std::get<1>(p.param);
    for (char& c : check)
        if (c == '-') c = '_';
    return std::string(targetName(std::get<0>(p.param))) + "_" + check;
}

/// The FUSE mount reached through PosixFs, except for the one question PosixFs answers from the host's /proc: whether
/// a task exists. The mounted machine's tasks are its simulated streamer threads, which the host does not have, so
/// the simulated machine answers (what `taskExists` means: a task of the kernel behind the Fs, core/Fs.h).
class MountedSimulatedFs final : public Fs {
public:
    MountedSimulatedFs(std::string dir, std::shared_ptr<SelftestSimMachine> machine)
        : m_posix(std::move(dir))
        , m_machine(std::move(machine))
    { }
    Result<std::string> read(const std::string& p) override { return m_posix.read(p); }
    Status write(const std::string& p, const std::string& d) override { return m_posix.write(p, d); }
    Status mkdir(const std::string& p) override { return m_posix.mkdir(p); }
    Status rmdir(const std::string& p) override { return m_posix.rmdir(p); }
    Result<std::vector<std::string>> list(const std::string& p) override { return m_posix.list(p); }
    bool exists(const std::string& p) override { return m_posix.exists(p); }
    bool isDirectory(const std::string& p) override { return m_posix.isDirectory(p); }
    Result<UniqueFd> openForPolling(const std::string& p) override { return m_posix.openForPolling(p); }
    bool taskExists(unsigned pid) override { return m_machine->hasTask(pid); }
    Status lock(bool exclusive) override { return m_posix.lock(exclusive); }
    void unlock() override { m_posix.unlock(); }
    std::string describe() const override { return m_posix.describe(); }

private:
    PosixFs m_posix;
    std::shared_ptr<SelftestSimMachine> m_machine;
};

/// One target of the suite, set up as its SetUp says: the Fs the checks run through and the streamers they use.
class ResctrlConformance : public ::testing::TestWithParam<Param> {
protected:
    void SetUp() override
    {
        const Target target = std::get<0>(GetParam());
        if (target == Target::Real) {
            struct stat st { };
            if (::stat("/sys/fs/resctrl/info", &st) != 0) GTEST_SKIP() << "no resctrl mounted at /sys/fs/resctrl";
            write = std::getenv("RDTSCOPE_CONFORMANCE_WRITE") != nullptr;
            fs = std::make_shared<PosixFs>("/sys/fs/resctrl");
            streamer = std::make_unique<StreamerProcess>();
            workload = streamer.get();
            return;
        }
        write = true;
        auto m = SelftestSimMachine::create({});
        ASSERT_TRUE(m.ok()) << m.error().toString();
        machine = *m;
        workload = machine.get();
        if (target == Target::Emulated) {
            fs = machine->resctrl();
            return;
        }
        if (auto why = fuseUnavailableReason(); !why.empty()) GTEST_SKIP() << why;
        ASSERT_TRUE(privateMountNamespace());
        char tmpl[] = "/tmp/rdtscope-conformance-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir = tmpl;
        auto mounted = FsFuseMount::mount(machine->resctrl(), dir);
        ASSERT_TRUE(mounted.ok()) << mounted.error().toString();
        mount = std::move(*mounted);
        mount->start();
        fs = std::make_shared<MountedSimulatedFs>(dir, machine);
    }
    void TearDown() override
    {
        fs.reset();
        mount.reset();
        if (!dir.empty()) ::rmdir(dir.c_str());
    }

    std::shared_ptr<SelftestSimMachine> machine;
    std::unique_ptr<StreamerProcess> streamer;
    StreamWorkload* workload = nullptr;
    std::unique_ptr<FsFuseMount> mount;
    std::string dir;
    std::shared_ptr<Fs> fs;
    bool write = false;
};

} // namespace

TEST_P(ResctrlConformance, Check)
{
    SelftestOptions o;
    o.write = write;
    o.workload = workload;
    ResctrlSelftest suite(fs, o);
    ASSERT_TRUE(suite.open().ok());
    const CheckResult r = suite.runCheck(std::get<1>(GetParam()));
    EXPECT_EQ(r.name, std::get<1>(GetParam()));
    EXPECT_FALSE(r.section.empty());
    if (std::get<0>(GetParam()) == Target::Real) {
        EXPECT_NE(r.verdict, Verdict::Fail) << r.section << ": " << r.reason;
        if (r.verdict == Verdict::Skip) GTEST_SKIP() << r.reason;
    } else {
        // The simulated machine has every feature the checks test, and simulated streamers: nothing may skip.
        EXPECT_EQ(r.verdict, Verdict::Pass) << verdictName(r.verdict) << " " << r.section << ": " << r.reason;
    }
    // Nothing the check made is left behind.
    suite.cleanup();
    auto backend = ResctrlBackend::open(fs);
    ASSERT_TRUE(backend.ok());
    auto groups = (*backend)->listGroups();
    ASSERT_TRUE(groups.ok());
    for (const auto& g : *groups)
        EXPECT_NE(g.name.rfind(o.prefix, 0), 0u) << g.path << " left behind";
}

INSTANTIATE_TEST_SUITE_P(Targets, ResctrlConformance,
    ::testing::Combine(::testing::Values(Target::Emulated, Target::Mounted, Target::Real),
        ::testing::ValuesIn(ResctrlSelftest::checkNames())),
    paramName);

// A processor whose fills ignore the CAT masks (sim::SimOptions::ignoreCatMasks) still reads masks back, so only
// the effect check can tell: it must fail, saying by how much the fence was exceeded.
TEST(ResctrlSelftestEffects, FenceCheckFailsWhenTheProcessorIgnoresCatMasks)
{
    SelftestSimOptions broken;
    broken.ignoreCatMasks = true;
    auto m = SelftestSimMachine::create(broken);
    ASSERT_TRUE(m.ok()) << m.error().toString();
    SelftestOptions o;
    o.write = true;
    o.workload = m->get();
    ResctrlSelftest suite((*m)->resctrl(), o);
    ASSERT_TRUE(suite.open().ok());
    const CheckResult fence = suite.runCheck("cat-fence-bounds-occupancy");
    EXPECT_EQ(fence.verdict, Verdict::Fail) << fence.reason;
    EXPECT_NE(fence.reason.find("exceeds the fence"), std::string::npos) << fence.reason;
    // The interface itself still conforms: the masks are accepted and read back.
    EXPECT_EQ(suite.runCheck("schemata-reads-back").verdict, Verdict::Pass);
}

// Without --write nothing is made: every check that writes is skipped with the reason, and the tree is unchanged.
TEST(ResctrlSelftestEffects, ReadOnlyRunSkipsEveryWriteWithTheReason)
{
    auto m = SelftestSimMachine::create({});
    ASSERT_TRUE(m.ok());
    SelftestOptions o;
    o.workload = m->get();
    ResctrlSelftest suite((*m)->resctrl(), o);
    ASSERT_TRUE(suite.open().ok());
    auto before = (*m)->resctrl()->list("");
    ASSERT_TRUE(before.ok());
    unsigned passed = 0, skipped = 0;
    for (const auto& r : suite.run()) {
        EXPECT_NE(r.verdict, Verdict::Fail) << r.name << ": " << r.reason;
        if (r.verdict == Verdict::Skip) {
            ++skipped;
            EXPECT_NE(r.reason.find("read-only run"), std::string::npos) << r.name;
        } else {
            ++passed;
        }
    }
    EXPECT_EQ(passed, 6u);
    EXPECT_EQ(skipped, ResctrlSelftest::checkNames().size() - 6);
    EXPECT_EQ(*(*m)->resctrl()->list(""), *before);
}

// A cancel request (SIGINT/SIGTERM in the CLI) stops the run and leaves no group behind.
TEST(ResctrlSelftestEffects, CancelStopsAndRemovesTheGroups)
{
    std::atomic<bool> cancel { false };
    SelftestSimOptions so;
    so.cancel = &cancel;
    auto m = SelftestSimMachine::create(so);
    ASSERT_TRUE(m.ok());
    SelftestOptions o;
    o.write = true;
    o.workload = m->get();
    o.cancel = &cancel;
    ResctrlSelftest suite((*m)->resctrl(), o);
    ASSERT_TRUE(suite.open().ok());
    std::size_t seen = 0;
    auto results = suite.run([&](const CheckResult& r) {
        if (r.name == "closid-limit") cancel = true; // as if Ctrl-C came during the next check
        ++seen;
    });
    EXPECT_LT(results.size(), ResctrlSelftest::checkNames().size());
    EXPECT_EQ(results.size(), seen);
    auto root = (*m)->resctrl()->list("");
    ASSERT_TRUE(root.ok());
    for (const auto& e : *root)
        EXPECT_NE(e.rfind("rdtscope-selftest-", 0), 0u) << e << " left behind";
}

// The saved copy: groups renamed, no tasks files, and it opens again with ResctrlBackend over PosixFs.
TEST(ResctrlSelftestSave, AnonymisedCopyHasNoNamesNoTasksAndReopens)
{
    auto m = SelftestSimMachine::create({});
    ASSERT_TRUE(m.ok());
    auto fs = (*m)->resctrl();
    ASSERT_TRUE(fs->mkdir("payroll-db").ok());
    ASSERT_TRUE(fs->write("payroll-db/schemata", "L3:0=f\n").ok());
    ASSERT_TRUE(fs->mkdir("payroll-db/mon_groups/alice-shell").ok());
    auto task = (*m)->start(1, 1 << 20);
    ASSERT_TRUE(task.ok());
    ASSERT_TRUE(fs->write("payroll-db/tasks", std::to_string(*task) + "\n").ok());

    const std::string dir = ::testing::TempDir() + "rdtscope-selftest-save";
    std::filesystem::remove_all(dir);
    auto saved = AnonymisedTreeCopy::save(*fs, dir);
    ASSERT_TRUE(saved.ok()) << saved.error().toString();
    EXPECT_GT(*saved, 10u);
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        EXPECT_NE(e.path().filename(), "tasks") << e.path();
        EXPECT_EQ(e.path().string().find("payroll"), std::string::npos) << e.path();
        EXPECT_EQ(e.path().string().find("alice"), std::string::npos) << e.path();
    }
    // A second save into the same, now non-empty, directory is refused rather than mixed.
    EXPECT_FALSE(AnonymisedTreeCopy::save(*fs, dir).ok());

    auto backend = ResctrlBackend::open(std::make_shared<PosixFs>(dir));
    ASSERT_TRUE(backend.ok()) << backend.error().toString();
    auto groups = (*backend)->listGroups();
    ASSERT_TRUE(groups.ok());
    std::vector<std::string> paths;
    for (const auto& g : *groups)
        paths.push_back(g.path);
    EXPECT_NE(std::find(paths.begin(), paths.end(), "group1"), paths.end());
    EXPECT_NE(std::find(paths.begin(), paths.end(), "group1/mon_groups/mon1"), paths.end());
    auto schemata = (*backend)->readSchemata("group1");
    ASSERT_TRUE(schemata.ok());
    EXPECT_EQ(parseMask(*schemata->value("L3", 0)).valueOr(0), 0xfu);
    // The read-only checks run on the copy as on the tree it came from.
    ResctrlSelftest suite(std::make_shared<PosixFs>(dir), SelftestOptions {});
    ASSERT_TRUE(suite.open().ok());
    for (const auto& r : suite.run())
        EXPECT_NE(r.verdict, Verdict::Fail) << r.name << ": " << r.reason;
    std::filesystem::remove_all(dir);
}

// Every preset with RDT passes the whole suite with --write: what its processor lacks is skipped with the reason
// (Haswell has only occupancy monitoring, Broadwell no MBA, the EPYC GB/s MBA and sparse masks), nothing fails. A
// preset without RDT has no resctrl to test (ENODEV, exit 3 in the CLI).
TEST(ResctrlSelftestPresets, EveryPresetPassesOrSkipsWithTheReason)
{
    for (const auto& preset : sim::presets()) {
        SCOPED_TRACE(preset.id);
        SelftestSimOptions so;
        so.preset = preset.id;
        auto m = SelftestSimMachine::create(so);
        if (!m) {
            EXPECT_EQ(m.error().code, ENODEV) << m.error().toString();
            continue;
        }
        SelftestOptions o;
        o.write = true;
        o.workload = m->get();
        ResctrlSelftest suite((*m)->resctrl(), o);
        ASSERT_TRUE(suite.open().ok());
        unsigned passed = 0;
        for (const auto& r : suite.run()) {
            EXPECT_NE(r.verdict, Verdict::Fail) << r.name << ": " << r.reason;
            if (r.verdict == Verdict::Skip) {
                EXPECT_FALSE(r.reason.empty()) << r.name;
            }
            passed += r.verdict == Verdict::Pass ? 1 : 0;
        }
        EXPECT_GE(passed, 3u);
    }
}
