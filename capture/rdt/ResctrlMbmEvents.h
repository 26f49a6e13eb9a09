// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "ResctrlCapabilityReader.h"
#include "ResctrlTree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rdt {

/// What the MBM counters of a resctrl tree count: which hardware counter backs a group's event in mbm_event mode
/// (ABMC, mbm_L3_assignments) and which transactions an event counts (BMEC, mbm_*_bytes_config). Both change what
/// info/ reports, so each write makes the kept capabilities stale. Callers hold ResctrlBackend's mutex.
class ResctrlMbmEvents {
public:
    ResctrlMbmEvents(ResctrlTree& tree, ResctrlCapabilityReader& capabilities);

    Result<std::vector<CounterAssignment>> counterAssignments(const std::string& path);
    Status assignCounter(const std::string& path, const std::string& event, int domain, bool assign);
    Status configureMbmEvent(const std::string& event, int domain, std::uint64_t transactions);

private:
    ResctrlTree& m_tree;
    ResctrlCapabilityReader& m_capabilities;
};

} // namespace rdt
