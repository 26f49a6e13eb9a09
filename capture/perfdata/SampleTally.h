// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfDataImport.h"
#include "core/FlatHashMap.h"
#include "pmu/BranchGraph.h"
#include "pmu/LoadLatency.h"
#include "pmu/Symbolizer.h"

#include <cstdint>
#include <optional>

namespace rdt::perfdata {

/// What an import counts of its samples alone: samples and period per IP, the LBR branch graph, load latency.
/// Symbols are resolved only in finish(), so a tally does not depend on the records around its samples, and tallies
/// of parts of one file (one per reading thread) merge into the tally of the whole.
class SampleTally {
public:
    explicit SampleTally(const HeaderInfo& header)
        : m_header(header)
    { }

    /// One sample of `attr` (may be null) at `order`, its place in the file (never decreasing within a tally).
    void add(const pmu::Sample& s, const pmu::EventAttr* attr, std::uint64_t order);
    /// Adds the tally of other samples of the same file. Load latency does not merge (its percentiles come from a
    /// reservoir whose content depends on the order): the import keeps files with load-latency samples to one
    /// tally, and `other` must have none (else they stay out: hasLoadLatency() says so).
    void merge(SampleTally&& other);
    bool hasLoadLatency() const { return m_hasMem; }
    /// Fills out.samples, bySymbol, lbr*, hasMem, mem and memOrigin, resolving addresses through `symbols`.
    void finish(ImportResult& out, pmu::Symbolizer& symbols, std::size_t topN);

private:
    const HeaderInfo& m_header;
    std::uint64_t m_samples = 0;
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
    std::optional<pmu::BranchGraph> m_graph;
    bool m_hasMem = false;
    LoadLatencyOrigin m_memOrigin;
    pmu::LoadLatency m_latency;
};

} // namespace rdt::perfdata
