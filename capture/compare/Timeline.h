// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Per-group occupancy and bandwidth over a session, one point per second, for the GUI's compare mode: the
// session's 1-second summary buckets (rdt_summary, written while recording) summed over L3 domains, so an hour
// reads 3,600 rows per group instead of 36,000 samples.

#include "core/Result.h"

#include <map>
#include <string>
#include <vector>

namespace rdt::compare {

struct TimelinePoint {
    double timeS = 0; ///< seconds since the session's start (bucket middle)
    double occupancyBytes = 0; ///< sum over domains of the bucket means
    double totalBps = 0;
};

struct TimelineMarker {
    double timeS = 0;
    std::string kind, text;
};

struct Timeline {
    std::map<std::string, std::vector<TimelinePoint>> groups; ///< group path -> points in time order
    std::vector<TimelineMarker> markers; ///< notes and scenario steps (set-up at 0 s left out)
    double lengthS = 0;
};

/// Empty (no error) for a perf.data file; an error only when a session cannot be opened.
Result<Timeline> loadTimeline(const std::string& path);

} // namespace rdt::compare
