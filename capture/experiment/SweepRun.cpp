// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a planned sweep through the engine: each step one transaction per group, then settle, then measure; the
// original allocation written back however the sweep ends.
#include "Measurement.h"
#include "Sweep.h"
#include "SweepPlan.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <map>
#include <variant>

namespace rdt::experiment {

namespace {

class Runner {
public:
    Runner(engine::Engine& engine, const SweepSettings& settings, const SweepHooks& hooks)
        : m_engine(engine)
        , m_s(settings)
        , m_hooks(hooks)
    { }

    Result<SweepResult> run();

private:
    Status applyWrites(const std::vector<GroupWrite>& writes, std::string* written);
    /// Another writer changed something this sweep did not: "victim L3 7ff -> 7fc".
    std::string disturbance();
    void restore(SweepResult& result);
    /// The group's PMU counts now, or none (the first failure is kept in `pmu` as the reason).
    std::optional<engine::GroupPmuCounts> countPmu(SweepPmu& pmu);

    engine::Engine& m_engine;
    SweepSettings m_s;
    SweepHooks m_hooks;
    SweepPlan m_plan;
    std::map<std::string, Schemata> m_expected; ///< every control group's schemata as the sweep left it
};

Status Runner::applyWrites(const std::vector<GroupWrite>& writes, std::string* written)
{
    for (const auto& w : writes) {
        const auto out = m_engine.applyAllocation(w.group, w.change);
        if (!out.result.ok) return out.result.error();
        for (const auto& line : out.applied.lines())
            for (const auto& [d, v] : line.values)
                m_expected[w.group].set(line.resource, d, v);
        if (written && written->empty()) {
            *written = out.applied.format();
            while (!written->empty() && written->back() == '\n')
                written->pop_back();
            std::replace(written->begin(), written->end(), '\n', ' '); // CDP: "L3CODE:0=7f0 L3DATA:0=7f0"
        }
    }
    return {};
}

std::string Runner::disturbance()
{
    const auto snap = m_engine.snapshot();
    if (!snap.result.ok) return "could not read the groups back: " + snap.result.toString();
    std::string out;
    for (const auto& g : snap.groups) {
        const auto it = m_expected.find(g.info.path);
        if (!g.info.isControl || it == m_expected.end()) continue;
        for (const auto& line : it->second.lines())
            for (const auto& [d, v] : line.values) {
                const auto now = g.schemata.value(line.resource, d);
                if (now && *now != v)
                    out += (out.empty() ? "" : "; ") + displayGroup(g.info.path) + " " + line.resource + ":"
                        + std::to_string(d) + " " + v + " -> " + *now;
            }
    }
    // What another writer did stays: the next comparison starts from it.
    for (const auto& g : snap.groups)
        if (g.info.isControl) m_expected[g.info.path] = g.schemata;
    return out;
}

void Runner::restore(SweepResult& result)
{
    bool ok = true;
    for (const auto& w : m_plan.original) {
        if (w.change.empty()) continue;
        const auto out = m_engine.applyAllocation(w.group, w.change);
        const std::string who = displayGroup(w.group);
        std::string text = out.applied.format();
        std::replace(text.begin(), text.end(), '\n', ' ');
        result.restoreLog.push_back(who + ": " + (out.result.ok ? "wrote " + text : "FAILED " + out.result.toString()));
        ok = ok && out.result.ok;
    }
    const auto snap = m_engine.snapshot();
    ok = ok && snap.result.ok;
    for (const auto& w : m_plan.original)
        for (const auto& g : snap.groups)
            if (g.info.path == w.group)
                for (const auto& line : w.change.lines())
                    for (const auto& [d, v] : line.values)
                        if (g.schemata.value(line.resource, d) != v) {
                            ok = false;
                            result.restoreLog.push_back((displayGroup(w.group)) + " " + line.resource + ":"
                                + std::to_string(d) + " reads back "
                                + g.schemata.value(line.resource, d).value_or("nothing") + ", not " + v);
                        }
    result.restored = ok;
}

std::optional<engine::GroupPmuCounts> Runner::countPmu(SweepPmu& pmu)
{
    if (!pmu.available && !pmu.unavailable.empty()) return std::nullopt;
    auto c = m_engine.countGroupPmu(m_s.group);
    if (!c) {
        pmu.available = false;
        pmu.unavailable = c.error().toString();
        return std::nullopt;
    }
    pmu.available = true;
    pmu.method = c->method;
    return *c;
}

/// IPC, MPKI and the memory-bound share over the interval between two cumulative counts.
void setPmuFigures(SweepStep& step, const engine::GroupPmuCounts& a, const engine::GroupPmuCounts& b)
{
    const double cycles = b.cycles - a.cycles, instructions = b.instructions - a.instructions;
    if (cycles <= 0 || instructions <= 0) return; // the group's tasks did not run: no figures, not zeros
    step.ipc = instructions / cycles;
    step.mpki = (b.llcMisses - a.llcMisses) / instructions * 1000;
    if (a.memoryStallCycles && b.memoryStallCycles)
        step.memoryBound = std::clamp((*b.memoryStallCycles - *a.memoryStallCycles) / cycles, 0.0, 1.0);
}

Result<SweepResult> Runner::run()
{
    auto machine = m_engine.machine();
    if (!machine) return machine.error();
    const auto& caps = machine->capabilities;
    if (!caps.monitoring.present || !caps.monitoring.llcOccupancy)
        return errnoError(EOPNOTSUPP, "no L3 occupancy monitoring (CMT): a sweep has nothing to measure");
    const auto snap = m_engine.snapshot();
    if (!snap.result.ok) return snap.result.error();
    auto plan = planSweep(caps, snap.groups, m_s);
    if (!plan) return plan.error();
    m_plan = std::move(*plan);
    for (const auto& g : snap.groups)
        if (g.info.isControl) m_expected[g.info.path] = g.schemata;

    SweepResult result;
    result.settings = m_s;
    result.resourceText = m_plan.resourceText;
    result.notes = m_plan.notes;
    result.simulated = m_engine.source().simulated;
    const bool paced = m_s.paced || !result.simulated;
    const bool held = m_s.holdScenario && m_engine.holdScenarioSteps(true);
    if (held)
        result.notes.push_back("the scenario's timed steps are held during the sweep (they would change allocations "
                               "under it) and run after it");
    const auto previousInterval = m_engine.samplingIntervalNs();
    const std::uint64_t totalNs = m_plan.steps.size() * (m_s.settleNs + m_s.measureNs);
    Measurer::Hooks mh;
    mh.stopRequested = m_hooks.stopRequested;
    mh.onEvent = m_hooks.onEvent;
    mh.onBatch = m_hooks.onBatch;
    if (m_hooks.onProgress) mh.onProgress = [this, totalNs](std::uint64_t ns) { m_hooks.onProgress(ns, totalNs); };
    Measurer measurer(m_engine, m_s.pollNs, caps.monitoring.counterWidth, paced, mh);
    (void)m_engine.setSamplingInterval(measurer.pollNs());

    // Over --connect the agent saves these groups and writes them back should this client vanish mid-sweep
    // (docs/PROTOCOL.md "Experiments"); an agent too old for it is said, not hidden.
    std::vector<std::string> touched;
    for (const auto& w : m_plan.original)
        touched.push_back(w.group);
    const auto begun = m_engine.beginExperiment(touched);
    if (!begun.ok)
        result.notes.push_back(
            "the engine will not restore the allocation if this client disconnects: " + begun.toString());
    for (const auto& planned : m_plan.steps) {
        SweepStep step;
        step.index = static_cast<unsigned>(result.steps.size()) + 1;
        step.value = planned.value;
        if (auto ok = applyWrites(planned.writes, &step.written); !ok) {
            result.error = ok.error();
            break;
        }
        if (m_hooks.onStepStart) m_hooks.onStepStart(step.index, step.value, step.written, m_engine.nowNs());
        std::map<std::string, GroupMeasure> measured;
        if (!measurer.settle(m_s.settleNs)) {
            result.stopped = true;
            break;
        }
        const auto pmuBefore = countPmu(result.pmu);
        if (!measurer.measure(m_s.measureNs, measured)) {
            result.stopped = true;
            break;
        }
        if (pmuBefore)
            if (const auto pmuAfter = countPmu(result.pmu)) setPmuFigures(step, *pmuBefore, *pmuAfter);
        step.pmuSource = result.pmu.available ? result.pmu.method : result.pmu.unavailable;
        const auto& self = measured[m_s.group];
        step.occupancyBytes = self.occupancyBytes;
        step.totalBps = self.totalBps;
        step.localBps = self.localBps;
        if (!m_s.victim.empty()) {
            step.victimOccupancyBytes = measured[m_s.victim].occupancyBytes;
            step.victimTotalBps = measured[m_s.victim].totalBps;
        }
        step.timeNs = m_engine.nowNs();
        step.disturbed = disturbance();
        result.steps.push_back(step);
        if (m_hooks.onStep) m_hooks.onStep(step, static_cast<unsigned>(m_plan.steps.size()));
    }
    result.completed = !result.stopped && !result.error && result.steps.size() == m_plan.steps.size();
    restore(result);
    // A failed restore stays with the agent, which tries again when the client goes.
    if (begun.ok && result.restored) (void)m_engine.endExperiment();
    (void)m_engine.setSamplingInterval(previousInterval);
    if (held) m_engine.holdScenarioSteps(false);
    result.knees = kneesOf(m_s, result.steps);
    return result;
}

} // namespace

SweepKnees kneesOf(const SweepSettings& settings, const std::vector<SweepStep>& steps)
{
    std::vector<CurvePoint> bw, occ, victim;
    for (const auto& s : steps) {
        if (!s.disturbed.empty()) continue; // a step another writer changed does not show this group's curve
        const auto x = static_cast<double>(s.value);
        bw.push_back({ x, s.totalBps });
        occ.push_back({ x, s.occupancyBytes });
        // The victim's knee is the largest cap that still protects it: the smallest of -x.
        victim.push_back({ -x, s.victimOccupancyBytes });
    }
    SweepKnees k;
    // Ways: memory traffic is the group's misses, lower is better. MB: it is the group's own throughput, which a
    // tighter cap takes away, so higher is better and the knee is the tightest cap that costs it nothing.
    const bool ways = settings.kind == SweepKind::Ways;
    k.bandwidth = findKnee(bw, ways ? Better::Lower : Better::Higher, settings.tolerance);
    k.occupancy = findKnee(occ, Better::Higher, settings.tolerance);
    if (!settings.victim.empty()) {
        k.victimOccupancy = findKnee(victim, Better::Higher, settings.tolerance);
        k.victimOccupancy.x = -k.victimOccupancy.x;
        k.victimOccupancy.largest = true;
    }
    return k;
}

Result<SweepResult> runSweep(engine::Engine& engine, const SweepSettings& settings, const SweepHooks& hooks)
{
    Runner runner(engine, settings, hooks);
    return runner.run();
}

} // namespace rdt::experiment
