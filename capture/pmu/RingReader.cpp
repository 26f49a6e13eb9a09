// SPDX-License-Identifier: GPL-3.0-or-later
#include "RingReader.h"

#include "PerfRecordBytes.h"

#include <bit>

namespace rdt::pmu {

Result<RingReader> RingReader::create(RingView view)
{
    if (!view.control || !view.data) return makeError("perf ring: no mapping");
    if (view.dataSize == 0 || !std::has_single_bit(view.dataSize))
        return makeError("perf ring: data size " + std::to_string(view.dataSize) + " is not a power of two",
            "map 1 + 2^n pages (perf_event_open(2), MMAP layout)");
    if (reinterpret_cast<std::uintptr_t>(view.control) % 8 != 0)
        return makeError("perf ring: control page is not 8-byte aligned");
    return RingReader(view);
}

Result<RingView> RingReader::viewOfMapping(void* base, std::size_t mapSize, std::size_t pageSize)
{
    if (!base || mapSize < pageSize || pageSize < mmappage::MinSize)
        return makeError("perf ring: mapping of " + std::to_string(mapSize) + " bytes is too small");
    auto* control = static_cast<std::byte*>(base);
    std::uint64_t offset = loadAt<std::uint64_t>(control + mmappage::DataOffset);
    std::uint64_t size = loadAt<std::uint64_t>(control + mmappage::DataSize);
    if (size == 0) { // kernels before 4.1 leave these zero: the data area follows the first page
        offset = pageSize;
        size = mapSize - pageSize;
    }
    if (offset < mmappage::MinSize || offset > mapSize || size > mapSize - offset)
        return makeError("perf ring: data_offset " + std::to_string(offset) + " / data_size " + std::to_string(size)
            + " lie outside the " + std::to_string(mapSize) + "-byte mapping");
    return RingView { control, control + offset, static_cast<std::size_t>(size) };
}

std::span<const std::byte> RingReader::recordAt(std::uint64_t& tail, std::uint64_t head)
{
    const std::uint64_t avail = head - tail;
    auto resync = [&]() {
        ++m_stats.corrupt;
        m_stats.overrunBytes += avail;
        tail = head;
        return std::span<const std::byte> {};
    };
    if (avail < perf::HeaderSize) return resync();
    const std::size_t off = static_cast<std::size_t>(tail & m_mask);
    // The header itself may straddle when a writer produced sizes that are not multiples of 8.
    std::byte hdr[perf::HeaderSize];
    for (std::size_t i = 0; i < perf::HeaderSize; ++i)
        hdr[i] = m_view.data[(off + i) & m_mask];
    const std::uint16_t size = loadAt<std::uint16_t>(hdr + 6);
    if (size < perf::HeaderSize || size > avail) return resync();
    tail += size;
    if (off + size <= m_view.dataSize) return { m_view.data + off, size };
    ++m_stats.straddled;
    m_copy.resize(size);
    const std::size_t first = m_view.dataSize - off;
    std::memcpy(m_copy.data(), m_view.data + off, first);
    std::memcpy(m_copy.data() + first, m_view.data, size - first);
    return { m_copy.data(), size };
}

void RingReader::count(std::span<const std::byte> record)
{
    ++m_stats.records;
    m_stats.bytes += record.size();
    const auto type = loadAt<std::uint32_t>(record.data());
    switch (type) {
    case perf::RecordSample:
        ++m_stats.samples;
        break;
    case perf::RecordLost:
        ++m_stats.lostRecords;
        if (record.size() >= 24) m_stats.lostEvents += loadAt<std::uint64_t>(record.data() + 16);
        break;
    case perf::RecordLostSamples:
        if (record.size() >= 16) m_stats.lostSamples += loadAt<std::uint64_t>(record.data() + 8);
        break;
    case perf::RecordThrottle:
        ++m_stats.throttles;
        break;
    case perf::RecordUnthrottle:
        ++m_stats.unthrottles;
        break;
    default:
        break;
    }
}

} // namespace rdt::pmu
