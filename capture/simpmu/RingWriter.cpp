// SPDX-License-Identifier: GPL-3.0-or-later
#include "RingWriter.h"

#include <atomic>
#include <bit>
#include <cstring>

namespace rdt::pmu {

Result<MemoryRing> MemoryRing::create(std::size_t dataSize, std::size_t pageSize)
{
    if (dataSize < 64 || !std::has_single_bit(dataSize))
        return makeError("memory ring: data size " + std::to_string(dataSize) + " is not a power of two >= 64");
    if (pageSize < mmappage::MinSize || pageSize % 8 != 0)
        return makeError("memory ring: control page of " + std::to_string(pageSize) + " bytes is too small");
    MemoryRing r;
    r.m_pageSize = pageSize;
    r.m_dataSize = dataSize;
    r.m_mem.assign((pageSize + dataSize) / 8, 0);
    auto* control = reinterpret_cast<std::byte*>(r.m_mem.data());
    const std::uint64_t offset = pageSize, size = dataSize;
    std::memcpy(control + mmappage::DataOffset, &offset, 8);
    std::memcpy(control + mmappage::DataSize, &size, 8);
    return r;
}

RingView MemoryRing::view()
{
    auto* control = reinterpret_cast<std::byte*>(m_mem.data());
    return { control, control + m_pageSize, m_dataSize };
}

std::size_t MemoryRing::freeBytes() const
{
    auto* control = reinterpret_cast<std::uint64_t*>(const_cast<std::uint64_t*>(m_mem.data()));
    const std::uint64_t tail
        = std::atomic_ref<std::uint64_t>(control[mmappage::DataTail / 8]).load(std::memory_order_acquire);
    return m_dataSize - static_cast<std::size_t>(m_head - tail);
}

void MemoryRing::put(std::span<const std::byte> bytes)
{
    auto* data = reinterpret_cast<std::byte*>(m_mem.data()) + m_pageSize;
    const std::size_t off = static_cast<std::size_t>(m_head & (m_dataSize - 1));
    const std::size_t first = std::min(bytes.size(), m_dataSize - off);
    std::memcpy(data + off, bytes.data(), first);
    std::memcpy(data, bytes.data() + first, bytes.size() - first);
    m_head += bytes.size();
}

void MemoryRing::publish()
{
    auto* control = m_mem.data();
    std::atomic_ref<std::uint64_t>(control[mmappage::DataHead / 8]).store(m_head, std::memory_order_release);
}

bool MemoryRing::write(std::span<const std::byte> record)
{
    const std::size_t lostSize = m_dropped ? 24 + m_lostTrailer.size() : 0;
    if (record.size() + lostSize > freeBytes() || record.size() > 0xffff) {
        ++m_dropped;
        ++m_droppedTotal;
        return false;
    }
    if (m_dropped) {
        std::vector<std::byte> lost(lostSize);
        const std::uint32_t type = 2; // PERF_RECORD_LOST
        const std::uint16_t misc = 0, size = static_cast<std::uint16_t>(lostSize);
        std::memcpy(lost.data(), &type, 4);
        std::memcpy(lost.data() + 4, &misc, 2);
        std::memcpy(lost.data() + 6, &size, 2);
        std::memcpy(lost.data() + 8, &m_lostId, 8);
        std::memcpy(lost.data() + 16, &m_dropped, 8);
        if (!m_lostTrailer.empty()) std::memcpy(lost.data() + 24, m_lostTrailer.data(), m_lostTrailer.size());
        put(lost);
        m_dropped = 0;
    }
    put(record);
    publish();
    return true;
}

void MemoryRing::writeOverwrite(std::span<const std::byte> record)
{
    put(record);
    publish();
}

} // namespace rdt::pmu
