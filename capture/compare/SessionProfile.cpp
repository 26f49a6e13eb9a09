// SPDX-License-Identifier: GPL-3.0-or-later
// A session file (docs/SESSION-FORMAT.md) reduced to a Profile over a window: per group and domain the
// mean and p95 of LLC occupancy and MBM total/local bandwidth, the allocation at the window's end, the changes
// inside it, the slot-weighted TMA breakdown of the tma_intervals rows, and, for a session holding an imported
// perf.data file, the PMU figures of its stored records (PerfSamplesProfile.h, as for the file itself).
#include "PerfSamplesProfile.h"
#include "Profile.h"
#include "WindowResolve.h"

#include "perfdata/PerfDataSessionRecords.h"

#include "platform/CpuFeatures.h"
#include "platform/CpuidDump.h"
#include "rdt/CacheSize.h"
#include "rdt/CapabilitiesText.h"
#include "rdt/Sample.h"
#include "session/SessionReader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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
    // Bytes per L3 way by the replay's rule (wholeCacheBytes): the CPUID snapshot's where resctrl's recorded size
    // describes that cache (SNC shares included), resctrl's where it does not or there is no snapshot.
    std::uint64_t resctrlPerBit = 0, resctrlBytes = 0;
    for (const auto& r : parseCapabilitiesText(reader.machine().topology))
        if (r.caps.name.rfind("L3", 0) == 0 && r.caps.bytesPerBit > 0) {
            resctrlPerBit = r.caps.bytesPerBit;
            resctrlBytes = r.caps.bytesPerBit * r.caps.cbmBits;
            break;
        }
    p.bytesPerWay = resctrlPerBit;
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
    const auto& l3 = f.allocation.l3;
    const std::uint64_t cpuidBytes = l3.bytesPerCbmBit * l3.cbmLength;
    if (cpuidBytes > 0 && wholeCacheBytes(resctrlBytes, cpuidBytes) == cpuidBytes) p.bytesPerWay = l3.bytesPerCbmBit;
}

using SeriesMap = std::unordered_map<std::string, std::map<int, SeriesAcc>>;

/// Rows of [fromNs, toNs) into `acc`; false (with a note) when the read failed part-way.
bool readRows(session::SessionReader& reader, std::uint64_t fromNs, std::uint64_t toNs, SeriesMap& acc, Profile& p)
{
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
        if (r.flags & (kOccupancyUnknown | kMbmTotalUnread | kMbmLocalUnread | SampleCounterReset)) ++a.flagged;
        if (!(r.flags & kOccupancyUnknown)) a.occupancy.add(static_cast<double>(r.occupancyBytes));
        // The first sample of a series has no previous reading, so no rate (Sample.h's rate rules).
        if (!(r.flags & kMbmTotalRateUnknown)) a.total.add(r.mbmTotalBps);
        if (!(r.flags & kMbmLocalRateUnknown)) a.local.add(r.mbmLocalBps);
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

/// The stored records of an imported perf.data, over [fromNs, toNs) like the RDT side (samples without a time are
/// kept: they cannot be placed).
Status readPerfRecords(
    session::SessionReader& reader, const LoadOptions& options, std::uint64_t fromNs, std::uint64_t toNs, Profile& p)
{
    auto inWindow = [fromNs, toNs](const pmu::Sample& s) {
        return !s.has(pmu::perf::SampleTime) || (s.time >= fromNs && s.time < toNs);
    };
    PerfSampleCounts counts;
    const auto io = profileImportOptions(options.symfs, inWindow, counts);
    auto imported = perfdata::importSessionRecords(reader, io);
    if (!imported) return imported.error();
    if (p.interval.empty()) p.interval = samplingText(imported->header);
    if (!p.family) parseCpuId(reader.metaValue("perfdata_cpuid"), p); // perf's HEADER_CPUID, kept by the import
    fillPmuSide(*imported, counts, p);
    return {};
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

    // An imported perf.data has no RDT samples: its first and last samples (meta, written by the import) say when
    // the recording starts and ends; files imported before those were kept use the stored batches' times.
    const bool perfRecords = perfdata::holdsPerfRecords(reader);
    std::uint64_t origin = reader.originNs();
    p.recordingS = reader.sampleCount() ? secondsSince(origin, reader.lastTimeNs()) : 0;
    if (perfRecords && !reader.sampleCount()) {
        const auto span = reader.pmuBatchTimeRange("perf-records");
        if (origin == 0 && span) origin = span->first;
        std::uint64_t last = std::strtoull(reader.metaValue("perfdata_last_sample_ns").c_str(), nullptr, 10);
        if (last == 0 && span) last = span->second;
        p.recordingS = last > origin ? secondsSince(origin, last) : 0;
    }
    std::vector<TimedMarker> markers;
    for (const auto& m : reader.markers())
        markers.push_back(TimedMarker { secondsSince(origin, m.timeNs), m.text });
    auto span = resolveWindow(options.window, p.recordingS, markers, p.notes);
    if (!span) return span.error();
    p.fromS = span->first;
    p.toS = span->second;
    p.windowText = options.window.describe();
    // The window is [from, to): what happens at its end (a marker's change) belongs to what comes after. A window
    // reaching the recording's end keeps its last sample, one from its start what precedes time 0 (perf records are
    // written in rounds, so a few samples can be older than the first one in the file).
    const auto fromNs = p.fromS <= 0 ? 0 : origin + static_cast<std::uint64_t>(p.fromS * 1e9);
    const auto toNs = p.toS >= p.recordingS ? UINT64_MAX : origin + static_cast<std::uint64_t>(p.toS * 1e9);

    readSamples(reader, fromNs, toNs, options.useSketches, p);
    readAllocations(reader, origin, fromNs, toNs, p);
    readTma(reader, fromNs, toNs, p);
    if (perfRecords)
        if (auto st = readPerfRecords(reader, options, fromNs, toNs, p); !st) return st.error();
    for (const auto& issue : reader.issues())
        p.notes.push_back(issue);
    return p;
}

} // namespace rdt::compare
