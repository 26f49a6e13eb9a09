// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrRdtEnumeration.h"
#include <vector>

namespace rdt {

/// Where the MSR backend's domains are: the L3 / L2 cache ids of the CPUs (MsrRdtEnumeration), which CPUs are online,
/// and which CPU to program a domain's scoped MSRs on (masks and QOS_CFG have the cache's scope, SDM 20.19.4.2).
class MsrTopology {
public:
    explicit MsrTopology(const MsrRdtEnumeration& enumeration);

    bool online(unsigned cpu) const; ///< l3IdOfCpu is -1 for offline CPUs
    /// The distinct ids of `idOfCpu`, ascending; { 0 } when none is known.
    std::vector<int> domainsOf(const std::vector<int>& idOfCpu) const;
    std::vector<int> l3Domains() const;
    /// The first CPU of an L3 (or L2) domain; CPU 0 when none has that id.
    unsigned cpuOfDomain(int domain, bool l2) const;

private:
    const MsrRdtEnumeration& m_enum;
};

} // namespace rdt
