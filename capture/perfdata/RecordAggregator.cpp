// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordAggregator.h"

#include "BranchStackOrigin.h"

#include <algorithm>
#include <map>

namespace rdt::perfdata {

RecordAggregator::RecordAggregator(const ImportOptions& options, const HeaderInfo& header)
    : m_options(options)
    , m_header(header)
    , m_search(options.symfs)
{ }

void RecordAggregator::addMapping(const pmu::DecodedRecord& rec)
{
    // Point the symbolizer at the local copy of the binary (symfs / build-id), keeping addresses.
    const auto& m = rec.mmap;
    if (SymbolSearch::isPseudoPath(m.filename) || !m.executable()) {
        m_symbols.onRecord(rec);
        return;
    }
    const auto local = m_search.localMapping(m, m_header);
    if (m_seenPaths.insert(m.filename).second) {
        if (local.binaryPresent)
            m_out.binaries.push_back(m.filename + " -> " + local.mapping.filename
                + (m_search.matchedByPathOnly(m.filename) ? " (matched by path only: no build-id to compare)" : ""));
        else
            m_out.missingBinaries.push_back(m.filename);
        if (const auto why = m_search.rejection(m.filename); !local.binaryPresent && !why.empty())
            m_out.rejectedBinaries.push_back(m.filename + ": " + why);
    }
    m_symbols.addMapping(m.pid, local.mapping, local.binaryPresent);
}

void RecordAggregator::add(const pmu::DecodedRecord& rec)
{
    switch (rec.kind) {
    case pmu::RecordKind::Mmap:
        addMapping(rec);
        break;
    case pmu::RecordKind::Sample: {
        const auto& s = rec.sample;
        if (m_options.keepSample && !m_options.keepSample(s)) break;
        ++m_out.samples;
        auto& c = m_byIp[PidIp { s.pid, s.ip }];
        ++c.samples;
        c.period += s.period;
        if (s.has(pmu::perf::SampleBranchStack) && rec.attr) {
            if (!m_graph) {
                auto info = pmu::BranchGraph::Info::fromAttr(*rec.attr);
                info.source = branchStackSource(*rec.attr, m_header);
                m_graph.emplace(info);
            }
            m_graph->add(s);
        }
        if (s.has(pmu::perf::SampleDataSrc) && s.has(pmu::perf::SampleWeight | pmu::perf::SampleWeightStruct)) {
            if (!m_out.hasMem && rec.attr) m_out.memOrigin = loadLatencyOrigin(*rec.attr, m_header);
            m_out.hasMem = true;
            m_latency.add(s);
        }
        break;
    }
    default:
        m_symbols.onRecord(rec);
        break;
    }
    if (m_options.onRecord) m_options.onRecord(rec);
}

ImportResult RecordAggregator::finish()
{
    std::map<std::pair<std::string, std::string>, SymbolCount> sym;
    m_byIp.forEach([&](const PidIp& key, const IpCount& c) {
        const auto& info = m_symbols.resolve(key.pid, key.ip);
        auto& row = sym[{ info.function, info.module }];
        row.symbol = info.function;
        row.module = info.module;
        row.samples += c.samples;
        row.period += c.period;
    });
    for (auto& [k, v] : sym)
        m_out.bySymbol.push_back(std::move(v));
    std::sort(m_out.bySymbol.begin(), m_out.bySymbol.end(), [](const SymbolCount& a, const SymbolCount& b) {
        return a.samples != b.samples ? a.samples > b.samples : a.symbol < b.symbol;
    });
    if (m_graph) {
        m_out.lbrMode = m_graph->mode();
        m_out.lbrInfo = m_graph->info();
        m_out.lbr = m_graph->report(m_symbols);
    }
    if (m_out.hasMem) m_out.mem = m_latency.report(m_symbols, m_options.topN);
    return std::move(m_out);
}

} // namespace rdt::perfdata
