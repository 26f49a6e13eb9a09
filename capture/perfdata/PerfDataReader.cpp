// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a perf.data file's records, from a file or a pipe, through zstd-compressed ones (perf's
// tools/perf/util/session.c; docs/PMU.md). The file's header is PerfDataHeaderReader's.
#include "PerfDataReader.h"

#include "ParallelRecordWalk.h"
#include "PerfDataHeaderReader.h"
#include "ZstdStream.h"
#include "pmu/PerfRecordBytes.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace rdt::perfdata {

using pmu::loadAt;
namespace perf = pmu::perf;

namespace {
constexpr std::size_t MaxWarnings = 20;
} // namespace

PerfDataReader::PerfDataReader() = default;
PerfDataReader::~PerfDataReader() = default;

Result<std::unique_ptr<PerfDataReader>> PerfDataReader::open(const std::string& path)
{
    // pread(2) in bounded chunks, never mmap: a file cut short while it is read (perf still writing, a copy in
    // progress) then reads as end of file and is reported as truncated, where a mapping would raise SIGBUS.
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (!fd) return errnoError(errno, "cannot open " + path);
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0) return errnoError(errno, "cannot stat " + path);
    if (!S_ISREG(st.st_mode))
        return makeError(path + " is not a regular file",
            "give a perf.data file; for a pipe-mode stream use `perf record -o - | rdtscope-cli import -`");
    std::unique_ptr<PerfDataReader> r(new PerfDataReader);
    r->m_file = std::move(fd);
    r->m_fileSize = static_cast<std::uint64_t>(st.st_size);
    if (auto h = r->readHeader(); !h)
        return Error { h.error().code, path + ": " + h.error().message, h.error().advice };
    return r;
}

Result<std::unique_ptr<PerfDataReader>> PerfDataReader::fromBytes(std::span<const std::byte> bytes)
{
    std::unique_ptr<PerfDataReader> r(new PerfDataReader);
    r->m_bytes = bytes;
    r->m_fileSize = bytes.size();
    if (auto st = r->readHeader(); !st) return st.error();
    return r;
}

Result<std::unique_ptr<PerfDataReader>> PerfDataReader::openPipe(int fd)
{
    std::unique_ptr<PerfDataReader> r(new PerfDataReader);
    r->m_stream = true;
    r->m_input = std::make_unique<RecordInput>(ReadAhead::stream(fd));
    if (!r->ensure(PipeHeaderSize))
        return PerfDataHeaderReader::notPerfData("the stream ended before its 16-byte header");
    const auto* p = r->m_input->data();
    if (loadAt<std::uint64_t>(p) != MagicLE || loadAt<std::uint64_t>(p + 8) != PipeHeaderSize)
        return PerfDataHeaderReader::notPerfData(
            "the stream does not start with a pipe-mode header (PERFILE2, size 16)");
    r->consume(PipeHeaderSize);
    r->m_pipe = true;
    r->m_dataBegin = PipeHeaderSize;
    r->m_dataEnd = PipeHeaderSize; // unknown length
    return r;
}

Status PerfDataReader::readHeader()
{
    PerfDataHeaderReader h(m_file ? m_file.get() : -1, m_bytes, m_fileSize);
    if (auto st = h.read(m_header, m_decoder, m_attrEvents); !st) return st;
    m_pipe = h.pipeMode();
    m_dataBegin = h.dataBegin();
    m_dataEnd = h.dataEnd();
    m_pos = m_dataBegin;
    return {};
}

std::string ReadStats::damage() const
{
    std::string what;
    if (truncated) what = "the file is cut short (its last record or its data section ends early)";
    if (decodeErrors)
        what += (what.empty() ? "" : "; ") + std::to_string(decodeErrors) + " record"
            + (decodeErrors == 1 ? " does" : "s do") + " not decode and " + (decodeErrors == 1 ? "was" : "were")
            + " skipped";
    return what;
}

std::string PerfDataReader::shrankWhileRead() const
{
    return "the file ended at offset " + std::to_string(m_pos + m_input->available())
        + ", before the end of the data section it had when it was opened (" + std::to_string(m_dataEnd)
        + "): it was cut short while it was read";
}

void PerfDataReader::warn(ReadStats& stats, std::string w)
{
    if (stats.warnings.size() < MaxWarnings) stats.warnings.push_back(std::move(w));
}

