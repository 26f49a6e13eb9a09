// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection on every step of every resctrl change type (docs/SAFE-WRITES.md "Transactions"): the Nth write
// fails before reaching the simulated kernel, the Nth write reaches it and then reports a failure, the Nth read
// fails. Afterwards the tree is, file by file, either exactly as before (the change failed) or exactly as the
// fault-free run left it (the fault hit a read the change did not need). Anything else is a mixed state.
#include "TestTree.h"
#include "rdt/AllocationEngine.h"
#include "rdt/ResctrlBackend.h"
#include "sim/SimMachine.h"
#include "sim/SimResctrlFs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <thread>

using namespace rdt;

namespace {

using State = std::map<std::string, std::string>;

struct Rig {
    std::unique_ptr<sim::SimMachine> machine;
    std::shared_ptr<Fs> kernel; ///< the simulated kernel, read directly for snapshots
    std::shared_ptr<test::FaultyFs> fs;
    std::unique_ptr<ResctrlBackend> backend;

    Rig(const char* preset, bool cdp)
    {
        auto cpuid = sim::presetCpuid(preset);
        EXPECT_TRUE(cpuid.ok());
        sim::SimOptions o;
        o.topology.sockets = 2;
        o.topology.coresPerSocket = 4;
        auto m = sim::SimMachine::create(std::move(*cpuid), o);
        EXPECT_TRUE(m.ok());
        machine = std::move(*m);
        sim::ResctrlMountOptions mo;
        mo.cdp = cdp;
        auto mounted = sim::SimResctrlFs::mount(*machine, mo);
        EXPECT_TRUE(mounted.ok());
        kernel = std::shared_ptr<Fs>(std::move(*mounted));
        fs = std::make_shared<test::FaultyFs>(kernel);
        auto opened = ResctrlBackend::open(fs);
        EXPECT_TRUE(opened.ok());
        backend = std::move(*opened);
        // Two groups besides the default one; p0 holds CPU 2, p2 holds CPU 3.
        EXPECT_TRUE(backend->createControlGroup("p0").ok());
        EXPECT_TRUE(backend->createControlGroup("p2").ok());
        EXPECT_TRUE(backend->assignCpus("p0", { 2 }).ok());
        EXPECT_TRUE(backend->assignCpus("p2", { 3 }).ok());
    }

    /// Every group's control files, read from the kernel directly (no fault injection, no counting).
    State snapshot()
    {
        State s;
        std::vector<std::string> groups { "" };
        if (auto l = kernel->list(""))
            for (const auto& n : *l)
                if (n != "info" && n != "mon_groups" && n != "mon_data" && kernel->isDirectory(n)) groups.push_back(n);
        for (const auto& g : groups)
            for (const char* f : { "schemata", "cpus_list", "tasks", "mode" }) {
                const auto path = g.empty() ? std::string(f) : g + "/" + f;
                auto r = kernel->read(path);
                s[path] = r ? *r : "<" + r.error().message + ">";
            }
        return s;
    }
};

struct ChangeType {
    const char* name;
    const char* preset;
    bool cdp;
    std::function<bool(Rig&)> run; ///< true when the change reported success
};

bool applyChange(Rig& r, const char* group, const char* text)
{
    auto change = Schemata::parse(text);
    EXPECT_TRUE(change.ok()) << text;
    AllocationEngine engine(*r.backend);
    auto out = engine.apply({ group, *change, "test" });
    if (!out.ok && !out.steps.empty()) {
        // A write was attempted: the outcome names every step it took, and the rollback restored them.
        EXPECT_NE(out.steps.back().find("rollback"), std::string::npos) << out.steps.back();
        EXPECT_TRUE(out.rolledBack) << out.error.toString();
    }
    return out.ok;
}

std::vector<ChangeType> changeTypes()
{
    return {
        { "mask, one domain", "skx-6154", false, [](Rig& r) { return applyChange(r, "p0", "L3:0=f\n"); } },
        { "mask, two domains", "skx-6154", false, [](Rig& r) { return applyChange(r, "p0", "L3:0=f;1=f0\n"); } },
        { "mask and MB, two domains", "skx-6154", false,
            [](Rig& r) { return applyChange(r, "p0", "L3:0=f;1=f0\nMB:0=50;1=30\n"); } },
        { "CDP pair", "bdw-6850k", true,
            [](Rig& r) { return applyChange(r, "p0", "L3CODE:0=f;1=ff\nL3DATA:0=f0;1=ff00\n"); } },
        { "CPU assignment", "skx-6154", false,
            [](Rig& r) {
                return r.backend->assignCpus("p0", { 1, 3, 5 }).ok();
            } },
        { "group create", "skx-6154", false, [](Rig& r) { return r.backend->createControlGroup("p1").ok(); } },
        { "group delete", "skx-6154", false, [](Rig& r) { return r.backend->removeGroup("p2").ok(); } },
    };
}

} // namespace

