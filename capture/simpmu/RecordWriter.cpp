// SPDX-License-Identifier: GPL-3.0-or-later
#include "RecordWriter.h"

#include <cstring>

namespace rdt::pmu {

namespace {

template <typename T> void put(std::vector<std::byte>& out, T v)
{
    const auto at = out.size();
    out.resize(at + sizeof v);
    std::memcpy(out.data() + at, &v, sizeof v);
}

void putHeader(std::vector<std::byte>& out, std::uint32_t type, std::uint16_t misc)
{
    put(out, type);
    put(out, misc);
    put(out, std::uint16_t { 0 }); // size, patched by finish()
}

Status finish(std::vector<std::byte>& out, std::size_t start)
{
    while ((out.size() - start) % 8)
        out.push_back(std::byte { 0 });
    const std::size_t size = out.size() - start;
    if (size > 0xffff)
        return makeError("record of " + std::to_string(size) + " bytes exceeds perf_event_header.size (u16)");
    const auto s16 = static_cast<std::uint16_t>(size);
    std::memcpy(out.data() + start + 6, &s16, 2);
    return {};
}

void putString(std::vector<std::byte>& out, std::string_view s)
{
    const auto at = out.size();
    const std::size_t padded = (s.size() + 1 + 7) / 8 * 8; // NUL-terminated, padded to u64 [uapi char[] fields]
    out.resize(at + padded);
    std::memcpy(out.data() + at, s.data(), s.size());
}

} // namespace

void RecordWriter::sampleId(const EventAttr& attr, const SampleIdTrailer& id, std::vector<std::byte>& out)
{
    if (!attr.sampleIdAll()) return;
    const auto t = attr.sampleType;
    if (t & perf::SampleTid) {
        put(out, id.pid);
        put(out, id.tid);
    }
    if (t & perf::SampleTime) put(out, id.time);
    if (t & perf::SampleId) put(out, id.id);
    if (t & perf::SampleStreamId) put(out, id.streamId);
    if (t & perf::SampleCpu) {
        put(out, id.cpu);
        put(out, id.cpuRes);
    }
    if (t & perf::SampleIdentifier) put(out, id.identifier);
}

Status RecordWriter::sample(const EventAttr& attr, const Sample& s, std::vector<std::byte>& out)
{
    const auto t = attr.sampleType;
    if (t & (perf::SampleRead | perf::SampleRaw | perf::SampleAux))
        return makeError("the record writer does not produce READ, RAW or AUX sample fields");
    const std::size_t start = out.size();
    putHeader(out, perf::RecordSample, s.misc);
    if (t & perf::SampleIdentifier) put(out, s.identifier);
    if (t & perf::SampleIp) put(out, s.ip);
    if (t & perf::SampleTid) {
        put(out, s.pid);
        put(out, s.tid);
    }
    if (t & perf::SampleTime) put(out, s.time);
    if (t & perf::SampleAddr) put(out, s.addr);
    if (t & perf::SampleId) put(out, s.id);
    if (t & perf::SampleStreamId) put(out, s.streamId);
    if (t & perf::SampleCpu) {
        put(out, s.cpu);
        put(out, s.cpuRes);
    }
    if (t & perf::SamplePeriod) put(out, s.period);
    if (t & perf::SampleCallchain) {
        put(out, static_cast<std::uint64_t>(s.callchain.size()));
        for (auto ip : s.callchain)
            put(out, ip);
    }
    if (t & perf::SampleBranchStack) {
        put(out, static_cast<std::uint64_t>(s.branches.size()));
        if (attr.branchSampleType & perf::BranchHwIndex) put(out, s.hwIdx);
        for (const auto& b : s.branches) {
            put(out, b.from);
            put(out, b.to);
            put(out, b.flags);
        }
        if (attr.branchSampleType & perf::BranchCounters)
            for (std::size_t i = 0; i < s.branches.size(); ++i)
                put(out, i < s.branchCounters.size() ? s.branchCounters[i] : std::uint64_t { 0 });
    }
    if (t & perf::SampleRegsUser) put(out, std::uint64_t { 0 }); // PERF_SAMPLE_REGS_ABI_NONE: no registers follow
    if (t & perf::SampleStackUser) put(out, std::uint64_t { 0 }); // size 0: no data and no dyn_size
    if (t & perf::SampleWeightStruct) {
        put(out, s.weight.var1);
        put(out, s.weight.var2);
        put(out, s.weight.var3);
    } else if (t & perf::SampleWeight) {
        put(out, s.weight.full);
    }
    if (t & perf::SampleDataSrc) put(out, s.dataSrc);
    if (t & perf::SampleTransaction) put(out, s.transaction);
    if (t & perf::SampleRegsIntr) put(out, std::uint64_t { 0 });
    if (t & perf::SamplePhysAddr) put(out, s.physAddr);
    if (t & perf::SampleCgroup) put(out, s.cgroup);
    if (t & perf::SampleDataPageSize) put(out, s.dataPageSize);
    if (t & perf::SampleCodePageSize) put(out, s.codePageSize);
    return finish(out, start);
}

void RecordWriter::mmap2(
    const EventAttr& attr, const MmapRecord& m, const SampleIdTrailer& id, std::vector<std::byte>& out)
{
    const std::size_t start = out.size();
    putHeader(out, perf::RecordMmap2, perf::MiscUser);
    put(out, m.pid);
    put(out, m.tid);
    put(out, m.addr);
    put(out, m.len);
    put(out, m.pgoff);
    put(out, m.maj);
    put(out, m.min);
    put(out, m.ino);
    put(out, m.inoGeneration);
    put(out, m.prot);
    put(out, m.flags);
    putString(out, m.filename);
    sampleId(attr, id, out);
    (void)finish(out, start);
}

void RecordWriter::comm(const EventAttr& attr, std::uint32_t pid, std::uint32_t tid, std::string_view name, bool exec,
    const SampleIdTrailer& id, std::vector<std::byte>& out)
{
    const std::size_t start = out.size();
    putHeader(out, perf::RecordComm, static_cast<std::uint16_t>(exec ? perf::MiscCommExec : 0));
    put(out, pid);
    put(out, tid);
    putString(out, name);
    sampleId(attr, id, out);
    (void)finish(out, start);
}

void RecordWriter::throttle(const EventAttr& attr, bool unthrottle, std::uint64_t time, std::uint64_t id,
    const SampleIdTrailer& trailer, std::vector<std::byte>& out)
{
    const std::size_t start = out.size();
    putHeader(out, unthrottle ? perf::RecordUnthrottle : perf::RecordThrottle, 0);
    put(out, time);
    put(out, id);
    put(out, id); // stream_id
    sampleId(attr, trailer, out);
    (void)finish(out, start);
}

} // namespace rdt::pmu