Status PerfDataReader::skipPayload(std::uint64_t n, ReadStats& stats)
{
    stats.skippedPayloadBytes += n;
    const std::uint64_t skipped = m_input->skip(n);
    m_pos += skipped;
    if (skipped < n) {
        stats.truncated = true;
        return makeError("perf.data ends inside a payload of " + std::to_string(n - skipped) + " bytes");
    }
    return {};
}

Result<ReadStats> PerfDataReader::read(
    const std::function<bool(const pmu::DecodedRecord&)>& onRecord, const ReadOptions& options)
{
    if (m_readDone) return makeError("perf.data reader: the records were already read", "open the file again");
    m_readDone = true;
    m_options = &options;
    if (!m_input)
        m_input = m_file ? std::make_unique<RecordInput>(ReadAhead::file(m_file.get(), m_dataBegin, m_dataEnd))
                         : std::make_unique<RecordInput>(m_bytes.subspan(
                             static_cast<std::size_t>(m_dataBegin), static_cast<std::size_t>(m_dataEnd - m_dataBegin)));
    ReadStats stats;
    std::uint64_t nextProgress = options.progressEvery;
    if (auto st = readRecords(stats, onRecord, options, nextProgress); !st) {
        m_options = nullptr;
        return st.error();
    }
    finishRead(stats, options);
    return stats;
}

void PerfDataReader::finishRead(ReadStats& stats, const ReadOptions& options)
{
    if (options.progress && !stats.cancelled) options.progress(stats.bytes, m_stream ? 0 : m_dataEnd - m_dataBegin);
    if (m_header.events.empty()) m_header.events = m_attrEvents;
    m_options = nullptr;
}

Status PerfDataReader::readRecords(ReadStats& stats, const std::function<bool(const pmu::DecodedRecord&)>& onRecord,
    const ReadOptions& options, std::uint64_t& nextProgress)
{
    const std::uint64_t total = m_stream ? 0 : m_dataEnd - m_dataBegin;
    bool stop = false;
    while (!stop) {
        if (!ensure(perf::HeaderSize)) {
            const std::uint64_t left = m_input->available();
            if (m_file && m_pos + left < m_dataEnd) {
                stats.truncated = true;
                warn(stats, shrankWhileRead());
            } else if (left > 0) {
                stats.truncated = true;
                warn(stats, "the file ends inside a record header (" + std::to_string(left) + " stray bytes)");
            }
            break;
        }
        const std::byte* p = m_input->data();
        const auto size = loadAt<std::uint16_t>(p + 6);
        if (size < perf::HeaderSize)
            return makeError("perf.data: corrupt record header at offset " + std::to_string(m_pos) + " (size "
                    + std::to_string(size) + ")",
                "the file is damaged from here on; " + std::to_string(stats.records) + " records before it were read");
        if (!ensure(size)) {
            stats.truncated = true;
            if (m_file && m_pos + size <= m_dataEnd)
                warn(stats, shrankWhileRead());
            else
                warn(stats,
                    "the last record (at offset " + std::to_string(m_pos) + ", " + std::to_string(size)
                        + " bytes) is cut short: the file is truncated");
            break;
        }
        p = m_input->data();
        std::uint64_t payload = 0;
        auto st = handle({ p, size }, stats, onRecord, stop, payload);
        consume(size);
        stats.bytes += size;
        if (!st) return st.error();
        if (payload > 0) {
            if (auto sp = skipPayload(payload, stats); !sp) {
                warn(stats, sp.error().message);
                break;
            }
            stats.bytes += payload;
        }
        if (options.progress && stats.bytes >= nextProgress) {
            nextProgress = stats.bytes + options.progressEvery;
            if (!options.progress(stats.bytes, total)) {
                stats.cancelled = true;
                break;
            }
        }
    }
    return {};
}

bool PerfDataReader::canReadSharded(const ReadOptions& options) const
{
    return m_file && !m_pipe && !m_stream && !m_input && !m_readDone && !options.onRawRecord;
}

