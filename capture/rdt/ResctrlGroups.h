// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "RdtBackend.h"
#include "ResctrlTree.h"

#include <functional>
#include <string>
#include <vector>

namespace rdt {

/// The life of resctrl groups: listing the control and monitor groups of a tree, mkdir and rmdir with the advice
/// each kernel failure calls for (KDOC "Resource groups", docs/RESCTRL.md "Creating and removing groups").
/// Callers hold ResctrlBackend's mutex.
class ResctrlGroups {
public:
    explicit ResctrlGroups(ResctrlTree& tree);

    Result<std::vector<GroupInfo>> list();
    Status createControl(const std::string& name);
    Status createMonitor(const std::string& parent, const std::string& name);
    /// `beforeRmdir` runs once the group is known and the root flock is held, just before the rmdir.
    Status remove(const std::string& path, const std::function<void()>& beforeRmdir);

private:
    Status mkdirGroup(const std::string& path);

    ResctrlTree& m_tree;
};

} // namespace rdt
