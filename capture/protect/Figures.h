// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a protect run achieved, as the lab compares policies (docs/PROTECT.md "The lab"): the share of 1 s and 60 s
// windows in which the target was broken (the window's mean signal misses it), the best-effort groups' mean
// throughput, the time from each load step until the target holds again for a whole second, and the writes.

#include "Protect.h"

#include <optional>
#include <string>
#include <vector>

namespace rdt::protect {

struct PolicyFigures {
    std::string policy;
    std::optional<double> violationShare1s; ///< none when no window had a reading
    std::optional<double> violationShare60s;
    std::optional<double> beThroughput; ///< mean over the intervals, in `throughputUnit`
    std::string throughputUnit;
    /// Per load step: seconds until the target held for 1 s; none when it never did before the next step.
    std::vector<std::optional<double>> convergenceS;
    unsigned writes = 0;
    bool restored = true;
};

/// Share of windows of `windowNs` whose mean signal breaks the target (a last window shorter than half is left out).
std::optional<double> violationShare(const ProtectResult& r, std::uint64_t windowNs);
/// Seconds from the step at `stepNs` until the target holds for `holdNs` (or until `untilNs`, the next step or the
/// end, when that comes first); none when it never does.
std::optional<double> convergenceAfter(
    const ProtectResult& r, std::uint64_t stepNs, std::uint64_t untilNs, std::uint64_t holdNs = 1'000'000'000);
PolicyFigures figuresOf(const ProtectResult& r);

} // namespace rdt::protect
