// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimMsrScenario.h"
#include "rdt/GroupNames.h"

#include "platform/CpuidDump.h"

#include "PersistedMsrSpace.h"
#include "SourceAssembly.h"
#include "rdt/MsrBackend.h"

#include <cerrno>

#include "sim/Scenario.h"
#include "sim/SimMachine.h"
#include "sim/SimMsrSpace.h"
#include "sim/Simulation.h"

namespace rdt {

namespace {
std::string groupPath(const std::string& g)
{
    return g == "/" || g == "." || g == "default" ? std::string {} : g;
}

class MsrScenarioControl final : public SimulationControl {
public:
    MsrScenarioControl(
        std::shared_ptr<sim::SimMachine> machine, sim::Scenario scenario, MsrBackend& backend, bool restored)
        : m_machine(std::move(machine))
        , m_scenario(std::move(scenario))
        , m_backend(backend)
        , m_restored(restored)
    { }

    /// Runs the steps due at time 0 (they must succeed, as in capture/sim's Simulation).
    Status setUp()
    {
        while (m_next < m_scenario.steps.size() && m_scenario.steps[m_next].atNs == 0) {
            const auto& st = m_scenario.steps[m_next++];
            if (auto s = run(st); !s)
                return errnoError(s.error().code ? s.error().code : EINVAL,
                    m_scenario.name + ":" + std::to_string(st.line) + ": " + st.verb + " failed: " + s.error().message,
                    s.error().advice);
        }
        return {};
    }

    std::uint64_t nowNs() const override { return m_machine->nowNs(); }
    std::optional<SimulatedTaskCounts> taskCounts(const std::vector<unsigned>& pids) const override
    {
        return simulatedTaskCounts(*m_machine, pids);
    }
    std::string cpuidJson() const override { return cpuidTableToJson(m_machine->cpuid().table()); }
    void advanceTo(std::uint64_t t) override
    {
        // Steps run between ticks, not from a tick listener: the backend's lock is then never taken while
        // the machine's is held, whoever else reads counters meanwhile.
        while (!m_hold && m_next < m_scenario.steps.size() && m_scenario.steps[m_next].atNs <= t) {
            const auto& st = m_scenario.steps[m_next++];
            if (st.atNs > m_machine->nowNs()) m_machine->advance(st.atNs - m_machine->nowNs());
            if (auto s = run(st); !s)
                m_events.push_back({ m_machine->nowNs(), st.verb + " failed: " + s.error().toString(), false, false });
        }
        if (t > m_machine->nowNs()) m_machine->advance(t - m_machine->nowNs());
    }
    std::string scenarioName() const override { return m_scenario.name; }
    std::string describe() const override
    {
        return "simulated " + m_machine->features().brand + " via MSRs, " + std::to_string(m_machine->cpuCount())
            + " CPUs, scenario " + m_scenario.name;
    }
    std::vector<SimulationEvent> takeEvents() override { return std::exchange(m_events, {}); }
    bool holdTimedSteps(bool hold) override
    {
        m_hold = hold;
        return true;
    }

private:
    Status run(const sim::ScenarioStep& st)
    {
        const auto now = m_machine->nowNs();
        auto record = [&](const std::string& text) { m_events.push_back({ now, text, true, false }); };
        if (st.verb == "note") {
            m_events.push_back({ now, st.args.empty() ? std::string {} : st.args[0], true, true });
            return {};
        }
        const bool setUpStep = st.atNs == 0 && (st.verb == "mkdir" || st.verb == "rmdir" || st.verb == "write");
        if (m_restored && setUpStep) {
            record(st.verb + " " + (st.args.empty() ? std::string {} : st.args[0])
                + ": not repeated, the machine's registers come from an earlier run");
            return {};
        }
        if (st.verb == "mkdir" && !st.args.empty()) {
            const auto& p = st.args[0];
            const auto mon = p.find("mon_groups/");
            auto s = mon == std::string::npos
                ? m_backend.createControlGroup(p)
                : m_backend.createMonitorGroup(mon == 0 ? std::string {} : p.substr(0, mon - 1), p.substr(mon + 11));
            if (s) record("mkdir " + p + " (a CLOS/RMID pair of the MSR backend)");
            return s;
        }
        if (st.verb == "rmdir" && !st.args.empty()) {
            auto s = m_backend.removeGroup(st.args[0]);
            if (s) record("rmdir " + st.args[0]);
            return s;
        }
        if (st.verb == "thread" && !st.args.empty()) {
            sim::WorkloadSpec spec;
            unsigned cpu = 0;
            std::string group;
            bool hasGroup = false;
            for (std::size_t i = 1; i < st.args.size(); ++i) {
                const auto eq = st.args[i].find('=');
                const auto k = st.args[i].substr(0, eq);
                const auto v = eq == std::string::npos ? std::string {} : st.args[i].substr(eq + 1);
                if (k == "cpu")
                    cpu = static_cast<unsigned>(std::strtoul(v.c_str(), nullptr, 10));
                else if (k == "group") {
                    group = groupPath(v);
                    hasGroup = true;
                } else if (auto s = sim::applyWorkloadSetting(spec, k, v); !s)
                    return s;
            }
            auto tid = m_machine->addThread(st.args[0], cpu, spec);
            if (!tid) return tid.error();
            // IA32_PQR_ASSOC is per CPU: the thread's group is its CPU's group.
            if (hasGroup && !(m_restored && st.atNs == 0))
                if (auto s = m_backend.assignCpus(group, { cpu }); !s) return s;
            const bool placed = hasGroup && !(m_restored && st.atNs == 0);
            record("thread " + st.args[0] + " on CPU " + std::to_string(cpu)
                + (placed ? ", CPU " + std::to_string(cpu) + " in " + displayGroup(group) : ""));
            return {};
        }
        if (st.verb == "write" && st.args.size() >= 2 && st.args[0].ends_with("schemata")) {
            const auto slash = st.args[0].rfind('/');
            const auto group = slash == std::string::npos ? std::string {} : st.args[0].substr(0, slash);
            auto parsed = Schemata::parseStrict(sim::expandWriteText(st.args[1]));
            if (!parsed) return parsed.error();
            auto s = m_backend.applySchemata(group, *parsed);
            if (s) record("write " + st.args[0] + " " + st.args[1]);
            return s;
        }
        record("skipped '" + st.verb + "': a resctrl-only step, not available through the MSR backend");
        return {};
    }