TEST(FaultInjection, EveryStepOfEveryChangeLeavesNoMixedState)
{
    std::printf("| change type | writes | injected faults | failed, restored | succeeded | mixed states |\n"
                "|---|---|---|---|---|---|\n");
    int totalFaults = 0, totalMixed = 0;
    for (const auto& type : changeTypes()) {
        // Fault-free run: how many writes and reads the change makes, and the state it leaves.
        Rig dry(type.preset, type.cdp);
        dry.fs->arm(0);
        dry.fs->armRead(0);
        ASSERT_TRUE(type.run(dry)) << type.name;
        const int writes = dry.fs->writes();
        const int reads = dry.fs->reads();
        EXPECT_EQ(dry.fs->m_unlockedWrites, 0) << type.name << ": a write outside the root flock";
        const State expectedAfter = dry.snapshot();

        int faults = 0, failed = 0, succeeded = 0, mixed = 0;
        auto inject = [&](const std::function<void(test::FaultyFs&)>& arm, const std::string& what) {
            Rig r(type.preset, type.cdp);
            const State before = r.snapshot();
            arm(*r.fs);
            const bool ok = type.run(r);
            const State after = r.snapshot();
            ++faults;
            if (!ok && after == before)
                ++failed;
            else if (ok && after == expectedAfter)
                ++succeeded;
            else {
                ++mixed;
                ADD_FAILURE() << type.name << ", " << what << ": mixed state (" << (ok ? "reported ok" : "failed")
                              << ")";
            }
            EXPECT_EQ(r.fs->m_unlockedWrites, 0) << type.name << ", " << what;
        };
        for (int n = 1; n <= writes; ++n) {
            inject([n](test::FaultyFs& f) { f.arm(n, EINVAL, "injected"); }, "write " + std::to_string(n) + " refused");
            inject(
                [n](test::FaultyFs& f) {
                    f.arm(n, EIO);
                    f.m_writeThenFail = true;
                },
                "write " + std::to_string(n) + " done, then failed");
        }
        for (int n = 1; n <= reads; ++n)
            inject([n](test::FaultyFs& f) { f.armRead(n); }, "read " + std::to_string(n) + " failed");
        if (std::string(type.name) == "group create")
            inject([](test::FaultyFs& f) { f.m_mkdirCode = ENOSPC; }, "mkdir refused");
        if (std::string(type.name) == "group delete")
            inject([](test::FaultyFs& f) { f.m_rmdirCode = EBUSY; }, "rmdir refused");
        std::printf("| %s | %d | %d | %d | %d | %d |\n", type.name, writes, faults, failed, succeeded, mixed);
        EXPECT_GT(failed, 0) << type.name << ": no injected fault made the change fail";
        totalFaults += faults;
        totalMixed += mixed;
    }
    std::printf("injected faults: %d, mixed states: %d\n", totalFaults, totalMixed);
    EXPECT_EQ(totalMixed, 0);
}

// A second writer (another open of the root, as another process has) waits for the whole transaction: it takes the
// root flock only after apply() returned, and what it reads then is the complete new state, never a mix.
TEST(FaultInjection, ConcurrentWriterWaitsForTheWholeTransaction)
{
    test::TempTree t("resctrl.full");
    auto fs = std::make_shared<test::FaultyFs>(std::make_shared<PosixFs>(t.root()));
    auto b = ResctrlBackend::open(fs);
    ASSERT_TRUE(b.ok());
    // Writes the transaction made so far, and how many the second writer saw made when it got the lock: all of
    // them if the flock covered the whole transaction (a flag set after apply() returned would race with the
    // unlock at its end).
    std::atomic<int> writes { 0 }, writesSeen { -1 };
    std::string otherRead;
    std::thread other;
    fs->m_onWrite = [&](const std::string&) {
        ++writes;
        if (other.joinable()) return;
        other = std::thread([&] {
            PosixFs second(t.root());
            ASSERT_TRUE(second.lock(true).ok());
            writesSeen = writes.load();
            auto r = second.read("Guaranteed/schemata");
            if (r) otherRead = *r;
            (void)second.write("Guaranteed/schemata", "L3:0=3\n");
            second.unlock();
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the other writer is blocked in flock now
    };
    AllocationEngine engine(**b);
    auto out = engine.apply({ "Guaranteed", *Schemata::parse("L3:0=ff0;1=ff0;3=3\nMB:1=50\n"), "test" });
    const int transactionWrites = writes.load();
    ASSERT_TRUE(other.joinable());
    other.join();
    ASSERT_TRUE(out.ok) << out.error.toString();
    EXPECT_EQ(out.steps.size(), 4u);
    EXPECT_GT(transactionWrites, 1);
    EXPECT_EQ(writesSeen.load(), transactionWrites) << "the second writer got the lock while the transaction ran";
    auto parsed = Schemata::parse(otherRead);
    ASSERT_TRUE(parsed.ok()) << otherRead;
    EXPECT_EQ(parsed->value("L3", 0).value_or(""), "ff0");
    EXPECT_EQ(parsed->value("L3", 1).value_or(""), "ff0");
    EXPECT_EQ(parsed->value("L3", 3).value_or(""), "3");
    EXPECT_EQ(parsed->value("MB", 1).value_or(""), "50");
}
