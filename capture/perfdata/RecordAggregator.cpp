// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordAggregator.h"

#include "BranchStackOrigin.h"

#include <optional>

namespace rdt::perfdata {

RecordAggregator::RecordAggregator(const ImportOptions& options, const HeaderInfo& header)
    : m_options(options)
    , m_header(header)
    , m_search(options.symfs)
    , m_tally(header)
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

void RecordAggregator::add(const pmu::DecodedRecord& rec, std::uint64_t order)
{
    switch (rec.kind) {
    case pmu::RecordKind::Mmap:
        addMapping(rec);
        break;
    case pmu::RecordKind::Sample:
        if (m_options.keepSample && !m_options.keepSample(rec.sample)) break;
        m_tally.add(rec.sample, rec.attr, order);
        break;
    default:
        m_symbols.onRecord(rec);
        break;
    }
    if (m_options.onRecord) m_options.onRecord(rec);
}

bool RecordAggregator::shardable(const pmu::RecordDecoder& decoder) const
{
    if (m_options.onRecord || m_options.keepSample) return false;
    std::optional<pmu::BranchGraph::Info> branches;
    for (std::size_t i = 0; i < decoder.eventCount(); ++i) {
        const auto& attr = decoder.event(i);
        if ((attr.sampleType & pmu::perf::SampleDataSrc)
            && (attr.sampleType & (pmu::perf::SampleWeight | pmu::perf::SampleWeightStruct)))
            return false;
        if (!(attr.sampleType & pmu::perf::SampleBranchStack)) continue;
        auto info = pmu::BranchGraph::Info::fromAttr(attr);
        info.source = branchStackSource(attr, m_header);
        if (branches
            && (branches->mode != info.mode || branches->typesRecorded != info.typesRecorded
                || branches->source != info.source))
            return false;
        branches = info;
    }
    return true;
}

void RecordAggregator::makeShards(unsigned count)
{
    m_shards.clear();
    for (unsigned i = 0; i < count; ++i)
        m_shards.emplace_back(m_header);
}

ImportResult RecordAggregator::finish()
{
    for (auto& shard : m_shards)
        m_tally.merge(std::move(shard));
    m_shards.clear();
    m_tally.finish(m_out, m_symbols, m_options.topN);
    return std::move(m_out);
}

} // namespace rdt::perfdata
