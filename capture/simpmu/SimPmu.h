// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated PMU (docs/ARCHITECTURE.md "Sources"): runs SimProgram against a SimMemoryModel and produces what the
// core PMU of SimPmuConfig::model (Sapphire Rapids by default, SimPmuModel.h) would: TMA counts (a group read() image),
// LBR samples (any-branch or call-stack mode) and PEBS load-latency samples whose latency and data source come from
// where the memory model found the line. Samples are written as byte-exact perf records into a MemoryRing, which the
// real RingReader and RecordDecoder consume. Everything it produces is simulated and labelled so by its users.

#include "RingWriter.h"
#include "SimCache.h"
#include "SimPmuModel.h"
#include "SimProgram.h"
#include "pmu/Recipes.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace rdt::pmu {

enum class SimCapture : std::uint8_t { Tma, LbrAny, LbrCallStack, LoadLatency };

struct SimPmuConfig {
    SimCapture capture = SimCapture::LbrCallStack;
    std::uint64_t samplePeriodCycles = 20000; ///< LBR: one sample per this many cycles
    unsigned lbrDepth = 32;
    unsigned ldlat = 30;
    std::uint64_t loadPeriod = 10; ///< load latency: one sample per this many loads above ldlat
    std::size_t ringBytes = 1u << 20;
    std::uint32_t pid = 4242;
    std::uint64_t seed = 1;
    double ghz = 2.0;
    double memoryScale = 1.0; ///< multiplies the demo's big regions (more misses, more backend bound)
    std::string program; ///< SimProgram::named: "" or "server" (the demo), "frontend", "backend"
    SimPmuModel model; ///< whose events the recipes use: slots and PERF_METRICS, or the pre-Ice Lake formula
};

/// Ground truth kept by the simulator, for tests and for the "simulated" explanation texts.
struct SimTruth {
    double cycles = 0;
    std::uint64_t uops = 0, loads = 0, branches = 0, mispredicts = 0, calls = 0;
    std::uint64_t samplesWritten = 0, samplesDropped = 0;
    std::array<std::uint64_t, static_cast<std::size_t>(MemLevel::Count)> loadsByLevel {};
    double memStallCycles = 0, coreStallCycles = 0, feStallCycles = 0, badSpecCycles = 0;
};

class SimPmu {
public:
    static Result<SimPmu> create(const SimPmuConfig& config, std::unique_ptr<SimMemoryModel> memory = {});
    SimPmu(SimPmu&&) = default;
    SimPmu& operator=(SimPmu&&) = default;

    /// Executes about `cycles` simulated cycles, writing records into the ring (the first call also writes the
    /// COMM and MMAP2 records of the simulated process).
    void run(std::uint64_t cycles);

    const Recipe& recipe() const { return m_recipe; }
    /// The sample id of recipe event i, as PERF_EVENT_IOC_ID would return it (register it with the decoder).
    static std::uint64_t eventId(std::size_t i) { return 1000 + i; }
    /// Adds the recipe's events with their ids to a decoder.
    void addEventsTo(RecordDecoder& decoder) const;
    /// The attr of the sampling event (the one whose records are in the ring).
    const EventAttr& samplingAttr() const { return m_recipe.events.back().attr; }
    MemoryRing& ring() { return *m_ring; }
    const SimProgram& program() const { return m_program; }
    const SimTruth& truth() const { return m_truth; }
    const SimPmuConfig& config() const { return m_config; }
    /// A read() of the TMA group in the recipe's read_format: cumulative slot counts, as the kernel returns them.
    std::vector<std::byte> readGroup() const;
    /// Registers the program's symbol table with a symbolizer (what the MMAP2 record's file would contain).
    void registerSymbols(Symbolizer& symbols) const;

private:
    SimPmu() = default;
    struct Frame {
        std::size_t fn;
        std::uint32_t itersLeft;
        std::uint64_t returnTo;
        bool bodyDone = false; ///< this iteration's loads and work are done; now its calls
        std::size_t nextCall = 0; ///< next entry of the call table to consider in this iteration
    };
    void start();
    void iterate(Frame& frame);
    void branch(std::uint64_t from, std::uint64_t to, std::uint8_t type, bool mispredicted);
    void maybeSampleLbr();
    void load(const SimFunction& f, std::uint32_t index);
    std::uint64_t nextAddress(const SimFunction& f, std::size_t fnIndex);
    void emit(Sample& s);
    std::uint64_t nowNs() const;
    double uniform() { return std::uniform_real_distribution<double>(0.0, 1.0)(m_rng); }

    SimPmuConfig m_config;
    Recipe m_recipe;
    SimProgram m_program;
    std::unique_ptr<SimMemoryModel> m_memory;
    std::optional<MemoryRing> m_ring; ///< MemoryRing has no empty state
    std::mt19937_64 m_rng;
    bool m_started = false;
    std::vector<Frame> m_stack;
    std::vector<BranchEntry> m_lbr; ///< ring of the last lbrDepth branches, m_lbrHead = next slot
    std::size_t m_lbrHead = 0, m_lbrCount = 0;
    std::vector<BranchEntry> m_callStack; ///< call-stack mode: one entry per active call
    double m_lastBranchCycles = 0;
    double m_nextSample = 0;
    std::uint64_t m_loadCandidates = 0;
    std::vector<std::uint64_t> m_cursor; ///< per function: sequential position / chase state
    std::uint64_t m_otherCoreWrites = 0;
    SimTruth m_truth;
    Sample m_sample;
    std::vector<std::byte> m_bytes;
};

} // namespace rdt::pmu
