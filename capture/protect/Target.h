// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the protected group must hold (`--target`): an IPC floor, an LLC-misses-per-kilo-instruction ceiling, an
// occupancy floor, or an external signal (a command printing a number each interval, e.g. a p99 latency) with a
// floor or a ceiling. The slack is how far the measured value is from breaking the target, as a share of the target
// (PARTIES' definition, docs/PROTECT.md "Slack").

#include "core/Result.h"

#include <string>

namespace rdt::protect {

enum class SignalKind { Ipc, Mpki, Occupancy, External };

struct Target {
    SignalKind kind = SignalKind::Ipc;
    std::string name; ///< as the user wrote it: "ipc", "mpki", "occupancy", or the external signal's name ("p99")
    bool floor = true; ///< true: value >= threshold; false: value <= threshold
    double threshold = 0; ///< in the signal's unit (occupancy in bytes)

    /// (value - threshold) / threshold for a floor, (threshold - value) / threshold for a ceiling: positive while
    /// the target holds, negative when it is broken.
    double slack(double value) const;
    bool met(double value) const { return slack(value) >= 0; }
    /// "ipc>=0.8", "p99<=2000"
    std::string text() const;
};

/// Parses "ipc>=0.8", "mpki<=5", "occupancy>=8M" (K/M/G binary suffixes) or "NAME<=X" / "NAME>=X" for an external
/// signal (`externalAllowed`: a --signal-cmd was given). Errors say what is accepted.
Result<Target> parseTarget(const std::string& text, bool externalAllowed);

} // namespace rdt::protect