    std::shared_ptr<sim::SimMachine> m_machine;
    sim::Scenario m_scenario;
    MsrBackend& m_backend;
    /// The registers came from an earlier run (sim-msr:DIR): the set-up steps (groups, CPU placement, masks) were
    /// done then and may have been changed since, as on a real machine; only the workload threads start again.
    bool m_restored = false;
    std::size_t m_next = 0;
    bool m_hold = false; ///< timed steps held by an experiment (holdTimedSteps)
    std::vector<SimulationEvent> m_events;
};
}

Result<RdtSource> openSimMsrScenario(const std::string& name, const std::string& keepDir, bool setupOnly)
{
    auto loaded = sim::loadScenario(name);
    if (!loaded) {
        Error e = loaded.error();
        std::string names;
        for (const auto& n : sim::builtinScenarioNames())
            names += (names.empty() ? "" : ", ") + n;
        e.advice += (e.advice.empty() ? "" : "; ") + std::string("built-in scenarios: ") + names;
        return e;
    }
    if (setupOnly) std::erase_if(loaded->steps, [](const sim::ScenarioStep& step) { return step.atNs > 0; });
    const auto& sc = *loaded;
    auto cpuid = sc.cpuidFile.empty() ? sim::presetCpuid(sc.preset) : sim::loadSimCpuid(sc.cpuidFile);
    if (!cpuid) return cpuid.error();
    for (const auto& [k, v] : sc.overrides)
        if (auto s = sim::applyCpuidOverride(*cpuid, k, v); !s) return s.error();
    sim::SimOptions o;
    o.topology.sockets = sc.sockets;
    o.topology.coresPerSocket = sc.cores;
    o.topology.threadsPerCore = sc.threadsPerCore;
    o.setSampling = sc.sampling;
    o.tickNs = sc.tickNs;
    auto created = sim::SimMachine::create(*cpuid, o);
    if (!created) return created.error();
    if ((*created)->features().amd) // AMD's QoS MSRs (AMD64 APM vol. 2 ch. 19) are not Intel's: no MSR backend
        return errnoError(ENODEV, "sim-msr: the simulated " + (*created)->cpuid().name + " is an AMD processor",
            "the MSR backend speaks Intel's RDT MSRs only; use --source sim (resctrl) for AMD presets");
    std::shared_ptr<sim::SimMachine> m(std::move(*created));
    auto msrs = std::shared_ptr<MsrSpace>(new sim::SimMsrSpace(*m), [m](MsrSpace* p) { delete p; });
    bool restored = false;
    if (!keepDir.empty()) {
        auto kept = PersistedMsrSpace::open(msrs, keepDir);
        if (!kept) return kept.error();
        restored = (*kept)->replayedWrites() > 0;
        msrs = std::move(*kept);
    }
    auto b = MsrBackend::open(msrs, msrEnumerationOf(*m), "");
    if (!b) return b.error();
    if (!keepDir.empty())
        if (auto attached = (*b)->attachStateFile(keepDir + "/msr-state"); !attached) return attached.error();
    RdtSource s;
    s.kind = "sim-msr";
    s.simulated = true;
    s.warnings = (*b)->warnings();
    auto control = std::make_shared<MsrScenarioControl>(m, sc, **b, restored);
    s.backend = std::move(*b);
    if (auto st = control->setUp(); !st) return st.error();
    s.simulation = control;
    return s;
}

} // namespace rdt
