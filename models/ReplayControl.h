// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

/// What the replay bar drives: an adapter over the session's replay source implements it. Times are ns from the
/// start of the recording. Called on the GUI thread; implementations hand requests to the replay thread.
class ReplayControl {
public:
    virtual ~ReplayControl() = default;
    virtual std::uint64_t durationNs() const = 0;
    virtual std::uint64_t positionNs() const = 0;
    virtual bool playing() const = 0;
    virtual void setPlaying(bool playing) = 0;
    virtual double speed() const = 0;
    virtual void setSpeed(double factor) = 0;
    /// Moves to `positionNs`; the allocation state recorded at that time is re-published so views show it.
    virtual void seek(std::uint64_t positionNs) = 0;
};
