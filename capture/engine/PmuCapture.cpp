// SPDX-License-Identifier: GPL-3.0-or-later
#include "PmuCapture.h"

#include <algorithm>
#include <cerrno>

namespace rdt::engine {

PmuCapture::PmuCapture(const PmuRequest& request)
    : m_request(request)
    , m_graph(request.kind == PmuCaptureKind::LbrCallStack || request.kind == PmuCaptureKind::All
              ? pmu::BranchGraph::Mode::CallStack
              : pmu::BranchGraph::Mode::AnyBranch)
    , m_t0(std::chrono::steady_clock::now())
{ }

std::unique_ptr<PmuCapture> PmuCapture::start(std::uint32_t id, const PmuRequest& request, PmuStarted& out,
    std::unique_ptr<pmu::PerfSyscalls> sys, const CpuidTable* engineCpu)
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
    return request.simulated ? startSimPmuCapture(id, request, out, engineCpu)
                             : startPerfPmuCapture(id, request, out, std::move(sys));
}

double PmuCapture::secondsSinceStart() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
}

namespace {
/// A PEBS load-latency sample (the GUI's rule for perf.data files too, models/PmuData.cpp addSample).
bool isLoadLatency(const pmu::Sample& s)
{
    return s.has(pmu::perf::SampleWeight | pmu::perf::SampleWeightStruct) && s.has(pmu::perf::SampleDataSrc);
}
} // namespace

void PmuCapture::consume(const pmu::DecodedRecord& r)
{
    m_symbols.onRecord(r);
    if (r.kind == pmu::RecordKind::Lost) m_lost += r.lost.lost;
    if (r.kind != pmu::RecordKind::Sample) return;
    // By what the sample carries, so one capture may hold several recipes (PmuCaptureKind::All).
    if (r.sample.has(pmu::perf::SampleBranchStack)) {
        m_graph.add(r.sample);
    } else if (isLoadLatency(r.sample)) {
        m_loads.add(r.sample);
    } else {
        const auto& leaf = m_symbols.resolve(r.sample.pid, r.sample.ip);
        ++m_hot[{ leaf.function, leaf.module }];
        ++m_otherSamples;
    }
    if (m_request.keepSamples) keep(r.sample);
}

void PmuCapture::keep(const pmu::Sample& s)
{
    PmuSampleRecord k;
    k.timeNs = s.time;
    k.pid = s.pid;
    k.ip = s.ip;
    k.tid = s.tid;
    k.cpu = pmu::sampleCpu(s);
    if (s.has(pmu::perf::SampleCallchain)) k.callchain = s.callchain; // a reused Sample keeps absent fields' values
    k.userStack = s.has(pmu::perf::SampleStackUser);
    k.hasBranchStack = s.has(pmu::perf::SampleBranchStack);
    if (k.hasBranchStack) k.branches = s.branches;
    k.loadLatency = !k.hasBranchStack && isLoadLatency(s);
    if (k.loadLatency) {
        k.addr = s.addr;
        k.dataSrc = s.dataSrc;
        k.latency = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.latency(), 0xffffffffu));
    }
    // Every address an aggregate may name (BranchGraph: the IP and both ends of each branch; LoadLatency: the IP;
    // CallTree: the callchain's addresses).
    name(k.pid, k.ip);
    for (auto ip : k.callchain)
        if (!pmu::perf::isContextMarker(ip) && ip != 0) name(k.pid, ip);
    for (const auto& b : k.branches) {
        name(k.pid, b.from);
        name(k.pid, b.to);
    }
    m_decoded.push_back(std::move(k));
}

void PmuCapture::name(std::uint32_t pid, std::uint64_t addr)
{
    if (m_named.count({ pid, addr })) return;
    const pmu::SymbolInfo& symbol = m_symbols.resolve(pid, addr);
    // An address outside every mapping known so far may be named later, when the record of its mapping is read (it
    // may sit in another CPU's ring, a drain later): sent as it is now, and again (once per batch) until it is named.
    if (symbol.module.empty()) {
        if (!m_unnamedThisBatch.insert({ pid, addr }).second) return;
    } else {
        m_named.insert({ pid, addr });
    }
    m_names.push_back({ pid, addr, symbol });
}

PmuBatch PmuCapture::batch()
{
    PmuBatch b;
    b.captureId = m_info.id;
    b.seconds = secondsSinceStart();
    b.samples = m_graph.samples() + m_loads.samples() + m_otherSamples; // one kind per sample
    b.newSamples = b.samples - m_reported;
    m_reported = b.samples;
    b.decoded = std::exchange(m_decoded, {});
    b.names = std::exchange(m_names, {});
    m_unnamedThisBatch.clear();
    b.lost = std::exchange(m_lost, 0);
    return b;
}

PmuBatch PmuCapture::lastBatch()
{
    PmuBatch b = batch();
    b.tma = std::exchange(m_stopRows, {});
    b.finished = true;
    return b;
}

PmuReport PmuCapture::report(std::size_t topN)
{
    PmuReport r;
    const auto k = m_request.kind;
    const bool all = k == PmuCaptureKind::All;
    if (all || k == PmuCaptureKind::LbrAny || k == PmuCaptureKind::LbrCallStack) r.branches = m_graph.report(m_symbols);
    if (all || k == PmuCaptureKind::LoadLatency) r.loads = m_loads.report(m_symbols, topN);
    if (all || k == PmuCaptureKind::Tma)
        for (std::size_t i = 0; i < m_intervals.size(); ++i)
            if (i >= m_info.parts.size() || m_info.parts[i].counting) r.tmaTotals.push_back(m_intervals[i].total());
    for (const auto& [key, n] : m_hot)
        r.hotFunctions.push_back({ key.first, key.second, n, n });
    std::stable_sort(
        r.hotFunctions.begin(), r.hotFunctions.end(), [](const auto& a, const auto& b) { return a.self > b.self; });
    fillReport(r);
    return r;
}

} // namespace rdt::engine