Result<ReadStats> PerfDataReader::readSharded(const std::function<void(const pmu::DecodedRecord&)>& onRecord,
    const std::function<void(unsigned thread, const pmu::DecodedRecord& sample, std::uint64_t at)>& onSample,
    const ReadOptions& options)
{
    if (!canReadSharded(options))
        return makeError("perf.data reader: this input cannot be read on several threads", "use read()");
    m_readDone = true;
    m_options = &options;
    constexpr unsigned Threads = ParallelRecordWalk::Threads;
    // Warnings with their record's offset: each source keeps its first MaxWarnings in file order, so the first
    // MaxWarnings of all of them, by offset, are the ones a single pass keeps.
    using Tagged = std::vector<std::pair<std::uint64_t, std::string>>;
    struct PerThread {
        ReadStats stats;
        Tagged warnings;
        pmu::DecodedRecord scratch;
    };
    std::vector<PerThread> threads(Threads);
    ReadStats stats;
    Tagged orderedWarnings;
    const auto ordered = [&](const pmu::DecodedRecord& rec) {
        onRecord(rec);
        return true;
    };
    std::optional<Error> failed;
    ParallelRecordWalk::Handlers h;
    h.isFast = [](std::uint32_t type) { return type == perf::RecordSample; };
    // Records that change how later ones decode (attrs, features, event names, build-ids) or are followed by a
    // payload that is not records: the single-threaded reader takes it from there.
    h.stopsWalk = [](std::uint32_t type) {
        return type == perf::RecordHeaderAttr || type == perf::RecordHeaderFeature || type == perf::RecordEventUpdate
            || type == perf::RecordHeaderBuildId || type == perf::RecordHeaderTracingData
            || type == perf::RecordAuxtrace;
    };
    h.onFast = [&](unsigned thread, std::span<const std::byte> rec, std::uint64_t at) {
        auto& t = threads[thread];
        ++t.stats.records;
        ++t.stats.byType[perf::RecordSample];
        if (auto st = m_decoder.decode(rec, t.scratch); !st) {
            ++t.stats.decodeErrors;
            if (t.warnings.size() < MaxWarnings)
                t.warnings.emplace_back(at, "record at offset " + std::to_string(at) + ": " + st.error().message);
            return;
        }
        if (t.scratch.kind == pmu::RecordKind::Sample) ++t.stats.samples;
        onSample(thread, t.scratch, at);
    };
    h.onOrdered = [&](std::span<const std::byte> rec, std::uint64_t at) {
        m_pos = at;
        bool stop = false;
        std::uint64_t payload = 0; // none: records with payloads stop the walk
        if (auto st = handle(rec, stats, ordered, stop, payload); !st && !failed) failed = st.error();
        for (auto& w : stats.warnings)
            if (orderedWarnings.size() < MaxWarnings) orderedWarnings.emplace_back(at, std::move(w));
        stats.warnings.clear();
    };
    const std::uint64_t total = m_dataEnd - m_dataBegin;
    std::uint64_t nextProgress = options.progressEvery;
    if (options.progress)
        h.progress = [&](std::uint64_t walked) {
            if (walked < nextProgress) return true;
            nextProgress = walked + options.progressEvery;
            return options.progress(walked, total);
        };
    ParallelRecordWalk walk(m_file.get(), m_dataBegin, m_dataEnd, std::move(h));
    const auto outcome = walk.run();

    Tagged warnings = std::move(orderedWarnings);
    for (auto& t : threads) {
        stats.records += t.stats.records;
        stats.samples += t.stats.samples;
        stats.decodeErrors += t.stats.decodeErrors;
        for (std::size_t i = 0; i < std::size(stats.byType); ++i)
            stats.byType[i] += t.stats.byType[i];
        warnings.insert(
            warnings.end(), std::make_move_iterator(t.warnings.begin()), std::make_move_iterator(t.warnings.end()));
    }
    std::stable_sort(warnings.begin(), warnings.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [at, w] : warnings)
        warn(stats, std::move(w));
    stats.bytes += outcome.bytes;
    if (failed) {
        m_options = nullptr;
        return *failed;
    }
    if (outcome.cancelled) {
        stats.cancelled = true;
        finishRead(stats, options);
        return stats;
    }
    // The rest (nothing, unless a record stopped the walk or the file ends early) in one pass from where it stopped.
    m_pos = outcome.stoppedAt;
    m_input = m_pos < m_dataEnd ? std::make_unique<RecordInput>(ReadAhead::file(m_file.get(), m_pos, m_dataEnd))
                                : std::make_unique<RecordInput>(std::span<const std::byte> {});
    if (auto st = readRecords(stats, ordered, options, nextProgress); !st) {
        m_options = nullptr;
        return st.error();
    }
    finishRead(stats, options);
    return stats;
}

