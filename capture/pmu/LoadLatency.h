// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Load-latency aggregation for PEBS samples (SDM 22.3.1.1.2 "Load Latency Performance Monitoring Facility";
// docs/PMU.md "PEBS load latency"): a log2 latency histogram stacked by data source level, and per-function and
// per-64-byte-line tables with count, mean/p50/p99 latency, HITM and remote counts (what perf c2c / perf mem report
// show). Percentiles are exact up to kReservoir latencies per row and estimated from a uniform reservoir beyond that.

#include "DataSource.h"
#include "PerfRecord.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rdt::pmu {

class Symbolizer;

struct LatencyStats {
    std::uint64_t count = 0;
    std::uint64_t sum = 0;
    std::uint64_t hitm = 0;
    std::uint64_t remote = 0; ///< remote DRAM or remote cache
    std::uint32_t max = 0;
    std::vector<std::uint32_t> reservoir;
    std::uint64_t seen = 0; ///< for reservoir replacement
    std::array<std::uint64_t, static_cast<std::size_t>(MemLevel::Count)> byLevel {};

    void add(std::uint32_t latency, MemLevel level, bool hitm, bool remote, std::uint64_t& rng);
    void merge(const LatencyStats& o);
    double mean() const { return count ? static_cast<double>(sum) / static_cast<double>(count) : 0; }
    /// Nearest-rank percentile (q in [0,1]) over the reservoir.
    std::uint32_t percentile(double q) const;
    MemLevel dominantLevel() const;
};

struct LatencyRow {
    std::string key; ///< function name, or "0x7f..40" for a cache line
    std::string module;
    std::string function; ///< for lines: the hottest function that touched it
    LatencyStats stats;
};

struct LoadLatencyReport {
    static constexpr std::size_t kBuckets = 20; ///< bucket b holds latencies in [2^b, 2^(b+1)), bucket 0 also 0
    std::array<std::array<std::uint64_t, static_cast<std::size_t>(MemLevel::Count)>, kBuckets> histogram {};
    std::vector<LatencyRow> functions; ///< by total latency (count x mean), descending
    std::vector<LatencyRow> lines; ///< by total latency, descending
    LatencyStats total;
    /// Samples per mem_region (index = PERF_MEM_REGION_* value; [0] = not filled, pre-Linux-7.0 or other CPUs).
    std::array<std::uint64_t, DataSource::kRegions> byRegion {};
    /// Samples whose data source had mem_lvl_num ANY_CACHE (Arm SPE's "some cache", counted as L3 in byLevel).
    std::uint64_t anyCache = 0;
};

class LoadLatency {
public:
    static constexpr std::size_t kReservoir = 1024;
    static std::size_t bucketOf(std::uint64_t latency);

    /// Adds one sample (needs WEIGHT or WEIGHT_STRUCT, DATA_SRC; uses IP, ADDR, PID).
    void add(const Sample& s);
    LoadLatencyReport report(Symbolizer& symbols, std::size_t topN = 20) const;
    void clear();
    std::uint64_t samples() const { return m_total.count; }

private:
    struct IpKey {
        std::uint32_t pid;
        std::uint64_t ip;
        bool operator==(const IpKey&) const = default;
    };
    struct IpHash {
        std::size_t operator()(const IpKey& k) const
        {
            return static_cast<std::size_t>(
                (k.ip ^ (static_cast<std::uint64_t>(k.pid) << 48)) * 0x9e3779b97f4a7c15ull >> 7);
        }
    };
    /// Most lines are touched once or twice, so a line keeps its first samples inline and only gets full
    /// statistics (with a reservoir allocation) from its kInline+1-th sample on.
    struct LineStats {
        static constexpr std::size_t kInline = 3;
        std::uint64_t hotIp = 0; ///< an IP that touched the line (the first seen)
        std::uint8_t n = 0;
        std::array<std::uint32_t, kInline> latency {};
        std::array<std::uint8_t, kInline> level {};
        std::array<std::uint8_t, kInline> flags {}; ///< bit 0 hitm, bit 1 remote
        std::unique_ptr<LatencyStats> full;
        LatencyStats stats() const;
    };
    std::array<std::array<std::uint64_t, static_cast<std::size_t>(MemLevel::Count)>, LoadLatencyReport::kBuckets>
        m_hist {};
    std::unordered_map<IpKey, LatencyStats, IpHash> m_byIp;
    /// Open addressing (linear probing, load <= 1/2) for the line table: one sample in a new line is the common case
    /// at millions of samples per second, and a node allocation per line would dominate the aggregation cost.
    class LineTable {
    public:
        LineStats& findOrInsert(const IpKey& key);
        void clear();
        std::size_t size() const { return m_size; }
        template <typename F> void forEach(F&& f) const
        {
            for (std::size_t i = 0; i < m_keys.size(); ++i)
                if (m_used[i]) f(m_keys[i], m_values[i]);
        }

    private:
        void grow();
        std::vector<IpKey> m_keys;
        std::vector<LineStats> m_values;
        std::vector<std::uint8_t> m_used;
        std::size_t m_size = 0;
    };
    LineTable m_byLine; ///< (pid, address & ~63)
    LatencyStats m_total;
    std::array<std::uint64_t, DataSource::kRegions> m_regions {};
    std::uint64_t m_anyCache = 0;
    std::uint64_t m_rng = 0x2545f4914f6cdd1dull;
};

} // namespace rdt::pmu
