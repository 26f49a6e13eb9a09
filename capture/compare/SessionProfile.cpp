// SPDX-License-Identifier: GPL-3.0-or-later
// A session file (docs/SESSION-FORMAT.md) reduced to a Profile over a window: per group and domain the
// mean and p95 of LLC occupancy and MBM total/local bandwidth, the allocation at the window's end, the changes
// inside it, and the slot-weighted TMA breakdown of the tma_intervals rows.
#include "Profile.h"
#include "WindowResolve.h"

#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"
#include "rdt/Sample.h"
#include "session/SessionReader.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>

namespace rdt::compare {

namespace {

struct SeriesAcc {
    PercentileSketch occupancy, total, local;
    std::uint64_t flagged = 0;
};

std::string intervalText(std::uint64_t ns)
{
    if (ns == 0) return {};
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g ms", static_cast<double>(ns) * 1e-6);
    return buf;
}

void readMachine(const session::SessionReader& reader, Profile& p)
{
    p.machine = reader.machine().description;
    const std::string& json = reader.machine().cpuidJson;
    if (json.empty()) return;
    auto table = cpuidTableFromJson(json);
    if (!table) {
        p.notes.push_back("the machine's CPUID snapshot cannot be read: " + table.error().toString());
        return;
    }
    const CpuFeatures f = decodeCpuFeatures(*table);
    if (f.identity.signature != 0) {
        p.family = f.identity.family;
        p.model = f.identity.model;
    }
    p.bytesPerWay = f.allocation.l3.bytesPerCbmBit;
}

using SeriesMap = std::unordered_map<std::string, std::map<int, SeriesAcc>>;

/// Rows of [fromNs, toNs) into `acc`; false (with a note) when the read failed part-way.
bool readRows(session::SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, SeriesMap& acc, Profile& p)
{
    constexpr std::uint32_t occBad = SampleOccupancyError | SampleOccupancyUnavailable;
    constexpr std::uint32_t mbmBad = SampleMbmError | SampleMbmUnavailable | SampleMbmUnassigned | SampleCounterReset;
    // Samples of one poll share a group; remember the last one so most lookups are a string compare.
    const std::string* lastGroup = nullptr;
    std::map<int, SeriesAcc>* lastDomains = nullptr;
    auto s = reader.forEachSample(fromNs, toNs, [&](const RdtSample& r) {
        if (!lastGroup || *lastGroup != r.group) {
            auto it = acc.try_emplace(r.group).first;
            lastGroup = &it->first;
            lastDomains = &it->second;
        }
        SeriesAcc& a = (*lastDomains)[r.domain];
        // The same rule as the recorder's minute sketches (session/SummaryAggregator.cpp SeriesSketch::add).
        if (r.flags & (occBad | mbmBad)) ++a.flagged;
        if (!(r.flags & occBad)) a.occupancy.add(static_cast<double>(r.occupancyBytes));
        // The first sample of a series has no previous reading, so no rate (SampleFirst).
        if (!(r.flags & (mbmBad | SampleFirst))) {
            a.total.add(r.mbmTotalBps);
            a.local.add(r.mbmLocalBps);
        }
        return true;
    });
    if (!s) p.notes.push_back("samples: " + s.error().toString() + " (the figures cover what was read before)");
    return s.ok();
}

/// The whole minutes of the window from the recorder's sketches and only the edges from rows (issue #20: a one-hour
/// diff merges 60 sketches per series instead of reading 36,000 rows). False when the file has no sketches or one
/// is unreadable: then nothing was added and the caller reads every row.
bool readWithSketches(
    session::SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, SeriesMap& acc, Profile& p)
{
    constexpr std::uint64_t kBucket = session::SessionReader::kSketchBucketNs;
    const auto end = reader.sketchEnd();
    if (!end) return false;
    const std::uint64_t first = fromNs / kBucket + (fromNs % kBucket != 0);
    const std::uint64_t last = std::min(*end, toNs == UINT64_MAX ? *end : toNs / kBucket);
    if (first >= last) return false; // no whole minute inside: the rows are few
    SeriesMap minutes;
    auto s = reader.forEachSketch(first, last, [&](const session::SessionReader::SketchRow& r) {
        SeriesAcc& a = minutes[r.group][r.domain];
        a.occupancy.merge(r.sketch.occupancy);
        a.total.merge(r.sketch.total);
        a.local.merge(r.sketch.local);
        a.flagged += r.sketch.flagged;
        return true;
    });
    if (!s) {
        p.notes.push_back("the minute sketches cannot be read (" + s.error().message + "); every row was read instead");
        return false;
    }
    acc = std::move(minutes);
    readRows(reader, fromNs, first * kBucket, acc, p);
    readRows(reader, last * kBucket, toNs, acc, p);
    return true;
}

void readSamples(session::SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, bool useSketches, Profile& p)
{
    SeriesMap acc;
    if (!useSketches || !readWithSketches(reader, fromNs, toNs, acc, p)) readRows(reader, fromNs, toNs, acc, p);
    for (auto& [group, domains] : acc)
        for (auto& [domain, a] : domains) {
            RdtSeries series;
            series.group = group;
            series.domain = domain;
            series.occupancy = SeriesStats::of(a.occupancy);
            series.totalBw = SeriesStats::of(a.total);
            series.localBw = SeriesStats::of(a.local);
            series.flaggedSamples = a.flagged;
            p.rdt.push_back(std::move(series));
        }
    std::sort(p.rdt.begin(), p.rdt.end(), [](const RdtSeries& a, const RdtSeries& b) {
        return std::tie(a.group, a.domain) < std::tie(b.group, b.domain);
    });
}

void readAllocations(
    const session::SessionReader& reader, std::uint64_t origin, std::uint64_t fromNs, std::uint64_t toNs, Profile& p)
{
    std::map<std::tuple<std::string, std::string, int>, std::string> inForce;
    for (const auto& e : reader.allocations()) {
        if (e.timeNs >= toNs) break; // loaded in time order
        if (e.ok) inForce[{ e.group, e.resource, e.domain }] = e.newValue;
        if (e.who == "initial" || e.timeNs < fromNs) continue;
        p.changes.push_back(AllocationChange { secondsSince(origin, e.timeNs), e.who, e.group, e.resource, e.domain,
            e.oldValue, e.newValue, e.ok, e.message });
    }
    for (auto& [key, value] : inForce)
        p.allocation.push_back(AllocationValue { std::get<0>(key), std::get<1>(key), std::get<2>(key), value });
}

void readTma(session::SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, Profile& p)
{
    auto rows = reader.tma(fromNs, toNs);
    if (!rows) {
        p.notes.push_back("TMA intervals: " + rows.error().toString());
        return;
    }
    // Slot-weighted would need the slots per interval, which the table does not keep; intervals are weighted by
    // their length, which is the same for a steadily running core.
    std::map<std::pair<int, std::string>, std::pair<double, double>> sums; ///< (level, metric) -> (sum w*v, sum w)
    for (const auto& r : *rows) {
        const double w = r.endNs > r.startNs ? static_cast<double>(r.endNs - r.startNs) : 1.0;
        auto& s = sums[{ r.level, r.metric }];
        s.first += w * r.value;
        s.second += w;
    }
    for (const auto& [key, s] : sums)
        p.tma.push_back(TmaValue { key.first, key.second, s.second > 0 ? s.first / s.second : 0 });
}

} // namespace

Result<Profile> loadSessionProfile(const std::string& path, const LoadOptions& options)
{
    auto opened = session::SessionReader::open(path);
    if (!opened) return opened.error();
    session::SessionReader& reader = **opened;
    Profile p;
    p.path = path;
    p.kind = "session";
    p.source = reader.meta().source;
    p.simulated = reader.meta().simulated;
    p.interval = intervalText(reader.meta().intervalNs);
    readMachine(reader, p);

    const std::uint64_t origin = reader.originNs();
    p.recordingS = reader.sampleCount() ? secondsSince(origin, reader.lastTimeNs()) : 0;
    std::vector<TimedMarker> markers;
    for (const auto& m : reader.markers())
        markers.push_back(TimedMarker { secondsSince(origin, m.timeNs), m.text });
    auto span = resolveWindow(options.window, p.recordingS, markers, p.notes);
    if (!span) return span.error();
    p.fromS = span->first;
    p.toS = span->second;
    p.windowText = options.window.describe();
    // The window is [from, to): what happens at its end (a marker's change) belongs to what comes after. A window
    // reaching the recording's end keeps its last sample.
    const auto fromNs = origin + static_cast<std::uint64_t>(p.fromS * 1e9);
    const auto toNs = p.toS >= p.recordingS ? UINT64_MAX : origin + static_cast<std::uint64_t>(p.toS * 1e9);

    readSamples(reader, fromNs, toNs, options.useSketches, p);
    readAllocations(reader, origin, fromNs, toNs, p);
    readTma(reader, fromNs, toNs, p);
    if (auto attrs = reader.pmuBatches("perf-attrs"); attrs && !attrs->empty())
        p.notes.push_back("this session holds an imported perf.data file's records; compare the perf.data file "
                          "itself for branch and load-latency figures");
    for (const auto& issue : reader.issues())
        p.notes.push_back(issue);
    return p;
}

} // namespace rdt::compare
