// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The branch call graph from LBR samples (docs/PMU.md "Call graphs from LBR").
//  - Call-stack mode (USER|CALL_STACK): the LBR is a call stack (SDM 21.1.2.4), so a sample's user stack is
//    entries[0].to (the current function) followed by entries[i].from (the call sites), as perfparser does.
//    Each consecutive pair gives a caller -> callee edge; the leaf gets self samples, every distinct function in the
//    stack an inclusive sample.
//  - Any-branch mode: every entry is a taken branch from -> to with mispredict and cycles; branches that cross
//    functions are call edges, the rest are branches inside a function. Self samples come from the sample IP.
// Aggregation is by address on the hot path (cheap hashing); functions are resolved once per distinct address
// when a report is built.

#include "PerfRecord.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rdt::pmu {

class Symbolizer;

struct BranchEdgeStats {
    std::uint64_t count = 0;
    std::uint64_t mispredicts = 0;
    std::uint64_t cycles = 0; ///< sum of the LBR cycles fields (0 when the PMU does not report them)
    std::uint64_t cycleSamples = 0; ///< entries with non-zero cycles
    std::uint8_t type = 0; ///< perf::BranchType of the entries (0 unknown; the last seen)
    double mispredictRate() const { return count ? static_cast<double>(mispredicts) / static_cast<double>(count) : 0; }
    double averageCycles() const
    {
        return cycleSamples ? static_cast<double>(cycles) / static_cast<double>(cycleSamples) : 0;
    }
    void add(const BranchEdgeStats& o)
    {
        count += o.count;
        mispredicts += o.mispredicts;
        cycles += o.cycles;
        cycleSamples += o.cycleSamples;
        type = o.type ? o.type : type;
    }
};

/// Function-level view.
struct FunctionEdge {
    std::string from, to;
    bool call = true; ///< a call into another function (or an unknown-type branch that leaves the function)
    bool ret = false; ///< a return to the caller (branch type RET, needs PERF_SAMPLE_BRANCH_TYPE_SAVE)
    ///< call == ret == false: a branch inside one function (from == to)
    BranchEdgeStats stats;
};
struct FunctionNode {
    std::string name;
    std::string module;
    std::uint64_t self = 0;
    std::uint64_t inclusive = 0;
};
struct BranchGraphReport {
    std::vector<FunctionNode> functions; ///< by inclusive then self, descending
    std::vector<FunctionEdge> edges; ///< by count, descending
    std::uint64_t samples = 0;
    std::uint64_t branches = 0;
    std::uint64_t emptyStacks = 0; ///< samples without user LBR entries (taken in the kernel)
};

class BranchGraph {
public:
    enum class Mode { AnyBranch, CallStack };
    explicit BranchGraph(Mode mode)
        : m_mode(mode)
    { }

    /// Adds one sample (needs BRANCH_STACK; uses IP, PID).
    void add(const Sample& s);
    /// Builds the function-level graph, resolving each distinct address once.
    BranchGraphReport report(Symbolizer& symbols) const;
    void clear();

    Mode mode() const { return m_mode; }
    std::uint64_t samples() const { return m_samples; }
    std::size_t distinctEdges() const { return m_edges.size(); }

private:
    struct AddrPair {
        std::uint32_t pid;
        std::uint64_t from, to;
        bool operator==(const AddrPair&) const = default;
    };
    struct PairHash {
        std::size_t operator()(const AddrPair& p) const
        {
            std::uint64_t h = p.from * 0x9e3779b97f4a7c15ull ^ (p.to + 0x7f4a7c15ull + (h0(p.pid) << 6));
            return static_cast<std::size_t>(h ^ (h >> 29));
        }
        static std::uint64_t h0(std::uint32_t v) { return v * 0x85ebca6bull; }
    };
    struct StackEntry {
        std::uint32_t pid = 0;
        std::uint64_t count = 0;
        std::vector<std::uint64_t> frames; ///< leaf first
    };

    Mode m_mode;
    std::uint64_t m_samples = 0, m_branches = 0, m_empty = 0;
    std::unordered_map<AddrPair, BranchEdgeStats, PairHash> m_edges; ///< any-branch: from -> to
    std::unordered_map<std::uint64_t, std::vector<StackEntry>> m_stacks; ///< call-stack: by stack hash
    std::unordered_map<AddrPair, std::uint64_t, PairHash> m_selfIps; ///< (pid, ip, 0) -> samples
    std::vector<std::uint64_t> m_frameScratch;
};

} // namespace rdt::pmu
