// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Drives the simulated PMU (capture/pmu SimPmu) for the GUI: one SimPmu per capture (TMA counting, LBR sampling,
// PEBS load latency), each run in slices; their records go through the real RingReader and RecordDecoder, as a
// live capture's would, and are appended to PmuData. Everything produced is labelled simulated.

#include "PmuData.h"
#include "core/Result.h"
#include "pmu/RecordDecoder.h"
#include "simpmu/SimPmu.h"

#include <vector>

namespace rdt::pmu {

struct PmuSimOptions {
    bool tma = true;
    bool lbr = true;
    bool loadLatency = true;
    LbrMode lbrMode = LbrMode::CallStack;
    double memoryScale = 1.0;
    std::uint64_t seed = 1;
    SimPmuModel model; ///< the simulated CPU's PMU generation (simulatedPmuModel of the machine's CPUID)
    /// The simulated core's clock, which turns cycles into the records' timestamps. PmuSession sets it to the
    /// cycles it runs per wall-clock interval, so the capture's time axis is wall time.
    double ghz = 2.0;
};

class PmuSimRun {
public:
    static Result<PmuSimRun> create(const PmuSimOptions& options);
    PmuSimRun(PmuSimRun&&) = default;
    PmuSimRun& operator=(PmuSimRun&&) = default;

    /// Runs every capture for `cycles` simulated cycles and appends what it produced (one TMA point per slice).
    void step(PmuData& data, std::uint64_t cycles);
    /// A fresh PmuData labelled simulated, with the simulated program's symbols registered.
    PmuData makeData() const;
    double simulatedSeconds() const { return m_cycles / (m_ghz * 1e9); }

private:
    PmuSimRun() = default;
    struct Capture {
        SimPmu sim;
        RecordDecoder decoder;
        std::vector<std::byte> lastRead; ///< TMA: previous cumulative group read
    };
    std::vector<Capture> m_captures;
    DecodedRecord m_scratch;
    double m_cycles = 0, m_ghz = 2.0;
    SimPmuModel m_model;
};

} // namespace rdt::pmu
