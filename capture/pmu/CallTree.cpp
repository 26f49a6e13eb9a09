// SPDX-License-Identifier: GPL-3.0-or-later
#include "CallTree.h"

#include "Symbolizer.h"

#include <algorithm>
#include <tuple>

namespace rdt::pmu {

bool CallTreeReport::cpuKnown() const
{
    return std::any_of(cpus.begin(), cpus.end(), [](const CpuSamples& c) { return c.cpu != kUnknownCpu; });
}

std::int32_t CallTreeReport::findTopDown(std::span<const std::string> path) const
{
    if (topDown.empty()) return -1;
    std::int32_t at = 0;
    for (const auto& name : path) {
        const auto& kids = topDown[static_cast<std::size_t>(at)].children;
        const auto it = std::find_if(kids.begin(), kids.end(),
            [&](std::int32_t k) { return topDown[static_cast<std::size_t>(k)].function == name; });
        if (it == kids.end()) return -1;
        at = *it;
    }
    return at;
}

void CallTree::listOnly(std::uint32_t pid, std::uint32_t tid, std::uint32_t cpu)
{
    auto& thread = m_threads[tid];
    thread.pid = pid;
    thread.tid = tid;
    ++thread.samples;
    ++m_cpus[cpu];
}

void CallTree::add(std::uint32_t pid, std::uint32_t tid, std::uint32_t cpu, std::span<const std::uint64_t> leafFirst,
    std::uint64_t weight)
{
    if (leafFirst.empty() || weight == 0) return;
    m_all += weight;
    auto& thread = m_threads[tid];
    thread.pid = pid;
    thread.tid = tid;
    thread.samples += weight;
    m_cpus[cpu] += weight;
    if (!m_filter.accepts(tid, cpu)) return;
    m_kept += weight;
    std::uint64_t h = 0xcbf29ce484222325ull ^ pid; // FNV-1a over the frames
    for (auto f : leafFirst)
        h = (h ^ f) * 0x100000001b3ull;
    auto& bucket = m_stacks[h];
    for (auto& st : bucket)
        if (st.pid == pid && std::equal(st.frames.begin(), st.frames.end(), leafFirst.begin(), leafFirst.end())) {
            st.count += weight;
            return;
        }
    bucket.push_back(Stack { pid, weight, { leafFirst.begin(), leafFirst.end() } });
}

namespace {

/// Builds a tree of names from paths, one child per distinct name under each node.
class TreeBuilder {
public:
    TreeBuilder() { m_nodes.emplace_back(); }

    std::int32_t child(std::int32_t parent, const SymbolInfo& si)
    {
        auto [it, fresh] = m_index.try_emplace({ parent, si.function }, static_cast<std::int32_t>(m_nodes.size()));
        if (fresh) {
            CallTreeNode n;
            n.function = si.function;
            n.module = si.module;
            n.parent = parent;
            m_nodes.push_back(std::move(n));
            m_nodes[static_cast<std::size_t>(parent)].children.push_back(it->second);
        }
        return it->second;
    }
    CallTreeNode& node(std::int32_t i) { return m_nodes[static_cast<std::size_t>(i)]; }

    std::vector<CallTreeNode> finish()
    {
        for (auto& n : m_nodes)
            std::sort(n.children.begin(), n.children.end(), [this](std::int32_t a, std::int32_t b) {
                const auto& x = m_nodes[static_cast<std::size_t>(a)];
                const auto& y = m_nodes[static_cast<std::size_t>(b)];
                return std::tie(y.inclusive, x.function) < std::tie(x.inclusive, y.function);
            });
        return std::move(m_nodes);
    }

private:
    std::vector<CallTreeNode> m_nodes;
    std::map<std::pair<std::int32_t, std::string>, std::int32_t> m_index;
};

} // namespace

CallTreeReport CallTree::report(Symbolizer& symbols) const
{
    CallTreeReport r;
    r.samples = m_kept;
    r.allSamples = m_all;
    for (const auto& [tid, t] : m_threads)
        r.threads.push_back(t);
    for (const auto& [cpu, n] : m_cpus) // a std::map: kUnknownCpu, the largest value, comes last
        r.cpus.push_back({ cpu, n });
    TreeBuilder topDown, bottomUp;
    std::vector<const SymbolInfo*> names;
    for (const auto& [hash, bucket] : m_stacks) {
        for (const auto& st : bucket) {
            names.clear();
            for (auto f : st.frames) // the symbol cache is node-based: references stay valid as it grows
                names.push_back(&symbols.resolve(st.pid, f));
            r.maxDepth = std::max(r.maxDepth, names.size());
            std::int32_t at = 0;
            topDown.node(0).inclusive += st.count;
            for (auto it = names.rbegin(); it != names.rend(); ++it) { // outermost caller first
                at = topDown.child(at, **it);
                topDown.node(at).inclusive += st.count;
            }
            topDown.node(at).self += st.count;
            at = 0;
            bottomUp.node(0).inclusive += st.count;
            for (std::size_t i = 0; i < names.size(); ++i) { // the running function first
                at = bottomUp.child(at, *names[i]);
                bottomUp.node(at).inclusive += st.count;
                if (i == 0) bottomUp.node(at).self += st.count;
            }
        }
    }
    r.topDown = topDown.finish();
    r.bottomUp = bottomUp.finish();
    return r;
}

} // namespace rdt::pmu
