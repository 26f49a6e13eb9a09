// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfDataImport.h"

#include "SymbolSearch.h"
#include "pmu/Symbolizer.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace rdt::perfdata {

Result<ImportResult> importPerfData(const std::string& path, const ImportOptions& options)
{
    // "-" reads a pipe-mode stream from stdin (`perf record -o - ... | rdtscope-cli import -`).
    auto reader = path == "-" ? PerfDataReader::openPipe(0) : PerfDataReader::open(path);
    if (!reader) return reader.error();
    ImportResult out;
    out.pipeMode = (*reader)->pipeMode();
    SymbolSearch search(options.symfs);
    pmu::Symbolizer symbols;
    std::optional<pmu::BranchGraph> graph;
    pmu::LoadLatency latency;
    struct IpCount {
        std::uint64_t samples = 0, period = 0;
    };
    std::unordered_map<std::uint64_t, std::unordered_map<std::uint64_t, IpCount>> byIp; ///< pid -> ip -> count
    std::set<std::string> seenPaths;
    pmu::MmapRecord localMap;
    const auto& header = (*reader)->header();

    auto stats = (*reader)->read(
        [&](const pmu::DecodedRecord& rec) {
            switch (rec.kind) {
            case pmu::RecordKind::Mmap: {
                // Point the symbolizer at the local copy of the binary (symfs / build-id), keeping addresses.
                const auto& m = rec.mmap;
                if (SymbolSearch::isPseudoPath(m.filename) || !m.executable()) {
                    symbols.onRecord(rec);
                    break;
                }
                auto local = search.locateMapping(m, header);
                if (seenPaths.insert(m.filename).second) {
                    if (local)
                        out.binaries.push_back(m.filename + " -> " + *local);
                    else
                        out.missingBinaries.push_back(m.filename);
                }
                localMap = m;
                if (local) localMap.filename = *local;
                symbols.addMapping(m.pid, localMap);
                break;
            }
            case pmu::RecordKind::Sample: {
                const auto& s = rec.sample;
                if (options.keepSample && !options.keepSample(s)) break;
                ++out.samples;
                auto& c = byIp[s.pid][s.ip];
                ++c.samples;
                c.period += s.period;
                if (s.has(pmu::perf::SampleBranchStack) && rec.attr) {
                    if (!graph) {
                        const bool callStack = rec.attr->branchSampleType & pmu::perf::BranchCallStack;
                        graph.emplace(
                            callStack ? pmu::BranchGraph::Mode::CallStack : pmu::BranchGraph::Mode::AnyBranch);
                    }
                    graph->add(s);
                }
                if (s.has(pmu::perf::SampleDataSrc) && s.has(pmu::perf::SampleWeight | pmu::perf::SampleWeightStruct)) {
                    out.hasMem = true;
                    latency.add(s);
                }
                break;
            }
            default:
                symbols.onRecord(rec);
                break;
            }
            if (options.onRecord) options.onRecord(rec);
            return true;
        },
        options.read);
    if (!stats) return stats.error();
    out.stats = std::move(stats).value();
    out.header = header;

    std::map<std::pair<std::string, std::string>, SymbolCount> sym;
    for (const auto& [pid, ips] : byIp)
        for (const auto& [ip, c] : ips) {
            const auto& info = symbols.resolve(static_cast<std::uint32_t>(pid), ip);
            auto& row = sym[{ info.function, info.module }];
            row.symbol = info.function;
            row.module = info.module;
            row.samples += c.samples;
            row.period += c.period;
        }
    for (auto& [k, v] : sym)
        out.bySymbol.push_back(std::move(v));
    std::sort(out.bySymbol.begin(), out.bySymbol.end(), [](const SymbolCount& a, const SymbolCount& b) {
        return a.samples != b.samples ? a.samples > b.samples : a.symbol < b.symbol;
    });
    if (graph) {
        out.lbrMode = graph->mode();
        out.lbr = graph->report(symbols);
    }
    if (out.hasMem) out.mem = latency.report(symbols, options.topN);
    return out;
}

} // namespace rdt::perfdata
