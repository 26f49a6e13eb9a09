// SPDX-License-Identifier: GPL-3.0-or-later
#include "ReplaySource.h"

#include "core/Time.h"

#include <algorithm>
#include <cmath>

namespace rdt::session {

ReplaySource::ReplaySource(std::shared_ptr<SessionReader> reader, Clock clock)
    : m_reader(std::move(reader))
    , m_clock(clock ? std::move(clock) : Clock(&monotonicNs))
{
    m_start = m_reader->firstTimeNs();
    m_end = m_reader->lastTimeNs();
    // Events recorded before the first sample (initial allocations, membership) still belong to the session.
    for (const auto& a : m_reader->allocations())
        m_start = std::min(m_start, a.timeNs);
    for (const auto& m : m_reader->memberships())
        m_start = std::min(m_start, m.timeNs);
    m_cursor = m_start;
    anchor(m_start);
}

void ReplaySource::anchor(std::uint64_t positionNs)
{
    m_anchorPos = positionNs;
    m_anchorWall = m_clock();
}

std::uint64_t ReplaySource::position() const
{
    if (!m_playing) return m_anchorPos;
    if (m_speed == kAsFastAsPossible) return std::max(m_anchorPos, m_cursor > 0 ? m_cursor - 1 : 0);
    const double elapsed = static_cast<double>(m_clock() - m_anchorWall) * m_speed;
    const double pos = static_cast<double>(m_anchorPos) + elapsed;
    return pos >= static_cast<double>(m_end) ? m_end : static_cast<std::uint64_t>(pos);
}

void ReplaySource::play()
{
    if (m_playing) return;
    anchor(m_anchorPos);
    m_playing = true;
}

void ReplaySource::pause()
{
    if (!m_playing) return;
    anchor(position());
    m_playing = false;
}

void ReplaySource::setSpeed(double speed)
{
    const std::uint64_t pos = position();
    if (speed == kAsFastAsPossible || std::isnan(speed))
        m_speed = kAsFastAsPossible;
    else
        m_speed = std::clamp(speed, kMinSpeed, kMaxSpeed);
    anchor(pos);
}

void ReplaySource::seek(std::uint64_t timeNs)
{
    const std::uint64_t t = std::clamp(timeNs, m_start, std::max(m_start, m_end));
    m_cursor = t;
    m_seeked = true;
    m_wholePass = t <= m_start;
    m_deliveredInPass = 0;
    m_nextSampleNs.reset();
    anchor(t);
}

ReplayUpdate ReplaySource::poll(std::size_t maxSamples)
{
    if (!m_playing) {
        ReplayUpdate u;
        u.seeked = std::exchange(m_seeked, false);
        u.atEnd = atEnd();
        return u;
    }
    if (m_speed == kAsFastAsPossible) {
        ReplayUpdate u = samplesUntil(m_end, maxSamples);
        anchor(m_cursor > m_start ? m_cursor - 1 : m_start);
        return u;
    }
    ReplayUpdate u = samplesUntil(position(), maxSamples);
    if (u.batches.empty() && !u.atEnd) u.skippedNs = skipLongGap();
    return u;
}

std::uint64_t ReplaySource::skipLongGap()
{
    // A recorder stopped overnight, or a damaged time stamp far in the future (9e18 ns), would make paced
    // playback wait for hours or years with nothing to show: jump to the next sample when the wait would be
    // longer than kMaxWaitNs of wall time at the current speed, and say how much session time was skipped.
    if (!m_nextSampleNs || *m_nextSampleNs < m_cursor) m_nextSampleNs = m_reader->nextSampleTime(m_cursor);
    if (!m_playing || m_speed == kAsFastAsPossible || !m_nextSampleNs) return 0;
    const std::uint64_t now = position();
    if (*m_nextSampleNs <= now) return 0;
    const double waitNs = static_cast<double>(*m_nextSampleNs - now) / m_speed;
    if (waitNs <= static_cast<double>(kMaxWaitNs)) return 0;
    anchor(*m_nextSampleNs);
    return *m_nextSampleNs - now;
}

ReplayUpdate ReplaySource::samplesUntil(std::uint64_t timeNs, std::size_t maxSamples)
{
    ReplayUpdate u;
    u.seeked = std::exchange(m_seeked, false);
    if (m_cursor > m_end || timeNs < m_cursor) {
        u.atEnd = atEnd();
        return u;
    }
    const std::uint64_t from = m_cursor;
    std::uint64_t to = std::min(timeNs, m_end) + 1; // exclusive
    const std::size_t limit = maxSamples == SIZE_MAX ? SIZE_MAX : std::max<std::size_t>(maxSamples, 1);
    auto rows = m_reader->samples(from, to, limit);
    if (!rows) {
        m_lastError = rows.error();
        m_cursor = to; // skip what cannot be read rather than retry it every frame
        u.atEnd = atEnd();
        return u;
    }
    std::vector<RdtSample>& v = rows.value();
    if (limit != SIZE_MAX && v.size() >= limit) {
        // Deliver whole batches only: the rows of the last time stamp may be cut, so leave them for next time.
        const std::uint64_t lastT = v.back().timeNs;
        std::erase_if(v, [&](const RdtSample& s) { return s.timeNs == lastT; });
        if (v.empty()) { // one time stamp bigger than the limit: take it whole
            auto whole = m_reader->samples(lastT, lastT + 1);
            if (whole) v = std::move(whole.value());
            to = lastT + 1;
        } else {
            to = lastT;
        }
    }
    if (!m_reader->issues().empty() && m_reader->damaged()) m_lastError = makeError(m_reader->issues().back());
    for (auto& s : v) {
        if (u.batches.empty() || u.batches.back().timeNs != s.timeNs)
            u.batches.push_back(RdtSampleBatch { s.timeNs, {} });
        u.batches.back().samples.push_back(std::move(s));
    }
    // PERF_PKG_MON rows travel in the batch of their poll (the same time stamp), as the sampler published them.
    if (auto tel = m_reader->telemetry(from, to)) {
        for (auto& t : *tel) {
            auto at = std::lower_bound(u.batches.begin(), u.batches.end(), t.timeNs,
                [](const RdtSampleBatch& b, std::uint64_t x) { return b.timeNs < x; });
            if (at == u.batches.end() || at->timeNs != t.timeNs)
                at = u.batches.insert(at, RdtSampleBatch { t.timeNs, {}, {} });
            at->telemetry.push_back(std::move(t));
        }
    }
    auto inRange = [&](std::uint64_t t) { return t >= from && t < to; };
    for (const auto& a : m_reader->allocations())
        if (inRange(a.timeNs)) u.allocations.push_back(a);
    for (const auto& m : m_reader->memberships())
        if (inRange(m.timeNs)) u.memberships.push_back(m);
    for (const auto& m : m_reader->markers())
        if (inRange(m.timeNs)) u.markers.push_back(m);
    m_cursor = to;
    u.atEnd = atEnd();
    if (m_wholePass) {
        m_deliveredInPass += v.size();
        if (u.atEnd) {
            m_wholePass = false; // check once per pass
            if (auto whole = m_reader->checkWholeSessionRead(m_deliveredInPass); !whole) m_lastError = whole.error();
        }
    }
    return u;
}

AllocationState ReplaySource::allocationStateAt(std::uint64_t timeNs) const
{
    AllocationState state;
    for (const auto& a : m_reader->allocations()) { // time order: later changes overwrite earlier ones
        if (a.timeNs > timeNs) break;
        if (a.ok) state[AllocationKey { a.group, a.resource, a.domain }] = a.newValue;
    }
    return state;
}

MembershipState ReplaySource::membershipAt(std::uint64_t timeNs) const
{
    MembershipState state;
    for (const auto& m : m_reader->memberships()) {
        if (m.timeNs > timeNs) break;
        state[m.group] = m;
    }
    return state;
}

} // namespace rdt::session
