// SPDX-License-Identifier: GPL-3.0-or-later
#include "AdviseRecording.h"
#include "rdt/GroupNames.h"

#include <algorithm>
#include <cstdio>

namespace rdt::experiment {

GroupMeasure measureOf(const std::map<std::string, GroupMeasure>& m, const std::string& group)
{
    const auto it = m.find(group);
    return it == m.end() ? GroupMeasure {} : it->second;
}

double percentChange(double now, double then)
{
    return then > 0 ? 100.0 * (now - then) / then : 0.0;
}

std::string oneLine(const Schemata& change)
{
    std::string text = change.format();
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

std::string proposalMarker(const GroupAdvice& g, const GroupMeasure& now, double knee)
{
    char text[320];
    std::snprintf(text, sizeof text,
        "%u ways, %s (knee %.0f ways); expected LLC %.2f MiB, MBT %.1f MB/s (now %.2f MiB, %.1f MB/s)", g.ways,
        oneLine(g.change).c_str(), knee, g.expectedOccupancyBytes / 1048576.0, g.expectedTotalBps / 1e6,
        now.occupancyBytes / 1048576.0, now.totalBps / 1e6);
    return "advise " + displayGroup(g.group) + ": " + text;
}

std::string measuredMarker(const GroupAdvice& g, const GroupMeasure& m)
{
    char text[240];
    std::snprintf(text, sizeof text, "LLC %.2f MiB against %.2f MiB expected (%+.1f %%), MBT %.1f MB/s against %.1f",
        m.occupancyBytes / 1048576.0, g.expectedOccupancyBytes / 1048576.0,
        percentChange(m.occupancyBytes, g.expectedOccupancyBytes), m.totalBps / 1e6, g.expectedTotalBps / 1e6);
    return "advise " + displayGroup(g.group) + " measured: " + text;
}

Status AdviseRecording::open(engine::Engine& svc, const std::string& file, const AdviseSettings& settings, bool force,
    const SessionOrigin& origin)
{
    m_settings = settings;
    return m_rec.open(svc, file, settings.sweep.pollNs, force, origin);
}

unsigned AdviseRecording::number(const std::string& g) const
{
    const auto& groups = m_settings.groups;
    return static_cast<unsigned>(std::find(groups.begin(), groups.end(), g) - groups.begin()) + 1;
}

void AdviseRecording::hook(AdviseHooks& hooks, engine::Engine& svc)
{
    m_rec.hookEvents(hooks.onBatch, hooks.onEvent);
    auto phase = hooks.onPhase;
    hooks.onPhase = [this, phase, &svc](const std::string& what) {
        if (phase) phase(what);
        mark(svc, "advise: " + what);
    };
    auto sweepOf = [](const std::string& g) {
        SweepSettings s;
        s.group = g;
        return s;
    };
    auto started = hooks.onSweepStepStart;
    hooks.onSweepStepStart = [this, started, sweepOf](const std::string& g, unsigned i, std::uint64_t v,
                                 const std::string& w, std::uint64_t t) {
        if (started) started(g, i, v, w, t);
        m_rec.stepStarted(number(g), sweepOf(g), i, v, w, t);
    };
    auto step = hooks.onSweepStep;
    hooks.onSweepStep = [this, step, sweepOf](const std::string& g, const SweepStep& st, unsigned planned) {
        if (step) step(g, st, planned);
        m_rec.stepMeasured(number(g), sweepOf(g), st);
    };
}

void AdviseRecording::mark(engine::Engine& svc, const std::string& text)
{
    m_rec.marker(svc.nowNs(), "advise", text);
}

Status AdviseRecording::finish(engine::Engine& svc, const Result<AdviseResult>& result)
{
    if (!result) {
        mark(svc, "advise failed: " + result.error().toString());
        return m_rec.finish("advise failed");
    }
    const auto& r = *result;
    if (r.stopped && r.advice.groups.empty())
        mark(svc, "advise stopped: every sweep's allocation was restored, nothing proposed");
    for (std::size_t i = 0; i < r.advice.groups.size(); ++i) {
        const auto& g = r.advice.groups[i];
        mark(svc, proposalMarker(g, measureOf(r.before, g.group), r.curves[i].knee.x));
    }
    if (!r.advice.groups.empty())
        mark(svc,
            std::string("advise proposal (objective ") + objectiveName(m_settings.advice.objective)
                + (r.applied ? "): applied" : "): not applied"));
    if (r.applied)
        for (const auto& g : r.advice.groups)
            mark(svc, measuredMarker(g, measureOf(r.after, g.group)));
    return m_rec.finish(r.stopped ? "advise stopped" : "advise ended");
}

} // namespace rdt::experiment
