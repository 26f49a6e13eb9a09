// SPDX-License-Identifier: GPL-3.0-or-later
#include "SampleTally.h"

#include "BranchStackOrigin.h"

#include <algorithm>
#include <map>

namespace rdt::perfdata {

void SampleTally::add(const pmu::Sample& s, const pmu::EventAttr* attr, std::uint64_t order)
{
    ++m_samples;
    auto& c = m_byIp[PidIp { s.pid, s.ip }];
    ++c.samples;
    c.period += s.period;
    if (s.has(pmu::perf::SampleBranchStack) && attr) {
        if (!m_graph) {
            auto info = pmu::BranchGraph::Info::fromAttr(*attr);
            info.source = branchStackSource(*attr, m_header);
            m_graph.emplace(info);
        }
        m_graph->add(s, order);
    }
    if (s.has(pmu::perf::SampleDataSrc) && s.has(pmu::perf::SampleWeight | pmu::perf::SampleWeightStruct)) {
        if (!m_hasMem && attr) m_memOrigin = loadLatencyOrigin(*attr, m_header);
        m_hasMem = true;
        m_latency.add(s);
    }
}

void SampleTally::merge(SampleTally&& other)
{
    m_samples += other.m_samples;
    m_byIp.reserveMore(other.m_byIp.size());
    other.m_byIp.forEach([&](const PidIp& key, const IpCount& c) {
        auto& mine = m_byIp[key];
        mine.samples += c.samples;
        mine.period += c.period;
    });
    if (other.m_graph) {
        if (!m_graph)
            m_graph = std::move(other.m_graph);
        else
            m_graph->merge(*other.m_graph);
    }
    if (other.m_hasMem && !m_hasMem) {
        m_hasMem = true;
        m_memOrigin = other.m_memOrigin;
        m_latency = std::move(other.m_latency);
    }
}

void SampleTally::finish(ImportResult& out, pmu::Symbolizer& symbols, std::size_t topN)
{
    out.samples = m_samples;
    std::map<std::pair<std::string, std::string>, SymbolCount> sym;
    m_byIp.forEach([&](const PidIp& key, const IpCount& c) {
        const auto& info = symbols.resolve(key.pid, key.ip);
        auto& row = sym[{ info.function, info.module }];
        row.symbol = info.function;
        row.module = info.module;
        row.samples += c.samples;
        row.period += c.period;
    });
    for (auto& [k, v] : sym)
        out.bySymbol.push_back(std::move(v));
    std::sort(out.bySymbol.begin(), out.bySymbol.end(), [](const SymbolCount& a, const SymbolCount& b) {
        return a.samples != b.samples ? a.samples > b.samples : a.symbol < b.symbol;
    });
    if (m_graph) {
        out.lbrMode = m_graph->mode();
        out.lbrInfo = m_graph->info();
        out.lbr = m_graph->report(symbols);
    }
    out.hasMem = m_hasMem;
    if (m_hasMem) {
        out.memOrigin = m_memOrigin;
        out.mem = m_latency.report(symbols, topN);
    }
}

} // namespace rdt::perfdata
