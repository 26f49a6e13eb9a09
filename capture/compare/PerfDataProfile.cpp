// SPDX-License-Identifier: GPL-3.0-or-later
// A perf.data file reduced to a Profile over a window, through the same import pass as `rdtscope-cli report`
// (perfdata::importPerfData): function-level LBR edges, load latency per function, and, counted here from the
// same samples, load latency per data source and the instructions the samples stand for.
#include "Profile.h"
#include "WindowResolve.h"

#include "perfdata/PerfDataImport.h"
#include "pmu/DataSource.h"
#include "pmu/LoadLatency.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>

namespace rdt::compare {

namespace {

/// How the events sampled ("freq 4000 Hz", "period 100003"), each distinct setting once: what makes two files'
/// counts comparable, whatever the events are called ("cycles:u" and "cycles:ppp" sample alike).
std::string samplingText(const perfdata::HeaderInfo& header)
{
    std::vector<std::string> seen;
    for (const auto& e : header.events) {
        char buf[64];
        std::snprintf(buf, sizeof buf, e.attr.freq() ? "freq %llu Hz" : "period %llu",
            static_cast<unsigned long long>(e.attr.samplePeriod));
        if (std::find(seen.begin(), seen.end(), buf) == seen.end()) seen.emplace_back(buf);
    }
    std::string t;
    for (const auto& s : seen)
        t += (t.empty() ? "" : ", ") + s;
    return t;
}

/// HEADER_CPUID is "GenuineIntel,6,85,4" on x86 (vendor, family, model, stepping; perf's get_cpuid()).
void parseCpuId(const std::string& cpuId, Profile& p)
{
    std::stringstream in(cpuId);
    std::string vendor, family, model;
    if (!std::getline(in, vendor, ',') || !std::getline(in, family, ',') || !std::getline(in, model, ',')) return;
    try {
        p.family = static_cast<unsigned>(std::stoul(family));
        p.model = static_cast<unsigned>(std::stoul(model));
    } catch (const std::exception&) {
        p.family.reset();
        p.model.reset();
    }
}

constexpr bool isInstructions(const pmu::EventAttr& a)
{
    return a.type == 0 && a.config == 1; // PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS
}

} // namespace

Result<Profile> loadPerfDataProfile(const std::string& path, const LoadOptions& options)
{
    if (options.window.kind == Window::Kind::Markers)
        return makeError(path + ": perf.data files have no markers",
            "give this file a time window (--window A:FROM..TO) or compare the whole file");
    Profile p;
    p.path = path;
    p.kind = "perf.data";
    p.source = "perf.data";

    // Times are relative to the first sample, which is only known once it is read: samples come in file order,
    // which perf keeps close to time order (rounds of at most a few ms between FINISHED_ROUND records).
    std::optional<std::uint64_t> firstNs;
    std::uint64_t lastNs = 0;
    const double fromS = options.window.kind == Window::Kind::Range ? options.window.fromS.value_or(0.0) : 0.0;
    const double toS = options.window.kind == Window::Kind::Range ? options.window.toS.value_or(1e300) : 1e300;
    auto inWindow = [&](const pmu::Sample& s) {
        if (!s.has(pmu::perf::SampleTime)) return true;
        if (!firstNs) firstNs = s.time;
        lastNs = std::max(lastNs, s.time);
        const double t = secondsSince(*firstNs, s.time);
        return t >= fromS && t <= toS;
    };

    std::array<pmu::LatencyStats, static_cast<std::size_t>(pmu::MemLevel::Count)> bySource;
    std::uint64_t rng = 0x9e3779b97f4a7c15ull;
    double instructions = 0;
    bool countsInstructions = false;
    perfdata::ImportOptions io;
    io.symfs = options.symfs;
    io.topN = 5000; // every function that matters, so both sides can be aligned by name
    io.keepSample = inWindow;
    io.onRecord = [&](const pmu::DecodedRecord& rec) {
        if (rec.kind != pmu::RecordKind::Sample) return;
        const auto& s = rec.sample;
        if (s.has(pmu::perf::SampleTime) && firstNs) {
            const double t = secondsSince(*firstNs, s.time);
            if (t < fromS || t > toS) return;
        }
        if (rec.attr && isInstructions(*rec.attr)) {
            countsInstructions = true;
            instructions += static_cast<double>(s.period);
        }
        if (s.has(pmu::perf::SampleDataSrc) && s.has(pmu::perf::SampleWeight | pmu::perf::SampleWeightStruct)) {
            const auto ds = pmu::DataSource::decode(s.dataSrc);
            const auto level = ds.level();
            const bool remote = level == pmu::MemLevel::RemoteDram || level == pmu::MemLevel::RemoteCache || ds.remote;
            const auto lat = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.latency(), UINT32_MAX));
            bySource[static_cast<std::size_t>(level)].add(lat, level, ds.hitm(), remote, rng);
        }
    };
    auto imported = perfdata::importPerfData(path, io);
    if (!imported) return imported.error();
    const auto& r = *imported;

    p.machine = r.header.cpuDesc;
    if (r.header.nrCpusOnline) p.machine += ", " + std::to_string(*r.header.nrCpusOnline) + " CPUs";
    if (!r.header.version.empty()) p.machine += " (perf " + r.header.version + ")";
    parseCpuId(r.header.cpuId, p);
    p.interval = samplingText(r.header);
    p.recordingS = firstNs ? secondsSince(*firstNs, lastNs) : 0;
    auto span = resolveWindow(options.window, p.recordingS, {}, p.notes);
    if (!span) return span.error();
    p.fromS = span->first;
    p.toS = span->second;
    p.windowText = options.window.describe();
    if (countsInstructions) p.instructions = instructions;

    if (r.lbrMode) {
        p.hasLbr = true;
        p.lbrSamples = r.lbr.samples;
        p.branches = r.lbr.branches;
        for (const auto& e : r.lbr.edges)
            p.edges.push_back(
                BranchEdge { e.from, e.to, e.ret ? "return" : (e.call ? "call" : "branch"), e.stats.count });
    }
    if (r.hasMem) {
        p.hasMem = true;
        p.loadSamples = r.mem.total.count;
        for (std::size_t l = 0; l < bySource.size(); ++l)
            if (bySource[l].count)
                p.latencyBySource.push_back(LatencyFigures { std::string(memLevelName(static_cast<pmu::MemLevel>(l))),
                    {}, bySource[l].count, bySource[l].mean(), static_cast<double>(bySource[l].percentile(0.99)) });
        for (const auto& f : r.mem.functions)
            p.latencyByFunction.push_back(LatencyFigures {
                f.key, f.module, f.stats.count, f.stats.mean(), static_cast<double>(f.stats.percentile(0.99)) });
    }
    if (!r.hasMem && !r.lbrMode)
        p.notes.push_back("no branch stacks and no load-latency samples: nothing to compare on the PMU side");
    if (!r.missingBinaries.empty()) {
        std::string t = std::to_string(r.missingBinaries.size())
            + " binaries not found (their addresses stay module+offset; pass --symfs DIR):";
        for (std::size_t i = 0; i < r.missingBinaries.size() && i < 3; ++i)
            t += " " + r.missingBinaries[i];
        p.notes.push_back(t + (r.missingBinaries.size() > 3 ? " ..." : ""));
    }
    for (const auto& w : r.stats.warnings)
        p.notes.push_back(w);
    if (r.stats.truncated) p.notes.push_back("the file is truncated: the figures cover what was read");
    return p;
}

} // namespace rdt::compare
