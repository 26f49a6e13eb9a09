// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfSamplesProfile.h"

#include "pmu/DataSource.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rdt::compare {

namespace {
constexpr bool isInstructions(const pmu::EventAttr& a)
{
    return a.type == 0 && a.config == 1; // PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS
}
} // namespace

void PerfSampleCounts::add(const pmu::DecodedRecord& rec)
{
    if (rec.kind != pmu::RecordKind::Sample) return;
    const auto& s = rec.sample;
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
        byRegion[ds.region % byRegion.size()].add(lat, level, ds.hitm(), remote, rng);
    }
}

perfdata::ImportOptions profileImportOptions(
    const std::vector<std::string>& symfs, std::function<bool(const pmu::Sample&)> keep, PerfSampleCounts& counts)
{
    // The aggregator asks keepSample before it hands the same record to onRecord: count what it kept.
    auto kept = std::make_shared<bool>(false);
    perfdata::ImportOptions io;
    io.symfs = symfs;
    io.topN = 5000;
    io.keepSample = [keep = std::move(keep), kept](const pmu::Sample& s) { return *kept = keep(s); };
    io.onRecord = [kept, &counts](const pmu::DecodedRecord& rec) {
        if (rec.kind == pmu::RecordKind::Sample && *kept) counts.add(rec);
    };
    return io;
}

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

void fillPmuSide(const perfdata::ImportResult& r, const PerfSampleCounts& counts, Profile& p)
{
    if (counts.countsInstructions) p.instructions = counts.instructions;
    if (r.lbrMode) {
        p.hasLbr = true;
        p.lbrSamples = r.lbr.samples;
        p.branches = r.lbr.branches;
        for (const auto& e : r.lbr.edges)
            p.edges.push_back(BranchEdge { e.from, e.to,
                e.kind == pmu::EdgeKind::Jump && e.from == e.to ? std::string("branch")
                                                                : std::string(pmu::edgeKindName(e.kind)),
                e.stats.count });
    }
    if (r.hasMem) {
        p.hasMem = true;
        p.loadSamples = r.mem.total.count;
        for (std::size_t l = 0; l < counts.bySource.size(); ++l)
            if (counts.bySource[l].count)
                p.latencyBySource.push_back(LatencyFigures { std::string(memLevelName(static_cast<pmu::MemLevel>(l))),
                    {}, counts.bySource[l].count, counts.bySource[l].mean(),
                    static_cast<double>(counts.bySource[l].percentile(0.99)) });
        // mem_region only where the samples carry it (the rule `report --mem` shows them by: the engine's count).
        if (r.mem.total.count > r.mem.byRegion[0])
            for (std::size_t g = 0; g < counts.byRegion.size(); ++g)
                if (counts.byRegion[g].count)
                    p.latencyByRegion.push_back(
                        LatencyFigures { pmu::memRegionName(static_cast<std::uint8_t>(g)), {}, counts.byRegion[g].count,
                            counts.byRegion[g].mean(), static_cast<double>(counts.byRegion[g].percentile(0.99)) });
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
}

} // namespace rdt::compare
