// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rdt {

/// Flags carried by a monitoring sample (never silently dropped: the GUI and session show them).
enum RdtSampleFlag : std::uint32_t {
    SampleOccupancyError = 1u << 0, ///< llc_occupancy read "Error" / QM_CTR bit 63
    SampleOccupancyUnavailable = 1u << 1, ///< "Unavailable" / QM_CTR bit 62
    // The MBM flags name the counter that could not be read: one missing or unreadable mbm_local_bytes leaves the
    // total known (and the other way round), as each is its own file (resctrl.rst "Monitoring") or event (SDM
    // 20.18.5.2). Sessions written before the local flags existed set the total's flags for either counter (their
    // reader widens them with mbmFlagsOfEitherCounter).
    SampleMbmError = 1u << 2, ///< mbm_total_bytes read "Error" / QM_CTR bit 63 on the total event
    SampleMbmUnavailable = 1u << 3, ///< mbm_total_bytes read "Unavailable", is missing, or QM_CTR bit 62
    SampleMbmUnassigned = 1u << 4, ///< mbm_total_bytes "Unassigned" (ABMC counter not assigned)
    SampleWrapped = 1u << 5, ///< at least one counter wrap was corrected in this delta
    SampleMaybeMultiWrap = 1u << 6, ///< elapsed time could hide more than one wrap (20.18.8): rate is a lower bound
    SampleCounterReset = 1u << 7, ///< the counter went backwards by more than a wrap explains (group re-created)
    SampleFirst = 1u << 8, ///< first sample of a series: no delta, rates are 0
    /// IA32_QM_CTR bit 61 was set on this read: the MBM counter overflowed since the last read (the bit is reset on
    /// read; CPUID.0FH.01H:EAX[8] enumerates it, SDM 20.18.5.2). Only the MSR backend sees it.
    SampleOverflowBit = 1u << 9,
    SampleTelemetryError = 1u << 10, ///< a PERF_PKG_MON event read "Error"
    SampleTelemetryUnavailable = 1u << 11, ///< a PERF_PKG_MON event read "Unavailable" (or no number)
    SampleMbmLocalError = 1u << 12, ///< mbm_local_bytes read "Error" / QM_CTR bit 63 on the local event
    SampleMbmLocalUnavailable = 1u << 13, ///< mbm_local_bytes read "Unavailable", is missing, or QM_CTR bit 62
    SampleMbmLocalUnassigned = 1u << 14, ///< mbm_local_bytes "Unassigned" (ABMC counter not assigned)
    // The machine has no such counter (info/L3_MON/mon_features does not list it, e.g. mbm_local_bytes on Arm
    // MPAM, Documentation/arch/arm64/mpam.rst): the value does not exist, so it is unknown, never 0.
    SampleOccupancyAbsent = 1u << 15,
    SampleMbmTotalAbsent = 1u << 16,
    SampleMbmLocalAbsent = 1u << 17,
};

/// The one rule for when a reading is unknown (shown as unknown, never as a number), used by every consumer.
inline constexpr std::uint32_t kOccupancyUnknown
    = SampleOccupancyError | SampleOccupancyUnavailable | SampleOccupancyAbsent;
inline constexpr std::uint32_t kMbmTotalUnread
    = SampleMbmError | SampleMbmUnavailable | SampleMbmUnassigned | SampleMbmTotalAbsent;
inline constexpr std::uint32_t kMbmLocalUnread
    = SampleMbmLocalError | SampleMbmLocalUnavailable | SampleMbmLocalUnassigned | SampleMbmLocalAbsent;
/// A rate needs two good reads of its counter: a series' first sample and a reset counter have none.
inline constexpr std::uint32_t kMbmTotalRateUnknown = kMbmTotalUnread | SampleFirst | SampleCounterReset;
inline constexpr std::uint32_t kMbmLocalRateUnknown = kMbmLocalUnread | SampleFirst | SampleCounterReset;
/// Remote traffic is total minus local: unknown when either is.
inline constexpr std::uint32_t kMbmRemoteRateUnknown = kMbmTotalRateUnknown | kMbmLocalRateUnknown;

