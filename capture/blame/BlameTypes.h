// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The values a blame run produces (capture/blame/Blame.h): the victim's harm per L3 domain, the suspects ranked with
// their evidence, and each fence probe with its verdict. Plain data, so the CLI prints it, the session keeps it and
// a GUI page can show it without deciding anything again. Method: docs/BLAME.md.

#include "core/Result.h"
#include "rdt/Schemata.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdt::blame {

/// What a suspect takes from the victim: its cache (fills that evict the victim's lines) or its memory bandwidth.
enum class Resource { Cache, Bandwidth };

/// "cache" or "bandwidth" (the JSON spelling, docs/BLAME.md).
inline const char* resourceName(Resource r)
{
    return r == Resource::Cache ? "cache" : "bandwidth";
}

/// The victim on one L3 domain over the passive observation.
struct DomainHarm {
    int domain = 0;
    double occupancyBytes = 0; ///< mean LLC occupancy (SDM 20.18.5)
    /// What its L3 mask lets it hold there (ways x bytes per way); none when the way size is unknown.
    std::optional<double> capacityBytes;
    double missBps = 0; ///< its MBM total: the lines it reads from memory, each a miss that fills L3
    std::string text; ///< "holds 3.7 MiB of the 24.8 MiB its mask allows; reads 3990 MB/s from memory"
};

/// How the victim is hurt, with what could and could not be read.
struct VictimHarm {
    std::string group; ///< path ("" = default group)
    std::vector<DomainHarm> domains; ///< every domain it has lines or traffic on, most occupied first
    // Its PMU figures over the observation (none where the engine cannot count them: `pmu` says why).
    std::optional<double> ipc;
    std::optional<double> mpki;
    std::optional<double> memoryBound;
    std::string pmu; ///< how they were counted ("simulated: ..."), or why there are none
    std::vector<std::string> missing; ///< what the engine could not read (no MBM, no CAT masks, ...)
};

/// A fence probe of one suspect: its allocation cut, the victim re-measured, the allocation restored.
struct ProbeResult {
    std::string group;
    Resource resource = Resource::Cache;
    std::string fence; ///< what was written: "L3:0=3" or "MB:0=10" ("n1 L3:0=3, n2 L3:0=3" when fenced together)
    /// A joint probe: every group fenced at once (empty when the group was fenced alone).
    std::vector<std::string> together;
    std::string alone; ///< in a joint probe, what fencing this group alone found ("" otherwise)
    int domain = 0; ///< the victim's domain it was judged on
    double victimOccupancyBefore = 0, victimOccupancyDuring = 0;
    double victimMissBpsBefore = 0, victimMissBpsDuring = 0;
    std::optional<double> ipcBefore, ipcDuring;
    /// Share of the victim's lost occupancy the fence gave back: (during - before) / (capacity - before), where the
    /// capacity is what its mask allows; without a way size, the relative occupancy gain.
    double occupancyRecovered = 0;
    double missReduction = 0; ///< share of the victim's memory traffic (its misses) the fence took away
    std::optional<double> ipcGain; ///< relative change of the victim's IPC
    double uncertainty = 0; ///< of occupancyRecovered: two standard errors of the polls, as a share
    std::string verdict; ///< "culprit", "innocent" or "inconclusive"
    std::string sentence; ///< "fencing streamer gave the victim back 62 % of its lost occupancy (+- 4 %)"
    unsigned writes = 0; ///< allocation writes the probe made (the fence and the restore)
    bool restored = false; ///< the group's allocation reads back as before the fence
    std::vector<std::string> log; ///< what was written and read back
};

/// One group suspected, with its passive evidence (and its probe, when it was probed).
struct Suspect {
    std::string group; ///< path ("" = default group, shown as "default")
    /// A task of the default group suspected on its own (blame/TaskSuspects.h): its PID, none for a group. It has no
    /// passive evidence of its own (resctrl counts per group): its probe judges it.
    std::optional<unsigned> task;
    std::string comm; ///< the task's command name where it is known
    int domain = 0; ///< the victim's domain the evidence is from
    Resource resource = Resource::Cache;
    /// Cache: its share of the line fills that land in ways the victim may use on that domain (0..1). Bandwidth: its
    /// share of the domain's memory traffic, counted only where the victim's memory stalls grow with that traffic.
    double effect = 0;
    double uncertainty = 0; ///< two standard errors over the sliding windows
    double fillBps = 0; ///< its memory traffic on the domain (MBM total)
    double occupancyBytes = 0; ///< its mean occupancy on the domain
    /// Share of its ways the victim may also use (1 without CAT); none when a mask could not be read.
    std::optional<double> overlap;
    /// Pearson correlation of its fills with the victim's occupancy loss across the windows; none when either held
    /// still (a steady neighbour shows no co-movement, only its share).
    std::optional<double> correlation;
    unsigned windows = 0;
    std::string sentence; ///< plain language: what it does to the victim
    std::optional<ProbeResult> probe;
};

/// A culprit contained by `blame --contain` (blame/Containment.h).
struct Containment {
    std::string group; ///< the culprit
    Resource resource = Resource::Cache;
    Schemata change; ///< what was written
    Schemata undo; ///< the culprit's lines before it
    std::string text; ///< "L3:0=7" (one line)
    std::string undoText; ///< "L3:0=7ff"
    unsigned victimWays = 0; ///< the ways left to the victim alone
    std::string waysText; ///< how the victim's ways were chosen (its knee, or its occupancy without one)
    std::string bandwidthText; ///< a bandwidth culprit's MB cap and its unit, or why it has none ("" otherwise)
    bool applied = false;
    double victimOccupancyBefore = 0, victimOccupancyAfter = 0;
    double victimMissBpsBefore = 0, victimMissBpsAfter = 0;
    double occupancyRecovered = 0; ///< share of the victim's lost occupancy it got back (as a probe's)
    std::string sentence;
    std::string error; ///< why it was not applied ("" when it was)
};

struct BlameResult {
    VictimHarm harm;
    std::vector<Suspect> ranking; ///< most likely culprit first
    std::vector<std::string> passiveOrder; ///< the suspects' paths as the passive evidence ranked them, before probes
    bool simulated = false;
    bool probed = false; ///< probes were asked for and ran
    std::string probeRefused; ///< why --probe was refused ("" when it ran or was not asked for)
    unsigned probeWrites = 0; ///< every allocation write of every probe
    std::uint64_t passiveNs = 0; ///< source-clock time of the passive observation
    std::uint64_t verdictNs = 0; ///< source-clock time from the start to the first culprit verdict (0: none)
    std::uint64_t elapsedNs = 0; ///< the whole run
    bool restored = true; ///< every probed allocation reads back as before
    bool stopped = false; ///< a stop was asked for (SIGINT/SIGTERM)
    std::optional<Error> error; ///< why the run ended early
    std::vector<std::string> notes;
    /// `contain`: the culprit moved to a best-effort allocation (it stays; `undoContainment` writes the undo).
    std::optional<Containment> containment;
};

} // namespace rdt::blame
