// SPDX-License-Identifier: GPL-3.0-or-later
#include "MsrTopology.h"

#include <algorithm>

namespace rdt {

MsrTopology::MsrTopology(const MsrRdtEnumeration& enumeration)
    : m_enum(enumeration)
{ }

bool MsrTopology::online(unsigned cpu) const
{
    return cpu >= m_enum.l3IdOfCpu.size() || m_enum.l3IdOfCpu[cpu] >= 0;
}

std::vector<int> MsrTopology::domainsOf(const std::vector<int>& idOfCpu) const
{
    std::vector<int> ids;
    for (int id : idOfCpu)
        if (id >= 0) ids.push_back(id); // -1: an offline CPU
    if (ids.empty()) ids.push_back(0);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::vector<int> MsrTopology::l3Domains() const
{
    return domainsOf(m_enum.l3IdOfCpu);
}

unsigned MsrTopology::cpuOfDomain(int domain, bool l2) const
{
    const auto& ids = l2 ? m_enum.l2IdOfCpu : m_enum.l3IdOfCpu;
    for (std::size_t c = 0; c < ids.size(); ++c)
        if (ids[c] == domain) return static_cast<unsigned>(c);
    return 0;
}

} // namespace rdt
