// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures over a stretch of polls: one group's mean occupancy and memory traffic on one domain, the victim's IPC,
// MPKI, memory-bound share and memory-stall cycles per miss; and the sliding windows the passive ranking compares
// (docs/BLAME.md "Passive ranking").

#include "PollRecorder.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace rdt::blame {

/// One group on one domain over polls [begin, end).
struct SpanReading {
    double occupancyBytes = 0; ///< mean of the polls
    double occupancyStdError = 0; ///< standard error of that mean (0 with one poll)
    double fillBps = 0; ///< MBM total over the span: the lines it read from memory, each filling L3
    unsigned polls = 0;
};

/// The victim's PMU figures over polls [begin, end).
struct PmuSpan {
    double ipc = 0;
    double mpki = 0;
    std::optional<double> memoryBound; ///< 0..1
    std::optional<double> stallCyclesPerMiss; ///< memory-stall cycles per LLC miss: grows as memory saturates
};

/// None when a reading in the span is unknown, or the span has fewer than two polls.
std::optional<SpanReading> spanOf(
    const std::vector<Poll>& polls, const GroupDomain& key, std::size_t begin, std::size_t end);
/// None when the PMU was not read at both ends or the victim ran no cycles (no figures, never zeros).
std::optional<PmuSpan> pmuSpanOf(const std::vector<Poll>& polls, std::size_t begin, std::size_t end);

/// Sliding windows of `span` polls over polls [begin, end), each starting half a window after the previous one.
struct WindowBounds {
    std::size_t begin = 0, end = 0;
};
std::vector<WindowBounds> slidingWindows(std::size_t begin, std::size_t end, std::size_t span);

/// Mean, and two standard errors of the mean (about a 95 % interval), of a list of values; 0 +- 0 when empty.
struct MeanInterval {
    double mean = 0;
    double twoStdErrors = 0;
};
MeanInterval meanInterval(const std::vector<double>& values);

/// Pearson's correlation of two equally long lists; none when either has (relatively) no spread.
std::optional<double> correlation(const std::vector<double>& a, const std::vector<double>& b);

} // namespace rdt::blame
