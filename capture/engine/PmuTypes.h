// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plain data of the service's PMU captures: what to capture, what started, the batches the event stream carries
// and the summary a client asks for at the end. Values only (see EngineTypes.h).

#include "CommandResult.h"
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/PerfRecord.h"
#include "pmu/RingReader.h"
#include "pmu/SampleStack.h"
#include "pmu/Symbolizer.h"
#include "pmu/Tma.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::engine {

/// What a capture records: TMA slots, LBR branch stacks (every taken branch or call stacks), PEBS load latency,
/// or the software cpu-clock event, which needs no hardware PMU (where the time goes, by function). All is TMA, LBR
/// call stacks and load latency at once (the GUI's default recipe): one session per recipe and core PMU, or on the
/// simulated PMU one simulated core per recipe, each running the same program.
enum class PmuCaptureKind { Tma, LbrAny, LbrCallStack, LoadLatency, CpuClock, All };

/// Start a PMU recipe on a target: the real PMU through perf_event_open, or the simulated PMU (its own program).
struct PmuRequest {
    PmuCaptureKind kind = PmuCaptureKind::Tma;
    bool simulated = false;
    // perf targets (one of them): processes, every CPU, or a command the service launches.
    std::vector<std::uint32_t> pids;
    bool systemWide = false;
    std::vector<std::string> command;
    unsigned ldlat = 30; ///< load latency threshold in cycles
    bool kernel = false; ///< count kernel mode too
    /// Batches carry every decoded sample and the engine's name of each address in them (PmuBatch::decoded,
    /// PmuBatch::names): a front end that re-aggregates any time range (the GUI) keeps them; the CLI does not.
    bool keepSamples = false;
    // simulated PMU only
    double memoryScale = 1; ///< multiplies the simulated program's working sets
    std::string machine; ///< a simulated machine preset whose caches serve the loads ("" = the PMU's own)
    /// The RDT group (its path) of this engine's source whose class of service the program runs in, on `machine`'s
    /// caches or, with no `machine`, on the engine's own simulated machine's. The engine gives the program the
    /// group's L3 mask (domain 0) when the capture starts and before every pump, so its LLC capacity is the group's
    /// ways x the machine's bytes per way (SDM 20.19.4), as the group's own tasks see it. "" = no group: the PMU's
    /// own caches (or `machine`'s, every way). The engine refuses a group it does not have.
    std::string catGroup;
    /// The core PMU the simulated one stands for, by libpfm4 name (simpmu/SimPmuModel.h: "skx", "icx", "spr", ...);
    /// "" = the machine preset's CPU, else Sapphire Rapids. The GUI names its simulated machine's CPU here.
    std::string simPmu;
    std::uint64_t simCyclesPerPump = 1'000'000; ///< simulated cycles one pumpPmu runs (1 .. 10^8)
    /// The simulated core's clock in GHz (10^-6 .. 1000), which turns cycles into the records' timestamps. The GUI
    /// sets it to the cycles it pumps per wall-clock step, so its time axis runs with the wall clock.
    double simGhz = 2.0;
    /// The synthetic program (SimProgram::named): "" = the request server, "frontend", "backend".
    std::string program;
};

/// One core PMU's part of a capture (hybrid parts have two).
struct PmuPartInfo {
    std::string pmuName; ///< "cpu_core", "cpu_atom", "" on parts with one core PMU
    std::string pmuLabel; ///< "P-cores (cpu_core)"
    std::string description; ///< the recipe's one-line description
    bool levelTwoTma = false; ///< the TMA recipe counts level 2 (pmu::recipeHasTmaLevel2)
    bool counting = false; ///< a TMA counting group (its intervals come as PmuTmaRow with this part's index)
};

struct PmuCaptureInfo {
    std::uint32_t id = 0;
    bool simulated = false;
    std::string pmusUsed; ///< "cpu (Sapphire Rapids)" / describeParts()
    std::string caches; ///< sim: "the PMU's own L1/L2/L3 model" or "simulated machine skx-6154"
    std::vector<PmuPartInfo> parts;
    std::vector<std::string> notes; ///< PMUs left out, precise_ip lowered, ...
    unsigned lbrDepth = 0; ///< architectural LBR depth (CPUID.1CH), 0 when unknown
};

