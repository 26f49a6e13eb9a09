// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuLiveRun.h"

namespace rdt::pmu {

engine::PmuCaptureKind captureKindOf(PmuRecipeKind kind)
{
    switch (kind) {
    case PmuRecipeKind::All:
        return engine::PmuCaptureKind::All;
    case PmuRecipeKind::Tma:
        return engine::PmuCaptureKind::Tma;
    case PmuRecipeKind::LbrCallStack:
        return engine::PmuCaptureKind::LbrCallStack;
    case PmuRecipeKind::LbrAny:
        return engine::PmuCaptureKind::LbrAny;
    case PmuRecipeKind::LoadLatency:
        return engine::PmuCaptureKind::LoadLatency;
    case PmuRecipeKind::CpuClock:
        break;
    }
    return engine::PmuCaptureKind::CpuClock;
}

void appendBatch(PmuData& data, const engine::PmuBatch& batch, const std::vector<std::uint32_t>& seriesOfPart)
{
    for (const auto& n : batch.names)
        data.symbols->addResolved(n.pid, n.addr, n.symbol);
    for (const auto& s : batch.decoded) {
        if (s.hasBranchStack) {
            data.branches.push_back(PmuBranchSample { s.timeNs, s.pid, s.ip, s.branches });
        } else if (s.loadLatency) {
            data.loads.push_back(PmuLoadSample { s.timeNs, s.ip, s.addr, s.dataSrc, s.pid, s.latency });
        } else {
            ++data.otherSamples;
            ++data.otherFunctions[data.symbols->resolve(s.pid, s.ip).function];
        }
    }
    data.lost += batch.lost;
    for (const auto& row : batch.tma)
        data.tma.push_back(
            PmuTmaPoint { row.timeNs, row.breakdown, row.part < seriesOfPart.size() ? seriesOfPart[row.part] : 0 });
}

Result<std::unique_ptr<PmuLiveRun>> PmuLiveRun::start(
    std::shared_ptr<engine::Engine> engine, PmuRecipeKind kind, const PerfTarget& target)
{
    engine::PmuRequest request;
    request.kind = captureKindOf(kind);
    request.keepSamples = true;
    for (auto pid : target.pids)
        request.pids.push_back(static_cast<std::uint32_t>(pid));
    request.systemWide = target.systemWide;
    request.command = target.command;
    const auto started = engine->startPmu(request);
    if (!started.result.ok) {
        Error e = started.result.error();
        for (const auto& n : started.result.notes)
            e.advice += (e.advice.empty() ? "" : "; ") + n;
        return e;
    }
    std::unique_ptr<PmuLiveRun> run(new PmuLiveRun);
    run->m_engine = std::move(engine);
    run->m_info = started.info;
    run->m_callStack
        = request.kind == engine::PmuCaptureKind::LbrCallStack || request.kind == engine::PmuCaptureKind::All;
    // Each counting part counts into its own series: E-core slots (5 or 6 per cycle, level 1 only) never mix with
    // P-core slots. Labelled only on hybrid parts (or when there are several).
    std::vector<std::string> labels;
    bool labelled = false;
    for (const auto& p : run->m_info.parts) {
        if (!p.counting) {
            run->m_seriesOfPart.push_back(0);
            continue;
        }
        run->m_seriesOfPart.push_back(static_cast<std::uint32_t>(labels.size()));
        labels.push_back(p.pmuLabel.empty() ? p.pmuName : p.pmuLabel);
        labelled = labelled || !p.pmuLabel.empty();
    }
    if (labelled || labels.size() > 1) run->m_tmaSeries = std::move(labels);
    return Result<std::unique_ptr<PmuLiveRun>>(std::move(run));
}

PmuLiveRun::~PmuLiveRun()
{
    if (!m_stopped) (void)m_engine->stopPmu(m_info.id);
}

PmuData PmuLiveRun::makeData(const std::string& what) const
{
    PmuData d;
    d.kind = PmuSourceKind::Live;
    d.name = m_engine->location().empty() ? what : what + " on " + m_engine->location();
    d.notes = m_info.notes; // e.g. which core PMU a hybrid part's capture left out, a lowered precise_ip
    d.tmaSeries = m_tmaSeries;
    if (m_callStack) d.branchMode = BranchGraph::Mode::CallStack;
    return d;
}

void PmuLiveRun::take(PmuData& data)
{
    for (const auto& b : m_engine->drainPmuBatches()) {
        if (b.captureId != m_info.id) continue;
        appendBatch(data, b, m_seriesOfPart);
    }
}

void PmuLiveRun::step(PmuData& data)
{
    if (m_stopped) return;
    (void)m_engine->pumpPmu(m_info.id);
    (void)m_engine->readPmuCounters(m_info.id);
    m_finished = m_finished || m_engine->pmuFinished(m_info.id);
    take(data);
}

void PmuLiveRun::stop(PmuData& data)
{
    if (m_stopped) return;
    m_stopped = true;
    (void)m_engine->stopPmu(m_info.id);
    take(data);
}

} // namespace rdt::pmu
