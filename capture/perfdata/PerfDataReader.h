// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "PerfDataFeatures.h"
#include "RecordInput.h"
#include "core/Result.h"
#include "core/UniqueFd.h"
#include "pmu/RecordDecoder.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rdt::perfdata {

class ZstdStream;

/// What a pass over the records saw. Nothing is dropped silently: unknown records, malformed samples and skipped
/// payloads are counted here, with the first few problems spelled out in `warnings`.
struct ReadStats {
    std::uint64_t records = 0; ///< every record, including user records and records inside COMPRESSED ones
    std::uint64_t samples = 0;
    std::uint64_t bytes = 0; ///< bytes of the data section / stream consumed
    std::uint64_t byType[128] = {}; ///< per record type (types >= 128 are in unknownRecords)
    std::uint64_t unknownRecords = 0; ///< record types this reader does not know (skipped by their size)
    std::uint64_t compressedRecords = 0;
    std::uint64_t decompressedBytes = 0;
    std::uint64_t finishedRounds = 0;
    std::uint64_t lost = 0; ///< sum of PERF_RECORD_LOST.lost
    std::uint64_t lostSamples = 0; ///< sum of PERF_RECORD_LOST_SAMPLES.lost
    std::uint64_t decodeErrors = 0; ///< records whose body did not match their attr (skipped)
    std::uint64_t skippedPayloadBytes = 0; ///< AUXTRACE / TRACING_DATA payloads that follow their record
    bool cancelled = false;
    bool truncated = false; ///< the file ended inside a record or before the data section's end
    std::vector<std::string> warnings;

    /// What the file itself lost (a cut-short end, records that do not decode), in words; empty when nothing.
    /// Records perf itself dropped (LOST, LOST_SAMPLES) are not damage: perf said so while recording. The one
    /// rule `import` and `report` use for their exit code (1 unless --salvage).
    std::string damage() const;
};

struct ReadOptions {
    /// Called about every `progressEvery` bytes with (bytes done, total bytes; 0 when unknown as in a pipe).
    /// Return false to cancel: read() then stops and returns stats with `cancelled` set.
    std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
    std::uint64_t progressEvery = 4u << 20;
    /// Optional: the raw bytes of every kernel record (type < 64, including those inside COMPRESSED records),
    /// before it is decoded, e.g. to store the records in a session. Valid only during the call.
    std::function<void(std::span<const std::byte> record)> onRawRecord;
};

/// A perf.data reader: the file header, attrs and ids, feature sections and the record stream, in file mode
/// (read ahead in bounded chunks: ReadAhead, RecordInput) or pipe mode
/// (`perf record -o -`: in-band HEADER_ATTR / HEADER_FEATURE records; from a file or streamed from a descriptor).
/// PERF_RECORD_COMPRESSED payloads (zstd, `perf record -z`) are decompressed on the fly.
///
/// Records come in file order. perf itself re-sorts samples by time between FINISHED_ROUNDs (ordered events);
/// aggregations do not need that, and MMAPs precede the samples that use them in every file we have seen.
/// read(): a file is read ahead on a second thread (ReadAhead: the kernel's copy out of the page cache, about half
/// of an import's CPU time) while this one decodes and aggregates; records stay in file order on one thread.
/// readSharded(): both threads read and decode (ParallelRecordWalk), samples to per-thread aggregates.
/// EVENT_UPDATE records (pipe mode: event names, units and scales) update the event owning their id.
class PerfDataReader {
public:
    ~PerfDataReader();
    /// Opens a perf.data file (either mode). Header, attrs and features are read now (file mode).
    static Result<std::unique_ptr<PerfDataReader>> open(const std::string& path);
    /// Reads a pipe-mode stream from `fd` (not owned), e.g. stdin of `perf record -o - | rdtscope-cli import -`.
    static Result<std::unique_ptr<PerfDataReader>> openPipe(int fd);
    /// A reader over bytes in memory (tests, fuzzing). The bytes must outlive the reader.
    static Result<std::unique_ptr<PerfDataReader>> fromBytes(std::span<const std::byte> bytes);

    bool pipeMode() const { return m_pipe; }
    /// Features (file mode: complete after open; pipe mode: grows while read() meets HEADER_FEATURE records).
    /// header().events lists every event with its ids: from EVENT_DESC, or else from the attrs themselves.
    const HeaderInfo& header() const { return m_header; }
    const pmu::RecordDecoder& decoder() const { return m_decoder; }
    std::uint64_t dataSize() const { return m_dataEnd - m_dataBegin; }

