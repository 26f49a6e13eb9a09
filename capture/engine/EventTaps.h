// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Second readers of an engine's event stream (Engine::addEventTap): a session recorder sees every event the engine
// queues on the thread that queued it, without taking it from the front end that drains the engine.

#include "EngineTypes.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace rdt::engine {

/// Sees one event; must not block and must not call back into the engine (it may run under the engine's lock).
using EventTap = std::function<void(const EngineEvent&)>;

/// The taps of one engine. Thread-safe: taps are called under one lock, so once remove() returns the tap is never
/// called again and what it points to may go.
class EventTaps {
public:
    std::uint64_t add(EventTap tap)
    {
        std::lock_guard lock(m_mutex);
        m_taps.emplace_back(++m_lastId, std::move(tap));
        return m_lastId;
    }
    void remove(std::uint64_t id)
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_taps, [id](const auto& t) { return t.first == id; });
    }
    void notify(const EngineEvent& event) const
    {
        std::lock_guard lock(m_mutex);
        for (const auto& t : m_taps)
            t.second(event);
    }

private:
    mutable std::mutex m_mutex;
    std::vector<std::pair<std::uint64_t, EventTap>> m_taps;
    std::uint64_t m_lastId = 0;
};

} // namespace rdt::engine
