// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The aggregation half of an import: decoded perf records in file order -> symbols (pmu::Symbolizer, binaries found
// through SymbolSearch), the LBR branch graph, load latency and samples per symbol. Fed by a perf.data reader
// (importPerfData) or by the records an import stored in a session (importSessionRecords), so both give the same
// figures for the same records.

#include "PerfDataImport.h"
#include "SampleTally.h"
#include "SymbolSearch.h"
#include "pmu/RecordDecoder.h"
#include "pmu/Symbolizer.h"

#include <set>
#include <vector>

namespace rdt::perfdata {

class RecordAggregator {
public:
    /// `header` supplies the recorded build-ids (binaries are looked up by them); it is read as records arrive,
    /// so a pipe-mode reader may still be filling it.
    RecordAggregator(const ImportOptions& options, const HeaderInfo& header);

    /// The next record in file order.
    void add(const pmu::DecodedRecord& rec) { add(rec, m_nextOrder++); }
    /// A record at `order`, its place in the file (e.g. its offset; never decreasing between calls).
    void add(const pmu::DecodedRecord& rec, std::uint64_t order);

    /// Whether samples may be tallied on several threads (addShardSample) with the figures of one pass: no
    /// per-record callbacks of the caller, no load-latency samples (their percentiles depend on the order), and
    /// one kind of branch stack (mode and source) among `decoder`'s events.
    bool shardable(const pmu::RecordDecoder& decoder) const;
    /// Makes `count` per-thread tallies for addShardSample (before any thread uses them).
    void makeShards(unsigned count);
    /// A sample at file offset `order`, from thread `shard` (each thread its own; called concurrently with add()).
    void addShardSample(unsigned shard, const pmu::DecodedRecord& rec, std::uint64_t order)
    {
        m_shards[shard].add(rec.sample, rec.attr, order);
    }

    /// The aggregates over every record added (stats and header are the caller's to fill).
    ImportResult finish();

private:
    void addMapping(const pmu::DecodedRecord& rec);

    const ImportOptions& m_options;
    const HeaderInfo& m_header;
    ImportResult m_out;
    SymbolSearch m_search;
    pmu::Symbolizer m_symbols;
    SampleTally m_tally;
    std::vector<SampleTally> m_shards;
    std::uint64_t m_nextOrder = 0;
    std::set<std::string> m_seenPaths;
};

} // namespace rdt::perfdata
