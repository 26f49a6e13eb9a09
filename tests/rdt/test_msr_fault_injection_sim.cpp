// SPDX-License-Identifier: GPL-3.0-or-later
// The MSR fault injection of test_msr_fault_injection.cpp on the simulator's MSR space (SimMsrSpace, the SDM
// rules of the simulated Xeon behind `--source sim-msr`), through a decorator that refuses the Nth WRMSR or fails
// the Nth RDMSR. Every control register of every CPU and domain is read back through the space itself and
// compared with the state before the change (or the fault-free result when the change succeeded).
#include "engine/SourceAssembly.h"
#include "rdt/MsrBackend.h"
#include "sim/SimCpuid.h"
#include "sim/SimMachine.h"
#include "sim/SimMsrSpace.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <functional>
#include <map>

using namespace rdt;

namespace {

class FaultyMsrSpace final : public MsrSpace {
public:
    explicit FaultyMsrSpace(std::shared_ptr<MsrSpace> inner)
        : m_inner(std::move(inner))
    { }
    Result<std::uint64_t> read(unsigned cpu, std::uint32_t msr) override
    {
        if (++m_reads == m_failRead) return errnoError(EIO, "injected RDMSR failure");
        return m_inner->read(cpu, msr);
    }
    Status write(unsigned cpu, std::uint32_t msr, std::uint64_t value) override
    {
        if (++m_writes == m_failWrite) return errnoError(EIO, "injected #GP");
        return m_inner->write(cpu, msr, value);
    }
    unsigned cpuCount() const override { return m_inner->cpuCount(); }
    std::string describe() const override { return "faulty " + m_inner->describe(); }
    void arm(int failWrite, int failRead)
    {
        m_failWrite = failWrite;
        m_failRead = failRead;
        m_writes = m_reads = 0;
    }
    int writes() const { return m_writes; }
    int reads() const { return m_reads; }
    MsrSpace& inner() { return *m_inner; }

private:
    std::shared_ptr<MsrSpace> m_inner;
    int m_failWrite = 0, m_failRead = 0, m_writes = 0, m_reads = 0;
};

struct Rig {
    std::unique_ptr<sim::SimMachine> machine;
    std::shared_ptr<FaultyMsrSpace> msrs;
    std::unique_ptr<MsrBackend> backend;
    MsrRdtEnumeration e;
};

using Registers = std::map<std::pair<unsigned, std::uint32_t>, std::uint64_t>;

Registers registersOf(Rig& r)
{
    Registers out;
    auto grab = [&](unsigned cpu, std::uint32_t msr) {
        auto v = r.msrs->inner().read(cpu, msr);
        out[{ cpu, msr }] = v ? *v : ~0ULL;
    };
    for (unsigned c = 0; c < r.msrs->cpuCount(); ++c) {
        grab(c, msr::IA32_PQR_ASSOC);
        grab(c, msr::IA32_L3_QOS_CFG);
        for (unsigned n = 0; n <= r.e.l3MaxClos; ++n)
            grab(c, msr::IA32_L3_MASK_0 + n);
        for (unsigned n = 0; r.e.mba && n <= r.e.mbaMaxClos; ++n)
            grab(c, msr::IA32_L2_QOS_EXT_BW_THRTL_0 + n);
    }
    return out;
}

struct State {
    Registers registers;
    std::map<std::string, std::vector<unsigned>> groups;
    bool operator==(const State&) const = default;
};

State stateOf(Rig& r)
{
    State s { registersOf(r), {} };
    if (auto groups = r.backend->listGroups(); groups)
        for (const auto& g : *groups)
            s.groups[g.path] = r.backend->cpus(g.path).valueOr(std::vector<unsigned> { 999 });
    return s;
}

Rig makeRig(const std::function<void(Rig&)>& setup)
{
    Rig r;
    auto cpuid = sim::presetCpuid(sim::defaultPresetId());
    EXPECT_TRUE(cpuid.ok());
    auto machine = sim::SimMachine::create(std::move(*cpuid));
    EXPECT_TRUE(machine.ok());
    r.machine = std::move(*machine);
    r.msrs = std::make_shared<FaultyMsrSpace>(std::make_shared<sim::SimMsrSpace>(*r.machine));
    r.e = msrEnumerationOf(*r.machine);
    auto b = MsrBackend::open(r.msrs, r.e, "");
    EXPECT_TRUE(b.ok());
    r.backend = std::move(*b);
    EXPECT_TRUE(r.backend->createControlGroup("p0").ok());
    EXPECT_TRUE(r.backend->createControlGroup("p1").ok());
    EXPECT_TRUE(r.backend->assignCpus("p0", { 1, 2 }).ok());
    if (setup) setup(r);
    return r;
}

bool apply(Rig& r, const char* group, const char* text)
{
    auto s = Schemata::parseStrict(text);
    return s.ok() && r.backend->applySchemata(group, *s).ok();
}

} // namespace

