// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "MsrUndoLog.h"
#include "RdtBackend.h"

#include <set>
#include <string>
#include <vector>

namespace rdt {

/// One group of the MSR backend: a CLOS/RMID pair and the CPUs associated with it (names are ours; the hardware
/// has none).
struct MsrGroup {
    std::string path;
    bool isControl = true;
    std::string parent;
    unsigned clos = 0;
    unsigned rmid = 0;
    std::set<unsigned> cpus;
};

/// The MSR backend's groups as it keeps them in memory, with the RMIDs free and in limbo and the CDP state: the
/// in-memory half of every change, saved before it and put back with the MSR half when the change fails.
class MsrGroupTable {
public:
    /// What a change may touch, as it was before the change.
    struct Snapshot {
        std::vector<MsrGroup> groups;
        std::set<unsigned> freeRmids, limbo;
        bool cdpL3 = false, cdpL2 = false;
    };

    Snapshot save() const { return { groups, freeRmids, limbo, cdpL3, cdpL2 }; }
    /// A step of a change failed: puts the table back, rolls the MSRs back (the failed one included) and says so.
    Error rollBack(Error e, MsrUndoLog& log, Snapshot saved);
    MsrGroup* find(const std::string& path);
    std::vector<GroupInfo> list() const;
    /// A freed RMID goes to limbo: lines tagged with it are still cached.
    void releaseRmid(unsigned rmid);
    /// The value IA32_PQR_ASSOC of `cpu` should hold: CLOS in [63:32], RMID in the low bits (SDM Figure 20-23).
    std::uint64_t assocValue(unsigned cpu) const;

    std::vector<MsrGroup> groups; ///< [0] is the default group (CLOS0, RMID0)
    std::set<unsigned> freeRmids;
    std::set<unsigned> limbo;
    bool cdpL3 = false;
    bool cdpL2 = false;
    std::set<unsigned> reservedClos; ///< CLOS no group owns that hold masks someone set: never handed out
};

} // namespace rdt
