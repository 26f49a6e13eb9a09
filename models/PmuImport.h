// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Importing a perf.data file (capture/perfdata's reader) into PmuData, with progress and cancel, callable from a
// worker thread (it touches no Qt object).

#include "PmuData.h"
#include "core/Result.h"

#include <functional>
#include <string>
#include <vector>

namespace rdt::pmu {

struct PmuImportOptions {
    /// Where to look for profiled binaries that are not at their recorded path, like perf's --symfs: a mapping of
    /// /a/b/prog is looked up as DIR/a/b/prog, then DIR/prog.
    std::vector<std::string> symbolDirs;
    /// (bytes done, bytes total; 0 when unknown). Return false to cancel.
    std::function<bool(std::uint64_t, std::uint64_t)> progress;
};

/// Reads every record of `path`. A cancelled import returns an error saying so (nothing half-loaded is shown).
Result<PmuData> importPerfData(const std::string& path, const PmuImportOptions& options = {});

/// True when the file starts with perf.data's magic ("PERFILE2"), file or pipe mode.
bool looksLikePerfData(const std::string& path);

} // namespace rdt::pmu
