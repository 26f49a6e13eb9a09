// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Fs.h"
#include "core/Result.h"

#include <string>

namespace rdt::selftest {

/// `selftest --save DIR`: what a user attaches to a bug report. A copy of a resctrl tree read through the Fs seam:
/// info/ whole, and for the default group and every group its schemata, cpus, cpus_list, mode, size and mon_data,
/// with the groups renamed group1, group2 ... (monitor groups mon1, mon2 ...) in the order listed and no tasks files
/// (no PIDs of the machine). The copy opens again as `--source resctrl:DIR` (ResctrlBackend over PosixFs).
class AnonymisedTreeCopy {
public:
    /// Copies `fs` into `dir`, which must not exist or be empty. Returns how many files were written.
    static Result<unsigned> save(Fs& fs, const std::string& dir);
};

} // namespace rdt::selftest
