// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "SessionReader.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rdt::session {

/// Allocation values in force at one time: (group, resource, domain) -> schemata value text ("7ff", "50").
using AllocationKey = std::tuple<std::string, std::string, int>;
using AllocationState = std::map<AllocationKey, std::string>;
/// Tasks/CPUs of each group in force at one time, by group path.
using MembershipState = std::map<std::string, MembershipSnapshot>;

/// What a pull returns: everything that became due since the previous pull, in time order.
struct ReplayUpdate {
    std::vector<RdtSampleBatch> batches; ///< one batch per sample time, like the live sampler publishes
    std::vector<AllocationChanged> allocations;
    std::vector<MembershipSnapshot> memberships;
    std::vector<Marker> markers;
    bool seeked = false; ///< a seek happened since the last pull: reset views, then apply allocationStateAt()
    bool atEnd = false; ///< the whole session has been delivered
    std::uint64_t skippedNs = 0; ///< session time jumped over because nothing was recorded in it (long gaps)
};

/// A recorded session as a source: play, pause, speed (0.25x..64x, or as fast as possible), seek. The consumer
/// pulls (no threads, no callbacks, no Qt), so the GUI's frame pump drives it exactly like a live source:
/// each frame calls poll() and appends what it gets. Times are on the session's axis (sample timeNs).
class ReplaySource {
public:
    using Clock = std::function<std::uint64_t()>;
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 64.0;
    static constexpr double kAsFastAsPossible = 0.0;
    /// Paced playback never waits longer than this (wall time) for the next sample: longer gaps are skipped.
    static constexpr std::uint64_t kMaxWaitNs = 5'000'000'000;

    /// `clock` is the wall clock playback follows (monotonicNs by default; tests pass a fake one).
    explicit ReplaySource(std::shared_ptr<SessionReader> reader, Clock clock = {});

    std::uint64_t startNs() const { return m_start; }
    std::uint64_t endNs() const { return m_end; }
    const SessionReader& reader() const { return *m_reader; }

    void play();
    void pause();
    bool playing() const { return m_playing; }
    /// Clamped to [0.25, 64]; kAsFastAsPossible (0) delivers the next chunk on every poll regardless of time.
    void setSpeed(double speed);
    double speed() const { return m_speed; }
    /// Jumps to `timeNs` (clamped to the session). The next pull has seeked = true and starts at that time;
    /// allocationStateAt()/membershipAt() give the state to restore.
    void seek(std::uint64_t timeNs);
    /// Playback time now (advances with the clock while playing).
    std::uint64_t position() const;
    bool atEnd() const { return m_cursor > m_end; }

    /// Live-like pull: what is due up to position() (or the next chunk when as fast as possible), at most about
    /// `maxSamples` samples (whole batches only), so one frame never stalls on a huge backlog.
    ReplayUpdate poll(std::size_t maxSamples = 200000);
    /// Explicit pull: everything from the cursor up to and including `timeNs`, at most about `maxSamples`.
    ReplayUpdate samplesUntil(std::uint64_t timeNs, std::size_t maxSamples = SIZE_MAX);

    AllocationState allocationStateAt(std::uint64_t timeNs) const;
    MembershipState membershipAt(std::uint64_t timeNs) const;
    /// The last read error (damaged file); the source keeps going with what it can read.
    const std::optional<Error>& lastError() const { return m_lastError; }

    /// Paced playback with nothing due: when the next sample is more than kMaxWaitNs of wall time away, jumps
    /// there and returns the session time skipped (0 otherwise). poll() does this itself.
    std::uint64_t skipLongGap();

private:
    void anchor(std::uint64_t positionNs);

    std::shared_ptr<SessionReader> m_reader;
    Clock m_clock;
    std::uint64_t m_start = 0;
    std::uint64_t m_end = 0;
    std::uint64_t m_cursor = 0; ///< first time not yet delivered
    std::uint64_t m_anchorPos = 0;
    std::uint64_t m_anchorWall = 0;
    double m_speed = 1.0;
    bool m_playing = false;
    bool m_seeked = false;
    /// Samples delivered since the start, while no seek happened: at the end they must add up to the session's
    /// count, or rows were lost silently (see SessionReader::checkWholeSessionRead).
    std::uint64_t m_deliveredInPass = 0;
    bool m_wholePass = true;
    std::optional<std::uint64_t> m_nextSampleNs; ///< cached time of the first sample at or after the cursor
    std::optional<Error> m_lastError;
};

} // namespace rdt::session
