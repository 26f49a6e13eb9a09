// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimCache.h"

#include <algorithm>

namespace rdt::pmu {

CacheArray::CacheArray(CacheGeometry g)
    : m_geo(g)
    , m_sets(std::max<std::uint32_t>(1, g.sizeBytes / 64 / g.ways))
    , m_tags(static_cast<std::size_t>(m_sets) * g.ways, 0)
    , m_age(m_tags.size(), 0)
{ }

bool CacheArray::touch(std::uint64_t line)
{
    const std::size_t base = static_cast<std::size_t>(line % m_sets) * m_geo.ways;
    ++m_clock;
    std::size_t victim = base;
    for (std::size_t i = base; i < base + m_geo.ways; ++i) {
        if (m_tags[i] == line + 1) {
            m_age[i] = m_clock;
            return true;
        }
        if (m_tags[i] == 0 || (m_tags[victim] != 0 && m_age[i] < m_age[victim])) victim = i;
    }
    m_tags[victim] = line + 1;
    m_age[victim] = m_clock;
    return false;
}

bool CacheArray::contains(std::uint64_t line) const
{
    const std::size_t base = static_cast<std::size_t>(line % m_sets) * m_geo.ways;
    for (std::size_t i = base; i < base + m_geo.ways; ++i)
        if (m_tags[i] == line + 1) return true;
    return false;
}

void CacheArray::invalidate(std::uint64_t line)
{
    const std::size_t base = static_cast<std::size_t>(line % m_sets) * m_geo.ways;
    for (std::size_t i = base; i < base + m_geo.ways; ++i)
        if (m_tags[i] == line + 1) m_tags[i] = 0;
}

SmallCacheHierarchy::SmallCacheHierarchy(unsigned cores, CacheGeometry l1, CacheGeometry l2, CacheGeometry l3,
    std::uint32_t dramLatency, std::uint32_t remoteLatency, std::uint64_t remoteBase)
    : m_l3(l3)
    , m_dram(dramLatency)
    , m_remote(remoteLatency)
    , m_remoteBase(remoteBase)
{
    for (unsigned c = 0; c < std::max(1u, cores); ++c) {
        m_l1.emplace_back(l1);
        m_l2.emplace_back(l2);
    }
}

SimAccess SmallCacheHierarchy::access(std::uint64_t addr, bool write, unsigned core)
{
    core %= static_cast<unsigned>(m_l1.size());
    const std::uint64_t line = addr >> 6;
    SimAccess a;
    if (write) {
        // Write-invalidate: other cores lose their copies and this core owns the modified line.
        for (unsigned c = 0; c < m_l1.size(); ++c)
            if (c != core) {
                m_l1[c].invalidate(line);
                m_l2[c].invalidate(line);
            }
        m_dirtyOwner[line] = core;
    }
    if (m_l1[core].touch(line)) {
        a.level = MemLevel::L1;
        a.latency = m_l1[core].latency();
        return a;
    }
    if (m_l2[core].touch(line)) {
        a.level = MemLevel::L2;
        a.latency = m_l2[core].latency();
        return a;
    }
    if (m_l3.touch(line)) {
        a.level = MemLevel::L3;
        a.latency = m_l3.latency();
        if (auto it = m_dirtyOwner.find(line); !write && it != m_dirtyOwner.end() && it->second != core) {
            a.hitm = true; // snooped out of the other core's L1/L2 in modified state
            a.latency += 30;
            m_dirtyOwner.erase(it);
        }
        return a;
    }
    a.remote = addr >= m_remoteBase;
    a.level = a.remote ? MemLevel::RemoteDram : MemLevel::LocalDram;
    a.latency = a.remote ? m_remote : m_dram;
    return a;
}

} // namespace rdt::pmu
