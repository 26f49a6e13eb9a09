// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrGroupTable.h"
#include "MsrRdtEnumeration.h"
#include "MsrTopology.h"
#include "RdtBackend.h"
#include "platform/MsrSpace.h"

#include <cstdint>
#include <string>

namespace rdt {

/// The MSR backend's monitoring: the IA32_QM_EVTSEL/IA32_QM_CTR protocol (SDM 20.18.7) with its Error,
/// Unavailable and overflow bits, and a group's counters summed over its RMIDs (a control group's include its
/// monitor groups', as resctrl does). Callers hold MsrBackend's mutex: the EVTSEL/CTR pair is a critical section.
class MsrMonitor {
public:
    MsrMonitor(MsrSpace& msrs, const MsrRdtEnumeration& enumeration, const MsrTopology& topology, MsrGroupTable& table);

    /// Raw QM_EVTSEL/QM_CTR read on a CPU of `domain`; flags from bits 63/62, overflow bit 61.
    Result<std::uint64_t> read(int domain, unsigned rmid, std::uint32_t eventId, std::uint32_t* flags, bool* overflow);
    Result<GroupCounters> readGroup(const std::string& path);
    /// The RMID's occupancy is at or below `threshold` in every L3 domain (or occupancy is not enumerated).
    bool drained(unsigned rmid, std::uint64_t threshold);

private:
    MsrSpace& m_msrs;
    const MsrRdtEnumeration& m_enum;
    const MsrTopology& m_topology;
    MsrGroupTable& m_table;
};

} // namespace rdt
