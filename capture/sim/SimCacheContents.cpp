// SPDX-License-Identifier: GPL-3.0-or-later
#include "SimCacheContents.h"

#include "SimMachineImpl.h"

#include <algorithm>

namespace rdt::sim {

SimCacheContents::SimCacheContents(SimMachine::Impl& impl)
    : m_impl(impl)
    , m_features(*impl.f)
{ }

std::vector<std::vector<std::uint64_t>> SimCacheContents::occupancyByClosAndWay(unsigned domain) const
{
    auto& d = m_impl.domains.at(domain);
    std::vector<std::vector<std::uint64_t>> out(m_features.closMax + 1, std::vector<std::uint64_t>(d.l3.ways(), 0));
    const std::uint64_t per = std::uint64_t { m_impl.S } * m_features.l3.lineSize;
    for (std::size_t i = 0; i < d.l3.lineCount(); ++i)
        if (d.l3.key(i) != CacheSlice::kInvalid) {
            auto clos = d.l3.meta(i).clos;
            if (clos < out.size()) out[clos][d.l3.wayOf(i)] += per;
        }
    return out;
}

std::vector<std::uint64_t> SimCacheContents::occupancyByWay(unsigned domain, bool code) const
{
    auto& d = m_impl.domains.at(domain);
    std::vector<std::uint64_t> out(d.l3.ways(), 0);
    for (std::size_t i = 0; i < d.l3.lineCount(); ++i)
        if (d.l3.key(i) != CacheSlice::kInvalid && bool(d.l3.meta(i).flags & CacheSlice::Code) == code)
            out[d.l3.wayOf(i)] += std::uint64_t { m_impl.S } * m_features.l3.lineSize;
    return out;
}

std::uint32_t SimCacheContents::waysOfL3Cbm(std::uint32_t cbm) const
{
    return waysOfCbm(cbm, m_features.l3Cat.cbmLen, m_impl.domains.at(0).l3.ways());
}

std::uint32_t SimCacheContents::waysOfL2Cbm(std::uint32_t cbm) const
{
    return waysOfCbm(cbm, m_features.l2Cat.cbmLen, m_impl.cores.at(0).l2.ways());
}

std::uint32_t SimCacheContents::l3Ways() const
{
    return m_impl.domains.at(0).l3.ways();
}

void SimCacheContents::flushCaches()
{
    m_impl.timeScale.noteChange(); // full rate until the cache is steady again (TimeScale.h)
    const SimFeatures& F = m_features;
    std::uint32_t s = m_impl.S;
    for (auto& k : m_impl.cores) {
        k.l1d.configure(F.l1d.sets * F.l1d.partitions, F.l1d.ways, s);
        const CacheGeometry& l1i = F.l1i.present() ? F.l1i : F.l1d;
        k.l1i.configure(l1i.sets * l1i.partitions, l1i.ways, s);
        k.l2.configure(F.l2.sets * F.l2.partitions, F.l2.ways, s);
        m_impl.recomputeL2Ways(k);
    }
    for (auto& d : m_impl.domains) {
        d.l3.configure(F.l3.sets * F.l3.partitions, F.l3.ways, s);
        for (auto& r : d.rmids)
            r.occupancyLines = 0;
        m_impl.recomputeL3Ways(d);
    }
}

} // namespace rdt::sim
