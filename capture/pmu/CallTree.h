// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Call trees of sampled call stacks (docs/PMU.md "Call trees and flame graph"), what Hotspot and VTune show: a
// top-down tree (from the outermost caller to the function that was running; a node's inclusive samples are the
// samples whose stack passes through that path, its self samples those that stopped there) and a bottom-up tree
// (from the function that was running out to its callers). The flame graph is the top-down tree drawn by width.
// Stacks are added leaf first (SampleStack.h) with their thread and CPU; a StackFilter keeps one thread and/or CPU,
// and every thread and CPU seen is listed with its samples before filtering, so a front end can offer the choices.
// Aggregation is by address (distinct stacks counted once); functions are named once per distinct address when the
// report is built, as BranchGraph does.

#include "SampleStack.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace rdt::pmu {

class Symbolizer;

struct CallTreeNode {
    std::string function; ///< empty for the root ("all samples")
    std::string module;
    std::uint64_t inclusive = 0; ///< samples whose stack passes through this path
    std::uint64_t self = 0; ///< top-down: samples that stopped here; bottom-up: set on the first level only
    std::int32_t parent = -1;
    std::vector<std::int32_t> children; ///< by inclusive samples, descending, then by name
};

/// The samples of one thread (TID) before filtering (with call stacks, or listed by CallTree::listOnly).
struct ThreadSamples {
    std::uint32_t pid = 0, tid = 0;
    std::uint64_t samples = 0;
};

/// The samples of one CPU before filtering (cpu == kUnknownCpu: samples without PERF_SAMPLE_CPU).
struct CpuSamples {
    std::uint32_t cpu = 0;
    std::uint64_t samples = 0;
};

struct CallTreeReport {
    std::vector<CallTreeNode> topDown; ///< [0] is the root, whose inclusive is `samples`
    std::vector<CallTreeNode> bottomUp; ///< [0] is the root, whose inclusive is `samples`
    std::uint64_t samples = 0; ///< samples the filter kept
    std::uint64_t allSamples = 0; ///< samples before the filter
    std::vector<ThreadSamples> threads; ///< by TID
    std::vector<CpuSamples> cpus; ///< by CPU, kUnknownCpu last
    std::size_t maxDepth = 0; ///< frames of the deepest stack kept

    bool cpuKnown() const;
    /// The top-down node reached from the root by `path` (outermost caller first), -1 when absent.
    std::int32_t findTopDown(std::span<const std::string> path) const;
};

class CallTree {
public:
    explicit CallTree(StackFilter filter = {})
        : m_filter(filter)
    { }

    /// Adds one sample's stack (frames leaf first, at least one) of `weight` samples.
    void add(std::uint32_t pid, std::uint32_t tid, std::uint32_t cpu, std::span<const std::uint64_t> leafFirst,
        std::uint64_t weight = 1);
    /// Lists a sample without a call stack (an any-branch LBR sample, which the branch call graph shows) among the
    /// threads and CPUs a filter may choose, without adding it to the trees.
    void listOnly(std::uint32_t pid, std::uint32_t tid, std::uint32_t cpu);
    /// Builds both trees, resolving each distinct address once.
    CallTreeReport report(Symbolizer& symbols) const;

    std::uint64_t samples() const { return m_kept; }

private:
    struct Stack {
        std::uint32_t pid = 0;
        std::uint64_t count = 0;
        std::vector<std::uint64_t> frames; ///< leaf first
    };

    StackFilter m_filter;
    std::uint64_t m_kept = 0, m_all = 0;
    std::unordered_map<std::uint64_t, std::vector<Stack>> m_stacks; ///< by a hash of pid and frames
    std::map<std::uint32_t, ThreadSamples> m_threads;
    std::map<std::uint32_t, std::uint64_t> m_cpus;
};

} // namespace rdt::pmu
