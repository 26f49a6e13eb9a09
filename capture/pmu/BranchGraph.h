// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The branch call graph from LBR samples (docs/PMU.md "Call graphs from LBR").
//  - Call-stack mode (USER|CALL_STACK): the LBR is a call stack (SDM 21.1.2.4), so a sample's user stack is
//    entries[0].to (the current function) followed by entries[i].from (the call sites), as perfparser does.
//    Each consecutive pair gives a caller -> callee edge; the leaf gets self samples, every distinct function in the
//    stack an inclusive sample.
//  - Any-branch mode: every entry is a taken branch from -> to with mispredict and cycles. Its kind (call, return,
//    jump, trap) comes from the entry's branch type when the attr saved it, else from the instruction at `from`
//    in the profiled binary, else it is unknown (docs/PMU.md "Edge kinds"). Self samples come from the sample IP.
// Aggregation is by address on the hot path (cheap hashing); functions and kinds are resolved once per distinct
// address when a report is built.

#include "BranchStackSource.h"
#include "EdgeKind.h"
#include "PerfRecord.h"
#include "core/FlatHashMap.h"

#include <array>
#include <bit>
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
    std::uint8_t type = 0; ///< perf::BranchType of the entries (0 unknown; the last seen in file order)
    std::uint8_t newType = 0; ///< PERF_BR_NEW_* when type is EXTEND_ABI
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
        if (o.type) {
            type = o.type;
            newType = o.newType;
        }
    }
};

/// Function-level view: one row per (from, to, kind).
struct FunctionEdge {
    std::string from, to;
    EdgeKind kind = EdgeKind::Unknown;
    EdgeKindFrom kindFrom = EdgeKindFrom::None;
    BranchEdgeStats stats;
    bool call() const { return kind == EdgeKind::Call; }
    bool ret() const { return kind == EdgeKind::Return; }
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
    std::uint64_t emptyStacks = 0; ///< samples without user entries: an empty stack, or only kernel entries
    std::uint64_t kernelOnlyStacks = 0; ///< of those, the samples whose entries are all in the kernel

    /// Edges (rows) of a kind; the one count the CLI and the GUI show.
    std::size_t edgeCount(EdgeKind kind) const;
    /// Branch entries of a kind (the sum of those rows' counts).
    std::uint64_t entryCount(EdgeKind kind) const;
    /// Branch entries whose kind came from `from`.
    std::uint64_t entryCount(EdgeKindFrom from) const;
};

class BranchGraph {
public:
    enum class Mode { AnyBranch, CallStack };
    /// What the attrs say about a recording's branch stacks.
    struct Info {
        Mode mode = Mode::AnyBranch;
        bool typesRecorded = true; ///< entries carry PERF_BR_* types (branch_sample_type TYPE_SAVE); 0 = unknown
        BranchStackSource source = BranchStackSource::Unknown;
        /// Mode and types from an attr's branch_sample_type (the source needs the recording's CPU: see
        /// perfdata::branchStackSource).
        static Info fromAttr(const EventAttr& attr);
        /// "any-branch mode" or "call-stack mode".
        std::string modeName() const;
    };
    explicit BranchGraph(Mode mode)
        : m_info { mode, true, BranchStackSource::Unknown }
    { }
    explicit BranchGraph(Info info)
        : m_info(info)
    { }

    /// Adds one sample (needs BRANCH_STACK; uses IP, PID), the next in file order.
    void add(const Sample& s) { add(s, m_samples); }
    /// Adds one sample at `order`, its place in the file (e.g. its record's offset): a graph fed by several threads
    /// (one graph each, merged) still keeps an edge's branch type of the last entry in file order. Within one graph
    /// samples come in order (`order` never decreases).
    void add(const Sample& s, std::uint64_t order);
    /// Adds the samples of another graph of the same mode (other parts of the same file): every count is the
    /// one a single graph fed with all the samples has.
    void merge(const BranchGraph& other);
    /// Builds the function-level graph, resolving each distinct address once.
    BranchGraphReport report(Symbolizer& symbols) const;
    void clear();

    Mode mode() const { return m_info.mode; }
    const Info& info() const { return m_info; }
    std::uint64_t samples() const { return m_samples; }
    std::size_t distinctEdges() const { return m_edges.size(); }

private:
    struct AddrPair {
        std::uint32_t pid;
        std::uint64_t from, to;
        bool operator==(const AddrPair&) const = default;
    };
    struct PairHash { // FlatHashMap multiplies this by the golden ratio: a cheap mix of all three is enough
        std::uint64_t operator()(const AddrPair& p) const
        {
            return p.from ^ std::rotl(p.to, 29) ^ (std::uint64_t { p.pid } << 47);
        }
    };
    struct EdgeTally {
        BranchEdgeStats stats;
        std::uint64_t typeAt = 0; ///< `order` of the sample whose entry set stats.type (merge keeps the later)
    };
    struct StackEntry {
        std::uint32_t pid = 0;
        std::uint64_t count = 0;
        std::vector<std::uint64_t> frames; ///< leaf first
    };

    /// Whether an entry is in user space: its privilege when the PMU saved it, else either end below the kernel's
    /// half of the address space (x86-64 and AArch64 kernels live where bit 63 is set).
    static bool userEntry(const BranchEntry& e);
    EdgeKind kindOf(const AddrPair& key, const BranchEdgeStats& st, Symbolizer& symbols, EdgeKindFrom& from) const;

    Info m_info;
    std::uint64_t m_samples = 0, m_branches = 0, m_empty = 0, m_kernelOnly = 0;
    FlatHashMap<AddrPair, EdgeTally, PairHash> m_edges; ///< any-branch: from -> to
    std::unordered_map<std::uint64_t, std::vector<StackEntry>> m_stacks; ///< call-stack: by stack hash
    FlatHashMap<AddrPair, std::uint64_t, PairHash> m_selfIps; ///< (pid, ip, 0) -> samples
    std::vector<std::uint64_t> m_frameScratch;
};

} // namespace rdt::pmu