Status PerfDataReader::handle(std::span<const std::byte> rec, ReadStats& stats,
    const std::function<bool(const pmu::DecodedRecord&)>& onRecord, bool& stop, std::uint64_t& payload)
{
    const auto type = loadAt<std::uint32_t>(rec.data());
    ++stats.records;
    if (type < 128) ++stats.byType[type];
    if (type < perf::RecordUserTypeStart) {
        if (type >= perf::RecordKernelMax) {
            ++stats.unknownRecords;
            return {};
        }
        if (m_options && m_options->onRawRecord) m_options->onRawRecord(rec);
        if (auto st = m_decoder.decode(rec, m_scratch); !st) {
            ++stats.decodeErrors;
            warn(stats, "record at offset " + std::to_string(m_pos) + ": " + st.error().message);
            return {};
        }
        switch (m_scratch.kind) {
        case pmu::RecordKind::Sample:
            ++stats.samples;
            break;
        case pmu::RecordKind::Lost:
            stats.lost += m_scratch.lost.lost;
            break;
        case pmu::RecordKind::LostSamples:
            stats.lostSamples += m_scratch.lostSamples.lost;
            break;
        default:
            break;
        }
        if (onRecord && !onRecord(m_scratch)) stop = true;
        return {};
    }
    const auto body = rec.subspan(perf::HeaderSize);
    switch (type) {
    case perf::RecordHeaderAttr: {
        auto attr = pmu::parseEventAttr(body);
        if (!attr) {
            ++stats.decodeErrors;
            warn(stats, "HEADER_ATTR: " + attr.error().message);
            return {};
        }
        const std::uint32_t attrBytes = attr->size == 0 ? perf::AttrSizeVer0 : attr->size;
        std::vector<std::uint64_t> ids((body.size() - attrBytes) / 8);
        if (!ids.empty()) std::memcpy(ids.data(), body.data() + attrBytes, ids.size() * 8);
        m_decoder.addEvent(*attr, ids);
        m_attrEvents.push_back({ *attr, {}, std::move(ids), {}, 1.0 });
        return {};
    }
    case perf::RecordHeaderFeature: {
        if (body.size() < 8) {
            warn(stats, "HEADER_FEATURE record without a feature id");
            return {};
        }
        const auto feat = loadAt<std::uint64_t>(body.data());
        if (feat < FeatureBits) {
            m_header.features.set(static_cast<std::size_t>(feat));
            (void)parseFeature(static_cast<unsigned>(feat), body.subspan(8), m_header);
        }
        return {};
    }
    case perf::RecordHeaderBuildId:
        (void)parseBuildIds(rec, m_header.buildIds);
        return {};
    case perf::RecordFinishedRound:
        ++stats.finishedRounds;
        return {};
    case perf::RecordEventUpdate:
        applyEventUpdate(body, stats);
        return {};
    case perf::RecordCompressed:
    case perf::RecordCompressed2:
        if (m_inCompressed) { // perf never nests them; refusing keeps m_decomp stable while we iterate it
            ++stats.decodeErrors;
            warn(stats, "a COMPRESSED record inside a COMPRESSED payload was skipped");
            return {};
        }
        return handleCompressed(rec, stats, onRecord, stop);
    case perf::RecordHeaderTracingData: // {header, u32 size}, then `size` bytes of tracing data (8-aligned)
        if (body.size() >= 4)
            payload = (std::uint64_t { loadAt<std::uint32_t>(body.data()) } + 7) & ~std::uint64_t { 7 };
        return {};
    case perf::RecordAuxtrace: // {header, u64 size, offset, reference, idx, tid, cpu, reserved}, then `size` bytes
        if (body.size() >= 8) payload = loadAt<std::uint64_t>(body.data());
        return {};
    default:
        if (type > perf::RecordCompressed2) ++stats.unknownRecords;
        return {};
    }
}

