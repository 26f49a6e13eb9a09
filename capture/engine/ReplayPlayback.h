// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Seek and speed of an engine that plays a recorded session back (ReplayEngine): what the GUI's replay bar and
// `rdtscope-cli replay --speed/--from/--to` drive. Kept apart from Engine, which live and remote sources implement
// too and which has no notion of a position to seek to. Times are on the engine's clock (Engine::nowNs(): the
// session's time axis, docs/SESSION-FORMAT.md).

#include <cstdint>

namespace rdt::engine {

class ReplayPlayback {
public:
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 64.0;
    /// Every drain delivers the next chunk, whatever the wall clock says.
    static constexpr double kAsFastAsPossible = 0.0;

    virtual ~ReplayPlayback() = default;
    /// The recording's first and last times.
    virtual std::uint64_t startNs() const = 0;
    virtual std::uint64_t endNs() const = 0;
    /// Playback time now (advances with the wall clock while playing).
    virtual std::uint64_t positionNs() const = 0;
    virtual bool playing() const = 0;
    virtual void setPlaying(bool playing) = 0;
    virtual double speed() const = 0;
    /// Clamped to [kMinSpeed, kMaxSpeed]; kAsFastAsPossible as is.
    virtual void setSpeed(double factor) = 0;
    /// Jumps to `timeNs` (clamped to the recording): the engine's answers (snapshot, allocationLayout) are then
    /// those in force at that time, and takeSeek() says so once.
    virtual void seek(std::uint64_t timeNs) = 0;
    /// Nothing after `timeNs` is delivered (rdtscope-cli replay --to).
    virtual void stopAt(std::uint64_t timeNs) = 0;
    /// Everything up to the end (or the stopAt time) has been delivered.
    virtual bool finished() const = 0;
    /// True once after each seek: a front end drops what it drew (and what it still holds) before it drains more.
    virtual bool takeSeek() = 0;
};

} // namespace rdt::engine
