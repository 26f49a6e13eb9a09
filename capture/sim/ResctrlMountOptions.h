// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

namespace rdt::sim {

/// Mount options of the emulated resctrl (`mount -t resctrl -o cdp,cdpl2`).
struct ResctrlMountOptions {
    bool cdp = false; ///< L3 code/data prioritization: L3CODE/L3DATA schemata, half the CLOSIDs
    bool cdpl2 = false; ///< the same for L2
    /// Not a mount option but a kernel quirk: min_cbm_bits is 1 on current parts and 2 on Haswell servers
    /// (cache_alloc_hsw_probe); lessons set it to show "Need at least %d bits in the mask".
    unsigned minCbmBits = 1;
    /// Whether a PID that is no simulated thread names a task of the host, or empty (the default) when only the
    /// simulated threads are tasks. Set when the emulation is served to host processes (capture/simfs): a host
    /// tool writes its own PIDs to a group's tasks, and resctrl accepts any existing task
    /// (Documentation/filesystems/resctrl.rst "tasks"). Such tasks are recorded with their CLOSID and RMID, listed
    /// back while they exist, and run nothing on the simulated machine. A simulated thread id wins over a host PID.
    std::function<bool(unsigned pid)> hostTaskExists;
    /// Every task of the host (thread ids), or empty. Set with hostTaskExists: the default group's tasks file then
    /// lists the host's tasks that no group took, since every task starts in the default group (resctrl.rst
    /// "Resource alloc and monitor groups"), and tools look their own tasks up there.
    std::function<std::vector<unsigned>()> listHostTasks;
};

} // namespace rdt::sim
