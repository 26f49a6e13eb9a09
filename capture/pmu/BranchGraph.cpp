// SPDX-License-Identifier: GPL-3.0-or-later
#include "BranchGraph.h"

#include "SampleStack.h"
#include "Symbolizer.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace rdt::pmu {

std::size_t BranchGraphReport::edgeCount(EdgeKind kind) const
{
    return static_cast<std::size_t>(
        std::count_if(edges.begin(), edges.end(), [kind](const FunctionEdge& e) { return e.kind == kind; }));
}

std::uint64_t BranchGraphReport::entryCount(EdgeKind kind) const
{
    std::uint64_t n = 0;
    for (const auto& e : edges)
        n += e.kind == kind ? e.stats.count : 0;
    return n;
}

std::uint64_t BranchGraphReport::entryCount(EdgeKindFrom from) const
{
    std::uint64_t n = 0;
    for (const auto& e : edges)
        n += e.kindFrom == from ? e.stats.count : 0;
    return n;
}

BranchGraph::Info BranchGraph::Info::fromAttr(const EventAttr& attr)
{
    Info info;
    info.mode = (attr.branchSampleType & perf::BranchCallStack) ? Mode::CallStack : Mode::AnyBranch;
    info.typesRecorded = (attr.branchSampleType & perf::BranchTypeSave) != 0;
    return info;
}

std::string BranchGraph::Info::modeName() const
{
    return mode == Mode::CallStack ? "call-stack mode" : "any-branch mode";
}

void BranchGraph::clear()
{
    m_samples = m_branches = m_empty = m_kernelOnly = 0;
    m_edges.clear();
    m_stacks.clear();
    m_selfIps.clear();
}

bool BranchGraph::userEntry(const BranchEntry& e)
{
    if (e.priv() != 0) return e.priv() == 1; // PERF_BR_PRIV_USER (uapi), when branch_sample_type had PRIV_SAVE
    constexpr std::uint64_t kernelHalf = 1ull << 63;
    return (e.from & kernelHalf) == 0 || (e.to & kernelHalf) == 0;
}

void BranchGraph::add(const Sample& s, std::uint64_t order)
{
    ++m_samples;
    const auto& br = s.branches;
    bool anyEntry = false, anyUser = false;
    for (const auto& e : br) {
        if (e.from == 0 && e.to == 0) {
            if (m_info.mode == Mode::CallStack) break; // the end of the valid stack (SDM 21.1.2.4)
            continue;
        }
        anyEntry = true;
        if (userEntry(e)) {
            anyUser = true;
            break;
        }
    }
    if (!anyUser) {
        ++m_empty; // taken in the kernel, or the stack was empty
        m_kernelOnly += anyEntry ? 1u : 0u;
    }
    if (m_info.mode == Mode::AnyBranch) {
        ++m_selfIps[AddrPair { s.pid, s.ip, 0 }];
        m_edges.reserveMore(br.size());
        auto edges = m_edges.inserter();
        std::uint64_t branches = 0;
        for (const auto& e : br) {
            if (e.from == 0 && e.to == 0) continue;
            ++branches;
            auto& tally = edges[AddrPair { s.pid, e.from, e.to }];
            auto& st = tally.stats;
            ++st.count;
            st.mispredicts += e.mispred() ? 1u : 0u;
            const std::uint16_t c = e.cycles();
            st.cycles += c;
            st.cycleSamples += c ? 1u : 0u;
            if (e.type()) {
                st.type = e.type();
                st.newType = e.newType();
                tally.typeAt = order;
            }
        }
        m_branches += branches;
        return;
    }
    // Call-stack mode: entries[0].to, then entries[i].from (SampleStack.h, the one rule the call trees use too).
    auto& frames = m_frameScratch;
    lbrCallStackFrames(s.ip, br, frames);
    m_branches += frames.size() - 1;
    std::uint64_t h = 0xcbf29ce484222325ull ^ s.pid;
    for (auto f : frames)
        h = (h ^ f) * 0x100000001b3ull;
    auto& bucket = m_stacks[h];
    for (auto& entry : bucket)
        if (entry.pid == s.pid && entry.frames == frames) {
            ++entry.count;
            return;
        }
    bucket.push_back(StackEntry { s.pid, 1, frames });
}

void BranchGraph::merge(const BranchGraph& other)
{
    m_samples += other.m_samples;
    m_branches += other.m_branches;
    m_empty += other.m_empty;
    m_kernelOnly += other.m_kernelOnly;
    other.m_selfIps.forEach([&](const AddrPair& key, std::uint64_t count) { m_selfIps[key] += count; });
    other.m_edges.forEach([&](const AddrPair& key, const EdgeTally& from) {
        auto& to = m_edges[key];
        const bool laterType = from.stats.type && (!to.stats.type || from.typeAt > to.typeAt);
        const auto type = to.stats.type, newType = to.stats.newType;
        to.stats.add(from.stats);
        if (!laterType) {
            to.stats.type = type;
            to.stats.newType = newType;
        } else {
            to.typeAt = from.typeAt;
        }
    });
    for (const auto& [hash, bucket] : other.m_stacks) {
        auto& mine = m_stacks[hash];
        for (const auto& entry : bucket) {
            auto same = std::find_if(mine.begin(), mine.end(),
                [&](const StackEntry& e) { return e.pid == entry.pid && e.frames == entry.frames; });
            if (same != mine.end())
                same->count += entry.count;
            else
                mine.push_back(entry);
        }
    }
}