    /// Walks every record once, in file order, calling `onRecord` for each decoded kernel record (samples, mmaps,
    /// comms, ...). `onRecord` returning false stops the walk early (not an error). Errors are returned only for
    /// failures that stop the walk (I/O errors, a corrupt record header); everything else is in ReadStats.
    /// A reader reads once (pipe streams cannot rewind).
    Result<ReadStats> read(
        const std::function<bool(const pmu::DecodedRecord&)>& onRecord, const ReadOptions& options = {});

    /// Whether readSharded() can read this input: a file (not a pipe or bytes in memory), no onRawRecord.
    bool canReadSharded(const ReadOptions& options) const;
    /// read() on two threads (ParallelRecordWalk): every SAMPLE record goes to `onSample` on the thread that read
    /// it (`thread` < ParallelRecordWalk::Threads; called concurrently, in no order between threads); every other
    /// record, and the samples inside COMPRESSED records or after a record that stops the parallel walk, to
    /// `onRecord` in file order, never concurrently. The same records and the same ReadStats as read() (progress
    /// comes from the calling thread; cancelling stops at a chunk's edge).
    Result<ReadStats> readSharded(const std::function<void(const pmu::DecodedRecord&)>& onRecord,
        const std::function<void(unsigned thread, const pmu::DecodedRecord& sample, std::uint64_t at)>& onSample,
        const ReadOptions& options = {});
    /// During an `onRecord` callback: the file offset of the record (of the COMPRESSED record holding it).
    std::uint64_t position() const { return m_pos; }

private:
    PerfDataReader();
    /// The record loop of read() from the cursor (m_input at m_pos) to the end; `nextProgress` carries on.
    Status readRecords(ReadStats& stats, const std::function<bool(const pmu::DecodedRecord&)>& onRecord,
        const ReadOptions& options, std::uint64_t& nextProgress);
    void finishRead(ReadStats& stats, const ReadOptions& options);
    Status readHeader(); ///< the file's header (PerfDataHeaderReader) into m_header, m_decoder, m_attrEvents
    bool ensure(std::size_t n) { return m_input->ensure(n); } ///< n bytes at the cursor (false at end of input)
    void consume(std::size_t n)
    {
        m_input->consume(n);
        m_pos += n;
    }
    Status skipPayload(std::uint64_t n, ReadStats& stats);
    /// Handles one whole record; sets `stop` when the callback asked to stop.
    Status handle(std::span<const std::byte> rec, ReadStats& stats,
        const std::function<bool(const pmu::DecodedRecord&)>& onRecord, bool& stop, std::uint64_t& payload);
    Status handleCompressed(std::span<const std::byte> rec, ReadStats& stats,
        const std::function<bool(const pmu::DecodedRecord&)>& onRecord, bool& stop);
    void warn(ReadStats& stats, std::string w);
    std::string shrankWhileRead() const;
    void applyEventUpdate(std::span<const std::byte> body, ReadStats& stats);

    UniqueFd m_file; ///< open(): the file, read with pread(2)
    std::uint64_t m_fileSize = 0; ///< size at open (the input's size for fromBytes)
    std::span<const std::byte> m_bytes; ///< fromBytes(): the whole input in memory
    bool m_stream = false; ///< openPipe(): a stream of unknown length
    std::unique_ptr<RecordInput> m_input; ///< the data section (made by openPipe(), else by read())
    std::uint64_t m_pos = 0; ///< absolute offset of the cursor
    std::uint64_t m_dataBegin = 0, m_dataEnd = 0;
    bool m_pipe = false;
    bool m_readDone = false;
    bool m_inCompressed = false;
    const ReadOptions* m_options = nullptr; ///< during read()
    std::vector<EventDesc> m_attrEvents; ///< from the attr section / HEADER_ATTR: header().events when no EVENT_DESC
    HeaderInfo m_header;
    pmu::RecordDecoder m_decoder;
    pmu::DecodedRecord m_scratch;
    std::unique_ptr<ZstdStream> m_zstd;
    std::vector<std::byte> m_decomp; ///< decompressed bytes not yet consumed (a record may span two payloads)
};

} // namespace rdt::perfdata
