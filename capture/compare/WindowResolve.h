// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Turning a Window into seconds of one recording, shared by the session and perf.data loaders.

#include "Profile.h"

#include <string>
#include <utility>
#include <vector>

namespace rdt::compare {

struct TimedMarker {
    double timeS = 0; ///< seconds since the recording's start
    std::string text;
};

/// [from, to] in seconds for `window` over a recording of `lengthS`. A range reaching past the recording is
/// clipped with a note; a window with nothing in it, or a marker that is not there, is an error that lists the
/// markers the recording has.
Result<std::pair<double, double>> resolveWindow(
    const Window& window, double lengthS, const std::vector<TimedMarker>& markers, std::vector<std::string>& notes);

/// Seconds from `origin` to `timeNs` (0 when timeNs is earlier).
double secondsSince(std::uint64_t originNs, std::uint64_t timeNs);

} // namespace rdt::compare
