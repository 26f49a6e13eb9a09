// SPDX-License-Identifier: GPL-3.0-or-later
#include "BlameRecording.h"
#include "TaskSuspects.h"

#include "rdt/GroupNames.h"

#include <cstdio>

namespace rdt::blame {

Status BlameRecording::open(engine::Engine& engine, const std::string& file, const BlameSettings& settings, bool force,
    const experiment::SessionOrigin& origin)
{
    return m_rec.open(engine, file, settings.pollNs, force, origin);
}

void BlameRecording::mark(std::uint64_t timeNs, const std::string& text)
{
    m_rec.marker(timeNs, kBlameMarkerKind, text);
}

void BlameRecording::hook(BlameHooks& hooks)
{
    m_rec.hookEvents(hooks.onBatch, hooks.onEvent);
    auto phase = hooks.onPhase;
    hooks.onPhase = [this, phase](const std::string& text, std::uint64_t t) {
        if (phase) phase(text, t);
        mark(t, phaseMarker(text));
    };
    auto probe = hooks.onProbe;
    hooks.onProbe = [this, probe](const ProbeResult& p, std::uint64_t t) {
        if (probe) probe(p, t);
        mark(t, probeMarker(p));
    };
}

std::string phaseMarker(const std::string& phase)
{
    return "blame: " + phase;
}

std::string probeMarker(const ProbeResult& p)
{
    return "blame probe " + displayGroup(p.group) + ": " + (p.sentence.empty() ? "no verdict" : p.sentence);
}

std::string endMarker(const BlameResult& r)
{
    return std::string(r.stopped ? "blame stopped" : "blame ended")
        + (r.probed ? (r.restored ? "; every probed allocation restored" : "; a probe was NOT restored") : "");
}

std::vector<std::string> blameMarkers(const BlameResult& r)
{
    std::vector<std::string> out;
    for (const auto& d : r.harm.domains)
        out.push_back("blame victim: " + d.text);
    for (const auto& m : r.harm.missing)
        out.push_back("blame missing: " + m);
    unsigned rank = 0;
    for (const auto& s : r.ranking) {
        char head[200], effect[64] = "no evidence of its own";
        if (!s.task)
            std::snprintf(effect, sizeof effect, "effect %.1f %% +- %.1f %%", s.effect * 100, s.uncertainty * 100);
        std::snprintf(head, sizeof head, "blame rank %u %s (%s): %s%s%s: ", ++rank, suspectName(s).c_str(),
            resourceName(s.resource), effect, s.probe && !s.probe->verdict.empty() ? ", verdict " : "",
            s.probe && !s.probe->verdict.empty() ? s.probe->verdict.c_str() : "");
        out.push_back(head + s.sentence);
    }
    if (r.containment) {
        const auto& c = *r.containment;
        out.push_back("blame contain " + displayGroup(c.group) + ": "
            + (c.applied ? c.sentence + "; undo: " + c.undoText : "not contained: " + c.error));
    }
    return out;
}

Status BlameRecording::finish(engine::Engine& engine, const Result<BlameResult>& result)
{
    const std::uint64_t t = engine.nowNs();
    if (!result) {
        mark(t, "blame failed: " + result.error().toString());
        return m_rec.finish("blame failed");
    }
    for (const auto& line : blameMarkers(*result))
        mark(t, line);
    mark(t, endMarker(*result));
    return m_rec.finish(result->stopped ? "blame stopped" : "blame ended");
}

} // namespace rdt::blame
