// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "pmu/RingReader.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rdt::pmu {

/// An in-memory perf ring with the kernel's writer semantics (kernel/events/ring_buffer.c): the control page and
/// a power-of-two data area in one allocation, laid out like a real mapping (data_offset/data_size filled), so
/// RingReader::viewOfMapping works on it. The simulated PMU writes its records here.
class MemoryRing {
public:
    /// `dataSize` must be a power of two (>= 64); `pageSize` is the control page size.
    static Result<MemoryRing> create(std::size_t dataSize, std::size_t pageSize = 4096);

    /// Writes one whole record as the kernel does: when it does not fit before data_tail it is dropped and counted,
    /// and the next write that fits is preceded by PERF_RECORD_LOST {lostId, dropped} (perf_output_begin).
    /// `lostTrailer` bytes (a sample_id trailer) are appended to that LOST record. Returns false when dropped.
    bool write(std::span<const std::byte> record);
    /// Writes ignoring data_tail (overwrite mode / a broken writer), so readers' overrun detection can be tested.
    void writeOverwrite(std::span<const std::byte> record);

    void setLostId(std::uint64_t id) { m_lostId = id; }
    void setLostTrailer(std::vector<std::byte> trailer) { m_lostTrailer = std::move(trailer); }
    std::uint64_t droppedTotal() const { return m_droppedTotal; }
    std::uint64_t head() const { return m_head; }
    std::size_t freeBytes() const;

    void* base() { return m_mem.data(); }
    std::size_t mapSize() const { return m_mem.size() * 8; }
    std::size_t pageSize() const { return m_pageSize; }
    RingView view();

private:
    MemoryRing() = default;
    void put(std::span<const std::byte> bytes);
    void publish();

    std::vector<std::uint64_t> m_mem; ///< u64 storage keeps data_head/data_tail 8-byte aligned
    std::size_t m_pageSize = 0;
    std::size_t m_dataSize = 0;
    std::uint64_t m_head = 0;
    std::uint64_t m_lostId = 0;
    std::uint64_t m_dropped = 0; ///< since the last LOST record
    std::uint64_t m_droppedTotal = 0;
    std::vector<std::byte> m_lostTrailer;
};

} // namespace rdt::pmu
