// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One live PMU capture inside the service (not part of the service's API): the simulated PMU or perf sessions,
// the decoder, the symbolizer (records' mmaps, /proc/PID/maps of attached processes, kallsyms, the simulated
// program's table) and the aggregators. The service hands out only the plain data of PmuTypes.h.

#include "EngineTypes.h"
#include "PmuTypes.h"
#include "platform/CpuidSource.h"
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/PerfSyscalls.h"
#include "pmu/RecordDecoder.h"
#include "pmu/Symbolizer.h"
#include "pmu/Tma.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rdt::engine {

class PmuCapture {
public:
    virtual ~PmuCapture() = default;

    /// Opens and starts the capture `request` names; `out` says what started or why nothing did. `sys`: the
    /// kernel's perf_event_open for real captures (null: the real one; tests pass a fake). `engineCpu`: the CPUID of
    /// the engine's own simulated machine, whose caches a simulated program in a group (PmuRequest::catGroup) uses
    /// when the request names no machine preset (null: the engine's source is not simulated).
    static std::unique_ptr<PmuCapture> start(std::uint32_t id, const PmuRequest& request, PmuStarted& out,
        std::unique_ptr<pmu::PerfSyscalls> sys = nullptr, const CpuidTable* engineCpu = nullptr);

    const PmuCaptureInfo& info() const { return m_info; }
    /// PmuRequest::catGroup: the group whose L3 mask the capture's machine follows ("" = none).
    const std::string& catGroup() const { return m_request.catGroup; }
    /// Sets the L3 capacity bitmask the program runs with (simulated captures on a machine; others ignore it).
    virtual void setL3Mask(std::uint32_t cbm) { (void)cbm; }
    /// Moves the capture on: the simulated PMU runs one slice; perf rings are drained.
    virtual PmuBatch pump() = 0;
    /// Reads the TMA groups (TMA captures): one interval per part since the last read.
    virtual Result<PmuBatch> readCounters() = 0;
    /// The launched command exited.
    virtual bool finished() { return false; }
    /// Stops counting, drains what is left and closes the last TMA interval.
    virtual void stop() = 0;
    /// After stop(): what it drained, with the last TMA interval it closed.
    PmuBatch lastBatch();
    PmuReport report(std::size_t topN);

protected:
    explicit PmuCapture(const PmuRequest& request);
    double secondsSinceStart() const;
    /// Symbolizes and aggregates one decoded record (and keeps it for the next batch with keepSamples).
    void consume(const pmu::DecodedRecord& record);
    /// The counts so far, and with keepSamples the samples and names since the last batch.
    PmuBatch batch();
    virtual void fillReport(PmuReport& report) = 0;

    PmuRequest m_request;
    PmuCaptureInfo m_info;
    pmu::Symbolizer m_symbols;
    pmu::BranchGraph m_graph;
    pmu::LoadLatency m_loads;
    std::vector<pmu::TmaIntervals> m_intervals; ///< one per part
    std::map<std::pair<std::string, std::string>, std::uint64_t> m_hot; ///< cpu-clock: (function, module) -> samples
    std::uint64_t m_otherSamples = 0;
    std::chrono::steady_clock::time_point m_t0;
    std::uint64_t m_reported = 0; ///< samples counted in earlier batches
    std::vector<PmuTmaRow> m_stopRows; ///< the TMA intervals stop() closed, for lastBatch()

private:
    void keep(const pmu::Sample& sample);
    void name(std::uint32_t pid, std::uint64_t addr);

    std::vector<PmuSampleRecord> m_decoded; ///< keepSamples: since the last batch
    std::vector<PmuSymbolName> m_names; ///< keepSamples: since the last batch
    std::set<std::pair<std::uint32_t, std::uint64_t>> m_named; ///< (pid, address) already sent with a name
    std::set<std::pair<std::uint32_t, std::uint64_t>> m_unnamedThisBatch; ///< sent unnamed in this batch
    std::uint64_t m_lost = 0; ///< since the last batch
};

/// The simulated PMU running rdtscope's synthetic request server (engine/SimPmuCapture.cpp).
std::unique_ptr<PmuCapture> startSimPmuCapture(
    std::uint32_t id, const PmuRequest& request, PmuStarted& out, const CpuidTable* engineCpu);
/// perf_event_open sessions, one per recipe and core PMU, through `sys` (engine/PerfPmuCapture.cpp).
std::unique_ptr<PmuCapture> startPerfPmuCapture(
    std::uint32_t id, const PmuRequest& request, PmuStarted& out, std::unique_ptr<pmu::PerfSyscalls> sys);

} // namespace rdt::engine
