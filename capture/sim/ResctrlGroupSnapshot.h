// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Fs.h"

#include <string>
#include <vector>

namespace rdt::sim {

/// The groups of a resctrl tree with their tasks and CPUs, read through the resctrl files and made again on another
/// mount, as a provisioning script would around a remount (allocations are not kept: the unmount resets them).
class ResctrlGroupSnapshot {
public:
    /// Every group below the root, control groups before their monitor groups (the order mkdir needs).
    static ResctrlGroupSnapshot take(Fs& fs);
    /// Makes the groups again with their tasks and CPUs; one text per group that failed (fewer CLOSIDs with CDP).
    std::vector<std::string> restore(Fs& fs) const;

private:
    /// A group as the snapshot found it.
    struct SavedGroup {
        std::string path; ///< "web" or "web/mon_groups/m1"
        std::vector<std::string> tasks;
        std::string cpusList;
    };
    void save(Fs& fs, const std::string& path);

    std::vector<SavedGroup> m_groups;
};

} // namespace rdt::sim
