// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ResctrlGroups.h"
#include "ResctrlTree.h"

#include <string>
#include <vector>

namespace rdt {

/// Which tasks and CPUs a resctrl group holds (its tasks and cpus_list files, KDOC "tasks" / "cpus"): reading them,
/// and moving tasks and CPUs in with every write read back, and a CPU move undone across all groups when it fails.
/// Callers hold ResctrlBackend's mutex.
class ResctrlMembership {
public:
    ResctrlMembership(ResctrlTree& tree, ResctrlGroups& groups);

    Status assignTasks(const std::string& path, const std::vector<unsigned>& pids);
    Status assignCpus(const std::string& path, const std::vector<unsigned>& cpus);
    Result<std::vector<unsigned>> tasks(const std::string& path);
    Result<std::vector<unsigned>> cpus(const std::string& path);

private:
    ResctrlTree& m_tree;
    ResctrlGroups& m_groups;
};

} // namespace rdt
