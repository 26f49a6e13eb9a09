// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What `pqos -s` prints, from the engine's snapshot: each CPU's class of service (CLOS, the control group whose
// `cpus` lists it) and RMID (the monitor group under that control group whose `cpus` lists it, else the control
// group's own), and each class's allocation per resource (L3/L2 masks, MB values) as its schemata holds them.
// resctrl's rules (Documentation/arch/x86/resctrl.rst, "Resource groups" and "cpus"): every CPU is in exactly one
// control group's `cpus`, the default group holding those no other group claims; a monitor group's CPUs are a subset
// of its parent's; a CPU's class applies to the tasks of the default group while they run on it, a task in another
// group uses its own group's class. resctrl shows CLOSIDs and RMIDs only when mounted with `-o debug` (each group's
// `closid` and `rmid` files), which rdtscope does not read yet: there they are unknown (the default group's CLOSID is
// 0), never guessed. The MSR backend knows them.

#include "EngineTypes.h"

#include <string>
#include <vector>

namespace rdt::engine {

struct CoreAssignment {
    unsigned cpu = 0;
    std::string controlGroup; ///< its path ("" the default group)
    int closid = -1; ///< -1: unknown
    std::string monitorGroup; ///< the monitor group's path, or the control group's when no monitor group lists it
    int rmid = -1; ///< -1: unknown
    bool known = true; ///< false: no group's CPU list names this CPU (a list could not be read)
};

struct ClassAllocation {
    std::string group; ///< the control group's path ("" the default group)
    int closid = -1; ///< -1: unknown
    std::string mode; ///< "shareable", "exclusive", ...
    std::vector<unsigned> cpus;
    bool cpusKnown = false;
    std::vector<std::string> values; ///< per CoreAssignments::resources: "0=7ff;1=7ff", "" when absent
    std::string error; ///< why the schemata could not be read
};

struct CoreAssignments {
    std::vector<CoreAssignment> cores; ///< by CPU
    std::vector<ClassAllocation> classes; ///< the default group first, then by path
    std::vector<std::string> resources; ///< the allocation resources, in the machine's order (L3, L3CODE, L2, MB...)
    bool closidsKnown = false; ///< every class's CLOSID is known
    bool rmidsKnown = false; ///< every group's RMID is known
};

/// Builds the table from a snapshot and the machine's capabilities (its CPUs and resources).
CoreAssignments coreAssignments(const GroupsSnapshot& snapshot, const Capabilities& capabilities);

/// One domain-ordered schemata value list: "0=7ff;1=7ff".
std::string formatDomainValues(const std::map<int, std::string>& values);

} // namespace rdt::engine
