// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rdt {

/// Bounded single-producer single-consumer queue. A push into a full queue drops the item and counts it:
/// the engine never blocks on a slow consumer, and drops are shown, never silent (docs/ARCHITECTURE.md "Data flow").
template <typename T> class SpscQueue {
public:
    explicit SpscQueue(std::size_t capacity)
        : m_slots(capacity + 1)
    { }

    /// Producer side. Returns false (and counts a drop) when the queue is full.
    bool push(T item)
    {
        const auto head = m_head.load(std::memory_order_relaxed);
        const auto next = (head + 1) % m_slots.size();
        if (next == m_tail.load(std::memory_order_acquire)) {
            m_dropped.fetch_add(1, std::memory_order_relaxed);
            return false;
        }
        m_slots[head] = std::move(item);
        m_head.store(next, std::memory_order_release);
        return true;
    }

    /// Consumer side.
    std::optional<T> pop()
    {
        const auto tail = m_tail.load(std::memory_order_relaxed);
        if (tail == m_head.load(std::memory_order_acquire)) return std::nullopt;
        std::optional<T> item(std::move(m_slots[tail]));
        m_slots[tail] = T {};
        m_tail.store((tail + 1) % m_slots.size(), std::memory_order_release);
        return item;
    }

    bool empty() const { return m_tail.load(std::memory_order_acquire) == m_head.load(std::memory_order_acquire); }
    std::size_t capacity() const { return m_slots.size() - 1; }
    std::uint64_t dropped() const { return m_dropped.load(std::memory_order_relaxed); }

private:
    std::vector<T> m_slots;
    alignas(64) std::atomic<std::size_t> m_head { 0 };
    alignas(64) std::atomic<std::size_t> m_tail { 0 };
    alignas(64) std::atomic<std::uint64_t> m_dropped { 0 };
};

} // namespace rdt
