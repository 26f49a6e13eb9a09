// SPDX-License-Identifier: GPL-3.0-or-later
#include "PollRecorder.h"

#include "rdt/CounterMath.h"

#include <algorithm>
#include <variant>

namespace rdt::blame {

PollRecorder::PollRecorder(
    engine::Engine& engine, std::uint64_t pollNs, unsigned counterWidth, bool paced, std::string pmuGroup, Hooks hooks)
    : m_engine(engine)
    , m_pollNs(std::clamp<std::uint64_t>(pollNs, 1'000'000, maxPollIntervalNs(counterWidth)))
    , m_paced(paced)
    , m_pmuGroup(std::move(pmuGroup))
    , m_hooks(std::move(hooks))
    , m_t0(engine.nowNs())
    , m_wall0(std::chrono::steady_clock::now())
{ }

bool PollRecorder::pollAt(std::uint64_t offset, std::vector<Poll>& out)
{
    if (stopRequested()) return false;
    if (m_paced) m_engine.waitUntil(m_wall0 + std::chrono::nanoseconds(offset));
    m_engine.advanceTo(m_t0 + offset);
    m_offset = offset;
    (void)m_engine.pollRdt();
    Poll poll;
    poll.offsetNs = offset;
    bool sampled = false;
    for (auto& e : m_engine.drainEvents()) {
        if (const auto* b = std::get_if<RdtSampleBatch>(&e)) {
            if (m_hooks.onBatch) m_hooks.onBatch(*b);
            sampled = true;
            poll.readings.clear();
            for (const auto& s : b->samples) {
                if (s.node >= 0) continue; // SNC node rows repeat their L3 domain's sum
                auto& r = poll.readings[{ s.group, s.domain }];
                if (!(s.flags & kOccupancyUnknown)) r.occupancyBytes = static_cast<double>(s.occupancyBytes);
                if (!(s.flags & (kMbmTotalUnread | SampleCounterReset))) r.mbmTotalBytes = s.mbmTotalBytes;
            }
        } else if (m_hooks.onEvent) {
            m_hooks.onEvent(e);
        }
    }
    if (m_pmuUnavailable.empty()) {
        auto c = m_engine.countGroupPmu(m_pmuGroup);
        if (c) {
            m_pmuMethod = c->method;
            poll.victimPmu = *c;
        } else {
            m_pmuUnavailable = c.error().toString();
        }
    }
    if (sampled) out.push_back(std::move(poll));
    return !stopRequested();
}

bool PollRecorder::record(std::uint64_t ns, std::vector<Poll>& out)
{
    if (!m_started) {
        m_started = true;
        if (!pollAt(0, out)) return false;
    }
    const std::uint64_t end = m_offset + ns;
    while (m_offset < end)
        if (!pollAt(std::min(end, m_offset + m_pollNs), out)) return false;
    return true;
}

} // namespace rdt::blame
