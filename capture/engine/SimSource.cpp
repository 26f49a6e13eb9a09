// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated RDT sources: `sim` (a scenario's machine behind its resctrl emulation, read by the real
// ResctrlBackend) and `sim-msr` (the same machine's SDM MSR space, read by the real MsrBackend).
#include "SourceAssembly.h"
#include "api/SourceSpec.h"

#include "SimMsrScenario.h"
#include "platform/CpuidDump.h"
#include "rdt/ResctrlBackend.h"
#include "sim/Scenario.h"
#include "sim/SimMachine.h"
#include "sim/SimMsrSpace.h"
#include "sim/SimResctrlFs.h"
#include "sim/Simulation.h"

#include <algorithm>
#include <cerrno>

namespace rdt {

namespace {
/// The SimulationControl of the `sim` source: a scenario file run by capture/sim's Simulation, whose timed
/// steps fire from the machine's tick listener while we advance time.
class ScenarioControl final : public SimulationControl {
public:
    explicit ScenarioControl(std::shared_ptr<sim::Simulation> simulation)
        : m_sim(std::move(simulation))
    { }
    std::uint64_t nowNs() const override { return m_sim->machine().nowNs(); }
    std::string cpuidJson() const override { return cpuidTableToJson(m_sim->machine().cpuid().table()); }
    void advanceTo(std::uint64_t t) override
    {
        const auto now = m_sim->machine().nowNs();
        if (t > now) m_sim->advance(t - now);
    }
    bool holdTimedSteps(bool hold) override
    {
        m_sim->holdTimedSteps(hold);
        return true;
    }
    std::string scenarioName() const override { return m_sim->scenario().name; }
    std::optional<SimulatedTaskCounts> taskCounts(const std::vector<unsigned>& pids) const override
    {
        return simulatedTaskCounts(m_sim->machine(), pids);
    }
    std::string describe() const override
    {
        return "simulated " + m_sim->machine().features().brand + ", " + std::to_string(m_sim->machine().cpuCount())
            + " CPUs, scenario " + m_sim->scenario().name;
    }
    Result<std::unique_ptr<RdtBackend>> remountWithCdp(bool cdp) override
    {
        if (auto s = m_sim->remountResctrl(cdp); !s) return s.error();
        auto fs = std::shared_ptr<Fs>(&m_sim->resctrl(), [sim = m_sim](Fs*) {});
        auto b = ResctrlBackend::open(fs);
        if (!b) return b.error();
        return Result<std::unique_ptr<RdtBackend>>(std::unique_ptr<RdtBackend>(std::move(*b)));
    }
    std::vector<SimulationEvent> takeEvents() override
    {
        std::vector<SimulationEvent> out;
        for (const auto& e : m_sim->events(m_seen))
            out.push_back({ e.timeNs, e.text, e.ok, e.note });
        m_seen += out.size();
        return out;
    }

private:
    std::shared_ptr<sim::Simulation> m_sim;
    std::size_t m_seen = 0;
};

}

SimulatedTaskCounts simulatedTaskCounts(const sim::SimMachine& machine, const std::vector<unsigned>& pids)
{
    SimulatedTaskCounts c;
    for (const auto& t : machine.threads()) {
        if (std::find(pids.begin(), pids.end(), static_cast<unsigned>(t.tid)) == pids.end()) continue;
        ++c.threads;
        c.cycles += t.stats.cycles;
        c.instructions += t.stats.instructions;
        c.llcMisses += static_cast<double>(t.stats.l3Misses());
        c.memoryStallCycles += t.stats.memoryStallCycles;
    }
    return c;
}

MsrRdtEnumeration msrEnumerationOf(const sim::SimMachine& m)
{
    {
        const auto& f = m.features();
        MsrRdtEnumeration e;
        e.maxRmid = f.mon.present ? f.mon.l3MaxRmid : 0;
        e.upscalingFactor = f.mon.scale;
        e.mbmWidth = f.mon.counterWidth;
        e.overflowBit = f.mon.overflowBit;
        e.llcOccupancy = f.mon.occupancy;
        e.mbmTotal = f.mon.mbmTotal;
        e.mbmLocal = f.mon.mbmLocal;
        e.l3Cat = f.l3Cat.present;
        e.l3CbmLength = f.l3Cat.cbmLen;
        e.l3Shareable = f.l3Cat.shareableBits;
        e.l3Cdp = f.l3Cat.cdp;
        e.l3Sparse = f.l3Cat.sparse;
        e.l3MaxClos = f.l3Cat.numClos ? f.l3Cat.numClos - 1 : 0;
        e.l3BytesPerBit = f.l3Cat.cbmLen ? f.l3.sizeBytes() / f.l3Cat.cbmLen : 0;
        e.l2Cat = f.l2Cat.present;
        e.l2CbmLength = f.l2Cat.cbmLen;
        e.l2Shareable = f.l2Cat.shareableBits;
        e.l2Cdp = f.l2Cat.cdp;
        e.l2Sparse = f.l2Cat.sparse;
        e.l2MaxClos = f.l2Cat.numClos ? f.l2Cat.numClos - 1 : 0;
        e.mba = f.mba.present;
        e.mbaMaxDelay = f.mba.maxDelay;
        e.mbaLinear = f.mba.linear;
        e.mbaMaxClos = f.mba.numClos ? f.mba.numClos - 1 : 0;
        e.cba = f.cba.present;
        e.cbaMaxLevel = f.cba.maxLevel;
        e.cbaMaxClos = f.cba.numClos ? f.cba.numClos - 1 : 0;
        for (unsigned c = 0; c < m.cpuCount(); ++c) {
            e.l3IdOfCpu.push_back(static_cast<int>(m.l3DomainOfCpu(c)));
            e.l2IdOfCpu.push_back(static_cast<int>(m.l2DomainOfCpu(c)));
        }
        return e;
    }
}

std::vector<std::string> builtinScenarios()
{
    return sim::builtinScenarioNames();
}

Result<RdtSource> openSimSource(const std::string& spec, const std::string& scenario, bool setupOnly,
    std::uint32_t timeScale, const std::string& preset)
{
    RdtSource s;
    s.kind = spec;
    s.simulated = true;
    if (spec == "sim") {
        // A scenario file (resources/scenarios, or a path) run by capture/sim: machine, resctrl emulation, threads,
        // groups and timed steps; we see it through the same ResctrlBackend as a real /sys/fs/resctrl.
        auto loaded = sim::loadScenario(scenario);
        if (!loaded) {
            Error e = loaded.error();
            std::string names;
            for (const auto& n : sim::builtinScenarioNames())
                names += (names.empty() ? "" : ", ") + n;
            e.advice += (e.advice.empty() ? "" : "; ") + std::string("built-in scenarios: ") + names;
            return e;
        }
        if (setupOnly) std::erase_if(loaded->steps, [](const sim::ScenarioStep& step) { return step.atNs > 0; });
        sim::SimulationOptions options;
        options.maxTimeScale = timeScale;
        options.preset = preset;
        auto created = sim::Simulation::create(*loaded, options);
        if (!created) return created.error();
        std::shared_ptr<sim::Simulation> simulation(std::move(*created));
        // The Fs handle keeps the whole simulation alive for as long as the backend uses it.
        auto fs = std::shared_ptr<Fs>(&simulation->resctrl(), [simulation](Fs*) {});
        auto b = ResctrlBackend::open(fs);
        if (!b) return b.error();
        s.backend = std::move(*b);
        s.simulation = std::make_shared<ScenarioControl>(simulation);
        return s;
    }
    // sim-msr: the MSR protocol needs the hardware to itself (no resctrl mounted), so the scenario's machine is
    // built without the resctrl emulation and its steps go through the MSR backend (CPUs, not tasks).
    if (auto st = api::checkSimulatorOptions({ api::SourceKind::SimMsr, {} }, scenario, preset); !st) return st.error();
    return openSimMsrScenario(scenario, {}, setupOnly);
}

} // namespace rdt
