// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What rdtscope-agent --metrics exports, kept as counters and gauges between scrapes: fed with the wrap-safe
// sampler's batches (rdt/Sampler.h) and the groups' allocations, it builds the metric families (Exposition.h).
// Naming follows Prometheus: base units, plural unit suffixes, _total on counters.

#include "Exposition.h"
#include "api/BandwidthControl.h"
#include "engine/EngineTypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace rdt::metrics {

/// The `group` label of a resctrl path: "/" for the default group (an empty label value would vanish).
std::string groupLabel(const std::string& path);

/// A group's TMA level-1 issue slots since its counting began (SDM 22.2.9.6; docs/PMU.md "TMA"): the fractions of
/// each interval times its slots, summed, so rate() of one over rate() of their sum is the category's share.
struct TmaSlots {
    double frontendBound = 0, badSpeculation = 0, retiring = 0, backendBound = 0;
};

class MetricsState {
public:
    explicit MetricsState(std::string version);

    /// One sampler batch; `wallSeconds` (Unix time) stamps new series as their _created.
    void addBatch(const RdtSampleBatch& batch, double wallSeconds);
    /// A whole poll that failed (an EngineError from the sampler).
    void addPollError();
    /// Allocations (ways, MBA) and group parents from a groups snapshot and the machine's capabilities.
    void setGroups(const engine::GroupsSnapshot& groups, const Capabilities& caps);
    /// Extra labels of one group (Kubernetes namespace/pod/container), replacing earlier ones.
    void setGroupLabels(const std::string& path, Labels labels);
    /// A group's cumulative TMA slots (rdtscope_tma_slots_total{category}); `createdSeconds` (Unix time) when its
    /// counting began. Groups never given any have no TMA series; a group gone from setGroups loses them.
    void setTmaSlots(const std::string& path, const TmaSlots& slots, double createdSeconds);

    std::vector<MetricFamily> families() const;

private:
    struct Series {
        double createdSeconds = 0;
        std::uint64_t totalBase = 0; ///< the sampler's cumulative bytes at the series' start
        std::uint64_t localBase = 0;
        std::uint64_t lastTotal = 0; ///< the sampler's cumulative bytes at the last batch
        std::uint64_t lastLocal = 0;
        std::uint64_t occupancy = 0;
        std::uint32_t absent = 0; ///< Sample*Absent flags: counters this machine does not have (no series)
    };
    struct Allocation {
        std::string resource; ///< "L3", "L3CODE", "L2", "MB", "SMBA", "CBA"
        int domain = 0;
        double ways = 0; ///< cache resources: set bits of the mask
        std::optional<api::BandwidthLimit> limit; ///< bandwidth resources: what the value limits
    };
    /// group, ctrl_group, domain, node (SNC only) and the group's extra labels.
    Labels seriesLabels(const std::string& group, int domain, int node) const;

    std::string m_version;
    std::uint64_t m_sourceTimeNs = 0; ///< the last batch's time on the source clock
    std::map<std::tuple<std::string, int, int>, Series> m_series; ///< (group, domain, SNC node or -1)
    std::map<std::string, std::uint64_t> m_errors; ///< reason -> count
    std::map<std::string, std::string> m_parent; ///< group path -> control group path
    std::map<std::string, std::vector<Allocation>> m_allocations;
    std::map<std::string, Labels> m_extraLabels;
    struct TelemetrySeries {
        double createdSeconds = 0;
        double value = 0; ///< the kernel's cumulative value (a counter: it only falls when the RMID is reset)
    };
    /// PERF_PKG_MON: (event, group, package) -> series; one counter family per event (rdt/Telemetry.h names them).
    std::map<std::tuple<std::string, std::string, int>, TelemetrySeries> m_telemetry;
    std::map<std::string, std::pair<TmaSlots, double>> m_tma; ///< group -> slots, created
};

} // namespace rdt::metrics
