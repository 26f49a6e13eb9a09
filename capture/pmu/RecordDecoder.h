// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfRecord.h"
#include "core/Result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace rdt::pmu {

/// Reads struct perf_event_header from the first 8 bytes (error when fewer).
Result<RecordHeader> readRecordHeader(std::span<const std::byte> bytes);

/// Parses a perf_event_attr of any size (perf.data files hold 64..136+ byte attrs; unknown tail bytes ignored,
/// missing fields zero). `bytes.size()` bounds the read; attr.size inside must be >= 64 and <= bytes.size().
Result<EventAttr> parseEventAttr(std::span<const std::byte> bytes);

/// Serialises an attr as `size` bytes (64..136) in the kernel layout, for the simulated PMU and tests.
std::vector<std::byte> serializeEventAttr(const EventAttr& attr, std::uint32_t size = perf::AttrSizeVer8);

/// Decodes records (one at a time, whole records only) for a set of events.
///
/// Which event a record belongs to: with one event, that one; with several, the sample's id (IDENTIFIER first in
/// a SAMPLE and last in a sample_id trailer, else ID at the position the first event's sample_type gives, as perf
/// does: "ID vs IDENTIFIER" in perf.data-file-format.txt). Unknown ids fall back to the first event.
/// Errors are values; the decoder never reads past `record` (the header's size must equal record.size()).
class RecordDecoder {
public:
    RecordDecoder() = default;
    RecordDecoder(const RecordDecoder&) = delete;
    RecordDecoder& operator=(const RecordDecoder&) = delete;
    RecordDecoder(RecordDecoder&&) = default;
    RecordDecoder& operator=(RecordDecoder&&) = default;

    /// Adds an event and the sample ids the kernel gave its fds (PERF_EVENT_IOC_ID / perf.data's ids).
    /// Returns its index. Attr pointers stay valid for the decoder's life.
    std::size_t addEvent(const EventAttr& attr, std::span<const std::uint64_t> ids = {});
    /// Adds more ids to an existing event (pipe-mode HEADER_ATTR may repeat).
    void addIds(std::size_t eventIndex, std::span<const std::uint64_t> ids);
    void clear();

    std::size_t eventCount() const { return m_events.size(); }
    const EventAttr& event(std::size_t index) const { return *m_events[index]; }
    std::size_t eventIndex(const EventAttr* attr) const; ///< index of an attr returned by this decoder, or SIZE_MAX
    /// The event with this sample id, or null.
    const EventAttr* attrForId(std::uint64_t id) const;

    /// Decodes one whole record (header included) into `out` (reused: vectors keep capacity).
    Status decode(std::span<const std::byte> record, DecodedRecord& out) const;

    /// The attr a record belongs to (see the class comment); null when the decoder has no events.
    const EventAttr* attrForRecord(const RecordHeader& header, std::span<const std::byte> record) const;

    /// Decodes a PERF_RECORD_SAMPLE body (the bytes after the header) for `attr`.
    static Status decodeSample(std::span<const std::byte> body, const EventAttr& attr, Sample& out);
    /// Decodes a sample_id trailer: the last bytes of `body` per attr.sample_type (needs attr.sampleIdAll()).
    static Status decodeSampleId(std::span<const std::byte> body, const EventAttr& attr, SampleIdTrailer& out);
    /// Size in bytes of the sample_id trailer for this sample_type.
    static std::size_t sampleIdSize(std::uint64_t sampleType);

private:
    std::vector<std::unique_ptr<EventAttr>> m_events;
    std::unordered_map<std::uint64_t, std::size_t> m_byId;
};

} // namespace rdt::pmu
