// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <string>
#include <vector>

namespace rdt {

/// What the MSR backend hands out, kept between processes (docs/SAFE-WRITES.md, "MSR state between runs"): the
/// hardware has CLOS and RMID numbers but no names, and a group without CPUs leaves no trace in IA32_PQR_ASSOC.
/// The file is text, one group per line ("control NAME CLOS RMID" or "monitor PARENT/mon_groups/NAME CLOS RMID"),
/// written to a temporary file beside it and renamed over it (atomic), under an flock(2) of the file's directory
/// so two rdtscope processes never interleave. Default place: /run/rdtscope/msr-state (tmpfs: it goes with a
/// reboot, exactly when the MSRs reset).
struct MsrStateEntry {
    std::string path;
    bool isControl = true;
    unsigned clos = 0;
    unsigned rmid = 0;
};

inline constexpr const char* kDefaultMsrStateFile = "/run/rdtscope/msr-state";

/// Reads the file; a missing file is an empty state. A line that does not parse is an error naming the line.
Result<std::vector<MsrStateEntry>> loadMsrState(const std::string& file);
/// Writes the whole state atomically (creating the directory with mode 0700 when missing).
Status saveMsrState(const std::string& file, const std::vector<MsrStateEntry>& groups);

} // namespace rdt
