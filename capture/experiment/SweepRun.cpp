// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a planned sweep through the engine: each step one transaction per group, then settle, then measure; the
// original allocation written back however the sweep ends.
#include "Sweep.h"
#include "SweepPlan.h"

#include "rdt/CounterMath.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <variant>

namespace rdt::experiment {

namespace {

/// Cumulative counters of one group, summed over its monitoring domains, from one poll.
struct Reading {
    bool seen = false;
    double occupancy = 0;
    std::uint64_t total = 0;
    std::uint64_t local = 0;
};

class Runner {
public:
    Runner(engine::Engine& engine, const SweepSettings& settings, const SweepHooks& hooks)
        : m_engine(engine)
        , m_s(settings)
        , m_hooks(hooks)
    { }

    Result<SweepResult> run();

private:
    bool stopRequested() const { return m_hooks.stopRequested && m_hooks.stopRequested(); }
    /// Moves the clock to `offset` from the start (sleeping when paced), then polls; false when stopped.
    bool pollAt(std::uint64_t offset, std::map<std::string, Reading>& out);
    /// Holds the current step for `ns`, polling; the readings of the last poll. False when stopped.
    bool hold(std::uint64_t ns, std::map<std::string, Reading>* first, std::map<std::string, Reading>& last,
        std::map<std::string, double>* occupancySum, unsigned* polls);
    Status applyWrites(const std::vector<GroupWrite>& writes, std::string* written);
    /// Another writer changed something this sweep did not: "victim L3 7ff -> 7fc".
    std::string disturbance();
    void restore(SweepResult& result);

    engine::Engine& m_engine;
    SweepSettings m_s;
    SweepHooks m_hooks;
    SweepPlan m_plan;
    std::uint64_t m_t0 = 0, m_offset = 0, m_totalNs = 0;
    std::chrono::steady_clock::time_point m_wall0;
    bool m_paced = false;
    std::map<std::string, Schemata> m_expected; ///< every control group's schemata as the sweep left it
};

bool Runner::pollAt(std::uint64_t offset, std::map<std::string, Reading>& out)
{
    if (stopRequested()) return false;
    if (m_paced) m_engine.waitUntil(m_wall0 + std::chrono::nanoseconds(offset));
    m_engine.advanceTo(m_t0 + offset);
    m_offset = offset;
    (void)m_engine.pollRdt();
    out.clear();
    for (auto& e : m_engine.drainEvents()) {
        if (const auto* b = std::get_if<RdtSampleBatch>(&e)) {
            out.clear();
            for (const auto& smp : b->samples) {
                auto& r = out[smp.group];
                r.seen = true;
                r.occupancy += static_cast<double>(smp.occupancyBytes);
                r.total += smp.mbmTotalBytes;
                r.local += smp.mbmLocalBytes;
            }
        } else if (m_hooks.onEvent) {
            m_hooks.onEvent(e);
        }
    }
    if (m_hooks.onProgress) m_hooks.onProgress(offset, m_totalNs);
    return !stopRequested();
}

bool Runner::hold(std::uint64_t ns, std::map<std::string, Reading>* first, std::map<std::string, Reading>& last,
    std::map<std::string, double>* occupancySum, unsigned* polls)
{
    const std::uint64_t end = m_offset + ns;
    bool started = false;
    while (m_offset < end) {
        const std::uint64_t next = std::min(end, m_offset + m_s.pollNs);
        if (first && !started) {
            if (!pollAt(m_offset, *first)) return false;
            started = true;
        }
        if (!pollAt(next, last)) return false;
        if (occupancySum) {
            for (const auto& [g, r] : last)
                (*occupancySum)[g] += r.occupancy;
            ++*polls;
        }
    }
    return true;
}

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
                    out += (out.empty() ? "" : "; ") + (g.info.path.empty() ? "default" : g.info.path) + " "
                        + line.resource + ":" + std::to_string(d) + " " + v + " -> " + *now;
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
        const std::string who = w.group.empty() ? "default" : w.group;
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
                            result.restoreLog.push_back((w.group.empty() ? "default" : w.group) + " " + line.resource
                                + ":" + std::to_string(d) + " reads back "
                                + g.schemata.value(line.resource, d).value_or("nothing") + ", not " + v);
                        }
    result.restored = ok;
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
    m_paced = m_s.paced || !result.simulated;
    m_s.pollNs = std::clamp<std::uint64_t>(m_s.pollNs, 1'000'000, maxPollIntervalNs(caps.monitoring.counterWidth));
    if (m_engine.holdScenarioSteps(true))
        result.notes.push_back("the scenario's timed steps are held during the sweep (they would change allocations "
                               "under it) and run after it");
    const auto previousInterval = m_engine.samplingIntervalNs();
    (void)m_engine.setSamplingInterval(m_s.pollNs);
    m_t0 = m_engine.nowNs();
    m_wall0 = std::chrono::steady_clock::now();
    m_totalNs = m_plan.steps.size() * (m_s.settleNs + m_s.measureNs);

    for (const auto& planned : m_plan.steps) {
        SweepStep step;
        step.index = static_cast<unsigned>(result.steps.size()) + 1;
        step.value = planned.value;
        if (auto ok = applyWrites(planned.writes, &step.written); !ok) {
            result.error = ok.error();
            break;
        }
        std::map<std::string, Reading> first, last;
        std::map<std::string, double> occSum;
        unsigned polls = 0;
        if (!hold(m_s.settleNs, nullptr, last, nullptr, nullptr)
            || !hold(m_s.measureNs, &first, last, &occSum, &polls)) {
            result.stopped = true;
            break;
        }
        const double secs = static_cast<double>(m_s.measureNs) / 1e9;
        auto fill = [&](const std::string& g, double& occ, double& total, double* local) {
            const auto a = first.find(g), b = last.find(g);
            if (a == first.end() || b == last.end()) return;
            occ = polls ? occSum[g] / polls : 0;
            total = static_cast<double>(b->second.total - std::min(b->second.total, a->second.total)) / secs;
            if (local)
                *local = static_cast<double>(b->second.local - std::min(b->second.local, a->second.local)) / secs;
        };
        fill(m_s.group, step.occupancyBytes, step.totalBps, &step.localBps);
        if (!m_s.victim.empty()) fill(m_s.victim, step.victimOccupancyBytes, step.victimTotalBps, nullptr);
        step.timeNs = m_engine.nowNs();
        step.disturbed = disturbance();
        result.steps.push_back(step);
        if (m_hooks.onStep) m_hooks.onStep(step, static_cast<unsigned>(m_plan.steps.size()));
    }
    result.completed = !result.stopped && !result.error && result.steps.size() == m_plan.steps.size();
    restore(result);
    (void)m_engine.setSamplingInterval(previousInterval);
    m_engine.holdScenarioSteps(false);
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
    }
    return k;
}

Result<SweepResult> runSweep(engine::Engine& engine, const SweepSettings& settings, const SweepHooks& hooks)
{
    Runner runner(engine, settings, hooks);
    return runner.run();
}

} // namespace rdt::experiment
