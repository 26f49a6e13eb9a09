// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfDataSessionRecords.h"

#include "PerfAttrsPayload.h"
#include "RecordAggregator.h"

#include <cstring>

namespace rdt::perfdata {

namespace {

/// A build-id as importToSession wrote it (lower-case hex); nullopt for anything else.
std::optional<BuildId> buildIdFromHex(const std::string& hex)
{
    BuildId id;
    if (hex.empty() || hex.size() % 2 || hex.size() / 2 > sizeof id.data) return std::nullopt;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        unsigned byte = 0;
        for (std::size_t k = 0; k < 2; ++k) {
            const char c = hex[i + k];
            const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (v < 0) return std::nullopt;
            byte = byte * 16 + static_cast<unsigned>(v);
        }
        id.data[i / 2] = static_cast<std::uint8_t>(byte);
    }
    id.size = static_cast<std::uint8_t>(hex.size() / 2);
    return id;
}

/// The header an aggregator needs: the events (for sampling settings) and the recorded build-ids.
Result<HeaderInfo> headerFromSession(session::SessionReader& reader, pmu::RecordDecoder& decoder)
{
    auto attrs = reader.pmuBatches("perf-attrs");
    if (!attrs) return attrs.error();
    if (attrs->empty())
        return makeError(reader.path() + " holds no imported perf.data records",
            "import a perf.data file with `rdtscope-cli import FILE -o SESSION`, or open the perf.data file itself");
    for (const auto& batch : *attrs)
        if (auto st = decoderFromAttrsPayload(batch.payload, decoder); !st) return st.error();
    HeaderInfo header;
    for (std::size_t i = 0; i < decoder.eventCount(); ++i)
        header.events.push_back(EventDesc { decoder.event(i), {}, {}, {}, 1.0 });
    header.hostname = reader.meta().host;
    header.osRelease = reader.meta().kernel;
    auto maps = reader.addressMaps();
    if (!maps) return maps.error();
    for (const auto& m : *maps) {
        auto id = buildIdFromHex(m.buildId);
        if (!id || header.buildIdFor(m.path)) continue;
        BuildIdEntry entry;
        entry.pid = static_cast<std::uint32_t>(m.pid);
        entry.id = *id;
        entry.filename = m.path;
        header.buildIds.push_back(std::move(entry));
    }
    return header;
}

} // namespace

bool holdsPerfRecords(session::SessionReader& reader)
{
    auto attrs = reader.pmuBatches("perf-attrs");
    return attrs && !attrs->empty();
}

Result<ImportResult> importSessionRecords(session::SessionReader& reader, const ImportOptions& options)
{
    pmu::RecordDecoder decoder;
    auto header = headerFromSession(reader, decoder);
    if (!header) return header.error();
    RecordAggregator aggregator(options, *header);
    ReadStats stats;
    pmu::DecodedRecord rec;
    auto st = reader.forEachPmuBatch("perf-records", [&](session::PmuBatch&& batch) {
        // Records as perf wrote them: each starts with a perf_event_header {u32 type; u16 misc; u16 size}.
        std::size_t at = 0;
        const auto* bytes = reinterpret_cast<const std::byte*>(batch.payload.data());
        while (at + 8 <= batch.payload.size()) {
            std::uint16_t size = 0;
            std::memcpy(&size, bytes + at + 6, sizeof size);
            if (size < 8 || size > batch.payload.size() - at) break;
            ++stats.records;
            stats.bytes += size;
            if (!decoder.decode({ bytes + at, size }, rec)) {
                ++stats.decodeErrors;
            } else {
                if (rec.kind == pmu::RecordKind::Sample) ++stats.samples;
                aggregator.add(rec);
            }
            at += size;
        }
        if (at != batch.payload.size()) {
            stats.truncated = true;
            stats.warnings.push_back("a stored batch of perf records ends inside a record: the rest of it is skipped");
        }
        if (options.read.progress && !options.read.progress(stats.bytes, 0)) stats.cancelled = true;
        return !stats.cancelled;
    });
    if (!st) return st.error();
    ImportResult out = aggregator.finish();
    out.stats = std::move(stats);
    out.header = std::move(header).value();
    return out;
}

} // namespace rdt::perfdata
