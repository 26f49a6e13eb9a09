// SPDX-License-Identifier: GPL-3.0-or-later
#include "PerfDataSession.h"
#include "PerfAttrsPayload.h"
#include "core/Text.h"

#include "pmu/PerfRecordBytes.h"
#include "session/SessionWriter.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

namespace rdt::perfdata {

namespace {
std::string baseName(const std::string& p)
{
    const auto s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}
} // namespace

Result<SessionImportResult> importToSession(
    const std::string& perfData, const std::string& sessionPath, const ImportOptions& options, bool overwrite)
{
    // One pass: the records go into the aggregators and, raw, into ~1 MiB batches written as they fill. The
    // session needs the header first, so the file is opened once before to read it (features only, cheap).
    auto probe = PerfDataReader::open(perfData);
    if (!probe) return probe.error();
    const HeaderInfo& h = (*probe)->header();
    session::SessionMeta meta;
    meta.source = "import:" + baseName(perfData);
    meta.simulated = false;
    meta.host = h.hostname;
    meta.kernel = h.osRelease;
    meta.commandLine = h.commandLine();
    meta.toolVersion = "rdtscope perf.data import";
    session::MachineInfo machine;
    machine.description = (h.cpuDesc.empty() ? std::string("unknown CPU") : h.cpuDesc)
        + (h.nrCpusOnline ? ", " + std::to_string(*h.nrCpusOnline) + " CPUs online" : std::string())
        + (h.version.empty() ? std::string() : " (perf " + h.version + ")");
    for (const auto& s : h.topology.coreSiblings)
        machine.topology += "package cpus " + s + "\n";
    session::WriterOptions wo;
    wo.overwrite = overwrite;
    wo.inputs = { perfData }; // `import p.data -o p.data --force` must not replace the file it reads
    auto writer = session::SessionWriter::create(sessionPath, meta, machine, wo);
    if (!writer) return writer.error();
    auto& w = **writer;

    SessionImportResult result;
    std::vector<std::uint8_t> batch;
    session::PmuBatch pb;
    std::uint64_t batchSamples = 0, batchFirst = UINT64_MAX, batchLast = 0;
    std::optional<std::uint64_t> firstSampleNs; ///< in file order, as `report` and compare place time 0
    std::uint64_t lastSampleNs = 0;
    Status failure;
    auto flushBatch = [&]() {
        if (batch.empty() || !failure) return;
        pb.kind = "perf-records";
        pb.startNs = batchFirst == UINT64_MAX ? 0 : batchFirst;
        pb.endNs = batchLast;
        pb.count = batchSamples;
        pb.payload = std::move(batch);
        failure = w.addPmuBatch(pb);
        if (failure) failure = w.flush();
        ++result.batches;
        batch.clear();
        batchSamples = 0;
        batchFirst = UINT64_MAX;
        batchLast = 0;
    };
    ImportOptions opt = options;
    auto userRaw = options.read.onRawRecord;
    opt.read.onRawRecord = [&](std::span<const std::byte> rec) {
        const auto at = batch.size();
        batch.resize(at + rec.size());
        std::memcpy(batch.data() + at, rec.data(), rec.size());
        ++result.recordsStored;
        if (userRaw) userRaw(rec);
    };
    auto userRecord = options.onRecord;
    opt.onRecord = [&](const pmu::DecodedRecord& r) {
        std::uint64_t t = 0;
        if (r.kind == pmu::RecordKind::Sample) {
            ++batchSamples;
            t = r.sample.time;
            if (r.sample.has(pmu::perf::SampleTime)) {
                if (!firstSampleNs) firstSampleNs = t;
                lastSampleNs = std::max(lastSampleNs, t);
            }
        } else if (r.sampleId.present) {
            t = r.sampleId.time;
        }
        if (t) {
            batchFirst = std::min(batchFirst, t);
            batchLast = std::max(batchLast, t);
        }
        if (r.kind == pmu::RecordKind::Mmap && r.mmap.executable() && failure) {
            session::AddressMap m;
            m.timeNs = t;
            m.pid = r.mmap.pid;
            m.start = r.mmap.addr;
            m.end = r.mmap.addr + r.mmap.len;
            m.pgoff = r.mmap.pgoff;
            m.path = r.mmap.filename;
            if (r.mmap.hasBuildId)
                m.buildId = hexBytes(r.mmap.buildId, r.mmap.buildIdSize);
            else if (const auto* b = h.buildIdFor(r.mmap.filename))
                m.buildId = b->id.hex();
            failure = w.addAddressMap(m);
            ++result.addressMaps;
        }
        if (batch.size() >= (1u << 20)) flushBatch();
        if (userRecord) userRecord(r);
    };
    auto imported = importPerfData(perfData, opt);
    if (!imported) return imported.error();
    flushBatch();
    if (!failure) return failure.error();
    // The events last: pipe-mode files only know them once read.
    std::vector<std::vector<std::uint64_t>> ids;
    pmu::RecordDecoder events;
    for (const auto& e : imported->header.events) {
        ids.push_back(e.ids);
        events.addEvent(e.attr, e.ids);
    }
    session::PmuBatch attrs;
    attrs.kind = "perf-attrs";
    attrs.payload = encodeAttrsPayload(events, ids);
    attrs.count = imported->header.events.size();
    if (auto st = w.addPmuBatch(attrs); !st) return st.error();
    if (auto st = w.setMeta("perfdata_samples", std::to_string(imported->samples)); !st) return st.error();
    if (!h.cpuId.empty())
        if (auto st = w.setMeta("perfdata_cpuid", h.cpuId); !st) return st.error();
    if (firstSampleNs) {
        // The time axis starts at the first sample, as for the perf.data file itself; its end is the last one.
        if (auto st = w.setMeta("start_mono_ns", std::to_string(*firstSampleNs)); !st) return st.error();
        if (auto st = w.setMeta("perfdata_last_sample_ns", std::to_string(lastSampleNs)); !st) return st.error();
    }
    if (auto st = w.close("imported"); !st) return st.error();
    result.import = std::move(imported).value();
    return result;
}

} // namespace rdt::perfdata
