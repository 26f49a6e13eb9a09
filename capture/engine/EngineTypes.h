// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The plain data that crosses the capture service's boundary (engine/CaptureService.h): what the machine is,
// the groups and their allocations, events, and every command's result. Values only: no callbacks, no pointers
// to live engine objects, so the same structs can be carried over a byte stream to a remote client.

#include "CommandResult.h"
#include "PmuTypes.h"
#include "api/Writability.h"
#include "rdt/RdtBackend.h"
#include "rdt/Sample.h"
#include "rdt/Schemata.h"
#include "rdt/SimulationControl.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace rdt::engine {

/// Which RDT source runs and why (the CLI prints it; the GUI shows it in the status bar).
struct SourceDescription {
    std::string kind; ///< "sim", "sim-msr", "resctrl", "msr"
    std::string backend; ///< "resctrl at /sys/fs/resctrl", "MSRs via simulated MSR space"
    std::string why; ///< including the auto fallback reason
    bool simulated = false;
    std::string simulation; ///< "simulated Xeon Gold 6154, 8 CPUs, scenario noisy-neighbour" ("" when real)
    std::string scenario;
    std::vector<std::string> warnings; ///< other RDT users seen, odd files, ...
    /// Whether allocations can be written through this engine (decided where the engine runs: an agent answers
    /// for its own machine and rights), and if not why and what would fix it.
    api::Writability writability;
};

/// Capabilities and machine description.
struct MachineDescription {
    SourceDescription source;
    Capabilities capabilities;
    /// The CPU's CPUID snapshot (platform/CpuidDump.h): the simulated CPU's for simulated sources, the live CPU's
    /// (of the machine the engine runs on) for real ones.
    std::string cpuidJson;
    std::string hostname; ///< of the machine the engine runs on
    std::string kernel; ///< uname of that machine: "Linux 6.1.0-18-amd64 #1 SMP ... x86_64"
};

/// One group as the service sees it now.
struct GroupState {
    GroupInfo info;
    Schemata schemata; ///< control groups only
    std::string schemataError; ///< why a control group's schemata could not be read ("" when it was)
    std::vector<unsigned> cpus;
    bool cpusKnown = false; ///< false: the group's CPU list could not be read
    std::optional<std::size_t> taskCount; ///< tasks in the group; none when the tasks file could not be read
    std::vector<unsigned> tasks; ///< the PIDs, when the snapshot was asked for them
};

/// A snapshot of groups and allocations.
struct GroupsSnapshot {
    CommandResult result;
    std::uint64_t timeNs = 0; ///< source clock (simulated time for sim sources)
    std::vector<GroupState> groups;
};

/// The answer to an allocation change: the result plus what was written (normalised) and the per-domain events.
struct AllocationResult {
    CommandResult result;
    Schemata applied;
    bool rolledBack = false;
    std::vector<AllocationChanged> changes;
    /// The transaction's log: every step, then what the rollback restored (docs/SAFE-WRITES.md).
    std::vector<std::string> steps;
};

/// PMU counts of one control group's tasks, cumulative (a client takes differences over its own interval).
struct GroupPmuCounts {
    bool simulated = false; ///< counted by the simulated machine's model, not a PMU
    std::size_t tasks = 0; ///< tasks counted
    double cycles = 0;
    double instructions = 0;
    double llcMisses = 0;
    /// Cycles the tasks waited on memory (TMA's Memory Bound, as a count); none when not counted.
    std::optional<double> memoryStallCycles;
    std::string method; ///< how they were counted, for the user ("simulated: ...")
};

/// Something the service wants a user to see but that stopped nothing.
struct EngineWarning {
    std::uint64_t timeNs = 0;
    std::string text;
};

/// A failure of background work (a poll, a PMU read): reason and advice.
struct EngineError {
    std::uint64_t timeNs = 0;
    std::string where; ///< "rdt sampler", "pmu capture 2"
    std::string reason;
    std::string advice;
};

/// A PMU capture started on this engine, whoever asked for it (a lesson's action, the GUI's PMU controls, a CLI
/// command): its recipe and target as requested, so a client watching the engine (a lesson's step, docs/LESSONS.md)
/// sees a capture another front end started exactly as it sees its own. Over --connect the agent sends it as an
/// Event without the request's command line (docs/PROTOCOL.md).
struct PmuCaptureStarted {
    std::uint64_t timeNs = 0; ///< source clock
    PmuCaptureInfo info; ///< the capture's id and what the engine opened
    PmuRequest request; ///< the recipe (kind), the target (PIDs, system-wide, command) or the simulated program
};

/// The typed event stream, drained with CaptureService::drainEvents().
using EngineEvent
    = std::variant<RdtSampleBatch, AllocationChanged, SimulationEvent, EngineWarning, EngineError, PmuCaptureStarted>;

} // namespace rdt::engine
