// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reader of a perf_event mmap ring (struct perf_event_mmap_page semantics, perf_event_open(2) "MMAP layout";
// tools/lib/perf/mmap.c does the same): load-acquire data_head, copy out records that straddle the end of the data
// area, store-release data_tail once the records are consumed. Works on a real mapping and on MemoryRing.

#include "RecordDecoder.h"
#include "core/Result.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace rdt::pmu {

/// Offsets in struct perf_event_mmap_page [uapi].
namespace mmappage {
constexpr std::size_t DataHead = 1024;
constexpr std::size_t DataTail = 1032;
constexpr std::size_t DataOffset = 1040;
constexpr std::size_t DataSize = 1048;
constexpr std::size_t MinSize = 1056; ///< the control page must hold at least this much
} // namespace mmappage

/// Where a ring lives: the control page (for data_head/data_tail) and the data area (size a power of two).
struct RingView {
    std::byte* control = nullptr;
    std::byte* data = nullptr;
    std::size_t dataSize = 0;
};

/// Counters a reader keeps over its life ("counted and shown, never silent").
struct RingStats {
    std::uint64_t records = 0; ///< records handed to the consumer
    std::uint64_t bytes = 0;
    std::uint64_t samples = 0;
    std::uint64_t straddled = 0; ///< records copied out because they wrapped around the end
    std::uint64_t lostRecords = 0; ///< PERF_RECORD_LOST records seen
    std::uint64_t lostEvents = 0; ///< sum of their `lost` fields: records the kernel dropped (ring full)
    std::uint64_t lostSamples = 0; ///< sum of PERF_RECORD_LOST_SAMPLES `lost`
    std::uint64_t throttles = 0; ///< PERF_RECORD_THROTTLE: the kernel lowered the sampling rate
    std::uint64_t unthrottles = 0;
    std::uint64_t overruns = 0; ///< times head ran more than a ring ahead of tail (overwrite mode / bug)
    std::uint64_t overrunBytes = 0; ///< bytes skipped because of overruns and corrupt headers
    std::uint64_t corrupt = 0; ///< record headers with an impossible size (resynchronised to head)
};

class RingReader {
public:
    /// Validates a view: non-null pointers, data size a non-zero power of two.
    static Result<RingReader> create(RingView view);
    /// A view of a real mapping of `mapSize` bytes at `base` (page 0 is the control page). Uses data_offset and
    /// data_size when the kernel filled them (4.1+), else page size and mapSize - page size.
    static Result<RingView> viewOfMapping(void* base, std::size_t mapSize, std::size_t pageSize);

    /// Hands every complete record available now to `consume(std::span<const std::byte>)` and then releases them
    /// to the writer (data_tail). A span is valid only inside its callback. Stops after about `maxBytes`.
    /// Returns the number of records consumed.
    template <typename F> std::size_t drain(F&& consume, std::size_t maxBytes = SIZE_MAX);

    /// drain() plus decoding; `consume(const DecodedRecord&)`. Decode errors are counted in decodeErrors().
    template <typename F>
    std::size_t drainDecoded(
        const RecordDecoder& decoder, DecodedRecord& scratch, F&& consume, std::size_t maxBytes = SIZE_MAX);

    const RingStats& stats() const { return m_stats; }
    std::uint64_t decodeErrors() const { return m_decodeErrors; }
    const Error& lastDecodeError() const { return m_lastDecodeError; }
    /// Bytes written but not consumed yet.
    std::uint64_t pending() const { return loadHead() - loadTail(); }

private:
    explicit RingReader(RingView v)
        : m_view(v)
        , m_mask(v.dataSize - 1)
    { }
    std::uint64_t loadHead() const
    {
        return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(m_view.control + mmappage::DataHead))
            .load(std::memory_order_acquire);
    }
    std::uint64_t loadTail() const
    {
        return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(m_view.control + mmappage::DataTail))
            .load(std::memory_order_relaxed);
    }
    void storeTail(std::uint64_t tail)
    {
        std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(m_view.control + mmappage::DataTail))
            .store(tail, std::memory_order_release);
    }
    /// The record at `tail` (copied out when it straddles), or empty + resync when its header is impossible.
    std::span<const std::byte> recordAt(std::uint64_t& tail, std::uint64_t head);
    void count(std::span<const std::byte> record);

    RingView m_view;
    std::uint64_t m_mask;
    RingStats m_stats;
    std::vector<std::byte> m_copy;
    std::uint64_t m_decodeErrors = 0;
    Error m_lastDecodeError;
};

template <typename F> std::size_t RingReader::drain(F&& consume, std::size_t maxBytes)
{
    const std::uint64_t head = loadHead();
    std::uint64_t tail = loadTail();
    if (head - tail > m_view.dataSize) {
        // The writer lapped us (overwrite mode, or a writer that ignores data_tail): record boundaries are lost.
        ++m_stats.overruns;
        m_stats.overrunBytes += head - tail;
        storeTail(head);
        return 0;
    }
    std::size_t n = 0;
    std::uint64_t consumed = 0;
    while (tail != head && consumed < maxBytes) {
        const std::uint64_t before = tail;
        auto record = recordAt(tail, head);
        if (record.empty()) break; // resynchronised (tail == head) or incomplete
        count(record);
        consume(record);
        ++n;
        consumed += tail - before;
    }
    storeTail(tail);
    return n;
}

template <typename F>
std::size_t RingReader::drainDecoded(
    const RecordDecoder& decoder, DecodedRecord& scratch, F&& consume, std::size_t maxBytes)
{
    return drain(
        [&](std::span<const std::byte> record) {
            if (auto st = decoder.decode(record, scratch); !st) {
                ++m_decodeErrors;
                m_lastDecodeError = st.error();
                return;
            }
            consume(static_cast<const DecodedRecord&>(scratch));
        },
        maxBytes);
}

} // namespace rdt::pmu