TEST(SimMsrFaultInjection, EveryFailedStepLeavesTheSimulatedRegistersAsBefore)
{
    struct ChangeType {
        const char* name;
        std::function<void(Rig&)> setup;
        std::function<bool(Rig&)> change;
    };
    const ChangeType types[] = {
        { "mask, one domain", {}, [](Rig& r) { return apply(r, "p0", "L3:0=f\n"); } },
        { "mask and MB", {}, [](Rig& r) { return apply(r, "p0", "L3:0=f0\nMB:0=50\n"); } },
        { "CPU assignment", {},
            [](Rig& r) {
                return r.backend->assignCpus("p1", { 0, 1, 3 }).ok();
            } },
        { "group removal", {}, [](Rig& r) { return r.backend->removeGroup("p0").ok(); } },
        { "group create", {}, [](Rig& r) { return r.backend->createControlGroup("p2").ok(); } },
        { "CDP enable", {}, [](Rig& r) { return r.backend->setCdp("L3", true).ok(); } },
        { "CDP disable", [](Rig& r) { EXPECT_TRUE(r.backend->setCdp("L3", true).ok()); },
            [](Rig& r) { return r.backend->setCdp("L3", false).ok(); } },
    };
    int total = 0, totalMixed = 0;
    std::printf("| change type (SimMsrSpace) | writes | reads | injected faults | failed, restored | succeeded | "
                "mixed states |\n|---|---|---|---|---|---|---|\n");
    for (const auto& t : types) {
        Rig clean = makeRig(t.setup);
        clean.msrs->arm(0, 0);
        ASSERT_TRUE(t.change(clean)) << t.name;
        const int writes = clean.msrs->writes(), reads = clean.msrs->reads();
        const State after = stateOf(clean);
        int faults = 0, restored = 0, succeeded = 0, mixed = 0;
        for (int kind = 0; kind < 2; ++kind)
            for (int n = 1; n <= (kind == 0 ? writes : reads); ++n) {
                Rig r = makeRig(t.setup);
                const State before = stateOf(r);
                r.msrs->arm(kind == 0 ? n : 0, kind == 1 ? n : 0);
                const bool ok = t.change(r);
                r.msrs->arm(0, 0);
                const State now = stateOf(r);
                ++faults;
                if (!ok && now == before)
                    ++restored;
                else if (ok && now == after)
                    ++succeeded;
                else {
                    ++mixed;
                    ADD_FAILURE() << t.name << ": " << (kind == 0 ? "write " : "read ") << n << " left a mixed state";
                }
            }
        std::printf(
            "| %s | %d | %d | %d | %d | %d | %d |\n", t.name, writes, reads, faults, restored, succeeded, mixed);
        total += faults;
        totalMixed += mixed;
    }
    std::printf("\n%d injected faults on SimMsrSpace, mixed states: %d\n", total, totalMixed);
    EXPECT_EQ(totalMixed, 0);
    EXPECT_GT(total, 50);
}
