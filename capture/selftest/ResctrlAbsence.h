// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rdt::selftest {

/// Why there is no resctrl tree to test on this machine, and what would fix it: the facts a user needs before
/// asking for RDT support, read from /proc (filesystems, mounts, cpuinfo's flags). Used when `selftest` has nothing
/// to test (exit 3): resctrl mounted elsewhere, or the kernel or CPU without it.
struct ResctrlAbsence {
    std::string why; ///< e.g. "/sys/fs/resctrl is not mounted, the kernel has no resctrl ..., the CPU flags ..."
    std::string fix; ///< e.g. "mount -t resctrl resctrl /sys/fs/resctrl"

    /// Reads `procRoot` (/proc; tests point it at a copy) about the resctrl expected at `mountpoint`.
    static ResctrlAbsence diagnose(const std::string& mountpoint, const std::string& procRoot = "/proc");
};

} // namespace rdt::selftest
