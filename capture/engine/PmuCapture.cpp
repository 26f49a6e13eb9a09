// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuCapture.h"

#include <algorithm>
#include <cerrno>

namespace rdt::engine {

PmuCapture::PmuCapture(const PmuRequest& request)
    : m_request(request)
    , m_graph(request.kind == PmuCaptureKind::LbrCallStack ? pmu::BranchGraph::Mode::CallStack
                                                           : pmu::BranchGraph::Mode::AnyBranch)
    , m_t0(std::chrono::steady_clock::now())
{ }

std::unique_ptr<PmuCapture> PmuCapture::start(std::uint32_t id, const PmuRequest& request, PmuStarted& out)
{
    out = {};
    const bool hasTarget = !request.pids.empty() || request.systemWide || !request.command.empty();
    if (request.simulated && hasTarget) {
        out.failure = PmuFailure::BadRequest;
        out.result = CommandResult::failure(errnoError(EINVAL,
            "the simulated PMU runs its own program; it cannot attach to processes, CPUs or a command",
            "drop the target or use the real PMU (perf)"));
        return nullptr;
    }
    if (!request.simulated && !hasTarget) {
        out.failure = PmuFailure::BadRequest;
        out.result = CommandResult::failure(
            errnoError(EINVAL, "the real PMU needs a target", "give process ids, system-wide, or a command to launch"));
        return nullptr;
    }
    return request.simulated ? startSimPmuCapture(id, request, out) : startPerfPmuCapture(id, request, out);
}

double PmuCapture::secondsSinceStart() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
}

void PmuCapture::consume(const pmu::DecodedRecord& r)
{
    m_symbols.onRecord(r);
    if (r.kind != pmu::RecordKind::Sample) return;
    const bool lbr = m_request.kind == PmuCaptureKind::LbrAny || m_request.kind == PmuCaptureKind::LbrCallStack;
    if (lbr) {
        m_graph.add(r.sample);
    } else if (m_request.kind == PmuCaptureKind::CpuClock) {
        const auto& leaf = m_symbols.resolve(r.sample.pid, r.sample.ip);
        ++m_hot[{ leaf.function, leaf.module }];
        ++m_otherSamples;
    } else {
        m_loads.add(r.sample);
    }
}

PmuBatch PmuCapture::batch()
{
    PmuBatch b;
    b.captureId = m_info.id;
    b.seconds = secondsSinceStart();
    const bool lbr = m_request.kind == PmuCaptureKind::LbrAny || m_request.kind == PmuCaptureKind::LbrCallStack;
    b.samples = lbr                                  ? m_graph.samples()
        : m_request.kind == PmuCaptureKind::CpuClock ? m_otherSamples
                                                     : m_loads.samples();
    b.newSamples = b.samples - m_reported;
    m_reported = b.samples;
    return b;
}

PmuReport PmuCapture::report(std::size_t topN)
{
    PmuReport r;
    if (m_request.kind == PmuCaptureKind::LbrAny || m_request.kind == PmuCaptureKind::LbrCallStack)
        r.branches = m_graph.report(m_symbols);
    if (m_request.kind == PmuCaptureKind::LoadLatency) r.loads = m_loads.report(m_symbols, topN);
    if (m_request.kind == PmuCaptureKind::Tma)
        for (const auto& iv : m_intervals)
            r.tmaTotals.push_back(iv.total());
    for (const auto& [key, n] : m_hot)
        r.hotFunctions.push_back({ key.first, key.second, n, n });
    std::stable_sort(
        r.hotFunctions.begin(), r.hotFunctions.end(), [](const auto& a, const auto& b) { return a.self > b.self; });
    fillReport(r);
    return r;
}

} // namespace rdt::engine
