// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The aggregation half of an import: decoded perf records in file order -> symbols (pmu::Symbolizer, binaries found
// through SymbolSearch), the LBR branch graph, load latency and samples per symbol. Fed by a perf.data reader
// (importPerfData) or by the records an import stored in a session (importSessionRecords), so both give the same
// figures for the same records.

#include "PerfDataImport.h"
#include "SymbolSearch.h"
#include "core/FlatHashMap.h"
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/Symbolizer.h"

#include <optional>
#include <set>

namespace rdt::perfdata {

class RecordAggregator {
public:
    /// `header` supplies the recorded build-ids (binaries are looked up by them); it is read as records arrive,
    /// so a pipe-mode reader may still be filling it.
    RecordAggregator(const ImportOptions& options, const HeaderInfo& header);

    void add(const pmu::DecodedRecord& rec);
    /// The aggregates over every record added (stats and header are the caller's to fill).
    ImportResult finish();

private:
    void addMapping(const pmu::DecodedRecord& rec);

    const ImportOptions& m_options;
    const HeaderInfo& m_header;
    ImportResult m_out;
    SymbolSearch m_search;
    pmu::Symbolizer m_symbols;
    std::optional<pmu::BranchGraph> m_graph;
    pmu::LoadLatency m_latency;
    struct PidIp {
        std::uint32_t pid = 0;
        std::uint64_t ip = 0;
        bool operator==(const PidIp&) const = default;
    };
    struct PidIpHash {
        std::uint64_t operator()(const PidIp& k) const { return k.ip ^ (std::uint64_t { k.pid } << 40); }
    };
    struct IpCount {
        std::uint64_t samples = 0, period = 0;
    };
    FlatHashMap<PidIp, IpCount, PidIpHash> m_byIp;
    std::set<std::string> m_seenPaths;
};

} // namespace rdt::perfdata
