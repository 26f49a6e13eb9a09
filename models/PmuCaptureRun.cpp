// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuCaptureRun.h"

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
    const bool callStackMode = data.branchMode == BranchGraph::Mode::CallStack;
    for (const auto& s : batch.decoded)
        addSampleRecord(data, s, callStackMode);
    data.lost += batch.lost;
    for (const auto& row : batch.tma)
        data.tma.push_back(
            PmuTmaPoint { row.timeNs, row.breakdown, row.part < seriesOfPart.size() ? seriesOfPart[row.part] : 0 });
}

engine::PmuRequest liveRequest(PmuRecipeKind kind, const PerfTarget& target)
{
    engine::PmuRequest request;
    request.kind = captureKindOf(kind);
    request.keepSamples = true;
    for (auto pid : target.pids)
        request.pids.push_back(static_cast<std::uint32_t>(pid));
    request.systemWide = target.systemWide;
    request.command = target.command;
    return request;
}

engine::PmuRequest simulatedRequest(const PmuSimOptions& options, int intervalMs, std::uint64_t cyclesPerStep)
{
    engine::PmuRequest request;
    request.kind = captureKindOf(options.kind);
    request.simulated = true;
    request.keepSamples = true;
    request.memoryScale = options.memoryScale;
    request.program = options.program;
    request.catGroup = options.catGroup;
    request.simPmu = options.model.pfmName;
    if (cyclesPerStep > 0) request.simCyclesPerPump = cyclesPerStep;
    if (intervalMs > 0 && cyclesPerStep > 0)
        request.simGhz = static_cast<double>(cyclesPerStep) / (static_cast<double>(intervalMs) * 1e6);
    return request;
}

Result<std::unique_ptr<PmuCaptureRun>> PmuCaptureRun::start(
    std::shared_ptr<engine::Engine> engine, const engine::PmuRequest& request)
{
    const auto started = engine->startPmu(request);
    if (!started.result.ok) {
        Error e = started.result.error();
        for (const auto& n : started.result.notes)
            e.advice += (e.advice.empty() ? "" : "; ") + n;
        return e;
    }
    std::unique_ptr<PmuCaptureRun> run(new PmuCaptureRun);
    run->m_engine = std::move(engine);
    run->m_info = started.info;
    run->m_callStack
        = request.kind == engine::PmuCaptureKind::LbrCallStack || request.kind == engine::PmuCaptureKind::All;
    run->nameSeries();
    return Result<std::unique_ptr<PmuCaptureRun>>(std::move(run));
}

std::unique_ptr<PmuCaptureRun> PmuCaptureRun::follow(
    std::shared_ptr<engine::Engine> engine, const engine::PmuCaptureInfo& info, engine::PmuCaptureKind kind)
{
    std::unique_ptr<PmuCaptureRun> run(new PmuCaptureRun);
    run->m_engine = std::move(engine);
    run->m_info = info;
    run->m_following = true;
    run->m_callStack = kind == engine::PmuCaptureKind::LbrCallStack || kind == engine::PmuCaptureKind::All;
    run->nameSeries();
    return run;
}

void PmuCaptureRun::nameSeries()
{
    // Each counting part counts into its own series: E-core slots (5 or 6 per cycle, level 1 only) never mix with
    // P-core slots. Labelled only on hybrid parts (or when there are several).
    std::vector<std::string> labels;
    bool labelled = false;
    for (const auto& p : m_info.parts) {
        if (!p.counting) {
            m_seriesOfPart.push_back(0);
            continue;
        }
        m_seriesOfPart.push_back(static_cast<std::uint32_t>(labels.size()));
        labels.push_back(p.pmuLabel.empty() ? p.pmuName : p.pmuLabel);
        labelled = labelled || !p.pmuLabel.empty();
    }
    if (labelled || labels.size() > 1) m_tmaSeries = std::move(labels);
}

PmuCaptureRun::~PmuCaptureRun()
{
    if (!m_stopped && !m_following) (void)m_engine->stopPmu(m_info.id);
}

PmuData PmuCaptureRun::makeData(const std::string& what) const
{
    PmuData d;
    d.kind = m_info.simulated ? PmuSourceKind::Simulated : PmuSourceKind::Live;
    d.notes = m_info.notes; // e.g. which core PMU a hybrid part's capture left out, a lowered precise_ip
    if (m_info.simulated) {
        // pmusUsed: "simulated Skylake-SP-class core"
        const auto& used = m_info.pmusUsed;
        d.name = used.substr(used.rfind("simulated ", 0) == 0 ? 10 : 0) + " running a synthetic program (SimPmu)";
        d.notes.push_back("simulated: a synthetic call-tree program on a modelled cache hierarchy (SimPmu), "
                          "not measurements of this machine");
    } else {
        d.name = what;
    }
    if (!m_engine->location().empty()) d.name += " on " + m_engine->location();
    d.tmaSeries = m_tmaSeries;
    if (m_callStack) d.branchMode = BranchGraph::Mode::CallStack;
    return d;
}

void PmuCaptureRun::take(PmuData& data)
{
    for (const auto& b : m_engine->drainPmuBatches()) {
        if (b.captureId != m_info.id) continue;
        appendBatch(data, b, m_seriesOfPart);
    }
}

void PmuCaptureRun::step(PmuData& data)
{
    if (m_stopped) return;
    if (m_following) { // its owner pumps it and reads its counters
        take(data);
        return;
    }
    (void)m_engine->pumpPmu(m_info.id);
    (void)m_engine->readPmuCounters(m_info.id);
    m_finished = m_finished || m_engine->pmuFinished(m_info.id);
    take(data);
}

void PmuCaptureRun::stop(PmuData& data)
{
    if (m_stopped) return;
    m_stopped = true;
    if (!m_following) (void)m_engine->stopPmu(m_info.id);
    take(data);
}

} // namespace rdt::pmu
