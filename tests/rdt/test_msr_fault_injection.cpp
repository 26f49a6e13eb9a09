// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection on every step of every MSR change (docs/SAFE-WRITES.md, "Transactions"): for each change type
// and each N, the Nth WRMSR is refused (#GP), and separately the Nth RDMSR fails. Afterwards every control
// register (masks, MBA delays, CBA levels, QOS_CFG, IA32_PQR_ASSOC of every CPU) and the backend's group table
// must equal the state before the change (when it failed) or the fault-free result (when it succeeded). Anything
// else is a mixed state. Before the undo log, a failed CPU assignment or CDP toggle stopped mid-loop.
#include "FakeMsrSpace.h"
#include "rdt/MsrBackend.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>

using namespace rdt;
using rdt::test::FakeMsrSpace;

namespace {

struct Rig {
    std::shared_ptr<FakeMsrSpace> msrs;
    std::unique_ptr<MsrBackend> backend;
};

struct State {
    std::map<std::tuple<int, int, std::uint32_t>, std::uint64_t> registers;
    std::map<std::string, std::vector<unsigned>> groups;
    bool operator==(const State&) const = default;
};

State stateOf(Rig& r)
{
    State s;
    s.registers = r.msrs->registers();
    auto groups = r.backend->listGroups();
    if (groups)
        for (const auto& g : *groups)
            s.groups[g.path] = r.backend->cpus(g.path).valueOr(std::vector<unsigned> { 999 });
    return s;
}

struct ChangeType {
    const char* name;
    std::function<void(Rig&)> setup;
    std::function<bool(Rig&)> change;
};

Rig makeRig(const ChangeType& t)
{
    auto e = rdt::test::skxLike();
    Rig r { std::make_shared<FakeMsrSpace>(e), nullptr };
    auto b = MsrBackend::open(r.msrs, e, "");
    EXPECT_TRUE(b.ok());
    r.backend = std::move(*b);
    EXPECT_TRUE(r.backend->createControlGroup("p0").ok());
    EXPECT_TRUE(r.backend->createControlGroup("p1").ok());
    EXPECT_TRUE(r.backend->assignCpus("p0", { 1, 2 }).ok());
    if (t.setup) t.setup(r);
    return r;
}

bool apply(Rig& r, const char* group, const char* text)
{
    auto s = Schemata::parseStrict(text);
    return s.ok() && r.backend->applySchemata(group, *s).ok();
}

std::vector<ChangeType> changeTypes()
{
    return {
        { "mask, one domain", {}, [](Rig& r) { return apply(r, "p0", "L3:0=f\n"); } },
        { "masks and MB, two domains", {}, [](Rig& r) { return apply(r, "p0", "L3:0=f;1=f0\nMB:0=50;1=30\n"); } },
        { "CBA levels", {}, [](Rig& r) { return apply(r, "p1", "CBA:0=3;1=5\n"); } },
        { "CPU assignment", {},
            [](Rig& r) {
                return r.backend->assignCpus("p1", { 0, 1, 3 }).ok();
            } },
        { "group removal", {}, [](Rig& r) { return r.backend->removeGroup("p0").ok(); } },
        { "CDP enable", {}, [](Rig& r) { return r.backend->setCdp("L3", true).ok(); } },
        { "CDP disable", [](Rig& r) { EXPECT_TRUE(r.backend->setCdp("L3", true).ok()); },
            [](Rig& r) { return r.backend->setCdp("L3", false).ok(); } },
    };
}

} // namespace

TEST(MsrFaultInjection, EveryFailedStepLeavesTheStateBefore)
{
    int totalFaults = 0, totalMixed = 0;
    std::printf("| change type | writes | reads | injected faults | failed, restored | succeeded | mixed states |\n"
                "|---|---|---|---|---|---|---|\n");
    for (const auto& t : changeTypes()) {
        // The fault-free run: how many writes and reads the change makes, and what it leaves.
        Rig clean = makeRig(t);
        const std::size_t writesBefore = clean.msrs->writes.size();
        clean.msrs->failRead(0);
        ASSERT_TRUE(t.change(clean)) << t.name << " fails without a fault";
        const int writes = static_cast<int>(clean.msrs->writes.size() - writesBefore);
        const int reads = clean.msrs->reads();
        const State after = stateOf(clean);
        ASSERT_GT(writes, 0) << t.name;

        int faults = 0, restored = 0, succeeded = 0, mixed = 0;
        auto check = [&](Rig& r, const State& before, bool ok, const std::string& what) {
            ++faults;
            const State now = stateOf(r);
            if (!ok && now == before) {
                ++restored;
            } else if (ok && now == after) {
                ++succeeded;
            } else {
                ++mixed;
                ADD_FAILURE() << t.name << ", " << what << ": " << (ok ? "succeeded" : "failed")
                              << " but left a state that is neither the one before nor the fault-free one";
            }
        };
        for (int n = 1; n <= writes; ++n) {
            Rig r = makeRig(t);
            const State before = stateOf(r);
            r.msrs->failWrite(n);
            const bool ok = t.change(r);
            r.msrs->failWrite(0);
            check(r, before, ok, "write " + std::to_string(n) + " refused");
        }
        for (int n = 1; n <= reads; ++n) {
            Rig r = makeRig(t);
            const State before = stateOf(r);
            r.msrs->failRead(n);
            const bool ok = t.change(r);
            r.msrs->failRead(0);
            check(r, before, ok, "read " + std::to_string(n) + " failed");
        }
        std::printf(
            "| %s | %d | %d | %d | %d | %d | %d |\n", t.name, writes, reads, faults, restored, succeeded, mixed);
        totalFaults += faults;
        totalMixed += mixed;
    }
    std::printf("\n%d injected faults, mixed states: %d\n", totalFaults, totalMixed);
    EXPECT_EQ(totalMixed, 0);
    EXPECT_GT(totalFaults, 50);
}
