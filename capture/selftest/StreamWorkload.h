// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/Result.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rdt::selftest {

/// What the effect checks run in the groups they make: memory streamers pinned to a CPU, and the passing of time
/// while they run. On real hardware a child process (StreamerProcess); on the simulated machine a simulated thread
/// (capture/engine SimStreamWorkload), whose time is simulated.
class StreamWorkload {
public:
    virtual ~StreamWorkload() = default;
    /// Starts a streamer reading `workingSetBytes` over and over on `cpu`; returns the task id to write into a
    /// group's tasks file. It streams until stop() (a process also ends on its own after a bounded time).
    virtual Result<unsigned> start(unsigned cpu, std::uint64_t workingSetBytes) = 0;
    virtual void stop(unsigned task) = 0;
    /// Lets `ns` nanoseconds pass while the streamers run (real time sleeps; the simulated machine advances).
    /// Returns false when the wait was cancelled (SIGINT/SIGTERM): the caller stops and cleans up.
    virtual bool run(std::uint64_t ns) = 0;
    /// Bytes the streamer moved between memory and the cache so far by its own count; nullopt when unknown.
    virtual std::optional<std::uint64_t> bytesMoved(unsigned task) const = 0;
    /// Empty when the streamers' cache and memory use shows in the resctrl tree's counters; otherwise why not, which
    /// the effect checks report as their SKIP reason (never a pass).
    virtual std::string unobservableReason() const { return {}; }
    /// "streamer processes" / "simulated streamer threads", for the report's header.
    virtual std::string describe() const = 0;
};

} // namespace rdt::selftest