EdgeKind BranchGraph::kindOf(
    const AddrPair& key, const BranchEdgeStats& st, Symbolizer& symbols, EdgeKindFrom& from) const
{
    if (m_info.typesRecorded && st.type != perf::BrUnknown) {
        const EdgeKind k = edgeKindOfBranchType(st.type, st.newType);
        if (k != EdgeKind::Unknown) {
            from = EdgeKindFrom::BranchType;
            return k;
        }
    }
    std::uint8_t code[16];
    std::uint16_t machine = 0;
    const std::size_t n = symbols.codeAt(key.pid, key.from, code, machine);
    if (n > 0) {
        const EdgeKind k = edgeKindOfInstruction({ code, n }, machine);
        if (k != EdgeKind::Unknown) {
            from = EdgeKindFrom::Disassembly;
            return k;
        }
    }
    from = EdgeKindFrom::None;
    return EdgeKind::Unknown;
}

BranchGraphReport BranchGraph::report(Symbolizer& symbols) const
{
    BranchGraphReport r;
    r.samples = m_samples;
    r.branches = m_branches;
    r.emptyStacks = m_empty;
    r.kernelOnlyStacks = m_kernelOnly;
    std::map<std::string, FunctionNode> nodes;
    std::map<std::tuple<std::string, std::string, EdgeKind>, FunctionEdge> edges;
    auto node = [&](std::uint32_t pid, std::uint64_t addr) -> FunctionNode& {
        const SymbolInfo& si = symbols.resolve(pid, addr);
        auto& n = nodes[si.function];
        if (n.name.empty()) {
            n.name = si.function;
            n.module = si.module;
        }
        return n;
    };
    auto edge
        = [&](const std::string& from, const std::string& to, EdgeKind kind, EdgeKindFrom kindFrom) -> FunctionEdge& {
        auto& e = edges[{ from, to, kind }];
        if (e.from.empty()) {
            e.from = from;
            e.to = to;
            e.kind = kind;
            e.kindFrom = kindFrom;
        } else if (e.kindFrom != kindFrom && kindFrom == EdgeKindFrom::BranchType) {
            e.kindFrom = kindFrom; // the record's own word outranks the disassembly of the same pair
        }
        return e;
    };
    if (m_info.mode == Mode::AnyBranch) {
        m_selfIps.forEach([&](const AddrPair& key, std::uint64_t count) {
            auto& n = node(key.pid, key.from);
            n.self += count;
            n.inclusive += count;
        });
        // A function edge's branch type is that of its address pairs' last typed entry in file order, whatever
        // the order of the table (which depends on how it was filled: one pass or merged shards).
        std::map<const FunctionEdge*, std::uint64_t> typeAt;
        m_edges.forEach([&](const AddrPair& key, const EdgeTally& tally) {
            const auto& st = tally.stats;
            const std::string from = node(key.pid, key.from).name;
            const std::string to = node(key.pid, key.to).name;
            EdgeKindFrom kindFrom = EdgeKindFrom::None;
            const EdgeKind kind = kindOf(key, st, symbols, kindFrom);
            auto& e = edge(from, to, kind, kindFrom);
            const auto type = e.stats.type, newType = e.stats.newType;
            e.stats.add(st);
            if (st.type) {
                auto [at, first] = typeAt.try_emplace(&e, tally.typeAt);
                if (!first && tally.typeAt < at->second) {
                    e.stats.type = type;
                    e.stats.newType = newType;
                } else {
                    at->second = tally.typeAt;
                }
            }
        });
    } else {
        std::vector<std::string> names;
        for (const auto& [hash, bucket] : m_stacks) {
            for (const auto& st : bucket) {
                names.clear();
                for (auto f : st.frames)
                    names.push_back(node(st.pid, f).name);
                nodes[names[0]].self += st.count;
                std::set<std::string> seen(names.begin(), names.end()); // recursion counts once
                for (const auto& n : seen)
                    nodes[n].inclusive += st.count;
                for (std::size_t i = 0; i + 1 < names.size(); ++i) {
                    auto& e = edge(names[i + 1], names[i], EdgeKind::Call, EdgeKindFrom::CallStack);
                    e.stats.count += st.count;
                }
            }
        }
    }
    for (auto& [name, n] : nodes)
        if (n.self || n.inclusive) r.functions.push_back(std::move(n));
    std::sort(r.functions.begin(), r.functions.end(), [](const auto& a, const auto& b) {
        return a.inclusive != b.inclusive ? a.inclusive > b.inclusive
                                          : (a.self != b.self ? a.self > b.self : a.name < b.name);
    });
    for (auto& [k, e] : edges)
        r.edges.push_back(std::move(e));
    std::sort(r.edges.begin(), r.edges.end(), [](const auto& a, const auto& b) {
        return a.stats.count != b.stats.count ? a.stats.count > b.stats.count
                                              : std::tie(a.from, a.to, a.kind) < std::tie(b.from, b.to, b.kind);
    });
    return r;
}

} // namespace rdt::pmu
