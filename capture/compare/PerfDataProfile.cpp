// SPDX-License-Identifier: GPL-3.0-or-later
// A perf.data file reduced to a Profile over a window, through the same import pass as `rdtscope-cli report`
// (perfdata::importPerfData): function-level LBR edges, load latency per function, and, counted here from the
// same samples, load latency per data source and the instructions the samples stand for.
#include "PerfSamplesProfile.h"
#include "WindowResolve.h"

#include "perfdata/PerfDataImport.h"

#include <algorithm>

namespace rdt::compare {

Result<Profile> loadPerfDataProfile(const std::string& path, const LoadOptions& options)
{
    if (options.window.kind == Window::Kind::Markers || options.window.kind == Window::Kind::BeforeMarker
        || options.window.kind == Window::Kind::AfterMarker)
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

    PerfSampleCounts counts;
    const auto io = profileImportOptions(options.symfs, inWindow, counts);
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
    fillPmuSide(r, counts, p);
    return p;
}

} // namespace rdt::compare
