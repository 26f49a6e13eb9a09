// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <map>
#include <string>
#include <vector>

namespace rdt {

/// A cache instance as sysfs describes it (cpuN/cache/indexM): its id is the resctrl domain id
/// ("L3:<id>=...", mon_data/mon_L3_<id>).
struct CacheDomain {
    unsigned level = 0; ///< cache/indexM/level
    std::string type; ///< "Unified", "Data", "Instruction"
    unsigned id = 0; ///< cache/indexM/id
    std::vector<unsigned> cpus; ///< shared_cpu_list, expanded
    std::string size; ///< "25344K" as sysfs writes it, empty when absent
};

struct CpuTopology {
    unsigned cpu = 0;
    int package = -1; ///< topology/physical_package_id
    int die = -1; ///< topology/die_id
    int core = -1; ///< topology/core_id
    int node = -1; ///< NUMA node that lists this CPU
};

/// Topology read from sysfs under a configurable root ("/sys" normally; a temp tree in tests).
struct Topology {
    std::string root;
    std::vector<CpuTopology> cpus; ///< online CPUs (devices/system/cpu/online), by number
    std::map<unsigned, std::vector<unsigned>> nodes; ///< NUMA node -> CPUs (devices/system/node/nodeN/cpulist)
    std::vector<CacheDomain> l2; ///< unique L2 instances (unified or data), sorted by id
    std::vector<CacheDomain> l3; ///< unique L3 instances, sorted by id
    std::vector<std::string> warnings; ///< files that were missing or unreadable

    unsigned packageCount() const;
    unsigned coreCount() const; ///< distinct (package, die, core)
};

/// Reads devices/system/cpu and devices/system/node under sysRoot. Fails only when no CPU can be found at all
/// (ENOENT with the path); missing optional files become warnings.
Result<Topology> readTopology(const std::string& sysRoot = "/sys");

} // namespace rdt
