// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsState.h"

#include "rdt/Telemetry.h"

#include <algorithm>
#include <bit>

namespace rdt::metrics {
namespace {

/// The sample flags that count as errors, by their `reason` label.
const std::pair<std::uint32_t, const char*> kErrorReasons[] = {
    { SampleOccupancyError, "occupancy_error" },
    { SampleOccupancyUnavailable, "occupancy_unavailable" },
    { SampleMbmError, "mbm_error" },
    { SampleMbmUnavailable, "mbm_unavailable" },
    { SampleMbmUnassigned, "mbm_unassigned" },
    { SampleMbmLocalError, "mbm_local_error" },
    { SampleMbmLocalUnavailable, "mbm_local_unavailable" },
    { SampleMbmLocalUnassigned, "mbm_local_unassigned" },
    { SampleMaybeMultiWrap, "maybe_multi_wrap" },
    { SampleCounterReset, "counter_reset" },
};

} // namespace

std::string groupLabel(const std::string& path)
{
    return path.empty() ? "/" : path;
}

MetricsState::MetricsState(std::string version)
    : m_version(std::move(version))
{
    for (const auto& [flag, reason] : kErrorReasons)
        m_errors[reason] = 0;
    m_errors["poll_failed"] = 0;
}

void MetricsState::addBatch(const RdtSampleBatch& batch, double wallSeconds)
{
    m_sourceTimeNs = batch.timeNs;
    std::map<std::tuple<std::string, int, int>, Series> next;
    // On SNC, one series per sub-NUMA node (labelled `node`); the L3 sums would count the same bytes twice.
    for (const auto& s : batch.nodeSamples.empty() ? batch.samples : batch.nodeSamples) {
        for (const auto& [flag, reason] : kErrorReasons)
            if (s.flags & flag) ++m_errors[reason];
        const auto key = std::make_tuple(s.group, s.domain, s.node);
        auto old = m_series.find(key);
        Series series;
        if (old == m_series.end() || (s.flags & SampleCounterReset)) {
            // A new series, or a real reset (the group was re-created): it restarts from what this poll moved,
            // so Prometheus sees a reset rather than the sampler's ever-growing sum.
            series.createdSeconds = wallSeconds;
            if (old != m_series.end()) {
                series.totalBase = old->second.lastTotal;
                series.localBase = old->second.lastLocal;
            } else if (!(s.flags & SampleFirst)) {
                series.totalBase = s.mbmTotalBytes;
                series.localBase = s.mbmLocalBytes;
            }
        } else {
            series = old->second;
        }
        series.lastTotal = s.mbmTotalBytes;
        series.lastLocal = s.mbmLocalBytes;
        series.occupancy = s.occupancyBytes;
        series.absent = s.flags & (SampleOccupancyAbsent | SampleMbmTotalAbsent | SampleMbmLocalAbsent);
        next[key] = series;
    }
    m_series = std::move(next); // groups gone from the machine leave the exposition
    std::map<std::tuple<std::string, std::string, int>, TelemetrySeries> telemetry;
    for (const auto& t : batch.telemetry) {
        const auto key = std::make_tuple(t.event, t.group, t.package);
        auto old = m_telemetry.find(key);
        TelemetrySeries series = old != m_telemetry.end() ? old->second : TelemetrySeries { wallSeconds, 0 };
        if (t.flags & SampleCounterReset) series.createdSeconds = wallSeconds;
        series.value = t.value; // a bad read carries the last good value (Sampler)
        telemetry[key] = series;
    }
    m_telemetry = std::move(telemetry);
}

void MetricsState::addPollError()
{
    ++m_errors["poll_failed"];
}

void MetricsState::setGroups(const engine::GroupsSnapshot& groups, const Capabilities& caps)
{
    m_parent.clear();
    m_allocations.clear();
    std::map<std::string, Labels> kept; // labels of groups that are gone go with them
    for (const auto& g : groups.groups)
        if (auto it = m_extraLabels.find(g.info.path); it != m_extraLabels.end()) kept.insert(*it);
    m_extraLabels = std::move(kept);
    std::erase_if(m_tma, [&](const auto& entry) {
        return std::none_of(groups.groups.begin(), groups.groups.end(),
            [&](const engine::GroupState& g) { return g.info.path == entry.first; });
    });
    for (const auto& g : groups.groups) {
        m_parent[g.info.path] = g.info.isControl ? g.info.path : g.info.parent;
        if (!g.info.isControl) continue;
        auto& out = m_allocations[g.info.path];
        for (const auto& line : g.schemata.lines()) {
            const ResourceCaps* rc = caps.resource(line.resource);
            // A mask's ways need no unit; a bandwidth value the capabilities do not describe has none to export in.
            const bool cache
                = rc ? rc->isCache() : line.resource.rfind("L3", 0) == 0 || line.resource.rfind("L2", 0) == 0;
            if (!cache && !rc) continue;
            for (const auto& [domain, text] : line.values) {
                if (cache) {
                    if (auto mask = parseMask(text))
                        out.push_back({ line.resource, domain, static_cast<double>(std::popcount(*mask)), {} });
                } else if (auto raw = parseBandwidth(text)) {
                    // What the value limits is the engine's rule for this control (api/BandwidthControl.h): a
                    // share withheld, bytes per second (unlimited as +Inf) or a CBA throttle level.
                    const auto limit = rc->bandwidthUnit == BandwidthUnit::Described && rc->description
                        ? api::bandwidthLimitOf(*rc->description, *raw)
                        : api::bandwidthLimitOf(rc->bandwidthUnit, *raw, rc->maxBandwidth);
                    // A value whose meaning the machine does not say is not exported as any quantity.
                    if (limit.kind != api::BandwidthLimit::Kind::Unknown)
                        out.push_back({ line.resource, domain, 0, limit });
                }
            }
        }
    }
}

void MetricsState::setGroupLabels(const std::string& path, Labels labels)
{
    if (labels.empty())
        m_extraLabels.erase(path);
    else
        m_extraLabels[path] = std::move(labels);
}

void MetricsState::setTmaSlots(const std::string& path, const TmaSlots& slots, double createdSeconds)
{
    m_tma[path] = { slots, createdSeconds };
}

Labels MetricsState::seriesLabels(const std::string& group, int domain, int node) const
{
    auto parent = m_parent.find(group);
    std::string ctrl = parent != m_parent.end() ? parent->second : group;
    if (parent == m_parent.end()) {
        // Not in the last groups snapshot yet: a monitor group's path names its parent ("p0/mon_groups/m1").
        if (const auto pos = group.find("mon_groups/"); pos != std::string::npos)
            ctrl = pos == 0 ? "" : group.substr(0, pos - 1);
    }
    Labels labels { { "group", groupLabel(group) }, { "ctrl_group", groupLabel(ctrl) },
        { "domain", std::to_string(domain) } };
    // SNC: the series covers one sub-NUMA node of the L3 (its id as the kernel names it, mon_sub_L3_YY); the L3's
    // own value is the sum over its nodes, so no series for the whole L3 is exported beside them.
    if (node >= 0) labels.emplace_back("node", std::to_string(node));
    if (auto extra = m_extraLabels.find(group); extra != m_extraLabels.end())
        labels.insert(labels.end(), extra->second.begin(), extra->second.end());
    return labels;
}

std::vector<MetricFamily> MetricsState::families() const
{
    MetricFamily occupancy { "rdtscope_llc_occupancy_bytes", MetricType::Gauge,
        "Last-level cache occupancy of a resctrl group in one L3 domain (SDM 20.18).", "bytes", {} };
    MetricFamily total { "rdtscope_mbm_total_bytes", MetricType::Counter,
        "Memory bandwidth monitoring: bytes of total (local + remote) memory traffic, wrap-corrected.", "bytes", {} };
    MetricFamily local { "rdtscope_mbm_local_bytes", MetricType::Counter,
        "Memory bandwidth monitoring: bytes of local-node memory traffic, wrap-corrected.", "bytes", {} };
    for (const auto& [key, s] : m_series) {
        Labels labels = seriesLabels(std::get<0>(key), std::get<1>(key), std::get<2>(key));
        // A counter the machine does not have (Arm MPAM's mbm_local_bytes) has no series, never a 0.
        if (!(s.absent & SampleOccupancyAbsent))
            occupancy.points.push_back({ labels, static_cast<double>(s.occupancy), std::nullopt });
        if (!(s.absent & SampleMbmTotalAbsent))
            total.points.push_back({ labels, static_cast<double>(s.lastTotal - s.totalBase), s.createdSeconds });
        if (!(s.absent & SampleMbmLocalAbsent))
            local.points.push_back(
                { std::move(labels), static_cast<double>(s.lastLocal - s.localBase), s.createdSeconds });
    }
    MetricFamily l3 { "rdtscope_l3_allocated_ways", MetricType::Gauge,
        "L3 cache ways a control group may fill (set bits of its capacity bitmask, SDM 20.19.4).", "", {} };
    MetricFamily l2Family { "rdtscope_l2_allocated_ways", MetricType::Gauge,
        "L2 cache ways a control group may fill (set bits of its capacity bitmask).", "", {} };
    MetricFamily mba { "rdtscope_mba_throttle_ratio", MetricType::Gauge,
        "Memory bandwidth allocation in percent (Intel MBA, SDM 20.19.7): share of bandwidth withheld from a control "
        "group (1 - MB percent / 100).",
        "ratio", {} };
    MetricFamily limit { "rdtscope_mba_limit_bytes_per_second", MetricType::Gauge,
        "Memory bandwidth allocation as an absolute cap (AMD MB/SMBA in 1/8 GB/s, resctrl mounted with mba_MBps): "
        "the most a control group may move per second; +Inf where the value means unlimited.",
        "bytes_per_second", {} };
    MetricFamily cba { "rdtscope_cba_throttle_level", MetricType::Gauge,
        "Cache bandwidth allocation (SDM 20.19.8): a control group's throttle level, 0 unthrottled.", "", {} };
    MetricFamily reserved { "rdtscope_mb_reserved_blocks", MetricType::Gauge,
        "RISC-V CBQRI MB_MIN: bandwidth blocks reserved for a control group (all groups share one budget).", "", {} };
    MetricFamily weight { "rdtscope_mb_weight", MetricType::Gauge,
        "RISC-V CBQRI MB_WGHT: a control group's weight in the bandwidth nobody reserved, 0..255 (0 = none).", "", {} };
    MetricFamily share { "rdtscope_mb_region_share_ratio", MetricType::Gauge,
        "A self-described bandwidth control of unit \"all\" (region-aware MB_REGION<n>_MIN/_OPT/_MAX): the share of "
        "the region it names, value x scale / resolution.",
        "ratio", {} };
    for (const auto& [group, allocations] : m_allocations) {
        for (const auto& a : allocations) {
            Labels labels { { "group", groupLabel(group) }, { "ctrl_group", groupLabel(group) },
                { "domain", std::to_string(a.domain) } };
            MetricFamily* f = nullptr;
            double value = a.ways;
            if (!a.limit) {
                // Caches: L3/L2, or their code and data masks under CDP (SDM 20.19.5), told apart by `cdp`.
                const bool l2 = a.resource.rfind("L2", 0) == 0;
                f = l2 ? &l2Family : &l3;
                if (a.resource.size() > 2) labels.emplace_back("cdp", a.resource.substr(2) == "CODE" ? "code" : "data");
            } else {
                using Kind = api::BandwidthLimit::Kind;
                value = a.limit->value;
                f = a.limit->kind == Kind::ShareWithheld    ? &mba
                    : a.limit->kind == Kind::ThrottleLevel  ? &cba
                    : a.limit->kind == Kind::ReservedBlocks ? &reserved
                    : a.limit->kind == Kind::Weight         ? &weight
                    : a.limit->kind == Kind::ShareOfRegion  ? &share
                                                            : &limit;
                // MB or AMD's SMBA; the control for a share (MB_REGION0_MAX)
                if (f == &limit || f == &share) labels.emplace_back("resource", a.resource);
            }
            if (auto extra = m_extraLabels.find(group); extra != m_extraLabels.end())
                labels.insert(labels.end(), extra->second.begin(), extra->second.end());
            f->points.push_back({ std::move(labels), value, std::nullopt });
        }
    }
    MetricFamily tma { "rdtscope_tma_slots", MetricType::Counter,
        "Top-down (TMA level 1) issue slots of a group's tasks by category: frontend_bound, bad_speculation, "
        "retiring, backend_bound (SDM 22.2.9.6).",
        "", {} };
    for (const auto& [group, entry] : m_tma) {
        const auto& [slots, created] = entry;
        const std::pair<const char*, double> categories[]
            = { { "frontend_bound", slots.frontendBound }, { "bad_speculation", slots.badSpeculation },
                  { "retiring", slots.retiring }, { "backend_bound", slots.backendBound } };
        for (const auto& [category, value] : categories) {
            Labels labels = seriesLabels(group, 0, -1);
            labels.erase(labels.begin() + 2); // no domain: the counters follow the tasks over every CPU
            labels.emplace_back("category", category);
            tma.points.push_back({ std::move(labels), value, created });
        }
    }
    MetricFamily errors { "rdtscope_sample_errors", MetricType::Counter,
        "Counter reads that came back flagged (error, unavailable, unassigned, reset, possible multiple wraps) "
        "and polls that failed.",
        "", {} };
    for (const auto& [reason, count] : m_errors)
        errors.points.push_back({ { { "reason", reason } }, static_cast<double>(count), std::nullopt });
    // Simulated sources run on simulated time, which lags the wall clock on a busy machine: dividing a byte rate
    // by this gauge's rate gives bytes per simulated second, whatever the lag.
    MetricFamily sourceTime { "rdtscope_source_time_seconds", MetricType::Gauge,
        "The source clock at the last poll: simulated seconds for a simulated source, CLOCK_MONOTONIC otherwise.",
        "seconds", { { {}, static_cast<double>(m_sourceTimeNs) * 1e-9, std::nullopt } } };
    MetricFamily build { "rdtscope_build_info", MetricType::Gauge, "rdtscope-agent's version (always 1).", "",
        { { { { "version", m_version } }, 1.0, std::nullopt } } };
    std::vector<MetricFamily> out { std::move(occupancy), std::move(total), std::move(local), std::move(l3),
        std::move(l2Family) };
    // A machine's bandwidth controls are of one kind (percent, an absolute cap, or CBA levels): only the families
    // that have series are exported, so an AMD machine shows no throttle ratio at all.
    for (auto* f : { &mba, &limit, &cba, &reserved, &weight, &share })
        if (!f->points.empty()) out.push_back(std::move(*f));
    if (!tma.points.empty()) out.push_back(std::move(tma)); // only agents counting TMA (--metrics-tma) have it
    out.push_back(std::move(errors));
    out.push_back(std::move(sourceTime));
    out.push_back(std::move(build));
    // PERF_PKG_MON (Intel, Linux 7.0): one counter family per event, only when the machine has telemetry.
    for (const auto& [key, s] : m_telemetry) {
        const auto& [event, group, package] = key;
        const auto info = telemetryEventInfo(event);
        if (out.back().name != info.metricName)
            out.push_back({ info.metricName, MetricType::Counter, info.help, info.metricUnit, {} });
        Labels labels = seriesLabels(group, package, -1);
        for (auto& [name, value] : labels)
            if (name == "domain") name = "package"; // a mon_PERF_PKG_XX id, not an L3 cache id
        out.back().points.push_back({ std::move(labels), s.value, s.createdSeconds });
    }
    return out;
}

} // namespace rdt::metrics