/// Flags written when one set of MBM flags stood for both counters (sessions without meta `mbm_flags`): a bad read
/// of either made both unknown, so both are marked.
constexpr std::uint32_t mbmFlagsOfEitherCounter(std::uint32_t flags)
{
    if (flags & SampleMbmError) flags |= SampleMbmLocalError;
    if (flags & SampleMbmUnavailable) flags |= SampleMbmLocalUnavailable;
    if (flags & SampleMbmUnassigned) flags |= SampleMbmLocalUnassigned;
    return flags;
}

/// One monitoring reading of one group in one cache domain (what `monitor --csv` prints and sessions store).
struct RdtSample {
    std::uint64_t timeNs = 0; ///< monotonic time of the read (core/Time.h)
    std::string group; ///< resctrl path relative to the root: "" = default group, "p0", "p0/mon_groups/m1"
    int domain = 0; ///< L3 cache id (resctrl's mon_L3_XX)
    std::uint64_t occupancyBytes = 0;
    std::uint64_t mbmTotalBytes = 0; ///< cumulative, wrap-corrected by the sampler
    std::uint64_t mbmLocalBytes = 0;
    double mbmTotalBps = 0; ///< delta / elapsed
    double mbmLocalBps = 0;
    double mbmRemoteBps() const { return mbmTotalBps > mbmLocalBps ? mbmTotalBps - mbmLocalBps : 0.0; }
    std::uint32_t flags = 0;
    int node = -1; ///< SNC sub-NUMA node (mon_sub_L3_YY) when the backend reads per node; -1 = the whole L3
};

/// One PERF_PKG_MON event of one group in one package (rdt/Telemetry.h): the kernel's cumulative value and its rate
/// over the poll interval. One row per event, so integer events the kernel adds need no new column.
struct TelemetrySample {
    std::uint64_t timeNs = 0;
    std::string group; ///< as RdtSample::group
    int package = 0; ///< mon_PERF_PKG_XX id
    std::string event; ///< "core_energy" (J), "activity" (F), "uops_retired", ...
    double value = 0; ///< cumulative, as the kernel reads it
    double perSecond = 0; ///< delta / elapsed (watts for core_energy); 0 on the first sample or a bad read
    std::uint32_t flags = 0; ///< SampleFirst, SampleCounterReset, SampleTelemetryError/Unavailable
};

/// A group the poll could not read (removed meanwhile, a permission, too many open files): its rows are missing
/// from the batch, and consumers say so instead of showing fewer groups without a word.
struct UnreadGroup {
    std::string group;
    std::string error; ///< the read's error with its advice
};

/// What the sampler publishes into its bounded queue each poll.
struct RdtSampleBatch {
    std::uint64_t timeNs = 0;
    std::vector<RdtSample> samples;
    std::vector<TelemetrySample>
        telemetry {}; ///< empty without PERF_PKG_MON (initialised: {time, samples} stays valid)
    /// Intel SNC, when the backend reads per sub-NUMA node (RdtBackend::setSncNodeReadings): one row per group, L3
    /// and node (RdtSample::node >= 0). `samples` still holds one row per group and L3, the sum of its nodes, as
    /// the kernel's mon_L3_XX files are (splitSncNodes). Empty otherwise.
    std::vector<RdtSample> nodeSamples {};
    /// Groups whose counters could not be read in this poll (their rows are absent); empty when all were read.
    std::vector<UnreadGroup> unread {};
};

/// Moves the rows of `batch.samples` that cover one SNC node into `batch.nodeSamples` and puts in their place one
/// row per group and L3 domain: occupancy, cumulative bytes and rates summed over the nodes, flags or-ed.
void splitSncNodes(RdtSampleBatch& batch);

/// An allocation change as it happened (docs/ARCHITECTURE.md "Data flow": markers on timelines, rows in sessions).
struct AllocationChanged {
    std::uint64_t timeNs = 0;
    std::string who; ///< "gui", "cli", "scenario", "replay"
    std::string group;
    std::string resource; ///< "L3", "L3CODE", "MB", ...
    int domain = 0;
    std::string oldValue; ///< schemata value text, e.g. "7ff" or "100"
    std::string newValue;
    bool ok = false;
    std::string message; ///< the kernel's last_cmd_status text or our validation message when !ok
};

} // namespace rdt