void PerfDataReader::applyEventUpdate(std::span<const std::byte> body, ReadStats& stats)
{
    // struct perf_record_event_update {header; u64 type; u64 id; union {char unit[]; double scale; char name[];
    // cpu map}} (tools/lib/perf/include/perf/event.h); perf applies it to the event owning `id`, overriding
    // what HEADER_ATTR or EVENT_DESC said (perf_event__process_event_update).
    enum : std::uint64_t { Unit = 0, Scale = 1, Name = 2, Cpus = 3 };
    if (body.size() < 16) {
        ++stats.decodeErrors;
        warn(stats, "EVENT_UPDATE record shorter than its type and id");
        return;
    }
    const auto type = loadAt<std::uint64_t>(body.data());
    const auto id = loadAt<std::uint64_t>(body.data() + 8);
    const auto data = body.subspan(16);
    if (type == Cpus) return; // a per-event CPU map matters to perf stat's aggregation, not to samples
    if (type > Cpus) {
        ++stats.unknownRecords;
        return;
    }
    if (type == Scale && data.size() < sizeof(double)) {
        ++stats.decodeErrors;
        warn(stats, "EVENT_UPDATE scale record without its value");
        return;
    }
    // Strings are NUL-terminated and padded to 8 bytes; a missing NUL ends at the record's end.
    const auto* chars = reinterpret_cast<const char*>(data.data());
    const std::string text(chars, std::find(chars, chars + data.size(), '\0'));
    bool found = false;
    auto apply = [&](std::vector<EventDesc>& events) {
        for (auto& e : events) {
            if (std::find(e.ids.begin(), e.ids.end(), id) == e.ids.end()) continue;
            found = true;
            if (type == Unit) e.unit = text;
            if (type == Name) e.name = text;
            if (type == Scale) e.scale = loadAt<double>(data.data());
        }
    };
    apply(m_attrEvents);
    apply(m_header.events);
    if (!found) warn(stats, "EVENT_UPDATE for sample id " + std::to_string(id) + ", which no event owns: ignored");
}

Status PerfDataReader::handleCompressed(std::span<const std::byte> rec, ReadStats& stats,
    const std::function<bool(const pmu::DecodedRecord&)>& onRecord, bool& stop)
{
    ++stats.compressedRecords;
    auto body = rec.subspan(perf::HeaderSize);
    if (loadAt<std::uint32_t>(rec.data()) == perf::RecordCompressed2) { // {header, u64 data_size, data[]}
        if (body.size() < 8) return {};
        const auto n = loadAt<std::uint64_t>(body.data());
        body = body.subspan(8, static_cast<std::size_t>(std::min<std::uint64_t>(n, body.size() - 8)));
    }
    if (!m_zstd) m_zstd = std::make_unique<ZstdStream>();
    const std::size_t before = m_decomp.size();
    if (auto st = m_zstd->decompress(body, m_decomp); !st) {
        ++stats.decodeErrors;
        warn(stats, st.error().message);
        m_decomp.resize(before);
        return {};
    }
    stats.decompressedBytes += m_decomp.size() - before;
    std::size_t at = 0;
    m_inCompressed = true;
    while (!stop && m_decomp.size() - at >= perf::HeaderSize) {
        const auto size = loadAt<std::uint16_t>(m_decomp.data() + at + 6);
        if (size < perf::HeaderSize) {
            ++stats.decodeErrors;
            warn(stats, "corrupt record inside a COMPRESSED payload; the rest of that payload is skipped");
            at = m_decomp.size();
            break;
        }
        if (m_decomp.size() - at < size) break; // continues in the next COMPRESSED record
        std::uint64_t payload = 0;
        const auto inner = std::span<const std::byte>(m_decomp.data() + at, size);
        auto st = handle(inner, stats, onRecord, stop, payload);
        at += size;
        if (!st) {
            m_inCompressed = false;
            return st;
        }
        if (payload > 0) { // AUXTRACE data inside a compressed stream: it follows the record there too
            const auto skip = std::min<std::uint64_t>(payload, m_decomp.size() - at);
            stats.skippedPayloadBytes += skip;
            at += static_cast<std::size_t>(skip);
        }
    }
    m_inCompressed = false;
    m_decomp.erase(m_decomp.begin(), m_decomp.begin() + static_cast<std::ptrdiff_t>(at));
    return {};
}

} // namespace rdt::perfdata