/// Why a capture could not start, so a CLI can pick its exit code without parsing text.
enum class PmuFailure { None, Unavailable, Open, Start, BadRequest };

/// startPmu's answer.
struct PmuStarted {
    CommandResult result; ///< failure: the reason, advice, and notes such as what the kernel says to a probe
    PmuFailure failure = PmuFailure::None;
    PmuCaptureInfo info;
};

/// One TMA interval of one part.
struct PmuTmaRow {
    std::uint32_t part = 0; ///< index into PmuCaptureInfo::parts
    double seconds = 0; ///< since the capture started
    pmu::TmaBreakdown breakdown;
    /// The end of the interval on the samples' clock: CLOCK_MONOTONIC for perf (the recipes sample with
    /// use_clockid), the simulated PMU's own clock for simulated captures.
    std::uint64_t timeNs = 0;
};

/// One decoded sample as a front end keeps it (PmuRequest::keepSamples): what any time range's branch graph,
/// load-latency tables and hot functions are aggregated from.
struct PmuSampleRecord {
    std::uint64_t timeNs = 0; ///< the samples' clock (see PmuTmaRow::timeNs)
    std::uint32_t pid = 0;
    std::uint64_t ip = 0;
    bool hasBranchStack = false; ///< an LBR sample (even with an empty stack: its IP is a self sample)
    std::vector<pmu::BranchEntry> branches; ///< branches[0] is the most recent
    bool loadLatency = false; ///< a PEBS load-latency sample: addr, dataSrc and latency are set
    std::uint64_t addr = 0;
    std::uint64_t dataSrc = 0;
    std::uint32_t latency = 0; ///< cycles
    std::uint32_t tid = 0;
    std::uint32_t cpu = pmu::kUnknownCpu; ///< pmu::kUnknownCpu when the recipe did not record PERF_SAMPLE_CPU
    std::vector<std::uint64_t> callchain; ///< PERF_SAMPLE_CALLCHAIN as recorded (context markers included)
    bool userStack = false; ///< the sample carried PERF_SAMPLE_STACK_USER (not kept)
};

/// The engine's name for one address of one process (symbolised with the records' mmaps, /proc/PID/maps, kallsyms
/// or the simulated program's table), sent once per capture in the first batch whose samples use it.
struct PmuSymbolName {
    std::uint32_t pid = 0;
    std::uint64_t addr = 0;
    pmu::SymbolInfo symbol;
};

/// What one pump of a capture produced.
struct PmuBatch {
    std::uint32_t captureId = 0;
    double seconds = 0; ///< since the capture started (wall clock)
    std::uint64_t samples = 0; ///< samples aggregated so far (all parts)
    std::uint64_t newSamples = 0; ///< in this batch
    std::vector<PmuTmaRow> tma; ///< when the pump read the counters
    bool finished = false; ///< the launched command exited, or the capture stopped (nothing more will come)
    // With PmuRequest::keepSamples:
    std::vector<PmuSampleRecord> decoded; ///< the samples decoded since the last batch, in ring order
    std::vector<PmuSymbolName> names; ///< names of addresses first used by this batch's samples
    std::uint64_t lost = 0; ///< samples the kernel reported lost since the last batch
};

struct PmuPartStats {
    std::string pmuLabel;
    pmu::RingStats ring;
    std::uint64_t decodeErrors = 0;
};

/// The summary of a capture, functions named with /proc/PID/maps, kallsyms and the records' mmaps.
struct PmuReport {
    std::optional<pmu::BranchGraphReport> branches;
    std::optional<pmu::LoadLatencyReport> loads;
    std::vector<pmu::TmaBreakdown> tmaTotals; ///< one per part, for TMA captures
    /// cpu-clock captures: samples by the function they hit (`self`), most first.
    std::vector<pmu::FunctionNode> hotFunctions;
    std::vector<PmuPartStats> parts;
    double simulatedCpuMs = 0; ///< simulated PMU: CPU time the program ran
};

} // namespace rdt::engine
