// SPDX-License-Identifier: GPL-3.0-or-later
#include "BranchGraph.h"

#include "Symbolizer.h"

#include <algorithm>
#include <map>
#include <set>

namespace rdt::pmu {

void BranchGraph::clear()
{
    m_samples = m_branches = m_empty = 0;
    m_edges.clear();
    m_stacks.clear();
    m_selfIps.clear();
}

void BranchGraph::add(const Sample& s)
{
    ++m_samples;
    const auto& br = s.branches;
    if (m_mode == Mode::AnyBranch) {
        ++m_selfIps[AddrPair { s.pid, s.ip, 0 }];
        if (br.empty())
            ++m_empty;
        for (const auto& e : br) {
            if (e.from == 0 && e.to == 0)
                continue;
            ++m_branches;
            auto& st = m_edges[AddrPair { s.pid, e.from, e.to }];
            ++st.count;
            st.mispredicts += e.mispred() ? 1u : 0u;
            const std::uint16_t c = e.cycles();
            st.cycles += c;
            st.cycleSamples += c ? 1u : 0u;
            st.type = e.type();
        }
        return;
    }
    // Call-stack mode: entries[0].to, then entries[i].from; an all-zero entry ends the valid stack (SDM 21.1.2.4).
    auto& frames = m_frameScratch;
    frames.clear();
    if (!br.empty() && !(br[0].from == 0 && br[0].to == 0)) {
        frames.push_back(br[0].to);
        for (const auto& e : br) {
            if (e.from == 0 && e.to == 0)
                break;
            frames.push_back(e.from);
        }
        m_branches += frames.size() - 1;
    } else {
        ++m_empty; // taken in the kernel, or the stack was empty: only the IP is known
        frames.push_back(s.ip);
    }
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

BranchGraphReport BranchGraph::report(Symbolizer& symbols) const
{
    BranchGraphReport r;
    r.samples = m_samples;
    r.branches = m_branches;
    r.emptyStacks = m_empty;
    std::map<std::string, FunctionNode> nodes;
    std::map<std::pair<std::string, std::string>, FunctionEdge> edges;
    auto node = [&](std::uint32_t pid, std::uint64_t addr) -> FunctionNode& {
        const SymbolInfo& si = symbols.resolve(pid, addr);
        auto& n = nodes[si.function];
        if (n.name.empty()) {
            n.name = si.function;
            n.module = si.module;
        }
        return n;
    };
    auto edge = [&](const std::string& from, const std::string& to, bool call, bool ret = false) -> FunctionEdge& {
        auto& e = edges[{ from, to }];
        if (e.from.empty()) {
            e.from = from;
            e.to = to;
            e.call = call;
            e.ret = ret;
        }
        return e;
    };
    if (m_mode == Mode::AnyBranch) {
        for (const auto& [key, count] : m_selfIps) {
            auto& n = node(key.pid, key.from);
            n.self += count;
            n.inclusive += count;
        }
        for (const auto& [key, st] : m_edges) {
            const std::string from = node(key.pid, key.from).name;
            const std::string to = node(key.pid, key.to).name;
            const bool ret = st.type == perf::BrRet || st.type == perf::BrCondRet;
            const bool leaves = from != to && st.type != perf::BrCond; // a cold jump may cross a symbol boundary
            edge(from, to, leaves && !ret, leaves && ret).stats.add(st);
        }
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
                    auto& e = edge(names[i + 1], names[i], true);
                    e.stats.count += st.count;
                }
            }
        }
    }
    for (auto& [name, n] : nodes)
        if (n.self || n.inclusive)
            r.functions.push_back(std::move(n));
    std::sort(r.functions.begin(), r.functions.end(), [](const auto& a, const auto& b) {
        return a.inclusive != b.inclusive ? a.inclusive > b.inclusive
                                          : (a.self != b.self ? a.self > b.self : a.name < b.name);
    });
    for (auto& [k, e] : edges)
        r.edges.push_back(std::move(e));
    std::sort(r.edges.begin(), r.edges.end(), [](const auto& a, const auto& b) {
        return a.stats.count != b.stats.count ? a.stats.count > b.stats.count
                                              : std::tie(a.from, a.to) < std::tie(b.from, b.to);
    });
    return r;
}

} // namespace rdt::pmu
