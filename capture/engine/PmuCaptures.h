// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PmuTypes.h"
#include "rdt/RdtSource.h"

#include <cstdint>
#include <map>
#include <memory>

namespace rdt::engine {

class PmuCapture;
struct ServiceOptions;

/// The PMU captures one engine runs (CaptureService's PMU side): each started under an id, simulated or through
/// perf_event_open; a simulated program that runs in a CAT group kept on that group's current L3 mask; pumped, read,
/// stopped and reported. The batches go back to the caller, which queues them as events.
class PmuCaptures {
public:
    /// Both are CaptureService's members and outlive this; `source` may be replaced (a CDP remount).
    PmuCaptures(const RdtSource& source, const ServiceOptions& options);
    /// Stops every capture still running.
    ~PmuCaptures();
    PmuCaptures(const PmuCaptures&) = delete;
    PmuCaptures& operator=(const PmuCaptures&) = delete;

    /// Starts what `asked` names; `out` says what started or why nothing did. True when a capture started, with
    /// `effective` the request as it started (the simulated PMU paired with the simulated machine's CPU).
    bool start(const PmuRequest& asked, PmuStarted& out, PmuRequest& effective);
    Result<PmuBatch> pump(std::uint32_t id);
    Result<PmuBatch> readCounters(std::uint32_t id);
    bool finished(std::uint32_t id);
    /// Stops the capture; the batch holds what the stop drained and the last TMA interval.
    Result<PmuBatch> stop(std::uint32_t id);
    Result<PmuReport> report(std::uint32_t id, std::size_t topN);

private:
    /// PmuRequest::catGroup, checked: a simulated program, an RDT source that has the group, and a simulated machine
    /// (or a named preset) whose caches the program uses.
    CommandResult checkCatGroup(const PmuRequest& request);
    /// A simulated capture with PmuRequest::catGroup: gives its machine that group's current L3 mask.
    void followCatGroup(std::uint32_t id);
    PmuCapture* capture(std::uint32_t id);

    const RdtSource& m_source;
    const ServiceOptions& m_options;
    std::map<std::uint32_t, std::unique_ptr<PmuCapture>> m_captures;
    std::uint32_t m_nextId = 1;
};

} // namespace rdt::engine
