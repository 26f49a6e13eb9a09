// SPDX-License-Identifier: GPL-3.0-or-later
#include "Advise.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <cerrno>

namespace rdt::experiment {

namespace {

/// Every listed group's lines of the way resources as they are now.
std::vector<GroupWrite> originalOf(
    const Capabilities& caps, const std::vector<engine::GroupState>& groups, const std::vector<std::string>& names)
{
    std::vector<GroupWrite> out;
    for (const auto& name : names)
        for (const auto& g : groups) {
            if (g.info.path != name) continue;
            GroupWrite w { name, {} };
            for (const auto& r : wayResources(caps))
                if (const auto* line = g.schemata.line(r))
                    for (const auto& [d, v] : line->values)
                        w.change.set(r, d, v);
            out.push_back(std::move(w));
        }
    return out;
}

} // namespace

Status applyAdvice(engine::Engine& engine, const Advice& advice, const std::vector<GroupWrite>& original,
    std::vector<std::string>& log)
{
    std::vector<std::string> done;
    for (const auto& w : advice.writes()) {
        const auto out = engine.applyAllocation(w.group, w.change);
        std::string text = w.change.format();
        std::replace(text.begin(), text.end(), '\n', ' ');
        const std::string who = displayGroup(w.group);
        if (out.result.ok) {
            log.push_back(who + ": wrote " + text);
            done.push_back(w.group);
            continue;
        }
        log.push_back(who + ": REFUSED " + out.result.toString());
        for (auto it = done.rbegin(); it != done.rend(); ++it)
            for (const auto& o : original)
                if (o.group == *it) {
                    const auto back = engine.applyAllocation(o.group, o.change);
                    log.push_back(displayGroup(o.group) + ": "
                        + (back.result.ok ? "restored" : "could NOT restore: " + back.result.toString()));
                }
        return out.result.error();
    }
    return {};
}

Result<AdviseResult> runAdvise(engine::Engine& engine, const AdviseSettings& settings, const AdviseHooks& hooks)
{
    auto machine = engine.machine();
    if (!machine) return machine.error();
    const auto& caps = machine->capabilities;
    if (settings.groups.empty()) return errnoError(EINVAL, "no groups to advise on", "e.g. --groups streamer,victim");
    // Before any sweep: a mistyped weight or protected group should not cost the user every group's sweep first.
    if (auto ok = checkObjective(settings.advice, settings.groups); !ok) return ok.error();
    AdviseResult result;
    result.simulated = engine.source().simulated;
    const bool held = engine.holdScenarioSteps(true);
    if (held) result.notes.push_back("the scenario's timed steps are held while the advisor runs");
    auto phase = [&](const std::string& what) {
        if (hooks.onPhase) hooks.onPhase(what);
    };
    auto finish = [&](Result<AdviseResult> r) {
        if (held) engine.holdScenarioSteps(false);
        return r;
    };
    const bool paced = settings.sweep.paced || !result.simulated;
    Measurer::Hooks mh { hooks.stopRequested, hooks.onEvent, {}, hooks.onBatch };

    phase("measuring the current allocation");
    {
        Measurer m(engine, settings.sweep.pollNs, caps.monitoring.counterWidth, paced, mh);
        (void)engine.setSamplingInterval(m.pollNs());
        if (!m.settle(settings.sweep.settleNs) || !m.measure(settings.sweep.measureNs, result.before)) {
            result.stopped = true;
            return finish(result);
        }
    }
    for (const auto& g : settings.groups) {
        phase("sweeping " + displayGroup(g) + " alone");
        SweepSettings s = settings.sweep;
        s.kind = SweepKind::Ways;
        s.group = g;
        s.holdScenario = false;
        s.isolate.clear();
        for (const auto& other : settings.groups)
            if (other != g) s.isolate.push_back(other);
        SweepHooks sh;
        sh.stopRequested = hooks.stopRequested;
        sh.onEvent = hooks.onEvent;
        sh.onBatch = hooks.onBatch;
        if (hooks.onSweepStep) sh.onStep = [&](const SweepStep& st, unsigned n) { hooks.onSweepStep(g, st, n); };
        if (hooks.onSweepStepStart)
            sh.onStepStart = [&](unsigned i, std::uint64_t v, const std::string& w, std::uint64_t t) {
                hooks.onSweepStepStart(g, i, v, w, t);
            };
        auto r = runSweep(engine, s, sh);
        if (!r) return finish(r.error());
        if (!r->restored)
            return finish(errnoError(EIO, "the sweep of " + g + " could not restore its allocation",
                r->restoreLog.empty() ? std::string {} : r->restoreLog.back()));
        if (r->stopped) {
            result.stopped = true;
            return finish(result);
        }
        if (r->error) return finish(*r->error);
        result.curves.push_back({ g, r->steps, r->knees.bandwidth });
    }
    const auto snap = engine.snapshot();
    if (!snap.result.ok) return finish(snap.result.error());
    auto advice = proposeAllocation(caps, snap.groups, result.curves, settings.advice);
    if (!advice) return finish(advice.error());
    result.advice = std::move(*advice);
    if (!settings.apply) return finish(result);

    phase("applying the proposal");
    const auto original = originalOf(caps, snap.groups, settings.groups);
    if (auto ok = applyAdvice(engine, result.advice, original, result.applyLog); !ok) return finish(ok.error());
    result.applied = true;
    phase("measuring the applied allocation");
    Measurer m(engine, settings.sweep.pollNs, caps.monitoring.counterWidth, paced, mh);
    if (!m.settle(settings.sweep.settleNs) || !m.measure(settings.sweep.measureNs, result.after))
        result.stopped = true; // the proposal stays applied: that is what was asked for
    return finish(result);
}

} // namespace rdt::experiment
